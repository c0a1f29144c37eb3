//! The Tillich-Zémor kernels and the backend dispatch in front of them.
//!
//! The hasher, concatenation and the multi-threaded split are written once against
//! [`mul_bytes`]; each backend module implements it.

use super::hash::Hash;
use super::{avx2, portable, sse41};
use crate::platform::{Backend, Platform};

/// Multiplies `state` on the right by the matrix of `input`, so that afterwards `state` is the
/// hash of what it hashed followed by `input`.
pub(crate) fn mul_bytes(p: Platform, state: &mut Hash, input: &[u8]) {
    let mut bits = state.to_bits();
    match p.backend() {
        Backend::Portable => portable::mul_bytes(&mut bits, input),
        Backend::Sse41 if pclmulqdq_detected() => {
            // SAFETY: the `Platform` proves SSE4.1, and PCLMULQDQ was just detected.
            unsafe { sse41::mul_bytes(&mut bits, input) }
        }
        Backend::Avx2 if vpclmulqdq_detected() => {
            // SAFETY: the `Platform` proves AVX2, and VPCLMULQDQ (with PCLMULQDQ) was detected.
            unsafe { avx2::mul_bytes(&mut bits, input) }
        }
        Backend::Avx2 if pclmulqdq_detected() => {
            // SAFETY: the `Platform` proves AVX2, which implies SSE4.1; PCLMULQDQ was detected.
            unsafe { sse41::mul_bytes(&mut bits, input) }
        }
        // Without carry-less multiplication the vector backends have nothing to offer here.
        Backend::Sse41 | Backend::Avx2 => portable::mul_bytes(&mut bits, input),
    }
    *state = Hash::from_reduced_bits(bits);
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn pclmulqdq_detected() -> bool {
    std::is_x86_feature_detected!("pclmulqdq")
}
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn vpclmulqdq_detected() -> bool {
    std::is_x86_feature_detected!("pclmulqdq") && std::is_x86_feature_detected!("vpclmulqdq")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn pclmulqdq_detected() -> bool {
    cfg!(target_feature = "pclmulqdq")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn vpclmulqdq_detected() -> bool {
    cfg!(all(
        target_feature = "pclmulqdq",
        target_feature = "vpclmulqdq"
    ))
}
#[cfg(not(target_arch = "x86_64"))]
fn pclmulqdq_detected() -> bool {
    false
}
#[cfg(not(target_arch = "x86_64"))]
fn vpclmulqdq_detected() -> bool {
    false
}
