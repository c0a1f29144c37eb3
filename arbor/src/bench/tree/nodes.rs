//! The node hashes of the tree lab: BLAKE2b, BLAKE2s and BLAKE3, each hashing one node or a batch
//! of independent nodes across SIMD lanes.

use super::super::contestants::ours;

/// Every node's output (its chaining value) is 32 bytes, whatever the hash: BLAKE2b is used with
/// a 32-byte digest length, so that a binary BLAKE2s or BLAKE3 parent reads exactly one 64-byte
/// block and a binary BLAKE2b parent half of one.
pub const CV_LEN: usize = 32;

/// A chaining value.
pub type Cv = [u8; CV_LEN];

/// A hash function used for the chunks or the parents of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeHash {
    Blake2b,
    Blake2s,
    /// Plain BLAKE3 hashing of the node's bytes: a parent of two children is one 64-byte block,
    /// i.e. one call of the BLAKE3 compression function, as in BLAKE3's own tree.
    Blake3,
}

impl NodeHash {
    /// All node hashes.
    pub const ALL: [NodeHash; 3] = [NodeHash::Blake2b, NodeHash::Blake2s, NodeHash::Blake3];

    pub fn name(self) -> &'static str {
        match self {
            NodeHash::Blake2b => "BLAKE2b",
            NodeHash::Blake2s => "BLAKE2s",
            NodeHash::Blake3 => "BLAKE3",
        }
    }
}

/// The tree-wide values that BLAKE2's parameter block records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub arity: u8,
    pub chunk_size: u32,
}

/// Where a node sits in its tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeId {
    /// 0 for chunks; a parent's depth is one more than its level's children.
    pub depth: u8,
    /// The index of the node within its level (0 for the root).
    pub offset: u64,
    /// Set only on the root.
    pub root: bool,
}

impl NodeId {
    pub fn chunk(index: u64) -> NodeId {
        NodeId {
            depth: 0,
            offset: index,
            root: false,
        }
    }

    pub fn parent(depth: u8, offset: u64) -> NodeId {
        NodeId {
            depth,
            offset,
            root: false,
        }
    }

    pub fn root(depth: u8) -> NodeId {
        NodeId {
            depth,
            offset: 0,
            root: true,
        }
    }
}

/// BLAKE2b and BLAKE2s take the same tree parameters through the same builder API, but their
/// `Params` and `HashManyJob` are distinct types with no common trait outside arborhash; this
/// writes the parameter block and the batch hashing once for both.
macro_rules! blake2_node {
    ($params:ident, $hash_many:ident, $module:ident) => {
        fn $params(shape: Shape, id: NodeId) -> ours::$module::Params {
            let mut p = ours::$module::Params::new();
            p.hash_length(CV_LEN)
                .fanout(shape.arity)
                .max_depth(u8::MAX)
                .max_leaf_length(shape.chunk_size)
                .inner_hash_length(CV_LEN)
                .node_depth(id.depth)
                .node_offset(id.offset)
                .last_node(id.root);
            p
        }

        fn $hash_many(shape: Shape, nodes: &[(NodeId, &[u8])], out: &mut [Cv]) {
            use ours::$module::many::{hash_many, HashManyJob};
            let params: Vec<_> = nodes.iter().map(|(id, _)| $params(shape, *id)).collect();
            let mut jobs: Vec<_> = nodes
                .iter()
                .zip(&params)
                .map(|((_, input), p)| HashManyJob::new(p, input))
                .collect();
            hash_many(jobs.iter_mut());
            for (o, j) in out.iter_mut().zip(&jobs) {
                *o = cv(j.to_hash().as_bytes());
            }
        }
    };
}

blake2_node!(blake2b_params, blake2b_many, blake2b);
blake2_node!(blake2s_params, blake2s_many, blake2s);

fn cv(bytes: &[u8]) -> Cv {
    bytes
        .try_into()
        .expect("every node hash has a 32-byte output")
}

impl NodeHash {
    /// Hashes one node.
    pub fn hash(self, shape: Shape, id: NodeId, input: &[u8]) -> Cv {
        match self {
            NodeHash::Blake2b => cv(blake2b_params(shape, id).hash(input).as_bytes()),
            NodeHash::Blake2s => cv(blake2s_params(shape, id).hash(input).as_bytes()),
            NodeHash::Blake3 => *ours::blake3::hash(input).as_bytes(),
        }
    }

    /// Hashes independent nodes at once, across SIMD lanes; `out[i]` receives node `i`.
    pub fn hash_many(self, shape: Shape, nodes: &[(NodeId, &[u8])], out: &mut [Cv]) {
        assert_eq!(nodes.len(), out.len(), "one output per node");
        match self {
            NodeHash::Blake2b => blake2b_many(shape, nodes, out),
            NodeHash::Blake2s => blake2s_many(shape, nodes, out),
            NodeHash::Blake3 => {
                let inputs: Vec<&[u8]> = nodes.iter().map(|(_, input)| *input).collect();
                let mut hashes = vec![ours::blake3::Hash::from_bytes([0; 32]); nodes.len()];
                ours::blake3::many::hash_many(&inputs, &mut hashes);
                for (o, h) in out.iter_mut().zip(&hashes) {
                    *o = *h.as_bytes();
                }
            }
        }
    }
}
