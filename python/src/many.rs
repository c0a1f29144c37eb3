//! `arborhash.hash_many`: many messages hashed in one call, across SIMD lanes, without the GIL.

use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake3, tz};
use pyo3::exceptions::{PyMemoryError, PyOverflowError, PyValueError};
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
        digest_size: Option<i64>,
        key: &[u8],
    ) -> PyResult<(Algorithm, usize)> {
        let blake2_size = |limits: &Limits| {
            let size = match digest_size {
                // hashlib's digest_size is a C int.
                Some(size) => i32::try_from(size).map_err(|_| {
                    PyOverflowError::new_err("Python int too large to convert to C int")
                })?,
                None => limits.max_digest as i32,
            };
            check_digest_and_key(py, limits, size, key).map(|()| size as usize)
        };
        Ok(match name {
            "blake3" => {
                // Any length, as `blake3.digest(length)` takes it.
                let size = match digest_size {
                    None => blake3::OUT_LEN,
                    Some(size) if size < 0 => {
                        return Err(PyOverflowError::new_err(
                            "can't convert negative int to unsigned",
                        ))
                    }
                    Some(size) => usize::try_from(size)
                        .map_err(|_| PyOverflowError::new_err("length overflows isize"))?,
                };
                let key = (!key.is_empty()).then(|| key_array(key)).transpose()?;
                (Algorithm::Blake3(key), size)
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

    /// Writes the digest of `inputs[i]` to the `i`th `size`-byte piece of `out`, which is
    /// `inputs.len() * size` bytes long.
    fn run(&self, inputs: &[&[u8]], out: &mut [u8], size: usize) {
        if size == 0 {
            return;
        }
        let pieces = out.chunks_exact_mut(size);
        match self {
            Algorithm::Blake3(Some(key)) => {
                blake3::many::keyed_hash_many_xof(key, inputs, size, out)
            }
            Algorithm::Blake3(None) => blake3::many::hash_many_xof(inputs, size, out),
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
/// `digest_size` and `key` are those of the algorithm's constructor (BLAKE3: digests of any
/// length, the prefix of the extended output as `blake3(m).digest(digest_size)` gives it, and
/// a 32-byte key; `tz` takes neither).
#[pyfunction]
#[pyo3(signature = (messages, algorithm = "blake3", *, digest_size = None, key = None))]
pub fn hash_many<'py>(
    py: Python<'py>,
    messages: &Bound<'py, PyAny>,
    algorithm: &str,
    digest_size: Option<i64>,
    key: Option<Bytes<'_>>,
) -> PyResult<Bound<'py, PyList>> {
    let key = or_empty(&key);
    let (algorithm, size) = Algorithm::new(py, algorithm, digest_size, key)?;
    let mut buffers = Vec::new();
    for m in messages.try_iter()? {
        reserve(&mut buffers, 1)?;
        buffers.push(Bytes::get(&m?)?);
    }
    let mut inputs = Vec::new();
    reserve(&mut inputs, buffers.len())?;
    inputs.extend(buffers.iter().map(Bytes::as_slice));
    let total = inputs
        .len()
        .checked_mul(size)
        .filter(|&total| isize::try_from(total).is_ok())
        .ok_or_else(|| {
            PyOverflowError::new_err("digest_size times the messages overflows isize")
        })?;
    let mut out = Vec::new();
    reserve(&mut out, total)?;
    out.resize(total, 0u8);
    py.detach(|| algorithm.run(&inputs, &mut out, size));
    let digests = (0..inputs.len())
        .map(|i| {
            PyBytes::new_with(py, size, |d| {
                d.copy_from_slice(&out[i * size..(i + 1) * size]);
                Ok(())
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, digests)
}

/// Room for `more` items in `v`, or `MemoryError` (where `Vec` would abort the process).
fn reserve<T>(v: &mut Vec<T>, more: usize) -> PyResult<()> {
    v.try_reserve(more)
        .map_err(|_| PyMemoryError::new_err("cannot allocate the batch"))
}
