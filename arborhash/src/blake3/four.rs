//! What the BLAKE3 backends with four 32-bit words to a vector (NEON, SIMD128) share, written
//! once over the vector type: four lanes transposed ([`hash4`], [`xof4`]), a state word per
//! vector, for groups and extended output; and one state in rows ([`Rows::compress_rows`], the
//! one function each backend writes itself) for single blocks, chains, the last blocks of
//! extended output and groups of at most [`Rows::ROWS_UP_TO`] lanes.
//!
//! Everything here is `unsafe` and `#[inline(always)]`, only compiled into a backend's
//! `#[target_feature]` entry points.

use super::kernels::{block_words, Group, Lane, Run, BLOCK_LEN, IV, MSG_SCHEDULE};
use crate::arch::words4::Words4;

/// A backend with four 32-bit words to a vector: its vector type and its rounds in rows.
pub(super) trait Rows {
    type V: Words4;
    /// Groups of at most this many lanes are hashed lane by lane in rows, which runs fewer
    /// instructions there than four lanes transposed with some of them idle.
    const ROWS_UP_TO: usize;
    /// The rows [a, b, c, d] after the seven rounds of one state, from the chaining value `cv`
    /// (rows a and b) on `block`.
    unsafe fn compress_rows(
        cv: [Self::V; 2],
        block: &[u8; BLOCK_LEN],
        counter: u64,
        block_len: u8,
        flags: u8,
    ) -> [Self::V; 4];
}

/// The seven rounds on four lanes' states, written out so that every message index is a
/// constant.
#[inline(always)]
unsafe fn rounds4<V: Words4>(v: &mut [V; 16], m: &[V; 16]) {
    unsafe {
        V::round4(v, m, &MSG_SCHEDULE[0]);
        V::round4(v, m, &MSG_SCHEDULE[1]);
        V::round4(v, m, &MSG_SCHEDULE[2]);
        V::round4(v, m, &MSG_SCHEDULE[3]);
        V::round4(v, m, &MSG_SCHEDULE[4]);
        V::round4(v, m, &MSG_SCHEDULE[5]);
        V::round4(v, m, &MSG_SCHEDULE[6]);
    }
}

/// The initial states of four lanes.
#[inline(always)]
unsafe fn state4<V: Words4>(h: &[V; 8], counter: [V; 2], block_len: V, flags: V) -> [V; 16] {
    let iv = unsafe { V::splat4(IV[..4].try_into().unwrap()) };
    [
        h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], iv[0], iv[1], iv[2], iv[3], counter[0],
        counter[1], block_len, flags,
    ]
}

/// The low and high counter words of four lanes.
#[inline(always)]
unsafe fn counter_words<V: Words4>(counters: [u64; 4]) -> [V; 2] {
    unsafe {
        [
            V::words(counters.map(|c| c as u32)),
            V::words(counters.map(|c| (c >> 32) as u32)),
        ]
    }
}

/// What differs between the four lanes of a group.
struct Lanes4 {
    /// Each lane's input, `blocks * BLOCK_LEN` readable bytes.
    inputs: [*const u8; 4],
    /// Each lane's chaining value at the start, eight words.
    cvs: [*const u32; 4],
    counters: [u64; 4],
    flags_start: [u8; 4],
    flags_end: [u8; 4],
    last_block_len: [u8; 4],
}

impl Lanes4 {
    /// The lanes of `run` (at most four).
    #[inline(always)]
    fn of_run(run: &Run<'_>) -> Lanes4 {
        let mut lanes = Lanes4 {
            inputs: [core::ptr::null(); 4],
            cvs: [run.key.as_ptr(); 4],
            counters: [0; 4],
            flags_start: [run.flags_start; 4],
            flags_end: [run.flags_end; 4],
            last_block_len: [BLOCK_LEN as u8; 4],
        };
        let lane_len = run.blocks * BLOCK_LEN;
        for (l, input) in run.input.chunks_exact(lane_len).take(4).enumerate() {
            lanes.inputs[l] = input.as_ptr();
            lanes.counters[l] = run.counter.wrapping_add(run.step * l as u64);
        }
        lanes
    }

    /// The first four lanes or fewer.
    #[inline(always)]
    fn of_lanes(lanes: &[Lane<'_>]) -> Lanes4 {
        let mut group = Lanes4 {
            inputs: [core::ptr::null(); 4],
            cvs: [core::ptr::null(); 4],
            counters: [0; 4],
            flags_start: [0; 4],
            flags_end: [0; 4],
            last_block_len: [0; 4],
        };
        for (l, lane) in lanes.iter().take(4).enumerate() {
            group.inputs[l] = lane.input.as_ptr();
            group.cvs[l] = lane.cv.as_ptr();
            group.counters[l] = lane.counter;
            group.flags_start[l] = lane.flags_start;
            group.flags_end[l] = lane.flags_end;
            group.last_block_len[l] = lane.last_block_len;
        }
        group
    }
}

/// Hashes `blocks` blocks in each lane of `group` into `out` (32 writable bytes a lane).
#[inline(always)]
unsafe fn hash4<V: Words4>(group: &Lanes4, blocks: usize, flags: u8, out: [*mut u8; 4]) {
    unsafe {
        let counter = counter_words::<V>(group.counters);
        let lo = V::load_transposed4(group.cvs.map(|cv| cv.cast()));
        let hi = V::load_transposed4(group.cvs.map(|cv| cv.add(4).cast()));
        let mut h = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
        // Indexed by first (1) and last (2), so that each block picks them rather than
        // computing them.
        let flags = V::splat(u32::from(flags));
        let flags_start = V::or(flags, V::words(group.flags_start.map(u32::from)));
        let flags_end = V::words(group.flags_end.map(u32::from));
        let len = V::splat(BLOCK_LEN as u32);
        let last_len = V::words(group.last_block_len.map(u32::from));
        let ends = [
            [len, flags],
            [len, flags_start],
            [last_len, V::or(flags, flags_end)],
            [last_len, V::or(flags_start, flags_end)],
        ];
        for j in 0..blocks {
            let m = V::load_blocks4(&group.inputs, j * BLOCK_LEN);
            let [block_len, block_flags] =
                ends[usize::from(j == 0) | usize::from(j + 1 == blocks) << 1];
            let mut v = state4(&h, counter, block_len, block_flags);
            rounds4(&mut v, &m);
            for i in 0..8 {
                h[i] = V::xor(v[i], v[i + 8]);
            }
        }
        V::store_transposed4([h[0], h[1], h[2], h[3]], out);
        V::store_transposed4([h[4], h[5], h[6], h[7]], out.map(|p| p.add(16)));
    }
}

/// The root outputs of `block` under `cv` at counters `counter` to `counter + 3`.
#[inline(always)]
unsafe fn xof4<V: Words4>(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; 4 * BLOCK_LEN] {
    unsafe {
        let m = block_words(block).map(|w| V::splat(w));
        let h = cv.map(|w| V::splat(w));
        let counters = [0, 1, 2, 3].map(|i| counter.wrapping_add(i));
        let mut v = state4(
            &h,
            counter_words(counters),
            V::splat(u32::from(block_len)),
            V::splat(u32::from(flags)),
        );
        rounds4(&mut v, &m);
        let mut words = [V::splat(0); 16];
        for i in 0..8 {
            words[i] = V::xor(v[i], v[i + 8]);
            words[i + 8] = V::xor(v[i + 8], h[i]);
        }
        let mut out = [0u8; 4 * BLOCK_LEN];
        for q in 0..4 {
            let t = V::transpose([
                words[4 * q],
                words[4 * q + 1],
                words[4 * q + 2],
                words[4 * q + 3],
            ]);
            for (l, row) in t.into_iter().enumerate() {
                V::store(out.as_mut_ptr().add(l * BLOCK_LEN + 16 * q), row);
            }
        }
        out
    }
}

/// A chaining value as rows a and b.
#[inline(always)]
unsafe fn load_cv<V: Words4>(cv: &[u32; 8]) -> [V; 2] {
    unsafe {
        [
            V::load(cv.as_ptr().cast()),
            V::load(cv.as_ptr().add(4).cast()),
        ]
    }
}

/// Lane `l` of `group`'s shape, in rows.
#[inline(always)]
unsafe fn hash_lane_rows<B: Rows>(group: &Lanes4, l: usize, blocks: usize, flags: u8) -> [u8; 32] {
    unsafe {
        let mut h = load_cv::<B::V>(&*group.cvs[l].cast::<[u32; 8]>());
        for j in 0..blocks {
            let mut block_flags = flags;
            let mut block_len = BLOCK_LEN as u8;
            if j == 0 {
                block_flags |= group.flags_start[l];
            }
            if j + 1 == blocks {
                block_flags |= group.flags_end[l];
                block_len = group.last_block_len[l];
            }
            let block = &*group.inputs[l].add(j * BLOCK_LEN).cast::<[u8; BLOCK_LEN]>();
            let [a, b, c, d] =
                B::compress_rows(h, block, group.counters[l], block_len, block_flags);
            h = [B::V::xor(a, c), B::V::xor(b, d)];
        }
        let mut out = [0u8; 32];
        B::V::store(out.as_mut_ptr(), h[0]);
        B::V::store(out.as_mut_ptr().add(16), h[1]);
        out
    }
}

/// Hashes the first `n` (1 to 4) lanes of `group` into `out[..n]`.
#[inline(always)]
unsafe fn hash_up_to_4<B: Rows>(
    group: &mut Lanes4,
    n: usize,
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    debug_assert!((1..=4).contains(&n));
    unsafe {
        if n <= B::ROWS_UP_TO {
            for (l, out) in out[..n].iter_mut().enumerate() {
                *out = hash_lane_rows::<B>(group, l, blocks, flags);
            }
            return;
        }
        // The unused lanes hash the last lane's input again, into a value that is dropped.
        let mut spare = [0u8; 32];
        let mut dst = [spare.as_mut_ptr(); 4];
        for (l, out) in out[..n].iter_mut().enumerate() {
            dst[l] = out.as_mut_ptr();
        }
        for l in n..4 {
            group.inputs[l] = group.inputs[n - 1];
            group.cvs[l] = group.cvs[n - 1];
        }
        hash4::<B::V>(group, blocks, flags, dst);
    }
}

/// Hashes the 0 to 4 lanes of `run` into `out`.
#[inline(always)]
unsafe fn hash_run<B: Rows>(run: &Run<'_>, out: &mut [[u8; 32]]) {
    let n = run.len();
    if n > 0 {
        // SAFETY: forwarded from the caller; every used lane's input is `blocks` whole blocks.
        unsafe { hash_up_to_4::<B>(&mut Lanes4::of_run(run), n, run.blocks, run.flags, out) };
    }
}

/// `Kernels::compress_in_place` in rows.
#[inline(always)]
pub(super) unsafe fn compress_in_place<B: Rows>(
    cv: &mut [u32; 8],
    blocks: &[[u8; BLOCK_LEN]],
    block_len: u8,
    counter: u64,
    flags: u8,
    flags_start: u8,
) {
    unsafe {
        let mut h = load_cv::<B::V>(cv);
        let mut block_flags = flags | flags_start;
        for block in blocks {
            let [a, b, c, d] = B::compress_rows(h, block, counter, block_len, block_flags);
            h = [B::V::xor(a, c), B::V::xor(b, d)];
            block_flags = flags;
        }
        B::V::store(cv.as_mut_ptr().cast(), h[0]);
        B::V::store(cv.as_mut_ptr().add(4).cast(), h[1]);
    }
}

/// `Kernels::hash_many` on a group of at most four lanes (or runs of four).
#[inline(always)]
pub(super) unsafe fn hash_many<B: Rows>(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
    // SAFETY (each call): the group is at most four whole lanes, `out` one per lane.
    match group {
        Group::Lanes {
            lanes,
            blocks,
            flags,
        } => {
            if !lanes.is_empty() {
                let mut params = Lanes4::of_lanes(lanes);
                unsafe { hash_up_to_4::<B>(&mut params, lanes.len(), blocks, flags, out) };
            }
        }
        Group::Run(run) => unsafe { hash_run::<B>(&run, out) },
        Group::ChunkRuns(runs) => {
            for (run, out) in runs.iter().zip(out.chunks_mut(4)) {
                unsafe { hash_run::<B>(run, out) };
            }
        }
    }
}

/// `Kernels::xof_many`: four blocks at a time transposed, the rest in rows.
#[inline(always)]
pub(super) unsafe fn xof_many<B: Rows>(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    let mut groups = out.chunks_exact_mut(4 * BLOCK_LEN);
    let mut counter = counter;
    // SAFETY (both blocks): the stores cover the output blocks.
    for group in groups.by_ref() {
        group.copy_from_slice(&unsafe { xof4::<B::V>(cv, block, block_len, counter, flags) });
        counter = counter.wrapping_add(4);
    }
    for out in groups.into_remainder().chunks_exact_mut(BLOCK_LEN) {
        unsafe {
            let h = load_cv::<B::V>(cv);
            let [a, b, c, d] = B::compress_rows(h, block, counter, block_len, flags);
            let rows = [
                B::V::xor(a, c),
                B::V::xor(b, d),
                B::V::xor(c, h[0]),
                B::V::xor(d, h[1]),
            ];
            for (q, row) in rows.into_iter().enumerate() {
                B::V::store(out.as_mut_ptr().add(16 * q), row);
            }
        }
        counter = counter.wrapping_add(1);
    }
}
