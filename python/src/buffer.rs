//! Read access to the bytes of any C-contiguous Python buffer (bytes, bytearray, memoryview,
//! array, numpy arrays, mmap objects), usable with the GIL released.

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::PyBufferError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Updates at least this long release the GIL, so that other threads run meanwhile; below it,
/// releasing and retaking the GIL costs more than the hashing it would overlap.
pub const RELEASE_GIL_MIN: usize = 2048;

/// The bytes of a Python object: a `bytes` object read directly (immutable, and the commonest
/// argument, for which exporting a buffer costs more than hashing 64 bytes), or an exported
/// buffer, held (and so kept alive and unresizable) until dropped.
pub enum Bytes<'py> {
    Bytes(Bound<'py, PyBytes>),
    Buffer(PyUntypedBuffer),
}

impl<'py> Bytes<'py> {
    /// `obj`'s bytes: `TypeError` for objects without a buffer (`str` included, as in hashlib),
    /// `BufferError` for a buffer that is not C-contiguous.
    pub fn get(obj: &Bound<'py, PyAny>) -> PyResult<Bytes<'py>> {
        if let Ok(bytes) = obj.cast_exact::<PyBytes>() {
            return Ok(Bytes::Bytes(bytes.clone()));
        }
        let buffer = PyUntypedBuffer::get(obj)?;
        if !buffer.is_c_contiguous() {
            return Err(PyBufferError::new_err("buffer is not C-contiguous"));
        }
        Ok(Bytes::Buffer(buffer))
    }

    pub fn as_slice(&self) -> &[u8] {
        let buffer = match self {
            Bytes::Bytes(bytes) => return bytes.as_bytes(),
            Bytes::Buffer(buffer) => buffer,
        };
        let len = buffer.len_bytes();
        if len == 0 {
            return &[];
        }
        // SAFETY: a C-contiguous buffer is `len_bytes` bytes from `buf_ptr`, and the exporter
        // keeps them allocated while the buffer is held, which `&self` guarantees. (Python code
        // on another thread may write to a mutable buffer meanwhile; as with hashlib and the
        // blake3 package, the hash of bytes changed while being hashed is then unspecified.)
        unsafe { std::slice::from_raw_parts(buffer.buf_ptr().cast::<u8>(), len) }
    }
}

/// The bytes of an optional argument, empty if it was not given.
pub fn or_empty<'a>(data: &'a Option<Bytes<'_>>) -> &'a [u8] {
    data.as_ref().map_or(&[], Bytes::as_slice)
}

/// A buffer argument that may be left out (`Buffer(None)`, its default) but, as in hashlib,
/// not given as `None`, which raises `TypeError` like any other object without a buffer.
pub struct Buffer<'py>(pub Option<Bytes<'py>>);

impl Buffer<'_> {
    /// The bytes, empty if the argument was left out.
    pub fn as_slice(&self) -> &[u8] {
        or_empty(&self.0)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Buffer<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Buffer<'py>> {
        Bytes::get(&obj).map(|bytes| Buffer(Some(bytes)))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Bytes<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Bytes<'py>> {
        Bytes::get(&obj)
    }
}

/// Runs `f` on `data`, with the GIL released if `data` is long enough to be worth it.
pub fn with_gil_released_if_long<T: Send>(
    py: Python<'_>,
    data: &Bytes,
    f: impl FnOnce(&[u8]) -> T + Send,
) -> T {
    let bytes = data.as_slice();
    if bytes.len() >= RELEASE_GIL_MIN {
        py.detach(|| f(bytes))
    } else {
        f(bytes)
    }
}
