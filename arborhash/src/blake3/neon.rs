//! BLAKE3 on AArch64 NEON: the four-lane kernels of [`super::four`], with the rounds in rows
//! taking each round's message vectors from the block with one `tbl` a vector. Rows serve
//! groups of one or two lanes too, where they run fewer instructions.

use core::arch::aarch64::vld1q_u32;

use super::four::{self, Rows};
use super::kernels::{Group, Kernels, BLOCK_LEN, IV, MSG_SCHEDULE};
use crate::arch::aarch64::neon::{rounds_rows, row_message, words, V};

/// The `tbl` indices of each round's message vectors in rows.
const ROW_MESSAGE: [[[u8; 16]; 4]; 7] = row_message(&MSG_SCHEDULE);

/// The NEON backend's [`Kernels`].
pub(crate) struct Neon;

impl Rows for Neon {
    type V = V;
    const ROWS_UP_TO: usize = 2;

    #[inline(always)]
    unsafe fn compress_rows(
        cv: [V; 2],
        block: &[u8; BLOCK_LEN],
        counter: u64,
        block_len: u8,
        flags: u8,
    ) -> [V; 4] {
        // SAFETY: NEON is enabled in the caller (only the entry points below inline this);
        // `IV` holds four words, `block` 64 bytes.
        unsafe {
            let c = vld1q_u32(IV.as_ptr());
            let d = words([
                counter as u32,
                (counter >> 32) as u32,
                u32::from(block_len),
                u32::from(flags),
            ]);
            rounds_rows([cv[0], cv[1], c, d], block.as_ptr(), &ROW_MESSAGE)
        }
    }
}

// SAFETY (every entry point): NEON is enabled in each, which is what `four` needs; the other
// conditions are the callers' (see `Kernels`).
impl Kernels for Neon {
    const DEGREE: usize = 4;

    #[target_feature(enable = "neon")]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        unsafe {
            four::compress_in_place::<Self>(cv, blocks, block_len, counter, flags, flags_start)
        }
    }

    #[target_feature(enable = "neon")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        unsafe { four::hash_many::<Self>(group, out) }
    }

    #[target_feature(enable = "neon")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        unsafe { four::xof_many::<Self>(cv, block, block_len, counter, flags, out) }
    }
}
