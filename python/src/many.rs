//! `arborhash.hash_many`: many messages hashed in one call, across SIMD lanes, without the GIL.

use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake3, tz};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};

use crate::blake2::{check_digest_and_key, Limits, BLAKE2B, BLAKE2BP, BLAKE2S, BLAKE2SP};
use crate::blake3::key_array;
use crate::buffer::{or_empty, Bytes};

/// One algorithm with its parameters, checked.
enum Algorithm {
    Blake3(Option<[u8; blake3::KEY_LEN]>),
    Blake2b(blake2b::Params),
    Blake2s(blake2s::Params),
    Blake2bp(blake2bp::Params),
    Blake2sp(blake2sp::Params),
    Tz,
}

impl Algorithm {
    fn new(
        py: Python<'_>,
        name: &str,
        digest_size: Option<i32>,
        key: &[u8],
    ) -> PyResult<(Algorithm, usize)> {
        let blake2_size = |limits: &Limits| {
            let size = digest_size.unwrap_or(limits.max_digest as i32);
            check_digest_and_key(py, limits, size, key).map(|()| size as usize)
        };
        Ok(match name {
            "blake3" => {
                if digest_size.is_some_and(|d| d != 32) {
                    return Err(PyValueError::new_err(
                        "hash_many gives 32-byte BLAKE3 digests; use blake3(m).digest(length) for others",
                    ));
                }
                let key = (!key.is_empty()).then(|| key_array(key)).transpose()?;
                (Algorithm::Blake3(key), blake3::OUT_LEN)
            }
            "blake2b" => {
                let d = blake2_size(&BLAKE2B)?;
                (
                    Algorithm::Blake2b(blake2b::Params::new().hash_length(d).key(key).clone()),
                    d,
                )
            }
            "blake2s" => {
                let d = blake2_size(&BLAKE2S)?;
                (
                    Algorithm::Blake2s(blake2s::Params::new().hash_length(d).key(key).clone()),
                    d,
                )
            }
            "blake2bp" => {
                let d = blake2_size(&BLAKE2BP)?;
                (
                    Algorithm::Blake2bp(blake2bp::Params::new().hash_length(d).key(key).clone()),
                    d,
                )
            }
            "blake2sp" => {
                let d = blake2_size(&BLAKE2SP)?;
                (
                    Algorithm::Blake2sp(blake2sp::Params::new().hash_length(d).key(key).clone()),
                    d,
                )
            }
            "tz" => {
                if digest_size.is_some() || !key.is_empty() {
                    return Err(PyValueError::new_err("tz takes no digest_size or key"));
                }
                (Algorithm::Tz, tz::OUT_LEN)
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unsupported hash type {name}"
                )))
            }
        })
    }

    /// Writes the digest of `inputs[i]` to the `i`th `size`-byte piece of `out`.
    fn run(&self, inputs: &[&[u8]], out: &mut [u8], size: usize) {
        let pieces = out.chunks_exact_mut(size);
        match self {
            Algorithm::Blake3(key) => {
                let mut hashes = vec![blake3::Hash::from_bytes([0; 32]); inputs.len()];
                match key {
                    Some(key) => blake3::many::keyed_hash_many(key, inputs, &mut hashes),
                    None => blake3::many::hash_many(inputs, &mut hashes),
                }
                for (piece, hash) in pieces.zip(&hashes) {
                    piece.copy_from_slice(hash.as_bytes());
                }
            }
            Algorithm::Blake2b(params) => {
                let mut jobs: Vec<_> = inputs
                    .iter()
                    .map(|m| blake2b::many::HashManyJob::new(params, m))
                    .collect();
                blake2b::many::hash_many(jobs.iter_mut());
                for (piece, job) in pieces.zip(&jobs) {
                    piece.copy_from_slice(job.to_hash().as_bytes());
                }
            }
            Algorithm::Blake2s(params) => {
                let mut jobs: Vec<_> = inputs
                    .iter()
                    .map(|m| blake2s::many::HashManyJob::new(params, m))
                    .collect();
                blake2s::many::hash_many(jobs.iter_mut());
                for (piece, job) in pieces.zip(&jobs) {
                    piece.copy_from_slice(job.to_hash().as_bytes());
                }
            }
            // No batch API: these are wide on their own (BLAKE2bp/sp) or have no lanes (TZ).
            Algorithm::Blake2bp(params) => {
                for (piece, m) in pieces.zip(inputs) {
                    piece.copy_from_slice(params.hash(m).as_bytes());
                }
            }
            Algorithm::Blake2sp(params) => {
                for (piece, m) in pieces.zip(inputs) {
                    piece.copy_from_slice(params.hash(m).as_bytes());
                }
            }
            Algorithm::Tz => {
                for (piece, m) in pieces.zip(inputs) {
                    piece.copy_from_slice(&tz::sum(m).as_bytes());
                }
            }
        }
    }
}

/// Hashes every buffer of `messages` (any iterable of C-contiguous buffers) with `algorithm`
/// and returns the digests in order: `[new(algorithm, m, ...).digest() for m in messages]`, in
/// one call with the GIL released. BLAKE3, BLAKE2b and BLAKE2s hash several messages at once in
/// the SIMD lanes, so that short messages go at the speed of long ones.
///
/// `digest_size` and `key` are those of the algorithm's constructor (BLAKE3: 32-byte digests
/// and a 32-byte key; `tz` takes neither).
#[pyfunction]
#[pyo3(signature = (messages, algorithm = "blake3", *, digest_size = None, key = None))]
pub fn hash_many<'py>(
    py: Python<'py>,
    messages: &Bound<'py, PyAny>,
    algorithm: &str,
    digest_size: Option<i32>,
    key: Option<Bytes<'_>>,
) -> PyResult<Bound<'py, PyList>> {
    let key = or_empty(&key);
    let (algorithm, size) = Algorithm::new(py, algorithm, digest_size, key)?;
    let buffers = messages
        .try_iter()?
        .map(|m| Bytes::get(&m?))
        .collect::<PyResult<Vec<Bytes<'_>>>>()?;
    let inputs: Vec<&[u8]> = buffers.iter().map(Bytes::as_slice).collect();
    let mut out = vec![0u8; inputs.len() * size];
    py.detach(|| algorithm.run(&inputs, &mut out, size));
    PyList::new(py, out.chunks_exact(size).map(|d| PyBytes::new(py, d)))
}
