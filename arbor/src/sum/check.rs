//! Check mode: read checksum lists, hash each listed file and report `NAME: OK` or
//! `NAME: FAILED`. Lines are checked in parallel and each reported, in list order, as soon as
//! the lines before it are.
//!
//! The three tools report alike in outline and differ in detail:
//! - `arbor`: every malformed line is reported with its list and line number and fails the run
//!   (coreutils' `-w --strict` always on); unreadable files print `NAME: FAILED (reason)` as b3sum
//!   does; each list ends with coreutils' summary warnings.
//! - `b3sum`: malformed lines and unreadable files count as failures; one summary at the end.
//! - `b2sum`: coreutils 9.1 exactly, including `FAILED open or read` and per-list summaries.

use super::input::{self, Hashed, ReadOptions, Seen};
use super::ordered::{self, Emitter};
use super::output::{coreutils_error, coreutils_quote, Reporter};
use super::progress::Progress;
use super::{CheckOptions, Settings, Tool};
use arbor::algorithm::{Algorithm, Spec, SpecError};
use arbor::checklist::{self, Entry, Line, ParseError};
use arbor::escape;
use rayon::prelude::*;
use std::ffi::OsStr;
use std::io::{self, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

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
    /// Mismatched lines whose 128 hex digits were checked as BLAKE3 by default.
    blake2b_like: u64,
}

/// Checks every list in `settings.files`; returns whether all listed files matched.
pub fn run(
    settings: &Settings,
    spec: &Spec,
    options: CheckOptions,
    reporter: &mut Reporter,
) -> bool {
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
        let (counts, complete) = check_list(settings, spec, options, reporter, &label, &text);
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
        super::stdio::stdin()
            .map_err(ListError::Open)?
            .read_to_end(&mut text)
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
    spec: &Spec,
    options: CheckOptions,
    reporter: &mut Reporter,
    label: &str,
    text: &[u8],
) -> (Counts, bool) {
    // `arbor sum -z` lists end each record with NUL and write names as they are.
    let end = if settings.format.zero { b'\0' } else { b'\n' };
    let mut lines: Vec<&[u8]> = text.split(|&b| b == end).collect();
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
    let progress = Progress::new(!settings.no_progress, || listed_size(settings, &lines));
    let mut counts = Counts::default();
    ordered::run(
        lines.len(),
        GROUP,
        |range, emit| {
            check_group(
                settings, spec, options, read, &progress, &lines, range, emit,
            )
        },
        |event| match event {
            ordered::Event::Ready(i, outcome) => progress.suspend(|| {
                if let Outcome::Checked(entry, false) = &outcome {
                    // 128 hex digits under the default BLAKE3: most likely a b2sum list.
                    counts.blake2b_like += u64::from(
                        !settings.algorithm_given
                            && entry.algorithm == Algorithm::Blake3
                            && entry.expected.len() == 64,
                    );
                }
                report(
                    settings.tool,
                    options,
                    reporter,
                    label,
                    i + 1,
                    outcome,
                    &mut counts,
                )
            }),
            ordered::Event::Waiting => reporter.flush(),
        },
    );
    progress.finish();
    (counts, complete)
}

/// The bytes the files listed in `lines` hold, for the progress bar, as far as they can be
/// stat'ed (`None` if standard input or a pipe is listed). The lines are parsed again when they are checked; this pass is only made when a bar
/// can be drawn, and stat'ing costs far more than parsing.
fn listed_size(settings: &Settings, lines: &[&[u8]]) -> Option<u64> {
    lines
        .par_iter()
        .map(|line| {
            match parse(settings, line) {
                // `-` is standard input, of unknown size.
                Ok(Line::Entry(entry)) if entry.path == b"-" => None,
                Ok(Line::Entry(entry)) => match std::fs::metadata(path_from_bytes(&entry.path)) {
                    Ok(m) if m.is_file() => Some(m.len()),
                    Ok(_) => None,
                    Err(_) => Some(0),
                },
                _ => Some(0),
            }
        })
        .sum()
}

/// Checks `lines[range]`, emitting each line's outcome as it is known. The files of lines with
/// the same algorithm and length (a list usually has one) are hashed together by
/// [`input::hash_files`].
#[allow(clippy::too_many_arguments)] // The run's settings, then this group's work.
fn check_group(
    settings: &Settings,
    spec: &Spec,
    options: CheckOptions,
    read: ReadOptions,
    progress: &Progress,
    lines: &[&[u8]],
    range: Range<usize>,
    emitter: &mut Emitter<Outcome>,
) {
    let mut pending = Vec::new();
    for i in range {
        match parse(settings, lines[i]) {
            Ok(Line::Entry(entry)) => {
                let line_spec = if entry.keyed && !spec.is_keyed() {
                    Err(SpecError::NeedsKey)
                } else {
                    spec.for_line(entry.algorithm, entry.expected.len() as u64)
                };
                match line_spec {
                    Ok(spec) => pending.push((i, entry, spec)),
                    Err(e) => emitter.emit(i, Outcome::Unusable(entry, e)),
                }
            }
            Ok(Line::Ignored) => emitter.emit(i, Outcome::Ignored),
            Err(e) => emitter.emit(i, Outcome::Malformed(e)),
        }
    }
    while let Some((_, _, first)) = pending.first() {
        let kind = (first.algorithm(), first.length());
        let (same, rest): (Vec<_>, Vec<_>) = pending
            .into_iter()
            .partition(|(_, _, spec)| (spec.algorithm(), spec.length()) == kind);
        pending = rest;
        let spec = same[0].2.clone();
        let mut paths = Vec::new();
        let mut entries: Vec<Option<(usize, Entry)>> = Vec::with_capacity(same.len());
        for (i, entry, _) in same {
            if entry.path == b"-" {
                emitter.flush();
                let result = input::hash_stdin(&spec, progress);
                emitter.emit(i, verdict(options, entry, result));
            } else {
                paths.push(path_from_bytes(&entry.path));
                entries.push(Some((i, entry)));
            }
        }
        let paths: Vec<(&Path, Seen)> =
            paths.iter().map(|p| (p.as_path(), Seen::Unknown)).collect();
        let mut results = ListedResults {
            emitter,
            options,
            entries,
        };
        input::hash_files(&spec, &paths, read, progress, &mut results);
    }
}

/// The results of [`input::hash_files`] for the listed files of a group, as line outcomes.
struct ListedResults<'e, 'a> {
    emitter: &'e mut Emitter<'a, Outcome>,
    options: CheckOptions,
    /// The line number and entry of each file, taken when its result comes.
    entries: Vec<Option<(usize, Entry)>>,
}

impl input::Results for ListedResults<'_, '_> {
    fn done(&mut self, index: usize, result: io::Result<Hashed>) {
        let (i, entry) = self.entries[index].take().expect("one result per file");
        self.emitter.emit(i, verdict(self.options, entry, result));
    }

    fn flush(&mut self) {
        self.emitter.flush();
    }
}

/// Parses a line of a list, or a record of a `-z` list.
fn parse(settings: &Settings, line: &[u8]) -> Result<Line, ParseError> {
    if settings.format.zero {
        checklist::parse_record(line, settings.algorithm)
    } else {
        checklist::parse_line(line, settings.algorithm, settings.tool.dialect())
    }
}

/// What the digest of a listed file, or the error in reading it, makes of its line.
fn verdict(options: CheckOptions, entry: Entry, result: io::Result<Hashed>) -> Outcome {
    match result {
        Ok(Hashed { mut digest, .. }) => {
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
                Tool::Arbor => {
                    let why = match e {
                        ParseError::Replacement => " (a name that was not UTF-8 cannot be checked)",
                        _ => "",
                    };
                    reporter.message(&format!(
                        "{label}:{line_number}: improperly formatted checksum line: {e}{why}"
                    ))
                }
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
        if counts.blake2b_like > 0 {
            reporter.message(&format!(
                "{label}: the hashes have 128 hex digits, as BLAKE2b's do (b2sum); they were \
                 checked as BLAKE3, the default: try -a blake2b"
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
