//! The hash value: a 2x2 matrix over GF(2^127) of determinant 1, and the operations on hashes
//! that follow from the hash being a matrix product.

use super::dispatch;
use super::gf127::Gf127;
use crate::bytes::{constant_time_eq, decode_hex, HexError, HexString};
use crate::platform::Platform;
use core::fmt;
use core::ops::Mul;

/// Bytes in a hash.
pub const OUT_LEN: usize = 64;

/// A Tillich-Zémor hash: a 2x2 matrix over GF(2^127) with determinant 1.
///
/// Equality is constant time.
#[derive(Clone, Copy)]
pub struct Hash {
    /// Row-major: c00, c01, c10, c11.
    entries: [Gf127; 4],
}

/// Why bytes or hex could not be parsed as a hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The hex string is malformed.
    Hex(HexError),
    /// The byte string has this many bytes instead of 64.
    InvalidLength {
        /// The length given.
        found: usize,
    },
    /// Entry `index` (row-major, 0..4) has bit 127 set, so it is not an element of GF(2^127).
    NotAFieldElement {
        /// Which entry.
        index: usize,
    },
    /// The matrix does not have determinant 1, so no input hashes to it.
    DeterminantNotOne,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Hex(e) => write!(f, "invalid hex: {e}"),
            ParseError::InvalidLength { found } => {
                write!(f, "a Tillich-Zémor hash has {OUT_LEN} bytes, found {found}")
            }
            ParseError::NotAFieldElement { index } => write!(
                f,
                "entry {index} of the hash has bit 127 set: not an element of GF(2^127)"
            ),
            ParseError::DeterminantNotOne => {
                f.write_str("the matrix does not have determinant 1: not a Tillich-Zémor hash")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ParseError {}

impl From<HexError> for ParseError {
    fn from(e: HexError) -> Self {
        ParseError::Hex(e)
    }
}

impl Hash {
    /// The identity matrix: the hash of the empty input, and the neutral element of [`concat()`].
    pub const IDENTITY: Hash = Hash {
        entries: [Gf127::ONE, Gf127::ZERO, Gf127::ZERO, Gf127::ONE],
    };

    /// The matrix with these entries (row-major); `DeterminantNotOne` unless c00 c11 + c01 c10 = 1.
    pub fn from_entries(entries: [Gf127; 4]) -> Result<Hash, ParseError> {
        let hash = Hash { entries };
        if hash.determinant() == Gf127::ONE {
            Ok(hash)
        } else {
            Err(ParseError::DeterminantNotOne)
        }
    }

    /// Parses the 64-byte encoding (entries row-major, each 16 bytes big-endian).
    pub fn from_bytes(bytes: &[u8]) -> Result<Hash, ParseError> {
        let bytes: &[u8; OUT_LEN] = bytes
            .try_into()
            .map_err(|_| ParseError::InvalidLength { found: bytes.len() })?;
        let mut entries = [Gf127::ZERO; 4];
        for (index, (entry, chunk)) in entries.iter_mut().zip(bytes.chunks_exact(16)).enumerate() {
            let chunk: [u8; 16] = chunk.try_into().expect("16-byte chunk");
            *entry =
                Gf127::from_be_bytes(chunk).map_err(|_| ParseError::NotAFieldElement { index })?;
        }
        Hash::from_entries(entries)
    }

    /// Parses 128 hex digits (either case).
    pub fn from_hex(hex: impl AsRef<[u8]>) -> Result<Hash, ParseError> {
        Hash::from_bytes(&decode_hex::<OUT_LEN>(hex)?)
    }

    /// The 64-byte encoding.
    pub fn as_bytes(&self) -> [u8; OUT_LEN] {
        let mut out = [0u8; OUT_LEN];
        for (chunk, entry) in out.chunks_exact_mut(16).zip(&self.entries) {
            chunk.copy_from_slice(&entry.to_be_bytes());
        }
        out
    }

    /// The encoding in lowercase hex.
    pub fn to_hex(&self) -> HexString<{ 2 * OUT_LEN }> {
        HexString::encode(&self.as_bytes())
    }

    /// The entries c00, c01, c10, c11.
    pub fn entries(&self) -> [Gf127; 4] {
        self.entries
    }

    /// c00 c11 + c01 c10 (1 for every hash).
    pub fn determinant(&self) -> Gf127 {
        let [a, b, c, d] = self.entries;
        a * d + b * c
    }

    /// The inverse matrix: since the determinant is 1 (and the field has characteristic 2), the
    /// adjugate [[c11, c01], [c10, c00]].
    pub fn inverse(&self) -> Hash {
        let [a, b, c, d] = self.entries;
        Hash {
            entries: [d, b, c, a],
        }
    }

    /// The entries as bits, row-major, for the kernels.
    pub(crate) fn to_bits(self) -> [u128; 4] {
        self.entries.map(Gf127::to_bits)
    }

    /// The matrix with these entries, which the kernels guarantee are reduced (bit 127 clear)
    /// products of hashes (so of determinant 1).
    pub(crate) fn from_reduced_bits(bits: [u128; 4]) -> Hash {
        Hash {
            entries: bits.map(Gf127::from_reduced),
        }
    }
}

/// The matrix product: `sum(a) * sum(b) == sum(a || b)`.
impl Mul for Hash {
    type Output = Hash;
    fn mul(self, rhs: Hash) -> Hash {
        Hash::from_reduced_bits(dispatch::mul_matrices(
            Platform::current(),
            &self.to_bits(),
            &rhs.to_bits(),
        ))
    }
}

impl PartialEq for Hash {
    fn eq(&self, other: &Hash) -> bool {
        constant_time_eq(&self.as_bytes(), &other.as_bytes())
    }
}
impl Eq for Hash {}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash({})", self.to_hex())
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl core::str::FromStr for Hash {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Hash, ParseError> {
        Hash::from_hex(s)
    }
}

impl TryFrom<&[u8]> for Hash {
    type Error = ParseError;
    fn try_from(bytes: &[u8]) -> Result<Hash, ParseError> {
        Hash::from_bytes(bytes)
    }
}

impl From<Hash> for [u8; OUT_LEN] {
    fn from(hash: Hash) -> Self {
        hash.as_bytes()
    }
}

/// The hash of the concatenation of the inputs of `hashes`, in order: their matrix product.
/// The concat of nothing is [`Hash::IDENTITY`].
pub fn concat(hashes: &[Hash]) -> Hash {
    hashes.iter().fold(Hash::IDENTITY, |acc, &h| acc * h)
}

/// Whether `hash` equals `concat(parts)`, compared in constant time.
///
/// Unlike tzhash's `Validate`, which reports an error for an empty list, an empty `parts` is the
/// identity (the hash of the empty input), consistent with [`concat()`].
pub fn validate(hash: &Hash, parts: &[Hash]) -> bool {
    *hash == concat(parts)
}

/// The hash `a` such that `concat(&[a, b]) == c`: c * b^-1 (tzhash's `SubtractR`).
pub fn subtract_right(c: &Hash, b: &Hash) -> Hash {
    *c * b.inverse()
}

/// The hash `b` such that `concat(&[a, b]) == c`: a^-1 * c (tzhash's `SubtractL`).
pub fn subtract_left(c: &Hash, a: &Hash) -> Hash {
    a.inverse() * *c
}
