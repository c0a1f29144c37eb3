//! AVX2 vocabulary: 256-bit loads and stores, word rotations, transposes.

use core::arch::x86_64::*;

use super::sse41::{load128, ByteMask, ROT16_MASK, ROT8_MASK};
use super::{QwordRotations, Shuffles, WordRotations};

// 32-bit words

/// The 16 bytes at `lo` in the low 128-bit lane, at `hi` in the high one: an insert from memory
/// needs no shuffle port.
///
/// # Safety
/// AVX2 is enabled and present; 16 bytes are readable at each pointer.
#[inline(always)]
pub(crate) unsafe fn load_halves(lo: *const u8, hi: *const u8) -> __m256i {
    // SAFETY: our contract.
    unsafe { _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load128(lo)), load128(hi)) }
}

/// The low 128-bit lane of `x` to the 16 bytes at `lo`, the high one to those at `hi`.
///
/// # Safety
/// AVX2 is enabled and present; 16 bytes are writable at each pointer.
#[inline(always)]
pub(crate) unsafe fn store_halves(x: __m256i, lo: *mut u8, hi: *mut u8) {
    // SAFETY: our contract.
    unsafe {
        _mm_storeu_si128(lo.cast(), _mm256_castsi256_si128(x));
        _mm_storeu_si128(hi.cast(), _mm256_extracti128_si256::<1>(x));
    }
}

impl WordRotations<__m256i> for Shuffles {
    #[inline(always)]
    unsafe fn rot16(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi8(x, ROT16_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot12(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_srli_epi32::<12>(x), _mm256_slli_epi32::<20>(x)) }
    }

    #[inline(always)]
    unsafe fn rot8(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi8(x, ROT8_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot7(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_srli_epi32::<7>(x), _mm256_slli_epi32::<25>(x)) }
    }
}

super::transpose4_fn!(
    transpose4_halves,
    __m256i,
    _mm256_unpacklo_epi32,
    _mm256_unpackhi_epi32,
    _mm256_unpacklo_epi64,
    _mm256_unpackhi_epi64
);

// 64-bit words

/// The byte shuffle rotating every 64-bit word right by 16 bits, reloaded as `sse41`'s: a static
/// of its own rather than that one, so that a kernel using both widths keeps each mask's address
/// apart as BLAKE2b's lanes were measured.
static QWORD_ROT16_MASK: ByteMask = super::sse41::QWORD_ROT16;

impl QwordRotations<__m256i> for Shuffles {
    #[inline(always)]
    unsafe fn rot32(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi32(x, 0b10_11_00_01) }
    }

    #[inline(always)]
    unsafe fn rot24(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe {
            let mask = _mm256_setr_epi8(
                3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, //
                3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
            );
            _mm256_shuffle_epi8(x, mask)
        }
    }

    #[inline(always)]
    unsafe fn rot16(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi8(x, QWORD_ROT16_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot63(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64(x, 63)) }
    }
}

/// `x`, through an empty `asm!` that takes and returns the vector in its register, which LLVM
/// cannot see through, so that it keeps an expression's order as written; it emits no
/// instruction. `#[inline] #[target_feature]` rather than `#[inline(always)]`: a vector register
/// operand needs the feature on the function itself, and such a function is inlined into
/// callers with the same features.
///
/// # Safety
/// The CPU has AVX.
#[inline]
#[target_feature(enable = "avx")]
pub(crate) unsafe fn opaque(x: __m256i) -> __m256i {
    let mut x = x;
    // SAFETY: the template is empty: nothing runs, no memory or stack is touched, and `x` stays
    // in its register unchanged.
    unsafe { core::arch::asm!("/* {0} */", inout(ymm_reg) x, options(pure, nomem, nostack)) };
    x
}

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
