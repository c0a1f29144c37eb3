//! AVX-512 vocabulary: 512-bit loads and stores, transposes, and the AVX-512VL rotations on
//! every width.

use core::arch::x86_64::*;

use super::{pick, QwordRotations, Ror, WordRotations};

// 32-bit words

/// Rotations of `$t` by `vprord` (`$ror`), every width the same instruction.
macro_rules! ror_rotations {
    ($t:ty, $ror:ident) => {
        impl WordRotations<$t> for Ror {
            #[inline(always)]
            unsafe fn rot16(x: $t) -> $t {
                // SAFETY: AVX-512F (+ VL below 512 bits); see the trait.
                unsafe { $ror::<16>(x) }
            }
            #[inline(always)]
            unsafe fn rot12(x: $t) -> $t {
                // SAFETY: as `rot16`.
                unsafe { $ror::<12>(x) }
            }
            #[inline(always)]
            unsafe fn rot8(x: $t) -> $t {
                // SAFETY: as `rot16`.
                unsafe { $ror::<8>(x) }
            }
            #[inline(always)]
            unsafe fn rot7(x: $t) -> $t {
                // SAFETY: as `rot16`.
                unsafe { $ror::<7>(x) }
            }
        }
    };
}
ror_rotations!(__m128i, _mm_ror_epi32);
ror_rotations!(__m256i, _mm256_ror_epi32);
ror_rotations!(__m512i, _mm512_ror_epi32);

// 64-bit words

/// Rotations of `$t` by `vprorq` (`$ror`), every width the same instruction.
macro_rules! qword_ror_rotations {
    ($t:ty, $ror:ident) => {
        impl QwordRotations<$t> for Ror {
            #[inline(always)]
            unsafe fn rot32(x: $t) -> $t {
                // SAFETY: AVX-512F (+ VL below 512 bits); see the trait.
                unsafe { $ror::<32>(x) }
            }
            #[inline(always)]
            unsafe fn rot24(x: $t) -> $t {
                // SAFETY: as `rot32`.
                unsafe { $ror::<24>(x) }
            }
            #[inline(always)]
            unsafe fn rot16(x: $t) -> $t {
                // SAFETY: as `rot32`.
                unsafe { $ror::<16>(x) }
            }
            #[inline(always)]
            unsafe fn rot63(x: $t) -> $t {
                // SAFETY: as `rot32`.
                unsafe { $ror::<63>(x) }
            }
        }
    };
}
qword_ror_rotations!(__m128i, _mm_ror_epi64);
qword_ror_rotations!(__m256i, _mm256_ror_epi64);

super::transpose4_fn!(
    transpose4_512,
    __m512i,
    _mm512_unpacklo_epi32,
    _mm512_unpackhi_epi32,
    _mm512_unpacklo_epi64,
    _mm512_unpackhi_epi64
);

/// Transposes a 16x16 matrix of words held as 16 rows: 4x4 word transposes within each 128-bit
/// lane of four rows at a time, then 4x4 transposes of 128-bit lanes across those groups.
///
/// # Safety
/// AVX-512F is enabled and present.
#[inline(always)]
pub(crate) unsafe fn transpose16(rows: [__m512i; 16]) -> [__m512i; 16] {
    const EVEN: i32 = pick(0, 2, 0, 2);
    const ODD: i32 = pick(1, 3, 1, 3);
    // SAFETY: our contract.
    unsafe {
        // After the first stage, `t[g][k]` holds in its 128-bit lane `q` the words `4q + k` of
        // rows `4g..4g + 4`; the second moves lane `q` of `t[g][k]` to lane `g` of row `4q + k`.
        let mut t = [[_mm512_setzero_si512(); 4]; 4];
        for (g, t) in t.iter_mut().enumerate() {
            *t = transpose4_512([
                rows[4 * g],
                rows[4 * g + 1],
                rows[4 * g + 2],
                rows[4 * g + 3],
            ]);
        }
        let mut out = [_mm512_setzero_si512(); 16];
        for k in 0..4 {
            let s0 = _mm512_shuffle_i32x4::<EVEN>(t[0][k], t[1][k]);
            let s1 = _mm512_shuffle_i32x4::<ODD>(t[0][k], t[1][k]);
            let s2 = _mm512_shuffle_i32x4::<EVEN>(t[2][k], t[3][k]);
            let s3 = _mm512_shuffle_i32x4::<ODD>(t[2][k], t[3][k]);
            out[k] = _mm512_shuffle_i32x4::<EVEN>(s0, s2);
            out[4 + k] = _mm512_shuffle_i32x4::<EVEN>(s1, s3);
            out[8 + k] = _mm512_shuffle_i32x4::<ODD>(s0, s2);
            out[12 + k] = _mm512_shuffle_i32x4::<ODD>(s1, s3);
        }
        out
    }
}

/// Two 32-byte loads in one `__m512i`: `lo` in the low half, `hi` in the high half.
///
/// # Safety
/// AVX-512F is enabled and present; 32 bytes are readable at each pointer.
#[inline(always)]
pub(crate) unsafe fn load_pair(lo: *const u8, hi: *const u8) -> __m512i {
    // SAFETY: our contract.
    unsafe {
        _mm512_inserti64x4::<1>(
            _mm512_castsi256_si512(_mm256_loadu_si256(lo.cast())),
            _mm256_loadu_si256(hi.cast()),
        )
    }
}

/// `x`, through an empty `asm!` that takes and returns the vector in its register, which LLVM
/// cannot see through, so that it keeps an expression's order as written; it emits no
/// instruction. `#[inline] #[target_feature]` rather than `#[inline(always)]`: a vector register
/// operand needs the feature on the function itself, and such a function is inlined into
/// callers with the same features.
///
/// # Safety
/// AVX-512F is present.
#[inline]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn opaque(x: __m512i) -> __m512i {
    let mut x = x;
    // SAFETY: the template is empty: nothing runs, no memory or stack is touched, and `x` stays
    // in its register unchanged.
    unsafe { core::arch::asm!("/* {0} */", inout(zmm_reg) x, options(pure, nomem, nostack)) };
    x
}
