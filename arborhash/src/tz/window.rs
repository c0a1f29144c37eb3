//! The 8-byte-window algorithm shared by the carry-less-multiply backends, written once over a
//! vector type `V` ([`ClmulLanes`]) whose 128-bit lanes are independent streams.
//!
//! A backend provides `V` and a [`Window`] type (the bytes of one window for every lane); this
//! file provides [`mul_window`] (the running hash times one window matrix per lane), [`gf_mul`]
//! (field elements' products per lane) and [`normalize`].
//!
//! How a window of bytes d0..d7 becomes its matrix, in three levels, each a 2x2 product whose
//! entries are sums of two carry-less products:
//! 1. byte pairs: `tables::PAIR_OPERANDS` packs two byte matrices so that one 64x64-bit product
//!    gives a whole column of M(d0) M(d1) (entries of degree at most 16);
//! 2. four-byte matrices (degree at most 32): the left factor as rows, the right one as columns,
//!    two entries per 128-bit lane, so that an entry is two products XORed;
//! 3. the window matrix (degree at most 64, only the top row reaching 64), the same way.
//!
//! The running hash is then multiplied by the window matrix: each new entry u*s + v*t is four
//! 64x64-bit products plus u*x^64 for a degree-64 term, a value of up to 192 bits reduced once to
//! 128 bits modulo x^128 + x^64 + x (a multiple of the field polynomial); `normalize` gives the
//! field element at the end.

use super::tables::{PAIR_BOTTOM_MASK, PAIR_BOTTOM_SHIFT, PAIR_TOP_MASK};
use crate::arch::clmul::ClmulLanes;

/// The bytes of one window in every lane of `V`.
pub(crate) trait Window<V> {
    /// Per lane, the carry-less products of `PAIR_OPERANDS[byte i].x` and
    /// `PAIR_OPERANDS[byte i + 1].y` (low and high word): the columns of the pair's matrix.
    ///
    /// # Safety
    /// The caller has the features of `V`'s [`ClmulLanes`].
    unsafe fn pair_columns(&self, i: usize) -> [V; 2];
}

/// A byte-pair matrix as the left factor of a product: its rows, [m01, m00] and
/// [m11, m10].
#[inline(always)]
unsafe fn pair_rows<V: ClmulLanes>(cols: [V; 2]) -> [V; 2] {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let top = V::unpackhi64(cols[1], cols[0]);
        let bottom = V::srli64::<PAIR_BOTTOM_SHIFT>(V::unpacklo64(cols[1], cols[0]));
        [
            V::and(top, V::splat64(PAIR_TOP_MASK)),
            V::and(bottom, V::splat64(PAIR_BOTTOM_MASK)),
        ]
    }
}

/// A byte-pair matrix as the right factor of a product: its columns, [m1j, m0j].
#[inline(always)]
unsafe fn pair_cols<V: ClmulLanes>(cols: [V; 2]) -> [V; 2] {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let mask = V::set64(PAIR_TOP_MASK, PAIR_BOTTOM_MASK);
        cols.map(|c| V::and(V::blend_hi(V::srli64::<PAIR_BOTTOM_SHIFT>(c), c), mask))
    }
}

/// The product of a matrix given by rows ([m_i1, m_i0]) and one given by columns
/// ([m_1j, m_0j]): entries [r00, r01, r10, r11], each in the low bits of its lane.
#[inline(always)]
unsafe fn product<V: ClmulLanes>(rows: [V; 2], cols: [V; 2]) -> [V; 4] {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let entry = |r: V, c: V| V::xor(V::clmul::<0x00>(r, c), V::clmul::<0x11>(r, c));
        [
            entry(rows[0], cols[0]),
            entry(rows[0], cols[1]),
            entry(rows[1], cols[0]),
            entry(rows[1], cols[1]),
        ]
    }
}

/// The matrix of one window per lane: entries [s00, s01, s10, s11] as 128-bit
/// polynomials, s00 and s01 of degree at most 64 (s00 exactly 64), s10 and s11 at most 63.
#[inline(always)]
unsafe fn window_matrix<V: ClmulLanes, W: Window<V>>(w: &W) -> [V; 4] {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let p0 = pair_rows(w.pair_columns(0));
        let p1 = pair_cols(w.pair_columns(2));
        let p2 = pair_rows(w.pair_columns(4));
        let p3 = pair_cols(w.pair_columns(6));
        let [a00, a01, a10, a11] = product(p0, p1);
        let [b00, b01, b10, b11] = product(p2, p3);
        let left = [V::unpacklo64(a01, a00), V::unpacklo64(a11, a10)];
        let right = [V::unpacklo64(b10, b00), V::unpacklo64(b11, b01)];
        product(left, right)
    }
}

/// Reduces L + H x^64 (L and H below 2^128) modulo x (x^127 + x^63 + 1) =
/// x^128 + x^64 + x, to a value below 2^128 (see `normalize` for the field element).
///
/// Working modulo that multiple of the field polynomial saves the fold of bit 127, and
/// one shuffle, per entry and window.
#[inline(always)]
unsafe fn reduce<V: ClmulLanes>(l: V, h: V) -> V {
    // SAFETY: the caller has the backend's features.
    unsafe {
        // H's high word h1 lands at x^128: h1 x^128 = h1 x^64 + h1 x, where h1 x may
        // carry one bit into the high word.
        let h1 = V::bsrli8(h);
        let carry = V::and(V::srli64::<63>(h), V::set64(1, 0));
        V::xor(
            V::xor(l, V::bslli8(V::xor(h, h1))),
            V::xor(V::slli64::<1>(h1), carry),
        )
    }
}

/// The field element (below 2^127) equal to `v` (below 2^128) modulo
/// x^127 + x^63 + 1: bit 127 is x^63 + 1.
#[inline(always)]
pub(crate) unsafe fn normalize<V: ClmulLanes>(v: V) -> V {
    // SAFETY: the caller has the backend's features.
    unsafe {
        // Broadcast bit 127 of each lane and fold it in (the XOR also clears it).
        let top = V::top_dword(V::srai32::<31>(v));
        V::xor(v, V::and(top, V::set64(1 << 63, (1 << 63) | 1)))
    }
}

/// The product of two field elements (below 2^127) per lane.
#[inline(always)]
pub(crate) unsafe fn gf_mul<V: ClmulLanes>(a: V, b: V) -> V {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let lo = V::clmul::<0x00>(a, b);
        let hi = V::clmul::<0x11>(a, b);
        let mid = V::xor(V::clmul::<0x01>(a, b), V::clmul::<0x10>(a, b));
        // lo + mid x^64 + hi x^128, and hi x^128 = hi (x^64 + x): fold hi (below 2^126)
        // into both before the usual reduction.
        let hi_x = V::xor(V::slli64::<1>(hi), V::srli64::<63>(V::bslli8(hi)));
        normalize(reduce(V::xor(lo, hi_x), V::xor(mid, hi)))
    }
}

/// One row (u, v) of the running hash times the window matrix `s`.
#[inline(always)]
unsafe fn row_times<V: ClmulLanes>(row: [V; 2], s: &[V; 4]) -> [V; 2] {
    let [u, v] = row;
    // SAFETY: the caller has the backend's features.
    unsafe {
        // All ones where s01 has its degree-64 bit (s00 always does).
        let top01 = V::sub64(V::zero(), V::unpackhi64(s[1], s[1]));
        let l0 = V::xor(V::clmul::<0x00>(u, s[0]), V::clmul::<0x00>(v, s[2]));
        let h0 = V::xor(
            V::xor(V::clmul::<0x01>(u, s[0]), V::clmul::<0x01>(v, s[2])),
            u,
        );
        let l1 = V::xor(V::clmul::<0x00>(u, s[1]), V::clmul::<0x00>(v, s[3]));
        let h1 = V::xor(
            V::xor(V::clmul::<0x01>(u, s[1]), V::clmul::<0x01>(v, s[3])),
            V::and(u, top01),
        );
        [reduce(l0, h0), reduce(l1, h1)]
    }
}

/// The running hash (rows [[a, b], [c, d]], entries below 2^128 standing for their
/// residues) times the matrix of one window per lane.
#[inline(always)]
pub(crate) unsafe fn mul_window<V: ClmulLanes, W: Window<V>>(rows: &mut [[V; 2]; 2], w: &W) {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let s = window_matrix(w);
        *rows = [row_times(rows[0], &s), row_times(rows[1], &s)];
    }
}
