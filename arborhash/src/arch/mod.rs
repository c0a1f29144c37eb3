//! The vector vocabulary of each instruction set, shared by every algorithm: loads and stores,
//! rotations, transposes, and the one helper that hides a value from the optimiser. One module per
//! instruction set (`x86/sse41`, `x86/avx2`, `x86/avx512`, `aarch64/neon`, `wasm32/simd128`); an
//! algorithm's backend file (`blake3/avx2.rs`, `blake2/neon.rs`, ...) builds its kernels from
//! these and defines no vector helpers of its own.
//!
//! Everything here is `#[inline(always)]` without `#[target_feature]`: it is only ever compiled
//! inlined into a backend's `#[target_feature]` entry points, which run only on a CPU that a
//! `Platform` proves has the features. That is why the vector functions are `unsafe` (but on
//! WebAssembly, whose SIMD128 is a compile-time feature: see `wasm32::simd128`).

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod clmul;
#[cfg(target_arch = "x86_64")]
pub(crate) mod opaque;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod wasm32;
#[cfg(any(
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) mod words4;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;
