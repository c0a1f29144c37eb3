//! BLAKE2 kernels for AArch64 NEON: [`b`] for BLAKE2b, [`s`] for BLAKE2s, each with the three
//! functions of the backend's `Kernels` implementation, and what the two share: walking a group of lanes
//! block by block with each lane's counter and finalization flags, and the single-stream entry
//! points' bodies ([`RowKernel`]).

use super::kernels::{Kernels, Lane, LastNode, Word, SIGMA};

/// SIGMA's rows as `usize` indices, for the vector kernels' message order.
pub(crate) const SCHEDULE: [[usize; 16]; 12] = {
    let mut schedule = [[0; 16]; 12];
    let mut r = 0;
    while r < 12 {
        let mut i = 0;
        while i < 16 {
            schedule[r][i] = SIGMA[r][i] as usize;
            i += 1;
        }
        r += 1;
    }
    schedule
};

/// The counter and flags of one lane's block: `t` after the block, `f0`, `f1`.
#[derive(Clone, Copy, Default)]
pub(crate) struct BlockParams {
    pub t: u128,
    pub f0: bool,
    pub f1: bool,
}

/// Advances lane `lane`'s counter over its block `j` of `blocks` (the final block adds its
/// length and sets the flags if the lane ends there) and returns the block's parameters.
#[inline(always)]
pub(crate) fn next_block<W: Word>(
    lane: &mut Lane<'_, W>,
    block_bytes: usize,
    j: usize,
    blocks: usize,
) -> BlockParams {
    match lane.last.filter(|_| j + 1 == blocks) {
        Some(last) => {
            lane.count = lane.count.wrapping_add(last.len as u128);
            BlockParams {
                t: lane.count,
                f0: true,
                f1: last.last_node.is_set(),
            }
        }
        None => {
            lane.count = lane.count.wrapping_add(block_bytes as u128);
            BlockParams {
                t: lane.count,
                f0: false,
                f1: false,
            }
        }
    }
}

/// All ones if `set`, else zero: a finalization flag word.
#[inline(always)]
pub(crate) fn flag_word<W: Word>(set: bool) -> W {
    W::truncate(if set { u128::MAX } else { 0 })
}

/// A variant's single-stream NEON kernel: the chaining value held in vectors (`Self::Rows`) and
/// one block's compression into it. The bodies of the entry points are written once below.
pub(crate) trait RowKernel {
    type Word: Word;
    type Rows: Copy;
    const BLOCKBYTES: usize;
    /// The chaining value into vectors.
    unsafe fn load(h: &[Self::Word; 8]) -> Self::Rows;
    unsafe fn store(h: &mut [Self::Word; 8], rows: Self::Rows);
    /// Compresses the block at `block` (`BLOCKBYTES` readable bytes) into `rows`.
    unsafe fn compress(rows: &mut Self::Rows, block: *const u8, p: BlockParams);
}

// SAFETY (the three functions below): only inlined into the variants' `#[target_feature(enable
// = "neon")]` entry points; the block pointers come from the callers' checked slices.

/// `compress_blocks`: each whole block, none final, `BLOCKBYTES` added to `count` before each.
#[inline(always)]
pub(crate) unsafe fn compress_blocks<K: RowKernel>(
    h: &mut [K::Word; 8],
    blocks: &[u8],
    count: &mut u128,
) {
    unsafe {
        let mut rows = K::load(h);
        for block in blocks.chunks_exact(K::BLOCKBYTES) {
            *count = count.wrapping_add(K::BLOCKBYTES as u128);
            let p = BlockParams {
                t: *count,
                ..BlockParams::default()
            };
            K::compress(&mut rows, block.as_ptr(), p);
        }
        K::store(h, rows);
    }
}

/// `compress_final`: the final block, f0 set, f1 when `last_node`.
#[inline(always)]
pub(crate) unsafe fn compress_final<K: RowKernel>(
    h: &mut [K::Word; 8],
    block: &[u8],
    count: u128,
    last_node: bool,
) {
    debug_assert_eq!(block.len(), K::BLOCKBYTES);
    unsafe {
        let mut rows = K::load(h);
        let p = BlockParams {
            t: count,
            f0: true,
            f1: last_node,
        };
        K::compress(&mut rows, block.as_ptr(), p);
        K::store(h, rows);
    }
}

/// One lane of `compress_lanes` in rows. The lane's input must hold
/// `(blocks - 1) * stride + BLOCKBYTES` bytes.
#[inline(always)]
pub(crate) unsafe fn compress_lane<K: RowKernel>(
    lane: &mut Lane<'_, K::Word>,
    blocks: usize,
    stride: usize,
) {
    unsafe {
        let mut rows = K::load(lane.h);
        for j in 0..blocks {
            let p = next_block(lane, K::BLOCKBYTES, j, blocks);
            K::compress(&mut rows, lane.input.as_ptr().add(j * stride), p);
        }
        K::store(lane.h, rows);
    }
}

pub(crate) mod b {
    //! BLAKE2b kernels for AArch64 NEON, written from RFC 7693: two 64-bit words to a vector.
    //!
    //! Single stream (`compress_blocks`, `compress_final`): each row of the state in two vectors.
    //! The column step runs the four column G at once; rotating rows a and c by one word (across
    //! their two vectors, with `ext`) and swapping row d's halves lines the diagonals up as
    //! columns. The message vectors of each round are pairs of words picked from the block's eight
    //! registers, one instruction each.
    //!
    //! Multi-lane (`compress_lanes`): two lanes at once, one per 64-bit element ("transposed");
    //! a group of one lane runs in rows.

    use core::arch::aarch64::*;

    use super::{self as row_kernel, flag_word, next_block, BlockParams, RowKernel, SCHEDULE};
    use crate::arch::aarch64::neon::{round_lanes, GLanes};
    use crate::blake2::kernels::b::BLOCKBYTES;
    use crate::blake2::kernels::b::IV;
    use crate::blake2::kernels::Lane;

    type V = uint64x2_t;

    /// Byte indices of `tbl` rotating every 64-bit word right by 24 and by 16 bits.
    const ROT24: [u8; 16] = [3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10];
    const ROT16: [u8; 16] = [2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9];

    // SAFETY (every `#[inline(always)]` helper): only inlined into this file's
    // `#[target_feature(enable = "neon")]` entry points; pointers as each says.

    #[inline(always)]
    unsafe fn add(a: V, b: V) -> V {
        unsafe { vaddq_u64(a, b) }
    }
    #[inline(always)]
    unsafe fn xor(a: V, b: V) -> V {
        unsafe { veorq_u64(a, b) }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> V {
        unsafe { vdupq_n_u64(x) }
    }
    #[inline(always)]
    unsafe fn pair(lo: u64, hi: u64) -> V {
        unsafe { vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)) }
    }
    #[inline(always)]
    unsafe fn rot32(x: V) -> V {
        unsafe { vreinterpretq_u64_u32(vrev64q_u32(vreinterpretq_u32_u64(x))) }
    }
    #[inline(always)]
    unsafe fn rot_bytes(x: V, idx: &[u8; 16]) -> V {
        unsafe { vreinterpretq_u64_u8(vqtbl1q_u8(vreinterpretq_u8_u64(x), vld1q_u8(idx.as_ptr()))) }
    }
    #[inline(always)]
    unsafe fn rot63(x: V) -> V {
        unsafe { vsriq_n_u64::<63>(add(x, x), x) }
    }

    impl GLanes for V {
        /// G of BLAKE2b: two independent G at once, one per element.
        #[inline(always)]
        unsafe fn g(a: &mut V, b: &mut V, c: &mut V, d: &mut V, x: V, y: V) {
            unsafe {
                *a = add(add(*a, *b), x);
                *d = rot32(xor(*d, *a));
                *c = add(*c, *d);
                *b = rot_bytes(xor(*b, *c), &ROT24);
                *a = add(add(*a, *b), y);
                *d = rot_bytes(xor(*d, *a), &ROT16);
                *c = add(*c, *d);
                *b = rot63(xor(*b, *c));
            }
        }
    }

    /// G of BLAKE2b on two columns at once (the rows' form).
    #[inline(always)]
    unsafe fn g(a: &mut V, b: &mut V, c: &mut V, d: &mut V, x: V, y: V) {
        unsafe { <V as GLanes>::g(a, b, c, d, x, y) }
    }

    /// The block's words `i` and `j` in one vector, from its registers `m` (words 2k and 2k + 1 in
    /// `m[k]`): one instruction for any pair (constant after inlining).
    #[inline(always)]
    unsafe fn words(m: &[V; 8], i: usize, j: usize) -> V {
        let (x, y) = (m[i / 2], m[j / 2]);
        unsafe {
            match (i % 2, j % 2) {
                (0, 0) => vtrn1q_u64(x, y),
                (1, 1) => vtrn2q_u64(x, y),
                (1, _) => vextq_u64::<1>(x, y),
                _ => vcopyq_laneq_u64::<1, 1>(x, y),
            }
        }
    }

    /// One round on rows [a, b, c, d] of two vectors each, whose message word `i` is block word
    /// `s[i]`.
    #[inline(always)]
    unsafe fn round_rows(rows: &mut [[V; 2]; 4], m: &[V; 8], s: &[usize; 16]) {
        let [a, b, c, d] = rows;
        let w = |i: usize, j: usize| unsafe { words(m, s[i], s[j]) };
        unsafe {
            g(&mut a[0], &mut b[0], &mut c[0], &mut d[0], w(0, 2), w(1, 3));
            g(&mut a[1], &mut b[1], &mut c[1], &mut d[1], w(4, 6), w(5, 7));
            // Word j of b meets a's word j - 1, c's j + 1 and d's j + 2.
            *a = [vextq_u64::<1>(a[1], a[0]), vextq_u64::<1>(a[0], a[1])];
            *c = [vextq_u64::<1>(c[0], c[1]), vextq_u64::<1>(c[1], c[0])];
            *d = [d[1], d[0]];
            g(
                &mut a[0],
                &mut b[0],
                &mut c[0],
                &mut d[0],
                w(14, 8),
                w(15, 9),
            );
            g(
                &mut a[1],
                &mut b[1],
                &mut c[1],
                &mut d[1],
                w(10, 12),
                w(11, 13),
            );
            *a = [vextq_u64::<1>(a[0], a[1]), vextq_u64::<1>(a[1], a[0])];
            *c = [vextq_u64::<1>(c[1], c[0]), vextq_u64::<1>(c[0], c[1])];
            *d = [d[1], d[0]];
        }
    }

    /// Calls `$round(state, message, schedule row)` for BLAKE2b's twelve rounds, written out so
    /// that every message index is a constant.
    macro_rules! twelve_rounds {
        ($round:ident, $v:expr, $m:expr) => {
            $round($v, $m, &SCHEDULE[0]);
            $round($v, $m, &SCHEDULE[1]);
            $round($v, $m, &SCHEDULE[2]);
            $round($v, $m, &SCHEDULE[3]);
            $round($v, $m, &SCHEDULE[4]);
            $round($v, $m, &SCHEDULE[5]);
            $round($v, $m, &SCHEDULE[6]);
            $round($v, $m, &SCHEDULE[7]);
            $round($v, $m, &SCHEDULE[8]);
            $round($v, $m, &SCHEDULE[9]);
            $round($v, $m, &SCHEDULE[10]);
            $round($v, $m, &SCHEDULE[11]);
        };
    }

    #[inline(always)]
    unsafe fn load_block(block: *const u8) -> [V; 8] {
        unsafe {
            let lo = vld1q_u64_x4(block.cast());
            let hi = vld1q_u64_x4(block.add(64).cast());
            [lo.0, lo.1, lo.2, lo.3, hi.0, hi.1, hi.2, hi.3]
        }
    }

    /// Compresses the 128-byte block at `block` into the chaining value `h` (four vectors).
    #[inline(always)]
    unsafe fn compress_rows(h: &mut [V; 4], block: *const u8, p: BlockParams) {
        unsafe {
            let m = load_block(block);
            let c = [pair(IV[0], IV[1]), pair(IV[2], IV[3])];
            let d = [
                xor(pair(IV[4], IV[5]), pair(p.t as u64, (p.t >> 64) as u64)),
                xor(pair(IV[6], IV[7]), pair(flag_word(p.f0), flag_word(p.f1))),
            ];
            let mut rows = [[h[0], h[1]], [h[2], h[3]], c, d];
            twelve_rounds!(round_rows, &mut rows, &m);
            let [a, b, c, d] = rows;
            *h = [
                xor(h[0], xor(a[0], c[0])),
                xor(h[1], xor(a[1], c[1])),
                xor(h[2], xor(b[0], d[0])),
                xor(h[3], xor(b[1], d[1])),
            ];
        }
    }

    #[inline(always)]
    unsafe fn load_h(h: &[u64; 8]) -> [V; 4] {
        unsafe {
            let x = vld1q_u64_x4(h.as_ptr());
            [x.0, x.1, x.2, x.3]
        }
    }

    #[inline(always)]
    unsafe fn store_h(h: &mut [u64; 8], v: [V; 4]) {
        unsafe { vst1q_u64_x4(h.as_mut_ptr(), uint64x2x4_t(v[0], v[1], v[2], v[3])) }
    }

    /// The single stream's kernel for the shared drivers.
    struct Rows;

    impl RowKernel for Rows {
        type Word = u64;
        type Rows = [V; 4];
        const BLOCKBYTES: usize = BLOCKBYTES;
        #[inline(always)]
        unsafe fn load(h: &[u64; 8]) -> [V; 4] {
            unsafe { load_h(h) }
        }
        #[inline(always)]
        unsafe fn store(h: &mut [u64; 8], rows: [V; 4]) {
            unsafe { store_h(h, rows) }
        }
        #[inline(always)]
        unsafe fn compress(rows: &mut [V; 4], block: *const u8, p: BlockParams) {
            unsafe { compress_rows(rows, block, p) }
        }
    }

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: NEON is enabled here.
        unsafe { row_kernel::compress_blocks::<Rows>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: NEON is enabled here; `block` is one block.
        unsafe { row_kernel::compress_final::<Rows>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks of two lanes.
    #[inline(always)]
    unsafe fn compress_pair(lanes: &mut [Lane<'_, u64>; 2], blocks: usize, stride: usize) {
        unsafe {
            let [h0, h1] = [load_h(lanes[0].h), load_h(lanes[1].h)];
            let mut h: [V; 8] = core::array::from_fn(|i| {
                let (x, y) = (h0[i / 2], h1[i / 2]);
                if i % 2 == 0 {
                    vtrn1q_u64(x, y)
                } else {
                    vtrn2q_u64(x, y)
                }
            });
            for j in 0..blocks {
                let p = [0, 1].map(|l| next_block(&mut lanes[l], BLOCKBYTES, j, blocks));
                let b0 = load_block(lanes[0].input.as_ptr().add(j * stride));
                let b1 = load_block(lanes[1].input.as_ptr().add(j * stride));
                let m: [V; 16] = core::array::from_fn(|i| {
                    if i % 2 == 0 {
                        vtrn1q_u64(b0[i / 2], b1[i / 2])
                    } else {
                        vtrn2q_u64(b0[i / 2], b1[i / 2])
                    }
                });
                let mut v = [
                    h[0],
                    h[1],
                    h[2],
                    h[3],
                    h[4],
                    h[5],
                    h[6],
                    h[7],
                    splat(IV[0]),
                    splat(IV[1]),
                    splat(IV[2]),
                    splat(IV[3]),
                    xor(splat(IV[4]), pair(p[0].t as u64, p[1].t as u64)),
                    xor(
                        splat(IV[5]),
                        pair((p[0].t >> 64) as u64, (p[1].t >> 64) as u64),
                    ),
                    xor(splat(IV[6]), pair(flag_word(p[0].f0), flag_word(p[1].f0))),
                    xor(splat(IV[7]), pair(flag_word(p[0].f1), flag_word(p[1].f1))),
                ];
                twelve_rounds!(round_lanes, &mut v, &m);
                for i in 0..8 {
                    h[i] = xor(h[i], xor(v[i], v[i + 8]));
                }
            }
            for (l, lane) in lanes.iter_mut().enumerate() {
                let pick = |i: usize| {
                    let (x, y) = (h[2 * i], h[2 * i + 1]);
                    if l == 0 {
                        vtrn1q_u64(x, y)
                    } else {
                        vtrn2q_u64(x, y)
                    }
                };
                store_h(lane.h, [pick(0), pick(1), pick(2), pick(3)]);
            }
        }
    }

    /// Compresses `blocks` blocks in every lane, two lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support NEON, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by
    /// `dispatch.rs`).
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        for group in lanes.chunks_mut(2) {
            // SAFETY: NEON is enabled here; the input lengths are the caller's contract.
            unsafe {
                match group {
                    [lane] => row_kernel::compress_lane::<Rows>(lane, blocks, stride),
                    pair => compress_pair(pair.try_into().expect("two lanes"), blocks, stride),
                }
            }
        }
    }
}

pub(crate) mod s {
    //! BLAKE2s kernels for AArch64 NEON, written from RFC 7693.
    //!
    //! Single stream (`compress_blocks`, `compress_final`): the state's four rows in four vectors,
    //! the rounds of `crate::arch::aarch64::neon::rounds_rows` (BLAKE2s's G is BLAKE3's), each round's message
    //! vectors gathered from the block's registers with one table lookup each.
    //!
    //! Multi-lane (`compress_lanes`): four lanes at once, one per 32-bit element of each vector
    //! ("transposed"); groups of one or two lanes run in rows instead, which costs fewer
    //! instructions than a four-lane pass.

    use core::arch::aarch64::vld1q_u32;

    use super::{self as row_kernel, flag_word, next_block, BlockParams, RowKernel, SCHEDULE};
    use crate::arch::aarch64::neon::{
        load_blocks4, round_lanes, rounds_rows, row_message, splat, transpose, words, xor, V,
    };
    use crate::blake2::kernels::s::BLOCKBYTES;
    use crate::blake2::kernels::s::IV;
    use crate::blake2::kernels::Lane;

    /// BLAKE2s's ten rounds.
    const ROUNDS: [[usize; 16]; 10] = {
        let mut rounds = [[0; 16]; 10];
        let mut r = 0;
        while r < 10 {
            rounds[r] = SCHEDULE[r];
            r += 1;
        }
        rounds
    };

    /// The `tbl` indices of each round's message vectors in rows.
    const ROW_MESSAGE: [[[u8; 16]; 4]; 10] = row_message(&ROUNDS);

    // SAFETY (every `#[inline(always)]` helper): only inlined into this file's
    // `#[target_feature(enable = "neon")]` entry points; pointers as each says.

    /// Compresses the 64-byte block at `block` into the chaining value rows `h`.
    #[inline(always)]
    unsafe fn compress_rows(h: &mut [V; 2], block: *const u8, p: BlockParams) {
        unsafe {
            let c = vld1q_u32(IV.as_ptr());
            let d = xor(
                vld1q_u32(IV.as_ptr().add(4)),
                words([
                    p.t as u32,
                    (p.t >> 32) as u32,
                    flag_word(p.f0),
                    flag_word(p.f1),
                ]),
            );
            let [a, b, c, d] = rounds_rows([h[0], h[1], c, d], block, &ROW_MESSAGE);
            *h = [xor(h[0], xor(a, c)), xor(h[1], xor(b, d))];
        }
    }

    #[inline(always)]
    unsafe fn load_h(h: &[u32; 8]) -> [V; 2] {
        unsafe { [vld1q_u32(h.as_ptr()), vld1q_u32(h.as_ptr().add(4))] }
    }

    #[inline(always)]
    unsafe fn store_h(h: &mut [u32; 8], v: [V; 2]) {
        unsafe {
            core::arch::aarch64::vst1q_u32(h.as_mut_ptr(), v[0]);
            core::arch::aarch64::vst1q_u32(h.as_mut_ptr().add(4), v[1]);
        }
    }

    /// The single stream's kernel for the shared drivers.
    struct Rows;

    impl RowKernel for Rows {
        type Word = u32;
        type Rows = [V; 2];
        const BLOCKBYTES: usize = BLOCKBYTES;
        #[inline(always)]
        unsafe fn load(h: &[u32; 8]) -> [V; 2] {
            unsafe { load_h(h) }
        }
        #[inline(always)]
        unsafe fn store(h: &mut [u32; 8], rows: [V; 2]) {
            unsafe { store_h(h, rows) }
        }
        #[inline(always)]
        unsafe fn compress(rows: &mut [V; 2], block: *const u8, p: BlockParams) {
            unsafe { compress_rows(rows, block, p) }
        }
    }

    /// Compresses each whole block of `blocks` (none final), adding `BLOCKBYTES` to `count` before
    /// each; the semantics of `portable::compress_blocks`.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        // SAFETY: NEON is enabled here.
        unsafe { row_kernel::compress_blocks::<Rows>(h, blocks, count) }
    }

    /// Compresses the final block with f0 set (and f1 when `last_node`); the semantics of
    /// `portable::compress_final`.
    ///
    /// # Safety
    /// The CPU must support NEON.
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn compress_final(
        h: &mut [u32; 8],
        block: &[u8; BLOCKBYTES],
        count: u128,
        last_node: bool,
    ) {
        // SAFETY: NEON is enabled here; `block` is one block.
        unsafe { row_kernel::compress_final::<Rows>(h, block, count, last_node) }
    }

    /// Compresses `blocks` blocks of four lanes (the first `n` real, the others copies of lane
    /// `n - 1` whose results are dropped).
    #[inline(always)]
    unsafe fn compress_group4(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        let n = lanes.len();
        let pick = |l: usize| l.min(n - 1);
        let inputs: [*const u8; 4] = core::array::from_fn(|l| lanes[pick(l)].input.as_ptr());
        unsafe {
            let rows =
                |k: usize| transpose(core::array::from_fn(|l| load_h(&*lanes[pick(l)].h)[k]));
            let (lo, hi) = (rows(0), rows(1));
            let mut h = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
            for j in 0..blocks {
                let mut params = [BlockParams::default(); 4];
                for (p, lane) in params.iter_mut().zip(lanes.iter_mut()) {
                    *p = next_block(lane, BLOCKBYTES, j, blocks);
                }
                for l in n..4 {
                    params[l] = params[n - 1];
                }
                let m = load_blocks4(&inputs, j * stride);
                let mut v = [
                    h[0],
                    h[1],
                    h[2],
                    h[3],
                    h[4],
                    h[5],
                    h[6],
                    h[7],
                    splat(IV[0]),
                    splat(IV[1]),
                    splat(IV[2]),
                    splat(IV[3]),
                    xor(splat(IV[4]), words(params.map(|p| p.t as u32))),
                    xor(splat(IV[5]), words(params.map(|p| (p.t >> 32) as u32))),
                    xor(splat(IV[6]), words(params.map(|p| flag_word(p.f0)))),
                    xor(splat(IV[7]), words(params.map(|p| flag_word(p.f1)))),
                ];
                // Written out so that every message index is a constant.
                round_lanes(&mut v, &m, &ROUNDS[0]);
                round_lanes(&mut v, &m, &ROUNDS[1]);
                round_lanes(&mut v, &m, &ROUNDS[2]);
                round_lanes(&mut v, &m, &ROUNDS[3]);
                round_lanes(&mut v, &m, &ROUNDS[4]);
                round_lanes(&mut v, &m, &ROUNDS[5]);
                round_lanes(&mut v, &m, &ROUNDS[6]);
                round_lanes(&mut v, &m, &ROUNDS[7]);
                round_lanes(&mut v, &m, &ROUNDS[8]);
                round_lanes(&mut v, &m, &ROUNDS[9]);
                for i in 0..8 {
                    h[i] = xor(h[i], xor(v[i], v[i + 8]));
                }
            }
            let lo = transpose([h[0], h[1], h[2], h[3]]);
            let hi = transpose([h[4], h[5], h[6], h[7]]);
            for (l, lane) in lanes.iter_mut().enumerate() {
                store_h(lane.h, [lo[l], hi[l]]);
            }
        }
    }

    /// Compresses `blocks` blocks in every lane, four lanes at a time; the semantics of
    /// `portable::compress_lanes`.
    ///
    /// # Safety
    /// The CPU must support NEON, and every lane's input must hold
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes when `blocks > 0` (checked by
    /// `dispatch.rs`).
    #[target_feature(enable = "neon")]
    pub(crate) unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        for group in lanes.chunks_mut(4) {
            // SAFETY: NEON is enabled here; the input lengths are the caller's contract.
            unsafe {
                if group.len() > 2 {
                    compress_group4(group, blocks, stride);
                    continue;
                }
                for lane in group.iter_mut() {
                    row_kernel::compress_lane::<Rows>(lane, blocks, stride);
                }
            }
        }
    }
}

/// The NEON backend.
pub(crate) struct Neon;

impl Kernels<u64> for Neon {
    const DEGREE: usize = 2;

    // SAFETY (the three calls): the caller's contract is this backend's.
    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        unsafe { b::compress_blocks(h, blocks, count) }
    }

    #[inline(always)]
    unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; 128],
        count: u128,
        last_node: LastNode,
    ) {
        unsafe { b::compress_final(h, block, count, last_node.is_set()) }
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        unsafe { b::compress_lanes(lanes, blocks, stride) }
    }
}

impl Kernels<u32> for Neon {
    const DEGREE: usize = 4;

    // SAFETY (the three calls): the caller's contract is this backend's.
    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        unsafe { s::compress_blocks(h, blocks, count) }
    }

    #[inline(always)]
    unsafe fn compress_final(h: &mut [u32; 8], block: &[u8; 64], count: u128, last_node: LastNode) {
        unsafe { s::compress_final(h, block, count, last_node.is_set()) }
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        unsafe { s::compress_lanes(lanes, blocks, stride) }
    }
}
