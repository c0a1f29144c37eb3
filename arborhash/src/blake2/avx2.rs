//! BLAKE2 kernels for AVX2: [`b`] for BLAKE2b, [`s`] for BLAKE2s, each with the three
//! functions of the backend's `Kernels` implementation.

use super::kernels::{Kernels, Lane, LastNode};

pub(crate) mod b {
    //! BLAKE2b kernels for AVX2.
    //!
    //! Single stream: each row of the 4x4 state matrix is one `__m256i`; diagonalisation rotates rows
    //! a, c and d with `vpermq` (b stays put, see sse41.rs). Message vectors (m[i], m[j], m[k], m[l])
    //! are built from two pairs ([`pair`], as in sse41.rs) and one `vinserti128`. Half as many
    //! instructions per G as the SSE4.1 row kernel outweigh `vpermq`'s latency, which stays off the
    //! critical path because row b is not rotated.
    //!
    //! Multi-lane: four lanes, one per 64-bit element, through the generic lane driver of blake2/simd.rs;
    //! a group of one or two remaining lanes takes the two-lane SSE path (compiled here with VEX
    //! encodings) instead of padding to four.
    //!
    //! Both are generic over the [`Rotate`] strategy: avx512.rs compiles them again with the AVX-512VL
    //! rotate instructions.

    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::b::IV;
    use crate::blake2::kernels::{Lane, SIGMA};
    use crate::blake2::simd::{compress_group, LaneWords, Rotate};
    use crate::blake2::sse41::b::{pair, Shuffles};
    use core::arch::x86_64::*;

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: AVX2 is enabled here.
        unsafe { rows_compress_blocks::<Shuffles>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: AVX2 is enabled here.
        unsafe { rows_compress_final::<Shuffles>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support AVX2, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        // SAFETY: AVX2 is enabled here; the input lengths are the caller's contract.
        unsafe { lanes_compress::<Shuffles>(lanes, blocks, stride) }
    }

    /// `compress_blocks` with the rotations `R`.
    ///
    /// # Safety
    /// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn rows_compress_blocks<R: Rotate<__m256i>>(
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
    pub(in crate::blake2) unsafe fn rows_compress_final<R: Rotate<__m256i>>(
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
    pub(in crate::blake2) unsafe fn lanes_compress<R: Rotate<__m128i> + Rotate<__m256i>>(
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
    unsafe fn rows_compress<R: Rotate<__m256i>>(
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
        unsafe { _mm256_set_m128i(pair(m, k, l), pair(m, i, j)) }
    }

    /// Round `ROUND` on the rows `v` = [a, b, c, d].
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn rows_round<R: Rotate<__m256i>, const ROUND: usize>(
        v: &mut [__m256i; 4],
        m: &[__m128i; 8],
    ) {
        let s = &SIGMA[ROUND];
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let x = quad(m, s[0], s[2], s[4], s[6]);
            let y = quad(m, s[1], s[3], s[5], s[7]);
            rows_g::<R>(v, x, y);
            // Rotate rows a, c and d (not b) as in sse41.rs: column k then holds
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
    unsafe fn rows_g<R: Rotate<__m256i>>(v: &mut [__m256i; 4], x: __m256i, y: __m256i) {
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

    impl Rotate<__m256i> for Shuffles {
        // SAFETY (every function): the caller guarantees AVX2.
        #[inline(always)]
        unsafe fn r1(x: __m256i) -> __m256i {
            unsafe { _mm256_shuffle_epi32(x, 0b10_11_00_01) }
        }
        #[inline(always)]
        unsafe fn r2(x: __m256i) -> __m256i {
            unsafe {
                let mask = _mm256_setr_epi8(
                    3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, //
                    3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
                );
                _mm256_shuffle_epi8(x, mask)
            }
        }
        #[inline(always)]
        unsafe fn r3(x: __m256i) -> __m256i {
            // See `ROTR16` for why it is reloaded.
            unsafe { _mm256_shuffle_epi8(x, crate::arch::opaque::reload(&ROTR16)) }
        }
        #[inline(always)]
        unsafe fn r4(x: __m256i) -> __m256i {
            unsafe { _mm256_or_si256(_mm256_add_epi64(x, x), _mm256_srli_epi64(x, 63)) }
        }
    }

    /// The byte shuffle that rotates each 64-bit word right by 16, reloaded (`crate::arch::opaque::reload`) for the
    /// reason given at sse41.rs's `ROTR16`.
    static ROTR16: __m256i = {
        let half: [u8; 16] = [2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9];
        // SAFETY: any 32 bytes are a valid `__m256i`.
        unsafe { core::mem::transmute::<[[u8; 16]; 2], __m256i>([half, half]) }
    };

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
    //! BLAKE2s kernels for AVX2.
    //!
    //! Single stream: the SSE4.1 row kernel of sse41.rs, compiled here with AVX2 enabled (VEX
    //! encodings, no register copies). A 256-bit register cannot hold more of one BLAKE2s state than
    //! a row pair, and the kernel is bound by the latency of its G chain, not by its width.
    //!
    //! Multi-lane: eight lanes, one per 32-bit element, through the generic lane driver of blake2/simd.rs;
    //! a group of one to four remaining lanes takes the four-lane SSE path (compiled here with VEX
    //! encodings) instead of padding to eight.
    //!
    //! Both are generic over the [`Rotate`] strategy: avx512.rs compiles them again with the AVX-512VL
    //! rotate instructions.

    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::Lane;
    use crate::blake2::simd::{compress_group, LaneWords, Rotate};
    use crate::blake2::sse41::s::{self as sse41, Loads, Shuffles};
    use core::arch::x86_64::*;

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: AVX2 implies SSE4.1, all the row kernel needs.
        unsafe { sse41::rows_compress_blocks::<Shuffles, Loads>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u32; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: AVX2 implies SSE4.1, all the row kernel needs.
        unsafe { sse41::rows_compress_final::<Shuffles, Loads>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks in every lane, eight lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support AVX2, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `dispatch.rs`).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        // SAFETY: AVX2 is enabled here; the input lengths are the caller's contract.
        unsafe { lanes_compress::<Shuffles>(lanes, blocks, stride) }
    }

    /// `compress_lanes` with the rotations `R`: groups of eight lanes, and a group of one to four
    /// remaining lanes in 128-bit vectors instead of padding to eight.
    ///
    /// # Safety
    /// AVX2 and `R`'s CPU feature; only call from a function compiled with them enabled. Input
    /// lengths as for `compress_lanes`.
    #[inline(always)]
    pub(in crate::blake2) unsafe fn lanes_compress<R: Rotate<__m128i> + Rotate<__m256i>>(
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

    impl Rotate<__m256i> for Shuffles {
        // SAFETY (every function): the caller guarantees AVX2.
        #[inline(always)]
        unsafe fn r1(x: __m256i) -> __m256i {
            // See `ROTR16` for why it is reloaded.
            unsafe { _mm256_shuffle_epi8(x, crate::arch::opaque::reload(&ROTR16)) }
        }
        #[inline(always)]
        unsafe fn r2(x: __m256i) -> __m256i {
            unsafe { _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20)) }
        }
        #[inline(always)]
        unsafe fn r3(x: __m256i) -> __m256i {
            unsafe {
                let mask = _mm256_setr_epi8(
                    1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, //
                    1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
                );
                _mm256_shuffle_epi8(x, mask)
            }
        }
        #[inline(always)]
        unsafe fn r4(x: __m256i) -> __m256i {
            unsafe { _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25)) }
        }
    }

    /// The byte shuffle that rotates each 32-bit word right by 16, reloaded (`crate::arch::opaque::reload`) for the
    /// reason given at sse41.rs's `ROTR16`.
    static ROTR16: __m256i = {
        let half: [u8; 16] = [2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13];
        // SAFETY: any 32 bytes are a valid `__m256i`.
        unsafe { core::mem::transmute::<[[u8; 16]; 2], __m256i>([half, half]) }
    };

    /// The 4x4 transpose of 32-bit words within each 128-bit half of four vectors: element j of
    /// vector i goes to element i of vector j. It is its own inverse.
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn transpose_4x4([a, b, c, d]: [__m256i; 4]) -> [__m256i; 4] {
        // SAFETY: the caller's contract.
        unsafe {
            let ab_lo = _mm256_unpacklo_epi32(a, b);
            let ab_hi = _mm256_unpackhi_epi32(a, b);
            let cd_lo = _mm256_unpacklo_epi32(c, d);
            let cd_hi = _mm256_unpackhi_epi32(c, d);
            [
                _mm256_unpacklo_epi64(ab_lo, cd_lo),
                _mm256_unpackhi_epi64(ab_lo, cd_lo),
                _mm256_unpacklo_epi64(ab_hi, cd_hi),
                _mm256_unpackhi_epi64(ab_hi, cd_hi),
            ]
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
                    m[4 * k..4 * k + 4].copy_from_slice(&transpose_4x4([a, b, c, d]));
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
                    let lanes = transpose_4x4([0, 1, 2, 3].map(|i| words[4 * k + i]));
                    for (i, v) in lanes.into_iter().enumerate() {
                        _mm256_storeu2_m128i(p[i + 4].add(k), p[i].add(k), v);
                    }
                }
            }
        }
    }
}

/// The AVX2 backend.
pub(crate) struct Avx2;

impl Kernels<u64> for Avx2 {
    const DEGREE: usize = 4;

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

impl Kernels<u32> for Avx2 {
    const DEGREE: usize = 8;

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
