//! The C library of arborhash: `blake3.h` (the official BLAKE3 C API), `blake2.h` (the libb2
//! API) and `arborhash.h` (batch and multi-threaded hashing, BLAKE3 subtrees, Tillich-Zémor, the
//! backend query), built as `libarborhash.so` and `libarborhash.a` by `c/Makefile`.
//!
//! The headers in `include/` are written by hand, since they must declare exactly the official
//! names and structs; `tests/headers.rs` checks them against this crate (every exported function
//! declared, every declared function exported, every constant and struct size equal).
//!
//! No panic crosses into C: every exported function checks its arguments before calling
//! arborhash (whose panics are for misuse), and runs inside `ffi::guard` besides.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod blake2;
pub mod blake3;
mod blake3_state;
pub mod extra;
mod ffi;
mod slot;
pub mod subtree;
