//! `arbor sum` against b3sum and coreutils b2sum/cksum on a corpus of awkward files: identical
//! output for every shared flag, lists accepted in both directions, corruption detected, and the
//! b3sum/b2sum drop-in modes.
#![cfg(unix)] // The corpus needs names that are not UTF-8, which only Unix allows.

use crate::common::*;
use std::ffi::OsString;
use std::path::Path;

fn assert_same_stdout(what: &str, ours: &Run, theirs: &Run) {
    assert_eq!(
        ours.stdout_text(),
        theirs.stdout_text(),
        "{what}: stdout differs\nours stderr: {}\ntheirs stderr: {}",
        ours.stderr,
        theirs.stderr
    );
}

#[test]
fn blake3_output_matches_b3sum() {
    let b3sum = peer("b3sum");
    let corpus = Corpus::new(true);
    let dir = corpus.path();
    let flag_sets: &[&[&str]] = &[
        &[],
        &["--tag"],
        &["--no-names"],
        &["-l", "100"],
        &["-l", "7", "--tag"],
        &["--derive-key", "arbor test context"],
        &["--no-mmap"],
        &["--num-threads", "1"],
    ];
    for flags in flag_sets {
        let theirs = run_in(dir, &b3sum, &with_names(flags, &corpus.names), b"");
        let ours = arbor_sum(dir, &with_names(flags, &corpus.names), b"");
        assert_same_stdout(&format!("b3sum {flags:?}"), &ours, &theirs);
        assert_eq!(theirs.code, Some(0));
        // The non-UTF-8 name is reported by arbor (its line cannot be checked).
        assert_eq!(
            ours.code,
            Some(if flags.contains(&"--no-names") { 0 } else { 1 })
        );
        let utf8 = corpus.utf8_names();
        let ours = arbor_sum(dir, &with_names(flags, &utf8), b"");
        assert_eq!(ours.code, Some(0), "{flags:?}: {}", ours.stderr);
    }
    // Standard input, the keyed mode and raw output.
    let data = bytes(5000, 7);
    assert_same_stdout(
        "stdin",
        &arbor_sum(dir, &[], &data),
        &run_in(dir, &b3sum, &[], &data),
    );
    let key = bytes(32, 9);
    let args = with_names(&["--keyed"], &corpus.utf8_names());
    assert_same_stdout(
        "--keyed",
        &arbor_sum(dir, &args, &key),
        &run_in(dir, &b3sum, &args, &key),
    );
    let args = os(&["--raw", "-l", "200", "size-16385"]);
    assert_same_stdout(
        "--raw",
        &arbor_sum(dir, &args, b""),
        &run_in(dir, &b3sum, &args, b""),
    );
}

#[test]
fn blake2b_output_matches_b2sum() {
    let b2sum = peer("b2sum");
    let corpus = Corpus::new(true);
    let dir = corpus.path();
    // (arbor flags, b2sum flags): arbor's -l counts bytes, b2sum's bits.
    let flag_sets: &[(&[&str], &[&str])] = &[
        (&[], &[]),
        (&["--tag"], &["--tag"]),
        (&["-l", "32"], &["-l", "256"]),
        (&["-l", "20", "--tag"], &["-l", "160", "--tag"]),
        (&["-l", "64", "--tag"], &["-l", "512", "--tag"]),
        (&["-z"], &["-z"]),
    ];
    for (ours_flags, their_flags) in flag_sets {
        // b3sum's lossy names are arbor's convention; only -z prints every name as bytes.
        let names = if ours_flags.contains(&"-z") {
            corpus.names.clone()
        } else {
            corpus.utf8_names()
        };
        let mut ours_args = os(&["-a", "blake2b"]);
        ours_args.extend(with_names(ours_flags, &names));
        let ours = arbor_sum(dir, &ours_args, b"");
        let theirs = run_in(dir, &b2sum, &with_names(their_flags, &names), b"");
        assert_same_stdout(&format!("b2sum {their_flags:?}"), &ours, &theirs);
        assert_eq!((ours.code, theirs.code), (Some(0), Some(0)));
    }
}

#[test]
fn check_accepts_lists_of_b3sum_b2sum_and_cksum() {
    let (b3sum, b2sum) = (peer("b3sum"), peer("b2sum"));
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let utf8 = corpus.utf8_names();
    let mut mixed = Vec::new();
    for (tool, flags) in [
        (&b3sum, &[][..]),
        (&b3sum, &["--tag"][..]),
        (&b2sum, &["--tag"][..]),
        (&b2sum, &["--tag", "-l", "256"][..]),
    ] {
        let list = run_in(dir, tool, &with_names(flags, &utf8), b"").stdout;
        mixed.extend_from_slice(&list);
        let checked = arbor_sum(dir, &os(&["-c", "-"]), &list);
        assert_eq!(checked.code, Some(0), "{flags:?}: {}", checked.stderr);
        assert_eq!(checked.stdout_text().matches(": OK\n").count(), utf8.len());
    }
    // Untagged b2sum lists (the names as raw bytes) need -a.
    let list = run_in(dir, &b2sum, &corpus.names, b"").stdout;
    let checked = arbor_sum(dir, &os(&["-c", "-a", "blake2b", "-"]), &list);
    assert_eq!(checked.code, Some(0), "{}", checked.stderr);
    assert_eq!(
        checked.stdout_text().matches(": OK\n").count(),
        corpus.names.len()
    );
    let cksum = peer("cksum");
    for flags in [&["-a", "blake2b"][..], &["-a", "blake2b", "-l", "128"][..]] {
        let list = run_in(dir, &cksum, &with_names(flags, &utf8), b"").stdout;
        mixed.extend_from_slice(&list);
        let checked = arbor_sum(dir, &os(&["-c", "-"]), &list);
        assert_eq!(checked.code, Some(0), "cksum {flags:?}: {}", checked.stderr);
    }
    // One list mixing every format and algorithm, with a comment.
    mixed.extend_from_slice(b"# made by several tools\n");
    let checked = arbor_sum(dir, &os(&["-c", "-"]), &mixed);
    assert_eq!(checked.code, Some(0), "{}", checked.stderr);
}

#[test]
fn peers_accept_arbor_lists() {
    let (b3sum, b2sum) = (peer("b3sum"), peer("b2sum"));
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let utf8 = corpus.utf8_names();
    // b3sum splits at the first two spaces before it looks for a tag, so it cannot check tagged
    // lines of names that hold two spaces, even its own.
    let no_double_space: Vec<OsString> = utf8
        .iter()
        .filter(|n| !n.to_str().unwrap().contains("  "))
        .cloned()
        .collect();
    for (flags, names) in [(&[][..], &utf8), (&["--tag"][..], &no_double_space)] {
        let list = arbor_sum(dir, &with_names(flags, names), b"").stdout;
        let checked = run_in(dir, &b3sum, &os(&["-c", "-"]), &list);
        assert_eq!(
            checked.code,
            Some(0),
            "b3sum -c {flags:?}: {}",
            checked.stderr
        );
        assert_eq!(checked.stdout_text().matches(": OK\n").count(), names.len());
    }
    for flags in [&[][..], &["--tag"][..], &["--tag", "-l", "32"][..]] {
        let mut args = os(&["-a", "blake2b"]);
        args.extend(with_names(flags, &utf8));
        let list = arbor_sum(dir, &args, b"").stdout;
        let checked = run_in(dir, &b2sum, &os(&["-c", "-"]), &list);
        assert_eq!(
            checked.code,
            Some(0),
            "b2sum -c {flags:?}: {}",
            checked.stderr
        );
        assert_eq!(checked.stdout_text().matches(": OK\n").count(), utf8.len());
    }
}

#[test]
fn check_detects_corruption() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let utf8 = corpus.utf8_names();
    for algorithm in ["blake3", "blake2b", "blake2s", "blake2bp", "blake2sp"] {
        let list = arbor_sum(dir, &with_names(&["--tag", "-a", algorithm], &utf8), b"").stdout;
        std::fs::write(dir.join("list"), &list).unwrap();
        let ok = arbor_sum(dir, &os(&["-c", "list"]), b"");
        assert_eq!(ok.code, Some(0), "{algorithm}: {}", ok.stderr);
        // One flipped bit in one file.
        let victim = dir.join("size-1025");
        let mut data = std::fs::read(&victim).unwrap();
        data[1000] ^= 1;
        std::fs::write(&victim, &data).unwrap();
        let bad = arbor_sum(dir, &os(&["-c", "list"]), b"");
        assert_eq!(bad.code, Some(1));
        assert!(bad.stdout_text().contains("size-1025: FAILED\n"));
        assert_eq!(bad.stdout_text().matches(": OK\n").count(), utf8.len() - 1);
        assert!(
            bad.stderr.contains("1 computed checksum did NOT match"),
            "{}",
            bad.stderr
        );
        data[1000] ^= 1;
        std::fs::write(&victim, &data).unwrap();
    }
    // A changed digit in the list.
    let mut list = arbor_sum(dir, &os(&["size-64"]), b"").stdout;
    list[0] = if list[0] == b'0' { b'1' } else { b'0' };
    let bad = arbor_sum(dir, &os(&["-c", "-"]), &list);
    assert_eq!(
        (bad.code, bad.stdout_text()),
        (Some(1), "size-64: FAILED\n".into())
    );
    // --quiet and --status.
    let quiet = arbor_sum(dir, &os(&["-c", "--quiet", "-"]), &list);
    assert_eq!(quiet.stdout_text(), "size-64: FAILED\n");
    let status = arbor_sum(dir, &os(&["-c", "--status", "-"]), &list);
    assert_eq!(
        (status.code, status.stdout.len(), status.stderr.len()),
        (Some(1), 0, 0)
    );
}

#[test]
fn recursive_walks_in_sorted_order() {
    let b3sum = peer("b3sum");
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let sub = dir.join("tree/a/b");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(dir.join("tree/empty")).unwrap();
    std::fs::create_dir_all(dir.join("tree/a-c")).unwrap();
    let mut expected: Vec<OsString> = Vec::new();
    // Names that sort around `/`, which a directory's paths continue with: `-` and `.` before
    // it, `0` after it.
    for (i, rel) in [
        "tree/z",
        "tree/a.txt",
        "tree/a/b/deep",
        "tree/a/x y",
        "tree/B",
        "tree/a-c/x",
        "tree/a0",
        "tree/a/b0",
        "tree/a/b.c",
        "tree/a/b-",
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(dir.join(rel), bytes(i * 3000, i as u64)).unwrap();
        expected.push(rel.into());
    }
    for i in 0..300 {
        let rel = format!("tree/a/b/many-{i:03}");
        std::fs::write(dir.join(&rel), bytes(4096, i)).unwrap();
        expected.push(rel.into());
    }
    expected.sort_by(|a, b| a.as_encoded_bytes().cmp(b.as_encoded_bytes()));
    let theirs = run_in(dir, &b3sum, &expected, b"");
    let ours = arbor_sum(dir, &os(&["-r", "tree"]), b"");
    assert_same_stdout("-r", &ours, &theirs);
    assert_eq!(ours.code, Some(0));
}

#[test]
fn known_answers_for_every_blake2_variant() {
    let vectors = kat_vectors();
    let dir = tempfile::tempdir().unwrap();
    for case in vectors
        .iter()
        .filter(|c| [0, 1, 64, 65, 128, 255].contains(&(c.input.len())))
    {
        std::fs::write(dir.path().join("in"), &case.input).unwrap();
        let mut args = os(&["--no-names", "-a", &case.algorithm]);
        if !case.key.is_empty() {
            args.push("--keyed".into());
        }
        args.push("in".into());
        let run = arbor_sum(dir.path(), &args, &case.key);
        assert_eq!(
            run.stdout_text().trim_end(),
            case.output,
            "{} len {} keyed {}: {}",
            case.algorithm,
            case.input.len(),
            !case.key.is_empty(),
            run.stderr
        );
    }
}

#[test]
fn known_answers_for_tillich_zemor() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testvectors/tz.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the Tillich-Zémor vectors, {}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for case in json["cases"].as_array().unwrap() {
        let len = case["input_len"].as_u64().unwrap() as usize;
        let input: Vec<u8> = match case["input"].as_str() {
            Some(hex) => (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect(),
            None if case["pattern"] == "mod251" => (0..len).map(|i| (i % 251) as u8).collect(),
            None => continue,
        };
        std::fs::write(dir.path().join("in"), &input).unwrap();
        let run = arbor_sum(dir.path(), &os(&["--no-names", "-a", "tz", "in"]), b"");
        assert_eq!(
            run.stdout_text().trim_end(),
            case["hash"].as_str().unwrap(),
            "tz, {len} bytes: {}",
            run.stderr
        );
        checked += 1;
    }
    assert!(checked > 0);
}

struct Kat {
    algorithm: String,
    input: Vec<u8>,
    key: Vec<u8>,
    output: String,
}

fn kat_vectors() -> Vec<Kat> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testvectors/blake2-kat.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the BLAKE2 vectors, {}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let hex = |v: &serde_json::Value| -> Vec<u8> {
        let s = v.as_str().unwrap();
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    };
    json.as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            ["blake2b", "blake2s", "blake2bp", "blake2sp"].contains(&c["hash"].as_str().unwrap())
        })
        .map(|c| Kat {
            algorithm: c["hash"].as_str().unwrap().to_string(),
            input: hex(&c["in"]),
            key: hex(&c["key"]),
            output: c["out"].as_str().unwrap().to_string(),
        })
        .collect()
}

#[test]
fn b3sum_dropin_matches_b3sum() {
    let b3sum = peer("b3sum");
    let (_link_dir, ours) = dropin("b3sum");
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    std::fs::create_dir(dir.join("subdir")).unwrap();
    let mut names = corpus.names.clone();
    names.extend(os(&["missing-file", "subdir"]));
    let cases: Vec<(Vec<OsString>, Vec<u8>)> = vec![
        (with_names(&[], &names), vec![]),
        (
            with_names(&["--tag", "-l", "40", "--seek", "70"], &names),
            vec![],
        ),
        (with_names(&["--no-names", "--no-mmap"], &names), vec![]),
        // Output that runs past 2^64 bytes.
        (
            with_names(&["-l", "64", "--seek", "18446744073709551600"], &names),
            vec![],
        ),
        (with_names(&["--keyed"], &corpus.names), bytes(32, 3)),
        (with_names(&["--keyed"], &corpus.names), bytes(31, 3)),
        (os(&["--raw", "size-1", "size-64"]), vec![]),
    ];
    for (args, stdin) in &cases {
        let theirs = run_in(dir, &b3sum, args, stdin);
        let mine = run_in(dir, &ours, args, stdin);
        assert_same_stdout(&format!("{args:?}"), &mine, &theirs);
        assert_eq!(mine.stderr, theirs.stderr, "{args:?}");
        assert_eq!(mine.code, theirs.code, "{args:?}");
    }
    // Check lists, good, corrupt and malformed.
    let mut list = run_in(dir, &b3sum, &corpus.utf8_names(), b"").stdout;
    list.extend_from_slice(b"0000  size-1\n\nnot a line\n");
    list.extend_from_slice(&run_in(dir, &b3sum, &os(&["--tag", "size-64"]), b"").stdout);
    list.extend_from_slice(format!("{}  missing-file\n", "ab".repeat(32)).as_bytes());
    for flags in [&["-c"][..], &["-c", "--quiet"][..]] {
        let mut args = os(flags);
        args.push("-".into());
        let theirs = run_in(dir, &b3sum, &args, &list);
        let mine = run_in(dir, &ours, &args, &list);
        assert_same_stdout(&format!("{args:?}"), &mine, &theirs);
        assert_eq!(mine.stderr, theirs.stderr);
        assert_eq!(mine.code, theirs.code);
    }
}

#[test]
fn b2sum_dropin_matches_b2sum() {
    let b2sum = peer("b2sum");
    let (_link_dir, ours) = dropin("b2sum");
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    std::fs::create_dir(dir.join("subdir")).unwrap();
    let mut names = corpus.names.clone();
    names.extend(os(&["missing", "subdir"]));
    let hash_flags: &[&[&str]] = &[
        &[],
        &["-b"],
        &["--tag"],
        &["-l", "256", "--tag"],
        &["-l", "8"],
        &["-z"],
        &["-l", "0"],
    ];
    for flags in hash_flags {
        let args = with_names(flags, &names);
        let theirs = run_in(dir, &b2sum, &args, b"");
        let mine = run_in(dir, &ours, &args, b"");
        assert_same_stdout(&format!("{flags:?}"), &mine, &theirs);
        assert_eq!(mine.code, theirs.code, "{flags:?}");
    }
    for bad_length in ["7", "520", "x"] {
        let args = os(&["-l", bad_length, "size-1"]);
        let theirs = run_in(dir, &b2sum, &args, b"");
        let mine = run_in(dir, &ours, &args, b"");
        assert_eq!(
            (mine.code, mine.stdout.len()),
            (theirs.code, 0),
            "-l {bad_length}"
        );
    }
    let mut list = run_in(dir, &b2sum, &corpus.names, b"").stdout;
    list.extend_from_slice(
        &run_in(dir, &b2sum, &os(&["--tag", "-l", "128", "size-64"]), b"").stdout,
    );
    list.extend_from_slice(b"# comment\n\ngarbage line\n");
    list.extend_from_slice(format!("{}  missing\n", "ab".repeat(64)).as_bytes());
    list.extend_from_slice(format!("{}  size-1\n", "CD".repeat(32)).as_bytes());
    std::fs::write(dir.join("list"), &list).unwrap();
    let check_flags: &[&[&str]] = &[
        &["-c"],
        &["-c", "--quiet"],
        &["-c", "--status"],
        &["-c", "--strict"],
        &["-c", "-w"],
        &["-c", "--ignore-missing"],
    ];
    for flags in check_flags {
        let mut args = os(flags);
        args.push("list".into());
        let theirs = run_in(dir, &b2sum, &args, b"");
        let mine = run_in(dir, &ours, &args, b"");
        assert_same_stdout(&format!("{flags:?}"), &mine, &theirs);
        // Both name themselves by the path they were run as.
        assert_eq!(
            mine.stderr.replace(&*ours.to_string_lossy(), "b2sum"),
            theirs.stderr.replace(&*b2sum.to_string_lossy(), "b2sum"),
            "{flags:?}"
        );
        assert_eq!(mine.code, theirs.code, "{flags:?}");
    }
}
