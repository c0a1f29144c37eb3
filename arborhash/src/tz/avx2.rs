//! The AVX2 + VPCLMULQDQ backend: two streams of 8-byte windows (see `window.rs`), one per
//! 128-bit lane of 256-bit registers. The input is cut into two halves hashed side by side, and
//! the two products are multiplied at the end.
//!
//! Every function here requires the CPU features `avx2`, `pclmulqdq` and `vpclmulqdq`.

use core::arch::x86_64::*;

use super::sse41;
use super::tables::PAIR_OPERANDS;
use super::window::window_kernel;

/// Bytes in a window.
const WINDOW: usize = 8;
/// Below this many windows per half, the single-stream code is as fast (splitting costs a matrix
/// product).
const MIN_WINDOWS_PER_LANE: usize = 16;

type V = __m256i;
/// The same window position in each of the two streams.
type Window<'a> = [&'a [u8; WINDOW]; 2];

// Lane-wise operations for `window_kernel!`. SAFETY (all): callers run with avx2, pclmulqdq and vpclmulqdq.

#[inline(always)]
unsafe fn clmul<const IMM: i32>(a: V, b: V) -> V {
    unsafe { _mm256_clmulepi64_epi128::<IMM>(a, b) }
}
#[inline(always)]
unsafe fn xor(a: V, b: V) -> V {
    unsafe { _mm256_xor_si256(a, b) }
}
#[inline(always)]
unsafe fn and(a: V, b: V) -> V {
    unsafe { _mm256_and_si256(a, b) }
}
#[inline(always)]
unsafe fn unpacklo64(a: V, b: V) -> V {
    unsafe { _mm256_unpacklo_epi64(a, b) }
}
#[inline(always)]
unsafe fn unpackhi64(a: V, b: V) -> V {
    unsafe { _mm256_unpackhi_epi64(a, b) }
}
#[inline(always)]
unsafe fn srli64<const N: i32>(a: V) -> V {
    unsafe { _mm256_srli_epi64::<N>(a) }
}
#[inline(always)]
unsafe fn slli64<const N: i32>(a: V) -> V {
    unsafe { _mm256_slli_epi64::<N>(a) }
}
#[inline(always)]
unsafe fn srai32<const N: i32>(a: V) -> V {
    unsafe { _mm256_srai_epi32::<N>(a) }
}
/// Shifts each 128-bit lane right by 8 bytes.
#[inline(always)]
unsafe fn bsrli8(a: V) -> V {
    unsafe { _mm256_bsrli_epi128::<8>(a) }
}
/// Shifts each 128-bit lane left by 8 bytes.
#[inline(always)]
unsafe fn bslli8(a: V) -> V {
    unsafe { _mm256_bslli_epi128::<8>(a) }
}
/// The low word of `a` and the high word of `b`.
#[inline(always)]
unsafe fn blend_hi(a: V, b: V) -> V {
    unsafe { _mm256_blend_epi32::<0xCC>(a, b) }
}
/// Dword 3 of each lane in all four dwords.
#[inline(always)]
unsafe fn top_dword(a: V) -> V {
    unsafe { _mm256_shuffle_epi32::<0xFF>(a) }
}
#[inline(always)]
unsafe fn sub64(a: V, b: V) -> V {
    unsafe { _mm256_sub_epi64(a, b) }
}
#[inline(always)]
unsafe fn zero() -> V {
    unsafe { _mm256_setzero_si256() }
}
#[inline(always)]
unsafe fn splat64(x: u64) -> V {
    unsafe { _mm256_set1_epi64x(x as i64) }
}
/// Each lane [lo, hi].
#[inline(always)]
unsafe fn set64(hi: u64, lo: u64) -> V {
    unsafe { _mm256_set_epi64x(hi as i64, lo as i64, hi as i64, lo as i64) }
}
/// Lane 0 from `lo`, lane 1 from `hi`.
#[inline(always)]
unsafe fn load2(lo: &[u64; 2], hi: &[u64; 2]) -> V {
    // Each is 16 readable bytes.
    unsafe { _mm256_loadu2_m128i(hi.as_ptr().cast(), lo.as_ptr().cast()) }
}
#[inline(always)]
unsafe fn pair_columns(w: &Window, i: usize) -> [V; 2] {
    let t = |lane: usize, j: usize| &PAIR_OPERANDS[w[lane][j] as usize];
    unsafe {
        let x = load2(&t(0, i).x, &t(1, i).x);
        let y = load2(&t(0, i + 1).y, &t(1, i + 1).y);
        [clmul::<0x00>(x, y), clmul::<0x10>(x, y)]
    }
}

window_kernel!();

/// Multiplies `state` (row-major entries below 2^127) by the matrix of `input`.
///
/// # Safety
/// The CPU must support AVX2, PCLMULQDQ and VPCLMULQDQ.
#[target_feature(enable = "avx2,pclmulqdq,vpclmulqdq")]
pub(crate) unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let per_lane = input.len() / WINDOW / 2 * WINDOW;
    if per_lane < MIN_WINDOWS_PER_LANE * WINDOW {
        // SAFETY: AVX2 implies SSE4.1; PCLMULQDQ is enabled.
        return unsafe { sse41::mul_bytes(state, input) };
    }
    let (first, rest) = input.split_at(per_lane);
    let (second, tail) = rest.split_at(per_lane);
    let identity: [u128; 4] = [1, 0, 0, 1];
    let mut products = [*state, identity];
    // SAFETY: the features are enabled on this function; each load and store covers two u128s.
    unsafe {
        let ld = |i: usize| {
            _mm256_loadu2_m128i(
                (&products[1][i] as *const u128).cast(),
                (&products[0][i] as *const u128).cast(),
            )
        };
        let mut rows = [[ld(0), ld(1)], [ld(2), ld(3)]];
        for (a, b) in first.chunks_exact(WINDOW).zip(second.chunks_exact(WINDOW)) {
            let w: Window = [a.try_into().expect("window"), b.try_into().expect("window")];
            mul_window(&mut rows, &w);
        }
        for (i, v) in rows.iter().flatten().enumerate() {
            let [lo, hi] = core::mem::transmute::<V, [u128; 2]>(normalize(*v));
            products[0][i] = lo;
            products[1][i] = hi;
        }
        *state = sse41::mul_matrices(&products[0], &products[1]);
        sse41::mul_bytes(state, tail);
    }
}
