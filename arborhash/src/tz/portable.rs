//! The portable backend: the bit matrices applied one bit at a time.
//!
//! Each bit costs one multiplication by x, a few XORs and a mask per row, with no tables and no
//! data-dependent branches. The rows of the running matrix are independent, so the two are
//! interleaved to give the processor two dependency chains.

use super::gf127::Gf127;

/// x^63 + 1, what x^127 reduces to.
const REDUCTION: u128 = (1 << 63) | 1;
const MASK: u128 = (1 << 127) - 1;

/// Multiplies the matrix `state` (row-major entries of degree below 127) by the matrix of every
/// bit of `input`, in order, most significant bit of each byte first.
pub(crate) fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    let [mut a, mut b, mut c, mut d] = *state;
    for &byte in input {
        for shift in (0..8).rev() {
            // All ones for a 1 bit (matrix B), zero for a 0 bit (matrix A).
            let one = ((byte >> shift) & 1) as u128 * u128::MAX;
            // Row (u, v) times A is (u*x + v, u); times B it is (u*x + v, u*x + v + u).
            let na = (((a << 1) & MASK) ^ ((a >> 126) * REDUCTION)) ^ b;
            let nc = (((c << 1) & MASK) ^ ((c >> 126) * REDUCTION)) ^ d;
            b = a ^ (na & one);
            d = c ^ (nc & one);
            a = na;
            c = nc;
        }
    }
    *state = [a, b, c, d];
}

/// The matrix product `a * b` (row-major entries below 2^127).
pub(crate) fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    let f = |x: u128| Gf127::from_reduced(x);
    let entry = |p: u128, q: u128, r: u128, s: u128| (f(p) * f(q) + f(r) * f(s)).to_bits();
    [
        entry(a[0], b[0], a[1], b[2]),
        entry(a[0], b[1], a[1], b[3]),
        entry(a[2], b[0], a[3], b[2]),
        entry(a[2], b[1], a[3], b[3]),
    ]
}
