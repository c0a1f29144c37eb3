//! The single-stream carry-less-multiply code of the x86-64 backends, in 128-bit registers with
//! PCLMULQDQ: the whole of the SSE4.1 backend, and the AVX2 backend's short inputs, tail and
//! matrix products.
//!
//! Every function here requires the CPU features `sse4.1` and `pclmulqdq`.

use core::arch::x86_64::*;

use super::bitwise;
use super::kernels::WINDOW;
use super::tables::PAIR_OPERANDS;
use super::window::{gf_mul, mul_window, normalize, Window};
use crate::arch::clmul::ClmulLanes;

type V = __m128i;

impl Window<V> for [u8; WINDOW] {
    #[inline(always)]
    unsafe fn pair_columns(&self, i: usize) -> [V; 2] {
        // SAFETY: the caller has PCLMULQDQ; each load reads one 16-byte `[u64; 2]`.
        unsafe {
            let x = _mm_loadu_si128(PAIR_OPERANDS[self[i] as usize].x.as_ptr().cast());
            let y = _mm_loadu_si128(PAIR_OPERANDS[self[i + 1] as usize].y.as_ptr().cast());
            [V::clmul::<0x00>(x, y), V::clmul::<0x10>(x, y)]
        }
    }
}

/// The matrix product `a * b` (row-major entries below 2^127).
#[target_feature(enable = "sse4.1,pclmulqdq")]
pub(crate) unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    // SAFETY: the features are enabled on this function; u128 and __m128i have the same size.
    unsafe {
        let [a00, a01, a10, a11] = a.map(|x| core::mem::transmute::<u128, V>(x));
        let [b00, b01, b10, b11] = b.map(|x| core::mem::transmute::<u128, V>(x));
        let entry = |p: V, q: V, r: V, s: V| V::xor(gf_mul(p, q), gf_mul(r, s));
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
            let w: &[u8; WINDOW] = w.try_into().expect("8-byte window");
            mul_window(&mut rows, w);
        }
        for (out, v) in state.iter_mut().zip(rows.iter().flatten()) {
            _mm_storeu_si128((out as *mut u128).cast(), normalize(*v));
        }
    }
    bitwise::mul_bits(state, windows.remainder());
}
