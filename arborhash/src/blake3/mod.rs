//! BLAKE3: hash, keyed hash, key derivation and extended output, with the API of the `blake3`
//! crate (1.x), so that switching is a change of import; plus batch hashing of many messages
//! ([`many`]) and a subtree API for splitting work ([`hazmat`]).
//!
//! With the `traits-preview` feature, [`Hasher`] and [`OutputReader`] implement the RustCrypto
//! `digest` traits as the `blake3` crate's do (`traits` re-exports that crate as
//! `traits::digest`).
//!
//! ```
//! use arborhash::blake3;
//! let hash = blake3::hash(b"foobarbaz");
//! let mut hasher = blake3::Hasher::new();
//! hasher.update(b"foo").update(b"bar").update(b"baz");
//! assert_eq!(hasher.finalize(), hash);
//! ```

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod buffer;
mod dispatch;
#[cfg(any(
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod four;
mod hash;
mod hasher;
pub mod hazmat;
#[cfg(all(test, feature = "std"))]
mod kernel_tests;
pub(crate) mod kernels;
pub mod many;
#[cfg(target_arch = "aarch64")]
mod neon;
mod output;
mod portable;
#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(target_arch = "x86_64")]
mod sse41;
#[cfg(feature = "traits-preview")]
pub mod traits;
mod tree;

pub use crate::bytes::HexError;
pub use hash::Hash;
pub use hasher::Hasher;
pub use output::OutputReader;

use crate::platform::Platform;
use tree::{context_key, root_hash_all, Params};

/// Bytes in the default output.
pub const OUT_LEN: usize = tree::OUT_LEN;
/// Bytes in a key for [`keyed_hash`] and [`Hasher::new_keyed`].
pub const KEY_LEN: usize = tree::KEY_LEN;
/// Bytes in a block, the unit of compression.
pub const BLOCK_LEN: usize = kernels::BLOCK_LEN;
/// Bytes in a chunk, the leaves of the tree.
pub const CHUNK_LEN: usize = kernels::CHUNK_LEN;

/// Hashes `input` in one call, on the widest kernels the CPU has: the same result as a
/// [`Hasher`] given the same bytes in any pieces.
///
/// ```
/// use arborhash::blake3;
/// let hash = blake3::hash(b"abc");
/// assert_eq!(
///     hash.to_hex().as_str(),
///     "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"
/// );
/// ```
pub fn hash(input: &[u8]) -> Hash {
    let p = Platform::current();
    Hash::from_bytes(root_hash_all(p, input, Params::HASH))
}

/// Hashes `input` under a secret 32-byte `key`, giving a MAC or PRF. Compare the result with a
/// received one with `==`, which runs in constant time.
///
/// ```
/// use arborhash::blake3;
/// let key = [7u8; blake3::KEY_LEN];
/// let tag = blake3::keyed_hash(&key, b"message");
/// assert_eq!(tag, blake3::Hasher::new_keyed(&key).update(b"message").finalize());
/// assert_ne!(tag, blake3::hash(b"message"));
/// ```
pub fn keyed_hash(key: &[u8; KEY_LEN], input: &[u8]) -> Hash {
    let p = Platform::current();
    Hash::from_bytes(root_hash_all(p, input, Params::keyed(key)))
}

/// Derives a 32-byte key from `key_material` for the use named by `context`, which should be
/// hardcoded, globally unique and application-specific: different contexts give unrelated
/// keys from the same material. For longer outputs use [`Hasher::new_derive_key`] with
/// [`Hasher::finalize_xof`].
///
/// ```
/// use arborhash::blake3;
/// let context = "example.com 2026-12-02 session tokens v1";
/// let key = blake3::derive_key(context, b"shared secret");
/// let mut longer = [0u8; 64];
/// blake3::Hasher::new_derive_key(context)
///     .update(b"shared secret")
///     .finalize_xof()
///     .fill(&mut longer);
/// assert_eq!(key, longer[..32]);
/// ```
pub fn derive_key(context: &str, key_material: &[u8]) -> [u8; OUT_LEN] {
    let p = Platform::current();
    let params = Params::derive_key_material(&context_key(p, context.as_bytes()));
    root_hash_all(p, key_material, params)
}
