//! Byte helpers shared by every hash type: hex encoding without allocation, constant-time
//! comparison, and wiping secrets.

use core::fmt;
use core::ops::Deref;

/// A lowercase hex string of at most `N` characters, held inline (no allocation).
///
/// Dereferences to `str`; returned by the `to_hex` methods of the hash types.
#[derive(Clone, Copy)]
pub struct HexString<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> HexString<N> {
    /// Encodes `bytes`. Panics if `2 * bytes.len() > N` (a bug in the caller, never user input).
    pub(crate) fn encode(bytes: &[u8]) -> Self {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        assert!(2 * bytes.len() <= N, "hex buffer too small");
        let mut buf = [0u8; N];
        for (i, &b) in bytes.iter().enumerate() {
            buf[2 * i] = DIGITS[(b >> 4) as usize];
            buf[2 * i + 1] = DIGITS[(b & 15) as usize];
        }
        HexString {
            buf,
            len: 2 * bytes.len(),
        }
    }

    /// The hex digits.
    pub fn as_str(&self) -> &str {
        // Only ASCII hex digits are ever written.
        core::str::from_utf8(&self.buf[..self.len]).expect("hex digits are ASCII")
    }
}

impl<const N: usize> Deref for HexString<N> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> fmt::Display for HexString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> fmt::Debug for HexString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> PartialEq for HexString<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}
impl<const N: usize> Eq for HexString<N> {}

impl<const N: usize> PartialEq<str> for HexString<N> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize> PartialEq<&str> for HexString<N> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<const N: usize> PartialEq<HexString<N>> for str {
    fn eq(&self, other: &HexString<N>) -> bool {
        self == other.as_str()
    }
}

impl<const N: usize> PartialEq<HexString<N>> for &str {
    fn eq(&self, other: &HexString<N>) -> bool {
        *self == other.as_str()
    }
}

impl<const N: usize> PartialOrd for HexString<N> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Ord for HexString<N> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// Hashes as the `str` it holds, as [`Borrow<str>`](core::borrow::Borrow) requires.
impl<const N: usize> core::hash::Hash for HexString<N> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl<const N: usize> AsRef<str> for HexString<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> core::borrow::Borrow<str> for HexString<N> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

/// Why a hex string could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexError {
    /// The string has this many characters, but exactly `expected` are required.
    InvalidLength {
        /// Characters given.
        found: usize,
        /// Characters required.
        expected: usize,
    },
    /// The character at this index is not a hex digit.
    InvalidChar {
        /// Position of the character.
        index: usize,
        /// The offending byte.
        byte: u8,
    },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            // The texts of the `blake3` crate's `HexError`, so that messages stay the same for
            // programs switching from it.
            HexError::InvalidLength { found, expected } => {
                write!(f, "expected {expected} hex bytes, received {found}")
            }
            HexError::InvalidChar { byte, .. } if byte.is_ascii() => {
                write!(f, "invalid hex character: {:?}", byte as char)
            }
            HexError::InvalidChar { byte, .. } => write!(f, "invalid hex character: 0x{byte:x}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for HexError {}

/// Decodes exactly `2 * N` hex digits (either case) into `N` bytes.
pub(crate) fn decode_hex<const N: usize>(hex: impl AsRef<[u8]>) -> Result<[u8; N], HexError> {
    let hex = hex.as_ref();
    if hex.len() != 2 * N {
        return Err(HexError::InvalidLength {
            found: hex.len(),
            expected: 2 * N,
        });
    }
    let digit = |index: usize| -> Result<u8, HexError> {
        let byte = hex[index];
        match byte {
            b'0'..=b'9' => Ok(byte - b'0'),
            b'a'..=b'f' => Ok(byte - b'a' + 10),
            b'A'..=b'F' => Ok(byte - b'A' + 10),
            _ => Err(HexError::InvalidChar { index, byte }),
        }
    };
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = (digit(2 * i)? << 4) | digit(2 * i + 1)?;
    }
    Ok(out)
}

/// Compares two byte strings in time that depends only on their lengths.
#[inline(never)]
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut diff = 0u8;
    for (x, y) in a.iter().zip(b) {
        diff |= x ^ y;
    }
    // Keep the optimiser from turning the loop into an early-exit comparison.
    core::hint::black_box(diff) == 0
}

/// Overwrites `bytes` with zeros in a way the optimiser may not remove, for key material.
pub(crate) fn wipe<T: Copy + Default>(items: &mut [T]) {
    for item in items.iter_mut() {
        // SAFETY: `item` is a valid, aligned, exclusive reference.
        unsafe { core::ptr::write_volatile(item, T::default()) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let bytes = [0x00, 0x01, 0xab, 0xff];
        let hex = HexString::<8>::encode(&bytes);
        assert_eq!(hex, "0001abff");
        assert_eq!("0001abff", hex);
        assert_eq!(*"0001abff", hex);
        assert_eq!(decode_hex::<4>("0001ABff"), Ok(bytes));
        assert_eq!(
            decode_hex::<4>("0001abf"),
            Err(HexError::InvalidLength {
                found: 7,
                expected: 8
            })
        );
        assert_eq!(
            decode_hex::<4>("0001abfg"),
            Err(HexError::InvalidChar {
                index: 7,
                byte: b'g'
            })
        );
    }

    #[test]
    fn constant_time_eq_works() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }

    #[test]
    fn wipe_zeroes() {
        let mut key = [7u8; 5];
        wipe(&mut key);
        assert_eq!(key, [0; 5]);
    }
}
