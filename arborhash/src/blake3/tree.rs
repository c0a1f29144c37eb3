//! The BLAKE3 tree, written once over the kernels in [`super::kernels`].
//!
//! An input is split into 1 KiB chunks, the leaves; each parent node compresses its two
//! children's chaining values, and the root is compressed with the ROOT flag so that it can
//! give any amount of output. The left child of every parent holds the largest power of two of
//! whole chunks that leaves at least one byte for the right, so the tree is fixed by the length.
//!
//! - [`chunk_output`] and [`parent_output`] are the two kinds of node, each an [`Output`]
//!   whose last compression waits until it is known whether the node is the root.
//! - [`subtree_wide`] hashes a whole subtree level by level, each level in as few kernel calls
//!   as the backend's lanes allow, since a call of N lanes costs about as much as one of one.
//! - [`CvStack`] takes complete subtrees one after another and merges them lazily, so that an
//!   input whose length is not known in advance still ends in the right root.
//!
//! The incremental hasher's buffering is a layer on top of this one (`super::buffer`); the
//! one-shot functions, the subtree API and that layer all reach the kernels through this file.

use core::mem::MaybeUninit;

use super::dispatch;
use super::kernels::{
    Lane, Run, BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START, DERIVE_KEY_CONTEXT,
    DERIVE_KEY_MATERIAL, IV, KEYED_HASH, PARENT, ROOT,
};
use crate::platform::Platform;
use crate::threads::join;
pub(crate) use crate::threads::Threads;

/// Bytes in the default output.
pub(crate) const OUT_LEN: usize = 32;

/// Bytes in a key of the keyed hash.
pub(crate) const KEY_LEN: usize = 32;

/// The most chunks hashed in one `hash_lanes` call where the subtrees after an unaligned start
/// are small: up to the next multiple of 32 chunks, all at once.
const BATCH_CHUNKS: usize = 32;

/// Inputs at least this long are hashed on several threads by the rayon variants; shorter ones
/// on the calling thread, where waking rayon's pool costs more than threads gain.
#[cfg(feature = "rayon")]
pub(crate) const PARALLEL_MIN_INPUT: usize = 1 << 20;

/// Once an input is hashed on several threads, its subtrees are split into tasks of at least
/// this size, where smaller tasks would cost more in scheduling than they gain in balance.
#[cfg(feature = "rayon")]
const PARALLEL_TASK: usize = 128 * 1024;

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

impl Params {
    pub(crate) const HASH: Params = Params { key: IV, flags: 0 };

    pub(crate) fn keyed(key: &[u8; KEY_LEN]) -> Params {
        Params {
            key: words_from_le(key),
            flags: KEYED_HASH,
        }
    }

    pub(crate) fn derive_key_material(context_key: &[u8; 32]) -> Params {
        Params {
            key: words_from_le(context_key),
            flags: DERIVE_KEY_MATERIAL,
        }
    }
}

/// The hash of `context` in the derive-key context mode: the key of the key-material stage.
/// Bytes rather than a string, for `hazmat::hash_derive_key_context_bytes`.
pub(crate) fn context_key(p: Platform, context: &[u8]) -> [u8; 32] {
    let params = Params {
        key: IV,
        flags: DERIVE_KEY_CONTEXT,
    };
    root_hash_all(p, context, params)
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
        dispatch::compress_in_place(
            p,
            &mut cv,
            core::slice::from_ref(&self.block),
            self.block_len,
            self.counter,
            self.flags,
            0,
        );
        le_from_words(&cv)
    }

    /// The first 32 bytes of the root output.
    pub(crate) fn root_hash(&self, p: Platform) -> [u8; 32] {
        let mut cv = self.input_cv;
        dispatch::compress_in_place(
            p,
            &mut cv,
            core::slice::from_ref(&self.block),
            self.block_len,
            0,
            self.flags | ROOT,
            0,
        );
        le_from_words(&cv)
    }

    /// Root output blocks `first_block`, `first_block + 1`, ... into `out` (whole blocks).
    pub(crate) fn root_output_blocks(&self, p: Platform, first_block: u64, out: &mut [u8]) {
        dispatch::xof_many(
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
    parent_block_output(block, params)
}

/// The parent node whose block (its children's chaining values) is `block`.
fn parent_block_output(block: [u8; BLOCK_LEN], params: Params) -> Output {
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
    // One kernel call for the blocks before the last, the chaining value kept in registers,
    // since a one-lane `hash_run` costs about a compression to set up.
    let (whole, _) = chunk[..prefix].as_chunks::<BLOCK_LEN>();
    if !whole.is_empty() {
        dispatch::compress_in_place(
            p,
            &mut input_cv,
            whole,
            BLOCK_LEN as u8,
            counter,
            params.flags,
            CHUNK_START,
        );
    }
    let last = &chunk[prefix..];
    // A whole last block is copied at a fixed size, inline, since a call of `memcpy` and its
    // size dispatch costs a short message more than its compression.
    let block = match last.try_into() {
        Ok(whole) => whole,
        Err(_) => padded_block(last),
    };
    Output {
        input_cv,
        block,
        block_len: last.len() as u8,
        counter,
        flags: params.flags | CHUNK_END | if blocks == 1 { CHUNK_START } else { 0 },
    }
}

/// `bytes` (less than a block) zero-padded to a block, built in registers from loads within
/// `bytes` and stored 16 bytes at a time, as the kernels load it: a kernel load that spans
/// several smaller stores (a `memcpy` over a zeroed block) waits for them to reach the cache.
#[inline(always)]
pub(crate) fn padded_block(bytes: &[u8]) -> [u8; BLOCK_LEN] {
    debug_assert!(bytes.len() < BLOCK_LEN);
    let len = bytes.len();
    let read_u64 = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let mut words = [0u64; BLOCK_LEN / 8];
    if len >= 8 {
        // Word `j` from the eight bytes at `8 * j`, or, for the partial last word, from the
        // last eight of `bytes` shifted down past the bytes before the word.
        for (j, word) in words.iter_mut().enumerate() {
            let at = 8 * j;
            if at < len {
                let from = at.min(len - 8);
                *word = read_u64(from) >> (8 * (at - from));
            }
        }
    } else if len >= 4 {
        // Two overlapping four-byte loads; the bytes they share are the same in both.
        let read_u32 = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        words[0] = u64::from(read_u32(0)) | u64::from(read_u32(len - 4)) << (8 * (len - 4));
    } else if len > 0 {
        // The first, middle and last bytes: all three of one to three.
        let byte = |at: usize| u64::from(bytes[at]) << (8 * at);
        words[0] = byte(0) | byte(len / 2) | byte(len - 1);
    }
    block_from_words(&words)
}

/// The block of eight little-endian words, stored as four 16-byte pieces (see
/// [`padded_block`]).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block_from_words(words: &[u64; BLOCK_LEN / 8]) -> [u8; BLOCK_LEN] {
    use core::arch::x86_64::{__m128i, _mm_set_epi64x};
    // Each piece is two 64-bit moves and an unpack, then one store.
    // SAFETY: SSE2 is part of x86-64.
    let pieces: [__m128i; 4] = core::array::from_fn(|i| unsafe {
        _mm_set_epi64x(words[2 * i + 1] as i64, words[2 * i] as i64)
    });
    // SAFETY: four `__m128i` are 64 plain bytes, every bit pattern a valid `[u8; 64]`.
    unsafe { core::mem::transmute::<[__m128i; 4], [u8; BLOCK_LEN]>(pieces) }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn block_from_words(words: &[u64; BLOCK_LEN / 8]) -> [u8; BLOCK_LEN] {
    let mut block = [0u8; BLOCK_LEN];
    for (bytes, word) in block.chunks_exact_mut(8).zip(words) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    block
}

/// The whole chunks `chunks` as a run, the first with index `counter`, `flags` on every block.
pub(crate) fn chunk_run<'a>(
    chunks: &'a [u8],
    key: &'a [u32; 8],
    counter: u64,
    flags: u8,
) -> Run<'a> {
    Run {
        input: chunks,
        blocks: CHUNK_LEN / BLOCK_LEN,
        key,
        counter,
        step: 1,
        flags,
        flags_start: CHUNK_START,
        flags_end: CHUNK_END,
    }
}

/// The parent nodes `pairs` (two chaining values each) as a run, with `flags` and PARENT.
pub(crate) fn parent_run<'a>(pairs: &'a [u8], key: &'a [u32; 8], flags: u8) -> Run<'a> {
    Run {
        input: pairs,
        blocks: 1,
        key,
        counter: 0,
        step: 0,
        flags: flags | PARENT,
        flags_start: 0,
        flags_end: 0,
    }
}

/// Chaining values of whole chunks, the first with index `counter`, in one `hash_run` call.
pub(crate) fn chunk_cvs(
    p: Platform,
    chunks: &[u8],
    counter: u64,
    params: Params,
    out: &mut [CvBytes],
) {
    let run = chunk_run(chunks, &params.key, counter, params.flags);
    dispatch::hash_run(p, run, out);
}

/// Hashes one level of parents: adjacent pairs of `cvs` in one `hash_run` call, into `out`,
/// an odd last node carried up unchanged; returns how many nodes the level above has. Within a
/// run of nodes whose left part is a complete subtree at least as wide as the rest, this gives
/// BLAKE3's tree shape.
fn parent_level(p: Platform, cvs: &[CvBytes], params: Params, out: &mut [CvBytes]) -> usize {
    let pairs = cvs.len() / 2;
    let run = parent_run(cvs[..2 * pairs].as_flattened(), &params.key, params.flags);
    dispatch::hash_run(p, run, out);
    if cvs.len() % 2 == 1 {
        out[pairs] = cvs[cvs.len() - 1];
    }
    pairs + cvs.len() % 2
}

/// Reduces the nodes of one (sub)tree (at most [`2 * WIDE`](WIDE)), level by level, until at
/// most two remain, which are the children of its top node; returns how many.
fn reduce_to_two(p: Platform, cvs: &mut [CvBytes], params: Params) -> usize {
    let mut n = cvs.len();
    let mut parents = [[0u8; 32]; WIDE];
    // Two levels a round, the second back into `cvs`: only the last level's two nodes (or
    // one) are copied.
    while n > 2 {
        n = parent_level(p, &cvs[..n], params, &mut parents);
        if n <= 2 {
            // One or two nodes, copied as such rather than by a call of `memcpy`.
            cvs[0] = parents[0];
            if n == 2 {
                cvs[1] = parents[1];
            }
            break;
        }
        n = parent_level(p, &parents[..n], params, cvs);
    }
    n
}

/// Reduces the nodes of a complete subtree (a power of two of them, at least [`WIDE`]), in
/// place, level by level with `WIDE` lanes, to its `WIDE` nodes; returns how many that is.
pub(crate) fn reduce_to_wide(p: Platform, cvs: &mut [CvBytes], params: Params) -> usize {
    let mut n = cvs.len();
    while n > WIDE {
        let mut parents = [[0u8; 32]; WIDE];
        for i in (0..n).step_by(2 * WIDE) {
            parent_level(p, &cvs[i..i + 2 * WIDE], params, &mut parents);
            cvs[i / 2..i / 2 + WIDE].copy_from_slice(&parents);
        }
        n /= 2;
    }
    n
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

/// The most nodes of one level hashed at once: one full `hash_lanes` call of the widest backend
/// (AVX-512's 16 lanes; two of AVX2's 8); [`subtree_wide`] reduces a subtree to at most this
/// many (to the backend's lanes, see [`leaf_chunks`]), and the held-back levels of the
/// buffer layer come in groups of this many.
pub(crate) const WIDE: usize = 16;

/// The chaining values of the chunks of `input` (at most [`WIDE`] chunks, only the last
/// partial), the first with index `counter`, in one call; returns how many.
fn chunk_level(
    p: Platform,
    input: &[u8],
    counter: u64,
    params: Params,
    out: &mut [CvBytes],
) -> usize {
    let n = input.len().div_ceil(CHUNK_LEN);
    let whole = input.len() / CHUNK_LEN;
    chunk_cvs(p, &input[..whole * CHUNK_LEN], counter, params, out);
    if whole < n {
        let last = &input[whole * CHUNK_LEN..];
        out[whole] = chunk_output(p, last, counter + whole as u64, params).chaining_value(p);
    }
    n
}

/// Chunks at the bottom of [`subtree_wide`]: as many as one kernel call hashes at once (the
/// portable backend's calls take [`WIDE`], one after another), so that each level above, over
/// two halves' nodes, is one call too, and no level is left with a few lanes of a call.
fn leaf_chunks(p: Platform) -> usize {
    match dispatch::degree(p) {
        1 => WIDE,
        lanes => lanes.min(WIDE),
    }
}

/// Bytes in the left subtree of a node over `len > CHUNK_LEN` bytes: the largest power of two of
/// whole chunks that leaves at least one byte for the right.
pub(crate) fn left_len(len: u64) -> u64 {
    debug_assert!(len > CHUNK_LEN as u64);
    (CHUNK_LEN as u64) << (63 - ((len - 1) / CHUNK_LEN as u64).leading_zeros())
}

/// The nodes of the (sub)tree over `input` (at least one byte; only its last chunk may be
/// partial), the first chunk with index `counter`, at the lowest level that has at most
/// [`leaf_chunks`] nodes (`width`, at most [`WIDE`]), into `out` (room for `width`); returns how
/// many. Up to `width` chunks are hashed in one call; above that the halves (on two rayon
/// threads with [`Threads::Pool`], if large) each return `width` nodes or fewer, and one `width`-lane
/// call hashes the parents over both, so every level of a large tree runs full width.
fn subtree_wide(
    p: Platform,
    input: &[u8],
    counter: u64,
    params: Params,
    threads: Threads,
    out: &mut [CvBytes],
) -> usize {
    // One call's worth of chunks needs no room for halves. Four-lane backends' halves fill
    // eight nodes: zeroing room for those takes a few stores, where room for `2 * WIDE` takes a
    // call of `memset` at every level.
    let width = leaf_chunks(p);
    if input.len() <= width * CHUNK_LEN {
        return chunk_level(p, input, counter, params, out);
    }
    if width <= 4 {
        subtree_wide_in::<8>(p, width, input, counter, params, threads, out)
    } else {
        subtree_wide_in::<{ 2 * WIDE }>(p, width, input, counter, params, threads, out)
    }
}

/// [`subtree_wide`] with room for `ROOM` nodes of the halves (at least `2 * width`), `width`
/// being [`leaf_chunks`].
#[allow(clippy::too_many_arguments)]
fn subtree_wide_in<const ROOM: usize>(
    p: Platform,
    width: usize,
    input: &[u8],
    counter: u64,
    params: Params,
    threads: Threads,
    out: &mut [CvBytes],
) -> usize {
    debug_assert!(!input.is_empty());
    let n = input.len().div_ceil(CHUNK_LEN);
    if n <= width {
        return chunk_level(p, input, counter, params, out);
    }
    if n <= (2 * width).min(WIDE) {
        // Up to two calls' worth of chunks in one call, then their parents in one: as the
        // halves would, without splitting.
        let mut cvs = [[0u8; 32]; WIDE];
        let n = chunk_level(p, input, counter, params, &mut cvs);
        return parent_level(p, &cvs[..n], params, out);
    }
    let (left, right) = input.split_at(left_len(input.len() as u64) as usize);
    let right_counter = counter + (left.len() / CHUNK_LEN) as u64;
    // The halves' nodes side by side: the left's `width`, then the right's.
    let mut children = [[0u8; 32]; ROOM];
    let (left_out, right_out) = children.split_at_mut(width);
    let (left_n, right_n) = join(
        threads == Threads::Pool && should_split(input.len()),
        || subtree_wide_in::<ROOM>(p, width, left, counter, params, threads, left_out),
        || subtree_wide_in::<ROOM>(p, width, right, right_counter, params, threads, right_out),
    );
    // The left half is complete, so it returns a full `WIDE` nodes, as many as or more than the
    // right: its pairs never straddle the halves.
    debug_assert!(left_n == width && right_n <= width);
    parent_level(p, &children[..left_n + right_n], params, out)
}

/// The root hash of a whole input, the one-shot functions' result. An input of one block is
/// compressed here, from the input itself when it is a whole block, rather than through
/// [`chunk_output`] and an [`Output`]: each copy of the key and the block on the way (two or
/// three, between frames) is a store that the compression's first loads wait on, and a single
/// compression is one long chain of latencies that nothing else overlaps. So is the root of
/// more than one chunk, from the buffer that its children's level was hashed into.
#[inline]
pub(crate) fn root_hash_all(p: Platform, input: &[u8], params: Params) -> [u8; 32] {
    if input.len() > CHUNK_LEN {
        let mut cvs = [[0u8; 32]; WIDE];
        let block = top_block(p, input, params, 0, &mut cvs);
        let mut cv = params.key;
        let flags = params.flags | PARENT | ROOT;
        let blocks = core::slice::from_ref(block);
        dispatch::compress_in_place(p, &mut cv, blocks, BLOCK_LEN as u8, 0, flags, 0);
        return le_from_words(&cv);
    }
    if input.len() > BLOCK_LEN {
        return chunk_output(p, input, 0, params).root_hash(p);
    }
    let padded;
    let block = match input.try_into() {
        Ok(whole) => whole,
        Err(_) => {
            padded = padded_block(input);
            &padded
        }
    };
    let mut cv = params.key;
    let flags = params.flags | CHUNK_START | CHUNK_END | ROOT;
    let blocks = core::slice::from_ref(block);
    dispatch::compress_in_place(p, &mut cv, blocks, input.len() as u8, 0, flags, 0);
    le_from_words(&cv)
}

/// The top node of a whole input (or of a subtree starting at chunk `first_chunk`).
pub(crate) fn hash_all(p: Platform, input: &[u8], params: Params, first_chunk: u64) -> Output {
    if input.len() <= CHUNK_LEN {
        return chunk_output(p, input, first_chunk, params);
    }
    let mut cvs = [[0u8; 32]; WIDE];
    parent_block_output(*top_block(p, input, params, first_chunk, &mut cvs), params)
}

/// The block of the top node of the tree over `input` (more than a chunk, the first with index
/// `first_chunk`): its children's chaining values, reduced in `cvs`.
#[inline(always)]
fn top_block<'a>(
    p: Platform,
    input: &[u8],
    params: Params,
    first_chunk: u64,
    cvs: &'a mut [CvBytes; WIDE],
) -> &'a [u8; BLOCK_LEN] {
    debug_assert!(input.len() > CHUNK_LEN);
    let n = subtree_wide(p, input, first_chunk, params, Threads::Caller, cvs);
    let n = reduce_to_two(p, &mut cvs[..n], params);
    debug_assert_eq!(n, 2);
    cvs[..2].as_flattened().try_into().unwrap()
}

/// Whether the rayon variants hash an input of `len` bytes on several threads.
#[cfg(feature = "rayon")]
fn uses_threads(len: usize) -> bool {
    len >= PARALLEL_MIN_INPUT
}

#[cfg(not(feature = "rayon"))]
fn uses_threads(_len: usize) -> bool {
    false
}

/// Whether a subtree of `len` bytes hashed on several threads is split into two tasks.
#[cfg(feature = "rayon")]
fn should_split(len: usize) -> bool {
    len >= 2 * PARALLEL_TASK
}

#[cfg(not(feature = "rayon"))]
fn should_split(_len: usize) -> bool {
    false
}

/// The largest power of two `<= n` (n > 0).
pub(crate) fn prev_power_of_two(n: u64) -> u64 {
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

/// The chaining values of the complete subtrees hashed so far, largest first.
///
/// Merging is lazy. A subtree's chaining value is pushed as soon as it is complete, but two
/// entries are merged into their parent only when more input arrives: until then the last two
/// might be the root's children, and the root must be compressed with the ROOT flag, not as a
/// chaining value. So after a push the stack may hold one entry more than the binary
/// decomposition of the chunk count, and the next push first merges it away.
pub(crate) struct CvStack {
    params: Params,
    /// Index of the first chunk (nonzero only for a subtree hashed on its own).
    first_chunk: u64,
    /// Chunks hashed into the stack.
    chunks: u64,
    /// Entries below `depth` are initialised: zeroing all of them would cost a short message
    /// as much as hashing it.
    stack: [MaybeUninit<CvBytes>; MAX_DEPTH],
    depth: usize,
}

/// Copies only the initialised entries, since few of the stack's room are ever in use.
impl Clone for CvStack {
    fn clone(&self) -> CvStack {
        let mut copy = CvStack::new(self.params, self.first_chunk);
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &CvStack) {
        // Every field named, so that one added later cannot be left out of the copy.
        let CvStack {
            params,
            first_chunk,
            chunks,
            ref stack,
            depth,
        } = *source;
        self.params = params;
        self.first_chunk = first_chunk;
        self.chunks = chunks;
        self.stack[..depth].copy_from_slice(&stack[..depth]);
        self.depth = depth;
    }
}

impl CvStack {
    pub(crate) fn new(params: Params, first_chunk: u64) -> CvStack {
        CvStack {
            params,
            first_chunk,
            chunks: 0,
            // SAFETY: an array of `MaybeUninit` needs no initialisation. (Not a constant
            // `[MaybeUninit::uninit(); N]`, which LLVM may fill with zeros.)
            stack: unsafe {
                MaybeUninit::<[MaybeUninit<CvBytes>; MAX_DEPTH]>::uninit().assume_init()
            },
            depth: 0,
        }
    }

    pub(crate) fn params(&self) -> Params {
        self.params
    }

    pub(crate) fn first_chunk(&self) -> u64 {
        self.first_chunk
    }

    /// Chunks hashed into the stack.
    pub(crate) fn chunks(&self) -> u64 {
        self.chunks
    }

    /// The entries, largest subtree first.
    fn entries(&self) -> &[CvBytes] {
        // SAFETY: `push_cv` writes an entry before counting it in `depth`, and `depth` shrinks
        // only by merging, which writes the entry it keeps; `MaybeUninit<T>` has T's layout.
        unsafe { core::slice::from_raw_parts(self.stack.as_ptr().cast(), self.depth) }
    }

    /// Called when more input is known to follow: merges entries until they are the binary
    /// decomposition of the chunk count (one entry per 1 bit, largest subtree first), since
    /// the pair left unmerged by the last push cannot be the root's children any more.
    fn merge_cv_stack(&mut self, p: Platform) {
        while self.depth > self.chunks.count_ones() as usize {
            let [left, right] = [self.depth - 2, self.depth - 1].map(|i| self.entries()[i]);
            let parent = parent_output(&left, &right, self.params).chaining_value(p);
            self.stack[self.depth - 2].write(parent);
            self.depth -= 1;
        }
    }

    /// Pushes the chaining value of a complete subtree of `chunks` chunks, after merging what
    /// the previous push left unmerged (this push proves it was not the end).
    fn push_cv(&mut self, p: Platform, cv: CvBytes, chunks: u64) {
        self.merge_cv_stack(p);
        self.stack[self.depth].write(cv);
        self.depth += 1;
        self.chunks += chunks;
    }

    /// Pushes a complete subtree of `chunks` chunks given its nodes (one level of it): when it
    /// has two or more chunks, as its top node's two children, left unmerged in case it ends the
    /// input and its top node is the root.
    pub(crate) fn push_subtree(&mut self, p: Platform, cvs: &mut [CvBytes], chunks: u64) {
        match reduce_to_two(p, cvs, self.params) {
            1 => self.push_cv(p, cvs[0], chunks),
            _ => {
                self.push_cv(p, cvs[0], chunks / 2);
                self.push_cv(p, cvs[1], chunks / 2);
            }
        }
    }

    /// Hashes whole chunks as the largest complete subtrees their position allows. They may end
    /// the input: the stack then still holds the children of the root (a lone chunk at the
    /// start is not hashed this way, see [`CvStack::finish`]).
    pub(crate) fn push_chunks(&mut self, p: Platform, mut input: &[u8], threads: Threads) {
        debug_assert_eq!(input.len() % CHUNK_LEN, 0);
        let threads = if uses_threads(input.len()) {
            threads
        } else {
            Threads::Caller
        };
        while !input.is_empty() {
            let counter = self.first_chunk + self.chunks;
            let available = (input.len() / CHUNK_LEN) as u64;
            let size = prev_power_of_two(available).min(max_subtree_chunks(self.chunks));
            if size >= WIDE as u64 {
                let (subtree, rest) = input.split_at(size as usize * CHUNK_LEN);
                let mut cvs = [[0u8; 32]; WIDE];
                let n = subtree_wide(p, subtree, counter, self.params, threads, &mut cvs);
                self.push_subtree(p, &mut cvs[..n], size);
                input = rest;
                continue;
            }
            // Smaller subtrees (after an unaligned start): all chunks up to the next batch
            // boundary in one call, then each aligned subtree among them pushed on its own.
            let run = available.min(BATCH_CHUNKS as u64 - self.chunks % BATCH_CHUNKS as u64);
            let (chunks, rest) = input.split_at(run as usize * CHUNK_LEN);
            let mut cvs = [[0u8; 32]; BATCH_CHUNKS];
            chunk_cvs(p, chunks, counter, self.params, &mut cvs[..run as usize]);
            let mut done = 0;
            while done < run {
                let size = prev_power_of_two(run - done).min(max_subtree_chunks(self.chunks));
                let cvs = &mut cvs[done as usize..(done + size) as usize];
                self.push_subtree(p, cvs, size);
                done += size;
            }
            input = rest;
        }
    }

    /// The (sub)tree's top node, given the rest of the input after the pushed chunks (possibly
    /// none of it, but not after a lone pushed chunk): the stack's entries end the input now,
    /// so they are folded from the right instead of merged.
    pub(crate) fn finish(&mut self, p: Platform, tail: &[u8]) -> Output {
        if !tail.is_empty() {
            // Complete subtrees while what follows does not fit below the stack's last entry;
            // the rest is one subtree, the right edge of the tree.
            let end = self.chunks + tail.len().div_ceil(CHUNK_LEN) as u64;
            let mut start = self.chunks;
            while end - start > max_subtree_chunks(start) {
                start += max_subtree_chunks(start);
            }
            let (complete, last) = tail.split_at((start - self.chunks) as usize * CHUNK_LEN);
            self.push_chunks(p, complete, Threads::Caller);
            let counter = self.first_chunk + self.chunks;
            let cv = hash_all(p, last, self.params, counter).chaining_value(p);
            self.push_cv(p, cv, end - start);
        }
        assert!(self.depth >= 2, "a lone pushed chunk has no top node");
        let entries = self.entries();
        let mut right = entries[entries.len() - 1];
        for left in entries[1..entries.len() - 1].iter().rev() {
            right = parent_output(left, &right, self.params).chaining_value(p);
        }
        parent_output(&entries[0], &right, self.params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_block_is_the_bytes_then_zeros() {
        let bytes: Vec<u8> = (1..=BLOCK_LEN as u8).collect();
        for len in 0..BLOCK_LEN {
            // The slice ends where the vector's bytes do, so a load past it would be caught.
            let tail = &bytes[BLOCK_LEN - len..];
            let mut want = [0u8; BLOCK_LEN];
            want[..len].copy_from_slice(tail);
            assert_eq!(padded_block(tail), want, "len {len}");
        }
    }
}
