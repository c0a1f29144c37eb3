//! BLAKE2b (RFC 7693): 64-bit words, 128-byte blocks, digests of 1 to 64 bytes.
//!
//! The API follows `blake2b_simd` 1.x: [`blake2b`], [`Params`], [`State`], [`Hash`](type@Hash), the batch
//! module [`many`] and [`blake2bp`] (also at `arborhash::blake2bp`), so switching is a change of
//! import. Hashing never allocates.
//!
//! ```
//! use arborhash::blake2b::{blake2b, Params};
//! let hash = blake2b(b"abc");
//! assert_eq!(&hash.to_hex()[..16], "ba80a53f981c4d0d");
//! let mac = Params::new().hash_length(32).key(b"key").hash(b"message");
//! assert_eq!(mac.as_bytes().len(), 32);
//! ```

// The SIMD kernels, one module per backend with the same three functions; `Variant` dispatches
// to them and to the portable kernel of blake2/portable.rs.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse41;

/// The initialization vector (the SHA-512 IV).
pub(crate) const IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

crate::blake2::api::sequential_api!(
    crate::blake2::variant::Blake2b,
    "BLAKE2b",
    blake2b,
    blake2bp,
    4
);
