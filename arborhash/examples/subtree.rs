//! One step of building a BLAKE3 tree in parts, as a command: the chaining value of one subtree
//! of a file, or the merge of two children. The cross-language test runs this beside the same
//! command in Go, C and Python, each building a part of one tree.
//!
//! Usage:
//! - `subtree cv FILE OFFSET LEN`: the chaining value of bytes `OFFSET..OFFSET+LEN` of `FILE`,
//!   hashed as the subtree that starts at `OFFSET` of the whole input;
//! - `subtree parent LEFT RIGHT`: the chaining value of the parent of two children (hex);
//! - `subtree root LEFT RIGHT OUT_LEN`: `OUT_LEN` bytes of the root's output over two children.
//!
//! Every value is printed as hex on one line; an error goes to standard error with exit 1.

use arborhash::blake3::hazmat::{self, ChainingValue, Mode};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(bytes) => {
            println!("{}", hex(&bytes));
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("subtree: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<Vec<u8>, String> {
    let number = |s: &str| s.parse::<u64>().map_err(|e| format!("{s:?}: {e}"));
    match args {
        [op, file, offset, len] if op == "cv" => {
            let (offset, len) = (number(offset)?, number(len)?);
            let data = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
            let part = usize::try_from(offset)
                .ok()
                .zip(usize::try_from(len).ok())
                .and_then(|(start, len)| data.get(start..start.checked_add(len)?))
                .ok_or_else(|| format!("{file} has no bytes {offset}..{offset}+{len}"))?;
            let cv = hazmat::hash_subtree(Mode::Hash, offset, part).map_err(|e| e.to_string())?;
            Ok(cv.to_vec())
        }
        [op, left, right] if op == "parent" => {
            let cv = hazmat::merge_subtrees_non_root(&cv(left)?, &cv(right)?, Mode::Hash);
            Ok(cv.to_vec())
        }
        [op, left, right, out_len] if op == "root" => {
            let out_len = usize::try_from(number(out_len)?).map_err(|e| e.to_string())?;
            let mut out = vec![0; out_len];
            hazmat::merge_subtrees_root_xof(&cv(left)?, &cv(right)?, Mode::Hash).fill(&mut out);
            Ok(out)
        }
        _ => Err(
            "usage: subtree cv FILE OFFSET LEN | parent LEFT RIGHT | root LEFT RIGHT OUT_LEN"
                .into(),
        ),
    }
}

fn cv(text: &str) -> Result<ChainingValue, String> {
    let bytes: Option<Vec<u8>> = (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect();
    bytes
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| format!("{text:?} is not 32 bytes of hex"))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
