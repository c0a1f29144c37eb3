//! AArch64: NEON (Advanced SIMD, 128-bit vectors).

pub(crate) mod neon;
