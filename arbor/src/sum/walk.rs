//! `-r/--recursive` and `--manifest`: the regular files under a directory, found in parallel, in
//! byte order of their paths.
//!
//! Links to directories are never followed, so that a link cycle cannot loop; devices, pipes and
//! sockets are skipped, since reading them could block forever. Links to files are hashed under
//! `-r` ([`Links::Follow`]) and skipped by `--manifest` ([`Links::Skip`]).

use rayon::prelude::*;
use std::cmp::Ordering;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What a walk does with symbolic links and special files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// `-r`: a link to a file is hashed as that file (a dangling one, or a loop of links, fails
    /// when opened); links to anything else and special files are left out silently.
    Follow,
    /// `-r --skip-broken-links`: as `Follow`, but dangling links and loops of links are left
    /// out with a warning.
    FollowSkipBroken,
    /// `--manifest`: links and special files are left out, each with a warning.
    Skip,
}

/// What a walk found.
#[derive(Default)]
pub struct Walk {
    /// Files in byte order of their paths.
    pub files: Vec<PathBuf>,
    /// Directories that could not be read, with the reason.
    pub errors: Vec<(PathBuf, io::Error)>,
    /// Entries left out with a warning, with the reason, in byte order of their paths.
    pub skipped: Vec<(PathBuf, &'static str)>,
}

/// Walks the tree under `root`.
pub fn walk(root: &Path, links: Links) -> Walk {
    let mut walk = walk_dir(root, links);
    walk.errors.sort_by(|a, b| a.0.cmp(&b.0));
    walk.skipped.sort_by(|a, b| a.0.cmp(&b.0));
    walk
}

/// A file or subdirectory found in a directory.
struct Found {
    path: PathBuf,
    /// Where the entry's own name starts in `path`.
    name_at: usize,
    dir: bool,
}

impl Found {
    fn name(&self) -> &[u8] {
        &self.path.as_os_str().as_encoded_bytes()[self.name_at..]
    }

    /// The order of the entries' paths and of every path under them: all paths in a directory
    /// share its prefix, and a subdirectory's paths continue its name with `/`. So sorting each
    /// directory by these keys and concatenating yields the byte order of the full paths, with
    /// short comparisons instead of a sort of every path.
    fn cmp_key(&self, other: &Found) -> Ordering {
        let (a, b) = (self.name(), other.name());
        let common = a.len().min(b.len());
        a[..common].cmp(&b[..common]).then_with(|| {
            // One name is a prefix of the other (or they are equal): compare what follows it,
            // nothing for a file and `/` for a directory.
            let next = |name: &[u8], dir: bool| name.get(common).copied().or(dir.then_some(b'/'));
            next(a, self.dir).cmp(&next(b, other.dir))
        })
    }
}

fn walk_dir(dir: &Path, links: Links) -> Walk {
    let mut walk = Walk::default();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            walk.errors.push((dir.to_path_buf(), e));
            return walk;
        }
    };
    let mut found = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                walk.errors.push((dir.to_path_buf(), e));
                continue;
            }
        };
        // `DirEntry::path` copies the directory's path and then grows it: allocate once instead.
        let name = entry.file_name();
        let mut path = PathBuf::with_capacity(dir.as_os_str().len() + 1 + name.len());
        path.push(dir);
        path.push(&name);
        let name_at = path.as_os_str().len() - name.len();
        let dir = match entry.file_type() {
            Ok(t) if t.is_dir() => true,
            Ok(t) if t.is_file() => false,
            Ok(t) if t.is_symlink() && links == Links::Skip => {
                walk.skipped.push((path, "a symbolic link, not followed"));
                continue;
            }
            // A link counts as the file it points to; a broken one is listed so that its error
            // is reported when it is hashed.
            Ok(t) if t.is_symlink() => match fs::metadata(&path) {
                Ok(target) if !target.is_file() => continue,
                Err(_) if links == Links::FollowSkipBroken => {
                    walk.skipped
                        .push((path, "a dangling symbolic link or a loop of links"));
                    continue;
                }
                _ => false,
            },
            Ok(_) if links == Links::Skip => {
                walk.skipped.push((path, "not a regular file"));
                continue;
            }
            Ok(_) => continue,
            Err(e) => {
                walk.errors.push((path, e));
                continue;
            }
        };
        found.push(Found { path, name_at, dir });
    }
    found.sort_unstable_by(Found::cmp_key);
    let subdirs: Vec<&Path> = found.iter().filter(|f| f.dir).map(|f| &*f.path).collect();
    let below: Vec<Walk> = match subdirs.len() {
        0 => Vec::new(),
        // Leaves and chains of single subdirectories need no parallel split.
        1 => vec![walk_dir(subdirs[0], links)],
        _ => subdirs.par_iter().map(|d| walk_dir(d, links)).collect(),
    };
    let mut below = below.into_iter();
    for f in found {
        if f.dir {
            let sub = below.next().expect("one walk per subdirectory");
            walk.files.extend(sub.files);
            walk.errors.extend(sub.errors);
            walk.skipped.extend(sub.skipped);
        } else {
            walk.files.push(f.path);
        }
    }
    walk
}
