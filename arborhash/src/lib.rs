//! Fast hash functions: the BLAKE2 family, BLAKE3 and the Tillich-Zémor homomorphic hash.
//!
//! Each algorithm has a portable backend and, on x86-64, SSE4.1, AVX2 and AVX-512 backends, on
//! AArch64 a NEON backend, chosen at run time (see [`platform`]). The public APIs follow the `blake2b_simd`, `blake2s_simd` and
//! `blake3` crates, so that switching to this crate is a change of import.
//!
//! The crate is `no_std` without its default `std` feature; hashing never allocates.

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod bytes;
pub mod platform;

pub use bytes::{HexError, HexString};
pub use platform::Backend;

mod blake2;
pub mod blake2b;
pub mod blake2bp;
pub mod blake2s;
pub mod blake2sp;
pub mod blake2xb;
pub mod blake2xs;
pub mod blake3;
#[cfg(feature = "mmap")]
pub mod mmap;
#[cfg(target_arch = "aarch64")]
mod neon;
mod threads;
pub mod tz;
