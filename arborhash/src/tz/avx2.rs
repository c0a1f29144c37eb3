//! The AVX2 + VPCLMULQDQ backend (placeholder: the 128-bit code).

/// # Safety
/// The CPU must support AVX2, PCLMULQDQ and VPCLMULQDQ.
#[target_feature(enable = "avx2,pclmulqdq,vpclmulqdq")]
pub(crate) unsafe fn mul_bytes(state: &mut [u128; 4], input: &[u8]) {
    // SAFETY: AVX2 implies SSE4.1.
    unsafe { super::sse41::mul_bytes(state, input) }
}
