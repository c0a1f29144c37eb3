//! The peers: the reference crates of our algorithms and other fast hashes, as each dispatches
//! by itself.

use super::{in_pieces, many, one, word, writes_name, Contestant, Group, BATCH, WRITES};

fn detected(feature: &str) -> bool {
    super::super::cpu::features().contains(&feature)
}

/// How a peer that dispatches by itself will run here.
fn auto(choices: &[(&str, &str)]) -> String {
    let pick = choices
        .iter()
        .find(|(feature, _)| feature.is_empty() || detected(feature))
        .map_or("portable", |(_, name)| name);
    format!("auto:{pick}")
}

/// The blake3 crate's hasher fed `m` in pieces of `W` bytes.
pub(super) fn blake3_writes<const W: usize>(m: &[u8]) -> u64 {
    let mut hasher = blake3::Hasher::new();
    in_pieces(m, W, |piece| {
        hasher.update(piece);
    });
    word(hasher.finalize().as_bytes())
}

/// The other libraries' rows.
pub(super) fn rows() -> Vec<Contestant> {
    use sha2::Digest;
    let row = |name: &str, implementation, backend, kernel| {
        Contestant::new(name, implementation, backend, Group::Peer, kernel)
    };
    let blake2b_auto = auto(&[("avx2", "avx2"), ("sse4.1", "sse41"), ("", "portable")]);
    let blake2s_auto = auto(&[("avx2", "avx2"), ("sse4.1", "sse41"), ("", "portable")]);
    let blake3_auto = auto(&[
        ("avx512vl", "avx512"),
        ("avx2", "avx2"),
        ("sse4.1", "sse41"),
        ("neon", "neon"),
        ("", "portable"),
    ]);
    let mut rows = vec![
        row(
            "CRC32C",
            "crc32c",
            auto(&[("sse4.2", "sse4.2"), ("", "portable")]),
            one(|m| crc32c::crc32c(m).into()),
        ),
        row(
            "XXH64",
            "xxhash-rust",
            "portable".into(),
            one(|m| xxhash_rust::xxh64::xxh64(m, 0)),
        ),
        row(
            "XXH3",
            "xxhash-rust",
            "sse2".into(),
            one(xxhash_rust::xxh3::xxh3_64),
        ),
        row(
            "SHA-256",
            "sha2",
            auto(&[("sha", "sha-ni"), ("", "portable")]),
            one(|m| word(&sha2::Sha256::digest(m))),
        ),
        row(
            "BLAKE2b",
            "blake2b_simd",
            blake2b_auto.clone(),
            one(|m| word(blake2b_simd::blake2b(m).as_bytes())),
        ),
        row(
            "BLAKE2bp",
            "blake2b_simd",
            blake2b_auto.clone(),
            one(|m| word(blake2b_simd::blake2bp::blake2bp(m).as_bytes())),
        ),
        row(
            "BLAKE2s",
            "blake2s_simd",
            blake2s_auto.clone(),
            one(|m| word(blake2s_simd::blake2s(m).as_bytes())),
        ),
        row(
            "BLAKE2sp",
            "blake2s_simd",
            blake2s_auto.clone(),
            one(|m| word(blake2s_simd::blake2sp::blake2sp(m).as_bytes())),
        ),
        row(
            "BLAKE3",
            "blake3",
            blake3_auto.clone(),
            one(|m| word(blake3::hash(m).as_bytes())),
        ),
    ];
    // One row per write size, as ours has (`ours_on`).
    rows.extend(WRITES.iter().map(|w| {
        row(
            &writes_name(w.size),
            "blake3",
            blake3_auto.clone(),
            one(w.theirs),
        )
    }));
    rows.extend([
        row(
            "BLAKE3 rayon",
            "blake3",
            blake3_auto,
            one(|m| word(blake3::Hasher::new().update_rayon(m).finalize().as_bytes())),
        ),
        row(
            &format!("BLAKE2b x{BATCH}"),
            "blake2b_simd",
            blake2b_auto,
            many(|ms| {
                let params = blake2b_simd::Params::new();
                let mut jobs: [_; BATCH] =
                    std::array::from_fn(|i| blake2b_simd::many::HashManyJob::new(&params, ms[i]));
                blake2b_simd::many::hash_many(jobs.iter_mut());
                jobs.iter().fold(0, |a, j| a ^ word(j.to_hash().as_bytes()))
            }),
        ),
        row(
            &format!("BLAKE2s x{BATCH}"),
            "blake2s_simd",
            blake2s_auto,
            many(|ms| {
                let params = blake2s_simd::Params::new();
                let mut jobs: [_; BATCH] =
                    std::array::from_fn(|i| blake2s_simd::many::HashManyJob::new(&params, ms[i]));
                blake2s_simd::many::hash_many(jobs.iter_mut());
                jobs.iter().fold(0, |a, j| a ^ word(j.to_hash().as_bytes()))
            }),
        ),
    ]);
    rows
}
