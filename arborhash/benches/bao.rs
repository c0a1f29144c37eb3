//! Bao: arborhash's encoder against the `bao` crate, and our outboard encoder and decoders
//! against our plain hash, in one run, calls alternating pair by pair.
//!
//! Each row is a pair of operations on the same input; every round times one call of each in
//! turn (which goes first alternates). Reported: the median over rounds of the ratio
//! `time(right) / time(left)` (so above 1 means the left one is faster), the lowest and highest
//! round's ratio (the spread), and the left one's median throughput.
//!
//!     cargo bench -p arborhash --features rayon --bench bao [-- SIZES_MIB... [ROW...]]
//!
//! Sizes default to 1, 64 and 1024 MiB; other arguments keep only the rows whose names
//! contain one of them (`decode` for the decoding rows). The rows:
//! - `encode / bao`: our combined encoding (all cores) against `bao::encode::encode`, both
//!   into a new vector (whose pages fault in as they are written); `encode_into / bao` ours into
//!   a buffer written before;
//! - `outboard / bao`: the same for the outboard;
//! - `outboard / hash`: our outboard against our hash of the same bytes on all cores
//!   (`Hasher::update_rayon`, what `arbor sum` runs), both in memory;
//! - `decode / hash`: decoding the combined encoding in memory with `read_exact` into a buffer
//!   used before (the decoder reads pieces into it and verifies them on all cores while it
//!   reads the next), then a read that finds the end, against our hash on all cores;
//!   `decode read_to_end / hash` the same into a vector with `read_to_end` (which zeroes the
//!   vector's new room before reading into it); `decode_outboard / hash` as the first from the
//!   content and its outboard;
//! - `hash+copy / hash`: our hash on all cores followed by a copy of the content into a
//!   buffer used before (in two halves, on two threads): what a decoder into memory costs if
//!   its copy does not overlap its hashing, the bound the decoding rows are measured against;
//! - `decode_into / hash`: the in-memory `bao::decode_into` (subtrees verified and copied on
//!   all cores) into a buffer used before, against our hash on all cores; `verify_outboard /
//!   hash` the in-memory check of the content against its outboard (no copy);
//! - `encode G=4 / bao`, `decode G=4 / hash` and `decode_into G=4 / hash`: the same with 16 KiB
//!   groups;
//! - first, whatever the sizes, `decode 1 KiB x1024 / bao` (and 16 and 256 KiB): `Decoder`'s
//!   `read_to_end` of small encodings against the `bao` crate's decoder, each round as many
//!   calls as make 1 MiB, where the fixed costs of a decoder show.

use arborhash::bao::{self, Decoder, GroupLog};
use arborhash::blake3::Hasher;
use std::hint::black_box;
use std::io::Read;
use std::time::{Duration, Instant};

fn input(len: usize) -> Vec<u8> {
    // Not zeros: lazily zeroed pages distort large measurements.
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

/// Keeps a result from being optimised away.
fn sink<T>(value: T) {
    black_box(value);
}

fn time(f: &mut dyn FnMut()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

/// The rows asked for: all, or those whose names contain an argument that is not a size.
fn wanted(name: &str) -> bool {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-') && a.parse::<usize>().is_err())
        .collect();
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// Rounds of `left` and `right` in turn; prints the row.
fn pair(name: &str, len: usize, rounds: usize, left: &mut dyn FnMut(), right: &mut dyn FnMut()) {
    if !wanted(name) {
        return;
    }
    left();
    right();
    let mut ratios = Vec::with_capacity(rounds);
    let mut lefts = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let (l, r) = if round % 2 == 0 {
            let l = time(left);
            (l, time(right))
        } else {
            let r = time(right);
            (time(left), r)
        };
        ratios.push(r.as_secs_f64() / l.as_secs_f64());
        lefts.push(l.as_secs_f64());
    }
    ratios.sort_by(f64::total_cmp);
    lefts.sort_by(f64::total_cmp);
    let median = ratios[rounds / 2];
    let gbps = len as f64 / lefts[rounds / 2] / 1e9;
    println!(
        "| {name} | {} MiB | {median:.2} | {:.2}-{:.2} | {gbps:.2} GB/s | {rounds} |",
        len >> 20,
        ratios[0],
        ratios[rounds - 1],
    );
}

/// Small encodings, where a decoder's fixed costs show: ours against the `bao` crate's
/// decoder, each timed over enough calls to decode 1 MiB in all.
fn small_decodes() {
    for len in [1 << 10, 16 << 10, 256 << 10] {
        let data = input(len);
        let (encoded, hash) = bao::encode(&data, GroupLog::ZERO);
        let (their_encoded, their_hash) = ::bao::encode::encode(&data);
        let calls = (1 << 20) / len;
        let (mut ours, mut theirs) = (Vec::with_capacity(len), Vec::with_capacity(len));
        pair(
            &format!("decode {} KiB x{calls} / bao", len >> 10),
            1 << 20,
            200,
            &mut || {
                for _ in 0..calls {
                    ours.clear();
                    let mut decoder = Decoder::new(&encoded[..], &hash, GroupLog::ZERO);
                    decoder.read_to_end(&mut ours).unwrap();
                }
            },
            &mut || {
                for _ in 0..calls {
                    theirs.clear();
                    let mut decoder = ::bao::decode::Decoder::new(&their_encoded[..], &their_hash);
                    decoder.read_to_end(&mut theirs).unwrap();
                }
            },
        );
    }
}

/// Decodes into `out` (the content's size) and checks that the decoder then ends.
fn decode_into(mut decoder: impl Read, out: &mut [u8]) {
    decoder.read_exact(out).unwrap();
    assert_eq!(decoder.read(&mut [0]).unwrap(), 0);
}

/// Copies `from` into `out` in two halves, one per thread: the copy a decoder into memory
/// makes besides hashing, on both cores.
fn copy_on_two_threads(from: &[u8], out: &mut [u8]) {
    let (left, right) = from.split_at(from.len() / 2);
    let (left_out, right_out) = out.split_at_mut(from.len() / 2);
    rayon::join(
        || left_out.copy_from_slice(left),
        || right_out.copy_from_slice(right),
    );
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1, 64, 1024]
    } else {
        sizes
    };
    println!("| pair (left / right) | size | median ratio | spread | left speed | rounds |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let g4 = GroupLog::new(4).unwrap();
    small_decodes();
    for mib in sizes {
        let len = mib << 20;
        let data = input(len);
        let rounds = match mib {
            0..=4 => 200,
            5..=128 => 10,
            _ => 4,
        };
        pair(
            "encode / bao",
            len,
            rounds,
            &mut || sink(bao::encode(&data, GroupLog::ZERO)),
            &mut || sink(::bao::encode::encode(&data)),
        );
        pair(
            "outboard / bao",
            len,
            rounds,
            &mut || sink(bao::outboard(&data, GroupLog::ZERO)),
            &mut || sink(::bao::encode::outboard(&data)),
        );
        let mut encoded = vec![0; bao::encoded_size(len as u64, GroupLog::ZERO).unwrap() as usize];
        pair(
            "encode_into / bao",
            len,
            rounds,
            &mut || sink(bao::encode_into(&data, GroupLog::ZERO, &mut encoded)),
            &mut || sink(::bao::encode::encode(&data)),
        );
        drop(encoded);
        pair(
            "encode G=4 / bao",
            len,
            rounds,
            &mut || sink(bao::encode(&data, g4)),
            &mut || sink(::bao::encode::encode(&data)),
        );
        let mut outboard = vec![0; bao::outboard_size(len as u64, GroupLog::ZERO) as usize];
        pair(
            "outboard_into / hash",
            len,
            rounds,
            &mut || sink(bao::outboard_into(&data, GroupLog::ZERO, &mut outboard)),
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        let (encoded, hash) = bao::encode(&data, GroupLog::ZERO);
        let (outboard, _) = bao::outboard(&data, GroupLog::ZERO);
        let mut out = vec![0; len];
        let z = GroupLog::ZERO;
        pair(
            "decode / hash",
            len,
            rounds,
            &mut || decode_into(Decoder::new(&encoded[..], &hash, z), &mut out),
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        pair(
            "decode_into / hash",
            len,
            rounds,
            &mut || bao::decode_into(&encoded, &hash, z, &mut out).unwrap(),
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        let mut vec = Vec::with_capacity(len);
        pair(
            "decode read_to_end / hash",
            len,
            rounds,
            &mut || {
                vec.clear();
                Decoder::new(&encoded[..], &hash, z)
                    .read_to_end(&mut vec)
                    .unwrap();
            },
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        drop((encoded, vec));
        pair(
            "hash+copy / hash",
            len,
            rounds,
            &mut || {
                sink(Hasher::new().update_rayon(&data).finalize());
                copy_on_two_threads(&data, &mut out);
            },
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        pair(
            "decode_outboard / hash",
            len,
            rounds,
            &mut || {
                let decoder = Decoder::new_outboard(&data[..], &outboard[..], &hash, z);
                decode_into(decoder, &mut out)
            },
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        pair(
            "verify_outboard / hash",
            len,
            rounds,
            &mut || bao::verify_outboard(&data, &outboard, &hash, z).unwrap(),
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        let (encoded, hash) = bao::encode(&data, g4);
        pair(
            "decode G=4 / hash",
            len,
            rounds,
            &mut || decode_into(Decoder::new(&encoded[..], &hash, g4), &mut out),
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
        pair(
            "decode_into G=4 / hash",
            len,
            rounds,
            &mut || bao::decode_into(&encoded, &hash, g4, &mut out).unwrap(),
            &mut || sink(Hasher::new().update_rayon(&data).finalize()),
        );
    }
}
