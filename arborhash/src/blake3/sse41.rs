//! BLAKE3 kernels for SSE4.1, and the lane-parallel code the AVX2 kernels share.
//!
//! The compression function comes in two shapes:
//!
//! - Row-vectorised ([`compress_in_place`], [`compress_xof_rows`], [`hash_rows`]): the 16 state
//!   words of a lane are four rows of a 128-bit half. The column step runs the four column G
//!   functions at once; rotating rows 1-3 by one, two and three words turns the diagonals into
//!   columns for the diagonal step. The message words are kept in the order the two steps consume
//!   them and are permuted between rounds with shuffles and blends. Generic over [`RowWords`]:
//!   one lane per `__m128i`, two per `__m256i` in `avx2`; a few lanes are hashed as interleaved
//!   states so that their dependency chains overlap.
//! - Transposed, many independent blocks at once ([`hash_group`], [`xof_group`]): vector `v[i]`
//!   holds state word `i` of every lane, so each G is plain vertical arithmetic. This code is
//!   generic over [`LaneWords`]; `__m128i` here gives 4 lanes, `__m256i` in `avx2` gives 8.
//!
//! The helpers are `#[inline(always)]` without `#[target_feature]`: they are only ever compiled
//! inlined into the `#[target_feature]` entry points of this module or of `avx2` (AVX2 implies
//! SSE4.1, so the AVX2 backend reuses them, VEX-encoded). That is why each of them is `unsafe`:
//! calling one is sound only from code compiled with SSE4.1 enabled on a CPU that has it.

use core::arch::x86_64::*;

use super::kernels::{Lane, BLOCK_LEN};
use super::portable::MSG_PERMUTATION;
use crate::blake2s::IV;

/// `MSG_SCHEDULE[r][i]` is the index in the original block of message word `i` in round `r`.
const MSG_SCHEDULE: [[usize; 16]; 7] = {
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

/// Sixty-four zero bytes: the input of the padding lanes of a partly filled group.
static ZERO_BLOCK: [u8; BLOCK_LEN] = [0; BLOCK_LEN];

/// The immediate of `_mm_shuffle_epi32` / `_mm_shuffle_ps` taking source words `w, x, y, z` into
/// result words 0, 1, 2, 3.
const fn pick(w: i32, x: i32, y: i32, z: i32) -> i32 {
    w | (x << 2) | (y << 4) | (z << 6)
}

/// The byte shuffle rotating every 32-bit word right by 8 bits.
pub(super) const ROT8_BYTES: [u8; 16] = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12];

/// The byte shuffle rotating every 32-bit word right by 16 bits, for 16 or 32 bytes.
///
/// Read with a volatile load so that it stays one `pshufb`: from a known constant mask LLVM
/// emits `pshuflw` + `pshufhw` instead, two shuffles on the critical path and on port 5.
#[repr(align(32))]
pub(super) struct Rot16Mask(pub(super) [u8; 32]);
pub(super) static ROT16_MASK: Rot16Mask = Rot16Mask([
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, //
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
]);

// ---------------------------------------------------------------------------------------------
// Word-level operations on __m128i.

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

/// Words `w, x` of `a` and words `y, z` of `b`, as `_mm_shuffle_ps` does on floats.
#[inline(always)]
unsafe fn shuffle2<const IMM: i32>(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE only; the caller is compiled with SSE4.1.
    unsafe {
        _mm_castps_si128(_mm_shuffle_ps::<IMM>(
            _mm_castsi128_ps(a),
            _mm_castsi128_ps(b),
        ))
    }
}

/// Transposes a 4x4 matrix of words: word `j` of row `i` becomes word `i` of row `j`.
#[inline(always)]
unsafe fn transpose4(r: [__m128i; 4]) -> [__m128i; 4] {
    // SAFETY: SSE2 only; the caller is compiled with SSE4.1.
    unsafe {
        let ab_lo = _mm_unpacklo_epi32(r[0], r[1]);
        let ab_hi = _mm_unpackhi_epi32(r[0], r[1]);
        let cd_lo = _mm_unpacklo_epi32(r[2], r[3]);
        let cd_hi = _mm_unpackhi_epi32(r[2], r[3]);
        [
            _mm_unpacklo_epi64(ab_lo, cd_lo),
            _mm_unpackhi_epi64(ab_lo, cd_lo),
            _mm_unpacklo_epi64(ab_hi, cd_hi),
            _mm_unpackhi_epi64(ab_hi, cd_hi),
        ]
    }
}

/// A vector of 32-bit words with one BLAKE3 lane per element: the operations the transposed
/// compression needs, so that it is written once for 4 and 8 lanes.
///
/// Every method is `unsafe`: it may only run in code compiled with the implementing type's target
/// feature (SSE4.1 or AVX2) on a CPU that has it; the pointer methods also need valid memory.
pub(super) trait LaneWords: Copy {
    /// Lanes per vector.
    const LANES: usize;
    /// Every lane set to `w`.
    unsafe fn splat(w: u32) -> Self;
    /// Lane `i` set to `w[i]` for `i < LANES`.
    unsafe fn from_lanes(w: &[u32; 8]) -> Self;
    /// Lane-wise wrapping addition.
    unsafe fn add(self, other: Self) -> Self;
    /// Lane-wise exclusive or.
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane-wise rotations right by 16, 12, 8 and 7 bits.
    unsafe fn rot16(self) -> Self;
    unsafe fn rot12(self) -> Self;
    unsafe fn rot8(self) -> Self;
    unsafe fn rot7(self) -> Self;
    /// Fills `words` (a multiple of four vectors) lane by lane: lane `i` reads
    /// `4 * words.len()` little-endian bytes at `src[i]`, word `k` going to `words[k]`.
    unsafe fn load_transposed(src: &[*const u8; 8], words: &mut [Self]);
    /// Writes `words` (a multiple of four vectors) back lane by lane: lane `i` gets
    /// `4 * words.len()` little-endian bytes at `out[i]`.
    unsafe fn store_transposed(words: &[Self], out: &[*mut u8; 8]);
}

impl LaneWords for __m128i {
    const LANES: usize = 4;

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: SSE2 only; see the trait.
        unsafe { _mm_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 8]) -> Self {
        // SAFETY: `w` has at least 16 bytes.
        unsafe { load128(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: SSE2 only; see the trait.
        unsafe { _mm_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 only; see the trait.
        unsafe { _mm_xor_si128(self, other) }
    }

    #[inline(always)]
    unsafe fn rot16(self) -> Self {
        // SAFETY: SSSE3; see the trait. The mask is 32-byte aligned and at least 16 bytes.
        unsafe {
            let mask = core::ptr::read_volatile(ROT16_MASK.0.as_ptr().cast::<__m128i>());
            _mm_shuffle_epi8(self, mask)
        }
    }

    #[inline(always)]
    unsafe fn rot12(self) -> Self {
        // SAFETY: SSE2 only; see the trait.
        unsafe { _mm_or_si128(_mm_srli_epi32::<12>(self), _mm_slli_epi32::<20>(self)) }
    }

    #[inline(always)]
    unsafe fn rot8(self) -> Self {
        // SAFETY: SSSE3; see the trait. The mask array has 16 bytes.
        unsafe { _mm_shuffle_epi8(self, load128(ROT8_BYTES.as_ptr())) }
    }

    #[inline(always)]
    unsafe fn rot7(self) -> Self {
        // SAFETY: SSE2 only; see the trait.
        unsafe { _mm_or_si128(_mm_srli_epi32::<7>(self), _mm_slli_epi32::<25>(self)) }
    }

    #[inline(always)]
    unsafe fn load_transposed(src: &[*const u8; 8], words: &mut [Self]) {
        for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
            // SAFETY: the caller guarantees `4 * words.len()` readable bytes at the first four
            // pointers; SSE2 (see the trait).
            let rows = core::array::from_fn(|i| unsafe { load128(src[i].add(16 * quarter)) });
            // SAFETY: the feature is enabled (see the trait).
            group.copy_from_slice(&unsafe { transpose4(rows) });
        }
    }

    #[inline(always)]
    unsafe fn store_transposed(words: &[Self], out: &[*mut u8; 8]) {
        for (quarter, group) in words.chunks_exact(4).enumerate() {
            // SAFETY: the feature is enabled (see the trait).
            let rows = unsafe { transpose4([group[0], group[1], group[2], group[3]]) };
            for (i, row) in rows.into_iter().enumerate() {
                // SAFETY: the caller guarantees `4 * words.len()` writable bytes at `out[i]`.
                unsafe { store128(out[i].add(16 * quarter), row) };
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Transposed compression, any number of lanes per vector.

/// Four independent G functions, `cols[k] = [a, b, c, d]` with message words `x[k]`, `y[k]`,
/// interleaved step by step so that the four dependency chains overlap.
#[inline(always)]
unsafe fn g4<V: LaneWords>(v: &mut [V; 16], cols: [[usize; 4]; 4], x: [V; 4], y: [V; 4]) {
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe {
        for (&[a, b, _, _], x) in cols.iter().zip(x) {
            v[a] = v[a].add(x).add(v[b]);
        }
        for &[a, _, _, d] in &cols {
            v[d] = v[d].xor(v[a]).rot16();
        }
        for &[_, _, c, d] in &cols {
            v[c] = v[c].add(v[d]);
        }
        for &[_, b, c, _] in &cols {
            v[b] = v[b].xor(v[c]).rot12();
        }
        for (&[a, b, _, _], y) in cols.iter().zip(y) {
            v[a] = v[a].add(y).add(v[b]);
        }
        for &[a, _, _, d] in &cols {
            v[d] = v[d].xor(v[a]).rot8();
        }
        for &[_, _, c, d] in &cols {
            v[c] = v[c].add(v[d]);
        }
        for &[_, b, c, _] in &cols {
            v[b] = v[b].xor(v[c]).rot7();
        }
    }
}

#[inline(always)]
unsafe fn round<V: LaneWords>(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
    const COLUMNS: [[usize; 4]; 4] = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]];
    const DIAGONALS: [[usize; 4]; 4] =
        [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]];
    // SAFETY: forwarded from the caller (see `LaneWords`).
    unsafe {
        g4(
            v,
            COLUMNS,
            [0, 2, 4, 6].map(|i| m[s[i]]),
            [1, 3, 5, 7].map(|i| m[s[i]]),
        );
        g4(
            v,
            DIAGONALS,
            [8, 10, 12, 14].map(|i| m[s[i]]),
            [9, 11, 13, 15].map(|i| m[s[i]]),
        );
    }
}

/// The seven rounds on transposed state `v` with transposed message `m`.
#[inline(always)]
unsafe fn rounds<V: LaneWords>(v: &mut [V; 16], m: &[V; 16]) {
    // SAFETY: forwarded from the caller (see `LaneWords`). Spelled out so that every message
    // index is a constant.
    unsafe {
        round(v, m, &MSG_SCHEDULE[0]);
        round(v, m, &MSG_SCHEDULE[1]);
        round(v, m, &MSG_SCHEDULE[2]);
        round(v, m, &MSG_SCHEDULE[3]);
        round(v, m, &MSG_SCHEDULE[4]);
        round(v, m, &MSG_SCHEDULE[5]);
        round(v, m, &MSG_SCHEDULE[6]);
    }
}

/// The initial state from transposed chaining values and per-lane parameters.
#[inline(always)]
unsafe fn initial_state<V: LaneWords>(
    cv: &[V; 8],
    counter_lo: V,
    counter_hi: V,
    block_len: V,
    flags: V,
) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `LaneWords`).
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
            counter_lo,
            counter_hi,
            block_len,
            flags,
        ]
    }
}

/// A local that makes the function holding it align its stack frame to 32 bytes, as long as
/// its address escapes (`black_box`): without one, LLVM keeps the frame 16-byte aligned and
/// spills 256-bit registers with unaligned moves, a quarter of which then straddle two cache
/// lines. The transposed kernels spill in every round (64 KiB through the 8-lane kernel: about
/// 4 % faster aligned, measured min-of-runs beside the unaligned build).
#[repr(align(32))]
struct StackAligned<T>(T);

/// Hashes up to `V::LANES` lanes at once: the transposed form of `portable::hash_lanes`. Slots
/// beyond `lanes.len()` hash `ZERO_BLOCK` over and over from a zero chaining value, and their
/// result is dropped.
///
/// # Safety
/// `V`'s target feature must be enabled (see [`LaneWords`]); every lane's input must be
/// `blocks * BLOCK_LEN` bytes, `lanes.len() <= V::LANES` and `out.len() >= lanes.len()`.
#[inline(always)]
pub(super) unsafe fn hash_group<V: LaneWords>(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    debug_assert!(lanes.len() <= V::LANES && out.len() >= lanes.len());
    let mut inputs = [ZERO_BLOCK.as_ptr(); 8];
    let mut strides = [0; 8];
    let mut cvs = [ZERO_BLOCK.as_ptr(); 8];
    let [mut counter_lo, mut counter_hi, mut first_flags, mut last_flags, mut last_len] =
        [[0u32; 8]; 5];
    for (i, lane) in lanes.iter().enumerate() {
        inputs[i] = lane.input.as_ptr();
        strides[i] = BLOCK_LEN;
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

    // SAFETY: the feature is enabled (our contract). Each chaining value read is 32 bytes of a
    // lane's `cv` or of ZERO_BLOCK; each block read is 64 bytes at block `j` of a lane whose input
    // holds `blocks` blocks, or ZERO_BLOCK (stride 0).
    unsafe {
        // Transposed with vector shuffles rather than word by word through memory: for one-block
        // (parent) groups this setup is a large share of the work.
        let mut cv = [V::splat(0); 8];
        V::load_transposed(&cvs, &mut cv);
        let counter_lo = V::from_lanes(&counter_lo);
        let counter_hi = V::from_lanes(&counter_hi);
        let first_flags = V::from_lanes(&first_flags);
        let middle_flags = V::splat(u32::from(flags));
        let last_flags = V::from_lanes(&last_flags);
        let full_len = V::splat(BLOCK_LEN as u32);
        let last_len = V::from_lanes(&last_len);
        for j in 0..blocks {
            let block_ptrs = core::array::from_fn(|i| inputs[i].add(j * strides[i]));
            let mut m = [V::splat(0); 16];
            V::load_transposed(&block_ptrs, &mut m);
            let is_last = j + 1 == blocks;
            let block_flags = match j {
                0 => first_flags,
                _ if is_last => last_flags,
                _ => middle_flags,
            };
            let block_len = if is_last { last_len } else { full_len };
            let mut v = initial_state(&cv, counter_lo, counter_hi, block_len, block_flags);
            rounds(&mut v, &m);
            for i in 0..8 {
                cv[i] = v[i].xor(v[i + 8]);
            }
        }

        // Escapes so that the frame, and with it every spill slot, is 32-byte aligned.
        let mut spare = StackAligned([[0u8; 32]; 8]);
        core::hint::black_box(&mut spare);
        let out_ptrs = core::array::from_fn(|i| match out.get_mut(i) {
            Some(bytes) if i < lanes.len() => bytes.as_mut_ptr(),
            _ => spare.0[i].as_mut_ptr(),
        });
        V::store_transposed(&cv, &out_ptrs);
    }
}

/// Extended output for `V::LANES` consecutive blocks: `out` (`V::LANES * 64` bytes) gets the root
/// compressions with counters `counter`, `counter + 1`, ... (wrapping). `m` is the message block
/// with each word broadcast to every lane.
///
/// # Safety
/// `V`'s target feature must be enabled (see [`LaneWords`]); `out.len() == V::LANES * BLOCK_LEN`.
#[inline(always)]
pub(super) unsafe fn xof_group<V: LaneWords>(
    cv: &[u32; 8],
    m: &[V; 16],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), V::LANES * BLOCK_LEN);
    let mut counter_lo = [0u32; 8];
    let mut counter_hi = [0u32; 8];
    for i in 0..V::LANES {
        let c = counter.wrapping_add(i as u64);
        counter_lo[i] = c as u32;
        counter_hi[i] = (c >> 32) as u32;
    }
    // SAFETY: the feature is enabled and `out` holds `V::LANES` blocks (our contract); lane `i`
    // writes its 64 bytes at `64 * i`.
    unsafe {
        let cv_v: [V; 8] = core::array::from_fn(|i| V::splat(cv[i]));
        let mut v = initial_state(
            &cv_v,
            V::from_lanes(&counter_lo),
            V::from_lanes(&counter_hi),
            V::splat(u32::from(block_len)),
            V::splat(u32::from(flags)),
        );
        rounds(&mut v, m);
        let words: [V; 16] = core::array::from_fn(|i| {
            if i < 8 {
                v[i].xor(v[i + 8])
            } else {
                v[i].xor(cv_v[i - 8])
            }
        });
        let base = out.as_mut_ptr();
        let out_ptrs = core::array::from_fn(|i| base.wrapping_add(BLOCK_LEN * (i % V::LANES)));
        V::store_transposed(&words, &out_ptrs);
    }
}

/// Each message word of `block` broadcast to every lane, for [`xof_group`].
#[inline(always)]
pub(super) unsafe fn broadcast_block<V: LaneWords>(block: &[u8; BLOCK_LEN]) -> [V; 16] {
    // SAFETY: forwarded from the caller (see `LaneWords`).
    core::array::from_fn(|i| unsafe {
        V::splat(u32::from_le_bytes(
            block[4 * i..4 * i + 4].try_into().unwrap(),
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// Row-vectorised compression: one lane per 128-bit half.

/// A vector whose 128-bit halves each hold one row (four state words) of an independent lane:
/// the row form of the compression for one lane per `__m128i`, or two per `__m256i` in `avx2`.
/// Every operation the row form needs works within each 128-bit half, so the code is written
/// once for both.
///
/// Every method is `unsafe` for the same reason as in [`LaneWords`]; the pointer methods also
/// need valid memory.
pub(super) trait RowWords: LaneWords {
    /// Lanes per vector: one per 128-bit half.
    const ROW_LANES: usize;
    /// Half `i` gets the 16 bytes at `src[i]`, for `i < ROW_LANES`.
    unsafe fn load_rows(src: &[*const u8; 2]) -> Self;
    /// Half `i` is written to the 16 bytes at `out[i]`, for `i < ROW_LANES`.
    unsafe fn store_rows(self, out: &[*mut u8; 2]);
    /// `_mm_shuffle_epi32` in each half.
    unsafe fn shuffle_words<const IMM: i32>(self) -> Self;
    /// `_mm_shuffle_ps` in each half: words `IMM` picks from `self` then from `other`.
    unsafe fn shuffle_pairs<const IMM: i32>(self, other: Self) -> Self;
    /// `_mm_blend_epi16` in each half.
    unsafe fn blend_halfwords<const IMM: i32>(self, other: Self) -> Self;
    /// `_mm_unpacklo_epi32` in each half: words 0, 1 of `self` interleaved with those of `other`.
    unsafe fn unpack_lo(self, other: Self) -> Self;
}

impl RowWords for __m128i {
    const ROW_LANES: usize = 1;

    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 2]) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `src[0]`.
        unsafe { load128(src[0]) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, out: &[*mut u8; 2]) {
        // SAFETY: the caller guarantees 16 writable bytes at `out[0]`.
        unsafe { store128(out[0], self) }
    }

    #[inline(always)]
    unsafe fn shuffle_words<const IMM: i32>(self) -> Self {
        // SAFETY: SSE2 only; see the trait.
        unsafe { _mm_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle_pairs<const IMM: i32>(self, other: Self) -> Self {
        // SAFETY: SSE only; see the trait.
        unsafe { shuffle2::<IMM>(self, other) }
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
}

/// Half a G on all four columns (or diagonals) at once: adds message words `m` and rotates by
/// 16/12 in the first half, 8/7 in the second.
#[inline(always)]
unsafe fn g_rows<V: RowWords>(rows: &mut [V; 4], mx: V, my: V) {
    // SAFETY: forwarded from the caller (see `RowWords`).
    unsafe {
        let [a, b, c, d] = rows;
        *a = a.add(mx).add(*b);
        *d = d.xor(*a).rot16();
        *c = c.add(*d);
        *b = b.xor(*c).rot12();
        *a = a.add(my).add(*b);
        *d = d.xor(*a).rot8();
        *c = c.add(*d);
        *b = b.xor(*c).rot7();
    }
}

/// The message words of one round in the order the two steps consume them, `[A, B, C', D']`:
/// `A = (m0,m2,m4,m6)` and `B = (m1,m3,m5,m7)` for the column step; for the diagonal step
/// `C = (m8,m10,m12,m14)` and `D = (m9,m11,m13,m15)` rotated by one word, `C' = (C3,C0,C1,C2)`,
/// because the diagonal step runs diagonal `j - 1` in word `j` (see [`rounds_rows`]).
type RowMessage<V> = [V; 4];

/// The first round's `RowMessage` from the block's four 16-byte rows in natural order.
#[inline(always)]
unsafe fn row_message<V: RowWords>(natural: [V; 4]) -> RowMessage<V> {
    // SAFETY: forwarded from the caller (see `RowWords`).
    unsafe {
        let c = natural[2].shuffle_pairs::<{ pick(0, 2, 0, 2) }>(natural[3]);
        let d = natural[2].shuffle_pairs::<{ pick(1, 3, 1, 3) }>(natural[3]);
        [
            natural[0].shuffle_pairs::<{ pick(0, 2, 0, 2) }>(natural[1]),
            natural[0].shuffle_pairs::<{ pick(1, 3, 1, 3) }>(natural[1]),
            c.shuffle_words::<{ pick(3, 0, 1, 2) }>(),
            d.shuffle_words::<{ pick(3, 0, 1, 2) }>(),
        ]
    }
}

/// The next round's `RowMessage`: the BLAKE3 message permutation (`MSG_PERMUTATION`) expressed
/// on the consumption order. The next round needs `A = (A1,B1,B3,A2)`, `B = (A3,C1,A0,D2)`,
/// `C = (B0,C2,D0,D3)` and `D = (D1,B2,C3,C0)`; in terms of the rotated `C'` and `D'` that is
/// `A = (A1,B1,B3,A2)`, `B = (A3,C'2,A0,D'3)`, `C' = (D'0,B0,C'3,D'1)`,
/// `D' = (C'1,D'2,B2,C'0)`. Each is one `shuffle_pairs` of two vectors holding its words in the
/// right halves, made by a blend or an unpack: half of the operations are blends, which (unlike
/// shuffles) can run on more than one execution port.
#[inline(always)]
unsafe fn permute_row_message<V: RowWords>(m: &RowMessage<V>) -> RowMessage<V> {
    let [a, b, c, d] = *m;
    // SAFETY: forwarded from the caller (see `RowWords`). A blend mask of `0x3 << 2k` takes
    // word `k` from the second operand.
    unsafe {
        // (A0,B0,A1,B1) and (A0,A1,A2,B3).
        let next_a = a
            .unpack_lo(b)
            .shuffle_pairs::<{ pick(2, 3, 3, 2) }>(a.blend_halfwords::<0xC0>(b));
        // (A0,A1,C'2,A3) and (A0,A1,A2,D'3).
        let next_b = a
            .blend_halfwords::<0x30>(c)
            .shuffle_pairs::<{ pick(3, 2, 0, 3) }>(a.blend_halfwords::<0xC0>(d));
        // (D'0,B0,D'1,B1) and (C'0,D'1,C'2,C'3).
        let next_c = d
            .unpack_lo(b)
            .shuffle_pairs::<{ pick(0, 1, 3, 1) }>(c.blend_halfwords::<0x0C>(d));
        // (C'0,C'1,D'2,C'3) and (C'0,B1,B2,B3).
        let next_d = c
            .blend_halfwords::<0x30>(d)
            .shuffle_pairs::<{ pick(1, 2, 2, 0) }>(b.blend_halfwords::<0x03>(c));
        [next_a, next_b, next_c, next_d]
    }
}

/// The seven rounds on `N` independent row states at once (the state rows of `rows[s]`, the
/// message of `m[s]`, both consumed). The states are interleaved step by step so that their
/// dependency chains overlap: one row state alone is a single long chain.
///
/// For the diagonal step, word `j` runs diagonal `j - 1`, which uses `b` of column `j`: rows
/// `a`, `c` and `d` are rotated and row `b` is not. `b` is the last value each G step computes,
/// so rotating it would put a shuffle on the critical path twice per round; the others are
/// ready early and rotate while `b` is still being computed.
#[inline(always)]
unsafe fn rounds_rows<V: RowWords, const N: usize>(
    rows: &mut [[V; 4]; N],
    mut m: [RowMessage<V>; N],
) {
    // SAFETY: forwarded from the caller (see `RowWords`).
    unsafe {
        for r in 0..7 {
            for (rows, m) in rows.iter_mut().zip(&m) {
                g_rows(rows, m[0], m[1]);
            }
            // Diagonalise: word j of rows a, c, d takes word j - 1, j + 1, j + 2.
            for rows in rows.iter_mut() {
                rows[0] = rows[0].shuffle_words::<{ pick(3, 0, 1, 2) }>();
                rows[2] = rows[2].shuffle_words::<{ pick(1, 2, 3, 0) }>();
                rows[3] = rows[3].shuffle_words::<{ pick(2, 3, 0, 1) }>();
            }
            for (rows, m) in rows.iter_mut().zip(&m) {
                g_rows(rows, m[2], m[3]);
            }
            for rows in rows.iter_mut() {
                rows[0] = rows[0].shuffle_words::<{ pick(1, 2, 3, 0) }>();
                rows[2] = rows[2].shuffle_words::<{ pick(3, 0, 1, 2) }>();
                rows[3] = rows[3].shuffle_words::<{ pick(2, 3, 0, 1) }>();
            }
            if r < 6 {
                for m in m.iter_mut() {
                    *m = permute_row_message(m);
                }
            }
        }
    }
}

/// The four state rows of one block after the seven rounds, before the feed-forward.
#[inline(always)]
unsafe fn rounds_one_block(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [__m128i; 4] {
    // SAFETY: compiled with SSE4.1 (the caller's contract); every load reads 16 bytes inside
    // `cv`, `IV` or `block`.
    unsafe {
        let mut rows = [[
            load128(cv.as_ptr().cast()),
            load128(cv[4..].as_ptr().cast()),
            load128(IV.as_ptr().cast()),
            _mm_setr_epi32(
                counter as i32,
                (counter >> 32) as i32,
                i32::from(block_len),
                i32::from(flags),
            ),
        ]];
        let natural = core::array::from_fn(|i| load128(block[16 * i..].as_ptr()));
        rounds_rows(&mut rows, [row_message(natural)]);
        rows[0]
    }
}

/// Row-vectorised `compress_in_place`; see [`compress_in_place`].
///
/// # Safety
/// Only from code compiled with SSE4.1 on a CPU that has it.
#[inline(always)]
pub(super) unsafe fn compress_rows_in_place(
    cv: &mut [u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    // SAFETY: forwarded from the caller; each store writes 16 bytes inside `cv`.
    unsafe {
        let rows = rounds_one_block(cv, block, block_len, counter, flags);
        store128(cv.as_mut_ptr().cast(), rows[0].xor(rows[2]));
        store128(cv[4..].as_mut_ptr().cast(), rows[1].xor(rows[3]));
    }
}

/// Row-vectorised root compression: the 64 output bytes of `portable::compress_xof`.
///
/// # Safety
/// Only from code compiled with SSE4.1 on a CPU that has it.
#[inline(always)]
pub(super) unsafe fn compress_xof_rows(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8; BLOCK_LEN],
) {
    // SAFETY: forwarded from the caller; loads read 16 bytes inside `cv`, stores write 16 bytes
    // inside `out`.
    unsafe {
        let rows = rounds_one_block(cv, block, block_len, counter, flags);
        let cv_lo = load128(cv.as_ptr().cast());
        let cv_hi = load128(cv[4..].as_ptr().cast());
        let p = out.as_mut_ptr();
        store128(p, rows[0].xor(rows[2]));
        store128(p.add(16), rows[1].xor(rows[3]));
        store128(p.add(32), rows[2].xor(cv_lo));
        store128(p.add(48), rows[3].xor(cv_hi));
    }
}

/// Hashes up to `N * V::ROW_LANES` lanes in the row form: `N` interleaved states of
/// `V::ROW_LANES` lanes each. The chaining values stay in the state rows from block to block.
/// Slots beyond `lanes.len()` repeat the last lane, and their result is dropped.
///
/// For a few lanes this beats the transposed kernel, which runs all its slots whatever the
/// count and spills its 32 vectors of state and message; four lanes as two `__m256i` row
/// states take about 60 % of the instructions of one 4-lane transposed pass.
///
/// # Safety
/// `V`'s target feature must be enabled (see [`RowWords`]); `1 <= lanes.len() <= N *
/// V::ROW_LANES`, `out.len() >= lanes.len()` and every lane's input holds `blocks` blocks.
#[inline(always)]
pub(super) unsafe fn hash_rows<V: RowWords, const N: usize>(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    debug_assert!(!lanes.is_empty() && lanes.len() <= N * V::ROW_LANES);
    debug_assert!(out.len() >= lanes.len());
    let slot = |s: usize, half: usize| (s * V::ROW_LANES + half).min(lanes.len() - 1);
    // Row 3 of each state for the first, a middle and the last block: counter low and high
    // words, block length, flags, per half.
    let row3 = |s: usize, first: bool, last: bool| -> [u32; 8] {
        let mut words = [0u32; 8];
        for half in 0..V::ROW_LANES {
            let lane = &lanes[slot(s, half)];
            let mut block_flags = flags;
            if first {
                block_flags |= lane.flags_start;
            }
            if last {
                block_flags |= lane.flags_end;
            }
            words[4 * half..4 * half + 4].copy_from_slice(&[
                lane.counter as u32,
                (lane.counter >> 32) as u32,
                if last {
                    u32::from(lane.last_block_len)
                } else {
                    BLOCK_LEN as u32
                },
                u32::from(block_flags),
            ]);
        }
        words
    };
    let single = blocks == 1;
    // SAFETY: the feature is enabled (our contract); each load reads 16 bytes inside a lane's
    // `cv` or inside block `j < blocks` of a lane's input; `IV` has 32 bytes.
    unsafe {
        let iv = V::load_rows(&[IV.as_ptr().cast(); 2]);
        let first: [V; N] = core::array::from_fn(|s| V::from_lanes(&row3(s, true, single)));
        let middle: [V; N] = core::array::from_fn(|s| V::from_lanes(&row3(s, false, false)));
        let last: [V; N] = core::array::from_fn(|s| V::from_lanes(&row3(s, false, true)));
        let mut cv: [[V; 2]; N] = core::array::from_fn(|s| {
            let ptrs = [0, 1].map(|h| lanes[slot(s, h)].cv.as_ptr().cast::<u8>());
            [V::load_rows(&ptrs), V::load_rows(&ptrs.map(|p| p.add(16)))]
        });
        for j in 0..blocks {
            let row3 = match j {
                0 => &first,
                _ if j + 1 == blocks => &last,
                _ => &middle,
            };
            let mut rows: [[V; 4]; N] = core::array::from_fn(|s| [cv[s][0], cv[s][1], iv, row3[s]]);
            let m = core::array::from_fn(|s| {
                let ptrs = [0, 1].map(|h| lanes[slot(s, h)].input.as_ptr().add(j * BLOCK_LEN));
                row_message(core::array::from_fn(|i| {
                    V::load_rows(&ptrs.map(|p| p.add(16 * i)))
                }))
            });
            rounds_rows(&mut rows, m);
            for (cv, rows) in cv.iter_mut().zip(&rows) {
                *cv = [rows[0].xor(rows[2]), rows[1].xor(rows[3])];
            }
        }
        let mut spare = [0u8; 32];
        for (s, cv) in cv.iter().enumerate() {
            let ptrs = [0, 1].map(|h| {
                let i = s * V::ROW_LANES + h;
                match out.get_mut(i) {
                    Some(bytes) if i < lanes.len() => bytes.as_mut_ptr(),
                    _ => spare.as_mut_ptr(),
                }
            });
            cv[0].store_rows(&ptrs);
            cv[1].store_rows(&ptrs.map(|p| p.add(16)));
        }
    }
}

/// Hashes at most four lanes: four with the 4-lane transposed kernel, fewer in the row form,
/// their states interleaved.
///
/// # Safety
/// Only from code compiled with SSE4.1 on a CPU that has it; `lanes.len() <= 4`,
/// `out.len() >= lanes.len()` and every lane's input holds `blocks` blocks.
#[inline(always)]
unsafe fn hash_up_to_four_lanes(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match lanes.len() {
            0 => {}
            1 => hash_rows::<__m128i, 1>(lanes, blocks, flags, out),
            2 => hash_rows::<__m128i, 2>(lanes, blocks, flags, out),
            3 => hash_rows::<__m128i, 3>(lanes, blocks, flags, out),
            _ => hash_group::<__m128i>(lanes, blocks, flags, out),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Entry points.

/// Compresses one block into `cv`: the SSE4.1 form of `portable::compress_in_place`.
///
/// # Safety
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn compress_in_place(
    cv: &mut [u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    // SAFETY: SSE4.1 is enabled here and present (our contract).
    unsafe { compress_rows_in_place(cv, block, block_len, counter, flags) }
}

/// Hashes every lane, four at a time: the SSE4.1 form of `portable::hash_lanes`.
///
/// # Safety
/// The CPU must support SSE4.1; `out.len() >= lanes.len()` and every lane's input is
/// `blocks * BLOCK_LEN` bytes (as `kernels::hash_lanes` checks).
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn hash_lanes(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    // SAFETY: SSE4.1 is enabled here and present; the lengths are our contract.
    unsafe {
        for (group, out) in lanes.chunks(4).zip(out.chunks_mut(4)) {
            hash_up_to_four_lanes(group, blocks, flags, out);
        }
    }
}

/// Extended output, four blocks at a time: the SSE4.1 form of `portable::xof_many`.
///
/// # Safety
/// The CPU must support SSE4.1; `out.len()` must be a multiple of `BLOCK_LEN`.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn xof_many(
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
    // SAFETY: forwarded from the caller; each group slice is exactly 4 blocks.
    unsafe {
        let mut counter = counter;
        let mut groups = out.chunks_exact_mut(GROUP);
        if groups.len() > 0 {
            let m = broadcast_block::<__m128i>(block);
            for group in &mut groups {
                xof_group(cv, &m, block_len, counter, flags, group);
                counter = counter.wrapping_add(4);
            }
        }
        for out_block in groups.into_remainder().chunks_exact_mut(BLOCK_LEN) {
            compress_xof_rows(
                cv,
                block,
                block_len,
                counter,
                flags,
                out_block.try_into().unwrap(),
            );
            counter = counter.wrapping_add(1);
        }
    }
}

#[cfg(all(test, feature = "std"))]
pub(super) mod tests {
    //! Differential tests against the portable kernels, shared with `avx2`'s tests.

    use super::super::kernels::{Lane, BLOCK_LEN};
    use super::super::portable;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// One backend's kernels, callable safely because they are only built once the CPU feature
    /// has been detected.
    pub(crate) struct Kernels {
        pub degree: usize,
        pub compress_in_place: fn(&mut [u32; 8], &[u8; BLOCK_LEN], u8, u64, u8),
        pub hash_lanes: fn(&[Lane<'_>], usize, u8, &mut [[u8; 32]]),
        pub xof_many: XofMany,
    }

    /// `xof_many`'s signature: cv, block, block length, counter, flags, output.
    pub(crate) type XofMany = fn(&[u32; 8], &[u8; BLOCK_LEN], u8, u64, u8, &mut [u8]);

    fn kernels() -> Option<Kernels> {
        if !std::is_x86_feature_detected!("sse4.1") {
            println!("skipped: this CPU lacks SSE4.1");
            return None;
        }
        // SAFETY (each closure): SSE4.1 is present, detected above; `hash_lanes` is only given
        // lanes of `blocks` blocks and enough outputs, `xof_many` whole blocks.
        Some(Kernels {
            degree: 4,
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

    /// Every test starts from the same seed so that failures reproduce.
    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(0xB1A4E3)
    }

    /// Counters that exercise the high word and the carry out of the low word.
    fn interesting_counter(rng: &mut ChaCha8Rng) -> u64 {
        match rng.gen_range(0..5) {
            0 => rng.gen(),
            1 => (1 << 32) - rng.gen_range(1..=20),
            2 => rng.gen_range(0..1000),
            3 => u64::MAX - rng.gen_range(0..20),
            _ => u64::from(rng.gen::<u32>()),
        }
    }

    fn random_block(rng: &mut ChaCha8Rng) -> [u8; BLOCK_LEN] {
        let mut block = [0; BLOCK_LEN];
        rng.fill(&mut block[..]);
        block
    }

    pub(crate) fn check_compress(k: &Kernels) {
        let mut rng = rng();
        for _ in 0..2000 {
            let cv: [u32; 8] = rng.gen();
            let block = random_block(&mut rng);
            let len = rng.gen_range(0..=64);
            let counter = interesting_counter(&mut rng);
            let flags = rng.gen();
            let mut expected = cv;
            portable::compress_in_place(&mut expected, &block, len, counter, flags);
            let mut got = cv;
            (k.compress_in_place)(&mut got, &block, len, counter, flags);
            assert_eq!(
                got, expected,
                "len {len} counter {counter:#x} flags {flags:#x}"
            );
        }
    }

    pub(crate) fn check_hash_lanes(k: &Kernels) {
        let mut rng = rng();
        for blocks in [0, 1, 2, 3, 16] {
            for n in 0..=3 * k.degree + 3 {
                let lane_len = blocks * BLOCK_LEN;
                let mut buffer = vec![0u8; n * lane_len + 32];
                rng.fill(&mut buffer[..]);
                let lanes: Vec<Lane<'_>> = (0..n)
                    .map(|i| {
                        // Each lane starts 1 to 31 bytes past a multiple of its length.
                        let start = i * lane_len + rng.gen_range(1..32);
                        Lane {
                            input: &buffer[start..start + lane_len],
                            cv: rng.gen(),
                            counter: interesting_counter(&mut rng),
                            flags_start: rng.gen(),
                            flags_end: rng.gen(),
                            last_block_len: rng.gen_range(0..=64),
                        }
                    })
                    .collect();
                let flags = rng.gen();
                let mut expected = vec![[0u8; 32]; n];
                portable::hash_lanes(&lanes, blocks, flags, &mut expected);
                // One spare output checks that nothing past the lanes is written.
                let mut got = vec![[0xA5u8; 32]; n + 1];
                (k.hash_lanes)(&lanes, blocks, flags, &mut got);
                assert_eq!(got[..n], expected[..], "{n} lanes of {blocks} blocks");
                assert_eq!(
                    got[n], [0xA5; 32],
                    "{n} lanes of {blocks} blocks: spare output"
                );
            }
        }
    }

    pub(crate) fn check_xof_many(k: &Kernels) {
        let mut rng = rng();
        for blocks in 0..40 {
            let cv: [u32; 8] = rng.gen();
            let block = random_block(&mut rng);
            let len = rng.gen_range(0..=64);
            let counter = match blocks % 3 {
                0 => u64::from(u32::MAX) - rng.gen_range(0..blocks as u64 + 1),
                1 => u64::MAX - rng.gen_range(0..blocks as u64 + 1),
                _ => interesting_counter(&mut rng),
            };
            let flags = rng.gen();
            let mut expected = vec![0u8; blocks * BLOCK_LEN];
            portable::xof_many(&cv, &block, len, counter, flags, &mut expected);
            let mut got = vec![0u8; blocks * BLOCK_LEN];
            (k.xof_many)(&cv, &block, len, counter, flags, &mut got);
            assert_eq!(got, expected, "{blocks} blocks from counter {counter:#x}");
        }
    }

    /// BLAKE3 of the empty input: one block of zeros, length 0, counter 0, flags
    /// CHUNK_START | CHUNK_END | ROOT, through each kernel.
    pub(crate) fn check_empty_input(k: &Kernels) {
        const EMPTY_HASH: &str = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";
        let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
        let iv = crate::blake2s::IV;
        let zeros = [0u8; BLOCK_LEN];

        let mut cv = iv;
        (k.compress_in_place)(&mut cv, &zeros, 0, 0, 11);
        let bytes: Vec<u8> = cv.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(hex(&bytes), EMPTY_HASH, "compress_in_place");

        let lane = Lane {
            input: &zeros,
            cv: iv,
            counter: 0,
            flags_start: 1,
            flags_end: 10,
            last_block_len: 0,
        };
        let mut out = [[0u8; 32]];
        (k.hash_lanes)(&[lane], 1, 0, &mut out);
        assert_eq!(hex(&out[0]), EMPTY_HASH, "hash_lanes");

        let mut xof = [0u8; 9 * BLOCK_LEN];
        (k.xof_many)(&iv, &zeros, 0, 0, 11, &mut xof);
        assert_eq!(hex(&xof[..32]), EMPTY_HASH, "xof_many");
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
