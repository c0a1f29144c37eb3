//! Extended output: any number of bytes from the root node, from any position.

use core::fmt;

use super::kernels::BLOCK_LEN;
use super::tree::Output;
use crate::platform::Platform;

/// Reads the extended output of a BLAKE3 root, from [`Hasher::finalize_xof`] or
/// [`hazmat::merge_subtrees_root_xof`].
///
/// The output is a stream of 2^64 bytes; its first 32 are the default-length hash, and shorter
/// outputs are prefixes of longer ones. Whole 64-byte blocks are written straight into the
/// caller's buffer, many per kernel call.
///
/// [`Hasher::finalize_xof`]: super::Hasher::finalize_xof
/// [`hazmat::merge_subtrees_root_xof`]: super::hazmat::merge_subtrees_root_xof
#[derive(Clone)]
pub struct OutputReader {
    root: Output,
    /// The counter of the block the next byte comes from: kept apart from the byte position,
    /// so that output read past 2^64 bytes goes on with the next blocks, as b3sum's does, where
    /// a byte position would wrap to the start.
    block: u64,
    /// The next byte's offset in that block, below `BLOCK_LEN`.
    offset: usize,
}

impl OutputReader {
    pub(crate) fn new(root: Output) -> OutputReader {
        OutputReader {
            root,
            block: 0,
            offset: 0,
        }
    }

    /// Fills `buf` with output bytes from the current position and advances the position, so
    /// that reading in pieces gives the same bytes as one read.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let mut whole = [0u8; 100];
    /// blake3::Hasher::new().update(b"abc").finalize_xof().fill(&mut whole);
    /// let mut reader = blake3::Hasher::new().update(b"abc").finalize_xof();
    /// let (mut first, mut rest) = ([0u8; 30], [0u8; 70]);
    /// reader.fill(&mut first);
    /// reader.fill(&mut rest);
    /// assert_eq!(whole[..30], first);
    /// assert_eq!(whole[30..], rest);
    /// ```
    pub fn fill(&mut self, mut buf: &mut [u8]) {
        let p = Platform::current();
        while !buf.is_empty() {
            let taken = if self.offset == 0 && buf.len() >= BLOCK_LEN {
                let whole = buf.len() / BLOCK_LEN * BLOCK_LEN;
                self.root
                    .root_output_blocks(p, self.block, &mut buf[..whole]);
                self.block = self.block.wrapping_add((whole / BLOCK_LEN) as u64);
                whole
            } else {
                let mut bytes = [0u8; BLOCK_LEN];
                self.root.root_output_blocks(p, self.block, &mut bytes);
                let take = buf.len().min(BLOCK_LEN - self.offset);
                buf[..take].copy_from_slice(&bytes[self.offset..self.offset + take]);
                self.offset += take;
                if self.offset == BLOCK_LEN {
                    self.block = self.block.wrapping_add(1);
                    self.offset = 0;
                }
                take
            };
            buf = &mut core::mem::take(&mut buf)[taken..];
        }
    }

    /// The position in the output stream of the next byte `fill` writes (modulo 2^64, once
    /// more than 2^64 bytes have been read).
    pub fn position(&self) -> u64 {
        self.block
            .wrapping_mul(BLOCK_LEN as u64)
            .wrapping_add(self.offset as u64)
    }

    /// Moves to a position in the output stream: the next [`fill`](OutputReader::fill) starts
    /// there, without computing the bytes before it.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let mut whole = [0u8; 200];
    /// let mut reader = blake3::Hasher::new().update(b"abc").finalize_xof();
    /// reader.fill(&mut whole);
    /// reader.set_position(150);
    /// let mut tail = [0u8; 50];
    /// reader.fill(&mut tail);
    /// assert_eq!(whole[150..], tail);
    /// assert_eq!(reader.position(), 200);
    /// ```
    pub fn set_position(&mut self, position: u64) {
        self.block = position / BLOCK_LEN as u64;
        self.offset = (position % BLOCK_LEN as u64) as usize;
    }
}

/// Wipes the root node and the position.
#[cfg(feature = "zeroize")]
impl zeroize::Zeroize for OutputReader {
    fn zeroize(&mut self) {
        // SAFETY: an `OutputReader` holds only integers and arrays of them, for which all-zero
        // bytes are valid values.
        unsafe { zeroize::zeroize_flat_type(self) };
    }
}

impl fmt::Debug for OutputReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The root node is secret-derived in keyed modes; show only where we are, in the
        // `blake3` crate's form.
        f.debug_struct("OutputReader")
            .field("position", &self.position())
            .finish()
    }
}

#[cfg(feature = "std")]
impl std::io::Read for OutputReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.fill(buf);
        Ok(buf.len())
    }
}

#[cfg(feature = "std")]
impl std::io::Seek for OutputReader {
    /// Seeks from the start or the current position; the stream has no usable end, so
    /// `SeekFrom::End` is an `InvalidInput` error, as is a position before the start.
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        use std::io::{Error, ErrorKind, SeekFrom};
        let target =
            match pos {
                SeekFrom::Start(n) => Some(n),
                SeekFrom::Current(delta) => self.position().checked_add_signed(delta),
                SeekFrom::End(_) => return Err(Error::new(
                    ErrorKind::InvalidInput,
                    "seek from end is not supported: the BLAKE3 output stream has no usable end",
                )),
            };
        let target = target.ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidInput,
                "seek to a position before the start or past 2^64",
            )
        })?;
        self.set_position(target);
        Ok(target)
    }
}
