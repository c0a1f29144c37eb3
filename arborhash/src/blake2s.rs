//! BLAKE2s (RFC 7693): 32-bit words, 64-byte blocks, digests of 1 to 32 bytes.
//!
//! The API follows `blake2s_simd` 1.x: [`blake2s`], [`Params`], [`State`], [`Hash`](type@Hash), the batch
//! module [`many`] and [`blake2sp`] (also at `arborhash::blake2sp`), so switching is a change of
//! import. Hashing never allocates.
//!
//! ```
//! use arborhash::blake2s::blake2s;
//! assert_eq!(&blake2s(b"abc").to_hex()[..16], "508c5e8c327c14e2");
//! ```

crate::blake2::api::sequential_api!(
    crate::blake2::variant::Blake2s,
    "BLAKE2s",
    blake2s,
    blake2sp,
    8
);
