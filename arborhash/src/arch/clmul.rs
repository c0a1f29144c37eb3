//! The lane-wise operations that carry-less-multiply code is written in, for every vector type
//! whose 128-bit lanes (two 64-bit words, word 0 the low one) are independent: `__m128i` with
//! PCLMULQDQ, `__m256i` with VPCLMULQDQ, `uint64x2_t` with PMULL. Each instruction set's file
//! implements it in its section `// Carry-less multiplication`.

/// Vectors of independent 128-bit lanes with a carry-less multiply. Every function is `unsafe`:
/// it needs the instruction set of its implementation, and its carry-less multiply.
pub(crate) trait ClmulLanes: Copy {
    /// Per lane, the 128-bit carry-less product of word `IMM & 1` of `a` and word
    /// `(IMM >> 4) & 1` of `b` (PCLMULQDQ's immediate).
    unsafe fn clmul<const IMM: i32>(a: Self, b: Self) -> Self;
    unsafe fn xor(a: Self, b: Self) -> Self;
    unsafe fn and(a: Self, b: Self) -> Self;
    /// Per lane, `[a0, b0]`.
    unsafe fn unpacklo64(a: Self, b: Self) -> Self;
    /// Per lane, `[a1, b1]`.
    unsafe fn unpackhi64(a: Self, b: Self) -> Self;
    unsafe fn srli64<const N: i32>(a: Self) -> Self;
    unsafe fn slli64<const N: i32>(a: Self) -> Self;
    /// Arithmetic shift right of every 32-bit word.
    unsafe fn srai32<const N: i32>(a: Self) -> Self;
    /// Shifts each lane right by 8 bytes.
    unsafe fn bsrli8(a: Self) -> Self;
    /// Shifts each lane left by 8 bytes.
    unsafe fn bslli8(a: Self) -> Self;
    /// Per lane, word 0 of `a` and word 1 of `b`.
    unsafe fn blend_hi(a: Self, b: Self) -> Self;
    /// Per lane, 32-bit word 3 in all four words.
    unsafe fn top_dword(a: Self) -> Self;
    unsafe fn sub64(a: Self, b: Self) -> Self;
    unsafe fn zero() -> Self;
    unsafe fn splat64(x: u64) -> Self;
    /// Every lane `[lo, hi]`.
    unsafe fn set64(hi: u64, lo: u64) -> Self;
}
