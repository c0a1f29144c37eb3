//! `arbor bao` with outputs that are also inputs, outputs that already exist or cannot be
//! written, and an input that is truncated while it is encoded: an input is never written over,
//! an output holds exactly what was written (nothing, for the encoding of a file that changed),
//! a failure names the file it concerns, and the program never dies of a signal.
#![cfg(unix)]

use crate::common::*;
use arborhash::bao::{self, GroupLog};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn arbor_bao(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut all = vec!["bao"];
    all.extend_from_slice(args);
    run_in(dir, &arbor_path(), &os(&all), stdin)
}

/// Runs a shell command line in `dir` (for redirections of the program's own descriptors).
fn shell(dir: &Path, line: &str) -> Run {
    let out = Command::new("sh")
        .args(["-c", line])
        .env("ARBOR", arbor_path())
        .current_dir(dir)
        .output()
        .unwrap();
    let run: Run = out.into();
    run.no_panic();
    run
}

#[test]
fn an_output_that_is_an_input_is_refused_and_left_intact() {
    let temp = tempfile::tempdir().unwrap();
    let d = temp.path();
    let content = bytes(300_000, 1);
    let (encoded, hash) = bao::encode(&content, GroupLog::ZERO);
    let hash = hash.to_hex().to_string();
    let reset = || {
        std::fs::write(d.join("in"), &content).unwrap();
        std::fs::write(d.join("enc"), &encoded).unwrap();
        std::fs::write(d.join("ob"), bao::outboard(&content, GroupLog::ZERO).0).unwrap();
    };
    reset();
    std::os::unix::fs::symlink("in", d.join("link")).unwrap();
    let runs: [(&[&str], &str); 7] = [
        (&["encode", "in", "in"], "in"),
        (&["encode", "in", "--outboard", "in"], "in"),
        (&["encode", "in", "link"], "link"),
        (&["decode", &hash, "enc", "enc"], "enc"),
        (&["decode", &hash, "in", "ob", "--outboard", "ob"], "ob"),
        (&["slice", "0", "1000", "enc", "enc"], "enc"),
        (&["decode-slice", &hash, "0", "1000", "enc", "enc"], "enc"),
    ];
    for (args, named) in runs {
        let run = arbor_bao(d, args, b"");
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains(named) && run.stderr.contains("is also an input"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(std::fs::read(d.join("in")).unwrap() == content, "{args:?}");
        assert!(std::fs::read(d.join("enc")).unwrap() == encoded, "{args:?}");
        reset();
    }
    // Standard descriptors: input redirected from the output file, output appended to the input.
    for line in [
        "\"$ARBOR\" bao encode in - >> in",
        &format!("\"$ARBOR\" bao decode {hash} - enc < enc"),
        &format!("\"$ARBOR\" bao decode {hash} enc >> enc"),
    ] {
        let run = shell(d, line);
        assert_eq!(run.code, Some(1), "{line}: {}", run.stderr);
        assert!(
            run.stderr.contains("is also an input"),
            "{line}: {}",
            run.stderr
        );
        assert!(std::fs::read(d.join("in")).unwrap() == content, "{line}");
        assert!(std::fs::read(d.join("enc")).unwrap() == encoded, "{line}");
    }
}

#[test]
fn an_existing_output_holds_exactly_what_was_written() {
    let temp = tempfile::tempdir().unwrap();
    let d = temp.path();
    let content = bytes(300_000, 2);
    std::fs::write(d.join("in"), &content).unwrap();
    let (encoded, hash) = bao::encode(&content, GroupLog::ZERO);
    let hash = hash.to_hex().to_string();
    let longer = bytes(5 << 20, 3);

    for (args, expected) in [
        (vec!["encode", "in", "out"], encoded.clone()),
        (
            vec!["encode", "in", "--outboard", "out"],
            bao::outboard(&content, GroupLog::ZERO).0,
        ),
    ] {
        std::fs::write(d.join("out"), &longer).unwrap();
        arbor_bao(d, &args, b"");
        assert!(
            std::fs::read(d.join("out")).unwrap() == expected,
            "{args:?}"
        );
    }

    std::fs::write(d.join("enc"), &encoded).unwrap();
    std::fs::write(d.join("out"), &longer).unwrap();
    let run = arbor_bao(d, &["decode", &hash, "enc", "out"], b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(std::fs::read(d.join("out")).unwrap() == content);

    // A failed decode leaves only verified bytes, none of the file that was there before.
    let mut corrupt = encoded.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 1;
    std::fs::write(d.join("bad"), &corrupt).unwrap();
    std::fs::write(d.join("out"), &longer).unwrap();
    let run = arbor_bao(d, &["decode", &hash, "bad", "out"], b"");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let out = std::fs::read(d.join("out")).unwrap();
    assert!(out.len() < content.len());
    assert!(out == content[..out.len()]);
}

#[test]
fn an_input_truncated_while_it_is_encoded_is_an_error_not_a_crash() {
    const BIG: usize = 64 << 20;
    let temp = tempfile::tempdir().unwrap();
    let d = temp.path();
    let content = bytes(BIG, 4);
    let mut reported = 0;
    let cases: [&[&str]; 3] = [
        &["hash", "big"],
        &["encode", "big", "--outboard", "ob"],
        &["encode", "big", "enc"],
    ];
    let tries = 8;
    for args in cases {
        for attempt in 0..tries {
            std::fs::write(d.join("big"), &content).unwrap();
            let child = Command::new(arbor_path())
                .arg("bao")
                .args(args)
                .current_dir(d)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            std::thread::sleep(Duration::from_millis(1 + attempt * 4));
            std::fs::OpenOptions::new()
                .write(true)
                .open(d.join("big"))
                .unwrap()
                .set_len(4096)
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            let context = format!("{args:?}, try {attempt}: {stderr}");
            assert_eq!(out.status.signal(), None, "killed by a signal: {context}");
            assert!(!stderr.contains("panicked"), "{context}");
            match out.status.code() {
                Some(0) => {}
                Some(1) => {
                    assert!(stderr.contains("big: the file shrank"), "{context}");
                    // No encoding of a file that changed is kept.
                    if let Some(output) = args.iter().find(|a| ["ob", "enc"].contains(a)) {
                        let kept = std::fs::metadata(d.join(output)).map_or(0, |m| m.len());
                        assert_eq!(kept, 0, "{context}");
                    }
                    reported += 1;
                }
                code => panic!("exit {code:?}: {context}"),
            }
        }
    }
    eprintln!("{reported} of {} tries saw the truncation", 3 * tries);
    assert!(reported > 0, "no try caught the file while it was encoded");
}

#[test]
fn a_fifo_is_hashed_as_a_stream() {
    let temp = tempfile::tempdir().unwrap();
    let d = temp.path();
    let fifo = d.join("fifo");
    make_fifo(&fifo);
    let content = bytes(300_000, 5);
    let expected = format!("{}\n", bao::hash(&content).to_hex());
    let writer = {
        let (fifo, content) = (fifo.clone(), content.clone());
        std::thread::spawn(move || std::fs::write(fifo, content).unwrap())
    };
    let run = arbor_bao(d, &["hash", "fifo"], b"");
    writer.join().unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(run.stdout_text(), expected);
}

#[test]
fn a_failed_write_names_the_output() {
    if !Path::new("/dev/full").exists() {
        eprintln!("note: no /dev/full here; skipping");
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let d = temp.path();
    let content = bytes(300_000, 6);
    std::fs::write(d.join("in"), &content).unwrap();
    let (encoded, hash) = bao::encode(&content, GroupLog::ZERO);
    std::fs::write(d.join("enc"), &encoded).unwrap();
    let hash = hash.to_hex().to_string();
    let runs: [&[&str]; 3] = [
        &["encode", "in", "/dev/full"],
        &["decode", &hash, "enc", "/dev/full"],
        &["slice", "0", "100000", "enc", "/dev/full"],
    ];
    for args in runs {
        let run = arbor_bao(d, args, b"");
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("arbor bao: /dev/full: "),
            "{args:?}: {}",
            run.stderr
        );
    }
}
