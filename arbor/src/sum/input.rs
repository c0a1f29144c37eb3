//! Feeding one input to a hasher: standard input and pipes stream through a buffer, small files
//! are read whole, and large regular files are memory-mapped and hashed on all cores.

use super::progress::Progress;
use arbor::algorithm::{Digest, Spec};
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Files at least this large are memory-mapped (as b3sum does); below it a single read is cheaper.
pub const MMAP_MIN: u64 = 16 * 1024;

const BUFFER: usize = 256 * 1024;

/// How to read files.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    /// Never memory-map (and so hash each file on one thread, as b3sum does).
    pub no_mmap: bool,
}

/// Hashes everything on standard input.
pub fn hash_stdin(spec: &Spec, progress: &Progress) -> io::Result<Digest> {
    hash_stream(spec, io::stdin().lock(), progress)
}

/// An opened input, by the way it is best read.
pub enum Opened {
    /// A regular file small enough to read whole (see [`MMAP_MIN`]), with its size.
    Small(File, u64),
    /// Anything else, for [`hash_opened`].
    Other(File, Metadata),
}

/// Opens `path` and finds how to read it.
pub fn open(path: &Path) -> io::Result<Opened> {
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    Ok(if metadata.is_file() && metadata.len() < MMAP_MIN {
        Opened::Small(file, metadata.len())
    } else {
        Opened::Other(file, metadata)
    })
}

/// Hashes the file at `path`.
pub fn hash_file(
    spec: &Spec,
    path: &Path,
    options: ReadOptions,
    progress: &Progress,
) -> io::Result<Digest> {
    match open(path)? {
        Opened::Small(file, size) => {
            let mut data = Vec::with_capacity(size as usize + 1);
            read_small(&file, size, &mut data)?;
            progress.advance(data.len() as u64);
            Ok(spec.hash(&data))
        }
        Opened::Other(file, metadata) => hash_opened(spec, file, &metadata, options, progress),
    }
}

/// Hashes the files at `paths` with `spec`, results in order. Small regular files are read into
/// one buffer (one allocation) and hashed together through the batch API, which fills the SIMD
/// lanes across files and spares each a hasher of its own; the others go one by one.
pub fn hash_files(
    spec: &Spec,
    paths: &[&Path],
    options: ReadOptions,
    progress: &Progress,
) -> Vec<io::Result<Digest>> {
    let mut results: Vec<Option<io::Result<Digest>>> = Vec::with_capacity(paths.len());
    let mut small = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        results.push(match open(path) {
            Ok(Opened::Small(file, size)) => {
                small.push((i, file, size));
                None
            }
            Ok(Opened::Other(file, metadata)) => {
                Some(hash_opened(spec, file, &metadata, options, progress))
            }
            Err(e) => Some(Err(e)),
        });
    }
    let total = small.iter().map(|(_, _, size)| *size as usize + 1).sum();
    let mut buffer = Vec::with_capacity(total);
    let mut read = Vec::with_capacity(small.len());
    // Each file is closed once read.
    for (i, file, size) in small {
        let start = buffer.len();
        match read_small(&file, size, &mut buffer) {
            Ok(()) => read.push((i, start..buffer.len())),
            Err(e) => {
                buffer.truncate(start);
                results[i] = Some(Err(e));
            }
        }
    }
    let inputs: Vec<&[u8]> = read
        .iter()
        .map(|(_, range)| &buffer[range.clone()])
        .collect();
    for ((i, _), (data, digest)) in read.iter().zip(inputs.iter().zip(spec.hash_many(&inputs))) {
        progress.advance(data.len() as u64);
        results[*i] = Some(Ok(digest));
    }
    results
        .into_iter()
        .map(|result| result.expect("every file has a result"))
        .collect()
}

/// Hashes an input that is not a small regular file: memory-mapped, or read as a stream.
pub fn hash_opened(
    spec: &Spec,
    file: File,
    metadata: &Metadata,
    options: ReadOptions,
    progress: &Progress,
) -> io::Result<Digest> {
    if !metadata.is_file() || options.no_mmap {
        // Pipes, devices; reading a directory fails here with the system's "Is a directory".
        return hash_stream(spec, file, progress);
    }
    // SAFETY: the map is read-only and private to this function. If another process truncates the
    // file while it is hashed, reading the lost pages raises SIGBUS; b3sum and every mmap-based
    // checksum tool accept that risk for the speed.
    let map = match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => map,
        // Some file systems cannot map; read them instead.
        Err(_) => return hash_stream(spec, file, progress),
    };
    let multithreaded = spec.algorithm().is_multithreaded();
    if !multithreaded {
        // One pass from start to end: let the kernel read ahead.
        let _ = map.advise(memmap2::Advice::Sequential);
    }
    let mut hasher = spec.hasher();
    // In pieces whose page tables are filled ahead of the hashing (see
    // `arborhash::mmap::update_in_pieces`); each piece also moves the progress bar.
    arborhash::mmap::update_in_pieces(&map, multithreaded, |piece| {
        if multithreaded {
            hasher.update_parallel(piece);
        } else {
            hasher.update(piece);
        }
        progress.advance(piece.len() as u64);
    });
    Ok(hasher.finalize())
}

/// Appends the contents of a small file, `size` bytes when it was opened, to `buffer`. On trees
/// of small files the system calls per file count: this makes two reads, where std's
/// `read_to_end` on a `File` would first stat it again and seek to size its buffer.
pub fn read_small(file: &File, size: u64, buffer: &mut Vec<u8>) -> io::Result<()> {
    let start = buffer.len();
    // One byte more than the size, so that the read that finds the end fits in the buffer; the
    // limit keeps std from probing for more.
    buffer.reserve(size as usize + 1);
    file.take(size + 1).read_to_end(buffer)?;
    if (buffer.len() - start) as u64 > size {
        // The file has grown since it was stat'ed: read on to wherever it ends now.
        let mut file = file;
        file.read_to_end(buffer)?;
    }
    Ok(())
}

fn hash_stream(spec: &Spec, mut reader: impl Read, progress: &Progress) -> io::Result<Digest> {
    let mut hasher = spec.hasher();
    let mut buffer = vec![0u8; BUFFER];
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => return Ok(hasher.finalize()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        progress.advance(n as u64);
    }
}
