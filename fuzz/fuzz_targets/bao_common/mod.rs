//! What the Bao fuzz targets share: editing a valid encoding, and reading a decoder while
//! checking what it releases.

use std::io::Read;

/// Reads to the end or the first error; checks every released byte against `expected`.
pub fn check(mut reader: impl Read, expected: &[u8]) {
    let mut got = 0;
    let mut buf = [0u8; 3000];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => {
                assert_eq!(got, expected.len(), "EOF before the end");
                return;
            }
            Ok(n) => {
                assert!(buf[..n] == expected[got..got + n], "a wrong byte was released");
                got += n;
            }
            Err(_) => return,
        }
    }
}

/// Applies 5-byte edits: a 4-byte offset and an xor byte; an xor of 0 cuts the data there, and
/// an offset past the end appends the byte.
pub fn edit(data: &mut Vec<u8>, edits: &[u8]) {
    for e in edits.chunks_exact(5) {
        let at = u32::from_le_bytes([e[0], e[1], e[2], e[3]]) as usize % (data.len() + 2);
        match (e[4], at < data.len()) {
            (0, _) => data.truncate(at),
            (x, true) => data[at] ^= x,
            (x, false) => data.push(x),
        }
    }
}
