//! `arbor bao`: Bao verified streaming on the command line, with the `bao` tool's subcommands
//! and argument order, and chunk groups (`--group-log`).

use arborhash::bao::{self, Decoder, GroupLog, SliceDecoder, SliceExtractor};
use arborhash::blake3::{Hash, Hasher};
use arborhash::Threads;
use clap::{Args, Subcommand};
use std::ffi::{OsStr, OsString};
use std::fs::{File, Metadata};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

use crate::mapped::{changed_error, Mapped};
use crate::sum::output::Reporter;
use crate::sum::Tool;

/// Bao verified streaming: encode files so that any part can be checked against the hash alone.
#[derive(Args, Debug)]
pub struct BaoArgs {
    /// Leaves of 2^G chunks (1024 << G bytes); 0 is the standard Bao format, 4 iroh's.
    #[arg(long, global = true, value_name = "G", default_value_t = 0)]
    group_log: u8,

    #[command(subcommand)]
    command: BaoCommand,
}

/// `-` or nothing means standard input or output.
#[derive(Subcommand, Debug)]
enum BaoCommand {
    /// Print the Bao hash (the BLAKE3 hash) of each file.
    Hash {
        #[arg(value_name = "FILE")]
        files: Vec<OsString>,
    },
    /// Encode INPUT into OUTPUT (combined), or its tree alone into --outboard FILE.
    Encode {
        input: OsString,
        #[arg(required_unless_present = "outboard", conflicts_with = "outboard")]
        output: Option<OsString>,
        #[arg(long, value_name = "FILE")]
        outboard: Option<OsString>,
    },
    /// Verify and decode an encoding (or INPUT with its --outboard FILE); only verified bytes
    /// are written.
    Decode {
        hash: String,
        input: Option<OsString>,
        output: Option<OsString>,
        #[arg(long, value_name = "FILE")]
        outboard: Option<OsString>,
    },
    /// Extract the slice of COUNT bytes from START out of an encoding (or INPUT with its
    /// --outboard FILE).
    Slice {
        start: u64,
        count: u64,
        input: Option<OsString>,
        output: Option<OsString>,
        #[arg(long, value_name = "FILE")]
        outboard: Option<OsString>,
    },
    /// Verify and decode a slice; only verified bytes are written.
    DecodeSlice {
        hash: String,
        start: u64,
        count: u64,
        input: Option<OsString>,
        output: Option<OsString>,
    },
}

/// A failure, with the file it concerns.
struct Failure {
    path: Option<OsString>,
    message: String,
}

fn fail(path: Option<&OsStr>, e: impl std::fmt::Display) -> Failure {
    Failure {
        path: path.map(OsStr::to_owned),
        message: e.to_string(),
    }
}

/// Runs a subcommand: exit 0, or 1 with a message naming the file.
pub fn run(args: BaoArgs) -> ExitCode {
    let result = GroupLog::new(args.group_log)
        .map_err(|e| fail(None, e))
        .and_then(|g| match args.command {
            BaoCommand::Hash { files } => hash(&files),
            BaoCommand::Encode {
                input,
                output,
                outboard,
            } => encode(&input, output.as_deref(), outboard.as_deref(), g),
            BaoCommand::Decode {
                hash,
                input,
                output,
                outboard,
            } => decode(
                &hash,
                input.as_deref(),
                output.as_deref(),
                outboard.as_deref(),
                g,
            ),
            BaoCommand::Slice {
                start,
                count,
                input,
                output,
                outboard,
            } => slice(
                start,
                count,
                input.as_deref(),
                output.as_deref(),
                outboard.as_deref(),
                g,
            ),
            BaoCommand::DecodeSlice {
                hash,
                start,
                count,
                input,
                output,
            } => decode_slice(&hash, start, count, input.as_deref(), output.as_deref(), g),
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure { path, message }) => {
            match path {
                Some(path) => eprintln!("arbor bao: {}: {message}", path.to_string_lossy()),
                None => eprintln!("arbor bao: {message}"),
            }
            ExitCode::FAILURE
        }
    }
}

fn is_std(path: Option<&OsStr>) -> bool {
    path.is_none_or(|p| p == "-")
}

/// A regular file's device and inode: the same whatever path or descriptor reached it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FileId(u64, u64);

#[cfg(unix)]
fn file_id(metadata: &Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    metadata
        .is_file()
        .then(|| FileId(metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Metadata) -> Option<FileId> {
    None
}

/// The file behind standard input (`0`) or output (`1`), if it is a regular file.
#[cfg(unix)]
fn std_id(fd: std::os::fd::RawFd) -> Option<FileId> {
    // SAFETY: the descriptor is borrowed only for this call and stays open meanwhile.
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd) };
    let file = File::from(fd.try_clone_to_owned().ok()?);
    file_id(&file.metadata().ok()?)
}

#[cfg(not(unix))]
fn std_id(_: i32) -> Option<FileId> {
    None
}

/// Opens an input for reading: a file, or standard input for `-` or nothing; with the file's
/// identity, so that no output can be written over it.
fn open(path: Option<&OsStr>) -> Result<(Box<dyn Read>, Option<FileId>), Failure> {
    match path {
        Some(p) if p != "-" => {
            let (file, metadata) = open_file(p)?;
            Ok((Box::new(file), file_id(&metadata)))
        }
        _ => Ok((Box::new(io::stdin().lock()), std_id(0))),
    }
}

fn open_file(path: &OsStr) -> Result<(File, Metadata), Failure> {
    let file = File::open(path).map_err(|e| fail(Some(path), e))?;
    let metadata = file.metadata().map_err(|e| fail(Some(path), e))?;
    Ok((file, metadata))
}

/// Where a subcommand writes: standard output for `-` or nothing, or a file.
///
/// An existing regular file is written over in place and then cut to the length written, even
/// when the subcommand fails: truncating it first costs more, since the kernel frees its cached
/// pages only for the writes to allocate them again (`scripts/bench-bao.sh`, whose rounds
/// overwrite a 64 MiB outboard). A file that is also an input is refused before anything is
/// written to it.
enum Output {
    Stdout(io::StdoutLock<'static>),
    /// A device or a FIFO, written as it is.
    Stream(File),
    /// A regular file, the bytes written to it, and the length it was last cut to (so that
    /// flushing again, and dropping, cut it only if more was written since).
    Regular {
        file: File,
        written: u64,
        cut: Option<u64>,
    },
}

impl Output {
    fn create(path: Option<&OsStr>, inputs: &[Option<FileId>]) -> Result<Output, Failure> {
        let is_input = |id: Option<FileId>| id.is_some() && inputs.contains(&id);
        let Some(p) = path.filter(|p| *p != "-") else {
            if is_input(std_id(1)) {
                return Err(fail(
                    None,
                    "standard output is also an input; refusing to write over it",
                ));
            }
            return Ok(Output::Stdout(io::stdout().lock()));
        };
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(p)
            .map_err(|e| fail(path, e))?;
        let id = file.metadata().ok().and_then(|m| file_id(&m));
        if is_input(id) {
            return Err(fail(path, "is also an input; refusing to write over it"));
        }
        Ok(match id {
            Some(_) => Output::Regular {
                file,
                written: 0,
                cut: None,
            },
            None => Output::Stream(file),
        })
    }

    /// Has a regular file cut to nothing when it is flushed or dropped.
    fn discard(&mut self) {
        if let Output::Regular { written, .. } = self {
            *written = 0;
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(out) => out.write(buf),
            Output::Stream(file) => file.write(buf),
            Output::Regular { file, written, .. } => {
                let n = file.write(buf)?;
                *written += n as u64;
                Ok(n)
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(out) => out.flush(),
            Output::Stream(_) => Ok(()),
            Output::Regular { file, written, cut } => {
                if *cut != Some(*written) {
                    file.set_len(*written)?;
                    *cut = Some(*written);
                }
                Ok(())
            }
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        // What a longer file held past the bytes written must not remain; after a failure there
        // is no error left to report this one with.
        let _ = self.flush();
    }
}

fn parse_hash(hex: &str) -> Result<Hash, Failure> {
    Hash::from_hex(hex).map_err(|e| fail(None, format!("invalid hash {hex:?}: {e}")))
}

/// An input in memory: a file mapped under the SIGBUS guard (so that a file that shrinks
/// meanwhile is an error, not a crash), or the bytes of a file that is not mapped, or of
/// standard input.
enum Input {
    Map { map: Mapped, file: File, len: u64 },
    Bytes(Vec<u8>),
}

impl Input {
    /// `file` mapped under the guard, if it is a regular file large enough to be worth it;
    /// otherwise the file back, to be read.
    fn map(file: File, metadata: &Metadata) -> Result<Input, File> {
        // Below 16 KiB one read costs less than a mapping.
        if !metadata.is_file() || metadata.len() < 16 * 1024 {
            return Err(file);
        }
        match Mapped::new(&file) {
            Some(map) => Ok(Input::Map {
                map,
                file,
                len: metadata.len(),
            }),
            None => Err(file),
        }
    }

    /// The bytes of the file at `path`, or of standard input for `-`.
    fn load(path: &OsStr) -> Result<(Input, Option<FileId>), Failure> {
        let read_all = |from: &mut dyn Read| {
            let mut bytes = Vec::new();
            from.read_to_end(&mut bytes)
                .map(|_| Input::Bytes(bytes))
                .map_err(|e| fail(Some(path), e))
        };
        if path == "-" {
            return Ok((read_all(&mut io::stdin().lock())?, std_id(0)));
        }
        let (file, metadata) = open_file(path)?;
        let id = file_id(&metadata);
        match Input::map(file, &metadata) {
            Ok(input) => Ok((input, id)),
            Err(file) => Ok((read_all(&mut &file)?, id)),
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Input::Map { map, .. } => map.bytes(),
            Input::Bytes(bytes) => bytes,
        }
    }

    /// An error if the mapped file lost pages or changed size since it was mapped: what was
    /// read from it is then not the file.
    fn check(&self, path: &OsStr) -> Result<(), Failure> {
        let Input::Map { map, file, len } = self else {
            return Ok(());
        };
        let now = file.metadata().map_err(|e| fail(Some(path), e))?.len();
        if map.faulted() || now != *len {
            let e = changed_error(map.faulted(), *len, now, "read");
            return Err(fail(Some(path), e));
        }
        Ok(())
    }
}

fn hash(files: &[OsString]) -> Result<(), Failure> {
    let stdin = [OsString::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut failed = None;
    // Lines go out as `arbor sum`'s do: a write error exits 1, a closed pipe quietly.
    let mut out = Reporter::new(Tool::Arbor, "arbor bao".into());
    for path in files {
        let mut hasher = Hasher::new();
        let result = if path == "-" {
            io::copy(&mut io::stdin().lock(), &mut hasher)
                .map(|_| ())
                .map_err(|e| fail(Some(path), e))
        } else {
            open_file(path).and_then(|(file, metadata)| match Input::map(file, &metadata) {
                Ok(content) => {
                    // In pieces whose page tables are filled ahead of the hashing.
                    arborhash::mmap::update_in_pieces(content.bytes(), Threads::Pool, |piece| {
                        hasher.update_rayon(piece);
                    });
                    content.check(path)
                }
                // Streamed: a pipe or a device may never end.
                Err(file) => io::copy(&mut &file, &mut hasher)
                    .map(|_| ())
                    .map_err(|e| fail(Some(path), e)),
            })
        };
        match result {
            Ok(()) if files.len() == 1 => {
                out.put(format!("{}\n", hasher.finalize().to_hex()).as_bytes());
            }
            Ok(()) => {
                let hex = hasher.finalize().to_hex();
                out.put(format!("{hex}  {}\n", path.to_string_lossy()).as_bytes());
            }
            Err(Failure { message, .. }) => {
                out.message(&format!("{}: {message}", path.to_string_lossy()));
                failed = Some(path.clone());
            }
        }
    }
    out.flush();
    match failed {
        Some(path) => Err(fail(Some(&path), "could not be hashed")),
        None => Ok(()),
    }
}

fn encode(
    input: &OsStr,
    output: Option<&OsStr>,
    outboard: Option<&OsStr>,
    g: GroupLog,
) -> Result<(), Failure> {
    let (content, id) = Input::load(input)?;
    let bytes = content.bytes();
    // Page tables filled before the hashing kernels read the pages: a page fault costs them far
    // more than the fault itself.
    arborhash::mmap::populate_all(bytes);
    let path = outboard.or(output);
    let mut out = Output::create(path, &[id])?;
    let written = match (&mut out, outboard) {
        #[cfg(unix)]
        (Output::Regular { file, written, .. }, Some(_)) => {
            use std::os::unix::fs::FileExt;
            bao::outboard_to(bytes, g, |at, piece| file.write_all_at(piece, at)).map(|_| {
                *written = bao::outboard_size(bytes.len() as u64, g);
            })
        }
        _ => {
            // The outboard first (on all cores), then one sequential write: cheaper than
            // writing into a mapping of the output, whose pages fault in one by one.
            let (tree, _) = bao::outboard(bytes, g);
            let mut out = BufWriter::with_capacity(1 << 20, &mut out);
            match outboard {
                Some(_) => out.write_all(&tree),
                None => bao::write_combined(bytes, &tree, g, &mut out),
            }
            .and_then(|()| out.flush())
        }
    };
    let name = if is_std(path) { None } else { path };
    written
        .and_then(|()| out.flush())
        .map_err(|e| fail(name, e))?;
    let intact = content.check(input);
    if intact.is_err() {
        // Not an encoding of any version of the input: none of it is kept.
        out.discard();
    }
    intact
}

/// Copies what a decoder (verified bytes) or a slice extractor reads to the output. What it
/// gave before a failure still goes out; a failure to read names the input, one to write the
/// output.
fn copy_out(
    reader: &mut dyn Read,
    input: Option<&OsStr>,
    output: Option<&OsStr>,
    inputs: &[Option<FileId>],
) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, Output::create(output, inputs)?);
    let name = if is_std(input) { None } else { input };
    // Large reads: the decoder verifies a buffer's worth of subtrees at once, on all cores.
    let mut buf = vec![0u8; 1 << 22];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = out.flush();
                return Err(fail(name, bao::Error::from(e)));
            }
        };
        out.write_all(&buf[..n]).map_err(|e| fail(output, e))?;
    }
    out.flush().map_err(|e| fail(output, e))
}

fn decode(
    hash: &str,
    input: Option<&OsStr>,
    output: Option<&OsStr>,
    outboard: Option<&OsStr>,
    g: GroupLog,
) -> Result<(), Failure> {
    let hash = parse_hash(hash)?;
    let (content, id) = open(input)?;
    let content = BufReader::with_capacity(1 << 16, content);
    match outboard {
        Some(path) => {
            let (tree, tree_metadata) = open_file(path)?;
            let tree = BufReader::with_capacity(1 << 16, tree);
            let mut decoder = Decoder::new_outboard(content, tree, &hash, g);
            copy_out(&mut decoder, input, output, &[id, file_id(&tree_metadata)])
        }
        None => copy_out(&mut Decoder::new(content, &hash, g), input, output, &[id]),
    }
}

fn slice(
    start: u64,
    count: u64,
    input: Option<&OsStr>,
    output: Option<&OsStr>,
    outboard: Option<&OsStr>,
    g: GroupLog,
) -> Result<(), Failure> {
    let open_seekable = |path: Option<&OsStr>| match path {
        // Unbuffered: the extractor seeks to every node it copies.
        Some(p) if p != "-" => open_file(p),
        _ => Err(fail(
            None,
            "slice needs a file to seek in, not standard input",
        )),
    };
    let (content, metadata) = open_seekable(input)?;
    let tree = outboard.map(|path| open_seekable(Some(path))).transpose()?;
    let tree_id = tree.as_ref().and_then(|(_, metadata)| file_id(metadata));
    let inputs = [file_id(&metadata), tree_id];
    match tree {
        Some((tree, _)) => {
            let mut extractor = SliceExtractor::new_outboard(content, tree, start, count, g);
            copy_out(&mut extractor, input, output, &inputs)
        }
        None => {
            let mut extractor = SliceExtractor::new(content, start, count, g);
            copy_out(&mut extractor, input, output, &inputs)
        }
    }
}

fn decode_slice(
    hash: &str,
    start: u64,
    count: u64,
    input: Option<&OsStr>,
    output: Option<&OsStr>,
    g: GroupLog,
) -> Result<(), Failure> {
    let hash = parse_hash(hash)?;
    let (slice, id) = open(input)?;
    let slice = BufReader::with_capacity(1 << 16, slice);
    let mut decoder = SliceDecoder::new(slice, &hash, start, count, g);
    copy_out(&mut decoder, input, output, &[id])
}
