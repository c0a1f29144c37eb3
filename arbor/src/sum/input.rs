//! Feeding one input to a hasher: standard input and pipes stream through a buffer, small files
//! are read whole, and large regular files are memory-mapped (under the SIGBUS guard of
//! [`crate::mapped`]) and hashed on all cores.

use super::progress::Progress;
use crate::mapped::{changed_error, Mapped};
use arbor::algorithm::{Digest, Spec};
use arborhash::Threads;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// Files at least this large are memory-mapped (as b3sum does); below it a single read is cheaper.
pub const MMAP_MIN: u64 = 16 * 1024;

const BUFFER: usize = 256 * 1024;

/// A hashed input: its digest and how many bytes it held.
pub struct Hashed {
    pub digest: Digest,
    pub size: u64,
}

/// How to read files.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions {
    /// Never memory-map (and so hash each file on one thread, as b3sum does).
    pub no_mmap: bool,
}

/// Hashes everything on standard input.
pub fn hash_stdin(spec: &Spec, progress: &Progress) -> io::Result<Hashed> {
    hash_stream(spec, super::stdio::stdin()?, progress)
}

/// An input, by the way it is best read.
pub enum Opened {
    /// A regular file small enough to read whole (see [`MMAP_MIN`]), with its size.
    Small(File, u64),
    /// A larger regular file, for [`hash_opened`].
    Large(File, Metadata),
    /// A FIFO, device or directory, for [`hash_special`]. It is left unopened (`None`), since
    /// opening a FIFO waits for a writer, unless it became one between the look and the opening.
    Special(Option<File>),
}

/// What is known of an input before it is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Nothing (a name given on the command line or in a check list): it is looked at first.
    Unknown,
    /// A regular file, as the directory walk that found it saw it.
    Regular,
}

/// Finds how to read `path`, opening it only when it is a regular file. A FIFO must not be
/// opened and closed to look at it: that connects its writer, whose next write would then fail
/// with a broken pipe. A file the walk saw as regular is opened without a look first, and a
/// small one looked at is not looked at again through the open file (it is read to its end
/// whatever it has become, see [`read_small`]): each look is a system call per file, and the
/// extra one made `arbor sum -r` on 100,000 files of 4 KiB 20 % slower.
pub fn open(path: &Path, seen: Seen) -> io::Result<Opened> {
    if seen == Seen::Unknown {
        let metadata = std::fs::metadata(path)?;
        if !metadata.is_file() {
            return Ok(Opened::Special(None));
        }
        if metadata.len() < MMAP_MIN {
            return Ok(Opened::Small(File::open(path)?, metadata.len()));
        }
    }
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    Ok(if !metadata.is_file() {
        Opened::Special(Some(file))
    } else if metadata.len() < MMAP_MIN {
        Opened::Small(file, metadata.len())
    } else {
        Opened::Large(file, metadata)
    })
}

/// Hashes a FIFO, device or the like as a stream, opening (and waiting for) it now if need be.
pub fn hash_special(
    spec: &Spec,
    path: &Path,
    file: Option<File>,
    progress: &Progress,
) -> io::Result<Hashed> {
    let file = match file {
        Some(file) => file,
        None => File::open(path)?,
    };
    hash_stream(spec, file, progress)
}

/// Hashes the file at `path`.
pub fn hash_file(
    spec: &Spec,
    path: &Path,
    seen: Seen,
    options: ReadOptions,
    progress: &Progress,
) -> io::Result<Hashed> {
    match open(path, seen)? {
        Opened::Small(file, size) => {
            let mut data = Vec::with_capacity(size as usize + 1);
            read_small(&file, size, &mut data)?;
            progress.advance(data.len() as u64);
            Ok(Hashed {
                digest: spec.hash(&data),
                size: data.len() as u64,
            })
        }
        Opened::Large(file, metadata) => hash_opened(spec, file, &metadata, options, progress),
        Opened::Special(file) => hash_special(spec, path, file, progress),
    }
}

/// Where [`hash_files`] puts its results.
pub trait Results {
    /// The result for `paths[index]`.
    fn done(&mut self, index: usize, result: io::Result<Hashed>);
    /// Hands over the results so far: the next input may take long (a large file, a FIFO).
    fn flush(&mut self);
}

/// Hashes the files at `paths` with `spec`, each result given to `results` as soon as it is
/// ready. Runs of small regular files are read into one buffer (one allocation) and hashed
/// together through the batch API, which fills the SIMD lanes across files and spares each a
/// hasher of its own; a run ends, and is flushed, before any other input, so that no line waits
/// for it.
pub fn hash_files(
    spec: &Spec,
    paths: &[(&Path, Seen)],
    options: ReadOptions,
    progress: &Progress,
    results: &mut dyn Results,
) {
    let mut small = Vec::new();
    for (i, &(path, seen)) in paths.iter().enumerate() {
        match open(path, seen) {
            Ok(Opened::Small(file, size)) => small.push((i, file, size)),
            Ok(Opened::Large(file, metadata)) => {
                hash_small(spec, std::mem::take(&mut small), progress, results);
                results.flush();
                results.done(i, hash_opened(spec, file, &metadata, options, progress));
            }
            Ok(Opened::Special(file)) => {
                hash_small(spec, std::mem::take(&mut small), progress, results);
                results.flush();
                results.done(i, hash_special(spec, path, file, progress));
            }
            Err(e) => results.done(i, Err(e)),
        }
    }
    hash_small(spec, small, progress, results);
}

/// Reads and hashes a run of small files together (see [`hash_files`]).
fn hash_small(
    spec: &Spec,
    small: Vec<(usize, File, u64)>,
    progress: &Progress,
    results: &mut dyn Results,
) {
    if small.is_empty() {
        return;
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
                results.done(i, Err(e));
            }
        }
    }
    let inputs: Vec<&[u8]> = read
        .iter()
        .map(|(_, range)| &buffer[range.clone()])
        .collect();
    for ((i, _), (data, digest)) in read.iter().zip(inputs.iter().zip(spec.hash_many(&inputs))) {
        progress.advance(data.len() as u64);
        let size = data.len() as u64;
        results.done(*i, Ok(Hashed { digest, size }));
    }
}

/// Hashes a large regular file: memory-mapped, or read as a stream. A file that changes size,
/// loses pages or is deleted meanwhile is an error, not a hash.
fn hash_opened(
    spec: &Spec,
    file: File,
    metadata: &Metadata,
    options: ReadOptions,
    progress: &Progress,
) -> io::Result<Hashed> {
    let mapped = if options.no_mmap {
        None
    } else {
        // Unmappable files (some file systems) are read instead.
        Mapped::new(&file)
    };
    let (digest, read, faulted) = match mapped {
        Some(map) => {
            let digest = hash_mapped(spec, &map, progress);
            (digest, map.bytes().len() as u64, map.faulted())
        }
        None => {
            let hashed = hash_stream(spec, &file, progress)?;
            (hashed.digest, hashed.size, false)
        }
    };
    let now = file.metadata()?;
    let (before, after) = (metadata.len(), now.len());
    if faulted || read != before || after != before {
        return Err(changed_error(faulted, before, after, "hashed"));
    }
    if removed(metadata, &now) {
        return Err(io::Error::other("the file was deleted while it was hashed"));
    }
    Ok(Hashed { digest, size: read })
}

#[cfg(unix)]
fn removed(before: &Metadata, now: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    before.nlink() > 0 && now.nlink() == 0
}

#[cfg(not(unix))]
fn removed(_: &Metadata, _: &Metadata) -> bool {
    false
}

/// Hashes a mapped file, on all threads where the algorithm allows.
fn hash_mapped(spec: &Spec, map: &Mapped, progress: &Progress) -> Digest {
    let multithreaded = spec.algorithm().is_multithreaded();
    if !multithreaded {
        map.advise_sequential();
    }
    let mut hasher = spec.hasher();
    // In pieces whose page tables are filled ahead of the hashing (see
    // `arborhash::mmap::update_in_pieces`); each piece also moves the progress bar.
    let threads = if multithreaded {
        Threads::Pool
    } else {
        Threads::Caller
    };
    arborhash::mmap::update_in_pieces(map.bytes(), threads, |piece| {
        if multithreaded {
            hasher.update_parallel(piece);
        } else {
            hasher.update(piece);
        }
        progress.advance(piece.len() as u64);
    });
    hasher.finalize()
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

/// Hashes what `reader` gives up to its end.
fn hash_stream(spec: &Spec, mut reader: impl Read, progress: &Progress) -> io::Result<Hashed> {
    let mut hasher = spec.hasher();
    let mut buffer = vec![0u8; BUFFER];
    let mut total = 0;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => {
                return Ok(Hashed {
                    digest: hasher.finalize(),
                    size: total,
                })
            }
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buffer[..n]);
        progress.advance(n as u64);
        total += n as u64;
    }
}
