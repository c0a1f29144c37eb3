//! The field `GF(2^127) = GF(2)[x] / (x^127 + x^63 + 1)` that the Tillich-Zémor hash works in.

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

/// Bits 0, 4, 8, ..., 60: one residue class modulo 4 of a 64-bit word.
const CLASS_WORD: u64 = 0x1111_1111_1111_1111;
/// Bits 0, 4, 8, ..., 124.
const CLASS: u128 = (CLASS_WORD as u128) | ((CLASS_WORD as u128) << 64);
/// The low 60 bits of a left word, the part split by residue class.
const LEFT_SPLIT: u64 = (1 << 60) - 1;

// Carry-less products of 64-bit words by integer multiplication (portable; constant time).
//
// Split both words by the residue class of the bit position modulo 4. The integer product of a
// part of the left word and a part of the right one has its bits in one residue class, each bit's
// value being the count of bit pairs meeting there: if that count stays below 16 it fits in the
// four positions up to the class's next bit, so no count carries into another, and the lowest bit
// of each count is the carry-less coefficient. Products of the same result class can then be
// XORed (the counts' higher bits only pollute the three positions above each), and a mask per
// class picks out the coefficients. A count is at most the bits of the smaller part: a part of a
// full word has 16, so the left word's classes cover only its low 60 bits (15 each); its top four
// bits, consecutive, meet each bit of a right part at a different position, so their products
// with the right parts are exact. 20 multiplications per 64x64-bit product.

/// A 64-bit word as the left factor of a carry-less product: bits 0..60 by residue class, and
/// the top four bits.
#[derive(Clone, Copy)]
struct LeftWord {
    parts: [u64; 4],
    top: u64,
}

/// The bits of `x` split by the residue class of their position modulo 4.
const fn classes(x: u64) -> [u64; 4] {
    [
        x & CLASS_WORD,
        x & (CLASS_WORD << 1),
        x & (CLASS_WORD << 2),
        x & (CLASS_WORD << 3),
    ]
}

impl LeftWord {
    const fn new(a: u64) -> LeftWord {
        LeftWord {
            parts: classes(a & LEFT_SPLIT),
            top: a & !LEFT_SPLIT,
        }
    }
}

/// A 64-bit word as the right factor of a carry-less product: its bits by residue class.
#[derive(Clone, Copy)]
struct RightWord([u64; 4]);

impl RightWord {
    const fn new(b: u64) -> RightWord {
        RightWord(classes(b))
    }
}

/// The sum of the carry-less products of the pairs of words.
#[inline(always)]
fn word_product_sum<const N: usize>(pairs: [(&LeftWord, &RightWord); N]) -> u128 {
    let mut by_class = [0u128; 4];
    let mut exact = 0;
    for (a, b) in pairs {
        for (i, &ai) in a.parts.iter().enumerate() {
            for (j, &bj) in b.0.iter().enumerate() {
                by_class[(i + j) % 4] ^= u128::from(ai) * u128::from(bj);
            }
        }
        for &bj in &b.0 {
            exact ^= u128::from(a.top) * u128::from(bj);
        }
    }
    let mut product = exact;
    for (r, sum) in by_class.iter().enumerate() {
        product ^= sum & (CLASS << r);
    }
    product
}

/// A polynomial of degree below 128 as the left factor of carry-less products: its low word,
/// high word and their sum (Karatsuba: a0 b1 + a1 b0 = (a0 + a1)(b0 + b1) + a0 b0 + a1 b1, three
/// word products for four).
#[derive(Clone, Copy)]
pub(crate) struct Left([LeftWord; 3]);

/// A polynomial of degree below 128 as the right factor of carry-less products (see [`Left`]).
#[derive(Clone, Copy)]
pub(crate) struct Right([RightWord; 3]);

/// Karatsuba's three words of a 128-bit polynomial: low, high, their sum.
const fn karatsuba_words(a: u128) -> [u64; 3] {
    let (lo, hi) = (a as u64, (a >> 64) as u64);
    [lo, hi, lo ^ hi]
}

impl Left {
    pub(crate) fn new(a: u128) -> Left {
        Left(karatsuba_words(a).map(LeftWord::new))
    }
}

impl Right {
    pub(crate) fn new(b: u128) -> Right {
        Right(karatsuba_words(b).map(RightWord::new))
    }
}

/// The sum of the carry-less products of the pairs, as (low 128 bits, high 128 bits).
///
/// Splitting the factors once ([`Left`], [`Right`]) and masking the sum once pays off when a
/// factor is used twice or products are added, as in a matrix product.
#[inline(always)]
pub(crate) fn product_sum<const N: usize>(pairs: [(&Left, &Right); N]) -> (u128, u128) {
    let [lo, hi, mid] =
        core::array::from_fn(|w| word_product_sum(pairs.map(|(a, b)| (&a.0[w], &b.0[w]))));
    let mid = mid ^ lo ^ hi;
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
        let (lo, hi) = product_sum([(&Left::new(self.0), &Right::new(rhs.0))]);
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

    fn clmul64(a: u64, b: u64) -> u128 {
        word_product_sum([(&LeftWord::new(a), &RightWord::new(b))])
    }

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
            // Full residue classes, the left word's split and its top bits.
            CLASS_WORD,
            CLASS_WORD << 3,
            LEFT_SPLIT,
            !LEFT_SPLIT,
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

    #[test]
    fn product_sums_match_shift_and_xor() {
        let clmul128 = |a: u128, b: u128| {
            (0..128)
                .filter(|i| (b >> i) & 1 == 1)
                .fold((0u128, 0u128), |(lo, hi), i| {
                    (lo ^ (a << i), hi ^ if i == 0 { 0 } else { a >> (128 - i) })
                })
        };
        let mut x = 0x2545_F491_4F6C_DD1Du128 | (0x9E37_79B9_7F4A_7C15u128 << 64);
        let mut next = || {
            x ^= x << 29;
            x ^= x >> 43;
            x ^= x << 17;
            x
        };
        for _ in 0..100 {
            let (a, b, c, d) = (next(), next(), next() >> 1, u128::MAX);
            let sum = product_sum([
                (&Left::new(a), &Right::new(b)),
                (&Left::new(c), &Right::new(d)),
            ]);
            let (p, q) = (clmul128(a, b), clmul128(c, d));
            assert_eq!(sum, (p.0 ^ q.0, p.1 ^ q.1), "{a:x} {b:x} {c:x}");
        }
    }
}
