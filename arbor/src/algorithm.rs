//! The hash algorithms `arbor sum` offers, and the one place that calls the hash implementations.
//!
//! Every other module goes through [`Algorithm`], [`Spec`], [`Hasher`] and [`Digest`], so that
//! the hash implementations are named only here.

use arborhash::blake2b::{self, blake2bp, Params as Blake2bParams};
use arborhash::blake2s::{self, blake2sp, Params as Blake2sParams};
use arborhash::blake3::{self, many as blake3_many, Hasher as Blake3Hasher};
use arborhash::tz;
use std::fmt;

/// A hash algorithm `arbor sum` can compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// BLAKE3 with its extendable output (default 32 bytes).
    Blake3,
    /// BLAKE2b, 1 to 64 bytes (default 64).
    Blake2b,
    /// BLAKE2s, 1 to 32 bytes (default 32).
    Blake2s,
    /// BLAKE2bp, the 4-way parallel BLAKE2b, 1 to 64 bytes (default 64).
    Blake2bp,
    /// BLAKE2sp, the 8-way parallel BLAKE2s, 1 to 32 bytes (default 32).
    Blake2sp,
    /// The Tillich-Zémor hash, 64 bytes.
    Tz,
}

impl Algorithm {
    /// Every algorithm, in the order the help text lists them.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Blake3,
        Algorithm::Blake2b,
        Algorithm::Blake2s,
        Algorithm::Blake2bp,
        Algorithm::Blake2sp,
        Algorithm::Tz,
    ];

    /// The name `-a/--algorithm` takes.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Blake3 => "blake3",
            Algorithm::Blake2b => "blake2b",
            Algorithm::Blake2s => "blake2s",
            Algorithm::Blake2bp => "blake2bp",
            Algorithm::Blake2sp => "blake2sp",
            Algorithm::Tz => "tz",
        }
    }

    /// The algorithm that `-a/--algorithm` calls `name`.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        Algorithm::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The name in BSD-style (`--tag`) lines, as b3sum and coreutils write it.
    pub fn tag(self) -> &'static str {
        match self {
            Algorithm::Blake3 => "BLAKE3",
            Algorithm::Blake2b => "BLAKE2b",
            Algorithm::Blake2s => "BLAKE2s",
            Algorithm::Blake2bp => "BLAKE2bp",
            Algorithm::Blake2sp => "BLAKE2sp",
            Algorithm::Tz => "TZ",
        }
    }

    /// The algorithm a tag names.
    pub fn from_tag(tag: &[u8]) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.tag().as_bytes() == tag)
    }

    /// The output length in bytes when `-l` is not given.
    pub fn default_length(self) -> u64 {
        match self {
            Algorithm::Blake3 | Algorithm::Blake2s | Algorithm::Blake2sp => 32,
            Algorithm::Blake2b | Algorithm::Blake2bp | Algorithm::Tz => 64,
        }
    }

    /// The lengths in bytes the algorithm can produce; BLAKE3 is an extendable-output function.
    pub fn lengths(self) -> (u64, u64) {
        match self {
            Algorithm::Blake3 => (0, u64::MAX),
            Algorithm::Blake2b | Algorithm::Blake2bp => (1, 64),
            Algorithm::Blake2s | Algorithm::Blake2sp => (1, 32),
            Algorithm::Tz => (64, 64),
        }
    }

    /// The key lengths in bytes keyed mode accepts, or `None` if the algorithm has no key.
    pub fn key_lengths(self) -> Option<(usize, usize)> {
        match self {
            Algorithm::Blake3 => Some((32, 32)),
            Algorithm::Blake2b | Algorithm::Blake2bp => Some((1, 64)),
            Algorithm::Blake2s | Algorithm::Blake2sp => Some((1, 32)),
            Algorithm::Tz => None,
        }
    }

    /// Whether hashing one large input can use several threads: BLAKE3's tree and the
    /// Tillich-Zémor matrix product split; BLAKE2's chains do not.
    pub fn is_multithreaded(self) -> bool {
        matches!(self, Algorithm::Blake3 | Algorithm::Tz)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the hash is keyed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The plain hash.
    Plain,
    /// A keyed hash (MAC) with this key.
    Keyed(Vec<u8>),
    /// BLAKE3 key derivation with this context string.
    DeriveKey(String),
}

/// Why a [`Spec`] cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The length is outside what the algorithm produces.
    Length { algorithm: Algorithm, length: u64 },
    /// The key length is wrong for the algorithm (or it has no keyed mode).
    KeyLength { algorithm: Algorithm, length: usize },
    /// Key derivation is a BLAKE3 mode.
    DeriveKey { algorithm: Algorithm },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SpecError::Length { algorithm, length } => match algorithm.lengths() {
                (min, max) if min == max => write!(
                    f,
                    "length {length} is out of range for {algorithm}: it takes exactly {min} bytes"
                ),
                (min, max) => write!(
                    f,
                    "length {length} is out of range for {algorithm}: it takes {min} to {max} bytes"
                ),
            },
            SpecError::KeyLength { algorithm, length } => match algorithm.key_lengths() {
                Some((min, max)) if min == max => write!(
                    f,
                    "{algorithm} needs a key of exactly {min} bytes on standard input, found {length}"
                ),
                Some((min, max)) => write!(
                    f,
                    "{algorithm} needs a key of {min} to {max} bytes on standard input, found {length}"
                ),
                None => write!(f, "{algorithm} has no keyed mode"),
            },
            SpecError::DeriveKey { algorithm } => {
                write!(f, "--derive-key is a BLAKE3 mode; {algorithm} has none")
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// A validated choice of algorithm, output length and mode: everything needed to start a hash.
#[derive(Clone, Debug)]
pub struct Spec {
    algorithm: Algorithm,
    length: u64,
    mode: Mode,
}

impl Spec {
    /// Checks that `algorithm` can produce `length` bytes in `mode`.
    pub fn new(algorithm: Algorithm, length: u64, mode: Mode) -> Result<Spec, SpecError> {
        let (min, max) = algorithm.lengths();
        if !(min..=max).contains(&length) {
            return Err(SpecError::Length { algorithm, length });
        }
        match &mode {
            Mode::Plain => {}
            Mode::Keyed(key) => match algorithm.key_lengths() {
                Some((min, max)) if (min..=max).contains(&key.len()) => {}
                _ => {
                    return Err(SpecError::KeyLength {
                        algorithm,
                        length: key.len(),
                    })
                }
            },
            Mode::DeriveKey(_) if algorithm != Algorithm::Blake3 => {
                return Err(SpecError::DeriveKey { algorithm })
            }
            Mode::DeriveKey(_) => {}
        }
        Ok(Spec {
            algorithm,
            length,
            mode,
        })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The output length in bytes.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// The same algorithm and mode with another output length.
    pub fn with_length(&self, length: u64) -> Result<Spec, SpecError> {
        Spec::new(self.algorithm, length, self.mode.clone())
    }

    /// A hasher ready for input.
    pub fn hasher(&self) -> Hasher {
        let key: &[u8] = match &self.mode {
            Mode::Keyed(key) => key,
            _ => &[],
        };
        // Lengths were checked in `Spec::new`, so the BLAKE2 casts are within 1..=64.
        let len = self.length as usize;
        let inner = match (self.algorithm, &self.mode) {
            (Algorithm::Blake3, Mode::Plain) => Inner::Blake3(Blake3Hasher::new()),
            (Algorithm::Blake3, Mode::Keyed(_)) => {
                let key: [u8; 32] = key.try_into().expect("Spec::new checked the key length");
                Inner::Blake3(Blake3Hasher::new_keyed(&key))
            }
            (Algorithm::Blake3, Mode::DeriveKey(context)) => {
                Inner::Blake3(Blake3Hasher::new_derive_key(context))
            }
            (Algorithm::Blake2b, _) => {
                Inner::Blake2b(Blake2bParams::new().hash_length(len).key(key).to_state())
            }
            (Algorithm::Blake2s, _) => {
                Inner::Blake2s(Blake2sParams::new().hash_length(len).key(key).to_state())
            }
            (Algorithm::Blake2bp, _) => {
                Inner::Blake2bp(blake2bp::Params::new().hash_length(len).key(key).to_state())
            }
            (Algorithm::Blake2sp, _) => {
                Inner::Blake2sp(blake2sp::Params::new().hash_length(len).key(key).to_state())
            }
            (Algorithm::Tz, _) => Inner::Tz(tz::Hasher::new()),
        };
        Hasher { inner }
    }

    /// Hashes a whole input held in memory on the calling thread.
    pub fn hash(&self, input: &[u8]) -> Digest {
        let mut hasher = self.hasher();
        hasher.update(input);
        hasher.finalize()
    }

    /// Hashes many small inputs, filling SIMD lanes across them where the algorithm has a batch
    /// API (BLAKE3 up to its default 32 bytes); the digests hold `self.length()` bytes and
    /// cannot be seeked past them.
    pub fn hash_many(&self, inputs: &[&[u8]]) -> Vec<Digest> {
        let length = self.length as usize;
        if self.algorithm != Algorithm::Blake3 || length > blake3::OUT_LEN || inputs.len() < 2 {
            return inputs.iter().map(|input| self.hash(input)).collect();
        }
        let mut outputs = vec![[0u8; blake3::OUT_LEN]; inputs.len()];
        match &self.mode {
            Mode::Plain | Mode::Keyed(_) => {
                let mut hashes = vec![blake3::Hash::from_bytes([0; blake3::OUT_LEN]); inputs.len()];
                match &self.mode {
                    Mode::Keyed(key) => {
                        let key: &[u8; blake3::KEY_LEN] = key
                            .as_slice()
                            .try_into()
                            .expect("Spec::new checked the key length");
                        blake3_many::keyed_hash_many(key, inputs, &mut hashes);
                    }
                    _ => blake3_many::hash_many(inputs, &mut hashes),
                }
                for (out, hash) in outputs.iter_mut().zip(&hashes) {
                    *out = *hash.as_bytes();
                }
            }
            Mode::DeriveKey(context) => blake3_many::derive_key_many(context, inputs, &mut outputs),
        }
        outputs
            .iter()
            .map(|out| Digest::fixed(&out[..length]))
            .collect()
    }
}

// One hasher lives on the stack per input being hashed; boxing the big variant would only add an
// allocation per file.
#[allow(clippy::large_enum_variant)]
enum Inner {
    Blake3(Blake3Hasher),
    Blake2b(blake2b::State),
    Blake2s(blake2s::State),
    Blake2bp(blake2bp::State),
    Blake2sp(blake2sp::State),
    Tz(tz::Hasher),
}

/// An incremental hash of one input.
pub struct Hasher {
    inner: Inner,
}

impl Hasher {
    /// Adds input on the calling thread.
    pub fn update(&mut self, input: &[u8]) {
        match &mut self.inner {
            Inner::Blake3(h) => {
                h.update(input);
            }
            Inner::Blake2b(h) => {
                h.update(input);
            }
            Inner::Blake2s(h) => {
                h.update(input);
            }
            Inner::Blake2bp(h) => {
                h.update(input);
            }
            Inner::Blake2sp(h) => {
                h.update(input);
            }
            Inner::Tz(h) => {
                h.update(input);
            }
        }
    }

    /// Adds input, spreading the work over the current rayon pool where the algorithm allows.
    pub fn update_parallel(&mut self, input: &[u8]) {
        match &mut self.inner {
            Inner::Blake3(h) => {
                h.update_rayon(input);
            }
            Inner::Tz(h) => {
                h.update_rayon(input);
            }
            _ => self.update(input),
        }
    }

    /// Ends the input.
    pub fn finalize(self) -> Digest {
        let fixed = Digest::fixed;
        match self.inner {
            Inner::Blake3(h) => Digest::Xof(h.finalize_xof()),
            Inner::Blake2b(h) => fixed(h.finalize().as_bytes()),
            Inner::Blake2s(h) => fixed(h.finalize().as_bytes()),
            Inner::Blake2bp(h) => fixed(h.finalize().as_bytes()),
            Inner::Blake2sp(h) => fixed(h.finalize().as_bytes()),
            Inner::Tz(h) => fixed(&h.finalize().as_bytes()),
        }
    }
}

/// The output of a finished hash, read in order like a stream.
pub enum Digest {
    /// BLAKE3's extendable output.
    Xof(blake3::OutputReader),
    /// A fixed-length digest, `bytes[..len]`, and how much of it has been read. Held inline:
    /// a tree of small files makes one digest per file.
    Fixed {
        bytes: [u8; FIXED_MAX],
        len: usize,
        position: usize,
    },
}

/// The longest fixed-length output: BLAKE2b's and Tillich-Zémor's 64 bytes.
const FIXED_MAX: usize = 64;

impl Digest {
    fn fixed(output: &[u8]) -> Digest {
        let mut bytes = [0; FIXED_MAX];
        bytes[..output.len()].copy_from_slice(output);
        Digest::Fixed {
            bytes,
            len: output.len(),
            position: 0,
        }
    }

    /// Skips the first `offset` output bytes (b3sum's `--seek`; BLAKE3 only).
    pub fn seek(&mut self, offset: u64) {
        match self {
            Digest::Xof(reader) => reader.set_position(offset),
            Digest::Fixed { len, position, .. } => {
                *position = usize::try_from(offset).map_or(*len, |o| o.min(*len))
            }
        }
    }

    /// Fills `out` with the next output bytes. A fixed digest must not be read past its end.
    pub fn fill(&mut self, out: &mut [u8]) {
        match self {
            Digest::Xof(reader) => reader.fill(out),
            Digest::Fixed {
                bytes,
                len,
                position,
            } => {
                let end = *position + out.len();
                assert!(end <= *len, "read past the end of a fixed-length digest");
                out.copy_from_slice(&bytes[*position..end]);
                *position = end;
            }
        }
    }

    /// The next `length` output bytes.
    pub fn take(&mut self, length: usize) -> Vec<u8> {
        let mut out = vec![0; length];
        self.fill(&mut out);
        out
    }
}
