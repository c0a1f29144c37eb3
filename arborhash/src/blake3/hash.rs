//! The 32-byte BLAKE3 hash value.

use core::fmt;

use super::tree::OUT_LEN;
use crate::bytes::{constant_time_eq, decode_hex, HexError, HexString};

/// A BLAKE3 output of the default length, 32 bytes.
///
/// Equality (`==` with another `Hash`, a `[u8; 32]` or a byte slice) runs in constant time, so
/// comparing a computed MAC with a received one leaks nothing through timing.
///
/// With the `serde` feature it serializes as the `blake3` crate's `Hash` does (a newtype struct
/// `Hash` of 32 bytes, a list of 32 numbers in JSON), and with `zeroize` it can be wiped.
#[derive(Clone, Copy)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize, serde::Serialize))]
pub struct Hash([u8; OUT_LEN]);

impl Hash {
    /// The bytes of the hash.
    pub const fn as_bytes(&self) -> &[u8; OUT_LEN] {
        &self.0
    }

    /// The bytes of the hash as a slice.
    pub const fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// Wraps bytes as a hash, for example one received from elsewhere, to compare in constant
    /// time.
    pub const fn from_bytes(bytes: [u8; OUT_LEN]) -> Hash {
        Hash(bytes)
    }

    /// Copies a 32-byte slice into a hash; any other length is an error.
    pub fn from_slice(bytes: &[u8]) -> Result<Hash, core::array::TryFromSliceError> {
        Ok(Hash(bytes.try_into()?))
    }

    /// The hash as 64 lowercase hex digits, without allocating; [`from_hex`](Hash::from_hex)
    /// parses them back.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let hash = blake3::hash(b"");
    /// let hex = hash.to_hex();
    /// assert!(hex.as_str().starts_with("af1349b9"));
    /// assert_eq!(blake3::Hash::from_hex(hex.as_str()), Ok(hash));
    /// ```
    pub fn to_hex(&self) -> HexString<{ 2 * OUT_LEN }> {
        HexString::encode(&self.0)
    }

    /// Parses exactly 64 hex digits (either case); anything else is a [`HexError`].
    pub fn from_hex(hex: impl AsRef<[u8]>) -> Result<Hash, HexError> {
        decode_hex(hex).map(Hash)
    }
}

impl From<[u8; OUT_LEN]> for Hash {
    fn from(bytes: [u8; OUT_LEN]) -> Hash {
        Hash(bytes)
    }
}

impl From<Hash> for [u8; OUT_LEN] {
    fn from(hash: Hash) -> [u8; OUT_LEN] {
        hash.0
    }
}

impl core::str::FromStr for Hash {
    type Err = HexError;
    fn from_str(s: &str) -> Result<Hash, HexError> {
        Hash::from_hex(s)
    }
}

#[cfg(feature = "zeroize")]
impl zeroize::Zeroize for Hash {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl PartialEq for Hash {
    fn eq(&self, other: &Hash) -> bool {
        constant_time_eq(&self.0, &other.0)
    }
}

impl PartialEq<[u8; OUT_LEN]> for Hash {
    fn eq(&self, other: &[u8; OUT_LEN]) -> bool {
        constant_time_eq(&self.0, other)
    }
}

impl PartialEq<[u8]> for Hash {
    fn eq(&self, other: &[u8]) -> bool {
        constant_time_eq(&self.0, other)
    }
}

impl Eq for Hash {}

impl core::hash::Hash for Hash {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Hash")
            .field(&self.to_hex().as_str())
            .finish()
    }
}
