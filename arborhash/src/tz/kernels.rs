//! The Tillich-Zémor kernel interface: each backend file implements [`Kernels`] on hashes as
//! bits (`[u128; 4]`, entries c00, c01, c10, c11 below 2^127), reached only through `dispatch.rs`.

/// Bytes in a window of the carry-less-multiply backends (see `window.rs`).
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) const WINDOW: usize = 8;

/// The kernels of one backend.
pub(crate) trait Kernels {
    /// Multiplies `state` on the right by the matrix of `input` (appends `input` to the hash).
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
