//! General-register code the backends share: a matrix times an input one bit at a time, with no
//! tables and no data-dependent branches, for short inputs and partial windows; and the product.

use super::gf127::{product_sum, Gf127, Left, Right};

/// x^63 + 1, what x^127 reduces to.
const REDUCTION: u128 = (1 << 63) | 1;

/// Multiplies the matrix `state` (row-major entries of degree below 127) by the matrix of every
/// bit of `input`, in order, most significant bit of each byte first.
pub(crate) fn mul_bits(state: &mut [u128; 4], input: &[u8]) {
    // Entries are kept modulo x^128 + x^64 + x so multiplying by x needs no mask.
    let mut m = *state;
    for &byte in input {
        for shift in (0..8).rev() {
            // All ones for a 1 bit (matrix B), zero for a 0 bit (matrix A).
            let one = 0u128.wrapping_sub(((byte >> shift) & 1) as u128);
            // Row (u, v) times A is (u*x + v, u); times B it is (u*x + v, u*x + v + u).
            for row in [0, 2] {
                let (u, v) = (m[row], m[row + 1]);
                let carry = u >> 127;
                let next = (u << 1) ^ (carry << 64) ^ (carry << 1) ^ v;
                m[row + 1] = u ^ (next & one);
                m[row] = next;
            }
        }
    }
    // Back to the field: bit 127 is x^63 + 1.
    *state = m.map(|e| (e & !(1 << 127)) ^ ((e >> 127) * REDUCTION));
}

/// The matrix product `a * b` (row-major entries below 2^127).
pub(crate) fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    let a = a.map(Left::new);
    let b = b.map(Right::new);
    // Each entry sums two unreduced products and reduces once.
    let entry = |p: &Left, q: &Right, r: &Left, s: &Right| {
        let (lo, hi) = product_sum([(p, q), (r, s)]);
        Gf127::reduce(lo, hi).to_bits()
    };
    [
        entry(&a[0], &b[0], &a[1], &b[2]),
        entry(&a[0], &b[1], &a[1], &b[3]),
        entry(&a[2], &b[0], &a[3], &b[2]),
        entry(&a[2], &b[1], &a[3], &b[3]),
    ]
}
