//! The specification oracles of BLAKE2 and BLAKE3, written here, once for every module.

pub mod blake2;
pub mod blake3;
