//! Check mode: read checksum lists, hash each listed file and report `NAME: OK` or
//! `NAME: FAILED`. Lines are hashed in parallel batches and reported in list order.
//!
//! The three tools report alike in outline and differ in detail:
//! - `arbor`: every malformed line is reported with its list and line number and fails the run
//!   (coreutils' `-w --strict` always on); unreadable files print `NAME: FAILED (reason)` as b3sum
//!   does; each list ends with coreutils' summary warnings.
//! - `b3sum`: malformed lines and unreadable files count as failures; one summary at the end.
//! - `b2sum`: coreutils 9.1 exactly, including `FAILED open or read` and per-list summaries.

use super::input::{self, ReadOptions};
use super::output::{coreutils_error, coreutils_quote, Reporter};
use super::progress::Progress;
use super::{CheckOptions, Settings, Tool};
use arbor::algorithm::{Digest, Mode, Spec, SpecError};
use arbor::checklist::{self, Entry, Line, ParseError};
use arbor::escape;
use rayon::prelude::*;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Lines hashed at a time.
const BATCH: usize = 1024;

/// Lines one thread takes at a time; their small files are hashed together in SIMD lanes.
const GROUP: usize = 64;

/// What became of one line.
enum Outcome {
    Ignored,
    Malformed(ParseError),
    /// The line's algorithm cannot produce its length (the parser already rules this out).
    Unusable(Entry, SpecError),
    /// The file does not exist and `--ignore-missing` skips it.
    Missing,
    /// The file could not be read.
    Unreadable(Entry, io::Error),
    Checked(Entry, bool),
}

/// Per-list counts, for the summary and the exit status.
#[derive(Default)]
struct Counts {
    /// Properly formatted lines.
    entries: u64,
    malformed: u64,
    unreadable: u64,
    mismatched: u64,
    verified: u64,
}

/// Checks every list in `settings.files`; returns whether all listed files matched.
pub fn run(settings: &Settings, options: CheckOptions, reporter: &mut Reporter) -> bool {
    let tool = settings.tool;
    let mut ok = true;
    let mut b3sum_failures = 0u64;
    for list in &settings.files {
        let label = list_label(tool, list);
        let text = match read_list(list) {
            Ok(text) => text,
            Err(e) => {
                match (tool, e) {
                    (Tool::B3sum, ListError::Open(e) | ListError::Read(e)) => {
                        // b3sum stops at an unreadable list.
                        let _ = reporter.fatal(&e.to_string());
                        return false;
                    }
                    // coreutils opens a directory as a stream; reading it then fails.
                    (Tool::B2sum, ListError::Read(_)) => {
                        reporter.message(&format!("{label}: read error"));
                    }
                    (Tool::B2sum, ListError::Open(e)) => {
                        reporter.message(&format!("{label}: {}", coreutils_error(&e)));
                    }
                    (Tool::Arbor, ListError::Open(e) | ListError::Read(e)) => {
                        reporter.message(&format!("{label}: {e}"));
                    }
                }
                ok = false;
                continue;
            }
        };
        let (counts, complete) = check_list(settings, options, reporter, &label, &text);
        match tool {
            Tool::B3sum => {
                b3sum_failures += counts.malformed + counts.unreadable + counts.mismatched;
                if !complete {
                    // b3sum reads its lists as text and stops at a line that is not UTF-8.
                    let _ = reporter.fatal("stream did not contain valid UTF-8");
                    return false;
                }
            }
            Tool::Arbor | Tool::B2sum => {
                ok &= summarize(tool, options, reporter, &label, &counts);
            }
        }
    }
    if tool == Tool::B3sum && b3sum_failures > 0 {
        reporter.message(&format!(
            "WARNING: {b3sum_failures} computed checksum{} did NOT match",
            plural(b3sum_failures)
        ));
        ok = false;
    }
    ok
}

/// How a list is named in messages: coreutils quotes it and calls `-` "standard input".
fn list_label(tool: Tool, list: &OsStr) -> String {
    match tool {
        Tool::B2sum if list == "-" => coreutils_quote(b"standard input"),
        Tool::B2sum => coreutils_quote(list.as_encoded_bytes()),
        Tool::Arbor | Tool::B3sum => list.to_string_lossy().into_owned(),
    }
}

/// Why a list could not be read.
enum ListError {
    Open(io::Error),
    Read(io::Error),
}

fn read_list(list: &OsStr) -> Result<Vec<u8>, ListError> {
    let mut text = Vec::new();
    if list == "-" {
        io::stdin().lock().read_to_end(&mut text)
    } else {
        std::fs::File::open(list)
            .map_err(ListError::Open)?
            .read_to_end(&mut text)
    }
    .map_err(ListError::Read)?;
    Ok(text)
}

/// Checks the lines of one list; returns the counts and whether every line was read (b3sum
/// stops at a line that is not UTF-8).
fn check_list(
    settings: &Settings,
    options: CheckOptions,
    reporter: &mut Reporter,
    label: &str,
    text: &[u8],
) -> (Counts, bool) {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if lines.last() == Some(&&b""[..]) {
        lines.pop();
    }
    let mut complete = true;
    if settings.tool == Tool::B3sum {
        if let Some(bad) = lines
            .iter()
            .position(|line| std::str::from_utf8(line).is_err())
        {
            lines.truncate(bad);
            complete = false;
        }
    }
    let read = ReadOptions {
        no_mmap: settings.no_mmap,
    };
    let progress = Progress::new(|| listed_size(settings, &lines));
    let mut counts = Counts::default();
    for (batch_index, batch) in lines.chunks(BATCH).enumerate() {
        let outcomes: Vec<Outcome> = batch
            .par_chunks(GROUP)
            .flat_map_iter(|group| check_group(settings, options, read, &progress, group))
            .collect();
        progress.suspend(|| {
            for (i, outcome) in outcomes.into_iter().enumerate() {
                let line_number = batch_index * BATCH + i + 1;
                report(
                    settings.tool,
                    options,
                    reporter,
                    label,
                    line_number,
                    outcome,
                    &mut counts,
                );
            }
        });
    }
    progress.finish();
    (counts, complete)
}

/// The bytes the files listed in `lines` hold, for the progress bar, as far as they can be
/// stat'ed. The lines are parsed again when they are checked; this pass is only made when a bar
/// can be drawn, and stat'ing costs far more than parsing.
fn listed_size(settings: &Settings, lines: &[&[u8]]) -> u64 {
    lines
        .par_iter()
        .map(|line| {
            match checklist::parse_line(line, settings.algorithm, settings.tool.dialect()) {
                // `-` is standard input, of unknown size.
                Ok(Line::Entry(entry)) if entry.path != b"-" => {
                    std::fs::metadata(path_from_bytes(&entry.path)).map_or(0, |m| m.len())
                }
                _ => 0,
            }
        })
        .sum()
}

/// Checks a group of lines, in order. The files of lines with the same algorithm and length (a
/// list usually has one) are hashed together by [`input::hash_files`].
fn check_group(
    settings: &Settings,
    options: CheckOptions,
    read: ReadOptions,
    progress: &Progress,
    lines: &[&[u8]],
) -> Vec<Outcome> {
    let mut outcomes = Vec::with_capacity(lines.len());
    let mut pending = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        outcomes.push(
            match checklist::parse_line(line, settings.algorithm, settings.tool.dialect()) {
                Ok(Line::Entry(entry)) => {
                    match Spec::new(entry.algorithm, entry.expected.len() as u64, Mode::Plain) {
                        Ok(spec) => {
                            pending.push((i, entry, spec));
                            None
                        }
                        Err(e) => Some(Outcome::Unusable(entry, e)),
                    }
                }
                Ok(Line::Ignored) => Some(Outcome::Ignored),
                Err(e) => Some(Outcome::Malformed(e)),
            },
        );
    }
    while let Some((_, _, first)) = pending.first() {
        let kind = (first.algorithm(), first.length());
        let (same, rest): (Vec<_>, Vec<_>) = pending
            .into_iter()
            .partition(|(_, _, spec)| (spec.algorithm(), spec.length()) == kind);
        pending = rest;
        let spec = same[0].2.clone();
        let paths: Vec<PathBuf> = same
            .iter()
            .map(|(_, entry, _)| path_from_bytes(&entry.path))
            .collect();
        let stdin = Path::new("-");
        let files: Vec<&Path> = paths
            .iter()
            .map(PathBuf::as_path)
            .filter(|path| *path != stdin)
            .collect();
        let mut hashed = input::hash_files(&spec, &files, read, progress).into_iter();
        for ((i, entry, _), path) in same.into_iter().zip(&paths) {
            let result = if path == stdin {
                input::hash_stdin(&spec, progress)
            } else {
                hashed.next().expect("one result per file")
            };
            outcomes[i] = Some(verdict(options, entry, result));
        }
    }
    outcomes
        .into_iter()
        .map(|outcome| outcome.expect("every line has an outcome"))
        .collect()
}

/// What the digest of a listed file, or the error in reading it, makes of its line.
fn verdict(options: CheckOptions, entry: Entry, result: io::Result<Digest>) -> Outcome {
    match result {
        Ok(mut digest) => {
            let matched = digest.take(entry.expected.len()) == entry.expected;
            Outcome::Checked(entry, matched)
        }
        Err(e) if options.ignore_missing && e.kind() == io::ErrorKind::NotFound => Outcome::Missing,
        Err(e) => Outcome::Unreadable(entry, e),
    }
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// The name as the tool prints it in a result line, with the leading backslash if escaped.
fn display_name(tool: Tool, entry: &Entry) -> Vec<u8> {
    let (text, escaped) = match tool {
        Tool::B2sum => {
            let listed = escape::for_coreutils_report(&entry.path);
            (listed.text.into_owned(), listed.escaped)
        }
        Tool::Arbor | Tool::B3sum => (entry.listed.clone(), entry.escaped),
    };
    let mut name = Vec::with_capacity(text.len() + 1);
    if escaped {
        name.push(b'\\');
    }
    name.extend_from_slice(&text);
    name
}

fn report(
    tool: Tool,
    options: CheckOptions,
    reporter: &mut Reporter,
    label: &str,
    line_number: usize,
    outcome: Outcome,
    counts: &mut Counts,
) {
    let print = |reporter: &mut Reporter, name: &[u8], verdict: &str| {
        if !options.status {
            reporter.put(name);
            reporter.put(verdict.as_bytes());
            reporter.put(b"\n");
        }
    };
    match outcome {
        Outcome::Ignored => {}
        Outcome::Missing => counts.entries += 1,
        Outcome::Malformed(e) => {
            counts.malformed += 1;
            match tool {
                Tool::Arbor => reporter.message(&format!(
                    "{label}:{line_number}: improperly formatted checksum line: {e}"
                )),
                Tool::B3sum => reporter.message(&e.to_string()),
                Tool::B2sum if options.warn => reporter.message(&format!(
                    "{label}: {line_number}: improperly formatted BLAKE2b checksum line"
                )),
                Tool::B2sum => {}
            }
        }
        Outcome::Unusable(entry, e) => {
            counts.entries += 1;
            counts.unreadable += 1;
            print(
                reporter,
                &display_name(tool, &entry),
                &format!(": FAILED ({e})"),
            );
        }
        Outcome::Unreadable(entry, e) => {
            counts.entries += 1;
            counts.unreadable += 1;
            let name = display_name(tool, &entry);
            match tool {
                Tool::B2sum => {
                    reporter.message(&format!(
                        "{}: {}",
                        coreutils_quote(&entry.path),
                        coreutils_error(&e)
                    ));
                    print(reporter, &name, ": FAILED open or read");
                }
                Tool::Arbor | Tool::B3sum => print(reporter, &name, &format!(": FAILED ({e})")),
            }
        }
        Outcome::Checked(entry, matched) => {
            counts.entries += 1;
            let name = display_name(tool, &entry);
            if matched {
                counts.verified += 1;
                if !options.quiet {
                    print(reporter, &name, ": OK");
                }
            } else {
                counts.mismatched += 1;
                print(reporter, &name, ": FAILED");
            }
        }
    }
}

/// Prints coreutils' end-of-list warnings; returns whether the list passed.
fn summarize(
    tool: Tool,
    options: CheckOptions,
    reporter: &mut Reporter,
    label: &str,
    counts: &Counts,
) -> bool {
    if counts.entries == 0 {
        reporter.message(&format!(
            "{label}: no properly formatted checksum lines found"
        ));
        return false;
    }
    if !options.status {
        if counts.malformed > 0 {
            let n = counts.malformed;
            let (noun, verb) = if n == 1 {
                ("line", "is")
            } else {
                ("lines", "are")
            };
            reporter.message(&format!("WARNING: {n} {noun} {verb} improperly formatted"));
        }
        if counts.unreadable > 0 {
            let n = counts.unreadable;
            reporter.message(&format!(
                "WARNING: {n} listed file{} could not be read",
                plural(n)
            ));
        }
        if counts.mismatched > 0 {
            let n = counts.mismatched;
            reporter.message(&format!(
                "WARNING: {n} computed checksum{} did NOT match",
                plural(n)
            ));
        }
    }
    let compared = counts.verified + counts.mismatched;
    if options.ignore_missing && compared == 0 {
        reporter.message(&format!("{label}: no file was verified"));
    }
    let strict = options.strict || tool == Tool::Arbor;
    compared > 0
        && counts.unreadable == 0
        && counts.mismatched == 0
        && !(strict && counts.malformed > 0)
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
