//! BLAKE2sp: BLAKE2s over 8 leaves hashed side by side in SIMD lanes (64-byte blocks striped
//! over the leaves), and a root over the leaves' outputs. Also at `arborhash::blake2s::blake2sp`,
//! like `blake2s_simd::blake2sp`.

crate::blake2::api::parallel_api!(crate::blake2::variant::Blake2s, "BLAKE2sp", blake2sp);
