//! The command line of `arbor sum`.

use super::{CheckOptions, Format, Settings, Tool};
use arbor::algorithm::Algorithm;
use clap::Args;
use std::ffi::OsString;

/// Parses `-a/--algorithm`.
fn parse_algorithm(name: &str) -> Result<Algorithm, String> {
    Algorithm::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        format!("unknown algorithm; expected one of {}", names.join(", "))
    })
}

/// Print or check BLAKE3, BLAKE2 and Tillich-Zémor checksums.
///
/// Output lines follow b3sum (`HASH  NAME`, or `TAG (NAME) = HASH` with --tag); --check reads the
/// lists of b3sum, coreutils b2sum and cksum, and arbor's own.
#[derive(Args, Debug)]
pub struct SumArgs {
    /// Files to hash, or lists to check. With none, or `-`, read standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,

    /// The hash algorithm (for --check: of lines without a tag).
    #[arg(short, long, value_name = "ALG", default_value = "blake3", value_parser = parse_algorithm)]
    algorithm: Algorithm,

    /// The output length in bytes [default: the algorithm's, 32 or 64].
    #[arg(short, long, value_name = "LEN")]
    length: Option<u64>,

    /// Keyed hash: read the raw key from standard input (32 bytes for blake3, up to 64 for blake2b).
    #[arg(long, conflicts_with = "derive_key")]
    keyed: bool,

    /// BLAKE3 key derivation with this context string.
    #[arg(long, value_name = "CONTEXT")]
    derive_key: Option<String>,

    /// BSD-style lines: `BLAKE3 (NAME) = HASH`, `BLAKE2b-256 (NAME) = HASH`.
    #[arg(long)]
    tag: bool,

    /// Print the hashes without names.
    #[arg(long)]
    no_names: bool,

    /// Write the raw hash bytes (one input only).
    #[arg(long)]
    raw: bool,

    /// End lines with NUL instead of newline and print names unescaped.
    #[arg(short, long)]
    zero: bool,

    /// Hash the files under directories, in sorted order.
    #[arg(short, long)]
    recursive: bool,

    /// The most threads to use [default: one per core].
    #[arg(long, value_name = "NUM")]
    num_threads: Option<usize>,

    /// Read files instead of memory-mapping them (one thread per file).
    #[arg(long)]
    no_mmap: bool,

    /// Read checksum lists and check the files they name.
    #[arg(
        short,
        long,
        conflicts_with_all = ["keyed", "derive_key", "length", "raw", "tag", "no_names", "recursive"]
    )]
    check: bool,

    /// --check: do not print OK lines.
    #[arg(long, requires = "check")]
    quiet: bool,

    /// --check: print nothing; the exit status tells.
    #[arg(long, requires = "check")]
    status: bool,

    /// --check: fail on malformed lines (always on; for coreutils compatibility).
    #[arg(long, requires = "check")]
    strict: bool,

    /// --check: report each malformed line (always on; for coreutils compatibility).
    #[arg(short, long, requires = "check")]
    warn: bool,

    /// --check: skip listed files that do not exist.
    #[arg(long, requires = "check")]
    ignore_missing: bool,
}

impl SumArgs {
    /// The run these arguments ask for.
    pub fn into_settings(self) -> Settings {
        Settings {
            tool: Tool::Arbor,
            program: Tool::Arbor.name().into(),
            algorithm: self.algorithm,
            length: self.length,
            seek: 0,
            keyed: self.keyed,
            derive_key: self.derive_key,
            format: Format {
                tag: self.tag,
                no_names: self.no_names,
                raw: self.raw,
                zero: self.zero,
                binary: false,
            },
            check: self.check.then_some(CheckOptions {
                quiet: self.quiet,
                status: self.status,
                strict: self.strict,
                warn: self.warn,
                ignore_missing: self.ignore_missing,
            }),
            recursive: self.recursive,
            num_threads: self.num_threads.filter(|&n| n > 0),
            no_mmap: self.no_mmap,
            files: self.files,
        }
    }
}
