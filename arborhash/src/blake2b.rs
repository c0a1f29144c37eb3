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

crate::blake2::api::sequential_api!(
    crate::blake2::variant::Blake2b,
    "BLAKE2b",
    blake2b,
    blake2bp,
    4
);
