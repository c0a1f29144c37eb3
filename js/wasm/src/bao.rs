//! Bao for JavaScript: encoders, slices and an incremental verifying decoder, exported to
//! `js/src/bao.js` as objects behind integer handles.
//!
//! The calling convention needs no `unsafe`: each object owns an `input` buffer that JavaScript
//! fills through the pointer `bao_input` returns (then calls an operation that reads it), and an
//! `output` buffer it reads through `bao_output_ptr`/`bao_output_len` after the operation.
//! Operations return 0 or an error code (see [`code`]); `bao_error_offset` gives the content
//! offset of the last `Truncated` or `Mismatch` error. Offsets and counts are `f64` holding an
//! integer below 2^53, as in the rest of the module (`lib.rs`).
//!
//! `arborhash::bao::Decoder` pulls from a `Read`; a page pushes the pieces of a `fetch()` body as
//! they arrive, so [`Decoder`] below is a push state machine over the public `hazmat` subtree
//! functions, with the layout rules of `arborhash::bao`'s module documentation.

use arborhash::bao::{self, Encoder, Error, GroupLog, SliceExtractor, HEADER_LEN, PARENT_LEN};
use arborhash::blake3;
use arborhash::blake3::hazmat::{self, ChainingValue, Mode};
use std::cell::RefCell;
use std::io::{Cursor, Read, Write};

/// The error codes of the exports (0 is success).
fn code(e: &Error) -> i32 {
    match e {
        Error::Truncated { .. } => 1,
        Error::Mismatch { .. } => 2,
        Error::TrailingData => 3,
        Error::LengthOverflow => 4,
        Error::InvalidGroupLog(_) => 5,
        Error::Io(_) => 6,
    }
}

/// The code for a handle that names no object of the right kind, or an input of the wrong size.
const BAD_CALL: i32 = 7;

enum Kind {
    /// Waiting for an `init` call.
    Empty,
    Encoder(Encoder<Cursor<Vec<u8>>>),
    Decoder(Box<Decoder>),
}

struct Object {
    input: Vec<u8>,
    output: Vec<u8>,
    error_offset: u64,
    kind: Kind,
}

thread_local! {
    /// The live objects; a handle is an index plus one, so that 0 names none.
    static OBJECTS: RefCell<Vec<Option<Object>>> = const { RefCell::new(Vec::new()) };
}

fn with<T>(handle: u32, default: T, f: impl FnOnce(&mut Object) -> T) -> T {
    OBJECTS.with(|objects| {
        let mut objects = objects.borrow_mut();
        match handle
            .checked_sub(1)
            .and_then(|i| objects.get_mut(i as usize))
        {
            Some(Some(object)) => f(object),
            _ => default,
        }
    })
}

/// Runs an operation, keeping its error's offset; returns its code.
fn run(handle: u32, f: impl FnOnce(&mut Object) -> Result<(), Error>) -> i32 {
    with(handle, BAD_CALL, |object| match f(object) {
        Ok(()) => 0,
        Err(e) => {
            if let Error::Truncated { content_offset } | Error::Mismatch { content_offset } = e {
                object.error_offset = content_offset;
            }
            code(&e)
        }
    })
}

fn group_log(g: u32) -> Result<GroupLog, Error> {
    GroupLog::new(u8::try_from(g).unwrap_or(u8::MAX))
}

/// A new empty object.
#[no_mangle]
pub extern "C" fn bao_new() -> u32 {
    OBJECTS.with(|objects| {
        let mut objects = objects.borrow_mut();
        let object = Object {
            input: Vec::new(),
            output: Vec::new(),
            error_offset: 0,
            kind: Kind::Empty,
        };
        let index = match objects.iter().position(Option::is_none) {
            Some(i) => {
                objects[i] = Some(object);
                i
            }
            None => {
                objects.push(Some(object));
                objects.len() - 1
            }
        };
        index as u32 + 1
    })
}

/// Frees an object (a handle that names none is ignored).
#[no_mangle]
pub extern "C" fn bao_free(handle: u32) {
    OBJECTS.with(|objects| {
        if let Some(slot) = handle
            .checked_sub(1)
            .and_then(|i| objects.borrow_mut().get_mut(i as usize).map(Option::take))
        {
            drop(slot);
        }
    });
}

/// Makes the object's input `len` bytes long and returns where JavaScript writes them (0 if the
/// handle is bad or the memory cannot grow).
#[no_mangle]
pub extern "C" fn bao_input(handle: u32, len: usize) -> usize {
    with(handle, 0, |object| {
        object.input.clear();
        if object.input.try_reserve_exact(len).is_err() {
            return 0;
        }
        object.input.resize(len, 0);
        object.input.as_mut_ptr() as usize
    })
}

#[no_mangle]
pub extern "C" fn bao_output_ptr(handle: u32) -> usize {
    with(handle, 0, |object| object.output.as_ptr() as usize)
}

#[no_mangle]
pub extern "C" fn bao_output_len(handle: u32) -> usize {
    with(handle, 0, |object| object.output.len())
}

#[no_mangle]
pub extern "C" fn bao_error_offset(handle: u32) -> f64 {
    with(handle, 0.0, |object| object.error_offset as f64)
}

/// Makes the object an encoder of the combined (`outboard` 0) or outboard encoding.
#[no_mangle]
pub extern "C" fn bao_encoder_init(handle: u32, g: u32, outboard: u32) -> i32 {
    run(handle, |object| {
        let g = group_log(g)?;
        let file = Cursor::new(Vec::new());
        let encoder = if outboard != 0 {
            Encoder::new_outboard(file, g)
        } else {
            Encoder::new(file, g)
        };
        object.kind = Kind::Encoder(encoder?);
        Ok(())
    })
}

/// Feeds the input to the encoder.
#[no_mangle]
pub extern "C" fn bao_encoder_update(handle: u32) -> i32 {
    run(handle, |object| match &mut object.kind {
        Kind::Encoder(encoder) => Ok(encoder.write_all(&object.input)?),
        _ => Err(bad_call()),
    })
}

/// Ends the encoding: the output is the hash (32 bytes), then the encoding.
#[no_mangle]
pub extern "C" fn bao_encoder_finalize(handle: u32) -> i32 {
    run(handle, |object| {
        let Kind::Encoder(encoder) = std::mem::replace(&mut object.kind, Kind::Empty) else {
            return Err(bad_call());
        };
        let (hash, file) = encoder.finalize()?;
        let encoding = file.into_inner();
        object.output.clear();
        object.output.extend_from_slice(hash.as_bytes());
        object.output.extend_from_slice(&encoding);
        Ok(())
    })
}

/// Encodes the whole input at once (in wide kernel calls, faster than the streaming encoder):
/// the output is the hash (32 bytes), then the combined (`outboard` 0) or outboard encoding.
#[no_mangle]
pub extern "C" fn bao_encode(handle: u32, g: u32, outboard: u32) -> i32 {
    run(handle, |object| {
        let g = group_log(g)?;
        let (encoding, hash) = if outboard != 0 {
            bao::outboard(&object.input, g)
        } else {
            bao::encode(&object.input, g)
        };
        object.output.clear();
        object.output.extend_from_slice(hash.as_bytes());
        object.output.extend_from_slice(&encoding);
        Ok(())
    })
}

/// Extracts a slice into the output: from the combined encoding in the input
/// (`content_len` < 0), or from the content (the input's first `content_len` bytes) and its
/// outboard (the rest).
#[no_mangle]
pub extern "C" fn bao_slice(handle: u32, g: u32, start: f64, count: f64, content_len: f64) -> i32 {
    run(handle, |object| {
        let g = group_log(g)?;
        let (start, count) = (offset(start)?, offset(count)?);
        let mut slice = Vec::new();
        if content_len < 0.0 {
            SliceExtractor::new(Cursor::new(&object.input[..]), start, count, g)
                .read_to_end(&mut slice)?;
        } else {
            let split = usize::try_from(offset(content_len)?)
                .ok()
                .filter(|&n| n <= object.input.len())
                .ok_or_else(bad_call)?;
            let (content, outboard) = object.input.split_at(split);
            SliceExtractor::new_outboard(
                Cursor::new(content),
                Cursor::new(outboard),
                start,
                count,
                g,
            )
            .read_to_end(&mut slice)?;
        }
        object.output = slice;
        Ok(())
    })
}

/// Makes the object a decoder for the hash in the input (32 bytes): of a combined encoding
/// (`mode` 0), content with its outboard (1), or the slice of `count` bytes from `start` (2).
#[no_mangle]
pub extern "C" fn bao_decoder_init(handle: u32, g: u32, mode: u32, start: f64, count: f64) -> i32 {
    run(handle, |object| {
        let g = group_log(g)?;
        let (start, count) = (offset(start)?, offset(count)?);
        let hash: [u8; 32] = object.input[..].try_into().map_err(|_| bad_call())?;
        let (outboard, slice) = match mode {
            0 => (false, None),
            1 => (true, None),
            2 => (false, Some((start, count))),
            _ => return Err(bad_call()),
        };
        object.kind = Kind::Decoder(Box::new(Decoder::new(hash, g, outboard, slice)));
        Ok(())
    })
}

/// Feeds the input to the decoder: the encoding, slice or content (`stream` 0) or the outboard
/// (1). The output is the content verified by this call, also when it returns an error.
#[no_mangle]
pub extern "C" fn bao_decoder_push(handle: u32, stream: u32) -> i32 {
    run(handle, |object| {
        object.output.clear();
        let Kind::Decoder(decoder) = &mut object.kind else {
            return Err(bad_call());
        };
        decoder.push(stream != 0, &object.input, &mut object.output)
    })
}

/// Ends the input: an error if the encoding is incomplete.
#[no_mangle]
pub extern "C" fn bao_decoder_finish(handle: u32) -> i32 {
    run(handle, |object| {
        object.output.clear();
        match &mut object.kind {
            Kind::Decoder(decoder) => decoder.finish(),
            _ => Err(bad_call()),
        }
    })
}

/// An offset or count passed as a JavaScript number: a non-negative integer below 2^53.
fn offset(x: f64) -> Result<u64, Error> {
    if (0.0..=9_007_199_254_740_991.0).contains(&x) && x.fract() == 0.0 {
        Ok(x as u64)
    } else {
        Err(bad_call())
    }
}

fn bad_call() -> Error {
    Error::Io(std::io::Error::other("bad call"))
}

/// A node of the tree still to be read: the content under it and the chaining value it must
/// have (the hash, at the root).
#[derive(Clone, Copy)]
struct Node {
    start: u64,
    len: u64,
    cv: ChainingValue,
    root: bool,
}

/// Bytes pushed and not yet consumed.
#[derive(Default)]
struct Pending {
    bytes: Vec<u8>,
    used: usize,
}

impl Pending {
    /// The next `n` bytes, if they have all arrived.
    fn take(&mut self, n: u64) -> Option<&[u8]> {
        let n = usize::try_from(n).ok()?;
        let available = &self.bytes[self.used..];
        if available.len() < n {
            return None;
        }
        self.used += n;
        Some(&available[..n])
    }

    fn is_empty(&self) -> bool {
        self.used == self.bytes.len()
    }

    /// Forgets the consumed bytes.
    fn compact(&mut self) {
        self.bytes.drain(..self.used);
        self.used = 0;
    }
}

/// The content range a decoder walks and the part of it that it releases.
struct Range {
    start: u64,
    end: u64,
    out_start: u64,
    out_end: u64,
}

/// An incremental verifying decoder: bytes are pushed in pieces of any size; a leaf's content is
/// released once it and every parent above it have been checked up to the root hash. Errors
/// name the content offset of the first byte under the node that failed or could not be
/// completed; after one, the decoder only repeats it.
struct Decoder {
    hash: ChainingValue,
    group_log: GroupLog,
    group_len: u64,
    outboard: bool,
    slice: Option<(u64, u64)>,
    /// The combined encoding, the slice, or (outboard) the content.
    main: Pending,
    /// The outboard encoding.
    tree: Pending,
    /// After the header: the walk's range and the nodes still to visit, the next on top.
    walk: Option<(Range, Vec<Node>)>,
    failed: Option<(i32, u64)>,
}

impl Decoder {
    fn new(hash: ChainingValue, g: GroupLog, outboard: bool, slice: Option<(u64, u64)>) -> Decoder {
        Decoder {
            hash,
            group_log: g,
            group_len: g.group_len(),
            outboard,
            slice,
            main: Pending::default(),
            tree: Pending::default(),
            walk: None,
            failed: None,
        }
    }

    fn push(&mut self, to_tree: bool, bytes: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
        self.check_failed()?;
        if to_tree && !self.outboard {
            return Err(bad_call());
        }
        let pending = if to_tree {
            &mut self.tree
        } else {
            &mut self.main
        };
        // Out of memory is an error for JavaScript, not a trap.
        if pending.bytes.try_reserve(bytes.len()).is_err() {
            return Err(Error::Io(std::io::ErrorKind::OutOfMemory.into()));
        }
        pending.bytes.extend_from_slice(bytes);
        let result = self.advance(out);
        self.main.compact();
        self.tree.compact();
        self.remember(result)
    }

    fn finish(&mut self) -> Result<(), Error> {
        self.check_failed()?;
        let result = match &mut self.walk {
            None => Err(Error::Truncated { content_offset: 0 }),
            Some((range, stack)) => match next_node(range, stack) {
                Some(node) => Err(Error::Truncated {
                    content_offset: node.start,
                }),
                None => Ok(()),
            },
        };
        self.remember(result)
    }

    fn check_failed(&self) -> Result<(), Error> {
        match self.failed {
            None => Ok(()),
            Some((1, offset)) => Err(Error::Truncated {
                content_offset: offset,
            }),
            Some((2, offset)) => Err(Error::Mismatch {
                content_offset: offset,
            }),
            Some((3, _)) => Err(Error::TrailingData),
            Some((4, _)) => Err(Error::LengthOverflow),
            Some(_) => Err(bad_call()),
        }
    }

    fn remember(&mut self, result: Result<(), Error>) -> Result<(), Error> {
        if let Err(e) = &result {
            let offset = match e {
                Error::Truncated { content_offset } | Error::Mismatch { content_offset } => {
                    *content_offset
                }
                _ => 0,
            };
            self.failed = Some((code(e), offset));
        }
        result
    }

    /// Reads the header, then verifies and releases nodes while their bytes have arrived.
    fn advance(&mut self, out: &mut Vec<u8>) -> Result<(), Error> {
        if self.walk.is_none() {
            let tree = if self.outboard {
                &mut self.tree
            } else {
                &mut self.main
            };
            let Some(header) = tree.take(HEADER_LEN as u64) else {
                return Ok(());
            };
            let len = u64::from_le_bytes(header.try_into().expect("8 bytes"));
            if bao::encoded_size(len, self.group_log).is_none() {
                return Err(Error::LengthOverflow);
            }
            let range = match self.slice {
                Some((start, count)) => slice_range(start, count, len),
                None => Range {
                    start: 0,
                    end: len,
                    out_start: 0,
                    out_end: len,
                },
            };
            let root = Node {
                start: 0,
                len,
                cv: self.hash,
                root: true,
            };
            self.walk = Some((range, vec![root]));
        }
        let Some((range, stack)) = &mut self.walk else {
            unreachable!("the header was read above");
        };
        while let Some(node) = next_node(range, stack) {
            if node.len > self.group_len {
                let tree = if self.outboard {
                    &mut self.tree
                } else {
                    &mut self.main
                };
                let Some(parent) = tree.take(PARENT_LEN as u64) else {
                    return Ok(());
                };
                let left_cv: ChainingValue = parent[..32].try_into().expect("32 bytes");
                let right_cv: ChainingValue = parent[32..].try_into().expect("32 bytes");
                let ok = if node.root {
                    hazmat::merge_subtrees_root(&left_cv, &right_cv, Mode::Hash) == node.cv
                } else {
                    hazmat::merge_subtrees_non_root(&left_cv, &right_cv, Mode::Hash) == node.cv
                };
                if !ok {
                    return Err(mismatch(&node));
                }
                stack.pop();
                let left_len = hazmat::left_subtree_len(node.len);
                stack.push(Node {
                    start: node.start + left_len,
                    len: node.len - left_len,
                    cv: right_cv,
                    root: false,
                });
                stack.push(Node {
                    start: node.start,
                    len: left_len,
                    cv: left_cv,
                    root: false,
                });
            } else {
                let Some(content) = self.main.take(node.len) else {
                    return Ok(());
                };
                let ok = if node.root {
                    blake3::hash(content) == node.cv
                } else {
                    hazmat::hash_subtree(Mode::Hash, node.start, content) == Ok(node.cv)
                };
                if !ok {
                    return Err(mismatch(&node));
                }
                stack.pop();
                let from = range.out_start.clamp(node.start, node.start + node.len);
                let to = range.out_end.clamp(from, node.start + node.len);
                out.extend_from_slice(
                    &content[(from - node.start) as usize..(to - node.start) as usize],
                );
            }
        }
        if !self.main.is_empty() || !self.tree.is_empty() {
            return Err(Error::TrailingData);
        }
        Ok(())
    }
}

fn mismatch(node: &Node) -> Error {
    Error::Mismatch {
        content_offset: node.start,
    }
}

/// The next node of the walk that the range selects (left on the stack), dropping the others.
fn next_node(range: &Range, stack: &mut Vec<Node>) -> Option<Node> {
    while let Some(&node) = stack.last() {
        if node.root || (node.start < range.end && range.start < node.start + node.len) {
            return Some(node);
        }
        stack.pop();
    }
    None
}

/// The nodes of a slice of `count` bytes from `start` and the bytes it releases, by the rules of
/// `arborhash::bao`: a count of 0 selects one byte, a start at or past the end the final leaf.
fn slice_range(start: u64, count: u64, len: u64) -> Range {
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
