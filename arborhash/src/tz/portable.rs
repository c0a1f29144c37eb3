//! The portable backend: bit-sliced streams (`sliced.rs`) from 2 KiB, the rest bit by bit.

use super::bitwise;
use super::kernels::Kernels;
use super::sliced::{self, BLOCK, LANES};

/// Plain Rust.
pub(crate) struct Portable;

/// The shortest stream worth slicing, below which the 64 stream matrices cost more than it saves.
const MIN_STREAM_LEN: usize = 4 * BLOCK;

/// Multiplies the matrix `state` by the matrix of every bit of `input`, most significant first.
fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let mut stream_len = input.len() / LANES / BLOCK * BLOCK;
    if stream_len < MIN_STREAM_LEN {
        return bitwise::mul_bits(state, input);
    }
    if stream_len.is_multiple_of(1024) {
        // Streams a multiple of 1 KiB apart share cache sets and evict each other's lines.
        stream_len -= BLOCK;
    }
    let (bulk, tail) = input.split_at(LANES * stream_len);
    *state = bitwise::mul_matrices(state, &sliced::product(bulk, stream_len));
    bitwise::mul_bits(state, tail);
}

impl Kernels for Portable {
    #[inline(always)]
    unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
        mul_bytes(state, input)
    }

    #[inline(always)]
    unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
        bitwise::mul_matrices(a, b)
    }
}
