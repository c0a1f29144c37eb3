//! Outputs of any length asked for from Python (BLAKE3's extended output), made without
//! aborting the process: too long for a Python object raises `OverflowError`, too long to
//! allocate `MemoryError`, as in the `blake3` package.

use arborhash::blake3::OutputReader;
use pyo3::exceptions::PyOverflowError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::RELEASE_GIL_MIN;

fn overflow() -> PyErr {
    PyOverflowError::new_err("length overflows isize")
}

/// `length` bytes of `reader`'s output from its position, in a new `bytes` object (allocated
/// by Python, which raises `MemoryError` when it cannot), with the GIL released if long.
pub fn xof_bytes<'py>(
    py: Python<'py>,
    mut reader: OutputReader,
    length: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    if isize::try_from(length).is_err() {
        return Err(overflow());
    }
    PyBytes::new_with(py, length, |out| {
        if out.len() >= RELEASE_GIL_MIN {
            py.detach(|| reader.fill(out));
        } else {
            reader.fill(out);
        }
        Ok(())
    })
}

/// `OverflowError` for a `hexdigest` whose string of `2 * length` characters could not exist.
pub fn check_hex_length(length: usize) -> PyResult<()> {
    if length > isize::MAX as usize / 2 {
        return Err(overflow());
    }
    Ok(())
}

/// `bytes.hex()` of `digest`: Python allocates the string, so a failure is a `MemoryError`.
pub fn hex_of<'py>(digest: &Bound<'py, PyBytes>) -> PyResult<Bound<'py, PyString>> {
    Ok(digest
        .call_method0(intern!(digest.py(), "hex"))?
        .cast_into::<PyString>()?)
}
