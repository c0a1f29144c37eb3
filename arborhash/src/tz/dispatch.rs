//! The one dispatch from a `Platform` to a Tillich-Zémor backend.
//!
//! A carry-less multiply is part of what makes a backend usable here, so the dispatch runs on
//! `Platform::carryless`: an AVX2 or AVX-512 CPU without VPCLMULQDQ runs the SSE4.1 kernels,
//! and a CPU without PCLMULQDQ (or PMULL) the portable ones. Forcing the `sse41` backend reaches
//! the PCLMULQDQ kernels on any x86-64 CPU that has PCLMULQDQ.

use super::kernels::Kernels;
use crate::platform::{dispatch, Platform};

/// Each backend's kernel type, under the names `platform::dispatch!` looks up.
pub(super) mod backends {
    pub(crate) use super::super::portable::Portable;
    #[cfg(target_arch = "x86_64")]
    pub(crate) use super::super::{avx2::Avx2, sse41::Sse41};
    /// No kernels of their own: the AVX2 ones (VPCLMULQDQ on 256 bits).
    #[cfg(target_arch = "x86_64")]
    pub(crate) type Avx512 = Avx2;
    #[cfg(target_arch = "x86_64")]
    pub(crate) type Avx512Scalar = Avx2;
    #[cfg(target_arch = "aarch64")]
    pub(crate) use super::super::neon::Neon;
    /// WebAssembly has no carry-less multiply: the portable kernels.
    #[cfg(target_arch = "wasm32")]
    pub(crate) type Simd128 = Portable;
}

/// Multiplies `state` (entries below 2^127) on the right by the matrix of `input`.
pub(crate) fn mul_bytes(p: Platform, state: &mut [u128; 4], input: &[u8]) {
    let p = p.carryless();
    // SAFETY: `carryless` returns a `Platform` whose backend's features and carry-less multiply
    // the CPU has, which is what each backend's kernels need.
    dispatch!(p, backends, |K| unsafe { K::mul_bytes(state, input) })
}

/// The matrix product `a * b` (entries below 2^127).
pub(crate) fn mul_matrices(p: Platform, a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
    let p = p.carryless();
    // SAFETY: as in `mul_bytes`.
    dispatch!(p, backends, |K| unsafe { K::mul_matrices(a, b) })
}
