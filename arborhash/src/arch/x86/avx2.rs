//! AVX2 vocabulary: 256-bit loads and stores, word rotations, transposes.

// Carry-less multiplication

/// `__m256i` with VPCLMULQDQ: two independent 128-bit lanes.
mod clmul {
    use crate::arch::clmul::ClmulLanes;
    use core::arch::x86_64::*;

    // SAFETY (every function): the caller has AVX2 and VPCLMULQDQ (see `ClmulLanes`).
    impl ClmulLanes for __m256i {
        #[inline(always)]
        unsafe fn clmul<const IMM: i32>(a: Self, b: Self) -> Self {
            unsafe { _mm256_clmulepi64_epi128::<IMM>(a, b) }
        }
        #[inline(always)]
        unsafe fn xor(a: Self, b: Self) -> Self {
            unsafe { _mm256_xor_si256(a, b) }
        }
        #[inline(always)]
        unsafe fn and(a: Self, b: Self) -> Self {
            unsafe { _mm256_and_si256(a, b) }
        }
        #[inline(always)]
        unsafe fn unpacklo64(a: Self, b: Self) -> Self {
            unsafe { _mm256_unpacklo_epi64(a, b) }
        }
        #[inline(always)]
        unsafe fn unpackhi64(a: Self, b: Self) -> Self {
            unsafe { _mm256_unpackhi_epi64(a, b) }
        }
        #[inline(always)]
        unsafe fn srli64<const N: i32>(a: Self) -> Self {
            unsafe { _mm256_srli_epi64::<N>(a) }
        }
        #[inline(always)]
        unsafe fn slli64<const N: i32>(a: Self) -> Self {
            unsafe { _mm256_slli_epi64::<N>(a) }
        }
        #[inline(always)]
        unsafe fn srai32<const N: i32>(a: Self) -> Self {
            unsafe { _mm256_srai_epi32::<N>(a) }
        }
        #[inline(always)]
        unsafe fn bsrli8(a: Self) -> Self {
            unsafe { _mm256_bsrli_epi128::<8>(a) }
        }
        #[inline(always)]
        unsafe fn bslli8(a: Self) -> Self {
            unsafe { _mm256_bslli_epi128::<8>(a) }
        }
        #[inline(always)]
        unsafe fn blend_hi(a: Self, b: Self) -> Self {
            unsafe { _mm256_blend_epi32::<0xCC>(a, b) }
        }
        #[inline(always)]
        unsafe fn top_dword(a: Self) -> Self {
            unsafe { _mm256_shuffle_epi32::<0xFF>(a) }
        }
        #[inline(always)]
        unsafe fn sub64(a: Self, b: Self) -> Self {
            unsafe { _mm256_sub_epi64(a, b) }
        }
        #[inline(always)]
        unsafe fn zero() -> Self {
            unsafe { _mm256_setzero_si256() }
        }
        #[inline(always)]
        unsafe fn splat64(x: u64) -> Self {
            unsafe { _mm256_set1_epi64x(x as i64) }
        }
        #[inline(always)]
        unsafe fn set64(hi: u64, lo: u64) -> Self {
            unsafe { _mm256_set_epi64x(hi as i64, lo as i64, hi as i64, lo as i64) }
        }
    }
}
