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
    //! ...; each round needs eight pairs (m[i], m[j]) in SIGMA's order, and [`pair`] builds each with
    //! at most one unpack/blend/alignr chosen by the parity of i and j. SIGMA and the round number are
    //! constants, so the choice is made at compile time and a round costs at most eight shuffles of
    //! message words, against sixteen scalar loads and eight inserts for a gather from memory.
    //!
    //! Multi-lane (`compress_lanes`): two independent states, one per 64-bit element of each vector
    //! ("transposed"), so G needs no diagonalisation and no message shuffling beyond a 2x2 transpose
    //! per block. The lane driver ([`compress_group`]) is shared with BLAKE2s (blake2/simd.rs) and
    //! generic over [`LaneWords`], implemented here for two 64-bit lanes in `__m128i` and in avx2.rs
    //! for four in `__m256i`, and over the [`Rotate`] strategy, so that avx512.rs compiles the same
    //! code with the AVX-512VL rotate instructions.
    //!
    //! The AVX2 backend has its own single-stream kernel with one `__m256i` per row; it measured
    //! faster than this one compiled with AVX2 enabled (see avx2.rs).

    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::b::IV;
    use crate::blake2::kernels::{Lane, SIGMA};
    use crate::blake2::simd::{compress_group, LaneWords, Rotate};
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

    /// The message words (m[i], m[j]) as one vector, from `m` holding pairs (m[2k], m[2k+1]). With
    /// constant i and j this folds to one instruction (none when j = i + 1 with i even).
    ///
    /// # Safety
    /// SSE4.1.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn pair(m: &[__m128i; 8], i: u8, j: u8) -> __m128i {
        let (a, b) = (m[i as usize / 2], m[j as usize / 2]);
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            match (i % 2, j % 2) {
                (0, 0) => _mm_unpacklo_epi64(a, b),
                (1, 1) => _mm_unpackhi_epi64(a, b),
                // Low qword of a, high qword of b (a itself when they are the same pair).
                (0, _) => _mm_blend_epi16(a, b, 0xF0),
                // High qword of a, then low qword of b.
                _ => _mm_alignr_epi8(b, a, 8),
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
            let x = [pair(m, s[0], s[2]), pair(m, s[4], s[6])];
            let y = [pair(m, s[1], s[3]), pair(m, s[5], s[7])];
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
            let x = [pair(m, s[14], s[8]), pair(m, s[10], s[12])];
            let y = [pair(m, s[15], s[9]), pair(m, s[11], s[13])];
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
                v[d] = Shuffles::r1(_mm_xor_si128(v[d], v[a]));
                v[c] = _mm_add_epi64(v[c], v[d]);
                v[b] = Shuffles::r2(_mm_xor_si128(v[b], v[c]));
            }
            for (k, y) in y.into_iter().enumerate() {
                let (a, b, c, d) = (k, k + 2, k + 4, k + 6);
                v[a] = _mm_add_epi64(_mm_add_epi64(v[a], y), v[b]);
                v[d] = Shuffles::r3(_mm_xor_si128(v[d], v[a]));
                v[c] = _mm_add_epi64(v[c], v[d]);
                v[b] = Shuffles::r4(_mm_xor_si128(v[b], v[c]));
            }
        }
    }

    /// G's rotations (R1..R4: right by 32, 24, 16, 63) without a rotate instruction: by 32 by swapping 32-bit halves, by 24 and 16 by byte
    /// shuffles, by 63 (left by 1) by doubling and carrying the top bit in. Implemented for
    /// `__m128i` (SSSE3) here and for `__m256i` (AVX2) in avx2.rs.
    pub(in crate::blake2) struct Shuffles;

    impl Rotate<__m128i> for Shuffles {
        // SAFETY (every function): the caller guarantees SSSE3.
        #[inline(always)]
        unsafe fn r1(x: __m128i) -> __m128i {
            unsafe { _mm_shuffle_epi32(x, 0b10_11_00_01) }
        }
        #[inline(always)]
        unsafe fn r2(x: __m128i) -> __m128i {
            unsafe {
                let mask = _mm_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
                _mm_shuffle_epi8(x, mask)
            }
        }
        #[inline(always)]
        unsafe fn r3(x: __m128i) -> __m128i {
            // See `ROTR16` for why it is reloaded.
            unsafe { _mm_shuffle_epi8(x, crate::arch::opaque::reload(&ROTR16)) }
        }
        #[inline(always)]
        unsafe fn r4(x: __m128i) -> __m128i {
            unsafe { _mm_or_si128(_mm_add_epi64(x, x), _mm_srli_epi64(x, 63)) }
        }
    }

    /// The byte shuffle that rotates each 64-bit word right by 16. It is reloaded (`crate::arch::opaque::reload`),
    /// so that LLVM cannot see the constant: given one, it rewrites this rotation as two word
    /// shuffles (`pshuflw` + `pshufhw`), doubling the latency of a step on G's dependency chain
    /// (with the constant, the AVX2 kernel hashed 1 MiB about a tenth slower). The load does not depend
    /// on the data, so it stays off that chain.
    static ROTR16: __m128i = {
        let bytes: [u8; 16] = [2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9];
        // SAFETY: any 16 bytes are a valid `__m128i`.
        unsafe { core::mem::transmute::<[u8; 16], __m128i>(bytes) }
    };

    // ---------------------------------------------------------------------------------------------
    // Multi-lane: transposed compression, one lane per 64-bit element.

    impl LaneWords<u64, 2> for __m128i {
        // SAFETY (every method): the caller guarantees SSE4.1; `load_transposed` and
        // `store_transposed` also rely on their pointers being readable or writable for `M` words.
        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            unsafe { _mm_add_epi64(self, other) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            unsafe { _mm_xor_si128(self, other) }
        }
        #[inline(always)]
        unsafe fn from_words(words: [u64; 2]) -> Self {
            unsafe { _mm_set_epi64x(words[1] as i64, words[0] as i64) }
        }
        #[inline(always)]
        unsafe fn load_transposed<const M: usize>(rows: [*const u8; 2]) -> [Self; M] {
            const { assert!(M.is_multiple_of(2)) };
            let [p, q] = rows.map(|b| b as *const __m128i);
            unsafe {
                let mut m = [_mm_setzero_si128(); M];
                for k in 0..M / 2 {
                    let (a, b) = (_mm_loadu_si128(p.add(k)), _mm_loadu_si128(q.add(k)));
                    m[2 * k] = _mm_unpacklo_epi64(a, b);
                    m[2 * k + 1] = _mm_unpackhi_epi64(a, b);
                }
                m
            }
        }
        #[inline(always)]
        unsafe fn store_transposed<const M: usize>(words: [Self; M], rows: [*mut u8; 2]) {
            const { assert!(M.is_multiple_of(2)) };
            let [p, q] = rows.map(|b| b as *mut __m128i);
            unsafe {
                for k in 0..M / 2 {
                    let (a, b) = (words[2 * k], words[2 * k + 1]);
                    _mm_storeu_si128(p.add(k), _mm_unpacklo_epi64(a, b));
                    _mm_storeu_si128(q.add(k), _mm_unpackhi_epi64(a, b));
                }
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
    //! Message words are gathered from the block in memory ([`Loads`]): each word loaded alone into a
    //! vector and four of them blended. That costs more instructions than hand-written shuffle
    //! sequences per round, but a single stream is bound by the latency of the G chain, longer
    //! than the issue of all its instructions, and the gathers do not depend on the state, so they
    //! run in its shadow. The row kernel is generic over the [`Message`] strategy because the
    //! AVX-512 backend keeps the strategies measured best on Intel AVX-512 CPUs (avx512.rs).
    //!
    //! Multi-lane (`compress_lanes`): four independent states, one per 32-bit element of each vector
    //! ("transposed"): no diagonalisation and no message shuffling beyond a 4x4 transpose per block.
    //! The lane driver ([`compress_group`]) is shared with BLAKE2b (blake2/simd.rs) and generic over
    //! [`LaneWords`], implemented here for four 32-bit lanes in `__m128i` and in avx2.rs for eight in
    //! `__m256i`, and, like the row kernel, over the [`Rotate`] strategy, so that avx512.rs compiles
    //! the same code with the AVX-512VL rotate instructions.
    //!
    //! The AVX2 and AVX-512 backends reuse [`rows_compress_blocks`] and [`rows_compress_final`] for
    //! a single stream, compiled inside their `#[target_feature]` functions (VEX encodings).

    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::s::IV;
    use crate::blake2::kernels::{Lane, SIGMA};
    use crate::blake2::simd::{compress_group, LaneWords, Rotate};
    use core::arch::x86_64::*;

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: SSE4.1 is enabled here, which is all the row kernel needs.
        unsafe { rows_compress_blocks::<Shuffles, Loads>(h, blocks, count) }
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
        unsafe { rows_compress_final::<Shuffles, Loads>(h, block, count, last_node) }
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
            unsafe { compress_group::<u32, __m128i, Shuffles, 4>(group, blocks, stride) }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Single stream: row-vectorised compression.

    /// `compress_blocks` body, shared with avx2.rs.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; only call from a function compiled with it enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_blocks<R: Rotate<__m128i>, M: Message>(
        h: &mut [u32; 8],
        blocks: &[u8],
        count: &mut u128,
    ) {
        // SAFETY: the caller guarantees SSE4.1; every block pointer comes from `chunks_exact`, so
        // each 64-byte read is in bounds; `h` is 32 bytes.
        unsafe {
            let mut hv = load_h(h);
            for block in blocks.chunks_exact(BLOCKBYTES) {
                *count = count.wrapping_add(BLOCKBYTES as u128);
                rows_compress::<R, M>(&mut hv, block.as_ptr(), *count, 0, 0);
            }
            store_h(h, hv);
        }
    }

    /// `compress_final` body, shared with avx2.rs.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; only call from a function compiled with it enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_final<R: Rotate<__m128i>, M: Message>(
        h: &mut [u32; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: the caller guarantees SSE4.1; `block` is exactly one block.
        unsafe {
            let mut hv = load_h(h);
            rows_compress::<R, M>(
                &mut hv,
                block.as_ptr(),
                count,
                !0,
                if last_node { !0 } else { 0 },
            );
            store_h(h, hv);
        }
    }

    #[inline(always)]
    unsafe fn load_h(h: &[u32; 8]) -> [__m128i; 2] {
        let p = h.as_ptr() as *const __m128i;
        // SAFETY: `h` holds two 16-byte rows; unaligned loads.
        unsafe { [_mm_loadu_si128(p), _mm_loadu_si128(p.add(1))] }
    }

    #[inline(always)]
    unsafe fn store_h(h: &mut [u32; 8], hv: [__m128i; 2]) {
        let p = h.as_mut_ptr() as *mut __m128i;
        // SAFETY: `h` holds two 16-byte rows; unaligned stores.
        unsafe {
            _mm_storeu_si128(p, hv[0]);
            _mm_storeu_si128(p.add(1), hv[1]);
        }
    }

    /// One compression of the 64 bytes at `block` into the rows `h`.
    ///
    /// # Safety
    /// SSE4.1; `block` readable for 64 bytes.
    #[inline(always)]
    unsafe fn rows_compress<R: Rotate<__m128i>, M: Message>(
        h: &mut [__m128i; 2],
        block: *const u8,
        count: u128,
        f0: u32,
        f1: u32,
    ) {
        // SAFETY: the caller's contract.
        unsafe {
            let m = M::load(block);
            let iv = IV.as_ptr() as *const __m128i;
            let mut v = [
                h[0],
                h[1],
                _mm_loadu_si128(iv),
                _mm_xor_si128(
                    _mm_loadu_si128(iv.add(1)),
                    _mm_set_epi32(f1 as i32, f0 as i32, (count >> 32) as i32, count as i32),
                ),
            ];
            rows_round::<R, M, 0>(&mut v, &m);
            rows_round::<R, M, 1>(&mut v, &m);
            rows_round::<R, M, 2>(&mut v, &m);
            rows_round::<R, M, 3>(&mut v, &m);
            rows_round::<R, M, 4>(&mut v, &m);
            rows_round::<R, M, 5>(&mut v, &m);
            rows_round::<R, M, 6>(&mut v, &m);
            rows_round::<R, M, 7>(&mut v, &m);
            rows_round::<R, M, 8>(&mut v, &m);
            rows_round::<R, M, 9>(&mut v, &m);
            h[0] = _mm_xor_si128(h[0], _mm_xor_si128(v[0], v[2]));
            h[1] = _mm_xor_si128(h[1], _mm_xor_si128(v[1], v[3]));
        }
    }

    /// How the row kernel reads a block and gathers its message words in SIGMA's order. Every
    /// function requires the CPU feature of its implementation.
    pub(in crate::blake2) trait Message {
        /// The block as loaded.
        type Words;
        /// Loads the 64 bytes at `block`.
        ///
        /// # Safety
        /// Also: `block` readable for 64 bytes.
        unsafe fn load(block: *const u8) -> Self::Words;
        /// (m[i], m[j], m[k], m[l]).
        ///
        /// # Safety
        /// Also: `m` comes from `load` of a block that is still readable (`Loads` reads it again).
        unsafe fn gather(m: &Self::Words, i: u8, j: u8, k: u8, l: u8) -> __m128i;
    }

    /// Gathers of four words from the block in memory: each word loaded alone (`movd`) and spread
    /// over the vector (`pshufd`; one `vpbroadcastd` when compiled with AVX2), then the four blended
    /// (`pblendw`, `vpblendd`). No word passes through a general-purpose register. Inserts
    /// (`pinsrd`, kept by avx512.rs) made LLVM load the sixteen words into general-purpose registers
    /// once a block, spill most of them and move them into vectors one by one, slower than
    /// `blake2s_simd` where these loads are faster (`arbor bench pairs`, BLAKE2s on AVX2). LLVM
    /// keeps the spread words of a block on the stack and reads them as blend operands.
    pub(in crate::blake2) struct Loads;

    impl Message for Loads {
        type Words = *const u8;
        #[inline(always)]
        unsafe fn load(block: *const u8) -> *const u8 {
            block
        }
        #[inline(always)]
        unsafe fn gather(block: &*const u8, i: u8, j: u8, k: u8, l: u8) -> __m128i {
            // SAFETY: the caller guarantees SSE4.1 and that the block is readable.
            unsafe {
                let x =
                    _mm_blend_epi16::<0b0000_1100>(load_word(*block, i), spread_word(*block, j));
                let x = _mm_blend_epi16::<0b0011_0000>(x, spread_word(*block, k));
                _mm_blend_epi16::<0b1100_0000>(x, spread_word(*block, l))
            }
        }
    }

    /// Word `n` of the block at `block` in element 0.
    ///
    /// # Safety
    /// `block` readable for 64 bytes; `n < 16`.
    #[inline(always)]
    unsafe fn load_word(block: *const u8, n: u8) -> __m128i {
        // SAFETY: the caller's contract; SSE2 is part of x86-64.
        unsafe { _mm_loadu_si32(block.add(4 * n as usize)) }
    }

    /// Word `n` of the block at `block` in every element.
    ///
    /// # Safety
    /// As for [`load_word`].
    #[inline(always)]
    unsafe fn spread_word(block: *const u8, n: u8) -> __m128i {
        // SAFETY: the caller's contract.
        unsafe { _mm_shuffle_epi32::<0>(load_word(block, n)) }
    }

    /// Round `ROUND` on the rows `v` = [a, b, c, d].
    ///
    /// # Safety
    /// SSE4.1.
    #[inline(always)]
    unsafe fn rows_round<R: Rotate<__m128i>, M: Message, const ROUND: usize>(
        v: &mut [__m128i; 4],
        m: &M::Words,
    ) {
        let s = &SIGMA[ROUND];
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            let x = M::gather(m, s[0], s[2], s[4], s[6]);
            let y = M::gather(m, s[1], s[3], s[5], s[7]);
            rows_g::<R>(v, x, y);
            // Line the diagonals up as columns by rotating rows a, c and d and leaving b, the row
            // computed last, where it is, so that no shuffle sits between b and its next use.
            // Column k then holds (a[k-1], b[k], c[k+1], d[k+2]): the diagonal G functions in the
            // order (3, 0, 1, 2) of `SIGMA`'s diagonal steps.
            v[0] = _mm_shuffle_epi32(v[0], 0b10_01_00_11);
            v[2] = _mm_shuffle_epi32(v[2], 0b00_11_10_01);
            v[3] = _mm_shuffle_epi32(v[3], 0b01_00_11_10);
            let x = M::gather(m, s[14], s[8], s[10], s[12]);
            let y = M::gather(m, s[15], s[9], s[11], s[13]);
            rows_g::<R>(v, x, y);
            v[0] = _mm_shuffle_epi32(v[0], 0b00_11_10_01);
            v[2] = _mm_shuffle_epi32(v[2], 0b10_01_00_11);
            v[3] = _mm_shuffle_epi32(v[3], 0b01_00_11_10);
        }
    }

    /// Four G functions at once, one per column of the rows `v`, with message words `x` and `y`.
    ///
    /// # Safety
    /// SSE4.1.
    #[inline(always)]
    unsafe fn rows_g<R: Rotate<__m128i>>(v: &mut [__m128i; 4], x: __m128i, y: __m128i) {
        // SAFETY: the caller guarantees SSE4.1.
        unsafe {
            v[0] = _mm_add_epi32(_mm_add_epi32(v[0], x), v[1]);
            v[3] = R::r1(_mm_xor_si128(v[3], v[0]));
            v[2] = _mm_add_epi32(v[2], v[3]);
            v[1] = R::r2(_mm_xor_si128(v[1], v[2]));
            v[0] = _mm_add_epi32(_mm_add_epi32(v[0], y), v[1]);
            v[3] = R::r3(_mm_xor_si128(v[3], v[0]));
            v[2] = _mm_add_epi32(v[2], v[3]);
            v[1] = R::r4(_mm_xor_si128(v[1], v[2]));
        }
    }

    /// G's rotations (R1..R4: right by 16, 12, 8, 7) without a rotate instruction: by 16 and 8 with byte shuffles, by 12 and 7 with two
    /// shifts and an OR. Implemented for `__m128i` (SSSE3) here and for `__m256i` (AVX2) in avx2.rs.
    pub(in crate::blake2) struct Shuffles;

    impl Rotate<__m128i> for Shuffles {
        // SAFETY (every function): the caller guarantees SSSE3.
        #[inline(always)]
        unsafe fn r1(x: __m128i) -> __m128i {
            // See `ROTR16` for why it is reloaded.
            unsafe { _mm_shuffle_epi8(x, crate::arch::opaque::reload(&ROTR16)) }
        }
        #[inline(always)]
        unsafe fn r2(x: __m128i) -> __m128i {
            unsafe { _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)) }
        }
        #[inline(always)]
        unsafe fn r3(x: __m128i) -> __m128i {
            unsafe {
                let mask = _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
                _mm_shuffle_epi8(x, mask)
            }
        }
        #[inline(always)]
        unsafe fn r4(x: __m128i) -> __m128i {
            unsafe { _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)) }
        }
    }

    /// The byte shuffle that rotates each 32-bit word right by 16. It is reloaded (`crate::arch::opaque::reload`),
    /// so that LLVM cannot see the constant: given one, it rewrites this rotation as two word
    /// shuffles (`pshuflw` + `pshufhw`), doubling the latency of a step on G's dependency chain. The
    /// load does not depend on the data, so it stays off that chain.
    static ROTR16: __m128i = {
        let bytes: [u8; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];
        // SAFETY: any 16 bytes are a valid `__m128i`.
        unsafe { core::mem::transmute::<[u8; 16], __m128i>(bytes) }
    };

    // ---------------------------------------------------------------------------------------------
    // Multi-lane: transposed compression, one lane per 32-bit element.

    /// The 4x4 transpose of 32-bit words of four vectors: element j of
    /// vector i goes to element i of vector j. It is its own inverse.
    ///
    /// # Safety
    /// SSE4.1.
    #[inline(always)]
    unsafe fn transpose_4x4([a, b, c, d]: [__m128i; 4]) -> [__m128i; 4] {
        // SAFETY: the caller's contract.
        unsafe {
            let ab_lo = _mm_unpacklo_epi32(a, b);
            let ab_hi = _mm_unpackhi_epi32(a, b);
            let cd_lo = _mm_unpacklo_epi32(c, d);
            let cd_hi = _mm_unpackhi_epi32(c, d);
            [
                _mm_unpacklo_epi64(ab_lo, cd_lo),
                _mm_unpackhi_epi64(ab_lo, cd_lo),
                _mm_unpacklo_epi64(ab_hi, cd_hi),
                _mm_unpackhi_epi64(ab_hi, cd_hi),
            ]
        }
    }

    impl LaneWords<u32, 4> for __m128i {
        // SAFETY (every method): the caller guarantees SSE4.1; `load_transposed` and
        // `store_transposed` also rely on their pointers being readable or writable for `M` words.
        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            unsafe { _mm_add_epi32(self, other) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            unsafe { _mm_xor_si128(self, other) }
        }
        #[inline(always)]
        unsafe fn from_words(w: [u32; 4]) -> Self {
            unsafe { _mm_loadu_si128(w.as_ptr() as *const __m128i) }
        }
        #[inline(always)]
        unsafe fn load_transposed<const M: usize>(rows: [*const u8; 4]) -> [Self; M] {
            const { assert!(M.is_multiple_of(4)) };
            let p = rows.map(|b| b as *const __m128i);
            unsafe {
                let mut m = [_mm_setzero_si128(); M];
                for k in 0..M / 4 {
                    // A 4x4 transpose of words 4k..4k+4 of the four lanes.
                    let [a, b, c, d] = p.map(|q| _mm_loadu_si128(q.add(k)));
                    m[4 * k..4 * k + 4].copy_from_slice(&transpose_4x4([a, b, c, d]));
                }
                m
            }
        }
        #[inline(always)]
        unsafe fn store_transposed<const M: usize>(words: [Self; M], rows: [*mut u8; 4]) {
            const { assert!(M.is_multiple_of(4)) };
            let p = rows.map(|b| b as *mut __m128i);
            unsafe {
                for k in 0..M / 4 {
                    // The transpose is its own inverse.
                    let lanes = transpose_4x4([0, 1, 2, 3].map(|i| words[4 * k + i]));
                    for (q, v) in p.iter().zip(lanes) {
                        _mm_storeu_si128(q.add(k), v);
                    }
                }
            }
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
