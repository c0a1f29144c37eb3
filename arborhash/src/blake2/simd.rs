//! What the x86-64 SIMD kernels of BLAKE2b and BLAKE2s share: the [`Rotate`] strategy and the
//! transposed multi-lane driver ([`compress_group`]), written once over the word size.
//!
//! Multi-lane compression keeps `N` independent states, one per word element of each vector
//! ("transposed"), so G needs no diagonalisation and no message shuffling beyond a transpose per
//! block. The driver is generic over the lane vector ([`LaneWords`], implemented for each word
//! size and vector width in the variants' sse41.rs and avx2.rs) and over [`Rotate`], so that
//! the AVX-512 backends compile the same code with the AVX-512VL rotate instructions. Everything
//! is `#[inline(always)]`: it compiles into each backend's `#[target_feature]` function.

use super::variant::{Variant, Word};
use super::{Lane, LastBlock, SIGMA};

/// G's four rotations of each word of a vector `V`, right, in the order G applies them: R1..R4
/// of RFC 7693 (32, 24, 16, 63 for BLAKE2b; 16, 12, 8, 7 for BLAKE2s). The kernels are generic
/// over them: each variant's `Shuffles` builds them from SSSE3/AVX2 shuffles and shifts, its
/// `Ror` (avx512.rs) from the AVX-512VL rotate instructions.
///
/// Every function requires the CPU feature of its implementation: that is the safety contract of
/// each `unsafe fn` below.
pub(crate) trait Rotate<V> {
    unsafe fn r1(x: V) -> V;
    unsafe fn r2(x: V) -> V;
    unsafe fn r3(x: V) -> V;
    unsafe fn r4(x: V) -> V;
}

/// A vector of `N` words `W`, one per lane, with what the transposed compression needs.
///
/// Every method requires the CPU feature of its implementation (SSE4.1 for `__m128i`, AVX2 for
/// `__m256i`): that is the safety contract of each `unsafe fn` below.
pub(crate) trait LaneWords<W, const N: usize>: Copy {
    unsafe fn add(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane k gets `words[k]`.
    unsafe fn from_words(words: [W; N]) -> Self;
    unsafe fn to_words(self) -> [W; N];
    /// The 16 message words of one block per lane, transposed: element k of word i is word i of
    /// the block at `blocks[k]`.
    ///
    /// # Safety
    /// Also: each pointer readable for a block.
    unsafe fn load_message(blocks: [*const u8; N]) -> [Self; 16];
}

/// Compresses `blocks` blocks of variant `B` in each of `lanes` (1 to `N` of them) with `V`'s
/// `N` lanes; the state stays transposed in registers for the whole call. Missing lanes are
/// filled with a copy of lane 0's input (in bounds) whose results are dropped.
///
/// # Safety
/// `V`'s and `R`'s CPU feature; every lane's input holds `(blocks - 1) * stride + BLOCKBYTES`
/// bytes.
#[inline(always)]
pub(crate) unsafe fn compress_group<B, V, R, const N: usize>(
    lanes: &mut [Lane<'_, B::Word>],
    blocks: usize,
    stride: usize,
) where
    B: Variant,
    V: LaneWords<B::Word, N>,
    R: Rotate<V>,
{
    debug_assert!((1..=N).contains(&lanes.len()));
    if blocks == 0 {
        return;
    }
    let zero = B::Word::default();
    let ones = B::Word::truncate(u128::MAX);
    let word_bits = 8 * <B::Word as Word>::BYTES;
    let mut inputs = [lanes[0].input.as_ptr(); N];
    let mut h = [[zero; 8]; N];
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
        let iv: [V; 8] = B::IV.map(|w| V::from_words([w; N]));
        for j in 0..blocks {
            let is_final = j + 1 == blocks;
            let mut f0 = [zero; N];
            let mut f1 = [zero; N];
            for k in 0..N {
                match last[k].filter(|_| is_final) {
                    Some(l) => {
                        count[k] = count[k].wrapping_add(l.len as u128);
                        f0[k] = ones;
                        f1[k] = if l.last_node { ones } else { zero };
                    }
                    None => count[k] = count[k].wrapping_add(B::BLOCKBYTES as u128),
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
                iv[4].xor(V::from_words(count.map(B::Word::truncate))),
                iv[5].xor(V::from_words(
                    count.map(|c| B::Word::truncate(c >> word_bits)),
                )),
                iv[6].xor(V::from_words(f0)),
                iv[7].xor(V::from_words(f1)),
            ];
            // Unrolled, so that every message index is a constant.
            lanes_round::<B::Word, V, R, N, 0>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 1>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 2>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 3>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 4>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 5>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 6>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 7>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 8>(&mut v, &m);
            lanes_round::<B::Word, V, R, N, 9>(&mut v, &m);
            // BLAKE2b's two more rounds (a constant condition).
            if B::ROUNDS == 12 {
                lanes_round::<B::Word, V, R, N, 10>(&mut v, &m);
                lanes_round::<B::Word, V, R, N, 11>(&mut v, &m);
            }
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
/// `V`'s and `R`'s CPU feature.
#[inline(always)]
unsafe fn lanes_round<W, V, R, const N: usize, const ROUND: usize>(v: &mut [V; 16], m: &[V; 16])
where
    V: LaneWords<W, N>,
    R: Rotate<V>,
{
    let w = |k: usize| m[SIGMA[ROUND][k] as usize];
    // SAFETY: the caller's contract.
    unsafe {
        lanes_g::<W, V, R, N>(v, [0, 4, 8, 12], w(0), w(1));
        lanes_g::<W, V, R, N>(v, [1, 5, 9, 13], w(2), w(3));
        lanes_g::<W, V, R, N>(v, [2, 6, 10, 14], w(4), w(5));
        lanes_g::<W, V, R, N>(v, [3, 7, 11, 15], w(6), w(7));
        lanes_g::<W, V, R, N>(v, [0, 5, 10, 15], w(8), w(9));
        lanes_g::<W, V, R, N>(v, [1, 6, 11, 12], w(10), w(11));
        lanes_g::<W, V, R, N>(v, [2, 7, 8, 13], w(12), w(13));
        lanes_g::<W, V, R, N>(v, [3, 4, 9, 14], w(14), w(15));
    }
}

/// G on the columns `[a, b, c, d]` of the transposed state, with message words `x` and `y`.
///
/// # Safety
/// `V`'s and `R`'s CPU feature.
#[inline(always)]
unsafe fn lanes_g<W, V, R, const N: usize>(v: &mut [V; 16], [a, b, c, d]: [usize; 4], x: V, y: V)
where
    V: LaneWords<W, N>,
    R: Rotate<V>,
{
    // SAFETY: the caller's contract.
    unsafe {
        v[a] = v[a].add(x).add(v[b]);
        v[d] = R::r1(v[d].xor(v[a]));
        v[c] = v[c].add(v[d]);
        v[b] = R::r2(v[b].xor(v[c]));
        v[a] = v[a].add(y).add(v[b]);
        v[d] = R::r3(v[d].xor(v[a]));
        v[c] = v[c].add(v[d]);
        v[b] = R::r4(v[b].xor(v[c]));
    }
}
