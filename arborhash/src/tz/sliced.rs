//! The bulk of the portable backend: 64 independent streams, bit-sliced, because plain integer
//! code has no carry-less multiply.
//!
//! The input is cut into 64 equal streams; word `i` of an entry holds the coefficient of x^i for
//! every stream (one stream per bit), so multiplying by x is a change of index. A row (u, v) is
//! kept as (u, w = u*x + v), and one bit of every stream costs three operations per coefficient,
//! `s[t+2][i] = s[t+1][i-1] ^ s[t][i] ^ (m[t] & s[t+1][i])`. Each pass applies `STEPS` bits with
//! the words in registers; at the end the 64 stream matrices are transposed back and multiplied
//! in order, which is why this pays only for inputs of some kilobytes.

use super::bitwise::mul_matrices;

/// Streams: one per bit of a word.
pub(crate) const LANES: usize = 64;
/// Bytes of each stream transposed at once: 64 bits of 64 streams make a square of bits.
pub(crate) const BLOCK: usize = 8;
/// Bits of every stream applied per pass over the coefficients.
const STEPS: usize = 8;
/// Coefficients of a field element.
const DEGREE: usize = 127;
/// Words of a bit-sliced entry: the field element and one pass's growth, rounded to `UNROLL`.
const WIDTH: usize = (DEGREE + STEPS).next_multiple_of(UNROLL);

/// The same coefficient of both rows' entry (they share the masks), sized for one 128-bit vector.
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
struct Pair([u64; 2]);

impl Pair {
    #[inline(always)]
    fn splat(w: u64) -> Pair {
        Pair([w, w])
    }
}

impl core::ops::BitXor for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitxor(self, o: Pair) -> Pair {
        Pair([self.0[0] ^ o.0[0], self.0[1] ^ o.0[1]])
    }
}

impl core::ops::BitAnd for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitand(self, o: Pair) -> Pair {
        Pair([self.0[0] & o.0[0], self.0[1] & o.0[1]])
    }
}

/// One entry of the 64 stream matrices in both rows: word `i`, bit `s` is x^i in stream s.
type Entry = [Pair; WIDTH];

/// The product, in order, of the matrices of the 64 streams of `input`, which must be
/// `LANES * stream_len` bytes with `stream_len` a multiple of `BLOCK`.
pub(crate) fn product(input: &[u8], stream_len: usize) -> [u128; 4] {
    debug_assert!(input.len() == LANES * stream_len && stream_len.is_multiple_of(BLOCK));
    // The identity as rows (u, w): (1, x) and (0, 1).
    let mut u: Entry = [Pair::default(); WIDTH];
    let mut w: Entry = [Pair::default(); WIDTH];
    u[0] = Pair([!0, 0]);
    w[1] = Pair([!0, 0]);
    w[0] = Pair([0, !0]);
    // Entries grow one degree per bit, so a pass touches only the coefficients reached.
    let mut degree = 1;
    for offset in (0..stream_len).step_by(BLOCK) {
        let mut bits = [0u64; LANES];
        for (s, word) in bits.iter_mut().enumerate() {
            let start = s * stream_len + offset;
            let bytes = &input[start..start + BLOCK];
            *word = u64::from_be_bytes(bytes.try_into().expect("8 bytes"));
        }
        // masks[63 - t], bit s, is bit t (most significant first) of stream s's 8 bytes.
        let masks = transpose(bits);
        for pass in masks.rchunks_exact(STEPS) {
            let pass: [Pair; STEPS] = core::array::from_fn(|t| Pair::splat(pass[STEPS - 1 - t]));
            degree += STEPS;
            let active = (degree + 1).next_multiple_of(UNROLL).min(WIDTH);
            apply(&mut u[..active], &mut w[..active], &pass);
            if degree >= DEGREE {
                fold(&mut u);
                fold(&mut w);
                degree = DEGREE - 1;
            }
        }
    }
    let streams = matrices(&u, &w);
    streams[1..]
        .iter()
        .fold(streams[0], |acc, m| mul_matrices(&acc, m))
}

/// Coefficients per iteration of `apply`'s loop.
const UNROLL: usize = 8;

/// Applies one bit of every stream per mask, in order, to both rows (u, w), whose lengths must
/// be equal multiples of `UNROLL`.
///
/// Not inlined because inside `product` LLVM stops vectorizing the `Pair` operations.
#[inline(never)]
fn apply(u: &mut [Pair], w: &mut [Pair], masks: &[Pair; STEPS]) {
    // carry[t] is s[t + 1] at the previous coefficient (zero below x^0).
    let mut carry = [Pair::default(); STEPS];
    let (u, _) = u.as_chunks_mut::<UNROLL>();
    let (w, _) = w.as_chunks_mut::<UNROLL>();
    for (u, w) in u.iter_mut().zip(w) {
        // An empty barrier that stops LLVM interleaving coefficients across vectors with shuffles.
        core::hint::black_box(());
        for k in 0..UNROLL {
            let (mut s0, mut s1) = (u[k], w[k]);
            for t in 0..STEPS {
                let s2 = carry[t] ^ s0 ^ (masks[t] & s1);
                carry[t] = s1;
                (s0, s1) = (s1, s2);
            }
            (u[k], w[k]) = (s0, s1);
        }
    }
}

/// Folds the coefficients of x^127 and up back below x^127 (x^127 = x^63 + 1).
#[inline(always)]
fn fold(e: &mut Entry) {
    for j in 0..WIDTH - DEGREE {
        let high = core::mem::take(&mut e[DEGREE + j]);
        e[j] = e[j] ^ high;
        e[63 + j] = e[63 + j] ^ high;
    }
}

/// The 64 stream matrices of the sliced rows (u, w), row-major entries as integers.
fn matrices(u: &Entry, w: &Entry) -> [[u128; 4]; LANES] {
    // v = w + u*x, where u has degree below 127: its x^127 term is x^63 + 1.
    let mut v = *w;
    for i in 1..DEGREE {
        v[i] = v[i] ^ u[i - 1];
    }
    v[0] = v[0] ^ u[DEGREE - 1];
    v[63] = v[63] ^ u[DEGREE - 1];
    let mut out = [[0u128; 4]; LANES];
    // Entry k of the row-major matrix: u of row 0, v of row 0, u of row 1, v of row 1.
    for (k, (entry, row)) in [(u, 0), (&v, 0), (u, 1), (&v, 1)].into_iter().enumerate() {
        let low = transpose(core::array::from_fn(|i| entry[i].0[row]));
        let high = transpose(core::array::from_fn(|i| entry[64 + i].0[row]));
        for (s, m) in out.iter_mut().enumerate() {
            m[k] = u128::from(low[s]) | u128::from(high[s]) << 64;
        }
    }
    out
}

/// The transpose of a 64x64 bit matrix: bit c of word r of the result is bit r of word c.
fn transpose(mut a: [u64; 64]) -> [u64; 64] {
    // Swap off-diagonal blocks of halves, then quarters, and so on.
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        for k in (0..64).filter(|k| k & j == 0) {
            let t = ((a[k] >> j) ^ a[k + j]) & mask;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
        j >>= 1;
        mask ^= mask << j;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_is_the_transpose() {
        let mut a = [0u64; 64];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for w in &mut a {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *w = x;
        }
        let t = transpose(a);
        for (r, row) in t.iter().enumerate() {
            for (c, column) in a.iter().enumerate() {
                assert_eq!((row >> c) & 1, (column >> r) & 1, "row {r} column {c}");
            }
        }
    }
}
