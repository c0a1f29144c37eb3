//! BLAKE3 on WebAssembly SIMD128: four lanes transposed ([`hash4`], [`xof4`]), a state word per
//! vector; and one state in rows ([`compress_rows`]) for single blocks and chains.

use super::kernels::{block_words, Group, Kernels, Lane, BLOCK_LEN, EMPTY_LANE, IV, MSG_SCHEDULE};
use crate::arch::wasm32::simd128::{
    load, load_blocks4, load_rows_message, load_transposed4, or, round4, round_rows, shuffle,
    splat, store, store_transposed4, transpose, words, xor, V,
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

/// The next round's message vectors in rows (see `round_rows`) from this round's: BLAKE3's
/// message permutation, the same every round, as seven shuffles.
#[inline(always)]
fn permute_rows_message([x0, y0, x1, y1]: [V; 4]) -> [V; 4] {
    // Word i of the next round is word MSG_PERMUTATION[i] of this one; this round's words are
    // x0 = [0, 2, 4, 6], y0 = [1, 3, 5, 7], x1 = [8, 10, 12, 14], y1 = [9, 11, 13, 15].
    [
        shuffle::<1, 5, 7, 2>(x0, y0),
        shuffle::<0, 1, 2, 6>(shuffle::<3, 5, 0, 0>(x0, x1), y1),
        shuffle::<0, 1, 4, 7>(shuffle::<0, 6, 0, 0>(y0, x1), y1),
        shuffle::<0, 1, 7, 4>(shuffle::<1, 6, 0, 0>(y1, y0), x1),
    ]
}

/// The rows [a, b, c, d] after the seven rounds of one state, from chaining value `cv` on
/// `block`.
#[inline(always)]
fn compress_rows(
    cv: [V; 2],
    block: &[u8; BLOCK_LEN],
    counter: u64,
    block_len: u8,
    flags: u8,
) -> [V; 4] {
    // SAFETY: `block` is 64 readable bytes.
    let mut m = unsafe { load_rows_message(block.as_ptr()) };
    let d = words([
        counter as u32,
        (counter >> 32) as u32,
        u32::from(block_len),
        u32::from(flags),
    ]);
    let mut rows = [cv[0], cv[1], words(IV[..4].try_into().unwrap()), d];
    for r in 0..7 {
        round_rows(&mut rows, &m);
        if r < 6 {
            m = permute_rows_message(m);
        }
    }
    rows
}

/// A chaining value as rows a and b.
#[inline(always)]
fn load_cv(cv: &[u32; 8]) -> [V; 2] {
    // SAFETY: the chaining value is 32 readable bytes.
    [0, 4].map(|w| unsafe { load(cv[w..].as_ptr().cast()) })
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
        let mut h = load_cv(cv);
        let mut block_flags = flags | flags_start;
        for block in blocks {
            let [a, b, c, d] = compress_rows(h, block, counter, block_len, block_flags);
            h = [xor(a, c), xor(b, d)];
            block_flags = flags;
        }
        for (w, row) in [0, 4].into_iter().zip(h) {
            // SAFETY: the chaining value is 32 writable bytes.
            unsafe { store(cv[w..].as_mut_ptr().cast(), row) };
        }
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
        let mut groups = out.chunks_exact_mut(4 * BLOCK_LEN);
        for group in groups.by_ref() {
            group.copy_from_slice(&xof4(cv, block, block_len, counter, flags));
            counter = counter.wrapping_add(4);
        }
        let h = load_cv(cv);
        for out in groups.into_remainder().chunks_exact_mut(BLOCK_LEN) {
            let [a, b, c, d] = compress_rows(h, block, counter, block_len, flags);
            for (q, row) in [xor(a, c), xor(b, d), xor(c, h[0]), xor(d, h[1])]
                .into_iter()
                .enumerate()
            {
                // SAFETY: `out` is one block, 64 writable bytes.
                unsafe { store(out[16 * q..].as_mut_ptr(), row) };
            }
            counter = counter.wrapping_add(1);
        }
    }
}
