//! BLAKE2s kernels for SSE4.1.
//!
//! Single stream (`compress_blocks`, `compress_final`): the 4x4 state matrix is kept row by row,
//! one row of four 32-bit words per `__m128i`. A round runs the four column G functions side by
//! side, rotates rows a, c and d with `pshufd` so that the diagonals line up as columns, runs the
//! diagonal G functions and rotates back. Row b stays put: it is the last one G computes, so
//! rotating it would put a shuffle's latency on the critical path of every G.
//!
//! Message words are gathered from the block in memory with one load and three inserts per
//! vector. That costs more instructions than hand-written shuffle sequences per round, but a
//! single stream is bound by the latency of the G chain (about 30 cycles a round against fewer
//! than 20 cycles of issue for all its instructions, gathers included), and the gathers do not
//! depend on the state, so they run in its shadow: on the development machine this kernel hashes
//! 1 MiB at 0.44 GB/s, the `blake2s_simd` crate (hand-scheduled shuffles) at 0.45. A lone final
//! block is different: its first gathers start its latency chain, so the row kernel is generic
//! over the [`Message`] strategy and AVX2 gathers a final block's words with `vpermd` instead.
//!
//! Multi-lane (`compress_lanes`): four independent states, one per 32-bit element of each vector
//! ("transposed"): no diagonalisation and no message shuffling beyond a 4x4 transpose per block.
//! The lane driver ([`compress_group`]) and the rounds are generic over [`LaneWords`], which
//! avx2.rs implements for eight lanes in `__m256i`, and, like the row kernel, over the [`Rotate`]
//! strategy, so that avx512.rs compiles the same code with the AVX-512VL rotate instructions.
//!
//! The AVX2 and AVX-512 backends reuse [`rows_compress_blocks`] and [`rows_compress_final`] for
//! a single stream, compiled inside their `#[target_feature]` functions (VEX encodings).

use super::BLOCKBYTES;
use super::IV;
use crate::blake2::{Lane, LastBlock, SIGMA};
use core::arch::x86_64::*;

/// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
/// each; the semantics of `portable::compress_blocks`.
///
/// # Safety
/// The CPU must support SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
    // SAFETY: SSE4.1 is enabled here, which is all the row kernel needs.
    unsafe { rows_compress_blocks::<Shuffles, Inserts>(h, blocks, count) }
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
    unsafe { rows_compress_final::<Shuffles, Inserts>(h, block, count, last_node) }
}

/// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
/// `portable::compress_lanes`.
///
/// # Safety
/// The CPU must support SSE4.1, and every lane's input must hold
/// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `Variant::compress_lanes`).
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
    for group in lanes.chunks_mut(4) {
        // SAFETY: SSE4.1 is enabled here; the input lengths are the caller's contract.
        unsafe { compress_group::<__m128i, Shuffles, 4>(group, blocks, stride) }
    }
}

// ---------------------------------------------------------------------------------------------
// Single stream: row-vectorised compression.

/// `compress_blocks` body, shared with avx2.rs.
///
/// # Safety
/// The CPU must support SSE4.1; only call from a function compiled with it enabled.
#[inline(always)]
pub(super) unsafe fn rows_compress_blocks<R: Rotate<__m128i>, M: Message>(
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
pub(super) unsafe fn rows_compress_final<R: Rotate<__m128i>, M: Message>(
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
pub(super) trait Message {
    /// The block as loaded.
    type Words;
    /// Loads the 64 bytes at `block`.
    ///
    /// # Safety
    /// Also: `block` readable for 64 bytes.
    unsafe fn load(block: *const u8) -> Self::Words;
    /// (m[i], m[j], m[k], m[l]).
    unsafe fn gather(m: &Self::Words, i: u8, j: u8, k: u8, l: u8) -> __m128i;
}

/// Gathers of four words from the block in memory: one load and three inserts per vector (SSE4.1).
pub(super) struct Inserts;

impl Message for Inserts {
    type Words = [i32; 16];
    #[inline(always)]
    unsafe fn load(block: *const u8) -> [i32; 16] {
        // SAFETY: the caller's contract.
        core::array::from_fn(|i| unsafe { (block.add(4 * i) as *const i32).read_unaligned() })
    }
    #[inline(always)]
    unsafe fn gather(m: &[i32; 16], i: u8, j: u8, k: u8, l: u8) -> __m128i {
        let w = |n: u8| m[n as usize];
        // SAFETY: the caller guarantees SSE4.1.
        unsafe { _mm_set_epi32(w(l), w(k), w(j), w(i)) }
    }
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
        v[3] = R::rotr16(_mm_xor_si128(v[3], v[0]));
        v[2] = _mm_add_epi32(v[2], v[3]);
        v[1] = R::rotr12(_mm_xor_si128(v[1], v[2]));
        v[0] = _mm_add_epi32(_mm_add_epi32(v[0], y), v[1]);
        v[3] = R::rotr8(_mm_xor_si128(v[3], v[0]));
        v[2] = _mm_add_epi32(v[2], v[3]);
        v[1] = R::rotr7(_mm_xor_si128(v[1], v[2]));
    }
}

/// The rotations of each 32-bit word of a vector `V` right that G needs. The kernels are generic
/// over them: [`Shuffles`] builds them from SSSE3/AVX2 shuffles and shifts, avx512.rs from the
/// AVX-512VL rotate instructions.
///
/// Every function requires the CPU feature of its implementation: that is the safety contract of
/// each `unsafe fn` below.
pub(super) trait Rotate<V> {
    unsafe fn rotr16(x: V) -> V;
    unsafe fn rotr12(x: V) -> V;
    unsafe fn rotr8(x: V) -> V;
    unsafe fn rotr7(x: V) -> V;
}

/// Rotations without a rotate instruction: by 16 and 8 with byte shuffles, by 12 and 7 with two
/// shifts and an OR. Implemented for `__m128i` (SSSE3) here and for `__m256i` (AVX2) in avx2.rs.
pub(super) struct Shuffles;

impl Rotate<__m128i> for Shuffles {
    // SAFETY (every function): the caller guarantees SSSE3.
    #[inline(always)]
    unsafe fn rotr16(x: __m128i) -> __m128i {
        // `ROTR16` is an aligned static; see there for the volatile load.
        unsafe { _mm_shuffle_epi8(x, core::ptr::read_volatile(&ROTR16)) }
    }
    #[inline(always)]
    unsafe fn rotr12(x: __m128i) -> __m128i {
        unsafe { _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)) }
    }
    #[inline(always)]
    unsafe fn rotr8(x: __m128i) -> __m128i {
        unsafe {
            let mask = _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
            _mm_shuffle_epi8(x, mask)
        }
    }
    #[inline(always)]
    unsafe fn rotr7(x: __m128i) -> __m128i {
        unsafe { _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)) }
    }
}

/// The byte shuffle that rotates each 32-bit word right by 16. It is read with a volatile load,
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

/// A vector of `N` 32-bit words, one per lane, with what the transposed compression needs.
///
/// Every method requires the CPU feature of its implementation (SSE4.1 here, AVX2 for
/// `__m256i`): that is the safety contract of each `unsafe fn` below.
pub(super) trait LaneWords<const N: usize>: Copy {
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane k gets `words[k]`.
    unsafe fn from_words(words: [u32; N]) -> Self;
    unsafe fn to_words(self) -> [u32; N];
    /// The 16 message words of one block per lane, transposed: element k of word i is word i of
    /// the block at `blocks[k]`.
    ///
    /// # Safety
    /// Also: each pointer readable for `BLOCKBYTES` bytes.
    unsafe fn load_message(blocks: [*const u8; N]) -> [Self; 16];
}

impl LaneWords<4> for __m128i {
    // SAFETY (every method): the caller guarantees SSE4.1; `load_message` also relies on its
    // pointers being readable for a block.
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
    unsafe fn to_words(self) -> [u32; 4] {
        let mut w = [0u32; 4];
        unsafe { _mm_storeu_si128(w.as_mut_ptr() as *mut __m128i, self) };
        w
    }
    #[inline(always)]
    unsafe fn load_message(blocks: [*const u8; 4]) -> [Self; 16] {
        let p = blocks.map(|b| b as *const __m128i);
        unsafe {
            let mut m = [_mm_setzero_si128(); 16];
            for k in 0..4 {
                // A 4x4 transpose of words 4k..4k+4 of the four lanes.
                let [a, b, c, d] = p.map(|q| _mm_loadu_si128(q.add(k)));
                let ab_lo = _mm_unpacklo_epi32(a, b);
                let ab_hi = _mm_unpackhi_epi32(a, b);
                let cd_lo = _mm_unpacklo_epi32(c, d);
                let cd_hi = _mm_unpackhi_epi32(c, d);
                m[4 * k] = _mm_unpacklo_epi64(ab_lo, cd_lo);
                m[4 * k + 1] = _mm_unpackhi_epi64(ab_lo, cd_lo);
                m[4 * k + 2] = _mm_unpacklo_epi64(ab_hi, cd_hi);
                m[4 * k + 3] = _mm_unpackhi_epi64(ab_hi, cd_hi);
            }
            m
        }
    }
}

/// Compresses `blocks` blocks in each of `lanes` (1 to `N` of them) with `V`'s `N` lanes; the
/// state stays transposed in registers for the whole call. Missing lanes are filled with a copy
/// of lane 0's input (in bounds) whose results are dropped.
///
/// # Safety
/// `V`'s CPU feature; every lane's input holds `(blocks - 1) * stride + BLOCKBYTES` bytes.
#[inline(always)]
pub(super) unsafe fn compress_group<V: LaneWords<N>, R: Rotate<V>, const N: usize>(
    lanes: &mut [Lane<'_, u32>],
    blocks: usize,
    stride: usize,
) {
    debug_assert!((1..=N).contains(&lanes.len()));
    if blocks == 0 {
        return;
    }
    let mut inputs = [lanes[0].input.as_ptr(); N];
    let mut h = [[0u32; 8]; N];
    let mut count = [0u128; N];
    let mut last: [Option<LastBlock>; N] = [None; N];
    for (k, lane) in lanes.iter().enumerate() {
        inputs[k] = lane.input.as_ptr();
        h[k] = *lane.h;
        count[k] = lane.count;
        last[k] = lane.last;
    }
    // SAFETY: `V`'s feature is the caller's contract; block j of lane k starts at
    // inputs[k] + j * stride and is in bounds by the input-length contract.
    unsafe {
        let mut hv: [V; 8] = core::array::from_fn(|i| V::from_words(h.map(|hk| hk[i])));
        let iv: [V; 8] = IV.map(|w| V::from_words([w; N]));
        for j in 0..blocks {
            let is_final = j + 1 == blocks;
            let mut f0 = [0u32; N];
            let mut f1 = [0u32; N];
            for k in 0..N {
                match last[k].filter(|_| is_final) {
                    Some(l) => {
                        count[k] = count[k].wrapping_add(l.len as u128);
                        f0[k] = !0;
                        f1[k] = if l.last_node { !0 } else { 0 };
                    }
                    None => count[k] = count[k].wrapping_add(BLOCKBYTES as u128),
                }
            }
            let m = V::load_message(inputs.map(|p| p.add(j * stride)));
            let mut v = [
                hv[0],
                hv[1],
                hv[2],
                hv[3],
                hv[4],
                hv[5],
                hv[6],
                hv[7],
                iv[0],
                iv[1],
                iv[2],
                iv[3],
                iv[4].xor(V::from_words(count.map(|c| c as u32))),
                iv[5].xor(V::from_words(count.map(|c| (c >> 32) as u32))),
                iv[6].xor(V::from_words(f0)),
                iv[7].xor(V::from_words(f1)),
            ];
            // Unrolled, so that every message index is a constant.
            lanes_round::<V, R, N, 0>(&mut v, &m);
            lanes_round::<V, R, N, 1>(&mut v, &m);
            lanes_round::<V, R, N, 2>(&mut v, &m);
            lanes_round::<V, R, N, 3>(&mut v, &m);
            lanes_round::<V, R, N, 4>(&mut v, &m);
            lanes_round::<V, R, N, 5>(&mut v, &m);
            lanes_round::<V, R, N, 6>(&mut v, &m);
            lanes_round::<V, R, N, 7>(&mut v, &m);
            lanes_round::<V, R, N, 8>(&mut v, &m);
            lanes_round::<V, R, N, 9>(&mut v, &m);
            for i in 0..8 {
                hv[i] = hv[i].xor(v[i]).xor(v[i + 8]);
            }
        }
        for i in 0..8 {
            let words = hv[i].to_words();
            for k in 0..N {
                h[k][i] = words[k];
            }
        }
    }
    for (k, lane) in lanes.iter_mut().enumerate() {
        *lane.h = h[k];
        lane.count = count[k];
    }
}

/// Round `ROUND` on the transposed state.
///
/// # Safety
/// `V`'s CPU feature.
#[inline(always)]
unsafe fn lanes_round<V: LaneWords<N>, R: Rotate<V>, const N: usize, const ROUND: usize>(
    v: &mut [V; 16],
    m: &[V; 16],
) {
    let w = |k: usize| m[SIGMA[ROUND][k] as usize];
    // SAFETY: the caller's contract.
    unsafe {
        lanes_g::<V, R, N>(v, [0, 4, 8, 12], w(0), w(1));
        lanes_g::<V, R, N>(v, [1, 5, 9, 13], w(2), w(3));
        lanes_g::<V, R, N>(v, [2, 6, 10, 14], w(4), w(5));
        lanes_g::<V, R, N>(v, [3, 7, 11, 15], w(6), w(7));
        lanes_g::<V, R, N>(v, [0, 5, 10, 15], w(8), w(9));
        lanes_g::<V, R, N>(v, [1, 6, 11, 12], w(10), w(11));
        lanes_g::<V, R, N>(v, [2, 7, 8, 13], w(12), w(13));
        lanes_g::<V, R, N>(v, [3, 4, 9, 14], w(14), w(15));
    }
}

/// # Safety
/// `V`'s CPU feature.
#[inline(always)]
unsafe fn lanes_g<V: LaneWords<N>, R: Rotate<V>, const N: usize>(
    v: &mut [V; 16],
    [a, b, c, d]: [usize; 4],
    x: V,
    y: V,
) {
    // SAFETY: the caller's contract.
    unsafe {
        v[a] = v[a].add(x).add(v[b]);
        v[d] = R::rotr16(v[d].xor(v[a]));
        v[c] = v[c].add(v[d]);
        v[b] = R::rotr12(v[b].xor(v[c]));
        v[a] = v[a].add(y).add(v[b]);
        v[d] = R::rotr8(v[d].xor(v[a]));
        v[c] = v[c].add(v[d]);
        v[b] = R::rotr7(v[b].xor(v[c]));
    }
}

/// Differential tests against the portable kernels, shared with avx2.rs.
#[cfg(test)]
pub(super) mod tests {
    use super::super::BLOCKBYTES;
    use crate::blake2::portable;
    use crate::blake2::variant::Blake2s as V;
    use crate::blake2::{Lane, LastBlock};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// One backend's three kernels.
    pub(in super::super) struct Kernels {
        pub name: &'static str,
        pub supported: bool,
        pub degree: usize,
        pub blocks: unsafe fn(&mut [u32; 8], &[u8], &mut u128),
        pub last: unsafe fn(&mut [u32; 8], &[u8; BLOCKBYTES], u128, bool),
        pub lanes: unsafe fn(&mut [Lane<'_, u32>], usize, usize),
    }

    fn random_count(rng: &mut ChaCha8Rng) -> u128 {
        match rng.gen_range(0..4) {
            0 => rng.gen_range(0..1 << 20),
            // Carries from the low into the high 32 bits, and out of the 64 that BLAKE2s uses.
            1 => u32::MAX as u128 - rng.gen_range(0..1024),
            2 => u64::MAX as u128 - rng.gen_range(0..1024),
            _ => rng.gen(),
        }
    }

    /// A copy of `data` starting `offset` bytes into a fresh buffer, to test unaligned input.
    fn unaligned(data: &[u8], offset: usize) -> Vec<u8> {
        let mut buf = vec![0u8; offset];
        buf.extend_from_slice(data);
        buf
    }

    pub(in super::super) fn check(k: &Kernels) {
        if !k.supported {
            println!(
                "skipping BLAKE2s {} kernel tests: CPU lacks the feature",
                k.name
            );
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0xB250_0000 + k.degree as u64);
        check_abc(k);
        for _ in 0..200 {
            let nblocks = rng.gen_range(0..12);
            let mut data = vec![0u8; nblocks * BLOCKBYTES];
            rng.fill(&mut data[..]);
            let offset = rng.gen_range(0..16);
            let buf = unaligned(&data, offset);
            let h0: [u32; 8] = rng.gen();
            let c0 = random_count(&mut rng);
            let (mut h_want, mut c_want) = (h0, c0);
            portable::compress_blocks::<V>(&mut h_want, &data, &mut c_want);
            let (mut h_got, mut c_got) = (h0, c0);
            // SAFETY: `supported` was checked above.
            unsafe { (k.blocks)(&mut h_got, &buf[offset..], &mut c_got) };
            assert_eq!(
                (h_got, c_got),
                (h_want, c_want),
                "{} compress_blocks",
                k.name
            );

            let block: [u8; BLOCKBYTES] = core::array::from_fn(|_| rng.gen());
            let last_node = rng.gen();
            let mut h_want = h0;
            portable::compress_final::<V>(&mut h_want, &block, c0, last_node);
            let mut h_got = h0;
            // SAFETY: as above.
            unsafe { (k.last)(&mut h_got, &block, c0, last_node) };
            assert_eq!(h_got, h_want, "{} compress_final", k.name);
        }
        for nlanes in 1..=3 * k.degree {
            for _ in 0..12 {
                check_lanes(k, &mut rng, nlanes);
            }
        }
    }

    fn check_lanes(k: &Kernels, rng: &mut ChaCha8Rng, nlanes: usize) {
        let blocks = rng.gen_range(0..5);
        let stride = [BLOCKBYTES, 8 * BLOCKBYTES, 16 * BLOCKBYTES][rng.gen_range(0..3)];
        let len = if blocks == 0 {
            0
        } else {
            (blocks - 1) * stride + BLOCKBYTES
        };
        let offset = rng.gen_range(0..16);
        // Each lane reads from its own buffer of exactly the needed length, unaligned.
        let bufs: Vec<Vec<u8>> = (0..nlanes)
            .map(|_| {
                let mut data = vec![0u8; len];
                rng.fill(&mut data[..]);
                unaligned(&data, offset)
            })
            .collect();
        let starts: Vec<([u32; 8], u128, Option<LastBlock>)> = (0..nlanes)
            .map(|_| {
                let last = rng.gen_bool(0.5).then(|| LastBlock {
                    len: rng.gen_range(0..=BLOCKBYTES),
                    last_node: rng.gen(),
                });
                (rng.gen(), random_count(rng), last)
            })
            .collect();
        let run = |f: &dyn Fn(&mut [Lane<'_, u32>])| {
            let mut hs: Vec<[u32; 8]> = starts.iter().map(|s| s.0).collect();
            let mut lanes: Vec<Lane<'_, u32>> = hs
                .iter_mut()
                .zip(&bufs)
                .zip(&starts)
                .map(|((h, buf), s)| Lane {
                    h,
                    input: &buf[offset..],
                    count: s.1,
                    last: s.2,
                })
                .collect();
            f(&mut lanes);
            let counts: Vec<u128> = lanes.iter().map(|l| l.count).collect();
            drop(lanes);
            (hs, counts)
        };
        let want = run(&|lanes| portable::compress_lanes::<V>(lanes, blocks, stride));
        // SAFETY: `supported` was checked by the caller; each input holds exactly the bytes
        // `Variant::compress_lanes` requires.
        let got = run(&|lanes| unsafe { (k.lanes)(lanes, blocks, stride) });
        assert_eq!(
            got, want,
            "{} compress_lanes: {nlanes} lanes, {blocks} blocks, stride {stride}",
            k.name
        );
    }

    /// RFC 7693 appendix B: BLAKE2s-256("abc"), one final block.
    fn check_abc(k: &Kernels) {
        let mut h = super::super::IV;
        h[0] ^= 0x0101_0020;
        let mut block = [0u8; BLOCKBYTES];
        block[..3].copy_from_slice(b"abc");
        // SAFETY: the caller checked `supported`.
        unsafe { (k.last)(&mut h, &block, 3, false) };
        let digest: Vec<u8> = h.iter().flat_map(|w| w.to_le_bytes()).collect();
        let want = "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982";
        let got: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want, "{} BLAKE2s(\"abc\")", k.name);
    }

    #[test]
    fn sse41_matches_portable() {
        check(&Kernels {
            name: "sse41",
            supported: is_x86_feature_detected!("sse4.1"),
            degree: 4,
            blocks: super::compress_blocks,
            last: super::compress_final,
            lanes: super::compress_lanes,
        });
    }
}
