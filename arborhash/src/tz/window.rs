//! The 8-byte-window algorithm of the carry-less-multiply backends, over a vector type `V`
//! ([`ClmulLanes`]) whose 128-bit lanes are independent streams: a window's matrix is built from
//! byte pairs (`tables::PAIR_OPERANDS`) in 2x2 products, and the running hash times it is kept
//! modulo x^128 + x^64 + x, a multiple of the field polynomial, until [`normalize`].

use super::tables::{PAIR_BOTTOM_MASK, PAIR_BOTTOM_SHIFT, PAIR_TOP_MASK};
use crate::arch::clmul::ClmulLanes;

/// The bytes of one window in every lane of `V`.
pub(crate) trait Window<V> {
    /// Per lane, the columns of the matrix of bytes `i` and `i + 1` (from `PAIR_OPERANDS`).
    ///
    /// # Safety
    /// The caller has the features of `V`'s [`ClmulLanes`].
    unsafe fn pair_columns(&self, i: usize) -> [V; 2];
}

/// A byte-pair matrix's rows, [m01, m00] and [m11, m10], for the left factor of a product.
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

/// A byte-pair matrix's columns, [m1j, m0j], for the right factor of a product.
#[inline(always)]
unsafe fn pair_cols<V: ClmulLanes>(cols: [V; 2]) -> [V; 2] {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let mask = V::set64(PAIR_TOP_MASK, PAIR_BOTTOM_MASK);
        cols.map(|c| V::and(V::blend_hi(V::srli64::<PAIR_BOTTOM_SHIFT>(c), c), mask))
    }
}

/// Rows times columns: entries [r00, r01, r10, r11], each in the low bits of its lane.
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

/// One window's matrix per lane; s00 has degree 64, s01 at most 64, s10 and s11 at most 63.
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

/// Reduces L + H x^64 modulo x^128 + x^64 + x, which saves folding bit 127 every window.
#[inline(always)]
unsafe fn reduce<V: ClmulLanes>(l: V, h: V) -> V {
    // SAFETY: the caller has the backend's features.
    unsafe {
        // H's high word h1 lands at x^128, and h1 x^128 = h1 x^64 + h1 x.
        let h1 = V::bsrli8(h);
        let carry = V::and(V::srli64::<63>(h), V::set64(1, 0));
        V::xor(
            V::xor(l, V::bslli8(V::xor(h, h1))),
            V::xor(V::slli64::<1>(h1), carry),
        )
    }
}

/// The field element (below 2^127) equal to `v` (below 2^128): bit 127 is x^63 + 1.
#[inline(always)]
pub(crate) unsafe fn normalize<V: ClmulLanes>(v: V) -> V {
    // SAFETY: the caller has the backend's features.
    unsafe {
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
        // hi x^128 = hi (x^64 + x), folded in before the usual reduction.
        let hi_x = V::xor(V::slli64::<1>(hi), V::srli64::<63>(V::bslli8(hi)));
        normalize(reduce(V::xor(lo, hi_x), V::xor(mid, hi)))
    }
}

#[inline(always)]
unsafe fn row_times<V: ClmulLanes>(row: [V; 2], s: &[V; 4]) -> [V; 2] {
    let [u, v] = row;
    // SAFETY: the caller has the backend's features.
    unsafe {
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

/// The running hash (rows, entries standing for their residues) times one window per lane.
#[inline(always)]
pub(crate) unsafe fn mul_window<V: ClmulLanes, W: Window<V>>(rows: &mut [[V; 2]; 2], w: &W) {
    // SAFETY: the caller has the backend's features.
    unsafe {
        let s = window_matrix(w);
        *rows = [row_times(rows[0], &s), row_times(rows[1], &s)];
    }
}
