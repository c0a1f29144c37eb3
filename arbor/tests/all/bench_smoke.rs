//! Smoke tests of `arbor bench`: each subcommand with tiny sizes and iterations, checking the
//! shape of what it prints and writes (never timings), with the peers if arbor is built with the
//! `bench-peers` feature and without them if not.

use arborhash::platform::Backend;
use std::path::PathBuf;
use std::process::{Command, Output};

/// Whether this build measures the other libraries.
const PEERS: bool = cfg!(feature = "bench-peers");

fn arbor(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(args)
        .output()
        .expect("running arbor");
    assert!(
        out.status.success(),
        "arbor {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn supported_backends() -> Vec<&'static str> {
    Backend::ALL
        .into_iter()
        .filter(|b| b.is_supported())
        .map(|b| b.name())
        .collect()
}

/// The table's body: the lines after the dashed rule.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let rule = lines
        .iter()
        .position(|l| l.starts_with("---"))
        .expect("a table rule");
    lines[rule + 1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(String::from)
                .collect()
        })
        .collect()
}

#[test]
fn speedtest_prints_one_aligned_row_per_contestant() {
    let out = arbor(&[
        "bench",
        "speedtest",
        "--size",
        "64",
        "--iterations",
        "20",
        "--repetitions",
        "2",
    ]);
    let text = stdout(&out);
    assert!(text.starts_with("CPU: "), "{text}");
    assert!(text.contains("\nfeatures: "), "{text}");
    let header = text.lines().find(|l| l.starts_with("contestant")).unwrap();
    for column in ["cycles/iter", "cycles/byte", "MB/s", "spread", "backend"] {
        assert!(header.contains(column), "{header}");
    }
    let rows = table_rows(&text);
    for row in &rows {
        assert_eq!(row.len(), 7, "{row:?}");
        // Only the format is checked: under load a short run can round to 0 MB/s.
        let mbps: f64 = row[5].parse().expect("MB/s is a number");
        assert!(mbps >= 0.0, "{row:?}");
    }
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    for name in ["NULL-NOP", "NULL-MEMCPY"] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }
    for name in ["CRC32C", "XXH64", "XXH3", "SHA-256"] {
        assert_eq!(names.contains(&name), PEERS, "{name}: {names:?}");
    }
    let peer_rows = rows.iter().filter(|r| r[1] != "arborhash" && r[1] != "-");
    assert_eq!(peer_rows.count() > 0, PEERS, "{text}");
    // Ours on every backend this CPU has, batch rows included.
    for backend in supported_backends() {
        for name in [
            "BLAKE2b",
            "BLAKE2s",
            "BLAKE2bp",
            "BLAKE2sp",
            "BLAKE3",
            "BLAKE3 x16",
        ] {
            assert!(
                rows.iter()
                    .any(|r| r[0] == name && r[1] == "arborhash" && r[2] == backend),
                "{name} on {backend} missing"
            );
        }
    }
    // Columns line up: every row is as wide as the rule, give or take the trimmed last cell.
    let rule = text.lines().find(|l| l.starts_with("---")).unwrap();
    let mbps_end = header.find("MB/s").unwrap() + "MB/s".len();
    for line in text.lines().skip_while(|l| !l.starts_with("---")).skip(1) {
        assert!(line.len() <= rule.len(), "{line}");
        assert!(line.is_char_boundary(mbps_end) && line.as_bytes()[mbps_end] == b' ');
    }
}

#[test]
fn speedtest_json_and_filter() {
    let out = arbor(&[
        "bench",
        "speedtest",
        "--size",
        "100",
        "--iterations",
        "5",
        "--repetitions",
        "1",
        "--filter",
        "nop, blake3 blake3 auto",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["size"], 100);
    let rows = json["rows"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    let expected: &[&str] = if PEERS {
        &["NULL-NOP", "BLAKE3"]
    } else {
        &["NULL-NOP"]
    };
    assert_eq!(names, expected);
    for r in rows {
        assert!(r["mb_per_s"].as_f64().unwrap() > 0.0);
        assert!(r["nanos_per_iteration"]["median"].as_f64().is_some());
    }
}

#[test]
fn pairs_prints_a_ratio_per_size_for_each_pair() {
    let out = arbor(&[
        "bench",
        "pairs",
        "--sizes",
        "64,4096",
        "--seconds",
        "0.01",
        "--filter",
        "BLAKE3 arborhash portable vs, BLAKE2b x16 arborhash portable vs, \
         BLAKE3 64 B writes arborhash portable vs",
    ]);
    let text = stdout(&out);
    assert!(text.starts_with("CPU: "), "{text}");
    assert!(text.contains("median"), "{text}");
    let rows = table_rows(&text);
    let pairs: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[2].as_str()))
        .collect();
    // Our batch row meets blake2b_simd's batch; our small writes meet the crate's and our own
    // one-shot hash, which is all that is left without the peers.
    let expected: &[(&str, &str)] = if PEERS {
        &[
            ("BLAKE3", "blake3"),
            ("BLAKE2b x16", "blake2b_simd"),
            ("BLAKE3 64 B writes", "blake3"),
            ("BLAKE3 64 B writes", "arborhash"),
        ]
    } else {
        &[("BLAKE3 64 B writes", "arborhash")]
    };
    assert_eq!(pairs, expected);
    for row in &rows {
        assert_eq!(row[1], "portable", "{row:?}");
        assert_eq!(row.len(), 6, "{row:?}");
        for cell in &row[4..] {
            let (median, fastest) = cell.split_once(' ').expect("median (fastest)");
            assert!(median.parse::<f64>().unwrap() > 0.0, "{row:?}");
            let fastest = fastest.trim_start_matches('(').trim_end_matches(')');
            assert!(fastest.parse::<f64>().unwrap() > 0.0, "{row:?}");
        }
    }
}

#[cfg(feature = "bench-peers")]
#[test]
fn pairs_json_pairs_a_batch_row_with_the_peer_one_by_one() {
    let out = arbor(&[
        "bench",
        "pairs",
        "--sizes",
        "1024",
        "--seconds",
        "0.01",
        "--filter",
        "BLAKE3 x16 arborhash portable vs BLAKE3 x16 blake3 auto",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = json["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{json}");
    assert!(rows[0]["peer_backend"]
        .as_str()
        .unwrap()
        .ends_with("one by one"));
    let ratio = &rows[0]["peer_over_ours"][0];
    assert!(ratio["pairs"].as_u64().unwrap() >= 3, "{json}");
    assert!(ratio["median"].as_f64().unwrap() > 0.0, "{json}");
}

#[test]
fn pairs_rejects_a_bad_duration_and_an_empty_filter() {
    for (args, message) in [
        (&["--seconds", "0"][..], "--seconds"),
        (&["--seconds", "NaN"][..], "--seconds"),
        (&["--filter", "no-such-hash"][..], "matches no pair"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_arbor"))
            .args(["bench", "pairs"])
            .args(args)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(message),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_filter_matching_nothing_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["bench", "speedtest", "--filter", "no-such-hash"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("matches no contestant"));
}

#[test]
fn sizes_writes_markdown_json_and_svg() {
    let dir = std::env::temp_dir().join(format!("arbor-bench-sizes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = arbor(&[
        "bench",
        "sizes",
        "--out",
        dir.to_str().unwrap(),
        "--min-size",
        "64",
        "--max-size",
        "1024",
        "--time-ms",
        "1",
        "--repetitions",
        "1",
        "--threads",
        "2",
        "--filter",
        "memcpy,blake2b x16,blake3 blake3",
    ]);
    let text = stdout(&out);
    assert!(text.contains("| contestant"), "{text}");
    let read = |name: &str| -> String {
        let path: PathBuf = dir.join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let json: serde_json::Value = serde_json::from_str(&read("sizes.json")).unwrap();
    assert_eq!(json["sizes"], serde_json::json!([64, 256, 1024]));
    assert_eq!(json["threads"], 2);
    let rows = json["rows"].as_array().unwrap();
    assert!(rows.len() >= 3, "{rows:?}");
    for r in rows {
        for key in ["one_thread_gb_per_s", "all_threads_gb_per_s"] {
            let values = r[key].as_array().unwrap();
            assert_eq!(values.len(), 3, "{r}");
            assert!(values.iter().all(|v| v.as_f64().unwrap() > 0.0), "{r}");
        }
    }
    let md = read("sizes.md");
    assert_eq!(md.matches("| contestant").count(), 2, "{md}");
    // Numeric columns are right-aligned, so a header cell is padded to its widest figure.
    assert!(
        md.lines().any(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            cells.contains(&"64 B") && cells.contains(&"1 KiB")
        }),
        "{md}"
    );
    if PEERS {
        let svg = read("sizes.svg");
        assert!(svg.contains("<svg") && svg.contains("</svg>"));
        assert!(svg.contains("NULL-MEMCPY"), "legend names the series");
    } else {
        assert!(!dir.join("sizes.svg").exists());
    }

    // Replotting a saved run measures nothing and rewrites the Markdown and the plot.
    let replot = dir.join("replot");
    let json_path = dir.join("sizes.json");
    arbor(&[
        "bench",
        "sizes",
        "--from-json",
        json_path.to_str().unwrap(),
        "--out",
        replot.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(replot.join("sizes.md")).unwrap(),
        md
    );
    assert_eq!(replot.join("sizes.svg").exists(), PEERS);
    assert!(!replot.join("sizes.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn says_on_stderr_whether_the_peers_are_in_the_build() {
    let out = arbor(&["bench", "speedtest", "--list"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if PEERS {
        assert_eq!(stderr, "");
    } else {
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("--features bench-peers"), "{stderr}");
    }
}

#[cfg(not(feature = "bench-peers"))]
#[test]
fn tree_without_the_lab_says_what_the_build_lacks() {
    let out = Command::new(env!("CARGO_BIN_EXE_arbor"))
        .args(["bench", "tree", "--size", "4096"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("tree lab") && stderr.contains("--features bench-peers"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[cfg(feature = "bench-peers")]
#[test]
fn tree_prints_each_variant_with_and_without_batched_parents() {
    let out = arbor(&[
        "bench",
        "tree",
        "--size",
        "200000",
        "--threads",
        "2",
        "--repetitions",
        "1",
        "--filter",
        "standard,hybrid BLAKE2b/BLAKE2s,BLAKE3 4 KiB",
    ]);
    let text = stdout(&out);
    assert!(text.contains("2 threads GiB/s"), "{text}");
    let rows = table_rows(&text);
    assert_eq!(rows.len(), 6, "{text}");
    for pair in rows.chunks(2) {
        assert_eq!(pair[0][0], pair[1][0]);
        assert_eq!(pair[0][5], "one by one");
        assert_eq!(pair[1][5], "batched");
    }
    let standard = &rows[0];
    assert_eq!(
        &standard[..6],
        [
            "BLAKE2b standard",
            "4 KiB",
            "2",
            "BLAKE2b",
            "BLAKE2b",
            "one by one"
        ]
    );
    assert_eq!(standard[7], "1.000x");
    assert_eq!(standard[9], "1.000x");
}
