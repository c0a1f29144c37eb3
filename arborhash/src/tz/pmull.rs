//! The AArch64 NEON + PMULL backend: one stream of 8-byte windows (see `window.rs`) in 128-bit
//! registers, carry-less products from `pmull` (`vmull_p64`).
//!
//! Every function here requires the CPU features `neon` and `aes` (which includes PMULL).

use core::arch::aarch64::*;

use super::portable;
use super::tables::PAIR_OPERANDS;
use super::window::window_kernel;

/// Bytes in a window.
const WINDOW: usize = 8;

type V = uint64x2_t;
type Window = [u8; WINDOW];

// Lane-wise operations for `window_kernel!`, with the meaning of their x86 namesakes (word 0 is
// the low one). SAFETY (all): callers run with neon and aes.

/// The carry-less product of a's word `IMM & 1` and b's word `(IMM >> 4) & 1`. (`vmull_p64`
/// is inlined only into code with its features, hence theirs here and `#[inline]`.)
#[inline]
#[target_feature(enable = "neon,aes")]
unsafe fn clmul<const IMM: i32>(a: V, b: V) -> V {
    let x = if IMM & 0x01 == 0 {
        vgetq_lane_u64::<0>(a)
    } else {
        vgetq_lane_u64::<1>(a)
    };
    let y = if IMM & 0x10 == 0 {
        vgetq_lane_u64::<0>(b)
    } else {
        vgetq_lane_u64::<1>(b)
    };
    vreinterpretq_u64_p128(vmull_p64(x, y))
}
#[inline(always)]
unsafe fn xor(a: V, b: V) -> V {
    unsafe { veorq_u64(a, b) }
}
#[inline(always)]
unsafe fn and(a: V, b: V) -> V {
    unsafe { vandq_u64(a, b) }
}
/// [a0, b0].
#[inline(always)]
unsafe fn unpacklo64(a: V, b: V) -> V {
    unsafe { vtrn1q_u64(a, b) }
}
/// [a1, b1].
#[inline(always)]
unsafe fn unpackhi64(a: V, b: V) -> V {
    unsafe { vtrn2q_u64(a, b) }
}
#[inline(always)]
unsafe fn srli64<const N: i32>(a: V) -> V {
    unsafe { vshrq_n_u64::<N>(a) }
}
#[inline(always)]
unsafe fn slli64<const N: i32>(a: V) -> V {
    unsafe { vshlq_n_u64::<N>(a) }
}
#[inline(always)]
unsafe fn srai32<const N: i32>(a: V) -> V {
    unsafe { vreinterpretq_u64_s32(vshrq_n_s32::<N>(vreinterpretq_s32_u64(a))) }
}
/// Shifts the register right by 8 bytes.
#[inline(always)]
unsafe fn bsrli8(a: V) -> V {
    unsafe { vextq_u64::<1>(a, zero()) }
}
/// Shifts the register left by 8 bytes.
#[inline(always)]
unsafe fn bslli8(a: V) -> V {
    unsafe { vextq_u64::<1>(zero(), a) }
}
/// The low word of `a` and the high word of `b`.
#[inline(always)]
unsafe fn blend_hi(a: V, b: V) -> V {
    unsafe { vcopyq_laneq_u64::<1, 1>(a, b) }
}
/// Dword 3 in all four dwords.
#[inline(always)]
unsafe fn top_dword(a: V) -> V {
    unsafe { vreinterpretq_u64_u32(vdupq_laneq_u32::<3>(vreinterpretq_u32_u64(a))) }
}
#[inline(always)]
unsafe fn sub64(a: V, b: V) -> V {
    unsafe { vsubq_u64(a, b) }
}
#[inline(always)]
unsafe fn zero() -> V {
    unsafe { vdupq_n_u64(0) }
}
#[inline(always)]
unsafe fn splat64(x: u64) -> V {
    unsafe { vdupq_n_u64(x) }
}
/// [lo, hi].
#[inline(always)]
unsafe fn set64(hi: u64, lo: u64) -> V {
    unsafe { vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)) }
}
#[inline(always)]
unsafe fn load(words: &[u64; 2]) -> V {
    // `words` is 16 readable bytes.
    unsafe { vld1q_u64(words.as_ptr()) }
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

/// A `u128` as a vector: word 0 its low half.
#[inline(always)]
unsafe fn from_u128(x: u128) -> V {
    unsafe { set64((x >> 64) as u64, x as u64) }
}

/// A vector as a `u128`.
#[inline(always)]
unsafe fn to_u128(v: V) -> u128 {
    unsafe { u128::from(vgetq_lane_u64::<0>(v)) | (u128::from(vgetq_lane_u64::<1>(v)) << 64) }
}

/// The matrix product `a * b` (row-major entries below 2^127).
///
/// # Safety
/// The CPU must support NEON and AES (PMULL).
#[target_feature(enable = "neon,aes")]
pub(crate) unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    // SAFETY: the features are enabled on this function.
    unsafe {
        let [a00, a01, a10, a11] = a.map(|x| from_u128(x));
        let [b00, b01, b10, b11] = b.map(|x| from_u128(x));
        let entry = |p: V, q: V, r: V, s: V| xor(gf_mul(p, q), gf_mul(r, s));
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
///
/// # Safety
/// The CPU must support NEON and AES (PMULL).
#[target_feature(enable = "neon,aes")]
pub(crate) unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let mut windows = input.chunks_exact(WINDOW);
    // SAFETY: the features are enabled on this function.
    unsafe {
        let mut rows = [
            [from_u128(state[0]), from_u128(state[1])],
            [from_u128(state[2]), from_u128(state[3])],
        ];
        for w in windows.by_ref() {
            mul_window(&mut rows, w.try_into().expect("8-byte window"));
        }
        for (out, v) in state.iter_mut().zip(rows.iter().flatten()) {
            *out = to_u128(normalize(*v));
        }
    }
    portable::mul_bits(state, windows.remainder());
}
