//! `arbor sum`: hash files or check lists of hashes. The same engine serves the b3sum and b2sum
//! drop-in modes; [`Tool`] holds the few places where their conventions differ.

pub mod args;
mod check;
mod compute;
pub mod dropin;
mod input;
mod ordered;
pub mod output;
mod progress;
mod stdio;
mod walk;

use arbor::algorithm::{Algorithm, Blake2Params, Mode, Spec, SpecError};
use arbor::checklist::Dialect;
use arbor::escape::Style;
use output::Reporter;
use std::ffi::OsString;
use std::io::Read;
use std::process::ExitCode;

/// The most threads `--num-threads` starts: far more than any machine has cores for, and as many
/// as files can be memory-mapped under the SIGBUS guard at once.
pub const MAX_THREADS: usize = crate::mapped::SLOTS;

/// Whose behaviour the program imitates: it names the program in messages and picks the output
/// and check-list conventions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `arbor sum`: b3sum's output conventions with coreutils' check options, every algorithm.
    Arbor,
    /// Invoked as `b3sum`.
    B3sum,
    /// Invoked as `b2sum` (GNU coreutils).
    B2sum,
}

impl Tool {
    /// The program name.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Arbor => "arbor",
            Tool::B3sum => "b3sum",
            Tool::B2sum => "b2sum",
        }
    }

    fn style(self) -> Style {
        match self {
            Tool::Arbor | Tool::B3sum => Style::B3sum,
            Tool::B2sum => Style::Coreutils,
        }
    }

    fn dialect(self) -> Dialect {
        match self {
            Tool::Arbor => Dialect::Arbor,
            Tool::B3sum => Dialect::B3sum,
            Tool::B2sum => Dialect::Coreutils,
        }
    }
}

/// How hash lines look.
#[derive(Clone, Copy, Debug, Default)]
pub struct Format {
    /// BSD-style `TAG (NAME) = HEX`.
    pub tag: bool,
    /// The hash alone.
    pub no_names: bool,
    /// The raw hash bytes, no newline.
    pub raw: bool,
    /// NUL instead of newline after each line, names unescaped.
    pub zero: bool,
    /// coreutils' binary-mode mark, `HEX *NAME`.
    pub binary: bool,
}

/// Options of `-c/--check`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// No `OK` lines.
    pub quiet: bool,
    /// No output at all; the exit status tells.
    pub status: bool,
    /// Malformed lines make the exit status non-zero (always so for `arbor`).
    pub strict: bool,
    /// A message for each malformed line (always so for `arbor`).
    pub warn: bool,
    /// Skip listed files that do not exist.
    pub ignore_missing: bool,
}

/// Everything a run needs, whichever command line it came from.
#[derive(Clone, Debug)]
pub struct Settings {
    pub tool: Tool,
    /// The name that prefixes messages: the tool's, except that coreutils uses its `argv[0]`.
    pub program: String,
    pub algorithm: Algorithm,
    /// Whether `-a` was given (a list of 128-digit hashes then needs no hint).
    pub algorithm_given: bool,
    /// Output bytes; `None` for the algorithm's default.
    pub length: Option<u64>,
    /// b3sum's `--seek`: the first output byte.
    pub seek: u64,
    /// Read a key from standard input.
    pub keyed: bool,
    /// A key given on the command line.
    pub key: Option<Vec<u8>>,
    /// BLAKE2's salt, personalization and tree parameters.
    pub params: Blake2Params,
    /// One JSON object per output line.
    pub json: bool,
    /// Never draw the progress bar.
    pub no_progress: bool,
    pub derive_key: Option<String>,
    pub format: Format,
    /// Check lists instead of hashing.
    pub check: Option<CheckOptions>,
    pub recursive: bool,
    /// `-r`: skip dangling links and loops of links with a warning.
    pub skip_broken_links: bool,
    pub num_threads: Option<usize>,
    pub no_mmap: bool,
    /// `--manifest`: `files` is the one directory whose manifest is printed.
    pub manifest: bool,
    /// Files to hash or lists to check; `-` is standard input.
    pub files: Vec<OsString>,
}

/// Runs a parsed command line to its exit status.
pub fn run(mut settings: Settings) -> ExitCode {
    let mut reporter = Reporter::new(settings.tool, settings.program.clone());
    if settings.files.is_empty() {
        settings.files.push("-".into());
    }
    if settings.format.raw && settings.files.len() > 1 {
        return reporter.fatal("Only one filename can be provided when using --raw");
    }
    let spec = match build_spec(&settings) {
        Ok(spec) => spec,
        Err(message) => return reporter.fatal(&message),
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = settings.num_threads {
        // b3sum prints no warning (it starts every thread asked for).
        if threads > MAX_THREADS && settings.tool != Tool::B3sum {
            reporter.message(&format!(
                "warning: --num-threads {threads} is more than {MAX_THREADS}; using {MAX_THREADS}"
            ));
        }
        pool = pool.num_threads(threads.min(MAX_THREADS));
    }
    let pool = match pool.build() {
        Ok(pool) => pool,
        Err(e) => return reporter.fatal(&format!("cannot start threads: {e}")),
    };
    // In check mode the spec only validates the flags: each line brings its own algorithm and
    // length.
    let ok = pool.install(|| match settings.check {
        Some(options) => check::run(&settings, &spec, options, &mut reporter),
        None => compute::run(&settings, &spec, &mut reporter),
    });
    reporter.finish(ok)
}

/// Turns the algorithm flags (and a key from standard input) into a [`Spec`].
fn build_spec(settings: &Settings) -> Result<Spec, String> {
    let algorithm = settings.algorithm;
    let mode = if settings.keyed {
        Mode::Keyed(read_key(settings, algorithm)?)
    } else if let Some(key) = &settings.key {
        Mode::Keyed(key.clone())
    } else if let Some(context) = &settings.derive_key {
        Mode::DeriveKey(context.clone())
    } else {
        Mode::Plain
    };
    let length = settings
        .length
        .unwrap_or_else(|| algorithm.default_length());
    if settings.seek != 0 && algorithm != Algorithm::Blake3 {
        return Err("--seek: only BLAKE3 has an extendable output".into());
    }
    if settings.format.tag && !settings.params.is_default() {
        return Err(
            "--tag: lines would name the plain hash; with --salt, --personal or tree \
                    parameters, leave out --tag"
                .into(),
        );
    }
    if settings.check.is_some() {
        return Ok(Spec::for_check(mode, settings.params.clone()));
    }
    let key_option = if settings.keyed { "--keyed" } else { "--key" };
    Spec::new(algorithm, length, mode)
        .and_then(|spec| spec.with_params(settings.params.clone()))
        .map_err(|e| match e {
            SpecError::Length { .. } => format!("-l/--length: {e}"),
            SpecError::KeyLength { .. } => format!("{key_option}: {e}"),
            SpecError::DeriveKey { .. } => format!("--derive-key: {e}"),
            SpecError::Param(_) | SpecError::NeedsKey => e.to_string(),
        })
}

/// Reads the raw key bytes from standard input, one more than the longest key at most, so that
/// an overlong key is reported rather than cut.
fn read_key(settings: &Settings, algorithm: Algorithm) -> Result<Vec<u8>, String> {
    let tool = settings.tool;
    // In check mode each line's algorithm checks the key; read up to the longest any takes.
    let lengths = match settings.check {
        Some(_) => Some((1, 64)),
        None => algorithm.key_lengths(),
    };
    let Some((min, max)) = lengths else {
        return Err(format!("--keyed: {algorithm} has no keyed mode"));
    };
    let mut key = Vec::with_capacity(max + 1);
    stdio::stdin()
        .map_err(|e| format!("--keyed: cannot read the key from standard input: {e}"))?
        .take(max as u64 + 1)
        .read_to_end(&mut key)
        .map_err(|e| format!("--keyed: cannot read the key from standard input: {e}"))?;
    if tool == Tool::B3sum {
        // b3sum's own wording.
        if key.len() < max {
            return Err(format!(
                "expected {max} key bytes from stdin, found {}",
                key.len()
            ));
        } else if key.len() > max {
            return Err(format!("read more than {max} key bytes from stdin"));
        }
    }
    if key.len() > max {
        return Err(format!(
            "--keyed: {algorithm} takes a key of at most {max} bytes on standard input, found more"
        ));
    }
    if key.len() < min {
        let wanted = if min == max {
            format!("exactly {min}")
        } else {
            format!("{min} to {max}")
        };
        return Err(format!(
            "--keyed: {algorithm} takes a key of {wanted} bytes on standard input, found {}",
            key.len()
        ));
    }
    // b3sum takes such a key without a word.
    if key.last() == Some(&b'\n') && tool != Tool::B3sum {
        eprintln!(
            "{}: warning: the key read from standard input ends with a newline, which is part \
             of the key (give it with printf or head -c to leave it out)",
            settings.program
        );
    }
    Ok(key)
}
