//! BLAKE3 on AArch64 NEON: four lanes transposed ([`hash_group`], [`xof_group`]), a state word
//! per vector; and one lane in rows ([`rounds_rows`]), the message from one `tbl` a vector, for
//! single blocks, chains and groups of one or two lanes, where it runs fewer instructions.

use core::arch::aarch64::{vld1q_u32, vorrq_u32, vst1q_u32};

use super::kernels::{block_words, Group, Kernels, Lane, Run, BLOCK_LEN, IV, MSG_SCHEDULE};
use crate::arch::aarch64::neon::{
    load_blocks4, load_transposed4, round4, row_message, splat, splat4, store, store_transposed4,
    transpose, words, xor, V,
};

// SAFETY (every `#[inline(always)]` helper): only inlined into the NEON entry points below;
// pointers are the callers' to keep valid, as each says.

/// The seven rounds on four lanes' states.
#[inline(always)]
unsafe fn rounds4(v: &mut [V; 16], m: &[V; 16]) {
    unsafe {
        round4(v, m, &MSG_SCHEDULE[0]);
        round4(v, m, &MSG_SCHEDULE[1]);
        round4(v, m, &MSG_SCHEDULE[2]);
        round4(v, m, &MSG_SCHEDULE[3]);
        round4(v, m, &MSG_SCHEDULE[4]);
        round4(v, m, &MSG_SCHEDULE[5]);
        round4(v, m, &MSG_SCHEDULE[6]);
    }
}

/// The initial states of four lanes.
#[inline(always)]
unsafe fn state4(h: &[V; 8], counter: [V; 2], block_len: V, flags: V) -> [V; 16] {
    unsafe {
        let iv = splat4(IV[..4].try_into().unwrap());
        [
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], iv[0], iv[1], iv[2], iv[3], counter[0],
            counter[1], block_len, flags,
        ]
    }
}

/// The low and high counter words of four lanes.
#[inline(always)]
unsafe fn counter_words(counters: [u64; 4]) -> [V; 2] {
    unsafe {
        [
            words(counters.map(|c| c as u32)),
            words(counters.map(|c| (c >> 32) as u32)),
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

/// Hashes `blocks` blocks in each lane of `group` into `out` (32 writable bytes a lane).
#[inline(always)]
unsafe fn hash_group(group: &Lanes4, blocks: usize, flags: u8, out: [*mut u8; 4]) {
    unsafe {
        let counter = counter_words(group.counters);
        let lo = load_transposed4(group.cvs.map(|cv| cv.cast()));
        let hi = load_transposed4(group.cvs.map(|cv| cv.add(4).cast()));
        let mut h = [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]];
        // Indexed by first (1) and last (2), so each block loads them rather than selecting.
        let flags = splat(u32::from(flags));
        let flags_start = words(group.flags_start.map(u32::from));
        let flags_end = words(group.flags_end.map(u32::from));
        let last_len = words(group.last_block_len.map(u32::from));
        let len = splat(BLOCK_LEN as u32);
        let ends = [
            [len, flags],
            [len, vorrq_u32(flags, flags_start)],
            [last_len, vorrq_u32(flags, flags_end)],
            [
                last_len,
                vorrq_u32(vorrq_u32(flags, flags_start), flags_end),
            ],
        ];
        for j in 0..blocks {
            let m = load_blocks4(&group.inputs, j * BLOCK_LEN);
            let [block_len, block_flags] =
                ends[usize::from(j == 0) | usize::from(j + 1 == blocks) << 1];
            let mut v = state4(&h, counter, block_len, block_flags);
            rounds4(&mut v, &m);
            for i in 0..8 {
                h[i] = xor(v[i], v[i + 8]);
            }
        }
        store_transposed4([h[0], h[1], h[2], h[3]], out);
        store_transposed4([h[4], h[5], h[6], h[7]], out.map(|p| p.add(16)));
    }
}

/// The root outputs of `block` under `cv` at counters `counter` to `counter + 3`.
#[inline(always)]
unsafe fn xof_group(
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; 4 * BLOCK_LEN] {
    unsafe {
        let m = block_words(block).map(|w| splat(w));
        let h = cv.map(|w| splat(w));
        let counters = [0, 1, 2, 3].map(|i| counter.wrapping_add(i));
        let mut v = state4(
            &h,
            counter_words(counters),
            splat(u32::from(block_len)),
            splat(u32::from(flags)),
        );
        rounds4(&mut v, &m);
        let mut words = [splat(0); 16];
        for i in 0..8 {
            words[i] = xor(v[i], v[i + 8]);
            words[i + 8] = xor(v[i + 8], h[i]);
        }
        let mut out = [0u8; 4 * BLOCK_LEN];
        for q in 0..4 {
            let t = transpose([
                words[4 * q],
                words[4 * q + 1],
                words[4 * q + 2],
                words[4 * q + 3],
            ]);
            for (l, row) in t.into_iter().enumerate() {
                let at = l * BLOCK_LEN + 16 * q;
                store(out.as_mut_ptr().add(at), row);
            }
        }
        out
    }
}

/// The `tbl` indices of each round's message vectors in rows.
const ROW_MESSAGE: [[[u8; 16]; 4]; 7] = row_message(&MSG_SCHEDULE);

/// The rows [a, b, c, d] after the seven rounds of one lane.
#[inline(always)]
unsafe fn rounds_rows(cv: [V; 2], block: &[u8; BLOCK_LEN], row_d: V) -> [V; 4] {
    unsafe {
        let c = vld1q_u32(IV.as_ptr());
        crate::arch::aarch64::neon::rounds_rows(
            [cv[0], cv[1], c, row_d],
            block.as_ptr(),
            &ROW_MESSAGE,
        )
    }
}

/// Row d of the state: counter, block length, flags.
#[inline(always)]
unsafe fn row_d(counter: u64, block_len: u8, flags: u8) -> V {
    unsafe {
        words([
            counter as u32,
            (counter >> 32) as u32,
            u32::from(block_len),
            u32::from(flags),
        ])
    }
}

#[inline(always)]
unsafe fn load_cv(cv: &[u32; 8]) -> [V; 2] {
    unsafe { [vld1q_u32(cv.as_ptr()), vld1q_u32(cv.as_ptr().add(4))] }
}

/// One lane of `group`'s shape (lane `l`) in rows.
#[inline(always)]
unsafe fn hash_lane_rows(group: &Lanes4, l: usize, blocks: usize, flags: u8) -> [u8; 32] {
    unsafe {
        let mut h = load_cv(&*group.cvs[l].cast::<[u32; 8]>());
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
                rounds_rows(h, block, row_d(group.counters[l], block_len, block_flags));
            h = [xor(a, c), xor(b, d)];
        }
        let mut out = [0u8; 32];
        store(out.as_mut_ptr(), h[0]);
        store(out.as_mut_ptr().add(16), h[1]);
        out
    }
}

/// Hashes the first `n` (1 to 4) lanes of `group` into `out[..n]`.
#[inline(always)]
unsafe fn hash_up_to_4(
    group: &mut Lanes4,
    n: usize,
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    debug_assert!((1..=4).contains(&n));
    unsafe {
        if n <= 2 {
            for (l, out) in out[..n].iter_mut().enumerate() {
                *out = hash_lane_rows(group, l, blocks, flags);
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
        hash_group(group, blocks, flags, dst);
    }
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

/// Hashes the 0 to 4 lanes of `run` into `out`.
///
/// # Safety
/// NEON is enabled in the caller; `run` is whole lanes and `out` holds one value a lane.
#[inline(always)]
unsafe fn hash_run(run: &Run<'_>, out: &mut [[u8; 32]]) {
    let n = run.len();
    if n > 0 {
        // SAFETY: forwarded from the caller; every used lane's input is `blocks` whole blocks.
        unsafe { hash_up_to_4(&mut Lanes4::of_run(run), n, run.blocks, run.flags, out) };
    }
}

/// The NEON backend's [`Kernels`].
pub(crate) struct Neon;

impl Kernels for Neon {
    const DEGREE: usize = 4;

    #[target_feature(enable = "neon")]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        // SAFETY: NEON is enabled here; `cv` is eight words, read and stored as two vectors of
        // four, and every block is a whole one.
        unsafe {
            let mut h = load_cv(cv);
            let mut block_flags = flags | flags_start;
            for block in blocks {
                let [a, b, c, d] = rounds_rows(h, block, row_d(counter, block_len, block_flags));
                h = [xor(a, c), xor(b, d)];
                block_flags = flags;
            }
            vst1q_u32(cv.as_mut_ptr(), h[0]);
            vst1q_u32(cv.as_mut_ptr().add(4), h[1]);
        }
    }

    #[target_feature(enable = "neon")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY (each call): NEON; the group is at most four whole lanes, `out` one per lane.
        match group {
            Group::Lanes {
                lanes,
                blocks,
                flags,
            } => {
                if !lanes.is_empty() {
                    let mut params = Lanes4::of_lanes(lanes);
                    unsafe { hash_up_to_4(&mut params, lanes.len(), blocks, flags, out) };
                }
            }
            Group::Run(run) => unsafe { hash_run(&run, out) },
            Group::ChunkRuns(runs) => {
                for (run, out) in runs.iter().zip(out.chunks_mut(4)) {
                    unsafe { hash_run(run, out) };
                }
            }
        }
    }

    #[target_feature(enable = "neon")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        let mut groups = out.chunks_exact_mut(4 * BLOCK_LEN);
        let mut counter = counter;
        // SAFETY (both blocks): NEON is enabled here; the stores cover the output blocks.
        for group in groups.by_ref() {
            group.copy_from_slice(&unsafe { xof_group(cv, block, block_len, counter, flags) });
            counter = counter.wrapping_add(4);
        }
        for out in groups.into_remainder().chunks_exact_mut(BLOCK_LEN) {
            unsafe {
                let h = load_cv(cv);
                let [a, b, c, d] = rounds_rows(h, block, row_d(counter, block_len, flags));
                for (q, row) in [xor(a, c), xor(b, d), xor(c, h[0]), xor(d, h[1])]
                    .into_iter()
                    .enumerate()
                {
                    store(out.as_mut_ptr().add(16 * q), row);
                }
            }
            counter = counter.wrapping_add(1);
        }
    }
}
