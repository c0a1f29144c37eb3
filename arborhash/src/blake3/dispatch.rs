//! The one dispatch from a `Platform` to a BLAKE3 backend, and the driver that cuts every
//! multi-lane job into groups the backends take: the only callers of [`Kernels`].
//!
//! Safety: every `unsafe` kernel call here is in an arm of `platform::dispatch!`, whose kernel
//! type is the backend the `Platform` proves the CPU supports.
//!
//! The CPU-specific choices made here, besides the backend: the width of the incremental
//! hasher's long buffer copies ([`copy_blocks`]).

use core::mem::MaybeUninit;

use super::kernels::{block_starts, Group, Kernels, Lane, Run, BLOCK_LEN, CHUNK_LEN};
use crate::platform::{dispatch, Platform};

/// Each backend's kernel type, under the names [`dispatch!`](crate::platform::dispatch) looks
/// up.
pub(super) mod backends {
    #[cfg(target_arch = "aarch64")]
    pub(crate) use super::super::neon::Neon;
    pub(crate) use super::super::portable::Portable;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub(crate) use super::super::simd128::Simd128;
    /// A module built without SIMD128 never selects it: the portable kernels, so that it
    /// holds no SIMD instruction an engine without them would refuse.
    #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128")))]
    pub(crate) type Simd128 = Portable;
    #[cfg(target_arch = "x86_64")]
    pub(crate) use super::super::{
        avx2::Avx2,
        avx512::{Avx512, Avx512Scalar},
        sse41::Sse41,
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
    // SAFETY: see the module documentation.
    dispatch!(p, backends, |K| unsafe {
        K::compress_in_place(cv, blocks, block_len, counter, flags, flags_start)
    })
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
    dispatch!(p, backends, |K| {
        for (lanes, out) in lanes.chunks(K::DEGREE).zip(out.chunks_mut(K::DEGREE)) {
            // SAFETY: see the module documentation; whole lanes, at most `DEGREE`.
            unsafe {
                K::hash_many(
                    Group::Lanes {
                        lanes,
                        blocks,
                        flags,
                    },
                    out,
                )
            };
        }
    })
}

/// Hashes the whole chunks `lanes` as [`hash_lanes`] does, and copies them to `dst` on the
/// way, chunk `i` to `dst[i * CHUNK_LEN..]`: the wide backends read each chunk once and write
/// the copy with non-temporal stores, which leave the caches to the input, so a long copy costs
/// little beside the hashing.
/// Panics if `out` is shorter than `lanes`, a lane's input is not one chunk, or `dst` is not
/// one chunk per lane.
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
    dispatch!(p, backends, |K| {
        let groups = lanes
            .chunks(K::DEGREE)
            .zip(dst.chunks_mut(K::DEGREE * CHUNK_LEN));
        for ((lanes, dst), out) in groups.zip(out.chunks_mut(K::DEGREE)) {
            let mut dsts = [dst.as_mut_ptr(); 16];
            for (d, chunk) in dsts.iter_mut().zip(dst.chunks_exact_mut(CHUNK_LEN)) {
                *d = chunk.as_mut_ptr();
            }
            // SAFETY: see the module documentation; whole chunks, at most `DEGREE`, each with a
            // chunk of `dst`, which is exclusively borrowed (so apart from
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
    dispatch!(p, backends, |K| hash_run_with::<K>(run, out))
}

/// [`hash_run`] on backend `K`: one call per group of `K::DEGREE` lanes.
#[inline(always)]
fn hash_run_with<K: Kernels>(run: Run<'_>, out: &mut [[u8; 32]]) {
    let n = run.len();
    // The tree's small runs are a single group, passed on as they are.
    if n <= K::DEGREE {
        // SAFETY: `K` is the platform's backend (every caller is a `dispatch!` arm); the
        // caller checked the shapes.
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
/// needs.
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
    dispatch!(p, backends, |K| {
        let per_group = K::DEGREE / 4;
        if per_group <= 1 {
            // A run is a full group (SSE4.1) or more than one (portable).
            for (run, out) in runs.iter().zip(out.chunks_mut(4)) {
                hash_run_with::<K>(*run, out);
            }
        } else {
            for (group, out) in runs.chunks(per_group).zip(out.chunks_mut(K::DEGREE)) {
                // SAFETY: see the module documentation; at most `DEGREE / 4` runs of 4 chunks.
                unsafe { K::hash_many(Group::ChunkRuns(group), out) };
            }
        }
    })
}

/// Copies `src` to `dst`, of the same length, more than a block, as whole blocks and a last
/// block that overlaps the one before it unless the length is a multiple of 64: the incremental
/// hasher's copy of long writes into its buffer (`buffer.rs` says why not with `memcpy`). Where
/// the platform has AVX2 with 32-byte moves, which the caller's own code, compiled for any
/// x86-64, does not have.
#[inline(never)]
pub(crate) fn copy_blocks(p: Platform, src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    let n = src.len();
    assert!(n > BLOCK_LEN && dst.len() == n);
    #[cfg(target_arch = "x86_64")]
    {
        use crate::platform::Backend::{Avx2, Avx512, Avx512Scalar};
        if matches!(p.backend(), Avx2 | Avx512 | Avx512Scalar) {
            // SAFETY: the platform proves AVX2; `dst` is `n` bytes we borrow exclusively, apart
            // from `src`.
            return unsafe { super::avx2::copy_blocks(src, dst.as_mut_ptr().cast()) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
    block_starts(n).for_each(|at| {
        // Two moves of half a block each: one of the whole block, as long as the step, is a
        // loop that LLVM turns back into a `memcpy` of the lot.
        copy_fixed::<32>(&src[at..at + 32], &mut dst[at..at + 32]);
        copy_fixed::<32>(&src[at + 32..at + 64], &mut dst[at + 32..at + 64]);
    });
}

/// Copies the `W` bytes of `src` to `dst`, straight: not through a local array, which LLVM may
/// keep on the stack.
#[inline(always)]
fn copy_fixed<const W: usize>(src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    assert!(src.len() == W && dst.len() == W);
    // SAFETY: both are `W` bytes; `dst` is borrowed exclusively, so it cannot overlap `src`;
    // `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), W) };
}

/// How many lanes one kernel call runs at once on this platform.
pub(crate) fn degree(p: Platform) -> usize {
    dispatch!(p, backends, |K| K::DEGREE)
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
    // SAFETY: see the module documentation.
    dispatch!(p, backends, |K| unsafe {
        K::xof_many(cv, block, block_len, counter, flags, out)
    })
}
