//! What the AArch64 NEON kernels of BLAKE2b and BLAKE2s (blake2b/neon.rs, blake2s/neon.rs)
//! share: walking a group of lanes block by block with each lane's counter and finalization
//! flags.

use super::variant::Word;
use super::{Lane, SIGMA};

/// SIGMA's rows as `usize` indices, for the vector kernels' message order.
pub(crate) const SCHEDULE: [[usize; 16]; 12] = {
    let mut schedule = [[0; 16]; 12];
    let mut r = 0;
    while r < 12 {
        let mut i = 0;
        while i < 16 {
            schedule[r][i] = SIGMA[r][i] as usize;
            i += 1;
        }
        r += 1;
    }
    schedule
};

/// The counter and flags of one lane's block: `t` after the block, `f0`, `f1`.
#[derive(Clone, Copy, Default)]
pub(crate) struct BlockParams {
    pub t: u128,
    pub f0: bool,
    pub f1: bool,
}

/// Advances lane `lane`'s counter over its block `j` of `blocks` (the final block adds its
/// length and sets the flags if the lane ends there) and returns the block's parameters.
#[inline(always)]
pub(crate) fn next_block<W: Word>(
    lane: &mut Lane<'_, W>,
    block_bytes: usize,
    j: usize,
    blocks: usize,
) -> BlockParams {
    match lane.last.filter(|_| j + 1 == blocks) {
        Some(last) => {
            lane.count = lane.count.wrapping_add(last.len as u128);
            BlockParams {
                t: lane.count,
                f0: true,
                f1: last.last_node,
            }
        }
        None => {
            lane.count = lane.count.wrapping_add(block_bytes as u128);
            BlockParams {
                t: lane.count,
                f0: false,
                f1: false,
            }
        }
    }
}

/// All ones if `set`, else zero: a finalization flag word.
#[inline(always)]
pub(crate) fn flag_word<W: Word>(set: bool) -> W {
    W::truncate(if set { u128::MAX } else { 0 })
}

/// A variant's single-stream NEON kernel: the chaining value held in vectors (`Self::Rows`) and
/// one block's compression into it. The bodies of the entry points are written once below.
pub(crate) trait RowKernel {
    type Word: Word;
    type Rows: Copy;
    const BLOCKBYTES: usize;
    /// The chaining value into vectors.
    unsafe fn load(h: &[Self::Word; 8]) -> Self::Rows;
    unsafe fn store(h: &mut [Self::Word; 8], rows: Self::Rows);
    /// Compresses the block at `block` (`BLOCKBYTES` readable bytes) into `rows`.
    unsafe fn compress(rows: &mut Self::Rows, block: *const u8, p: BlockParams);
}

// SAFETY (the three functions below): only inlined into the variants' `#[target_feature(enable
// = "neon")]` entry points; the block pointers come from the callers' checked slices.

/// `compress_blocks`: each whole block, none final, `BLOCKBYTES` added to `count` before each.
#[inline(always)]
pub(crate) unsafe fn compress_blocks<K: RowKernel>(
    h: &mut [K::Word; 8],
    blocks: &[u8],
    count: &mut u128,
) {
    unsafe {
        let mut rows = K::load(h);
        for block in blocks.chunks_exact(K::BLOCKBYTES) {
            *count = count.wrapping_add(K::BLOCKBYTES as u128);
            let p = BlockParams {
                t: *count,
                ..BlockParams::default()
            };
            K::compress(&mut rows, block.as_ptr(), p);
        }
        K::store(h, rows);
    }
}

/// `compress_final`: the final block, f0 set, f1 when `last_node`.
#[inline(always)]
pub(crate) unsafe fn compress_final<K: RowKernel>(
    h: &mut [K::Word; 8],
    block: &[u8],
    count: u128,
    last_node: bool,
) {
    debug_assert_eq!(block.len(), K::BLOCKBYTES);
    unsafe {
        let mut rows = K::load(h);
        let p = BlockParams {
            t: count,
            f0: true,
            f1: last_node,
        };
        K::compress(&mut rows, block.as_ptr(), p);
        K::store(h, rows);
    }
}

/// One lane of `compress_lanes` in rows. The lane's input must hold
/// `(blocks - 1) * stride + BLOCKBYTES` bytes.
#[inline(always)]
pub(crate) unsafe fn compress_lane<K: RowKernel>(
    lane: &mut Lane<'_, K::Word>,
    blocks: usize,
    stride: usize,
) {
    unsafe {
        let mut rows = K::load(lane.h);
        for j in 0..blocks {
            let p = next_block(lane, K::BLOCKBYTES, j, blocks);
            K::compress(&mut rows, lane.input.as_ptr().add(j * stride), p);
        }
        K::store(lane.h, rows);
    }
}
