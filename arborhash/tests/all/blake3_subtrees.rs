//! The subtree API (`blake3::hazmat`) on every backend: splitting inputs at random valid
//! boundaries (recursively, down to single chunks) and merging gives the one-shot hash in every
//! mode; invalid offsets and lengths are errors, or panics where the `blake3` crate panics.

use crate::reference::blake3 as reference;

use arborhash::blake3::{
    self,
    hazmat::{self, ChainingValue, HasherExt, Mode, SubtreeError},
    CHUNK_LEN,
};
use arborhash::platform::{with_backend, Backend};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const KEY: [u8; 32] = [7; 32];

/// An incremental hasher for the subtree at `offset` in `mode`.
fn subtree_hasher(mode: Mode<'_>, offset: u64) -> blake3::Hasher {
    let mut hasher = match mode {
        Mode::Hash => blake3::Hasher::new(),
        Mode::KeyedHash(key) => blake3::Hasher::new_keyed(key),
        Mode::DeriveKeyMaterial(context_key) => blake3::Hasher::new_from_context_key(context_key),
    };
    hasher.set_input_offset(offset);
    hasher
}

/// The chaining value of `input` (a valid subtree at `offset`), computed either directly or by
/// splitting it at its left subtree boundary and merging, chosen at random.
fn split_cv(rng: &mut ChaCha8Rng, mode: Mode<'_>, offset: u64, input: &[u8]) -> ChainingValue {
    if input.len() <= CHUNK_LEN || rng.gen_range(0..3) == 0 {
        if rng.gen() {
            return hazmat::hash_subtree(mode, offset, input).unwrap();
        }
        // Incrementally, in random pieces.
        let mut hasher = subtree_hasher(mode, offset);
        let mut rest = input;
        while !rest.is_empty() {
            let n = rng.gen_range(1..=rest.len().min(3000));
            hasher.update(&rest[..n]);
            rest = &rest[n..];
        }
        return hasher.finalize_non_root();
    }
    let split = hazmat::left_subtree_len(input.len() as u64) as usize;
    let left = split_cv(rng, mode, offset, &input[..split]);
    let right = split_cv(rng, mode, offset + split as u64, &input[split..]);
    hazmat::merge_subtrees_non_root(&left, &right, mode)
}

#[test]
fn context_keys_from_bytes_match_the_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for len in [0, 1, 2, 63, 64, 65, 1023, 1024, 1025, 3000] {
        // Random bytes: not UTF-8 at all but for the shortest.
        let context: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
        for backend in Backend::ALL {
            with_backend(backend, || {
                assert_eq!(
                    hazmat::hash_derive_key_context_bytes(&context),
                    reference::context_key_bytes(&context),
                    "context of {len} bytes, {backend:?}"
                );
            });
        }
    }
    let text = "arborhash 2026-11-27 context";
    assert_eq!(
        hazmat::hash_derive_key_context_bytes(text.as_bytes()),
        hazmat::hash_derive_key_context(text)
    );
}

#[test]
fn split_and_merge_matches_one_shot() {
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let context_key = hazmat::hash_derive_key_context("subtree test context");
    let lens: Vec<usize> = [
        0, 1, 1024, 1025, 2048, 2049, 4096, 5000, 65536, 65537, 300_000,
    ]
    .into_iter()
    .chain((0..20).map(|_| rng.gen_range(0..200_000)))
    .collect();
    let inputs: Vec<Vec<u8>> = lens
        .iter()
        .map(|&len| (0..len).map(|_| rng.gen()).collect())
        .collect();
    for backend in Backend::ALL {
        with_backend(backend, || {
            for input in &inputs {
                let len = input.len();
                let modes = [
                    (Mode::Hash, blake3::hash(input)),
                    (Mode::KeyedHash(&KEY), blake3::keyed_hash(&KEY, input)),
                    (
                        Mode::DeriveKeyMaterial(&context_key),
                        blake3::Hash::from(blake3::derive_key("subtree test context", input)),
                    ),
                ];
                for (mode, want) in modes {
                    let mut out = [0u8; 100];
                    if len <= CHUNK_LEN {
                        hazmat::single_chunk_root(mode, input)
                            .unwrap()
                            .fill(&mut out);
                        assert_eq!(out[..32], *want.as_bytes(), "{backend} {mode:?} len {len}");
                        continue;
                    }
                    let split = hazmat::left_subtree_len(len as u64) as usize;
                    let left = split_cv(&mut rng, mode, 0, &input[..split]);
                    let right = split_cv(&mut rng, mode, split as u64, &input[split..]);
                    let root = hazmat::merge_subtrees_root(&left, &right, mode);
                    assert_eq!(root, want, "{backend} {mode:?} len {len}");
                    hazmat::merge_subtrees_root_xof(&left, &right, mode).fill(&mut out);
                    assert_eq!(out[..32], *want.as_bytes());
                }
                // The reference's chaining values agree at a random aligned subtree.
                if len > 2 * CHUNK_LEN {
                    let chunks = len.div_ceil(CHUNK_LEN) as u64;
                    let index = rng.gen_range(1..chunks);
                    let max = 1u64 << index.trailing_zeros();
                    let size = (max.min(chunks - index)) as usize * CHUNK_LEN;
                    let start = index as usize * CHUNK_LEN;
                    let part = &input[start..(start + size).min(len)];
                    assert_eq!(
                        hazmat::hash_subtree(Mode::Hash, start as u64, part).unwrap(),
                        reference::subtree_cv(part, index, reference::IV_WORDS, 0),
                        "{backend} subtree at chunk {index}"
                    );
                }
            }
        });
    }
}

#[test]
fn invalid_subtrees_are_errors() {
    let data = vec![1u8; 8 * CHUNK_LEN + 1];
    assert_eq!(
        hazmat::hash_subtree(Mode::Hash, 1000, &data[..10]),
        Err(SubtreeError::OffsetNotChunkAligned { offset: 1000 })
    );
    assert_eq!(
        hazmat::hash_subtree(Mode::Hash, 1024, &[]),
        Err(SubtreeError::Empty)
    );
    // Chunk 1 holds one chunk at most; chunk 6 two; chunk 8 eight.
    for (offset, len, max) in [
        (1024u64, 1025usize, 1024u64),
        (6144, 2049, 2048),
        (8192, 8193, 8192),
    ] {
        assert_eq!(
            hazmat::hash_subtree(Mode::Hash, offset, &data[..len]),
            Err(SubtreeError::TooLong {
                offset,
                len: len as u64,
                max
            })
        );
        assert!(hazmat::hash_subtree(Mode::Hash, offset, &data[..len - 1]).is_ok());
        assert_eq!(hazmat::max_subtree_len(offset), Some(max));
    }
    assert_eq!(hazmat::max_subtree_len(0), None);
    assert!(hazmat::hash_subtree(Mode::Hash, 0, &data).is_ok());
    assert_eq!(
        hazmat::single_chunk_root(Mode::Hash, &data[..1025]).unwrap_err(),
        SubtreeError::NotSingleChunk { len: 1025 }
    );
    let message = SubtreeError::TooLong {
        offset: 2048,
        len: 2049,
        max: 2048,
    }
    .to_string();
    assert!(message.contains("at most 2048 bytes"), "{message}");
    assert_eq!(hazmat::left_subtree_len(1025), 1024);
    assert_eq!(hazmat::left_subtree_len(4096), 2048);
    assert_eq!(hazmat::left_subtree_len(4097), 4096);
}

/// A call expected to panic.
type Misuse = Box<dyn FnOnce() + std::panic::UnwindSafe>;

/// The panics of the `blake3` crate's subtree hashers, with its messages.
#[test]
fn subtree_hasher_misuse_panics() {
    fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let payload = std::panic::catch_unwind(f).expect_err("should panic");
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    }
    let cases: [(&str, Misuse); 8] = [
        (
            "empty subtrees are never valid",
            Box::new(|| {
                blake3::Hasher::new().finalize_non_root();
            }),
        ),
        (
            "must be a chunk boundary",
            Box::new(|| {
                blake3::Hasher::new().set_input_offset(1);
            }),
        ),
        (
            "hasher has already accepted input",
            Box::new(|| {
                blake3::Hasher::new().update(b"x").set_input_offset(0);
            }),
        ),
        (
            "contains at most 1024 bytes",
            Box::new(|| {
                blake3::Hasher::new()
                    .set_input_offset(CHUNK_LEN as u64)
                    .update(&[0; CHUNK_LEN + 1]);
            }),
        ),
        // Small writes reach the limit check too, at the write that oversteps.
        (
            "contains at most 2048 bytes",
            Box::new(|| {
                let mut hasher = blake3::Hasher::new();
                hasher.set_input_offset(2048);
                for _ in 0..32 {
                    hasher.update(&[1; 64]);
                }
                hasher.update(&[1]);
            }),
        ),
        (
            "set_input_offset must be used with finalize_non_root",
            Box::new(|| {
                blake3::Hasher::new()
                    .set_input_offset(CHUNK_LEN as u64)
                    .update(b"x")
                    .finalize();
            }),
        ),
        (
            "set_input_offset must be used with finalize_non_root",
            Box::new(|| {
                blake3::Hasher::new()
                    .set_input_offset(CHUNK_LEN as u64)
                    .finalize_xof();
            }),
        ),
        (
            "is not a multiple of the chunk length",
            Box::new(|| {
                hazmat::max_subtree_len(100);
            }),
        ),
    ];
    for (want, case) in cases {
        let message = panic_message(case);
        assert!(message.contains(want), "{message:?} lacks {want:?}");
    }
    // Filling a subtree exactly is no misuse; nor is `reset`, which forgets the offset.
    let mut hasher = blake3::Hasher::new();
    hasher.set_input_offset(2048).update(&[1; 2048]);
    assert_eq!(
        hasher.finalize_non_root(),
        hazmat::hash_subtree(Mode::Hash, 2048, &[1; 2048]).unwrap()
    );
    assert_eq!(
        hasher.reset().update(b"abc").finalize(),
        blake3::hash(b"abc")
    );
}

/// Subtree hashers at nonzero offsets fed large writes, hashed straight from the caller's
/// memory: whole chunks that end the subtree (its top node's children stay apart until it is
/// finalized), a remainder after them, and the rayon variant, against the reference.
#[test]
fn subtree_hasher_large_writes_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let input: Vec<u8> = (0..256 * CHUNK_LEN).map(|_| rng.gen()).collect();
    for backend in Backend::ALL {
        with_backend(backend, || {
            for (index, chunks, extra) in [
                (64u64, 64usize, 0usize),
                (256, 17, 0),
                (128, 32, 5),
                (512, 200, 1023),
            ] {
                let offset = index * CHUNK_LEN as u64;
                let part = &input[..chunks * CHUNK_LEN + extra];
                let want = reference::subtree_cv(part, index, reference::IV_WORDS, 0);
                assert_eq!(
                    hazmat::hash_subtree(Mode::Hash, offset, part).unwrap(),
                    want,
                    "{backend} hash_subtree at chunk {index}, {} bytes",
                    part.len()
                );
                let mut hasher = subtree_hasher(Mode::Hash, offset);
                hasher.update(part);
                assert_eq!(
                    hasher.finalize_non_root(),
                    want,
                    "{backend} subtree hasher at chunk {index}, {} bytes",
                    part.len()
                );
                #[cfg(feature = "rayon")]
                {
                    let mut hasher = subtree_hasher(Mode::Hash, offset);
                    hasher.update(&part[..100]).update_rayon(&part[100..]);
                    assert_eq!(
                        hasher.finalize_non_root(),
                        want,
                        "{backend} rayon subtree hasher at chunk {index}"
                    );
                }
            }
        });
    }
}

/// The chaining values of many nodes at once against one node at a time, on every backend and
/// in every mode: runs of 0 to 40 chunks (past two groups of the widest kernel), some at chunk
/// indices that carry into the counter's high word; the copying form with its chunks apart
/// and its copy at every offset from a 64-byte line; levels of parents.
#[test]
fn chaining_values_of_many_nodes_match_one_at_a_time() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let context_key = hazmat::hash_derive_key_context("many nodes test context");
    let modes = [
        Mode::Hash,
        Mode::KeyedHash(&KEY),
        Mode::DeriveKeyMaterial(&context_key),
    ];
    for backend in Backend::ALL {
        with_backend(backend, || {
            for n in 0..=40usize {
                let mode = modes[n % 3];
                let first_chunk = match n % 3 {
                    0 => rng.gen_range(0..1000),
                    1 => (1 << 32) - rng.gen_range(1..=20),
                    _ => 0,
                };
                let input: Vec<u8> = (0..n * CHUNK_LEN).map(|_| rng.gen()).collect();
                let expected: Vec<ChainingValue> = input
                    .chunks_exact(CHUNK_LEN)
                    .enumerate()
                    .map(|(i, chunk)| {
                        let offset = (first_chunk + i as u64) * CHUNK_LEN as u64;
                        hazmat::hash_subtree(mode, offset, chunk).unwrap()
                    })
                    .collect();
                let what = format!("{backend} {mode:?} {n} chunks from {first_chunk}");

                let mut got = vec![[0xA5; 32]; n + 1];
                hazmat::chunk_chaining_values(mode, first_chunk, &input, &mut got);
                assert_eq!(got[..n], expected[..], "{what}");
                assert_eq!(got[n], [0xA5; 32], "{what}: past the values");

                // Each chunk 1 to 63 bytes past where the one before ends.
                let mut spread = Vec::new();
                let mut starts = Vec::new();
                for chunk in input.chunks_exact(CHUNK_LEN) {
                    spread.extend((0..rng.gen_range(1..64)).map(|_| rng.gen::<u8>()));
                    starts.push(spread.len());
                    spread.extend_from_slice(chunk);
                }
                let chunks: Vec<&[u8; CHUNK_LEN]> = starts
                    .iter()
                    .map(|&s| spread[s..s + CHUNK_LEN].try_into().unwrap())
                    .collect();
                let skew = n % 64;
                let mut dst = vec![0x5A; n * CHUNK_LEN + 64 + 1];
                let mut got = vec![[0xA5; 32]; n + 1];
                let copy = &mut dst[skew..skew + n * CHUNK_LEN];
                hazmat::chunk_chaining_values_copying(mode, first_chunk, &chunks, copy, &mut got);
                assert_eq!(got[..n], expected[..], "{what}, copying");
                assert_eq!(got[n], [0xA5; 32], "{what}, copying: past the values");
                assert_eq!(
                    dst[skew..skew + n * CHUNK_LEN],
                    input[..],
                    "{what}: the copy"
                );
                assert!(
                    dst[..skew]
                        .iter()
                        .chain(&dst[skew + n * CHUNK_LEN..])
                        .all(|&b| b == 0x5A),
                    "{what}: bytes around the copy"
                );

                let pairs: Vec<u8> = (0..n * 64).map(|_| rng.gen()).collect();
                let mut got = vec![[0xA5; 32]; n + 1];
                hazmat::parent_chaining_values(mode, &pairs, &mut got);
                for (i, pair) in pairs.chunks_exact(64).enumerate() {
                    let left: ChainingValue = pair[..32].try_into().unwrap();
                    let right: ChainingValue = pair[32..].try_into().unwrap();
                    let want = hazmat::merge_subtrees_non_root(&left, &right, mode);
                    assert_eq!(got[i], want, "{backend} {mode:?} parent {i} of {n}");
                }
                assert_eq!(got[n], [0xA5; 32], "{backend} {n} parents: past the values");
            }
        });
    }
}

#[test]
#[should_panic(expected = "whole chunks")]
fn chunk_chaining_values_of_a_partial_chunk_panics() {
    hazmat::chunk_chaining_values(Mode::Hash, 0, &[0; CHUNK_LEN + 1], &mut [[0; 32]; 2]);
}

#[test]
#[should_panic(expected = "whole pairs")]
fn parent_chaining_values_of_a_partial_pair_panics() {
    hazmat::parent_chaining_values(Mode::Hash, &[0; 65], &mut [[0; 32]; 2]);
}
