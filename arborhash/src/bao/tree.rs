//! The shape of a Bao tree with chunk groups, its walk in pre-order, and the checks of its parents.

use super::{Error, GroupLog, PARENT_LEN};
use crate::blake3::hazmat::{self, ChainingValue, Mode};
use crate::blake3::Hash;

/// Where an encoding keeps the content: between its parents, or elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Storage {
    /// The leaves are stored inline, after the parents above them.
    Combined,
    /// Only the header and the parents are stored; the content is kept apart.
    Outboard,
}

impl Storage {
    /// The storage of a reader given its separate outboard stream, if it has one.
    pub fn with_outboard<O>(outboard: &Option<O>) -> Storage {
        match outboard {
            Some(_) => Storage::Outboard,
            None => Storage::Combined,
        }
    }
}

/// Whether a node is finalised as the root (its value is the hash) or not (a chaining value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Root,
    NonRoot,
}

impl NodeKind {
    /// The root if `is_root` holds, otherwise a node below it.
    pub fn root_if(is_root: bool) -> NodeKind {
        if is_root {
            NodeKind::Root
        } else {
            NodeKind::NonRoot
        }
    }
}

/// Sizes of the nodes of one encoding: combined (leaves inline) or outboard.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub group_len: u64,
    pub storage: Storage,
}

impl Layout {
    pub fn new(group_log: GroupLog, storage: Storage) -> Layout {
        Layout {
            group_len: group_log.group_len(),
            storage,
        }
    }

    /// Leaves under `len` bytes (an empty input is one empty leaf).
    pub fn leaves(&self, len: u64) -> u64 {
        len.div_ceil(self.group_len).max(1)
    }

    /// Whether a node over `len` bytes is a leaf.
    pub fn is_leaf(&self, len: u64) -> bool {
        len <= self.group_len
    }

    /// Bytes of the encoding of a subtree over `len` bytes, without the header (saturating).
    pub fn subtree_size(&self, len: u64) -> u64 {
        let parents = (self.leaves(len) - 1) * PARENT_LEN as u64;
        if self.storage == Storage::Outboard {
            parents
        } else {
            parents.saturating_add(len)
        }
    }

    /// Bytes of a leaf over `len` bytes in this encoding.
    pub fn leaf_size(&self, len: u64) -> u64 {
        if self.storage == Storage::Outboard {
            0
        } else {
            len
        }
    }
}

/// A node of the tree: the content it covers, where it is in the encoding, and the chaining value
/// it must have (the hash, for the root).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Content offset of its first byte.
    pub start: u64,
    /// Content bytes under it.
    pub len: u64,
    /// Offset in the encoding, after the header.
    pub offset: u64,
    pub cv: ChainingValue,
    pub kind: NodeKind,
}

impl Node {
    pub fn root(len: u64, hash: &Hash) -> Node {
        Node {
            start: 0,
            len,
            offset: 0,
            cv: *hash.as_bytes(),
            kind: NodeKind::Root,
        }
    }

    pub fn end(&self) -> u64 {
        self.start + self.len
    }

    /// The children of a parent node, given their chaining values.
    pub fn children(
        &self,
        layout: &Layout,
        left_cv: ChainingValue,
        right_cv: ChainingValue,
    ) -> (Node, Node) {
        let left_len = hazmat::left_subtree_len(self.len);
        let left = Node {
            start: self.start,
            len: left_len,
            offset: self.offset + PARENT_LEN as u64,
            cv: left_cv,
            kind: NodeKind::NonRoot,
        };
        let right = Node {
            start: self.start + left_len,
            len: self.len - left_len,
            offset: left.offset + layout.subtree_size(left_len),
            cv: right_cv,
            kind: NodeKind::NonRoot,
        };
        (left, right)
    }

    /// Checks a parent node's bytes against this node's chaining value; returns the children.
    pub fn verify_parent(
        &self,
        layout: &Layout,
        parent: &[u8; PARENT_LEN],
    ) -> Result<(Node, Node), Error> {
        let (left, right) = split_parent(parent);
        let ok = if self.kind == NodeKind::Root {
            hazmat::merge_subtrees_root(&left, &right, Mode::Hash) == self.cv
        } else {
            Hash::from(hazmat::merge_subtrees_non_root(&left, &right, Mode::Hash)) == self.cv
        };
        if !ok {
            return Err(self.mismatch());
        }
        Ok(self.children(layout, left, right))
    }

    pub fn mismatch(&self) -> Error {
        Error::Mismatch {
            content_offset: self.start,
        }
    }

    pub fn truncated(&self) -> Error {
        Error::Truncated {
            content_offset: self.start,
        }
    }
}

pub(crate) fn split_parent(parent: &[u8; PARENT_LEN]) -> (ChainingValue, ChainingValue) {
    let (left, right) = parent.split_at(32);
    (left.try_into().unwrap(), right.try_into().unwrap())
}

/// The content bytes a slice selects: `[start, end)` of the walk, and what a slice decoder
/// releases.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Range {
    /// Nodes overlapping `[start, end)` are in the slice (the root always is).
    pub start: u64,
    pub end: u64,
    /// The bytes released: `[start, start + count)` capped at the length.
    pub out_start: u64,
    pub out_end: u64,
}

impl Range {
    /// The whole content.
    pub fn all(len: u64) -> Range {
        Range {
            start: 0,
            end: len,
            out_start: 0,
            out_end: len,
        }
    }

    /// A slice request of `count` bytes from `start` in content of `len` bytes (see the
    /// module documentation of [`super`] for the rules).
    pub fn slice(start: u64, count: u64, len: u64) -> Range {
        let out_start = start.min(len);
        let out_end = start.saturating_add(count).min(len);
        if start >= len {
            return Range {
                start: len.saturating_sub(1),
                end: len,
                out_start,
                out_end,
            };
        }
        Range {
            start,
            end: start.saturating_add(count.max(1)).min(len),
            out_start,
            out_end,
        }
    }

    pub fn selects(&self, node: &Node) -> bool {
        node.kind == NodeKind::Root || (node.start < self.end && self.start < node.end())
    }
}

/// The nodes of a tree still to be visited, in pre-order, restricted to a range.
#[derive(Debug)]
pub(crate) struct Walk {
    pub layout: Layout,
    pub range: Range,
    stack: Vec<Node>,
}

impl Walk {
    pub fn new(layout: Layout, range: Range, root: Node) -> Walk {
        Walk {
            layout,
            range,
            stack: vec![root],
        }
    }

    /// The next node of the range, if any.
    pub fn next(&mut self) -> Option<Node> {
        while let Some(node) = self.stack.pop() {
            if self.range.selects(&node) {
                return Some(node);
            }
        }
        None
    }

    /// Queues a parent's children, the left first.
    pub fn push_children(&mut self, (left, right): (Node, Node)) {
        self.stack.push(right);
        self.stack.push(left);
    }

    /// Forgets every pending node (a seek rebuilds them).
    pub fn clear(&mut self) {
        self.stack.clear();
    }

    pub fn push(&mut self, node: Node) {
        self.stack.push(node);
    }
}
