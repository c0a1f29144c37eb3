//! `arbor bao`: Bao verified streaming on the command line, with the `bao` tool's subcommands
//! and argument order, and chunk groups (`--group-log`).

use arborhash::bao::{self, Decoder, GroupLog, SliceDecoder, SliceExtractor};
use arborhash::blake3::{Hash, Hasher};
use clap::{Args, Subcommand};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

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

fn open(path: Option<&OsStr>) -> Result<Box<dyn Read>, Failure> {
    match path {
        Some(p) if p != "-" => Ok(Box::new(File::open(p).map_err(|e| fail(path, e))?)),
        _ => Ok(Box::new(io::stdin().lock())),
    }
}

fn create(path: Option<&OsStr>) -> Result<Box<dyn Write>, Failure> {
    match path {
        Some(p) if p != "-" => Ok(Box::new(File::create(p).map_err(|e| fail(path, e))?)),
        _ => Ok(Box::new(io::stdout().lock())),
    }
}

fn parse_hash(hex: &str) -> Result<Hash, Failure> {
    Hash::from_hex(hex).map_err(|e| fail(None, format!("invalid hash {hex:?}: {e}")))
}

/// Maps a file for reading (an empty file is an empty slice), or reads standard input.
enum Input {
    Map(memmap2::Mmap),
    Bytes(Vec<u8>),
}

impl Input {
    fn load(path: &OsStr) -> Result<Input, Failure> {
        if path == "-" {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .map_err(|e| fail(Some(path), e))?;
            return Ok(Input::Bytes(bytes));
        }
        let file = File::open(path).map_err(|e| fail(Some(path), e))?;
        let meta = file.metadata().map_err(|e| fail(Some(path), e))?;
        if !meta.is_file() || meta.len() == 0 {
            let mut bytes = Vec::new();
            (&file)
                .read_to_end(&mut bytes)
                .map_err(|e| fail(Some(path), e))?;
            return Ok(Input::Bytes(bytes));
        }
        // SAFETY: read-only mapping; if another process changes the file meanwhile the encoding
        // may be inconsistent (as with every mmap-based tool), but no Rust invariant depends on
        // the bytes. Its page tables are filled before the hashing kernels read it, since a page
        // fault costs them far more than the fault itself.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| fail(Some(path), e))?;
        arborhash::mmap::populate_all(&map);
        Ok(Input::Map(map))
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Input::Map(map) => map,
            Input::Bytes(bytes) => bytes,
        }
    }
}

fn hash(files: &[OsString]) -> Result<(), Failure> {
    let stdin = [OsString::from("-")];
    let files = if files.is_empty() { &stdin[..] } else { files };
    let mut failed = None;
    for path in files {
        let mut hasher = Hasher::new();
        let result = if path == "-" {
            io::copy(&mut io::stdin().lock(), &mut hasher).map(|_| ())
        } else {
            hasher.update_mmap_rayon(path).map(|_| ())
        };
        match result {
            Ok(()) if files.len() == 1 => println!("{}", hasher.finalize().to_hex()),
            Ok(()) => println!("{}  {}", hasher.finalize().to_hex(), path.to_string_lossy()),
            Err(e) => {
                eprintln!("arbor bao: {}: {e}", path.to_string_lossy());
                failed = Some(path.clone());
            }
        }
    }
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
    let content = Input::load(input)?;
    let content = content.bytes();
    let path = outboard.or(output).unwrap_or(OsStr::new("-"));
    // The outboard first (on all cores), then one sequential write: cheaper than writing into a
    // mapping of the output, whose pages fault in one by one.
    let (tree, _) = bao::outboard(content, g);
    let mut out = BufWriter::with_capacity(1 << 20, create(Some(path))?);
    let written = match outboard {
        Some(_) => out.write_all(&tree),
        None => bao::write_combined(content, &tree, g, &mut out),
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| fail(if is_std(Some(path)) { None } else { Some(path) }, e))
}

/// Copies verified bytes from a decoder to the output; a failure names the input.
fn copy_verified(
    decoder: &mut dyn Read,
    input: Option<&OsStr>,
    output: Option<&OsStr>,
) -> Result<(), Failure> {
    let mut out = BufWriter::with_capacity(1 << 16, create(output)?);
    let name = if is_std(input) { None } else { input };
    // Large reads: the decoder verifies a buffer's worth of subtrees at once, on all cores.
    let mut buf = vec![0u8; 1 << 22];
    loop {
        let n = match decoder.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                // The verified bytes so far still go out, then the error.
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
    let content = BufReader::with_capacity(1 << 16, open(input)?);
    match outboard {
        Some(path) => {
            let tree = File::open(path).map_err(|e| fail(Some(path), e))?;
            let tree = BufReader::with_capacity(1 << 16, tree);
            let mut decoder = Decoder::new_outboard(content, tree, &hash, g);
            copy_verified(&mut decoder, input, output)
        }
        None => copy_verified(&mut Decoder::new(content, &hash, g), input, output),
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
        Some(p) if p != "-" => File::open(p).map_err(|e| fail(path, e)),
        _ => Err(fail(
            None,
            "slice needs a file to seek in, not standard input",
        )),
    };
    let content = open_seekable(input)?;
    let mut out = create(output)?;
    let result = match outboard {
        Some(path) => {
            let tree = open_seekable(Some(path))?;
            let mut extractor = SliceExtractor::new_outboard(content, tree, start, count, g);
            io::copy(&mut extractor, &mut out)
        }
        None => io::copy(&mut SliceExtractor::new(content, start, count, g), &mut out),
    };
    result
        .map(|_| ())
        .map_err(|e| fail(input, bao::Error::from(e)))
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
    let slice = BufReader::with_capacity(1 << 16, open(input)?);
    let mut decoder = SliceDecoder::new(slice, &hash, start, count, g);
    copy_verified(&mut decoder, input, output)
}
