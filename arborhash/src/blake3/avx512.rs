//! BLAKE3 kernels for AVX-512 (AVX-512F with AVX-512VL).
//!
//! AVX-512F gives 512-bit vectors, sixteen BLAKE3 lanes in one `__m512i`; AVX-512VL gives the
//! single-instruction rotation `vprord` on 128- and 256-bit vectors too, where SSE4.1 and AVX2
//! need a shift, a shift and an or (or a byte shuffle). The compression comes in two shapes, as
//! in `sse41`, written here again around those rotations:
//!
//! - Row-vectorised, one block at a time ([`compress_in_place`]): the 16 state words are four
//!   `__m128i` rows. This is the latency-bound path of short messages, of the blocks of a lone
//!   chunk and of single parents, so it is kept short: every rotation is one `vprord`, the
//!   diagonal step rotates rows `a`, `c` and `d` rather than `b` so that no shuffle sits between
//!   the last instruction of one half-round and the first of the next (see [`g_rows`]), and each
//!   round's message vectors are picked straight from the block with `vpermt2d` instead of
//!   being permuted from the previous round's.
//! - Transposed, many independent blocks at once ([`hash_group`], [`xof_group`]): vector `v[i]`
//!   holds state word `i` of every lane. It is generic over [`Words`]: `__m512i` runs 16 lanes,
//!   and groups of at most eight or four lanes run on `__m256i` or `__m128i` so that, say, the
//!   four chunks of a 4 KiB message do not pay for sixteen.
//!
//! The helpers are `#[inline(always)]` without `#[target_feature]`: they are only compiled into
//! this module's `#[target_feature(enable = "avx512f,avx512vl,avx2")]` entry points, so their
//! intrinsics stay inline instructions. That is why each is `unsafe`: calling one is sound only
//! from code compiled with those features, on a CPU that has them.

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

/// The immediate of `_mm_shuffle_epi32` / `_mm512_shuffle_i32x4` taking source elements
/// `w, x, y, z` into result elements 0, 1, 2, 3.
const fn pick(w: i32, x: i32, y: i32, z: i32) -> i32 {
    w | (x << 2) | (y << 4) | (z << 6)
}

// ---------------------------------------------------------------------------------------------
// Row-vectorised compression of one block.

/// Which message words (indices into the round's message) feed each of a round's four row
/// steps: the column step's `x` and `y` words, then the diagonal step's, in the lane order
/// of the rows as [`g_rows`] leaves them (lane 0 of the diagonal step is the G of `v3, v4, v9,
/// v14`, which takes words 14 and 15).
const ROW_STEPS: [[usize; 4]; 4] = [[0, 2, 4, 6], [1, 3, 5, 7], [14, 8, 10, 12], [15, 9, 11, 13]];

/// `vpermt2d` indices, 16 bytes each (only the low four words of the result are used): for
/// round `r` and step `k`, the block words `SCHEDULE[r][ROW_STEPS[k][i]]`.
#[repr(align(16))]
struct RowIndices([[[u32; 4]; 4]; 7]);
static ROW_INDICES: RowIndices = RowIndices({
    let mut idx = [[[0u32; 4]; 4]; 7];
    let mut r = 0;
    while r < 7 {
        let mut k = 0;
        while k < 4 {
            let mut i = 0;
            while i < 4 {
                idx[r][k][i] = SCHEDULE[r][ROW_STEPS[k][i]] as u32;
                i += 1;
            }
            k += 1;
        }
        r += 1;
    }
    idx
});

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

/// Half a round on the four rows: the first (`mx`, rotations 16 and 12) or second (`my`,
/// rotations 8 and 7) half of G on all four columns or diagonals at once. `a + m` is added
/// before `b`, which is the last row computed, so that only one addition waits for it.
#[inline(always)]
unsafe fn g_rows<const R1: i32, const R2: i32>(r: &mut [__m128i; 4], m: __m128i) {
    // SAFETY: AVX-512F + VL (the caller's contract).
    unsafe {
        r[0] = _mm_add_epi32(_mm_add_epi32(r[0], m), r[1]);
        r[3] = _mm_ror_epi32::<R1>(_mm_xor_si128(r[3], r[0]));
        r[2] = _mm_add_epi32(r[2], r[3]);
        r[1] = _mm_ror_epi32::<R2>(_mm_xor_si128(r[1], r[2]));
    }
}

/// One round on the rows, its message vectors picked from the block (`lo`, `hi`: words 0-7,
/// 8-15) by the `vpermt2d` indices `idx`. Between the column and the diagonal step, rows `a`,
/// `c` and `d` turn (by one, three and two words) so that lane `i` holds the diagonal through
/// `b[i]`; `b`, the row on the critical path, stays put.
#[inline(always)]
unsafe fn round_rows(r: &mut [__m128i; 4], lo: __m256i, hi: __m256i, idx: &[[u32; 4]; 4]) {
    // SAFETY: AVX-512F + VL (the caller's contract); each index load reads 16 bytes of `idx`.
    unsafe {
        let mut m = [_mm_setzero_si128(); 4];
        for (m, idx) in m.iter_mut().zip(idx) {
            let idx = _mm256_castsi128_si256(load128(idx.as_ptr().cast()));
            *m = _mm256_castsi256_si128(_mm256_permutex2var_epi32(lo, idx, hi));
        }
        g_rows::<16, 12>(r, m[0]);
        g_rows::<8, 7>(r, m[1]);
        r[0] = _mm_shuffle_epi32::<{ pick(3, 0, 1, 2) }>(r[0]);
        r[2] = _mm_shuffle_epi32::<{ pick(1, 2, 3, 0) }>(r[2]);
        r[3] = _mm_shuffle_epi32::<{ pick(2, 3, 0, 1) }>(r[3]);
        g_rows::<16, 12>(r, m[2]);
        g_rows::<8, 7>(r, m[3]);
        r[0] = _mm_shuffle_epi32::<{ pick(1, 2, 3, 0) }>(r[0]);
        r[2] = _mm_shuffle_epi32::<{ pick(3, 0, 1, 2) }>(r[2]);
        r[3] = _mm_shuffle_epi32::<{ pick(2, 3, 0, 1) }>(r[3]);
    }
}

/// The four state rows after the seven rounds, from chaining value rows `cv` (words 0-3, 4-7).
#[inline(always)]
unsafe fn rounds_rows(
    cv: [__m128i; 2],
    block: *const u8,
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [__m128i; 4] {
    // SAFETY: AVX-512F + VL (the caller's contract); the caller guarantees 64 readable bytes at
    // `block`; the other loads read 16 bytes inside `IV` and `ROW_INDICES`.
    unsafe {
        let lo = _mm256_loadu_si256(block.cast());
        let hi = _mm256_loadu_si256(block.add(32).cast());
        let mut r = [
            cv[0],
            cv[1],
            load128(IV.as_ptr().cast()),
            _mm_set_epi64x(
                (i64::from(flags) << 32) | i64::from(block_len),
                counter as i64,
            ),
        ];
        // Spelled out, not a loop, so that the index loads have constant addresses.
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[0]);
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[1]);
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[2]);
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[3]);
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[4]);
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[5]);
        round_rows(&mut r, lo, hi, &ROW_INDICES.0[6]);
        r
    }
}

/// One lane's blocks compressed one after the other, the chaining value kept in two rows.
///
/// # Safety
/// AVX-512F + VL must be enabled and present; `lane.input` holds `blocks` blocks.
#[inline(always)]
unsafe fn hash_lane_rows(lane: &Lane<'_>, blocks: usize, flags: u8, out: &mut [u8; 32]) {
    // SAFETY: forwarded from the caller; the loads read the 32 bytes of `lane.cv`, the stores
    // write the 32 bytes of `out`, and block `j < blocks` lies inside `lane.input`.
    unsafe {
        let mut cv = [
            load128(lane.cv.as_ptr().cast()),
            load128(lane.cv[4..].as_ptr().cast()),
        ];
        for j in 0..blocks {
            let mut block_flags = flags;
            let mut block_len = BLOCK_LEN as u8;
            if j == 0 {
                block_flags |= lane.flags_start;
            }
            if j + 1 == blocks {
                block_flags |= lane.flags_end;
                block_len = lane.last_block_len;
            }
            let block = lane.input.as_ptr().add(j * BLOCK_LEN);
            let r = rounds_rows(cv, block, block_len, lane.counter, block_flags);
            cv = [_mm_xor_si128(r[0], r[2]), _mm_xor_si128(r[1], r[3])];
        }
        store128(out.as_mut_ptr(), cv[0]);
        store128(out.as_mut_ptr().add(16), cv[1]);
    }
}

/// The 64 output bytes of a root compression (see `portable::compress_xof`).
///
/// # Safety
/// AVX-512F + VL must be enabled and present; 64 writable bytes at `out`.
#[inline(always)]
unsafe fn compress_xof_rows(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: *mut u8,
) {
    // SAFETY: forwarded from the caller; loads read 16 bytes inside `cv`.
    unsafe {
        let cv = [
            load128(cv.as_ptr().cast()),
            load128(cv[4..].as_ptr().cast()),
        ];
        let r = rounds_rows(cv, block.as_ptr(), block_len, counter, flags);
        store128(out, _mm_xor_si128(r[0], r[2]));
        store128(out.add(16), _mm_xor_si128(r[1], r[3]));
        store128(out.add(32), _mm_xor_si128(r[2], cv[0]));
        store128(out.add(48), _mm_xor_si128(r[3], cv[1]));
    }
}

// ---------------------------------------------------------------------------------------------
// Transposed compression, 4, 8 or 16 lanes per vector.

/// A vector of 32-bit words with one BLAKE3 lane per element: what the transposed compression
/// needs, so that it is written once for 4, 8 and 16 lanes.
///
/// Every method is `unsafe`: it may only run in code compiled with AVX-512F + VL (and AVX2) on a
/// CPU that has them; the pointer methods also need valid memory for the first `LANES`
/// pointers.
trait Words: Copy {
    /// Lanes per vector.
    const LANES: usize;
    unsafe fn splat(w: u32) -> Self;
    /// Lane `i` set to `w[i]` for `i < LANES`.
    unsafe fn from_lanes(w: &[u32; 16]) -> Self;
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane-wise rotation right by `N` bits.
    unsafe fn ror<const N: i32>(self) -> Self;
    /// Lane `i` reads `4 * W` little-endian bytes at `src[i]` (`W` is 8 or 16); word `k` goes
    /// to vector `k`.
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W];
    /// The inverse: lane `i` of the `W` vectors is written as `4 * W` bytes at `dst[i]`.
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]);
}

/// The 4x4 word transpose of `sse41`, on one 128-bit vector or within each 128-bit lane of a
/// wider one: word `j` of row `i` becomes word `i` of row `j`.
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
    transpose4_128,
    __m128i,
    _mm_unpacklo_epi32,
    _mm_unpackhi_epi32,
    _mm_unpacklo_epi64,
    _mm_unpackhi_epi64
);
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

impl Words for __m128i {
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

    /// A 4x4 transpose per 16 bytes of each lane.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W] {
        // SAFETY: the features are enabled (see the trait); lane `i` reads 16 bytes at a time
        // inside its `4 * W` at `src[i]`.
        unsafe {
            let mut words = [_mm_setzero_si128(); W];
            for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
                let mut rows = [_mm_setzero_si128(); 4];
                for (i, row) in rows.iter_mut().enumerate() {
                    *row = load128(src[i].add(16 * quarter));
                }
                group.copy_from_slice(&transpose4_128(rows));
            }
            words
        }
    }

    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        // SAFETY: the features are enabled (see the trait); lane `i` writes 16 bytes at a time
        // inside its `4 * W` at `dst[i]`.
        unsafe {
            for (quarter, group) in words.chunks_exact(4).enumerate() {
                let rows = transpose4_128([group[0], group[1], group[2], group[3]]);
                for (i, row) in rows.into_iter().enumerate() {
                    store128(dst[i].add(16 * quarter), row);
                }
            }
        }
    }
}

impl Words for __m256i {
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

    /// Row `i` of each 4x4 transpose holds 16 bytes of lane `i` in its low half and of lane
    /// `i + 4` in its high half (a load and a `vinserti128` from memory, which needs no shuffle
    /// port), so the in-half transposes leave word `k` of lanes 0-7 in order.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W] {
        // SAFETY: the features are enabled (see the trait); lanes `i` and `i + 4` read 16 bytes
        // at a time inside their `4 * W` bytes.
        unsafe {
            let mut words = [_mm256_setzero_si256(); W];
            for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
                let mut rows = [_mm256_setzero_si256(); 4];
                for (i, row) in rows.iter_mut().enumerate() {
                    *row = _mm256_inserti128_si256::<1>(
                        _mm256_castsi128_si256(load128(src[i].add(16 * quarter))),
                        load128(src[i + 4].add(16 * quarter)),
                    );
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
                    store128(dst[i].add(16 * quarter), _mm256_castsi256_si128(row));
                    store128(
                        dst[i + 4].add(16 * quarter),
                        _mm256_extracti128_si256::<1>(row),
                    );
                }
            }
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

impl Words for __m512i {
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

    /// Blocks (`W = 16`) go through [`transpose16`]. Chaining values (`W = 8`): lanes `j` and
    /// `j + 4` share one load and an insert, as do lanes `j + 8` and `j + 12`; two 128-bit lane
    /// shuffles gather words 0-3 (and 4-7) of lanes `j`, `j + 4`, `j + 8`, `j + 12`, and 4x4
    /// transposes within 128-bit lanes finish.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16]) -> [Self; W] {
        // SAFETY: see the trait.
        let mut words = [unsafe { _mm512_setzero_si512() }; W];
        // SAFETY: lane `i` reads its `4 * W` bytes at `src[i]` (see the trait).
        unsafe {
            if W == 16 {
                let mut rows = [_mm512_setzero_si512(); 16];
                for (row, src) in rows.iter_mut().zip(src) {
                    *row = _mm512_loadu_si512(src.cast());
                }
                words.copy_from_slice(&transpose16(rows));
            } else {
                debug_assert_eq!(W, 8);
                let pair = |i: usize| {
                    _mm512_inserti64x4::<1>(
                        _mm512_castsi256_si512(_mm256_loadu_si256(src[i].cast())),
                        _mm256_loadu_si256(src[i + 4].cast()),
                    )
                };
                let mut halves = [[_mm512_setzero_si512(); 4]; 2];
                for j in 0..4 {
                    let (lo, hi) = (pair(j), pair(j + 8));
                    halves[0][j] = _mm512_shuffle_i64x2::<{ pick(0, 2, 0, 2) }>(lo, hi);
                    halves[1][j] = _mm512_shuffle_i64x2::<{ pick(1, 3, 1, 3) }>(lo, hi);
                }
                for (group, half) in words.chunks_exact_mut(4).zip(halves) {
                    group.copy_from_slice(&transpose4_512(half));
                }
            }
        }
        words
    }

    /// Blocks (`W = 16`) go through [`transpose16`]. Chaining values (`W = 8`): after 4x4
    /// transposes within 128-bit lanes, 128-bit lane `q` of vector `j` of the first (second)
    /// group holds words 0-3 (4-7) of lane `4q + j`; one two-source permute per pair of lanes
    /// joins the halves into 32 contiguous bytes.
    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        // SAFETY: lane `i` writes its `4 * W` bytes at `dst[i]` (see the trait).
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

/// Four independent G functions, `cols[k] = [a, b, c, d]` with message words `x[k]`, `y[k]`,
/// interleaved step by step so that the four dependency chains overlap.
#[inline(always)]
unsafe fn g4<V: Words>(v: &mut [V; 16], cols: [[usize; 4]; 4], x: [V; 4], y: [V; 4]) {
    // SAFETY: forwarded from the caller (see `Words`).
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
unsafe fn round<V: Words>(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
    const COLUMNS: [[usize; 4]; 4] = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]];
    const DIAGONALS: [[usize; 4]; 4] =
        [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]];
    // SAFETY: forwarded from the caller (see `Words`).
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
unsafe fn rounds<V: Words>(v: &mut [V; 16], m: &[V; 16]) {
    // SAFETY: forwarded from the caller (see `Words`). Spelled out, not a loop, so that every
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
unsafe fn initial_state<V: Words>(cv: &[V; 8], counter: [V; 2], block_len: V, flags: V) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `Words`).
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
unsafe fn hash_group<V: Words>(lanes: &[Lane<'_>], blocks: usize, flags: u8, out: &mut [[u8; 32]]) {
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
        for j in 0..blocks {
            let m = V::load_transposed::<16>(&inputs);
            for p in &mut inputs {
                *p = p.wrapping_add(BLOCK_LEN);
            }
            let is_last = j + 1 == blocks;
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
        let dst = core::array::from_fn(|i| match out.get_mut(i) {
            Some(bytes) if i < lanes.len() => bytes.as_mut_ptr(),
            _ => spare[i].as_mut_ptr(),
        });
        V::store_transposed(cv, &dst);
    }
}

/// Extended output for `V::LANES` consecutive blocks: `out` (`V::LANES * 64` bytes) gets the root
/// compressions with counters `counter`, `counter + 1`, ... (wrapping).
///
/// # Safety
/// AVX-512F + VL must be enabled and present; `out.len() == V::LANES * BLOCK_LEN`.
#[inline(always)]
unsafe fn xof_group<V: Words>(
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
        let dst = core::array::from_fn(|i| base.wrapping_add(BLOCK_LEN * (i % V::LANES)));
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
        let r = rounds_rows(rows, block.as_ptr(), block_len, counter, flags);
        store128(cv.as_mut_ptr().cast(), _mm_xor_si128(r[0], r[2]));
        store128(cv[4..].as_mut_ptr().cast(), _mm_xor_si128(r[1], r[3]));
    }
}

/// Hashes every lane, sixteen at a time: the AVX-512 form of `portable::hash_lanes`. A last group
/// of nine to fifteen lanes runs padded to sixteen, one of five to eight on 256-bit vectors, one
/// of two to four on 128-bit vectors, and a single lane block by block in rows.
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
    // each group is within its vector's lane count.
    unsafe {
        for (group, out) in lanes.chunks(16).zip(out.chunks_mut(16)) {
            match group.len() {
                9.. => hash_group::<__m512i>(group, blocks, flags, out),
                5.. => hash_group::<__m256i>(group, blocks, flags, out),
                2.. => hash_group::<__m128i>(group, blocks, flags, out),
                _ => hash_lane_rows(&group[0], blocks, flags, &mut out[0]),
            }
        }
    }
}

/// Extended output, sixteen blocks at a time, then eight, four and single ones: the AVX-512 form
/// of `portable::xof_many`.
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
    // exactly as many blocks as its vector has lanes, each single one 64 bytes.
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
            xof_group::<__m128i>(cv, block, block_len, counter, flags, group);
            counter = counter.wrapping_add(4);
            out = rest;
        }
        for out_block in out.chunks_exact_mut(BLOCK_LEN) {
            compress_xof_rows(cv, block, block_len, counter, flags, out_block.as_mut_ptr());
            counter = counter.wrapping_add(1);
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
    //! Per-block and per-byte times beside the AVX2 kernels and the `blake3` crate, printed,
    //! never asserted. Run with `cargo test --release -p arborhash --lib --all-features
    //! avx512::timing -- --ignored --nocapture`.
    use super::super::avx2;
    use super::super::kernels::{Lane, BLOCK_LEN};
    use crate::platform::with_backend;
    use crate::Backend;
    use std::hint::black_box;
    use std::time::Instant;

    /// Nanoseconds of the fastest of many calls: on a loaded machine the fastest call is the
    /// one least disturbed. Several candidates are timed in turn so that they see the same load.
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

    #[test]
    #[ignore]
    fn print_times() {
        if !Backend::Avx512.is_supported() {
            return;
        }
        let block = [7u8; BLOCK_LEN];
        let (mut cv, mut cv2) = (crate::blake2s::IV, crate::blake2s::IV);
        const CHAIN: usize = 1000;
        // SAFETY (every call below): AVX-512F/VL and AVX2 are present (checked above); the
        // lanes hold `blocks` blocks and the outputs are long enough.
        let t = fastest(&mut [
            &mut || {
                for _ in 0..CHAIN {
                    unsafe { avx2::compress_in_place(black_box(&mut cv), &block, 64, 0, 0) }
                }
            },
            &mut || {
                for _ in 0..CHAIN {
                    unsafe { super::compress_in_place(black_box(&mut cv2), &block, 64, 0, 0) }
                }
            },
        ]);
        println!(
            "compress_in_place, ns per chained block: avx2 {:.1}, avx512 {:.1}",
            t[0] / CHAIN as f64,
            t[1] / CHAIN as f64
        );

        let input = vec![0x5Au8; 16 * 16 * BLOCK_LEN];
        let lanes: Vec<Lane<'_>> = input
            .chunks_exact(16 * BLOCK_LEN)
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
        let (mut out, mut out2) = ([[0u8; 32]; 16], [[0u8; 32]; 16]);
        for n in [1, 2, 4, 8, 12, 16] {
            let lanes = &lanes[..n];
            let t = fastest(&mut [
                &mut || unsafe { avx2::hash_lanes(black_box(lanes), 16, 0, &mut out) },
                &mut || unsafe { super::hash_lanes(black_box(lanes), 16, 0, &mut out2) },
            ]);
            println!(
                "hash_lanes {n:2} chunks, ns per block: avx2 {:.1}, avx512 {:.1}",
                t[0] / (16 * n) as f64,
                t[1] / (16 * n) as f64
            );
        }
        let parents: Vec<Lane<'_>> = input
            .chunks_exact(BLOCK_LEN)
            .take(16)
            .map(|b| Lane {
                input: b,
                ..lanes[0]
            })
            .collect();
        let t = fastest(&mut [
            &mut || unsafe { avx2::hash_lanes(black_box(&parents), 1, 4, &mut out) },
            &mut || unsafe { super::hash_lanes(black_box(&parents), 1, 4, &mut out2) },
        ]);
        println!(
            "hash_lanes 16 parents, ns per block: avx2 {:.1}, avx512 {:.1}",
            t[0] / 16.0,
            t[1] / 16.0
        );
        let (mut xof, mut xof2) = (vec![0u8; 64 * BLOCK_LEN], vec![0u8; 64 * BLOCK_LEN]);
        let t = fastest(&mut [
            &mut || unsafe { avx2::xof_many(&cv, &block, 64, 0, 11, black_box(&mut xof)) },
            &mut || unsafe { super::xof_many(&cv, &block, 64, 0, 11, black_box(&mut xof2)) },
        ]);
        println!(
            "xof_many 64 blocks, ns per block: avx2 {:.1}, avx512 {:.1}",
            t[0] / 64.0,
            t[1] / 64.0
        );

        let data: Vec<u8> = (0..1 << 20).map(|i| (i * 7 + i / 251) as u8).collect();
        for len in [64, 1024, 4096, 16 * 1024, 1 << 20] {
            let data = &data[..len];
            let ours = |backend| {
                move || with_backend(backend, || black_box(crate::blake3::hash(black_box(data))))
            };
            let (mut avx2, mut avx512) = (ours(Backend::Avx2), ours(Backend::Avx512));
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
                "hash {len:7} B: avx2 {:9.0} ns, avx512 {:9.0} ns, crate {:9.0} ns; \
                 crate/ours avx2 {:.2}, avx512 {:.2}",
                t[0],
                t[1],
                t[2],
                t[2] / t[0],
                t[2] / t[1]
            );
        }
    }
}
