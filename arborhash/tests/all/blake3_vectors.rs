//! The published BLAKE3 test vectors (`testvectors/blake3.json`), in all three modes, on
//! every backend, through every API that produces a hash.

use crate::reference::blake3 as reference;

use arborhash::blake3::{self, hazmat, many, Hasher};
use arborhash::platform::{with_backend, Backend};
use std::io::{Read, Seek, SeekFrom};

struct Case {
    input_len: usize,
    hash: Vec<u8>,
    keyed_hash: Vec<u8>,
    derive_key: Vec<u8>,
}

struct Vectors {
    key: [u8; 32],
    context: String,
    cases: Vec<Case>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn load() -> Vectors {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testvectors/blake3.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the BLAKE3 vectors, {}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cases = json["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            input_len: c["input_len"].as_u64().unwrap() as usize,
            hash: unhex(c["hash"].as_str().unwrap()),
            keyed_hash: unhex(c["keyed_hash"].as_str().unwrap()),
            derive_key: unhex(c["derive_key"].as_str().unwrap()),
        })
        .collect();
    Vectors {
        key: json["key"].as_str().unwrap().as_bytes().try_into().unwrap(),
        context: json["context_string"].as_str().unwrap().to_owned(),
        cases,
    }
}

fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

/// Checks a reader's output against `expected` (131 bytes): whole, as every prefix length a
/// caller might ask for, and read in odd pieces after seeking.
fn check_reader(mut reader: blake3::OutputReader, expected: &[u8], what: &str) {
    let start = reader.clone();
    let mut out = vec![0u8; expected.len()];
    reader.fill(&mut out);
    assert_eq!(out, expected, "{what}: extended output");
    assert_eq!(reader.position(), expected.len() as u64);
    for len in [0, 1, 31, 32, 63, 64, 65, 100] {
        let mut prefix = vec![0u8; len];
        start.clone().fill(&mut prefix);
        assert_eq!(prefix, expected[..len], "{what}: {len}-byte prefix");
    }
    let mut r = start.clone();
    r.seek(SeekFrom::Start(7)).unwrap();
    let mut piece = [0u8; 70];
    r.read_exact(&mut piece).unwrap();
    assert_eq!(piece, expected[7..77], "{what}: read after seek");
    r.set_position(100);
    let mut tail = [0u8; 31];
    r.fill(&mut tail);
    assert_eq!(tail, expected[100..131], "{what}: fill after set_position");
}

#[test]
fn reference_matches_vectors() {
    let v = load();
    for case in &v.cases {
        let input = input(case.input_len);
        let mut out = [0u8; 131];
        reference::xof(&input, reference::IV_WORDS, 0, 0, &mut out);
        assert_eq!(out[..], case.hash[..], "len {}", case.input_len);
        assert_eq!(reference::keyed_hash(&v.key, &input), case.keyed_hash[..32]);
        assert_eq!(
            reference::derive_key(&v.context, &input),
            case.derive_key[..32]
        );
    }
}

#[test]
fn every_backend_matches_vectors() {
    let v = load();
    for backend in Backend::ALL {
        with_backend(backend, || {
            for case in &v.cases {
                let input = input(case.input_len);
                let what = format!("{backend} len {}", case.input_len);
                // One-shot.
                assert_eq!(blake3::hash(&input), case.hash[..32], "{what}: hash");
                assert_eq!(
                    blake3::keyed_hash(&v.key, &input),
                    case.keyed_hash[..32],
                    "{what}: keyed_hash"
                );
                assert_eq!(
                    blake3::derive_key(&v.context, &input)[..],
                    case.derive_key[..32],
                    "{what}: derive_key"
                );
                // Incremental, extended output.
                let hashers = [
                    (Hasher::new(), &case.hash, "hash"),
                    (Hasher::new_keyed(&v.key), &case.keyed_hash, "keyed"),
                    (
                        Hasher::new_derive_key(&v.context),
                        &case.derive_key,
                        "derive",
                    ),
                ];
                for (mut hasher, expected, mode) in hashers {
                    hasher.update(&input);
                    assert_eq!(hasher.count(), input.len() as u64);
                    assert_eq!(hasher.finalize(), expected[..32], "{what}: {mode} finalize");
                    check_reader(hasher.finalize_xof(), expected, &format!("{what}: {mode}"));
                }
                // Batch.
                let inputs = [&input[..], &input[..]];
                let mut hashes = [blake3::Hash::from_bytes([0; 32]); 2];
                many::hash_many(&inputs, &mut hashes);
                assert_eq!(hashes[1], case.hash[..32], "{what}: hash_many");
                many::keyed_hash_many(&v.key, &inputs, &mut hashes);
                assert_eq!(hashes[1], case.keyed_hash[..32], "{what}: keyed_hash_many");
                let mut keys = [[0u8; 32]; 2];
                many::derive_key_many(&v.context, &inputs, &mut keys);
                assert_eq!(
                    keys[0][..],
                    case.derive_key[..32],
                    "{what}: derive_key_many"
                );
                // Batch, extended output: every vector's 131 bytes, and a prefix of them.
                for out_len in [131, 20] {
                    let mut out = vec![0u8; 2 * out_len];
                    many::hash_many_xof(&inputs, out_len, &mut out);
                    assert_eq!(
                        out[out_len..],
                        case.hash[..out_len],
                        "{what}: hash_many_xof"
                    );
                    many::keyed_hash_many_xof(&v.key, &inputs, out_len, &mut out);
                    assert_eq!(
                        out[..out_len],
                        case.keyed_hash[..out_len],
                        "{what}: keyed xof"
                    );
                    many::derive_key_many_xof(&v.context, &inputs, out_len, &mut out);
                    assert_eq!(
                        out[out_len..],
                        case.derive_key[..out_len],
                        "{what}: derive xof"
                    );
                }
                // Subtrees: split at the root and merge; single chunks directly.
                let context_key = hazmat::hash_derive_key_context(&v.context);
                let modes = [
                    (hazmat::Mode::Hash, &case.hash),
                    (hazmat::Mode::KeyedHash(&v.key), &case.keyed_hash),
                    (
                        hazmat::Mode::DeriveKeyMaterial(&context_key),
                        &case.derive_key,
                    ),
                ];
                for (mode, expected) in modes {
                    let reader = if input.len() <= blake3::CHUNK_LEN {
                        hazmat::single_chunk_root(mode, &input).unwrap()
                    } else {
                        let split = hazmat::left_subtree_len(input.len() as u64) as usize;
                        let left = hazmat::hash_subtree(mode, 0, &input[..split]).unwrap();
                        let right =
                            hazmat::hash_subtree(mode, split as u64, &input[split..]).unwrap();
                        assert_eq!(
                            hazmat::merge_subtrees_root(&left, &right, mode),
                            expected[..32],
                            "{what}: {mode:?} merge_subtrees_root"
                        );
                        hazmat::merge_subtrees_root_xof(&left, &right, mode)
                    };
                    check_reader(reader, expected, &format!("{what}: {mode:?} subtrees"));
                }
            }
        });
    }
}

#[test]
fn hash_type_api() {
    let h = blake3::hash(b"abc");
    let hex = h.to_hex();
    assert_eq!(hex.len(), 64);
    assert_eq!(blake3::Hash::from_hex(&*hex).unwrap(), h);
    assert_eq!(blake3::Hash::from_hex(hex.to_uppercase()).unwrap(), h);
    assert_eq!(hex.parse::<blake3::Hash>().unwrap(), h);
    assert_eq!(format!("{h}"), &*hex);
    assert_eq!(format!("{h:?}"), format!("Hash({:?})", &*hex));
    assert!(blake3::Hash::from_hex("00").is_err());
    assert!(blake3::Hash::from_hex("g".repeat(64)).is_err());
    let bytes: [u8; 32] = h.into();
    assert_eq!(blake3::Hash::from(bytes), h);
    assert_eq!(blake3::Hash::from_bytes(bytes), h);
    assert_eq!(h, bytes);
    assert_eq!(h, bytes[..]);
    assert_ne!(h, blake3::hash(b"abd"));
    assert_eq!(h.as_bytes(), &bytes);
    assert_eq!(
        h.to_hex().as_str(),
        ::blake3::hash(b"abc").to_hex().as_str()
    );
    assert_eq!(blake3::OUT_LEN, 32);
    assert_eq!(blake3::KEY_LEN, 32);
}
