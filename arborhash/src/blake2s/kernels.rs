//! The BLAKE2s compression kernels and the backend dispatch in front of them.
//!
//! Everything above this module (the parameter block, buffering, trees, the batch scheduler) is
//! written once against these functions; each backend module implements the same three.

use super::portable;
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512, sse41};
use crate::blake2::Lane;
use crate::platform::{Backend, Platform};

/// Bytes in a block.
pub(crate) const BLOCKBYTES: usize = 64;

/// Compresses each whole block of `blocks` (a multiple of `BLOCKBYTES` long, none of them final),
/// adding `BLOCKBYTES` to `count` before each.
#[inline]
pub(crate) fn compress_blocks(p: Platform, h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
    debug_assert_eq!(blocks.len() % BLOCKBYTES, 0);
    match p.backend() {
        Backend::Portable => portable::compress_blocks(h, blocks, count),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it.
        Backend::Sse41 => unsafe { sse41::compress_blocks(h, blocks, count) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::compress_blocks(h, blocks, count) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::compress_blocks(h, blocks, count) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
    }
}

/// Compresses the final block: `block` is zero-padded, `count` already includes its bytes, f0 is
/// set, and f1 is set when `last_node`.
#[inline]
pub(crate) fn compress_final(
    p: Platform,
    h: &mut [u32; 8],
    block: &[u8; BLOCKBYTES],
    count: u128,
    last_node: bool,
) {
    match p.backend() {
        Backend::Portable => portable::compress_final(h, block, count, last_node),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it.
        Backend::Sse41 => unsafe { sse41::compress_final(h, block, count, last_node) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::compress_final(h, block, count, last_node) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::compress_final(h, block, count, last_node) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
    }
}

/// How many lanes `compress_lanes` runs at once on this platform.
pub(crate) fn degree(p: Platform) -> usize {
    match p.backend() {
        Backend::Portable => 1,
        Backend::Sse41 => 4,
        Backend::Avx2 | Backend::Avx512 => 8,
    }
}

/// Compresses `blocks` blocks in each lane (see [`Lane`]), up to `degree(p)` lanes at a time;
/// more lanes are processed in groups. Panics if a lane's input is too short.
#[inline]
pub(crate) fn compress_lanes(
    p: Platform,
    lanes: &mut [Lane<'_, u32>],
    blocks: usize,
    stride: usize,
) {
    if blocks == 0 {
        return;
    }
    let needed = (blocks - 1) * stride + BLOCKBYTES;
    for lane in lanes.iter() {
        assert!(lane.input.len() >= needed, "lane input too short");
    }
    match p.backend() {
        Backend::Portable => portable::compress_lanes(lanes, blocks, stride),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it; input lengths are
        // checked above.
        Backend::Sse41 => unsafe { sse41::compress_lanes(lanes, blocks, stride) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::compress_lanes(lanes, blocks, stride) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::compress_lanes(lanes, blocks, stride) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
    }
}
