//! The BLAKE2 compression function in plain Rust, written once for BLAKE2b and BLAKE2s: the
//! portable backend, and the kernel every other backend is checked against.

use super::variant::{Variant, Word};
use super::{Lane, SIGMA};

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
fn round<V: Variant, const ROUND: usize>(v: &mut [V::Word; 16], m: &[V::Word; 16]) {
    let w = |k: usize| m[SIGMA[ROUND][k] as usize];
    let r = V::ROTATIONS;
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
fn compress<V: Variant>(h: &mut [V::Word; 8], block: &[u8], count: u128, f0: bool, f1: bool) {
    let word_bytes = <V::Word as Word>::BYTES;
    let mut m = [V::Word::default(); 16];
    for (w, bytes) in m
        .iter_mut()
        .zip(block[..V::BLOCKBYTES].chunks_exact(word_bytes))
    {
        *w = V::Word::from_le(bytes);
    }
    let flag = |set: bool| V::Word::truncate(if set { u128::MAX } else { 0 });
    let mut v = [V::Word::default(); 16];
    v[..8].copy_from_slice(h);
    v[8..].copy_from_slice(&V::IV);
    v[12] = v[12] ^ V::Word::truncate(count);
    v[13] = v[13] ^ V::Word::truncate(count >> (8 * word_bytes));
    v[14] = v[14] ^ flag(f0);
    v[15] = v[15] ^ flag(f1);
    // Unrolled, so that every message index is a constant: as a loop over SIGMA's rows, LLVM
    // read each round's sixteen indices from memory, bounds-checked and spilled them, and
    // added the words through them.
    round::<V, 0>(&mut v, &m);
    round::<V, 1>(&mut v, &m);
    round::<V, 2>(&mut v, &m);
    round::<V, 3>(&mut v, &m);
    round::<V, 4>(&mut v, &m);
    round::<V, 5>(&mut v, &m);
    round::<V, 6>(&mut v, &m);
    round::<V, 7>(&mut v, &m);
    round::<V, 8>(&mut v, &m);
    round::<V, 9>(&mut v, &m);
    // BLAKE2b's two more rounds (a constant condition).
    if V::ROUNDS == 12 {
        round::<V, 10>(&mut v, &m);
        round::<V, 11>(&mut v, &m);
    }
    for i in 0..8 {
        h[i] = h[i] ^ v[i] ^ v[i + 8];
    }
}

/// See `Variant::compress_blocks`.
pub(crate) fn compress_blocks<V: Variant>(h: &mut [V::Word; 8], blocks: &[u8], count: &mut u128) {
    for block in blocks.chunks_exact(V::BLOCKBYTES) {
        *count = count.wrapping_add(V::BLOCKBYTES as u128);
        compress::<V>(h, block, *count, false, false);
    }
}

/// See `Variant::compress_final`.
pub(crate) fn compress_final<V: Variant>(
    h: &mut [V::Word; 8],
    block: &V::Block,
    count: u128,
    last_node: bool,
) {
    compress::<V>(h, block.as_ref(), count, true, last_node);
}

/// See `Variant::compress_lanes`: the lanes one after the other.
pub(crate) fn compress_lanes<V: Variant>(
    lanes: &mut [Lane<'_, V::Word>],
    blocks: usize,
    stride: usize,
) {
    for lane in lanes.iter_mut() {
        for j in 0..blocks {
            let block = &lane.input[j * stride..j * stride + V::BLOCKBYTES];
            match lane.last.filter(|_| j + 1 == blocks) {
                Some(last) => {
                    lane.count = lane.count.wrapping_add(last.len as u128);
                    compress::<V>(lane.h, block, lane.count, true, last.last_node);
                }
                None => {
                    lane.count = lane.count.wrapping_add(V::BLOCKBYTES as u128);
                    compress::<V>(lane.h, block, lane.count, false, false);
                }
            }
        }
    }
}
