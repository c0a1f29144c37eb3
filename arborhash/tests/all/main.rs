//! arborhash's integration tests in one binary, one module per area; `reference` holds the
//! specification oracles several of them check against. `feature_limits` is a binary of its own
//! (scripts/test-features.sh builds it once per backend-limiting feature, and nothing else).

mod backend_env;
mod bao;
mod blake2_diff;
mod blake2_kat;
mod blake2_panics;
mod blake3_diff;
mod blake3_many;
mod blake3_parallel;
mod blake3_subtrees;
mod blake3_vectors;
mod go_vectors;
mod reference;
mod tz;
