//! BLAKE2s on WebAssembly SIMD128, written from RFC 7693: several lanes four at a time, one per
//! 32-bit element of each vector ("transposed", [`compress_group4`]). A single stream runs the
//! portable kernels: in rows, gathering each round's message vectors word by word, it ran at
//! 0.6 of them. BLAKE2b runs the portable kernels.

use super::kernels::s::{BLOCKBYTES, IV};
use super::kernels::{Kernels, Lane, LastNode, SIGMA};
use super::portable;
use crate::arch::wasm32::simd128::{
    load_blocks4, load_transposed4, round4, splat, store_transposed4, words, xor,
};

/// BLAKE2s's ten rows of SIGMA as `usize` indices, for [`round4`].
const SCHEDULE: [[usize; 16]; 10] = {
    let mut schedule = [[0; 16]; 10];
    let mut r = 0;
    while r < 10 {
        let mut i = 0;
        while i < 16 {
            schedule[r][i] = SIGMA[r][i] as usize;
            i += 1;
        }
        r += 1;
    }
    schedule
};

/// All ones if `set`, else zero: a finalization flag word.
#[inline(always)]
fn flag(set: bool) -> u32 {
    if set {
        u32::MAX
    } else {
        0
    }
}

/// The counter after lane `lane`'s block `j` of `blocks` (the final block adds its length) and
/// the block's flags f0, f1; advances the lane's counter.
#[inline(always)]
fn next_block(lane: &mut Lane<'_, u32>, j: usize, blocks: usize) -> (u128, bool, bool) {
    match lane.last.filter(|_| j + 1 == blocks) {
        Some(last) => {
            lane.count = lane.count.wrapping_add(last.len as u128);
            (lane.count, true, last.last_node.is_set())
        }
        None => {
            lane.count = lane.count.wrapping_add(BLOCKBYTES as u128);
            (lane.count, false, false)
        }
    }
}

/// Compresses `blocks` blocks of the 1 to 4 `lanes` in four transposed lanes, the missing ones
/// copies of the last whose results are dropped.
///
/// # Safety
/// Every lane's input holds `(blocks - 1) * stride + BLOCKBYTES` bytes.
#[inline(always)]
unsafe fn compress_group4(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
    let n = lanes.len();
    debug_assert!((1..=4).contains(&n));
    let pick = |l: usize| l.min(n - 1);
    let inputs: [*const u8; 4] = core::array::from_fn(|l| lanes[pick(l)].input.as_ptr());
    // SAFETY: each chaining value is 32 readable bytes.
    let [lo, hi] = [0, 4].map(|w| unsafe {
        load_transposed4(core::array::from_fn(|l| {
            lanes[pick(l)].h[w..].as_ptr().cast()
        }))
    });
    let mut h = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
    for j in 0..blocks {
        let mut params = [(0, false, false); 4];
        for (p, lane) in params.iter_mut().zip(lanes.iter_mut()) {
            *p = next_block(lane, j, blocks);
        }
        for l in n..4 {
            params[l] = params[n - 1];
        }
        // SAFETY: block `j` of every lane is within its input (the caller's contract).
        let m = unsafe { load_blocks4(&inputs, j * stride) };
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
            xor(splat(IV[4]), words(params.map(|p| p.0 as u32))),
            xor(splat(IV[5]), words(params.map(|p| (p.0 >> 32) as u32))),
            xor(splat(IV[6]), words(params.map(|p| flag(p.1)))),
            xor(splat(IV[7]), words(params.map(|p| flag(p.2)))),
        ];
        // Written out so that every message index is a constant.
        round4(&mut v, &m, &SCHEDULE[0]);
        round4(&mut v, &m, &SCHEDULE[1]);
        round4(&mut v, &m, &SCHEDULE[2]);
        round4(&mut v, &m, &SCHEDULE[3]);
        round4(&mut v, &m, &SCHEDULE[4]);
        round4(&mut v, &m, &SCHEDULE[5]);
        round4(&mut v, &m, &SCHEDULE[6]);
        round4(&mut v, &m, &SCHEDULE[7]);
        round4(&mut v, &m, &SCHEDULE[8]);
        round4(&mut v, &m, &SCHEDULE[9]);
        for i in 0..8 {
            h[i] = xor(h[i], xor(v[i], v[i + 8]));
        }
    }
    let mut out = [[0u32; 8]; 4];
    let rows = out.each_mut().map(|o| o.as_mut_ptr().cast::<u8>());
    // SAFETY: each output is 32 writable bytes, so 16 at 0 and at 16.
    unsafe {
        store_transposed4([h[0], h[1], h[2], h[3]], rows);
        store_transposed4([h[4], h[5], h[6], h[7]], rows.map(|p| p.add(16)));
    }
    for (lane, h) in lanes.iter_mut().zip(out) {
        *lane.h = h;
    }
}

/// The SIMD128 backend.
pub(crate) struct Simd128;

impl Kernels<u64> for Simd128 {
    const DEGREE: usize = 1;

    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        portable::compress_blocks(h, blocks, count)
    }

    #[inline(always)]
    unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; 128],
        count: u128,
        last_node: LastNode,
    ) {
        portable::compress_final(h, block, count, last_node)
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        portable::compress_lanes(lanes, blocks, stride)
    }
}

impl Kernels<u32> for Simd128 {
    const DEGREE: usize = 4;

    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        portable::compress_blocks(h, blocks, count)
    }

    #[inline(always)]
    unsafe fn compress_final(h: &mut [u32; 8], block: &[u8; 64], count: u128, last_node: LastNode) {
        portable::compress_final(h, block, count, last_node)
    }

    #[target_feature(enable = "simd128")]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        for group in lanes.chunks_mut(4) {
            // SAFETY: the input lengths are the caller's contract.
            unsafe { compress_group4(group, blocks, stride) };
        }
    }
}
