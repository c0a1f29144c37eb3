//! BLAKE2s kernels for AVX2.
//!
//! Single stream: the SSE4.1 row kernel of sse41.rs, compiled here with AVX2 enabled (VEX
//! encodings, no register copies). A 256-bit register cannot hold more of one BLAKE2s state than
//! a row pair, and the kernel is bound by the latency of its G chain, not by its width.
//!
//! Multi-lane: eight lanes, one per 32-bit element, through the generic lane driver of blake2/simd.rs;
//! a group of one to four remaining lanes takes the four-lane SSE path (compiled here with VEX
//! encodings) instead of padding to eight.
//!
//! Both are generic over the [`Rotate`] strategy: avx512.rs compiles them again with the AVX-512VL
//! rotate instructions.

use super::sse41::{self, Loads, Shuffles};
use super::BLOCKBYTES;
use crate::blake2::simd::{compress_group, LaneWords, Rotate};
use crate::blake2::variant::Blake2s;
use crate::blake2::Lane;
use core::arch::x86_64::*;

/// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
/// each; the semantics of `portable::compress_blocks`.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
    // SAFETY: AVX2 implies SSE4.1, all the row kernel needs.
    unsafe { sse41::rows_compress_blocks::<Shuffles, Loads>(h, blocks, count) }
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
    unsafe { sse41::rows_compress_final::<Shuffles, Loads>(h, block, count, last_node) }
}

/// Compresses `blocks` blocks in every lane, eight lanes at a time; the semantics of
/// `portable::compress_lanes`.
///
/// # Safety
/// The CPU must support AVX2, and every lane's input must hold
/// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `Variant::compress_lanes`).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
    // SAFETY: AVX2 is enabled here; the input lengths are the caller's contract.
    unsafe { lanes_compress::<Shuffles>(lanes, blocks, stride) }
}

/// `compress_lanes` with the rotations `R`: groups of eight lanes, and a group of one to four
/// remaining lanes in 128-bit vectors instead of padding to eight.
///
/// # Safety
/// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled. Input
/// lengths as for `compress_lanes`.
#[inline(always)]
pub(super) unsafe fn lanes_compress<R: Rotate<__m128i> + Rotate<__m256i>>(
    lanes: &mut [Lane<'_, u32>],
    blocks: usize,
    stride: usize,
) {
    for group in lanes.chunks_mut(8) {
        // SAFETY: the caller's contract (AVX2 implies SSE4.1).
        unsafe {
            if group.len() <= 4 {
                compress_group::<Blake2s, __m128i, R, 4>(group, blocks, stride)
            } else {
                compress_group::<Blake2s, __m256i, R, 8>(group, blocks, stride)
            }
        }
    }
}

impl Rotate<__m256i> for Shuffles {
    // SAFETY (every function): the caller guarantees AVX2.
    #[inline(always)]
    unsafe fn r1(x: __m256i) -> __m256i {
        // `ROTR16` is an aligned static; see there for the volatile load.
        unsafe { _mm256_shuffle_epi8(x, core::ptr::read_volatile(&ROTR16)) }
    }
    #[inline(always)]
    unsafe fn r2(x: __m256i) -> __m256i {
        unsafe { _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20)) }
    }
    #[inline(always)]
    unsafe fn r3(x: __m256i) -> __m256i {
        unsafe {
            let mask = _mm256_setr_epi8(
                1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, //
                1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
            );
            _mm256_shuffle_epi8(x, mask)
        }
    }
    #[inline(always)]
    unsafe fn r4(x: __m256i) -> __m256i {
        unsafe { _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25)) }
    }
}

/// The byte shuffle that rotates each 32-bit word right by 16, read with a volatile load for the
/// reason given at sse41.rs's `ROTR16`.
static ROTR16: __m256i = {
    let half: [u8; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];
    // SAFETY: any 32 bytes are a valid `__m256i`.
    unsafe { core::mem::transmute::<[[u8; 16]; 2], __m256i>([half, half]) }
};

/// The 4x4 transpose of 32-bit words within each 128-bit half of four vectors: element j of
/// vector i goes to element i of vector j. It is its own inverse.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn transpose_4x4([a, b, c, d]: [__m256i; 4]) -> [__m256i; 4] {
    // SAFETY: the caller's contract.
    unsafe {
        let ab_lo = _mm256_unpacklo_epi32(a, b);
        let ab_hi = _mm256_unpackhi_epi32(a, b);
        let cd_lo = _mm256_unpacklo_epi32(c, d);
        let cd_hi = _mm256_unpackhi_epi32(c, d);
        [
            _mm256_unpacklo_epi64(ab_lo, cd_lo),
            _mm256_unpackhi_epi64(ab_lo, cd_lo),
            _mm256_unpacklo_epi64(ab_hi, cd_hi),
            _mm256_unpackhi_epi64(ab_hi, cd_hi),
        ]
    }
}

impl LaneWords<u32, 8> for __m256i {
    // SAFETY (every method): the caller guarantees AVX2; `load_transposed` and
    // `store_transposed` also rely on their pointers being readable or writable for `M` words.
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        unsafe { _mm256_add_epi32(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        unsafe { _mm256_xor_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn from_words(w: [u32; 8]) -> Self {
        unsafe { _mm256_loadu_si256(w.as_ptr() as *const __m256i) }
    }
    #[inline(always)]
    unsafe fn load_transposed<const M: usize>(rows: [*const u8; 8]) -> [Self; M] {
        const { assert!(M.is_multiple_of(4)) };
        let p = rows.map(|b| b as *const __m128i);
        unsafe {
            let mut m = [_mm256_setzero_si256(); M];
            for k in 0..M / 4 {
                // Words 4k..4k+4 of lane i in the low half and of lane i + 4 in the high half,
                // then a 4x4 transpose within each half.
                // (No closure here: closures do not inherit `target_feature`.)
                let a = _mm256_loadu2_m128i(p[4].add(k), p[0].add(k));
                let b = _mm256_loadu2_m128i(p[5].add(k), p[1].add(k));
                let c = _mm256_loadu2_m128i(p[6].add(k), p[2].add(k));
                let d = _mm256_loadu2_m128i(p[7].add(k), p[3].add(k));
                m[4 * k..4 * k + 4].copy_from_slice(&transpose_4x4([a, b, c, d]));
            }
            m
        }
    }
    #[inline(always)]
    unsafe fn store_transposed<const M: usize>(words: [Self; M], rows: [*mut u8; 8]) {
        const { assert!(M.is_multiple_of(4)) };
        let p = rows.map(|b| b as *mut __m128i);
        unsafe {
            for k in 0..M / 4 {
                // The transpose is its own inverse: it gives words 4k..4k+4 of lane i in the low
                // half and of lane i + 4 in the high half.
                let lanes = transpose_4x4([0, 1, 2, 3].map(|i| words[4 * k + i]));
                for (i, v) in lanes.into_iter().enumerate() {
                    _mm256_storeu2_m128i(p[i + 4].add(k), p[i].add(k), v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::blake2::kernel_tests::{check, Kernels};
    use crate::blake2::variant::Blake2s;

    #[test]
    fn avx2_matches_portable() {
        check(&Kernels::<Blake2s> {
            name: "avx2",
            supported: is_x86_feature_detected!("avx2"),
            degree: 8,
            blocks: super::compress_blocks,
            last: super::compress_final,
            lanes: Some(super::compress_lanes),
        });
    }
}
