//! BLAKE2bp: BLAKE2b over 4 leaves hashed side by side in SIMD lanes (128-byte blocks striped
//! over the leaves), and a root over the leaves' outputs. Also at `arborhash::blake2b::blake2bp`,
//! like `blake2b_simd::blake2bp`.
//!
//! ```
//! use arborhash::blake2bp;
//! let hash = blake2bp::Params::new().hash_length(32).hash(b"input");
//! let mut state = blake2bp::State::new();
//! state.update(b"in").update(b"put");
//! assert_eq!(state.finalize(), blake2bp::blake2bp(b"input"));
//! assert_eq!(hash.as_bytes().len(), 32);
//! ```

crate::blake2::api::parallel_api!(crate::blake2::variant::Blake2b, "BLAKE2bp", blake2bp);
