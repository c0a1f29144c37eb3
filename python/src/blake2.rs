//! hashlib's `blake2b` and `blake2s` with every parameter, and `blake2bp` / `blake2sp`, over
//! arborhash's BLAKE2 states.

use arborhash::{blake2b, blake2bp, blake2s, blake2sp};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::buffer::{Buffer, Bytes};
use crate::hex;
use crate::locked::Locked;

/// The sizes of one BLAKE2 function, for checking arguments, and its name in messages.
pub struct Limits {
    pub name: &'static str,
    pub max_digest: usize,
    pub salt: usize,
    pub node_offset_bits: u32,
}

pub const BLAKE2B: Limits = Limits {
    name: "Blake2b",
    max_digest: blake2b::OUTBYTES,
    salt: blake2b::SALTBYTES,
    node_offset_bits: 64,
};
pub const BLAKE2S: Limits = Limits {
    name: "Blake2s",
    max_digest: blake2s::OUTBYTES,
    salt: blake2s::SALTBYTES,
    node_offset_bits: 48,
};
pub const BLAKE2BP: Limits = Limits {
    name: "Blake2bp",
    ..BLAKE2B
};
pub const BLAKE2SP: Limits = Limits {
    name: "Blake2sp",
    ..BLAKE2S
};

/// Whether the running interpreter's hashlib words its errors as CPython 3.14's does (its
/// BLAKE2 module was rewritten then); asked only once an argument is wrong. Out of line, since
/// its version parsing, inlined into the constructors, slowed their common path
/// (`python/benchmarks/bench.py`, BLAKE2b at 64 B: 0.93-0.94x hashlib inlined, 0.97-0.98x not).
#[cold]
#[inline(never)]
fn hashlib_3_14(py: Python<'_>) -> bool {
    py.version_info() >= (3, 14)
}

/// hashlib's messages for a digest size or key out of range.
pub fn check_digest_and_key(
    py: Python<'_>,
    limits: &Limits,
    digest_size: i32,
    key: &[u8],
) -> PyResult<()> {
    check_digest_size(py, limits, digest_size)?;
    check_key(limits, key)
}

fn check_digest_size(py: Python<'_>, limits: &Limits, digest_size: i32) -> PyResult<()> {
    if !(1..=limits.max_digest as i32).contains(&digest_size) {
        let range = format!("between 1 and {} bytes", limits.max_digest);
        return Err(PyValueError::new_err(if hashlib_3_14(py) {
            format!(
                "digest_size for {} must be {range}, here it is {digest_size}",
                limits.name
            )
        } else {
            format!("digest_size must be {range}")
        }));
    }
    Ok(())
}

fn check_key(limits: &Limits, key: &[u8]) -> PyResult<()> {
    if key.len() > limits.max_digest {
        return Err(PyValueError::new_err(format!(
            "maximum key length is {} bytes",
            limits.max_digest
        )));
    }
    Ok(())
}

/// hashlib's keyword arguments, checked as hashlib checks them (in its order, with its
/// exception types and messages).
struct Tree {
    fanout: u8,
    depth: u8,
    leaf_size: u32,
    node_offset: u64,
    node_depth: u8,
    inner_size: usize,
}

#[allow(clippy::too_many_arguments)]
fn check_tree(
    py: Python<'_>,
    limits: &Limits,
    fanout: i32,
    depth: i32,
    leaf_size: i128,
    node_offset: i128,
    node_depth: i32,
    inner_size: i32,
) -> PyResult<Tree> {
    let byte = |value: i32, low: i32, name: &str| {
        u8::try_from(value)
            .ok()
            .filter(|&v| i32::from(v) >= low)
            .ok_or_else(|| PyValueError::new_err(format!("{name} must be between {low} and 255")))
    };
    let fanout = byte(fanout, 0, "fanout")?;
    let depth = byte(depth, 1, "depth")?;
    let non_negative = |value: i128| {
        if value < 0 {
            Err(PyValueError::new_err(if hashlib_3_14(py) {
                "Cannot convert negative int"
            } else {
                "value must be positive"
            }))
        } else {
            Ok(value as u128)
        }
    };
    let leaf_size = u32::try_from(non_negative(leaf_size)?)
        .map_err(|_| PyOverflowError::new_err("leaf_size is too large"))?;
    let node_offset = u64::try_from(non_negative(node_offset)?).map_err(|_| {
        PyOverflowError::new_err(if hashlib_3_14(py) {
            "Python int too large for C unsigned long long"
        } else {
            "int too big to convert"
        })
    })?;
    if limits.node_offset_bits < 64 && node_offset >> limits.node_offset_bits != 0 {
        return Err(PyOverflowError::new_err("node_offset is too large"));
    }
    let node_depth = byte(node_depth, 0, "node_depth")?;
    let inner_size = usize::try_from(inner_size)
        .ok()
        .filter(|&size| size <= limits.max_digest)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "inner_size must be between 0 and is {}",
                limits.max_digest
            ))
        })?;
    Ok(Tree {
        fanout,
        depth,
        leaf_size,
        node_offset,
        node_depth,
        inner_size,
    })
}

/// An unsigned integer argument (`leaf_size`, `node_offset`) as hashlib converts it: any
/// negative value, however large, is a `ValueError`, any value too large an `OverflowError`,
/// so values beyond `i128` are clamped to its ends, which fail the same checks.
pub struct Unsigned(i128);

impl<'a, 'py> FromPyObject<'a, 'py> for Unsigned {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Unsigned> {
        match obj.extract::<i128>() {
            Ok(value) => Ok(Unsigned(value)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Unsigned(if obj.lt(0)? { i128::MIN } else { i128::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

/// The data of a constructor called with keywords beyond its parameters: as CPython 3.14's
/// hashlib, `data` by name and the deprecated `string`, one of them; before 3.14, neither.
#[cold]
#[inline(never)]
fn keyword_data<'py>(
    py: Python<'py>,
    function: &str,
    data: Option<Bytes<'py>>,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Option<Bytes<'py>>> {
    let (mut by_name, mut string) = (None, None);
    for (name, value) in kwargs {
        let name: String = name.extract()?;
        match name.as_str() {
            "data" if hashlib_3_14(py) => by_name = Some(value),
            "string" if hashlib_3_14(py) => string = Some(value),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{function}() got an unexpected keyword argument '{name}'"
                )))
            }
        }
    }
    if data.is_some() && by_name.is_some() {
        return Err(PyTypeError::new_err(format!(
            "argument for {function}() given by name ('data') and position (1)"
        )));
    }
    let data = match by_name {
        Some(value) => Some(Bytes::get(&value)?),
        None => data,
    };
    match (data, string) {
        (Some(_), Some(_)) => Err(PyTypeError::new_err(
            "'data' and 'string' are mutually exclusive and support for 'string' keyword \
             parameter is slated for removal in a future version.",
        )),
        (None, Some(string)) => Ok(Some(Bytes::get(&string)?)),
        (data, None) => Ok(data),
    }
}

fn check_padded(limits: &Limits, value: &[u8], name: &str) -> PyResult<()> {
    if value.len() > limits.salt {
        return Err(PyValueError::new_err(format!(
            "maximum {name} length is {} bytes",
            limits.salt
        )));
    }
    Ok(())
}

/// The methods every hashlib-like class here shares: `update`, `digest`, `hexdigest`, `copy`
/// and `digest_size`, around a `state: Locked<S>` field. `$finalize` makes the hash of a
/// `&S` named `$state`, and `$bytes` its bytes from the hash named `$hash`.
/// `$($items)*` are the class's own (its constructor and class attributes).
macro_rules! hash_object {
    ($class:ident, $state_type:ty, |$state:ident| $finalize:expr, |$hash:ident| $bytes:expr,
     { $($items:tt)* }) => {
        impl $class {
            /// A new object in `state`, fed with the constructor's `data` before the state is
            /// shared, so without taking its lock. Inlined into the constructors, where it saves
            /// copies of the state (the blake2b rows of `python/benchmarks/bench.py` at 64 B and
            /// 1 KiB are over 5 % slower without).
            #[inline(always)]
            fn fed(py: Python<'_>, mut state: $state_type, digest_size: usize, data: Option<Bytes<'_>>) -> Self {
                if let Some(data) = data {
                    $crate::buffer::with_gil_released_if_long(py, &data, |bytes| {
                        state.update(bytes);
                    });
                }
                $class {
                    state: Locked::new(state),
                    digest_size,
                }
            }
        }

        #[pymethods]
        impl $class {
            $($items)*

            /// Adds `data` to the input.
            #[pyo3(signature = (data, /))]
            fn update(&self, py: Python<'_>, data: Bytes<'_>) {
                self.state.update(py, &data, |state, bytes| {
                    state.update(bytes);
                });
            }

            /// The hash of the input so far; more input may follow.
            fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                let $hash = self.state.with(py, false, |$state| $finalize);
                PyBytes::new(py, $bytes)
            }

            /// Like `digest`, as a string of hexadecimal digits.
            fn hexdigest(&self, py: Python<'_>) -> String {
                let $hash = self.state.with(py, false, |$state| $finalize);
                hex($bytes)
            }

            /// A copy of the hash object, in the same state.
            fn copy(&self, py: Python<'_>) -> Self {
                $class {
                    state: Locked::new(self.state.snapshot(py)),
                    digest_size: self.digest_size,
                }
            }

            /// Bytes in the digest.
            #[getter]
            fn digest_size(&self) -> usize {
                self.digest_size
            }
        }
    };
}
pub(crate) use hash_object;

/// `hashlib.blake2b` / `hashlib.blake2s` over `$module`'s `State`.
macro_rules! sequential_class {
    ($class:ident, $module:ident, $name:literal, $limits:expr, $signature:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(frozen, immutable_type, module = "arborhash", name = $name)]
        pub struct $class {
            state: Locked<$module::State>,
            digest_size: usize,
        }

        hash_object!($class, $module::State, |state| state.finalize(), |hash| hash.as_bytes(), {
            /// The algorithm's name.
            #[classattr]
            const name: &'static str = $name;
            /// Bytes in a block.
            #[classattr]
            const block_size: usize = $module::BLOCKBYTES;
            /// The largest digest size.
            #[classattr]
            const MAX_DIGEST_SIZE: usize = $module::OUTBYTES;
            /// The largest key length.
            #[classattr]
            const MAX_KEY_SIZE: usize = $module::KEYBYTES;
            /// The largest salt length.
            #[classattr]
            const SALT_SIZE: usize = $module::SALTBYTES;
            /// The largest personalization length.
            #[classattr]
            const PERSON_SIZE: usize = $module::PERSONALBYTES;

            /// `data` may also be named, as `data` or (deprecated) `string`, on CPython 3.14 and
            /// later, as by their hashlib.
            #[new]
            #[pyo3(text_signature = $signature)]
            #[pyo3(signature = (data = Buffer(None), /, *, digest_size = $module::OUTBYTES as i32,
                key = Buffer(None), salt = Buffer(None), person = Buffer(None), fanout = 1,
                depth = 1, leaf_size = Unsigned(0), node_offset = Unsigned(0), node_depth = 0,
                inner_size = 0, last_node = None, usedforsecurity = None, **kwargs))]
            #[allow(clippy::too_many_arguments)]
            fn new<'py>(
                py: Python<'py>,
                data: Buffer<'py>,
                digest_size: i32,
                key: Buffer<'_>,
                salt: Buffer<'_>,
                person: Buffer<'_>,
                fanout: i32,
                depth: i32,
                leaf_size: Unsigned,
                node_offset: Unsigned,
                node_depth: i32,
                inner_size: i32,
                last_node: Option<&Bound<'_, PyAny>>,
                usedforsecurity: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'py, PyDict>>,
            ) -> PyResult<Self> {
                let _ = usedforsecurity;
                let data = match kwargs {
                    Some(kwargs) => keyword_data(py, $name, data.0, kwargs)?,
                    None => data.0,
                };
                let numbers = (digest_size, fanout, depth, leaf_size.0, node_offset.0, node_depth, inner_size);
                if numbers == ($module::OUTBYTES as i32, 1, 1, 0, 0, 0, 0)
                    && (key.0.is_none() && salt.0.is_none() && person.0.is_none() && last_node.is_none())
                {
                    // Only data (the common call): no checks, and a state made once, since
                    // building the parameter block costs as much as constructing the object.
                    static DEFAULT: std::sync::OnceLock<$module::State> = std::sync::OnceLock::new();
                    let state = DEFAULT.get_or_init($module::State::new).clone();
                    return Ok(Self::fed(py, state, $module::OUTBYTES, data));
                }
                let limits = $limits;
                check_digest_size(py, &limits, digest_size)?;
                check_padded(&limits, salt.as_slice(), "salt")?;
                check_padded(&limits, person.as_slice(), "person")?;
                let tree = check_tree(
                    py,
                    &limits,
                    fanout,
                    depth,
                    leaf_size.0,
                    node_offset.0,
                    node_depth,
                    inner_size,
                )?;
                let key = key.as_slice();
                check_key(&limits, key)?;
                let mut params = $module::Params::new();
                // Setting a key wipes the old one byte by byte: skip that for no key.
                if !key.is_empty() {
                    params.key(key);
                }
                let state = params
                    .hash_length(digest_size as usize)
                    .salt(salt.as_slice())
                    .personal(person.as_slice())
                    .fanout(tree.fanout)
                    .max_depth(tree.depth)
                    .max_leaf_length(tree.leaf_size)
                    .node_offset(tree.node_offset)
                    .node_depth(tree.node_depth)
                    .inner_hash_length(tree.inner_size)
                    .last_node(last_node.map_or(Ok(false), |b| b.is_truthy())?)
                    .to_state();
                Ok(Self::fed(py, state, digest_size as usize, data))
            }
        });
    };
}

sequential_class!(
    Blake2b,
    blake2b,
    "blake2b",
    BLAKE2B,
    "(data=b'', /, *, digest_size=64, key=b'', salt=b'', person=b'', fanout=1, depth=1, leaf_size=0, node_offset=0, node_depth=0, inner_size=0, last_node=False, usedforsecurity=True)",
    "BLAKE2b with hashlib.blake2b's signature, limits and errors (digests of 1 to 64 bytes, \
     keys up to 64 bytes, 16-byte salt and personalization, and the tree parameters). Updates \
     of 2 KiB or more release the GIL."
);
sequential_class!(
    Blake2s,
    blake2s,
    "blake2s",
    BLAKE2S,
    "(data=b'', /, *, digest_size=32, key=b'', salt=b'', person=b'', fanout=1, depth=1, leaf_size=0, node_offset=0, node_depth=0, inner_size=0, last_node=False, usedforsecurity=True)",
    "BLAKE2s with hashlib.blake2s's signature, limits and errors (digests of 1 to 32 bytes, \
     keys up to 32 bytes, 8-byte salt and personalization, and the tree parameters). Updates \
     of 2 KiB or more release the GIL."
);

/// `blake2bp` / `blake2sp` over `$module`'s `State`.
macro_rules! parallel_class {
    ($class:ident, $module:ident, $name:literal, $limits:expr, $block:expr, $signature:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyclass(frozen, immutable_type, module = "arborhash", name = $name)]
        pub struct $class {
            state: Locked<$module::State>,
            digest_size: usize,
        }

        hash_object!($class, $module::State, |state| state.finalize(), |hash| hash.as_bytes(), {
            /// The algorithm's name.
            #[classattr]
            const name: &'static str = $name;
            /// Bytes in a block of one leaf.
            #[classattr]
            const block_size: usize = $block;
            /// The largest digest size.
            #[classattr]
            const MAX_DIGEST_SIZE: usize = $module::OUTBYTES;
            /// The largest key length.
            #[classattr]
            const MAX_KEY_SIZE: usize = $module::KEYBYTES;

            #[new]
            #[pyo3(text_signature = $signature)]
            #[pyo3(signature = (data = Buffer(None), /, *, digest_size = $module::OUTBYTES as i32, key = Buffer(None), usedforsecurity = None))]
            fn new(
                py: Python<'_>,
                data: Buffer<'_>,
                digest_size: i32,
                key: Buffer<'_>,
                usedforsecurity: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Self> {
                let _ = usedforsecurity;
                let key = key.as_slice();
                check_digest_and_key(py, &$limits, digest_size, key)?;
                let state = $module::Params::new()
                    .hash_length(digest_size as usize)
                    .key(key)
                    .to_state();
                Ok(Self::fed(py, state, digest_size as usize, data.0))
            }
        });
    };
}

parallel_class!(
    Blake2bp,
    blake2bp,
    "blake2bp",
    BLAKE2BP,
    blake2b::BLOCKBYTES,
    "(data=b'', /, *, digest_size=64, key=b'', usedforsecurity=True)",
    "BLAKE2bp: BLAKE2b over 4 leaves hashed side by side in SIMD lanes (RFC 7693's BLAKE2b \
     inside, a different function from it). Digests of 1 to 64 bytes, keys up to 64 bytes."
);
parallel_class!(
    Blake2sp,
    blake2sp,
    "blake2sp",
    BLAKE2SP,
    blake2s::BLOCKBYTES,
    "(data=b'', /, *, digest_size=32, key=b'', usedforsecurity=True)",
    "BLAKE2sp: BLAKE2s over 8 leaves hashed side by side in SIMD lanes (a different function \
     from BLAKE2s). Digests of 1 to 32 bytes, keys up to 32 bytes."
);
