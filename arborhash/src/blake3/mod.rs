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
mod dispatch;
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
use tree::{
    root_hash_all, words_from_le, Params, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL, KEYED_HASH,
};

pub(crate) use kernels::IV;

/// Bytes in the default output.
pub const OUT_LEN: usize = 32;
/// Bytes in a key for [`keyed_hash`] and [`Hasher::new_keyed`].
pub const KEY_LEN: usize = 32;
/// Bytes in a block, the unit of compression.
pub const BLOCK_LEN: usize = kernels::BLOCK_LEN;
/// Bytes in a chunk, the leaves of the tree.
pub const CHUNK_LEN: usize = tree::CHUNK_LEN;

impl Params {
    const HASH: Params = Params { key: IV, flags: 0 };

    fn keyed(key: &[u8; KEY_LEN]) -> Params {
        Params {
            key: words_from_le(key),
            flags: KEYED_HASH,
        }
    }

    fn derive_key_material(context_key: &[u8; 32]) -> Params {
        Params {
            key: words_from_le(context_key),
            flags: DERIVE_KEY_MATERIAL,
        }
    }
}

/// The hash of `context` in the derive-key context mode: the key of the key-material stage.
/// Bytes rather than a string, for [`hazmat::hash_derive_key_context_bytes`].
fn context_key(p: Platform, context: &[u8]) -> [u8; 32] {
    let params = Params {
        key: IV,
        flags: DERIVE_KEY_CONTEXT,
    };
    root_hash_all(p, context, params)
}

/// The default hash of `input`.
pub fn hash(input: &[u8]) -> Hash {
    let p = Platform::current();
    Hash::from_bytes(root_hash_all(p, input, Params::HASH))
}

/// The keyed hash of `input` (a MAC or PRF). Compare the result with `==`, which is constant
/// time.
pub fn keyed_hash(key: &[u8; KEY_LEN], input: &[u8]) -> Hash {
    let p = Platform::current();
    Hash::from_bytes(root_hash_all(p, input, Params::keyed(key)))
}

/// Derives a 32-byte key from `key_material` for the use named by `context`, which should be
/// hardcoded, globally unique and application-specific. For longer outputs use
/// [`Hasher::new_derive_key`] with [`Hasher::finalize_xof`].
pub fn derive_key(context: &str, key_material: &[u8]) -> [u8; OUT_LEN] {
    let p = Platform::current();
    let params = Params::derive_key_material(&context_key(p, context.as_bytes()));
    root_hash_all(p, key_material, params)
}
