//! Helpers shared by the `arbor` integration tests: running the binary and its peers, and a
//! corpus of awkward files.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `arbor` binary under test.
pub fn arbor_path() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arbor"))
}

/// A peer tool (`b3sum`, `b2sum`, `cksum`, `python3`) on PATH or in ~/.cargo/bin. The comparison
/// tests need it: a missing peer fails them (`scripts/setup.sh` installs the peers).
pub fn peer(name: &str) -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join(".cargo/bin"));
    }
    dirs.into_iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} is missing: scripts/setup.sh installs it"))
}

/// The result of one run.
pub struct Run {
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub code: Option<i32>,
}

impl Run {
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Asserts the run did not panic.
    pub fn no_panic(&self) -> &Run {
        assert!(!self.stderr.contains("panicked"), "panic: {}", self.stderr);
        self
    }
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code(),
        }
    }
}

/// Runs `program` in `dir` with `args` and `stdin`.
pub fn run_in(dir: &Path, program: &Path, args: &[OsString], stdin: &[u8]) -> Run {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        // b3sum's errors would carry a backtrace.
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let mut input = child.stdin.take().unwrap();
    // The program may exit before reading all of it (a bad key): ignore a closed pipe.
    let _ = input.write_all(stdin);
    drop(input);
    let run: Run = child.wait_with_output().unwrap().into();
    run.no_panic();
    run
}

/// `arbor sum ARGS` in `dir`.
pub fn arbor_sum(dir: &Path, args: &[OsString], stdin: &[u8]) -> Run {
    let mut all: Vec<OsString> = vec!["sum".into()];
    all.extend_from_slice(args);
    run_in(dir, &arbor_path(), &all, stdin)
}

/// A link to the arbor binary under the peer's name, in its own directory.
pub fn dropin(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join(name);
    std::os::unix::fs::symlink(arbor_path(), &link).unwrap();
    (dir, link)
}

/// A FIFO at `path`.
pub fn make_fifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Arguments from strings.
pub fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// A name from raw bytes.
pub fn name(bytes: &[u8]) -> OsString {
    OsStr::from_bytes(bytes).to_os_string()
}

/// Deterministic pseudo-random bytes (xorshift), so that the corpus is the same every run.
pub fn bytes(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A temporary directory of files at BLAKE2/BLAKE3 block and chunk boundaries, one large file,
/// and names with spaces, backslashes, newlines, carriage returns and non-UTF-8 bytes.
pub struct Corpus {
    pub dir: tempfile::TempDir,
    /// Every file name, in creation order.
    pub names: Vec<OsString>,
}

/// Names that are not valid UTF-8 (b3sum prints them lossily, coreutils as bytes).
pub const NON_UTF8: &[u8] = b"bad-\xff\xfe.bin";

impl Corpus {
    pub fn new(large: bool) -> Corpus {
        let dir = tempfile::tempdir().unwrap();
        let mut files: Vec<(Vec<u8>, usize)> = [0, 1, 64, 128, 1023, 1024, 1025, 4096, 16385]
            .iter()
            .map(|&n| (format!("size-{n}").into_bytes(), n))
            .collect();
        if large {
            files.push((b"large-20MiB".to_vec(), 20 << 20));
        }
        files.extend([
            (b"with space  two.txt".to_vec(), 100),
            (b"back\\slash".to_vec(), 200),
            (b"new\nline".to_vec(), 300),
            (b"carriage\rreturn".to_vec(), 400),
            ("caf\u{e9}-\u{65e5}\u{672c}.txt".as_bytes().to_vec(), 500),
            (b"paren) = x".to_vec(), 20000),
            (NON_UTF8.to_vec(), 600),
        ]);
        let mut names = Vec::new();
        for (i, (file_name, len)) in files.into_iter().enumerate() {
            let file_name = name(&file_name);
            std::fs::write(dir.path().join(&file_name), bytes(len, i as u64 + 1)).unwrap();
            names.push(file_name);
        }
        Corpus { dir, names }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// The names that are valid UTF-8.
    pub fn utf8_names(&self) -> Vec<OsString> {
        self.names
            .iter()
            .filter(|n| n.to_str().is_some())
            .cloned()
            .collect()
    }
}

/// `args` followed by `names`.
pub fn with_names(args: &[&str], names: &[OsString]) -> Vec<OsString> {
    let mut all = os(args);
    all.extend_from_slice(names);
    all
}
