//! Hash mode: hash every input and print one line each, in the order given (directories under
//! `-r` in sorted order). Inputs are hashed in parallel, each line printed as soon as the lines
//! before it are; a failed input is reported and the others go on.

use super::input::{self, Hashed, ReadOptions, Seen};
use super::ordered::{self, Emitter};
use super::output::{coreutils_error, coreutils_quote, Reporter};
use super::progress::Progress;
use super::walk;
use super::{Settings, Tool};
use arbor::algorithm::{Digest, Spec};
use arbor::escape::Style;
use rayon::prelude::*;
use std::ffi::OsStr;
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Inputs one thread takes at a time; its small files are hashed together in SIMD lanes.
const GROUP: usize = 64;

enum Item {
    Stdin,
    File(PathBuf, Seen),
    /// An input already known to fail, with its message.
    Failed(PathBuf, String),
}

/// Hashes `settings.files`; returns whether every input was hashed and printed faithfully. Lines
/// are printed in order as soon as each input is hashed.
pub fn run(settings: &Settings, spec: &Spec, reporter: &mut Reporter) -> bool {
    let items = collect_items(settings, reporter);
    let progress = Progress::new(!settings.no_progress, || total_size(&items));
    let options = ReadOptions {
        no_mmap: settings.no_mmap,
    };
    // Batched digests are fixed-length, so b3sum's --seek takes the one-by-one path.
    let batching = settings.seek == 0;
    let mut ok = true;
    ordered::run(
        items.len(),
        GROUP,
        |range, emit| hash_group(spec, options, &progress, batching, &items, range, emit),
        |event| match event {
            ordered::Event::Ready(i, result) => {
                progress.suspend(|| {
                    ok &= print_result(settings, spec, reporter, &items[i], result);
                });
            }
            ordered::Event::Waiting => reporter.flush(),
        },
    );
    progress.finish();
    ok
}

/// Hashes `items[range]`, emitting each result as it is ready; with `batching`, the files go
/// through [`input::hash_files`] together. Failed items get `None`.
fn hash_group(
    spec: &Spec,
    options: ReadOptions,
    progress: &Progress,
    batching: bool,
    items: &[Item],
    range: Range<usize>,
    emitter: &mut Emitter<Option<io::Result<Hashed>>>,
) {
    let mut files = Vec::new();
    let mut paths = Vec::new();
    for i in range {
        match &items[i] {
            Item::Stdin => {
                emitter.flush();
                emitter.emit(i, Some(input::hash_stdin(spec, progress)));
            }
            Item::File(path, seen) if batching => {
                files.push(i);
                paths.push((path.as_path(), *seen));
            }
            Item::File(path, seen) => {
                emitter.flush();
                let result = input::hash_file(spec, path, *seen, options, progress);
                emitter.emit(i, Some(result));
            }
            Item::Failed(..) => emitter.emit(i, None),
        }
    }
    input::hash_files(
        spec,
        &paths,
        options,
        progress,
        &mut GroupResults {
            emitter,
            files: &files,
        },
    );
}

/// The results of [`input::hash_files`] for the files of a group, at their places in the run.
struct GroupResults<'e, 'a> {
    emitter: &'e mut Emitter<'a, Option<io::Result<Hashed>>>,
    /// The index in the run of each file.
    files: &'e [usize],
}

impl input::Results for GroupResults<'_, '_> {
    fn done(&mut self, index: usize, result: io::Result<Hashed>) {
        self.emitter.emit(self.files[index], Some(result));
    }

    fn flush(&mut self) {
        self.emitter.flush();
    }
}

/// The files of a manifest, or the root's error; links and special files are reported skipped.
fn manifest_items(root: &Path, reporter: &mut Reporter) -> Vec<Item> {
    if !root.is_dir() {
        let reason = match std::fs::metadata(root) {
            Ok(_) => "Not a directory (--manifest takes a directory)".to_string(),
            Err(e) => e.to_string(),
        };
        return vec![Item::Failed(root.to_path_buf(), reason)];
    }
    let found = walk::walk(root, walk::Links::Skip);
    for (path, reason) in &found.skipped {
        reporter.message(&format!("{}: skipped: {reason}", path.display()));
    }
    let mut items: Vec<Item> = found
        .errors
        .into_iter()
        .map(|(dir, e)| Item::Failed(dir, e.to_string()))
        .collect();
    items.extend(
        found
            .files
            .into_iter()
            .map(|f| Item::File(f, Seen::Regular)),
    );
    items
}

fn collect_items(settings: &Settings, reporter: &mut Reporter) -> Vec<Item> {
    if settings.manifest {
        return manifest_items(Path::new(&settings.files[0]), reporter);
    }
    let mut items = Vec::with_capacity(settings.files.len());
    for arg in &settings.files {
        let path = PathBuf::from(arg);
        if arg == "-" {
            items.push(if settings.keyed {
                // The key came from standard input, so it is spent.
                Item::Failed(path, "Cannot open `-` in keyed mode".into())
            } else {
                Item::Stdin
            });
        } else if settings.tool == Tool::Arbor && path.is_dir() {
            if settings.recursive {
                let links = if settings.skip_broken_links {
                    walk::Links::FollowSkipBroken
                } else {
                    walk::Links::Follow
                };
                let found = walk::walk(&path, links);
                for (path, reason) in &found.skipped {
                    reporter.message(&format!("{}: skipped: {reason}", path.display()));
                }
                for (dir, e) in found.errors {
                    items.push(Item::Failed(dir, e.to_string()));
                }
                items.extend(
                    found
                        .files
                        .into_iter()
                        .map(|f| Item::File(f, Seen::Regular)),
                );
            } else {
                items.push(Item::Failed(
                    path,
                    "Is a directory (use -r/--recursive to hash the files under it)".into(),
                ));
            }
        } else {
            items.push(Item::File(path, Seen::Unknown));
        }
    }
    items
}

/// The bytes to hash, for the progress bar, as far as the files can be stat'ed; `None` when
/// standard input, a pipe or a device is among them.
fn total_size(items: &[Item]) -> Option<u64> {
    items
        .par_iter()
        .map(|item| match item {
            Item::Stdin => None,
            Item::File(path, _) => match std::fs::metadata(path) {
                Ok(m) if m.is_file() => Some(m.len()),
                Ok(_) => None,
                Err(_) => Some(0),
            },
            Item::Failed(..) => Some(0),
        })
        .sum()
}

fn print_result(
    settings: &Settings,
    spec: &Spec,
    reporter: &mut Reporter,
    item: &Item,
    result: Option<io::Result<Hashed>>,
) -> bool {
    let name: &OsStr = match item {
        Item::Stdin => OsStr::new("-"),
        Item::File(path, _) | Item::Failed(path, _) => path.as_os_str(),
    };
    let bytes = name.as_encoded_bytes();
    match (item, result) {
        (_, Some(Ok(Hashed { mut digest, size }))) if settings.json => {
            put_json_line(reporter, spec, bytes, &mut digest, size);
            true
        }
        (Item::File(path, _), Some(Ok(Hashed { mut digest, .. }))) if settings.manifest => {
            // Names relative to the root, as bytes, escaped as coreutils does.
            let root = Path::new(&settings.files[0]);
            let relative = path
                .strip_prefix(root)
                .expect("walked paths are under the root");
            let listed = relative.as_os_str().as_encoded_bytes();
            reporter.put_hash_line(spec, settings.format, Style::Coreutils, &mut digest, listed)
        }
        (_, Some(Ok(Hashed { mut digest, .. }))) => {
            digest.seek(settings.seek);
            let style = settings.tool.style();
            let faithful = reporter.put_hash_line(spec, settings.format, style, &mut digest, bytes);
            if !faithful && settings.tool == Tool::Arbor {
                reporter.message(&format!(
                    "{}: the name is not valid UTF-8; it was printed with U+FFFD in place of the \
                     invalid bytes, so its line cannot be checked (-z prints names as they are, and \
                     arbor sum -c -z checks such lists)",
                    name.to_string_lossy()
                ));
            }
            faithful || settings.tool != Tool::Arbor
        }
        (_, Some(Err(e))) => {
            report_error(reporter, bytes, &e);
            false
        }
        (Item::Failed(_, message), None) => {
            reporter.message(&format!("{}: {message}", name.to_string_lossy()));
            false
        }
        (_, None) => unreachable!("only failed items have no result"),
    }
}

/// `{"path": .., "algorithm": .., "hash": .., "size": ..}` and a newline. A path that is not
/// UTF-8 becomes `{"bytes": [..]}`, so that no name is lost.
fn put_json_line(
    reporter: &mut Reporter,
    spec: &Spec,
    name: &[u8],
    digest: &mut Digest,
    size: u64,
) {
    let path = match std::str::from_utf8(name) {
        Ok(text) => serde_json::Value::from(text),
        Err(_) => serde_json::json!({ "bytes": name }),
    };
    reporter.put(
        format!(
            "{{\"path\":{path},\"algorithm\":\"{}\",\"hash\":\"",
            spec.algorithm()
        )
        .as_bytes(),
    );
    reporter.put_hex(digest, spec.length());
    reporter.put(format!("\",\"size\":{size}}}\n").as_bytes());
}

fn report_error(reporter: &mut Reporter, name: &[u8], e: &io::Error) {
    let message = match reporter.tool() {
        Tool::B2sum => format!("{}: {}", coreutils_quote(name), coreutils_error(e)),
        _ => format!("{}: {e}", String::from_utf8_lossy(name)),
    };
    reporter.message(&message);
}
