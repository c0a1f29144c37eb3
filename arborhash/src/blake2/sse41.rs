//! BLAKE2 kernels for SSE4.1: [`b`] for BLAKE2b, [`s`] for BLAKE2s, each with the three
//! functions of the backend's `Kernels` implementation.

use super::kernels::{Kernels, Lane, LastNode};

pub(crate) mod b {
    //! BLAKE2b kernels for SSE4.1.
    //!
    //! Single stream (`compress_blocks`, `compress_final`): the 4x4 state matrix is kept row by row,
    //! each row of four 64-bit words in two `__m128i` halves. A round runs the four column G functions
    //! side by side, rotates rows a, c and d so that the diagonals line up as columns (`alignr`, and a
    //! free swap of d's halves), runs the diagonal G functions and rotates back. Row b stays put: it
    //! is the last one G computes, so rotating it would put a shuffle's latency on the critical
    //! path of every G, while a, c and d are ready early enough to hide theirs.
    //!
    //! Message words: the block is loaded once into eight registers of word pairs (m0,m1), (m2,m3),
    //! ...; each round needs eight pairs (m[i], m[j]) in SIGMA's order, and `pair64` builds each with
    //! at most one unpack/blend/alignr chosen by the parity of i and j. SIGMA and the round number are
    //! constants, so the choice is made at compile time and a round costs at most eight shuffles of
    //! message words, against sixteen scalar loads and eight inserts for a gather from memory.
    //!
    //! Multi-lane (`compress_lanes`): two independent states, one per 64-bit element of each vector
    //! ("transposed"), so G needs no diagonalisation and no message shuffling beyond a 2x2 transpose
    //! per block. The lane driver ([`compress_group`]) is shared with BLAKE2s (blake2/simd.rs) and
    //! generic over its lane vectors (blake2/x86.rs) and over the rotations, so that avx512.rs
    //! compiles the same code with the AVX-512VL rotate instructions.
    //!
    //! The AVX2 backend has its own single-stream kernel with one `__m256i` per row (blake2/x86.rs);
    //! it measured faster than this one compiled with AVX2 enabled.

    use crate::arch::x86::sse41::pair64;
    use crate::arch::x86::{QwordRotations, Shuffles};
    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::b::IV;
    use crate::blake2::kernels::{Lane, SIGMA};
    use crate::blake2::simd::compress_group;
    use core::arch::x86_64::*;

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: SSE4.1 is enabled here; every block pointer comes from `chunks_exact`, so each
        // 128-byte read is in bounds.
        unsafe {
            let mut hv = load_h(h);
            for block in blocks.chunks_exact(BLOCKBYTES) {
                *count = count.wrapping_add(BLOCKBYTES as u128);
                rows_compress(&mut hv, block.as_ptr(), *count, 0, 0);
            }
            store_h(h, hv);
        }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: SSE4.1 is enabled here; `block` is exactly one block.
        unsafe {
            let mut hv = load_h(h);
            rows_compress(
                &mut hv,
                block.as_ptr(),
                count,
                !0,
                if last_node { !0 } else { 0 },
            );
            store_h(h, hv);
        }
    }

    /// Compresses `blocks` blocks in every lane, two lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        for group in lanes.chunks_mut(2) {
            // SAFETY: SSE4.1 is enabled here; the input lengths are the caller's contract.
            unsafe { compress_group::<u64, __m128i, Shuffles, 2>(group, blocks, stride) }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Single stream: row-vectorised compression.

    #[inline(always)]
    unsafe fn load_h(h: &[u64; 8]) -> [__m128i; 4] {
        let p = h.as_ptr() as *const __m128i;
        // SAFETY: `h` holds four 16-byte pairs; unaligned loads.
        unsafe { core::array::from_fn(|i| _mm_loadu_si128(p.add(i))) }
    }

    #[inline(always)]
    unsafe fn store_h(h: &mut [u64; 8], hv: [__m128i; 4]) {
        let p = h.as_mut_ptr() as *mut __m128i;
        for (i, v) in hv.into_iter().enumerate() {
            // SAFETY: `h` holds four 16-byte pairs; unaligned stores.
            unsafe { _mm_storeu_si128(p.add(i), v) }
        }
    }

    /// One compression of the 128 bytes at `block` into `h` (rows h0..h3 and h4..h7, two halves
    /// each).
    ///
    /// # Safety
    /// SSE4.1; `block` readable for 128 bytes.
    #[inline(always)]
    unsafe fn rows_compress(h: &mut [__m128i; 4], block: *const u8, count: u128, f0: u64, f1: u64) {
        // SAFETY: the caller's contract.
        unsafe {
            let p = block as *const __m128i;
            let m: [__m128i; 8] = core::array::from_fn(|i| _mm_loadu_si128(p.add(i)));
            let iv = IV.as_ptr() as *const __m128i;
            // v: rows a, b, c, d, each as (low half, high half).
            let mut v = [
                h[0],
                h[1],
                h[2],
                h[3],
                _mm_loadu_si128(iv),
                _mm_loadu_si128(iv.add(1)),
                _mm_xor_si128(
                    _mm_loadu_si128(iv.add(2)),
                    _mm_set_epi64x((count >> 64) as i64, count as i64),
                ),
                _mm_xor_si128(
                    _mm_loadu_si128(iv.add(3)),
                    _mm_set_epi64x(f1 as i64, f0 as i64),
                ),
            ];
            rows_round::<0>(&mut v, &m);
            rows_round::<1>(&mut v, &m);
            rows_round::<2>(&mut v, &m);
            rows_round::<3>(&mut v, &m);
            rows_round::<4>(&mut v, &m);
            rows_round::<5>(&mut v, &m);
            rows_round::<6>(&mut v, &m);
            rows_round::<7>(&mut v, &m);
            rows_round::<8>(&mut v, &m);
            rows_round::<9>(&mut v, &m);
            rows_round::<10>(&mut v, &m);
            rows_round::<11>(&mut v, &m);
            for i in 0..4 {
                h[i] = _mm_xor_si128(h[i], _mm_xor_si128(v[i], v[i + 4]));
            }
        }
    }

    /// Round `R` on the row state `v` = [a_lo, a_hi, b_lo, b_hi, c_lo, c_hi, d_lo, d_hi].
    ///
    /// # Safety
    /// SSE4.1.
    #[inline(always)]
    unsafe fn rows_round<const R: usize>(v: &mut [__m128i; 8], m: &[__m128i; 8]) {
        let s = &SIGMA[R];
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            let x = [pair64(m, s[0], s[2]), pair64(m, s[4], s[6])];
            let y = [pair64(m, s[1], s[3]), pair64(m, s[5], s[7])];
            rows_g(v, x, y);
            // Line the diagonals up as columns by rotating rows a, c and d and leaving b, the row
            // computed last, where it is, so that no shuffle sits between b and its next use.
            // Column k then holds (a[k-1], b[k], c[k+1], d[k+2]): the diagonal G functions in the
            // order (3, 0, 1, 2) of `SIGMA`'s diagonal steps.
            let [a0, a1, c0, c1, d0, d1] = [v[0], v[1], v[4], v[5], v[6], v[7]];
            v[0] = _mm_alignr_epi8(a0, a1, 8);
            v[1] = _mm_alignr_epi8(a1, a0, 8);
            v[4] = _mm_alignr_epi8(c1, c0, 8);
            v[5] = _mm_alignr_epi8(c0, c1, 8);
            v[6] = d1;
            v[7] = d0;
            let x = [pair64(m, s[14], s[8]), pair64(m, s[10], s[12])];
            let y = [pair64(m, s[15], s[9]), pair64(m, s[11], s[13])];
            rows_g(v, x, y);
            // And back.
            let [a0, a1, c0, c1, d0, d1] = [v[0], v[1], v[4], v[5], v[6], v[7]];
            v[0] = _mm_alignr_epi8(a1, a0, 8);
            v[1] = _mm_alignr_epi8(a0, a1, 8);
            v[4] = _mm_alignr_epi8(c0, c1, 8);
            v[5] = _mm_alignr_epi8(c1, c0, 8);
            v[6] = d1;
            v[7] = d0;
        }
    }

    /// Four G functions at once, one per column of the row state, with message words `x` and `y`.
    ///
    /// # Safety
    /// SSE4.1.
    #[inline(always)]
    unsafe fn rows_g(v: &mut [__m128i; 8], x: [__m128i; 2], y: [__m128i; 2]) {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            for (k, x) in x.into_iter().enumerate() {
                let (a, b, c, d) = (k, k + 2, k + 4, k + 6);
                v[a] = _mm_add_epi64(_mm_add_epi64(v[a], x), v[b]);
                v[d] = Shuffles::rot32(_mm_xor_si128(v[d], v[a]));
                v[c] = _mm_add_epi64(v[c], v[d]);
                v[b] = Shuffles::rot24(_mm_xor_si128(v[b], v[c]));
            }
            for (k, y) in y.into_iter().enumerate() {
                let (a, b, c, d) = (k, k + 2, k + 4, k + 6);
                v[a] = _mm_add_epi64(_mm_add_epi64(v[a], y), v[b]);
                v[d] = Shuffles::rot16(_mm_xor_si128(v[d], v[a]));
                v[c] = _mm_add_epi64(v[c], v[d]);
                v[b] = Shuffles::rot63(_mm_xor_si128(v[b], v[c]));
            }
        }
    }
}

pub(crate) mod s {
    //! BLAKE2s kernels for SSE4.1.
    //!
    //! Single stream (`compress_blocks`, `compress_final`): the 4x4 state matrix is kept row by row,
    //! one row of four 32-bit words per `__m128i`. A round runs the four column G functions side by
    //! side, rotates rows a, c and d with `pshufd` so that the diagonals line up as columns, runs the
    //! diagonal G functions and rotates back. Row b stays put: it is the last one G computes, so
    //! rotating it would put a shuffle's latency on the critical path of every G.
    //!
    //! Message words are gathered from the block in memory (`Loads`): each word loaded alone into a
    //! vector and four of them blended. The row kernel is shared with the AVX2 and AVX-512
    //! backends (blake2/x86.rs).
    //!
    //! Multi-lane (`compress_lanes`): four independent states, one per 32-bit element of each vector
    //! ("transposed"): no diagonalisation and no message shuffling beyond a 4x4 transpose per block.
    //! The lane driver ([`compress_group`]) is shared with BLAKE2b (blake2/simd.rs) and generic over
    //! its lane vectors (blake2/x86.rs) and, like the row kernel, over the rotations, so that
    //! avx512.rs compiles the same code with the AVX-512VL rotate instructions.

    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::Lane;
    use crate::blake2::simd::compress_group;
    use crate::blake2::x86::s::{
        rows_compress_blocks, rows_compress_final, Blake2sShuffles, Loads,
    };
    use core::arch::x86_64::*;

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: SSE4.1 is enabled here, which is all the row kernel needs.
        unsafe { rows_compress_blocks::<Blake2sShuffles, Loads>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u32; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: SSE4.1 is enabled here, which is all the row kernel needs.
        unsafe { rows_compress_final::<Blake2sShuffles, Loads>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        for group in lanes.chunks_mut(4) {
            // SAFETY: SSE4.1 is enabled here; the input lengths are the caller's contract.
            unsafe { compress_group::<u32, __m128i, Blake2sShuffles, 4>(group, blocks, stride) }
        }
    }
}

/// The SSE4.1 backend.
pub(crate) struct Sse41;

impl Kernels<u64> for Sse41 {
    const DEGREE: usize = 2;

    // SAFETY (the three calls): the caller's contract is this backend's.
    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        unsafe { b::compress_blocks(h, blocks, count) }
    }

    #[inline(always)]
    unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; 128],
        count: u128,
        last_node: LastNode,
    ) {
        unsafe { b::compress_final(h, block, count, last_node.is_set()) }
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        unsafe { b::compress_lanes(lanes, blocks, stride) }
    }
}

impl Kernels<u32> for Sse41 {
    const DEGREE: usize = 4;

    // SAFETY (the three calls): the caller's contract is this backend's.
    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        unsafe { s::compress_blocks(h, blocks, count) }
    }

    #[inline(always)]
    unsafe fn compress_final(h: &mut [u32; 8], block: &[u8; 64], count: u128, last_node: LastNode) {
        unsafe { s::compress_final(h, block, count, last_node.is_set()) }
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        unsafe { s::compress_lanes(lanes, blocks, stride) }
    }
}
