//! Coreutils and b3sum details: b2sum's getopt behaviour compared with coreutils itself, check
//! lines with one space or a tab, `-c -z`, the hint for b2sum lists, drop-in `--version`, `-r`
//! with broken links, `--json`, and the generated completions and manual page.
#![cfg(unix)]

use crate::common::*;

#[test]
fn b2sum_options_behave_as_coreutils_getopt() {
    let b2sum = peer("b2sum");
    let (_dir, ours) = dropin("b2sum");
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    std::fs::write(dir.join("list"), b"").unwrap();
    for args in [
        &["-l", "256", "-l", "128", "size-64"][..],
        &["--tag", "--tag", "size-64"],
        &["-tb", "size-64"],
        &["-bt", "size-64"],
        &["--len=256", "size-64"],
        &["--stat", "size-64"],
        &["--st", "size-64"],
        &["-c", "--status", "--quiet", "list"],
        &["-c", "--quiet", "-w", "list"],
        &["-c", "-z", "list"],
        &["--tag", "-t", "size-64"],
        &["-t", "--tag", "size-64"],
        &["-h"],
        &["-V"],
        &["--bogus=1"],
        &["-l"],
        &["--length"],
        &["--tag=1", "size-64"],
        &["size-64", "--", "-b"],
        &["-l", "9", "size-64"],
    ] {
        // Both run under the name "b2sum", as coreutils prints its argv[0].
        let theirs = run_in(dir, &b2sum, &os(args), b"");
        let ours_run = run_in(dir, &ours, &os(args), b"");
        let ours_stderr = ours_run
            .stderr
            .replace(&*ours.to_string_lossy(), &b2sum.to_string_lossy());
        assert_eq!(ours_run.code, theirs.code, "{args:?}: {}", ours_run.stderr);
        assert_eq!(ours_run.stdout, theirs.stdout, "{args:?}");
        assert_eq!(ours_stderr, theirs.stderr, "{args:?}");
    }
}

#[test]
fn check_lines_with_one_space_or_a_tab_are_read_as_coreutils_reads_them() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let made = arbor_sum(dir, &os(&["-a", "blake2b", "size-64"]), b"");
    let hex = made.stdout_text()[..128].to_string();
    let (_links, b2sum) = dropin("b2sum");
    for separator in [" ", "\t"] {
        std::fs::write(dir.join("list"), format!("{hex}{separator}size-64\n")).unwrap();
        let ours = arbor_sum(dir, &os(&["-a", "blake2b", "-c", "list"]), b"");
        assert_eq!(
            ours.stdout_text(),
            "size-64: OK\n",
            "{separator:?}: {}",
            ours.stderr
        );
        let dropin = run_in(dir, &b2sum, &os(&["-c", "list"]), b"");
        assert_eq!(dropin.stdout_text(), "size-64: OK\n", "{separator:?}");
        let theirs = peer("b2sum");
        assert_eq!(
            run_in(dir, &theirs, &os(&["-c", "list"]), b"").stdout,
            dropin.stdout
        );
    }
    // Without -a, a b2sum list gets a hint rather than only FAILED lines.
    std::fs::write(dir.join("list"), &made.stdout).unwrap();
    let run = arbor_sum(dir, &os(&["-c", "list"]), b"");
    assert_eq!(run.code, Some(1));
    assert!(run.stderr.contains("try -a blake2b"), "{}", run.stderr);
}

#[test]
fn lists_of_names_that_are_not_utf8_can_be_written_and_checked() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let names = with_names(&["-z"], &corpus.names);
    let list = arbor_sum(dir, &names, b"");
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    std::fs::write(dir.join("list"), &list.stdout).unwrap();
    let run = arbor_sum(dir, &os(&["-c", "-z", "list"]), b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        run.stdout
            .split(|&b| b == b'\n')
            .filter(|l| l.ends_with(b": OK"))
            .count(),
        corpus.names.len()
    );
    // A real name holding U+FFFD is checked like any other.
    std::fs::write(dir.join("caf\u{FFFD}"), b"x").unwrap();
    let list = arbor_sum(dir, &os(&["caf\u{FFFD}"]), b"");
    std::fs::write(dir.join("list"), &list.stdout).unwrap();
    let run = arbor_sum(dir, &os(&["-c", "list"]), b"");
    assert_eq!(run.stdout_text(), "caf\u{FFFD}: OK\n", "{}", run.stderr);
}

#[test]
fn dropin_versions_name_arbor() {
    for tool in ["b2sum", "b3sum"] {
        let (_dir, link) = dropin(tool);
        let run = run_in(std::path::Path::new("."), &link, &os(&["--version"]), b"");
        assert_eq!(run.code, Some(0));
        let text = run.stdout_text();
        assert!(
            text.starts_with(&format!("{tool} (arbor) {}", env!("CARGO_PKG_VERSION"))),
            "{text}"
        );
        assert!(text.contains("drop-in"), "{text}");
    }
}

#[test]
fn recursive_runs_can_skip_broken_links() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::create_dir(dir.join("d")).unwrap();
    std::fs::write(dir.join("d/file"), b"x").unwrap();
    std::os::unix::fs::symlink("nowhere", dir.join("d/dangling")).unwrap();
    std::os::unix::fs::symlink("loop-b", dir.join("d/loop-a")).unwrap();
    std::os::unix::fs::symlink("loop-a", dir.join("d/loop-b")).unwrap();
    let strict = arbor_sum(dir, &os(&["-r", "d"]), b"");
    assert_eq!(strict.code, Some(1));
    assert!(
        strict.stderr.contains("d/dangling: No such file"),
        "{}",
        strict.stderr
    );
    let lenient = arbor_sum(dir, &os(&["-r", "--skip-broken-links", "d"]), b"");
    assert_eq!(lenient.code, Some(0), "{}", lenient.stderr);
    assert_eq!(lenient.stdout, strict.stdout);
    for name in ["dangling", "loop-a", "loop-b"] {
        assert!(
            lenient.stderr.contains(&format!("d/{name}: skipped")),
            "{}",
            lenient.stderr
        );
    }
}

#[test]
fn json_lines_carry_path_algorithm_hash_and_size() {
    let corpus = Corpus::new(false);
    let dir = corpus.path();
    let args = with_names(
        &["--json", "-a", "blake2s"],
        &[name(b"size-1025"), name(NON_UTF8)],
    );
    let run = arbor_sum(dir, &args, b"");
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let plain = arbor_sum(dir, &os(&["-a", "blake2s", "size-1025"]), b"");
    let lines: Vec<serde_json::Value> = run
        .stdout_text()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines[0]["path"], "size-1025");
    assert_eq!(lines[0]["algorithm"], "blake2s");
    assert_eq!(lines[0]["size"], 1025);
    assert_eq!(
        lines[0]["hash"].as_str().unwrap(),
        &plain.stdout_text()[..64]
    );
    let raw: Vec<u8> = lines[1]["path"]["bytes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(raw, NON_UTF8);
}

#[test]
fn completions_and_the_manual_are_generated() {
    let here = std::path::Path::new(".");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = run_in(here, &arbor_path(), &os(&["completions", shell]), b"");
        assert_eq!(run.code, Some(0), "{shell}: {}", run.stderr);
        assert!(run.stdout_text().contains("manifest"), "{shell}");
    }
    let man = run_in(here, &arbor_path(), &os(&["man"]), b"");
    assert_eq!(man.code, Some(0), "{}", man.stderr);
    let text = man.stdout_text();
    assert!(
        text.starts_with(".ie") || text.contains(".TH"),
        "{}",
        &text[..100]
    );
    assert!(text.contains("manifest") && text.contains("bench"));
}

#[test]
fn bench_lists_its_names_and_takes_sizes_with_units() {
    let here = std::path::Path::new(".");
    let list = run_in(
        here,
        &arbor_path(),
        &os(&["bench", "speedtest", "--list"]),
        b"",
    );
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list
        .stdout_text()
        .lines()
        .any(|l| l.starts_with("BLAKE3 arborhash")));
    let pairs = run_in(here, &arbor_path(), &os(&["bench", "pairs", "--list"]), b"");
    assert!(pairs.stdout_text().contains(" vs "));
    let run = run_in(
        here,
        &arbor_path(),
        &os(&[
            "bench",
            "speedtest",
            "--size",
            "1k",
            "--iterations",
            "10",
            "--repetitions",
            "1",
            "--filter",
            "NULL-NOP",
        ]),
        b"",
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bad = run_in(
        here,
        &arbor_path(),
        &os(&["bench", "speedtest", "--size", "4q"]),
        b"",
    );
    assert!(bad.stderr.contains("unknown unit"), "{}", bad.stderr);
    let help = run_in(here, &arbor_path(), &os(&["bench", "sizes", "--help"]), b"");
    assert!(help.stdout_text().contains("--num-threads"));
}
