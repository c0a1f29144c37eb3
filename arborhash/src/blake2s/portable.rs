//! BLAKE2s in plain Rust: the fallback backend and the kernel every other backend is checked
//! against.

use super::kernels::BLOCKBYTES;
use super::IV;
use crate::blake2::{Lane, SIGMA};

#[inline(always)]
fn g(v: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize, x: u32, y: u32) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(12);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
    v[d] = (v[d] ^ v[a]).rotate_right(8);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(7);
}

/// The compression function F of RFC 7693 section 3.2, with BLAKE2s's word size and rounds.
/// BLAKE2s's counter is 64 bits; the high half of `count` is ignored.
#[inline(always)]
pub(crate) fn compress(h: &mut [u32; 8], block: &[u8], count: u128, f0: u32, f1: u32) {
    let mut m = [0u32; 16];
    for (w, bytes) in m.iter_mut().zip(block[..BLOCKBYTES].chunks_exact(4)) {
        *w = u32::from_le_bytes(bytes.try_into().unwrap());
    }
    let mut v = [0u32; 16];
    v[..8].copy_from_slice(h);
    v[8..].copy_from_slice(&IV);
    v[12] ^= count as u32;
    v[13] ^= (count >> 32) as u32;
    v[14] ^= f0;
    v[15] ^= f1;
    for s in &SIGMA[..10] {
        g(&mut v, 0, 4, 8, 12, m[s[0] as usize], m[s[1] as usize]);
        g(&mut v, 1, 5, 9, 13, m[s[2] as usize], m[s[3] as usize]);
        g(&mut v, 2, 6, 10, 14, m[s[4] as usize], m[s[5] as usize]);
        g(&mut v, 3, 7, 11, 15, m[s[6] as usize], m[s[7] as usize]);
        g(&mut v, 0, 5, 10, 15, m[s[8] as usize], m[s[9] as usize]);
        g(&mut v, 1, 6, 11, 12, m[s[10] as usize], m[s[11] as usize]);
        g(&mut v, 2, 7, 8, 13, m[s[12] as usize], m[s[13] as usize]);
        g(&mut v, 3, 4, 9, 14, m[s[14] as usize], m[s[15] as usize]);
    }
    for i in 0..8 {
        h[i] ^= v[i] ^ v[i + 8];
    }
}

pub(crate) fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
    for block in blocks.chunks_exact(BLOCKBYTES) {
        *count = count.wrapping_add(BLOCKBYTES as u128);
        compress(h, block, *count, 0, 0);
    }
}

pub(crate) fn compress_final(
    h: &mut [u32; 8],
    block: &[u8; BLOCKBYTES],
    count: u128,
    last_node: bool,
) {
    compress(h, block, count, !0, if last_node { !0 } else { 0 });
}

pub(crate) fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
    for lane in lanes.iter_mut() {
        for j in 0..blocks {
            let block = &lane.input[j * stride..j * stride + BLOCKBYTES];
            let last = lane.last.filter(|_| j + 1 == blocks);
            let (len, f0, f1) = match last {
                Some(l) => (l.len, !0, if l.last_node { !0 } else { 0 }),
                None => (BLOCKBYTES, 0, 0),
            };
            lane.count = lane.count.wrapping_add(len as u128);
            compress(lane.h, block, lane.count, f0, f1);
        }
    }
}
