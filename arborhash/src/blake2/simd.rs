//! What the x86-64 SIMD kernels of BLAKE2b and BLAKE2s share: the [`Rotate`] strategy and the
//! transposed multi-lane driver ([`compress_group`]), written once over the word size.
//!
//! Multi-lane compression keeps `N` independent states, one per word element of each vector
//! ("transposed"), so G needs no diagonalisation and no message shuffling beyond a transpose per
//! block. The driver is generic over the lane vector ([`LaneWords`], implemented for each word
//! size and vector width in the variants' sse41.rs and avx2.rs) and over [`Rotate`], so that
//! the AVX-512 backends compile the same code with the AVX-512VL rotate instructions. Everything
//! is `#[inline(always)]`: it compiles into each backend's `#[target_feature]` function.

use super::kernels::{Lane, Word, SIGMA};
use crate::arch::x86::{QwordRotations, WordRotations};

/// G's four rotations of each word `W` of a vector `V`, right, in the order G applies them: R1..R4
/// of RFC 7693 (32, 24, 16, 63 for BLAKE2b; 16, 12, 8, 7 for BLAKE2s). The kernels are generic
/// over them: `arch::x86`'s [`QwordRotations`] give BLAKE2b's and its [`WordRotations`]
/// BLAKE2s's, with the shuffle or the AVX-512VL rotate instructions.
///
/// Every function requires the CPU feature of its implementation: that is the safety contract of
/// each `unsafe fn` below.
pub(crate) trait Rotate<W, V> {
    unsafe fn r1(x: V) -> V;
    unsafe fn r2(x: V) -> V;
    unsafe fn r3(x: V) -> V;
    unsafe fn r4(x: V) -> V;
}

impl<V, R: QwordRotations<V>> Rotate<u64, V> for R {
    // SAFETY (every function): the caller's contract is the rotation's.
    #[inline(always)]
    unsafe fn r1(x: V) -> V {
        unsafe { R::rot32(x) }
    }
    #[inline(always)]
    unsafe fn r2(x: V) -> V {
        unsafe { R::rot24(x) }
    }
    #[inline(always)]
    unsafe fn r3(x: V) -> V {
        unsafe { R::rot16(x) }
    }
    #[inline(always)]
    unsafe fn r4(x: V) -> V {
        unsafe { R::rot63(x) }
    }
}

impl<V, R: WordRotations<V>> Rotate<u32, V> for R {
    // SAFETY (every function): the caller's contract is the rotation's.
    #[inline(always)]
    unsafe fn r1(x: V) -> V {
        unsafe { R::rot16(x) }
    }
    #[inline(always)]
    unsafe fn r2(x: V) -> V {
        unsafe { R::rot12(x) }
    }
    #[inline(always)]
    unsafe fn r3(x: V) -> V {
        unsafe { R::rot8(x) }
    }
    #[inline(always)]
    unsafe fn r4(x: V) -> V {
        unsafe { R::rot7(x) }
    }
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
    /// `M` consecutive words at each of `rows`, transposed: element k of vector i is word i
    /// at `rows[k]`. `M = 16` loads a message block per lane, `M = 8` a chaining value.
    ///
    /// # Safety
    /// Also: each pointer readable for `M` words.
    unsafe fn load_transposed<const M: usize>(rows: [*const u8; N]) -> [Self; M];
    /// The inverse of `load_transposed`: word i at `rows[k]` gets element k of `words[i]`.
    ///
    /// # Safety
    /// Also: each pointer writable for `M` words. Where pointers coincide, which of their lanes'
    /// words end up there is unspecified (the missing lanes of a group share one dump).
    unsafe fn store_transposed<const M: usize>(words: [Self; M], rows: [*mut u8; N]);
}

/// Compresses `blocks` blocks of variant `B` in each of `lanes` (1 to `N` of them) with `V`'s
/// `N` lanes; the state stays transposed in registers for the whole call. Missing lanes are
/// filled with a copy of lane 0's input and chaining value (in bounds) whose results are dropped.
///
/// # Safety
/// `V`'s and `R`'s CPU feature; every lane's input holds `(blocks - 1) * stride + BLOCKBYTES`
/// bytes.
#[inline(always)]
pub(crate) unsafe fn compress_group<B, V, R, const N: usize>(
    lanes: &mut [Lane<'_, B>],
    blocks: usize,
    stride: usize,
) where
    B: Word,
    V: LaneWords<B, N>,
    R: Rotate<B, V>,
{
    debug_assert!((1..=N).contains(&lanes.len()));
    if blocks == 0 {
        return;
    }
    let zero = B::default();
    let ones = B::truncate(u128::MAX);
    let word_bits = 8 * B::BYTES;
    // Missing lanes read lane 0's input and chaining value and write their results to `spare`.
    let mut spare = [zero; 8];
    let mut inputs = [lanes[0].input.as_ptr(); N];
    let mut h_in = [lanes[0].h.as_ptr() as *const u8; N];
    let mut h_out = [spare.as_mut_ptr() as *mut u8; N];
    let mut count = [0u128; N];
    // The final block's counter increments and finalization flags, set once per call.
    let mut final_add = [B::BLOCKBYTES as u128; N];
    let mut f0 = [zero; N];
    let mut f1 = [zero; N];
    for (k, lane) in lanes.iter_mut().enumerate() {
        inputs[k] = lane.input.as_ptr();
        h_out[k] = lane.h.as_mut_ptr() as *mut u8;
        h_in[k] = h_out[k];
        count[k] = lane.count;
        if let Some(l) = lane.last {
            final_add[k] = l.len as u128;
            f0[k] = ones;
            f1[k] = if l.last_node.is_set() { ones } else { zero };
        }
    }
    // SAFETY: `V`'s feature is the caller's contract; block j of lane k starts at
    // inputs[k] + j * stride and is in bounds by the input-length contract; `h_in` and `h_out`
    // point at chaining values (8 words): the lanes' own, which are distinct `&mut` borrows, and
    // `spare` for the missing lanes, written one after the other.
    unsafe {
        let mut hv: [V; 8] = V::load_transposed(h_in);
        let iv: [V; 8] = B::IV.map(|w| V::from_words([w; N]));
        let none = V::from_words([zero; N]);
        let (f0, f1) = (V::from_words(f0), V::from_words(f1));
        for j in 0..blocks {
            let is_final = j + 1 == blocks;
            let (f0, f1) = if is_final { (f0, f1) } else { (none, none) };
            for k in 0..N {
                let add = if is_final {
                    final_add[k]
                } else {
                    B::BLOCKBYTES as u128
                };
                count[k] = count[k].wrapping_add(add);
            }
            let m = V::load_transposed::<16>(inputs.map(|p| p.add(j * stride)));
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
                iv[4].xor(V::from_words(count.map(B::truncate))),
                iv[5].xor(V::from_words(count.map(|c| B::truncate(c >> word_bits)))),
                iv[6].xor(f0),
                iv[7].xor(f1),
            ];
            // Unrolled, so that every message index is a constant.
            lanes_round::<B, V, R, N, 0>(&mut v, &m);
            lanes_round::<B, V, R, N, 1>(&mut v, &m);
            lanes_round::<B, V, R, N, 2>(&mut v, &m);
            lanes_round::<B, V, R, N, 3>(&mut v, &m);
            lanes_round::<B, V, R, N, 4>(&mut v, &m);
            lanes_round::<B, V, R, N, 5>(&mut v, &m);
            lanes_round::<B, V, R, N, 6>(&mut v, &m);
            lanes_round::<B, V, R, N, 7>(&mut v, &m);
            lanes_round::<B, V, R, N, 8>(&mut v, &m);
            lanes_round::<B, V, R, N, 9>(&mut v, &m);
            // BLAKE2b's two more rounds (a constant condition).
            if B::ROUNDS == 12 {
                lanes_round::<B, V, R, N, 10>(&mut v, &m);
                lanes_round::<B, V, R, N, 11>(&mut v, &m);
            }
            for i in 0..8 {
                hv[i] = hv[i].xor(v[i]).xor(v[i + 8]);
            }
        }
        V::store_transposed(hv, h_out);
    }
    for (k, lane) in lanes.iter_mut().enumerate() {
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
    R: Rotate<W, V>,
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
    R: Rotate<W, V>,
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
