//! Fast hash functions: the BLAKE2 family, BLAKE3 and the Tillich-Zémor homomorphic hash.
//!
//! Each algorithm has a portable backend and, on x86-64, SSE4.1, AVX2 and AVX-512 backends, on
//! AArch64 a NEON backend, chosen at run time (see [`platform`]). The public APIs follow the `blake3`, `blake2b_simd` and
//! `blake2s_simd` crates, so that switching to this crate is a change of import (see
//! [Switching](#switching-from-blake3--blake2b_simd--blake2s_simd) for what else differs).
//!
//! The crate is `no_std` without its default `std` feature; hashing never allocates.
//!
//! # Quick start
//!
//! BLAKE3 ([`blake3`]): hash, keyed hash (a MAC), key derivation and extended output.
//!
//! ```
//! use arborhash::blake3;
//! let hash = blake3::hash(b"foobarbaz");
//! let mut hasher = blake3::Hasher::new();
//! hasher.update(b"foo").update(b"bar").update(b"baz");
//! assert_eq!(hasher.finalize(), hash);
//! assert_eq!(hash.to_hex().len(), 64);
//!
//! let mac = blake3::keyed_hash(&[7; 32], b"message");
//! let key: [u8; 32] = blake3::derive_key("example.com 2026-11-26 session keys", b"secret");
//! let mut long = [0u8; 100];
//! hasher.finalize_xof().fill(&mut long);
//! assert_eq!(hash, long[..32]);
//! # let _ = (mac, key);
//! ```
//!
//! BLAKE2b and BLAKE2s ([`blake2b`], [`blake2s`]), with every parameter of RFC 7693, and their
//! parallel forms BLAKE2bp and BLAKE2sp ([`blake2bp`], [`blake2sp`]):
//!
//! ```
//! use arborhash::{blake2b, blake2bp, blake2s};
//! assert_eq!(&blake2b::blake2b(b"abc").to_hex()[..16], "ba80a53f981c4d0d");
//! let mac = blake2b::Params::new().hash_length(32).key(b"key").hash(b"message");
//! let mut state = blake2s::State::new();
//! state.update(b"ab").update(b"c");
//! assert_eq!(state.finalize(), blake2s::blake2s(b"abc"));
//! let parallel = blake2bp::blake2bp(b"a long input, hashed on 4 lanes");
//! # let _ = (mac, parallel);
//! ```
//!
//! BLAKE2Xb and BLAKE2Xs ([`blake2xb`], [`blake2xs`]), extendable output from BLAKE2:
//!
//! ```
//! let mut out = [0u8; 100];
//! arborhash::blake2xb::blake2xb(b"input", &mut out);
//! ```
//!
//! Many messages at once, filling the SIMD lanes across messages ([`blake3::many`],
//! [`blake2b::many`], [`blake2s::many`]):
//!
//! ```
//! use arborhash::blake3;
//! let inputs: [&[u8]; 3] = [b"one", b"two", b"three"];
//! let mut hashes = [blake3::Hash::from_bytes([0; 32]); 3];
//! blake3::many::hash_many(&inputs, &mut hashes);
//! assert_eq!(hashes[2], blake3::hash(b"three"));
//! ```
//!
//! Tillich-Zémor ([`tz`]), byte-compatible with nspcc-dev/tzhash; homomorphic, so hashes of parts
//! combine into the hash of the whole. It is not a secure hash (see the module).
//!
//! ```
//! use arborhash::tz;
//! let whole = tz::sum(b"hello, world");
//! assert_eq!(tz::concat(&[tz::sum(b"hello, "), tz::sum(b"world")]), whole);
//! ```
//!
//! # Features
//!
//! | Feature | Default | What it adds |
//! | --- | --- | --- |
//! | `std` | yes | Run-time CPU detection, `std::io` traits (`Write` for hashers, `Read` and `Seek` for BLAKE3's `OutputReader`), `Hasher::update_reader`, per-thread backend overrides ([`platform::with_backend`]). Without it the crate is `no_std` and uses the backends the build target enables. |
//! | `rayon` | no | Multi-threaded hashing of large inputs: `blake3::Hasher::update_rayon`, `tz::sum_rayon`. |
//! | `mmap` | no | Memory-mapped files: `blake3::Hasher::update_mmap` (and `update_mmap_rayon` with `rayon`), [`mmap`]. |
//! | `serde` | no | `Serialize` and `Deserialize` for [`blake3::Hash`], in the `blake3` crate's form. |
//! | `zeroize` | no | `Zeroize` for BLAKE3's `Hash`, `Hasher` and `OutputReader`. |
//! | `traits-preview` | no | The RustCrypto `digest` 0.11 traits for BLAKE3's `Hasher` and `OutputReader`, as the `blake3` crate offers them (`blake3::traits::digest`); like the crate's, without a semver promise. |
//! | `pure` | no | Only the portable backend is ever selected (NEON included). |
//! | `no_sse41`, `no_avx2`, `no_avx512` | no | That backend is never selected; `no_avx2` excludes AVX-512 too, whose backend runs AVX2 kernels. |
//! | `neon` | no | Accepted for the `blake3` crate's users; changes nothing: NEON is on by default on AArch64. |
//!
//! The limiting features act on the choice of backend at run time (as if the CPU lacked the
//! excluded ones); the code of every backend of the target is still compiled. Enabling every
//! feature (`--all-features`) includes `pure`, and so runs only the portable backend.
//!
//! # Switching from blake3 / blake2b_simd / blake2s_simd
//!
//! Change the imports:
//!
//! | Peer | arborhash |
//! | --- | --- |
//! | `blake3` 1.8 | `use arborhash::blake3;` |
//! | `blake2b_simd` 1.0 | `use arborhash::blake2b as blake2b_simd;` (`blake2bp`, `many` inside, as in the crate) |
//! | `blake2s_simd` 1.0 | `use arborhash::blake2s as blake2s_simd;` (`blake2sp`, `many` inside) |
//!
//! and, for `blake3`'s Cargo features, enable ours of the same names (`rayon`, `mmap`, `serde`,
//! `zeroize`, `traits-preview`, `pure`, `no_sse41`, `no_avx2`, `no_avx512`, `neon`). Programs
//! written for the peers then build and give the same results; the workspace tests this by
//! compiling such programs against both (the `dropin` test crate). What differs, on purpose:
//!
//! - **A BLAKE3 `Hasher` is 26 KiB** (26 624 bytes; the crate's 1 920): it gathers small writes in a
//!   16 KiB buffer and hashes them 16 chunks at a time in the widest SIMD lanes, where the crate
//!   hashes each chunk alone. Hashing in 64-byte writes is 3.5 times as fast as the crate's at
//!   4 KiB and 11.7 times at 1 MiB (AMD EPYC Zen 5, AVX-512, 2026-11-26; medians of 31
//!   alternating rounds, spread under 5 %, machine shared with other work). On threads with small
//!   stacks (embedded targets, small async tasks or threads made with a small stack size), keep
//!   it on the heap: `Box::new(blake3::Hasher::new())`. `OutputReader` is 120 bytes, as the
//!   crate's.
//! - **`to_hex()` returns [`HexString`]** instead of `arrayvec::ArrayString`: no `arrayvec`
//!   dependency. It dereferences to `str` and has `Display`, `Debug`, `Copy`, `Eq`, `Ord`, `Hash`,
//!   `AsRef<str>`, `Borrow<str>`, and comparisons with `str` and `&str` either way round (also
//!   `"…" == hash.to_hex()`, which `ArrayString` lacks); `ArrayString`'s own methods (`push`,
//!   `capacity`, ...) and code naming the type do not carry over.
//! - **[`HexError`] is an enum** with public fields (`InvalidLength`, `InvalidChar` with the
//!   position), shared by every hash type's `from_hex`, and is `Copy` and `PartialEq`; its
//!   `Display` text is the crate's, its `Debug` is not.
//! - **`Debug` of a BLAKE3 `Hasher`** shows the bytes hashed so far (`count`), not the crate's
//!   flags and platform.
//! - **Seeking an `OutputReader`** past position 2^64 - 1 with `SeekFrom::Current` is an
//!   `InvalidInput` error; the crate clamps to 2^64 - 1.
//! - **`hazmat::left_subtree_len`** panics for lengths of at most one chunk in release builds
//!   too; the crate checks only in debug builds and returns a meaningless length otherwise.
//! - **`Hasher::reset` after `set_input_offset`** goes back to offset 0, as a new hasher; the
//!   crate keeps the offset in an inconsistent state. A subtree hasher with a nonzero offset takes
//!   every write through the checked path, so its small writes are slower than a plain hasher's.
//! - **More in `hazmat`:** [`hash_subtree`](blake3::hazmat::hash_subtree) (a subtree in one call,
//!   on the wide kernels, with a [`SubtreeError`](blake3::hazmat::SubtreeError) instead of a
//!   panic), [`single_chunk_root`](blake3::hazmat::single_chunk_root), and the chaining values
//!   of many chunks or parents in one call
//!   ([`chunk_chaining_values`](blake3::hazmat::chunk_chaining_values),
//!   [`chunk_chaining_values_copying`](blake3::hazmat::chunk_chaining_values_copying),
//!   [`parent_chaining_values`](blake3::hazmat::parent_chaining_values)), which Bao uses.
//! - **The crate's hidden modules** `guts` (deprecated) and `platform` (benchmarks only) have no
//!   counterpart; [`platform`] here is the public choice of backend (`ARBORHASH_BACKEND`,
//!   [`platform::force_backend`], [`platform::with_backend`]).
//! - **Backend features:** `pure`, `no_sse41`, `no_avx2` and `no_avx512` limit the backends
//!   chosen at run time rather than leaving code out of the build (we compile no C or assembly
//!   files, which is what the crate's features mainly avoid); `no_avx2` excludes AVX-512 too.
//!   NEON is on by default on AArch64, as in the crate, and `neon` changes nothing (there is no
//!   32-bit ARM backend, where the crate's `neon` switches NEON on). The crate's `no_sse2`,
//!   `no_neon`, `prefer_intrinsics`, `wasm32_simd` and `digest` features do not exist here.
//! - **BLAKE2:** `to_hex()` as above (`HexString<128>` and `HexString<64>`); `Hash` also compares
//!   with `[u8; N]` and `&[u8]`; the hidden `benchmarks::force_portable` is
//!   `platform::with_backend(Backend::Portable, ...)` here; `Debug` of `Params` and `State` is our
//!   own. A BLAKE2s `State` is 128 bytes (the crate's 112) and a BLAKE2bp `State` 1 728 (1 376);
//!   BLAKE2X (`blake2xb`, `blake2xs`) is an addition.
//! - **Rust 1.89** or later is needed (`rust-version`).

#![cfg_attr(not(feature = "std"), no_std)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod arch;
pub mod bytes;
pub mod platform;

pub use bytes::{HexError, HexString};
pub use platform::Backend;
pub use threads::Threads;

#[cfg(feature = "std")]
pub mod bao;
pub mod blake2;
pub mod blake2b;
pub mod blake2bp;
pub mod blake2s;
pub mod blake2sp;
pub mod blake2xb;
pub mod blake2xs;
pub mod blake3;
#[cfg(feature = "mmap")]
pub mod mmap;
mod threads;
pub mod tz;
