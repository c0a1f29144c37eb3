//! Hashing memory-mapped files: [`update_in_pieces`] feeds a mapping to any hasher, each piece's
//! page tables filled before it is hashed.

use crate::threads::join;

/// Bytes filled and hashed at a time: a power of two, so that BLAKE3's tree is split where it
/// would be anyway. 16 MiB measured as well as any (see [`update_in_pieces`]).
pub const PIECE: usize = 16 << 20;

/// Feeds `map` to `update` in pieces of [`PIECE`] bytes, the page tables of each piece filled
/// first (Linux's `MADV_POPULATE_READ`; elsewhere, and on kernels before 5.14, the pages fault in
/// as they are read, as without this). With `parallel` (and the `rayon` feature) the next piece is
/// filled on another thread of rayon's pool while `update` hashes this one.
///
/// Why: a page fault in the middle of the hash kernels costs them far more than the fault itself.
/// Filling ahead took about a fifth off hashing a freshly mapped 1 GiB file in the page cache,
/// on one thread and on two. Filling the whole file up
/// front (`MAP_POPULATE`) would do as well on a file in the cache, but reads all of a cold file
/// before hashing any of it, twice over for a file larger than memory.
pub fn update_in_pieces(map: &memmap2::Mmap, parallel: bool, mut update: impl FnMut(&[u8]) + Send) {
    let pieces = map.len().div_ceil(PIECE);
    let bounds = |k: usize| (k * PIECE, map.len().min((k + 1) * PIECE));
    let fill = |k: usize| {
        let (start, end) = bounds(k);
        populate(map, start, end - start);
    };
    if pieces > 0 {
        fill(0);
    }
    for k in 0..pieces {
        let (start, end) = bounds(k);
        let next = || {
            if k + 1 < pieces {
                fill(k + 1);
            }
        };
        join(parallel, next, || update(&map[start..end]));
    }
}

/// Fills the page tables of `len` bytes of `map` from `offset`, where the system can; errors
/// (an older kernel) only leave the pages to fault in when read.
fn populate(map: &memmap2::Mmap, offset: usize, len: usize) {
    #[cfg(target_os = "linux")]
    let _ = map.advise_range(memmap2::Advice::PopulateRead, offset, len);
    #[cfg(not(target_os = "linux"))]
    let _ = (map, offset, len);
}
