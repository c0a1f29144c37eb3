//! The Tillich-Zémor kernel interface: what one backend provides.
//!
//! # What a backend provides
//!
//! A backend is one file beside this one (`portable.rs`, `sse41.rs`, `avx2.rs`, `neon.rs`) with
//! a unit type implementing [`Kernels`] on hashes as bits (`[u128; 4]`, the entries c00, c01,
//! c10, c11, each below 2^127):
//!
//! - `mul_bytes`: the running hash times the matrix of an input;
//! - `mul_matrices`: the product of two hashes.
//!
//! Each is an `unsafe fn`, callable once a `Platform` from `Platform::carryless` proves the CPU
//! has the backend's features and its carry-less multiply. Adding a backend takes one file here
//! and one line in `dispatch.rs`'s `mod backends` (the names `platform::dispatch!` looks up);
//! the hasher and the algebra on hashes reach every backend through `dispatch.rs`, whose
//! functions are the only callers of the trait. The kernel tests (`kernel_tests.rs`) check every
//! backend the CPU has against the portable one.

/// Bytes in a window of the carry-less-multiply backends (see `window.rs`).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) const WINDOW: usize = 8;

/// The kernels of one backend.
pub(crate) trait Kernels {
    /// Multiplies `state` on the right by the matrix of `input`, so that afterwards `state` is
    /// the hash of what it hashed followed by `input`.
    ///
    /// # Safety
    /// The CPU has the backend's features and its carry-less multiply.
    unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]);

    /// The matrix product `a * b`.
    ///
    /// # Safety
    /// As for `mul_bytes`.
    unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4];
}
