//! Keeps `go/testdata/vectors.json`, the known answers the Go module checks, in step with this
//! library: the file is rebuilt in memory from `arborhash::blake3` and `arborhash::tz` and
//! compared with the committed one. `UPDATE_GO_VECTORS=1 cargo test -p arborhash --test
//! go_vectors` rewrites it; the Go side regenerates the same text from its reference libraries
//! (`UPDATE_GO_VECTORS=1 go test ./internal/vectors`).

use arborhash::blake3::Hasher;
use serde_json::{json, Value};
use std::path::Path;

/// Lengths around the Go kernels' boundaries: blocks, chunks, the 4- and 8-lane batches, the
/// 8-chunk buffer and the 64-chunk subtrees.
const BLAKE3_LENGTHS: &[usize] = &[
    0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 3072, 4095, 4096, 4097, 5120, 8191, 8192, 8193, 9216,
    16384, 16385, 65536, 65537, 131072, 200003,
];
/// Lengths around the Go TZ kernel's three-byte windows and its tables.
const TZ_LENGTHS: &[usize] = &[
    0, 1, 2, 3, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 1024, 4097,
];
const KEY: &str = "arborhash go/testdata vectors k1";
const CONTEXT: &str = "arborhash 2026-11-22 go test vectors";
const OUTPUT_LEN: usize = 131;
const COMMENT: &str = "Known-answer vectors for the Go module, checked by go/internal/vectors. \
    Regenerate from the Rust library with UPDATE_GO_VECTORS=1 cargo test -p arborhash --test \
    go_vectors, or from the reference Go libraries with UPDATE_GO_VECTORS=1 go test \
    ./internal/vectors; both write this file.";

/// Byte `i` of every input is `i % 251`.
fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn extended_output(mut hasher: Hasher, input: &[u8]) -> String {
    hasher.update(input);
    let mut out = [0u8; OUTPUT_LEN];
    hasher.finalize_xof().fill(&mut out);
    hex(&out)
}

/// The whole file, with keys in the order serde_json writes them (sorted), which the Go
/// generator follows too.
fn generate() -> Value {
    let key: &[u8; 32] = KEY.as_bytes().try_into().unwrap();
    let blake3_cases: Vec<Value> = BLAKE3_LENGTHS
        .iter()
        .map(|&len| {
            let input = input(len);
            json!({
                "derive_key": extended_output(Hasher::new_derive_key(CONTEXT), &input),
                "hash": extended_output(Hasher::new(), &input),
                "input_len": len,
                "keyed_hash": extended_output(Hasher::new_keyed(key), &input),
            })
        })
        .collect();
    let tz_cases: Vec<Value> = TZ_LENGTHS
        .iter()
        .map(|&len| {
            let hash = arborhash::tz::sum(&input(len));
            json!({ "hash": hex(&hash.as_bytes()), "input_len": len })
        })
        .collect();
    json!({
        "_comment": COMMENT,
        "blake3": {
            "cases": blake3_cases,
            "context": CONTEXT,
            "key": KEY,
            "output_len": OUTPUT_LEN,
        },
        "input": "byte i is i % 251",
        "tz": { "cases": tz_cases },
    })
}

#[test]
fn go_vectors_are_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../go/testdata/vectors.json");
    let generated = generate();
    if std::env::var("UPDATE_GO_VECTORS").as_deref() == Ok("1") {
        let mut text = serde_json::to_string_pretty(&generated).unwrap();
        text.push('\n');
        std::fs::write(&path, text).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let committed: Value = serde_json::from_str(&text).unwrap();
    assert!(
        committed == generated,
        "{} is out of date: run UPDATE_GO_VECTORS=1 cargo test -p arborhash --test go_vectors",
        path.display()
    );
}
