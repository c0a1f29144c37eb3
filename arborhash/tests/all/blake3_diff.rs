//! Differential tests of BLAKE3 on every backend against the spec reference
//! (`reference/blake3.rs`) and the `blake3` crate: lengths across chunk and subtree boundaries,
//! random update splits, unaligned input, extended output at random positions, all modes, reset.

use crate::reference::blake3 as reference;

use arborhash::blake3::{self, Hasher};
use arborhash::platform::{with_backend, Backend};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{Read, Seek, SeekFrom, Write};

const KEY: [u8; 32] = *b"an arbitrary 32-byte test key!!!";
const CONTEXT: &str = "arborhash 2026-11-22 differential test context";

fn random_bytes(rng: &mut ChaCha8Rng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill(&mut v[..]);
    v
}

/// Lengths around every interesting chunk count: powers of two (subtree boundaries), the
/// hasher's 16-chunk buffer and the tree's 32-chunk batch, each -1, 0, +1 bytes, plus block boundaries.
fn boundary_lengths() -> Vec<usize> {
    let mut lens = vec![0, 1, 63, 64, 65, 127, 128, 129, 1000];
    for chunks in [
        1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65, 127, 128, 129,
    ] {
        for delta in [-1isize, 0, 1] {
            lens.push((chunks * 1024usize).wrapping_add_signed(delta));
        }
    }
    lens.push(200 * 1024 + 500);
    lens
}

fn for_each_backend(f: impl Fn(Backend)) {
    for backend in Backend::ALL {
        with_backend(backend, || f(backend));
    }
}

#[test]
fn one_shot_matches_reference_and_crate() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let inputs: Vec<Vec<u8>> = boundary_lengths()
        .into_iter()
        .map(|len| random_bytes(&mut rng, len))
        .collect();
    let expected: Vec<[u8; 32]> = inputs.iter().map(|i| reference::hash(i)).collect();
    for (input, want) in inputs.iter().zip(&expected) {
        assert_eq!(::blake3::hash(input).as_bytes(), want, "reference vs crate");
    }
    for_each_backend(|backend| {
        for (input, want) in inputs.iter().zip(&expected) {
            assert_eq!(
                blake3::hash(input),
                *want,
                "{backend} hash len {}",
                input.len()
            );
            modes_match_reference(backend, input);
        }
    });
}

/// The keyed and derive-key one-shot functions on `input` against the reference.
fn modes_match_reference(backend: Backend, input: &[u8]) {
    let len = input.len();
    assert_eq!(
        blake3::keyed_hash(&KEY, input),
        reference::keyed_hash(&KEY, input),
        "{backend} keyed len {len}"
    );
    assert_eq!(
        blake3::derive_key(CONTEXT, input),
        reference::derive_key(CONTEXT, input),
        "{backend} derive len {len}"
    );
}

/// Every length up to a chunk and a block: the one-shot functions compress a single block on
/// their own path (from the input when it is a whole block, else a padded block built in
/// registers), and a chunk's partial last block, after any number of whole blocks, is padded
/// the same way.
#[test]
fn every_length_to_a_chunk_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let input = random_bytes(&mut rng, 1024 + 64);
    let lens: Vec<usize> = (0..=input.len()).collect();
    prefixes_match_reference(&input, &lens);
}

/// Every chunk count to 16 and a few past it, a few blocks either side of each chunk boundary:
/// the one-shot functions compress the root of a multi-chunk input where its children's level
/// was hashed, after one chunk call and up to four parent levels of every width.
#[test]
fn small_trees_match_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let input = random_bytes(&mut rng, 33 * 1024 + 200);
    let mut lens = Vec::new();
    for chunks in (1..=17).chain([24, 31, 32, 33]) {
        for delta in [-129isize, -64, -63, -1, 0, 1, 63, 64, 65, 129] {
            lens.push((chunks * 1024usize).wrapping_add_signed(delta));
        }
    }
    prefixes_match_reference(&input, &lens);
}

/// The one-shot functions on the prefixes of `input` of each length in `lens`, every backend
/// and mode, against the reference.
fn prefixes_match_reference(input: &[u8], lens: &[usize]) {
    for_each_backend(|backend| {
        for &len in lens {
            let input = &input[..len];
            assert_eq!(
                blake3::hash(input),
                reference::hash(input),
                "{backend} hash len {len}"
            );
            modes_match_reference(backend, input);
        }
    });
}

#[test]
fn megabyte_inputs_match_crate() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for len in [(1 << 20) + 1, 3 << 20, (4 << 20) + 1025] {
        let input = random_bytes(&mut rng, len);
        let want = ::blake3::hash(&input);
        let want_keyed = ::blake3::keyed_hash(&KEY, &input);
        for_each_backend(|backend| {
            assert_eq!(
                blake3::hash(&input),
                *want.as_bytes(),
                "{backend} len {len}"
            );
            let mut hasher = Hasher::new_keyed(&KEY);
            // An odd first write leaves every later large write misaligned with the chunks.
            hasher.update(&input[..1000]).update(&input[1000..]);
            assert_eq!(
                hasher.finalize(),
                *want_keyed.as_bytes(),
                "{backend} len {len}"
            );
        });
    }
}

/// One-shot hashing where the tree's wide levels meet: chunk counts around 16-chunk leaves
/// times powers of two, odd counts, and partial last chunks, on every backend.
#[test]
fn wide_tree_levels_match_crate() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let input = random_bytes(&mut rng, 1100 * 1024);
    let mut lens = vec![];
    for chunks in [
        47, 48, 49, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 1099,
    ] {
        lens.extend([chunks * 1024 - 1, chunks * 1024, chunks * 1024 + 1]);
    }
    let want: Vec<_> = lens.iter().map(|&n| ::blake3::hash(&input[..n])).collect();
    for_each_backend(|backend| {
        for (&len, want) in lens.iter().zip(&want) {
            assert_eq!(
                blake3::hash(&input[..len]),
                *want.as_bytes(),
                "{backend} len {len}"
            );
        }
    });
}

/// Writes of whole chunks hashed straight from the caller's memory, where the input may end:
/// the hasher keeps the top node's children apart, so finalizing there, or writing more, both
/// give the crate's hash. Starts aligned and not, on every backend.
#[test]
fn whole_chunk_writes_that_end_the_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let input = random_bytes(&mut rng, 300 * 1024);
    for_each_backend(|backend| {
        for start in [0, 100, 1024, 5 * 1024, 16 * 1024, 16 * 1024 + 7, 48 * 1024] {
            for chunks in [17, 31, 32, 33, 48, 64, 100, 128, 200] {
                let end = start + chunks * 1024;
                let mut hasher = Hasher::new();
                hasher.update(&input[..start]).update(&input[start..end]);
                assert_eq!(
                    hasher.finalize(),
                    *::blake3::hash(&input[..end]).as_bytes(),
                    "{backend} start {start} chunks {chunks}"
                );
                hasher.update(&input[end..end + 1]);
                assert_eq!(
                    hasher.finalize(),
                    *::blake3::hash(&input[..end + 1]).as_bytes(),
                    "{backend} start {start} chunks {chunks} + 1"
                );
            }
        }
    });
}

/// Small writes hash 16 chunks at a time and hold their chunk CVs back, up to 128 chunks, before
/// reducing them, and hold the 16 nodes those reduce to back one level up, up to 1024 chunks
/// (`tree::PENDING`): finalizing with any number of groups held at both levels, after a large
/// write that leaves the upper level unaligned or not, a large write after them, and small writes
/// again after that, all give the crate's hash.
#[test]
fn held_back_chunk_groups() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let input = random_bytes(&mut rng, 2600 * 1024);
    let check = |hasher: &Hasher, len: usize, what: &str| {
        assert_eq!(
            hasher.finalize(),
            *::blake3::hash(&input[..len]).as_bytes(),
            "{what} at {len}"
        );
    };
    for_each_backend(|backend| {
        for lead in [0, 128 * 1024] {
            for groups in [1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 72, 129] {
                let what = format!("{backend} lead {lead} {groups} groups");
                let mut hasher = Hasher::new();
                hasher.update(&input[..lead]);
                let mut at = lead;
                let small = |hasher: &mut Hasher, at: &mut usize, len: usize| {
                    for piece in input[*at..*at + len].chunks(1024) {
                        hasher.update(piece);
                    }
                    *at += len;
                };
                small(&mut hasher, &mut at, groups * 16 * 1024);
                check(&hasher, at, &what);
                small(&mut hasher, &mut at, 1);
                check(&hasher, at, &format!("{what} + 1"));
                hasher.update(&input[at..at + 40 * 1024 + 7]);
                at += 40 * 1024 + 7;
                check(&hasher, at, &format!("{what}, large write"));
                small(&mut hasher, &mut at, 300 * 1024);
                check(&hasher, at, &format!("{what}, small again"));
            }
        }
    });
}

/// Feeds `input` in pieces drawn by `piece` and returns the hasher.
fn update_in_pieces(mut hasher: Hasher, input: &[u8], mut piece: impl FnMut() -> usize) -> Hasher {
    let mut rest = input;
    while !rest.is_empty() {
        let n = piece().clamp(1, rest.len());
        hasher.update(&rest[..n]);
        rest = &rest[n..];
    }
    hasher
}

/// Every write size up to two blocks and a bit, each through its own branch of the buffer's copy
/// (1 byte, then 2 to 64 bytes in classes of doubling size, then longer), over the buffer's end.
#[test]
fn every_small_write_size_matches_one_shot() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let input = random_bytes(&mut rng, 16384 + 300);
    let want = ::blake3::hash(&input);
    for_each_backend(|backend| {
        for size in 1..=130 {
            let hasher = update_in_pieces(Hasher::new(), &input, || size);
            assert_eq!(hasher.finalize(), *want.as_bytes(), "{backend} size {size}");
        }
    });
}

/// A hasher copies block-sized writes with the moves that the platform it was made on allows,
/// and hashes on the platform current at each update: made on one backend and fed on another
/// (64-byte writes, after a lead that puts them at every kind of offset, over the buffer's end,
/// and reset on the way), it gives the crate's hash and counts every byte.
#[test]
fn hasher_made_on_one_backend_used_on_another() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let input = random_bytes(&mut rng, 2 * 16384 + 200);
    for made in Backend::ALL {
        for used in Backend::ALL {
            for lead in [0, 1, 63] {
                let mut hasher = with_backend(made, Hasher::new);
                with_backend(used, || {
                    hasher.update(&input[..1000]).reset();
                    let mut first = true;
                    hasher = update_in_pieces(hasher.clone(), &input, || {
                        if std::mem::take(&mut first) && lead > 0 {
                            lead
                        } else {
                            64
                        }
                    });
                    assert_eq!(hasher.count(), input.len() as u64);
                    assert_eq!(
                        hasher.finalize(),
                        *::blake3::hash(&input).as_bytes(),
                        "made on {made}, used on {used}, lead {lead}"
                    );
                });
            }
        }
    }
}

/// Writes long enough for the buffer's block-by-block copy (from 2 KiB, `hasher::REP_MOVSB_MIN`)
/// and just short of it: lengths that are whole blocks and not, after a lead of 0, 1 or 63 bytes
/// so that the copies land at every kind of offset in the buffer, and over its end.
#[test]
fn long_write_sizes_match_one_shot() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let input = random_bytes(&mut rng, 3 * 16384 + 500);
    let want = ::blake3::hash(&input);
    for_each_backend(|backend| {
        for lead in [0, 1, 63] {
            for size in [
                2047, 2048, 2049, 2111, 2112, 2113, 4095, 4096, 4097, 5000, 16320, 16383,
            ] {
                let mut first = true;
                let hasher = update_in_pieces(Hasher::new(), &input, || {
                    if std::mem::take(&mut first) && lead > 0 {
                        lead
                    } else {
                        size
                    }
                });
                assert_eq!(
                    hasher.finalize(),
                    *want.as_bytes(),
                    "{backend} lead {lead} size {size}"
                );
            }
        }
    });
}

/// A write after a partial fill of the 16 KiB buffer that ends one byte short of its end (the
/// last to stay in it), exactly at its end, one past it, one buffer on, or a large write hashed
/// from the caller's memory; then finalizing, and more writes, all give the crate's hash.
#[test]
fn writes_around_the_buffer_end() {
    const BUF: usize = 16 * 1024;
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let input = random_bytes(&mut rng, 4 * BUF);
    let check = |hasher: &Hasher, len: usize, what: &str| {
        assert_eq!(
            hasher.finalize(),
            *::blake3::hash(&input[..len]).as_bytes(),
            "{what} at {len}"
        );
    };
    for_each_backend(|backend| {
        for lead in [1, 63, 64, 1000, 1024, BUF - 64, BUF - 1] {
            for end in [BUF - 1, BUF, BUF + 1, 2 * BUF, 2 * BUF + 1, 3 * BUF + 100] {
                let what = format!("{backend} lead {lead} to {end}");
                let mut hasher = Hasher::new();
                hasher.update(&input[..lead]).update(&input[lead..end]);
                check(&hasher, end, &what);
                hasher.update(&input[end..end + 64]);
                check(&hasher, end + 64, &format!("{what}, + 64"));
            }
        }
    });
}

#[test]
fn update_splits_match_one_shot() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let cases: Vec<Vec<u8>> = (0..24)
        .map(|i| {
            // The hasher's 16 KiB buffer exactly, around it, and twice over.
            let len = if i < 6 {
                [0, 1, 16383, 16384, 16385, 32769][i]
            } else {
                rng.gen_range(0..40_000)
            };
            random_bytes(&mut rng, len)
        })
        .collect();
    for_each_backend(|backend| {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for input in &cases {
            let want = ::blake3::hash(input);
            let len = input.len();
            for (name, sizes) in [
                ("1-byte", &[1usize][..]),
                ("64-byte", &[64]),
                ("1 KiB", &[1024]),
                ("mixed", &[1, 7, 64, 100, 1024, 5000, 9000, 20000]),
                ("buffer-sized", &[16383, 16384, 16385]),
            ] {
                if name == "1-byte" && len > 12_000 {
                    continue;
                }
                let hasher = update_in_pieces(Hasher::new(), input, || {
                    let s = sizes[rng.gen_range(0..sizes.len())];
                    if name == "mixed" {
                        rng.gen_range(1..=s)
                    } else {
                        s
                    }
                });
                assert_eq!(hasher.count(), len as u64);
                assert_eq!(
                    hasher.finalize(),
                    *want.as_bytes(),
                    "{backend} {name} len {len}"
                );
            }
            // std::io::Write, and finalize in the middle leaves the hasher usable.
            let mut hasher = Hasher::new();
            let half = len / 2;
            hasher.write_all(&input[..half]).unwrap();
            assert_eq!(
                hasher.finalize(),
                *::blake3::hash(&input[..half]).as_bytes()
            );
            hasher.write_all(&input[half..]).unwrap();
            hasher.flush().unwrap();
            assert_eq!(
                hasher.finalize(),
                *want.as_bytes(),
                "{backend} Write len {len}"
            );
        }
    });
}

#[test]
fn unaligned_input() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let buffer = random_bytes(&mut rng, 70_000);
    for_each_backend(|backend| {
        for offset in 1..8 {
            for len in [100, 1025, 9000, 65_537] {
                let input = &buffer[offset..offset + len];
                assert_eq!(
                    blake3::hash(input),
                    *::blake3::hash(input).as_bytes(),
                    "{backend} offset {offset} len {len}"
                );
            }
        }
    });
}

#[test]
fn extended_output_at_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let inputs: Vec<Vec<u8>> = [0, 5, 1024, 1025, 5000]
        .into_iter()
        .map(|len| random_bytes(&mut rng, len))
        .collect();
    for_each_backend(|backend| {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for input in &inputs {
            let mut ours = Hasher::new_derive_key(CONTEXT);
            ours.update(input);
            let mut theirs = ::blake3::Hasher::new_derive_key(CONTEXT);
            theirs.update(input);
            let (mut ours, mut theirs) = (ours.finalize_xof(), theirs.finalize_xof());
            for _ in 0..40 {
                let position = match rng.gen_range(0..3) {
                    0 => rng.gen_range(0..1000),
                    1 => rng.gen_range(0..1u64 << 40),
                    _ => u64::MAX - rng.gen_range(0..2000),
                };
                // Reads may run past 2^64 bytes, where the block counter goes on.
                let len = rng.gen_range(0..700);
                let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
                if rng.gen() {
                    ours.set_position(position);
                    ours.fill(&mut a);
                } else {
                    ours.seek(SeekFrom::Start(position)).unwrap();
                    ours.read_exact(&mut a).unwrap();
                }
                assert_eq!(ours.position(), position.wrapping_add(len as u64));
                theirs.set_position(position);
                theirs.fill(&mut b);
                assert_eq!(a, b, "{backend} len {} at {position}+{len}", input.len());
            }
            // Relative seeks and the end error.
            ours.set_position(100);
            assert_eq!(ours.seek(SeekFrom::Current(-36)).unwrap(), 64);
            assert!(ours.seek(SeekFrom::Current(-65)).is_err());
            assert!(ours.seek(SeekFrom::End(0)).is_err());
            // A reference check of a few hundred bytes in the middle.
            let mut a = [0u8; 300];
            ours.set_position(4000);
            ours.fill(&mut a);
            let mut b = [0u8; 300];
            let key = reference::key_words(&reference::context_key(CONTEXT));
            reference::xof(input, key, reference::DERIVE_KEY_MATERIAL, 4000, &mut b);
            assert_eq!(a, b, "{backend} against the reference");
        }
    });
}

#[test]
fn reset_and_clone() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let a = random_bytes(&mut rng, 20_000);
    let b = random_bytes(&mut rng, 3000);
    for_each_backend(|backend| {
        for mut hasher in [
            Hasher::new(),
            Hasher::new_keyed(&KEY),
            Hasher::new_derive_key(CONTEXT),
        ] {
            let fresh = hasher.clone();
            hasher.update(&a);
            let snapshot = hasher.clone();
            hasher.reset();
            assert_eq!(hasher.count(), 0);
            hasher.update(&b);
            let mut expected = fresh.clone();
            expected.update(&b);
            assert_eq!(hasher.finalize(), expected.finalize(), "{backend} reset");
            let mut whole = fresh.clone();
            whole.update(&a);
            assert_eq!(snapshot.finalize(), whole.finalize(), "{backend} clone");
        }
        assert_eq!(Hasher::default().finalize(), blake3::hash(b""));
        assert_eq!(
            format!("{:?}", Hasher::new().update(b"abc")),
            "Hasher { count: 3, .. }"
        );
    });
}

/// A clone copies only the tree's entries in use (see `Tree`'s `Clone`): clones taken with the
/// held-back levels and the stack at various fills, each then fed the rest of the input, give
/// the crate's hash, as does the original.
#[test]
fn clones_mid_stream() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let input = random_bytes(&mut rng, 1100 * 1024 + 5);
    for_each_backend(|backend| {
        let want = ::blake3::hash(&input);
        let mut hasher = Hasher::new();
        let mut at = 0;
        for step in [
            1,
            17 * 1024,
            100 * 1024 + 3,
            16 * 1024,
            400 * 1024,
            560 * 1024,
        ] {
            hasher.update(&input[at..at + step]);
            at += step;
            let mut clone = hasher.clone();
            assert_eq!(clone.finalize(), *::blake3::hash(&input[..at]).as_bytes());
            clone.update(&input[at..]);
            assert_eq!(
                clone.finalize(),
                *want.as_bytes(),
                "{backend} clone at {at}"
            );
        }
        hasher.update(&input[at..]);
        assert_eq!(hasher.finalize(), *want.as_bytes(), "{backend}");
    });
}
