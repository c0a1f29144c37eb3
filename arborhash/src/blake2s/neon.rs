//! BLAKE2s kernels for AArch64 NEON, written from RFC 7693.
//!
//! Single stream (`compress_blocks`, `compress_final`): the state's four rows in four vectors,
//! the rounds of `crate::neon::rounds_rows` (BLAKE2s's G is BLAKE3's), each round's message
//! vectors gathered from the block's registers with one table lookup each.
//!
//! Multi-lane (`compress_lanes`): four lanes at once, one per 32-bit element of each vector
//! ("transposed"); groups of one or two lanes run in rows instead, which costs fewer
//! instructions than a four-lane pass.

use core::arch::aarch64::vld1q_u32;

use super::{BLOCKBYTES, IV};
use crate::blake2::neon::{
    self as row_kernel, flag_word, next_block, BlockParams, RowKernel, SCHEDULE,
};
use crate::blake2::Lane;
use crate::neon::{
    load_blocks4, round_lanes, rounds_rows, row_message, splat, transpose, words, xor, V,
};

/// BLAKE2s's ten rounds.
const ROUNDS: [[usize; 16]; 10] = {
    let mut rounds = [[0; 16]; 10];
    let mut r = 0;
    while r < 10 {
        rounds[r] = SCHEDULE[r];
        r += 1;
    }
    rounds
};

/// The `tbl` indices of each round's message vectors in rows.
const ROW_MESSAGE: [[[u8; 16]; 4]; 10] = row_message(&ROUNDS);

// SAFETY (every `#[inline(always)]` helper): only inlined into this file's
// `#[target_feature(enable = "neon")]` entry points; pointers as each says.

/// Compresses the 64-byte block at `block` into the chaining value rows `h`.
#[inline(always)]
unsafe fn compress_rows(h: &mut [V; 2], block: *const u8, p: BlockParams) {
    unsafe {
        let c = vld1q_u32(IV.as_ptr());
        let d = xor(
            vld1q_u32(IV.as_ptr().add(4)),
            words([
                p.t as u32,
                (p.t >> 32) as u32,
                flag_word(p.f0),
                flag_word(p.f1),
            ]),
        );
        let [a, b, c, d] = rounds_rows([h[0], h[1], c, d], block, &ROW_MESSAGE);
        *h = [xor(h[0], xor(a, c)), xor(h[1], xor(b, d))];
    }
}

#[inline(always)]
unsafe fn load_h(h: &[u32; 8]) -> [V; 2] {
    unsafe { [vld1q_u32(h.as_ptr()), vld1q_u32(h.as_ptr().add(4))] }
}

#[inline(always)]
unsafe fn store_h(h: &mut [u32; 8], v: [V; 2]) {
    unsafe {
        core::arch::aarch64::vst1q_u32(h.as_mut_ptr(), v[0]);
        core::arch::aarch64::vst1q_u32(h.as_mut_ptr().add(4), v[1]);
    }
}

/// The single stream's kernel for the shared drivers.
struct Rows;

impl RowKernel for Rows {
    type Word = u32;
    type Rows = [V; 2];
    const BLOCKBYTES: usize = BLOCKBYTES;
    #[inline(always)]
    unsafe fn load(h: &[u32; 8]) -> [V; 2] {
        unsafe { load_h(h) }
    }
    #[inline(always)]
    unsafe fn store(h: &mut [u32; 8], rows: [V; 2]) {
        unsafe { store_h(h, rows) }
    }
    #[inline(always)]
    unsafe fn compress(rows: &mut [V; 2], block: *const u8, p: BlockParams) {
        unsafe { compress_rows(rows, block, p) }
    }
}

/// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
/// each; the semantics of `portable::compress_blocks`.
///
/// # Safety
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
    // SAFETY: NEON is enabled here.
    unsafe { row_kernel::compress_blocks::<Rows>(h, blocks, count) }
}

/// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
/// `portable::compress_final`.
///
/// # Safety
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn compress_final(
    h: &mut [u32; 8],
    block: &[u8; BLOCKBYTES],
    count: u128,
    last_node: bool,
) {
    // SAFETY: NEON is enabled here; `block` is one block.
    unsafe { row_kernel::compress_final::<Rows>(h, block, count, last_node) }
}

/// Compresses `blocks` blocks of four lanes (the first `n` real, the others copies of lane
/// `n - 1` whose results are dropped).
#[inline(always)]
unsafe fn compress_group4(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
    let n = lanes.len();
    let pick = |l: usize| l.min(n - 1);
    let inputs: [*const u8; 4] = core::array::from_fn(|l| lanes[pick(l)].input.as_ptr());
    unsafe {
        let rows = |k: usize| transpose(core::array::from_fn(|l| load_h(&*lanes[pick(l)].h)[k]));
        let (lo, hi) = (rows(0), rows(1));
        let mut h = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
        for j in 0..blocks {
            let mut params = [BlockParams::default(); 4];
            for (p, lane) in params.iter_mut().zip(lanes.iter_mut()) {
                *p = next_block(lane, BLOCKBYTES, j, blocks);
            }
            for l in n..4 {
                params[l] = params[n - 1];
            }
            let m = load_blocks4(&inputs, j * stride);
            let mut v = [
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
                xor(splat(IV[4]), words(params.map(|p| p.t as u32))),
                xor(splat(IV[5]), words(params.map(|p| (p.t >> 32) as u32))),
                xor(splat(IV[6]), words(params.map(|p| flag_word(p.f0)))),
                xor(splat(IV[7]), words(params.map(|p| flag_word(p.f1)))),
            ];
            // Written out so that every message index is a constant.
            round_lanes(&mut v, &m, &ROUNDS[0]);
            round_lanes(&mut v, &m, &ROUNDS[1]);
            round_lanes(&mut v, &m, &ROUNDS[2]);
            round_lanes(&mut v, &m, &ROUNDS[3]);
            round_lanes(&mut v, &m, &ROUNDS[4]);
            round_lanes(&mut v, &m, &ROUNDS[5]);
            round_lanes(&mut v, &m, &ROUNDS[6]);
            round_lanes(&mut v, &m, &ROUNDS[7]);
            round_lanes(&mut v, &m, &ROUNDS[8]);
            round_lanes(&mut v, &m, &ROUNDS[9]);
            for i in 0..8 {
                h[i] = xor(h[i], xor(v[i], v[i + 8]));
            }
        }
        let lo = transpose([h[0], h[1], h[2], h[3]]);
        let hi = transpose([h[4], h[5], h[6], h[7]]);
        for (l, lane) in lanes.iter_mut().enumerate() {
            store_h(lane.h, [lo[l], hi[l]]);
        }
    }
}

/// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
/// `portable::compress_lanes`.
///
/// # Safety
/// The CPU must support NEON, and every lane's input must hold
/// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by
/// `Variant::compress_lanes`).
#[target_feature(enable = "neon")]
pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
    for group in lanes.chunks_mut(4) {
        // SAFETY: NEON is enabled here; the input lengths are the caller's contract.
        unsafe {
            if group.len() > 2 {
                compress_group4(group, blocks, stride);
                continue;
            }
            for lane in group.iter_mut() {
                row_kernel::compress_lane::<Rows>(lane, blocks, stride);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::blake2::kernel_tests::{check, Kernels};
    use crate::blake2::variant::Blake2s;

    #[test]
    fn neon_matches_portable() {
        check(&Kernels::<Blake2s> {
            name: "neon",
            supported: std::arch::is_aarch64_feature_detected!("neon"),
            degree: 4,
            blocks: super::compress_blocks,
            last: super::compress_final,
            lanes: Some(super::compress_lanes),
        });
    }
}
