//! Help, version and messages of every mode under write errors and at the limits of every
//! numeric argument: compared with coreutils b2sum and b3sum where they are the peer, and never a
//! panic anywhere (issue 36).
#![cfg(unix)]

use crate::common::*;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

/// Where standard output goes.
#[derive(Clone, Copy, Debug)]
enum Out {
    /// `>/dev/full`.
    Full,
    /// `>&-`.
    Closed,
    /// A pipe whose reader is gone.
    BrokenPipe,
}

/// Runs `program ARGS` with standard output `out` (through `sh`, so that `>&-` is a really
/// closed descriptor); the result's stdout is empty.
fn run_out(program: &Path, args: &[&str], out: Out, lc_all: &str) -> Run {
    let redirect = match out {
        Out::Full => "exec \"$0\" \"$@\" >/dev/full",
        Out::Closed => "exec \"$0\" \"$@\" >&-",
        Out::BrokenPipe => "exec \"$0\" \"$@\"",
    };
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(redirect)
        .arg(program)
        .args(args)
        .env("LC_ALL", lc_all)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    if let Out::BrokenPipe = out {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        command.stdout(writer);
    }
    let output = command.output().unwrap();
    let mut run: Run = output.into();
    let base = program.file_name().unwrap().to_string_lossy();
    run.stderr = run.stderr.replace(&*program.to_string_lossy(), &base);
    run.no_panic();
    run
}

/// The peer installed under `name`, linked under that name alone so that its messages name it
/// as ours do.
fn peer_link(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join(name);
    std::os::unix::fs::symlink(peer(name), &link).unwrap();
    (dir, link)
}

#[test]
fn help_and_version_write_errors_match_the_peers() {
    for (name, options) in [
        ("b2sum", &["--help", "--version"][..]),
        ("b3sum", &["--help", "--version", "-h", "-V"][..]),
    ] {
        let (_ours_dir, ours) = dropin(name);
        let (_peer_dir, theirs) = peer_link(name);
        for option in options {
            for out in [Out::Full, Out::Closed, Out::BrokenPipe] {
                let a = run_out(&ours, &[option], out, "C");
                let b = run_out(&theirs, &[option], out, "C");
                let what = format!("{name} {option} {out:?}");
                assert_eq!(a.stderr, b.stderr, "{what}");
                // A shell reports the peer killed by SIGPIPE as 141, which arbor exits with.
                assert_eq!(a.code, b.code.or(Some(141)), "{what}");
            }
        }
    }
}

#[test]
fn arbor_help_and_version_write_errors_are_hash_output_errors() {
    let arbor = arbor_path();
    for args in [
        &["--help"][..],
        &["--version"],
        &["-h"],
        &["sum", "--help"],
        &["bao", "--help"],
        &["help", "sum"],
        &["completions", "bash"],
        &["man"],
        &["bao", "hash", "/dev/null"],
    ] {
        for (out, stderr, code) in [
            (
                Out::Full,
                "arbor: write error: No space left on device\n",
                1,
            ),
            (Out::Closed, "arbor: write error: Bad file descriptor\n", 1),
            (Out::BrokenPipe, "", 141),
        ] {
            let run = run_out(&arbor, args, out, "C");
            // `arbor bao` names itself so.
            let stderr = if args[0] == "bao" && args[1] == "hash" {
                stderr.replace("arbor:", "arbor bao:")
            } else {
                stderr.to_string()
            };
            assert_eq!(run.stderr, stderr, "{args:?} {out:?}");
            assert_eq!(run.code, Some(code), "{args:?} {out:?}");
        }
    }
}

/// Runs `program ARGS` in `dir` under `LC_ALL=lc_all`, standard input empty, its path in
/// messages cut to its base name.
fn run_locale(dir: &Path, program: &Path, lc_all: &str, args: &[OsString]) -> Run {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", lc_all)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let mut run: Run = output.into();
    let base = program.file_name().unwrap().to_string_lossy();
    run.stderr = run.stderr.replace(&*program.to_string_lossy(), &base);
    run.no_panic();
    run
}

#[test]
fn b2sum_length_messages_match_coreutils_in_each_locale() {
    let (dir, ours) = dropin("b2sum");
    let (_peer_dir, theirs) = peer_link("b2sum");
    std::fs::write(dir.path().join("f"), b"data").unwrap();
    let lengths: &[&[u8]] = &[
        b"0",
        b"7",
        b"8",
        b"512",
        b"513",
        b"520",
        b"18446744073709551608",
        b"18446744073709551615",
        b"18446744073709551616",
        b"99999999999999999999999",
        b"99999999999999999999abc",
        b"abc",
        b"",
        b" ",
        b"+",
        b"-1",
        b" -1",
        b"-0",
        b"+8",
        b"  +8",
        b"\t8",
        b"8 ",
        b"0x10",
        b"1e3",
        b"8k",
        b"0008",
        b"a'b",
        b"a\\b",
        b"a\nb",
        b"a\x01b",
        b"a\x7fb",
        b"a\xffb",
        "caf\u{e9}".as_bytes(),
        "a\u{2019}b".as_bytes(),
        "a\u{85}b".as_bytes(),
    ];
    // C, a UTF-8 locale, and one that is not installed (so C for the C library).
    for lc_all in ["C", "POSIX", "C.UTF-8", "xx_XX.UTF-8"] {
        for length in lengths {
            let args = vec![OsString::from("-l"), name(length), OsString::from("f")];
            let a = run_locale(dir.path(), &ours, lc_all, &args);
            let b = run_locale(dir.path(), &theirs, lc_all, &args);
            let what = format!("LC_ALL={lc_all} -l {:?}", String::from_utf8_lossy(length));
            assert_eq!(a.stderr, b.stderr, "{what}");
            assert_eq!(a.code, b.code, "{what}");
            assert_eq!(a.stdout, b.stdout, "{what}");
        }
    }
}

#[test]
fn b2sum_file_names_are_quoted_for_the_locale() {
    let (dir, ours) = dropin("b2sum");
    let (_peer_dir, theirs) = peer_link("b2sum");
    for lc_all in ["C", "C.UTF-8", "xx_XX.UTF-8"] {
        for missing in ["caf\u{e9} x", "it's", "a:b", "\u{2018}q\u{2019}"] {
            for args in [vec![missing], vec!["-c", missing]] {
                let args = os(&args);
                let a = run_locale(dir.path(), &ours, lc_all, &args);
                let b = run_locale(dir.path(), &theirs, lc_all, &args);
                assert_eq!(a.stderr, b.stderr, "LC_ALL={lc_all} {args:?}");
                assert_eq!(a.code, b.code, "LC_ALL={lc_all} {args:?}");
            }
        }
    }
}

#[test]
fn b3sum_messages_have_no_added_words() {
    let (dir, ours) = dropin("b3sum");
    let (_peer_dir, theirs) = peer_link("b3sum");
    let path = dir.path();
    std::fs::write(path.join("f"), b"foo").unwrap();
    let hash = "0".repeat(64);
    // A name that b3sum printed with U+FFFD, and a list line that is not UTF-8.
    std::fs::write(path.join("fffd.b3"), format!("{hash}  a\u{fffd}b\n")).unwrap();
    let mut not_utf8 = format!("{hash}  a").into_bytes();
    not_utf8.extend_from_slice(b"\xffb\n");
    std::fs::write(path.join("bytes.b3"), not_utf8).unwrap();
    let key_newline = b"0123456789012345678901234567890\n";
    let cases: &[(&[&str], &[u8])] = &[
        (&["-c", "fffd.b3"], b""),
        (&["-c", "bytes.b3"], b""),
        (&["--keyed", "f"], key_newline),
        (&["--keyed", "f"], b"short"),
        (&["--num-threads", "300", "f"], b""),
        (&["--num-threads", "0", "f"], b""),
        (&["--num-threads", "18446744073709551616", "f"], b""),
        (&["-l", "0", "f"], b""),
        (&["-l", "18446744073709551616", "f"], b""),
        (&["--seek", "18446744073709551615", "-l", "4", "f"], b""),
        (&["--seek", "18446744073709551616", "f"], b""),
        (&["--raw", "f", "f"], b""),
    ];
    for (args, stdin) in cases {
        let args = os(args);
        let a = run_in(path, &ours, &args, stdin);
        let b = run_in(path, &theirs, &args, stdin);
        let b_stderr = b.stderr.replace(&*theirs.to_string_lossy(), "b3sum");
        assert_eq!(
            a.stderr.replace(&*ours.to_string_lossy(), "b3sum"),
            b_stderr,
            "{args:?}"
        );
        assert_eq!(a.code, b.code, "{args:?}");
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
}

/// `arbor ARGS` in `dir` with empty standard input.
fn arbor(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, &arbor_path(), &os(args), b"")
}

/// Asserts a refused argument: a message naming the option, no panic, exit 1 (2 for clap's
/// usage errors, the values that do not parse as the option's type).
fn refused(run: &Run, args: &[&str], mentions: &str) {
    assert!(
        matches!(run.code, Some(1) | Some(2)),
        "{args:?}: exit {:?}, {}",
        run.code,
        run.stderr
    );
    assert!(run.stderr.contains(mentions), "{args:?}: {}", run.stderr);
    assert!(run.stdout.is_empty(), "{args:?}");
}

const MAX: &str = "18446744073709551615";
const PAST_MAX: &str = "18446744073709551616";

#[test]
fn sum_arguments_at_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("f"), bytes(100, 7)).unwrap();
    let refusals: &[(&[&str], &str)] = &[
        (&["sum", "-a", "blake2b", "-l", "0", "f"], "-l/--length"),
        (&["sum", "-a", "blake2b", "-l", "65", "f"], "-l/--length"),
        (&["sum", "-a", "blake2b", "-l", MAX, "f"], "-l/--length"),
        (&["sum", "-a", "blake2s", "-l", "33", "f"], "-l/--length"),
        (
            &["sum", "-a", "blake2xb", "-l", "4294967296", "f"],
            "-l/--length",
        ),
        (
            &["sum", "-a", "blake2xs", "-l", "65536", "f"],
            "-l/--length",
        ),
        (&["sum", "-a", "tz", "-l", "0", "f"], "-l/--length"),
        (&["sum", "-l", PAST_MAX, "f"], "--length"),
        (&["sum", "--num-threads", PAST_MAX, "f"], "--num-threads"),
        (
            &["sum", "-a", "blake2b", "--fanout", "256", "f"],
            "--fanout",
        ),
        (
            &["sum", "-a", "blake2b", "--max-depth", "0", "f"],
            "--max-depth",
        ),
        (
            &["sum", "-a", "blake2b", "--max-depth", "256", "f"],
            "--max-depth",
        ),
        (
            &[
                "sum",
                "-a",
                "blake2b",
                "--max-leaf-length",
                "4294967296",
                "f",
            ],
            "--max-leaf-length",
        ),
        (
            &["sum", "-a", "blake2b", "--node-offset", PAST_MAX, "f"],
            "--node-offset",
        ),
        (
            &["sum", "-a", "blake2s", "--node-offset", MAX, "f"],
            "--node-offset",
        ),
        (
            &["sum", "-a", "blake2b", "--node-depth", "256", "f"],
            "--node-depth",
        ),
        (
            &["sum", "-a", "blake2b", "--inner-hash-length", "65", "f"],
            "inner",
        ),
        (
            &["sum", "-a", "blake2b", "--inner-hash-length", MAX, "f"],
            "inner",
        ),
        (
            &["sum", "-a", "blake2b", "--inner-hash-length", PAST_MAX, "f"],
            "--inner-hash-length",
        ),
    ];
    for (args, mentions) in refusals {
        refused(&arbor(path, args), args, mentions);
    }
    // The largest values each option takes are hashes.
    let accepted: &[&[&str]] = &[
        &["sum", "-l", "0", "f"],
        &["sum", "-a", "blake2b", "-l", "64", "f"],
        &["sum", "-a", "blake2xs", "-l", "65535", "f"],
        &["sum", "--num-threads", "0", "f"],
        &["sum", "--num-threads", MAX, "f"],
        &[
            "sum",
            "-a",
            "blake2b",
            "--fanout",
            "255",
            "--max-depth",
            "255",
            "f",
        ],
        &[
            "sum",
            "-a",
            "blake2b",
            "--max-leaf-length",
            "4294967295",
            "f",
        ],
        &[
            "sum",
            "-a",
            "blake2b",
            "--node-offset",
            MAX,
            "--node-depth",
            "255",
            "f",
        ],
        &["sum", "-a", "blake2b", "--inner-hash-length", "64", "f"],
    ];
    for args in accepted {
        let run = arbor(path, args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        assert!(run.stdout_text().ends_with("  f\n"), "{args:?}");
    }
}

#[test]
fn endless_output_stops_quietly_at_a_closed_pipe() {
    // BLAKE3 at the largest length is output without end, as b3sum's; a reader that leaves
    // ends it as SIGPIPE would.
    for (program, args) in [
        (arbor_path(), vec!["sum", "-l", MAX, "/dev/null"]),
        (dropin("b3sum").1, vec!["-l", MAX, "/dev/null"]),
        (
            dropin("b3sum").1,
            vec!["--seek", MAX, "-l", MAX, "/dev/null"],
        ),
    ] {
        let run = run_out(&program, &args, Out::BrokenPipe, "C");
        assert_eq!((run.code, run.stderr.as_str()), (Some(141), ""), "{args:?}");
    }
}

#[test]
fn bao_arguments_at_their_limits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    std::fs::write(path.join("f"), bytes(100_000, 3)).unwrap();
    assert_eq!(arbor(path, &["bao", "encode", "f", "f.bao"]).code, Some(0));
    assert_eq!(
        arbor(path, &["bao", "encode", "f", "--outboard", "f.obao"]).code,
        Some(0)
    );
    let hash = arbor(path, &["bao", "hash", "f"])
        .stdout_text()
        .trim()
        .to_string();
    assert_eq!(
        arbor(path, &["bao", "slice", "0", "10", "f.bao", "s"]).code,
        Some(0)
    );
    let refusals: &[(&[&str], &str)] = &[
        (&["bao", "--group-log", "17", "hash", "f"], "group log"),
        (&["bao", "--group-log", "255", "hash", "f"], "group log"),
        (&["bao", "--group-log", "256", "hash", "f"], "--group-log"),
        (&["bao", "slice", PAST_MAX, "1", "f.bao"], "START"),
        (&["bao", "slice", "0", PAST_MAX, "f.bao"], "COUNT"),
        (&["bao", "decode-slice", &hash, PAST_MAX, "1", "s"], "START"),
        (&["bao", "decode-slice", &hash, "0", PAST_MAX, "s"], "COUNT"),
        (&["bao", "decode-slice", &hash, MAX, MAX, "s"], "s:"),
        (&["bao", "decode", "00", "f.bao"], "invalid hash"),
    ];
    for (args, mentions) in refusals {
        refused(&arbor(path, args), args, mentions);
    }
    // Slices anywhere, of any length, are extracted (past the end: the last chunk).
    for (start, count) in [("0", "0"), ("0", MAX), (MAX, "1"), (MAX, MAX)] {
        for outboard in [&[][..], &["--outboard", "f.obao"]] {
            let input = if outboard.is_empty() { "f.bao" } else { "f" };
            let mut args = vec!["bao", "slice", start, count, input, "out.slice"];
            args.extend_from_slice(outboard);
            let run = arbor(path, &args);
            assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        }
        let run = arbor(path, &["bao", "slice", start, count, "f.bao", "x.slice"]);
        assert_eq!(run.code, Some(0));
        let args = ["bao", "decode-slice", &hash, start, count, "x.slice"];
        let run = arbor(path, &args);
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    }
    // The largest group log is accepted.
    assert_eq!(
        arbor(path, &["bao", "--group-log", "16", "hash", "f"]).code,
        Some(0)
    );
}

#[test]
fn completions_man_and_bench_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path();
    refused(
        &arbor(path, &["completions", "nosuchshell"]),
        &[],
        "nosuchshell",
    );
    refused(&arbor(path, &["man", "extra"]), &[], "extra");
    for (args, mentions) in [
        (
            &["bench", "speedtest", "--size", PAST_MAX][..],
            "is not a size",
        ),
        (
            &["bench", "speedtest", "--size", "17179869184G"],
            "too large",
        ),
        (&["bench", "speedtest", "--iterations", "0"], "--iterations"),
        (
            &["bench", "speedtest", "--iterations", PAST_MAX],
            "--iterations",
        ),
        (
            &["bench", "speedtest", "--repetitions", "0"],
            "--repetitions",
        ),
        (
            &["bench", "speedtest", "--repetitions", "1000"],
            "--repetitions",
        ),
        (&["bench", "tree", "--num-threads", "0"], "--num-threads"),
        (&["bench", "tree", "--num-threads", MAX], "--num-threads"),
        (&["bench", "sizes", "--min-size", "0"], "--min-size"),
        (&["bench", "sizes", "--max-size", "2G"], "--max-size"),
        (
            &["bench", "speedtest", "--size", "0"],
            "outside 1..=67108864",
        ),
        (
            &["bench", "speedtest", "--size", MAX],
            "outside 1..=67108864",
        ),
        (
            &["bench", "speedtest", "--size", "65M"],
            "outside 1..=67108864",
        ),
    ] {
        refused(&arbor(path, args), args, mentions);
    }
    // What bench prints goes out as hash lines do.
    let args = ["bench", "speedtest", "--list"];
    for (out, stderr, code) in [
        (
            Out::Full,
            "arbor bench: write error: No space left on device\n",
            1,
        ),
        (
            Out::Closed,
            "arbor bench: write error: Bad file descriptor\n",
            1,
        ),
    ] {
        let run = run_out(&arbor_path(), &args, out, "C");
        assert_eq!(
            (run.stderr.as_str(), run.code),
            (stderr, Some(code)),
            "{out:?}"
        );
    }
}

#[test]
fn b2sum_and_b3sum_refuse_what_their_peers_refuse() {
    let (dir, ours2) = dropin("b2sum");
    let (_d2, theirs2) = peer_link("b2sum");
    let (_d3, ours3) = dropin("b3sum");
    let (_d4, theirs3) = peer_link("b3sum");
    let path = dir.path();
    std::fs::write(path.join("f"), b"x").unwrap();
    for (ours, theirs, args) in [
        (&ours2, &theirs2, &["--length", PAST_MAX, "f"][..]),
        (&ours2, &theirs2, &["--length=0", "f"]),
        (&ours2, &theirs2, &["-l"]),
        (&ours3, &theirs3, &["--length", MAX, "--raw", "f", "f"]),
        (&ours3, &theirs3, &["--num-threads", "-1", "f"]),
        (&ours3, &theirs3, &["--length"]),
    ] {
        let args = os(args);
        let a = run_locale(path, ours, "C", &args);
        let b = run_locale(path, theirs, "C", &args);
        assert_eq!(a.stderr, b.stderr, "{args:?}");
        assert_eq!(a.code, b.code, "{args:?}");
        assert_eq!(a.stdout, b.stdout, "{args:?}");
    }
}
