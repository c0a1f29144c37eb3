//! BLAKE2Xb: extendable output from BLAKE2b, up to 2^32-1 bytes declared in advance, or a
//! stream of up to 2^32 64-byte blocks when the length is unknown.
//!
//! The output length is mixed into the hash: declare it with `Params::output_length` (or use
//! [`blake2xb`], which declares `output.len()`), or leave it unknown and read the stream from
//! `State::finalize_xof`. Unknown-length output is a different stream from any declared length.
//! Output blocks are independent hashes of the root, computed several at a time in SIMD lanes,
//! and the reader can seek.
//!
//! ```
//! use arborhash::blake2xb;
//! let mut out = [0u8; 100];
//! blake2xb::blake2xb(b"input", &mut out);
//!
//! let mut reader = blake2xb::Params::new().key(b"key").to_state().update(b"input").finalize_xof();
//! let mut first = [0u8; 1000];
//! reader.fill(&mut first);
//! ```

crate::blake2::api::xof_api!(crate::blake2::variant::Blake2b, "BLAKE2Xb", blake2xb);
