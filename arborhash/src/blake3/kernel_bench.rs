//! The kernels behind a safe face, for `benches/blake3_kernels.rs`, which times them beside the
//! `blake3` crate's. Not part of the API: hidden, and free to change.

use super::dispatch;
use super::tree::{chunk_run, parent_run};
use crate::platform::{with_backend, Backend, Platform};

/// The platform of `backend`, or of the best supported one if the CPU lacks it.
fn platform(backend: Backend) -> Platform {
    with_backend(backend, Platform::current)
}

/// `n` compressions of `block` into `cv`, one after another.
pub fn compress_chain(backend: Backend, cv: &mut [u32; 8], block: &[u8; 64], n: usize) {
    let p = platform(backend);
    for _ in 0..n {
        dispatch::compress_in_place(p, cv, core::slice::from_ref(block), 64, 0, 0, 0);
    }
}

/// The chaining values of the whole chunks of `input` (counters from 0) into `out`.
pub fn hash_chunks(backend: Backend, input: &[u8], out: &mut [[u8; 32]]) {
    dispatch::hash_run(platform(backend), chunk_run(input, &super::IV, 0, 0), out);
}

/// The chaining values of the parents over the pairs of `input` into `out`.
pub fn hash_parents(backend: Backend, input: &[u8], out: &mut [[u8; 32]]) {
    dispatch::hash_run(platform(backend), parent_run(input, &super::IV, 0), out);
}

/// Extended output of the root node `block` under `cv` into `out` (whole blocks).
pub fn xof(backend: Backend, cv: &[u32; 8], block: &[u8; 64], out: &mut [u8]) {
    dispatch::xof_many(platform(backend), cv, block, 64, 0, 11, out);
}
