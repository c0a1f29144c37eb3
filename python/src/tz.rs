//! `arborhash.tz`: the Tillich-Zémor hash over `arborhash::tz::Hasher`.

use arborhash::tz;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::blake2::hash_object;
use crate::buffer::{Buffer, Bytes};
use crate::hex;
use crate::locked::Locked;

/// The Tillich-Zémor hash (GF(2^127) with x^127 + x^63 + 1), byte-compatible with the Go
/// package nspcc-dev/tzhash: a 64-byte product of 2x2 matrices, one per input bit.
///
/// NOT A SECURE HASH. Practical collision and preimage attacks on Tillich-Zémor hashing are
/// published, and the hash is malleable by design. Use it as a homomorphic checksum (the hash
/// of a concatenation is the product of the parts' hashes), for compatibility with tzhash, and
/// never where an adversary may choose the data.
#[pyclass(frozen, immutable_type, module = "arborhash", name = "tz")]
pub struct Tz {
    state: Locked<tz::Hasher>,
    digest_size: usize,
}

hash_object!(
    Tz,
    tz::Hasher,
    |state| state.finalize().as_bytes(),
    |hash| &hash,
    {
        /// The algorithm's name.
        #[classattr]
        const name: &'static str = "tz";
        /// The hash works bit by bit; a block is one byte.
        #[classattr]
        const block_size: usize = 1;

        #[new]
        #[pyo3(text_signature = "(data=b'', /)")]
        #[pyo3(signature = (data = Buffer(None), /))]
        fn new(py: Python<'_>, data: Buffer<'_>) -> Self {
            Self::fed(py, tz::Hasher::new(), tz::OUT_LEN, data.0)
        }
    }
);
