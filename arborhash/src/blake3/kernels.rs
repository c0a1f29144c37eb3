//! The BLAKE3 compression kernels and the backend dispatch in front of them.
//!
//! The tree, the hasher, the batch API and the extended output are written once against these
//! functions; each backend module implements the same four.

use super::portable;
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512, sse41};
use crate::platform::{Backend, Platform};

/// Bytes in a block.
pub(crate) const BLOCK_LEN: usize = 64;

/// One independent run of blocks hashed by [`hash_lanes`]: a whole or partial chunk, a chunk's
/// continuation, a parent node (one block), or a single-chunk message finalised as the root.
#[derive(Clone, Copy)]
pub(crate) struct Lane<'a> {
    /// Exactly `blocks * BLOCK_LEN` bytes; a partial last block is zero-padded by the caller.
    pub input: &'a [u8],
    /// The chaining value at the start: the key words for a new chunk or a parent.
    pub cv: [u32; 8],
    /// The counter for every block (the chunk index; 0 for parents).
    pub counter: u64,
    /// Flags added to the first block (CHUNK_START for a new chunk, 0 for a continuation).
    pub flags_start: u8,
    /// Flags added to the last block (CHUNK_END, possibly ROOT).
    pub flags_end: u8,
    /// The block length of the last block, 1..=64 (0 only for an empty message's single block).
    pub last_block_len: u8,
}

/// Compresses one block into `cv`.
#[inline]
pub(crate) fn compress_in_place(
    p: Platform,
    cv: &mut [u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    match p.backend() {
        Backend::Portable => portable::compress_in_place(cv, block, block_len, counter, flags),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it.
        Backend::Sse41 => unsafe { sse41::compress_in_place(cv, block, block_len, counter, flags) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::compress_in_place(cv, block, block_len, counter, flags) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe {
            avx512::compress_in_place(cv, block, block_len, counter, flags)
        },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
    }
}

/// Hashes every lane: for lane `i`, compresses its `blocks` blocks starting from `lanes[i].cv`
/// with `flags` on every block, and writes the resulting chaining value (little-endian) to
/// `out[i]`. Any number of lanes; the backend runs as many at once as its vectors hold.
/// Panics if `out` is shorter than `lanes` or a lane's input is not `blocks * BLOCK_LEN` bytes.
#[inline]
pub(crate) fn hash_lanes(
    p: Platform,
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    assert!(out.len() >= lanes.len(), "output shorter than lanes");
    for lane in lanes {
        assert_eq!(lane.input.len(), blocks * BLOCK_LEN, "lane input length");
    }
    match p.backend() {
        Backend::Portable => portable::hash_lanes(lanes, blocks, flags, out),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it; lengths are checked.
        Backend::Sse41 => unsafe { sse41::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::hash_lanes(lanes, blocks, flags, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
    }
}

/// Hashes parent nodes: block `i` of `input` (whole blocks, each two child chaining values)
/// with chaining value `key`, counter 0 and `flags` (which include PARENT) into `out[i]`. The
/// same as [`hash_lanes`] with one single-block lane per parent, which is what the backends
/// without a kernel of their own for it run; AVX-512 sets up its lanes with broadcasts.
/// Panics if `input` is not whole blocks or `out` is shorter than their count.
#[inline]
pub(crate) fn hash_parents(
    p: Platform,
    input: &[u8],
    key: &[u32; 8],
    flags: u8,
    out: &mut [[u8; 32]],
) {
    assert_eq!(input.len() % BLOCK_LEN, 0, "parents must be whole blocks");
    assert!(
        out.len() >= input.len() / BLOCK_LEN,
        "output shorter than parents"
    );
    #[cfg(target_arch = "x86_64")]
    if p.backend() == Backend::Avx512 {
        // SAFETY: a `Platform` for this backend proves the CPU supports it; lengths are checked.
        return unsafe { avx512::hash_parents(input, key, flags, out) };
    }
    const GROUP: usize = 16;
    for (blocks, out) in input.chunks(GROUP * BLOCK_LEN).zip(out.chunks_mut(GROUP)) {
        let mut lanes = [Lane {
            input: &[],
            cv: *key,
            counter: 0,
            flags_start: 0,
            flags_end: 0,
            last_block_len: BLOCK_LEN as u8,
        }; GROUP];
        for (lane, block) in lanes.iter_mut().zip(blocks.chunks_exact(BLOCK_LEN)) {
            lane.input = block;
        }
        hash_lanes(p, &lanes[..blocks.len() / BLOCK_LEN], 1, flags, out);
    }
}

/// How many lanes `hash_lanes` runs at once on this platform.
pub(crate) fn degree(p: Platform) -> usize {
    match p.backend() {
        Backend::Portable => 1,
        Backend::Sse41 => 4,
        Backend::Avx2 => 8,
        Backend::Avx512 => 16,
    }
}

/// Extended output: fills `out` (a multiple of `BLOCK_LEN` bytes) with the root compression of
/// `block` under `cv`, using counters `counter`, `counter + 1`, ... for consecutive 64-byte blocks.
/// `flags` must include ROOT.
#[inline]
pub(crate) fn xof_many(
    p: Platform,
    cv: &[u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    out: &mut [u8],
) {
    assert_eq!(out.len() % BLOCK_LEN, 0, "xof output must be whole blocks");
    match p.backend() {
        Backend::Portable => portable::xof_many(cv, block, block_len, counter, flags, out),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Platform` for this backend proves the CPU supports it.
        Backend::Sse41 => unsafe { sse41::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => unsafe { avx2::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => unsafe { avx512::xof_many(cv, block, block_len, counter, flags, out) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
            unreachable!("x86 backends are only selected on x86-64")
        }
    }
}
