//! BLAKE3 kernels for AVX-512 (AVX-512F with AVX-512VL).
//!
//! AVX-512F gives 512-bit vectors; AVX-512VL gives its instructions on 128- and 256-bit vectors
//! too, among them the one-instruction rotation `vprord` (SSE4.1 and AVX2 need two shifts and an
//! or, or a byte shuffle) and the two-source word permute `vpermt2d`. The compression comes in
//! two shapes, as in `sse41`, both written here around those two instructions:
//!
//! - Transposed ([`hash_group`], [`xof_group`]): vector `v[i]` holds state word `i` of every
//!   lane, so each G is plain vertical arithmetic; `__m512i` runs 16 lanes, `__m256i` eight.
//!   The fastest per block when the lanes fill the vector, but the cost of a pass does not shrink
//!   with fewer lanes.
//! - Row-vectorised ([`rounds_rows`]): one block's 16 state words are four rows of a 128-bit
//!   lane, and a vector holds one (`__m128i`), two (`__m256i`) or four (`__m512i`) independent
//!   blocks side by side in its 128-bit lanes. A compression is then a chain of about 200
//!   dependent instructions whatever the width, so four blocks in a `__m512i` cost about what
//!   one does: this is the path of groups of at most four lanes (the four chunks of a 4 KiB
//!   message, pairs of parents) and of single blocks (short messages, the blocks of a lone
//!   chunk). It is kept short: every rotation is one `vprord`; the diagonal step turns rows `a`,
//!   `c` and `d` rather than `b`, so that no shuffle sits between the last instruction of one
//!   half-round and the first of the next; and the message words are moved to the next round's
//!   order with `vpermt2d` off that chain.
//!
//! The helpers are `#[inline(always)]` without `#[target_feature]`: they are only compiled into
//! this module's `#[target_feature(enable = "avx512f,avx512vl,avx2")]` entry points, so their
//! intrinsics stay inline instructions (closures are avoided for the same reason: one that is
//! not inlined would be compiled without the features). That is why each helper is `unsafe`:
//! calling one is sound only from code compiled with those features, on a CPU that has them.

use core::arch::x86_64::*;

use super::kernels::{Lane, BLOCK_LEN};
use super::portable::MSG_PERMUTATION;
use crate::blake2s::IV;

/// `SCHEDULE[r][i]` is the index in the block of message word `i` of round `r`: the message
/// permutation applied `r` times.
const SCHEDULE: [[usize; 16]; 7] = {
    let mut schedule = [[0; 16]; 7];
    let mut i = 0;
    while i < 16 {
        schedule[0][i] = i;
        i += 1;
    }
    let mut r = 1;
    while r < 7 {
        let mut i = 0;
        while i < 16 {
            schedule[r][i] = schedule[r - 1][MSG_PERMUTATION[i]];
            i += 1;
        }
        r += 1;
    }
    schedule
};

/// The immediate of `vpshufd` / `vshufi32x4` taking source elements `w, x, y, z` into result
/// elements 0, 1, 2, 3.
const fn pick(w: i32, x: i32, y: i32, z: i32) -> i32 {
    w | (x << 2) | (y << 4) | (z << 6)
}

/// A [`Vector::permute2`] pattern: result word `k` of each 128-bit lane is word `w[k]` of the
/// same lane of the first source if `w[k] < 4`, else word `w[k] - 4` of the second.
const fn words(w0: u32, w1: u32, w2: u32, w3: u32) -> u32 {
    w0 | (w1 << 4) | (w2 << 8) | (w3 << 12)
}

#[inline(always)]
unsafe fn load128(p: *const u8) -> __m128i {
    // SAFETY: the caller guarantees 16 readable bytes at `p`; the load is unaligned.
    unsafe { _mm_loadu_si128(p.cast()) }
}

#[inline(always)]
unsafe fn store128(p: *mut u8, x: __m128i) {
    // SAFETY: the caller guarantees 16 writable bytes at `p`; the store is unaligned.
    unsafe { _mm_storeu_si128(p.cast(), x) }
}

// ---------------------------------------------------------------------------------------------
// The vector types.

/// A vector of 32-bit words, seen either as one word per lane (transposed compression) or as
/// 128-bit lanes of four words (row-vectorised compression, one block per 128-bit lane).
///
/// Every method is `unsafe`: it may only run in code compiled with AVX-512F + VL (and AVX2) on a
/// CPU that has them; the pointer methods also need valid memory.
trait Vector: Copy {
    /// 32-bit words per vector.
    const LANES: usize;
    /// 128-bit lanes per vector: blocks side by side in row form.
    const BLOCKS: usize = Self::LANES / 4;
    unsafe fn splat(w: u32) -> Self;
    /// Word `i` set to `w[i]` for `i < LANES`.
    unsafe fn from_lanes(w: &[u32; 16]) -> Self;
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Word-wise rotation right by `N` bits.
    unsafe fn ror<const N: i32>(self) -> Self;
    /// `vpshufd`: word `k` of each 128-bit lane takes word `(IMM >> 2k) & 3` of that lane.
    unsafe fn shuffle<const IMM: i32>(self) -> Self;
    /// Within each 128-bit lane, the words of `self` and `other` picked by `P` (see [`words`]).
    unsafe fn permute2<const P: u32>(self, other: Self) -> Self;
    /// Word `k` of each 128-bit lane from `other` where bit `k` of `MASK` is set, else from
    /// `self`.
    unsafe fn blend<const MASK: i32>(self, other: Self) -> Self;
    /// 128-bit lane `q` read from the 16 bytes at `src[q]`, for `q < BLOCKS`.
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self;
    /// The 16 bytes at `src` in every 128-bit lane.
    unsafe fn broadcast_row(src: *const u8) -> Self;
    /// 128-bit lane `q` written to the 16 bytes at `dst[q]`, for `q < BLOCKS`.
    unsafe fn store_rows(self, dst: &[*mut u8; 4]);
}

/// The transposed layout's loads and stores, for the vectors wide enough to be worth it.
///
/// The same safety rules as [`Vector`]; the pointer methods need valid memory for the first
/// `LANES` pointers.
trait Transposed: Vector {
    /// Whether `hash_group` loads and transposes each block's message before the previous
    /// block's rounds, so that those loads and shuffles overlap the rounds rather than delay the
    /// next block. Measured: a gain of about 5 % with 16 lanes, a loss of about 10 % with 8.
    const LOAD_AHEAD: bool;
    /// Lane `i` reads `4 * W` little-endian bytes at `src[i]` (`W` is 8 or 16); word `k` goes
    /// to vector `k`.
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W];
    /// The inverse: lane `i` of the `W` vectors is written as `4 * W` bytes at `dst[i]`.
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]);
}

/// The `vpermt2d` index of a [`Vector::permute2`] pattern for word `k` of 128-bit lane `q` of a
/// vector of `lanes` words: the first source's words are `0..lanes`, the second's follow.
const fn permute2_index(p: u32, lanes: usize, q: usize, k: usize) -> i32 {
    let w = ((p >> (4 * k)) & 0xF) as usize;
    let i = if w < 4 {
        4 * q + w
    } else {
        lanes + 4 * q + w - 4
    };
    i as i32
}

/// The 4x4 word transpose of `sse41` within each 128-bit lane: word `j` of row `i` becomes word
/// `i` of row `j`.
macro_rules! transpose4_fn {
    ($name:ident, $t:ty, $lo32:ident, $hi32:ident, $lo64:ident, $hi64:ident) => {
        #[inline(always)]
        unsafe fn $name(r: [$t; 4]) -> [$t; 4] {
            // SAFETY: the caller is compiled with the features (see the module documentation).
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
transpose4_fn!(
    transpose4_256,
    __m256i,
    _mm256_unpacklo_epi32,
    _mm256_unpackhi_epi32,
    _mm256_unpacklo_epi64,
    _mm256_unpackhi_epi64
);
transpose4_fn!(
    transpose4_512,
    __m512i,
    _mm512_unpacklo_epi32,
    _mm512_unpackhi_epi32,
    _mm512_unpacklo_epi64,
    _mm512_unpackhi_epi64
);

impl Vector for __m128i {
    const LANES: usize = 4;

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 16]) -> Self {
        // SAFETY: `w` has 64 bytes.
        unsafe { load128(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_xor_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn ror<const N: i32>(self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_ror_epi32::<N>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle<const IMM: i32>(self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn permute2<const P: u32>(self, other: Self) -> Self {
        let i = |k| permute2_index(P, 4, 0, k);
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_permutex2var_epi32(self, _mm_setr_epi32(i(0), i(1), i(2), i(3)), other) }
    }

    #[inline(always)]
    unsafe fn blend<const MASK: i32>(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm_blend_epi32::<MASK>(self, other) }
    }

    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: see the trait.
        unsafe { load128(src[0]) }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: see the trait.
        unsafe { load128(src) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: see the trait.
        unsafe { store128(dst[0], self) }
    }
}

impl Vector for __m256i {
    const LANES: usize = 8;

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm256_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 16]) -> Self {
        // SAFETY: `w` has 64 bytes.
        unsafe { _mm256_loadu_si256(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm256_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm256_xor_si256(self, other) }
    }

    #[inline(always)]
    unsafe fn ror<const N: i32>(self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm256_ror_epi32::<N>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle<const IMM: i32>(self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm256_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn permute2<const P: u32>(self, other: Self) -> Self {
        let i = |q, k| permute2_index(P, 8, q, k);
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe {
            let idx = _mm256_setr_epi32(
                i(0, 0),
                i(0, 1),
                i(0, 2),
                i(0, 3),
                i(1, 0),
                i(1, 1),
                i(1, 2),
                i(1, 3),
            );
            _mm256_permutex2var_epi32(self, idx, other)
        }
    }

    #[inline(always)]
    unsafe fn blend<const MASK: i32>(self, other: Self) -> Self {
        let mask = (MASK & 0xF) as u8 * 0x11;
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm256_mask_blend_epi32(mask, self, other) }
    }

    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: see the trait; an insert from memory needs no shuffle port.
        unsafe {
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load128(src[0])), load128(src[1]))
        }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: see the trait.
        unsafe { _mm256_broadcastsi128_si256(load128(src)) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: see the trait.
        unsafe {
            store128(dst[0], _mm256_castsi256_si128(self));
            store128(dst[1], _mm256_extracti128_si256::<1>(self));
        }
    }
}

impl Transposed for __m256i {
    const LOAD_AHEAD: bool = false;

    /// Row `i` of each 4x4 transpose holds 16 bytes of lane `i` in its low half and of lane
    /// `i + 4` in its high half (a load and an insert from memory, which needs no shuffle port),
    /// so the in-half transposes leave word `k` of lanes 0-7 in order.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W] {
        // SAFETY: the features are enabled (see the trait); lanes `i` and `i + 4` read 16 bytes
        // at a time inside their `4 * W` bytes.
        unsafe {
            let mut words = [_mm256_setzero_si256(); W];
            for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
                let mut rows = [_mm256_setzero_si256(); 4];
                for (i, row) in rows.iter_mut().enumerate() {
                    let at = 16 * quarter;
                    *row = Self::load_rows(&[src[i].add(at), src[i + 4].add(at), src[0], src[0]]);
                }
                group.copy_from_slice(&transpose4_256(rows));
            }
            words
        }
    }

    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        // SAFETY: the features are enabled (see the trait); lanes `i` and `i + 4` write 16
        // bytes at a time inside their `4 * W` bytes: lane `i` is the low half of row `i`, lane
        // `i + 4` its high half.
        unsafe {
            for (quarter, group) in words.chunks_exact(4).enumerate() {
                let rows = transpose4_256([group[0], group[1], group[2], group[3]]);
                for (i, row) in rows.into_iter().enumerate() {
                    let at = 16 * quarter;
                    row.store_rows(&[dst[i].add(at), dst[i + 4].add(at), dst[0], dst[0]]);
                }
            }
        }
    }
}

impl Vector for __m512i {
    const LANES: usize = 16;

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm512_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 16]) -> Self {
        // SAFETY: `w` has 64 bytes.
        unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm512_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm512_xor_si512(self, other) }
    }

    #[inline(always)]
    unsafe fn ror<const N: i32>(self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm512_ror_epi32::<N>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle<const IMM: i32>(self) -> Self {
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm512_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn permute2<const P: u32>(self, other: Self) -> Self {
        let i = |q, k| permute2_index(P, 16, q, k);
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe {
            let idx = _mm512_setr_epi32(
                i(0, 0),
                i(0, 1),
                i(0, 2),
                i(0, 3),
                i(1, 0),
                i(1, 1),
                i(1, 2),
                i(1, 3),
                i(2, 0),
                i(2, 1),
                i(2, 2),
                i(2, 3),
                i(3, 0),
                i(3, 1),
                i(3, 2),
                i(3, 3),
            );
            _mm512_permutex2var_epi32(self, idx, other)
        }
    }

    #[inline(always)]
    unsafe fn blend<const MASK: i32>(self, other: Self) -> Self {
        let mask = (MASK & 0xF) as u16 * 0x1111;
        // SAFETY: AVX-512F + VL; see the trait.
        unsafe { _mm512_mask_blend_epi32(mask, self, other) }
    }

    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: see the trait; inserts from memory need no shuffle port.
        unsafe {
            let v = _mm512_castsi128_si512(load128(src[0]));
            let v = _mm512_inserti32x4::<1>(v, load128(src[1]));
            let v = _mm512_inserti32x4::<2>(v, load128(src[2]));
            _mm512_inserti32x4::<3>(v, load128(src[3]))
        }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: see the trait.
        unsafe { _mm512_broadcast_i32x4(load128(src)) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: see the trait.
        unsafe {
            store128(dst[0], _mm512_castsi512_si128(self));
            store128(dst[1], _mm512_extracti32x4_epi32::<1>(self));
            store128(dst[2], _mm512_extracti32x4_epi32::<2>(self));
            store128(dst[3], _mm512_extracti32x4_epi32::<3>(self));
        }
    }
}

/// Transposes a 16x16 matrix of words held as 16 rows: 4x4 word transposes within each 128-bit
/// lane of four rows at a time, then 4x4 transposes of 128-bit lanes across those groups. Its
/// own inverse, so it serves loading blocks and storing extended output.
#[inline(always)]
unsafe fn transpose16(rows: [__m512i; 16]) -> [__m512i; 16] {
    const EVEN: i32 = pick(0, 2, 0, 2);
    const ODD: i32 = pick(1, 3, 1, 3);
    // SAFETY: the caller is compiled with the features (see the module documentation).
    unsafe {
        // After the first stage, `t[g][k]` holds in its 128-bit lane `q` the words `4q + k` of
        // rows `4g..4g + 4`; the second moves lane `q` of `t[g][k]` to lane `g` of row `4q + k`.
        let mut t = [[_mm512_setzero_si512(); 4]; 4];
        for (g, t) in t.iter_mut().enumerate() {
            *t = transpose4_512([
                rows[4 * g],
                rows[4 * g + 1],
                rows[4 * g + 2],
                rows[4 * g + 3],
            ]);
        }
        let mut out = [_mm512_setzero_si512(); 16];
        for k in 0..4 {
            let s0 = _mm512_shuffle_i32x4::<EVEN>(t[0][k], t[1][k]);
            let s1 = _mm512_shuffle_i32x4::<ODD>(t[0][k], t[1][k]);
            let s2 = _mm512_shuffle_i32x4::<EVEN>(t[2][k], t[3][k]);
            let s3 = _mm512_shuffle_i32x4::<ODD>(t[2][k], t[3][k]);
            out[k] = _mm512_shuffle_i32x4::<EVEN>(s0, s2);
            out[4 + k] = _mm512_shuffle_i32x4::<EVEN>(s1, s3);
            out[8 + k] = _mm512_shuffle_i32x4::<ODD>(s0, s2);
            out[12 + k] = _mm512_shuffle_i32x4::<ODD>(s1, s3);
        }
        out
    }
}

/// Two 32-byte loads in one `__m512i`: `lo` in the low half, `hi` in the high half.
#[inline(always)]
unsafe fn load_pair(lo: *const u8, hi: *const u8) -> __m512i {
    // SAFETY: the caller guarantees 32 readable bytes at each pointer and the features.
    unsafe {
        _mm512_inserti64x4::<1>(
            _mm512_castsi256_si512(_mm256_loadu_si256(lo.cast())),
            _mm256_loadu_si256(hi.cast()),
        )
    }
}

impl Transposed for __m512i {
    const LOAD_AHEAD: bool = true;

    /// Blocks (`W = 16`) go through [`transpose16`]. Chaining values (`W = 8`): lanes `j` and
    /// `j + 4` share one load and an insert, as do lanes `j + 8` and `j + 12`; two 128-bit lane
    /// shuffles gather words 0-3 (and 4-7) of lanes `j`, `j + 4`, `j + 8`, `j + 12`, and 4x4
    /// transposes within 128-bit lanes finish.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W] {
        // SAFETY: the features are enabled and lane `i` reads its `4 * W` bytes at `src[i]`
        // (see the trait).
        unsafe {
            let mut words = [_mm512_setzero_si512(); W];
            if W == 16 {
                let mut rows = [_mm512_setzero_si512(); 16];
                for (row, src) in rows.iter_mut().zip(src) {
                    *row = _mm512_loadu_si512(src.cast());
                }
                words.copy_from_slice(&transpose16(rows));
            } else {
                debug_assert_eq!(W, 8);
                let mut halves = [[_mm512_setzero_si512(); 4]; 2];
                for j in 0..4 {
                    let lo = load_pair(src[j], src[j + 4]);
                    let hi = load_pair(src[j + 8], src[j + 12]);
                    halves[0][j] = _mm512_shuffle_i64x2::<{ pick(0, 2, 0, 2) }>(lo, hi);
                    halves[1][j] = _mm512_shuffle_i64x2::<{ pick(1, 3, 1, 3) }>(lo, hi);
                }
                for (group, half) in words.chunks_exact_mut(4).zip(halves) {
                    group.copy_from_slice(&transpose4_512(half));
                }
            }
            words
        }
    }

    /// Blocks (`W = 16`) go through [`transpose16`]. Chaining values (`W = 8`): after 4x4
    /// transposes within 128-bit lanes, 128-bit lane `q` of vector `j` of the first (second)
    /// group holds words 0-3 (4-7) of lane `4q + j`; one two-source permute per pair of lanes
    /// joins the halves into 32 contiguous bytes.
    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        // SAFETY: the features are enabled and lane `i` writes its `4 * W` bytes at `dst[i]`
        // (see the trait).
        unsafe {
            if W == 16 {
                let mut rows = [_mm512_setzero_si512(); 16];
                rows.copy_from_slice(&words);
                let rows = transpose16(rows);
                for (row, &dst) in rows.into_iter().zip(dst) {
                    _mm512_storeu_si512(dst.cast(), row);
                }
            } else {
                debug_assert_eq!(W, 8);
                let lo = transpose4_512([words[0], words[1], words[2], words[3]]);
                let hi = transpose4_512([words[4], words[5], words[6], words[7]]);
                let first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
                let second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
                for j in 0..4 {
                    for (q, idx) in [(0, first), (2, second)] {
                        let both = _mm512_permutex2var_epi64(lo[j], idx, hi[j]);
                        _mm256_storeu_si256(dst[4 * q + j].cast(), _mm512_castsi512_si256(both));
                        _mm256_storeu_si256(
                            dst[4 * q + 4 + j].cast(),
                            _mm512_extracti64x4_epi64::<1>(both),
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Row-vectorised compression, one block per 128-bit lane.

/// Half a round on the rows: the first (message `m`, rotations 16 and 12) or second half
/// (rotations 8 and 7) of G on all four columns or diagonals at once. `a + m` is added before
/// `b`, the last row computed, so that only one addition waits for it.
#[inline(always)]
unsafe fn g_rows<V: Vector, const R1: i32, const R2: i32>(r: &mut [V; 4], m: V) {
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        r[0] = r[0].add(m).add(r[1]);
        r[3] = r[3].xor(r[0]).ror::<R1>();
        r[2] = r[2].add(r[3]);
        r[1] = r[1].xor(r[2]).ror::<R2>();
    }
}

/// One round on the rows with its message vectors (see [`RowMessage`]). Between the column and
/// the diagonal step, rows `a`, `c` and `d` turn by one, three and two words so that lane `i`
/// holds the diagonal through `b[i]`; `b` stays put.
#[inline(always)]
unsafe fn round_rows<V: Vector>(r: &mut [V; 4], m: &RowMessage<V>) {
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        g_rows::<V, 16, 12>(r, m[0]);
        g_rows::<V, 8, 7>(r, m[1]);
        r[0] = r[0].shuffle::<{ pick(3, 0, 1, 2) }>();
        r[2] = r[2].shuffle::<{ pick(1, 2, 3, 0) }>();
        r[3] = r[3].shuffle::<{ pick(2, 3, 0, 1) }>();
        g_rows::<V, 16, 12>(r, m[2]);
        g_rows::<V, 8, 7>(r, m[3]);
        r[0] = r[0].shuffle::<{ pick(1, 2, 3, 0) }>();
        r[2] = r[2].shuffle::<{ pick(3, 0, 1, 2) }>();
        r[3] = r[3].shuffle::<{ pick(2, 3, 0, 1) }>();
    }
}

/// The message words of one round in the order the row steps consume them: with `m` the
/// round's message, `A = (m0, m2, m4, m6)` and `B = (m1, m3, m5, m7)` for the column step,
/// `C = (m14, m8, m10, m12)` and `D = (m15, m9, m11, m13)` for the diagonal step (lane 0 of
/// that step is the G of `v3, v4, v9, v14`, which takes words 14 and 15).
type RowMessage<V> = [V; 4];

/// The first round's [`RowMessage`] from the block's natural rows (row `i` = words `4i..4i+4`).
#[inline(always)]
unsafe fn first_row_message<V: Vector>(block: &[V; 4]) -> RowMessage<V> {
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        [
            block[0].permute2::<{ words(0, 2, 4, 6) }>(block[1]),
            block[0].permute2::<{ words(1, 3, 5, 7) }>(block[1]),
            block[2].permute2::<{ words(6, 0, 2, 4) }>(block[3]),
            block[2].permute2::<{ words(7, 1, 3, 5) }>(block[3]),
        ]
    }
}

/// The next round's [`RowMessage`]: the message permutation (`MSG_PERMUTATION`) on the
/// consumption order. The next round needs `A' = (A1, B1, B3, A2)`, `B' = (A3, C2, A0, D3)`,
/// `C' = (D0, B0, C3, D1)` and `D' = (C1, D2, B2, C0)`: one or two permutes or blends each.
#[inline(always)]
unsafe fn permute_row_message<V: Vector>(m: &RowMessage<V>) -> RowMessage<V> {
    let [a, b, c, d] = *m;
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        [
            a.permute2::<{ words(1, 5, 7, 2) }>(b),
            a.permute2::<{ words(3, 6, 0, 0) }>(c).blend::<0b1000>(d),
            d.permute2::<{ words(0, 4, 0, 1) }>(b)
                .permute2::<{ words(0, 1, 7, 3) }>(c),
            c.permute2::<{ words(1, 6, 0, 0) }>(d).blend::<0b0100>(b),
        ]
    }
}

/// The four state rows after the seven rounds, for every block side by side: from the chaining
/// value rows `cv` (words 0-3, 4-7), the block's natural rows and the last row
/// `(counter low, counter high, block length, flags)`.
#[inline(always)]
unsafe fn rounds_rows<V: Vector>(cv: [V; 2], block: &[V; 4], last_row: V) -> [V; 4] {
    // SAFETY: forwarded from the caller (see `Vector`); the load reads 16 bytes of `IV`.
    unsafe {
        let mut r = [cv[0], cv[1], V::broadcast_row(IV.as_ptr().cast()), last_row];
        let mut m = first_row_message(block);
        round_rows(&mut r, &m);
        for _ in 1..7 {
            m = permute_row_message(&m);
            round_rows(&mut r, &m);
        }
        r
    }
}

/// Hashes 1 to `V::BLOCKS` lanes at once in rows, one per 128-bit lane: `portable::hash_lanes`
/// for a group too small for the transposed kernels. The 128-bit lanes beyond `lanes.len()`
/// hash lane 0 again, and their results are dropped.
///
/// # Safety
/// AVX-512F + VL must be enabled and present; `1 <= lanes.len() <= V::BLOCKS`,
/// `out.len() >= lanes.len()` and every lane's input is `blocks * BLOCK_LEN` bytes.
#[inline(always)]
unsafe fn hash_rows<V: Vector>(lanes: &[Lane<'_>], blocks: usize, flags: u8, out: &mut [[u8; 32]]) {
    debug_assert!(!lanes.is_empty() && lanes.len() <= V::BLOCKS && out.len() >= lanes.len());
    let mut inputs = [lanes[0].input.as_ptr(); 4];
    let mut cvs = [lanes[0].cv.as_ptr().cast::<u8>(); 4];
    // The last state row of the first, a middle and the last block, 128-bit lane by lane.
    let [mut first, mut middle, mut last] = [[0u32; 16]; 3];
    for q in 0..V::BLOCKS {
        let lane = lanes.get(q).unwrap_or(&lanes[0]);
        inputs[q] = lane.input.as_ptr();
        cvs[q] = lane.cv.as_ptr().cast();
        let counter = [lane.counter as u32, (lane.counter >> 32) as u32];
        let full = BLOCK_LEN as u32;
        let last_len = u32::from(lane.last_block_len);
        let last_flags = u32::from(flags | lane.flags_end);
        let first_flags = u32::from(flags | lane.flags_start);
        let row = |len, flags| [counter[0], counter[1], len, flags];
        let first_row = if blocks == 1 {
            row(last_len, first_flags | last_flags)
        } else {
            row(full, first_flags)
        };
        first[4 * q..4 * q + 4].copy_from_slice(&first_row);
        middle[4 * q..4 * q + 4].copy_from_slice(&row(full, flags.into()));
        last[4 * q..4 * q + 4].copy_from_slice(&row(last_len, last_flags));
    }

    // SAFETY: the features are enabled (our contract). Every chaining value read is 16 bytes
    // of a lane's `cv`; every block read is 16 bytes of block `j < blocks` of a lane. Every
    // store goes to `out[q]` for `q < lanes.len()` or to `spare`.
    unsafe {
        let (first, middle, last) = (
            V::from_lanes(&first),
            V::from_lanes(&middle),
            V::from_lanes(&last),
        );
        let mut cv = [
            V::load_rows(&cvs),
            V::load_rows(&cvs.map(|p| p.wrapping_add(16))),
        ];
        for j in 0..blocks {
            let mut block = [V::splat(0); 4];
            for (i, row) in block.iter_mut().enumerate() {
                *row = V::load_rows(&inputs.map(|p| p.wrapping_add(16 * i)));
            }
            for p in &mut inputs {
                *p = p.wrapping_add(BLOCK_LEN);
            }
            let last_row = match j {
                0 => first,
                _ if j + 1 == blocks => last,
                _ => middle,
            };
            let r = rounds_rows(cv, &block, last_row);
            cv = [r[0].xor(r[2]), r[1].xor(r[3])];
        }

        let mut spare = [[0u8; 32]; 4];
        let mut dst = [spare[0].as_mut_ptr(); 4];
        for (q, dst) in dst.iter_mut().enumerate() {
            *dst = match out.get_mut(q) {
                Some(bytes) if q < lanes.len() => bytes.as_mut_ptr(),
                _ => spare[q].as_mut_ptr(),
            };
        }
        cv[0].store_rows(&dst);
        cv[1].store_rows(&dst.map(|p| p.wrapping_add(16)));
    }
}

/// Extended output for `V::BLOCKS` consecutive blocks in rows: `out` (`V::BLOCKS * 64` bytes)
/// gets the root compressions with counters `counter`, `counter + 1`, ... (wrapping).
///
/// # Safety
/// AVX-512F + VL must be enabled and present; `out.len() == V::BLOCKS * BLOCK_LEN`.
#[inline(always)]
unsafe fn xof_rows<V: Vector>(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), V::BLOCKS * BLOCK_LEN);
    let mut last_row = [0u32; 16];
    for q in 0..V::BLOCKS {
        let c = counter.wrapping_add(q as u64);
        last_row[4 * q..4 * q + 4].copy_from_slice(&[
            c as u32,
            (c >> 32) as u32,
            block_len.into(),
            flags.into(),
        ]);
    }
    // SAFETY: the features are enabled (our contract); the loads read 16 bytes inside `cv` and
    // `block`; block `q` of `out` gets its 64 bytes at `64 * q`.
    unsafe {
        let cv = [
            V::broadcast_row(cv.as_ptr().cast()),
            V::broadcast_row(cv[4..].as_ptr().cast()),
        ];
        let mut message = [V::splat(0); 4];
        for (i, row) in message.iter_mut().enumerate() {
            *row = V::broadcast_row(block[16 * i..].as_ptr());
        }
        let r = rounds_rows(cv, &message, V::from_lanes(&last_row));
        let rows = [
            r[0].xor(r[2]),
            r[1].xor(r[3]),
            r[2].xor(cv[0]),
            r[3].xor(cv[1]),
        ];
        let base = out.as_mut_ptr();
        for (i, row) in rows.into_iter().enumerate() {
            let mut dst = [base; 4];
            for (q, dst) in dst.iter_mut().enumerate() {
                *dst = base.wrapping_add(BLOCK_LEN * (q % V::BLOCKS) + 16 * i);
            }
            row.store_rows(&dst);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Transposed compression, one lane per word.

/// Four independent G functions, `cols[k] = [a, b, c, d]` with message words `x[k]`, `y[k]`,
/// interleaved step by step so that the four dependency chains overlap.
#[inline(always)]
unsafe fn g4<V: Vector>(v: &mut [V; 16], cols: [[usize; 4]; 4], x: [V; 4], y: [V; 4]) {
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        for (&[a, b, _, _], x) in cols.iter().zip(x) {
            v[a] = v[a].add(x).add(v[b]);
        }
        for &[a, _, _, d] in &cols {
            v[d] = v[d].xor(v[a]).ror::<16>();
        }
        for &[_, _, c, d] in &cols {
            v[c] = v[c].add(v[d]);
        }
        for &[_, b, c, _] in &cols {
            v[b] = v[b].xor(v[c]).ror::<12>();
        }
        for (&[a, b, _, _], y) in cols.iter().zip(y) {
            v[a] = v[a].add(y).add(v[b]);
        }
        for &[a, _, _, d] in &cols {
            v[d] = v[d].xor(v[a]).ror::<8>();
        }
        for &[_, _, c, d] in &cols {
            v[c] = v[c].add(v[d]);
        }
        for &[_, b, c, _] in &cols {
            v[b] = v[b].xor(v[c]).ror::<7>();
        }
    }
}

/// One round on transposed state `v` with transposed message `m`, `s` its schedule.
#[inline(always)]
unsafe fn round<V: Vector>(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
    const COLUMNS: [[usize; 4]; 4] = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]];
    const DIAGONALS: [[usize; 4]; 4] =
        [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]];
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        let x = [m[s[0]], m[s[2]], m[s[4]], m[s[6]]];
        let y = [m[s[1]], m[s[3]], m[s[5]], m[s[7]]];
        g4(v, COLUMNS, x, y);
        let x = [m[s[8]], m[s[10]], m[s[12]], m[s[14]]];
        let y = [m[s[9]], m[s[11]], m[s[13]], m[s[15]]];
        g4(v, DIAGONALS, x, y);
    }
}

/// The seven rounds on transposed state `v` with transposed message `m`.
#[inline(always)]
unsafe fn rounds<V: Vector>(v: &mut [V; 16], m: &[V; 16]) {
    // SAFETY: forwarded from the caller (see `Vector`). Spelled out, not a loop, so that every
    // message index is a constant and the message stays in registers.
    unsafe {
        round(v, m, &SCHEDULE[0]);
        round(v, m, &SCHEDULE[1]);
        round(v, m, &SCHEDULE[2]);
        round(v, m, &SCHEDULE[3]);
        round(v, m, &SCHEDULE[4]);
        round(v, m, &SCHEDULE[5]);
        round(v, m, &SCHEDULE[6]);
    }
}

/// The initial state from transposed chaining values and per-lane parameters.
#[inline(always)]
unsafe fn initial_state<V: Vector>(
    cv: &[V; 8],
    counter: [V; 2],
    block_len: V,
    flags: V,
) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `Vector`).
    unsafe {
        [
            cv[0],
            cv[1],
            cv[2],
            cv[3],
            cv[4],
            cv[5],
            cv[6],
            cv[7],
            V::splat(IV[0]),
            V::splat(IV[1]),
            V::splat(IV[2]),
            V::splat(IV[3]),
            counter[0],
            counter[1],
            block_len,
            flags,
        ]
    }
}

/// Hashes 1 to `V::LANES` lanes at once: the transposed form of `portable::hash_lanes`. The
/// vector slots beyond `lanes.len()` hash lane 0 again, and their results are dropped.
///
/// # Safety
/// AVX-512F + VL must be enabled and present; `1 <= lanes.len() <= V::LANES`,
/// `out.len() >= lanes.len()` and every lane's input is `blocks * BLOCK_LEN` bytes.
#[inline(always)]
unsafe fn hash_group<V: Transposed>(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    debug_assert!(!lanes.is_empty() && lanes.len() <= V::LANES && out.len() >= lanes.len());
    let mut inputs = [lanes[0].input.as_ptr(); 16];
    let mut cvs = [lanes[0].cv.as_ptr().cast::<u8>(); 16];
    let [mut counter_lo, mut counter_hi, mut first_flags, mut last_flags, mut last_len] =
        [[0u32; 16]; 5];
    for (i, lane) in lanes.iter().enumerate() {
        inputs[i] = lane.input.as_ptr();
        cvs[i] = lane.cv.as_ptr().cast();
        counter_lo[i] = lane.counter as u32;
        counter_hi[i] = (lane.counter >> 32) as u32;
        first_flags[i] = u32::from(flags | lane.flags_start);
        last_flags[i] = u32::from(flags | lane.flags_end);
        last_len[i] = u32::from(lane.last_block_len);
        if blocks == 1 {
            first_flags[i] |= last_flags[i];
        }
    }

    // SAFETY: the features are enabled (our contract). Every chaining value read is the 32
    // bytes of a lane's `cv`; every block read is the 64 bytes of block `j < blocks` of a lane.
    // Every store goes to `out[i]` for `i < lanes.len()` or to `spare`.
    unsafe {
        let mut cv = V::load_transposed::<8>(&cvs);
        let counter = [V::from_lanes(&counter_lo), V::from_lanes(&counter_hi)];
        let first_flags = V::from_lanes(&first_flags);
        let middle_flags = V::splat(u32::from(flags));
        let last_flags = V::from_lanes(&last_flags);
        let full_len = V::splat(BLOCK_LEN as u32);
        let last_len = V::from_lanes(&last_len);
        // With `V::LOAD_AHEAD`, each block's message is loaded and transposed before the
        // previous block's rounds (see `Transposed::LOAD_AHEAD`).
        let mut next = [V::splat(0); 16];
        if V::LOAD_AHEAD && blocks > 0 {
            next = V::load_transposed::<16>(&inputs);
        }
        for j in 0..blocks {
            let is_last = j + 1 == blocks;
            let m = if V::LOAD_AHEAD {
                let m = next;
                if !is_last {
                    for p in &mut inputs {
                        *p = p.wrapping_add(BLOCK_LEN);
                    }
                    next = V::load_transposed::<16>(&inputs);
                }
                m
            } else {
                let m = V::load_transposed::<16>(&inputs);
                for p in &mut inputs {
                    *p = p.wrapping_add(BLOCK_LEN);
                }
                m
            };
            let block_flags = match j {
                0 => first_flags,
                _ if is_last => last_flags,
                _ => middle_flags,
            };
            let block_len = if is_last { last_len } else { full_len };
            let mut v = initial_state(&cv, counter, block_len, block_flags);
            rounds(&mut v, &m);
            for i in 0..8 {
                cv[i] = v[i].xor(v[i + 8]);
            }
        }

        let mut spare = [[0u8; 32]; 16];
        let mut dst = [spare[0].as_mut_ptr(); 16];
        for (i, dst) in dst.iter_mut().enumerate() {
            *dst = match out.get_mut(i) {
                Some(bytes) if i < lanes.len() => bytes.as_mut_ptr(),
                _ => spare[i].as_mut_ptr(),
            };
        }
        V::store_transposed(cv, &dst);
    }
}

/// Extended output for `V::LANES` consecutive blocks: `out` (`V::LANES * 64` bytes) gets the root
/// compressions with counters `counter`, `counter + 1`, ... (wrapping).
///
/// # Safety
/// AVX-512F + VL must be enabled and present; `out.len() == V::LANES * BLOCK_LEN`.
#[inline(always)]
unsafe fn xof_group<V: Transposed>(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), V::LANES * BLOCK_LEN);
    let mut counter_lo = [0u32; 16];
    let mut counter_hi = [0u32; 16];
    for i in 0..V::LANES {
        let c = counter.wrapping_add(i as u64);
        counter_lo[i] = c as u32;
        counter_hi[i] = (c >> 32) as u32;
    }
    // SAFETY: the features are enabled and `out` holds `V::LANES` blocks (our contract); lane
    // `i` writes its 64 bytes at `64 * i`.
    unsafe {
        let mut cv_v = [V::splat(0); 8];
        for (v, &w) in cv_v.iter_mut().zip(cv) {
            *v = V::splat(w);
        }
        let mut m = [V::splat(0); 16];
        for (m, bytes) in m.iter_mut().zip(block.chunks_exact(4)) {
            *m = V::splat(u32::from_le_bytes(bytes.try_into().unwrap()));
        }
        let mut v = initial_state(
            &cv_v,
            [V::from_lanes(&counter_lo), V::from_lanes(&counter_hi)],
            V::splat(u32::from(block_len)),
            V::splat(u32::from(flags)),
        );
        rounds(&mut v, &m);
        let mut words = v;
        for i in 0..8 {
            words[i] = v[i].xor(v[i + 8]);
            words[i + 8] = v[i + 8].xor(cv_v[i]);
        }
        let base = out.as_mut_ptr();
        let mut dst = [base; 16];
        for (i, dst) in dst.iter_mut().enumerate() {
            *dst = base.wrapping_add(BLOCK_LEN * (i % V::LANES));
        }
        V::store_transposed(words, &dst);
    }
}

// ---------------------------------------------------------------------------------------------
// Entry points.

/// Compresses one block into `cv`: the row-vectorised form of `portable::compress_in_place`.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512VL and AVX2.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(crate) unsafe fn compress_in_place(
    cv: &mut [u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    // SAFETY: the features are enabled here and present (our contract); the loads and stores
    // stay inside `cv` and `block`.
    unsafe {
        let rows = [
            load128(cv.as_ptr().cast()),
            load128(cv[4..].as_ptr().cast()),
        ];
        let mut message = [_mm_setzero_si128(); 4];
        for (i, row) in message.iter_mut().enumerate() {
            *row = load128(block[16 * i..].as_ptr());
        }
        let last_row = _mm_set_epi64x(
            (i64::from(flags) << 32) | i64::from(block_len),
            counter as i64,
        );
        let r = rounds_rows(rows, &message, last_row);
        store128(cv.as_mut_ptr().cast(), r[0].xor(r[2]));
        store128(cv[4..].as_mut_ptr().cast(), r[1].xor(r[3]));
    }
}

/// Hashes every lane, sixteen at a time: the AVX-512 form of `portable::hash_lanes`. A last group
/// of nine to fifteen lanes runs padded to sixteen, one of five to eight on eight; one of three
/// or four runs in rows four blocks wide, a pair two wide, a single lane one wide.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512VL and AVX2; `out.len() >= lanes.len()` and every
/// lane's input is `blocks * BLOCK_LEN` bytes (as `kernels::hash_lanes` checks).
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(crate) unsafe fn hash_lanes(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    // SAFETY: the features are enabled here and present; the lengths are our contract, and
    // each group is within its kernel's lane count.
    unsafe {
        for (group, out) in lanes.chunks(16).zip(out.chunks_mut(16)) {
            match group.len() {
                9.. => hash_group::<__m512i>(group, blocks, flags, out),
                5.. => hash_group::<__m256i>(group, blocks, flags, out),
                3.. => hash_rows::<__m512i>(group, blocks, flags, out),
                2 => hash_rows::<__m256i>(group, blocks, flags, out),
                _ => hash_rows::<__m128i>(group, blocks, flags, out),
            }
        }
    }
}

/// Extended output, sixteen blocks at a time, then eight, then in rows four, two and one wide:
/// the AVX-512 form of `portable::xof_many`.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512VL and AVX2; `out.len()` must be a multiple of
/// `BLOCK_LEN`.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(crate) unsafe fn xof_many(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    // SAFETY: the features are enabled here and present (our contract); each group slice is
    // exactly as many blocks as its kernel computes.
    unsafe {
        let mut counter = counter;
        let mut out = out;
        while out.len() >= 16 * BLOCK_LEN {
            let (group, rest) = out.split_at_mut(16 * BLOCK_LEN);
            xof_group::<__m512i>(cv, block, block_len, counter, flags, group);
            counter = counter.wrapping_add(16);
            out = rest;
        }
        if out.len() >= 8 * BLOCK_LEN {
            let (group, rest) = out.split_at_mut(8 * BLOCK_LEN);
            xof_group::<__m256i>(cv, block, block_len, counter, flags, group);
            counter = counter.wrapping_add(8);
            out = rest;
        }
        if out.len() >= 4 * BLOCK_LEN {
            let (group, rest) = out.split_at_mut(4 * BLOCK_LEN);
            xof_rows::<__m512i>(cv, block, block_len, counter, flags, group);
            counter = counter.wrapping_add(4);
            out = rest;
        }
        if out.len() >= 2 * BLOCK_LEN {
            let (group, rest) = out.split_at_mut(2 * BLOCK_LEN);
            xof_rows::<__m256i>(cv, block, block_len, counter, flags, group);
            counter = counter.wrapping_add(2);
            out = rest;
        }
        if !out.is_empty() {
            xof_rows::<__m128i>(cv, block, block_len, counter, flags, out);
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    //! The differential tests of `sse41`, run on the AVX-512 kernels, and every lane count with
    //! every block count of a chunk.

    use super::super::kernels::{Lane, BLOCK_LEN};
    use super::super::portable;
    use super::super::sse41::tests::{
        check_compress, check_empty_input, check_hash_lanes, check_xof_many, Kernels,
    };
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn kernels() -> Option<Kernels> {
        if !crate::Backend::Avx512.is_supported() {
            println!("skipped: this CPU lacks AVX-512F/VL");
            return None;
        }
        // SAFETY (each closure): AVX-512F, AVX-512VL and AVX2 are present, detected above;
        // `hash_lanes` is only given lanes of `blocks` blocks and enough outputs, `xof_many`
        // whole blocks.
        Some(Kernels {
            degree: 16,
            compress_in_place: |cv, block, len, counter, flags| unsafe {
                super::compress_in_place(cv, block, len, counter, flags)
            },
            hash_lanes: |lanes, blocks, flags, out| unsafe {
                super::hash_lanes(lanes, blocks, flags, out)
            },
            xof_many: |cv, block, len, counter, flags, out| unsafe {
                super::xof_many(cv, block, len, counter, flags, out)
            },
        })
    }

    #[test]
    fn compress_in_place_matches_portable() {
        if let Some(k) = kernels() {
            check_compress(&k);
        }
    }

    #[test]
    fn hash_lanes_matches_portable() {
        if let Some(k) = kernels() {
            check_hash_lanes(&k);
        }
    }

    /// Lane counts 1 to 33 (every group shape of 16, 8, 4 and 1 lanes, twice over) with every
    /// block count of a chunk, distinct parameters per lane.
    #[test]
    fn hash_lanes_every_shape_matches_portable() {
        let Some(k) = kernels() else { return };
        let mut rng = ChaCha8Rng::seed_from_u64(0xA5A512);
        for blocks in 1..=16 {
            for n in 1..=33 {
                let lane_len = blocks * BLOCK_LEN;
                let mut buffer = vec![0u8; n * lane_len];
                rng.fill(&mut buffer[..]);
                let lanes: Vec<Lane<'_>> = buffer
                    .chunks_exact(lane_len)
                    .map(|input| Lane {
                        input,
                        cv: rng.gen(),
                        counter: rng.gen(),
                        flags_start: rng.gen(),
                        flags_end: rng.gen(),
                        last_block_len: rng.gen_range(0..=64),
                    })
                    .collect();
                let flags = rng.gen();
                let mut expected = vec![[0u8; 32]; n];
                portable::hash_lanes(&lanes, blocks, flags, &mut expected);
                let mut got = vec![[0u8; 32]; n];
                (k.hash_lanes)(&lanes, blocks, flags, &mut got);
                assert_eq!(got, expected, "{n} lanes of {blocks} blocks");
            }
        }
    }

    #[test]
    fn xof_many_matches_portable() {
        if let Some(k) = kernels() {
            check_xof_many(&k);
        }
    }

    #[test]
    fn empty_input_hash() {
        if let Some(k) = kernels() {
            check_empty_input(&k);
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod timing {
    //! Per-block times beside the AVX2 kernels and the `blake3` crate's own kernels (through its
    //! hidden `platform` module, AVX-512 on a CPU that has it), and whole hashes beside the
    //! crate; printed, never asserted. Run with `cargo test --release -p arborhash --lib
    //! --all-features avx512::timing -- --ignored --nocapture`.
    use super::super::avx2;
    use super::super::kernels::{Lane, BLOCK_LEN};
    use crate::platform::with_backend;
    use crate::Backend;
    use blake3::platform::Platform as Theirs;
    use blake3::IncrementCounter;
    use std::hint::black_box;
    use std::time::Instant;

    /// Nanoseconds of the fastest of many calls of each candidate, timed in turn so that they
    /// see the same load: on a loaded machine the fastest call is the one least disturbed.
    fn fastest(fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
        let mut best = vec![f64::MAX; fs.len()];
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < 1.0 {
            for (f, best) in fs.iter_mut().zip(&mut best) {
                let call = Instant::now();
                f();
                *best = best.min(call.elapsed().as_secs_f64() * 1e9);
            }
        }
        best
    }

    fn print(what: &str, per: usize, t: &[f64]) {
        let [avx2, ours, theirs] = [t[0], t[1], t[2]].map(|t| t / per as f64);
        println!(
            "{what:28} ns/block: avx2 {avx2:6.1}  avx512 {ours:6.1}  crate {theirs:6.1}  \
             crate/avx512 {:.2}",
            theirs / ours
        );
    }

    #[test]
    #[ignore]
    fn print_times() {
        if !Backend::Avx512.is_supported() {
            return;
        }
        let theirs = Theirs::detect();
        println!("crate platform: {theirs:?}");
        let block = [7u8; BLOCK_LEN];
        let mut cvs = [crate::blake2s::IV; 3];
        const CHAIN: usize = 1000;
        // SAFETY (every call below): AVX-512F/VL and AVX2 are present (checked above); the
        // lanes hold `blocks` blocks and the outputs are long enough.
        let [a, b, c] = &mut cvs;
        let t = fastest(&mut [
            &mut || {
                for _ in 0..CHAIN {
                    unsafe { avx2::compress_in_place(black_box(&mut *a), &block, 64, 0, 0) }
                }
            },
            &mut || {
                for _ in 0..CHAIN {
                    unsafe { super::compress_in_place(black_box(&mut *b), &block, 64, 0, 0) }
                }
            },
            &mut || {
                for _ in 0..CHAIN {
                    theirs.compress_in_place(black_box(&mut *c), &block, 64, 0, 0)
                }
            },
        ]);
        print("compress_in_place chained", CHAIN, &t);

        let input = vec![0x5Au8; 16 * 1024];
        let chunks: Vec<&[u8; 1024]> = input
            .chunks_exact(1024)
            .map(|c| c.try_into().unwrap())
            .collect();
        let lanes: Vec<Lane<'_>> = input
            .chunks_exact(1024)
            .enumerate()
            .map(|(i, chunk)| Lane {
                input: chunk,
                cv: crate::blake2s::IV,
                counter: i as u64,
                flags_start: 1,
                flags_end: 2,
                last_block_len: 64,
            })
            .collect();
        let mut outs = [[[0u8; 32]; 16]; 3];
        let [o1, o2, o3] = &mut outs;
        for n in [1, 2, 3, 4, 8, 12, 16] {
            let lanes = &lanes[..n];
            let chunks = &chunks[..n];
            let t = fastest(&mut [
                &mut || unsafe { avx2::hash_lanes(black_box(lanes), 16, 0, o1) },
                &mut || unsafe { super::hash_lanes(black_box(lanes), 16, 0, o2) },
                &mut || {
                    theirs.hash_many(
                        black_box(chunks),
                        &crate::blake2s::IV,
                        0,
                        IncrementCounter::Yes,
                        0,
                        1,
                        2,
                        o3.as_flattened_mut(),
                    )
                },
            ]);
            print(&format!("hash_lanes {n:2} chunks"), 16 * n, &t);
        }
        let blocks: Vec<&[u8; 64]> = input
            .chunks_exact(BLOCK_LEN)
            .map(|c| c.try_into().unwrap())
            .collect();
        for n in [1, 2, 4, 8, 16] {
            let parents: Vec<Lane<'_>> = input
                .chunks_exact(BLOCK_LEN)
                .take(n)
                .map(|b| Lane {
                    input: b,
                    flags_start: 0,
                    flags_end: 0,
                    ..lanes[0]
                })
                .collect();
            let blocks = &blocks[..n];
            let t = fastest(&mut [
                &mut || unsafe { avx2::hash_lanes(black_box(&parents), 1, 4, o1) },
                &mut || unsafe { super::hash_lanes(black_box(&parents), 1, 4, o2) },
                &mut || {
                    theirs.hash_many(
                        black_box(blocks),
                        &crate::blake2s::IV,
                        0,
                        IncrementCounter::No,
                        4,
                        0,
                        0,
                        o3.as_flattened_mut(),
                    )
                },
            ]);
            print(&format!("hash_lanes {n:2} parents"), n, &t);
        }
        let mut xofs = [[0u8; 64 * BLOCK_LEN]; 3];
        let cv = crate::blake2s::IV;
        for n in [1, 4, 16, 64] {
            let [x1, x2, x3] = &mut xofs;
            let (x1, x2, x3) = (&mut x1[..n * 64], &mut x2[..n * 64], &mut x3[..n * 64]);
            let t = fastest(&mut [
                &mut || unsafe { avx2::xof_many(&cv, &block, 64, 0, 11, black_box(&mut *x1)) },
                &mut || unsafe { super::xof_many(&cv, &block, 64, 0, 11, black_box(&mut *x2)) },
                &mut || theirs.xof_many(&cv, &block, 64, 0, 11, black_box(&mut *x3)),
            ]);
            print(&format!("xof_many {n:2} blocks"), n, &t);
        }

        let buffer: Vec<u8> = (0..(1 << 20) + 128)
            .map(|i| (i * 7 + i / 251) as u8)
            .collect();
        let aligned = buffer.as_ptr().align_offset(64);
        for misalign in [0, 16, 32] {
            let data = &buffer[aligned + misalign..][..1 << 20];
            // The kernels alone on 1 MiB: every chunk, then every level of parents, each level
            // in as few `hash_lanes` calls as it takes; what a tree could cost at best.
            let kernels_only = || {
                let chunks: Vec<Lane<'_>> = data
                    .chunks_exact(1024)
                    .enumerate()
                    .map(|(i, chunk)| Lane {
                        input: chunk,
                        counter: i as u64,
                        ..lanes[0]
                    })
                    .collect();
                let mut level = vec![[0u8; 32]; chunks.len()];
                unsafe { super::hash_lanes(&chunks, 16, 0, &mut level) };
                while level.len() > 1 {
                    let root = if level.len() == 2 { 8 } else { 0 };
                    let parents: Vec<Lane<'_>> = level
                        .as_flattened()
                        .chunks_exact(BLOCK_LEN)
                        .map(|pair| Lane {
                            input: pair,
                            counter: 0,
                            flags_start: 0,
                            flags_end: root,
                            ..lanes[0]
                        })
                        .collect();
                    let mut next = vec![[0u8; 32]; parents.len()];
                    unsafe { super::hash_lanes(&parents, 1, 4, &mut next) };
                    level = next;
                }
                level[0]
            };
            assert_eq!(kernels_only(), *blake3::hash(data).as_bytes());
            let t = fastest(&mut [
                &mut || {
                    black_box(kernels_only());
                },
                &mut || {
                    black_box(crate::blake3::hash(black_box(data)));
                },
                &mut || {
                    black_box(blake3::hash(black_box(data)));
                },
            ]);
            println!(
                "1 MiB at 64n+{misalign:2}, ns: avx512 kernels level by level {:.0}, \
                 arborhash::blake3::hash {:.0}, crate {:.0}",
                t[0], t[1], t[2]
            );
        }
        let data = &buffer[..1 << 20];
        for len in [64, 1024, 4096, 16 * 1024, 1 << 20] {
            let data = &data[..len];
            let ours = |backend| {
                move || with_backend(backend, || black_box(crate::blake3::hash(black_box(data))))
            };
            let (avx2, avx512) = (ours(Backend::Avx2), ours(Backend::Avx512));
            let t = fastest(&mut [
                &mut || {
                    avx2();
                },
                &mut || {
                    avx512();
                },
                &mut || {
                    black_box(blake3::hash(black_box(data)));
                },
            ]);
            println!(
                "hash {len:7} B  ns: avx2 {:9.0}  avx512 {:9.0}  crate {:9.0}  \
                 crate/avx2 {:.2}  crate/avx512 {:.2}",
                t[0],
                t[1],
                t[2],
                t[2] / t[0],
                t[2] / t[1]
            );
        }
    }
}
