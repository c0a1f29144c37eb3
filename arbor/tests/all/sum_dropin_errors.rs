//! The error messages of the b2sum and b3sum drop-ins for awkward file names, byte for byte
//! against coreutils b2sum (which quotes names shell-style: `'a'$'\n''b'`, `"it's"`) and b3sum:
//! missing files, directories, unreadable files and check-list problems.
#![cfg(unix)] // The names include bytes that are not UTF-8, which only Unix allows.

use crate::common::*;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

/// Names that each exercise a rule of coreutils' quoting; the last is the control case.
const NAMES: &[&[u8]] = &[
    b"a\nb",
    b"a b",
    b"it's",
    b"a:b",
    b"\x01x",
    b"tab\there",
    "caf\u{e9}".as_bytes(),
    b"\xff\xfe",
    b"{",
    b"#x",
    b"x#",
    b"a\\b",
    b"$HOME",
    b"a'\xff",
    b"\x01'\x02",
    b"a\n'b",
    b"\n'",
    "\u{85}\u{2028}".as_bytes(),
    b"a\x7f",
    b"plain",
];

/// An `ab…` hash line for `name`, escaped as coreutils writes names with a newline.
fn list_line(name: &[u8], hex_len: usize) -> Vec<u8> {
    let mut line = Vec::new();
    if name.contains(&b'\n') || name.contains(&b'\\') {
        line.push(b'\\');
    }
    line.extend(std::iter::repeat_n(b'a', hex_len));
    line.extend_from_slice(b"  ");
    for &b in name {
        match b {
            b'\n' => line.extend_from_slice(b"\\n"),
            b'\\' => line.extend_from_slice(b"\\\\"),
            _ => line.push(b),
        }
    }
    line.push(b'\n');
    line
}

/// Runs `program` in `dir` under the locale `lc_all`, its own path replaced by its base name in
/// the messages (coreutils names itself by the path it was run as).
fn run_as(dir: &Path, program: &Path, lc_all: &str, args: &[OsString], stdin: &[u8]) -> Run {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", lc_all)
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let mut run: Run = child.wait_with_output().unwrap().into();
    let base = program.file_name().unwrap().to_string_lossy();
    run.stderr = run.stderr.replace(&*program.to_string_lossy(), &base);
    run.no_panic();
    run
}

/// The runs in which `name` does not exist: missing as a file, as a list and in a list, and
/// b3sum's stop at a list line that is not UTF-8. Each is the arguments and standard input.
fn cases(tool: &str, dir: &Path, name: &[u8]) -> Vec<(Vec<OsString>, Vec<u8>)> {
    let path = dir.join(crate::common::name(name));
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir(&path);
    let hex = if tool == "b2sum" { 128 } else { 64 };
    let plain =
        |args: &[&[u8]]| -> Vec<OsString> { args.iter().map(|a| crate::common::name(a)).collect() };
    let mut runs = Vec::new();
    let mut add = |args: Vec<OsString>, stdin: &[u8]| runs.push((args, stdin.to_vec()));
    // Missing, as a file and as a list, and listed in a list.
    add(plain(&[name]), b"");
    add(plain(&[b"-c", name]), b"");
    std::fs::write(dir.join("list"), list_line(name, hex)).unwrap();
    add(plain(&[b"-c", b"list"]), b"");
    if tool == "b2sum" {
        add(plain(&[b"-c", b"--ignore-missing", b"list"]), b"");
        add(plain(&[b"-c", b"-"]), &list_line(name, hex));
    }
    // b3sum stops at a list line that is not UTF-8, after reporting the lines before it.
    let mut list = list_line(b"plain", hex);
    list.extend(list_line(name, hex));
    list.extend(list_line(b"plain", hex));
    add(plain(&[b"-c", b"-"]), &list);
    runs
}

/// Compares the drop-in with the real tool on every name: the runs of [`cases`], then with the
/// name a directory, a list of rubbish, and a link to itself (unreadable: a stand-in for a file
/// without read permission that also works as root).
fn run_all(tool: &str, ours: &Path, theirs: &Path, lc_all: &str) {
    let corpus = tempfile::tempdir().unwrap();
    let dir = corpus.path();
    let mut compared = 0;
    for &name in NAMES {
        let path = dir.join(crate::common::name(name));
        let mut compare = |args: &[OsString], stdin: &[u8]| {
            let mine = run_as(dir, ours, lc_all, args, stdin);
            let real = run_as(dir, theirs, lc_all, args, stdin);
            let what = format!("{tool} {args:?} under LC_ALL={lc_all}");
            assert_eq!(mine.stderr, real.stderr, "{what}: stderr differs");
            assert_eq!(
                mine.stdout_text(),
                real.stdout_text(),
                "{what}: stdout differs"
            );
            assert_eq!(mine.code, real.code, "{what}: exit status differs");
            compared += 1;
        };
        for (args, stdin) in cases(tool, dir, name) {
            compare(&args, &stdin);
        }
        let arg = |flags: &[&str]| {
            let mut args = os(flags);
            args.push(crate::common::name(name));
            args
        };
        std::fs::create_dir(&path).unwrap();
        compare(&arg(&[]), b"");
        compare(&arg(&["-c"]), b"");
        std::fs::remove_dir(&path).unwrap();
        std::fs::write(&path, b"rubbish\n").unwrap();
        if tool == "b2sum" {
            compare(&arg(&["-c", "-w"]), b"");
            compare(&arg(&["-c"]), b"");
        } else {
            compare(&arg(&["-c"]), b"");
        }
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&path, &path).unwrap();
        compare(&arg(&[]), b"");
        compare(&arg(&["-c"]), b"");
        std::fs::remove_file(&path).unwrap();
    }
    assert!(compared > NAMES.len() * 8);
}

#[test]
fn b2sum_dropin_quotes_names_as_b2sum_does() {
    let b2sum = peer("b2sum");
    let (_link_dir, ours) = dropin("b2sum");
    // The quoting depends on the locale's character set: UTF-8 prints printable non-ASCII
    // characters, C escapes every byte outside ASCII.
    for lc_all in ["C.UTF-8", "C"] {
        run_all("b2sum", &ours, &b2sum, lc_all);
    }
}

#[test]
fn b3sum_dropin_reports_names_as_b3sum_does() {
    let b3sum = peer("b3sum");
    let (_link_dir, ours) = dropin("b3sum");
    run_all("b3sum", &ours, &b3sum, "C.UTF-8");
}
