//! The AVX2 + VPCLMULQDQ backend: two streams of 8-byte windows (see `window.rs`), one per
//! 128-bit lane of 256-bit registers. The input is cut into two halves hashed side by side, and
//! the two products are multiplied at the end.
//!
//! Every function here requires the CPU features `avx2`, `pclmulqdq` and `vpclmulqdq`.

use core::arch::x86_64::*;

use super::kernels::{Kernels, WINDOW};
use super::tables::PAIR_OPERANDS;
use super::window::{mul_window, normalize, Window};
use super::x86;
use crate::arch::clmul::ClmulLanes;

/// Below this many windows per half, the single-stream code is as fast (splitting costs a matrix
/// product).
const MIN_WINDOWS_PER_LANE: usize = 16;

type V = __m256i;

/// AVX2 with VPCLMULQDQ (and PCLMULQDQ).
pub(crate) struct Avx2;

/// The same window position in each of the two streams.
struct TwoWindows<'a>([&'a [u8; WINDOW]; 2]);

impl Window<V> for TwoWindows<'_> {
    #[inline(always)]
    unsafe fn pair_columns(&self, i: usize) -> [V; 2] {
        let t = |lane: usize, j: usize| &PAIR_OPERANDS[self.0[lane][j] as usize];
        // SAFETY: the caller has AVX2 and VPCLMULQDQ; each half reads one `[u64; 2]`.
        unsafe {
            let x = _mm256_loadu2_m128i(t(1, i).x.as_ptr().cast(), t(0, i).x.as_ptr().cast());
            let y =
                _mm256_loadu2_m128i(t(1, i + 1).y.as_ptr().cast(), t(0, i + 1).y.as_ptr().cast());
            [V::clmul::<0x00>(x, y), V::clmul::<0x10>(x, y)]
        }
    }
}

/// Multiplies `state` (row-major entries below 2^127) by the matrix of `input`.
#[target_feature(enable = "avx2,pclmulqdq,vpclmulqdq")]
unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let per_lane = input.len() / WINDOW / 2 * WINDOW;
    if per_lane < MIN_WINDOWS_PER_LANE * WINDOW {
        // SAFETY: AVX2 implies SSE4.1; PCLMULQDQ is enabled.
        return unsafe { x86::mul_bytes(state, input) };
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
            let w = TwoWindows([a.try_into().expect("window"), b.try_into().expect("window")]);
            mul_window(&mut rows, &w);
        }
        for (i, v) in rows.iter().flatten().enumerate() {
            let [lo, hi] = core::mem::transmute::<V, [u128; 2]>(normalize(*v));
            products[0][i] = lo;
            products[1][i] = hi;
        }
        *state = x86::mul_matrices(&products[0], &products[1]);
        x86::mul_bytes(state, tail);
    }
}

impl Kernels for Avx2 {
    #[inline(always)]
    unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
        // SAFETY: the caller has AVX2, PCLMULQDQ and VPCLMULQDQ (see `Kernels`).
        unsafe { mul_bytes(state, input) }
    }

    #[inline(always)]
    unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
        // SAFETY: AVX2 implies SSE4.1; the caller has PCLMULQDQ.
        unsafe { x86::mul_matrices(a, b) }
    }
}
