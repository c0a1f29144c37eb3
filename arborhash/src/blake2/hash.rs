//! A finished BLAKE2 hash with constant-time equality.

use core::fmt;

use super::kernels::Word;
use super::variant::{Blake2b, Blake2s, Variant};
use crate::bytes::constant_time_eq;

/// A BLAKE2 hash of 1 to `OUTBYTES` bytes (the `Hash` of `blake2b_simd` / `blake2s_simd`).
///
/// Equality with another hash, a byte slice or a byte array runs in constant time (for equal
/// lengths), so a `Hash` can be compared against an expected MAC directly.
#[derive(Clone, Copy)]
pub struct Hash<V: Variant> {
    bytes: V::Array,
    len: u8,
}

impl<V: Variant> Hash<V> {
    /// The first `len` bytes of the little-endian chaining value.
    pub(crate) fn from_words(words: &[V::Word; 8], len: usize) -> Self {
        let mut bytes = V::ZERO_ARRAY;
        let word_bytes = <V::Word as Word>::BYTES;
        for (w, out) in words
            .iter()
            .zip(bytes.as_mut().chunks_exact_mut(word_bytes))
        {
            w.write_le(out);
        }
        // Bytes past `len` read as zero. A full-length hash has none, and skipping the empty fill
        // saves a `memset` call per hash (measurable in batches of short messages).
        if len < bytes.as_ref().len() {
            bytes.as_mut()[len..].fill(0);
        }
        Hash {
            bytes,
            len: len as u8,
        }
    }

    /// The hash bytes. Comparing slices is not constant time; compare `Hash` values instead
    /// when the hash is a MAC.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes.as_ref()[..self.len as usize]
    }

    /// The hash as an array of `OUTBYTES`; bytes past a shorter hash length are zero. Panics in
    /// debug builds if the hash is shorter than `OUTBYTES`, as in `blake2b_simd`.
    pub fn as_array(&self) -> &V::Array {
        debug_assert_eq!(self.len as usize, V::OUTBYTES, "as_array on a short hash");
        &self.bytes
    }

    /// The hash as lowercase hex, without allocating.
    // Takes `&self` like `blake2b_simd`, so that switching crates needs no code change.
    #[allow(clippy::wrong_self_convention)]
    pub fn to_hex(&self) -> V::Hex {
        V::hex(self.as_bytes())
    }
}

impl<V: Variant> PartialEq for Hash<V> {
    fn eq(&self, other: &Self) -> bool {
        constant_time_eq(self.as_bytes(), other.as_bytes())
    }
}

impl<V: Variant> Eq for Hash<V> {}

impl<V: Variant> PartialEq<[u8]> for Hash<V> {
    fn eq(&self, other: &[u8]) -> bool {
        constant_time_eq(self.as_bytes(), other)
    }
}

impl<V: Variant> PartialEq<&[u8]> for Hash<V> {
    fn eq(&self, other: &&[u8]) -> bool {
        constant_time_eq(self.as_bytes(), other)
    }
}

impl<V: Variant, const N: usize> PartialEq<[u8; N]> for Hash<V> {
    fn eq(&self, other: &[u8; N]) -> bool {
        constant_time_eq(self.as_bytes(), other)
    }
}

impl<V: Variant> AsRef<[u8]> for Hash<V> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<V: Variant> fmt::Debug for Hash<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash(0x{})", self.to_hex())
    }
}

/// `From<[u8; OUTBYTES]>` and `From<&[u8; OUTBYTES]>` (a full-length hash), as the peer crates
/// have them.
macro_rules! from_array {
    ($variant:ty, $outbytes:literal) => {
        impl From<[u8; $outbytes]> for Hash<$variant> {
            fn from(bytes: [u8; $outbytes]) -> Self {
                Hash {
                    bytes,
                    len: $outbytes,
                }
            }
        }

        impl From<&[u8; $outbytes]> for Hash<$variant> {
            fn from(bytes: &[u8; $outbytes]) -> Self {
                Hash::from(*bytes)
            }
        }
    };
}
from_array!(Blake2b, 64);
from_array!(Blake2s, 32);
