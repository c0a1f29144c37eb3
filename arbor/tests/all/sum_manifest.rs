//! `arbor sum --manifest ROOT`: the directory manifest format v1 (docs/cli.md), checked against
//! a manifest built here from the format's rules, and against b3sum's `-c`.
#![cfg(unix)] // Names that are not UTF-8, FIFOs and symbolic links.

use crate::common::*;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The manifest the format describes for `files` (relative names as bytes, and contents).
fn expected_manifest(files: &[(&[u8], Vec<u8>)]) -> Vec<u8> {
    let mut sorted: Vec<&(&[u8], Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = Vec::new();
    for (name, data) in sorted {
        let special = name.iter().any(|b| matches!(b, b'\\' | b'\n' | b'\r'));
        if special {
            out.push(b'\\');
        }
        out.extend_from_slice(blake3::hash(data).to_hex().as_bytes());
        out.extend_from_slice(b"  ");
        for &b in name.iter() {
            match b {
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                _ => out.push(b),
            }
        }
        out.push(b'\n');
    }
    out
}

fn write(root: &Path, name: &[u8], data: &[u8]) {
    let path = root.join(std::ffi::OsStr::from_bytes(name));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, data).unwrap();
}

/// Files whose names sort differently by bytes than by components ("a-b" < "a/x" < "a0"), with
/// escapes, non-UTF-8 bytes, an empty file and one large enough to be memory-mapped.
fn tree_files(utf8_only: bool) -> Vec<(&'static [u8], Vec<u8>)> {
    let mut files: Vec<(&'static [u8], Vec<u8>)> = vec![
        (b"a-b", bytes(10, 1)),
        (b"a/x", bytes(1000, 2)),
        (b"a/y/z", bytes(0, 3)),
        (b"a0", bytes(5000, 4)),
        (b"B", bytes(1, 5)),
        (b"big.bin", bytes(3 << 20, 6)),
        (b"back\\slash", bytes(7, 7)),
        (b"new\nline/and\rreturn", bytes(8, 8)),
        (b".hidden", bytes(9, 9)),
        ("caf\u{e9}".as_bytes(), bytes(10, 10)),
    ];
    if !utf8_only {
        files.push((b"bad-\xff\xfe", bytes(11, 11)));
    }
    files
}

#[test]
fn the_manifest_follows_the_format() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("root");
    let files = tree_files(false);
    for (name, data) in &files {
        write(&root, name, data);
    }
    std::fs::create_dir(root.join("empty-dir")).unwrap();
    let expected = expected_manifest(&files);
    // However ROOT is spelled, and from wherever it runs, the names are relative to it.
    for (dir, arg) in [
        (temp.path(), "root"),
        (temp.path(), "root/"),
        (temp.path(), "./root//"),
        (root.as_path(), "."),
    ] {
        let run = arbor_sum(dir, &os(&["--manifest", arg]), b"");
        assert_eq!(run.code, Some(0), "{arg}: {}", run.stderr);
        assert_eq!(run.stderr, "", "{arg}");
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&expected),
            "{arg}"
        );
        assert_eq!(run.stdout, expected, "{arg}");
    }
    // With mmap off, and on one thread, the same bytes.
    for flags in [&["--no-mmap"][..], &["--num-threads", "1"]] {
        let mut args = os(flags);
        args.extend(os(&["--manifest", "root"]));
        let run = arbor_sum(temp.path(), &args, b"");
        assert_eq!(run.stdout, expected, "{flags:?}");
    }
}

#[test]
fn links_and_special_files_are_skipped_with_a_warning() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    write(root, b"file", b"data");
    write(root, b"sub/inner", b"more");
    std::os::unix::fs::symlink("file", root.join("link-to-file")).unwrap();
    std::os::unix::fs::symlink("sub", root.join("link-to-dir")).unwrap();
    std::os::unix::fs::symlink("nowhere", root.join("dangling")).unwrap();
    std::os::unix::fs::symlink(".", root.join("sub/loop")).unwrap();
    let fifo = root.join("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let run = arbor_sum(root, &os(&["--manifest", "."]), b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let expected = expected_manifest(&[
        (b"file", b"data".to_vec()),
        (b"sub/inner", b"more".to_vec()),
    ]);
    assert_eq!(run.stdout_text(), String::from_utf8_lossy(&expected));
    for name in [
        "link-to-file",
        "link-to-dir",
        "dangling",
        "sub/loop",
        "fifo",
    ] {
        assert!(
            run.stderr.contains(&format!("./{name}: skipped")),
            "no warning for {name}: {}",
            run.stderr
        );
    }
}

#[test]
fn the_digest_is_the_hash_of_the_manifest_and_b3sum_checks_it() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    let files = tree_files(true);
    for (name, data) in &files {
        write(root, name, data);
    }
    let run = arbor_sum(root, &os(&["--manifest", "."]), b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // Piped into arbor sum, the manifest gives the directory's digest.
    let digest = arbor_sum(root, &[], &run.stdout);
    assert_eq!(
        digest.stdout_text(),
        format!("{}  -\n", blake3::hash(&expected_manifest(&files)).to_hex())
    );
    let b3sum = peer("b3sum");
    let list = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(list.path(), &run.stdout).unwrap();
    let check = run_in(
        root,
        &b3sum,
        &[os(&["-c"])[0].clone(), list.path().into()],
        b"",
    );
    assert_eq!(
        check.code,
        Some(0),
        "{}{}",
        check.stdout_text(),
        check.stderr
    );
    assert_eq!(check.stdout_text().matches(": OK").count(), files.len());
}

#[test]
fn empty_roots_missing_roots_and_unreadable_files() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path();
    let run = arbor_sum(root, &os(&["--manifest", "."]), b"");
    assert_eq!((run.code, run.stdout.len()), (Some(0), 0), "{}", run.stderr);
    write(root, b"plain", b"x");
    for (arg, reason) in [("plain", "Not a directory"), ("missing", "No such file")] {
        let run = arbor_sum(root, &os(&["--manifest", arg]), b"");
        assert_eq!(run.code, Some(1));
        assert!(
            run.stderr.contains(&format!("{arg}: {reason}")),
            "{}",
            run.stderr
        );
    }
    // One root only, and no other hashing flags.
    for args in [
        &["--manifest", ".", "plain"][..],
        &["--manifest", ".", "-a", "blake2b"],
    ] {
        let run = arbor_sum(root, &os(args), b"");
        assert_eq!(run.code, Some(2), "{args:?}");
        assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
    }
    use std::os::unix::fs::PermissionsExt;
    write(root, b"sub/locked", b"secret");
    let locked = root.join("sub/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&locked).is_ok() {
        eprintln!("note: running as root, permissions do not stop reads; skipped that case");
        return;
    }
    let run = arbor_sum(root, &os(&["--manifest", "."]), b"");
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("./sub/locked: Permission denied"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stdout_text().lines().count(), 1);
}
