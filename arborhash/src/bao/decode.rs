//! Decoding: the combined or outboard encoding (`Decoder`, with seeking) and slices
//! (`SliceDecoder`). Both release the bytes of a leaf only after it has been checked up to the
//! root hash.

use super::encode::{write_subtree, BATCH_LEN, PARALLEL_MIN};
use super::tree::{Layout, Node, Range, Storage, Walk};
use super::{encoded_size, Error, GroupLog, HEADER_LEN, PARENT_LEN};
use crate::blake3::hazmat;
use crate::blake3::Hash;
use crate::threads::beside;
use std::io::{self, Read, Seek, SeekFrom};

/// Reads and verifies a combined encoding (from one stream) or an outboard encoding (the content
/// from one stream, the tree from another), releasing only verified content.
///
/// With `Seek` on its streams it seeks too; its first seek verifies the final leaf, which proves
/// the length, before it uses it. A read that meets an error after verified bytes returns those
/// bytes, and the next call the error. An error leaves the decoder failed: later reads fail too.
pub struct Decoder<R, O = io::Empty> {
    core: Core<R, O>,
}

/// Reads and verifies a slice (from [`SliceExtractor`](super::SliceExtractor)), releasing the
/// verified bytes of the requested range (capped at the end of the content).
pub struct SliceDecoder<R> {
    core: Core<R, io::Empty>,
}

/// The largest subtree read straight into a caller's buffer as one piece: small enough to be
/// still in cache when it is verified, while the next piece is read.
const PIECE_MAX: u64 = 1 << 20;
/// The largest leaf read straight into a caller's buffer (a leaf cannot be split).
const LEAF_DIRECT_MAX: u64 = 16 << 20;
/// `read_to_end` grows its vector per read by as much as it has read so far, within these
/// bounds: large reads overlap more of the verification with reading (each read's last piece is
/// verified alone), while a forged length makes it zero at most the first step before any byte
/// is verified.
const READ_TO_END_FIRST: u64 = 4 << 20;
const READ_TO_END_MAX: u64 = 64 << 20;

/// What a step of the walk produced.
enum Loaded {
    /// A leaf or subtree in the buffer.
    Buffered,
    /// This many verified bytes in the caller's buffer.
    Direct(usize),
    End,
}

/// The pieces one read put straight into the caller's buffer: `filled` bytes, of which the
/// first `verified` (up to the content offset `verified_end`) are verified, and the piece
/// after them, if any, is `pending` (its node and offset in the buffer).
#[derive(Default)]
struct Pieces {
    filled: usize,
    verified: usize,
    verified_end: u64,
    pending: Option<(Node, usize)>,
}

impl Pieces {
    /// Verifies the pending piece, if any, in `out` (the buffer up to its end at least).
    fn verify_pending(
        &mut self,
        layout: Layout,
        out: &[u8],
        parents: &[u8],
        check: &mut Vec<u8>,
    ) -> Result<(), Error> {
        if let Some((node, at)) = self.pending.take() {
            let end = at + node.len as usize;
            verify_subtree(layout, &node, &out[at..end], parents, check)?;
            self.verified = end;
            self.verified_end = node.end();
        }
        Ok(())
    }
}

enum State {
    Header,
    Walking { len: u64, walk: Walk },
    Failed,
}

/// The streams' offsets of the encoding's start, found at the first seek.
#[derive(Clone, Copy)]
struct Bases {
    input: u64,
    outboard: u64,
}

struct Core<R, O> {
    /// The combined encoding, the slice, or (outboard) the content.
    input: R,
    outboard: Option<O>,
    hash: Hash,
    group_log: GroupLog,
    /// A slice's request: start and count.
    slice: Option<(u64, u64)>,
    state: State,
    /// The verified content of the current leaf, released from `pos` to `end`.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// A subtree's parents as read: the piece being read, the piece being verified, and the
    /// parents encoded again to compare.
    parents: Vec<u8>,
    pending_parents: Vec<u8>,
    check: Vec<u8>,
    /// The content offset of `buf[pos]` (or of the reader, after a seek past the end).
    position: u64,
    /// The final leaf has been verified, so the header's length is proven.
    len_verified: bool,
    /// Reads are at the end: report EOF.
    finished: bool,
    /// An error met after verified pieces that a read returned: the next call reports it.
    deferred: Option<Error>,
    /// Bytes read from the input and the outboard stream, to find their starts at a seek.
    consumed: [u64; 2],
    bases: Option<Bases>,
}

impl<R: Read> Decoder<R> {
    /// Decodes the combined encoding read from `encoded`, which must have the hash `hash`.
    pub fn new(encoded: R, hash: &Hash, group_log: GroupLog) -> Decoder<R> {
        Decoder {
            core: Core::new(encoded, None, hash, group_log, None),
        }
    }
}

impl<R: Read, O: Read> Decoder<R, O> {
    /// Decodes the content read from `content` with its outboard encoding read from
    /// `outboard`.
    pub fn new_outboard(
        content: R,
        outboard: O,
        hash: &Hash,
        group_log: GroupLog,
    ) -> Decoder<R, O> {
        Decoder {
            core: Core::new(content, Some(outboard), hash, group_log, None),
        }
    }

    /// Gives back the streams.
    pub fn into_inner(self) -> (R, Option<O>) {
        (self.core.input, self.core.outboard)
    }
}

impl<R: Read> SliceDecoder<R> {
    /// Decodes the slice of `count` bytes from `start` read from `slice` (the same `start`,
    /// `count` and group log it was extracted with), against the whole content's hash.
    pub fn new(
        slice: R,
        hash: &Hash,
        start: u64,
        count: u64,
        group_log: GroupLog,
    ) -> SliceDecoder<R> {
        SliceDecoder {
            core: Core::new(slice, None, hash, group_log, Some((start, count))),
        }
    }

    /// Gives back the stream.
    pub fn into_inner(self) -> R {
        self.core.input
    }
}

impl<R: Read, O: Read> Read for Decoder<R, O> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.core.read(out)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        self.core.read_to_end(buf)
    }
}

impl<R: Read> Read for SliceDecoder<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.core.read(out)
    }

    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        self.core.read_to_end(buf)
    }
}

impl<R: Read + Seek, O: Read + Seek> Seek for Decoder<R, O> {
    fn seek(&mut self, from: SeekFrom) -> io::Result<u64> {
        let result = self.core.seek(from);
        Ok(self.core.guard(result)?)
    }
}

/// Reads exactly `buf.len()` bytes, a short stream being a truncation at `node`.
fn read_node(stream: &mut (impl Read + ?Sized), buf: &mut [u8], node: &Node) -> Result<(), Error> {
    stream.read_exact(buf).map_err(|e| match e.kind() {
        io::ErrorKind::UnexpectedEof => node.truncated(),
        _ => Error::Io(e),
    })
}

/// An offset from a stream's base; past `u64` (a forged length) it is the end, where reads fail.
fn at(base: u64, offset: u64) -> u64 {
    base.saturating_add(offset)
}

/// Whether the stream has any byte left (it is read).
fn has_more(stream: &mut impl Read) -> Result<bool, Error> {
    let mut byte = [0u8];
    loop {
        match stream.read(&mut byte) {
            Ok(n) => return Ok(n > 0),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
}

impl<R: Read, O: Read> Core<R, O> {
    fn new(
        input: R,
        outboard: Option<O>,
        hash: &Hash,
        group_log: GroupLog,
        slice: Option<(u64, u64)>,
    ) -> Core<R, O> {
        Core {
            input,
            outboard,
            hash: *hash,
            group_log,
            slice,
            state: State::Header,
            buf: Vec::new(),
            parents: Vec::new(),
            pending_parents: Vec::new(),
            check: Vec::new(),
            pos: 0,
            end: 0,
            position: 0,
            len_verified: false,
            finished: false,
            deferred: None,
            consumed: [0; 2],
            bases: None,
        }
    }

    fn layout(&self) -> Layout {
        Layout::new(self.group_log, Storage::with_outboard(&self.outboard))
    }

    /// Keeps an error's verdict: after a failure the decoder only fails.
    fn guard<T>(&mut self, result: Result<T, Error>) -> Result<T, Error> {
        if result.is_err() {
            self.state = State::Failed;
            self.pos = 0;
            self.end = 0;
        }
        result
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.pos < self.end {
                let n = out.len().min(self.end - self.pos);
                out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
                self.pos += n;
                self.position += n as u64;
                return Ok(n);
            }
            if out.is_empty() || self.finished {
                return Ok(0);
            }
            let result = self.next_leaf(out);
            match self.guard(result)? {
                Loaded::Buffered => {}
                Loaded::Direct(n) => return Ok(n),
                Loaded::End => {
                    self.finished = true;
                    return Ok(0);
                }
            }
        }
    }

    /// Appends the rest of the released bytes to `buf`, in reads of growing size (see
    /// [`READ_TO_END_FIRST`]; the header's length, unverified, only caps them); on an error
    /// `buf` keeps the bytes of the reads before.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let start = buf.len();
        loop {
            let header = self.header();
            self.guard(header)?;
            let rest = match &self.state {
                State::Walking { walk, .. } => walk
                    .range
                    .out_end
                    .saturating_sub(self.position.max(walk.range.out_start)),
                _ => 0,
            };
            let old = buf.len();
            let step = ((old - start) as u64).clamp(READ_TO_END_FIRST, READ_TO_END_MAX);
            buf.resize(old + rest.clamp(1, step) as usize, 0);
            match self.read(&mut buf[old..]) {
                Ok(0) => {
                    buf.truncate(old);
                    return Ok(old - start);
                }
                Ok(n) => buf.truncate(old + n),
                Err(e) => {
                    buf.truncate(old);
                    return Err(e);
                }
            }
        }
    }

    /// Reads the header if not yet read; returns the (unverified) length, or the error a read
    /// deferred.
    fn header(&mut self) -> Result<u64, Error> {
        if let Some(e) = self.deferred.take() {
            return Err(e);
        }
        match self.state {
            State::Walking { len, .. } => return Ok(len),
            State::Failed => {
                return Err(Error::Io(io::Error::other(
                    "the decoder stopped at an earlier error",
                )))
            }
            State::Header => {}
        }
        let mut header = [0u8; HEADER_LEN];
        let stream = match &mut self.outboard {
            Some(outboard) => {
                self.consumed[1] += HEADER_LEN as u64;
                outboard as &mut dyn Read
            }
            None => {
                self.consumed[0] += HEADER_LEN as u64;
                &mut self.input as &mut dyn Read
            }
        };
        let root = Node::root(0, &self.hash);
        read_node(stream, &mut header, &root)?;
        let len = u64::from_le_bytes(header);
        if encoded_size(len, self.group_log).is_none() {
            return Err(Error::LengthOverflow);
        }
        let range = match self.slice {
            Some((start, count)) => Range::slice(start, count, len),
            None => Range::all(len),
        };
        let walk = Walk::new(self.layout(), range, Node::root(len, &self.hash));
        self.state = State::Walking { len, walk };
        Ok(len)
    }

    /// Reads and verifies nodes up to the next leaf of the range, and loads its released
    /// bytes, or reads as many whole pieces as fit straight into `out`; at the end, checks that
    /// no data follows.
    fn next_leaf(&mut self, out: &mut [u8]) -> Result<Loaded, Error> {
        let len = self.header()?;
        let mut pieces = Pieces::default();
        let result = self.walk_to_leaf(len, out, &mut pieces);
        if pieces.verified == 0 {
            return result;
        }
        // The verified pieces go out first; an error after them waits for the next call.
        if let Err(e) = result {
            self.deferred = Some(e);
        }
        self.position = pieces.verified_end;
        self.len_verified |= pieces.verified_end == len;
        Ok(Loaded::Direct(pieces.verified))
    }

    /// The walk of [`next_leaf`](Self::next_leaf), which leaves in `pieces` what it read into
    /// `out`.
    fn walk_to_leaf(
        &mut self,
        len: u64,
        out: &mut [u8],
        pieces: &mut Pieces,
    ) -> Result<Loaded, Error> {
        let layout = self.layout();
        while let Some(node) = self.walk().next() {
            let range = self.walk().range;
            let covered = range.start <= node.start && node.end() <= range.end;
            let released = range.out_start <= node.start && node.end() <= range.out_end;
            let piece_max = if layout.is_leaf(node.len) {
                LEAF_DIRECT_MAX
            } else {
                PIECE_MAX
            };
            let fits = (out.len() - pieces.filled) as u64 >= node.len && node.len <= piece_max;
            // (Not the empty leaf: a read of 0 bytes would be taken for the end.)
            if covered && released && fits && node.len > 0 {
                // Read while the piece before is verified on the pool, if it is large enough
                // to pay for waking a thread.
                let n = node.len as usize;
                let overlap = pieces
                    .pending
                    .as_ref()
                    .is_some_and(|(piece, _)| piece.len >= PARALLEL_MIN as u64);
                let (before, rest) = out.split_at_mut(pieces.filled);
                let before_parents = std::mem::take(&mut self.pending_parents);
                let mut parents = std::mem::take(&mut self.parents);
                let mut check = std::mem::take(&mut self.check);
                let (verified, read) = beside(
                    overlap,
                    || pieces.verify_pending(layout, before, &before_parents, &mut check),
                    || self.read_piece(&node, &mut rest[..n], &mut parents),
                );
                // This piece's parents are the next to be verified.
                self.pending_parents = parents;
                self.parents = before_parents;
                self.check = check;
                verified?;
                read?;
                pieces.pending = Some((node, pieces.filled));
                pieces.filled += n;
                continue;
            }
            // A leaf, or a small subtree read whole, goes through the buffer; a larger
            // subtree is split at its parent.
            let buffered = layout.is_leaf(node.len) || (node.len <= BATCH_LEN as u64 && covered);
            if !buffered {
                let mut parent = [0u8; PARENT_LEN];
                match &mut self.outboard {
                    Some(outboard) => {
                        read_node(outboard, &mut parent, &node)?;
                        self.consumed[1] += PARENT_LEN as u64;
                    }
                    None => {
                        read_node(&mut self.input, &mut parent, &node)?;
                        self.consumed[0] += PARENT_LEN as u64;
                    }
                }
                let children = node.verify_parent(&layout, &parent)?;
                self.walk().push_children(children);
                continue;
            }
            if pieces.filled > 0 {
                // Buffered on the next call.
                self.walk().push(node);
                break;
            }
            self.load_buffered(&node, len, range)?;
            return Ok(Loaded::Buffered);
        }
        if pieces.filled > 0 {
            let out = &out[..pieces.filled];
            pieces.verify_pending(layout, out, &self.pending_parents, &mut self.check)?;
            return Ok(Loaded::Direct(pieces.verified));
        }
        if has_more(&mut self.input)? {
            return Err(Error::TrailingData);
        }
        if let Some(outboard) = &mut self.outboard {
            if has_more(outboard)? {
                return Err(Error::TrailingData);
            }
        }
        Ok(Loaded::End)
    }

    fn walk(&mut self) -> &mut Walk {
        match &mut self.state {
            State::Walking { walk, .. } => walk,
            _ => unreachable!("header() leaves the decoder walking"),
        }
    }

    /// Reads a leaf, or a whole subtree up to [`BATCH_LEN`], into `buf` and verifies it,
    /// releasing its part of the range.
    fn load_buffered(&mut self, node: &Node, len: u64, range: Range) -> Result<(), Error> {
        // A leaf is at most a group: 64 MiB at GroupLog::MAX.
        self.pos = 0;
        self.end = 0;
        let mut buf = std::mem::take(&mut self.buf);
        let mut parents = std::mem::take(&mut self.parents);
        // Overwritten whole by the reads: resizing zeroes only growth.
        buf.resize(node.len as usize, 0);
        let result = self
            .read_piece(node, &mut buf, &mut parents)
            .and_then(|()| verify_subtree(self.layout(), node, &buf, &parents, &mut self.check));
        self.buf = buf;
        self.parents = parents;
        result?;
        self.release(node, len, range);
        Ok(())
    }

    /// Reads a leaf, or a whole subtree (its content into `content`, its parents into
    /// `parents`), unverified.
    fn read_piece(
        &mut self,
        node: &Node,
        content: &mut [u8],
        parents: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let layout = self.layout();
        let parents_len = (layout.leaves(node.len) - 1) as usize * PARENT_LEN;
        parents.resize(parents_len, 0);
        match &mut self.outboard {
            Some(outboard) => {
                read_node(outboard, parents, node)?;
                read_node(&mut self.input, content, node)?;
                self.consumed[1] += parents_len as u64;
            }
            None => {
                // Leaves straight into the content, parents into their own buffer.
                read_split(&mut self.input, layout, node, content, parents)?;
                self.consumed[0] += parents_len as u64;
            }
        }
        self.consumed[0] += node.len;
        Ok(())
    }

    /// Releases the part of the verified node in `buf` that the range asks for.
    fn release(&mut self, node: &Node, len: u64, range: Range) {
        if node.end() == len {
            self.len_verified = true;
        }
        let from = range.out_start.clamp(node.start, node.end());
        let to = range.out_end.clamp(from, node.end());
        self.pos = (from - node.start) as usize;
        self.end = (to - node.start) as usize;
        self.position = from;
    }
}

/// Verifies the subtree `node` (a leaf, whose parents are none) at once, given its content and
/// parents (in pre-order): the content is encoded again into `check` (the chaining values of all
/// its leaves and parents in wide kernel calls) and the parents and value must be the same as
/// those given.
pub(super) fn verify_subtree(
    layout: Layout,
    node: &Node,
    content: &[u8],
    parents: &[u8],
    check: &mut Vec<u8>,
) -> Result<(), Error> {
    let outboard = Layout {
        storage: Storage::Outboard,
        ..layout
    };
    check.resize(parents.len(), 0);
    let cv = write_subtree(outboard, content, node.start, node.kind, check);
    if check[..] != *parents || Hash::from(cv) != node.cv {
        return Err(node.mismatch());
    }
    Ok(())
}

/// Reads the combined encoding of the subtree `node`, its leaves into `content` and its parents
/// into `parents`.
pub(super) fn read_split(
    stream: &mut impl Read,
    layout: Layout,
    node: &Node,
    content: &mut [u8],
    parents: &mut [u8],
) -> Result<(), Error> {
    if layout.is_leaf(content.len() as u64) {
        return read_node(stream, content, node);
    }
    let (parent, below) = parents.split_at_mut(PARENT_LEN);
    read_node(stream, parent, node)?;
    let left_len = hazmat::left_subtree_len(content.len() as u64);
    let (left, right) = content.split_at_mut(left_len as usize);
    let left_parents = (layout.leaves(left_len) - 1) as usize * PARENT_LEN;
    let (left_below, right_below) = below.split_at_mut(left_parents);
    read_split(stream, layout, node, left, left_below)?;
    read_split(stream, layout, node, right, right_below)
}

impl<R: Read + Seek, O: Read + Seek> Core<R, O> {
    fn seek(&mut self, from: SeekFrom) -> Result<u64, Error> {
        let len = self.header()?;
        let bases = match self.bases {
            Some(bases) => bases,
            None => {
                let input = self
                    .input
                    .stream_position()?
                    .saturating_sub(self.consumed[0]);
                let outboard = match &mut self.outboard {
                    Some(outboard) => outboard.stream_position()?.saturating_sub(self.consumed[1]),
                    None => 0,
                };
                *self.bases.insert(Bases { input, outboard })
            }
        };
        let position = self.position;
        if !self.len_verified {
            // The final leaf (the empty leaf of an empty input) proves the length.
            self.descend(len.saturating_sub(1), len, bases)?;
        }
        let target = match from {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(delta) => len.checked_add_signed(delta),
            SeekFrom::Current(delta) => position.checked_add_signed(delta),
        };
        let Some(target) = target else {
            return Err(Error::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek to a negative or overflowing position",
            )));
        };
        if target >= len {
            if let State::Walking { walk, .. } = &mut self.state {
                walk.clear();
            }
            self.pos = 0;
            self.end = 0;
            self.position = target;
            self.finished = true;
            return Ok(target);
        }
        self.descend(target, len, bases)?;
        Ok(target)
    }

    /// Verifies the path from the root to the leaf holding `target` (< len, or 0 for an empty
    /// input) and loads that leaf from `target` on; the walk continues after it.
    fn descend(&mut self, target: u64, len: u64, bases: Bases) -> Result<(), Error> {
        let layout = self.layout();
        let mut node = Node::root(len, &self.hash);
        let mut pending = Vec::new();
        while !layout.is_leaf(node.len) {
            let mut parent = [0u8; PARENT_LEN];
            match &mut self.outboard {
                Some(outboard) => {
                    outboard.seek(SeekFrom::Start(at(
                        bases.outboard,
                        HEADER_LEN as u64 + node.offset,
                    )))?;
                    read_node(outboard, &mut parent, &node)?;
                }
                None => {
                    self.input.seek(SeekFrom::Start(at(
                        bases.input,
                        HEADER_LEN as u64 + node.offset,
                    )))?;
                    read_node(&mut self.input, &mut parent, &node)?;
                }
            }
            let (left, right) = node.verify_parent(&layout, &parent)?;
            node = if target < right.start {
                pending.push(right);
                left
            } else {
                right
            };
        }
        let leaf_at = match &mut self.outboard {
            Some(outboard) => {
                // The walk goes on with the parents after this leaf, which a descent that
                // turned right has not passed.
                outboard.seek(SeekFrom::Start(at(
                    bases.outboard,
                    HEADER_LEN as u64 + node.offset,
                )))?;
                at(bases.input, node.start)
            }
            None => at(bases.input, HEADER_LEN as u64 + node.offset),
        };
        self.input.seek(SeekFrom::Start(leaf_at))?;
        self.load_buffered(&node, len, Range::all(len))?;
        self.pos = (target - node.start) as usize;
        self.position = target;
        self.finished = false;
        if let State::Walking { walk, .. } = &mut self.state {
            walk.clear();
            // The pending right siblings, the nearest on top: the walk's pre-order from here.
            for sibling in pending {
                walk.push(sibling);
            }
        }
        Ok(())
    }
}
