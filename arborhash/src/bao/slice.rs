//! Extracting a slice from a combined or outboard encoding.

use super::tree::{Layout, Node, Range, Storage, Walk};
use super::{encoded_size, Error, GroupLog, HEADER_LEN, PARENT_LEN};
use crate::blake3::Hash;
use std::io::{self, Read, Seek, SeekFrom};

/// Reads the slice of `count` bytes from `start` out of an encoding (combined, or the content
/// and its outboard), seeking past the nodes the slice leaves out. It verifies nothing: the
/// receiver's [`SliceDecoder`](super::SliceDecoder) does.
pub struct SliceExtractor<R, O = io::Empty> {
    input: R,
    outboard: Option<O>,
    group_log: GroupLog,
    start: u64,
    count: u64,
    /// The encoding's start in each stream, and the walk, once the header is read.
    state: Option<(u64, u64, Walk)>,
    buf: Vec<u8>,
    pos: usize,
}

impl<R: Read + Seek> SliceExtractor<R> {
    /// Extracts from the combined encoding in `encoded`, which starts at its current position.
    pub fn new(encoded: R, start: u64, count: u64, group_log: GroupLog) -> SliceExtractor<R> {
        Self::with(encoded, None, start, count, group_log)
    }
}

impl<R: Read + Seek, O: Read + Seek> SliceExtractor<R, O> {
    /// Extracts from `content` and its outboard encoding `outboard`, each starting at its
    /// current position.
    pub fn new_outboard(
        content: R,
        outboard: O,
        start: u64,
        count: u64,
        group_log: GroupLog,
    ) -> SliceExtractor<R, O> {
        Self::with(content, Some(outboard), start, count, group_log)
    }

    fn with(
        input: R,
        outboard: Option<O>,
        start: u64,
        count: u64,
        group_log: GroupLog,
    ) -> SliceExtractor<R, O> {
        SliceExtractor {
            input,
            outboard,
            group_log,
            start,
            count,
            state: None,
            buf: Vec::new(),
            pos: 0,
        }
    }

    /// Loads the next piece of the slice into `buf`; false at the end.
    fn next_piece(&mut self) -> Result<bool, Error> {
        self.buf.clear();
        self.pos = 0;
        let Some((input_base, outboard_base, walk)) = &mut self.state else {
            let input_base = self.input.stream_position()?;
            let (outboard_base, tree) = match &mut self.outboard {
                Some(outboard) => (outboard.stream_position()?, outboard as &mut dyn Read),
                None => (0, &mut self.input as &mut dyn Read),
            };
            let mut header = [0u8; HEADER_LEN];
            tree.read_exact(&mut header).map_err(|e| truncated(e, 0))?;
            let len = u64::from_le_bytes(header);
            if encoded_size(len, self.group_log).is_none() {
                return Err(Error::LengthOverflow);
            }
            let layout = Layout::new(self.group_log, Storage::with_outboard(&self.outboard));
            let range = Range::slice(self.start, self.count, len);
            let root = Node::root(len, &Hash::from([0; 32]));
            self.state = Some((input_base, outboard_base, Walk::new(layout, range, root)));
            self.buf.extend_from_slice(&header);
            return Ok(true);
        };
        let Some(node) = walk.next() else {
            return Ok(false);
        };
        let layout = walk.layout;
        let header = HEADER_LEN as u64;
        if !layout.is_leaf(node.len) {
            self.buf.resize(PARENT_LEN, 0);
            let (stream, at) = match &mut self.outboard {
                Some(outboard) => (outboard as &mut dyn ReadSeek, *outboard_base),
                None => (&mut self.input as &mut dyn ReadSeek, *input_base),
            };
            stream.seek(SeekFrom::Start(at.saturating_add(header + node.offset)))?;
            stream
                .read_exact(&mut self.buf)
                .map_err(|e| truncated(e, node.start))?;
            // The extractor checks nothing, so the children's values are not needed.
            walk.push_children(node.children(&layout, [0; 32], [0; 32]));
            return Ok(true);
        }
        let at = match self.outboard {
            Some(_) => input_base.saturating_add(node.start),
            None => input_base.saturating_add(header + node.offset),
        };
        // A leaf is at most a group (64 MiB at GroupLog::MAX).
        self.buf.resize(node.len as usize, 0);
        self.input.seek(SeekFrom::Start(at))?;
        self.input
            .read_exact(&mut self.buf)
            .map_err(|e| truncated(e, node.start))?;
        Ok(true)
    }
}

trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

fn truncated(e: io::Error, content_offset: u64) -> Error {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => Error::Truncated { content_offset },
        _ => Error::Io(e),
    }
}

impl<R: Read + Seek, O: Read + Seek> Read for SliceExtractor<R, O> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.buf.len() {
            if out.is_empty() || !self.next_piece()? {
                return Ok(0);
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}
