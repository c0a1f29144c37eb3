//! BLAKE3 kernels for SSE4.1: `simd`'s shared code on `__m128i`, four lanes transposed or one in
//! rows; the trait methods are only compiled inlined into `#[target_feature]` entry points.

use core::arch::x86_64::*;

use super::kernels::{copy_then_hash, Group, Kernels, Lane, BLOCK_LEN};
use super::simd::{self, LaneWords, RowWords};
use crate::arch::x86::sse41::{self, load128, store128, transpose4};
use crate::arch::x86::Shuffles;

impl LaneWords for __m128i {
    const LANES: usize = 4;

    #[inline(always)]
    unsafe fn stream_line(src: *const u8, dst: *mut u8) {
        // SAFETY: SSE2; `src` holds 64 bytes and `dst` is 64-byte aligned (see the trait).
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
        // SAFETY: SSE2; the caller guarantees `4 * W` readable bytes at each `src[i] + at`.
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

    #[inline(always)]
    unsafe fn opaque(self) -> Self {
        // SAFETY: the feature is enabled (see the trait).
        unsafe { sse41::opaque(self) }
    }
}

/// The SSE4.1 backend.
pub(crate) struct Sse41;

impl Kernels for Sse41 {
    const DEGREE: usize = 4;

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
    /// Four lanes copy each block as it is loaded; fewer are copied first, then hashed in rows.
    #[target_feature(enable = "sse4.1")]
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: SSE4.1 is present; each kernel gets a lane count it takes.
        unsafe {
            match lanes.len() {
                4 => simd::hash_transposed_copying::<__m128i, Shuffles>(lanes, flags, dsts, out),
                _ => copy_then_hash::<Self>(lanes, flags, dsts, out),
            }
        }
    }

    #[target_feature(enable = "sse4.1")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: SSE4.1 is enabled here and present; each kernel gets a lane count it takes.
        unsafe {
            match group.len() {
                4 => simd::hash_transposed::<__m128i, Shuffles>(group, out),
                3 => simd::hash_in_rows::<__m128i, Shuffles, 3>(group, out),
                2 => simd::hash_in_rows::<__m128i, Shuffles, 2>(group, out),
                1 => simd::hash_in_rows::<__m128i, Shuffles, 1>(group, out),
                _ => {}
            }
        }
    }

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
        unsafe { simd::xof_many_128(cv, block, block_len, counter, flags, out) }
    }
}
