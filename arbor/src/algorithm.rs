//! The hash algorithms `arbor sum` offers, and the one place that calls the hash implementations.
//!
//! Every other module goes through [`Algorithm`], [`Spec`], [`Hasher`] and [`Digest`], so that
//! the hash implementations are named only here.

use arborhash::blake2b::{self, blake2bp, Params as Blake2bParams};
use arborhash::blake2s::{self, blake2sp, Params as Blake2sParams};
use arborhash::blake3::{self, many as blake3_many, Hasher as Blake3Hasher};
use arborhash::tz;
use arborhash::{blake2xb, blake2xs};
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
    /// BLAKE2Xb, BLAKE2b's extendable output, 1 to 2^32-1 bytes (default 64).
    Blake2xb,
    /// BLAKE2Xs, BLAKE2s's extendable output, 1 to 65535 bytes (default 32).
    Blake2xs,
    /// The Tillich-Zémor hash, 64 bytes.
    Tz,
}

impl Algorithm {
    /// Every algorithm, in the order the help text lists them.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Blake3,
        Algorithm::Blake2b,
        Algorithm::Blake2s,
        Algorithm::Blake2bp,
        Algorithm::Blake2sp,
        Algorithm::Blake2xb,
        Algorithm::Blake2xs,
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
            Algorithm::Blake2xb => "blake2xb",
            Algorithm::Blake2xs => "blake2xs",
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
            Algorithm::Blake2xb => "BLAKE2Xb",
            Algorithm::Blake2xs => "BLAKE2Xs",
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
            Algorithm::Blake3 | Algorithm::Blake2s | Algorithm::Blake2sp | Algorithm::Blake2xs => {
                32
            }
            Algorithm::Blake2b | Algorithm::Blake2bp | Algorithm::Blake2xb | Algorithm::Tz => 64,
        }
    }

    /// The lengths in bytes the algorithm can produce; BLAKE3 is an extendable-output function.
    pub fn lengths(self) -> (u64, u64) {
        match self {
            Algorithm::Blake3 => (0, u64::MAX),
            Algorithm::Blake2b | Algorithm::Blake2bp => (1, 64),
            Algorithm::Blake2s | Algorithm::Blake2sp => (1, 32),
            Algorithm::Blake2xb => (1, blake2xb::MAX_OUTPUT_LENGTH as u64),
            Algorithm::Blake2xs => (1, blake2xs::MAX_OUTPUT_LENGTH as u64),
            Algorithm::Tz => (64, 64),
        }
    }

    /// The key lengths in bytes keyed mode accepts, or `None` if the algorithm has no key.
    pub fn key_lengths(self) -> Option<(usize, usize)> {
        match self {
            Algorithm::Blake3 => Some((32, 32)),
            Algorithm::Blake2b | Algorithm::Blake2bp | Algorithm::Blake2xb => Some((1, 64)),
            Algorithm::Blake2s | Algorithm::Blake2sp | Algorithm::Blake2xs => Some((1, 32)),
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

/// BLAKE2's parameters besides the key and the output length, as its specification names them.
/// The defaults (sequential hashing, no salt or personalization) give the plain hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blake2Params {
    /// Salt, zero-padded to 16 bytes (BLAKE2b) or 8 (BLAKE2s).
    pub salt: Vec<u8>,
    /// Personalization, zero-padded like the salt.
    pub personal: Vec<u8>,
    pub fanout: u8,
    pub max_depth: u8,
    pub max_leaf_length: u32,
    /// Below 2^64 for BLAKE2b, 2^48 for BLAKE2s.
    pub node_offset: u64,
    pub node_depth: u8,
    /// At most the algorithm's longest output.
    pub inner_hash_length: u64,
    pub last_node: bool,
}

impl Default for Blake2Params {
    fn default() -> Blake2Params {
        Blake2Params {
            salt: Vec::new(),
            personal: Vec::new(),
            fanout: 1,
            max_depth: 1,
            max_leaf_length: 0,
            node_offset: 0,
            node_depth: 0,
            inner_hash_length: 0,
            last_node: false,
        }
    }
}

impl Blake2Params {
    /// Whether these are the plain hash's parameters.
    pub fn is_default(&self) -> bool {
        *self == Blake2Params::default()
    }

    /// Whether a tree parameter differs from sequential hashing's.
    fn has_tree(&self) -> bool {
        let plain = Blake2Params::default();
        Blake2Params {
            salt: Vec::new(),
            personal: Vec::new(),
            ..self.clone()
        } != plain
    }

    /// Checks the parameters against what `algorithm` allows.
    fn check(&self, algorithm: Algorithm) -> Result<(), SpecError> {
        if self.is_default() {
            return Ok(());
        }
        let param = |message: String| Err(SpecError::Param(message));
        let (salt_max, out_max, offset_bits) = match algorithm {
            Algorithm::Blake2b | Algorithm::Blake2xb => (16, 64, 64),
            Algorithm::Blake2s | Algorithm::Blake2xs => (8, 32, 48),
            _ => {
                return param(format!(
                    "{algorithm} takes no salt, personalization or tree parameters (blake2b, \
                     blake2s and, except the tree parameters, blake2xb and blake2xs do)"
                ))
            }
        };
        for (name, value) in [("--salt", &self.salt), ("--personal", &self.personal)] {
            if value.len() > salt_max {
                return param(format!(
                    "{name}: {algorithm} takes at most {salt_max} bytes, got {}",
                    value.len()
                ));
            }
        }
        if matches!(algorithm, Algorithm::Blake2xb | Algorithm::Blake2xs) && self.has_tree() {
            return param(format!(
                "{algorithm} sets the tree parameters itself; only --key, --salt and --personal \
                 apply"
            ));
        }
        if offset_bits < 64 && self.node_offset >> offset_bits != 0 {
            return param(format!(
                "--node-offset: {algorithm} takes less than 2^{offset_bits}, got {}",
                self.node_offset
            ));
        }
        if self.inner_hash_length > out_max {
            return param(format!(
                "--inner-hash-length: {algorithm} takes at most {out_max}, got {}",
                self.inner_hash_length
            ));
        }
        Ok(())
    }
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
    /// A BLAKE2 parameter the algorithm does not take, or out of its range: the message names
    /// the option and the limit.
    Param(String),
    /// A checksum line is a keyed hash and no key was given.
    NeedsKey,
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
                    "{algorithm} needs a key of exactly {min} bytes, found {length}"
                ),
                Some((min, max)) => write!(
                    f,
                    "{algorithm} needs a key of {min} to {max} bytes, found {length}"
                ),
                None => write!(f, "{algorithm} has no keyed mode"),
            },
            SpecError::DeriveKey { algorithm } => {
                write!(f, "--derive-key is a BLAKE3 mode; {algorithm} has none")
            }
            SpecError::Param(ref message) => f.write_str(message),
            SpecError::NeedsKey => f.write_str("a keyed hash: give the key with --keyed or --key"),
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
    params: Blake2Params,
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
            params: Blake2Params::default(),
        })
    }

    /// The key and parameters for `--check`, where each line brings its algorithm and length:
    /// they are checked only against each line's algorithm (see [`Spec::for_line`]).
    pub fn for_check(mode: Mode, params: Blake2Params) -> Spec {
        Spec {
            algorithm: Algorithm::Blake3,
            length: Algorithm::Blake3.default_length(),
            mode,
            params,
        }
    }

    /// The same hash with BLAKE2 parameters, if the algorithm takes them.
    pub fn with_params(mut self, params: Blake2Params) -> Result<Spec, SpecError> {
        params.check(self.algorithm)?;
        self.params = params;
        Ok(self)
    }

    /// The hash a checksum line asks for: its algorithm and length, with this spec's key and
    /// parameters.
    pub fn for_line(&self, algorithm: Algorithm, length: u64) -> Result<Spec, SpecError> {
        Spec::new(algorithm, length, self.mode.clone())?.with_params(self.params.clone())
    }

    /// Whether the hash is keyed (a MAC).
    pub fn is_keyed(&self) -> bool {
        matches!(self.mode, Mode::Keyed(_))
    }

    /// The BLAKE2 parameters.
    pub fn params(&self) -> &Blake2Params {
        &self.params
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The output length in bytes.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// The same algorithm, mode and parameters with another output length.
    pub fn with_length(&self, length: u64) -> Result<Spec, SpecError> {
        self.for_line(self.algorithm, length)
    }

    /// A hasher ready for input.
    pub fn hasher(&self) -> Hasher {
        let key: &[u8] = match &self.mode {
            Mode::Keyed(key) => key,
            _ => &[],
        };
        // Lengths were checked in `Spec::new`, so the BLAKE2 casts are within 1..=2^32-1.
        let len = self.length as usize;
        let p = &self.params;
        // The two BLAKE2 builders have the same setters but no common trait outside arborhash.
        macro_rules! blake2 {
            ($params:expr) => {
                $params
                    .hash_length(len)
                    .key(key)
                    .salt(&p.salt)
                    .personal(&p.personal)
                    .fanout(p.fanout)
                    .max_depth(p.max_depth)
                    .max_leaf_length(p.max_leaf_length)
                    .node_offset(p.node_offset)
                    .node_depth(p.node_depth)
                    .inner_hash_length(p.inner_hash_length as usize)
                    .last_node(p.last_node)
                    .to_state()
            };
        }
        macro_rules! blake2x {
            ($params:expr) => {
                $params
                    .output_length(len)
                    .key(key)
                    .salt(&p.salt)
                    .personal(&p.personal)
                    .to_state()
            };
        }
        let inner = match (self.algorithm, &self.mode) {
            (Algorithm::Blake3, Mode::Plain) => Inner::Blake3(Blake3Hasher::new()),
            (Algorithm::Blake3, Mode::Keyed(_)) => {
                let key: [u8; 32] = key.try_into().expect("Spec::new checked the key length");
                Inner::Blake3(Blake3Hasher::new_keyed(&key))
            }
            (Algorithm::Blake3, Mode::DeriveKey(context)) => {
                Inner::Blake3(Blake3Hasher::new_derive_key(context))
            }
            (Algorithm::Blake2b, _) => Inner::Blake2b(blake2!(Blake2bParams::new())),
            (Algorithm::Blake2s, _) => Inner::Blake2s(blake2!(Blake2sParams::new())),
            (Algorithm::Blake2xb, _) => Inner::Blake2xb(blake2x!(blake2xb::Params::new())),
            (Algorithm::Blake2xs, _) => Inner::Blake2xs(blake2x!(blake2xs::Params::new())),
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
    Blake2xb(blake2xb::State),
    Blake2xs(blake2xs::State),
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
            Inner::Blake2xb(h) => {
                h.update(input);
            }
            Inner::Blake2xs(h) => {
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
            Inner::Blake2xb(h) => Digest::Blake2xb(h.finalize_xof()),
            Inner::Blake2xs(h) => Digest::Blake2xs(h.finalize_xof()),
            Inner::Tz(h) => fixed(&h.finalize().as_bytes()),
        }
    }
}

/// The output of a finished hash, read in order like a stream.
pub enum Digest {
    /// BLAKE3's extendable output.
    Xof(blake3::OutputReader),
    /// BLAKE2Xb's output, of the length declared in the hash.
    Blake2xb(blake2xb::OutputReader),
    /// BLAKE2Xs's output.
    Blake2xs(blake2xs::OutputReader),
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
            Digest::Blake2xb(reader) => reader.set_position(offset),
            Digest::Blake2xs(reader) => reader.set_position(offset),
            Digest::Fixed { len, position, .. } => {
                *position = usize::try_from(offset).map_or(*len, |o| o.min(*len))
            }
        }
    }

    /// Fills `out` with the next output bytes. A fixed digest must not be read past its end.
    pub fn fill(&mut self, out: &mut [u8]) {
        match self {
            Digest::Xof(reader) => reader.fill(out),
            Digest::Blake2xb(reader) => reader.fill(out),
            Digest::Blake2xs(reader) => reader.fill(out),
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
