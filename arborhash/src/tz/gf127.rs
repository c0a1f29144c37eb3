//! The field GF(2^127) = GF(2)[x] / (x^127 + x^63 + 1) that the Tillich-Zémor hash works in.

use core::fmt;
use core::ops::{Add, AddAssign, Mul, MulAssign};

/// x^63 + 1: what x^127 reduces to.
const REDUCTION: u128 = (1 << 63) | 1;
/// The bits an element may use (degree below 127).
const MASK: u128 = (1 << 127) - 1;

/// An element of GF(2^127) with modulus x^127 + x^63 + 1: a polynomial of degree below 127 over
/// GF(2), bit `i` being the coefficient of x^i.
///
/// Encoded as 16 bytes big-endian (the high 64-bit word first), as in nspcc-dev/tzhash. Bit 127
/// is never set in a field element; [`Gf127::from_be_bytes`] rejects such an encoding.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Gf127(u128);

/// A 16-byte string that is not a field element because its bit 127 is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAFieldElement;

impl fmt::Display for NotAFieldElement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bit 127 is set: not an element of GF(2^127)")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for NotAFieldElement {}

impl Gf127 {
    /// The additive identity.
    pub const ZERO: Gf127 = Gf127(0);
    /// The multiplicative identity.
    pub const ONE: Gf127 = Gf127(1);
    /// The polynomial x.
    pub const X: Gf127 = Gf127(2);

    /// The element whose bit `i` is bit `i` of `bits`; `None` if bit 127 is set.
    pub const fn new(bits: u128) -> Option<Gf127> {
        if bits & !MASK == 0 {
            Some(Gf127(bits))
        } else {
            None
        }
    }

    /// The element with these bits, which the caller guarantees are below 2^127.
    pub(crate) const fn from_reduced(bits: u128) -> Gf127 {
        debug_assert!(bits & !MASK == 0, "bit 127 set");
        Gf127(bits)
    }

    /// The polynomial as an integer, bit `i` the coefficient of x^i (bit 127 is always clear).
    pub const fn to_bits(self) -> u128 {
        self.0
    }

    /// Decodes 16 big-endian bytes, rejecting a value with bit 127 set.
    pub fn from_be_bytes(bytes: [u8; 16]) -> Result<Gf127, NotAFieldElement> {
        Gf127::new(u128::from_be_bytes(bytes)).ok_or(NotAFieldElement)
    }

    /// The 16-byte big-endian encoding.
    pub const fn to_be_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// Reduces a polynomial of degree below 254, given as its low 128 and high 128 coefficients,
    /// modulo x^127 + x^63 + 1.
    pub(crate) const fn reduce(lo: u128, hi: u128) -> Gf127 {
        // t = the coefficients of x^127 and up (degree below 126); t * x^127 = t * (x^63 + 1).
        let t = (hi << 1) | (lo >> 127);
        // t * x^63 spans bits 63..189 as (s_hi:s_lo); fold its part from bit 127 up once more.
        let s_lo = t << 63;
        let s_hi = t >> 65;
        let u = (s_hi << 1) | (s_lo >> 127); // degree below 62, so u * (x^63 + 1) fits.
        Gf127((lo & MASK) ^ t ^ (s_lo & MASK) ^ u ^ (u << 63))
    }

    /// Multiplication by x.
    pub const fn mul_x(self) -> Gf127 {
        let carry = self.0 >> 126;
        Gf127(((self.0 << 1) & MASK) ^ (carry * REDUCTION))
    }

    /// The multiplicative inverse; `None` for zero.
    ///
    /// Computed as self^(2^127 - 2) (Fermat), in constant time.
    pub fn inverse(self) -> Option<Gf127> {
        if self == Gf127::ZERO {
            return None;
        }
        // 2^127 - 2 = 2 * (2^126 - 1): square-and-multiply builds self^(2^k - 1) for k = 126.
        let mut acc = self; // self^(2^1 - 1)
        for _ in 1..126 {
            acc = acc.square() * self;
        }
        Some(acc.square())
    }

    /// The square.
    pub fn square(self) -> Gf127 {
        self * self
    }
}

/// Carry-less product of two 64-bit polynomials (portable; constant time).
///
/// Integer multiplication does the work: split both operands into five interleaved parts, each
/// keeping the bits of one residue class modulo 5. In the integer product of two parts, the bits
/// of the result sit in one residue class, each the count of matching bit pairs, at most 13 (a
/// part has at most 13 bits), which fits in the five positions up to the next bit of the class, so
/// no count carries into another; its lowest bit is the carry-less coefficient. XORing all
/// products of the same result class keeps those lowest bits right (the counts' higher bits only
/// pollute the four positions above each), and a mask per class picks them out.
const fn clmul64(a: u64, b: u64) -> u128 {
    /// Bits 0, 5, 10, ..., 60.
    const PART: u64 = 0x1084_2108_4210_8421;
    /// Bits 0, 5, 10, ..., 125.
    const CLASS: u128 = (PART as u128) | ((PART as u128) << 65);
    let mut by_class = [0u128; 5];
    let mut i = 0;
    while i < 5 {
        let ai = (a & (PART << i)) as u128;
        let mut j = 0;
        while j < 5 {
            let bj = (b & (PART << j)) as u128;
            by_class[(i + j) % 5] ^= ai * bj;
            j += 1;
        }
        i += 1;
    }
    let mut product = 0;
    let mut r = 0;
    while r < 5 {
        product |= by_class[r] & (CLASS << r);
        r += 1;
    }
    product
}

/// Carry-less product of two polynomials of degree below 128: (low 128 bits, high 128 bits).
pub(crate) const fn clmul128(a: u128, b: u128) -> (u128, u128) {
    let (a0, a1) = (a as u64, (a >> 64) as u64);
    let (b0, b1) = (b as u64, (b >> 64) as u64);
    let lo = clmul64(a0, b0);
    let hi = clmul64(a1, b1);
    // Karatsuba: a0 b1 + a1 b0 = (a0 + a1)(b0 + b1) + a0 b0 + a1 b1, three products for four.
    let mid = clmul64(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 64), hi ^ (mid >> 64))
}

impl Add for Gf127 {
    type Output = Gf127;
    // Addition in characteristic 2 is XOR.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn add(self, rhs: Gf127) -> Gf127 {
        Gf127(self.0 ^ rhs.0)
    }
}

impl AddAssign for Gf127 {
    fn add_assign(&mut self, rhs: Gf127) {
        *self = *self + rhs;
    }
}

impl Mul for Gf127 {
    type Output = Gf127;
    fn mul(self, rhs: Gf127) -> Gf127 {
        let (lo, hi) = clmul128(self.0, rhs.0);
        Gf127::reduce(lo, hi)
    }
}

impl MulAssign for Gf127 {
    fn mul_assign(&mut self, rhs: Gf127) {
        *self = *self * rhs;
    }
}

impl fmt::Debug for Gf127 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gf127({:032x})", self.0)
    }
}

impl fmt::LowerHex for Gf127 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clmul64_bitwise(a: u64, b: u64) -> u128 {
        (0..64)
            .filter(|i| (b >> i) & 1 == 1)
            .fold(0, |acc, i| acc ^ ((a as u128) << i))
    }

    #[test]
    fn clmul64_matches_shift_and_xor_at_the_largest_counts() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut values = vec![
            0,
            1,
            u64::MAX,
            u64::MAX >> 1,
            1 << 63,
            0x1084_2108_4210_8421,
        ];
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x);
        }
        for &a in &values {
            for &b in &values {
                assert_eq!(clmul64(a, b), clmul64_bitwise(a, b), "{a:x} * {b:x}");
            }
        }
    }
}
