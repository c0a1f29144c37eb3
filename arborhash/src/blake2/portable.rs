//! The BLAKE2 compression function in plain Rust, written once for BLAKE2b and BLAKE2s: the
//! portable backend, and the kernel every other backend is checked against.

use super::kernels::{Kernels, Lane, LastNode, Word, SIGMA};

/// The portable backend: plain Rust, any CPU, one lane at a time.
pub(crate) struct Portable;

/// The G function of RFC 7693 section 3.1 on the words `a`, `b`, `c`, `d` of `v`, with the
/// variant's rotation distances `r`.
#[inline(always)]
fn g<W: Word>(v: &mut [W; 16], [a, b, c, d]: [usize; 4], x: W, y: W, r: [u32; 4]) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
    v[d] = (v[d] ^ v[a]).rotate_right(r[0]);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(r[1]);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
    v[d] = (v[d] ^ v[a]).rotate_right(r[2]);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(r[3]);
}

/// Round `ROUND` of the compression function on the state `v` and the message words `m`.
#[inline(always)]
fn round<W: Word, const ROUND: usize>(v: &mut [W; 16], m: &[W; 16]) {
    let w = |k: usize| m[SIGMA[ROUND][k] as usize];
    let r = W::ROTATIONS;
    g(v, [0, 4, 8, 12], w(0), w(1), r);
    g(v, [1, 5, 9, 13], w(2), w(3), r);
    g(v, [2, 6, 10, 14], w(4), w(5), r);
    g(v, [3, 7, 11, 15], w(6), w(7), r);
    g(v, [0, 5, 10, 15], w(8), w(9), r);
    g(v, [1, 6, 11, 12], w(10), w(11), r);
    g(v, [2, 7, 8, 13], w(12), w(13), r);
    g(v, [3, 4, 9, 14], w(14), w(15), r);
}

/// The compression function F of RFC 7693 section 3.2. The counter is the low `2 * BYTES` bytes
/// of `count` (all 128 bits for BLAKE2b, 64 for BLAKE2s).
#[inline(always)]
fn compress<W: Word>(h: &mut [W; 8], block: &[u8], count: u128, f0: bool, f1: bool) {
    let word_bytes = W::BYTES;
    let mut m = [W::default(); 16];
    for (w, bytes) in m
        .iter_mut()
        .zip(block[..W::BLOCKBYTES].chunks_exact(word_bytes))
    {
        *w = W::from_le(bytes);
    }
    let flag = |set: bool| W::truncate(if set { u128::MAX } else { 0 });
    let mut v = [W::default(); 16];
    v[..8].copy_from_slice(h);
    v[8..].copy_from_slice(&W::IV);
    v[12] = v[12] ^ W::truncate(count);
    v[13] = v[13] ^ W::truncate(count >> (8 * word_bytes));
    v[14] = v[14] ^ flag(f0);
    v[15] = v[15] ^ flag(f1);
    // Unrolled, so that every message index is a constant: as a loop over SIGMA's rows, LLVM
    // read each round's sixteen indices from memory, bounds-checked and spilled them, and
    // added the words through them.
    round::<W, 0>(&mut v, &m);
    round::<W, 1>(&mut v, &m);
    round::<W, 2>(&mut v, &m);
    round::<W, 3>(&mut v, &m);
    round::<W, 4>(&mut v, &m);
    round::<W, 5>(&mut v, &m);
    round::<W, 6>(&mut v, &m);
    round::<W, 7>(&mut v, &m);
    round::<W, 8>(&mut v, &m);
    round::<W, 9>(&mut v, &m);
    // BLAKE2b's two more rounds (a constant condition).
    if W::ROUNDS == 12 {
        round::<W, 10>(&mut v, &m);
        round::<W, 11>(&mut v, &m);
    }
    for i in 0..8 {
        h[i] = h[i] ^ v[i] ^ v[i + 8];
    }
}

/// `Kernels::compress_blocks`, safe: the portable kernels need no CPU feature.
pub(crate) fn compress_blocks<W: Word>(h: &mut [W; 8], blocks: &[u8], count: &mut u128) {
    for block in blocks.chunks_exact(W::BLOCKBYTES) {
        *count = count.wrapping_add(W::BLOCKBYTES as u128);
        compress::<W>(h, block, *count, false, false);
    }
}

/// `Kernels::compress_final`, safe.
pub(crate) fn compress_final<W: Word>(
    h: &mut [W; 8],
    block: &W::Block,
    count: u128,
    last_node: LastNode,
) {
    compress::<W>(h, block.as_ref(), count, true, last_node.is_set());
}

/// `Kernels::compress_lanes`, safe: the lanes one after the other.
pub(crate) fn compress_lanes<W: Word>(lanes: &mut [Lane<'_, W>], blocks: usize, stride: usize) {
    for lane in lanes.iter_mut() {
        for j in 0..blocks {
            let block = &lane.input[j * stride..j * stride + W::BLOCKBYTES];
            match lane.last.filter(|_| j + 1 == blocks) {
                Some(last) => {
                    lane.count = lane.count.wrapping_add(last.len as u128);
                    compress::<W>(lane.h, block, lane.count, true, last.last_node.is_set());
                }
                None => {
                    lane.count = lane.count.wrapping_add(W::BLOCKBYTES as u128);
                    compress::<W>(lane.h, block, lane.count, false, false);
                }
            }
        }
    }
}

impl<W: Word> Kernels<W> for Portable {
    const DEGREE: usize = 1;

    #[inline]
    unsafe fn compress_blocks(h: &mut [W; 8], blocks: &[u8], count: &mut u128) {
        compress_blocks(h, blocks, count)
    }

    #[inline]
    unsafe fn compress_final(h: &mut [W; 8], block: &W::Block, count: u128, last_node: LastNode) {
        compress_final(h, block, count, last_node)
    }

    #[inline]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, W>], blocks: usize, stride: usize) {
        compress_lanes(lanes, blocks, stride)
    }
}
