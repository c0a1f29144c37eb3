//! BLAKE3 kernels for avx2. Placeholder: forwards to the portable kernels until the SIMD code
//! lands.

use super::kernels::{Lane, BLOCK_LEN};
use super::portable;

pub(crate) unsafe fn compress_in_place(
    cv: &mut [u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    portable::compress_in_place(cv, block, block_len, counter, flags)
}

pub(crate) unsafe fn hash_lanes(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    portable::hash_lanes(lanes, blocks, flags, out)
}

pub(crate) unsafe fn xof_many(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    portable::xof_many(cv, block, block_len, counter, flags, out)
}
