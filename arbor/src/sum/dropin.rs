//! Drop-in modes: invoked as `b3sum` or `b2sum` (through a link), the program takes exactly that
//! tool's options and behaves as it does.

use super::output::{coreutils_error, coreutils_quote_arg, print_text};
use super::{CheckOptions, Format, Settings, Tool};
use arbor::algorithm::{Algorithm, Blake2Params};
use arbor::getopt::{self, Opt};
use clap::Parser;
use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

/// The options of b3sum 1.x.
#[derive(Parser, Debug)]
#[command(
    name = "b3sum",
    disable_version_flag = true,
    about = "Print or check BLAKE3 checksums"
)]
struct B3sumArgs {
    /// Print version
    #[arg(short = 'V', long)]
    version: bool,

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
    if args.version {
        // b3sum writes its help and version through clap, which ignores a failed write and
        // exits 0 (the help here is clap's too).
        let _ = io::stdout().write_all(version_text("b3sum", "b3sum").as_bytes());
        return ExitCode::SUCCESS;
    }
    super::run(Settings {
        tool: Tool::B3sum,
        program: Tool::B3sum.name().into(),
        algorithm: Algorithm::Blake3,
        algorithm_given: true,
        length: Some(args.length),
        seek: args.seek,
        keyed: args.keyed,
        key: None,
        params: Blake2Params::default(),
        json: false,
        no_progress: false,
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
        skip_broken_links: false,
        num_threads: args.num_threads.filter(|&n| n > 0),
        no_mmap: args.no_mmap,
        manifest: false,
        files: args.file,
    })
}

/// The options of GNU coreutils b2sum, in coreutils' order (which its ambiguity messages follow).
const B2SUM_OPTIONS: &[Opt] = &[
    Opt::value("length", Some(b'l')),
    Opt::flag("binary", Some(b'b')),
    Opt::flag("check", Some(b'c')),
    Opt::flag("ignore-missing", None),
    Opt::flag("quiet", None),
    Opt::flag("status", None),
    Opt::flag("text", Some(b't')),
    Opt::flag("warn", Some(b'w')),
    Opt::flag("strict", None),
    Opt::flag("tag", None),
    Opt::flag("zero", Some(b'z')),
    Opt::flag("help", None),
    Opt::flag("version", None),
];

const B2SUM_HELP: &str = "\
Usage: {0} [OPTION]... [FILE]...
Print or check BLAKE2b (512-bit) checksums.

With no FILE, or when FILE is -, read standard input.

  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
  -l, --length=BITS    digest length in bits; a multiple of 8, at most 512
      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                         and disable file name escaping

Only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines

      --help     display this help and exit
      --version  output version information and exit

This is the arbor command invoked as b2sum, a drop-in for GNU coreutils b2sum;
`arbor sum --help` lists everything arbor offers.
";

/// Runs as b2sum, parsing the command line as coreutils' getopt_long does.
pub fn b2sum(args: Vec<OsString>) -> ExitCode {
    // coreutils names itself in messages by the path it was invoked as.
    let program = args.first().map_or_else(
        || "b2sum".into(),
        |arg0| arg0.to_string_lossy().into_owned(),
    );
    let usage_error = |message: &str| {
        if !message.is_empty() {
            eprintln!("{program}: {message}");
        }
        eprintln!("Try '{program} --help' for more information.");
        ExitCode::FAILURE
    };
    let fail = |lines: &[String]| {
        for line in lines {
            eprintln!("{program}: {line}");
        }
        ExitCode::FAILURE
    };
    let order = if std::env::var_os("POSIXLY_CORRECT").is_some() {
        getopt::Order::RequireOrder
    } else {
        getopt::Order::Permute
    };
    let parsed = match getopt::parse(B2SUM_OPTIONS, &args[args.len().min(1)..], order) {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(&e.to_string()),
    };
    // coreutils' variables: the last of conflicting options wins.
    let mut binary: Option<bool> = None;
    let (mut check, mut tag, mut zero, mut ignore_missing, mut strict) =
        (false, false, false, false, false);
    let (mut quiet, mut status, mut warn) = (false, false, false);
    let mut length = None;
    let mut files = Vec::new();
    for arg in parsed {
        let (index, value) = match arg {
            getopt::Arg::Operand(file) => {
                files.push(file);
                continue;
            }
            getopt::Arg::Opt(index, value) => (index, value),
        };
        match B2SUM_OPTIONS[index].long {
            "length" => {
                let text = value.unwrap_or_default();
                length = match parse_bits(text.as_encoded_bytes()) {
                    Ok(0) => None,
                    Ok(bytes) => Some(bytes),
                    Err(lines) => return fail(&lines),
                };
            }
            "binary" => binary = Some(true),
            "text" => binary = Some(false),
            "check" => check = true,
            "ignore-missing" => ignore_missing = true,
            "quiet" => (quiet, status, warn) = (true, false, false),
            "status" => (quiet, status, warn) = (false, true, false),
            "warn" => (quiet, status, warn) = (false, false, true),
            "strict" => strict = true,
            "tag" => (tag, binary) = (true, Some(true)),
            "zero" => zero = true,
            "help" => {
                let help = B2SUM_HELP.replace("{0}", &program);
                return print_text(Tool::B2sum, &program, help.as_bytes());
            }
            "version" => {
                let version = version_text("b2sum", "GNU coreutils b2sum");
                return print_text(Tool::B2sum, &program, version.as_bytes());
            }
            other => unreachable!("option --{other} is in the table"),
        }
    }
    if tag && binary == Some(false) {
        return usage_error("--tag does not support --text mode");
    }
    if check {
        if zero {
            return usage_error("the --zero option is not supported when verifying checksums");
        }
        if tag {
            return usage_error("the --tag option is meaningless when verifying checksums");
        }
        if binary.is_some() {
            return usage_error(
                "the --binary and --text options are meaningless when verifying checksums",
            );
        }
    } else {
        for (set, option) in [
            (ignore_missing, "--ignore-missing"),
            (status, "--status"),
            (warn, "--warn"),
            (quiet, "--quiet"),
            (strict, "--strict"),
        ] {
            if set {
                return usage_error(&format!(
                    "the {option} option is meaningful only when verifying checksums"
                ));
            }
        }
    }
    super::run(Settings {
        tool: Tool::B2sum,
        program: program.clone(),
        algorithm: Algorithm::Blake2b,
        algorithm_given: true,
        length,
        seek: 0,
        keyed: false,
        key: None,
        params: Blake2Params::default(),
        json: false,
        no_progress: false,
        derive_key: None,
        format: Format {
            tag,
            no_names: false,
            raw: false,
            zero,
            binary: binary == Some(true) && !tag,
        },
        check: check.then_some(CheckOptions {
            quiet,
            status,
            strict,
            warn,
            ignore_missing,
        }),
        recursive: false,
        skip_broken_links: false,
        num_threads: None,
        no_mmap: false,
        manifest: false,
        files,
    })
}

/// What `--version` prints in a drop-in mode: arbor's own version, and the role it plays.
fn version_text(name: &str, imitated: &str) -> String {
    format!(
        "{name} (arbor) {}\nThis is the arbor command invoked as {name}, a drop-in for {imitated}.\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// b2sum's `-l BITS` as bytes (0 means the default), or coreutils 9.1's error lines: it reads a
/// decimal number as `strtoumax` does (leading spaces and `+` allowed, no sign `-`, nothing
/// after the digits), then checks for a multiple of 8 before the maximum.
fn parse_bits(text: &[u8]) -> Result<u64, Vec<String>> {
    let invalid = format!("invalid length: {}", coreutils_quote_arg(text));
    let start = text
        .iter()
        .position(|&b| !b" \t\n\x0b\x0c\r".contains(&b))
        .unwrap_or(text.len());
    let number = text[start..].strip_prefix(b"+").unwrap_or(&text[start..]);
    let digits = number.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits < number.len() {
        return Err(vec![invalid]);
    }
    let bits = number.iter().try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    });
    let Some(bits) = bits else {
        let reason = coreutils_error(&io::Error::from_raw_os_error(libc::EOVERFLOW));
        return Err(vec![format!("{invalid}: {reason}")]);
    };
    if !bits.is_multiple_of(8) {
        return Err(vec![invalid, "length is not a multiple of 8".into()]);
    }
    if bits > 512 {
        let blake2b = coreutils_quote_arg(b"BLAKE2b");
        return Err(vec![
            invalid,
            format!("maximum digest length for {blake2b} is 512 bits"),
        ]);
    }
    Ok(bits / 8)
}
