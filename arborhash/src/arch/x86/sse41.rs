//! SSE4.1 vocabulary: 128-bit loads and stores, word rotations, transposes.

use core::arch::x86_64::*;

use super::{QwordRotations, Shuffles, WordRotations};

// 32-bit words

#[inline(always)]
pub(crate) unsafe fn load128(p: *const u8) -> __m128i {
    // SAFETY: the caller guarantees 16 readable bytes at `p`; the load is unaligned.
    unsafe { _mm_loadu_si128(p.cast()) }
}

#[inline(always)]
pub(crate) unsafe fn store128(p: *mut u8, x: __m128i) {
    // SAFETY: the caller guarantees 16 writable bytes at `p`; the store is unaligned.
    unsafe { _mm_storeu_si128(p.cast(), x) }
}

/// A byte shuffle mask for 16 or 32 bytes, reloaded where used (`ByteMask::get`).
#[repr(align(32))]
pub(crate) struct ByteMask(pub(crate) [u8; 32]);

impl ByteMask {
    /// The mask as a vector of 16 or 32 bytes, loaded afresh where it is used
    /// (`crate::arch::opaque::reload`), so that LLVM
    /// neither rewrites the rotation by 16 from the known constant (`pshuflw` + `pshufhw`, two
    /// shuffles on port 5 instead of one) nor keeps the mask in a register across the
    /// transposed rounds, where the sixteen state words already fill the sixteen registers and
    /// LLVM spills: a `vpshufb` with a memory operand costs a load, not a register.
    ///
    /// # Safety
    /// `V` is `__m128i` or `__m256i` (at most the 32 bytes of the mask).
    #[inline(always)]
    pub(crate) unsafe fn get<V: Copy>(&self) -> V {
        // SAFETY: the mask is 32-byte aligned and 32 bytes, as much as `V` reads, and any bytes
        // are a valid vector.
        crate::arch::opaque::reload(unsafe { &*self.0.as_ptr().cast::<V>() })
    }
}

/// The byte shuffle rotating every 32-bit word right by 16 bits.
pub(crate) const ROT16: ByteMask = ByteMask([
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, //
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
]);
pub(crate) static ROT16_MASK: ByteMask = ROT16;

/// The byte shuffle rotating every 32-bit word right by 8 bits.
pub(crate) const ROT8: ByteMask = ByteMask([
    1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, //
    1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
]);
pub(crate) static ROT8_MASK: ByteMask = ROT8;

impl WordRotations<__m128i> for Shuffles {
    #[inline(always)]
    unsafe fn rot16(x: __m128i) -> __m128i {
        // SAFETY: SSSE3; see the trait.
        unsafe { _mm_shuffle_epi8(x, ROT16_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot12(x: __m128i) -> __m128i {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_or_si128(_mm_srli_epi32::<12>(x), _mm_slli_epi32::<20>(x)) }
    }

    #[inline(always)]
    unsafe fn rot8(x: __m128i) -> __m128i {
        // SAFETY: SSSE3; see the trait.
        unsafe { _mm_shuffle_epi8(x, ROT8_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot7(x: __m128i) -> __m128i {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_or_si128(_mm_srli_epi32::<7>(x), _mm_slli_epi32::<25>(x)) }
    }
}

super::transpose4_fn!(
    transpose4,
    __m128i,
    _mm_unpacklo_epi32,
    _mm_unpackhi_epi32,
    _mm_unpacklo_epi64,
    _mm_unpackhi_epi64
);

// 64-bit words

/// The byte shuffle rotating every 64-bit word right by 16 bits, reloaded where used: given the
/// constant, LLVM rewrites this rotation as two word shuffles (`pshuflw` + `pshufhw`), doubling
/// the latency of a step on BLAKE2b's G chain.
pub(crate) const QWORD_ROT16: ByteMask = ByteMask([
    2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, //
    2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9,
]);
static QWORD_ROT16_MASK: ByteMask = QWORD_ROT16;

impl QwordRotations<__m128i> for Shuffles {
    #[inline(always)]
    unsafe fn rot32(x: __m128i) -> __m128i {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_shuffle_epi32(x, 0b10_11_00_01) }
    }

    #[inline(always)]
    unsafe fn rot24(x: __m128i) -> __m128i {
        // SAFETY: SSSE3; see the trait.
        unsafe {
            let mask = _mm_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
            _mm_shuffle_epi8(x, mask)
        }
    }

    #[inline(always)]
    unsafe fn rot16(x: __m128i) -> __m128i {
        // SAFETY: SSSE3; see the trait.
        unsafe { _mm_shuffle_epi8(x, QWORD_ROT16_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot63(x: __m128i) -> __m128i {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_or_si128(_mm_add_epi64(x, x), _mm_srli_epi64(x, 63)) }
    }
}

/// The 64-bit words (m[i], m[j]) as one vector, from `m` holding pairs (m[2k], m[2k+1]). With
/// constant i and j this folds to one instruction (none when j = i + 1 with i even).
///
/// # Safety
/// SSE4.1 is enabled and present.
#[inline(always)]
pub(crate) unsafe fn pair64(m: &[__m128i; 8], i: u8, j: u8) -> __m128i {
    let (a, b) = (m[i as usize / 2], m[j as usize / 2]);
    // SAFETY: our contract.
    unsafe {
        match (i % 2, j % 2) {
            (0, 0) => _mm_unpacklo_epi64(a, b),
            (1, 1) => _mm_unpackhi_epi64(a, b),
            // Low qword of a, high qword of b (a itself when they are the same pair).
            (0, _) => _mm_blend_epi16(a, b, 0xF0),
            // High qword of a, then low qword of b.
            _ => _mm_alignr_epi8(b, a, 8),
        }
    }
}

/// `x`, through an empty `asm!` that takes and returns the vector in its register, which LLVM
/// cannot see through, so that it keeps an expression's order as written; it emits no
/// instruction. `#[inline] #[target_feature]` rather than `#[inline(always)]`: a vector register
/// operand needs the feature on the function itself, and such a function is inlined into
/// callers with the same features.
///
/// # Safety
/// The CPU has SSE2.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn opaque(x: __m128i) -> __m128i {
    let mut x = x;
    // SAFETY: the template is empty: nothing runs, no memory or stack is touched, and `x` stays
    // in its register unchanged.
    unsafe { core::arch::asm!("/* {0} */", inout(xmm_reg) x, options(pure, nomem, nostack)) };
    x
}

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
