//! BLAKE3 on WebAssembly SIMD128: four lanes transposed ([`hash4`], [`xof4`]), a state word per
//! vector. A single chain of blocks runs the portable compression: one lane has no four-way
//! parallelism to give the vectors.

use super::kernels::{block_words, Group, Kernels, Lane, BLOCK_LEN, EMPTY_LANE, IV, MSG_SCHEDULE};
use super::portable;
use crate::arch::wasm32::simd128::{
    load_blocks4, load_transposed4, or, round4, splat, store, store_transposed4, transpose, words,
    xor, V,
};

/// The seven rounds on four lanes' states, written out so that every message index is a
/// constant.
#[inline(always)]
fn rounds4(v: &mut [V; 16], m: &[V; 16]) {
    round4(v, m, &MSG_SCHEDULE[0]);
    round4(v, m, &MSG_SCHEDULE[1]);
    round4(v, m, &MSG_SCHEDULE[2]);
    round4(v, m, &MSG_SCHEDULE[3]);
    round4(v, m, &MSG_SCHEDULE[4]);
    round4(v, m, &MSG_SCHEDULE[5]);
    round4(v, m, &MSG_SCHEDULE[6]);
}

/// The initial states of four lanes.
#[inline(always)]
fn state4(h: &[V; 8], counter: [V; 2], block_len: V, flags: V) -> [V; 16] {
    [
        h[0],
        h[1],
        h[2],
        h[3],
        h[4],
        h[5],
        h[6],
        h[7],
        splat(IV[0]),
        splat(IV[1]),
        splat(IV[2]),
        splat(IV[3]),
        counter[0],
        counter[1],
        block_len,
        flags,
    ]
}

/// The low and high counter words of four lanes.
#[inline(always)]
fn counter_words(counters: [u64; 4]) -> [V; 2] {
    [
        words(counters.map(|c| c as u32)),
        words(counters.map(|c| (c >> 32) as u32)),
    ]
}

/// What differs between the four lanes of a group.
struct Lanes4 {
    /// Each lane's input, `blocks * BLOCK_LEN` readable bytes.
    inputs: [*const u8; 4],
    /// Each lane's chaining value at the start.
    cvs: [[u32; 8]; 4],
    counters: [u64; 4],
    flags_start: [u8; 4],
    flags_end: [u8; 4],
    last_block_len: [u8; 4],
}

impl Lanes4 {
    /// The 1 to 4 `lanes`; missing lanes repeat the last, and their results are dropped.
    #[inline(always)]
    fn of_lanes(lanes: &[Lane<'_>]) -> Lanes4 {
        debug_assert!((1..=4).contains(&lanes.len()));
        let lane = |l: usize| &lanes[l.min(lanes.len() - 1)];
        Lanes4 {
            inputs: [0, 1, 2, 3].map(|l| lane(l).input.as_ptr()),
            cvs: [0, 1, 2, 3].map(|l| lane(l).cv),
            counters: [0, 1, 2, 3].map(|l| lane(l).counter),
            flags_start: [0, 1, 2, 3].map(|l| lane(l).flags_start),
            flags_end: [0, 1, 2, 3].map(|l| lane(l).flags_end),
            last_block_len: [0, 1, 2, 3].map(|l| lane(l).last_block_len),
        }
    }
}

/// The chaining values of the four lanes of `group` after `blocks` blocks each, `flags` on
/// every block.
///
/// # Safety
/// Each lane's input is readable for `blocks * BLOCK_LEN` bytes.
#[inline(always)]
unsafe fn hash4(group: &Lanes4, blocks: usize, flags: u8) -> [[u8; 32]; 4] {
    let counter = counter_words(group.counters);
    // SAFETY: each chaining value is eight readable words.
    let [lo, hi] = [0, 4].map(|w| unsafe {
        load_transposed4(group.cvs.each_ref().map(|cv| cv[w..].as_ptr().cast()))
    });
    let mut h = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
    // Indexed by first (1) and last (2), so that each block picks them rather than computing.
    let flags = splat(u32::from(flags));
    let flags_start = or(flags, words(group.flags_start.map(u32::from)));
    let flags_end = words(group.flags_end.map(u32::from));
    let len = splat(BLOCK_LEN as u32);
    let last_len = words(group.last_block_len.map(u32::from));
    let ends = [
        [len, flags],
        [len, flags_start],
        [last_len, or(flags, flags_end)],
        [last_len, or(flags_start, flags_end)],
    ];
    for j in 0..blocks {
        // SAFETY: block `j` of every lane is within its input.
        let m = unsafe { load_blocks4(&group.inputs, j * BLOCK_LEN) };
        let [block_len, block_flags] =
            ends[usize::from(j == 0) | usize::from(j + 1 == blocks) << 1];
        let mut v = state4(&h, counter, block_len, block_flags);
        rounds4(&mut v, &m);
        for i in 0..8 {
            h[i] = xor(v[i], v[i + 8]);
        }
    }
    let mut out = [[0u8; 32]; 4];
    let rows = out.each_mut().map(|o| o.as_mut_ptr());
    // SAFETY: each output is 32 writable bytes, so 16 at 0 and at 16.
    unsafe {
        store_transposed4([h[0], h[1], h[2], h[3]], rows);
        store_transposed4([h[4], h[5], h[6], h[7]], rows.map(|p| p.add(16)));
    }
    out
}

/// The root outputs of `block` under `cv` at counters `counter` to `counter + 3`.
#[inline(always)]
fn xof4(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; 4 * BLOCK_LEN] {
    let m = block_words(block).map(splat);
    let h = cv.map(splat);
    let counters = [0, 1, 2, 3].map(|i| counter.wrapping_add(i));
    let mut v = state4(
        &h,
        counter_words(counters),
        splat(u32::from(block_len)),
        splat(u32::from(flags)),
    );
    rounds4(&mut v, &m);
    let mut words = [splat(0); 16];
    for i in 0..8 {
        words[i] = xor(v[i], v[i + 8]);
        words[i + 8] = xor(v[i + 8], h[i]);
    }
    let mut out = [0u8; 4 * BLOCK_LEN];
    for q in 0..4 {
        let t = transpose([
            words[4 * q],
            words[4 * q + 1],
            words[4 * q + 2],
            words[4 * q + 3],
        ]);
        for (l, row) in t.into_iter().enumerate() {
            // SAFETY: lane `l`'s block is `out[l * BLOCK_LEN..]`, and 16 * q + 16 <= BLOCK_LEN.
            unsafe { store(out[l * BLOCK_LEN + 16 * q..].as_mut_ptr(), row) };
        }
    }
    out
}

/// The SIMD128 backend's [`Kernels`].
pub(crate) struct Simd128;

impl Kernels for Simd128 {
    const DEGREE: usize = 4;

    #[target_feature(enable = "simd128")]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        portable::compress_in_place(cv, blocks, block_len, counter, flags, flags_start)
    }

    #[target_feature(enable = "simd128")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        let mut scratch = [EMPTY_LANE; 16];
        let (lanes, blocks, flags) = group.to_lanes(&mut scratch);
        for (lanes, out) in lanes.chunks(4).zip(out.chunks_mut(4)) {
            // SAFETY: the caller's lanes are whole, `blocks` blocks each.
            let cvs = unsafe { hash4(&Lanes4::of_lanes(lanes), blocks, flags) };
            out[..lanes.len()].copy_from_slice(&cvs[..lanes.len()]);
        }
    }

    #[target_feature(enable = "simd128")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        let mut counter = counter;
        for group in out.chunks_mut(4 * BLOCK_LEN) {
            let n = group.len();
            group.copy_from_slice(&xof4(cv, block, block_len, counter, flags)[..n]);
            counter = counter.wrapping_add(4);
        }
    }
}
