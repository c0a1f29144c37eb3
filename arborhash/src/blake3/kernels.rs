//! The BLAKE3 kernel interface, the one dispatch from a [`Platform`] to a backend, and the
//! driver that cuts every multi-lane job into groups the backends take.
//!
//! # What a backend provides
//!
//! A backend is one file beside this one (`portable.rs`, `sse41.rs`, `avx2.rs`, `avx512.rs`,
//! `neon.rs`) with a unit type implementing [`Kernels`]:
//!
//! - `DEGREE`: the most lanes one `hash_many` call takes (1 where there are no vectors);
//! - `compress_in_place`: one chaining value through a chain of blocks;
//! - `hash_many`: one [`Group`] of at most `DEGREE` lanes (at most four for a 1-lane backend
//!   given one run of four chunks), each lane's chaining value to `out`;
//! - `xof_many`: consecutive extended-output blocks of one root node;
//! - optionally `hash_many_copying`: whole chunks hashed as `hash_many` hashes them and copied
//!   to destinations on the way (the x86 backends store each block as they load it; the
//!   default copies first).
//!
//! Each is an `unsafe fn`, callable once a [`Platform`] proves the CPU has the backend's
//! features; the SIMD ones are `#[target_feature]` functions. Plugging a backend in takes its
//! `Backend` variant in `platform.rs` and one line in [`with_kernels!`]; the tree, the hasher,
//! the batch API and the extended output reach every backend through the driver functions
//! below, which are the only callers of the trait. The kernel tests (`kernel_tests.rs`) check a
//! backend's functions against the portable ones: add a `#[test]` calling
//! `kernel_tests::check::<NewBackend>(Backend::New)`.
//!
//! The CPU-specific choices made here, besides the backend: on the `avx512-scalar` route a chain
//! of two blocks or more goes to `avx512::compress_scalar` ([`compress_in_place`]), and the width
//! of the incremental hasher's long buffer copies ([`wide_copies`]).

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::tree::CHUNK_LEN;
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

/// One independent lane of blocks hashed by [`hash_lanes`]: a whole or partial chunk, a chunk's
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

/// The lanes one [`Kernels::hash_many`] call hashes: the three shapes in which the tree, the
/// hasher and the batch API produce work. All could be written as [`Lane`]s; the other two let
/// a backend build its parameter vectors from broadcasts and address every lane from one
/// pointer a run, which is what makes the tree's full groups as fast as the `blake3` crate's.
#[derive(Clone, Copy)]
pub(crate) enum Group<'g, 'a> {
    /// Lanes with parameters of their own, each `blocks` blocks, `flags` on every block.
    Lanes {
        lanes: &'g [Lane<'a>],
        blocks: usize,
        flags: u8,
    },
    /// Consecutive lanes of one input (whole chunks or parents).
    Run(Run<'a>),
    /// Runs of four whole chunks each, anywhere in memory, with the first run's key and flags:
    /// lane `i` of run `r` is lane `4 * r + i` (the batch API's messages).
    ChunkRuns(&'g [Run<'a>]),
}

impl<'a> Group<'_, 'a> {
    /// Lanes in the group.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn len(&self) -> usize {
        match self {
            Group::Lanes { lanes, .. } => lanes.len(),
            Group::Run(run) => run.len(),
            Group::ChunkRuns(runs) => 4 * runs.len(),
        }
    }

    /// The group's lanes (at most 16) as [`Lane`]s in `scratch`, with their block count and
    /// the flags of every block: the form the portable backend hashes.
    pub(crate) fn to_lanes<'s>(self, scratch: &'s mut [Lane<'a>; 16]) -> (&'s [Lane<'a>], usize, u8)
    where
        'a: 's,
    {
        match self {
            Group::Lanes {
                lanes,
                blocks,
                flags,
            } => {
                scratch[..lanes.len()].copy_from_slice(lanes);
                (&scratch[..lanes.len()], blocks, flags)
            }
            Group::Run(run) => (run.lanes(scratch), run.blocks, run.flags),
            Group::ChunkRuns(runs) => {
                for (r, run) in runs.iter().enumerate() {
                    let mut one = [EMPTY_LANE; 16];
                    let lanes = run.lanes(&mut one);
                    scratch[4 * r..4 * r + 4].copy_from_slice(lanes);
                }
                let run0 = &runs[0];
                (&scratch[..4 * runs.len()], run0.blocks, run0.flags)
            }
        }
    }
}

/// The BLAKE3 kernels of one backend (see the module documentation).
///
/// # Safety
/// Every function may only be called on a CPU that supports the backend, which a [`Platform`]
/// for it proves ([`with_kernels!`] is where that happens).
pub(crate) trait Kernels {
    /// The most lanes one [`Kernels::hash_many`] call takes.
    const DEGREE: usize;

    /// Compresses `blocks` into `cv`, one after another, each with `block_len`, `counter` and
    /// `flags`, the first with `flags_start` too.
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    );

    /// Hashes each lane of `group` (0 to `DEGREE` lanes; one run of four chunks on a 1-lane
    /// backend) into `out[i]`, which holds at least as many values; nothing past them is
    /// written. The inputs are whole lanes (checked by the driver).
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]);

    /// Hashes the whole chunks `lanes` (1 to `DEGREE`) as `hash_many` hashes them as a
    /// [`Group::Lanes`] with `flags`, and copies lane `i`'s input to `dsts[i]`. The wide
    /// backends copy each block as they load it (`simd::hash_transposed_copying`); this
    /// default copies first.
    ///
    /// # Safety
    /// As `hash_many`; besides, for `i < lanes.len()`, `dsts[i]` is valid for writing a chunk,
    /// overlaps no input and lies at the same offset from a 64-byte boundary as `dsts[0]`.
    #[cfg_attr(not(feature = "std"), allow(dead_code))] // Bao's decoder is the caller.
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { copy_then_hash::<Self>(lanes, flags, dsts, out) }
    }

    /// Fills `out` (whole blocks) with the root compression of `block` under `cv`, counters
    /// `counter`, `counter + 1`, ... for consecutive blocks; `flags` includes ROOT.
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    );
}

/// [`Kernels::hash_many_copying`] in two steps: every lane's input copied, then hashed.
///
/// # Safety
/// As [`Kernels::hash_many_copying`].
#[cfg_attr(not(feature = "std"), allow(dead_code))] // Bao's decoder is the caller.
pub(crate) unsafe fn copy_then_hash<K: Kernels + ?Sized>(
    lanes: &[Lane<'_>],
    flags: u8,
    dsts: &[*mut u8; 16],
    out: &mut [[u8; 32]],
) {
    // SAFETY: the caller promises a chunk's room at each destination, apart from the inputs.
    unsafe {
        for (lane, &dst) in lanes.iter().zip(dsts) {
            core::ptr::copy_nonoverlapping(lane.input.as_ptr(), dst, CHUNK_LEN);
        }
        K::hash_many(
            Group::Lanes {
                lanes,
                blocks: CHUNK_LEN / BLOCK_LEN,
                flags,
            },
            out,
        );
    }
}

/// Each backend's kernel type, under the names [`dispatch!`](crate::platform::dispatch) looks
/// up.
mod backends {
    pub(crate) use super::super::portable::Portable;
    #[cfg(target_arch = "x86_64")]
    pub(crate) use super::super::{avx2::Avx2, avx512::Avx512, sse41::Sse41};
    /// The AVX-512 kernels; the route's scalar chains are chosen in `compress_in_place`.
    #[cfg(target_arch = "x86_64")]
    pub(crate) type Avx512Scalar = Avx512;
    #[cfg(target_arch = "aarch64")]
    pub(crate) use super::super::neon::Neon;
}

/// Runs `$body` with `$k` the kernel type of `$p`'s backend.
macro_rules! with_kernels {
    ($p:expr, $k:ident => $body:expr) => {
        crate::platform::dispatch!($p, backends, |$k| $body)
    };
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
    #[cfg(target_arch = "x86_64")]
    if p.backend() == Backend::Avx512Scalar && blocks.len() >= 2 {
        // SAFETY: the platform proves AVX-512 (which the scalar chain does not even need); the
        // blocks are not empty.
        return unsafe {
            avx512::compress_scalar(cv, blocks, block_len, counter, flags, flags_start)
        };
    }
    let (len, start) = (block_len, flags_start);
    // SAFETY: see `with_kernels`.
    with_kernels!(p, K => unsafe { K::compress_in_place(cv, blocks, len, counter, flags, start) })
}

/// Hashes every lane: for lane `i`, compresses its `blocks` blocks starting from `lanes[i].cv`
/// with `flags` on every block, and writes the resulting chaining value (little-endian) to
/// `out[i]`. Any number of lanes.
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
    with_kernels!(p, K => {
        for (lanes, out) in lanes.chunks(K::DEGREE).zip(out.chunks_mut(K::DEGREE)) {
            // SAFETY: see `with_kernels`; the group is whole lanes, at most `DEGREE` of them.
            unsafe { K::hash_many(Group::Lanes { lanes, blocks, flags }, out) };
        }
    })
}

/// Hashes the whole chunks `lanes` as [`hash_lanes`] does, and copies them to `dst` on the
/// way, chunk `i` to `dst[i * CHUNK_LEN..]`: the wide backends read each chunk once and write
/// the copy with non-temporal stores, which leave the caches to the input, so a long copy costs
/// little beside the hashing.
/// Panics if `out` is shorter than `lanes`, a lane's input is not one chunk, or `dst` is not
/// one chunk per lane.
#[cfg_attr(not(feature = "std"), allow(dead_code))] // Bao's decoder is the caller.
pub(crate) fn hash_chunks_copying(
    p: Platform,
    lanes: &[Lane<'_>],
    flags: u8,
    dst: &mut [u8],
    out: &mut [[u8; 32]],
) {
    assert!(out.len() >= lanes.len(), "output shorter than lanes");
    assert_eq!(
        dst.len(),
        lanes.len() * CHUNK_LEN,
        "one chunk of copy per lane"
    );
    for lane in lanes {
        assert_eq!(lane.input.len(), CHUNK_LEN, "lane input length");
    }
    with_kernels!(p, K => {
        let groups = lanes.chunks(K::DEGREE).zip(dst.chunks_mut(K::DEGREE * CHUNK_LEN));
        for ((lanes, dst), out) in groups.zip(out.chunks_mut(K::DEGREE)) {
            let mut dsts = [dst.as_mut_ptr(); 16];
            for (d, chunk) in dsts.iter_mut().zip(dst.chunks_exact_mut(CHUNK_LEN)) {
                *d = chunk.as_mut_ptr();
            }
            // SAFETY: see `with_kernels`; the group is whole chunks, at most `DEGREE` of
            // them, each with a chunk of `dst`, which is exclusively borrowed (so apart from
            // the inputs); the chunks are `CHUNK_LEN` apart, so at one offset from a line.
            unsafe { K::hash_many_copying(lanes, flags, &dsts, out) };
        }
    })
}

/// Hashes every lane of `run`, lane `i` into `out[i]`: the same as [`hash_lanes`] on the
/// run's lanes.
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
    with_kernels!(p, K => hash_run_with::<K>(run, out))
}

/// [`hash_run`] on backend `K`: one call per group of `K::DEGREE` lanes.
#[inline(always)]
fn hash_run_with<K: Kernels>(run: Run<'_>, out: &mut [[u8; 32]]) {
    let n = run.len();
    // The tree's small runs are a single group, passed on as they are.
    if n <= K::DEGREE {
        // SAFETY: `K` is the platform's backend (see `with_kernels`); the caller checked the
        // shapes.
        return unsafe { K::hash_many(Group::Run(run), out) };
    }
    let mut first = 0;
    while first < n {
        // SAFETY: as above, for a part of at most `DEGREE` lanes.
        unsafe { K::hash_many(Group::Run(run.part(first, K::DEGREE)), &mut out[first..]) };
        first += K::DEGREE;
    }
}

/// Whole chunks of several inputs at once: `runs` are runs of four whole chunks each (`step`
/// 1), all with the first run's key and flags (their counters may differ); lane `i` of run `r`
/// goes to `out[4 * r + i]`. Backends wider than four lanes take several runs to a group, where
/// [`hash_run`] would take each alone, and build no [`Lane`] for each chunk as [`hash_lanes`]
/// needs. The runs' `prefetch_offset` is not read: the batch API has nothing beyond its runs to
/// read ahead.
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
    with_kernels!(p, K => {
        let per_group = K::DEGREE / 4;
        if per_group <= 1 {
            // A run is a full group (SSE4.1) or more than one (portable).
            for (run, out) in runs.iter().zip(out.chunks_mut(4)) {
                hash_run_with::<K>(*run, out);
            }
        } else {
            for (k, (group, out)) in runs.chunks(per_group).zip(out.chunks_mut(K::DEGREE)).enumerate() {
                #[cfg(target_arch = "x86_64")]
                prefetch_run_starts(group, runs.get(per_group * (k + 1)..).unwrap_or_default(), K::DEGREE);
                #[cfg(not(target_arch = "x86_64"))]
                let _ = k;
                // SAFETY: see `with_kernels`; at most `DEGREE / 4` runs of four whole chunks.
                unsafe { K::hash_many(Group::ChunkRuns(group), out) };
            }
        }
    })
}

/// Before a group of chunk runs is hashed, prefetches the first blocks of each chunk of the
/// next group's runs (`next`, paired with the group's `runs`) that the wide kernels' own
/// prefetch misses: they read ahead within each of their `lanes` lanes and into the lane
/// `lanes` chunks on, where a tree's next group is, and a batch's when its messages lie back to
/// back; other messages may be anywhere, and their first blocks are misses every lane waits on.
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

/// A placeholder to initialise lane arrays with.
pub(crate) const EMPTY_LANE: Lane<'static> = Lane {
    input: &[],
    cv: [0; 8],
    counter: 0,
    flags_start: 0,
    flags_end: 0,
    last_block_len: 0,
};

/// Whether the incremental hasher copies long writes into its buffer with 32-byte moves (AVX),
/// which the caller's own code, compiled for any x86-64, does not have.
pub(crate) fn wide_copies(p: Platform) -> bool {
    matches!(
        p.backend(),
        Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar
    )
}

/// How many lanes one kernel call runs at once on this platform.
pub(crate) fn degree(p: Platform) -> usize {
    with_kernels!(p, K => K::DEGREE)
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
    // SAFETY: see `with_kernels`.
    with_kernels!(p, K => unsafe { K::xof_many(cv, block, block_len, counter, flags, out) })
}
