//! The `arborhash._arborhash` extension module: Python classes and functions over the
//! `arborhash` crate, which does all the hashing. The pure-Python package `arborhash`
//! re-exports them (see `arborhash/__init__.py`).

// Class attributes are Python names (`name`, `digest_size`), not Rust constants.
#![allow(non_upper_case_globals)]

mod blake2;
mod blake3;
mod buffer;
mod hazmat;
mod locked;
mod many;
mod output;
mod tz;

use pyo3::prelude::*;

/// Lowercase hexadecimal digits of `bytes`.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

#[pymodule]
fn _arborhash(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<blake3::Blake3>()?;
    m.add_class::<blake2::Blake2b>()?;
    m.add_class::<blake2::Blake2s>()?;
    m.add_class::<blake2::Blake2bp>()?;
    m.add_class::<blake2::Blake2sp>()?;
    m.add_class::<tz::Tz>()?;
    m.add_function(wrap_pyfunction!(many::hash_many, m)?)?;
    m.add_submodule(&hazmat::module(m.py())?)?;
    Ok(())
}
