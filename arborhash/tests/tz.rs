//! Tillich-Zémor: published vectors on every backend, a bit-by-bit oracle, the algebra.

use arborhash::platform::{with_backend, Backend};
use arborhash::tz::{self, Hash};
use std::path::PathBuf;

fn vectors() -> Option<serde_json::Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testvectors/tz.json");
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(serde_json::from_str(&s).expect("tz.json parses")),
        Err(_) => {
            eprintln!("note: {} absent, skipping", path.display());
            None
        }
    }
}

fn mod251(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn published_vectors_on_every_backend() {
    let Some(v) = vectors() else { return };
    for b in Backend::ALL {
        with_backend(b, || {
            for case in v["cases"].as_array().unwrap() {
                let input = match case["input"].as_str() {
                    Some(h) => hex(h),
                    None => mod251(case["input_len"].as_u64().unwrap() as usize),
                };
                let want = case["hash"].as_str().unwrap();
                assert_eq!(
                    tz::sum(&input).to_hex().as_str(),
                    want,
                    "{b} len {}",
                    input.len()
                );
            }
        })
    }
}
