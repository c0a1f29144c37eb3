//! Byte-window matrices, computed at compile time: a byte is the product of eight bit matrices,
//! A = [[x, 1], [1, 0]] for a 0 bit and B = [[x, x+1], [1, 1]] for a 1 bit, most significant first,
//! with entries of degree at most 8 (top row) and 7 (bottom row).

/// The window matrix of one byte: entries `[m00, m01, m10, m11]` as small polynomials (bit `i` is
/// the coefficient of x^i), not reduced (none reaches degree 127).
pub(crate) const fn byte_matrix(byte: u8) -> [u32; 4] {
    let [mut m00, mut m01, mut m10, mut m11] = [1u32, 0, 0, 1];
    let mut bit = 8;
    while bit > 0 {
        bit -= 1;
        // Row (u, v) times A is (u*x + v, u); times B it is (u*x + v, u*x + v + u).
        let (n00, n10) = ((m00 << 1) ^ m01, (m10 << 1) ^ m11);
        if (byte >> bit) & 1 == 1 {
            (m01, m11) = (n00 ^ m00, n10 ^ m10);
        } else {
            (m01, m11) = (m00, m10);
        }
        (m00, m10) = (n00, n10);
    }
    [m00, m01, m10, m11]
}

/// Packed operands for M(d0) * M(d1) in two 64-bit carry-less multiplications: `x * y[j]` has
/// column j's top entry (17 bits) at bit 64 and its bottom entry (16 bits) at bit 31, the other
/// partial products clear of both.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct PairOperands {
    /// The left operand in the low word (the high word is zero).
    pub x: [u64; 2],
    /// The right operand: column 0 in the low word, column 1 in the high word.
    pub y: [u64; 2],
}

/// Bit offsets of m00, m01, m10, m11 in `PairOperands::x`.
pub(crate) const X_SHIFTS: [u32; 4] = [55, 38, 22, 5];
/// Bit offsets of the column's top and bottom entries in each word of `PairOperands::y`.
pub(crate) const Y_SHIFTS: [u32; 2] = [9, 26];
/// Where the bottom entry of a column of the pair product lands.
pub(crate) const PAIR_BOTTOM_SHIFT: i32 = 31;
/// Masks of the top (17-bit) and bottom (16-bit) entries of a byte-pair matrix.
pub(crate) const PAIR_TOP_MASK: u64 = (1 << 17) - 1;
pub(crate) const PAIR_BOTTOM_MASK: u64 = (1 << 16) - 1;

/// A column (top, bottom) packed at `Y_SHIFTS`.
const fn packed_column(top: u32, bottom: u32) -> u64 {
    ((top as u64) << Y_SHIFTS[0]) | ((bottom as u64) << Y_SHIFTS[1])
}

const fn pair_operands(byte: u8) -> PairOperands {
    let m = byte_matrix(byte);
    let mut x = 0u64;
    let mut i = 0;
    while i < 4 {
        x |= (m[i] as u64) << X_SHIFTS[i];
        i += 1;
    }
    PairOperands {
        x: [x, 0],
        y: [packed_column(m[0], m[2]), packed_column(m[1], m[3])],
    }
}

/// `PAIR_OPERANDS[b]` for every byte value b.
pub(crate) static PAIR_OPERANDS: [PairOperands; 256] = {
    let mut table = [PairOperands {
        x: [0; 2],
        y: [0; 2],
    }; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = pair_operands(b as u8);
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Carry-less product of small polynomials.
    fn clmul(a: u64, b: u64) -> u128 {
        (0..64)
            .filter(|i| (b >> i) & 1 == 1)
            .fold(0, |acc, i| acc ^ ((a as u128) << i))
    }

    #[test]
    fn byte_matrices_have_the_documented_degrees() {
        for b in 0..=255u8 {
            let m = byte_matrix(b);
            assert_eq!(32 - m[0].leading_zeros(), 9, "m00 has degree 8");
            assert!(m[1] < 1 << 9 && m[2] < 1 << 8 && m[3] < 1 << 8);
        }
    }

    #[test]
    fn pair_products_land_where_documented() {
        for d0 in (0..=255u8).step_by(7) {
            for d1 in (0..=255u8).step_by(5) {
                let (a, b) = (byte_matrix(d0), byte_matrix(d1));
                let small = |p: u32, q: u32| clmul(p as u64, q as u64) as u64;
                let ops = (&PAIR_OPERANDS[d0 as usize], &PAIR_OPERANDS[d1 as usize]);
                for j in 0..2 {
                    let r = clmul(ops.0.x[0], ops.1.y[j]);
                    let top = small(a[0], b[j]) ^ small(a[1], b[2 + j]);
                    let bottom = small(a[2], b[j]) ^ small(a[3], b[2 + j]);
                    assert_eq!((r >> 64) as u64 & PAIR_TOP_MASK, top);
                    assert_eq!((r as u64 >> PAIR_BOTTOM_SHIFT) & PAIR_BOTTOM_MASK, bottom);
                }
            }
        }
    }
}
