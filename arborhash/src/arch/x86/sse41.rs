//! SSE4.1 vocabulary: 128-bit loads and stores, word rotations, transposes.

// Carry-less multiplication

/// `__m128i` with PCLMULQDQ (and SSE4.1's blend).
mod clmul {
    use crate::arch::clmul::ClmulLanes;
    use core::arch::x86_64::*;

    // SAFETY (every function): the caller has SSE4.1 and PCLMULQDQ (see `ClmulLanes`).
    impl ClmulLanes for __m128i {
        #[inline(always)]
        unsafe fn clmul<const IMM: i32>(a: Self, b: Self) -> Self {
            unsafe { _mm_clmulepi64_si128::<IMM>(a, b) }
        }
        #[inline(always)]
        unsafe fn xor(a: Self, b: Self) -> Self {
            unsafe { _mm_xor_si128(a, b) }
        }
        #[inline(always)]
        unsafe fn and(a: Self, b: Self) -> Self {
            unsafe { _mm_and_si128(a, b) }
        }
        #[inline(always)]
        unsafe fn unpacklo64(a: Self, b: Self) -> Self {
            unsafe { _mm_unpacklo_epi64(a, b) }
        }
        #[inline(always)]
        unsafe fn unpackhi64(a: Self, b: Self) -> Self {
            unsafe { _mm_unpackhi_epi64(a, b) }
        }
        #[inline(always)]
        unsafe fn srli64<const N: i32>(a: Self) -> Self {
            unsafe { _mm_srli_epi64::<N>(a) }
        }
        #[inline(always)]
        unsafe fn slli64<const N: i32>(a: Self) -> Self {
            unsafe { _mm_slli_epi64::<N>(a) }
        }
        #[inline(always)]
        unsafe fn srai32<const N: i32>(a: Self) -> Self {
            unsafe { _mm_srai_epi32::<N>(a) }
        }
        #[inline(always)]
        unsafe fn bsrli8(a: Self) -> Self {
            unsafe { _mm_srli_si128::<8>(a) }
        }
        #[inline(always)]
        unsafe fn bslli8(a: Self) -> Self {
            unsafe { _mm_slli_si128::<8>(a) }
        }
        #[inline(always)]
        unsafe fn blend_hi(a: Self, b: Self) -> Self {
            unsafe { _mm_blend_epi16::<0xF0>(a, b) }
        }
        #[inline(always)]
        unsafe fn top_dword(a: Self) -> Self {
            unsafe { _mm_shuffle_epi32::<0xFF>(a) }
        }
        #[inline(always)]
        unsafe fn sub64(a: Self, b: Self) -> Self {
            unsafe { _mm_sub_epi64(a, b) }
        }
        #[inline(always)]
        unsafe fn zero() -> Self {
            unsafe { _mm_setzero_si128() }
        }
        #[inline(always)]
        unsafe fn splat64(x: u64) -> Self {
            unsafe { _mm_set1_epi64x(x as i64) }
        }
        #[inline(always)]
        unsafe fn set64(hi: u64, lo: u64) -> Self {
            unsafe { _mm_set_epi64x(hi as i64, lo as i64) }
        }
    }
}
