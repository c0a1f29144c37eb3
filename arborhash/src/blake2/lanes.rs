//! Driving the multi-lane kernels: a kernel call over a variable number of lanes without
//! allocation, and a scheduler that keeps every lane busy with a stream of independent messages.

use super::dispatch::Dispatch as _;
use super::kernels::{Lane, MAX_LANES};
use super::variant::Variant;
use crate::platform::Platform;

/// Compresses `blocks` blocks (`stride` bytes apart) in each of up to `MAX_LANES` lanes with one
/// kernel call. Returns the lanes' updated counters, in order.
pub(crate) fn compress_lane_list<'a, V: Variant>(
    p: Platform,
    lanes: impl IntoIterator<Item = Lane<'a, V::Word>>,
    blocks: usize,
    stride: usize,
) -> [u128; MAX_LANES] {
    let mut scratch = [[V::Word::default(); 8]; MAX_LANES];
    let mut list = idle_lanes(&mut scratch);
    let mut used = 0;
    for lane in lanes {
        list[used] = lane;
        used += 1;
    }
    compress_lane_slice::<V>(p, &mut list[..used], blocks, stride);
    list.map(|lane| lane.count)
}

/// A fixed array to gather lanes in for a kernel, which wants a slice: entries not (yet) holding
/// a lane point at `scratch` words and are never passed to it.
fn idle_lanes<W>(scratch: &mut [[W; 8]; MAX_LANES]) -> [Lane<'_, W>; MAX_LANES] {
    scratch.each_mut().map(|h| Lane {
        h,
        input: &[],
        count: 0,
        last: None,
    })
}

/// Compresses `blocks` blocks (`stride` bytes apart) in each lane of `lanes` with one kernel call.
fn compress_lane_slice<V: Variant>(
    p: Platform,
    lanes: &mut [Lane<'_, V::Word>],
    blocks: usize,
    stride: usize,
) {
    match lanes {
        [lane] if blocks == 1 || stride == V::BLOCKBYTES => {
            compress_lone_lane::<V>(p, lane, blocks)
        }
        lanes => V::Word::compress_lanes(p, lanes, blocks, stride),
    }
}

/// One lane on the single-stream kernels, which beat a multi-lane kernel with idle lanes. The
/// lane's blocks are contiguous.
fn compress_lone_lane<V: Variant>(p: Platform, lane: &mut Lane<'_, V::Word>, blocks: usize) {
    let block = V::BLOCKBYTES;
    let whole = blocks - usize::from(lane.last.is_some());
    if whole > 0 {
        V::Word::compress_blocks(p, lane.h, &lane.input[..whole * block], &mut lane.count);
    }
    if let Some(last) = lane.last {
        let mut final_block = V::ZERO_BLOCK;
        final_block
            .as_mut()
            .copy_from_slice(&lane.input[whole * block..(whole + 1) * block]);
        lane.count = lane.count.wrapping_add(last.len as u128);
        V::Word::compress_final(p, lane.h, &final_block, lane.count, last.last_node);
    }
}

/// A run of blocks a job can compress next: `lane.input` holds `blocks` contiguous blocks, and
/// `lane.last` says whether the last of them ends the message.
pub(crate) struct Run<'a, W> {
    pub lane: Lane<'a, W>,
    pub blocks: usize,
}

/// One message advanced by the scheduler.
pub(crate) trait Job<W> {
    /// The next run of blocks (at least one). Only called while the job is not finished.
    fn run(&mut self) -> Run<'_, W>;
    /// Records that the first `blocks` blocks of the last run were compressed, leaving the
    /// counter at `count`. Returns true when the job is finished.
    fn advance(&mut self, blocks: usize, count: u128) -> bool;
}

/// Runs every job to completion, `degree` lanes at a time. Each kernel call compresses as many
/// blocks as the shortest current run; a lane whose job finishes is refilled with the next job
/// at once, so jobs of mixed lengths keep the lanes full.
pub(crate) fn run_jobs<V: Variant, J: Job<V::Word>>(
    p: Platform,
    jobs: impl IntoIterator<Item = J>,
) {
    let mut jobs = jobs.into_iter();
    let degree = V::Word::degree(p).clamp(1, MAX_LANES);
    let mut slots: [Option<J>; MAX_LANES] = core::array::from_fn(|_| None);
    let mut scratch = [[V::Word::default(); 8]; MAX_LANES];
    loop {
        for slot in slots[..degree].iter_mut().filter(|s| s.is_none()) {
            *slot = jobs.next();
        }
        // The active jobs' runs, gathered straight into the kernel's lane array.
        let mut lanes = idle_lanes(&mut scratch);
        let mut run_blocks = [0; MAX_LANES];
        let mut used = 0;
        for job in slots.iter_mut().flatten() {
            let run = job.run();
            lanes[used] = run.lane;
            run_blocks[used] = run.blocks;
            used += 1;
        }
        let Some(&blocks) = run_blocks[..used].iter().min() else {
            return;
        };
        for (lane, &run) in lanes.iter_mut().zip(&run_blocks[..used]) {
            if run > blocks {
                lane.last = None;
            }
        }
        compress_lane_slice::<V>(p, &mut lanes[..used], blocks, V::BLOCKBYTES);
        // Only the counters of the lanes in use (moving the whole lane array costs more).
        let mut counts = [0u128; MAX_LANES];
        for (count, lane) in counts.iter_mut().zip(&lanes[..used]) {
            *count = lane.count;
        }
        let active = slots.iter_mut().filter(|s| s.is_some());
        for (slot, count) in active.zip(counts) {
            if slot.as_mut().is_some_and(|job| job.advance(blocks, count)) {
                *slot = None;
            }
        }
    }
}
