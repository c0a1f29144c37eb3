//! Property tests of the check-list parser: arbitrary bytes never panic, and every line arbor
//! writes parses back to the same name and hash.

use arbor::algorithm::Algorithm;
use arbor::checklist::{parse_line, Dialect, Line};
use arbor::escape::{self, Style};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

const DIALECTS: [Dialect; 3] = [Dialect::Arbor, Dialect::B3sum, Dialect::Coreutils];

/// A runner with a fixed seed, so that a failure reproduces.
fn runner(cases: u32) -> TestRunner {
    TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
    )
}

/// Bytes biased towards the characters the parser cares about.
fn line_bytes() -> impl Strategy<Value = Vec<u8>> {
    let interesting = prop_oneof![
        any::<u8>(),
        Just(b' '),
        Just(b'\\'),
        Just(b'('),
        Just(b')'),
        Just(b'='),
        Just(b'-'),
        Just(b'*'),
        Just(b'\r'),
        Just(b'a'),
        Just(b'0'),
    ];
    let prefix = prop_oneof![
        Just(Vec::new()),
        Just(b"BLAKE3 (".to_vec()),
        Just(b"\\BLAKE2b-256 (".to_vec()),
        Just(b"BLAKE2sp (".to_vec()),
        Just("00".repeat(32).into_bytes()),
    ];
    (prefix, proptest::collection::vec(interesting, 0..160)).prop_map(|(mut p, rest)| {
        p.extend(rest);
        p
    })
}

#[test]
fn random_lines_never_panic() {
    runner(10_000)
        .run(&line_bytes(), |line| {
            for dialect in DIALECTS {
                for default in Algorithm::ALL {
                    let _ = parse_line(&line, default, dialect);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn written_lines_parse_back() {
    let strategy = (
        proptest::collection::vec(any::<u8>(), 1..60),
        proptest::collection::vec(any::<u8>(), 1..=32),
        any::<bool>(),
    );
    runner(5_000)
        .run(&strategy, |(name, hash, tagged)| {
            prop_assume!(!name.contains(&0));
            let listed = escape::for_list(&name, Style::Coreutils);
            let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
            let mut line = Vec::new();
            if listed.escaped {
                line.push(b'\\');
            }
            if tagged {
                line.extend_from_slice(format!("BLAKE2s-{} (", hash.len() * 8).as_bytes());
                line.extend_from_slice(&listed.text);
                line.extend_from_slice(format!(") = {hex}").as_bytes());
            } else {
                line.extend_from_slice(format!("{hex}  ").as_bytes());
                line.extend_from_slice(&listed.text);
            }
            match parse_line(&line, Algorithm::Blake2s, Dialect::Arbor) {
                Ok(Line::Entry(entry)) => {
                    prop_assert_eq!(entry.algorithm, Algorithm::Blake2s);
                    prop_assert_eq!(entry.expected, hash);
                    prop_assert_eq!(entry.path, name);
                }
                // Names arbor refuses to check: U+FFFD, the mark of lost bytes.
                Err(arbor::checklist::ParseError::Replacement) => {
                    let replacement = "\u{FFFD}".as_bytes();
                    prop_assert!(name.windows(3).any(|w| w == replacement))
                }
                other => prop_assert!(
                    false,
                    "{:?} gave {:?}",
                    String::from_utf8_lossy(&line),
                    other
                ),
            }
            Ok(())
        })
        .unwrap();
}
