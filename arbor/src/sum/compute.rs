//! Hash mode: hash every input and print one line each, in the order given (directories under
//! `-r` in sorted order). Inputs are hashed in parallel batches; a failed input is reported and the
//! others go on.

use super::input::{self, ReadOptions};
use super::output::{coreutils_error, coreutils_quote, Reporter};
use super::progress::Progress;
use super::walk;
use super::{Settings, Tool};
use arbor::algorithm::{Digest, Spec};
use rayon::prelude::*;
use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

/// Inputs hashed at a time; their lines are printed before the next batch starts, so output
/// streams and memory stays bounded on huge trees.
const BATCH: usize = 1024;

/// Inputs one thread takes at a time; its small files are hashed together in SIMD lanes.
const GROUP: usize = 64;

enum Item {
    Stdin,
    File(PathBuf),
    /// An input already known to fail, with its message.
    Failed(PathBuf, String),
}

/// Hashes `settings.files`; returns whether every input was hashed and printed faithfully.
pub fn run(settings: &Settings, spec: &Spec, reporter: &mut Reporter) -> bool {
    let items = collect_items(settings);
    let progress = Progress::new(|| total_size(&items));
    let options = ReadOptions {
        no_mmap: settings.no_mmap,
    };
    // Batched digests are fixed-length, so b3sum's --seek takes the one-by-one path.
    let batching = settings.seek == 0;
    let mut ok = true;
    for batch in items.chunks(BATCH) {
        let results: Vec<Option<io::Result<Digest>>> = batch
            .par_chunks(GROUP)
            .flat_map_iter(|group| hash_group(spec, options, &progress, batching, group))
            .collect();
        progress.suspend(|| {
            for (item, result) in batch.iter().zip(results) {
                ok &= print_result(settings, spec, reporter, item, result);
            }
        });
    }
    progress.finish();
    ok
}

/// Hashes a group of inputs in order; with `batching`, its files go through
/// [`input::hash_files`] together. Failed items get `None`.
fn hash_group(
    spec: &Spec,
    options: ReadOptions,
    progress: &Progress,
    batching: bool,
    group: &[Item],
) -> Vec<Option<io::Result<Digest>>> {
    let mut results = Vec::with_capacity(group.len());
    let mut files = Vec::new();
    for (i, item) in group.iter().enumerate() {
        results.push(match item {
            Item::Stdin => Some(input::hash_stdin(spec, progress)),
            Item::File(path) if batching => {
                files.push((i, path.as_path()));
                None
            }
            Item::File(path) => Some(input::hash_file(spec, path, options, progress)),
            Item::Failed(..) => None,
        });
    }
    let paths: Vec<&Path> = files.iter().map(|(_, path)| *path).collect();
    for ((i, _), result) in files
        .iter()
        .zip(input::hash_files(spec, &paths, options, progress))
    {
        results[*i] = Some(result);
    }
    results
}

fn collect_items(settings: &Settings) -> Vec<Item> {
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
                let found = walk::walk(&path);
                for (dir, e) in found.errors {
                    items.push(Item::Failed(dir, e.to_string()));
                }
                items.extend(found.files.into_iter().map(Item::File));
            } else {
                items.push(Item::Failed(
                    path,
                    "Is a directory (use -r/--recursive to hash the files under it)".into(),
                ));
            }
        } else {
            items.push(Item::File(path));
        }
    }
    items
}

/// The bytes to hash, for the progress bar, as far as the files can be stat'ed.
fn total_size(items: &[Item]) -> u64 {
    items
        .par_iter()
        .map(|item| match item {
            Item::File(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

fn print_result(
    settings: &Settings,
    spec: &Spec,
    reporter: &mut Reporter,
    item: &Item,
    result: Option<io::Result<Digest>>,
) -> bool {
    let name: &OsStr = match item {
        Item::Stdin => OsStr::new("-"),
        Item::File(path) | Item::Failed(path, _) => path.as_os_str(),
    };
    let bytes = name.as_encoded_bytes();
    match (item, result) {
        (_, Some(Ok(mut digest))) => {
            digest.seek(settings.seek);
            let faithful = reporter.put_hash_line(spec, settings.format, &mut digest, bytes);
            if !faithful && settings.tool == Tool::Arbor {
                reporter.message(&format!(
                    "{}: the name is not valid UTF-8; it was printed with U+FFFD in place of the \
                     invalid bytes, so its line cannot be checked (-z prints names as they are)",
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

fn report_error(reporter: &mut Reporter, name: &[u8], e: &io::Error) {
    let message = match reporter.tool() {
        Tool::B2sum => format!("{}: {}", coreutils_quote(name), coreutils_error(e)),
        _ => format!("{}: {e}", String::from_utf8_lossy(name)),
    };
    reporter.message(&message);
}
