//! x86-64: SSE4.1 (128-bit vectors), AVX2 (256-bit) and AVX-512F with AVX-512VL (512-bit, and
//! one-instruction rotations on all three widths).

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
