//! `arbor sum`'s BLAKE2 command line: every parameter of the specification against Python's
//! hashlib, BLAKE2X and keyed BLAKE2bp/BLAKE2sp against the shared known-answer vectors, limits
//! named in errors, and keyed, tagged and BLAKE2X lists that check.
#![cfg(unix)]

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One set of parameters, as `arbor sum` flags and as hashlib keyword arguments.
struct Case {
    flags: Vec<String>,
    python: String,
}

/// Deterministic parameter sets over both algorithms, each parameter at zero, small and extreme
/// values.
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    for i in 0..40 {
        let (algorithm, out, salt_max, offset_max) = if i % 2 == 0 {
            ("blake2b", 64, 16, u64::MAX)
        } else {
            ("blake2s", 32, 8, (1 << 48) - 1)
        };
        let length = 1 + next(out);
        let key = bytes(next(out + 1) as usize, i);
        let salt = bytes(next(salt_max + 1) as usize, i + 100);
        let personal = bytes(next(salt_max + 1) as usize, i + 200);
        let fanout = [0, 1, 2, 255][next(4) as usize];
        let depth = [1, 2, 3, 255][next(4) as usize];
        let leaf = [0, 1, 4096, u64::from(u32::MAX)][next(4) as usize];
        let offset = [0, 1, 1 << 40, offset_max][next(4) as usize];
        let node_depth = [0, 1, 255][next(3) as usize];
        let inner = [0, 1, out][next(3) as usize];
        let last = next(2) == 1;
        let mut flags: Vec<String> = vec![
            "-a".into(),
            algorithm.into(),
            "-l".into(),
            length.to_string(),
            format!("--fanout={fanout}"),
            format!("--max-depth={depth}"),
            format!("--max-leaf-length={leaf}"),
            format!("--node-offset={offset}"),
            format!("--node-depth={node_depth}"),
            format!("--inner-hash-length={inner}"),
        ];
        for (name, value) in [
            ("--key", &key),
            ("--salt", &salt),
            ("--personal", &personal),
        ] {
            if !value.is_empty() {
                flags.push(format!("{name}={}", hex(value)));
            }
        }
        if last {
            flags.push("--last-node".into());
        }
        let python = format!(
            "hashlib.{algorithm}(data, digest_size={length}, key=bytes.fromhex('{}'), \
             salt=bytes.fromhex('{}'), person=bytes.fromhex('{}'), fanout={fanout}, \
             depth={depth}, leaf_size={leaf}, node_offset={offset}, node_depth={node_depth}, \
             inner_size={inner}, last_node={}).hexdigest()",
            hex(&key),
            hex(&salt),
            hex(&personal),
            if last { "True" } else { "False" }
        );
        cases.push(Case { flags, python });
    }
    cases
}

#[test]
fn every_blake2_parameter_matches_hashlib() {
    let python = peer("python3");
    let temp = tempfile::tempdir().unwrap();
    let data = bytes(1000, 42);
    std::fs::write(temp.path().join("input"), &data).unwrap();
    let cases = cases();
    let script = format!(
        "import hashlib, sys\ndata = open(sys.argv[1], 'rb').read()\n{}",
        cases
            .iter()
            .map(|case| format!("print({})\n", case.python))
            .collect::<String>()
    );
    let out = Command::new(python)
        .args(["-c", &script])
        .arg(temp.path().join("input"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = String::from_utf8(out.stdout).unwrap();
    for (case, expected) in cases.iter().zip(expected.lines()) {
        let mut args = os(&case.flags.iter().map(String::as_str).collect::<Vec<_>>());
        args.push("input".into());
        let run = arbor_sum(temp.path(), &args, b"");
        assert_eq!(run.code, Some(0), "{:?}: {}", case.flags, run.stderr);
        assert_eq!(
            run.stdout_text(),
            format!("{expected}  input\n"),
            "{:?}",
            case.flags
        );
    }
}

#[test]
fn out_of_range_parameters_name_the_limit() {
    let temp = tempfile::tempdir().unwrap();
    std::fs::write(temp.path().join("f"), b"x").unwrap();
    for (args, message) in [
        (
            &["-a", "blake2b", "--salt", &"00".repeat(17)][..],
            "--salt: blake2b takes at most 16 bytes, got 17",
        ),
        (
            &["-a", "blake2s", "--personal", &"00".repeat(9)],
            "--personal: blake2s takes at most 8 bytes, got 9",
        ),
        (
            &["-a", "blake2s", "--node-offset", "281474976710656"],
            "--node-offset: blake2s takes less than 2^48",
        ),
        (
            &["-a", "blake2s", "--inner-hash-length", "33"],
            "--inner-hash-length: blake2s takes at most 32",
        ),
        (
            &["-a", "blake2b", "--fanout", "256"],
            "256 is not in 0..=255",
        ),
        (
            &["-a", "blake2b", "--max-depth", "0"],
            "0 is not in 1..=255",
        ),
        (
            &["-a", "blake2b", "--max-leaf-length", "4294967296"],
            "--max-leaf-length",
        ),
        (
            &["-a", "blake2b", "--key", &"00".repeat(65)],
            "blake2b needs a key of 1 to 64 bytes, found 65",
        ),
        (
            &["-a", "blake2bp", "--salt", "00"],
            "blake2bp takes no salt",
        ),
        (
            &["-a", "blake2xb", "--fanout", "2"],
            "blake2xb sets the tree parameters itself",
        ),
        (
            &["-a", "blake3", "--personal", "00"],
            "blake3 takes no salt",
        ),
        (
            &["-a", "blake2xs", "-l", "65536"],
            "it takes 1 to 65535 bytes",
        ),
        (
            &["-a", "blake2b", "--salt", "0"],
            "an odd number of hex digits",
        ),
        (&["-a", "blake2b", "--salt", "01", "--tag"], "--tag"),
    ] {
        let mut all = os(args);
        all.push("f".into());
        let run = arbor_sum(temp.path(), &all, b"");
        assert_ne!(run.code, Some(0), "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
    }
}

/// The published known-answer vectors (`testvectors/` in the repository).
fn kat() -> Vec<serde_json::Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testvectors/blake2-kat.json");
    let text = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("the BLAKE2 vectors, {}: {e}", path.display()));
    serde_json::from_slice(&text).unwrap()
}

#[test]
fn blake2x_and_keyed_parallel_variants_match_the_kat() {
    let vectors = kat();
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let mut checked = 0;
    for (i, vector) in vectors.iter().enumerate() {
        let field = |name: &str| vector[name].as_str().unwrap().to_string();
        let (algorithm, input, key, out) = (field("hash"), field("in"), field("key"), field("out"));
        let selected = match algorithm.as_str() {
            // Lengths at and around the block and output sizes.
            "blake2xb" | "blake2xs" => {
                [1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256].contains(&(out.len() / 2))
            }
            // A few keyed inputs around the block size.
            "blake2bp" | "blake2sp" => {
                !key.is_empty() && [0, 1, 64, 65, 128, 255].contains(&(input.len() / 2))
            }
            _ => false,
        };
        if !selected {
            continue;
        }
        let name = format!("in{i}");
        let data: Vec<u8> = (0..input.len() / 2)
            .map(|k| u8::from_str_radix(&input[2 * k..2 * k + 2], 16).unwrap())
            .collect();
        std::fs::write(dir.join(&name), data).unwrap();
        let mut args = vec![
            "-a".to_string(),
            algorithm.clone(),
            "-l".into(),
            (out.len() / 2).to_string(),
        ];
        if !key.is_empty() {
            args.push(format!("--key={key}"));
        }
        args.push(name.clone());
        let run = arbor_sum(
            dir,
            &os(&args.iter().map(String::as_str).collect::<Vec<_>>()),
            b"",
        );
        assert_eq!(
            run.stdout_text(),
            format!("{out}  {name}\n"),
            "{args:?}: {}",
            run.stderr
        );
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} vectors selected");
}

fn list_and_check(dir: &Path, make: &[&str], check: &[&str], stdin: &[u8]) -> (Run, Run) {
    let mut args = os(make);
    args.push("f".into());
    let made = arbor_sum(dir, &args, stdin);
    assert_eq!(made.code, Some(0), "{make:?}: {}", made.stderr);
    std::fs::write(dir.join("list"), &made.stdout).unwrap();
    let mut args = os(check);
    args.extend(os(&["-c", "list"]));
    (made, arbor_sum(dir, &args, stdin))
}

#[test]
fn blake2x_keyed_and_parameterised_lists_can_be_checked() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    std::fs::write(dir.join("f"), bytes(5000, 9)).unwrap();
    // BLAKE2X at lengths beyond BLAKE2's, tagged and not.
    for make in [
        &["-a", "blake2xb", "-l", "1000", "--tag"][..],
        &["-a", "blake2xs", "-l", "65535", "--tag"],
        &["-a", "blake2xb", "-l", "200"],
    ] {
        let algorithm = make[1];
        let (made, checked) = list_and_check(dir, make, &["-a", algorithm], b"");
        assert_eq!(
            checked.stdout_text(),
            "f: OK\n",
            "{make:?}: {}",
            checked.stderr
        );
        if make.contains(&"--tag") {
            let tag = if algorithm == "blake2xb" {
                "BLAKE2Xb-8000 (f) = "
            } else {
                "BLAKE2Xs-524280 (f) = "
            };
            assert!(
                made.stdout_text().starts_with(tag),
                "{}",
                made.stdout_text()
            );
        }
    }
    // A MAC's tagged line says so, and checks only with the key.
    let key = "0011223344556677";
    let (made, checked) = list_and_check(
        dir,
        &["-a", "blake2s", "--key", key, "--tag"],
        &["--key", key],
        b"",
    );
    assert!(
        made.stdout_text().starts_with("BLAKE2s keyed (f) = "),
        "{}",
        made.stdout_text()
    );
    assert_eq!(checked.stdout_text(), "f: OK\n");
    let without = arbor_sum(dir, &os(&["-c", "list"]), b"");
    assert_eq!(without.code, Some(1));
    assert!(without
        .stdout_text()
        .contains("f: FAILED (a keyed hash: give the key"));
    let wrong = arbor_sum(dir, &os(&["--key", "00", "-c", "list"]), b"");
    assert_eq!(wrong.stdout_text(), "f: FAILED\n");
    // The key from standard input, for an untagged BLAKE3 list.
    let raw_key = [7u8; 32];
    let (_, checked) = list_and_check(dir, &["--keyed"], &["--keyed"], &raw_key);
    assert_eq!(checked.stdout_text(), "f: OK\n", "{}", checked.stderr);
    // Salt and personalization, given again.
    let params = ["-a", "blake2b", "--salt", "0102", "--personal", "0304"];
    let (_, checked) = list_and_check(dir, &params, &params, b"");
    assert_eq!(checked.stdout_text(), "f: OK\n", "{}", checked.stderr);
}

#[test]
fn a_key_ending_in_a_newline_gets_a_warning() {
    let temp = tempfile::tempdir().unwrap();
    std::fs::write(temp.path().join("f"), b"x").unwrap();
    let run = arbor_sum(
        temp.path(),
        &os(&["-a", "blake2b", "--keyed", "f"]),
        b"secret\n",
    );
    assert_eq!(run.code, Some(0));
    assert!(run.stderr.contains("ends with a newline"), "{}", run.stderr);
    let run = arbor_sum(
        temp.path(),
        &os(&["-a", "blake2b", "--keyed", "f"]),
        b"secret",
    );
    assert_eq!(run.stderr, "");
}
