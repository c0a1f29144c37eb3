//! BLAKE3: hash, keyed hash, key derivation and extended output.

mod avx2;
pub(crate) mod kernels;
mod portable;
mod sse41;
