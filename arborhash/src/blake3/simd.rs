//! What the x86-64 SIMD kernels of BLAKE3 share, written once over the vector type and the
//! [`Rotate`] strategy:
//! - transposed ([`hash_group`], [`xof_group`]): a state word of every lane per vector, fastest
//!   when the lanes fill the vector;
//! - rows ([`compress_rows_in_place`], [`xof_rows`], [`hash_rows`]): a lane's state as four rows
//!   in a 128-bit lane, a few states interleaved, for single blocks and small groups.
//!
//! Everything is `unsafe` and `#[inline(always)]`, only compiled into a backend's
//! `#[target_feature]` entry points (closures stay trivial for the same reason).

use core::arch::x86_64::*;

use super::kernels::{block_words, Group, Lane, Run, BLOCK_LEN, CHUNK_LEN, IV, MSG_SCHEDULE};
use crate::arch::x86::sse41::{load128, store128};
use crate::arch::x86::{pick, Ror, Shuffles, WordRotations};

/// The word rotations of the row rounds, for the Rust row functions and the AVX2 assembly.
pub(super) const WORDS_RIGHT: i32 = pick(3, 0, 1, 2);
pub(super) const WORDS_LEFT: i32 = pick(1, 2, 3, 0);
pub(super) const WORDS_SWAP: i32 = pick(2, 3, 0, 1);

/// The `shufps` picks of [`permute_row_message`]'s rows, also for the AVX2 assembly.
pub(super) const NEXT_A: i32 = pick(2, 3, 3, 2);
pub(super) const NEXT_B: i32 = pick(3, 2, 0, 3);
pub(super) const NEXT_C: i32 = pick(0, 1, 3, 1);
pub(super) const NEXT_D: i32 = pick(1, 2, 2, 0);

/// `asm!` of the row rounds (AVX2) with the shuffle immediates above as operands.
macro_rules! asm_row_consts {
    ($($template:expr),+; $($operands:tt)*) => {
        core::arch::asm!(
            $($template),+,
            left = const $crate::blake3::simd::WORDS_LEFT,
            right = const $crate::blake3::simd::WORDS_RIGHT,
            swap = const $crate::blake3::simd::WORDS_SWAP,
            next_a = const $crate::blake3::simd::NEXT_A,
            next_b = const $crate::blake3::simd::NEXT_B,
            next_c = const $crate::blake3::simd::NEXT_C,
            next_d = const $crate::blake3::simd::NEXT_D,
            $($operands)*
        )
    };
}
pub(super) use asm_row_consts;

/// Calls `$then!` with the message schedule as literals, for `avx512::compress_scalar`.
macro_rules! with_schedule {
    ($then:ident) => {
        $then!(
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8],
            [3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1],
            [10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6],
            [12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4],
            [9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7],
            [11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13]
        )
    };
}
pub(super) use with_schedule;

macro_rules! schedule_array {
    ($([$($i:literal),*]),*) => {
        [$([$($i),*]),*]
    };
}

const _: () = {
    const LITERAL: [[usize; 16]; 7] = with_schedule!(schedule_array);
    let mut r = 0;
    while r < 7 {
        let mut i = 0;
        while i < 16 {
            assert!(LITERAL[r][i] == MSG_SCHEDULE[r][i]);
            i += 1;
        }
        r += 1;
    }
};

/// G's rotations of a vector `V`, and the row rounds a strategy may write its own way; each
/// `unsafe fn` requires the CPU features of its implementation.
pub(super) trait Rotate<V>: WordRotations<V> {
    /// The seven rounds of two interleaved row states (see [`rounds_rows`]).
    #[inline(always)]
    unsafe fn rounds_two_row_states(rows: &mut [[V; 4]; 2], m: [RowMessage<V>; 2])
    where
        V: RowWords,
        Self: Sized,
    {
        // SAFETY: forwarded from the caller.
        unsafe { interleaved_rounds_rows::<V, Self, 2>(rows, m) }
    }
}

impl Rotate<__m128i> for Shuffles {}
impl Rotate<__m128i> for Ror {}
impl Rotate<__m256i> for Ror {}
impl Rotate<__m512i> for Ror {}

/// A vector of 32-bit words, one lane per element, for the transposed compression; each
/// `unsafe fn` requires its type's CPU feature, and the pointer methods valid memory.
pub(super) trait LaneWords: Copy {
    const LANES: usize;
    /// Whether [`compress_group`] loads words 0-7 of each block before the previous block's rounds.
    const FIRST_HALF_AHEAD: bool = false;
    /// How far ahead `load_block` prefetches each lane's input, in bytes; 0 for none.
    const PREFETCH_AHEAD: usize = 0;
    /// Prefetches the line at `src[i] + at` of every lane if `PREFETCH_AHEAD > 0`; never faults.
    #[inline(always)]
    unsafe fn prefetch(src: &[*const u8; 16], at: usize) {
        if Self::PREFETCH_AHEAD > 0 {
            for src in &src[..Self::LANES] {
                // SAFETY: SSE, part of x86-64; a prefetch never faults, whatever the address.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(src.wrapping_add(at).cast()) };
            }
        }
    }
    /// Copies the 64 bytes at `src` to 64-byte aligned `dst` with non-temporal stores.
    unsafe fn stream_line(src: *const u8, dst: *mut u8);
    unsafe fn splat(w: u32) -> Self;
    unsafe fn from_lanes(w: &[u32; 16]) -> Self;
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane `i < LANES` reads `4 * W` little-endian bytes at `src[i] + at`, word `k` to vector `k`;
    /// the separate offset lets the loads use it as an addressing mode.
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16], at: usize) -> [Self; W];
    /// The inverse: lane `i < LANES` is written as `4 * W` bytes at `dst[i]`.
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]);
}

/// Four G functions on `cols[k] = [a, b, c, d]`, interleaved so their chains overlap.
#[inline(always)]
unsafe fn g4<V: LaneWords, R: Rotate<V>>(
    v: &mut [V; 16],
    cols: [[usize; 4]; 4],
    x: [V; 4],
    y: [V; 4],
) {
    // SAFETY: forwarded from the caller (see `LaneWords`, `Rotate`).
    unsafe {
        for (&[a, b, _, _], x) in cols.iter().zip(x) {
            v[a] = v[a].add(x).add(v[b]);
        }
        for &[a, _, _, d] in &cols {
            v[d] = R::rot16(v[d].xor(v[a]));
        }
        for &[_, _, c, d] in &cols {
            v[c] = v[c].add(v[d]);
        }
        for &[_, b, c, _] in &cols {
            v[b] = R::rot12(v[b].xor(v[c]));
        }
        for (&[a, b, _, _], y) in cols.iter().zip(y) {
            v[a] = v[a].add(y).add(v[b]);
        }
        for &[a, _, _, d] in &cols {
            v[d] = R::rot8(v[d].xor(v[a]));
        }
        for &[_, _, c, d] in &cols {
            v[c] = v[c].add(v[d]);
        }
        for &[_, b, c, _] in &cols {
            v[b] = R::rot7(v[b].xor(v[c]));
        }
    }
}

#[inline(always)]
unsafe fn round<V: LaneWords, R: Rotate<V>>(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
    const COLUMNS: [[usize; 4]; 4] = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]];
    const DIAGONALS: [[usize; 4]; 4] =
        [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]];
    // SAFETY: forwarded from the caller (see `LaneWords`, `Rotate`).
    unsafe {
        let x = [m[s[0]], m[s[2]], m[s[4]], m[s[6]]];
        let y = [m[s[1]], m[s[3]], m[s[5]], m[s[7]]];
        g4::<V, R>(v, COLUMNS, x, y);
        let x = [m[s[8]], m[s[10]], m[s[12]], m[s[14]]];
        let y = [m[s[9]], m[s[11]], m[s[13]], m[s[15]]];
        g4::<V, R>(v, DIAGONALS, x, y);
    }
}

/// One block's transposed compression into chaining values `cv`.
#[inline(always)]
unsafe fn compress_block<V: LaneWords, R: Rotate<V>>(
    cv: &mut [V; 8],
    m: &[V; 16],
    counter: &[V; 2],
    block_len: &V,
    flags: &V,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        let mut v = initial_state(cv, *counter, *block_len, *flags);
        rounds::<V, R>(&mut v, m);
        for i in 0..8 {
            cv[i] = v[i].xor(v[i + 8]);
        }
    }
}

#[inline(always)]
unsafe fn rounds<V: LaneWords, R: Rotate<V>>(v: &mut [V; 16], m: &[V; 16]) {
    // SAFETY: forwarded from the caller (see `LaneWords`, `Rotate`); spelled out so every message
    // index is a constant.
    unsafe {
        round::<V, R>(v, m, &MSG_SCHEDULE[0]);
        round::<V, R>(v, m, &MSG_SCHEDULE[1]);
        round::<V, R>(v, m, &MSG_SCHEDULE[2]);
        round::<V, R>(v, m, &MSG_SCHEDULE[3]);
        round::<V, R>(v, m, &MSG_SCHEDULE[4]);
        round::<V, R>(v, m, &MSG_SCHEDULE[5]);
        round::<V, R>(v, m, &MSG_SCHEDULE[6]);
    }
}

#[inline(always)]
unsafe fn initial_state<V: LaneWords>(
    cv: &[V; 8],
    counter: [V; 2],
    block_len: V,
    flags: V,
) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe {
        [
            cv[0],
            cv[1],
            cv[2],
            cv[3],
            cv[4],
            cv[5],
            cv[6],
            cv[7],
            V::splat(IV[0]),
            V::splat(IV[1]),
            V::splat(IV[2]),
            V::splat(IV[3]),
            counter[0],
            counter[1],
            block_len,
            flags,
        ]
    }
}

/// A local that aligns its function's frame to 64 bytes once its address escapes, so that wide
/// spills never straddle cache lines.
#[repr(align(64))]
struct StackAligned<T>(T);

/// `0, 1, ..., 15`: each lane's offset from lane 0's counter.
static LANE_INDEX: [u32; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
/// Sixteen zeros then sixteen ones: the 16 words from offset `k` are 1 in the last `k` lanes.
static CARRIES: [u32; 32] = [
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
];

/// The transposed counters `first + step * i` of lanes `i` (`step` is 0 or 1), low and high.
///
/// # Safety
/// `V`'s feature must be enabled and present.
#[inline(always)]
unsafe fn counter_words<V: LaneWords>(first: u64, step: u64) -> [V; 2] {
    debug_assert!(step <= 1);
    let (lo, hi) = (first as u32, (first >> 32) as u32);
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe {
        if step == 0 {
            return [V::splat(lo), V::splat(hi)];
        }
        // Lanes from `2^32 - lo` on carry into the high word.
        let carrying = 16 - (1u64 << 32).wrapping_sub(u64::from(lo)).min(16) as usize;
        let carries: &[u32; 16] = CARRIES[carrying..carrying + 16].try_into().unwrap();
        [
            V::splat(lo).add(V::from_lanes(&LANE_INDEX)),
            V::splat(hi).add(V::from_lanes(carries)),
        ]
    }
}

/// Hashes the 1 to `V::LANES` lanes of `group` transposed, lane `i` into `out[i]`.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `group` has 1 to `V::LANES` whole lanes
/// and `out` holds at least as many values.
#[inline(always)]
pub(super) unsafe fn hash_transposed<V: LaneWords, R: Rotate<V>>(
    group: Group<'_, '_>,
    out: &mut [[u8; 32]],
) {
    // SAFETY: forwarded from the caller; each shape's kernel takes what the caller promises.
    unsafe {
        match group {
            Group::Lanes {
                lanes,
                blocks,
                flags,
            } => hash_group::<V, R>(lanes, blocks, flags, None, out),
            Group::Run(run) | Group::ChunkRuns(&[run]) => hash_run_group::<V, R>(run, out),
            Group::ChunkRuns(runs) => hash_chunk_runs_group::<V, R>(runs, out),
        }
    }
}

/// [`hash_transposed`] for whole chunks, copying lane `i`'s input to `dsts[i]` as each block is
/// loaded (see [`copy_block`]), so the input is read once.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `lanes` has 1 to `V::LANES` chunks;
/// each `dsts[i]` is valid for writing a chunk, overlaps no input and lies at the same offset from
/// a 64-byte boundary as `dsts[0]`; `out` holds at least as many values.
#[inline(always)]
pub(super) unsafe fn hash_transposed_copying<V: LaneWords, R: Rotate<V>>(
    lanes: &[Lane<'_>],
    flags: u8,
    dsts: &[*mut u8; 16],
    out: &mut [[u8; 32]],
) {
    // SAFETY: forwarded from the caller.
    unsafe { hash_group::<V, R>(lanes, CHUNK_BLOCKS, flags, Some(*dsts), out) }
}

/// Hashes the 1 to `N * V::ROW_LANES` lanes of `group` in `N` interleaved row states.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `group` has 1 to `N * V::ROW_LANES`
/// whole lanes and `out` holds at least as many values.
#[inline(always)]
pub(super) unsafe fn hash_in_rows<V: RowWords, R: Rotate<V>, const N: usize>(
    group: Group<'_, '_>,
    out: &mut [[u8; 32]],
) {
    // SAFETY: forwarded from the caller; each shape's kernel takes what the caller promises.
    unsafe {
        match group {
            Group::Lanes {
                lanes,
                blocks,
                flags,
            } => hash_rows::<V, R, N>(lanes, blocks, flags, out),
            Group::Run(run) => hash_run_rows::<V, R, N>(run, out),
            Group::ChunkRuns(runs) => {
                debug_assert_eq!(runs.len(), 1);
                hash_run_rows::<V, R, N>(runs[0], out)
            }
        }
    }
}

/// The transposed form of `portable::hash_lanes`; unused slots hash lane 0 again.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `1 <= lanes.len() <= V::LANES`,
/// `out.len() >= lanes.len()` and every lane's input is `blocks * BLOCK_LEN` bytes.
#[inline(always)]
unsafe fn hash_group<V: LaneWords, R: Rotate<V>>(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    copy_to: Option<[*mut u8; 16]>,
    out: &mut [[u8; 32]],
) {
    debug_assert!(!lanes.is_empty() && lanes.len() <= V::LANES && out.len() >= lanes.len());
    let mut inputs = [lanes[0].input.as_ptr(); 16];
    // A constant trip count, so that LLVM keeps only the slots the vectors read.
    for (i, input) in inputs.iter_mut().enumerate().take(V::LANES) {
        *input = lanes.get(i).unwrap_or(&lanes[0]).input.as_ptr();
    }
    let lane0 = &lanes[0];
    let single = |lane: &Lane<'_>| if blocks == 1 { lane.flags_end } else { 0 };
    // A one-block group whose lanes differ only in input gets broadcast parameters, sparing a
    // gather through memory before its only block.
    let step = lanes
        .get(1)
        .map_or(0, |l| l.counter.wrapping_sub(lane0.counter));
    let regular = blocks == 1
        && step <= 1
        && lanes.iter().enumerate().all(|(i, l)| {
            l.counter == lane0.counter.wrapping_add(step * i as u64)
                && l.cv == lane0.cv
                && (l.flags_start, l.flags_end, l.last_block_len)
                    == (lane0.flags_start, lane0.flags_end, lane0.last_block_len)
        });

    // SAFETY: the features are enabled; chaining values are 32 bytes, inputs hold `blocks` blocks
    // and `out` `lanes.len()` values.
    unsafe {
        let params = if regular {
            GroupParams {
                cv: splat_words(&lane0.cv),
                counter: counter_words::<V>(lane0.counter, step),
                first_flags: V::splat(u32::from(flags | lane0.flags_start | single(lane0))),
                last_flags: V::splat(u32::from(flags | lane0.flags_end)),
                last_len: V::splat(u32::from(lane0.last_block_len)),
                copy_to,
            }
        } else {
            let mut cvs = [lane0.cv.as_ptr().cast::<u8>(); 16];
            let [mut lo, mut hi, mut first, mut last, mut len] = [[0u32; 16]; 5];
            for i in 0..V::LANES {
                let lane = lanes.get(i).unwrap_or(lane0);
                cvs[i] = lane.cv.as_ptr().cast();
                lo[i] = lane.counter as u32;
                hi[i] = (lane.counter >> 32) as u32;
                first[i] = u32::from(flags | lane.flags_start | single(lane));
                last[i] = u32::from(flags | lane.flags_end);
                len[i] = u32::from(lane.last_block_len);
            }
            GroupParams {
                cv: V::load_transposed::<8>(&cvs, 0),
                counter: [V::from_lanes(&lo), V::from_lanes(&hi)],
                first_flags: V::from_lanes(&first),
                last_flags: V::from_lanes(&last),
                last_len: V::from_lanes(&len),
                copy_to,
            }
        };
        compress_group::<V, R>(&inputs, blocks, flags, params, &mut out[..lanes.len()]);
    }
}

/// Hashes the four lanes of each of 1 to `V::LANES / 4` runs of whole chunks (see
/// `kernels::hash_chunk_runs`), lane `i` of run `r` into `out[4 * r + i]`, addressing every lane
/// from its run's one register; slots beyond the runs repeat the first.
#[inline(always)]
unsafe fn hash_chunk_runs_group<V: LaneWords, R: Rotate<V>>(
    runs: &[Run<'_>],
    out: &mut [[u8; 32]],
) {
    let n = runs.len();
    debug_assert!(n >= 1 && 4 * n <= V::LANES && out.len() >= 4 * n);
    let run0 = &runs[0];
    let mut starts = [run0.input.as_ptr(); 4];
    // Lanes of one run count up from its counter.
    let (mut lo, mut hi) = ([0u32; 16], [0u32; 16]);
    for (r, run) in runs.iter().enumerate() {
        debug_assert_eq!(run.input.len(), 4 * CHUNK_LEN);
        starts[r] = run.input.as_ptr();
        for i in 0..4 {
            let counter = run.counter.wrapping_add(i as u64);
            lo[4 * r + i] = counter as u32;
            hi[4 * r + i] = (counter >> 32) as u32;
        }
    }
    let mut inputs = [run0.input.as_ptr(); 16];
    for (i, p) in inputs.iter_mut().enumerate().take(V::LANES) {
        *p = starts[i / 4].wrapping_add(i % 4 * CHUNK_LEN);
    }
    // SAFETY: the features are enabled (our contract); each input is one chunk of a run.
    unsafe {
        let params = GroupParams {
            cv: splat_words(run0.key),
            counter: [V::from_lanes(&lo), V::from_lanes(&hi)],
            first_flags: V::splat(u32::from(run0.flags | run0.flags_start)),
            last_flags: V::splat(u32::from(run0.flags | run0.flags_end)),
            last_len: V::splat(BLOCK_LEN as u32),
            copy_to: None,
        };
        compress_group::<V, R>(&inputs, CHUNK_BLOCKS, run0.flags, params, &mut out[..4 * n]);
    }
}

/// Hashes the 1 to `V::LANES` lanes of `run`, every parameter a broadcast; unused slots repeat
/// the first.
#[inline(always)]
unsafe fn hash_run_group<V: LaneWords, R: Rotate<V>>(run: Run<'_>, out: &mut [[u8; 32]]) {
    let lane_len = run.blocks * BLOCK_LEN;
    let n = run.len();
    debug_assert!(n >= 1 && n <= V::LANES && out.len() >= n && run.input.len() == n * lane_len);
    let single = if run.blocks == 1 { run.flags_end } else { 0 };
    // SAFETY: the features are enabled (our contract); each input is one lane of `run.input`.
    unsafe {
        let params = GroupParams {
            cv: splat_words(run.key),
            counter: counter_words::<V>(run.counter, run.step),
            first_flags: V::splat(u32::from(run.flags | run.flags_start | single)),
            last_flags: V::splat(u32::from(run.flags | run.flags_end)),
            last_len: V::splat(BLOCK_LEN as u32),
            copy_to: None,
        };
        let base = run.input.as_ptr();
        if run.blocks == 1 && n == V::LANES {
            // A full group of parents: constant block count and offsets, so no pointer is kept.
            let inputs = lane_inputs(base, BLOCK_LEN, V::LANES);
            compress_group::<V, R>(&inputs, 1, run.flags, params, &mut out[..V::LANES]);
        } else if V::LANES > 4 && run.blocks == CHUNK_BLOCKS && n == V::LANES {
            // A full group of chunks: every load addresses its lane from one register.
            let inputs = lane_inputs(base, CHUNK_BLOCKS * BLOCK_LEN, V::LANES);
            compress_group::<V, R>(
                &inputs,
                CHUNK_BLOCKS,
                run.flags,
                params,
                &mut out[..V::LANES],
            );
        } else {
            let inputs = lane_inputs(base, lane_len, n);
            compress_group::<V, R>(&inputs, run.blocks, run.flags, params, &mut out[..n]);
        }
    }
}

/// The input of each of `n` lanes from `base`, and `base` for the slots beyond them.
#[inline(always)]
fn lane_inputs(base: *const u8, lane_len: usize, n: usize) -> [*const u8; 16] {
    let mut inputs = [base; 16];
    for (i, p) in inputs.iter_mut().enumerate().take(n) {
        *p = base.wrapping_add(lane_len * i);
    }
    inputs
}

const CHUNK_BLOCKS: usize = CHUNK_LEN / BLOCK_LEN;

/// Every lane's parameters of a transposed group, one vector each, with where it copies its
/// input to.
struct GroupParams<V> {
    cv: [V; 8],
    counter: [V; 2],
    first_flags: V,
    last_flags: V,
    last_len: V,
    /// Where each lane's input (whole chunks) is also copied, if anywhere (see [`copy_block`]).
    copy_to: Option<[*mut u8; 16]>,
}

/// The transposed compression of `blocks` blocks of every lane, chaining values of the first
/// `out.len()` lanes to `out`.
#[inline(always)]
unsafe fn compress_group<V: LaneWords, R: Rotate<V>>(
    inputs: &[*const u8; 16],
    blocks: usize,
    flags: u8,
    params: GroupParams<V>,
    out: &mut [[u8; 32]],
) {
    // SAFETY: the features are enabled; every read is block `j < blocks` of a lane, every store
    // goes to `out[i]` or `spare`.
    unsafe {
        let GroupParams {
            mut cv,
            counter,
            first_flags,
            last_flags,
            last_len,
            copy_to,
        } = params;
        let middle_flags = V::splat(u32::from(flags));
        let full_len = V::splat(BLOCK_LEN as u32);
        let lane_len = blocks * BLOCK_LEN;
        // Bytes from the copies' starts to a 64-byte boundary, the same for every lane.
        let skew = copy_to.map_or(0, |dsts| (dsts[0] as usize).wrapping_neg() % BLOCK_LEN);
        debug_assert!(copy_to.is_none_or(|dsts| {
            dsts[..out.len()]
                .iter()
                .all(|d| (*d as usize).wrapping_neg() % BLOCK_LEN == skew)
        }));
        // Half the next block is loaded ahead where `FIRST_HALF_AHEAD` says so; a whole one spills.
        let mut next_first = [V::splat(0); 8];
        if V::FIRST_HALF_AHEAD && blocks > 0 {
            next_first = V::load_transposed::<8>(inputs, 0);
        }
        for j in 0..blocks {
            let is_last = j + 1 == blocks;
            let at = j * BLOCK_LEN;
            let m = if V::FIRST_HALF_AHEAD {
                let first = next_first;
                let m = load_block::<V, R>(inputs, at, lane_len, Some(first));
                if !is_last {
                    next_first = V::load_transposed::<8>(inputs, at + BLOCK_LEN);
                }
                m
            } else {
                load_block::<V, R>(inputs, at, lane_len, None)
            };
            // References, so an implementation reading from memory gets an address, not a copy.
            let block_flags = match j {
                0 => &first_flags,
                _ if is_last => &last_flags,
                _ => &middle_flags,
            };
            let block_len = if is_last { &last_len } else { &full_len };
            if let Some(dsts) = &copy_to {
                copy_block::<V>(inputs, dsts, skew, j, out.len());
            }
            compress_block::<V, R>(&mut cv, &m, &counter, block_len, block_flags);
        }
        if copy_to.is_some() {
            // Orders the non-temporal stores before whatever the caller does next.
            _mm_sfence();
        }

        // Escapes so that the frame is aligned; never read, so left uninitialised.
        let mut spare = StackAligned(core::mem::MaybeUninit::<[[u8; 32]; 16]>::uninit());
        core::hint::black_box(&mut spare);
        let spare = spare.0.as_mut_ptr().cast::<[u8; 32]>();
        let mut dst = [spare.cast::<u8>(); 16];
        for (i, dst) in dst.iter_mut().enumerate().take(V::LANES) {
            *dst = match out.get_mut(i) {
                Some(bytes) => bytes.as_mut_ptr(),
                None => spare.add(i).cast(),
            };
        }
        V::store_transposed(cv, &dst);
    }
}

/// The transposed block at offset `at` of every lane, for [`compress_group`], prefetching
/// `V::PREFETCH_AHEAD` bytes ahead, past a lane's end into the group that follows, whose first
/// blocks no prefetch would otherwise reach. With `first`, only words 8-15 are loaded
/// ([`LaneWords::FIRST_HALF_AHEAD`]).
///
/// # Safety
/// `V`'s feature must be enabled and present; lane `i` holds 64 bytes at `inputs[i] + at`.
#[inline(always)]
unsafe fn load_block<V: LaneWords, R: Rotate<V>>(
    inputs: &[*const u8; 16],
    at: usize,
    lane_len: usize,
    first: Option<[V; 8]>,
) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe {
        let ahead = at + V::PREFETCH_AHEAD;
        if V::PREFETCH_AHEAD > 0 && lane_len > V::PREFETCH_AHEAD && ahead >= lane_len {
            V::prefetch(inputs, ahead + (V::LANES - 1) * lane_len);
        }
        // A prefetch never faults, so running past a lane's end is harmless.
        V::prefetch(inputs, ahead);
        let Some(first) = first else {
            return V::load_transposed::<16>(inputs, at);
        };
        let second = V::load_transposed::<8>(inputs, at + 32);
        let mut m = [V::splat(0); 16];
        m[..8].copy_from_slice(&first);
        m[8..].copy_from_slice(&second);
        m
    }
}

/// Copies block `j` of the first `n` lanes to their destinations, for [`compress_group`],
/// streaming the lines wholly within the chunk and storing the `skew` edges, shared with the
/// neighbouring chunks, at the end.
#[inline(always)]
unsafe fn copy_block<V: LaneWords>(
    inputs: &[*const u8; 16],
    dsts: &[*mut u8; 16],
    skew: usize,
    j: usize,
    n: usize,
) {
    debug_assert!(skew < BLOCK_LEN);
    let lanes = inputs.iter().zip(dsts).take(n);
    // SAFETY: every offset is within the chunk (`line` and `at` are at most
    // `CHUNK_LEN - BLOCK_LEN`); the streamed addresses are 64-byte aligned.
    unsafe {
        let at = j * BLOCK_LEN;
        if skew == 0 || j > 0 {
            let line = if skew == 0 { at } else { at + skew - BLOCK_LEN };
            for (&src, &dst) in lanes.clone() {
                V::stream_line(src.add(line), dst.add(line));
            }
        }
        if skew != 0 && j == CHUNK_BLOCKS - 1 {
            // Only outside the streamed lines: a store into one would fetch it back from memory.
            let tail = CHUNK_LEN - BLOCK_LEN + skew;
            for (&src, &dst) in lanes {
                core::ptr::copy_nonoverlapping(src, dst, skew);
                core::ptr::copy_nonoverlapping(src.add(tail), dst.add(tail), CHUNK_LEN - tail);
            }
        }
    }
}

/// Each message word of `block` broadcast to every lane, for [`xof_group`].
///
/// # Safety
/// `V`'s feature must be enabled and present.
#[inline(always)]
pub(super) unsafe fn broadcast_block<V: LaneWords>(block: &[u8; BLOCK_LEN]) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe { splat_words(&block_words(block)) }
}

/// Each of `words` broadcast to every lane; a loop, as a closure would lose the target features.
#[inline(always)]
unsafe fn splat_words<V: LaneWords, const N: usize>(words: &[u32; N]) -> [V; N] {
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe {
        let mut v = [V::splat(0); N];
        for (v, &w) in v.iter_mut().zip(words) {
            *v = V::splat(w);
        }
        v
    }
}

/// Extended output for `V::LANES` consecutive blocks (counters wrapping) into `out`, from `m`
/// broadcast ([`broadcast_block`]).
#[inline(always)]
pub(super) unsafe fn xof_group<V: LaneWords, R: Rotate<V>>(
    cv: &[u32; 8],
    m: &[V; 16],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), V::LANES * BLOCK_LEN);
    // SAFETY: the features are enabled and `out` holds `V::LANES` blocks; lane `i` writes `64 * i`.
    unsafe {
        let cv_v = splat_words::<V, 8>(cv);
        let mut v = initial_state(
            &cv_v,
            counter_words::<V>(counter, 1),
            V::splat(u32::from(block_len)),
            V::splat(u32::from(flags)),
        );
        rounds::<V, R>(&mut v, m);
        let mut words = v;
        for i in 0..8 {
            words[i] = v[i].xor(v[i + 8]);
            // The key words are read again rather than kept live, which made LLVM spill.
            words[i + 8] = v[i + 8].xor(V::splat(crate::arch::opaque::reload(&cv[i])));
        }
        let base = out.as_mut_ptr();
        let mut dst = [base; 16];
        for (i, dst) in dst.iter_mut().enumerate() {
            *dst = base.wrapping_add(BLOCK_LEN * (i % V::LANES));
        }
        V::store_transposed(words, &dst);
    }
}

/// A vector whose 128-bit lanes each hold one row of an independent BLAKE3 lane; the same
/// safety rules as [`LaneWords`], for the first `ROW_LANES` pointers.
pub(super) trait RowWords: LaneWords {
    /// BLAKE3 lanes per vector: one per 128-bit lane.
    const ROW_LANES: usize = Self::LANES / 4;
    /// 128-bit lane `q` gets the 16 bytes at `src[q]`, for `q < ROW_LANES`.
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self;
    /// The 16 bytes at `src` in every 128-bit lane.
    unsafe fn broadcast_row(src: *const u8) -> Self;
    /// 128-bit lane `q` is written to the 16 bytes at `dst[q]`, for `q < ROW_LANES`.
    unsafe fn store_rows(self, dst: &[*mut u8; 4]);
    /// `pshufd` in each 128-bit lane.
    unsafe fn shuffle_words<const IMM: i32>(self) -> Self;
    /// `shufps` in each 128-bit lane: words `IMM` picks from `self` then from `other`.
    unsafe fn shuffle_pairs<const IMM: i32>(self, other: Self) -> Self;
    /// `pblendw` in each 128-bit lane: 16-bit word `k` from `other` where bit `k` of `IMM` is set.
    unsafe fn blend_halfwords<const IMM: i32>(self, other: Self) -> Self;
    /// `punpckldq` in each 128-bit lane: words 0, 1 of `self` interleaved with those of `other`.
    unsafe fn unpack_lo(self, other: Self) -> Self;
    /// `self`, through `arch::x86`'s `opaque`: LLVM keeps the order as written around it.
    unsafe fn opaque(self) -> Self;
    /// `self`, through [`RowWords::opaque`] where the type needs it (see `__m512i`'s).
    #[inline(always)]
    unsafe fn barrier(self) -> Self {
        self
    }
}

/// Half a G on all four columns (or diagonals): `mx` and 16/12 first, `my` and 8/7 second.
#[inline(always)]
unsafe fn g_rows<V: RowWords, R: Rotate<V>>(rows: &mut [V; 4], mx: V, my: V) {
    // SAFETY: forwarded from the caller (see `RowWords`, `Rotate`).
    unsafe {
        // The message word goes in first so one addition waits for `b`; `opaque` keeps it so.
        let [a, b, c, d] = rows;
        *a = a.add(mx).opaque().add(*b);
        *d = R::rot16(d.xor(*a));
        *c = c.add(*d);
        *b = R::rot12(b.xor(*c));
        *a = a.add(my).opaque().add(*b);
        *d = R::rot8(d.xor(*a));
        *c = c.add(*d);
        *b = R::rot7(b.xor(*c));
    }
}

/// One round's message in consumption order `[A, B, C', D']`: even then odd words of the first
/// half, and of the second rotated by one word (`C'`, `D'`) for the diagonal step.
pub(super) type RowMessage<V> = [V; 4];

/// The first round's `RowMessage` from the block's four 16-byte rows in natural order.
#[inline(always)]
unsafe fn row_message<V: RowWords>(natural: [V; 4]) -> RowMessage<V> {
    // SAFETY: forwarded from the caller (see `RowWords`).
    unsafe {
        let c = natural[2].shuffle_pairs::<{ pick(0, 2, 0, 2) }>(natural[3]);
        let d = natural[2].shuffle_pairs::<{ pick(1, 3, 1, 3) }>(natural[3]);
        [
            natural[0].shuffle_pairs::<{ pick(0, 2, 0, 2) }>(natural[1]),
            natural[0].shuffle_pairs::<{ pick(1, 3, 1, 3) }>(natural[1]),
            c.barrier().shuffle_words::<{ pick(3, 0, 1, 2) }>(),
            d.barrier().shuffle_words::<{ pick(3, 0, 1, 2) }>(),
        ]
    }
}

/// The next round's `RowMessage`: `MSG_PERMUTATION` on the consumption order, each row one
/// `shuffle_pairs` of a blend or an unpack, blends running on more ports than shuffles.
#[inline(always)]
unsafe fn permute_row_message<V: RowWords>(m: &RowMessage<V>) -> RowMessage<V> {
    let [a, b, c, d] = *m;
    // SAFETY: forwarded from the caller (see `RowWords`).
    unsafe {
        let next_a = a
            .unpack_lo(b)
            .barrier()
            .shuffle_pairs::<NEXT_A>(a.blend_halfwords::<0xC0>(b).barrier());
        let next_b = a
            .blend_halfwords::<0x30>(c)
            .barrier()
            .shuffle_pairs::<NEXT_B>(a.blend_halfwords::<0xC0>(d).barrier());
        let next_c = d
            .unpack_lo(b)
            .barrier()
            .shuffle_pairs::<NEXT_C>(c.blend_halfwords::<0x0C>(d).barrier());
        let next_d = c
            .blend_halfwords::<0x30>(d)
            .barrier()
            .shuffle_pairs::<NEXT_D>(b.blend_halfwords::<0x03>(c).barrier());
        [next_a, next_b, next_c, next_d]
    }
}

/// The seven rounds on `N` interleaved row states, consumed, so their chains overlap. The
/// diagonal step rotates rows `a`, `c` and `d`, not `b`, to keep shuffles off the critical path;
/// two states go through [`Rotate::rounds_two_row_states`].
#[inline(always)]
unsafe fn rounds_rows<V: RowWords, R: Rotate<V>, const N: usize>(
    rows: &mut [[V; 4]; N],
    m: [RowMessage<V>; N],
) {
    // SAFETY: forwarded from the caller (see `RowWords`, `Rotate`); with `N == 2` the casts are
    // between identical types.
    unsafe {
        if N == 2 {
            let rows = &mut *rows.as_mut_ptr().cast::<[[V; 4]; 2]>();
            let m = m.as_ptr().cast::<[RowMessage<V>; 2]>().read();
            R::rounds_two_row_states(rows, m);
        } else {
            interleaved_rounds_rows::<V, R, N>(rows, m);
        }
    }
}

#[inline(always)]
unsafe fn interleaved_rounds_rows<V: RowWords, R: Rotate<V>, const N: usize>(
    rows: &mut [[V; 4]; N],
    mut m: [RowMessage<V>; N],
) {
    // SAFETY: forwarded from the caller (see `RowWords`, `Rotate`).
    unsafe {
        for r in 0..7 {
            for (rows, m) in rows.iter_mut().zip(&m) {
                g_rows::<V, R>(rows, m[0], m[1]);
            }
            // Diagonalise: word j of rows a, c, d takes word j - 1, j + 1, j + 2.
            for rows in rows.iter_mut() {
                rows[0] = rows[0].shuffle_words::<WORDS_RIGHT>();
                rows[2] = rows[2].shuffle_words::<WORDS_LEFT>();
                rows[3] = rows[3].shuffle_words::<WORDS_SWAP>();
            }
            for (rows, m) in rows.iter_mut().zip(&m) {
                g_rows::<V, R>(rows, m[2], m[3]);
            }
            for rows in rows.iter_mut() {
                rows[0] = rows[0].shuffle_words::<WORDS_LEFT>();
                rows[2] = rows[2].shuffle_words::<WORDS_RIGHT>();
                rows[3] = rows[3].shuffle_words::<WORDS_SWAP>();
            }
            if r < 6 {
                for m in m.iter_mut() {
                    *m = permute_row_message(m);
                }
            }
        }
    }
}

/// The state rows after the seven rounds from chaining value rows `cv`, the block and row d.
#[inline(always)]
unsafe fn rounds_one_state<V: RowWords, R: Rotate<V>>(
    cv: [V; 2],
    block: [V; 4],
    last_row: V,
) -> [V; 4] {
    // SAFETY: forwarded from the caller (see `RowWords`); `IV` has 16 bytes and more.
    unsafe {
        let mut rows = [[cv[0], cv[1], V::broadcast_row(IV.as_ptr().cast()), last_row]];
        rounds_rows::<V, R, 1>(&mut rows, [row_message(block)]);
        rows[0]
    }
}

/// Row-vectorised `compress_in_place`, the chaining value kept in registers between blocks to
/// keep a store-to-load forward off the chain.
///
/// # Safety
/// `R`'s features (which include SSE4.1) must be enabled and present.
#[inline(always)]
pub(super) unsafe fn compress_rows_in_place<R: Rotate<__m128i>>(
    cv: &mut [u32; 8],
    blocks: &[[u8; BLOCK_LEN]],
    block_len: u8,
    counter: u64,
    flags: u8,
    flags_start: u8,
) {
    // SAFETY: forwarded from the caller; each load and store is 16 bytes inside `cv` or a block.
    unsafe {
        let mut cv_rows = [
            load128(cv.as_ptr().cast()),
            load128(cv[4..].as_ptr().cast()),
        ];
        let counter_row = _mm_cvtsi64_si128(counter as i64);
        let mut block_flags = flags | flags_start;
        for block in blocks {
            let mut natural = [_mm_setzero_si128(); 4];
            for (i, row) in natural.iter_mut().enumerate() {
                *row = load128(block[16 * i..].as_ptr());
            }
            // Two moves and an unpack, a shorter chain than `_mm_setr_epi32`'s inserts.
            let len_flags = u64::from(block_len) | (u64::from(block_flags) << 32);
            let last_row = _mm_unpacklo_epi64(counter_row, _mm_cvtsi64_si128(len_flags as i64));
            let r = rounds_one_state::<__m128i, R>(cv_rows, natural, last_row);
            cv_rows = [r[0].xor(r[2]), r[1].xor(r[3])];
            block_flags = flags;
        }
        store128(cv.as_mut_ptr().cast(), cv_rows[0]);
        store128(cv[4..].as_mut_ptr().cast(), cv_rows[1]);
    }
}

/// Extended output for `V::ROW_LANES` consecutive blocks in rows (counters wrapping).
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `out.len() == V::ROW_LANES *
/// BLOCK_LEN`.
#[inline(always)]
pub(super) unsafe fn xof_rows<V: RowWords, R: Rotate<V>>(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), V::ROW_LANES * BLOCK_LEN);
    let mut last_row = [0u32; 16];
    for q in 0..V::ROW_LANES {
        let c = counter.wrapping_add(q as u64);
        last_row[4 * q..4 * q + 4].copy_from_slice(&[
            c as u32,
            (c >> 32) as u32,
            block_len.into(),
            flags.into(),
        ]);
    }
    // SAFETY: the features are enabled; loads are inside `cv` and `block`, block `q` of `out` at
    // `64 * q`.
    unsafe {
        let cv = [
            V::broadcast_row(cv.as_ptr().cast()),
            V::broadcast_row(cv[4..].as_ptr().cast()),
        ];
        let mut message = [V::splat(0); 4];
        for (i, row) in message.iter_mut().enumerate() {
            *row = V::broadcast_row(block[16 * i..].as_ptr());
        }
        let r = rounds_one_state::<V, R>(cv, message, V::from_lanes(&last_row));
        let rows = [
            r[0].xor(r[2]),
            r[1].xor(r[3]),
            r[2].xor(cv[0]),
            r[3].xor(cv[1]),
        ];
        let base = out.as_mut_ptr();
        for (i, row) in rows.into_iter().enumerate() {
            let mut dst = [base; 4];
            for (q, dst) in dst.iter_mut().enumerate() {
                *dst = base.wrapping_add(BLOCK_LEN * (q % V::ROW_LANES) + 16 * i);
            }
            row.store_rows(&dst);
        }
    }
}

/// Row 3 of a state whose lanes share every parameter but the input, from broadcasts blended
/// in registers, a shorter chain than inserts.
#[inline(always)]
unsafe fn shared_row3<V: RowWords>(counter: u64, block_len: u8, flags: u8) -> V {
    // SAFETY: forwarded from the caller (see `RowWords`).
    unsafe {
        V::splat(counter as u32)
            .blend_halfwords::<0x0C>(V::splat((counter >> 32) as u32))
            .blend_halfwords::<0x30>(V::splat(u32::from(block_len)))
            .blend_halfwords::<0xC0>(V::splat(u32::from(flags)))
    }
}

/// Hashes up to `N * V::ROW_LANES` lanes in `N` interleaved row states, faster than the
/// transposed kernel for a few lanes; unused slots repeat the last lane.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `1 <= lanes.len() <= N *
/// V::ROW_LANES`, `out.len() >= lanes.len()` and every lane's input holds `blocks` blocks.
#[inline(always)]
unsafe fn hash_rows<V: RowWords, R: Rotate<V>, const N: usize>(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    debug_assert!(!lanes.is_empty() && lanes.len() <= N * V::ROW_LANES);
    debug_assert!(out.len() >= lanes.len());
    // The lane in 128-bit lane `q` of state `s`.
    let slot =
        |s: usize, q: usize| (s * V::ROW_LANES + q.min(V::ROW_LANES - 1)).min(lanes.len() - 1);
    // Row 3 of each state for the first, a middle and the last block.
    let row3 = |s: usize, first: bool, last: bool| -> [u32; 16] {
        let mut words = [0u32; 16];
        for q in 0..V::ROW_LANES {
            let lane = &lanes[slot(s, q)];
            let mut block_flags = flags;
            if first {
                block_flags |= lane.flags_start;
            }
            if last {
                block_flags |= lane.flags_end;
            }
            words[4 * q..4 * q + 4].copy_from_slice(&[
                lane.counter as u32,
                (lane.counter >> 32) as u32,
                if last {
                    u32::from(lane.last_block_len)
                } else {
                    BLOCK_LEN as u32
                },
                u32::from(block_flags),
            ]);
        }
        words
    };
    let single = blocks == 1;
    // A one-block group whose lanes share every parameter but the input has one row 3.
    let lane0 = &lanes[0];
    let shared = single
        && lanes.iter().all(|l| {
            (l.counter, l.flags_start, l.flags_end, l.last_block_len)
                == (
                    lane0.counter,
                    lane0.flags_start,
                    lane0.flags_end,
                    lane0.last_block_len,
                )
        });
    // SAFETY: the features are enabled; loads are inside a lane's `cv`, inputs `blocks` long.
    unsafe {
        let zero = V::splat(0);
        let mut params = RowParams {
            inputs: [[lanes[0].input.as_ptr(); 4]; N],
            cv: [[zero; 2]; N],
            row3: [[zero; N]; 3],
        };
        for s in 0..N {
            params.row3[0][s] = if shared {
                shared_row3::<V>(
                    lane0.counter,
                    lane0.last_block_len,
                    flags | lane0.flags_start | lane0.flags_end,
                )
            } else {
                V::from_lanes(&row3(s, true, single))
            };
            params.row3[1][s] = V::from_lanes(&row3(s, false, false));
            params.row3[2][s] = V::from_lanes(&row3(s, false, true));
            let mut cvs = [lanes[0].cv.as_ptr().cast::<u8>(); 4];
            for q in 0..V::ROW_LANES {
                cvs[q] = lanes[slot(s, q)].cv.as_ptr().cast();
                params.inputs[s][q] = lanes[slot(s, q)].input.as_ptr();
            }
            params.cv[s] = [V::load_rows(&cvs), V::load_rows(&cvs.map(|p| p.add(16)))];
        }
        compress_rows::<V, R, N>(params, blocks, &mut out[..lanes.len()]);
    }
}

/// The row form of [`hash_run_group`], without a [`Lane`] for each; unused slots repeat the last.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; `run` has 1 to `N * V::ROW_LANES`
/// lanes and `out` holds at least as many values.
#[inline(always)]
unsafe fn hash_run_rows<V: RowWords, R: Rotate<V>, const N: usize>(
    run: Run<'_>,
    out: &mut [[u8; 32]],
) {
    let lane_len = run.blocks * BLOCK_LEN;
    let n = run.len();
    debug_assert!(n >= 1 && n <= N * V::ROW_LANES && out.len() >= n);
    debug_assert_eq!(run.input.len(), n * lane_len);
    let single = if run.blocks == 1 { run.flags_end } else { 0 };
    let block_flags = [
        run.flags | run.flags_start | single,
        run.flags,
        run.flags | run.flags_end,
    ];
    // The lane in 128-bit lane `q` of state `s`.
    let lane = |s: usize, q: usize| (s * V::ROW_LANES + q).min(n - 1);
    let mut inputs = [[run.input.as_ptr(); 4]; N];
    for (s, inputs) in inputs.iter_mut().enumerate() {
        for (q, input) in inputs.iter_mut().enumerate().take(V::ROW_LANES) {
            *input = run.input.as_ptr().wrapping_add(lane_len * lane(s, q));
        }
    }
    // SAFETY: the features are enabled; loads are inside `run.key`, inputs lanes of `run.input`.
    unsafe {
        let cv = [
            V::broadcast_row(run.key.as_ptr().cast()),
            V::broadcast_row(run.key[4..].as_ptr().cast()),
        ];
        let zero = V::splat(0);
        // Row 3 of each state for the first, a middle and the last block.
        let mut row3 = [[zero; N]; 3];
        for (row3, &block_flags) in row3.iter_mut().zip(&block_flags) {
            if run.step == 0 {
                // Parents: the counter is shared too, so the row is the same everywhere.
                *row3 = [shared_row3::<V>(run.counter, BLOCK_LEN as u8, block_flags); N];
                continue;
            }
            for (s, row3) in row3.iter_mut().enumerate() {
                let mut words = [0u32; 16];
                for q in 0..V::ROW_LANES {
                    let counter = run.counter.wrapping_add(run.step * lane(s, q) as u64);
                    words[4 * q..4 * q + 4].copy_from_slice(&[
                        counter as u32,
                        (counter >> 32) as u32,
                        BLOCK_LEN as u32,
                        u32::from(block_flags),
                    ]);
                }
                *row3 = V::from_lanes(&words);
            }
        }
        let params = RowParams {
            inputs,
            cv: [cv; N],
            row3,
        };
        compress_rows::<V, R, N>(params, run.blocks, &mut out[..n]);
    }
}

/// Where `N` row states start: inputs, chaining value rows and row 3 (`row3[k][s]`).
struct RowParams<V, const N: usize> {
    inputs: [[*const u8; 4]; N],
    cv: [[V; 2]; N],
    row3: [[V; N]; 3],
}

/// The row-form compression of `blocks` blocks of `N` states; lane `q` of state `s` goes to
/// `out[s * V::ROW_LANES + q]` if there is one.
///
/// # Safety
/// `V`'s and `R`'s features must be enabled and present; every input holds `blocks` blocks.
#[inline(always)]
unsafe fn compress_rows<V: RowWords, R: Rotate<V>, const N: usize>(
    params: RowParams<V, N>,
    blocks: usize,
    out: &mut [[u8; 32]],
) {
    let RowParams {
        inputs,
        mut cv,
        row3: [first, middle, last],
    } = params;
    // SAFETY: the features are enabled; loads are inside blocks `j < blocks` and `IV`, stores
    // inside `out[i]` or `spare`.
    unsafe {
        let iv = V::broadcast_row(IV.as_ptr().cast());
        let zero = V::splat(0);
        for j in 0..blocks {
            let row3 = match j {
                0 => &first,
                _ if j + 1 == blocks => &last,
                _ => &middle,
            };
            let mut rows = [[zero; 4]; N];
            let mut m = [[zero; 4]; N];
            for s in 0..N {
                rows[s] = [cv[s][0], cv[s][1], iv, row3[s]];
                let mut natural = [zero; 4];
                for (i, row) in natural.iter_mut().enumerate() {
                    *row = V::load_rows(&inputs[s].map(|p| p.add(j * BLOCK_LEN + 16 * i)));
                }
                m[s] = row_message(natural);
            }
            rounds_rows::<V, R, N>(&mut rows, m);
            for (cv, rows) in cv.iter_mut().zip(&rows) {
                *cv = [rows[0].xor(rows[2]), rows[1].xor(rows[3])];
            }
        }
        let mut spare = [0u8; 32];
        for (s, cv) in cv.iter().enumerate() {
            let ptrs = [0, 1, 2, 3].map(|q| {
                let i = s * V::ROW_LANES + q;
                match out.get_mut(i) {
                    Some(bytes) if q < V::ROW_LANES => bytes.as_mut_ptr(),
                    _ => spare.as_mut_ptr(),
                }
            });
            cv[0].store_rows(&ptrs);
            cv[1].store_rows(&ptrs.map(|p| p.add(16)));
        }
    }
}

/// SSE4.1's `xof_many`, also AVX2's tail: groups of four blocks, then single ones.
///
/// # Safety
/// Only from code compiled with SSE4.1 on a CPU that has it; `out.len()` is a multiple of
/// `BLOCK_LEN`.
#[inline(always)]
pub(super) unsafe fn xof_many_128(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    const GROUP: usize = 4 * BLOCK_LEN;
    // SAFETY: forwarded from the caller; each slice is 4 blocks or one.
    unsafe {
        let mut counter = counter;
        let mut groups = out.chunks_exact_mut(GROUP);
        if groups.len() > 0 {
            let m = broadcast_block::<__m128i>(block);
            for group in &mut groups {
                xof_group::<__m128i, Shuffles>(cv, &m, block_len, counter, flags, group);
                counter = counter.wrapping_add(4);
            }
        }
        for out_block in groups.into_remainder().chunks_exact_mut(BLOCK_LEN) {
            xof_rows::<__m128i, Shuffles>(cv, block, block_len, counter, flags, out_block);
            counter = counter.wrapping_add(1);
        }
    }
}
