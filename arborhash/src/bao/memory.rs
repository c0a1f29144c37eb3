//! Decoding an encoding that is wholly in memory: the tree is split at its parents and its
//! subtrees verified (and their content copied out) on all cores with the `rayon` feature.

use super::decode::{read_split, verify_subtree};
use super::tree::{Layout, Node};
use super::{encoded_size, outboard_size, Error, GroupLog, HEADER_LEN, PARENT_LEN};
use crate::blake3::Hash;
use std::io;

/// Subtrees up to this many content bytes are verified at once by encoding them again (their
/// parents hashed in wide kernel calls); larger ones are split at their parent.
const SUBTREE_MAX: u64 = 256 * 1024;

/// Decodes a combined encoding in memory: verifies it against `hash` and returns its content.
///
/// The content is allocated only after the encoding's size has been checked against its
/// header's length, so a forged header cannot make this allocate more than `encoded` holds.
/// Large encodings are verified on all cores with the `rayon` feature.
pub fn decode(encoded: &[u8], hash: &Hash, group_log: GroupLog) -> Result<Vec<u8>, Error> {
    let len = checked_len(encoded, group_log, false)?;
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
pub fn decode_into(
    encoded: &[u8],
    hash: &Hash,
    group_log: GroupLog,
    out: &mut [u8],
) -> Result<(), Error> {
    let len = checked_len(encoded, group_log, false)?;
    if out.len() as u64 != len {
        return Err(Error::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the output is {} bytes but the encoding holds {len}",
                out.len()
            ),
        )));
    }
    let layout = Layout::new(group_log, false);
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
    let len = checked_len(outboard, group_log, true)?;
    if (content.len() as u64) < len {
        return Err(Error::Truncated {
            content_offset: content.len() as u64,
        });
    }
    if content.len() as u64 > len {
        return Err(Error::TrailingData);
    }
    let layout = Layout::new(group_log, true);
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
fn checked_len(encoded: &[u8], group_log: GroupLog, outboard: bool) -> Result<u64, Error> {
    let Some(header) = encoded.first_chunk::<HEADER_LEN>() else {
        return Err(Error::Truncated { content_offset: 0 });
    };
    let len = u64::from_le_bytes(*header);
    let size = if outboard {
        outboard_size(len, group_log)
    } else {
        encoded_size(len, group_log).ok_or(Error::LengthOverflow)?
    };
    let have = encoded.len() as u64;
    if have > size {
        return Err(Error::TrailingData);
    }
    if have < size {
        let layout = Layout::new(group_log, outboard);
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
