//! Bad input to `arbor sum`: each case gives a message naming the path or the flag, the other
//! files are still processed, the exit status is non-zero, and nothing panics.
#![cfg(unix)] // The corpus needs names that are not UTF-8, which only Unix allows.

use crate::common::*;
use std::io::Read;
use std::process::{Command, Stdio};

fn assert_error(run: &Run, mentions: &[&str]) {
    assert_ne!(
        run.code,
        Some(0),
        "expected failure; stderr: {}",
        run.stderr
    );
    for m in mentions {
        assert!(run.stderr.contains(m), "stderr lacks {m:?}: {}", run.stderr);
    }
}

#[test]
fn missing_files_and_directories_are_reported_and_skipped() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    std::fs::create_dir(dir.join("a-dir")).unwrap();
    let run = arbor_sum(
        dir,
        &os(&["size-1", "no-such-file", "a-dir", "size-64"]),
        b"",
    );
    assert_error(
        &run,
        &["no-such-file: No such file", "a-dir: Is a directory", "-r"],
    );
    let out = run.stdout_text();
    assert!(
        out.contains("  size-1\n") && out.contains("  size-64\n"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn unreadable_files_are_reported() {
    use std::os::unix::fs::PermissionsExt;
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let locked = dir.join("locked");
    std::fs::write(&locked, b"secret").unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_ok() {
        eprintln!("note: running as root, permissions do not stop reads; skipping");
        return;
    }
    let run = arbor_sum(dir, &os(&["locked", "size-1"]), b"");
    assert_error(&run, &["locked: Permission denied"]);
    assert_eq!(run.stdout_text().lines().count(), 1);
}

#[test]
fn non_utf8_names_are_flagged() {
    let corpus = Corpus::new(false);
    let run = arbor_sum(corpus.path(), &[name(NON_UTF8), "size-1".into()], b"");
    assert_error(&run, &["bad-\u{FFFD}\u{FFFD}.bin", "not valid UTF-8"]);
    assert_eq!(run.stdout_text().lines().count(), 2);
    // With -z the name is printed as it is, and nothing is wrong.
    let run = arbor_sum(corpus.path(), &[name(b"-z"), name(NON_UTF8)], b"");
    assert_eq!(run.code, Some(0));
    assert!(run.stdout.ends_with(b"  bad-\xff\xfe.bin\0"));
}

#[test]
fn keys_of_the_wrong_length_are_refused() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    for (algorithm, key_len) in [
        ("blake3", 31),
        ("blake3", 33),
        ("blake2b", 65),
        ("blake2s", 33),
        ("blake2b", 0),
    ] {
        let run = arbor_sum(
            dir,
            &os(&["--keyed", "-a", algorithm, "size-1"]),
            &bytes(key_len, 1),
        );
        assert_error(&run, &["--keyed", algorithm]);
        assert!(run.stdout.is_empty());
    }
    for (algorithm, key_len) in [
        ("blake2b", 1),
        ("blake2b", 64),
        ("blake2s", 32),
        ("blake2sp", 5),
    ] {
        let run = arbor_sum(
            dir,
            &os(&["--keyed", "-a", algorithm, "size-1"]),
            &bytes(key_len, 1),
        );
        assert_eq!(run.code, Some(0), "{algorithm} {key_len}: {}", run.stderr);
    }
    let run = arbor_sum(dir, &os(&["--keyed", "-"]), &bytes(32, 1));
    assert_error(&run, &["-: Cannot open `-` in keyed mode"]);
}

#[test]
fn bad_flags_name_the_flag() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    for (args, mentions) in [
        (
            &["-a", "blake2b", "-l", "65", "size-1"][..],
            &["--length", "65", "blake2b"][..],
        ),
        (
            &["-a", "blake2s", "-l", "0", "size-1"][..],
            &["--length", "blake2s"][..],
        ),
        (&["-a", "md5", "size-1"][..], &["--algorithm", "md5"][..]),
        (
            &["-a", "tz", "-l", "32", "size-1"][..],
            &["--length", "tz", "exactly 64"][..],
        ),
        (
            &["-a", "blake2b", "--derive-key", "x", "size-1"][..],
            &["--derive-key"][..],
        ),
        (&["-l", "x", "size-1"][..], &["--length"][..]),
        (&["--raw", "size-1", "size-64"][..], &["--raw"][..]),
    ] {
        let run = arbor_sum(dir, &os(args), b"");
        assert_error(&run, mentions);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn malformed_and_truncated_lists_are_reported() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let good = arbor_sum(dir, &os(&["size-1", "size-64"]), b"").stdout;
    // A list cut in the middle of its last hash, then a line of rubbish.
    let mut list = good.clone();
    list.extend_from_slice(&good[..40]);
    std::fs::write(dir.join("truncated"), &list).unwrap();
    let run = arbor_sum(dir, &os(&["-c", "truncated"]), b"");
    assert_error(
        &run,
        &[
            "truncated:3:",
            "improperly formatted",
            "1 line is improperly formatted",
        ],
    );
    assert_eq!(run.stdout_text().matches(": OK").count(), 2);
    let mut list = b"BLAKE9 (x) = 00\n\\00  a\\q\n".to_vec();
    list.extend_from_slice(&good);
    std::fs::write(dir.join("rubbish"), &list).unwrap();
    let run = arbor_sum(dir, &os(&["-c", "rubbish", "no-such-list"]), b"");
    assert_error(
        &run,
        &[
            "rubbish:1:",
            "BLAKE9",
            "rubbish:2:",
            "escape",
            "no-such-list: No such file",
        ],
    );
    assert_eq!(run.stdout_text().matches(": OK").count(), 2);
    // A list with nothing to check, and a missing listed file.
    let run = arbor_sum(dir, &os(&["-c", "size-1"]), b"");
    assert_error(
        &run,
        &["size-1: no properly formatted checksum lines found"],
    );
    let mut list = good.clone();
    list.extend_from_slice(format!("{}  gone\n", "00".repeat(32)).as_bytes());
    let run = arbor_sum(dir, &os(&["-c", "-"]), &list);
    assert_error(&run, &["1 listed file could not be read"]);
    assert!(run.stdout_text().contains("gone: FAILED (No such file"));
    let run = arbor_sum(dir, &os(&["-c", "--ignore-missing", "-"]), &list);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Tillich-Zémor lines are checked like the others; it has no keyed mode.
    let list = arbor_sum(
        dir,
        &os(&["--tag", "-a", "tz", "size-1", "size-16385"]),
        b"",
    )
    .stdout;
    assert!(list.starts_with(b"TZ (size-1) = "));
    let run = arbor_sum(dir, &os(&["-c", "-"]), &list);
    assert_eq!(
        (run.code, run.stdout_text().matches(": OK").count()),
        (Some(0), 2)
    );
    let run = arbor_sum(dir, &os(&["--keyed", "-a", "tz", "size-1"]), &[0; 32]);
    assert_error(&run, &["--keyed", "tz has no keyed mode"]);
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    for i in 0..2000 {
        std::fs::write(dir.join(format!("f{i}")), b"x").unwrap();
    }
    let mut child = Command::new(arbor_path())
        .args(["sum", "-r", "."])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is now closed.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    // The status a shell shows for a process ended by SIGPIPE.
    assert_eq!(out.status.code(), Some(141));
}
