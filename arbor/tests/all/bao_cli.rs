//! `arbor bao`: every subcommand through files and pipes, at group logs 0 and 4, against the
//! library; a corrupt encoding exits 1 with only verified bytes on stdout.

use arborhash::bao::{self, GroupLog};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn arbor(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn ok(out: &Output) -> &[u8] {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    &out.stdout
}

fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 1000) as u8).collect()
}

#[test]
fn round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (log, len) in [(0u8, 0usize), (0, 1), (0, 200_000), (4, 300_001)] {
        let g = GroupLog::new(log).unwrap();
        let gs = log.to_string();
        let content = input(len);
        std::fs::write(d.join("in"), &content).unwrap();
        let hash = bao::hash(&content).to_hex().to_string();
        let flags = ["--group-log", gs.as_str()];
        let with = |args: &[&str]| -> Vec<String> {
            args.iter()
                .chain(flags.iter())
                .map(|s| s.to_string())
                .collect()
        };
        let run = |args: &[&str], stdin: &[u8]| {
            let args = with(args);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            arbor(d, &args, stdin)
        };

        assert_eq!(
            ok(&run(&["bao", "hash", "in"], b"")),
            format!("{hash}\n").as_bytes()
        );
        assert_eq!(
            ok(&run(&["bao", "hash"], &content)),
            format!("{hash}\n").as_bytes()
        );

        ok(&run(&["bao", "encode", "in", "enc"], b""));
        ok(&run(&["bao", "encode", "in", "--outboard", "ob"], b""));
        let encoded = std::fs::read(d.join("enc")).unwrap();
        let outboard = std::fs::read(d.join("ob")).unwrap();
        assert!(encoded == bao::encode(&content, g).0);
        assert!(outboard == bao::outboard(&content, g).0);
        assert!(ok(&run(&["bao", "encode", "-", "-"], &content)) == encoded);

        assert!(ok(&run(&["bao", "decode", &hash, "enc"], b"")) == content);
        assert!(ok(&run(&["bao", "decode", &hash], &encoded)) == content);
        ok(&run(&["bao", "decode", &hash, "-", "out"], &encoded));
        assert!(std::fs::read(d.join("out")).unwrap() == content);
        let decoded = run(&["bao", "decode", &hash, "in", "--outboard", "ob"], b"");
        assert!(ok(&decoded) == content);

        let (start, count) = (len as u64 / 3, len as u64 / 4 + 1);
        let (s, c) = (start.to_string(), count.to_string());
        let slice = ok(&run(&["bao", "slice", &s, &c, "enc"], b"")).to_vec();
        let from_outboard = run(&["bao", "slice", &s, &c, "in", "--outboard", "ob"], b"");
        assert!(ok(&from_outboard) == slice);
        let part = ok(&run(&["bao", "decode-slice", &hash, &s, &c], &slice)).to_vec();
        let end = (start + count).min(len as u64) as usize;
        assert!(part == content[start as usize..end]);
    }
}

#[test]
fn corrupt_input_exits_1_with_only_verified_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let content = input(1 << 20);
    let (mut encoded, hash) = bao::encode(&content, GroupLog::ZERO);
    let at = encoded.len() / 2;
    encoded[at] ^= 1;
    let hash = hash.to_hex().to_string();
    let out = arbor(d, &["bao", "decode", &hash], &encoded);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.len() < content.len());
    assert!(out.stdout == content[..out.stdout.len()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("verification failed"), "{stderr}");

    let wrong = "00".repeat(32);
    let out = arbor(
        d,
        &["bao", "decode", &wrong],
        &bao::encode(&content, GroupLog::ZERO).0,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());

    let out = arbor(d, &["bao", "decode", &hash, "no-such-file"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no-such-file"));

    let out = arbor(d, &["bao", "--group-log", "99", "hash"], b"");
    assert_eq!(out.status.code(), Some(1));
}
