//! BLAKE2 kernels for AVX-512 (AVX-512F and AVX-512VL, with AVX2): [`b`] for BLAKE2b, [`s`] for
//! BLAKE2s, each with the three functions of the backend's `Kernels` implementation.

use super::kernels::{Kernels, Lane, LastNode};

pub(crate) mod b {
    //! BLAKE2b kernels for AVX-512 (AVX-512F and AVX-512VL, with AVX2).
    //!
    //! The kernels of the AVX2 backend (blake2/x86.rs: single stream, one `__m256i` per row; four
    //! lanes per `__m256i`) compiled again with `arch::x86`'s `Ror`: AVX-512VL rotates the 64-bit words of a 128- or 256-bit vector
    //! in one instruction (`vprorq`), where AVX2 needs a byte shuffle, or two shifts and an OR for
    //! the rotation by 63. That shortens G's dependency chain, which bounds the single stream, and
    //! removes instructions from the lanes, which are bound by throughput.

    use crate::arch::x86::Ror;
    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::Lane;
    use crate::blake2::x86::b::{lanes_compress, rows_compress_blocks, rows_compress_final};

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support AVX2, AVX-512F and AVX-512VL.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: the features `Ror` and the AVX2 kernel need are enabled here.
        unsafe { rows_compress_blocks::<Ror>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support AVX2, AVX-512F and AVX-512VL.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: as above.
        unsafe { rows_compress_final::<Ror>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support AVX2, AVX-512F and AVX-512VL, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        // SAFETY: as above; the input lengths are the caller's contract.
        unsafe { lanes_compress::<Ror>(lanes, blocks, stride) }
    }
}

pub(crate) mod s {
    //! BLAKE2s kernels for AVX-512 (AVX-512F and AVX-512VL, with AVX2).
    //!
    //! The kernels of the SSE4.1 and AVX2 backends (blake2/x86.rs: single stream, one `__m128i` per
    //! row; eight lanes per `__m256i`) compiled again with `arch::x86`'s `Ror`: AVX-512VL rotates the 32-bit words of a 128- or 256-bit
    //! vector in one instruction (`vprord`), where SSE/AVX2 need a byte shuffle, or two shifts and an
    //! OR for the rotations by 12 and 7. That shortens G's dependency chain, which bounds the single
    //! stream, and removes instructions from the lanes, which are bound by throughput.
    //!
    //! The single stream gathers message words with the strategies measured best on Intel
    //! AVX-512 CPUs ([`Inserts`], and [`Permutes`] for the final block); on AMD family 1Ah the
    //! single stream takes `scalar.rs` instead (the `avx512-scalar` route).

    use crate::arch::x86::Ror;
    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::Lane;
    use crate::blake2::x86::s::{
        lanes_compress, rows_compress_blocks, rows_compress_final, Message,
    };
    use core::arch::x86_64::*;

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support AVX2, AVX-512F and AVX-512VL.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: the features `Ror` and the row kernel need are enabled here.
        unsafe { rows_compress_blocks::<Ror, Inserts>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support AVX2, AVX-512F and AVX-512VL.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u32; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: as above.
        unsafe { rows_compress_final::<Ror, Permutes>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, eight lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support AVX2, AVX-512F and AVX-512VL, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        // SAFETY: as above; the input lengths are the caller's contract.
        unsafe { lanes_compress::<Ror>(lanes, blocks, stride) }
    }

    /// Gathers of four words from the block in memory: one load and three inserts per vector,
    /// which beat `vpermd` gathers in a stream of blocks on Intel AVX-512 CPUs.
    struct Inserts;

    impl Message for Inserts {
        type Words = [i32; 16];
        #[inline(always)]
        unsafe fn load(block: *const u8) -> [i32; 16] {
            // SAFETY: the caller's contract.
            core::array::from_fn(|i| unsafe { (block.add(4 * i) as *const i32).read_unaligned() })
        }
        #[inline(always)]
        unsafe fn gather(m: &[i32; 16], i: u8, j: u8, k: u8, l: u8) -> __m128i {
            let w = |n: u8| m[n as usize];
            // SAFETY: the caller guarantees SSE4.1.
            unsafe { _mm_set_epi32(w(l), w(k), w(j), w(i)) }
        }
    }

    /// Gathers of four message words by permuting the block held in two 256-bit vectors
    /// (`vpermd` of each half and a blend). Used for the final block only: a lone block's latency
    /// starts with its first gathers, and a permutation has less of it than a load-insert chain,
    /// while in a stream of blocks the gathers run in the shadow of the previous block.
    struct Permutes;

    impl Message for Permutes {
        type Words = [__m256i; 2];
        #[inline(always)]
        unsafe fn load(block: *const u8) -> [__m256i; 2] {
            let p = block as *const __m256i;
            // SAFETY: the caller's contract: AVX2, 64 readable bytes.
            unsafe { [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))] }
        }
        #[inline(always)]
        unsafe fn gather(m: &[__m256i; 2], i: u8, j: u8, k: u8, l: u8) -> __m128i {
            let high = |n: u8| -i32::from(n >= 8);
            // SAFETY: the caller guarantees AVX2.
            unsafe {
                // `vpermd` reads the low three bits of each index.
                let index = _mm256_setr_epi32(i as i32, j as i32, k as i32, l as i32, 0, 0, 0, 0);
                let low_half = _mm256_permutevar8x32_epi32(m[0], index);
                let high_half = _mm256_permutevar8x32_epi32(m[1], index);
                let pick = _mm256_setr_epi32(high(i), high(j), high(k), high(l), 0, 0, 0, 0);
                _mm256_castsi256_si128(_mm256_blendv_epi8(low_half, high_half, pick))
            }
        }
    }
}

/// The AVX-512 backend (AVX-512F and VL, on AVX2 code with the VL rotations).
pub(crate) struct Avx512;

impl Kernels<u64> for Avx512 {
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

impl Kernels<u32> for Avx512 {
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
