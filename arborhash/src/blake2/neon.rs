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
