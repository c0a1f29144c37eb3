//! The bulk of the portable backend: 64 independent streams, bit-sliced.
//!
//! Plain integer code has no carry-less multiply, so multiplying the running hash by a window
//! matrix costs as much as applying the window's bits one by one; what a bit costs is the shift by
//! x and the XORs. This module makes the shift free and the XORs 128 times wider: the input is cut
//! into 64 pieces of equal length (streams), and word `i` of an entry holds the coefficient of x^i
//! of that entry for every stream, one stream per bit; the two rows of the matrices see the same
//! bits, so a pair of words (one per row, a 128-bit vector) holds coefficient i of both rows.
//!
//! A row (u, v) is kept as (u, w) with w = u*x + v. Times A it becomes (w, w*x + u), times B
//! (w, w*x + u + w): the sequence s = u, w, ... of a row follows s[t+2] = s[t+1]*x + s[t] +
//! m[t] s[t+1], where bit s of the mask m[t] is stream s's bit t. Multiplying by x is a change of
//! index, so one bit of every stream costs three vector operations per coefficient:
//!
//! s[t+2][i] = s[t+1][i-1] ^ s[t][i] ^ (m[t] & s[t+1][i]).
//!
//! Each pass over the coefficients applies `STEPS` bits (temporal blocking: step t at coefficient i
//! needs only step t-1 at i-1 and i, so the words of all steps stay in registers and each
//! coefficient is loaded and stored once per pass), and only to the coefficients the entries can
//! have reached. The entries may grow by `STEPS` degrees per pass, into spare words, which are
//! folded back with x^127 = x^63 + 1 after the pass. At the end the 64 stream matrices are
//! transposed back and multiplied in order, which is why this only pays for inputs of some
//! kilobytes.
//!
//! Three 128-bit operations per bit, coefficient and 64 streams is the floor of this method with
//! SSE2: 136 coefficients (with the spare words) times 8 bits times 3 operations per 64
//! bytes, on a core with three vector logic ports (the Xeon this was measured on), is 17 cycles
//! per byte, where the bit-serial loop takes about 60.

use super::bitwise::mul_matrices;

/// Streams: one per bit of a word.
pub(crate) const LANES: usize = 64;
/// Bytes of each stream transposed at once: 64 bits of 64 streams make a square of bits.
pub(crate) const BLOCK: usize = 8;
/// Bits of every stream applied per pass over the coefficients.
const STEPS: usize = 8;
/// Coefficients of a field element.
const DEGREE: usize = 127;
/// Words of a bit-sliced entry: the field element and the growth of one pass, rounded up to a
/// multiple of `UNROLL`.
const WIDTH: usize = (DEGREE + STEPS).next_multiple_of(UNROLL);

/// The same coefficient of both rows' entry: word `r` is row r's (the two rows see the same
/// input bits, so they share the masks). Two words side by side are what a 128-bit vector holds,
/// and LLVM turns the word-wise operations below into SSE2 instructions on x86-64 (for generic
/// aarch64 it keeps them in general registers, of which there are 31, as two scalar operations).
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

/// One entry of the 64 stream matrices in both rows: word `i`, bit `s` of row r is the
/// coefficient of x^i in stream s.
type Entry = [Pair; WIDTH];

/// The product of the matrices of the 64 streams `input[s * stream_len..(s + 1) * stream_len]`,
/// in order (row-major entries below 2^127).
///
/// `input.len()` must be `LANES * stream_len` and `stream_len` a multiple of `BLOCK`.
pub(crate) fn product(input: &[u8], stream_len: usize) -> [u128; 4] {
    debug_assert!(input.len() == LANES * stream_len && stream_len.is_multiple_of(BLOCK));
    // Each row (u, v) is kept as (u, w) with w = u*x + v, starting from the identity: (1, x) in
    // the first row, (0, 1) in the second.
    let mut u: Entry = [Pair::default(); WIDTH];
    let mut w: Entry = [Pair::default(); WIDTH];
    u[0] = Pair([!0, 0]);
    w[1] = Pair([!0, 0]);
    w[0] = Pair([0, !0]);
    // A bound on the entries' degree. They grow by at most one degree per bit: until they fill
    // the field, a pass only needs the coefficients they can have reached by its end.
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

/// Applies one bit of every stream per mask, in order, to both rows (u, w).
///
/// `u.len()` and `w.len()` must be equal multiples of `UNROLL`.
///
/// Not inlined: inside `product`, LLVM no longer turns the `Pair` operations into vector
/// instructions (2.8x the instructions); a call per pass costs nothing next to the pass.
#[inline(never)]
fn apply(u: &mut [Pair], w: &mut [Pair], masks: &[Pair; STEPS]) {
    // The sequence s of a row: s[0] = u, s[1] = w, s[t + 2] = s[t + 1]*x + s[t] + m[t] s[t + 1]
    // (row (u, v) times A or B is (w, w*x + u + m w)), so after each step (s[t+1], s[t+2]) is the
    // row in the form (u, w).
    //
    // carry[t] is s[t + 1] at the previous coefficient (zero below x^0).
    let mut carry = [Pair::default(); STEPS];
    let (u, _) = u.as_chunks_mut::<UNROLL>();
    let (w, _) = w.as_chunks_mut::<UNROLL>();
    for (u, w) in u.iter_mut().zip(w) {
        // An empty barrier (no instruction): without it LLVM's loop vectorizer treats the carries
        // as recurrences across coefficients and interleaves two coefficients per vector with
        // shuffles, twice the instructions of one `Pair` per vector. Unrolling lets the carries
        // stay in the same registers instead of moving down one each coefficient.
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
    // Swap the off-diagonal blocks of halves, then of quarters within them, and so on: at block
    // size j, the high j bits of word k trade places with the low j bits of word k + j.
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
