//! The SSE4.1 + PCLMULQDQ backend: 8-byte windows multiplied up from byte tables with carry-less
//! multiplication, one reduction per entry and window.
//!
//! Every function here requires the CPU features `sse4.1` and `pclmulqdq`.
//!
//! A window of bytes d0..d7 is turned into its matrix in three levels, each a 2x2 product whose
//! entries are sums of two carry-less products:
//! 1. byte pairs: `tables::PAIR_OPERANDS` packs the two byte matrices so that one 64x64-bit product
//!    gives a whole column of M(d0) M(d1) (entries of degree at most 16);
//! 2. four-byte matrices (degree at most 32): the left factor as rows, the right one as columns,
//!    two entries per 128-bit register, so an entry is two products XORed;
//! 3. the window matrix (degree at most 64, only the top row reaching 64), the same way.
//!
//! The running hash (entries below 2^127) is then multiplied by the window matrix: each new entry
//! u*s + v*t is four 64x64-bit products plus u*x^64 for the degree-64 term, a value of up to 191
//! bits reduced once.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::portable;
use super::tables::{
    PairOperands, PAIR_BOTTOM_MASK, PAIR_BOTTOM_SHIFT, PAIR_OPERANDS, PAIR_TOP_MASK,
};

/// Bytes in a window.
pub(crate) const WINDOW: usize = 8;

/// Carry-less product of the selected 64-bit halves (`IMM` bit 0: of `a`, bit 4: of `b`).
#[inline(always)]
unsafe fn clmul<const IMM: i32>(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: callers run with pclmulqdq enabled.
    unsafe { _mm_clmulepi64_si128::<IMM>(a, b) }
}

#[inline(always)]
unsafe fn xor(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_xor_si128(a, b) }
}

#[inline(always)]
unsafe fn and(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_and_si128(a, b) }
}

#[inline(always)]
unsafe fn load(ops: &[u64; 2]) -> __m128i {
    // SAFETY: `ops` is 16 readable bytes.
    unsafe { _mm_loadu_si128(ops.as_ptr().cast()) }
}

/// The columns of M(d0) M(d1): for j in 0..2, the top entry in bits 64.. and the bottom entry at
/// bit `PAIR_BOTTOM_SHIFT` of column j (with unrelated bits around both).
#[inline(always)]
unsafe fn pair_columns(left: &PairOperands, right: &PairOperands) -> [__m128i; 2] {
    // SAFETY: the caller has sse4.1 and pclmulqdq.
    unsafe {
        let (x, y) = (load(&left.x), load(&right.y));
        [clmul::<0x00>(x, y), clmul::<0x10>(x, y)]
    }
}

/// A byte-pair matrix as the left factor of a product: its rows, [m01, m00] and [m11, m10].
#[inline(always)]
unsafe fn pair_rows(cols: [__m128i; 2]) -> [__m128i; 2] {
    // SAFETY: the caller has sse4.1.
    unsafe {
        let top = _mm_unpackhi_epi64(cols[1], cols[0]);
        let bottom = _mm_srli_epi64::<PAIR_BOTTOM_SHIFT>(_mm_unpacklo_epi64(cols[1], cols[0]));
        [
            and(top, _mm_set1_epi64x(PAIR_TOP_MASK as i64)),
            and(bottom, _mm_set1_epi64x(PAIR_BOTTOM_MASK as i64)),
        ]
    }
}

/// A byte-pair matrix as the right factor of a product: its columns, [m1j, m0j] for j = 0, 1.
#[inline(always)]
unsafe fn pair_cols(cols: [__m128i; 2]) -> [__m128i; 2] {
    // SAFETY: the caller has sse4.1.
    unsafe {
        let mask = _mm_set_epi64x(PAIR_TOP_MASK as i64, PAIR_BOTTOM_MASK as i64);
        cols.map(|c| {
            let bottom = _mm_srli_epi64::<PAIR_BOTTOM_SHIFT>(c);
            and(_mm_blend_epi16::<0xF0>(bottom, c), mask)
        })
    }
}

/// The product of a matrix given by `rows` ([m_i1, m_i0]) and one given by `cols` ([m_1j, m_0j]):
/// entries [r00, r01, r10, r11], each in the low bits of its register.
#[inline(always)]
unsafe fn product(rows: [__m128i; 2], cols: [__m128i; 2]) -> [__m128i; 4] {
    // SAFETY: the caller has pclmulqdq.
    unsafe {
        let entry = |r: __m128i, c: __m128i| xor(clmul::<0x00>(r, c), clmul::<0x11>(r, c));
        [
            entry(rows[0], cols[0]),
            entry(rows[0], cols[1]),
            entry(rows[1], cols[0]),
            entry(rows[1], cols[1]),
        ]
    }
}

/// Rows [m_i1, m_i0] of a matrix whose entries (below 2^64) are in the low words of `m`.
#[inline(always)]
unsafe fn rows_of(m: [__m128i; 4]) -> [__m128i; 2] {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        [
            _mm_unpacklo_epi64(m[1], m[0]),
            _mm_unpacklo_epi64(m[3], m[2]),
        ]
    }
}

/// Columns [m_1j, m_0j] of a matrix whose entries (below 2^64) are in the low words of `m`.
#[inline(always)]
unsafe fn cols_of(m: [__m128i; 4]) -> [__m128i; 2] {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        [
            _mm_unpacklo_epi64(m[2], m[0]),
            _mm_unpacklo_epi64(m[3], m[1]),
        ]
    }
}

/// The matrix of an 8-byte window: entries [s00, s01, s10, s11] as 128-bit polynomials, s00 and
/// s01 of degree at most 64, s10 and s11 at most 63.
#[inline(always)]
unsafe fn window_matrix(w: &[u8; WINDOW]) -> [__m128i; 4] {
    let t = |i: usize| &PAIR_OPERANDS[w[i] as usize];
    // SAFETY: the caller has sse4.1 and pclmulqdq.
    unsafe {
        let p0 = pair_rows(pair_columns(t(0), t(1)));
        let p1 = pair_cols(pair_columns(t(2), t(3)));
        let p2 = pair_rows(pair_columns(t(4), t(5)));
        let p3 = pair_cols(pair_columns(t(6), t(7)));
        let left = rows_of(product(p0, p1));
        let right = cols_of(product(p2, p3));
        product(left, right)
    }
}

/// Reduces L + H x^64 (L below 2^128, H below 2^127) modulo x^127 + x^63 + 1.
#[inline(always)]
unsafe fn reduce(l: __m128i, h: __m128i) -> __m128i {
    // SAFETY: the caller has sse4.1.
    unsafe {
        // The word of H that lands at x^128 and up: h1 x^128 = h1 (x^64 + x) mod the modulus.
        let h1 = _mm_srli_si128::<8>(h);
        let v = xor(
            xor(l, _mm_slli_si128::<8>(xor(h, h1))),
            _mm_slli_epi64::<1>(h1),
        );
        // Now below 2^128; bit 127 is x^63 + 1. Broadcast it and fold it in (XOR clears it).
        let top = _mm_shuffle_epi32::<0xFF>(_mm_srai_epi32::<31>(v));
        let fold = _mm_set_epi64x(i64::MIN, i64::MIN | 1);
        xor(v, and(top, fold))
    }
}

/// One row (u, v) of the running hash times the window matrix `s`; `top_mask` is all ones where
/// s01 has its degree-64 bit (s00 always does).
#[inline(always)]
unsafe fn row_times(row: [__m128i; 2], s: &[__m128i; 4], top_mask: __m128i) -> [__m128i; 2] {
    let [u, v] = row;
    // SAFETY: the caller has sse4.1 and pclmulqdq.
    unsafe {
        let l0 = xor(clmul::<0x00>(u, s[0]), clmul::<0x00>(v, s[2]));
        let h0 = xor(xor(clmul::<0x01>(u, s[0]), clmul::<0x01>(v, s[2])), u);
        let l1 = xor(clmul::<0x00>(u, s[1]), clmul::<0x00>(v, s[3]));
        let h1 = xor(
            xor(clmul::<0x01>(u, s[1]), clmul::<0x01>(v, s[3])),
            and(u, top_mask),
        );
        [reduce(l0, h0), reduce(l1, h1)]
    }
}

/// Multiplies `state` (row-major entries below 2^127) by the matrix of `input`.
///
/// # Safety
/// The CPU must support SSE4.1 and PCLMULQDQ.
#[target_feature(enable = "sse4.1,pclmulqdq")]
pub(crate) unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let mut windows = input.chunks_exact(WINDOW);
    // SAFETY: the features are enabled on this function; loads read 16 bytes of a u128.
    unsafe {
        let ld = |x: &u128| _mm_loadu_si128((x as *const u128).cast());
        let mut rows = [
            [ld(&state[0]), ld(&state[1])],
            [ld(&state[2]), ld(&state[3])],
        ];
        for w in windows.by_ref() {
            let s = window_matrix(w.try_into().expect("window"));
            let top_mask = _mm_sub_epi64(_mm_setzero_si128(), _mm_unpackhi_epi64(s[1], s[1]));
            rows = [
                row_times(rows[0], &s, top_mask),
                row_times(rows[1], &s, top_mask),
            ];
        }
        for (out, v) in state.iter_mut().zip(rows.iter().flatten()) {
            _mm_storeu_si128((out as *mut u128).cast(), *v);
        }
    }
    portable::mul_bytes(state, windows.remainder());
}
