//! Updating an outboard encoding after its content grew at the end.

use super::encode::{leaf_cv, merge, write_subtree};
use super::tree::{split_parent, Layout, Node, Storage};
use super::{outboard_size, Error, GroupLog, HEADER_LEN, PARENT_LEN};
use crate::blake3::hazmat::ChainingValue;
use crate::blake3::Hash;
use std::io::{Read, Seek, SeekFrom};

/// New subtrees up to this size are read whole and encoded by the one-shot encoder.
const READ_WHOLE_MAX: u64 = 16 << 20;

/// The outboard encoding of `content` (read from its start to its end), given the outboard
/// encoding `old_outboard` of an earlier, shorter version of it, of which `content` is an
/// extension. Only the right edge of the tree changes: the complete subtrees over the old
/// content's whole groups are copied from the old outboard with their chaining values, and only
/// the old last group and the appended bytes are read and hashed.
///
/// The old outboard is trusted (it is not checked against a hash); it must have been made with
/// the same `group_log`.
pub fn append_outboard(
    old_outboard: &[u8],
    content: &mut (impl Read + Seek),
    group_log: GroupLog,
) -> Result<(Vec<u8>, Hash), Error> {
    let root = Node::root(0, &Hash::from([0; 32]));
    let header: [u8; HEADER_LEN] = old_outboard
        .get(..HEADER_LEN)
        .and_then(|h| h.try_into().ok())
        .ok_or(root.truncated())?;
    let old_len = u64::from_le_bytes(header);
    match old_outboard.len() as u64 {
        n if n < outboard_size(old_len, group_log) => return Err(root.truncated()),
        n if n > outboard_size(old_len, group_log) => return Err(Error::TrailingData),
        _ => {}
    }
    let new_len = content.seek(SeekFrom::End(0))?;
    if new_len < old_len {
        return Err(Error::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("the content ({new_len} bytes) is shorter than the old outboard's ({old_len})"),
        )));
    }
    let layout = Layout::new(group_log, Storage::Outboard);
    let mut out = vec![0; outboard_size(new_len, group_log) as usize];
    out[..HEADER_LEN].copy_from_slice(&new_len.to_le_bytes());
    let update = Update {
        layout,
        old: &old_outboard[HEADER_LEN..],
        old_len,
        // The old tree's subtrees over whole groups stay as they are.
        stable: old_len / layout.group_len * layout.group_len,
    };
    let node = Node::root(new_len, &Hash::from([0; 32]));
    let hash = update.build(content, &node, &mut out[HEADER_LEN..])?;
    Ok((out, Hash::from(hash)))
}

struct Update<'a> {
    layout: Layout,
    old: &'a [u8],
    old_len: u64,
    stable: u64,
}

impl Update<'_> {
    /// Writes the outboard of the subtree `node` of the new tree into `out` and returns its
    /// chaining value (the hash, for the root).
    fn build(
        &self,
        content: &mut (impl Read + Seek),
        node: &Node,
        out: &mut [u8],
    ) -> Result<ChainingValue, Error> {
        let groups = node.len / self.layout.group_len;
        let complete = node.len.is_multiple_of(self.layout.group_len) && groups.is_power_of_two();
        if complete && node.end() <= self.stable && !self.layout.is_leaf(node.len) {
            // A complete subtree of the old tree: its bytes, and its value from its top parent.
            let at = self.old_offset(node) as usize;
            out.copy_from_slice(&self.old[at..at + out.len()]);
            let (left, right) = split_parent(out[..PARENT_LEN].try_into().unwrap());
            return Ok(merge(&left, &right, node.kind));
        }
        if self.layout.is_leaf(node.len)
            || (node.start >= self.stable && node.len <= READ_WHOLE_MAX)
        {
            let mut input = vec![0; node.len as usize];
            content.seek(SeekFrom::Start(node.start))?;
            content.read_exact(&mut input).map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => node.truncated(),
                _ => Error::Io(e),
            })?;
            if self.layout.is_leaf(node.len) {
                return Ok(leaf_cv(&input, node.start, node.kind));
            }
            return Ok(write_subtree(
                self.layout,
                &input,
                node.start,
                node.kind,
                out,
            ));
        }
        let (left, right) = node.children(&self.layout, [0; 32], [0; 32]);
        let (parent, children) = out.split_at_mut(PARENT_LEN);
        let (left_out, right_out) =
            children.split_at_mut(self.layout.subtree_size(left.len) as usize);
        let left_cv = self.build(content, &left, left_out)?;
        let right_cv = self.build(content, &right, right_out)?;
        parent[..32].copy_from_slice(&left_cv);
        parent[32..].copy_from_slice(&right_cv);
        Ok(merge(&left_cv, &right_cv, node.kind))
    }

    /// Where a complete subtree of the old content is in the old outboard: found by walking
    /// the old tree's shape from its root.
    fn old_offset(&self, target: &Node) -> u64 {
        let mut node = Node::root(self.old_len, &Hash::from([0; 32]));
        while (node.start, node.len) != (target.start, target.len) && !self.layout.is_leaf(node.len)
        {
            let (left, right) = node.children(&self.layout, [0; 32], [0; 32]);
            node = if target.start < right.start {
                left
            } else {
                right
            };
        }
        node.offset
    }
}
