//! The BLAKE3 tree, written once over the kernels in [`super::kernels`].
//!
//! Chunks are hashed many at a time (one `hash_lanes` call for up to [`BATCH_CHUNKS`] chunks) and
//! their parents level by level, also as lanes. Subtrees that are complete are reduced to one
//! chaining value and pushed on a stack ([`Tree`]) that merges them lazily, so that the last
//! node can still become the root. The one-shot functions, the incremental hasher, the rayon
//! variants and the subtree API all go through [`Tree`].

use super::kernels::{self, Lane, BLOCK_LEN};
use crate::platform::Platform;

/// Bytes in a chunk.
pub(crate) const CHUNK_LEN: usize = 1024;

pub(crate) const CHUNK_START: u8 = 1 << 0;
pub(crate) const CHUNK_END: u8 = 1 << 1;
pub(crate) const PARENT: u8 = 1 << 2;
pub(crate) const ROOT: u8 = 1 << 3;
pub(crate) const KEYED_HASH: u8 = 1 << 4;
pub(crate) const DERIVE_KEY_CONTEXT: u8 = 1 << 5;
pub(crate) const DERIVE_KEY_MATERIAL: u8 = 1 << 6;

/// Chunks hashed per `hash_lanes` call when hashing through a long input, and the largest
/// subtree reduced in stack buffers. 32 chunks fill 16 lanes (AVX-512) twice and AVX2's 8 lanes
/// four times, and their first parent level fills 16 lanes once; the buffers stay near 1 KiB each,
/// which matters for short inputs, where zeroing them is a visible part of the work.
pub(crate) const BATCH_CHUNKS: usize = 32;

/// Subtrees at least this long are split into halves hashed on two threads by the rayon
/// variants, so no task is shorter than 128 KiB. On the shared 2-core development machine
/// (AVX2, heavily loaded while measured) neither this crate's nor the `blake3` crate's
/// `update_rayon` beat `update` at any size from 64 KiB to 4 MiB, so the threshold could not be
/// placed by measurement there; 128 KiB per task keeps the rayon hand-off (a few µs) below 5 %
/// of a task (about 60 µs at 2.2 GB/s). `benches/blake3.rs`, group `blake3/rayon_threshold`,
/// measures it on a quiet machine.
#[cfg(feature = "rayon")]
pub(crate) const PARALLEL_MIN_SUBTREE: usize = 256 * 1024;

/// The deepest a CV stack can get: one entry per bit of a 2^64-byte input's chunk count, plus
/// one not yet merged.
const MAX_DEPTH: usize = 54 + 1;

/// A chaining value as little-endian bytes, the form `hash_lanes` writes and parents read.
pub(crate) type CvBytes = [u8; 32];

pub(crate) fn words_from_le(bytes: &[u8; 32]) -> [u32; 8] {
    core::array::from_fn(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

pub(crate) fn le_from_words(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (bytes, word) in out.chunks_exact_mut(4).zip(words) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The key words and mode flags that every compression of one hash carries.
#[derive(Clone, Copy)]
pub(crate) struct Params {
    pub key: [u32; 8],
    pub flags: u8,
}

/// A node whose last compression has not run yet, so that it can still be a chaining value or
/// the root (which produces any amount of output).
#[derive(Clone, Copy)]
pub(crate) struct Output {
    input_cv: [u32; 8],
    block: [u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
}

impl Output {
    /// The node's (non-root) chaining value.
    pub(crate) fn chaining_value(&self, p: Platform) -> CvBytes {
        let mut cv = self.input_cv;
        kernels::compress_in_place(
            p,
            &mut cv,
            &self.block,
            self.block_len,
            self.counter,
            self.flags,
        );
        le_from_words(&cv)
    }

    /// The first 32 bytes of the root output.
    pub(crate) fn root_hash(&self, p: Platform) -> [u8; 32] {
        let mut cv = self.input_cv;
        kernels::compress_in_place(
            p,
            &mut cv,
            &self.block,
            self.block_len,
            0,
            self.flags | ROOT,
        );
        le_from_words(&cv)
    }

    /// Root output blocks `first_block`, `first_block + 1`, ... into `out` (whole blocks).
    pub(crate) fn root_output_blocks(&self, p: Platform, first_block: u64, out: &mut [u8]) {
        kernels::xof_many(
            p,
            &self.input_cv,
            &self.block,
            self.block_len,
            first_block,
            self.flags | ROOT,
            out,
        );
    }
}

/// The parent node of two children.
pub(crate) fn parent_output(left: &CvBytes, right: &CvBytes, params: Params) -> Output {
    let mut block = [0u8; BLOCK_LEN];
    block[..32].copy_from_slice(left);
    block[32..].copy_from_slice(right);
    Output {
        input_cv: params.key,
        block,
        block_len: BLOCK_LEN as u8,
        counter: 0,
        flags: params.flags | PARENT,
    }
}

/// The node of one chunk (`chunk.len() <= CHUNK_LEN`; empty only for the empty message) with
/// chunk index `counter`: every block but the last is compressed here.
pub(crate) fn chunk_output(p: Platform, chunk: &[u8], counter: u64, params: Params) -> Output {
    debug_assert!(chunk.len() <= CHUNK_LEN);
    let blocks = chunk.len().div_ceil(BLOCK_LEN).max(1);
    let prefix = (blocks - 1) * BLOCK_LEN;
    let mut input_cv = params.key;
    if blocks > 1 {
        let lane = Lane {
            input: &chunk[..prefix],
            cv: params.key,
            counter,
            flags_start: CHUNK_START,
            flags_end: 0,
            last_block_len: BLOCK_LEN as u8,
        };
        let mut cv = [[0u8; 32]];
        kernels::hash_lanes(p, &[lane], blocks - 1, params.flags, &mut cv);
        input_cv = words_from_le(&cv[0]);
    }
    let mut block = [0u8; BLOCK_LEN];
    block[..chunk.len() - prefix].copy_from_slice(&chunk[prefix..]);
    Output {
        input_cv,
        block,
        block_len: (chunk.len() - prefix) as u8,
        counter,
        flags: params.flags | CHUNK_END | if blocks == 1 { CHUNK_START } else { 0 },
    }
}

/// A placeholder to initialise lane arrays with.
pub(crate) const EMPTY_LANE: Lane<'static> = Lane {
    input: &[],
    cv: [0; 8],
    counter: 0,
    flags_start: 0,
    flags_end: 0,
    last_block_len: 0,
};

/// Chaining values of whole chunks (at most [`BATCH_CHUNKS`] + 1), the first with index `counter`,
/// in one `hash_lanes` call.
fn chunk_cvs(p: Platform, chunks: &[u8], counter: u64, params: Params, out: &mut [CvBytes]) {
    let mut lanes = [EMPTY_LANE; BATCH_CHUNKS + 1];
    let n = chunks.len() / CHUNK_LEN;
    for (i, (lane, chunk)) in lanes
        .iter_mut()
        .zip(chunks.chunks_exact(CHUNK_LEN))
        .enumerate()
    {
        *lane = Lane {
            input: chunk,
            cv: params.key,
            counter: counter + i as u64,
            flags_start: CHUNK_START,
            flags_end: CHUNK_END,
            last_block_len: BLOCK_LEN as u8,
        };
    }
    kernels::hash_lanes(p, &lanes[..n], CHUNK_LEN / BLOCK_LEN, params.flags, out);
}

/// Reduces the chaining values of a complete subtree (a power of two of them, at most
/// [`BATCH_CHUNKS`]) to the subtree's chaining value.
fn reduce(p: Platform, cvs: &mut [CvBytes], params: Params) -> CvBytes {
    debug_assert!(cvs.len().is_power_of_two());
    match reduce_to_two(p, cvs, params) {
        1 => cvs[0],
        _ => parent_output(&cvs[0], &cvs[1], params).chaining_value(p),
    }
}

/// Reduces the chaining values of consecutive chunks (at most [`BATCH_CHUNKS`]) level by level
/// until at most two remain, which are the children of their tree's top node; returns how many.
/// Each level's parents are hashed in one `hash_lanes` call, which runs them side by side
/// instead of one after another. Pairing adjacent nodes and carrying an odd last node up
/// unchanged gives BLAKE3's tree shape, whose left subtrees are complete.
fn reduce_to_two(p: Platform, cvs: &mut [CvBytes], params: Params) -> usize {
    debug_assert!(cvs.len() <= BATCH_CHUNKS);
    let mut n = cvs.len();
    let mut parents = [[0u8; 32]; BATCH_CHUNKS / 2];
    while n > 2 {
        let pairs = n / 2;
        let mut lanes = [EMPTY_LANE; BATCH_CHUNKS / 2];
        for (lane, pair) in lanes
            .iter_mut()
            .zip(cvs[..2 * pairs].as_flattened().chunks_exact(64))
        {
            *lane = parent_lane(pair, params, 0);
        }
        kernels::hash_lanes(p, &lanes[..pairs], 1, params.flags | PARENT, &mut parents);
        cvs[..pairs].copy_from_slice(&parents[..pairs]);
        if n % 2 == 1 {
            cvs[pairs] = cvs[n - 1];
        }
        n = pairs + n % 2;
    }
    n
}

/// The top node of a whole (sub)tree of 2 to [`BATCH_CHUNKS`] chunks, the first with index
/// `counter`: every chunk, the last too when it is whole, in one `hash_lanes` call, then the
/// parents level by level.
fn hash_short(p: Platform, input: &[u8], counter: u64, params: Params) -> Output {
    let n = input.len().div_ceil(CHUNK_LEN);
    debug_assert!((2..=BATCH_CHUNKS).contains(&n));
    let mut cvs = [[0u8; 32]; BATCH_CHUNKS];
    let whole = input.len() / CHUNK_LEN;
    chunk_cvs(
        p,
        &input[..whole * CHUNK_LEN],
        counter,
        params,
        &mut cvs[..whole],
    );
    if whole < n {
        let last = chunk_output(
            p,
            &input[whole * CHUNK_LEN..],
            counter + whole as u64,
            params,
        );
        cvs[whole] = last.chaining_value(p);
    }
    let cvs = &mut cvs[..n];
    reduce_to_two(p, cvs, params);
    parent_output(&cvs[0], &cvs[1], params)
}

/// A lane hashing one parent node; `flags_end` is ROOT for a root, else 0.
pub(crate) fn parent_lane(pair: &[u8], params: Params, flags_end: u8) -> Lane<'_> {
    Lane {
        input: pair,
        cv: params.key,
        counter: 0,
        flags_start: 0,
        flags_end,
        last_block_len: BLOCK_LEN as u8,
    }
}

/// The chaining value of a complete subtree of whole chunks (a power of two of them), the first
/// with index `counter`. With `parallel`, halves of large subtrees run on two rayon threads.
fn subtree_cv(p: Platform, input: &[u8], counter: u64, params: Params, parallel: bool) -> CvBytes {
    let n = input.len() / CHUNK_LEN;
    debug_assert!(n.is_power_of_two() && input.len().is_multiple_of(CHUNK_LEN));
    if n <= BATCH_CHUNKS {
        let mut cvs = [[0u8; 32]; BATCH_CHUNKS];
        chunk_cvs(p, input, counter, params, &mut cvs[..n]);
        return reduce(p, &mut cvs[..n], params);
    }
    let (left, right) = input.split_at(input.len() / 2);
    let right_counter = counter + n as u64 / 2;
    let (left, right) = join(
        parallel && should_split(input.len()),
        || subtree_cv(p, left, counter, params, parallel),
        || subtree_cv(p, right, right_counter, params, parallel),
    );
    parent_output(&left, &right, params).chaining_value(p)
}

#[cfg(feature = "rayon")]
fn should_split(len: usize) -> bool {
    len >= PARALLEL_MIN_SUBTREE
}

#[cfg(not(feature = "rayon"))]
fn should_split(_len: usize) -> bool {
    false
}

#[cfg(feature = "rayon")]
fn join<A, B, RA, RB>(parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if parallel {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}

#[cfg(not(feature = "rayon"))]
fn join<A, B, RA, RB>(_parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    (a(), b())
}

/// The largest power of two `<= n` (n > 0).
fn prev_power_of_two(n: u64) -> u64 {
    1 << (63 - n.leading_zeros())
}

/// The largest subtree, in chunks, that may start after `chunks` chunks of a (sub)tree.
fn max_subtree_chunks(chunks: u64) -> u64 {
    if chunks == 0 {
        u64::MAX
    } else {
        1 << chunks.trailing_zeros()
    }
}

/// The chaining values of the complete subtrees hashed so far, merged lazily: the last two may
/// be siblings that are merged only when more input proves they are not the root's children.
#[derive(Clone)]
pub(crate) struct Tree {
    params: Params,
    /// Index of the first chunk (nonzero only for a subtree hashed on its own).
    first_chunk: u64,
    /// Chunks hashed so far.
    chunks: u64,
    stack: [CvBytes; MAX_DEPTH],
    depth: usize,
}

impl Tree {
    pub(crate) fn new(params: Params, first_chunk: u64) -> Tree {
        Tree {
            params,
            first_chunk,
            chunks: 0,
            stack: [[0; 32]; MAX_DEPTH],
            depth: 0,
        }
    }

    pub(crate) fn params(&self) -> Params {
        self.params
    }

    pub(crate) fn first_chunk(&self) -> u64 {
        self.first_chunk
    }

    /// Chunks hashed so far.
    pub(crate) fn chunks(&self) -> u64 {
        self.chunks
    }

    /// Called when more input is known to follow: the entries then form the binary
    /// decomposition of the chunk count (largest subtree first), merging the pair left
    /// unmerged in case it was the root's children.
    fn merge_complete_subtrees(&mut self, p: Platform) {
        while self.depth > self.chunks.count_ones() as usize {
            let right = self.stack[self.depth - 1];
            let left = &self.stack[self.depth - 2];
            self.stack[self.depth - 2] = parent_output(left, &right, self.params).chaining_value(p);
            self.depth -= 1;
        }
    }

    fn push_cv(&mut self, p: Platform, cv: CvBytes, chunks: u64) {
        self.merge_complete_subtrees(p);
        self.stack[self.depth] = cv;
        self.depth += 1;
        self.chunks += chunks;
    }

    /// Hashes whole chunks that are known not to be the last of the input.
    pub(crate) fn push_chunks(&mut self, p: Platform, input: &[u8], parallel: bool) {
        self.hash_chunks(p, input, parallel, false);
    }

    /// Hashes whole chunks. With `ends_input`, the last of them is the input's last chunk: it
    /// is hashed in the same call as the chunks before it, and its chaining value is returned
    /// instead of pushed (it is not counted in `chunks`).
    fn hash_chunks(
        &mut self,
        p: Platform,
        mut input: &[u8],
        parallel: bool,
        ends_input: bool,
    ) -> Option<CvBytes> {
        debug_assert_eq!(input.len() % CHUNK_LEN, 0);
        let mut last = None;
        while !input.is_empty() {
            let counter = self.first_chunk + self.chunks;
            let available = (input.len() / CHUNK_LEN) as u64 - u64::from(ends_input);
            if available == 0 {
                let mut cv = [[0u8; 32]];
                chunk_cvs(p, input, counter, self.params, &mut cv);
                return Some(cv[0]);
            }
            let size = prev_power_of_two(available).min(max_subtree_chunks(self.chunks));
            if size >= BATCH_CHUNKS as u64 {
                let (subtree, rest) = input.split_at(size as usize * CHUNK_LEN);
                let cv = subtree_cv(p, subtree, counter, self.params, parallel);
                self.push_cv(p, cv, size);
                input = rest;
                continue;
            }
            // Up to the next batch boundary (and the input's last chunk, if it is reached): all
            // chunk CVs in one call, then each aligned subtree among them reduced on its own.
            let run = available.min(BATCH_CHUNKS as u64 - self.chunks % BATCH_CHUNKS as u64);
            let lanes = run + u64::from(ends_input && run == available);
            let (chunks, rest) = input.split_at(lanes as usize * CHUNK_LEN);
            let mut cvs = [[0u8; 32]; BATCH_CHUNKS + 1];
            chunk_cvs(p, chunks, counter, self.params, &mut cvs[..lanes as usize]);
            let mut done = 0;
            while done < run {
                let size = prev_power_of_two(run - done).min(max_subtree_chunks(self.chunks));
                let cvs = &mut cvs[done as usize..(done + size) as usize];
                let cv = reduce(p, cvs, self.params);
                self.push_cv(p, cv, size);
                done += size;
            }
            if lanes > run {
                last = Some(cvs[run as usize]);
            }
            input = rest;
        }
        last
    }

    /// The (sub)tree's top node, given the rest of the input after the pushed chunks: at least
    /// one byte unless nothing was pushed. With chunks before it, `tail` may hold several.
    pub(crate) fn finish(mut self, p: Platform, tail: &[u8]) -> Output {
        if self.chunks == 0 && tail.len() > CHUNK_LEN && tail.len() <= BATCH_CHUNKS * CHUNK_LEN {
            return hash_short(p, tail, self.first_chunk, self.params);
        }
        let whole = tail.len().saturating_sub(1) / CHUNK_LEN * CHUNK_LEN;
        let (chunks, last) = tail.split_at(whole);
        if last.len() == CHUNK_LEN && (self.chunks > 0 || !chunks.is_empty()) {
            // A whole last chunk below a parent: hashed as a lane beside the chunks before it.
            let right = self.hash_chunks(p, tail, false, true);
            return self.fold(p, right.expect("the last chunk was hashed"));
        }
        self.push_chunks(p, chunks, false);
        assert!(
            !last.is_empty() || self.chunks == 0,
            "the last chunk of a non-empty input is empty"
        );
        let last = chunk_output(p, last, self.first_chunk + self.chunks, self.params);
        if self.depth == 0 {
            return last;
        }
        self.fold(p, last.chaining_value(p))
    }

    /// The top node over the stack and the chaining value of the last chunk after it.
    fn fold(mut self, p: Platform, mut right: CvBytes) -> Output {
        // The last chunk follows the stack, so the stack holds whole left subtrees: merge any
        // complete pair, then fold from the top.
        self.merge_complete_subtrees(p);
        for left in self.stack[1..self.depth].iter().rev() {
            right = parent_output(left, &right, self.params).chaining_value(p);
        }
        parent_output(&self.stack[0], &right, self.params)
    }
}

/// The top node of a whole input (or of a subtree starting at chunk `first_chunk`).
pub(crate) fn hash_all(p: Platform, input: &[u8], params: Params, first_chunk: u64) -> Output {
    if input.len() <= CHUNK_LEN {
        return chunk_output(p, input, first_chunk, params);
    }
    Tree::new(params, first_chunk).finish(p, input)
}
