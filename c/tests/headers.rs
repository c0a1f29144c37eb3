//! The hand-written headers in `include/` agree with the Rust definitions: every number a header
//! defines (constants, struct sizes in words) is compared with the crate's value. The symbol
//! lists are compared by `scripts/test-c.sh` (declared functions against the library's exports).

use std::collections::HashMap;

use arborhash::{blake2b, blake2s, blake3, tz};
use arborhash_capi::{blake2::STATE_WORDS, blake3::HASHER_WORDS, extra::VERSION, subtree};

/// The `#define NAME VALUE` lines and `NAME = VALUE` enumerators of a header.
fn defines(header: &str) -> HashMap<String, String> {
    let path = format!("{}/include/{header}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut found = HashMap::new();
    for line in text.lines().map(str::trim) {
        let pair = if let Some(rest) = line.strip_prefix("#define ") {
            rest.split_once(char::is_whitespace)
        } else if line.starts_with(char::is_uppercase) && line.contains(" = ") {
            line.trim_end_matches(',').split_once(" = ")
        } else {
            None
        };
        if let Some((name, value)) = pair {
            found.insert(name.trim().to_string(), value.trim().to_string());
        }
    }
    found
}

fn check(header: &str, expected: &[(&str, String)]) {
    let found = defines(header);
    let wrong: Vec<String> = expected
        .iter()
        .filter(|(name, value)| found.get(*name) != Some(value))
        .map(|(name, value)| format!("{name}: header {:?}, Rust {value}", found.get(*name)))
        .collect();
    assert!(
        wrong.is_empty(),
        "{header} disagrees with Rust:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn blake3_h() {
    let version = unsafe { std::ffi::CStr::from_ptr(arborhash_capi::blake3::blake3_version()) };
    check(
        "blake3.h",
        &[
            (
                "BLAKE3_VERSION_STRING",
                format!("{:?}", version.to_str().unwrap()),
            ),
            ("BLAKE3_KEY_LEN", blake3::KEY_LEN.to_string()),
            (
                "BLAKE3_CONTEXT_LEN",
                size_of::<blake3::hazmat::ContextKey>().to_string(),
            ),
            ("BLAKE3_OUT_LEN", blake3::OUT_LEN.to_string()),
            ("BLAKE3_BLOCK_LEN", blake3::BLOCK_LEN.to_string()),
            ("BLAKE3_CHUNK_LEN", blake3::CHUNK_LEN.to_string()),
            // 2^54 chunks of 1 KiB is the 2^64-byte input limit.
            (
                "BLAKE3_MAX_DEPTH",
                (64 - blake3::CHUNK_LEN.ilog2()).to_string(),
            ),
            ("ARBORHASH_BLAKE3_HASHER_WORDS", HASHER_WORDS.to_string()),
        ],
    );
}

#[test]
fn blake2_h() {
    check(
        "blake2.h",
        &[
            ("BLAKE2B_BLOCKBYTES", blake2b::BLOCKBYTES.to_string()),
            ("BLAKE2B_OUTBYTES", blake2b::OUTBYTES.to_string()),
            ("BLAKE2B_KEYBYTES", blake2b::KEYBYTES.to_string()),
            ("BLAKE2B_SALTBYTES", blake2b::SALTBYTES.to_string()),
            ("BLAKE2B_PERSONALBYTES", blake2b::PERSONALBYTES.to_string()),
            ("BLAKE2S_BLOCKBYTES", blake2s::BLOCKBYTES.to_string()),
            ("BLAKE2S_OUTBYTES", blake2s::OUTBYTES.to_string()),
            ("BLAKE2S_KEYBYTES", blake2s::KEYBYTES.to_string()),
            ("BLAKE2S_SALTBYTES", blake2s::SALTBYTES.to_string()),
            ("BLAKE2S_PERSONALBYTES", blake2s::PERSONALBYTES.to_string()),
            ("ARBORHASH_BLAKE2B_STATE_WORDS", STATE_WORDS[0].to_string()),
            ("ARBORHASH_BLAKE2S_STATE_WORDS", STATE_WORDS[1].to_string()),
            ("ARBORHASH_BLAKE2BP_STATE_WORDS", STATE_WORDS[2].to_string()),
            ("ARBORHASH_BLAKE2SP_STATE_WORDS", STATE_WORDS[3].to_string()),
        ],
    );
}

#[test]
fn arborhash_h() {
    check(
        "arborhash.h",
        &[
            (
                "ARBORHASH_VERSION_STRING",
                format!("{:?}", VERSION.to_str().unwrap()),
            ),
            ("ARBORHASH_TZ_OUT_LEN", tz::OUT_LEN.to_string()),
            ("ARBORHASH_OK", "0".to_string()),
            ("ARBORHASH_BAD_ARGUMENT", "(-1)".to_string()),
            ("ARBORHASH_INTERNAL_ERROR", "(-2)".to_string()),
            ("ARBORHASH_BLAKE3_MODE_HASH", subtree::MODE_HASH.to_string()),
            (
                "ARBORHASH_BLAKE3_MODE_KEYED_HASH",
                subtree::MODE_KEYED_HASH.to_string(),
            ),
            (
                "ARBORHASH_BLAKE3_MODE_DERIVE_KEY_MATERIAL",
                subtree::MODE_DERIVE_KEY_MATERIAL.to_string(),
            ),
        ],
    );
}
