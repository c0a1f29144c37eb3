//! Bao: BLAKE3 verified streaming. An encoding lets a receiver check every piece of an input as
//! it arrives, or any slice of it, against the input's plain BLAKE3 hash alone.
//!
//! # Format
//!
//! The formats are those of the [Bao spec](https://github.com/oconnor663/bao/blob/master/docs/spec.md),
//! generalised to chunk groups:
//!
//! - the **combined encoding** is the content length as 8 bytes little-endian, then the tree in
//!   pre-order (a parent, its left subtree, its right subtree), where a parent node is the 64
//!   bytes of its two children's chaining values and a leaf is its content;
//! - the **outboard encoding** is the same without the leaves' content;
//! - a **slice** is the header and the nodes of the combined encoding that a reader seeking to
//!   the slice's start and reading its bytes would meet.
//!
//! With [`GroupLog::ZERO`] every byte is what the reference `bao` crate writes.
//!
//! # Chunk groups
//!
//! With `group_log = G`, a leaf is a group of `2^G` chunks (`1024 << G` bytes,
//! [`GroupLog::group_len`]) rather than one chunk. The layout rules are Bao's with groups in
//! place of chunks:
//!
//! - the input is cut into groups from its start; the last may be partial; an empty input is
//!   one empty group;
//! - a node over at most one group's bytes is a leaf; a node over more has a left child of the
//!   largest power of two of whole groups that leaves at least one byte for the right child
//!   (which is BLAKE3's own split, so every parent is a BLAKE3 parent node);
//! - a leaf's chaining value is the BLAKE3 subtree chaining value of its group (chunk counters
//!   from its position in the input), and the root is finalised as BLAKE3's root: the root hash
//!   is the input's BLAKE3 hash for every `G`. An input of at most one group has no parents, and
//!   its single leaf is checked against the hash of its content;
//! - a slice of `count` bytes from `start` holds the header, every parent whose subtree
//!   overlaps `[start, start + max(count, 1))` and every such leaf, in pre-order; a `start` at
//!   or past the end selects the final leaf instead (the empty leaf of an empty input), so that
//!   the slice proves the length. Requests past the end are capped (permissive bounds).
//!
//! So an encoding with `G` has `max(1, ceil(len / 2^(10+G))) - 1` parents: the outboard is
//! `8 + 64 * parents` bytes, 1/16 of the content at `G = 0` and `2^-G` of that beyond.
//!
//! # Decoding
//!
//! Decoders release no byte before the leaf holding it has been checked up to the root hash,
//! and learn the length only from the verified final leaf: a [`Decoder`] verifies the final
//! leaf before any seek. Every failure is an [`Error`], never a panic.
//!
//! ```
//! use arborhash::bao::{self, GroupLog};
//! use std::io::Read;
//! let input = vec![7u8; 100_000];
//! let g = GroupLog::new(4).unwrap();
//! let (encoded, hash) = bao::encode(&input, g);
//! assert_eq!(hash, arborhash::blake3::hash(&input));
//! let mut decoded = Vec::new();
//! bao::Decoder::new(&encoded[..], &hash, g).read_to_end(&mut decoded).unwrap();
//! assert_eq!(decoded, input);
//! ```

mod append;
mod decode;
mod encode;
mod memory;
mod slice;
mod tree;

pub use append::append_outboard;
pub use decode::{Decoder, SliceDecoder};
pub use encode::{
    encode, encode_into, outboard, outboard_into, outboard_to, write_combined, Encoder,
};
pub use memory::{decode, decode_into, verify_outboard};
pub use slice::SliceExtractor;

use crate::blake3::Hash;
use std::fmt;
use std::io;

/// Bytes of the length header at the start of every encoding and slice.
pub const HEADER_LEN: usize = 8;
/// Bytes of a parent node: two chaining values.
pub const PARENT_LEN: usize = 64;

/// The size of the leaves: `2^G` chunks. `G = 0` is the standard Bao format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroupLog(u8);

impl GroupLog {
    /// One chunk per leaf: the standard Bao format.
    pub const ZERO: GroupLog = GroupLog(0);
    /// The largest `G` accepted: 64 MiB leaves, which a decoder buffers whole.
    pub const MAX: u8 = 16;

    /// `G`, if at most [`GroupLog::MAX`].
    pub fn new(group_log: u8) -> Result<GroupLog, Error> {
        if group_log > Self::MAX {
            return Err(Error::InvalidGroupLog(group_log));
        }
        Ok(GroupLog(group_log))
    }

    /// `G`.
    pub fn get(self) -> u8 {
        self.0
    }

    /// Bytes in a (whole) leaf: `1024 << G`.
    pub fn group_len(self) -> u64 {
        1024 << self.0
    }
}

impl Default for GroupLog {
    fn default() -> GroupLog {
        GroupLog::ZERO
    }
}

/// The size of the combined encoding of `content_len` bytes, or `None` if beyond `u64`.
pub fn encoded_size(content_len: u64, group_log: GroupLog) -> Option<u64> {
    tree::Layout::new(group_log, tree::Storage::Combined)
        .subtree_size(content_len)
        .checked_add(HEADER_LEN as u64)
}

/// The size of the outboard encoding of `content_len` bytes.
pub fn outboard_size(content_len: u64, group_log: GroupLog) -> u64 {
    // At most 2^54 parents of 64 bytes: no overflow.
    tree::Layout::new(group_log, tree::Storage::Outboard).subtree_size(content_len)
        + HEADER_LEN as u64
}

/// The Bao hash of `input`: its BLAKE3 hash, the same for every group size.
pub fn hash(input: &[u8]) -> Hash {
    crate::blake3::hash(input)
}

/// Why an encoding or slice was rejected.
#[derive(Debug)]
pub enum Error {
    /// The encoding ended before the node that starts at this content offset was complete.
    Truncated {
        /// The content offset of the node that could not be read.
        content_offset: u64,
    },
    /// A node does not match the hash: the encoding is corrupt, or the hash is not its hash.
    Mismatch {
        /// The content offset of the first byte under the failing node.
        content_offset: u64,
    },
    /// Bytes follow the end of the encoding (or of the content, for an outboard).
    TrailingData,
    /// The header's length has no encoding of fewer than 2^64 bytes.
    LengthOverflow,
    /// A group log beyond [`GroupLog::MAX`].
    InvalidGroupLog(u8),
    /// Reading or writing failed.
    Io(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated { content_offset } => write!(
                f,
                "the encoding is truncated (at the node for content offset {content_offset})"
            ),
            Error::Mismatch { content_offset } => write!(
                f,
                "verification failed: the node for content offset {content_offset} does not \
                 match the hash (corrupt encoding or wrong hash)"
            ),
            Error::TrailingData => f.write_str("unexpected data after the end of the encoding"),
            Error::LengthOverflow => f.write_str("the encoded length is impossibly large"),
            Error::InvalidGroupLog(g) => {
                write!(f, "group log {g} is too large (at most {})", GroupLog::MAX)
            }
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        // A decoder's error that went through `Read` comes back as itself.
        if e.get_ref().is_none() {
            return Error::Io(e);
        }
        let kind = e.kind();
        match e.into_inner().map(|inner| inner.downcast::<Error>()) {
            Some(Ok(ours)) => *ours,
            Some(Err(other)) => Error::Io(io::Error::new(kind, other)),
            None => Error::Io(kind.into()),
        }
    }
}

impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        match e {
            Error::Io(e) => e,
            Error::Truncated { .. } => io::Error::new(io::ErrorKind::UnexpectedEof, e),
            Error::InvalidGroupLog(_) => io::Error::new(io::ErrorKind::InvalidInput, e),
            _ => io::Error::new(io::ErrorKind::InvalidData, e),
        }
    }
}
