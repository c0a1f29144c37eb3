//! Hashing many independent messages at once, filling the SIMD lanes across messages.
//!
//! A single 4 KiB message is 4 chunks: half of AVX2's 8 lanes, then 3 parents one at a time.
//! Here the chunks of several messages share kernel calls (two 4 KiB messages are one group of
//! AVX2 lanes with counters 0,1,2,3,0,1,2,3, each message's four at one pointer), and so do
//! their parents, level by level (a message's last parent gets ROOT as it is hashed). A message
//! of at most one chunk gets ROOT on its only chunk. Messages are sorted by shape in windows so
//! that lanes of equal length meet (a window of one length is taken in order); a partial last
//! block is zero-padded in a small stack buffer. Messages of more than twice as many chunks as
//! the backend has lanes fill the lanes on their own and are hashed one by one; those of a
//! multiple of that many have their chunks hashed one message at a time, and share parents.
//!
//! ```
//! use arborhash::blake3::{self, many};
//! let messages: Vec<Vec<u8>> = (0..10).map(|i| vec![i as u8; 100 * i]).collect();
//! let inputs: Vec<&[u8]> = messages.iter().map(|m| m.as_slice()).collect();
//! let mut hashes = vec![blake3::Hash::from_bytes([0; 32]); inputs.len()];
//! many::hash_many(&inputs, &mut hashes);
//! assert_eq!(hashes[7], blake3::hash(&messages[7]));
//! ```

use super::dispatch;
use super::hash::Hash;
use super::kernels::{
    Lane, BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START, EMPTY_LANE, PARENT, ROOT,
};
use super::output::OutputReader;
use super::tree::{
    chunk_run, context_key, hash_all, padded_block, parent_lane, parent_run, root_hash_all,
    words_from_le, CvBytes, Params, KEY_LEN, OUT_LEN,
};
use crate::platform::Platform;

/// Chunk slots in one wave of messages hashed together; also the most messages in a wave.
const WAVE_CHUNKS: usize = 64;
/// Messages sorted by shape at a time.
const WINDOW: usize = 64;
/// Most lanes hashed in one `hash_lanes` call for the last chunks: a whole group of the widest
/// backend (AVX-512), so that no lanes are lost, while each call's arrays stay a quarter of a
/// wave's (1 KiB of lanes rather than 4, and 1 KiB of padded blocks rather than 4, set up for
/// every call).
const LANE_BATCH: usize = 16;

/// Hashes every input: `outputs[i] = hash(inputs[i])`. Panics if the slices' lengths differ.
pub fn hash_many(inputs: &[&[u8]], outputs: &mut [Hash]) {
    check_lengths(inputs.len(), outputs.len());
    batch(Params::HASH, inputs, |i, hash| {
        outputs[i] = Hash::from_bytes(hash)
    });
}

/// Keyed-hashes every input: `outputs[i] = keyed_hash(key, inputs[i])`. Panics if the slices'
/// lengths differ.
pub fn keyed_hash_many(key: &[u8; KEY_LEN], inputs: &[&[u8]], outputs: &mut [Hash]) {
    check_lengths(inputs.len(), outputs.len());
    batch(Params::keyed(key), inputs, |i, hash| {
        outputs[i] = Hash::from_bytes(hash)
    });
}

/// Derives a key from every input: `outputs[i] = derive_key(context, inputs[i])`. Panics if the
/// slices' lengths differ.
pub fn derive_key_many(context: &str, inputs: &[&[u8]], outputs: &mut [[u8; OUT_LEN]]) {
    check_lengths(inputs.len(), outputs.len());
    let params = Params::derive_key_material(&context_key(Platform::current(), context.as_bytes()));
    batch(params, inputs, |i, key| outputs[i] = key);
}

/// Hashes every input to `out_len` bytes of extended output: `outputs` is `inputs.len()` runs of
/// `out_len` bytes, run `i` the first `out_len` bytes of
/// `Hasher::new().update(inputs[i]).finalize_xof()`. Panics unless `outputs.len()` is
/// `inputs.len() * out_len`.
///
/// Up to 32 bytes (a prefix of the hash) the messages share the SIMD lanes as in
/// [`hash_many`]; longer outputs hash each message on its own, as [`super::hash`] does.
///
/// ```
/// use arborhash::blake3::{self, many};
/// let inputs: [&[u8]; 2] = [b"one", b"two"];
/// let mut out = [0u8; 2 * 100];
/// many::hash_many_xof(&inputs, 100, &mut out);
/// let mut expected = [0u8; 100];
/// blake3::Hasher::new().update(b"two").finalize_xof().fill(&mut expected);
/// assert_eq!(out[100..], expected);
/// ```
pub fn hash_many_xof(inputs: &[&[u8]], out_len: usize, outputs: &mut [u8]) {
    batch_xof(Params::HASH, inputs, out_len, outputs);
}

/// [`hash_many_xof`] with the keyed hash.
pub fn keyed_hash_many_xof(
    key: &[u8; KEY_LEN],
    inputs: &[&[u8]],
    out_len: usize,
    outputs: &mut [u8],
) {
    batch_xof(Params::keyed(key), inputs, out_len, outputs);
}

/// [`hash_many_xof`] with key derivation: run `i` is `out_len` bytes of the key derived from
/// `inputs[i]` in `context`.
pub fn derive_key_many_xof(context: &str, inputs: &[&[u8]], out_len: usize, outputs: &mut [u8]) {
    let params = Params::derive_key_material(&context_key(Platform::current(), context.as_bytes()));
    batch_xof(params, inputs, out_len, outputs);
}

fn batch_xof(params: Params, inputs: &[&[u8]], out_len: usize, outputs: &mut [u8]) {
    assert_eq!(
        Some(outputs.len()),
        inputs.len().checked_mul(out_len),
        "outputs must hold out_len = {out_len} bytes for each of {} inputs",
        inputs.len()
    );
    if out_len == 0 {
        return;
    }
    if out_len <= OUT_LEN {
        batch(params, inputs, |i, hash| {
            outputs[i * out_len..][..out_len].copy_from_slice(&hash[..out_len])
        });
        return;
    }
    let p = Platform::current();
    for (input, out) in inputs.iter().zip(outputs.chunks_exact_mut(out_len)) {
        OutputReader::new(hash_all(p, input, params, 0)).fill(out);
    }
}

fn check_lengths(inputs: usize, outputs: usize) {
    assert_eq!(
        inputs, outputs,
        "outputs must have one entry per input: {inputs} inputs, {outputs} outputs"
    );
}

/// Chunks in a message (an empty message is one empty chunk).
fn chunk_count(len: usize) -> usize {
    len.div_ceil(CHUNK_LEN).max(1)
}

fn batch(params: Params, inputs: &[&[u8]], mut output: impl FnMut(usize, [u8; 32])) {
    let p = Platform::current();
    let lanes = dispatch::degree(p);
    debug_assert!(2 * lanes <= WAVE_CHUNKS);
    // A message of more than twice as many chunks as lanes is hashed alone: its own parent
    // levels are full but for the last few. (One that fills whole groups of lanes on its own
    // has its chunks hashed at its own pointer in the wave, see `Wave::whole_chunks`, and
    // shares only the parent levels.)
    let alone = |chunks: usize| chunks > 2 * lanes;
    // One wave, emptied after each `hash` and reused, rather than a new 4.5 KiB one each time.
    let mut wave = Wave::new(params);
    for (window_start, window) in (0..).step_by(WINDOW).zip(inputs.chunks(WINDOW)) {
        // A window of one length (the usual batch) is in order already: no sort, and no
        // order to build.
        let len = window[0].len();
        if window.iter().all(|input| input.len() == len) {
            if alone(chunk_count(len)) {
                for (i, input) in window.iter().enumerate() {
                    output(window_start + i, root_hash_all(p, input, params));
                }
            } else {
                wave.hash_in_waves(p, window_start, window, 0..window.len(), &mut output);
            }
            continue;
        }
        let mut order = [0usize; WINDOW];
        let mut batched = 0;
        for (i, input) in window.iter().enumerate() {
            if alone(chunk_count(input.len())) {
                output(window_start + i, root_hash_all(p, input, params));
            } else {
                order[batched] = i;
                batched += 1;
            }
        }
        // Group by the shape of the last chunk, then by size: equal lanes meet in one call.
        let order = &mut order[..batched];
        order.sort_unstable_by_key(|&i| {
            let len = window[i].len();
            (last_chunk_len(len).div_ceil(BLOCK_LEN), len)
        });
        wave.hash_in_waves(p, window_start, window, order.iter().copied(), &mut output);
    }
}

fn last_chunk_len(len: usize) -> usize {
    len - (chunk_count(len) - 1) * CHUNK_LEN
}

#[derive(Clone, Copy)]
struct Message<'a> {
    index: usize,
    input: &'a [u8],
    /// The first of its chunk slots in `Wave::cvs`.
    slot: usize,
    chunks: usize,
}

impl<'a> Message<'a> {
    fn last_chunk(&self) -> &'a [u8] {
        &self.input[(self.chunks - 1) * CHUNK_LEN..]
    }

    /// The bytes of its last block when that block is partial (empty for an empty message),
    /// which must be hashed from a zero-padded copy; `None` when it ends in whole blocks.
    fn partial_last_block(&self) -> Option<&'a [u8]> {
        let chunk = self.last_chunk();
        let whole = chunk.len() / BLOCK_LEN * BLOCK_LEN;
        (whole < chunk.len() || chunk.is_empty()).then(|| &chunk[whole..])
    }

    /// ROOT for the node that finishes this message when it is its only chunk.
    fn chunk_root_flag(&self) -> u8 {
        if self.chunks == 1 {
            ROOT
        } else {
            0
        }
    }
}

/// Messages whose chunks fit in `WAVE_CHUNKS` slots, hashed together.
struct Wave<'a> {
    params: Params,
    messages: [Message<'a>; WAVE_CHUNKS],
    count: usize,
    slots: usize,
    /// Chunk chaining values, then each tree level in place; finally the hash in each
    /// message's first slot.
    cvs: [CvBytes; WAVE_CHUNKS],
}

impl<'a> Wave<'a> {
    fn new(params: Params) -> Wave<'a> {
        Wave {
            params,
            messages: [Message {
                index: 0,
                input: &[],
                slot: 0,
                chunks: 0,
            }; WAVE_CHUNKS],
            count: 0,
            slots: 0,
            cvs: [[0; 32]; WAVE_CHUNKS],
        }
    }

    /// Hashes `window[i]` for each `i` of `order`, as `window_start + i`, in waves of as many
    /// messages in that order as fit; leaves the wave empty.
    fn hash_in_waves(
        &mut self,
        p: Platform,
        window_start: usize,
        window: &[&'a [u8]],
        order: impl Iterator<Item = usize>,
        output: &mut impl FnMut(usize, [u8; 32]),
    ) {
        for i in order {
            let input = window[i];
            if self.slots + chunk_count(input.len()) > WAVE_CHUNKS {
                self.hash(p, output);
            }
            self.add(window_start + i, input);
        }
        if self.count > 0 {
            self.hash(p, output);
        }
    }

    fn add(&mut self, index: usize, input: &'a [u8]) {
        let chunks = chunk_count(input.len());
        self.messages[self.count] = Message {
            index,
            input,
            slot: self.slots,
            chunks,
        };
        self.count += 1;
        self.slots += chunks;
    }

    fn hash(&mut self, p: Platform, output: &mut impl FnMut(usize, [u8; 32])) {
        self.whole_chunks(p);
        // Messages of whole chunks (the usual sizes) are done with their chunks.
        let messages = &self.messages[..self.count];
        if messages.iter().any(|m| m.last_chunk().len() != CHUNK_LEN) {
            let mut last_cvs = [self.params.key; WAVE_CHUNKS];
            self.last_chunk_prefixes(p, &mut last_cvs);
            self.last_blocks(p, &last_cvs);
        }
        let compact = self.parents(p);
        for (k, m) in self.messages[..self.count].iter().enumerate() {
            output(m.index, self.cvs[if compact { k } else { m.slot }]);
        }
        self.count = 0;
        self.slots = 0;
    }

    /// Every whole chunk of every message: runs of four of a message's chunks in one
    /// `hash_chunk_runs` call (each run at one pointer, several to a group of lanes), the
    /// other whole chunks as lanes in one `hash_lanes` call. Beside such lanes, only as many
    /// runs as fill whole groups are taken, the rest go with the lanes: a part group of runs
    /// beside one of lanes is a pass more than the lanes packed together.
    fn whole_chunks(&mut self, p: Platform) {
        const RUN_LEN: usize = 4 * CHUNK_LEN;
        let per_group = (dispatch::degree(p) / 4).max(1);
        // A message whose runs fill whole groups of lanes (8 and 16 KiB on AVX2) is hashed
        // faster on its own: its chunks' lanes sit at constant offsets from one pointer, where
        // gathered lanes each need their own. When every message's whole chunks are such runs, each
        // message's go in one `hash_run` call, straight into its slots.
        let fills_groups = |m: &Message<'_>| (m.input.len() / RUN_LEN).is_multiple_of(per_group);
        let messages = &self.messages[..self.count];
        let (mut all_runs, mut other_chunks) = (0, 0);
        for m in messages {
            all_runs += m.input.len() / RUN_LEN;
            other_chunks += m.input.len() % RUN_LEN / CHUNK_LEN;
        }
        // A wave of messages shorter than a chunk (no runs, no other whole chunks) takes this
        // path too, with nothing to hash here: no run or lane arrays are set up for it.
        if other_chunks == 0 && messages.iter().all(fills_groups) {
            for m in messages.iter().filter(|m| m.input.len() >= RUN_LEN) {
                let runs = &m.input[..m.input.len() / RUN_LEN * RUN_LEN];
                let run = chunk_run(runs, &self.params.key, 0, self.params.flags);
                dispatch::hash_run(p, run, &mut self.cvs[m.slot..]);
            }
            return;
        }
        let mut runs_left = if other_chunks == 0 {
            all_runs
        } else {
            all_runs - all_runs % per_group
        };
        let placeholder = chunk_run(&[], &self.params.key, 0, self.params.flags);
        let mut runs = [placeholder; WAVE_CHUNKS / 4];
        let mut run_slots = [0usize; WAVE_CHUNKS / 4];
        // The runs taken from a message, in turn while `runs_left` lasts.
        let take = |m: &Message<'_>, runs_left: &mut usize| {
            let taken = (m.input.len() / RUN_LEN).min(*runs_left);
            *runs_left -= taken;
            taken
        };
        let mut r = 0;
        for m in &self.messages[..self.count] {
            let taken = take(m, &mut runs_left);
            for (k, chunks) in m.input[..taken * RUN_LEN].chunks_exact(RUN_LEN).enumerate() {
                // Never the root: the message has four chunks or more.
                runs[r] = chunk_run(chunks, &self.params.key, 4 * k as u64, self.params.flags);
                run_slots[r] = m.slot + 4 * k;
                r += 1;
            }
        }
        if 4 * r == self.slots {
            // Every chunk is whole and in a run (4 KiB messages): run `r` fills slots `4 * r`
            // on, written in place, and there are no lanes to build.
            dispatch::hash_chunk_runs(p, &runs[..r], &mut self.cvs);
            return;
        }
        if r > 0 {
            let mut out = [[0u8; 32]; WAVE_CHUNKS];
            dispatch::hash_chunk_runs(p, &runs[..r], &mut out);
            for (cvs, &slot) in out.chunks_exact(4).zip(&run_slots[..r]) {
                self.cvs[slot..slot + 4].copy_from_slice(cvs);
            }
        }
        if other_chunks == 0 {
            // Every whole chunk was in a run, the rest of each message is a partial last
            // chunk (4 KiB + 1 B): no lanes to set up.
            return;
        }
        // The chunks after each message's runs, as the loop above took them.
        let mut runs_left = r;
        let mut lanes = [EMPTY_LANE; WAVE_CHUNKS];
        let mut slots = [0usize; WAVE_CHUNKS];
        let mut n = 0;
        for m in &self.messages[..self.count] {
            let in_runs = take(m, &mut runs_left) * RUN_LEN;
            let first = in_runs / CHUNK_LEN;
            for (j, chunk) in (first..).zip(m.input[in_runs..].chunks_exact(CHUNK_LEN)) {
                lanes[n] = Lane {
                    input: chunk,
                    cv: self.params.key,
                    counter: j as u64,
                    flags_start: CHUNK_START,
                    flags_end: CHUNK_END | m.chunk_root_flag(),
                    last_block_len: BLOCK_LEN as u8,
                };
                slots[n] = m.slot + j;
                n += 1;
            }
        }
        let blocks = CHUNK_LEN / BLOCK_LEN;
        if r == 0 && n == self.slots {
            // Every chunk is whole and a lane (1 KiB messages): lane `i` fills slot `i`, written
            // in place.
            dispatch::hash_lanes(p, &lanes[..n], blocks, self.params.flags, &mut self.cvs);
            return;
        }
        self.hash_into_slots(p, &lanes[..n], blocks, &slots);
    }

    fn hash_into_slots(&mut self, p: Platform, lanes: &[Lane<'_>], blocks: usize, slots: &[usize]) {
        if lanes.is_empty() {
            return;
        }
        let mut out = [[0u8; 32]; WAVE_CHUNKS];
        dispatch::hash_lanes(p, lanes, blocks, self.params.flags, &mut out);
        for (cv, &slot) in out.iter().zip(&slots[..lanes.len()]) {
            self.cvs[slot] = *cv;
        }
    }

    /// Partial last chunks: the blocks before the last, grouped by count, [`LANE_BATCH`] lanes
    /// to a call. A chunk of whole blocks is finished here; otherwise its chaining value so far
    /// goes to `last_cvs`.
    fn last_chunk_prefixes(&mut self, p: Platform, last_cvs: &mut [[u32; 8]; WAVE_CHUNKS]) {
        let mut pending = [false; WAVE_CHUNKS];
        for (k, m) in self.messages[..self.count].iter().enumerate() {
            let len = m.last_chunk().len();
            pending[k] = (BLOCK_LEN..CHUNK_LEN).contains(&len);
        }
        while let Some(first) = pending.iter().position(|&x| x) {
            // Whole blocks before the last (all of them when the chunk is whole blocks).
            let blocks = self.messages[first].last_chunk().len() / BLOCK_LEN;
            let mut lanes = [EMPTY_LANE; LANE_BATCH];
            let mut which = [0usize; LANE_BATCH];
            let mut n = 0;
            let candidates = pending.iter_mut().enumerate().take(self.count).skip(first);
            for (k, pending) in candidates {
                let m = self.messages[k];
                let chunk = m.last_chunk();
                if !*pending || chunk.len() / BLOCK_LEN != blocks {
                    continue;
                }
                *pending = false;
                let finished = chunk.len().is_multiple_of(BLOCK_LEN);
                lanes[n] = Lane {
                    input: &chunk[..blocks * BLOCK_LEN],
                    cv: self.params.key,
                    counter: m.chunks as u64 - 1,
                    flags_start: CHUNK_START,
                    flags_end: if finished {
                        CHUNK_END | m.chunk_root_flag()
                    } else {
                        0
                    },
                    last_block_len: BLOCK_LEN as u8,
                };
                which[n] = k;
                n += 1;
                if n == LANE_BATCH {
                    self.prefix_lanes(p, &lanes, blocks, &which, last_cvs);
                    n = 0;
                }
            }
            self.prefix_lanes(p, &lanes[..n], blocks, &which[..n], last_cvs);
        }
    }

    /// Hashes [`Self::last_chunk_prefixes`]' lanes, lane `i` the last chunk of message
    /// `which[i]`.
    fn prefix_lanes(
        &mut self,
        p: Platform,
        lanes: &[Lane<'_>],
        blocks: usize,
        which: &[usize],
        last_cvs: &mut [[u32; 8]; WAVE_CHUNKS],
    ) {
        if lanes.is_empty() {
            return;
        }
        let mut out = [[0u8; 32]; LANE_BATCH];
        dispatch::hash_lanes(p, lanes, blocks, self.params.flags, &mut out);
        for (cv, &k) in out.iter().zip(which) {
            let m = &self.messages[k];
            if m.last_chunk().len().is_multiple_of(BLOCK_LEN) {
                self.cvs[m.slot + m.chunks - 1] = *cv;
            } else {
                last_cvs[k] = words_from_le(cv);
            }
        }
    }

    /// Partial last blocks, zero-padded, [`LANE_BATCH`] to a call.
    fn last_blocks(&mut self, p: Platform, last_cvs: &[[u32; 8]; WAVE_CHUNKS]) {
        let messages = &self.messages[..self.count];
        // Messages of whole blocks (the usual sizes) skip zeroing the padded blocks.
        if messages.iter().all(|m| m.partial_last_block().is_none()) {
            return;
        }
        let mut padded = [[0u8; BLOCK_LEN]; LANE_BATCH];
        let mut which = [0usize; LANE_BATCH];
        let mut n = 0;
        for k in 0..self.count {
            let Some(block) = self.messages[k].partial_last_block() else {
                continue;
            };
            // Built whole (a block used before holds the previous batch's bytes).
            padded[n] = padded_block(block);
            which[n] = k;
            n += 1;
            if n == LANE_BATCH {
                self.padded_lanes(p, &padded, &which, last_cvs);
                n = 0;
            }
        }
        self.padded_lanes(p, &padded[..n], &which[..n], last_cvs);
    }

    /// Hashes [`Self::last_blocks`]' padded blocks, block `i` the last of message `which[i]`.
    fn padded_lanes(
        &mut self,
        p: Platform,
        padded: &[[u8; BLOCK_LEN]],
        which: &[usize],
        last_cvs: &[[u32; 8]; WAVE_CHUNKS],
    ) {
        if which.is_empty() {
            return;
        }
        let mut lanes = [EMPTY_LANE; LANE_BATCH];
        let mut slots = [0usize; LANE_BATCH];
        for ((lane, block), (&k, slot)) in lanes
            .iter_mut()
            .zip(padded)
            .zip(which.iter().zip(&mut slots))
        {
            let m = &self.messages[k];
            let len = m.last_chunk().len();
            *lane = Lane {
                input: block,
                cv: last_cvs[k],
                counter: m.chunks as u64 - 1,
                flags_start: if len <= BLOCK_LEN { CHUNK_START } else { 0 },
                flags_end: CHUNK_END | m.chunk_root_flag(),
                last_block_len: (len % BLOCK_LEN) as u8,
            };
            *slot = m.slot + m.chunks - 1;
        }
        self.hash_into_slots(p, &lanes[..which.len()], 1, &slots);
    }

    /// Parents level by level, every message's pairs of one level in one call; a message's
    /// last parent is its root. An odd node at the end of a level moves up unchanged. Returns
    /// whether message `k`'s hash is in `cvs[k]` ([`Self::uniform_parents`]) rather than in its
    /// first slot.
    fn parents(&mut self, p: Platform) -> bool {
        let chunks = self.messages[0].chunks;
        if self.messages[..self.count]
            .iter()
            .all(|m| m.chunks == chunks)
        {
            if chunks == 1 {
                return false;
            }
            if chunks.is_power_of_two() {
                self.uniform_parents(p, chunks);
                return true;
            }
        }
        self.mixed_parents(p);
        false
    }

    /// Parents when every message has the same power of two of chunks (the usual uniform
    /// batch: 4 KiB messages, 2 KiB...): every level is then whole pairs of every message, back
    /// to back in `cvs`, all root or none, which is one run of parents hashed from broadcast
    /// parameters, with no lane built for each. Each level goes to the front of `cvs`, so that
    /// message `k`'s hash ends in `cvs[k]`.
    fn uniform_parents(&mut self, p: Platform, chunks: usize) {
        let mut nodes = self.slots;
        let mut per_message = chunks;
        let mut out = [[0u8; 32]; WAVE_CHUNKS / 2];
        while per_message > 1 {
            let mut run = parent_run(
                self.cvs[..nodes].as_flattened(),
                &self.params.key,
                self.params.flags,
            );
            if per_message == 2 {
                run.flags_end = ROOT;
            }
            dispatch::hash_run(p, run, &mut out);
            nodes /= 2;
            per_message /= 2;
            self.cvs[..nodes].copy_from_slice(&out[..nodes]);
        }
    }

    /// [`Self::parents`] for any mix of chunk counts: the level's pairs gathered as lanes from
    /// each message's slots, the results written back there.
    fn mixed_parents(&mut self, p: Platform) {
        let mut nodes = [0usize; WAVE_CHUNKS];
        for (n, m) in nodes.iter_mut().zip(&self.messages[..self.count]) {
            *n = m.chunks;
        }
        loop {
            let mut lanes = [EMPTY_LANE; WAVE_CHUNKS / 2];
            let mut n = 0;
            for (m, &count) in self.messages[..self.count].iter().zip(&nodes) {
                let level = self.cvs[m.slot..m.slot + count].as_flattened();
                let flags_end = if count == 2 { ROOT } else { 0 };
                for pair in level.chunks_exact(2 * OUT_LEN) {
                    lanes[n] = parent_lane(pair, self.params, flags_end);
                    n += 1;
                }
            }
            if n == 0 {
                return;
            }
            let mut out = [[0u8; 32]; WAVE_CHUNKS / 2];
            dispatch::hash_lanes(p, &lanes[..n], 1, self.params.flags | PARENT, &mut out);
            let mut parents = out.iter();
            for (m, count) in self.messages[..self.count].iter().zip(&mut nodes) {
                let pairs = *count / 2;
                for (slot, cv) in (m.slot..).zip(parents.by_ref().take(pairs)) {
                    self.cvs[slot] = *cv;
                }
                if *count % 2 == 1 && *count > 1 {
                    self.cvs[m.slot + pairs] = self.cvs[m.slot + *count - 1];
                }
                *count = count.div_ceil(2);
            }
        }
    }
}
