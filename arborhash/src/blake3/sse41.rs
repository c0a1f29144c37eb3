//! BLAKE3 kernels for SSE4.1: the shared SIMD code of `simd` on `__m128i`, four lanes per vector
//! in the transposed form and one in the row form, with the `Shuffles` rotations.
//!
//! Single blocks and groups of at most three lanes go through the row form, groups of four
//! through the transposed one. AVX2 implies SSE4.1, so `avx2` reuses the single-block and
//! extended-output paths here, compiled there VEX-encoded.
//!
//! The helpers are `#[inline(always)]` without `#[target_feature]`: they are only ever compiled
//! inlined into the `#[target_feature]` entry points of this module or of `avx2` and `avx512`.
//! That is why each of them is `unsafe`: calling one is sound only from code compiled with SSE4.1
//! enabled on a CPU that has it.

use core::arch::x86_64::*;

use super::kernels::{copy_then_hash, Group, Kernels, Lane, BLOCK_LEN};
use super::simd::{self, load128, store128, transpose4_fn, LaneWords, Rotate, RowWords};

/// A byte shuffle mask for 16 or 32 bytes, reloaded where used (`ByteMask::get`).
#[repr(align(32))]
pub(super) struct ByteMask(pub(super) [u8; 32]);

impl ByteMask {
    /// The mask as a vector of 16 or 32 bytes, loaded afresh where it is used
    /// (`crate::arch::opaque::reload`), so that LLVM
    /// neither rewrites the rotation by 16 from the known constant (`pshuflw` + `pshufhw`, two
    /// shuffles on port 5 instead of one) nor keeps the mask in a register across the
    /// transposed rounds, where the sixteen state words already fill the sixteen registers and
    /// LLVM spills: a `vpshufb` with a memory operand costs a load, not a register.
    ///
    /// # Safety
    /// `V` is `__m128i` or `__m256i` (at most the 32 bytes of the mask).
    #[inline(always)]
    pub(super) unsafe fn get<V: Copy>(&self) -> V {
        // SAFETY: the mask is 32-byte aligned and 32 bytes, as much as `V` reads, and any bytes
        // are a valid vector.
        crate::arch::opaque::reload(unsafe { &*self.0.as_ptr().cast::<V>() })
    }
}

/// The byte shuffle rotating every 32-bit word right by 16 bits.
pub(super) const ROT16: ByteMask = ByteMask([
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, //
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
]);
pub(super) static ROT16_MASK: ByteMask = ROT16;

/// The byte shuffle rotating every 32-bit word right by 8 bits.
pub(super) const ROT8: ByteMask = ByteMask([
    1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, //
    1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
]);
pub(super) static ROT8_MASK: ByteMask = ROT8;

/// G's rotations without AVX-512: byte shuffles for 16 and 8 bits, shift-or for 12 and 7.
/// Implemented here for `__m128i` (SSE4.1) and in `avx2` for `__m256i`.
pub(super) enum Shuffles {}

impl Rotate<__m128i> for Shuffles {
    #[inline(always)]
    unsafe fn rot16(x: __m128i) -> __m128i {
        // SAFETY: SSSE3; see the trait.
        unsafe { _mm_shuffle_epi8(x, ROT16_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot12(x: __m128i) -> __m128i {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_or_si128(_mm_srli_epi32::<12>(x), _mm_slli_epi32::<20>(x)) }
    }

    #[inline(always)]
    unsafe fn rot8(x: __m128i) -> __m128i {
        // SAFETY: SSSE3; see the trait.
        unsafe { _mm_shuffle_epi8(x, ROT8_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot7(x: __m128i) -> __m128i {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_or_si128(_mm_srli_epi32::<7>(x), _mm_slli_epi32::<25>(x)) }
    }
}

transpose4_fn!(
    transpose4,
    __m128i,
    _mm_unpacklo_epi32,
    _mm_unpackhi_epi32,
    _mm_unpacklo_epi64,
    _mm_unpackhi_epi64
);

impl LaneWords for __m128i {
    const LANES: usize = 4;

    #[inline(always)]
    unsafe fn stream_line(src: *const u8, dst: *mut u8) {
        // SAFETY: SSE2; `src` holds 64 bytes and `dst`, 64-byte aligned, takes them (see the
        // trait).
        unsafe {
            for quarter in (0..64).step_by(16) {
                _mm_stream_si128(dst.add(quarter).cast(), load128(src.add(quarter)));
            }
        }
    }

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 16]) -> Self {
        // SAFETY: `w` has at least 16 bytes.
        unsafe { load128(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_xor_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16], at: usize) -> [Self; W] {
        // SAFETY: SSE2 (see the trait); the caller guarantees `4 * W` readable bytes at
        // `src[i] + at` for the first four pointers.
        unsafe {
            let mut words = [_mm_setzero_si128(); W];
            for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
                let mut rows = [_mm_setzero_si128(); 4];
                for (i, row) in rows.iter_mut().enumerate() {
                    *row = load128(src[i].add(at + 16 * quarter));
                }
                group.copy_from_slice(&transpose4(rows));
            }
            words
        }
    }

    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        for (quarter, group) in words.chunks_exact(4).enumerate() {
            // SAFETY: the feature is enabled (see the trait).
            let rows = unsafe { transpose4([group[0], group[1], group[2], group[3]]) };
            for (i, row) in rows.into_iter().enumerate() {
                // SAFETY: the caller guarantees `4 * W` writable bytes at `dst[i]`.
                unsafe { store128(dst[i].add(16 * quarter), row) };
            }
        }
    }
}

impl RowWords for __m128i {
    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `src[0]`.
        unsafe { load128(src[0]) }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `src`.
        unsafe { load128(src) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: the caller guarantees 16 writable bytes at `dst[0]`.
        unsafe { store128(dst[0], self) }
    }

    #[inline(always)]
    unsafe fn shuffle_words<const IMM: i32>(self) -> Self {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle_pairs<const IMM: i32>(self, other: Self) -> Self {
        // SAFETY: SSE; see the trait.
        unsafe {
            _mm_castps_si128(_mm_shuffle_ps::<IMM>(
                _mm_castsi128_ps(self),
                _mm_castsi128_ps(other),
            ))
        }
    }

    #[inline(always)]
    unsafe fn blend_halfwords<const IMM: i32>(self, other: Self) -> Self {
        // SAFETY: SSE4.1; see the trait.
        unsafe { _mm_blend_epi16::<IMM>(self, other) }
    }

    #[inline(always)]
    unsafe fn unpack_lo(self, other: Self) -> Self {
        // SAFETY: SSE2; see the trait.
        unsafe { _mm_unpacklo_epi32(self, other) }
    }

    simd::opaque_fn!("sse2", xmm_reg);
}

/// The SSE4.1 backend.
pub(crate) struct Sse41;

impl Kernels for Sse41 {
    const DEGREE: usize = 4;

    /// Compresses `blocks` into `cv`, one after another: the SSE4.1 form of
    /// `portable::compress_in_place`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        // SAFETY: SSE4.1 is enabled here and present (our contract).
        unsafe {
            simd::compress_rows_in_place::<Shuffles>(
                cv,
                blocks,
                block_len,
                counter,
                flags,
                flags_start,
            )
        }
    }
    /// Hashes the 1 to 4 whole chunks `lanes` and copies them to `dsts`: four transposed, each
    /// block copied as it is loaded; fewer lanes are copied first, then hashed in rows.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; the arguments are as `Kernels::hash_many_copying`
    /// requires.
    #[target_feature(enable = "sse4.1")]
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: the features are enabled here and present; each kernel gets a lane count it
        // takes, and the rest is forwarded from the caller.
        unsafe {
            match lanes.len() {
                4 => simd::hash_transposed_copying::<__m128i, Shuffles>(lanes, flags, dsts, out),
                _ => copy_then_hash::<Self>(lanes, flags, dsts, out),
            }
        }
    }

    /// Hashes the 0 to 4 lanes of `group`, lane `i` into `out[i]`: four transposed, one to three
    /// in rows, one interleaved state each.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; the group and `out` are as `Kernels::hash_many` requires.
    #[target_feature(enable = "sse4.1")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: SSE4.1 is enabled here and present; each kernel gets a lane count it takes.
        unsafe {
            match group.len() {
                4 => simd::hash_transposed::<__m128i, Shuffles>(group, out),
                3 => simd::hash_in_rows::<__m128i, Shuffles, 3>(group, out),
                2 => simd::hash_in_rows::<__m128i, Shuffles, 2>(group, out),
                1 => simd::hash_in_rows::<__m128i, Shuffles, 1>(group, out),
                // An empty group (the kernel tests pass one): nothing to hash.
                _ => {}
            }
        }
    }

    /// Extended output, four blocks at a time: the SSE4.1 form of `portable::xof_many`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; `out.len()` must be a multiple of `BLOCK_LEN`.
    #[target_feature(enable = "sse4.1")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        // SAFETY: SSE4.1 is enabled here and present (our contract).
        unsafe { xof_many_from(cv, block, block_len, counter, flags, out) }
    }
}

/// The tail of `xof_many` shared with AVX2: groups of four output blocks, then single ones.
/// `counter` is the counter of the first block of `out`.
///
/// # Safety
/// Only from code compiled with SSE4.1 on a CPU that has it; `out.len()` is a multiple of
/// `BLOCK_LEN`.
#[inline(always)]
pub(super) unsafe fn xof_many_from(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    const GROUP: usize = 4 * BLOCK_LEN;
    // SAFETY: forwarded from the caller; each group slice is exactly 4 blocks, each single
    // slice one.
    unsafe {
        let mut counter = counter;
        let mut groups = out.chunks_exact_mut(GROUP);
        if groups.len() > 0 {
            let m = simd::broadcast_block::<__m128i>(block);
            for group in &mut groups {
                simd::xof_group::<__m128i, Shuffles>(cv, &m, block_len, counter, flags, group);
                counter = counter.wrapping_add(4);
            }
        }
        for out_block in groups.into_remainder().chunks_exact_mut(BLOCK_LEN) {
            simd::xof_rows::<__m128i, Shuffles>(cv, block, block_len, counter, flags, out_block);
            counter = counter.wrapping_add(1);
        }
    }
}
