//! BLAKE2's x86-64 compression code that more than one backend compiles inside its
//! `#[target_feature]` functions: [`b`] and [`s`] each hold their variant's shared row kernel
//! (single stream), its groups of 128- and 256-bit lanes, and the [`LaneWords`] of those vectors
//! for the lane driver of simd.rs.

pub(crate) mod b {
    //! BLAKE2b: the row kernel with one `__m256i` per row of the 4x4 state matrix (AVX2, and
    //! AVX-512 with its rotations), and the lanes in two-lane `__m128i` and four-lane `__m256i`
    //! groups.
    //!
    //! Row kernel: diagonalisation rotates rows a, c and d with `vpermq` (b stays put, see
    //! sse41.rs). Message vectors (m[i], m[j], m[k], m[l]) are built from two pairs (`pair64`) and
    //! one `vinserti128`. Half as many instructions per G as the SSE4.1 row kernel outweigh
    //! `vpermq`'s latency, which stays off the critical path because row b is not rotated.

    use crate::arch::x86::sse41::pair64;
    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::b::IV;
    use crate::blake2::kernels::{Lane, SIGMA};
    use crate::blake2::simd::{compress_group, LaneWords, Rotate};
    use core::arch::x86_64::*;

    /// `compress_blocks` with the rotations `R`.
    ///
    /// # Safety
    /// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_blocks<R: Rotate<u64, __m256i>>(
        h: &mut [u64; 8],
        blocks: &[u8],
        count: &mut u128,
    ) {
        // SAFETY: the caller's contract; every block comes from `chunks_exact`.
        unsafe {
            let mut hv = load_h(h);
            for block in blocks.chunks_exact(BLOCKBYTES) {
                *count = count.wrapping_add(BLOCKBYTES as u128);
                rows_compress::<R>(&mut hv, block.as_ptr(), *count, 0, 0);
            }
            store_h(h, hv);
        }
    }

    /// `compress_final` with the rotations `R`.
    ///
    /// # Safety
    /// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_final<R: Rotate<u64, __m256i>>(
        h: &mut [u64; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: the caller's contract; `block` is one block.
        unsafe {
            let mut hv = load_h(h);
            let f1 = if last_node { !0 } else { 0 };
            rows_compress::<R>(&mut hv, block.as_ptr(), count, !0, f1);
            store_h(h, hv);
        }
    }

    /// `compress_lanes` with the rotations `R`: groups of four lanes, and a group of one or two
    /// remaining lanes in 128-bit vectors instead of padding to four.
    ///
    /// # Safety
    /// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled. Input
    /// lengths as for `compress_lanes`.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn lanes_compress<
        R: Rotate<u64, __m128i> + Rotate<u64, __m256i>,
    >(
        lanes: &mut [Lane<'_, u64>],
        blocks: usize,
        stride: usize,
    ) {
        for group in lanes.chunks_mut(4) {
            // SAFETY: the caller's contract (AVX2 implies SSE4.1).
            unsafe {
                if group.len() <= 2 {
                    compress_group::<u64, __m128i, R, 2>(group, blocks, stride)
                } else {
                    compress_group::<u64, __m256i, R, 4>(group, blocks, stride)
                }
            }
        }
    }

    #[inline(always)]
    unsafe fn load_h(h: &[u64; 8]) -> [__m256i; 2] {
        let p = h.as_ptr() as *const __m256i;
        // SAFETY: `h` is 64 bytes; unaligned loads; AVX is the caller's contract.
        unsafe { [_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))] }
    }

    #[inline(always)]
    unsafe fn store_h(h: &mut [u64; 8], hv: [__m256i; 2]) {
        let p = h.as_mut_ptr() as *mut __m256i;
        // SAFETY: `h` is 64 bytes; unaligned stores; AVX is the caller's contract.
        unsafe {
            _mm256_storeu_si256(p, hv[0]);
            _mm256_storeu_si256(p.add(1), hv[1]);
        }
    }

    /// One compression of the 128 bytes at `block` into the rows `h`.
    ///
    /// # Safety
    /// AVX2; `block` readable for 128 bytes.
    #[inline(always)]
    unsafe fn rows_compress<R: Rotate<u64, __m256i>>(
        h: &mut [__m256i; 2],
        block: *const u8,
        count: u128,
        f0: u64,
        f1: u64,
    ) {
        // SAFETY: the caller's contract.
        unsafe {
            let p = block as *const __m128i;
            let m: [__m128i; 8] = core::array::from_fn(|i| _mm_loadu_si128(p.add(i)));
            let iv = IV.as_ptr() as *const __m256i;
            let mut v = [
                h[0],
                h[1],
                _mm256_loadu_si256(iv),
                _mm256_xor_si256(
                    _mm256_loadu_si256(iv.add(1)),
                    _mm256_set_epi64x(f1 as i64, f0 as i64, (count >> 64) as i64, count as i64),
                ),
            ];
            rows_round::<R, 0>(&mut v, &m);
            rows_round::<R, 1>(&mut v, &m);
            rows_round::<R, 2>(&mut v, &m);
            rows_round::<R, 3>(&mut v, &m);
            rows_round::<R, 4>(&mut v, &m);
            rows_round::<R, 5>(&mut v, &m);
            rows_round::<R, 6>(&mut v, &m);
            rows_round::<R, 7>(&mut v, &m);
            rows_round::<R, 8>(&mut v, &m);
            rows_round::<R, 9>(&mut v, &m);
            rows_round::<R, 10>(&mut v, &m);
            rows_round::<R, 11>(&mut v, &m);
            h[0] = _mm256_xor_si256(h[0], _mm256_xor_si256(v[0], v[2]));
            h[1] = _mm256_xor_si256(h[1], _mm256_xor_si256(v[1], v[3]));
        }
    }

    /// (m[i], m[j], m[k], m[l]).
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn quad(m: &[__m128i; 8], i: u8, j: u8, k: u8, l: u8) -> __m256i {
        // SAFETY: the caller guarantees AVX2.
        unsafe { _mm256_set_m128i(pair64(m, k, l), pair64(m, i, j)) }
    }

    /// Round `ROUND` on the rows `v` = [a, b, c, d].
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn rows_round<R: Rotate<u64, __m256i>, const ROUND: usize>(
        v: &mut [__m256i; 4],
        m: &[__m128i; 8],
    ) {
        let s = &SIGMA[ROUND];
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let x = quad(m, s[0], s[2], s[4], s[6]);
            let y = quad(m, s[1], s[3], s[5], s[7]);
            rows_g::<R>(v, x, y);
            // Rotate rows a, c and d (not b) as in sse41.rs's row kernel: column k then holds
            // (a[k-1], b[k], c[k+1], d[k+2]).
            v[0] = _mm256_permute4x64_epi64(v[0], 0b10_01_00_11);
            v[2] = _mm256_permute4x64_epi64(v[2], 0b00_11_10_01);
            v[3] = _mm256_permute4x64_epi64(v[3], 0b01_00_11_10);
            let x = quad(m, s[14], s[8], s[10], s[12]);
            let y = quad(m, s[15], s[9], s[11], s[13]);
            rows_g::<R>(v, x, y);
            v[0] = _mm256_permute4x64_epi64(v[0], 0b00_11_10_01);
            v[2] = _mm256_permute4x64_epi64(v[2], 0b10_01_00_11);
            v[3] = _mm256_permute4x64_epi64(v[3], 0b01_00_11_10);
        }
    }

    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn rows_g<R: Rotate<u64, __m256i>>(v: &mut [__m256i; 4], x: __m256i, y: __m256i) {
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            v[0] = _mm256_add_epi64(_mm256_add_epi64(v[0], x), v[1]);
            v[3] = R::r1(_mm256_xor_si256(v[3], v[0]));
            v[2] = _mm256_add_epi64(v[2], v[3]);
            v[1] = R::r2(_mm256_xor_si256(v[1], v[2]));
            v[0] = _mm256_add_epi64(_mm256_add_epi64(v[0], y), v[1]);
            v[3] = R::r3(_mm256_xor_si256(v[3], v[0]));
            v[2] = _mm256_add_epi64(v[2], v[3]);
            v[1] = R::r4(_mm256_xor_si256(v[1], v[2]));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Lane vectors: one lane per 64-bit element.

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

    impl LaneWords<u64, 4> for __m256i {
        // SAFETY (every method): the caller guarantees AVX2; `load_transposed` and
        // `store_transposed` also rely on their pointers being readable or writable for `M` words.
        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            unsafe { _mm256_add_epi64(self, other) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            unsafe { _mm256_xor_si256(self, other) }
        }
        #[inline(always)]
        unsafe fn from_words(w: [u64; 4]) -> Self {
            unsafe { _mm256_set_epi64x(w[3] as i64, w[2] as i64, w[1] as i64, w[0] as i64) }
        }
        #[inline(always)]
        unsafe fn load_transposed<const M: usize>(rows: [*const u8; 4]) -> [Self; M] {
            const { assert!(M.is_multiple_of(2)) };
            let [p0, p1, p2, p3] = rows.map(|b| b as *const __m128i);
            unsafe {
                let mut m = [_mm256_setzero_si256(); M];
                for k in 0..M / 2 {
                    // Words 2k and 2k+1 of lanes 0 and 2 in one vector, of lanes 1 and 3 in another;
                    // unpacking them gives word 2k and word 2k+1 of the four lanes in order.
                    let a = _mm256_loadu2_m128i(p2.add(k), p0.add(k));
                    let b = _mm256_loadu2_m128i(p3.add(k), p1.add(k));
                    m[2 * k] = _mm256_unpacklo_epi64(a, b);
                    m[2 * k + 1] = _mm256_unpackhi_epi64(a, b);
                }
                m
            }
        }
        #[inline(always)]
        unsafe fn store_transposed<const M: usize>(words: [Self; M], rows: [*mut u8; 4]) {
            const { assert!(M.is_multiple_of(2)) };
            let [p0, p1, p2, p3] = rows.map(|b| b as *mut __m128i);
            unsafe {
                for k in 0..M / 2 {
                    // The unpacks undo themselves: words 2k and 2k+1 of lanes 0 and 2, then of
                    // lanes 1 and 3.
                    let (a, b) = (words[2 * k], words[2 * k + 1]);
                    _mm256_storeu2_m128i(p2.add(k), p0.add(k), _mm256_unpacklo_epi64(a, b));
                    _mm256_storeu2_m128i(p3.add(k), p1.add(k), _mm256_unpackhi_epi64(a, b));
                }
            }
        }
    }
}

pub(crate) mod s {
    //! BLAKE2s: the row kernel with one `__m128i` per row of the 4x4 state matrix (SSE4.1, and
    //! AVX2 and AVX-512 with VEX encodings and their rotations), generic over how it gathers
    //! message words ([`Message`]); the rotations without AVX-512 ([`Blake2sShuffles`]); and the
    //! lanes in four-lane `__m128i` and eight-lane `__m256i` groups.
    //!
    //! Row kernel: a round runs the four column G functions side by side, rotates rows a, c and d
    //! with `pshufd` so that the diagonals line up as columns, runs the diagonal G functions and
    //! rotates back. Row b stays put: it is the last one G computes, so rotating it would put a
    //! shuffle's latency on the critical path of every G.
    //!
    //! Message words are gathered from the block in memory ([`Loads`]): each word loaded alone
    //! into a vector and four of them blended. That costs more instructions than hand-written
    //! shuffle sequences per round, but a single stream is bound by the latency of the G chain,
    //! longer than the issue of all its instructions, and the gathers do not depend on the state,
    //! so they run in its shadow. The AVX-512 backend keeps the strategies measured best on Intel
    //! AVX-512 CPUs (avx512.rs).

    use crate::arch::x86::avx2::transpose4_halves;
    use crate::arch::x86::sse41::{transpose4, ByteMask, ROT16};
    use crate::arch::x86::{Shuffles, WordRotations};
    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::s::IV;
    use crate::blake2::kernels::{Lane, SIGMA};
    use crate::blake2::simd::{compress_group, LaneWords, Rotate};
    use core::arch::x86_64::*;

    /// `compress_blocks` with the rotations `R` and the message gathers `M`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; only call from a function compiled with it enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_blocks<R: Rotate<u32, __m128i>, M: Message>(
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

    /// `compress_final` with the rotations `R` and the message gathers `M`.
    ///
    /// # Safety
    /// The CPU must support SSE4.1; only call from a function compiled with it enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_final<R: Rotate<u32, __m128i>, M: Message>(
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
    unsafe fn rows_compress<R: Rotate<u32, __m128i>, M: Message>(
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
    unsafe fn rows_round<R: Rotate<u32, __m128i>, M: Message, const ROUND: usize>(
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
    unsafe fn rows_g<R: Rotate<u32, __m128i>>(v: &mut [__m128i; 4], x: __m128i, y: __m128i) {
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

    /// G's rotations (R1..R4: right by 16, 12, 8, 7) without a rotate instruction: `arch::x86`'s
    /// [`Shuffles`], except that the rotation by 16 reloads a mask of its own for each width and
    /// the rotation by 8 shuffles by a constant mask (the kernels' code as measured).
    pub(crate) enum Blake2sShuffles {}

    static ROT16_MASK_128: ByteMask = ROT16;
    static ROT16_MASK_256: ByteMask = ROT16;

    /// Implements [`Blake2sShuffles`] for `$t` from `$shuffle_epi8`, the reloaded mask `$rot16`
    /// and the constant mask `$rot8`.
    macro_rules! blake2s_shuffles {
        ($t:ty, $shuffle_epi8:ident, $rot16:ident, $rot8:expr) => {
            impl Rotate<u32, $t> for Blake2sShuffles {
                // SAFETY (every function): the caller guarantees SSSE3 (`__m128i`) or AVX2.
                #[inline(always)]
                unsafe fn r1(x: $t) -> $t {
                    unsafe { $shuffle_epi8(x, $rot16.get()) }
                }
                #[inline(always)]
                unsafe fn r2(x: $t) -> $t {
                    unsafe { <Shuffles as WordRotations<$t>>::rot12(x) }
                }
                #[inline(always)]
                unsafe fn r3(x: $t) -> $t {
                    unsafe { $shuffle_epi8(x, $rot8) }
                }
                #[inline(always)]
                unsafe fn r4(x: $t) -> $t {
                    unsafe { <Shuffles as WordRotations<$t>>::rot7(x) }
                }
            }
        };
    }
    blake2s_shuffles!(
        __m128i,
        _mm_shuffle_epi8,
        ROT16_MASK_128,
        _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12)
    );
    blake2s_shuffles!(
        __m256i,
        _mm256_shuffle_epi8,
        ROT16_MASK_256,
        _mm256_setr_epi8(
            1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, //
            1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
        )
    );

    /// `compress_lanes` with the rotations `R`: groups of eight lanes, and a group of one to four
    /// remaining lanes in 128-bit vectors instead of padding to eight.
    ///
    /// # Safety
    /// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled. Input
    /// lengths as for `compress_lanes`.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn lanes_compress<
        R: Rotate<u32, __m128i> + Rotate<u32, __m256i>,
    >(
        lanes: &mut [Lane<'_, u32>],
        blocks: usize,
        stride: usize,
    ) {
        for group in lanes.chunks_mut(8) {
            // SAFETY: the caller's contract (AVX2 implies SSE4.1).
            unsafe {
                if group.len() <= 4 {
                    compress_group::<u32, __m128i, R, 4>(group, blocks, stride)
                } else {
                    compress_group::<u32, __m256i, R, 8>(group, blocks, stride)
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Lane vectors: one lane per 32-bit element.

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
                    m[4 * k..4 * k + 4].copy_from_slice(&transpose4([a, b, c, d]));
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
                    let lanes = transpose4([0, 1, 2, 3].map(|i| words[4 * k + i]));
                    for (q, v) in p.iter().zip(lanes) {
                        _mm_storeu_si128(q.add(k), v);
                    }
                }
            }
        }
    }

    impl LaneWords<u32, 8> for __m256i {
        // SAFETY (every method): the caller guarantees AVX2; `load_transposed` and
        // `store_transposed` also rely on their pointers being readable or writable for `M` words.
        #[inline(always)]
        unsafe fn add(self, other: Self) -> Self {
            unsafe { _mm256_add_epi32(self, other) }
        }
        #[inline(always)]
        unsafe fn xor(self, other: Self) -> Self {
            unsafe { _mm256_xor_si256(self, other) }
        }
        #[inline(always)]
        unsafe fn from_words(w: [u32; 8]) -> Self {
            unsafe { _mm256_loadu_si256(w.as_ptr() as *const __m256i) }
        }
        #[inline(always)]
        unsafe fn load_transposed<const M: usize>(rows: [*const u8; 8]) -> [Self; M] {
            const { assert!(M.is_multiple_of(4)) };
            let p = rows.map(|b| b as *const __m128i);
            unsafe {
                let mut m = [_mm256_setzero_si256(); M];
                for k in 0..M / 4 {
                    // Words 4k..4k+4 of lane i in the low half and of lane i + 4 in the high half,
                    // then a 4x4 transpose within each half.
                    // (No closure here: closures do not inherit `target_feature`.)
                    let a = _mm256_loadu2_m128i(p[4].add(k), p[0].add(k));
                    let b = _mm256_loadu2_m128i(p[5].add(k), p[1].add(k));
                    let c = _mm256_loadu2_m128i(p[6].add(k), p[2].add(k));
                    let d = _mm256_loadu2_m128i(p[7].add(k), p[3].add(k));
                    m[4 * k..4 * k + 4].copy_from_slice(&transpose4_halves([a, b, c, d]));
                }
                m
            }
        }
        #[inline(always)]
        unsafe fn store_transposed<const M: usize>(words: [Self; M], rows: [*mut u8; 8]) {
            const { assert!(M.is_multiple_of(4)) };
            let p = rows.map(|b| b as *mut __m128i);
            unsafe {
                for k in 0..M / 4 {
                    // The transpose is its own inverse: it gives words 4k..4k+4 of lane i in the low
                    // half and of lane i + 4 in the high half.
                    let lanes = transpose4_halves([0, 1, 2, 3].map(|i| words[4 * k + i]));
                    for (i, v) in lanes.into_iter().enumerate() {
                        _mm256_storeu2_m128i(p[i + 4].add(k), p[i].add(k), v);
                    }
                }
            }
        }
    }
}
