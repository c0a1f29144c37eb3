//! Differential tests of every BLAKE3 backend's kernels against the portable ones, written
//! once over [`Kernels`] and run for each backend the CPU supports.

use super::dispatch::backends;
use super::kernels::{Group, Kernels, Lane, Run, BLOCK_LEN, CHUNK_LEN, EMPTY_LANE};
use super::portable;
use crate::platform::{dispatch, with_backend, Backend, Platform};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The kernels of the backend the calling thread's `Platform` runs, as function pointers.
struct Tested {
    name: &'static str,
    /// Lanes the backend hashes at once.
    degree: usize,
    compress_in_place: CompressInPlace,
    hash_many: unsafe fn(Group<'_, '_>, &mut [[u8; 32]]),
    hash_many_copying: HashManyCopying,
    xof_many: XofMany,
}

impl Tested {
    /// The kernels of `K`, the current platform's backend.
    fn of<K: Kernels>() -> Tested {
        Tested {
            name: Platform::current().backend().name(),
            degree: K::DEGREE,
            compress_in_place: K::compress_in_place,
            hash_many: K::hash_many,
            hash_many_copying: K::hash_many_copying,
            xof_many: K::xof_many,
        }
    }
}

/// `compress_in_place`'s signature: chaining value, blocks, block length, counter, flags, flags
/// of the first block.
type CompressInPlace = unsafe fn(&mut [u32; 8], &[[u8; BLOCK_LEN]], u8, u64, u8, u8);

/// `hash_many_copying`'s signature: whole chunks, flags, destinations, output.
type HashManyCopying = unsafe fn(&[Lane<'_>], u8, &[*mut u8; 16], &mut [[u8; 32]]);

/// `xof_many`'s signature: chaining value, block, block length, counter, flags, output.
type XofMany = unsafe fn(&[u32; 8], &[u8; BLOCK_LEN], u8, u64, u8, &mut [u8]);

/// Every backend the CPU supports against the portable kernels; the others cannot run here
/// (the arm tests run NEON under qemu).
#[test]
fn every_backend_matches_portable() {
    for backend in Backend::ALL.into_iter().filter(|b| b.is_supported()) {
        with_backend(backend, || {
            let p = Platform::current();
            assert_eq!(p.backend(), backend);
            dispatch!(p, backends, |K| check::<K>());
        });
    }
}

/// Runs every check on the kernels of `K`, the current platform's backend.
fn check<K: Kernels>() {
    let k = &Tested::of::<K>();
    check_compress(k);
    check_hash_lanes(k);
    check_xof_many(k);
    check_empty_input(k);
    check_hash_run(k);
    check_hash_chunk_runs(k);
    check_hash_many_copying(k);
}

/// Every test starts from the same seed so that failures reproduce.
fn rng(k: &Tested) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(0xB1A4E3 + k.degree as u64)
}

/// Counters that exercise the high word and the carry out of the low word.
fn interesting_counter(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..5) {
        0 => rng.gen(),
        1 => (1 << 32) - rng.gen_range(1..=20),
        2 => rng.gen_range(0..1000),
        3 => u64::MAX - rng.gen_range(0..20),
        _ => u64::from(rng.gen::<u32>()),
    }
}

fn random_block(rng: &mut ChaCha8Rng) -> [u8; BLOCK_LEN] {
    let mut block = [0; BLOCK_LEN];
    rng.fill(&mut block[..]);
    block
}

/// Single blocks, and runs of up to a chunk's blocks, each against the portable compression
/// block by block.
fn check_compress(k: &Tested) {
    let mut rng = rng(k);
    for i in 0..2000 {
        let blocks: Vec<[u8; BLOCK_LEN]> = (0..1 + i % (CHUNK_LEN / BLOCK_LEN))
            .map(|_| random_block(&mut rng))
            .collect();
        let cv: [u32; 8] = rng.gen();
        let len = rng.gen_range(0..=64);
        let counter = interesting_counter(&mut rng);
        let flags = rng.gen();
        let flags_start = rng.gen();
        let mut expected = cv;
        for (j, block) in blocks.iter().enumerate() {
            let block_flags = if j == 0 { flags | flags_start } else { flags };
            portable::compress_in_place(&mut expected, &[*block], len, counter, block_flags, 0);
        }
        let mut got = cv;
        // SAFETY: the platform proves the backend.
        unsafe { (k.compress_in_place)(&mut got, &blocks, len, counter, flags, flags_start) };
        assert_eq!(
            got,
            expected,
            "{}: {} blocks len {len} counter {counter:#x} flags {flags:#x} {flags_start:#x}",
            k.name,
            blocks.len()
        );
    }
}

/// Every lane count up to a group (every group shape the backend dispatches on) with every
/// block count of a chunk, unaligned inputs, and
/// lanes that are either independent (distinct parameters) or regular (one chaining value and
/// flags, consecutive or equal counters: chunks and parents, which the kernels build faster).
fn check_hash_lanes(k: &Tested) {
    let mut rng = rng(k);
    for blocks in 0..=16 {
        for n in 0..=k.degree {
            for regular in [false, true] {
                check_lanes(k, &mut rng, n, blocks, regular);
            }
        }
    }
}

fn check_lanes(k: &Tested, rng: &mut ChaCha8Rng, n: usize, blocks: usize, regular: bool) {
    let lane_len = blocks * BLOCK_LEN;
    let mut buffer = vec![0u8; n * lane_len + 32];
    rng.fill(&mut buffer[..]);
    let first = Lane {
        input: &[],
        cv: rng.gen(),
        counter: interesting_counter(rng),
        flags_start: rng.gen(),
        flags_end: rng.gen(),
        last_block_len: rng.gen_range(0..=64),
    };
    let step = rng.gen_range(0..2);
    let lanes: Vec<Lane<'_>> = (0..n)
        .map(|i| {
            // Each lane starts 1 to 31 bytes past a multiple of its length.
            let start = i * lane_len + rng.gen_range(1..32);
            let input = &buffer[start..start + lane_len];
            if regular {
                Lane {
                    input,
                    counter: first.counter.wrapping_add(step * i as u64),
                    ..first
                }
            } else {
                Lane {
                    input,
                    cv: rng.gen(),
                    counter: interesting_counter(rng),
                    flags_start: rng.gen(),
                    flags_end: rng.gen(),
                    last_block_len: rng.gen_range(0..=64),
                }
            }
        })
        .collect();
    let flags = rng.gen();
    let mut expected = vec![[0u8; 32]; n];
    portable::hash_lanes(&lanes, blocks, flags, &mut expected);
    // One spare output checks that nothing past the lanes is written.
    let mut got = vec![[0xA5u8; 32]; n + 1];
    // SAFETY: the platform proves the backend; every lane holds `blocks` blocks and `got` is longer
    // than `lanes`.
    unsafe {
        (k.hash_many)(
            Group::Lanes {
                lanes: &lanes,
                blocks,
                flags,
            },
            &mut got,
        )
    };
    let what = format!(
        "{}: {n} lanes of {blocks} blocks, regular {regular}",
        k.name
    );
    assert_eq!(got[..n], expected[..], "{what}");
    assert_eq!(got[n], [0xA5; 32], "{what}: spare output");
}

/// A backend's `hash_many` on runs against portable `hash_lanes`
/// on the run's lanes: runs of parents and of chunks (and of other block counts), every count
/// up to the backend's width (`dispatch::hash_run` splits longer runs into such groups; the tree
/// tests cover that on every backend), from unaligned input, with counters that carry into the
/// high word.
fn check_hash_run(k: &Tested) {
    let mut rng = rng(k);
    for (blocks, parents) in [(1, true), (1, false), (3, false), (16, false)] {
        for n in 0..=k.degree {
            let lane_len = blocks * BLOCK_LEN;
            let mut buffer = vec![0u8; n * lane_len + 32];
            rng.fill(&mut buffer[..]);
            let start = rng.gen_range(1..32);
            let key: [u32; 8] = rng.gen();
            let run = Run {
                input: &buffer[start..start + n * lane_len],
                blocks,
                key: &key,
                counter: if parents {
                    0
                } else {
                    interesting_counter(&mut rng)
                },
                step: if parents { 0 } else { rng.gen_range(0..2) },
                flags: rng.gen(),
                flags_start: if parents { 0 } else { rng.gen() },
                flags_end: if parents { 0 } else { rng.gen() },
            };
            let lanes: Vec<Lane<'_>> = run
                .input
                .chunks_exact(lane_len)
                .enumerate()
                .map(|(i, input)| Lane {
                    input,
                    cv: key,
                    counter: run.counter.wrapping_add(run.step * i as u64),
                    flags_start: run.flags_start,
                    flags_end: run.flags_end,
                    last_block_len: BLOCK_LEN as u8,
                })
                .collect();
            let mut expected = vec![[0u8; 32]; n];
            portable::hash_lanes(&lanes, blocks, run.flags, &mut expected);
            // One spare output checks that nothing past the lanes is written.
            let mut got = vec![[0xA5u8; 32]; n + 1];
            // SAFETY: the platform proves the backend; the run is whole lanes and `got` longer.
            unsafe { (k.hash_many)(Group::Run(run), &mut got) };
            let what = format!("{}: run of {n} lanes of {blocks} blocks", k.name);
            assert_eq!(got[..n], expected[..], "{what}");
            assert_eq!(got[n], [0xA5; 32], "{what}: spare output");
        }
    }
}

/// A backend's `hash_many` on runs of chunks against portable `hash_lanes` on the runs' lanes: every
/// count of runs up to a group of the backend's width, each run at its own unaligned place with
/// its own counter (some carrying into the high word).
fn check_hash_chunk_runs(k: &Tested) {
    const RUN_LEN: usize = 4 * CHUNK_LEN;
    let mut rng = rng(k);
    for n in 1..=(k.degree / 4).max(1) {
        let mut buffer = vec![0u8; n * (RUN_LEN + 32)];
        rng.fill(&mut buffer[..]);
        let key: [u32; 8] = rng.gen();
        let (flags, flags_start, flags_end) = (rng.gen(), rng.gen(), rng.gen());
        let runs: Vec<Run<'_>> = buffer
            .chunks_exact(RUN_LEN + 32)
            .map(|space| {
                let start = rng.gen_range(1..32);
                Run {
                    input: &space[start..start + RUN_LEN],
                    blocks: CHUNK_LEN / BLOCK_LEN,
                    key: &key,
                    counter: interesting_counter(&mut rng),
                    step: 1,
                    flags,
                    flags_start,
                    flags_end,
                }
            })
            .collect();
        let mut lanes = Vec::new();
        for run in &runs {
            let mut group = [EMPTY_LANE; 16];
            lanes.extend_from_slice(run.lanes(&mut group));
        }
        let mut expected = vec![[0u8; 32]; 4 * n];
        portable::hash_lanes(&lanes, CHUNK_LEN / BLOCK_LEN, flags, &mut expected);
        // One spare output checks that nothing past the runs is written.
        let mut got = vec![[0xA5u8; 32]; 4 * n + 1];
        // SAFETY: the platform proves the backend; the runs are four whole chunks each, share
        // their key and flags, and `got` is longer than four values a run.
        unsafe { (k.hash_many)(Group::ChunkRuns(&runs), &mut got) };
        let what = format!("{}: {n} runs of four chunks", k.name);
        assert_eq!(got[..4 * n], expected[..], "{what}");
        assert_eq!(got[4 * n], [0xA5; 32], "{what}: spare output");
    }
}

/// 1 to `degree` whole chunks hashed while copied, each to its own destination, at every
/// alignment to the 64-byte lines: the values against the portable kernel, the copies against
/// the inputs, and the bytes around each copy untouched.
fn check_hash_many_copying(k: &Tested) {
    const ROOM: usize = CHUNK_LEN + 2 * BLOCK_LEN;
    let mut rng = rng(k);
    for round in 0..4 * BLOCK_LEN {
        let n = round % k.degree + 1;
        let mut inputs = vec![0u8; n * (CHUNK_LEN + 32)];
        rng.fill(&mut inputs[..]);
        let key: [u32; 8] = rng.gen();
        let flags = rng.gen();
        let lanes: Vec<Lane<'_>> = inputs
            .chunks_exact(CHUNK_LEN + 32)
            .map(|space| {
                let start = rng.gen_range(0..32);
                Lane {
                    input: &space[start..start + CHUNK_LEN],
                    cv: key,
                    counter: interesting_counter(&mut rng),
                    flags_start: rng.gen(),
                    flags_end: rng.gen(),
                    last_block_len: rng.gen_range(1..=64),
                }
            })
            .collect();
        let mut expected = vec![[0u8; 32]; n];
        portable::hash_lanes(&lanes, CHUNK_LEN / BLOCK_LEN, flags, &mut expected);
        // Each destination in a room of its own (rooms are a whole number of lines apart),
        // at an offset from a line that takes every value from 0 to 63 over the rounds.
        let mut rooms = vec![[0x5Au8; ROOM]; n + 1];
        let first = rooms.as_mut_ptr().cast::<u8>();
        let aligned = first.wrapping_add(first.align_offset(BLOCK_LEN));
        let mut dsts = [aligned; 16];
        for (i, dst) in dsts.iter_mut().enumerate().take(n) {
            *dst = aligned.wrapping_add(i * ROOM + round % BLOCK_LEN);
        }
        let mut got = vec![[0xA5u8; 32]; n + 1];
        // SAFETY: the platform proves the backend; the lanes are whole chunks, each destination a
        // chunk's room inside `rooms` (one room of slack covers the alignment), apart from the
        // inputs.
        unsafe { (k.hash_many_copying)(&lanes, flags, &dsts, &mut got) };
        let what = format!("{}: {n} chunks copied", k.name);
        assert_eq!(got[..n], expected[..], "{what}");
        assert_eq!(got[n], [0xA5; 32], "{what}: spare output");
        let bytes = rooms.as_flattened();
        let mut copied = vec![false; bytes.len()];
        for (i, lane) in lanes.iter().enumerate() {
            let at = dsts[i] as usize - bytes.as_ptr() as usize;
            assert_eq!(
                &bytes[at..at + CHUNK_LEN],
                lane.input,
                "{what}: copy of lane {i}"
            );
            copied[at..at + CHUNK_LEN].fill(true);
        }
        for (byte, copied) in bytes.iter().zip(copied) {
            assert!(
                copied || *byte == 0x5A,
                "{what}: a byte outside the copies changed"
            );
        }
    }
}

fn check_xof_many(k: &Tested) {
    let mut rng = rng(k);
    for blocks in 0..=2 * k.degree + 8 {
        let cv: [u32; 8] = rng.gen();
        let block = random_block(&mut rng);
        let len = rng.gen_range(0..=64);
        let counter = match blocks % 3 {
            0 => u64::from(u32::MAX) - rng.gen_range(0..blocks as u64 + 1),
            1 => u64::MAX - rng.gen_range(0..blocks as u64 + 1),
            _ => interesting_counter(&mut rng),
        };
        let flags = rng.gen();
        let mut expected = vec![0u8; blocks * BLOCK_LEN];
        portable::xof_many(&cv, &block, len, counter, flags, &mut expected);
        let mut got = vec![0u8; blocks * BLOCK_LEN];
        // SAFETY: the platform proves the backend; `got` is whole blocks.
        unsafe { (k.xof_many)(&cv, &block, len, counter, flags, &mut got) };
        assert_eq!(
            got, expected,
            "{}: {blocks} blocks from counter {counter:#x}",
            k.name
        );
    }
}

/// BLAKE3 of the empty input: one block of zeros, length 0, counter 0, flags
/// CHUNK_START | CHUNK_END | ROOT, through each kernel.
fn check_empty_input(k: &Tested) {
    const EMPTY_HASH: &str = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let iv = super::kernels::IV;
    let zeros = [0u8; BLOCK_LEN];

    let mut cv = iv;
    // SAFETY (all three calls): the platform proves the backend; one lane of one block with one
    // output; whole output blocks.
    unsafe { (k.compress_in_place)(&mut cv, &[zeros], 0, 0, 11, 0) };
    let bytes: Vec<u8> = cv.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(hex(&bytes), EMPTY_HASH, "{} compress_in_place", k.name);

    let lane = Lane {
        input: &zeros,
        cv: iv,
        counter: 0,
        flags_start: 1,
        flags_end: 10,
        last_block_len: 0,
    };
    let mut out = [[0u8; 32]];
    let group = Group::Lanes {
        lanes: &[lane],
        blocks: 1,
        flags: 0,
    };
    unsafe { (k.hash_many)(group, &mut out) };
    assert_eq!(hex(&out[0]), EMPTY_HASH, "{} hash_many", k.name);

    let mut xof = [0u8; 9 * BLOCK_LEN];
    unsafe { (k.xof_many)(&iv, &zeros, 0, 0, 11, &mut xof) };
    assert_eq!(hex(&xof[..32]), EMPTY_HASH, "{} xof_many", k.name);
}
