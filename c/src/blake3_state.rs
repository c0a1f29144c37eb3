//! What a `blake3_hasher` holds. A message of the default or keyed hash is gathered while it is
//! short and hashed in one call at the end, which spares building arborhash's 26 KiB `Hasher`
//! (one 26 KiB copy in every `blake3_hasher_init`) for each message: with the `Hasher` for every
//! message, the C speed test (`c/speedtest`, docs/c.md) timed `blake3.h`'s init, update and
//! finalize of 4 KiB at 1.3-1.4 times the one-shot hash. Longer messages, and the derive-key
//! mode, go to a `Hasher`.

use core::mem::MaybeUninit;

use arborhash::blake3::hazmat::{self, HasherExt};
use arborhash::blake3::{self, Hash, Hasher, KEY_LEN, OUT_LEN};
use arborhash::Threads;

/// The longest message gathered for hashing in one call.
const SHORT_LEN: usize = 16 * 1024;

/// The state of a `blake3_hasher`.
// The C struct has room for the larger variant either way; boxing it would allocate, and the C
// API has no call to free.
#[allow(clippy::large_enum_variant)]
pub enum State {
    /// At most [`SHORT_LEN`] bytes of input so far.
    Short(Short),
    /// More input, or the derive-key mode.
    Long(Hasher),
}

/// A short message of the default (no key) or keyed hash.
pub struct Short {
    key: Option<[u8; KEY_LEN]>,
    len: usize,
    /// Only the first `len` bytes are initialised: zeroing 16 KiB for every message would cost
    /// more than hashing a short one.
    buf: [MaybeUninit<u8>; SHORT_LEN],
}

impl Short {
    fn input(&self) -> &[u8] {
        // SAFETY: the first `len` bytes are initialised (`push` keeps `len <= SHORT_LEN`).
        unsafe { core::slice::from_raw_parts(self.buf.as_ptr().cast(), self.len) }
    }

    fn push(&mut self, input: &[u8]) {
        let end = self.len + input.len();
        for (slot, &byte) in self.buf[self.len..end].iter_mut().zip(input) {
            slot.write(byte);
        }
        self.len = end;
    }

    fn hash(&self) -> Hash {
        match &self.key {
            Some(key) => blake3::keyed_hash(key, self.input()),
            None => blake3::hash(self.input()),
        }
    }

    fn to_hasher(&self) -> Hasher {
        let mut hasher = match &self.key {
            Some(key) => Hasher::new_keyed(key),
            None => Hasher::new(),
        };
        hasher.update(self.input());
        hasher
    }
}

impl State {
    /// The default hash, or the keyed hash with `key`.
    #[inline(always)]
    pub fn new(key: Option<&[u8; KEY_LEN]>) -> State {
        State::Short(Short {
            key: key.copied(),
            len: 0,
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            buf: unsafe { MaybeUninit::<[MaybeUninit<u8>; SHORT_LEN]>::uninit().assume_init() },
        })
    }

    /// The derive-key mode with `context`, bytes of any value as in the official library.
    pub fn derive_key(context: &[u8]) -> State {
        let key = hazmat::hash_derive_key_context_bytes(context);
        State::Long(Hasher::new_from_context_key(&key))
    }

    /// Adds input; spread over rayon's pool for long inputs with `Threads::Pool`.
    pub fn update(&mut self, input: &[u8], threads: Threads) {
        if let State::Short(short) = self {
            if input.len() <= SHORT_LEN - short.len {
                short.push(input);
                return;
            }
            *self = State::Long(short.to_hasher());
        }
        if let State::Long(hasher) = self {
            match threads {
                Threads::Pool => hasher.update_rayon(input),
                Threads::Caller => hasher.update(input),
            };
        }
    }

    /// Forgets all input, keeping the mode and key.
    pub fn reset(&mut self) {
        match self {
            State::Short(short) => short.len = 0,
            State::Long(hasher) => {
                hasher.reset();
            }
        }
    }

    /// Fills `out` with the output from byte `seek` on.
    pub fn finalize(&self, seek: u64, out: &mut [u8]) {
        if seek == 0 && out.len() <= OUT_LEN {
            let hash = match self {
                State::Short(short) => short.hash(),
                State::Long(hasher) => hasher.finalize(),
            };
            out.copy_from_slice(&hash.as_bytes()[..out.len()]);
        } else {
            let mut reader = match self {
                State::Short(short) => short.to_hasher().finalize_xof(),
                State::Long(hasher) => hasher.finalize_xof(),
            };
            reader.set_position(seek);
            reader.fill(out);
        }
    }
}
