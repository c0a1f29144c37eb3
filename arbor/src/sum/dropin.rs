//! Drop-in modes: invoked as `b3sum` or `b2sum` (through a link), the program takes exactly that
//! tool's options and behaves as it does.

use super::{CheckOptions, Format, Settings, Tool};
use arbor::algorithm::Algorithm;
use clap::Parser;
use std::ffi::OsString;
use std::process::ExitCode;

/// The options of b3sum 1.x.
#[derive(Parser, Debug)]
#[command(name = "b3sum", version, about = "Print or check BLAKE3 checksums")]
struct B3sumArgs {
    /// Files to hash, or checkfiles to check. With none, or `-`, read standard input.
    file: Vec<OsString>,

    /// Use the keyed mode, reading the 32-byte key from stdin
    #[arg(long, requires = "file")]
    keyed: bool,

    /// Use the key derivation mode, with the given context string
    #[arg(long, value_name = "CONTEXT", conflicts_with = "keyed")]
    derive_key: Option<String>,

    /// The number of output bytes, before hex encoding
    #[arg(short, long, default_value_t = 32, value_name = "LEN")]
    length: u64,

    /// The starting output byte offset, before hex encoding
    #[arg(long, default_value_t = 0, value_name = "SEEK")]
    seek: u64,

    /// The maximum number of threads to use
    #[arg(long, value_name = "NUM")]
    num_threads: Option<usize>,

    /// Disable memory mapping (and so multithreading)
    #[arg(long)]
    no_mmap: bool,

    /// Omit filenames in the output
    #[arg(long)]
    no_names: bool,

    /// Write raw output bytes to stdout, rather than hex
    #[arg(long)]
    raw: bool,

    /// Output BSD-style checksums: BLAKE3 ([FILE]) = [HASH]
    #[arg(long)]
    tag: bool,

    /// Read BLAKE3 sums from the [FILE]s and check them
    #[arg(
        short,
        long,
        conflicts_with_all = ["derive_key", "keyed", "length", "raw", "tag", "no_names"]
    )]
    check: bool,

    /// Skip printing OK for each checked file
    #[arg(long, requires = "check")]
    quiet: bool,
}

/// Runs as b3sum.
pub fn b3sum(args: Vec<OsString>) -> ExitCode {
    let args = B3sumArgs::parse_from(args);
    super::run(Settings {
        tool: Tool::B3sum,
        program: Tool::B3sum.name().into(),
        algorithm: Algorithm::Blake3,
        length: Some(args.length),
        seek: args.seek,
        keyed: args.keyed,
        derive_key: args.derive_key,
        format: Format {
            tag: args.tag,
            no_names: args.no_names,
            raw: args.raw,
            zero: false,
            binary: false,
        },
        check: args.check.then_some(CheckOptions {
            quiet: args.quiet,
            ..CheckOptions::default()
        }),
        recursive: false,
        num_threads: args.num_threads.filter(|&n| n > 0),
        no_mmap: args.no_mmap,
        files: args.file,
    })
}

/// The options of GNU coreutils b2sum.
#[derive(Parser, Debug)]
#[command(
    name = "b2sum",
    version,
    about = "Print or check BLAKE2b (512-bit) checksums."
)]
struct B2sumArgs {
    /// Files to hash, or lists to check. With none, or `-`, read standard input.
    file: Vec<OsString>,

    /// read in binary mode
    #[arg(short, long)]
    binary: bool,

    /// read checksums from the FILEs and check them
    #[arg(short, long)]
    check: bool,

    /// digest length in bits; must not exceed the max for the blake2 algorithm and must be a
    /// multiple of 8
    #[arg(short, long, value_name = "BITS")]
    length: Option<String>,

    /// create a BSD-style checksum
    #[arg(long)]
    tag: bool,

    /// read in text mode (default)
    #[arg(short, long)]
    text: bool,

    /// end each output line with NUL, not newline, and disable file name escaping
    #[arg(short, long)]
    zero: bool,

    /// don't fail or report status for missing files
    #[arg(long)]
    ignore_missing: bool,

    /// don't print OK for each successfully verified file
    #[arg(long)]
    quiet: bool,

    /// don't output anything, status code shows success
    #[arg(long)]
    status: bool,

    /// exit non-zero for improperly formatted checksum lines
    #[arg(long)]
    strict: bool,

    /// warn about improperly formatted checksum lines
    #[arg(short, long)]
    warn: bool,
}

/// Runs as b2sum.
pub fn b2sum(args: Vec<OsString>) -> ExitCode {
    // coreutils names itself in messages by the path it was invoked as.
    let program = args.first().map_or_else(
        || "b2sum".into(),
        |arg0| arg0.to_string_lossy().into_owned(),
    );
    let args = match B2sumArgs::try_parse_from(args) {
        Ok(args) => args,
        Err(e) => {
            let _ = e.print();
            // coreutils exits 1 on a usage error; help and version succeed.
            return if e.use_stderr() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let fail = |lines: &[String]| {
        for line in lines {
            eprintln!("{program}: {line}");
        }
        ExitCode::FAILURE
    };
    let length = match args.length.as_deref().map(parse_bits) {
        None => None,
        Some(Ok(0)) => None,
        Some(Ok(bytes)) => Some(bytes),
        Some(Err(lines)) => return fail(&lines),
    };
    if !args.check {
        for (set, option) in [
            (args.ignore_missing, "--ignore-missing"),
            (args.quiet, "--quiet"),
            (args.status, "--status"),
            (args.strict, "--strict"),
            (args.warn, "--warn"),
        ] {
            if set {
                return fail(&[format!(
                    "the {option} option is meaningful only when verifying checksums"
                )]);
            }
        }
    } else if args.tag {
        return fail(&["the --tag option is meaningless when verifying checksums".into()]);
    }
    super::run(Settings {
        tool: Tool::B2sum,
        program: program.clone(),
        algorithm: Algorithm::Blake2b,
        length,
        seek: 0,
        keyed: false,
        derive_key: None,
        format: Format {
            tag: args.tag,
            no_names: false,
            raw: false,
            zero: args.zero,
            binary: args.binary && !args.text,
        },
        check: args.check.then_some(CheckOptions {
            quiet: args.quiet,
            status: args.status,
            strict: args.strict,
            warn: args.warn,
            ignore_missing: args.ignore_missing,
        }),
        recursive: false,
        num_threads: None,
        no_mmap: false,
        files: args.file,
    })
}

/// b2sum's `-l BITS` as bytes (0 means the default), or coreutils' error lines.
fn parse_bits(text: &str) -> Result<u64, Vec<String>> {
    let invalid = format!("invalid length: \u{2018}{text}\u{2019}");
    let bits: u64 = text.parse().map_err(|_| vec![invalid.clone()])?;
    if bits > 512 {
        return Err(vec![
            invalid,
            "maximum digest length for \u{2018}BLAKE2b\u{2019} is 512 bits".into(),
        ]);
    }
    if !bits.is_multiple_of(8) {
        return Err(vec![invalid, "length is not a multiple of 8".into()]);
    }
    Ok(bits / 8)
}
