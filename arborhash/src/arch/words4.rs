//! The vocabulary of four 32-bit words to a vector that NEON and SIMD128 share, as a trait, so
//! that the kernels on four lanes of 32-bit words (`blake3/four.rs`) are written once for both.
//! Each instruction set's module implements it with its own functions.

/// A vector of four 32-bit words.
///
/// # Safety
/// As the functions of the implementing module: only called where its instruction set is
/// enabled; pointers are the caller's to keep valid, as each method says.
pub(crate) trait Words4: Copy {
    /// `x` in every element.
    unsafe fn splat(x: u32) -> Self;
    /// Each of the four words of `w` in every element of its own vector.
    unsafe fn splat4(w: &[u32; 4]) -> [Self; 4];
    /// Four values, one per element.
    unsafe fn words(x: [u32; 4]) -> Self;
    unsafe fn or(a: Self, b: Self) -> Self;
    unsafe fn xor(a: Self, b: Self) -> Self;
    /// 16 bytes at `p`, readable, of any alignment.
    unsafe fn load(p: *const u8) -> Self;
    /// `x` little-endian at `p`, 16 writable bytes of any alignment.
    unsafe fn store(p: *mut u8, x: Self);
    /// Word `j` of row `i` becomes word `i` of row `j`.
    unsafe fn transpose(r: [Self; 4]) -> [Self; 4];
    /// Four words at each of `rows` (16 readable bytes each), transposed.
    unsafe fn load_transposed4(rows: [*const u8; 4]) -> [Self; 4];
    /// The inverse of `load_transposed4` (16 writable bytes at each of `rows`).
    unsafe fn store_transposed4(x: [Self; 4], rows: [*mut u8; 4]);
    /// The 64-byte blocks at `inputs[l] + offset` of four lanes as message words, word `i` of
    /// every lane in element `l` of vector `i`.
    unsafe fn load_blocks4(inputs: &[*const u8; 4], offset: usize) -> [Self; 16];
    /// One round of BLAKE2s or BLAKE3 on four lanes' transposed states, message word `i`
    /// being `m[s[i]]`.
    unsafe fn round4(v: &mut [Self; 16], m: &[Self; 16], s: &[usize; 16]);
}
