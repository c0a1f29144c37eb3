//! WebAssembly: SIMD128 (128-bit vectors), a compile-time feature.

pub(crate) mod simd128;
