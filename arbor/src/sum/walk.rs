//! `-r/--recursive`: the regular files under a directory, found in parallel and sorted by name.
//!
//! Symbolic links to files are hashed; links to directories are not followed, so that a link
//! cycle cannot loop. Devices, pipes and sockets are skipped: reading them could block forever.

use rayon::prelude::*;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a walk found.
#[derive(Default)]
pub struct Walk {
    /// Files in byte order of their paths.
    pub files: Vec<PathBuf>,
    /// Directories that could not be read, with the reason.
    pub errors: Vec<(PathBuf, io::Error)>,
}

/// Walks the tree under `root`.
pub fn walk(root: &Path) -> Walk {
    let mut walk = walk_dir(root);
    walk.files.par_sort_unstable_by(|a, b| {
        a.as_os_str()
            .as_encoded_bytes()
            .cmp(b.as_os_str().as_encoded_bytes())
    });
    walk.errors.sort_by(|a, b| a.0.cmp(&b.0));
    walk
}

fn walk_dir(dir: &Path) -> Walk {
    let mut walk = Walk::default();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            walk.errors.push((dir.to_path_buf(), e));
            return walk;
        }
    };
    let mut subdirs = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                walk.errors.push((dir.to_path_buf(), e));
                continue;
            }
        };
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => subdirs.push(path),
            Ok(t) if t.is_file() => walk.files.push(path),
            // A link counts as the file it points to; a broken one is listed so that its error
            // is reported when it is hashed.
            Ok(t) if t.is_symlink() => match fs::metadata(&path) {
                Ok(target) if !target.is_file() => {}
                _ => walk.files.push(path),
            },
            Ok(_) => {}
            Err(e) => walk.errors.push((path, e)),
        }
    }
    let below: Vec<Walk> = subdirs.par_iter().map(|d| walk_dir(d)).collect();
    for sub in below {
        walk.files.extend(sub.files);
        walk.errors.extend(sub.errors);
    }
    walk
}
