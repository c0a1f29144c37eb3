//! The SSE4.1 + PCLMULQDQ backend: one stream of 8-byte windows (see `window.rs`) in 128-bit
//! registers.
//!
//! Every function here requires the CPU features `sse4.1` and `pclmulqdq`.

use core::arch::x86_64::*;

use super::portable;
use super::tables::PAIR_OPERANDS;
use super::window::window_kernel;

/// Bytes in a window.
const WINDOW: usize = 8;

type V = __m128i;
type Window = [u8; WINDOW];

// Lane-wise operations for `window_kernel!`. SAFETY (all): callers run with sse4.1 and pclmulqdq.

#[inline(always)]
unsafe fn clmul<const IMM: i32>(a: V, b: V) -> V {
    unsafe { _mm_clmulepi64_si128::<IMM>(a, b) }
}
#[inline(always)]
unsafe fn xor(a: V, b: V) -> V {
    unsafe { _mm_xor_si128(a, b) }
}
#[inline(always)]
unsafe fn and(a: V, b: V) -> V {
    unsafe { _mm_and_si128(a, b) }
}
#[inline(always)]
unsafe fn unpacklo64(a: V, b: V) -> V {
    unsafe { _mm_unpacklo_epi64(a, b) }
}
#[inline(always)]
unsafe fn unpackhi64(a: V, b: V) -> V {
    unsafe { _mm_unpackhi_epi64(a, b) }
}
#[inline(always)]
unsafe fn srli64<const N: i32>(a: V) -> V {
    unsafe { _mm_srli_epi64::<N>(a) }
}
#[inline(always)]
unsafe fn slli64<const N: i32>(a: V) -> V {
    unsafe { _mm_slli_epi64::<N>(a) }
}
#[inline(always)]
unsafe fn srai32<const N: i32>(a: V) -> V {
    unsafe { _mm_srai_epi32::<N>(a) }
}
/// Shifts each 128-bit lane right by 8 bytes.
#[inline(always)]
unsafe fn bsrli8(a: V) -> V {
    unsafe { _mm_srli_si128::<8>(a) }
}
/// Shifts each 128-bit lane left by 8 bytes.
#[inline(always)]
unsafe fn bslli8(a: V) -> V {
    unsafe { _mm_slli_si128::<8>(a) }
}
/// The low word of `a` and the high word of `b`.
#[inline(always)]
unsafe fn blend_hi(a: V, b: V) -> V {
    unsafe { _mm_blend_epi16::<0xF0>(a, b) }
}
/// Dword 3 of each lane in all four dwords.
#[inline(always)]
unsafe fn top_dword(a: V) -> V {
    unsafe { _mm_shuffle_epi32::<0xFF>(a) }
}
#[inline(always)]
unsafe fn sub64(a: V, b: V) -> V {
    unsafe { _mm_sub_epi64(a, b) }
}
#[inline(always)]
unsafe fn zero() -> V {
    unsafe { _mm_setzero_si128() }
}
#[inline(always)]
unsafe fn splat64(x: u64) -> V {
    unsafe { _mm_set1_epi64x(x as i64) }
}
/// Each lane [lo, hi].
#[inline(always)]
unsafe fn set64(hi: u64, lo: u64) -> V {
    unsafe { _mm_set_epi64x(hi as i64, lo as i64) }
}
#[inline(always)]
unsafe fn load(words: &[u64; 2]) -> V {
    // `words` is 16 readable bytes.
    unsafe { _mm_loadu_si128(words.as_ptr().cast()) }
}
#[inline(always)]
unsafe fn pair_columns(w: &Window, i: usize) -> [V; 2] {
    unsafe {
        let x = load(&PAIR_OPERANDS[w[i] as usize].x);
        let y = load(&PAIR_OPERANDS[w[i + 1] as usize].y);
        [clmul::<0x00>(x, y), clmul::<0x10>(x, y)]
    }
}

window_kernel!();

/// The matrix product `a * b` (row-major entries below 2^127).
///
/// # Safety
/// The CPU must support SSE4.1 and PCLMULQDQ.
#[target_feature(enable = "sse4.1,pclmulqdq")]
pub(crate) unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    // SAFETY: the features are enabled on this function; u128 and __m128i have the same size.
    unsafe {
        let [a00, a01, a10, a11] = a.map(|x| core::mem::transmute::<u128, V>(x));
        let [b00, b01, b10, b11] = b.map(|x| core::mem::transmute::<u128, V>(x));
        let entry = |p: V, q: V, r: V, s: V| xor(gf_mul(p, q), gf_mul(r, s));
        [
            entry(a00, b00, a01, b10),
            entry(a00, b01, a01, b11),
            entry(a10, b00, a11, b10),
            entry(a10, b01, a11, b11),
        ]
        .map(|v| core::mem::transmute::<V, u128>(v))
    }
}

/// Multiplies `state` (row-major entries below 2^127) by the matrix of `input`.
///
/// # Safety
/// The CPU must support SSE4.1 and PCLMULQDQ.
#[target_feature(enable = "sse4.1,pclmulqdq")]
pub(crate) unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let mut windows = input.chunks_exact(WINDOW);
    // SAFETY: the features are enabled on this function; each load and store covers one u128.
    unsafe {
        let ld = |x: &u128| _mm_loadu_si128((x as *const u128).cast());
        let mut rows = [
            [ld(&state[0]), ld(&state[1])],
            [ld(&state[2]), ld(&state[3])],
        ];
        for w in windows.by_ref() {
            mul_window(&mut rows, w.try_into().expect("8-byte window"));
        }
        for (out, v) in state.iter_mut().zip(rows.iter().flatten()) {
            _mm_storeu_si128((out as *mut u128).cast(), normalize(*v));
        }
    }
    portable::mul_bits(state, windows.remainder());
}
