//! BLAKE2X (BLAKE2Xb and BLAKE2Xs): extendable output built on BLAKE2b / BLAKE2s, following the
//! BLAKE2X paper and its reference implementation.
//!
//! A root hash H0 of the input is computed with the declared output length in the parameter
//! block (the "unknown length" value when none is declared). Output block `i` is then the BLAKE2
//! hash of H0 with node offset `i`, leaf and inner length `OUTBYTES`, and digest length
//! `OUTBYTES` (or what is left of a declared length). The output blocks are independent, so they
//! are computed several at a time in SIMD lanes.
//!
//! With an unknown length every output block has digest length `OUTBYTES`, so the output stream
//! is the reference's output for any length that is a multiple of `OUTBYTES`, and a prefix of it
//! otherwise.

use core::fmt;

use super::dispatch::Dispatch as _;
use super::kernels::{Lane, LastBlock, LastNode, MAX_LANES};
use super::lanes::compress_lane_list;
use super::params::{set_padded, Key, ParamBlock};
use super::variant::Variant;
use super::Hash;
use crate::bytes::wipe;
use crate::platform::Platform;

/// Output blocks are numbered by the 32-bit node offset.
const MAX_BLOCKS: u64 = 1 << 32;

/// "b" or "s", to name BLAKE2Xb / BLAKE2Xs in messages.
fn suffix<V: Variant>() -> &'static str {
    &V::NAME["BLAKE2".len()..]
}

/// Checks a declared output length: 1 to `XOF_MAX_LENGTH`.
fn check_output_length<V: Variant>(length: usize) -> u32 {
    assert!(
        (1..=V::XOF_MAX_LENGTH as usize).contains(&length),
        "output_length must be between 1 and {} for BLAKE2X{}, got {length}",
        V::XOF_MAX_LENGTH,
        suffix::<V>()
    );
    length as u32
}

/// A parameter builder for BLAKE2X: key, salt, personalization and, optionally, the output length
/// declared in advance.
#[derive(Clone)]
pub struct Params<V: Variant> {
    /// Key length, salt and personalization; the other fields are set per node.
    block: ParamBlock,
    key: Key<V>,
    length: Option<u32>,
}

impl<V: Variant> Params<V> {
    /// No key, salt or personalization; output length unknown.
    pub fn new() -> Self {
        Params {
            block: ParamBlock::sequential(V::OUTBYTES as u8),
            key: Key::NONE,
            length: None,
        }
    }

    /// Fills `output` with the hash of `input`, the output length being `output.len()`. Panics if
    /// another output length was declared, or if the length is out of range.
    pub fn hash(&self, input: &[u8], output: &mut [u8]) {
        if let Some(length) = self.length {
            assert_eq!(
                length as usize,
                output.len(),
                "output buffer length differs from the declared output_length"
            );
        }
        let mut params = self.clone();
        params.output_length(output.len());
        let mut state = params.to_state();
        state.update(input);
        state.finalize(output);
    }

    /// A `State` with these parameters.
    pub fn to_state(&self) -> State<V> {
        let xof_length = self.length.unwrap_or(V::XOF_MAX_LENGTH);
        let root = ParamBlock {
            node_offset: u64::from(xof_length) << 32,
            ..self.block
        };
        State {
            root: super::Params::from_parts(root, self.key.clone()).to_state(),
            output_block: ParamBlock {
                key_length: 0,
                fanout: 0,
                max_depth: 0,
                leaf_length: V::OUTBYTES as u32,
                inner_length: V::OUTBYTES as u8,
                node_offset: u64::from(xof_length) << 32,
                ..self.block
            },
            length: self.length,
        }
    }

    /// Declares the output length in bytes: 1 to 2^32-1 for BLAKE2Xb, 1 to 2^16-1 for BLAKE2Xs.
    /// It is mixed into the hash; without it the length is "unknown" and output can be read
    /// with `State::finalize_xof` up to 2^32 blocks.
    pub fn output_length(&mut self, length: usize) -> &mut Self {
        self.length = Some(check_output_length::<V>(length));
        self
    }

    /// A secret key of at most `KEYBYTES`. An empty key means no key.
    pub fn key(&mut self, key: &[u8]) -> &mut Self {
        self.key.set(key, V::NAME);
        self.block.key_length = self.key.length;
        self
    }

    /// A salt of at most `SALTBYTES`, zero-padded.
    pub fn salt(&mut self, salt: &[u8]) -> &mut Self {
        let salt_slot = &mut self.block.salt[..V::SALTBYTES];
        set_padded(salt_slot, salt, V::SALTBYTES, "salt", V::NAME);
        self
    }

    /// A personalization string of at most `PERSONALBYTES`, zero-padded.
    pub fn personal(&mut self, personal: &[u8]) -> &mut Self {
        let slot = &mut self.block.personal[..V::SALTBYTES];
        set_padded(slot, personal, V::SALTBYTES, "personal", V::NAME);
        self
    }
}

impl<V: Variant> Default for Params<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> fmt::Debug for Params<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Params")
            .field("output_length", &self.length)
            .field("key_length", &self.key.length)
            .field("salt", &&self.block.salt[..V::SALTBYTES])
            .field("personal", &&self.block.personal[..V::SALTBYTES])
            .finish()
    }
}

/// An incremental BLAKE2X hasher.
#[derive(Clone, Debug)]
pub struct State<V: Variant> {
    root: super::State<V>,
    /// The parameter block of output block 0; only the digest length and the low 32 bits of the
    /// node offset change from block to block.
    output_block: ParamBlock,
    length: Option<u32>,
}

impl<V: Variant> State<V> {
    /// A state with default parameters (unknown output length).
    pub fn new() -> Self {
        Params::new().to_state()
    }

    /// Adds input. Returns `self` so that calls can be chained.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        self.root.update(input);
        self
    }

    /// Bytes of input hashed so far.
    pub fn count(&self) -> V::Count {
        self.root.count()
    }

    /// Fills `output` with the hash of the input so far. The output length must have been
    /// declared with `Params::output_length` and equal `output.len()`. The state is unchanged.
    pub fn finalize(&self, output: &mut [u8]) {
        assert_eq!(
            self.length.map(|l| l as usize),
            Some(output.len()),
            "finalize needs an output buffer of the declared output_length \
             (use finalize_xof when the length is unknown)"
        );
        self.finalize_xof().fill(output);
    }

    /// A reader of the output stream: the declared length, or up to 2^32 blocks when unknown.
    pub fn finalize_xof(&self) -> OutputReader<V> {
        let p = Platform::current();
        let mut h0 = V::ZERO_BLOCK;
        h0.as_mut()[..V::OUTBYTES].copy_from_slice(self.root.finalize_on(p).as_bytes());
        OutputReader {
            h0,
            output_block: self.output_block,
            length: self.length,
            position: 0,
        }
    }
}

impl<V: Variant> Default for State<V> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(feature = "std")]
impl<V: Variant> std::io::Write for State<V> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads BLAKE2X output; seekable, since every output block is computed independently.
#[derive(Clone)]
pub struct OutputReader<V: Variant> {
    /// The root hash H0, zero-padded to a block: the input of every output block.
    h0: V::Block,
    output_block: ParamBlock,
    length: Option<u32>,
    position: u64,
}

impl<V: Variant> OutputReader<V> {
    /// Bytes of output in all: the declared length, or 2^32 blocks.
    pub fn len(&self) -> u64 {
        self.length
            .map_or(MAX_BLOCKS * V::OUTBYTES as u64, u64::from)
    }

    /// Never true: an output has at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The position of the next byte to read.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Moves to `position`, at most `len()`.
    pub fn set_position(&mut self, position: u64) {
        assert!(
            position <= self.len(),
            "position must be at most the output length {}, got {position}",
            self.len()
        );
        self.position = position;
    }

    /// Fills `output` with the next bytes. Panics if that would read past `len()`.
    pub fn fill(&mut self, mut output: &mut [u8]) {
        let out_bytes = V::OUTBYTES;
        let remaining = self.len() - self.position;
        assert!(
            output.len() as u64 <= remaining,
            "BLAKE2X{} output is limited to {} bytes; {remaining} remain, {} requested",
            suffix::<V>(),
            self.len(),
            output.len()
        );
        let p = Platform::current();
        let lanes_max = V::Word::degree(p).clamp(1, MAX_LANES);
        while !output.is_empty() {
            let first = self.position / out_bytes as u64;
            let mut skip = (self.position % out_bytes as u64) as usize;
            let needed = (skip + output.len()).div_ceil(out_bytes);
            let n = needed.min(lanes_max);
            let mut words = [[V::Word::default(); 8]; MAX_LANES];
            let mut lengths = [0; MAX_LANES];
            for (k, (w, len)) in words.iter_mut().zip(&mut lengths).take(n).enumerate() {
                let index = first + k as u64;
                *len = self.block_length(index);
                *w = ParamBlock {
                    digest_length: *len as u8,
                    node_offset: self.output_block.node_offset | index,
                    ..self.output_block
                }
                .words::<V>();
            }
            let h0 = self.h0.as_ref();
            let lanes = words[..n].iter_mut().map(|h| Lane {
                h,
                input: h0,
                count: 0,
                last: Some(LastBlock {
                    len: out_bytes,
                    last_node: LastNode::No,
                }),
            });
            compress_lane_list::<V>(p, lanes, 1, V::BLOCKBYTES);
            for (w, &len) in words[..n].iter().zip(&lengths) {
                let block = Hash::<V>::from_words(w, len);
                let bytes = &block.as_bytes()[skip..];
                skip = 0;
                let take = bytes.len().min(output.len());
                output[..take].copy_from_slice(&bytes[..take]);
                output = &mut output[take..];
                self.position += take as u64;
                if output.is_empty() {
                    break;
                }
            }
        }
    }

    /// The digest length of output block `index`.
    fn block_length(&self, index: u64) -> usize {
        let start = index * V::OUTBYTES as u64;
        let left = self.len() - start;
        left.min(V::OUTBYTES as u64) as usize
    }
}

impl<V: Variant> Drop for OutputReader<V> {
    fn drop(&mut self) {
        wipe(self.h0.as_mut());
    }
}

impl<V: Variant> fmt::Debug for OutputReader<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputReader")
            .field("len", &self.len())
            .field("position", &self.position)
            .finish()
    }
}

#[cfg(feature = "std")]
impl<V: Variant> std::io::Read for OutputReader<V> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = (buf.len() as u64).min(self.len() - self.position) as usize;
        self.fill(&mut buf[..n]);
        Ok(n)
    }
}

#[cfg(feature = "std")]
impl<V: Variant> std::io::Seek for OutputReader<V> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        let target = match pos {
            std::io::SeekFrom::Start(n) => Some(n),
            std::io::SeekFrom::End(d) => self.len().checked_add_signed(d),
            std::io::SeekFrom::Current(d) => self.position.checked_add_signed(d),
        };
        match target.filter(|&t| t <= self.len()) {
            Some(t) => {
                self.position = t;
                Ok(t)
            }
            None => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek outside the BLAKE2X output",
            )),
        }
    }
}
