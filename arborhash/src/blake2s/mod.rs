//! BLAKE2s (RFC 7693): 32-bit words, 64-byte blocks, digests of 1 to 32 bytes.

mod avx2;
pub(crate) mod kernels;
mod portable;
mod sse41;

/// The initialization vector (the SHA-256 IV; BLAKE3 uses the same one).
pub(crate) const IV: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];
