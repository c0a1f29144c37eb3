//! Decoding an encoding that is wholly in memory: the tree is split at its parents and its
//! subtrees verified (and their content copied out) on all cores with the `rayon` feature.

use super::decode::{read_split, verify_subtree};
use super::encode::{leaf_cv, parent_level};
use super::tree::{Layout, Node, NodeKind, Storage};
use super::{encoded_size, outboard_size, Error, GroupLog, HEADER_LEN, PARENT_LEN};
use crate::blake3::hazmat::{self, ChainingValue, Mode};
use crate::blake3::{Hash, CHUNK_LEN};
use std::io;

/// Subtrees up to this many content bytes are verified at once by encoding them again (their
/// parents hashed in wide kernel calls); larger ones are split at their parent.
const SUBTREE_MAX: u64 = 256 * 1024;

/// Decodes a combined encoding in memory: verifies it against `hash` and returns its content.
///
/// The content is allocated only after the encoding's size has been checked against its
/// header's length, so a forged header cannot make this allocate more than `encoded` holds.
/// Large encodings are verified on all cores with the `rayon` feature. As for [`decode_into`],
/// `encoded` must not change during the call.
pub fn decode(encoded: &[u8], hash: &Hash, group_log: GroupLog) -> Result<Vec<u8>, Error> {
    let len = checked_len(encoded, group_log, Storage::Combined)?;
    // The size check bounds `len` by `encoded.len()`.
    let mut out = vec![0; len as usize];
    decode_into(encoded, hash, group_log, &mut out)?;
    Ok(out)
}

/// Decodes a combined encoding in memory into `out`, which must be exactly as long as the
/// content (the length in the encoding's header), else the error is an [`Error::Io`] of kind
/// `InvalidInput`.
///
/// Only `Ok` says that `out` holds verified content: after an error its bytes are unspecified
/// (some may be unverified). Large encodings are verified and copied on all cores with the
/// `rayon` feature.
///
/// Each chunk is hashed and copied in one pass, which reads it twice: `encoded` must not change
/// during the call (as a shared slice promises), or `out` could hold bytes other than those
/// verified. A mapped file that another process may write is decoded safely with a
/// [`Decoder`](super::Decoder), which verifies its own copy.
pub fn decode_into(
    encoded: &[u8],
    hash: &Hash,
    group_log: GroupLog,
    out: &mut [u8],
) -> Result<(), Error> {
    let len = checked_len(encoded, group_log, Storage::Combined)?;
    if out.len() as u64 != len {
        return Err(Error::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the output is {} bytes but the encoding holds {len}",
                out.len()
            ),
        )));
    }
    let layout = Layout::new(group_log, Storage::Combined);
    let target = Target::Copy(out);
    verify_node(
        layout,
        Node::root(len, hash),
        &encoded[HEADER_LEN..],
        target,
    )
}

/// Verifies `content` against its outboard encoding and `hash`, in memory (the content needs no
/// copy: on `Ok` it is verified as it is). Large inputs are verified on all cores with the
/// `rayon` feature.
///
/// The check holds for the bytes as they were read: content that can change meanwhile (a mapped
/// file that another process writes) must be copied first, or decoded with a [`Decoder`](super::Decoder).
pub fn verify_outboard(
    content: &[u8],
    outboard: &[u8],
    hash: &Hash,
    group_log: GroupLog,
) -> Result<(), Error> {
    let len = checked_len(outboard, group_log, Storage::Outboard)?;
    if (content.len() as u64) < len {
        return Err(Error::Truncated {
            content_offset: content.len() as u64,
        });
    }
    if content.len() as u64 > len {
        return Err(Error::TrailingData);
    }
    let layout = Layout::new(group_log, Storage::Outboard);
    let target = Target::Check(content);
    verify_node(
        layout,
        Node::root(len, hash),
        &outboard[HEADER_LEN..],
        target,
    )
}

/// Where a subtree's content is: to be copied out of a combined encoding into a buffer, or
/// (outboard) already in memory.
enum Target<'a> {
    Copy(&'a mut [u8]),
    Check(&'a [u8]),
}

impl<'a> Target<'a> {
    fn split_at(self, mid: usize) -> (Target<'a>, Target<'a>) {
        match self {
            Target::Copy(out) => {
                let (left, right) = out.split_at_mut(mid);
                (Target::Copy(left), Target::Copy(right))
            }
            Target::Check(content) => {
                let (left, right) = content.split_at(mid);
                (Target::Check(left), Target::Check(right))
            }
        }
    }
}

/// The header's length, once the encoding's size has been checked to be exactly its size.
fn checked_len(encoded: &[u8], group_log: GroupLog, storage: Storage) -> Result<u64, Error> {
    let Some(header) = encoded.first_chunk::<HEADER_LEN>() else {
        return Err(Error::Truncated { content_offset: 0 });
    };
    let len = u64::from_le_bytes(*header);
    let size = if storage == Storage::Outboard {
        outboard_size(len, group_log)
    } else {
        encoded_size(len, group_log).ok_or(Error::LengthOverflow)?
    };
    let have = encoded.len() as u64;
    if have > size {
        return Err(Error::TrailingData);
    }
    if have < size {
        let layout = Layout::new(group_log, storage);
        return Err(truncated_at(layout, len, have - HEADER_LEN as u64));
    }
    Ok(len)
}

/// The truncation error of an encoding (after its header) that ends after `have` bytes: at the
/// first node, in pre-order, that it does not hold whole.
fn truncated_at(layout: Layout, len: u64, have: u64) -> Error {
    let mut node = Node::root(len, &Hash::from([0; 32]));
    while !layout.is_leaf(node.len) && have >= node.offset + PARENT_LEN as u64 {
        let (left, right) = node.children(&layout, [0; 32], [0; 32]);
        node = if have >= right.offset { right } else { left };
    }
    node.truncated()
}

/// Verifies the subtree `node`, whose whole encoding is `encoded`, and copies its content out.
fn verify_node(layout: Layout, node: Node, encoded: &[u8], target: Target) -> Result<(), Error> {
    if layout.is_leaf(node.len) || node.len <= SUBTREE_MAX {
        return match target {
            Target::Copy(out) if node.kind == NodeKind::NonRoot => {
                verify_copying(layout, &node, encoded, out)
            }
            Target::Copy(out) => {
                let parents_len = (layout.leaves(node.len) - 1) as usize * PARENT_LEN;
                let mut parents = vec![0; parents_len];
                read_split(&mut &encoded[..], layout, &node, out, &mut parents)?;
                verify_subtree(layout, &node, out, &parents, &mut Vec::new())
            }
            Target::Check(content) => {
                verify_subtree(layout, &node, content, encoded, &mut Vec::new())
            }
        };
    }
    let (parent, children) = encoded.split_at(PARENT_LEN);
    let parent = parent.try_into().expect("a parent's bytes");
    let (left, right) = node.verify_parent(&layout, parent)?;
    let (left_encoded, right_encoded) = children.split_at(layout.subtree_size(left.len) as usize);
    let (left_target, right_target) = target.split_at(left.len as usize);
    let (left_result, right_result) = crate::threads::join(
        true,
        || verify_node(layout, left, left_encoded, left_target),
        || verify_node(layout, right, right_encoded, right_target),
    );
    left_result.and(right_result)
}

/// Verifies the subtree `node` (not the root), whose whole combined encoding is `encoded`, and
/// copies its content into `out`, reading the encoding once: its chunks are hashed where they
/// lie between the parents and copied as they are hashed (with non-temporal stores on the wide
/// backends, so the copy neither reads `out` first nor evicts the encoding from the cache).
/// Then the values of the nodes are computed level by level, in wide kernel calls, and every
/// parent of the encoding is checked against the pair below it.
fn verify_copying(
    layout: Layout,
    node: &Node,
    encoded: &[u8],
    out: &mut [u8],
) -> Result<(), Error> {
    let mut leaves = Vec::new();
    let mut parents = Vec::new();
    split_leaves(layout, node.len, encoded, &mut leaves, &mut parents);
    let chunks: Vec<&[u8; CHUNK_LEN]> = leaves
        .iter()
        .flat_map(|leaf| leaf.chunks_exact(CHUNK_LEN))
        .map(|chunk| chunk.try_into().expect("a whole chunk"))
        .collect();
    let tail = leaves
        .last()
        .map_or(&[][..], |leaf| leaf.chunks_exact(CHUNK_LEN).remainder());
    let whole = chunks.len() * CHUNK_LEN;
    let first_chunk = node.start / CHUNK_LEN as u64;
    let mut levels = vec![vec![
        [0u8; 32];
        chunks.len() + usize::from(!tail.is_empty())
    ]];
    let (out_chunks, out_tail) = out.split_at_mut(whole);
    hazmat::chunk_chaining_values_copying(
        Mode::Hash,
        first_chunk,
        &chunks,
        out_chunks,
        &mut levels[0],
    );
    if !tail.is_empty() {
        out_tail.copy_from_slice(tail);
        levels[0][chunks.len()] = leaf_cv(tail, node.start + whole as u64, NodeKind::NonRoot);
    }
    while levels[levels.len() - 1].len() > 1 {
        let below = &levels[levels.len() - 1];
        let mut above = vec![[0u8; 32]; below.len().div_ceil(2)];
        parent_level(below, NodeKind::NonRoot, &mut above);
        levels.push(above);
    }
    let top = levels.len() - 1;
    let leaf_level =
        layout.group_len.trailing_zeros() as usize - CHUNK_LEN.trailing_zeros() as usize;
    let mut parents = parents.into_iter();
    if Hash::from(levels[top][0]) != node.cv
        || !parents_match(&levels, leaf_level, top, 0, &mut parents)
    {
        return Err(node.mismatch());
    }
    debug_assert!(parents.next().is_none(), "every parent checked");
    Ok(())
}

/// Splits the combined encoding of a subtree over `len` content bytes into its leaves' content
/// and its parents, each in pre-order.
fn split_leaves<'a>(
    layout: Layout,
    len: u64,
    encoded: &'a [u8],
    leaves: &mut Vec<&'a [u8]>,
    parents: &mut Vec<&'a [u8]>,
) {
    if layout.is_leaf(len) {
        leaves.push(encoded);
        return;
    }
    let (parent, children) = encoded.split_at(PARENT_LEN);
    parents.push(parent);
    let left_len = hazmat::left_subtree_len(len);
    let (left, right) = children.split_at(layout.subtree_size(left_len) as usize);
    split_leaves(layout, left_len, left, leaves, parents);
    split_leaves(layout, len - left_len, right, leaves, parents);
}

/// Whether the parents below node `i` of `level` (and the node itself, above the leaves)
/// are, in pre-order, the pairs of values below them. `levels[0]` are the chunks' values,
/// each level above pairs the one below from the left, an odd last node rising alone: the
/// left-balanced tree. Leaves are at `leaf_level`; nothing below them is in the encoding.
fn parents_match<'a>(
    levels: &[Vec<ChainingValue>],
    leaf_level: usize,
    level: usize,
    i: usize,
    parents: &mut impl Iterator<Item = &'a [u8]>,
) -> bool {
    if level <= leaf_level {
        return true;
    }
    let below = &levels[level - 1];
    let Some(right) = below.get(2 * i + 1) else {
        // A node alone on its level is its left child, risen.
        return parents_match(levels, leaf_level, level - 1, 2 * i, parents);
    };
    let Some(parent) = parents.next() else {
        return false;
    };
    parent[..32] == below[2 * i]
        && parent[32..] == *right
        && parents_match(levels, leaf_level, level - 1, 2 * i, parents)
        && parents_match(levels, leaf_level, level - 1, 2 * i + 1, parents)
}
