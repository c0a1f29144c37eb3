//! The BLAKE2 engine, written once for BLAKE2b and BLAKE2s: the types of the public modules
//! [`blake2b`](crate::blake2b), [`blake2s`](crate::blake2s), [`blake2bp`](crate::blake2bp),
//! [`blake2sp`](crate::blake2sp), [`blake2xb`](crate::blake2xb) and [`blake2xs`](crate::blake2xs)
//! are the generic types of this module for one [`Variant`], [`Blake2b`] or [`Blake2s`]:
//! `blake2b::Params` is [`Params<Blake2b>`](Params). Use them through those modules; every
//! method documented here is theirs.
//!
//! Inside the crate the files are layered bottom-up, each using only those below it: the
//! constants and the kernel trait (`kernels.rs`); what the x86 backends share (the lane driver
//! `simd.rs`, then the kernels `x86.rs`); the backends (`portable.rs`, `sse41.rs`, `avx2.rs`,
//! `avx512.rs`, `scalar.rs`, `neon.rs`), none importing another; the dispatch (`dispatch.rs`,
//! which also composes the `avx512-scalar` route from `scalar.rs`, `portable.rs` and
//! `avx512.rs`); the engine (`variant.rs`, `lanes.rs`, `hash.rs`, then the one-shot core
//! `oneshot.rs`, then `params.rs`, `state.rs`, `parallel.rs`, `xof.rs`, `many.rs`); and the
//! macros of the public facades (`api.rs`).

pub(crate) mod api;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub(crate) mod dispatch;
mod hash;
#[cfg(test)]
mod kernel_tests;
mod kernels;
mod lanes;
pub mod many;
#[cfg(target_arch = "aarch64")]
mod neon;
mod oneshot;
pub mod parallel;
pub(crate) mod params;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod simd;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(target_arch = "x86_64")]
mod sse41;
mod state;
pub(crate) mod variant;
#[cfg(target_arch = "x86_64")]
mod x86;
pub mod xof;

pub use hash::Hash;
pub use kernels::Word;
pub use params::Params;
pub use state::State;
pub use variant::{Blake2b, Blake2s, Variant};
