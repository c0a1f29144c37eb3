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

/// The initialization vector (the SHA-256 IV; BLAKE3 uses the same one).
pub(crate) const IV: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];

crate::blake2::api::sequential_api!(
    crate::blake2::variant::Blake2s,
    "BLAKE2s",
    blake2s,
    blake2sp,
    8
);
