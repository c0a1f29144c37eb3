//! `arborhash.hazmat`: BLAKE3 subtrees, hashed apart (on other threads or machines) and merged
//! into the hash of the whole input; a thin layer over `arborhash::blake3::hazmat`.

use arborhash::blake3::hazmat::{self, ChainingValue, ContextKey, HasherExt, Mode, SubtreeError};
use arborhash::blake3::{Hasher, CHUNK_LEN, KEY_LEN};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::blake3::{self, Blake3};
use crate::buffer::{with_gil_released_if_long, Bytes};
use crate::output::xof_bytes;

pyo3::create_exception!(
    hazmat,
    SubtreeError_,
    PyValueError,
    "A subtree that cannot be hashed: its offset is not a multiple of the chunk length, it is \
     empty, or it is longer than a subtree starting there can be."
);

fn subtree_error(e: SubtreeError) -> PyErr {
    SubtreeError_::new_err(e.to_string())
}

/// The mode keywords `key` and `derive_key_context`, owning what `Mode` borrows.
enum OwnedMode {
    Hash,
    Keyed([u8; KEY_LEN]),
    DeriveKey(ContextKey),
}

impl OwnedMode {
    fn new(key: Option<Bytes<'_>>, derive_key_context: Option<&str>) -> PyResult<OwnedMode> {
        Ok(match blake3::Mode::new(key, derive_key_context)? {
            blake3::Mode::Hash => OwnedMode::Hash,
            blake3::Mode::Keyed(key) => OwnedMode::Keyed(key),
            blake3::Mode::DeriveKey(context) => {
                OwnedMode::DeriveKey(hazmat::hash_derive_key_context(&context))
            }
        })
    }

    fn mode(&self) -> Mode<'_> {
        match self {
            OwnedMode::Hash => Mode::Hash,
            OwnedMode::Keyed(key) => Mode::KeyedHash(key),
            OwnedMode::DeriveKey(context_key) => Mode::DeriveKeyMaterial(context_key),
        }
    }
}

fn chaining_value(cv: &Bytes<'_>) -> PyResult<ChainingValue> {
    let cv = cv.as_slice();
    cv.try_into().map_err(|_| {
        PyValueError::new_err(format!("a chaining value is 32 bytes, not {}", cv.len()))
    })
}

/// The chaining value (32 bytes) of the subtree holding `data`, which starts `input_offset`
/// bytes into the whole input. The offset must be a multiple of the chunk length (1024), and
/// `data` non-empty and at most `max_subtree_len(input_offset)` bytes; otherwise
/// `SubtreeError`. Unless it is the input's last part, a subtree must also hold a power of two
/// of whole chunks, which cannot be checked here: a wrong split gives a wrong hash.
#[pyfunction]
#[pyo3(signature = (data, input_offset = 0, *, key = None, derive_key_context = None))]
fn hash_subtree<'py>(
    py: Python<'py>,
    data: Bytes<'_>,
    input_offset: u64,
    key: Option<Bytes<'_>>,
    derive_key_context: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mode = OwnedMode::new(key, derive_key_context)?;
    let cv = with_gil_released_if_long(py, &data, |bytes| {
        hazmat::hash_subtree(mode.mode(), input_offset, bytes)
    })
    .map_err(subtree_error)?;
    Ok(PyBytes::new(py, &cv))
}

/// An incremental hasher (an `arborhash.blake3` object) for the subtree starting at
/// `input_offset`: feed it with `update` or `update_mmap`, then finish it with
/// `finalize_subtree(hasher)`; its `digest` is refused unless `input_offset` is 0.
#[pyfunction]
#[pyo3(signature = (input_offset, *, key = None, derive_key_context = None))]
fn subtree_hasher(
    input_offset: u64,
    key: Option<Bytes<'_>>,
    derive_key_context: Option<&str>,
) -> PyResult<Blake3> {
    if !input_offset.is_multiple_of(CHUNK_LEN as u64) {
        let offset = input_offset;
        return Err(subtree_error(SubtreeError::OffsetNotChunkAligned {
            offset,
        }));
    }
    let mut hasher = match OwnedMode::new(key, derive_key_context)? {
        OwnedMode::Hash => Hasher::new(),
        OwnedMode::Keyed(key) => Hasher::new_keyed(&key),
        OwnedMode::DeriveKey(context_key) => Hasher::new_from_context_key(&context_key),
    };
    hasher.set_input_offset(input_offset);
    Ok(Blake3::for_subtree(hasher, input_offset))
}

/// The chaining value of the subtree fed to `hasher`, which came from `subtree_hasher`;
/// `SubtreeError` if what it holds is not a valid subtree at its offset.
#[pyfunction]
fn finalize_subtree<'py>(
    py: Python<'py>,
    hasher: &Bound<'py, Blake3>,
) -> PyResult<Bound<'py, PyBytes>> {
    let offset = hasher.get().subtree_offset().ok_or_else(|| {
        PyValueError::new_err("not a subtree hasher: make one with hazmat.subtree_hasher")
    })?;
    let cv = hasher
        .get()
        .subtree_chaining_value(py, offset)
        .map_err(subtree_error)?;
    Ok(PyBytes::new(py, &cv))
}

/// The chaining value of the parent of two sibling subtrees, below the root. The mode keywords
/// must be those the subtrees were hashed with.
#[pyfunction]
#[pyo3(signature = (left_child, right_child, *, key = None, derive_key_context = None))]
fn merge_subtrees_non_root<'py>(
    py: Python<'py>,
    left_child: Bytes<'_>,
    right_child: Bytes<'_>,
    key: Option<Bytes<'_>>,
    derive_key_context: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mode = OwnedMode::new(key, derive_key_context)?;
    let cv = hazmat::merge_subtrees_non_root(
        &chaining_value(&left_child)?,
        &chaining_value(&right_child)?,
        mode.mode(),
    );
    Ok(PyBytes::new(py, &cv))
}

/// The 32-byte hash of an input longer than one chunk, from the chaining values of the root's
/// two children (split at `left_subtree_len(input_len)`).
#[pyfunction]
#[pyo3(signature = (left_child, right_child, *, key = None, derive_key_context = None))]
fn merge_subtrees_root<'py>(
    py: Python<'py>,
    left_child: Bytes<'_>,
    right_child: Bytes<'_>,
    key: Option<Bytes<'_>>,
    derive_key_context: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    merge_subtrees_root_xof(py, left_child, right_child, 32, 0, key, derive_key_context)
}

/// Like `merge_subtrees_root`, giving `length` bytes of extended output from position `seek`.
#[pyfunction]
#[pyo3(signature = (left_child, right_child, length = 32, *, seek = 0, key = None, derive_key_context = None))]
fn merge_subtrees_root_xof<'py>(
    py: Python<'py>,
    left_child: Bytes<'_>,
    right_child: Bytes<'_>,
    length: usize,
    seek: u64,
    key: Option<Bytes<'_>>,
    derive_key_context: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mode = OwnedMode::new(key, derive_key_context)?;
    let mut reader = hazmat::merge_subtrees_root_xof(
        &chaining_value(&left_child)?,
        &chaining_value(&right_child)?,
        mode.mode(),
    );
    reader.set_position(seek);
    xof_bytes(py, reader, length)
}

/// The length of the left child of a parent over `input_len` bytes: the largest power of two
/// of whole chunks that leaves at least one byte for the right. `ValueError` if `input_len` is
/// at most one chunk (1024 bytes), which has no children.
#[pyfunction]
fn left_subtree_len(input_len: u64) -> PyResult<u64> {
    if input_len <= CHUNK_LEN as u64 {
        return Err(PyValueError::new_err(format!(
            "left_subtree_len: input_len must exceed CHUNK_LEN ({CHUNK_LEN}), got {input_len}"
        )));
    }
    Ok(hazmat::left_subtree_len(input_len))
}

/// The most bytes a subtree starting at `input_offset` can hold: None for offset 0 (no limit).
/// `SubtreeError` for an offset that is not a multiple of the chunk length, where the Rust
/// crate panics.
#[pyfunction]
fn max_subtree_len(input_offset: u64) -> PyResult<Option<u64>> {
    if !input_offset.is_multiple_of(CHUNK_LEN as u64) {
        let offset = input_offset;
        return Err(subtree_error(SubtreeError::OffsetNotChunkAligned {
            offset,
        }));
    }
    Ok(hazmat::max_subtree_len(input_offset))
}

pub fn module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    let m = PyModule::new(py, "hazmat")?;
    m.add("SubtreeError", py.get_type::<SubtreeError_>())?;
    m.add("CHUNK_LEN", CHUNK_LEN)?;
    m.add_function(wrap_pyfunction!(hash_subtree, &m)?)?;
    m.add_function(wrap_pyfunction!(subtree_hasher, &m)?)?;
    m.add_function(wrap_pyfunction!(finalize_subtree, &m)?)?;
    m.add_function(wrap_pyfunction!(merge_subtrees_non_root, &m)?)?;
    m.add_function(wrap_pyfunction!(merge_subtrees_root, &m)?)?;
    m.add_function(wrap_pyfunction!(merge_subtrees_root_xof, &m)?)?;
    m.add_function(wrap_pyfunction!(left_subtree_len, &m)?)?;
    m.add_function(wrap_pyfunction!(max_subtree_len, &m)?)?;
    Ok(m)
}
