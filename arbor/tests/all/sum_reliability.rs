//! `arbor sum` and its drop-in modes under hostile conditions: a file truncated while it is
//! memory-mapped and hashed, a FIFO among the inputs, closed or full standard descriptors, and
//! absurd thread counts. The program never dies of a signal, names the failing input, and prints
//! the other inputs' lines.
#![cfg(unix)]

use crate::common::*;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Large enough to be memory-mapped and to take milliseconds to hash.
const BIG: usize = 16 << 20;

/// Runs `program args` on `small-a big small-z` while the test truncates `big` after a delay that
/// varies from try to try; returns how many tries saw the truncation reported.
fn truncate_while_hashing(program: &Path, args: &[&str], tries: u32, max_delay_ms: u64) -> u32 {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("small-a"), b"first").unwrap();
    std::fs::write(dir.join("small-z"), b"last").unwrap();
    let content = bytes(BIG, 7);
    let mut reported = 0;
    for attempt in 0..tries {
        let big = dir.join("big");
        std::fs::write(&big, &content).unwrap();
        let child = Command::new(program)
            .args(args)
            .args(["small-a", "big", "small-z"])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let delay = 1 + u64::from(attempt) * max_delay_ms / u64::from(tries);
        std::thread::sleep(Duration::from_millis(delay));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&big)
            .unwrap()
            .set_len(4096)
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let context = format!("{program:?} {args:?}, try {attempt}: {stdout}{stderr}");
        assert_eq!(out.status.signal(), None, "killed by a signal: {context}");
        assert!(!stderr.contains("panicked"), "{context}");
        assert!(
            stdout.contains("small-a") && stdout.contains("small-z"),
            "lost lines: {context}"
        );
        if stdout.contains(" big") || stdout.contains("(big)") {
            // Hashed before or after the truncation, whole: nothing to report.
            assert_eq!(out.status.code(), Some(0), "{context}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{context}");
            assert!(
                stderr.contains("big") && stderr.contains("while it was hashed"),
                "{context}"
            );
            reported += 1;
        }
    }
    reported
}

#[test]
fn a_file_truncated_while_it_is_hashed_is_an_error_not_a_crash() {
    let (_links, b3sum) = dropin("b3sum");
    let (_links2, b2sum) = dropin("b2sum");
    let arbor = arbor_path();
    let cases: [(&Path, &[&str], u64); 4] = [
        (&arbor, &["sum"], 12),
        (&arbor, &["sum", "-a", "blake2b"], 30),
        (&b3sum, &[], 12),
        (&b2sum, &[], 30),
    ];
    let mut reported = 0;
    for (program, args, max_delay) in cases {
        reported += truncate_while_hashing(program, args, 12, max_delay);
    }
    eprintln!("{reported} of 48 tries saw the truncation");
    assert!(reported > 0, "no try caught the file while it was hashed");
}

#[test]
fn lines_before_a_slow_input_are_printed_at_once() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("before"), b"x").unwrap();
    std::fs::write(dir.join("after"), b"y").unwrap();
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    let mut child = spawn_arbor(dir, &["sum", "before", "fifo", "after"]);
    let (lines, received) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let _ = lines.send(line.unwrap());
        }
    });
    let first = received.recv_timeout(Duration::from_secs(20));
    if first.is_err() {
        // Not left blocked on the FIFO after the test.
        let _ = child.kill();
    }
    let first = first.expect("the first line waits for the FIFO");
    assert!(first.ends_with("  before"), "{first}");
    std::fs::write(&fifo, b"through the fifo").unwrap();
    let rest: Vec<String> = received.iter().collect();
    assert!(child.wait().unwrap().success());
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert!(rest[0].ends_with("  fifo") && rest[1].ends_with("  after"));
}

#[test]
fn a_fifo_whose_writer_writes_at_once_is_read_whole() {
    // Looking at a FIFO by opening it would connect the writer early: its write could then meet a
    // closed pipe, or finish before arbor opened the FIFO again and left it waiting forever.
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    let data = bytes(20_000, 3);
    let expected = format!("{}  fifo\n", arborhash::blake3::hash(&data).to_hex());
    for _ in 0..20 {
        let writer = {
            let (fifo, data) = (fifo.clone(), data.clone());
            std::thread::spawn(move || std::fs::write(fifo, data))
        };
        let mut child = spawn_arbor(dir, &["sum", "fifo"]);
        let (done, finished) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = done.send(line);
        });
        let line = finished.recv_timeout(Duration::from_secs(20));
        if line.is_err() {
            let _ = child.kill();
            // Releases a writer still waiting to open the FIFO.
            let _ = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&fifo);
        }
        assert_eq!(line.expect("arbor waits on the FIFO"), expected);
        assert!(child.wait().unwrap().success());
        writer
            .join()
            .unwrap()
            .expect("the writer met a closed pipe");
    }
}

/// Starts `arbor args` in `dir` with its standard output piped.
fn spawn_arbor(dir: &Path, args: &[&str]) -> std::process::Child {
    Command::new(arbor_path())
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `command` in `sh` in `dir`, with `ARBOR`, `B2SUM` and `B3SUM` set.
fn shell(dir: &Path, command: &str, links: &Path) -> Run {
    Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("ARBOR", arbor_path())
        .env("B2SUM", links.join("b2sum"))
        .env("B3SUM", links.join("b3sum"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
        .into()
}

fn links() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for name in ["b2sum", "b3sum"] {
        std::os::unix::fs::symlink(arbor_path(), dir.path().join(name)).unwrap();
    }
    let path = dir.path().to_path_buf();
    (dir, path)
}

#[test]
fn closed_and_full_standard_descriptors_are_errors() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("file"), b"data").unwrap();
    let (_keep, links) = links();
    for (command, message) in [
        (
            "\"$ARBOR\" sum file >&-",
            "arbor: write error: Bad file descriptor",
        ),
        (
            "\"$B3SUM\" file >&-",
            "b3sum: write error: Bad file descriptor",
        ),
        (
            "\"$B2SUM\" file >&-",
            "b2sum: write error: Bad file descriptor",
        ),
        (
            "\"$ARBOR\" sum file >/dev/full",
            "arbor: write error: No space left on device",
        ),
        // coreutils gives the reason only for a closed descriptor.
        ("\"$B2SUM\" file >/dev/full", "b2sum: write error\n"),
        ("\"$ARBOR\" sum - <&-", "-: Bad file descriptor"),
        ("\"$B2SUM\" - <&-", "b2sum: -: Bad file descriptor"),
        ("\"$ARBOR\" sum -c - <&-", "-: Bad file descriptor"),
    ] {
        let run = shell(dir, command, &links);
        assert_eq!(run.code, Some(1), "{command}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{command}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{command}");
    }
    // Coreutils words these the same way.
    peer("b2sum");
    for command in ["b2sum file >&-", "b2sum - <&-", "b2sum file >/dev/full"] {
        let ours = shell(dir, &command.replace("b2sum", "\"$B2SUM\""), &links);
        // coreutils names itself by the path it was run as.
        let ours_stderr = ours
            .stderr
            .replace(&*links.join("b2sum").to_string_lossy(), "b2sum");
        let theirs = shell(dir, command, &links);
        assert_eq!(
            (ours.code, &ours_stderr),
            (theirs.code, &theirs.stderr),
            "{command}"
        );
    }
    // Nothing written, nothing wrong (coreutils too).
    let run = shell(dir, "\"$ARBOR\" sum -c --status /dev/null >&-", &links);
    assert!(!run.stderr.contains("write error"), "{}", run.stderr);
}

#[test]
fn thread_counts_are_capped_with_a_warning() {
    let temp = tempfile::tempdir().unwrap();
    std::fs::write(temp.path().join("file"), bytes(1 << 20, 3)).unwrap();
    let expected = arbor_sum(temp.path(), &os(&["file"]), b"");
    let run = arbor_sum(temp.path(), &os(&["--num-threads", "5000", "file"]), b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains("--num-threads 5000 is more than"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout, expected.stdout);
}
