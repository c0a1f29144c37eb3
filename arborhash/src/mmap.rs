//! Hashing large files: [`update_in_pieces`] feeds bytes held in memory, usually a memory-mapped
//! file, to any hasher with each piece's page tables filled before it is hashed;
//! [`read_in_pieces`] is the safe path, reading a file into memory a piece at a time.
//!
//! # Memory-mapped files can crash the process
//!
//! A mapped file is not a copy. If another process truncates the file while it is mapped,
//! reading a page past the new end raises SIGBUS, whose default action ends the whole process,
//! and if it rewrites the file, the bytes change while they are hashed. That is why mapping a
//! file (`memmap2::Mmap::map`) is `unsafe`, and why [`Hasher::update_mmap`] carries the same risk
//! (as the `blake3` crate's does). Map only files that nothing else changes while you hash them,
//! or handle SIGBUS yourself (the `arbor` command maps zero pages over the lost range in its
//! handler and reports the file as changed). Otherwise use [`read_in_pieces`], or copy the file
//! into the hasher with `std::io::copy` (the hashers implement `std::io::Write`): a file that
//! changes then gives a wrong hash, never a crash. Compare the file's size before and after
//! hashing to notice most changes.
//!
//! [`Hasher::update_mmap`]: crate::blake3::Hasher::update_mmap

use crate::threads::{join, Threads};
use std::io::{self, Read};

/// Bytes filled and hashed at a time: a power of two, so that BLAKE3's tree is split where it
/// would be anyway. 16 MiB measured as well as any (see [`update_in_pieces`]).
pub const PIECE: usize = 16 << 20;

/// Feeds `data` to `update` in pieces of [`PIECE`] bytes, the page tables of each piece filled
/// first (Linux's `MADV_POPULATE_READ`; elsewhere, and on kernels before 5.14, the pages fault in
/// as they are read, as without this). With [`Threads::Pool`] (and the `rayon` feature) the next piece
/// is filled on another thread of rayon's pool while `update` hashes this one. `data` is typically
/// a memory-mapped file: see the [module documentation](self) for the risks.
///
/// Why: a page fault in the middle of the hash kernels costs them far more than the fault itself.
/// Filling ahead took about a fifth off hashing a freshly mapped 1 GiB file in the page cache,
/// on one thread and on two. Filling the whole file up
/// front (`MAP_POPULATE`) would do as well on a file in the cache, but reads all of a cold file
/// before hashing any of it, twice over for a file larger than memory.
pub fn update_in_pieces(data: &[u8], threads: Threads, mut update: impl FnMut(&[u8]) + Send) {
    let parallel = threads == Threads::Pool;
    let pieces: Vec<&[u8]> = data.chunks(PIECE).collect();
    if let Some(first) = pieces.first() {
        populate(first);
    }
    for (k, piece) in pieces.iter().enumerate() {
        let next = || {
            if let Some(next) = pieces.get(k + 1) {
                populate(next);
            }
        };
        join(parallel, next, || update(piece));
    }
}

/// Fills the page tables of all of `data` (typically a memory-mapped file) before it is used
/// whole, in pieces of [`PIECE`] bytes split across rayon's threads (with the `rayon` feature):
/// for a one-shot function over a whole mapping, such as [`bao::outboard`](crate::bao::outboard),
/// which [`update_in_pieces`] cannot feed. Filling on one thread (`MAP_POPULATE`) left the other
/// core idle: `arbor bao encode --outboard` of a 1 GiB file took 1.7 times as long as
/// `arbor sum` (`scripts/bench-bao.sh`).
pub fn populate_all(data: &[u8]) {
    if data.len() <= PIECE {
        return populate(data);
    }
    let half = data.len().div_ceil(PIECE) / 2 * PIECE;
    let (left, right) = data.split_at(half);
    join(true, || populate_all(left), || populate_all(right));
}

/// Reads `reader` to its end and feeds what it reads to `update` in pieces of [`PIECE`] bytes
/// (the last may be shorter); with [`Threads::Pool`] (and the `rayon` feature) the next piece is
/// read on another thread while `update` hashes this one. Returns the number of bytes read.
/// Unlike a mapping, a file that changes meanwhile cannot crash the process.
///
/// ```
/// use arborhash::{blake3, mmap, Threads};
/// let data = vec![1u8; mmap::PIECE + 1000];
/// let mut hasher = blake3::Hasher::new();
/// let read = mmap::read_in_pieces(&data[..], Threads::Pool, |piece| {
///     hasher.update(piece);
/// })?;
/// assert_eq!((read, hasher.finalize()), (data.len() as u64, blake3::hash(&data)));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_in_pieces(
    mut reader: impl Read + Send,
    threads: Threads,
    mut update: impl FnMut(&[u8]) + Send,
) -> io::Result<u64> {
    let parallel = threads == Threads::Pool;
    let mut this = Vec::with_capacity(PIECE);
    let mut next = Vec::with_capacity(PIECE);
    let mut total = fill(&mut reader, &mut this)? as u64;
    while !this.is_empty() {
        let (read, ()) = join(parallel, || fill(&mut reader, &mut next), || update(&this));
        total += read? as u64;
        std::mem::swap(&mut this, &mut next);
    }
    Ok(total)
}

/// Replaces `buffer`'s contents with up to [`PIECE`] bytes from `reader`: fewer only at its end.
fn fill(reader: &mut impl Read, buffer: &mut Vec<u8>) -> io::Result<usize> {
    buffer.clear();
    reader.take(PIECE as u64).read_to_end(buffer)
}

/// Fills the page tables of the pages that hold `piece`, where the system can; errors (an older
/// kernel, memory that is not a file mapping) only leave the pages to fault in when read.
fn populate(piece: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf and madvise only inspect and advise on the pages of `piece`, which
        // belong to this process; MADV_POPULATE_READ changes no contents.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(1) as usize;
            let start = piece.as_ptr() as usize;
            let aligned = start & !(page - 1);
            let len = start - aligned + piece.len();
            let _ = libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_POPULATE_READ);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = piece;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blake3;

    /// Both helpers feed every byte once, in order, across piece boundaries, on one thread or two.
    #[test]
    fn pieces_hash_as_one_shot() {
        let data: Vec<u8> = (0..2 * PIECE + 1000).map(|i| (i % 251) as u8).collect();
        let expected = blake3::hash(&data);
        for threads in [Threads::Caller, Threads::Pool] {
            let mut hasher = blake3::Hasher::new();
            update_in_pieces(&data, threads, |piece| {
                hasher.update(piece);
            });
            assert_eq!(hasher.finalize(), expected);
            let mut hasher = blake3::Hasher::new();
            let read = read_in_pieces(&data[..], threads, |piece| {
                hasher.update(piece);
            })
            .unwrap();
            assert_eq!((read, hasher.finalize()), (data.len() as u64, expected));
        }
        let mut calls = 0;
        assert_eq!(
            read_in_pieces(&[][..], Threads::Pool, |_| calls += 1).unwrap(),
            0
        );
        update_in_pieces(&[], Threads::Pool, |_| calls += 1);
        assert_eq!(calls, 0);
    }

    /// Filling a mapping's pages leaves its bytes as they are, at any length (heap memory here:
    /// the advice is refused, which must be harmless).
    #[test]
    fn populating_changes_nothing() {
        for len in [0, 1, PIECE, 2 * PIECE + 1000] {
            let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let expected = blake3::hash(&data);
            populate_all(&data);
            assert_eq!(blake3::hash(&data), expected);
        }
    }
}
