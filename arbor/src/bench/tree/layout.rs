//! The tree layouts of the lab and their fast (batched, multi-threaded) implementation.
//!
//! # The layout
//!
//! A [`Layout`] fixes a chunk size `C` (bytes, at least 1), an arity `A` (2 to 255), a chunk hash
//! and a parent hash (each BLAKE2b, BLAKE2s or BLAKE3; see [`NodeHash`]). Its hash of a message
//! `M` of `L` bytes is 32 bytes, computed as follows.
//!
//! 1. **Chunks.** `M` is cut into `n = max(1, ceil(L / C))` chunks of `C` bytes; the last one may be
//!    shorter, and the empty message is one empty chunk.
//! 2. **Leaves.** Chunk `i` is hashed by the chunk hash as node (depth 0, offset `i`). This is
//!    level 0, a list of `n` chaining values (CVs) of 32 bytes.
//! 3. **Levels.** While a level has more than `A` CVs, it is cut, from its start, into groups of
//!    `A` consecutive CVs; the last group may be shorter. A group of two or more CVs becomes a
//!    parent: the parent hash of the group's CVs concatenated, as node (depth `d`, offset = the
//!    group's index), where `d` is 1 for the parents of level 0 and grows by one per level. A
//!    last group of a single CV is not hashed: that CV is carried up to the next level unchanged.
//! 4. **Root.** When a level has between 1 and `A` CVs, the root is the parent hash of those CVs
//!    concatenated, followed by `L` as 8 bytes little-endian, as node (depth `d`, offset 0,
//!    root). A message of one chunk thus has a root over one CV.
//!
//! How a node (depth, offset, root) is hashed:
//!
//! - **BLAKE2b and BLAKE2s** use their parameter block: digest length 32, fanout `A`, maximal
//!   depth 255, leaf length `C`, inner hash length 32, node depth and node offset as above, and the
//!   last-node flag (f1) on the root only. Depth 0 separates chunks from parents; the offsets and
//!   depths give every node its own domain. In a hybrid layout (BLAKE2b chunks, BLAKE2s parents)
//!   each node uses its own function's parameter block with the same values.
//! - **BLAKE3** hashes the node's bytes with plain BLAKE3 (32-byte output): a chunk of up to 1 KiB
//!   costs what a BLAKE3 chunk costs, and a binary parent (64 bytes) is exactly one call of the
//!   compression function, the cost of a BLAKE3 parent node. It has no node parameters.
//!
//! The length in the root makes every variant sound without further domain separation: the shape
//! of the tree depends only on `L`, `C` and `A`, so two messages with the same root either have
//! the same length and the same tree, in which case a difference in the messages shows up as a
//! collision of the node hash at the highest node whose inputs differ, or differ in the root's
//! input, which is itself a collision. (The BLAKE2 parameters add per-node separation on top.)
//!
//! # Speed
//!
//! Chunks are always hashed in batches (`hash_many`: one SIMD lane per chunk). Parents are hashed
//! either one by one or in batches, which is what the lab compares. Work is split over the
//! current rayon pool in tasks of [`LEAVES_PER_TASK`] chunks or [`PARENTS_PER_TASK`] parents, so a
//! pool of one thread runs it all on that thread.

use super::nodes::{Cv, NodeHash, NodeId, Shape, CV_LEN};
use rayon::prelude::*;

/// Chunks per batch and per task.
pub const LEAVES_PER_TASK: usize = 16;
/// Parents per task (batched parents are hashed in batches of this many).
pub const PARENTS_PER_TASK: usize = 64;

/// A tree layout: see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub chunk_size: usize,
    pub arity: usize,
    pub chunk_hash: NodeHash,
    pub parent_hash: NodeHash,
}

/// The chunks of a message, one empty chunk for the empty message.
pub fn chunks(input: &[u8], chunk_size: usize) -> Vec<&[u8]> {
    if input.is_empty() {
        vec![input]
    } else {
        input.chunks(chunk_size).collect()
    }
}

/// The root's input: the top level's CVs, then the message length, 8 bytes little-endian.
pub fn root_input(top: &[Cv], length: usize) -> Vec<u8> {
    let mut input = top.as_flattened().to_vec();
    input.extend_from_slice(&(length as u64).to_le_bytes());
    input
}

impl Layout {
    /// The values BLAKE2's parameter block records. Panics if the chunk size or arity is out of
    /// range.
    pub fn shape(&self) -> Shape {
        assert!(
            (1..=u32::MAX as usize).contains(&self.chunk_size),
            "chunk_size must be 1 to 2^32-1 bytes, got {}",
            self.chunk_size
        );
        assert!(
            (2..=255).contains(&self.arity),
            "arity must be 2 to 255, got {}",
            self.arity
        );
        Shape {
            arity: self.arity as u8,
            chunk_size: self.chunk_size as u32,
        }
    }

    /// The tree hash of `input`, spread over the current rayon pool.
    pub fn hash(&self, input: &[u8], batched_parents: bool) -> Cv {
        let shape = self.shape();
        let mut level = self.leaves(shape, input);
        let mut depth = 1u8;
        while level.len() > self.arity {
            level = self.parents(shape, &level, depth, batched_parents);
            depth = depth.checked_add(1).expect("a tree of at most 255 levels");
        }
        self.parent_hash
            .hash(shape, NodeId::root(depth), &root_input(&level, input.len()))
    }

    fn leaves(&self, shape: Shape, input: &[u8]) -> Vec<Cv> {
        let chunks = chunks(input, self.chunk_size);
        let mut cvs = vec![[0u8; CV_LEN]; chunks.len()];
        cvs.par_chunks_mut(LEAVES_PER_TASK)
            .zip(chunks.par_chunks(LEAVES_PER_TASK))
            .enumerate()
            .for_each(|(task, (out, ins))| {
                let first = task * LEAVES_PER_TASK;
                let nodes: Vec<(NodeId, &[u8])> = ins
                    .iter()
                    .enumerate()
                    .map(|(j, c)| (NodeId::chunk((first + j) as u64), *c))
                    .collect();
                self.chunk_hash.hash_many(shape, &nodes, out);
            });
        cvs
    }

    fn parents(&self, shape: Shape, level: &[Cv], depth: u8, batched: bool) -> Vec<Cv> {
        let groups: Vec<&[u8]> = level.as_flattened().chunks(self.arity * CV_LEN).collect();
        let mut next = vec![[0u8; CV_LEN]; groups.len()];
        next.par_chunks_mut(PARENTS_PER_TASK)
            .zip(groups.par_chunks(PARENTS_PER_TASK))
            .enumerate()
            .for_each(|(task, (out, ins))| {
                let first = task * PARENTS_PER_TASK;
                // Only the level's last group can be a single CV, carried up unhashed.
                let hashed = match ins.last() {
                    Some(g) if g.len() == CV_LEN => ins.len() - 1,
                    _ => ins.len(),
                };
                if hashed < ins.len() {
                    out[hashed].copy_from_slice(ins[hashed]);
                }
                let nodes = ins[..hashed]
                    .iter()
                    .enumerate()
                    .map(|(j, g)| (NodeId::parent(depth, (first + j) as u64), *g));
                if batched {
                    let nodes: Vec<_> = nodes.collect();
                    self.parent_hash
                        .hash_many(shape, &nodes, &mut out[..hashed]);
                } else {
                    for ((id, g), o) in nodes.zip(out.iter_mut()) {
                        *o = self.parent_hash.hash(shape, id, g);
                    }
                }
            });
        next
    }
}
