//! Encoding: one-shot into memory (on all cores with the `rayon` feature), and the streaming
//! [`Encoder`], which writes the tree in post-order and turns it into pre-order at the end.

use super::tree::{Layout, NodeKind, Storage};
use super::{encoded_size, outboard_size, GroupLog, HEADER_LEN, PARENT_LEN};
use crate::blake3::hazmat::{self, ChainingValue, Mode};
use crate::blake3::{self, Hash, CHUNK_LEN};
use std::io::{self, Read, Seek, SeekFrom, Write};

/// Bytes of the subtrees whose leaves' chaining values are hashed in one batch (wide kernel
/// calls over all their chunks), before their parents are written.
pub(crate) const BATCH_LEN: usize = 64 * CHUNK_LEN;
/// Input the streaming encoder gathers before hashing it (on all cores).
const STREAM_PENDING: usize = 1 << 20;
/// Subtrees from this size are split across two rayon tasks (and the decoder verifies pieces
/// from this size on the pool): below it, waking a thread costs more than it saves.
pub(crate) const PARALLEL_MIN: usize = 128 * 1024;
/// Content whose outboard [`outboard_to`] encodes into one buffer and hands over at once: 256 KiB
/// of outboard at G = 0, which stays in the cache between its writing and its handing over.
const OUTBOARD_PIECE_LEN: usize = 4 << 20;

/// The combined encoding of `input` and its hash.
pub fn encode(input: &[u8], group_log: GroupLog) -> (Vec<u8>, Hash) {
    let size = encoded_size(input.len() as u64, group_log).expect("a slice's encoding fits u64");
    let mut encoded = vec![0; size as usize];
    let hash = encode_into(input, group_log, &mut encoded);
    (encoded, hash)
}

/// The outboard encoding of `input` and its hash.
pub fn outboard(input: &[u8], group_log: GroupLog) -> (Vec<u8>, Hash) {
    let mut encoded = vec![0; outboard_size(input.len() as u64, group_log) as usize];
    let hash = outboard_into(input, group_log, &mut encoded);
    (encoded, hash)
}

/// Writes the combined encoding of `content` to `out`, given its outboard encoding (from
/// [`outboard`] with the same group log): the outboard's parents with the leaves between them,
/// in one sequential pass. For a file, hashing the outboard first and then writing this way
/// costs less than [`encode_into`] a mapping of the output, whose pages fault in one by one.
pub fn write_combined(
    content: &[u8],
    outboard: &[u8],
    group_log: GroupLog,
    out: &mut impl Write,
) -> io::Result<()> {
    let len = content.len() as u64;
    if outboard.len() as u64 != outboard_size(len, group_log)
        || outboard[..HEADER_LEN] != len.to_le_bytes()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the outboard encoding is not one of this content",
        ));
    }
    out.write_all(&outboard[..HEADER_LEN])?;
    let mut parents = &outboard[HEADER_LEN..];
    interleave(
        Layout::new(group_log, Storage::Combined),
        content,
        &mut parents,
        out,
    )
}

/// Writes the subtree over `content` in pre-order, its parents taken from the front of `parents`.
fn interleave(
    layout: Layout,
    content: &[u8],
    parents: &mut &[u8],
    out: &mut impl Write,
) -> io::Result<()> {
    if layout.is_leaf(content.len() as u64) {
        return out.write_all(content);
    }
    let (parent, rest) = parents.split_at(PARENT_LEN);
    out.write_all(parent)?;
    *parents = rest;
    let (left, right) = content.split_at(hazmat::left_subtree_len(content.len() as u64) as usize);
    interleave(layout, left, parents, out)?;
    interleave(layout, right, parents, out)
}

/// Writes the combined encoding of `input` into `out` (for example a mapped file) and returns
/// the hash. Panics unless `out` is [`encoded_size`] bytes.
pub fn encode_into(input: &[u8], group_log: GroupLog, out: &mut [u8]) -> Hash {
    encode_with_header(input, Layout::new(group_log, Storage::Combined), out)
}

/// Writes the outboard encoding of `input` into `out` and returns the hash. Panics unless `out`
/// is [`outboard_size`] bytes.
pub fn outboard_into(input: &[u8], group_log: GroupLog, out: &mut [u8]) -> Hash {
    encode_with_header(input, Layout::new(group_log, Storage::Outboard), out)
}

/// Computes the outboard encoding of `input` and hands it to `write_at` piece by piece, each with
/// its offset in the encoding: every byte exactly once, in no particular order, from any of
/// rayon's threads. Returns the hash, or the first error `write_at` returned (pieces may have
/// been handed over after it).
///
/// Unlike [`outboard`], it needs no buffer for the whole encoding, whose pages would fault in
/// as it is written: given a file's positioned writes (`FileExt::write_all_at` on Unix),
/// `arbor bao encode --outboard` of 1 GiB at G = 0 skips a 64 MiB buffer
/// (`scripts/bench-bao.sh`).
pub fn outboard_to<E: Send>(
    input: &[u8],
    group_log: GroupLog,
    write_at: impl Fn(u64, &[u8]) -> Result<(), E> + Sync,
) -> Result<Hash, E> {
    write_at(0, &(input.len() as u64).to_le_bytes())?;
    let layout = Layout::new(group_log, Storage::Outboard);
    let hash = outboard_pieces(
        layout,
        input,
        0,
        NodeKind::Root,
        HEADER_LEN as u64,
        &write_at,
    )?;
    Ok(Hash::from(hash))
}

/// The subtree over `input` for [`outboard_to`], whose encoding starts at `offset`: from
/// [`OUTBOARD_PIECE_LEN`] down, encoded into a buffer of its own and handed over at once.
fn outboard_pieces<E: Send>(
    layout: Layout,
    input: &[u8],
    start: u64,
    kind: NodeKind,
    offset: u64,
    write_at: &(impl Fn(u64, &[u8]) -> Result<(), E> + Sync),
) -> Result<ChainingValue, E> {
    let len = input.len();
    if len <= OUTBOARD_PIECE_LEN || layout.is_leaf(len as u64) {
        let mut piece = vec![0; layout.subtree_size(len as u64) as usize];
        let cv = write_subtree(layout, input, start, kind, &mut piece);
        if !piece.is_empty() {
            write_at(offset, &piece)?;
        }
        return Ok(cv);
    }
    let left_len = hazmat::left_subtree_len(len as u64);
    let (left, right) = input.split_at(left_len as usize);
    let left_offset = offset + PARENT_LEN as u64;
    let right_offset = left_offset + layout.subtree_size(left_len);
    let (left_cv, right_cv) = crate::threads::join(
        true,
        || {
            outboard_pieces(
                layout,
                left,
                start,
                NodeKind::NonRoot,
                left_offset,
                write_at,
            )
        },
        || {
            outboard_pieces(
                layout,
                right,
                start + left_len,
                NodeKind::NonRoot,
                right_offset,
                write_at,
            )
        },
    );
    let mut parent = [0; PARENT_LEN];
    let cv = write_parent(&mut parent, &left_cv?, &right_cv?, kind);
    write_at(offset, &parent)?;
    Ok(cv)
}

fn encode_with_header(input: &[u8], layout: Layout, out: &mut [u8]) -> Hash {
    let len = input.len() as u64;
    assert_eq!(
        out.len() as u64,
        HEADER_LEN as u64 + layout.subtree_size(len),
        "the output must be exactly the encoding's size"
    );
    let (header, tree) = out.split_at_mut(HEADER_LEN);
    header.copy_from_slice(&len.to_le_bytes());
    Hash::from(write_subtree(layout, input, 0, NodeKind::Root, tree))
}

/// Writes the encoding of the subtree over `input` (starting `start` bytes into the whole
/// input) into `out`, and returns its chaining value (the hash, for the root).
pub(crate) fn write_subtree(
    layout: Layout,
    input: &[u8],
    start: u64,
    kind: NodeKind,
    out: &mut [u8],
) -> ChainingValue {
    let len = input.len();
    if layout.is_leaf(len as u64) {
        if layout.storage == Storage::Combined {
            out.copy_from_slice(input);
        }
        return leaf_cv(input, start, kind);
    }
    if len <= BATCH_LEN {
        let batch = Batch::new(layout, input, start, kind);
        batch.write(layout, input, batch.levels - 1, 0, out);
        return batch.top();
    }
    let left_len = hazmat::left_subtree_len(len as u64);
    let (left, right) = input.split_at(left_len as usize);
    let (parent, children) = out.split_at_mut(PARENT_LEN);
    let (left_out, right_out) = children.split_at_mut(layout.subtree_size(left_len) as usize);
    let (left_cv, right_cv) = crate::threads::join(
        len >= PARALLEL_MIN,
        || write_subtree(layout, left, start, NodeKind::NonRoot, left_out),
        || {
            write_subtree(
                layout,
                right,
                start + left_len,
                NodeKind::NonRoot,
                right_out,
            )
        },
    );
    write_parent(parent, &left_cv, &right_cv, kind)
}

/// Stores a parent node and returns its chaining value (or the hash).
fn write_parent(
    out: &mut [u8],
    left: &ChainingValue,
    right: &ChainingValue,
    kind: NodeKind,
) -> ChainingValue {
    out[..32].copy_from_slice(left);
    out[32..PARENT_LEN].copy_from_slice(right);
    merge(left, right, kind)
}

pub(crate) fn merge(left: &ChainingValue, right: &ChainingValue, kind: NodeKind) -> ChainingValue {
    if kind == NodeKind::Root {
        *hazmat::merge_subtrees_root(left, right, Mode::Hash).as_bytes()
    } else {
        hazmat::merge_subtrees_non_root(left, right, Mode::Hash)
    }
}

/// The level of the tree above `below` (two values or more) into the front of `above`: each
/// pair's parent, in wide kernel calls, and an odd last value risen alone (a left-balanced
/// tree's); the parent of just two is of `kind`.
pub(crate) fn parent_level(below: &[ChainingValue], kind: NodeKind, above: &mut [ChainingValue]) {
    let pairs = below.len() / 2;
    if below.len() == 2 {
        above[0] = merge(&below[0], &below[1], kind);
    } else {
        hazmat::parent_chaining_values(
            Mode::Hash,
            below[..2 * pairs].as_flattened(),
            &mut above[..pairs],
        );
        if !below.len().is_multiple_of(2) {
            above[pairs] = below[2 * pairs];
        }
    }
}

/// The chaining value of one leaf, or the hash if it is the root.
pub(crate) fn leaf_cv(group: &[u8], start: u64, kind: NodeKind) -> ChainingValue {
    if kind == NodeKind::Root {
        *blake3::hash(group).as_bytes()
    } else {
        hazmat::hash_subtree(Mode::Hash, start, group).expect("a group is a valid subtree")
    }
}

/// Chunks in a batch.
const BATCH_CHUNKS: usize = BATCH_LEN / CHUNK_LEN;

/// The tree of one batch (at most [`BATCH_LEN`] bytes of whole groups, but for a partial last
/// one), every node's chaining value, level by level: each level's values are hashed in one
/// wide kernel call, leaves (chunks, or groups of 16 chunks or more) and parents alike. Node
/// `i` of level `k` covers units `[i * 2^k, (i + 1) * 2^k)` of the level-0 unit (a chunk or a
/// group); an odd last node is carried up to the next level unchanged, which is BLAKE3's
/// left-balanced split.
struct Batch {
    cvs: [ChainingValue; 2 * BATCH_CHUNKS],
    /// Where each level starts in `cvs`, and how many nodes it has.
    starts: [usize; 8],
    counts: [usize; 8],
    levels: usize,
    /// Bytes of a level-0 node (a chunk or a group), and the level of Bao's leaves.
    unit: usize,
    leaf_level: usize,
}

impl Batch {
    /// The tree over `input`, which starts `start` bytes into the whole input, its top node of
    /// `kind`.
    fn new(layout: Layout, input: &[u8], start: u64, kind: NodeKind) -> Batch {
        let group_len = layout.group_len as usize;
        let (unit, leaf_level) = if group_len >= 16 * CHUNK_LEN {
            (group_len, 0)
        } else {
            (CHUNK_LEN, group_len.trailing_zeros() as usize - 10)
        };
        let mut batch = Batch {
            cvs: [[0; 32]; 2 * BATCH_CHUNKS],
            starts: [0; 8],
            counts: [0; 8],
            levels: 1,
            unit,
            leaf_level,
        };
        let count = input.len().div_ceil(unit);
        batch.counts[0] = count;
        let whole = input.len() / unit;
        if unit == CHUNK_LEN {
            if whole > 0 {
                let first_chunk = start / CHUNK_LEN as u64;
                let (chunks, _) = input.split_at(whole * CHUNK_LEN);
                hazmat::chunk_chaining_values(
                    Mode::Hash,
                    first_chunk,
                    chunks,
                    &mut batch.cvs[..whole],
                );
            }
        } else {
            for (i, group) in input[..whole * unit].chunks(unit).enumerate() {
                batch.cvs[i] = leaf_cv(group, start + (i * unit) as u64, NodeKind::NonRoot);
            }
        }
        if whole < count {
            let offset = whole * unit;
            batch.cvs[whole] = leaf_cv(&input[offset..], start + offset as u64, NodeKind::NonRoot);
        }
        while batch.counts[batch.levels - 1] > 1 {
            let k = batch.levels;
            let (below, above) = batch
                .cvs
                .split_at_mut(batch.starts[k - 1] + batch.counts[k - 1]);
            let below = &below[batch.starts[k - 1]..];
            parent_level(below, kind, above);
            batch.starts[k] = batch.starts[k - 1] + batch.counts[k - 1];
            batch.counts[k] = below.len().div_ceil(2);
            batch.levels += 1;
        }
        batch
    }

    fn cv(&self, level: usize, i: usize) -> &ChainingValue {
        &self.cvs[self.starts[level] + i]
    }

    /// The top node's chaining value (the hash, for the root).
    fn top(&self) -> ChainingValue {
        *self.cv(self.levels - 1, 0)
    }

    /// Bao's leaves: the values of the groups.
    fn leaves(&self) -> &[ChainingValue] {
        let level = self.leaf_level;
        &self.cvs[self.starts[level]..self.starts[level] + self.counts[level]]
    }

    /// Writes the subtree of node `i` of `level` in pre-order; `input` is the batch's input.
    fn write(&self, layout: Layout, input: &[u8], level: usize, i: usize, out: &mut [u8]) {
        if level == self.leaf_level {
            if layout.storage == Storage::Combined {
                let from = i * (self.unit << level);
                out.copy_from_slice(&input[from..from + out.len()]);
            }
            return;
        }
        if 2 * i + 1 >= self.counts[level - 1] {
            // Carried up: the same node one level down.
            return self.write(layout, input, level - 1, 2 * i, out);
        }
        let (parent, children) = out.split_at_mut(PARENT_LEN);
        parent[..32].copy_from_slice(self.cv(level - 1, 2 * i));
        parent[32..].copy_from_slice(self.cv(level - 1, 2 * i + 1));
        let left_len = (self.unit << (level - 1)) as u64;
        let (left_out, right_out) = children.split_at_mut(layout.subtree_size(left_len) as usize);
        self.write(layout, input, level - 1, 2 * i, left_out);
        self.write(layout, input, level - 1, 2 * i + 1, right_out);
    }
}

/// The batches of `input` (whole groups, `start` bytes into the whole input), `piece` bytes
/// each, on several threads if large.
fn batches(layout: Layout, input: &[u8], start: u64, piece: usize) -> Vec<Batch> {
    if input.len() <= piece {
        return vec![Batch::new(layout, input, start, NodeKind::NonRoot)];
    }
    let half = input.len().div_ceil(piece) / 2 * piece;
    let (left, right) = input.split_at(half);
    let (mut left, right) = crate::threads::join(
        input.len() >= PARALLEL_MIN,
        || batches(layout, left, start, piece),
        || batches(layout, right, start + half as u64, piece),
    );
    left.extend(right);
    left
}

/// A streaming encoder: bytes written to it are encoded into `file` (from its position when the
/// encoder was made), combined or outboard. The tree is written in post-order as the input
/// arrives, and [`finalize`](Encoder::finalize) turns it into pre-order in place, which is why
/// the file must be readable and seekable.
pub struct Encoder<F: Read + Write + Seek> {
    file: F,
    layout: Layout,
    /// Where the encoding starts in `file`.
    origin: u64,
    /// Input not yet written as leaves, written only once more input proves that it does not
    /// hold the last leaf.
    pending: Vec<u8>,
    /// The chaining values of the complete subtrees so far, the largest first.
    stack: Vec<ChainingValue>,
    leaves: u64,
    len: u64,
}

impl<F: Read + Write + Seek> Encoder<F> {
    /// An encoder of the combined encoding into `file`.
    pub fn new(file: F, group_log: GroupLog) -> io::Result<Encoder<F>> {
        Self::with_layout(file, Layout::new(group_log, Storage::Combined))
    }

    /// An encoder of the outboard encoding into `file`.
    pub fn new_outboard(file: F, group_log: GroupLog) -> io::Result<Encoder<F>> {
        Self::with_layout(file, Layout::new(group_log, Storage::Outboard))
    }

    fn with_layout(mut file: F, layout: Layout) -> io::Result<Encoder<F>> {
        let origin = file.stream_position()?;
        file.write_all(&[0; HEADER_LEN])?;
        Ok(Encoder {
            file,
            layout,
            origin,
            pending: Vec::new(),
            stack: Vec::new(),
            leaves: 0,
            len: 0,
        })
    }

    /// Input held before its leaves are written: several batches, hashed on all cores.
    fn pending_len(&self) -> usize {
        STREAM_PENDING.max(self.layout.group_len as usize)
    }

    /// Writes the leaves of `input` (whole groups, none of them the last) and the parents they
    /// complete, in post-order.
    fn write_leaves(&mut self, input: &[u8]) -> io::Result<()> {
        let start = self.leaves * self.layout.group_len;
        let group_len = self.layout.group_len as usize;
        let batches = batches(self.layout, input, start, BATCH_LEN.max(group_len));
        let leaves = batches.iter().flat_map(|batch| batch.leaves());
        let mut out = Vec::with_capacity(input.len() + input.len() / group_len * PARENT_LEN);
        for (cv, group) in leaves.zip(input.chunks(group_len)) {
            if self.layout.storage == Storage::Combined {
                out.extend_from_slice(group);
            }
            self.stack.push(*cv);
            self.leaves += 1;
            // Each complete subtree ending here gets its parent, now that more input follows.
            let mut done = self.leaves;
            while done.is_multiple_of(2) {
                let right = self.stack.pop().expect("two subtrees");
                let left = self.stack.pop().expect("two subtrees");
                out.extend_from_slice(&left);
                out.extend_from_slice(&right);
                self.stack.push(merge(&left, &right, NodeKind::NonRoot));
                done /= 2;
            }
        }
        self.file.write_all(&out)
    }

    /// Writes the rest of the tree, reorders it into pre-order and writes the header; returns
    /// the hash and the file, positioned at the end of the encoding.
    pub fn finalize(mut self) -> io::Result<(Hash, F)> {
        let pending = std::mem::take(&mut self.pending);
        let group_len = self.layout.group_len as usize;
        let last_start = pending.len().saturating_sub(1) / group_len * group_len;
        let (full, last) = pending.split_at(last_start);
        if !full.is_empty() {
            self.write_leaves(full)?;
        }
        let start = self.leaves * self.layout.group_len;
        let mut right = leaf_cv(last, start, NodeKind::root_if(self.stack.is_empty()));
        let mut out = Vec::new();
        if self.layout.storage == Storage::Combined {
            out.extend_from_slice(last);
        }
        while let Some(left) = self.stack.pop() {
            out.extend_from_slice(&left);
            out.extend_from_slice(&right);
            right = merge(&left, &right, NodeKind::root_if(self.stack.is_empty()));
        }
        self.file.write_all(&out)?;
        let end = self.file.stream_position()?;
        let tree_start = self.origin + HEADER_LEN as u64;
        if self.layout.storage == Storage::Outboard {
            // The outboard is small: reorder it in memory.
            let mut tree = vec![0; (end - tree_start) as usize];
            self.file.seek(SeekFrom::Start(tree_start))?;
            self.file.read_exact(&mut tree)?;
            let mut cursor = io::Cursor::new(tree);
            to_pre_order(&mut cursor, self.layout, self.len)?;
            self.file.seek(SeekFrom::Start(tree_start))?;
            self.file.write_all(&cursor.into_inner())?;
        } else {
            let mut region = Region {
                file: &mut self.file,
                origin: tree_start,
            };
            to_pre_order(&mut region, self.layout, self.len)?;
        }
        self.file.seek(SeekFrom::Start(self.origin))?;
        self.file.write_all(&self.len.to_le_bytes())?;
        self.file.seek(SeekFrom::Start(end))?;
        Ok((Hash::from(right), self.file))
    }
}

impl<F: Read + Write + Seek> Write for Encoder<F> {
    fn write(&mut self, mut input: &[u8]) -> io::Result<usize> {
        let written = input.len();
        let batch = self.pending_len();
        while !input.is_empty() {
            if self.pending.len() == batch {
                let pending = std::mem::take(&mut self.pending);
                self.write_leaves(&pending)?;
                self.pending = pending;
                self.pending.clear();
            }
            let take = input.len().min(batch - self.pending.len());
            self.pending.extend_from_slice(&input[..take]);
            self.len += take as u64;
            input = &input[take..];
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// A file seen from `origin` on, so that the reordering works in offsets of the tree.
struct Region<'a, F> {
    file: &'a mut F,
    origin: u64,
}

trait At {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<()>;
    fn write_at(&mut self, offset: u64, buf: &[u8]) -> io::Result<()>;
}

impl<F: Read + Write + Seek> At for Region<'_, F> {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.file.seek(SeekFrom::Start(self.origin + offset))?;
        self.file.read_exact(buf)
    }
    fn write_at(&mut self, offset: u64, buf: &[u8]) -> io::Result<()> {
        self.file.seek(SeekFrom::Start(self.origin + offset))?;
        self.file.write_all(buf)
    }
}

impl At for io::Cursor<Vec<u8>> {
    fn read_at(&mut self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.set_position(offset);
        self.read_exact(buf)
    }
    fn write_at(&mut self, offset: u64, buf: &[u8]) -> io::Result<()> {
        self.set_position(offset);
        self.write_all(buf)
    }
}

/// Reorders a tree over `len` bytes from post-order into pre-order in place. Both orders have
/// the same size; walking both from the end (a parent, its right subtree, its left subtree),
/// every node is written at or after the place it was read from, so the only state is the
/// parents on the path, whose bytes wait in the recursion until their subtrees are placed.
fn to_pre_order(file: &mut impl At, layout: Layout, len: u64) -> io::Result<()> {
    let size = layout.subtree_size(len);
    let mut cursors = (size, size);
    let mut buf = vec![0; 64 * 1024];
    reorder(file, layout, len, &mut cursors, &mut buf)
}

/// Moves the subtree over `len` bytes that ends at `cursors.0` in post-order to end at
/// `cursors.1` in pre-order, and moves both cursors to the subtree's starts.
fn reorder(
    file: &mut impl At,
    layout: Layout,
    len: u64,
    cursors: &mut (u64, u64),
    buf: &mut [u8],
) -> io::Result<()> {
    if layout.is_leaf(len) {
        let mut left = layout.leaf_size(len);
        let (read_end, write_end) = *cursors;
        cursors.0 -= left;
        cursors.1 -= left;
        if read_end == write_end {
            return Ok(());
        }
        // The destination is at or after the source: copy from the end down.
        while left > 0 {
            let n = left.min(buf.len() as u64);
            let piece = &mut buf[..n as usize];
            left -= n;
            file.read_at(cursors.0 + left, piece)?;
            file.write_at(cursors.1 + left, piece)?;
        }
        return Ok(());
    }
    let mut parent = [0u8; PARENT_LEN];
    cursors.0 -= PARENT_LEN as u64;
    file.read_at(cursors.0, &mut parent)?;
    let left_len = hazmat::left_subtree_len(len);
    reorder(file, layout, len - left_len, cursors, buf)?;
    reorder(file, layout, left_len, cursors, buf)?;
    cursors.1 -= PARENT_LEN as u64;
    file.write_at(cursors.1, &parent)
}
