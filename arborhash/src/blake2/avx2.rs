//! BLAKE2 kernels for AVX2: [`b`] for BLAKE2b, [`s`] for BLAKE2s, each with the three
//! functions of the backend's `Kernels` implementation.

use super::kernels::{Kernels, Lane, LastNode};

pub(crate) mod b {
    //! BLAKE2b kernels for AVX2.
    //!
    //! Single stream: the row kernel of blake2/x86.rs with one `__m256i` per row of the 4x4 state
    //! matrix.
    //!
    //! Multi-lane: four lanes, one per 64-bit element, through the generic lane driver of
    //! blake2/simd.rs; a group of one or two remaining lanes takes the two-lane SSE path (compiled
    //! here with VEX encodings) instead of padding to four.
    //!
    //! Both are shared with avx512.rs, which compiles them with the AVX-512VL rotate instructions.

    use crate::arch::x86::Shuffles;
    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::Lane;
    use crate::blake2::x86::b::{lanes_compress, rows_compress_blocks, rows_compress_final};

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: AVX2 is enabled here.
        unsafe { rows_compress_blocks::<Shuffles>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: AVX2 is enabled here.
        unsafe { rows_compress_final::<Shuffles>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support AVX2, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        // SAFETY: AVX2 is enabled here; the input lengths are the caller's contract.
        unsafe { lanes_compress::<Shuffles>(lanes, blocks, stride) }
    }
}

pub(crate) mod s {
    //! BLAKE2s kernels for AVX2.
    //!
    //! Single stream: the SSE4.1 row kernel of blake2/x86.rs, compiled here with AVX2 enabled (VEX
    //! encodings, no register copies). A 256-bit register cannot hold more of one BLAKE2s state than
    //! a row pair, and the kernel is bound by the latency of its G chain, not by its width.
    //!
    //! Multi-lane: eight lanes, one per 32-bit element, through the generic lane driver of
    //! blake2/simd.rs; a group of one to four remaining lanes takes the four-lane SSE path (compiled
    //! here with VEX encodings) instead of padding to eight.
    //!
    //! Both live in blake2/x86.rs, shared with avx512.rs, which compiles them with the AVX-512VL
    //! rotate instructions.

    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::Lane;
    use crate::blake2::x86::s::{
        lanes_compress, rows_compress_blocks, rows_compress_final, Blake2sShuffles, Loads,
    };

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: AVX2 implies SSE4.1, all the row kernel needs.
        unsafe { rows_compress_blocks::<Blake2sShuffles, Loads>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u32; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: AVX2 implies SSE4.1, all the row kernel needs.
        unsafe { rows_compress_final::<Blake2sShuffles, Loads>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, eight lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support AVX2, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        // SAFETY: AVX2 is enabled here; the input lengths are the caller's contract.
        unsafe { lanes_compress::<Blake2sShuffles>(lanes, blocks, stride) }
    }
}

/// The AVX2 backend.
pub(crate) struct Avx2;

impl Kernels<u64> for Avx2 {
    const DEGREE: usize = 4;

    // SAFETY (the three calls): the caller's contract is this backend's.
    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        unsafe { b::compress_blocks(h, blocks, count) }
    }

    #[inline(always)]
    unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; 128],
        count: u128,
        last_node: LastNode,
    ) {
        unsafe { b::compress_final(h, block, count, last_node.is_set()) }
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        unsafe { b::compress_lanes(lanes, blocks, stride) }
    }
}

impl Kernels<u32> for Avx2 {
    const DEGREE: usize = 8;

    // SAFETY (the three calls): the caller's contract is this backend's.
    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        unsafe { s::compress_blocks(h, blocks, count) }
    }

    #[inline(always)]
    unsafe fn compress_final(h: &mut [u32; 8], block: &[u8; 64], count: u128, last_node: LastNode) {
        unsafe { s::compress_final(h, block, count, last_node.is_set()) }
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        unsafe { s::compress_lanes(lanes, blocks, stride) }
    }
}
