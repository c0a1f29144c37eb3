//! BLAKE2b kernels for AVX-512 (AVX-512F and AVX-512VL, with AVX2).
//!
//! The AVX2 kernels of avx2.rs (single stream, one `__m256i` per row; four lanes per `__m256i`)
//! compiled again with [`Ror`]: AVX-512VL rotates the 64-bit words of a 128- or 256-bit vector
//! in one instruction (`vprorq`), where AVX2 needs a byte shuffle, or two shifts and an OR for
//! the rotation by 63. That shortens G's dependency chain, which bounds the single stream, and
//! removes instructions from the lanes, which are bound by throughput.

use super::avx2::{lanes_compress, rows_compress_blocks, rows_compress_final};
use super::BLOCKBYTES;
use crate::blake2::simd::Rotate;
use crate::blake2::Lane;
use core::arch::x86_64::*;

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
/// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `Variant::compress_lanes`).
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
    // SAFETY: as above; the input lengths are the caller's contract.
    unsafe { lanes_compress::<Ror>(lanes, blocks, stride) }
}

/// The rotations as AVX-512VL `vprorq`.
pub(super) struct Ror;

impl Rotate<__m128i> for Ror {
    // SAFETY (every function): the caller guarantees AVX-512F and AVX-512VL.
    #[inline(always)]
    unsafe fn r1(x: __m128i) -> __m128i {
        unsafe { _mm_ror_epi64::<32>(x) }
    }
    #[inline(always)]
    unsafe fn r2(x: __m128i) -> __m128i {
        unsafe { _mm_ror_epi64::<24>(x) }
    }
    #[inline(always)]
    unsafe fn r3(x: __m128i) -> __m128i {
        unsafe { _mm_ror_epi64::<16>(x) }
    }
    #[inline(always)]
    unsafe fn r4(x: __m128i) -> __m128i {
        unsafe { _mm_ror_epi64::<63>(x) }
    }
}

impl Rotate<__m256i> for Ror {
    // SAFETY (every function): the caller guarantees AVX-512F and AVX-512VL.
    #[inline(always)]
    unsafe fn r1(x: __m256i) -> __m256i {
        unsafe { _mm256_ror_epi64::<32>(x) }
    }
    #[inline(always)]
    unsafe fn r2(x: __m256i) -> __m256i {
        unsafe { _mm256_ror_epi64::<24>(x) }
    }
    #[inline(always)]
    unsafe fn r3(x: __m256i) -> __m256i {
        unsafe { _mm256_ror_epi64::<16>(x) }
    }
    #[inline(always)]
    unsafe fn r4(x: __m256i) -> __m256i {
        unsafe { _mm256_ror_epi64::<63>(x) }
    }
}

#[cfg(test)]
mod tests {
    use crate::blake2::kernel_tests::{check, Kernels};
    use crate::blake2::variant::Blake2b;

    #[test]
    fn avx512_matches_portable() {
        check(&Kernels::<Blake2b> {
            name: "avx512",
            supported: is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl"),
            degree: 4,
            blocks: super::compress_blocks,
            last: super::compress_final,
            lanes: Some(super::compress_lanes),
        });
    }
}
