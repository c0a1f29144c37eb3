//! The AArch64 NEON + PMULL backend: one stream of 8-byte windows (see `window.rs`) in 128-bit
//! registers, carry-less products from `pmull` (`vmull_p64`).
//!
//! Every function here requires the CPU features `neon` and `aes` (which includes PMULL).

use core::arch::aarch64::*;

use super::bitwise;
use super::kernels::{Kernels, WINDOW};
use super::tables::PAIR_OPERANDS;
use super::window::{gf_mul, mul_window, normalize, Window};
use crate::arch::aarch64::neon::{from_u128, to_u128};
use crate::arch::clmul::ClmulLanes;

type V = uint64x2_t;

/// NEON with PMULL.
pub(crate) struct Neon;

impl Window<V> for [u8; WINDOW] {
    #[inline(always)]
    unsafe fn pair_columns(&self, i: usize) -> [V; 2] {
        // SAFETY: the caller has NEON and AES; each load reads one 16-byte `[u64; 2]`.
        unsafe {
            let x = vld1q_u64(PAIR_OPERANDS[self[i] as usize].x.as_ptr());
            let y = vld1q_u64(PAIR_OPERANDS[self[i + 1] as usize].y.as_ptr());
            [V::clmul::<0x00>(x, y), V::clmul::<0x10>(x, y)]
        }
    }
}

/// The matrix product `a * b` (row-major entries below 2^127).
#[target_feature(enable = "neon,aes")]
unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    // SAFETY: the features are enabled on this function.
    unsafe {
        let [a00, a01, a10, a11] = a.map(|x| from_u128(x));
        let [b00, b01, b10, b11] = b.map(|x| from_u128(x));
        let entry = |p: V, q: V, r: V, s: V| V::xor(gf_mul(p, q), gf_mul(r, s));
        [
            entry(a00, b00, a01, b10),
            entry(a00, b01, a01, b11),
            entry(a10, b00, a11, b10),
            entry(a10, b01, a11, b11),
        ]
        .map(|v| to_u128(v))
    }
}

/// Multiplies `state` (row-major entries below 2^127) by the matrix of `input`.
#[target_feature(enable = "neon,aes")]
unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let mut windows = input.chunks_exact(WINDOW);
    // SAFETY: the features are enabled on this function.
    unsafe {
        let mut rows = [
            [from_u128(state[0]), from_u128(state[1])],
            [from_u128(state[2]), from_u128(state[3])],
        ];
        for w in windows.by_ref() {
            let w: &[u8; WINDOW] = w.try_into().expect("8-byte window");
            mul_window(&mut rows, w);
        }
        for (out, v) in state.iter_mut().zip(rows.iter().flatten()) {
            *out = to_u128(normalize(*v));
        }
    }
    bitwise::mul_bits(state, windows.remainder());
}

impl Kernels for Neon {
    #[inline(always)]
    unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
        // SAFETY: the caller has NEON and AES (see `Kernels`).
        unsafe { mul_bytes(state, input) }
    }

    #[inline(always)]
    unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
        // SAFETY: as above.
        unsafe { mul_matrices(a, b) }
    }
}
