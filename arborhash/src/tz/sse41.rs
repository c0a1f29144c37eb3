//! The SSE4.1 + PCLMULQDQ backend: one stream of 8-byte windows (see `window.rs`).

use super::kernels::Kernels;
use super::x86;

/// SSE4.1 with PCLMULQDQ.
pub(crate) struct Sse41;

impl Kernels for Sse41 {
    #[inline(always)]
    unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
        // SAFETY: the caller has SSE4.1 and PCLMULQDQ (see `Kernels`).
        unsafe { x86::mul_bytes(state, input) }
    }

    #[inline(always)]
    unsafe fn mul_matrices(a: &[u128; 4], b: &[u128; 4]) -> [u128; 4] {
        // SAFETY: as above.
        unsafe { x86::mul_matrices(a, b) }
    }
}
