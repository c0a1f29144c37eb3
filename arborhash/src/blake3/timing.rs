//! Per-block times of our SIMD kernels beside the `blake3` crate's kernels of the same width
//! (through its hidden `platform` module), and whole hashes beside the crate; printed, never
//! asserted. Written once; each backend's ignored `timing` test calls [`print_times`].

use super::kernel_tests::Kernels;
use super::kernels::{self, Lane, BLOCK_LEN};
use super::tree::{chunk_run, parent_run};
use crate::platform::{with_backend, Platform};
use crate::Backend;
use blake3::platform::Platform as Theirs;
use blake3::IncrementCounter;
use std::hint::black_box;
use std::time::Instant;

/// One of our backends: its kernels, and the backend that `arborhash::blake3::hash` is forced to.
pub(super) struct Ours {
    pub kernels: Kernels,
    pub backend: Backend,
}

/// The peer: the crate's kernels of the width compared, and its whole hash if that runs on
/// them (the crate's `hash` chooses its own kernels: its best). `blake3_no_avx512` (its AVX2)
/// cannot be linked into this test binary beside 1.x, whose assembly has the same symbols: the
/// whole hashes beside it are the probe's job (`PEER=noavx512`, see docs/performance.md).
pub(super) struct Peer {
    pub platform: Theirs,
    pub hash: Option<WholeHash>,
}

/// A whole-message hash function.
type WholeHash = fn(&[u8]) -> [u8; 32];

/// Each candidate's fastest call and how it compares with the peer's in typical calls.
struct Times {
    /// Nanoseconds of the fastest call of each candidate.
    best: Vec<f64>,
    /// For each candidate, the median over rounds of the peer's time over its own in that
    /// round (the peer is the last candidate).
    typical: Vec<f64>,
}

/// Calls each candidate in turn, round after round for a second, so that they see the same
/// load. The fastest call is the one least disturbed; but on this VM most calls run 20-30 %
/// slower than the fastest, and our kernels and the crate's do not slow down alike (a whole hash
/// of 16 KiB on AVX-512: 1.00 of the crate's speed in the fastest calls, 0.93 in the median
/// round; the one-shot probe, best of a few hundred calls, reads in between), so both are kept.
/// Ratios are taken round by round, as the machine's speed drifts.
fn in_turn(fs: &mut [Box<dyn FnMut() + '_>]) -> Times {
    let mut best = vec![f64::MAX; fs.len()];
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); fs.len()];
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < 1.0 {
        for ((f, best), times) in fs.iter_mut().zip(&mut best).zip(&mut rounds) {
            let call = Instant::now();
            f();
            let t = call.elapsed().as_secs_f64() * 1e9;
            *best = best.min(t);
            times.push(t);
        }
    }
    let peer = &rounds[fs.len() - 1];
    let typical = rounds
        .iter()
        .map(|times| {
            let mut ratios: Vec<f64> = peer.iter().zip(times).map(|(p, t)| p / t).collect();
            ratios.sort_by(f64::total_cmp);
            ratios[ratios.len() / 2]
        })
        .collect();
    Times { best, typical }
}

/// One line: each of ours, the crate, and the crate's time over each of ours, in the fastest
/// calls and in the median round.
fn print(ours: &[Ours], what: &str, per: usize, t: &Times) {
    let per = per as f64;
    let theirs = t.best[ours.len()] / per;
    let mut line = format!("{what:24} ns/block:");
    for (o, t) in ours.iter().zip(&t.best) {
        line += &format!(" {} {:7.1}", o.kernels.name, t / per);
    }
    line += &format!("  crate {theirs:7.1} ");
    for ((o, t), typical) in ours.iter().zip(&t.best).zip(&t.typical) {
        line += &format!(
            " crate/{} {:.2} (median {typical:.2})",
            o.kernels.name,
            theirs / (t / per)
        );
    }
    println!("{line}");
}

/// Times each kernel of every one of `ours` and of `peer` on the same inputs, hot in L1, then
/// whole hashes. Returns without a word if the CPU lacks a feature of `ours`.
pub(super) fn print_times(ours: &[Ours], peer: &Peer) {
    if !ours.iter().all(|o| o.kernels.supported) {
        return;
    }
    let theirs = peer.platform;
    println!("crate platform: {theirs:?}");
    let block = [7u8; BLOCK_LEN];
    const CHAIN: usize = 1000;
    // Each candidate gets its own output, so that none reads another's.
    let n = ours.len() + 1;
    // SAFETY (every kernel call below): `print_times` returned above unless the CPU has every
    // feature of `ours`; the lanes hold `blocks` blocks and the outputs are long enough.
    let mut cvs = vec![crate::blake2s::IV; n];
    {
        let (mine, last) = cvs.split_at_mut(ours.len());
        let mut fs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for (o, cv) in ours.iter().zip(mine) {
            let f = o.kernels.compress_in_place;
            fs.push(Box::new(move || {
                for _ in 0..CHAIN {
                    unsafe {
                        f(
                            black_box(&mut *cv),
                            core::slice::from_ref(&block),
                            64,
                            0,
                            0,
                            0,
                        )
                    }
                }
            }));
        }
        let cv = &mut last[0];
        fs.push(Box::new(move || {
            for _ in 0..CHAIN {
                theirs.compress_in_place(black_box(&mut *cv), &block, 64, 0, 0)
            }
        }));
        let t = in_turn(&mut fs);
        print(ours, "compress_in_place chain", CHAIN, &t);
    }

    let input = vec![0x5Au8; 16 * 1024];
    let chunks: Vec<&[u8; 1024]> = input
        .chunks_exact(1024)
        .map(|c| c.try_into().unwrap())
        .collect();
    let mut outs = vec![[[0u8; 32]; 16]; n];
    for count in [1, 2, 3, 4, 5, 8, 12, 16] {
        let chunks = &chunks[..count];
        let (mine, last) = outs.split_at_mut(ours.len());
        let mut fs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        let input = &input[..count * 1024];
        for (o, out) in ours.iter().zip(mine) {
            let p = with_backend(o.backend, Platform::current);
            fs.push(Box::new(move || {
                let run = chunk_run(black_box(input), &crate::blake2s::IV, 0, 0);
                kernels::hash_run(p, run, out)
            }));
        }
        let out = &mut last[0];
        fs.push(Box::new(move || {
            theirs.hash_many(
                black_box(chunks),
                &crate::blake2s::IV,
                0,
                IncrementCounter::Yes,
                0,
                1,
                2,
                out.as_flattened_mut(),
            )
        }));
        let t = in_turn(&mut fs);
        print(ours, &format!("hash_run {count:2} chunks"), 16 * count, &t);
    }
    let blocks: Vec<&[u8; 64]> = input
        .chunks_exact(BLOCK_LEN)
        .map(|c| c.try_into().unwrap())
        .collect();
    for count in [1, 2, 3, 4, 8, 16] {
        let blocks = &blocks[..count];
        let (mine, last) = outs.split_at_mut(ours.len());
        let mut fs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        let input = &input[..count * BLOCK_LEN];
        for (o, out) in ours.iter().zip(mine) {
            let p = with_backend(o.backend, Platform::current);
            fs.push(Box::new(move || {
                let run = parent_run(black_box(input), &crate::blake2s::IV, 0);
                kernels::hash_run(p, run, out)
            }));
        }
        let out = &mut last[0];
        fs.push(Box::new(move || {
            theirs.hash_many(
                black_box(blocks),
                &crate::blake2s::IV,
                0,
                IncrementCounter::No,
                4,
                0,
                0,
                out.as_flattened_mut(),
            )
        }));
        let t = in_turn(&mut fs);
        print(ours, &format!("hash_run {count:2} parents"), count, &t);
    }
    let mut xofs = vec![[0u8; 64 * BLOCK_LEN]; n];
    let cv = crate::blake2s::IV;
    for count in [1, 4, 16, 64] {
        let (mine, last) = xofs.split_at_mut(ours.len());
        let mut fs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for (o, out) in ours.iter().zip(mine) {
            let f = o.kernels.xof_many;
            let out = &mut out[..count * 64];
            fs.push(Box::new(move || unsafe {
                f(&cv, &block, 64, 0, 11, black_box(&mut *out))
            }));
        }
        let out = &mut last[0][..count * 64];
        fs.push(Box::new(move || {
            theirs.xof_many(&cv, &block, 64, 0, 11, black_box(&mut *out))
        }));
        let t = in_turn(&mut fs);
        print(ours, &format!("xof_many {count:2} blocks"), count, &t);
    }

    let buffer: Vec<u8> = (0..1 << 20).map(|i| (i * 7 + i / 251) as u8).collect();
    for len in [1 << 11, 1 << 12, 1 << 14, 1 << 16, 1 << 20] {
        let data = &buffer[..len];
        let expected = *blake3::hash(data).as_bytes();
        let mut fs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for o in ours {
            let f = o.kernels.hash_lanes;
            // SAFETY: as above.
            assert_eq!(unsafe { tree(f, data) }, expected);
            fs.push(Box::new(move || {
                black_box(unsafe { tree(f, black_box(data)) });
            }));
        }
        assert_eq!(tree_theirs(theirs, data), expected);
        fs.push(Box::new(move || {
            black_box(tree_theirs(theirs, black_box(data)));
        }));
        let t = in_turn(&mut fs);
        print(
            ours,
            &format!("tree {len:7} B by level"),
            len / BLOCK_LEN,
            &t,
        );
    }
    let Some(hash) = peer.hash else {
        return;
    };
    for len in [64, 1024, 2048, 4096, 8192, 16 * 1024, 64 * 1024, 1 << 20] {
        let data = &buffer[..len];
        let mut fs: Vec<Box<dyn FnMut() + '_>> = Vec::new();
        for o in ours {
            let backend = o.backend;
            fs.push(Box::new(move || {
                with_backend(backend, || black_box(crate::blake3::hash(black_box(data))));
            }));
        }
        fs.push(Box::new(move || {
            black_box(hash(black_box(data)));
        }));
        let t = in_turn(&mut fs);
        print(
            ours,
            &format!("hash {len:7} B"),
            len.div_ceil(BLOCK_LEN),
            &t,
        );
    }
}

/// `hash_lanes`' signature.
type HashLanes = unsafe fn(&[Lane<'_>], usize, u8, &mut [[u8; 32]]);

/// The root of a power-of-two number of chunks from our kernels alone: every chunk,
/// then every level of parents, each level in one `hash_lanes` call; what a tree could cost at
/// best.
///
/// # Safety
/// The CPU must have the features of `hash_lanes`.
unsafe fn tree(hash_lanes: HashLanes, data: &[u8]) -> [u8; 32] {
    fn lane(input: &[u8], counter: u64, flags_start: u8, flags_end: u8) -> Lane<'_> {
        Lane {
            input,
            cv: crate::blake2s::IV,
            counter,
            flags_start,
            flags_end,
            last_block_len: 64,
        }
    }
    let chunks: Vec<Lane<'_>> = data
        .chunks_exact(1024)
        .enumerate()
        .map(|(i, chunk)| lane(chunk, i as u64, 1, 2))
        .collect();
    let mut level = vec![[0u8; 32]; chunks.len()];
    // SAFETY: forwarded from the caller; every lane holds the blocks it is hashed with.
    unsafe { hash_lanes(&chunks, 16, 0, &mut level) };
    while level.len() > 1 {
        let root = if level.len() == 2 { 8 } else { 0 };
        let parents: Vec<Lane<'_>> = level
            .as_flattened()
            .chunks_exact(BLOCK_LEN)
            .map(|pair| lane(pair, 0, 0, root))
            .collect();
        let mut next = vec![[0u8; 32]; parents.len()];
        // SAFETY: as above.
        unsafe { hash_lanes(&parents, 1, 4, &mut next) };
        level = next;
    }
    level[0]
}

/// [`tree`] from the crate's kernels.
fn tree_theirs(theirs: Theirs, data: &[u8]) -> [u8; 32] {
    let chunks: Vec<&[u8; 1024]> = data
        .chunks_exact(1024)
        .map(|c| c.try_into().unwrap())
        .collect();
    let mut level = vec![[0u8; 32]; chunks.len()];
    let key = crate::blake2s::IV;
    let out = level.as_flattened_mut();
    theirs.hash_many(&chunks, &key, 0, IncrementCounter::Yes, 0, 1, 2, out);
    while level.len() > 1 {
        let root = if level.len() == 2 { 8 } else { 0 };
        let parents: Vec<&[u8; 64]> = level
            .as_flattened()
            .chunks_exact(BLOCK_LEN)
            .map(|c| c.try_into().unwrap())
            .collect();
        let mut next = vec![[0u8; 32]; parents.len()];
        let out = next.as_flattened_mut();
        theirs.hash_many(&parents, &key, 0, IncrementCounter::No, 4 | root, 0, 0, out);
        level = next;
    }
    level[0]
}
