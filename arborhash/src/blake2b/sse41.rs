//! BLAKE2b kernels for sse41. Placeholder: forwards to the portable kernels until the SIMD code
//! lands.

use super::kernels::BLOCKBYTES;
use super::portable;
use crate::blake2::Lane;

pub(crate) unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
    portable::compress_blocks(h, blocks, count)
}

pub(crate) unsafe fn compress_final(
    h: &mut [u64; 8],
    block: &[u8; BLOCKBYTES],
    count: u128,
    last_node: bool,
) {
    portable::compress_final(h, block, count, last_node)
}

pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
    portable::compress_lanes(lanes, blocks, stride)
}
