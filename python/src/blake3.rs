//! `arborhash.blake3`: the `blake3` package's hasher class over `arborhash::blake3::Hasher`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use arborhash::blake3::hazmat::{self, ChainingValue, HasherExt, SubtreeError};
use arborhash::blake3::{self, Hasher, OutputReader, KEY_LEN, OUT_LEN};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::Bytes;
use crate::locked::Locked;
use crate::output::{check_hex_length, hex_of, xof_bytes};

/// The `max_threads` value for "as many threads as there are cores".
const AUTO: i64 = -1;

/// Where large updates run.
#[derive(Clone)]
enum Threads {
    /// On the calling thread.
    One,
    /// On rayon's global pool (one thread a core).
    Auto,
    /// On a pool of a given size, shared by every hasher asking for that size.
    Pool(Arc<rayon::ThreadPool>),
}

impl Threads {
    /// A `max_threads` of at least the number of cores means one thread a core: more would
    /// not hash faster, and the pool would start them all (2**40 of them never returns).
    fn new(max_threads: i64) -> PyResult<Threads> {
        match max_threads {
            1 => Ok(Threads::One),
            AUTO => Ok(Threads::Auto),
            n if n > 1 && n as u64 >= cores() as u64 => Ok(Threads::Auto),
            n if n > 1 => Ok(Threads::Pool(pool(n as usize)?)),
            _ => Err(PyValueError::new_err("not a valid number of threads")),
        }
    }

    fn run<T: Send>(&self, f: impl FnOnce(bool) -> T + Send) -> T {
        match self {
            Threads::One => f(false),
            Threads::Auto => f(true),
            Threads::Pool(pool) => pool.install(|| f(true)),
        }
    }
}

/// The number of cores, asked once: asking reads the process's CPU set and cgroup limits, which
/// took 20 us, 30 times a short hash.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = lock(POOLS.get_or_init(Default::default));
    if let Some(pool) = pools.get(&threads) {
        return Ok(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start {threads} threads: {e}")))?;
    Ok(pools.entry(threads).or_insert(Arc::new(pool)).clone())
}

/// The mode keywords: `key` (32 bytes) or `derive_key_context`, at most one of them.
#[derive(Clone)]
pub enum Mode {
    Hash,
    Keyed([u8; KEY_LEN]),
    DeriveKey(String),
}

impl Mode {
    pub fn new(key: Option<Bytes<'_>>, derive_key_context: Option<&str>) -> PyResult<Mode> {
        match (key, derive_key_context) {
            (Some(_), Some(_)) => Err(PyValueError::new_err(
                "cannot use key and derive_key_context at the same time",
            )),
            (Some(key), None) => Ok(Mode::Keyed(key_array(key.as_slice())?)),
            (None, Some(context)) => Ok(Mode::DeriveKey(context.to_owned())),
            (None, None) => Ok(Mode::Hash),
        }
    }

    fn hasher(&self) -> Hasher {
        match self {
            Mode::Hash => Hasher::new(),
            Mode::Keyed(key) => Hasher::new_keyed(key),
            Mode::DeriveKey(context) => Hasher::new_derive_key(context),
        }
    }

    fn hash(&self, input: &[u8]) -> [u8; OUT_LEN] {
        match self {
            Mode::Hash => *blake3::hash(input).as_bytes(),
            Mode::Keyed(key) => *blake3::keyed_hash(key, input).as_bytes(),
            Mode::DeriveKey(context) => blake3::derive_key(context, input),
        }
    }
}

/// Inputs of at most this many bytes are kept and hashed by the one-shot functions when the
/// digest is asked for: a `Hasher` is about 26 KiB, and making one (a 26 KiB move) costs more
/// than hashing a few KiB.
const SMALL_INPUT: usize = 4096;

/// Default-mode `Hasher`s of dropped objects, kept for reuse: resetting one costs nothing,
/// while making one moves its 26 KiB (about 300 ns; `bench.py`'s one-shot rows at 8 and 16 KiB
/// went from 0.92x and 0.89x of the blake3 package to the figures in docs/python.md).
static SPARE_HASHERS: Mutex<Vec<Box<Hasher>>> = Mutex::new(Vec::new());
/// The most hashers kept (each holds 26 KiB).
const SPARE_MAX: usize = 16;

/// What `digest` reads from: the default hash of a short input, or the extended output.
enum Output {
    Hash([u8; OUT_LEN]),
    Xof(OutputReader),
}

/// A hasher's state: a short input so far, or a `Hasher` (boxed, to keep its 26 KiB out of the
/// Python object).
#[derive(Clone)]
struct State {
    mode: Mode,
    small: Vec<u8>,
    hasher: Option<Box<Hasher>>,
    /// The offset of the subtree this hasher is of (`hazmat.subtree_hasher`), never to be
    /// reused for another.
    subtree: Option<u64>,
    /// The length a write would have brought the subtree to, past its limit: the write was not
    /// taken, and `hazmat.finalize_subtree` reports it.
    too_long: Option<u64>,
}

impl State {
    fn new(mode: Mode) -> State {
        State {
            mode,
            small: Vec::new(),
            hasher: None,
            subtree: None,
            too_long: None,
        }
    }

    fn hasher(&mut self) -> &mut Hasher {
        let (mode, small) = (&self.mode, &mut self.small);
        self.hasher.get_or_insert_with(|| {
            let spare = match mode {
                Mode::Hash => lock(&SPARE_HASHERS).pop(),
                _ => None,
            };
            let mut hasher = match spare {
                Some(mut hasher) => {
                    hasher.reset();
                    hasher
                }
                None => Box::new(mode.hasher()),
            };
            hasher.update(small);
            *small = Vec::new();
            hasher
        })
    }

    fn update(&mut self, input: &[u8], parallel: bool) {
        if let (Some(offset), Some(hasher)) = (self.subtree, &self.hasher) {
            let len = hasher.count() + input.len() as u64;
            if hazmat::max_subtree_len(offset).is_some_and(|max| len > max) {
                self.too_long.get_or_insert(len);
                return;
            }
        }
        if self.hasher.is_none() && self.small.len() + input.len() <= SMALL_INPUT {
            self.small.extend_from_slice(input);
        } else if parallel {
            self.hasher().update_rayon(input);
        } else {
            self.hasher().update(input);
        }
    }

    fn output(&self, length: usize, seek: u64) -> Output {
        let mut reader = match &self.hasher {
            None if length == OUT_LEN && seek == 0 => {
                return Output::Hash(self.mode.hash(&self.small))
            }
            None => self.mode.hasher().update(&self.small).finalize_xof(),
            Some(hasher) => hasher.finalize_xof(),
        };
        reader.set_position(seek);
        Output::Xof(reader)
    }

    fn reset(&mut self) {
        self.small.clear();
        self.too_long = None;
        if let Some(hasher) = &mut self.hasher {
            hasher.reset();
            if let Some(offset) = self.subtree {
                hasher.set_input_offset(offset);
            }
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        if let (Mode::Hash, None, Some(hasher)) = (&self.mode, self.subtree, self.hasher.take()) {
            let mut spare = lock(&SPARE_HASHERS);
            if spare.len() < SPARE_MAX {
                spare.push(hasher);
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

pub fn key_array(key: &[u8]) -> PyResult<[u8; KEY_LEN]> {
    key.try_into().map_err(|_| {
        PyValueError::new_err(format!(
            "expected a {KEY_LEN}-byte key, found {}",
            key.len()
        ))
    })
}

/// An incremental BLAKE3 hasher with the interface of the `blake3` package's `blake3` class
/// (and of hashlib's hash objects).
///
/// Arguments:
/// - `data`: input bytes to hash, as if passed to `update`.
/// - `key`: a 32-byte key, for the keyed hashing mode (a MAC or PRF).
/// - `derive_key_context`: a hardcoded, globally unique, application-specific context string,
///   for the key derivation mode. At most one of `key` and `derive_key_context` may be given.
/// - `max_threads`: the most threads an update may use: 1 (the default) hashes on the calling
///   thread, `blake3.AUTO` on one thread a core, and larger numbers on a pool of that many, up
///   to one thread a core.
///   Inputs shorter than 1 MiB are hashed on the calling thread whatever this says.
/// - `usedforsecurity`: ignored, as in the `blake3` package.
///
/// Updates of 2 KiB or more release the GIL, so several threads can hash at once.
#[pyclass(frozen, immutable_type, module = "arborhash", name = "blake3")]
pub struct Blake3 {
    state: Locked<State>,
    threads: Threads,
    /// Where the input starts, for the hasher of a subtree (see `hazmat.subtree_hasher`).
    subtree_offset: Option<u64>,
}

impl Blake3 {
    pub fn for_subtree(hasher: Hasher, input_offset: u64) -> Blake3 {
        Blake3 {
            state: Locked::new(State {
                mode: Mode::Hash,
                small: Vec::new(),
                hasher: Some(Box::new(hasher)),
                subtree: Some(input_offset),
                too_long: None,
            }),
            threads: Threads::One,
            subtree_offset: Some(input_offset),
        }
    }

    pub fn subtree_offset(&self) -> Option<u64> {
        self.subtree_offset
    }

    /// The chaining value of the subtree hashed so far (see `hazmat.subtree_hasher`).
    pub fn subtree_chaining_value(
        &self,
        py: Python<'_>,
        offset: u64,
    ) -> Result<ChainingValue, SubtreeError> {
        self.state.with(py, false, |state| {
            if let (Some(len), Some(max)) = (state.too_long, hazmat::max_subtree_len(offset)) {
                return Err(SubtreeError::TooLong { offset, len, max });
            }
            let hasher = state.hasher();
            if hasher.count() == 0 {
                return Err(SubtreeError::Empty);
            }
            Ok(hasher.finalize_non_root())
        })
    }

    fn output<'py>(
        &self,
        py: Python<'py>,
        length: usize,
        seek: u64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if let Some(offset @ 1..) = self.subtree_offset {
            return Err(PyValueError::new_err(format!(
                "the subtree starting at {offset} is not the whole input and has no digest: \
                 use hazmat.finalize_subtree"
            )));
        }
        match self
            .state
            .with(py, false, |state| state.output(length, seek))
        {
            Output::Hash(hash) => Ok(PyBytes::new(py, &hash)),
            Output::Xof(reader) => xof_bytes(py, reader, length),
        }
    }
}

#[pymethods]
impl Blake3 {
    /// The algorithm's name.
    #[classattr]
    const name: &'static str = "blake3";
    /// Bytes in the default output.
    #[classattr]
    const digest_size: usize = 32;
    /// Bytes in a block, the unit of compression.
    #[classattr]
    const block_size: usize = 64;
    /// Bytes in a key.
    #[classattr]
    const key_size: usize = KEY_LEN;
    /// The `max_threads` value meaning "as many threads as the implementation likes".
    #[classattr]
    const AUTO: i64 = AUTO;

    #[new]
    #[pyo3(signature = (data = None, /, *, key = None, derive_key_context = None, max_threads = 1, usedforsecurity = true))]
    fn new(
        py: Python<'_>,
        data: Option<Bytes<'_>>,
        key: Option<Bytes<'_>>,
        derive_key_context: Option<&str>,
        max_threads: i64,
        usedforsecurity: bool,
    ) -> PyResult<Blake3> {
        let _ = usedforsecurity;
        let hasher = Blake3 {
            state: Locked::new(State::new(Mode::new(key, derive_key_context)?)),
            threads: Threads::new(max_threads)?,
            subtree_offset: None,
        };
        if let Some(data) = data {
            hasher.feed(py, &data);
        }
        Ok(hasher)
    }

    /// Adds `data` to the input; returns the hasher itself, so calls can be chained.
    #[pyo3(signature = (data, /))]
    fn update<'py>(slf: Bound<'py, Self>, data: Bytes<'_>) -> Bound<'py, Self> {
        slf.get().feed(slf.py(), &data);
        slf
    }

    /// Memory-maps the file at `path` and adds its bytes to the input (files under 16 KiB are
    /// read instead); returns the hasher itself. The GIL is released meanwhile.
    fn update_mmap<'py>(slf: Bound<'py, Self>, path: PathBuf) -> PyResult<Bound<'py, Self>> {
        let this = slf.get();
        this.state.with(slf.py(), true, |state| {
            let hasher = state.hasher();
            this.threads.run(|parallel| {
                if parallel {
                    hasher.update_mmap_rayon(&path).map(drop)
                } else {
                    hasher.update_mmap(&path).map(drop)
                }
            })
        })?;
        Ok(slf)
    }

    /// `length` bytes of output (32 by default), starting `seek` bytes into the extended output.
    /// The hasher is not changed: more input may follow.
    #[pyo3(signature = (length = 32, *, seek = 0))]
    fn digest<'py>(
        &self,
        py: Python<'py>,
        length: usize,
        seek: u64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        self.output(py, length, seek)
    }

    /// Like `digest`, as a string of hexadecimal digits.
    #[pyo3(signature = (length = 32, *, seek = 0))]
    fn hexdigest<'py>(
        &self,
        py: Python<'py>,
        length: usize,
        seek: u64,
    ) -> PyResult<Bound<'py, PyString>> {
        check_hex_length(length)?;
        hex_of(&self.output(py, length, seek)?)
    }

    /// A copy of the hasher, in the same state.
    fn copy(&self, py: Python<'_>) -> Blake3 {
        Blake3 {
            state: Locked::new(self.state.snapshot(py)),
            threads: self.threads.clone(),
            subtree_offset: self.subtree_offset,
        }
    }

    /// Forgets all input, keeping the key or context.
    fn reset(&self, py: Python<'_>) {
        self.state.with(py, false, State::reset);
    }
}

impl Blake3 {
    fn feed(&self, py: Python<'_>, data: &Bytes<'_>) {
        let threads = &self.threads;
        self.state.update(py, data, |state, bytes| {
            threads.run(|parallel| state.update(bytes, parallel))
        });
    }
}
