//! x86-64: SSE4.1 (128-bit vectors), AVX2 (256-bit) and AVX-512F with AVX-512VL (512-bit, and
//! one-instruction rotations on all three widths).
//!
//! What every width shares is here: [`pick`], the [`WordRotations`] of BLAKE3 and BLAKE2s and the
//! [`QwordRotations`] of BLAKE2b with their two ways of rotating ([`Shuffles`], implemented in
//! `sse41` and `avx2`; [`Ror`], in `avx512`), and the 4x4 word transpose within 128-bit lanes
//! (`transpose4_fn!`).

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;

// 32-bit words

/// The immediate of `pshufd` / `shufps` / `vshufi64x2` taking source elements `w, x, y, z` into
/// result elements 0, 1, 2, 3.
pub(crate) const fn pick(w: i32, x: i32, y: i32, z: i32) -> i32 {
    w | (x << 2) | (y << 4) | (z << 6)
}

/// The rotations right of every 32-bit word of a vector `V` by 16, 12, 8 and 7 bits (the G
/// function of BLAKE3 and BLAKE2s), by one strategy: [`Shuffles`] or [`Ror`].
///
/// Every function requires the CPU features of its implementation: that is the safety contract
/// of each `unsafe fn` below.
pub(crate) trait WordRotations<V> {
    unsafe fn rot16(x: V) -> V;
    unsafe fn rot12(x: V) -> V;
    unsafe fn rot8(x: V) -> V;
    unsafe fn rot7(x: V) -> V;
}

/// Rotations without AVX-512: for 32-bit words byte shuffles for 16 and 8 bits and shift-or for
/// 12 and 7; for 64-bit words a word shuffle for 32, byte shuffles for 24 and 16 and add-or for
/// 63 (for `__m128i` in `sse41`, for `__m256i` in `avx2`).
pub(crate) enum Shuffles {}

/// Rotations as one AVX-512VL `vprord` or `vprorq` each, for every vector width (in `avx512`).
pub(crate) enum Ror {}

// 64-bit words

/// The rotations right of every 64-bit word of a vector `V` by 32, 24, 16 and 63 bits (the G
/// function of BLAKE2b), by one strategy: [`Shuffles`] or [`Ror`].
///
/// Every function requires the CPU features of its implementation: that is the safety contract
/// of each `unsafe fn` below.
pub(crate) trait QwordRotations<V> {
    unsafe fn rot32(x: V) -> V;
    unsafe fn rot24(x: V) -> V;
    unsafe fn rot16(x: V) -> V;
    unsafe fn rot63(x: V) -> V;
}

/// Defines `$name`, the 4x4 word transpose within each 128-bit lane of four vectors of type `$t`
/// (word `j` of row `i` becomes word `i` of row `j`), from that type's unpack intrinsics.
macro_rules! transpose4_fn {
    ($name:ident, $t:ty, $lo32:ident, $hi32:ident, $lo64:ident, $hi64:ident) => {
        /// The 4x4 word transpose within each 128-bit lane of four vectors: word `j` of row `i`
        /// becomes word `i` of row `j`.
        ///
        /// # Safety
        /// The caller is compiled with the vector type's feature, on a CPU that has it.
        #[inline(always)]
        pub(crate) unsafe fn $name(r: [$t; 4]) -> [$t; 4] {
            // SAFETY: the caller is compiled with the type's feature (our contract).
            unsafe {
                let ab_lo = $lo32(r[0], r[1]);
                let ab_hi = $hi32(r[0], r[1]);
                let cd_lo = $lo32(r[2], r[3]);
                let cd_hi = $hi32(r[2], r[3]);
                [
                    $lo64(ab_lo, cd_lo),
                    $hi64(ab_lo, cd_lo),
                    $lo64(ab_hi, cd_hi),
                    $hi64(ab_hi, cd_hi),
                ]
            }
        }
    };
}
use transpose4_fn;
