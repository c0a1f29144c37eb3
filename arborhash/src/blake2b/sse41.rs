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
//! per block. The lane driver ([`compress_group`]) and the rounds are generic over [`LaneWords`],
//! which avx2.rs implements for four lanes in `__m256i`, and over the [`Rotate`] strategy, so that
//! avx512.rs compiles the same code with the AVX-512VL rotate instructions.
//!
//! The AVX2 backend has its own single-stream kernel with one `__m256i` per row; it measured
//! faster than this one compiled with AVX2 enabled (see avx2.rs).

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
/// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by `Variant::compress_lanes`).
#[target_feature(enable = "sse4.1")]
pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
    for group in lanes.chunks_mut(2) {
        // SAFETY: SSE4.1 is enabled here; the input lengths are the caller's contract.
        unsafe { compress_group::<__m128i, Shuffles, 2>(group, blocks, stride) }
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
pub(super) unsafe fn pair(m: &[__m128i; 8], i: u8, j: u8) -> __m128i {
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
            v[d] = Shuffles::rotr32(_mm_xor_si128(v[d], v[a]));
            v[c] = _mm_add_epi64(v[c], v[d]);
            v[b] = Shuffles::rotr24(_mm_xor_si128(v[b], v[c]));
        }
        for (k, y) in y.into_iter().enumerate() {
            let (a, b, c, d) = (k, k + 2, k + 4, k + 6);
            v[a] = _mm_add_epi64(_mm_add_epi64(v[a], y), v[b]);
            v[d] = Shuffles::rotr16(_mm_xor_si128(v[d], v[a]));
            v[c] = _mm_add_epi64(v[c], v[d]);
            v[b] = Shuffles::rotr63(_mm_xor_si128(v[b], v[c]));
        }
    }
}

/// The rotations of each 64-bit word of a vector `V` right that G needs. The kernels are generic
/// over them: [`Shuffles`] builds them from SSSE3/AVX2 shuffles and shifts, avx512.rs from the
/// AVX-512VL rotate instructions.
///
/// Every function requires the CPU feature of its implementation: that is the safety contract of
/// each `unsafe fn` below.
pub(super) trait Rotate<V> {
    unsafe fn rotr32(x: V) -> V;
    unsafe fn rotr24(x: V) -> V;
    unsafe fn rotr16(x: V) -> V;
    unsafe fn rotr63(x: V) -> V;
}

/// Rotations without a rotate instruction: by 32 by swapping 32-bit halves, by 24 and 16 by byte
/// shuffles, by 63 (left by 1) by doubling and carrying the top bit in. Implemented for
/// `__m128i` (SSSE3) here and for `__m256i` (AVX2) in avx2.rs.
pub(super) struct Shuffles;

impl Rotate<__m128i> for Shuffles {
    // SAFETY (every function): the caller guarantees SSSE3.
    #[inline(always)]
    unsafe fn rotr32(x: __m128i) -> __m128i {
        unsafe { _mm_shuffle_epi32(x, 0b10_11_00_01) }
    }
    #[inline(always)]
    unsafe fn rotr24(x: __m128i) -> __m128i {
        unsafe {
            let mask = _mm_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
            _mm_shuffle_epi8(x, mask)
        }
    }
    #[inline(always)]
    unsafe fn rotr16(x: __m128i) -> __m128i {
        // `ROTR16` is an aligned static; see there for the volatile load.
        unsafe { _mm_shuffle_epi8(x, core::ptr::read_volatile(&ROTR16)) }
    }
    #[inline(always)]
    unsafe fn rotr63(x: __m128i) -> __m128i {
        unsafe { _mm_or_si128(_mm_add_epi64(x, x), _mm_srli_epi64(x, 63)) }
    }
}

/// The byte shuffle that rotates each 64-bit word right by 16. It is read with a volatile load,
/// so that LLVM cannot see the constant: given one, it rewrites this rotation as two word
/// shuffles (`pshuflw` + `pshufhw`), doubling the latency of a step on G's dependency chain
/// (with the constant, the AVX2 kernel hashed 1 MiB about 10 % slower). The load does not depend
/// on the data, so it stays off that chain.
static ROTR16: __m128i = {
    let bytes: [u8; 16] = [2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9];
    // SAFETY: any 16 bytes are a valid `__m128i`.
    unsafe { core::mem::transmute::<[u8; 16], __m128i>(bytes) }
};

// ---------------------------------------------------------------------------------------------
// Multi-lane: transposed compression, one lane per 64-bit element.

/// A vector of `N` 64-bit words, one per lane, with what the transposed compression needs.
///
/// Every method requires the CPU feature of its implementation (SSE4.1 here, AVX2 for
/// `__m256i`): that is the safety contract of each `unsafe fn` below.
pub(super) trait LaneWords<const N: usize>: Copy {
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane k gets `words[k]`.
    unsafe fn from_words(words: [u64; N]) -> Self;
    unsafe fn to_words(self) -> [u64; N];
    /// The 16 message words of one block per lane, transposed: element k of word i is word i of
    /// the block at `blocks[k]`.
    ///
    /// # Safety
    /// Also: each pointer readable for `BLOCKBYTES` bytes.
    unsafe fn load_message(blocks: [*const u8; N]) -> [Self; 16];
}

impl LaneWords<2> for __m128i {
    // SAFETY (every method): the caller guarantees SSE4.1; `load_message` also relies on its
    // pointers being readable for a block.
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
    unsafe fn to_words(self) -> [u64; 2] {
        unsafe {
            [
                _mm_extract_epi64(self, 0) as u64,
                _mm_extract_epi64(self, 1) as u64,
            ]
        }
    }
    #[inline(always)]
    unsafe fn load_message(blocks: [*const u8; 2]) -> [Self; 16] {
        let [p, q] = blocks.map(|b| b as *const __m128i);
        unsafe {
            let mut m = [_mm_setzero_si128(); 16];
            for k in 0..8 {
                let (a, b) = (_mm_loadu_si128(p.add(k)), _mm_loadu_si128(q.add(k)));
                m[2 * k] = _mm_unpacklo_epi64(a, b);
                m[2 * k + 1] = _mm_unpackhi_epi64(a, b);
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
    lanes: &mut [Lane<'_, u64>],
    blocks: usize,
    stride: usize,
) {
    debug_assert!((1..=N).contains(&lanes.len()));
    if blocks == 0 {
        return;
    }
    let mut inputs = [lanes[0].input.as_ptr(); N];
    let mut h = [[0u64; 8]; N];
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
            let mut f0 = [0u64; N];
            let mut f1 = [0u64; N];
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
                iv[4].xor(V::from_words(count.map(|c| c as u64))),
                iv[5].xor(V::from_words(count.map(|c| (c >> 64) as u64))),
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
            lanes_round::<V, R, N, 10>(&mut v, &m);
            lanes_round::<V, R, N, 11>(&mut v, &m);
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
        v[d] = R::rotr32(v[d].xor(v[a]));
        v[c] = v[c].add(v[d]);
        v[b] = R::rotr24(v[b].xor(v[c]));
        v[a] = v[a].add(y).add(v[b]);
        v[d] = R::rotr16(v[d].xor(v[a]));
        v[c] = v[c].add(v[d]);
        v[b] = R::rotr63(v[b].xor(v[c]));
    }
}

/// Differential tests against the portable kernels, shared with avx2.rs.
#[cfg(test)]
pub(super) mod tests {
    use super::super::{BLOCKBYTES, IV};
    use crate::blake2::portable;
    use crate::blake2::variant::Blake2b as V;
    use crate::blake2::{Lane, LastBlock};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// One backend's three kernels.
    pub(in super::super) struct Kernels {
        pub name: &'static str,
        pub supported: bool,
        pub degree: usize,
        pub blocks: unsafe fn(&mut [u64; 8], &[u8], &mut u128),
        pub last: unsafe fn(&mut [u64; 8], &[u8; BLOCKBYTES], u128, bool),
        pub lanes: unsafe fn(&mut [Lane<'_, u64>], usize, usize),
    }

    fn random_count(rng: &mut ChaCha8Rng) -> u128 {
        match rng.gen_range(0..4) {
            0 => rng.gen_range(0..1 << 20),
            // Carries from the low into the high 64 bits, and around u128.
            1 => u64::MAX as u128 - rng.gen_range(0..1024),
            2 => u128::MAX - rng.gen_range(0..1024),
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
                "skipping BLAKE2b {} kernel tests: CPU lacks the feature",
                k.name
            );
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0xB2B0_0000 + k.degree as u64);
        check_abc(k);
        for _ in 0..200 {
            let nblocks = rng.gen_range(0..12);
            let mut data = vec![0u8; nblocks * BLOCKBYTES];
            rng.fill(&mut data[..]);
            let offset = rng.gen_range(0..16);
            let buf = unaligned(&data, offset);
            let h0: [u64; 8] = rng.gen();
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
        let stride = [BLOCKBYTES, 4 * BLOCKBYTES, 8 * BLOCKBYTES][rng.gen_range(0..3)];
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
        let starts: Vec<([u64; 8], u128, Option<LastBlock>)> = (0..nlanes)
            .map(|_| {
                let last = rng.gen_bool(0.5).then(|| LastBlock {
                    len: rng.gen_range(0..=BLOCKBYTES),
                    last_node: rng.gen(),
                });
                (rng.gen(), random_count(rng), last)
            })
            .collect();
        let run = |f: &dyn Fn(&mut [Lane<'_, u64>])| {
            let mut hs: Vec<[u64; 8]> = starts.iter().map(|s| s.0).collect();
            let mut lanes: Vec<Lane<'_, u64>> = hs
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

    /// RFC 7693 appendix A: BLAKE2b-512("abc"), one final block.
    fn check_abc(k: &Kernels) {
        let mut h = IV;
        h[0] ^= 0x0101_0040;
        let mut block = [0u8; BLOCKBYTES];
        block[..3].copy_from_slice(b"abc");
        // SAFETY: the caller checked `supported`.
        unsafe { (k.last)(&mut h, &block, 3, false) };
        let digest: Vec<u8> = h.iter().flat_map(|w| w.to_le_bytes()).collect();
        let want = "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
                    7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923";
        let got: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want, "{} BLAKE2b(\"abc\")", k.name);
    }

    #[test]
    fn sse41_matches_portable() {
        check(&Kernels {
            name: "sse41",
            supported: is_x86_feature_detected!("sse4.1"),
            degree: 2,
            blocks: super::compress_blocks,
            last: super::compress_final,
            lanes: super::compress_lanes,
        });
    }
}
