//! The Tillich-Zémor kernels and the backend dispatch in front of them.
//!
//! The hasher, concatenation and the multi-threaded split are written once against these
//! functions.
//!
//! The vector backends need carry-less multiplication besides their `Platform` features: the
//! SSE4.1 backend PCLMULQDQ, the AVX2 backend VPCLMULQDQ. Without it the AVX2 backend uses the
//! PCLMULQDQ code, and without PCLMULQDQ either uses the portable code. The NEON backend needs
//! PMULL (the `aes` feature) and otherwise uses the portable code.

#[cfg(target_arch = "aarch64")]
use super::pmull;
#[cfg(target_arch = "x86_64")]
use super::{avx2, sse41};
use super::{hash::Hash, portable};
use crate::platform::Platform;

/// Which carry-less-multiply code a platform can run.
#[derive(Clone, Copy)]
enum Clmul {
    /// None: the portable code.
    None,
    /// PCLMULQDQ with SSE4.1 (`sse41.rs`).
    #[cfg(target_arch = "x86_64")]
    Pclmul,
    /// VPCLMULQDQ with AVX2 (`avx2.rs`).
    #[cfg(target_arch = "x86_64")]
    Vpclmul,
    /// PMULL with NEON (`pmull.rs`).
    #[cfg(target_arch = "aarch64")]
    Pmull,
}

#[cfg(target_arch = "x86_64")]
fn clmul(p: Platform) -> Clmul {
    use crate::platform::Backend;
    match p.backend() {
        Backend::Portable => Clmul::None,
        // The AVX-512 backend has no kernel of its own here: it runs the AVX2 one.
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar
            if !pclmulqdq_detected() =>
        {
            Clmul::None
        }
        Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar if vpclmulqdq_detected() => {
            Clmul::Vpclmul
        }
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar => Clmul::Pclmul,
        Backend::Neon => unreachable!("the NEON backend is only selected on AArch64"),
    }
}

#[cfg(target_arch = "aarch64")]
fn clmul(p: Platform) -> Clmul {
    use crate::platform::Backend;
    match p.backend() {
        Backend::Neon if pmull_detected() => Clmul::Pmull,
        _ => Clmul::None,
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn clmul(_: Platform) -> Clmul {
    Clmul::None
}

/// Multiplies `state` on the right by the matrix of `input`, so that afterwards `state` is the
/// hash of what it hashed followed by `input`.
pub(crate) fn mul_bytes(p: Platform, state: &mut Hash, input: &[u8]) {
    let mut bits = state.to_bits();
    match clmul(p) {
        Clmul::None => portable::mul_bytes(&mut bits, input),
        // SAFETY: the `Platform` proves SSE4.1 (AVX2 implies it) and PCLMULQDQ was detected.
        #[cfg(target_arch = "x86_64")]
        Clmul::Pclmul => unsafe { sse41::mul_bytes(&mut bits, input) },
        // SAFETY: the `Platform` proves AVX2, and PCLMULQDQ and VPCLMULQDQ were detected.
        #[cfg(target_arch = "x86_64")]
        Clmul::Vpclmul => unsafe { avx2::mul_bytes(&mut bits, input) },
        // SAFETY: the `Platform` proves NEON, and PMULL was detected.
        #[cfg(target_arch = "aarch64")]
        Clmul::Pmull => unsafe { pmull::mul_bytes(&mut bits, input) },
    }
    *state = Hash::from_reduced_bits(bits);
}

/// The matrix product `a * b`.
pub(crate) fn mul_matrices(p: Platform, a: &Hash, b: &Hash) -> Hash {
    let (a, b) = (a.to_bits(), b.to_bits());
    let product = match clmul(p) {
        Clmul::None => portable::mul_matrices(&a, &b),
        // SAFETY: the `Platform` proves SSE4.1 (AVX2 implies it) and PCLMULQDQ was detected.
        #[cfg(target_arch = "x86_64")]
        Clmul::Pclmul | Clmul::Vpclmul => unsafe { sse41::mul_matrices(&a, &b) },
        // SAFETY: the `Platform` proves NEON, and PMULL was detected.
        #[cfg(target_arch = "aarch64")]
        Clmul::Pmull => unsafe { pmull::mul_matrices(&a, &b) },
    };
    Hash::from_reduced_bits(product)
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn pclmulqdq_detected() -> bool {
    std::is_x86_feature_detected!("pclmulqdq")
}
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn vpclmulqdq_detected() -> bool {
    std::is_x86_feature_detected!("vpclmulqdq")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn pclmulqdq_detected() -> bool {
    cfg!(target_feature = "pclmulqdq")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn vpclmulqdq_detected() -> bool {
    cfg!(target_feature = "vpclmulqdq")
}
#[cfg(all(target_arch = "aarch64", feature = "std"))]
fn pmull_detected() -> bool {
    std::arch::is_aarch64_feature_detected!("aes")
}
#[cfg(all(target_arch = "aarch64", not(feature = "std")))]
fn pmull_detected() -> bool {
    cfg!(target_feature = "aes")
}
