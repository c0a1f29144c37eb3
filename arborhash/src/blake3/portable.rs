//! BLAKE3 in plain Rust: the fallback backend and the kernel every other backend is checked
//! against.

use super::kernels::{block_words, Group, Kernels, Lane, BLOCK_LEN, EMPTY_LANE, IV, MSG_SCHEDULE};

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

/// One round: the columns, then the diagonals, with the message words in `schedule`'s order.
#[inline(always)]
fn round(v: &mut [u32; 16], m: &[u32; 16], schedule: &[usize; 16]) {
    let w = |i: usize| m[schedule[i]];
    g(v, 0, 4, 8, 12, w(0), w(1));
    g(v, 1, 5, 9, 13, w(2), w(3));
    g(v, 2, 6, 10, 14, w(4), w(5));
    g(v, 3, 7, 11, 15, w(6), w(7));
    g(v, 0, 5, 10, 15, w(8), w(9));
    g(v, 1, 6, 11, 12, w(10), w(11));
    g(v, 2, 7, 8, 13, w(12), w(13));
    g(v, 3, 4, 9, 14, w(14), w(15));
}

/// The full 16-word state after the seven rounds, before the feed-forward. The rounds are
/// written out with constant message indices, rather than a loop that permutes the words, so
/// that no word is moved between rounds (where no SIMD backend applies, WebAssembly's portable
/// build among them, this is the whole cost).
#[inline(always)]
fn rounds(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u32; 16] {
    let m = block_words(block);
    let mut v = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        IV[0],
        IV[1],
        IV[2],
        IV[3],
        counter as u32,
        (counter >> 32) as u32,
        block_len as u32,
        flags as u32,
    ];
    round(&mut v, &m, &MSG_SCHEDULE[0]);
    round(&mut v, &m, &MSG_SCHEDULE[1]);
    round(&mut v, &m, &MSG_SCHEDULE[2]);
    round(&mut v, &m, &MSG_SCHEDULE[3]);
    round(&mut v, &m, &MSG_SCHEDULE[4]);
    round(&mut v, &m, &MSG_SCHEDULE[5]);
    round(&mut v, &m, &MSG_SCHEDULE[6]);
    v
}

/// Compresses `blocks` into `cv`, one after another, each with `block_len`, `counter` and
/// `flags`, the first with `flags_start` too: the blocks of one chunk but its last (the tree
/// keeps a chunk's last block for the node's output), or a single block.
pub(crate) fn compress_in_place(
    cv: &mut [u32; 8],
    blocks: &[[u8; BLOCK_LEN]],
    block_len: u8,
    counter: u64,
    flags: u8,
    flags_start: u8,
) {
    let mut block_flags = flags | flags_start;
    for block in blocks {
        let v = rounds(cv, block, block_len, counter, block_flags);
        for i in 0..8 {
            cv[i] = v[i] ^ v[i + 8];
        }
        block_flags = flags;
    }
}

/// The 64-byte output of a root compression.
pub(crate) fn compress_xof(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; 64] {
    let v = rounds(cv, block, block_len, counter, flags);
    let mut out = [0u8; 64];
    for i in 0..8 {
        out[4 * i..4 * i + 4].copy_from_slice(&(v[i] ^ v[i + 8]).to_le_bytes());
        out[32 + 4 * i..32 + 4 * i + 4].copy_from_slice(&(v[i + 8] ^ cv[i]).to_le_bytes());
    }
    out
}

/// The portable backend: one lane at a time, no vectors.
pub(crate) struct Portable;

impl Kernels for Portable {
    const DEGREE: usize = 1;

    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        compress_in_place(cv, blocks, block_len, counter, flags, flags_start)
    }

    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        let mut scratch = [EMPTY_LANE; 16];
        let (lanes, blocks, flags) = group.to_lanes(&mut scratch);
        hash_lanes(lanes, blocks, flags, out)
    }

    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        xof_many(cv, block, block_len, counter, flags, out)
    }
}

/// Each lane's blocks compressed one after another, the chaining value to `out`.
pub(crate) fn hash_lanes(lanes: &[Lane<'_>], blocks: usize, flags: u8, out: &mut [[u8; 32]]) {
    for (lane, out) in lanes.iter().zip(out.iter_mut()) {
        let mut cv = lane.cv;
        for (j, block) in lane.input.chunks_exact(BLOCK_LEN).enumerate() {
            let mut block_flags = flags;
            let mut block_len = BLOCK_LEN as u8;
            if j == 0 {
                block_flags |= lane.flags_start;
            }
            if j + 1 == blocks {
                block_flags |= lane.flags_end;
                block_len = lane.last_block_len;
            }
            compress_in_place(
                &mut cv,
                core::slice::from_ref(block.try_into().unwrap()),
                block_len,
                lane.counter,
                block_flags,
                0,
            );
        }
        for (bytes, word) in out.chunks_exact_mut(4).zip(cv) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
    }
}

pub(crate) fn xof_many(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    for (i, out_block) in out.chunks_exact_mut(BLOCK_LEN).enumerate() {
        out_block.copy_from_slice(&compress_xof(
            cv,
            block,
            block_len,
            counter.wrapping_add(i as u64),
            flags,
        ));
    }
}
