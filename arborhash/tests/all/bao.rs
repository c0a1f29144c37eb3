//! Bao against its oracles: the published vectors, the `bao` crate at group log 0, and for
//! every group log a reference written here on the `blake3` crate's subtree functions. Also
//! corruption, truncation and trailing data at every kind of position, seeking, the streaming
//! encoder, and outboard updates after appends.

use arborhash::bao::{self, Decoder, Error, GroupLog, SliceDecoder, SliceExtractor};
use arborhash::blake3::Hash;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{Cursor, Read, Seek, SeekFrom, Write};

/// An independent encoder and slicer, recursive over the spec's tree with groups.
mod reference {
    use blake3::hazmat::{self, HasherExt, Mode};

    pub struct Tree<'a> {
        pub input: &'a [u8],
        pub group_len: usize,
        pub outboard: bool,
        /// The slice's selected bytes; `None` for the whole encoding.
        pub range: Option<(usize, usize)>,
    }

    pub fn encode(input: &[u8], g: u8, outboard: bool) -> (Vec<u8>, [u8; 32]) {
        let tree = Tree {
            input,
            group_len: 1024 << g,
            outboard,
            range: None,
        };
        tree.run()
    }

    /// The slice of `count` bytes from `start`.
    pub fn slice(input: &[u8], g: u8, start: usize, count: usize) -> Vec<u8> {
        let len = input.len();
        let range = if start >= len {
            (len.saturating_sub(1), len)
        } else {
            (start, (start + count.max(1)).min(len))
        };
        let tree = Tree {
            input,
            group_len: 1024 << g,
            outboard: false,
            range: Some(range),
        };
        tree.run().0
    }

    impl Tree<'_> {
        fn run(&self) -> (Vec<u8>, [u8; 32]) {
            let mut out = (self.input.len() as u64).to_le_bytes().to_vec();
            let hash = self.node(0, self.input.len(), true, &mut out);
            (out, hash)
        }

        fn cv(&self, start: usize, len: usize, root: bool) -> [u8; 32] {
            let mut sink = Vec::new();
            let all = Tree {
                range: Some((0, 0)),
                ..*self
            };
            all.node_inner(start, len, root, &mut sink, false)
        }

        fn node(&self, start: usize, len: usize, root: bool, out: &mut Vec<u8>) -> [u8; 32] {
            self.node_inner(start, len, root, out, true)
        }

        fn node_inner(
            &self,
            start: usize,
            len: usize,
            root: bool,
            out: &mut Vec<u8>,
            emit: bool,
        ) -> [u8; 32] {
            let selected = match self.range {
                Some((lo, hi)) => root || (start < hi && lo < start + len),
                None => true,
            };
            let emit = emit && selected;
            let bytes = &self.input[start..start + len];
            if len <= self.group_len {
                if emit && !self.outboard {
                    out.extend_from_slice(bytes);
                }
                if root {
                    return *blake3::hash(bytes).as_bytes();
                }
                let mut hasher = blake3::Hasher::new();
                hasher.set_input_offset(start as u64);
                hasher.update(bytes);
                return hasher.finalize_non_root();
            }
            let left_len = hazmat::left_subtree_len(len as u64) as usize;
            let at = out.len();
            if emit {
                out.extend_from_slice(&[0; 64]);
            }
            let (left, right) = if emit {
                (
                    self.node_inner(start, left_len, false, out, true),
                    self.node_inner(start + left_len, len - left_len, false, out, true),
                )
            } else {
                (
                    self.cv(start, left_len, false),
                    self.cv(start + left_len, len - left_len, false),
                )
            };
            if emit {
                out[at..at + 32].copy_from_slice(&left);
                out[at + 32..at + 64].copy_from_slice(&right);
            }
            if root {
                *hazmat::merge_subtrees_root(&left, &right, Mode::Hash).as_bytes()
            } else {
                hazmat::merge_subtrees_non_root(&left, &right, Mode::Hash)
            }
        }
    }
}

fn g(log: u8) -> GroupLog {
    GroupLog::new(log).unwrap()
}

/// The vectors' input: a 4-byte little-endian counter from 1.
fn counter_input(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| ((i / 4 + 1) as u32).to_le_bytes()[i % 4])
        .collect()
}

fn random_input(rng: &mut ChaCha8Rng, len: usize) -> Vec<u8> {
    let mut v = vec![0; len];
    rng.fill(&mut v[..]);
    v
}

fn decode_all(encoded: &[u8], hash: &Hash, group_log: GroupLog) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    Decoder::new(encoded, hash, group_log)
        .read_to_end(&mut out)
        .map_err(Error::from)?;
    Ok(out)
}

fn decode_outboard(
    content: &[u8],
    outboard: &[u8],
    hash: &Hash,
    group_log: GroupLog,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    Decoder::new_outboard(content, outboard, hash, group_log)
        .read_to_end(&mut out)
        .map_err(Error::from)?;
    Ok(out)
}

/// Decodes `encoded` in small reads, checking that every released byte is the input's.
fn decode_checking_prefix(encoded: &[u8], hash: &Hash, group_log: GroupLog, input: &[u8]) -> bool {
    let mut decoder = Decoder::new(encoded, hash, group_log);
    let mut got = Vec::new();
    let mut buf = [0u8; 777];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => return got == input,
            Ok(n) => {
                got.extend_from_slice(&buf[..n]);
                assert!(got.len() <= input.len() && got[..] == input[..got.len()]);
            }
            Err(_) => return false,
        }
    }
}

fn extract(encoded: &[u8], start: u64, count: u64, group_log: GroupLog) -> Vec<u8> {
    let mut out = Vec::new();
    SliceExtractor::new(Cursor::new(encoded), start, count, group_log)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn extract_outboard(
    content: &[u8],
    outboard: &[u8],
    start: u64,
    count: u64,
    group_log: GroupLog,
) -> Vec<u8> {
    let mut out = Vec::new();
    SliceExtractor::new_outboard(
        Cursor::new(content),
        Cursor::new(outboard),
        start,
        count,
        group_log,
    )
    .read_to_end(&mut out)
    .unwrap();
    out
}

fn decode_slice(
    slice: &[u8],
    hash: &Hash,
    start: u64,
    count: u64,
    group_log: GroupLog,
) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    SliceDecoder::new(slice, hash, start, count, group_log)
        .read_to_end(&mut out)
        .map_err(Error::from)?;
    Ok(out)
}

fn expected_slice(input: &[u8], start: u64, count: u64) -> &[u8] {
    let start = (start as usize).min(input.len());
    let end = start.saturating_add(count as usize).min(input.len());
    &input[start..end]
}

fn flip(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut v = bytes.to_vec();
    v[at] ^= 1;
    v
}

mod vectors {
    use super::*;

    fn load() -> serde_json::Value {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testvectors/bao.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("the Bao vectors, {}: {e}", path.display()));
        serde_json::from_str(&text).unwrap()
    }

    fn cases<'a>(json: &'a serde_json::Value, section: &str) -> &'a Vec<serde_json::Value> {
        json[section].as_array().unwrap()
    }

    fn num(v: &serde_json::Value) -> u64 {
        v.as_u64().unwrap()
    }

    fn hex_hash(v: &serde_json::Value) -> Hash {
        Hash::from_hex(v.as_str().unwrap()).unwrap()
    }

    fn offsets(v: &serde_json::Value) -> Vec<usize> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|o| num(o) as usize)
            .collect()
    }

    #[test]
    fn hash() {
        let json = load();
        for case in cases(&json, "hash") {
            let input = counter_input(num(&case["input_len"]) as usize);
            assert_eq!(bao::hash(&input), hex_hash(&case["bao_hash"]));
        }
    }

    #[test]
    fn encode() {
        let json = load();
        for case in cases(&json, "encode") {
            let input = counter_input(num(&case["input_len"]) as usize);
            let (encoded, hash) = bao::encode(&input, GroupLog::ZERO);
            assert_eq!(hash, hex_hash(&case["bao_hash"]));
            assert_eq!(encoded.len() as u64, num(&case["output_len"]));
            assert_eq!(
                arborhash::blake3::hash(&encoded),
                hex_hash(&case["encoded_blake3"])
            );
            assert_eq!(decode_all(&encoded, &hash, GroupLog::ZERO).unwrap(), input);
            for at in offsets(&case["corruptions"]) {
                let bad = flip(&encoded, at);
                assert!(!decode_checking_prefix(&bad, &hash, GroupLog::ZERO, &input));
            }
        }
    }

    #[test]
    fn outboard() {
        let json = load();
        for case in cases(&json, "outboard") {
            let input = counter_input(num(&case["input_len"]) as usize);
            let (outboard, hash) = bao::outboard(&input, GroupLog::ZERO);
            assert_eq!(hash, hex_hash(&case["bao_hash"]));
            assert_eq!(outboard.len() as u64, num(&case["output_len"]));
            assert_eq!(
                arborhash::blake3::hash(&outboard),
                hex_hash(&case["encoded_blake3"])
            );
            let z = GroupLog::ZERO;
            assert_eq!(decode_outboard(&input, &outboard, &hash, z).unwrap(), input);
            for at in offsets(&case["outboard_corruptions"]) {
                assert!(decode_outboard(&input, &flip(&outboard, at), &hash, z).is_err());
            }
            for at in offsets(&case["input_corruptions"]) {
                assert!(decode_outboard(&flip(&input, at), &outboard, &hash, z).is_err());
            }
        }
    }

    #[test]
    fn seek() {
        let json = load();
        for case in cases(&json, "seek") {
            let input = counter_input(num(&case["input_len"]) as usize);
            let (encoded, hash) = bao::encode(&input, GroupLog::ZERO);
            let (outboard, _) = bao::outboard(&input, GroupLog::ZERO);
            for at in offsets(&case["seek_offsets"]) {
                let expected = &input[at.min(input.len())..];
                let mut decoder = Decoder::new(Cursor::new(&encoded), &hash, GroupLog::ZERO);
                assert_eq!(decoder.seek(SeekFrom::Start(at as u64)).unwrap(), at as u64);
                let mut rest = Vec::new();
                decoder.read_to_end(&mut rest).unwrap();
                assert_eq!(rest, expected);
                let mut decoder = Decoder::new_outboard(
                    Cursor::new(&input),
                    Cursor::new(&outboard),
                    &hash,
                    GroupLog::ZERO,
                );
                decoder.seek(SeekFrom::Start(at as u64)).unwrap();
                let mut rest = Vec::new();
                decoder.read_to_end(&mut rest).unwrap();
                assert_eq!(rest, expected);
            }
        }
    }

    #[test]
    fn slice() {
        let json = load();
        for case in cases(&json, "slice") {
            let input = counter_input(num(&case["input_len"]) as usize);
            let hash = hex_hash(&case["bao_hash"]);
            let z = GroupLog::ZERO;
            let (encoded, _) = bao::encode(&input, z);
            let (outboard, _) = bao::outboard(&input, z);
            for s in case["slices"].as_array().unwrap() {
                let (start, count) = (num(&s["start"]), num(&s["len"]));
                let slice = extract(&encoded, start, count, z);
                assert_eq!(slice.len() as u64, num(&s["output_len"]));
                assert_eq!(
                    arborhash::blake3::hash(&slice),
                    hex_hash(&s["output_blake3"])
                );
                assert_eq!(extract_outboard(&input, &outboard, start, count, z), slice);
                assert_eq!(
                    decode_slice(&slice, &hash, start, count, z).unwrap(),
                    expected_slice(&input, start, count)
                );
                for at in offsets(&s["corruptions"]) {
                    let bad = flip(&slice, at);
                    assert!(decode_slice(&bad, &hash, start, count, z).is_err());
                }
            }
        }
    }
}

/// Lengths across chunk, group and subtree boundaries.
fn lengths(max_group_len: usize) -> Vec<usize> {
    let mut v = vec![
        0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 3073,
    ];
    for k in [2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 100, 128, 129] {
        for d in [-1i64, 0, 1] {
            let n = (k * max_group_len) as i64 + d;
            if n > 0 {
                v.push(n as usize);
            }
        }
    }
    v.sort();
    v.dedup();
    v
}

#[test]
fn bao_crate_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut lens = lengths(1024);
    lens.extend((0..20).map(|_| rng.gen_range(0..6 << 20)));
    let z = GroupLog::ZERO;
    for len in lens {
        let input = random_input(&mut rng, len);
        let (encoded, hash) = bao::encode(&input, z);
        let (their_encoded, their_hash) = ::bao::encode::encode(&input);
        assert_eq!(hash.as_bytes(), their_hash.as_bytes(), "len {len}");
        assert!(encoded == their_encoded, "encode, len {len}");
        let (outboard, _) = bao::outboard(&input, z);
        let (their_outboard, _) = ::bao::encode::outboard(&input);
        assert!(outboard == their_outboard, "outboard, len {len}");
        assert!(decode_all(&encoded, &hash, z).unwrap() == input);
        assert!(decode_outboard(&input, &outboard, &hash, z).unwrap() == input);
        for _ in 0..4 {
            let start = rng.gen_range(0..=len as u64 + 2000);
            let count = match rng.gen_range(0..4) {
                0 => 0,
                1 => rng.gen_range(0..4096),
                _ => rng.gen_range(0..=len as u64 + 10),
            };
            let slice = extract(&encoded, start, count, z);
            let mut theirs = Vec::new();
            ::bao::encode::SliceExtractor::new(Cursor::new(&their_encoded), start, count)
                .read_to_end(&mut theirs)
                .unwrap();
            assert!(slice == theirs, "slice {start}+{count} of {len}");
            let decoded = decode_slice(&slice, &hash, start, count, z).unwrap();
            assert!(decoded == expected_slice(&input, start, count));
        }
    }
}

#[test]
fn reference_every_group_log() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for log in [0u8, 1, 2, 3, 4, 5, 6, 8, 10] {
        let gl = g(log);
        let group_len = 1024usize << log;
        let mut lens = lengths(group_len.min(64 * 1024));
        lens.extend((0..6).map(|_| rng.gen_range(0..4 << 20)));
        for len in lens {
            let input = random_input(&mut rng, len);
            let (encoded, hash) = bao::encode(&input, gl);
            let (ref_encoded, ref_hash) = reference::encode(&input, log, false);
            assert_eq!(hash, ref_hash, "G {log} len {len}");
            assert!(encoded == ref_encoded, "encode, G {log} len {len}");
            let (outboard, _) = bao::outboard(&input, gl);
            assert!(outboard == reference::encode(&input, log, true).0);
            let mut combined = Vec::new();
            bao::write_combined(&input, &outboard, gl, &mut combined).unwrap();
            assert!(combined == encoded);
            assert_eq!(
                outboard.len() as u64,
                bao::outboard_size(len as u64, gl),
                "outboard size"
            );
            assert!(decode_all(&encoded, &hash, gl).unwrap() == input);
            assert!(decode_outboard(&input, &outboard, &hash, gl).unwrap() == input);
            for _ in 0..3 {
                let start = rng.gen_range(0..=len + 3 * group_len);
                let count = match rng.gen_range(0..3) {
                    0 => 0,
                    _ => rng.gen_range(0..=len + 10),
                };
                let slice = extract(&encoded, start as u64, count as u64, gl);
                assert!(slice == reference::slice(&input, log, start, count));
                assert!(
                    extract_outboard(&input, &outboard, start as u64, count as u64, gl) == slice
                );
                let decoded = decode_slice(&slice, &hash, start as u64, count as u64, gl);
                assert!(decoded.unwrap() == expected_slice(&input, start as u64, count as u64));
            }
        }
    }
}

#[test]
fn streaming_encoder_matches_one_shot() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for log in [0u8, 1, 3, 4, 6] {
        let gl = g(log);
        let mut lens = lengths(1024 << log);
        lens.retain(|&n| n < 3 << 20);
        lens.push(rng.gen_range(0..3 << 20));
        for len in lens {
            let input = random_input(&mut rng, len);
            for outboard in [false, true] {
                let (expected, hash) = if outboard {
                    bao::outboard(&input, gl)
                } else {
                    bao::encode(&input, gl)
                };
                // Some bytes before the encoding, which the encoder must leave alone.
                let mut file = Cursor::new(b"prefix".to_vec());
                file.seek(SeekFrom::End(0)).unwrap();
                let mut encoder = if outboard {
                    bao::Encoder::new_outboard(file, gl).unwrap()
                } else {
                    bao::Encoder::new(file, gl).unwrap()
                };
                let mut rest = &input[..];
                while !rest.is_empty() {
                    let n = rng.gen_range(0..=rest.len().min(100_000));
                    encoder.write_all(&rest[..n]).unwrap();
                    rest = &rest[n..];
                }
                let (got_hash, file) = encoder.finalize().unwrap();
                assert_eq!(got_hash, hash);
                let bytes = file.into_inner();
                assert_eq!(&bytes[..6], b"prefix");
                assert!(
                    bytes[6..] == expected,
                    "G {log} len {len} outboard {outboard}"
                );
            }
        }
    }
}

/// Every byte flipped (or a sample, for larger encodings), every truncation, and trailing data:
/// each is an error, and no byte released before it is wrong.
#[test]
fn corruption_truncation_trailing() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for (log, len) in [
        (0u8, 0usize),
        (0, 1),
        (0, 1024),
        (0, 1025),
        (0, 5000),
        (1, 9000),
        (2, 3 * 4096 + 5),
        (4, 70_000),
    ] {
        let gl = g(log);
        let input = random_input(&mut rng, len);
        let (encoded, hash) = bao::encode(&input, gl);
        let every = encoded.len() <= 12_000;
        for at in 0..encoded.len() {
            if every || at < 200 || rng.gen_ratio(1, 50) {
                let bad = flip(&encoded, at);
                assert!(
                    !decode_checking_prefix(&bad, &hash, gl, &input),
                    "flip {at}"
                );
                assert!(
                    bao::decode(&bad, &hash, gl).is_err(),
                    "in memory, flip {at}"
                );
            }
        }
        for cut in 0..encoded.len() {
            if every || rng.gen_ratio(1, 50) {
                let err = decode_all(&encoded[..cut], &hash, gl).unwrap_err();
                assert!(matches!(err, Error::Truncated { .. }), "cut {cut}: {err}");
                let err = bao::decode(&encoded[..cut], &hash, gl).unwrap_err();
                assert!(
                    matches!(err, Error::Truncated { .. }),
                    "in memory, cut {cut}: {err}"
                );
            }
        }
        let mut longer = encoded.clone();
        longer.push(0);
        assert!(matches!(
            decode_all(&longer, &hash, gl),
            Err(Error::TrailingData)
        ));
        assert!(matches!(
            bao::decode(&longer, &hash, gl),
            Err(Error::TrailingData)
        ));
        let wrong = Hash::from([1; 32]);
        assert!(matches!(
            decode_all(&encoded, &wrong, gl),
            Err(Error::Mismatch { .. })
        ));
        assert!(matches!(
            bao::decode(&encoded, &wrong, gl),
            Err(Error::Mismatch { .. })
        ));
        // Outboard: corrupt tree, corrupt content, short and long content.
        let (outboard, _) = bao::outboard(&input, gl);
        for at in 0..outboard.len() {
            let bad = flip(&outboard, at);
            assert!(decode_outboard(&input, &bad, &hash, gl).is_err());
            assert!(bao::verify_outboard(&input, &bad, &hash, gl).is_err());
        }
        for cut in 0..outboard.len() {
            assert!(bao::verify_outboard(&input, &outboard[..cut], &hash, gl).is_err());
        }
        if !input.is_empty() {
            let at = rng.gen_range(0..input.len());
            assert!(decode_outboard(&flip(&input, at), &outboard, &hash, gl).is_err());
            assert!(bao::verify_outboard(&flip(&input, at), &outboard, &hash, gl).is_err());
            assert!(decode_outboard(&input[..len - 1], &outboard, &hash, gl).is_err());
            assert!(bao::verify_outboard(&input[..len - 1], &outboard, &hash, gl).is_err());
        }
        let mut long_input = input.clone();
        long_input.push(9);
        assert!(decode_outboard(&long_input, &outboard, &hash, gl).is_err());
        assert!(bao::verify_outboard(&long_input, &outboard, &hash, gl).is_err());
        // Slices: every byte of a middle slice flipped, and truncated. A slice that does not
        // reach the final leaf does not prove the length, so a changed header may decode, but
        // only to the right bytes.
        let (start, count) = (len as u64 / 3, len as u64 / 3 + 1);
        let slice = extract(&encoded, start, count, gl);
        for at in 0..slice.len() {
            if every || at < 200 || rng.gen_ratio(1, 20) {
                let bad = flip(&slice, at);
                match decode_slice(&bad, &hash, start, count, gl) {
                    Err(_) => {}
                    Ok(out) => assert!(
                        at < bao::HEADER_LEN && out == expected_slice(&input, start, count),
                        "flip {at} of a slice decoded to {} bytes",
                        out.len()
                    ),
                }
            }
        }
        for cut in 0..slice.len() {
            assert!(decode_slice(&slice[..cut], &hash, start, count, gl).is_err());
        }
    }
}

#[test]
fn seeking() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for (log, len) in [
        (0u8, 0usize),
        (0, 1),
        (0, 100_000),
        (3, 100_001),
        (5, 1 << 20),
    ] {
        let gl = g(log);
        let input = random_input(&mut rng, len);
        let (encoded, hash) = bao::encode(&input, gl);
        let (outboard, _) = bao::outboard(&input, gl);
        let mut combined = Decoder::new(Cursor::new(&encoded), &hash, gl);
        let mut split =
            Decoder::new_outboard(Cursor::new(&input), Cursor::new(&outboard), &hash, gl);
        for _ in 0..40 {
            let target = rng.gen_range(0..=len as u64 + 100);
            let from = match rng.gen_range(0..3) {
                0 => SeekFrom::Start(target),
                1 => SeekFrom::End(target as i64 - len as i64),
                _ => SeekFrom::Current(0),
            };
            let at = combined.seek(from).unwrap();
            assert_eq!(split.seek(from).unwrap(), at);
            let n = rng.gen_range(0..5000);
            let mut a = vec![0; n];
            let mut b = vec![0; n];
            let got = read_up_to(&mut combined, &mut a);
            assert_eq!(read_up_to(&mut split, &mut b), got);
            assert!(a[..got] == *expected_slice(&input, at, n as u64));
            assert!(b[..got] == a[..got]);
        }
        // A seek proves the length first: a corrupt final leaf fails any seek.
        if len > 0 {
            let bad = flip(&encoded, encoded.len() - 1);
            let mut decoder = Decoder::new(Cursor::new(&bad), &hash, gl);
            assert!(decoder.seek(SeekFrom::Start(0)).is_err());
            let mut decoder = Decoder::new(Cursor::new(&bad), &hash, gl);
            assert!(decoder.seek(SeekFrom::End(0)).is_err());
        }
    }
}

fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> usize {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]).unwrap() {
            0 => break,
            n => got += n,
        }
    }
    got
}

#[test]
fn append_updates_outboard() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for log in [0u8, 2, 4] {
        let gl = g(log);
        let group_len = 1024usize << log;
        for _ in 0..25 {
            let old_len = match rng.gen_range(0..3) {
                0 => rng.gen_range(0..4) * group_len,
                1 => rng.gen_range(0..64) * group_len,
                _ => rng.gen_range(0..(200 * group_len).min(3 << 20)),
            };
            let new_len = old_len
                + match rng.gen_range(0..3) {
                    0 => rng.gen_range(0..3),
                    1 => rng.gen_range(0..2 * group_len),
                    _ => rng.gen_range(0..3 << 20),
                };
            let input = random_input(&mut rng, new_len);
            let (old, _) = bao::outboard(&input[..old_len], gl);
            let (new, hash) = bao::append_outboard(&old, &mut Cursor::new(&input), gl).unwrap();
            let (expected, expected_hash) = bao::outboard(&input, gl);
            assert_eq!(hash, expected_hash);
            assert!(new == expected, "G {log}: {old_len} -> {new_len}");
        }
    }
}

/// `outboard_to`'s pieces, put where they say, are the outboard: every byte handed over once,
/// across its 4 MiB pieces and their parents, at several group logs; an error stops it.
#[test]
fn outboard_to_pieces_make_the_outboard() {
    use std::sync::Mutex;
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    const PIECE: usize = 4 << 20;
    for log in [0u8, 4, 10] {
        let gl = g(log);
        let mut lens = vec![0, 1, 1025, PIECE, 2 * PIECE + 1, 3 * PIECE + 1024 * 1025];
        lens.push(rng.gen_range(PIECE..5 * PIECE));
        for len in lens {
            let input = random_input(&mut rng, len);
            let (expected, expected_hash) = bao::outboard(&input, gl);
            let got = Mutex::new((vec![0u8; expected.len()], vec![0u8; expected.len()]));
            let hash = bao::outboard_to(&input, gl, |at, piece| {
                let mut got = got.lock().unwrap();
                let range = at as usize..at as usize + piece.len();
                got.0[range.clone()].copy_from_slice(piece);
                got.1[range].iter_mut().for_each(|n| *n += 1);
                Ok::<(), ()>(())
            })
            .unwrap();
            let (bytes, counts) = got.into_inner().unwrap();
            assert_eq!(hash, expected_hash, "G {log}, len {len}");
            assert!(bytes == expected, "G {log}, len {len}");
            assert!(counts.iter().all(|&n| n == 1), "G {log}, len {len}");
        }
    }
    let input = random_input(&mut rng, 3 * PIECE);
    let failed = bao::outboard_to(&input, g(0), |at, _| if at == 8 { Err(at) } else { Ok(()) });
    assert_eq!(failed, Err(8));
}

#[test]
fn group_log_limit() {
    assert!(matches!(
        GroupLog::new(GroupLog::MAX + 1),
        Err(Error::InvalidGroupLog(_))
    ));
    assert_eq!(g(4).group_len(), 16 * 1024);
}

/// Every backend, forced for this thread and for the process (the decoder verifies on rayon's
/// threads, which use the process-wide backend; other tests running meanwhile only get slower
/// or faster), up to 3 MiB, where large reads go in pieces.
#[test]
fn every_backend_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for backend in arborhash::platform::Backend::ALL {
        arborhash::platform::force_backend(backend);
        arborhash::platform::with_backend(backend, || {
            for log in [0u8, 2, 4] {
                let gl = g(log);
                for len in [0, 1, 1025, 5000, 16 * 1024 + 1, 65 * 1024, 100_000, 3 << 20] {
                    let input = random_input(&mut rng, len);
                    let (encoded, hash) = bao::encode(&input, gl);
                    assert!(
                        encoded == reference::encode(&input, log, false).0,
                        "{backend}"
                    );
                    let (outboard, _) = bao::outboard(&input, gl);
                    assert!(
                        outboard == reference::encode(&input, log, true).0,
                        "{backend}"
                    );
                    assert!(decode_all(&encoded, &hash, gl).unwrap() == input);
                    assert!(bao::decode(&encoded, &hash, gl).unwrap() == input);
                    // Into an output at every alignment to the copy's 64-byte lines.
                    let skew = rng.gen_range(0..64);
                    let mut out = vec![0; skew + len];
                    bao::decode_into(&encoded, &hash, gl, &mut out[skew..]).unwrap();
                    assert!(out[skew..] == input, "{backend}, output skewed {skew}");
                    bao::verify_outboard(&input, &outboard, &hash, gl).unwrap();
                    let bad = flip(&encoded, encoded.len() / 2);
                    assert!(!decode_checking_prefix(&bad, &hash, gl, &input));
                    let start = len as u64 / 2;
                    let slice = extract(&encoded, start, 3000, gl);
                    let decoded = decode_slice(&slice, &hash, start, 3000, gl).unwrap();
                    assert!(decoded == expected_slice(&input, start, 3000));
                }
            }
        });
    }
    arborhash::platform::reset_backend();
}

/// Encodings that start inside their streams (after other data, or after reads).
#[test]
fn streams_not_at_zero() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let gl = g(1);
    let input = random_input(&mut rng, 50_000);
    let (encoded, hash) = bao::encode(&input, gl);
    let mut stream = b"junk!".to_vec();
    stream.extend_from_slice(&encoded);
    let mut cursor = Cursor::new(&stream);
    cursor.seek(SeekFrom::Start(5)).unwrap();
    let mut decoder = Decoder::new(cursor, &hash, gl);
    let mut first = [0u8; 100];
    decoder.read_exact(&mut first).unwrap();
    assert!(first[..] == input[..100]);
    assert_eq!(decoder.seek(SeekFrom::Current(900)).unwrap(), 1000);
    let mut rest = Vec::new();
    decoder.read_to_end(&mut rest).unwrap();
    assert!(rest == input[1000..]);

    let mut cursor = Cursor::new(&stream);
    cursor.seek(SeekFrom::Start(5)).unwrap();
    let slice = {
        let mut out = Vec::new();
        SliceExtractor::new(cursor, 20_000, 5000, gl)
            .read_to_end(&mut out)
            .unwrap();
        out
    };
    assert!(slice == extract(&encoded, 20_000, 5000, gl));
}

/// `bao-tree` (the crate iroh uses) builds the same tree with chunk groups: its pre-order
/// outboard is our outboard without the 8-byte length header, and its encoding of all ranges is
/// our combined encoding without the header, for every G.
#[test]
fn bao_tree_oracle() {
    use bao_tree::io::outboard::PreOrderMemOutboard;
    use bao_tree::{BlockSize, ChunkRanges};
    let mut rng = ChaCha8Rng::seed_from_u64(416);
    for log in [0u8, 2, 4, 8] {
        let gl = g(log);
        let group_len = 1024usize << log;
        let mut lens = lengths(group_len.min(16 * 1024));
        lens.extend((0..4).map(|_| rng.gen_range(0..3 << 20)));
        for len in lens {
            let input = random_input(&mut rng, len);
            let theirs = PreOrderMemOutboard::create(&input, BlockSize::from_chunk_log(log));
            let (outboard, hash) = bao::outboard(&input, gl);
            assert_eq!(hash.as_bytes(), theirs.root.as_bytes(), "G {log} len {len}");
            assert_eq!(outboard[..8], (len as u64).to_le_bytes());
            assert!(
                outboard[8..] == theirs.data[..],
                "outboard, G {log} len {len}"
            );
            let mut their_encoded = Vec::new();
            bao_tree::io::sync::encode_ranges_validated(
                &input[..],
                &theirs,
                &ChunkRanges::all(),
                &mut their_encoded,
            )
            .unwrap();
            let (encoded, _) = bao::encode(&input, gl);
            assert!(
                encoded[8..] == their_encoded[..],
                "encode, G {log} len {len}"
            );
        }
    }
}

/// Reads of megabytes, which the decoder fills in pieces, each verified while the next is read: a
/// corrupt byte anywhere (a parent above the pieces, the first, a middle or the last piece)
/// fails the read, no read returns a byte that is not the input's, and every whole 1 MiB piece
/// before a corrupt content byte is returned before the error.
#[test]
fn large_reads_verify_every_piece() {
    const PIECE: usize = 1 << 20;
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for log in [0u8, 2, 9] {
        let gl = g(log);
        let len = (3 << 20) + 5000;
        let input = random_input(&mut rng, len);
        let (encoded, hash) = bao::encode(&input, gl);
        let (outboard, _) = bao::outboard(&input, gl);
        // (The middle one ends between pieces, where a subtree waits for the next read.)
        for read_len in [1 << 20, (3 << 19) + 100, 4 << 20] {
            // Ok for the whole input, else the number of bytes returned before the error.
            let decode = |encoded: &[u8], content: Option<&[u8]>| -> Result<(), usize> {
                let mut buf = vec![0u8; read_len];
                let mut got = Vec::new();
                let mut reader: Box<dyn Read> = match content {
                    Some(content) => Box::new(Decoder::new_outboard(content, encoded, &hash, gl)),
                    None => Box::new(Decoder::new(encoded, &hash, gl)),
                };
                loop {
                    match reader.read(&mut buf) {
                        Ok(0) if got == input => return Ok(()),
                        Ok(0) => return Err(got.len()),
                        Ok(n) => {
                            got.extend_from_slice(&buf[..n]);
                            assert!(got[..] == input[..got.len()], "G {log} read {read_len}");
                        }
                        Err(_) => return Err(got.len()),
                    }
                }
            };
            assert_eq!(decode(&encoded, None), Ok(()));
            assert_eq!(decode(&outboard, Some(&input)), Ok(()));
            let places = [
                8,
                8 + 64 * 3,
                encoded.len() / 3,
                encoded.len() / 2,
                encoded.len() - 1,
            ];
            for at in places {
                assert!(
                    decode(&flip(&encoded, at), None).is_err(),
                    "G {log} at {at}"
                );
            }
            for at in [8, outboard.len() / 2, outboard.len() - 1] {
                assert!(
                    decode(&flip(&outboard, at), Some(&input)).is_err(),
                    "G {log} at {at}"
                );
            }
            for at in [0, len / 2, len - 1] {
                let released = decode(&outboard, Some(&flip(&input, at))).unwrap_err();
                assert!(
                    released >= at / PIECE * PIECE,
                    "G {log} read {read_len} at {at}: {released} released"
                );
            }
        }
    }
}

/// The in-memory decoder and outboard check: the input back for every length kind, the
/// `bao` crate's encodings, and an error for every corruption, truncation, trailing byte,
/// wrong hash, wrong output size and forged length.
mod in_memory {
    use super::*;

    fn decode_both(encoded: &[u8], hash: &Hash, gl: GroupLog) -> Result<Vec<u8>, Error> {
        let decoded = bao::decode(encoded, hash, gl);
        if let Ok(content) = &decoded {
            let mut out = vec![0xa5; content.len()];
            bao::decode_into(encoded, hash, gl, &mut out).unwrap();
            assert!(out == *content);
        }
        decoded
    }

    #[test]
    fn round_trip_every_length() {
        let mut rng = ChaCha8Rng::seed_from_u64(240);
        for log in [0u8, 4, 8] {
            let gl = g(log);
            let mut lens = lengths(1024 << log);
            lens.retain(|&n| n <= 9 << 20);
            lens.extend((0..6).map(|_| rng.gen_range(0..4 << 20)));
            for len in lens {
                let input = random_input(&mut rng, len);
                let (encoded, hash) = bao::encode(&input, gl);
                assert!(
                    decode_both(&encoded, &hash, gl).unwrap() == input,
                    "{log} {len}"
                );
                let (outboard, _) = bao::outboard(&input, gl);
                bao::verify_outboard(&input, &outboard, &hash, gl).unwrap();
            }
        }
    }

    #[test]
    fn bao_crate_encodings() {
        let mut rng = ChaCha8Rng::seed_from_u64(241);
        let mut lens = lengths(1024);
        lens.extend((0..6).map(|_| rng.gen_range(0..3 << 20)));
        for len in lens {
            let input = random_input(&mut rng, len);
            let (encoded, hash) = ::bao::encode::encode(&input);
            let hash = Hash::from(*hash.as_bytes());
            let decoded = decode_both(&encoded, &hash, GroupLog::ZERO).unwrap();
            assert!(decoded == input, "len {len}");
            let (outboard, _) = ::bao::encode::outboard(&input);
            bao::verify_outboard(&input, &outboard, &hash, GroupLog::ZERO).unwrap();
        }
    }

    /// Trees split across threads (the small ones are in `corruption_truncation_trailing`):
    /// sampled corruptions and truncations, and outputs of the wrong size.
    #[test]
    fn large_corruption_truncation_and_output_size() {
        let mut rng = ChaCha8Rng::seed_from_u64(242);
        for (log, len) in [(0u8, 300_000usize), (4, 600_000), (0, 3 << 20)] {
            let gl = g(log);
            let input = random_input(&mut rng, len);
            let (encoded, hash) = bao::encode(&input, gl);
            for _ in 0..300 {
                let at = rng.gen_range(0..encoded.len());
                assert!(
                    decode_both(&flip(&encoded, at), &hash, gl).is_err(),
                    "flip {at}"
                );
                let cut = rng.gen_range(0..encoded.len());
                let err = decode_both(&encoded[..cut], &hash, gl).unwrap_err();
                assert!(matches!(err, Error::Truncated { .. }), "cut {cut}: {err}");
            }
            let (outboard, _) = bao::outboard(&input, gl);
            for _ in 0..100 {
                let at = rng.gen_range(0..outboard.len());
                assert!(bao::verify_outboard(&input, &flip(&outboard, at), &hash, gl).is_err());
                let at = rng.gen_range(0..input.len());
                assert!(bao::verify_outboard(&flip(&input, at), &outboard, &hash, gl).is_err());
            }
            for out_len in [len - 1, len + 1] {
                let mut out = vec![0; out_len];
                assert!(bao::decode_into(&encoded, &hash, gl, &mut out).is_err());
            }
        }
    }

    /// A header claiming far more than the encoding holds fails before any allocation (an
    /// allocation of that size would abort the test).
    #[test]
    fn forged_length_allocates_nothing() {
        let input = vec![3u8; 5000];
        let (encoded, hash) = bao::encode(&input, GroupLog::ZERO);
        for forged in [1u64 << 40, 1 << 62, u64::MAX] {
            let mut bad = encoded.clone();
            bad[..bao::HEADER_LEN].copy_from_slice(&forged.to_le_bytes());
            let err = bao::decode(&bad, &hash, GroupLog::ZERO).unwrap_err();
            assert!(
                matches!(err, Error::Truncated { .. } | Error::LengthOverflow),
                "{forged}: {err}"
            );
            assert!(bao::verify_outboard(&input, &bad, &hash, GroupLog::ZERO).is_err());
        }
    }
}
