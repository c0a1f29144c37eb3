//! The incremental BLAKE2 hasher.

use core::fmt;

use super::dispatch::Dispatch as _;
use super::kernels::LastNode;
use super::params::Params;
use super::variant::Variant;
use super::Hash;
use crate::bytes::wipe;
use crate::platform::Platform;

/// An incremental BLAKE2 hasher (the `State` of `blake2b_simd` / `blake2s_simd`).
///
/// `finalize` does not consume the state: it can be called again, and updating may continue
/// after it. A keyed state wipes its buffer and chaining value when dropped.
///
/// ```
/// use arborhash::blake2b::{blake2b, State};
/// let mut state = State::new();
/// state.update(b"foo");
/// assert_eq!(state.finalize(), blake2b(b"foo"));
/// state.update(b"bar");
/// assert_eq!(state.finalize(), blake2b(b"foobar"));
/// ```
#[derive(Clone)]
pub struct State<V: Variant> {
    pub(crate) words: [V::Word; 8],
    /// Bytes compressed so far, the key block included.
    pub(crate) count: u128,
    /// Input not yet compressed: the last block is held back until it is known not to be final.
    /// A key block waits here like input.
    pub(crate) buf: V::Block,
    pub(crate) buflen: usize,
    pub(crate) last_node: LastNode,
    pub(crate) hash_length: u8,
    pub(crate) keyed: bool,
}

impl<V: Variant> State<V> {
    /// A state with default parameters, equivalent to `Params::new().to_state()`.
    pub fn new() -> Self {
        Params::new().to_state()
    }

    pub(crate) fn with_params(params: &Params<V>) -> Self {
        let mut state = State::from_words(
            params.block.words::<V>(),
            params.block.digest_length,
            params.last_node,
        );
        if params.key.length > 0 {
            // The key, zero-padded to a whole block, is hashed as the first block of input.
            state.buf = params.key.block;
            state.buflen = V::BLOCKBYTES;
            state.keyed = true;
        }
        state
    }

    /// A state starting from a chaining value (for tree nodes that absorb no key).
    pub(crate) fn from_words(words: [V::Word; 8], hash_length: u8, last_node: LastNode) -> Self {
        State {
            words,
            count: 0,
            buf: V::ZERO_BLOCK,
            buflen: 0,
            last_node,
            hash_length,
            keyed: false,
        }
    }

    /// Adds input to the hash. Returns `self` so that calls can be chained.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        self.update_on(Platform::current(), input)
    }

    pub(crate) fn update_on(&mut self, p: Platform, mut input: &[u8]) -> &mut Self {
        let block = V::BLOCKBYTES;
        if self.buflen > 0 {
            let take = (block - self.buflen).min(input.len());
            self.buf.as_mut()[self.buflen..self.buflen + take].copy_from_slice(&input[..take]);
            self.buflen += take;
            input = &input[take..];
            if input.is_empty() {
                // The buffered block may be the final one: keep it.
                return self;
            }
            V::Word::compress_blocks(p, &mut self.words, self.buf.as_ref(), &mut self.count);
            self.buflen = 0;
        }
        if input.is_empty() {
            return self;
        }
        // Compress every whole block except the last one, which may be final.
        let whole = (input.len() - 1) / block * block;
        if whole > 0 {
            V::Word::compress_blocks(p, &mut self.words, &input[..whole], &mut self.count);
        }
        let rest = &input[whole..];
        self.buf.as_mut()[..rest.len()].copy_from_slice(rest);
        self.buflen = rest.len();
        self
    }

    /// The hash of the input so far. The state is unchanged.
    pub fn finalize(&self) -> Hash<V> {
        self.finalize_on(Platform::current())
    }

    pub(crate) fn finalize_on(&self, p: Platform) -> Hash<V> {
        let mut block = V::ZERO_BLOCK;
        block.as_mut()[..self.buflen].copy_from_slice(&self.buf.as_ref()[..self.buflen]);
        let mut words = self.words;
        let count = self.count.wrapping_add(self.buflen as u128);
        V::Word::compress_final(p, &mut words, &block, count, self.last_node);
        let hash = Hash::from_words(&words, self.hash_length as usize);
        if self.keyed {
            wipe(&mut words);
            wipe(block.as_mut());
        }
        hash
    }

    /// Sets or clears the last-node flag (f1) for the final block; may be changed at any time
    /// before `finalize`.
    pub fn set_last_node(&mut self, last_node: bool) -> &mut Self {
        self.last_node = LastNode::from_bool(last_node);
        self
    }

    /// Bytes of input hashed so far (the key block not included).
    pub fn count(&self) -> V::Count {
        let key = if self.keyed { V::BLOCKBYTES as u128 } else { 0 };
        V::count(
            self.count
                .wrapping_add(self.buflen as u128)
                .wrapping_sub(key),
        )
    }
}

// Here rather than in params.rs, so that the parameters need not know the hasher they build.
impl<V: Variant> Params<V> {
    /// A `State` with these parameters, for hashing input incrementally.
    pub fn to_state(&self) -> State<V> {
        State::with_params(self)
    }
}

impl<V: Variant> Default for State<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> Drop for State<V> {
    fn drop(&mut self) {
        if self.keyed {
            wipe(self.buf.as_mut());
            wipe(&mut self.words);
        }
    }
}

impl<V: Variant> fmt::Debug for State<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Neither the buffer nor the chaining value is shown: both may derive from a key.
        f.debug_struct("State")
            .field("count", &self.count())
            .field("hash_length", &self.hash_length)
            .field("last_node", &self.last_node.is_set())
            .finish()
    }
}

#[cfg(feature = "std")]
impl<V: Variant> std::io::Write for State<V> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
