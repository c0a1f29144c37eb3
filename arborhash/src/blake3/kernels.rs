//! The BLAKE3 compression kernels and the backend dispatch in front of them.
//!
//! The tree, the hasher, the batch API and the extended output are written once against these
//! functions; each backend module implements the same four.

#[cfg(target_arch = "aarch64")]
use super::neon;
use super::portable;
use super::tree::CHUNK_LEN;
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512, sse41};
use crate::platform::{Backend, Platform};

/// Bytes in a block.
pub(crate) const BLOCK_LEN: usize = 64;

/// The offsets of blocks that cover `len` bytes (more than a block) with block-sized moves: every
/// whole block but the last, then the last 64 bytes, which overlap the block before unless `len`
/// is a multiple of 64. The incremental hasher's long copies move their bytes so.
#[inline(always)]
pub(crate) fn block_starts(len: usize) -> impl Iterator<Item = usize> {
    debug_assert!(len > BLOCK_LEN);
    let last = len - BLOCK_LEN;
    (0..last).step_by(BLOCK_LEN).chain(core::iter::once(last))
}

/// One independent run of blocks hashed by [`hash_lanes`]: a whole or partial chunk, a chunk's
/// continuation, a parent node (one block), or a single-chunk message finalised as the root.
#[derive(Clone, Copy)]
pub(crate) struct Lane<'a> {
    /// Exactly `blocks * BLOCK_LEN` bytes; a partial last block is zero-padded by the caller.
    pub input: &'a [u8],
    /// The chaining value at the start: the key words for a new chunk or a parent.
    pub cv: [u32; 8],
    /// The counter for every block (the chunk index; 0 for parents).
    pub counter: u64,
    /// Flags added to the first block (CHUNK_START for a new chunk, 0 for a continuation).
    pub flags_start: u8,
    /// Flags added to the last block (CHUNK_END, possibly ROOT).
    pub flags_end: u8,
    /// The block length of the last block, 1..=64 (0 only for an empty message's single block).
    pub last_block_len: u8,
}

/// Compresses `blocks` into `cv`, one after another, each with `block_len`, `counter` and
/// `flags`, the first with `flags_start` too (see `portable::compress_in_place`).
#[inline]
pub(crate) fn compress_in_place(
    p: Platform,
    cv: &mut [u32; 8],
    blocks: &[[u8; BLOCK_LEN]],
    block_len: u8,
    counter: u64,
    flags: u8,
    flags_start: u8,
) {
    let (len, start) = (block_len, flags_start);
    match p.backend() {
        Backend::Portable => portable::compress_in_place(cv, blocks, len, counter, flags, start),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it.
        Backend::Sse41 => unsafe {
            sse41::compress_in_place(cv, blocks, len, counter, flags, start)
        },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::compress_in_place(cv, blocks, len, counter, flags, start) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe {
            avx512::compress_in_place(cv, blocks, len, counter, flags, start)
        },
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => unsafe { neon::compress_in_place(cv, blocks, len, counter, flags, start) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
        #[cfg(not(target_arch = "aarch64"))]
        Backend::Neon => unreachable!("the NEON backend is only selected on AArch64"),
    }
}

/// Hashes every lane: for lane `i`, compresses its `blocks` blocks starting from `lanes[i].cv`
/// with `flags` on every block, and writes the resulting chaining value (little-endian) to
/// `out[i]`. Any number of lanes; the backend runs as many at once as its vectors hold.
/// Panics if `out` is shorter than `lanes` or a lane's input is not `blocks * BLOCK_LEN` bytes.
#[inline]
pub(crate) fn hash_lanes(
    p: Platform,
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    assert!(out.len() >= lanes.len(), "output shorter than lanes");
    for lane in lanes {
        assert_eq!(lane.input.len(), blocks * BLOCK_LEN, "lane input length");
    }
    match p.backend() {
        Backend::Portable => portable::hash_lanes(lanes, blocks, flags, out),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it; lengths are checked.
        Backend::Sse41 => unsafe { sse41::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => unsafe { neon::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
        #[cfg(not(target_arch = "aarch64"))]
        Backend::Neon => unreachable!("the NEON backend is only selected on AArch64"),
    }
}

/// Lanes that differ only in their input and counter, laid out one after the other: whole
/// chunks (counters `counter + i`, `step` 1) or parent nodes (one block each, counter 0, `step`
/// 0), as the tree hashes them. A backend can build every parameter vector of such a group
/// from broadcasts, rather than lane by lane from [`Lane`]s.
#[derive(Clone, Copy)]
pub(crate) struct Run<'a> {
    /// The lanes' inputs, `blocks * BLOCK_LEN` bytes each.
    pub input: &'a [u8],
    pub blocks: usize,
    /// The chaining value every lane starts from.
    pub key: &'a [u32; 8],
    /// The first lane's counter; lane `i` has `counter + step * i` (`step` is 0 or 1).
    pub counter: u64,
    pub step: u64,
    /// Flags on every block, added to the first block (CHUNK_START) and to the last
    /// (CHUNK_END).
    pub flags: u8,
    pub flags_start: u8,
    pub flags_end: u8,
    /// Where the kernels that prefetch (AVX2, AVX-512) also read ahead, as a wrapping distance
    /// from the input; 0 for nothing more than the input. The incremental hasher hashes its
    /// buffer, in the cache already, and points this at the caller's input that will refill
    /// it, so that a long input arrives from memory while the buffer is hashed rather than
    /// while it is copied. (Only the x86 kernels read it.)
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub prefetch_offset: usize,
}

impl<'a> Run<'a> {
    /// Lanes in the run.
    pub(crate) fn len(&self) -> usize {
        let lane_len = self.blocks * BLOCK_LEN;
        // The tree's runs are whole chunks or single blocks: a shift rather than a 64-bit
        // division, which every group's pointers, and so its first loads, would wait for.
        if lane_len.is_power_of_two() {
            self.input.len() >> lane_len.trailing_zeros()
        } else {
            self.input.len() / lane_len
        }
    }

    /// The lanes from `first` on, at most `max` of them.
    pub(crate) fn part(&self, first: usize, max: usize) -> Run<'a> {
        let lane_len = self.blocks * BLOCK_LEN;
        let end = (first + max).min(self.len());
        Run {
            input: &self.input[first * lane_len..end * lane_len],
            counter: self.counter.wrapping_add(self.step * first as u64),
            ..*self
        }
    }

    /// The run's lanes (at most 16) as [`Lane`]s, in `lanes`.
    pub(crate) fn lanes<'b>(&self, lanes: &'b mut [Lane<'a>; 16]) -> &'b [Lane<'a>] {
        let lane_len = self.blocks * BLOCK_LEN;
        let n = self.len();
        debug_assert!(n <= lanes.len());
        for (i, (lane, input)) in lanes
            .iter_mut()
            .zip(self.input.chunks_exact(lane_len))
            .enumerate()
        {
            *lane = Lane {
                input,
                cv: *self.key,
                counter: self.counter.wrapping_add(self.step * i as u64),
                flags_start: self.flags_start,
                flags_end: self.flags_end,
                last_block_len: BLOCK_LEN as u8,
            };
        }
        &lanes[..n]
    }
}

/// Hashes every lane of `run`, lane `i` into `out[i]`: the same as [`hash_lanes`] on the
/// run's lanes, which is what the portable backend does; the x86 backends build the parameters
/// of such groups from broadcasts.
/// Panics if `run.input` is not whole lanes of at least one block or `out` is too short.
#[inline(always)]
pub(crate) fn hash_run(p: Platform, run: Run<'_>, out: &mut [[u8; 32]]) {
    assert!(run.blocks > 0 && run.step <= 1, "run shape");
    assert_eq!(
        run.len() * run.blocks * BLOCK_LEN,
        run.input.len(),
        "run of whole lanes"
    );
    assert!(out.len() >= run.len(), "output shorter than the run");
    // One backend call per group of its width (16 lanes on the portable backend, whose
    // `hash_lanes` takes any number). The backend is matched once, not per group.
    // SAFETY (each call): a `Platform` for the backend proves the CPU supports it; the group is
    // whole lanes, at most the backend's width, and `out` holds one value per lane.
    match p.backend() {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => for_each_group(run, degree(p), out, |g, o| unsafe {
            avx512::hash_run(g, o)
        }),
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            for_each_group(run, degree(p), out, |g, o| unsafe { avx2::hash_run(g, o) })
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Sse41 => {
            for_each_group(run, degree(p), out, |g, o| unsafe { sse41::hash_run(g, o) })
        }
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => {
            for_each_group(run, degree(p), out, |g, o| unsafe { neon::hash_run(g, o) })
        }
        _ => for_each_group(run, 16, out, |group, out| {
            let mut lanes = [EMPTY_LANE; 16];
            let lanes = group.lanes(&mut lanes);
            hash_lanes(p, lanes, group.blocks, group.flags, out);
        }),
    }
}

/// Whole chunks of several inputs at once: `runs` are runs of four whole chunks each (`step`
/// 1), all with the first run's key and flags (their counters may differ); lane `i` of run `r`
/// goes to `out[4 * r + i]`. The batch API's messages come as such runs, which the wider
/// backends put several to a group of lanes, where [`hash_run`] would take each alone (four
/// lanes: half of AVX2's vectors, a quarter of AVX-512's), and with no [`Lane`] built for each
/// chunk as [`hash_lanes`] needs. The runs' `prefetch_offset` is not read by the wide
/// backends: the batch API has nothing beyond its runs to read ahead.
/// Panics if a run is not four whole chunks or `out` is too short.
#[inline]
pub(crate) fn hash_chunk_runs(p: Platform, runs: &[Run<'_>], out: &mut [[u8; 32]]) {
    for run in runs {
        assert!(
            run.blocks * BLOCK_LEN == CHUNK_LEN && run.input.len() == 4 * CHUNK_LEN,
            "a run of four whole chunks"
        );
        debug_assert!(
            run.step == 1
                && run.key == runs[0].key
                && (run.flags, run.flags_start, run.flags_end)
                    == (runs[0].flags, runs[0].flags_start, runs[0].flags_end)
        );
    }
    assert!(out.len() >= 4 * runs.len(), "output shorter than the runs");
    // SAFETY (each call): a `Platform` for the backend proves the CPU supports it; each group
    // holds runs of four whole chunks, at most a quarter as many as the backend has lanes, and
    // `out` four values a run.
    match p.backend() {
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => {
            for (k, (group, out)) in runs.chunks(4).zip(out.chunks_mut(16)).enumerate() {
                prefetch_run_starts(group, runs.get(4 * (k + 1)..).unwrap_or_default(), 16);
                unsafe { avx512::hash_chunk_runs(group, out) };
            }
        }
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => {
            for (k, (group, out)) in runs.chunks(2).zip(out.chunks_mut(8)).enumerate() {
                prefetch_run_starts(group, runs.get(2 * (k + 1)..).unwrap_or_default(), 8);
                unsafe { avx2::hash_chunk_runs(group, out) };
            }
        }
        // Four lanes are a full group here (SSE4.1, NEON) or more than one (portable).
        _ => {
            for (run, out) in runs.iter().zip(out.chunks_mut(4)) {
                hash_run(p, *run, out);
            }
        }
    }
}

/// Before a group of chunk runs is hashed, prefetches the first blocks of each chunk of the
/// next group's runs (`next`, paired with the group's `runs`) that the group does not: the wide
/// kernels prefetch `PREFETCH_AHEAD` (256) bytes ahead in each of their `lanes` lanes, and from
/// a lane's last blocks on as far into the lane `lanes` chunks on, where a tree's next group
/// is, and a batch's too when its messages lie back to back. Other messages may be anywhere,
/// and their first blocks were misses that every lane waited on (64 x 4 KiB messages 64 KiB
/// apart, from memory, AVX2: 9-10 % faster with this). Where the kernels' prefetch is right,
/// none is added: a burst of 32 more ahead of theirs made back-to-back messages from memory 4 %
/// slower.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_run_starts(runs: &[Run<'_>], next: &[Run<'_>], lanes: usize) {
    use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    for (run, next) in runs.iter().zip(next) {
        let followed = (run.input.as_ptr() as usize).wrapping_add(lanes * CHUNK_LEN);
        if next.input.as_ptr() as usize == followed {
            continue;
        }
        for chunk in next.input.chunks_exact(CHUNK_LEN) {
            for line in chunk[..4 * BLOCK_LEN].chunks_exact(BLOCK_LEN) {
                // SAFETY: SSE, part of x86-64; a prefetch never faults.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast()) };
            }
        }
    }
}

/// Calls `f` on each group of at most `width` lanes of `run`, with the outputs from the
/// group's first lane on. `out` holds at least one value per lane (checked by the caller).
#[inline(always)]
fn for_each_group(
    run: Run<'_>,
    width: usize,
    out: &mut [[u8; 32]],
    mut f: impl FnMut(Run<'_>, &mut [[u8; 32]]),
) {
    let n = run.len();
    // The tree's small runs are a single group, passed on as they are.
    if n <= width {
        return f(run, out);
    }
    let mut first = 0;
    while first < n {
        f(run.part(first, width), &mut out[first..]);
        first += width;
    }
}

/// A placeholder to initialise lane arrays with.
pub(crate) const EMPTY_LANE: Lane<'static> = Lane {
    input: &[],
    cv: [0; 8],
    counter: 0,
    flags_start: 0,
    flags_end: 0,
    last_block_len: 0,
};

/// How many lanes `hash_lanes` runs at once on this platform.
pub(crate) fn degree(p: Platform) -> usize {
    match p.backend() {
        Backend::Portable => 1,
        Backend::Sse41 => 4,
        Backend::Avx2 => 8,
        Backend::Avx512 => 16,
        Backend::Neon => 4,
    }
}

/// Extended output: fills `out` (a multiple of `BLOCK_LEN` bytes) with the root compression of
/// `block` under `cv`, using counters `counter`, `counter + 1`, ... for consecutive 64-byte blocks.
/// `flags` must include ROOT.
#[inline]
pub(crate) fn xof_many(
    p: Platform,
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    assert_eq!(out.len() % BLOCK_LEN, 0, "xof output must be whole blocks");
    match p.backend() {
        Backend::Portable => portable::xof_many(cv, block, block_len, counter, flags, out),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it.
        Backend::Sse41 => unsafe { sse41::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(target_arch = "aarch64")]
        Backend::Neon => unsafe { neon::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
        #[cfg(not(target_arch = "aarch64"))]
        Backend::Neon => unreachable!("the NEON backend is only selected on AArch64"),
    }
}
