//! BLAKE3 on WebAssembly SIMD128: the four-lane kernels of [`super::four`], with the rounds in
//! rows gathering each round's message vectors by shuffles of the last round's.

use super::four::{self, Rows};
use super::kernels::{Group, Kernels, BLOCK_LEN, IV};
use crate::arch::wasm32::simd128::{load_rows_message, round_rows, shuffle, words, V};

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

/// The SIMD128 backend's [`Kernels`].
pub(crate) struct Simd128;

impl Rows for Simd128 {
    type V = V;
    // Never measured against four lanes with idle ones; kept as the kernels were first written.
    const ROWS_UP_TO: usize = 0;

    #[inline(always)]
    unsafe fn compress_rows(
        cv: [V; 2],
        block: &[u8; BLOCK_LEN],
        counter: u64,
        block_len: u8,
        flags: u8,
    ) -> [V; 4] {
        compress_rows(cv, block, counter, block_len, flags)
    }
}

// SAFETY (every entry point): SIMD128 is enabled at compile time, which is what `four` needs;
// the other conditions are the callers' (see `Kernels`).
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
        unsafe {
            four::compress_in_place::<Self>(cv, blocks, block_len, counter, flags, flags_start)
        }
    }

    #[target_feature(enable = "simd128")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        unsafe { four::hash_many::<Self>(group, out) }
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
        unsafe { four::xof_many::<Self>(cv, block, block_len, counter, flags, out) }
    }
}
