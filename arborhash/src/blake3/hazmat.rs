//! Subtrees: hashing parts of one input separately (on other threads or machines) and merging
//! their chaining values into the hash of the whole, with the API of the `blake3` crate's
//! `hazmat` module ([`HasherExt`], the `merge_subtrees_*` functions, [`max_subtree_len`],
//! [`left_subtree_len`], [`hash_derive_key_context`]), plus one-shot subtrees on the wide
//! kernels ([`hash_subtree`]), roots of single-chunk inputs ([`single_chunk_root`]), and the
//! chaining values of many chunks or parents at once, for trees that keep every node's value
//! (Bao's): [`chunk_chaining_values`], [`chunk_chaining_values_copying`] and
//! [`parent_chaining_values`].
//!
//! # Which subtrees are valid
//!
//! BLAKE3's tree is fixed by the input length: the left child of every parent holds the largest
//! power of two of whole chunks that leaves at least one byte for the right. So a part of the
//! input can be hashed on its own only if it is one of those subtrees:
//!
//! - it starts at a byte offset that is a multiple of [`CHUNK_LEN`]; call its first chunk index
//!   `N = offset / CHUNK_LEN`;
//! - it holds at most `2^(trailing zeros of N)` chunks (any number if `N == 0`), which is
//!   [`max_subtree_len`];
//! - unless it is the last part of the input, it holds a power-of-two number of whole chunks;
//!   the last part may end with a partial chunk, but holds at least one byte.
//!
//! A [`Hasher`] made a subtree hasher by [`HasherExt::set_input_offset`] panics, as the crate's
//! does, when an offset breaks the first rule, when an `update` breaks the second, and when
//! [`HasherExt::finalize_non_root`] finds it empty. [`hash_subtree`] checks the same and returns
//! a [`SubtreeError`] instead. The third rule depends on what comes after and cannot be
//! checked. Two sibling chaining values merge with [`merge_subtrees_non_root`], and the root's
//! two children with [`merge_subtrees_root`] or [`merge_subtrees_root_xof`]. An input of at most
//! one chunk has no parents: its root comes from [`single_chunk_root`], or from a plain
//! `Hasher`. [`left_subtree_len`] says where the root (or any parent over `len` bytes) splits.
//!
//! ```
//! use arborhash::blake3::{self, hazmat::{self, HasherExt, Mode}};
//! let input = vec![7u8; 5000];
//! let split = hazmat::left_subtree_len(input.len() as u64); // 4096
//! let left = blake3::Hasher::new().update(&input[..split as usize]).finalize_non_root();
//! let right = blake3::Hasher::new()
//!     .set_input_offset(split)
//!     .update(&input[split as usize..])
//!     .finalize_non_root();
//! assert_eq!(hazmat::merge_subtrees_root(&left, &right, Mode::Hash), blake3::hash(&input));
//! // The same subtree in one call, on the kernels `blake3::hash` uses.
//! assert_eq!(hazmat::hash_subtree(Mode::Hash, split, &input[split as usize..]), Ok(right));
//! ```
//!
//! Mistakes that pass these checks (merging subtrees that are not siblings, a short subtree that
//! is not last) give a wrong hash, never an error: compare with [`super::hash`] in tests.

use core::fmt;

use super::dispatch::{hash_chunks_copying, hash_run};
use super::hash::Hash;
use super::hasher::Hasher;
use super::kernels::{Lane, BLOCK_LEN, CHUNK_END, CHUNK_START, EMPTY_LANE};
use super::output::OutputReader;
use super::tree::{chunk_output, context_key, hash_all, left_len, parent_output, Params, KEY_LEN};
use super::tree::{chunk_run, parent_run};
use super::CHUNK_LEN;
use crate::platform::Platform;

/// A non-root hash of a chunk or subtree.
pub type ChainingValue = [u8; 32];

/// The hashed context string of the derive-key mode, from [`hash_derive_key_context`].
pub type ContextKey = [u8; 32];

/// Which of the three BLAKE3 functions a subtree belongs to. Every part of one input must be
/// hashed and merged in the same mode.
#[derive(Clone, Copy, Debug)]
pub enum Mode<'a> {
    /// [`hash`](super::hash).
    Hash,
    /// [`keyed_hash`](super::keyed_hash) with this key.
    KeyedHash(&'a [u8; KEY_LEN]),
    /// [`derive_key`](super::derive_key), with the context key from
    /// [`hash_derive_key_context`].
    DeriveKeyMaterial(&'a ContextKey),
}

impl Mode<'_> {
    fn params(self) -> Params {
        match self {
            Mode::Hash => Params::HASH,
            Mode::KeyedHash(key) => Params::keyed(key),
            Mode::DeriveKeyMaterial(context_key) => Params::derive_key_material(context_key),
        }
    }
}

/// The subtree methods of [`Hasher`], as the `blake3` crate has them.
pub trait HasherExt {
    /// A hasher for the key-material stage of [`derive_key`](super::derive_key), from a context
    /// key hashed once by [`hash_derive_key_context`].
    fn new_from_context_key(context_key: &ContextKey) -> Self;

    /// Makes the hasher hash the subtree starting `offset` bytes into the whole input; finish
    /// it with [`finalize_non_root`](HasherExt::finalize_non_root). Later `update`s panic if
    /// the subtree grows past [`max_subtree_len`]`(offset)`, and `finalize` and `finalize_xof`
    /// panic if `offset` is not 0. Panics if the hasher has taken input, or if `offset` is not a
    /// multiple of [`CHUNK_LEN`].
    fn set_input_offset(&mut self, offset: u64) -> &mut Self;

    /// The chaining value of the subtree hashed so far, to merge with
    /// [`merge_subtrees_non_root`], [`merge_subtrees_root`] or [`merge_subtrees_root_xof`].
    /// Panics if no input was added: empty subtrees are never valid.
    fn finalize_non_root(&self) -> ChainingValue;
}

impl HasherExt for Hasher {
    fn new_from_context_key(context_key: &ContextKey) -> Hasher {
        Hasher::from_params(Params::derive_key_material(context_key))
    }

    fn set_input_offset(&mut self, offset: u64) -> &mut Hasher {
        assert_eq!(self.count(), 0, "hasher has already accepted input");
        assert!(
            offset.is_multiple_of(CHUNK_LEN as u64),
            "offset ({offset}) must be a chunk boundary (divisible by {CHUNK_LEN})"
        );
        self.set_first_chunk(offset / CHUNK_LEN as u64);
        self
    }

    fn finalize_non_root(&self) -> ChainingValue {
        assert_ne!(self.count(), 0, "empty subtrees are never valid");
        let p = Platform::current();
        self.top_node(p).chaining_value(p)
    }
}

/// Hashes a derive-key context string once, for [`Mode::DeriveKeyMaterial`].
pub fn hash_derive_key_context(context: &str) -> ContextKey {
    context_key(Platform::current(), context.as_bytes())
}

/// [`hash_derive_key_context`] for a context given as bytes, which need not be UTF-8: what the
/// official C API's `blake3_hasher_init_derive_key_raw` hashes. Contexts should be hardcoded
/// strings; this is for callers that receive them as bytes. Not in the `blake3` crate.
pub fn hash_derive_key_context_bytes(context: &[u8]) -> ContextKey {
    context_key(Platform::current(), context)
}

/// Why a subtree cannot be hashed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubtreeError {
    /// Subtrees start at a multiple of [`CHUNK_LEN`].
    OffsetNotChunkAligned {
        /// The offset given.
        offset: u64,
    },
    /// A subtree holds at least one byte.
    Empty,
    /// The subtree starting at `offset` holds at most `max` bytes ([`max_subtree_len`]).
    TooLong {
        /// The subtree's start.
        offset: u64,
        /// The length given.
        len: u64,
        /// The most bytes a subtree starting there can hold.
        max: u64,
    },
    /// [`single_chunk_root`] takes at most [`CHUNK_LEN`] bytes; longer inputs have parents.
    NotSingleChunk {
        /// The length given.
        len: u64,
    },
}

impl fmt::Display for SubtreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SubtreeError::OffsetNotChunkAligned { offset } => write!(
                f,
                "subtree offset {offset} is not a multiple of the chunk length {CHUNK_LEN}"
            ),
            SubtreeError::Empty => f.write_str("a subtree holds at least one byte"),
            SubtreeError::TooLong { offset, len, max } => write!(
                f,
                "the subtree starting at {offset} holds at most {max} bytes, not {len}"
            ),
            SubtreeError::NotSingleChunk { len } => write!(
                f,
                "an input of {len} bytes is longer than one chunk ({CHUNK_LEN} bytes)"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SubtreeError {}

/// The most bytes a subtree starting at `input_offset` can hold: `None` for offset 0 (no
/// limit), `CHUNK_LEN * 2^(trailing zeros of offset / CHUNK_LEN)` otherwise. Panics if the
/// offset is not a multiple of [`CHUNK_LEN`] (no subtree starts there).
pub fn max_subtree_len(input_offset: u64) -> Option<u64> {
    if input_offset == 0 {
        return None;
    }
    assert!(
        input_offset.is_multiple_of(CHUNK_LEN as u64),
        "subtree offset {input_offset} is not a multiple of the chunk length {CHUNK_LEN}"
    );
    let chunk_index = input_offset / CHUNK_LEN as u64;
    Some((CHUNK_LEN as u64) << chunk_index.trailing_zeros())
}

/// The length of the left child of a parent over `input_len` bytes: the largest power of two
/// of whole chunks that leaves at least one byte for the right child. Panics if
/// `input_len <= CHUNK_LEN` (such an input is a single chunk with no children).
pub fn left_subtree_len(input_len: u64) -> u64 {
    assert!(
        input_len > CHUNK_LEN as u64,
        "left_subtree_len: input_len must exceed CHUNK_LEN ({CHUNK_LEN}), got {input_len}"
    );
    left_len(input_len)
}

fn check_subtree(input_offset: u64, len: u64) -> Result<u64, SubtreeError> {
    if !input_offset.is_multiple_of(CHUNK_LEN as u64) {
        return Err(SubtreeError::OffsetNotChunkAligned {
            offset: input_offset,
        });
    }
    if len == 0 {
        return Err(SubtreeError::Empty);
    }
    if let Some(max) = max_subtree_len(input_offset) {
        if len > max {
            return Err(SubtreeError::TooLong {
                offset: input_offset,
                len,
                max,
            });
        }
    }
    Ok(input_offset / CHUNK_LEN as u64)
}

/// The chaining value of the subtree holding `input`, which starts `input_offset` bytes into
/// the whole input (see the [module documentation](self) for which subtrees are valid). Uses
/// the same wide kernels as [`hash`](super::hash).
pub fn hash_subtree(
    mode: Mode<'_>,
    input_offset: u64,
    input: &[u8],
) -> Result<ChainingValue, SubtreeError> {
    let first_chunk = check_subtree(input_offset, input.len() as u64)?;
    let p = Platform::current();
    Ok(hash_all(p, input, mode.params(), first_chunk).chaining_value(p))
}

/// The chaining value of the parent of two sibling subtrees, below the root.
pub fn merge_subtrees_non_root(
    left_child: &ChainingValue,
    right_child: &ChainingValue,
    mode: Mode<'_>,
) -> ChainingValue {
    parent_output(left_child, right_child, mode.params()).chaining_value(Platform::current())
}

/// The hash of an input from the chaining values of the root's two children (inputs longer
/// than one chunk; see [`single_chunk_root`] for the others).
pub fn merge_subtrees_root(
    left_child: &ChainingValue,
    right_child: &ChainingValue,
    mode: Mode<'_>,
) -> Hash {
    let root = parent_output(left_child, right_child, mode.params());
    Hash::from_bytes(root.root_hash(Platform::current()))
}

/// Like [`merge_subtrees_root`], giving the extended output.
pub fn merge_subtrees_root_xof(
    left_child: &ChainingValue,
    right_child: &ChainingValue,
    mode: Mode<'_>,
) -> OutputReader {
    OutputReader::new(parent_output(left_child, right_child, mode.params()))
}

/// The root of an input of at most one chunk (such an input has no subtrees), as an extended
/// output reader; its first 32 bytes are the hash.
pub fn single_chunk_root(mode: Mode<'_>, input: &[u8]) -> Result<OutputReader, SubtreeError> {
    if input.len() > CHUNK_LEN {
        return Err(SubtreeError::NotSingleChunk {
            len: input.len() as u64,
        });
    }
    let p = Platform::current();
    Ok(OutputReader::new(chunk_output(p, input, 0, mode.params())))
}

/// The chaining values of the whole chunks `chunks` (a multiple of [`CHUNK_LEN`] bytes), the
/// first with chunk index `first_chunk`, one per chunk into `out`, none of them a root: what a
/// tree that keeps every chunk's value (Bao's outboard) needs, in the wide kernel calls that
/// [`hash_subtree`] makes.
///
/// ```
/// use arborhash::blake3::{self, hazmat::{self, Mode}, CHUNK_LEN};
///
/// let input = vec![0xA5; 4 * CHUNK_LEN];
/// let mut chunks = [[0; 32]; 4];
/// hazmat::chunk_chaining_values(Mode::Hash, 0, &input, &mut chunks);
/// let second = hazmat::hash_subtree(Mode::Hash, CHUNK_LEN as u64, &input[CHUNK_LEN..2 * CHUNK_LEN]);
/// assert_eq!(second, Ok(chunks[1]));
/// // The two parents above them, then the root.
/// let mut parents = [[0; 32]; 2];
/// hazmat::parent_chaining_values(Mode::Hash, chunks.as_flattened(), &mut parents);
/// let root = hazmat::merge_subtrees_root(&parents[0], &parents[1], Mode::Hash);
/// assert_eq!(root, blake3::hash(&input));
/// ```
///
/// # Panics
/// If `chunks` is not whole chunks or `out` has fewer values than `chunks` has chunks.
pub fn chunk_chaining_values(
    mode: Mode<'_>,
    first_chunk: u64,
    chunks: &[u8],
    out: &mut [ChainingValue],
) {
    assert_eq!(chunks.len() % CHUNK_LEN, 0, "whole chunks");
    let params = mode.params();
    let run = chunk_run(chunks, &params.key, first_chunk, params.flags);
    hash_run(Platform::current(), run, out);
}

/// [`chunk_chaining_values`] of `chunks`, which may lie anywhere (Bao's leaves between their
/// parents), the first with chunk index `first_chunk`, chunk `i` also copied to
/// `dst[i * CHUNK_LEN..]` as it is hashed: each chunk is read once, and the wide backends write
/// the copy with non-temporal stores, which leave the caches to the input.
///
/// ```
/// use arborhash::blake3::{hazmat::{self, Mode}, CHUNK_LEN};
///
/// let input = vec![0x5A; 3 * CHUNK_LEN];
/// let chunks: Vec<&[u8; CHUNK_LEN]> =
///     input.chunks_exact(CHUNK_LEN).map(|c| c.try_into().unwrap()).collect();
/// let (mut copy, mut cvs) = (vec![0; 3 * CHUNK_LEN], [[0; 32]; 3]);
/// hazmat::chunk_chaining_values_copying(Mode::Hash, 7, &chunks, &mut copy, &mut cvs);
/// let mut expected = [[0; 32]; 3];
/// hazmat::chunk_chaining_values(Mode::Hash, 7, &input, &mut expected);
/// assert_eq!((copy, cvs), (input, expected));
/// ```
///
/// # Panics
/// If `dst` is not `chunks.len()` chunks or `out` has fewer values than `chunks`.
pub fn chunk_chaining_values_copying(
    mode: Mode<'_>,
    first_chunk: u64,
    chunks: &[&[u8; CHUNK_LEN]],
    dst: &mut [u8],
    out: &mut [ChainingValue],
) {
    assert_eq!(
        dst.len(),
        chunks.len() * CHUNK_LEN,
        "one chunk of copy per chunk"
    );
    let p = Platform::current();
    let Params { key, flags } = mode.params();
    let mut lanes = [EMPTY_LANE; 16];
    let groups = chunks.chunks(16).zip(dst.chunks_mut(16 * CHUNK_LEN));
    for (g, ((group, dst), out)) in groups.zip(out.chunks_mut(16)).enumerate() {
        for (i, (lane, chunk)) in lanes.iter_mut().zip(group).enumerate() {
            *lane = Lane {
                input: &chunk[..],
                cv: key,
                counter: first_chunk.wrapping_add((16 * g + i) as u64),
                flags_start: CHUNK_START,
                flags_end: CHUNK_END,
                last_block_len: BLOCK_LEN as u8,
            };
        }
        hash_chunks_copying(p, &lanes[..group.len()], flags, dst, out);
    }
}

/// The chaining values of the parent nodes `pairs` (64 bytes each: the left and the right
/// child's chaining value), one per node into `out`, none of them the root (see
/// [`merge_subtrees_root`] for that): a tree's level at a time, in wide kernel calls. See
/// [`chunk_chaining_values`] for an example.
///
/// # Panics
/// If `pairs` is not whole pairs or `out` has fewer values than `pairs` has pairs.
pub fn parent_chaining_values(mode: Mode<'_>, pairs: &[u8], out: &mut [ChainingValue]) {
    assert_eq!(pairs.len() % (2 * 32), 0, "whole pairs of chaining values");
    let params = mode.params();
    let run = parent_run(pairs, &params.key, params.flags);
    hash_run(Platform::current(), run, out);
}
