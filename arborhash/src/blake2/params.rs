//! The BLAKE2 parameter block and the public `Params` builder.

use core::fmt;
use core::marker::PhantomData;

use super::kernels::{LastNode, Word};
use super::oneshot::hash_all;
use super::variant::Variant;
use super::Hash;
use crate::bytes::wipe;
use crate::platform::Platform;

/// The fields of the parameter block (RFC 7693 section 2.5, blake2.pdf section 2.8), without the
/// key bytes themselves. Also used for the nodes of BLAKE2bp/BLAKE2sp and BLAKE2X.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ParamBlock {
    pub digest_length: u8,
    pub key_length: u8,
    pub fanout: u8,
    pub max_depth: u8,
    pub leaf_length: u32,
    /// 64 bits for BLAKE2b, 48 for BLAKE2s; BLAKE2X keeps its XOF length in bits 32 and up.
    pub node_offset: u64,
    pub node_depth: u8,
    pub inner_length: u8,
    /// The first `SALTBYTES` are used.
    pub salt: [u8; 16],
    /// The first `SALTBYTES` (= `PERSONALBYTES`) are used.
    pub personal: [u8; 16],
}

impl ParamBlock {
    /// Sequential hashing with a digest of `digest_length` bytes.
    pub(crate) const fn sequential(digest_length: u8) -> Self {
        ParamBlock {
            digest_length,
            key_length: 0,
            fanout: 1,
            max_depth: 1,
            leaf_length: 0,
            node_offset: 0,
            node_depth: 0,
            inner_length: 0,
            salt: [0; 16],
            personal: [0; 16],
        }
    }

    /// The initial chaining value: the IV XORed with the little-endian parameter block.
    // Always inlined: with the parameters known it folds to constants, which the batch API's
    // per-job construction relies on.
    #[inline(always)]
    pub(crate) fn words<V: Variant>(&self) -> [V::Word; 8] {
        let word_bytes = <V::Word as Word>::BYTES;
        let mut block = [0u8; 64];
        block[0] = self.digest_length;
        block[1] = self.key_length;
        block[2] = self.fanout;
        block[3] = self.max_depth;
        block[4..8].copy_from_slice(&self.leaf_length.to_le_bytes());
        let offset_end = 8 + V::NODE_OFFSET_BYTES;
        block[8..offset_end]
            .copy_from_slice(&self.node_offset.to_le_bytes()[..V::NODE_OFFSET_BYTES]);
        block[offset_end] = self.node_depth;
        block[offset_end + 1] = self.inner_length;
        // Salt and personalization fill the second half of the block.
        let salt_at = 4 * word_bytes;
        let personal_at = salt_at + V::SALTBYTES;
        block[salt_at..personal_at].copy_from_slice(&self.salt[..V::SALTBYTES]);
        block[personal_at..personal_at + V::SALTBYTES]
            .copy_from_slice(&self.personal[..V::SALTBYTES]);
        let mut words = V::IV;
        for (i, w) in words.iter_mut().enumerate() {
            *w = *w ^ V::Word::from_le(&block[i * word_bytes..]);
        }
        words
    }
}

/// Hashes `input` with default parameters, without building a `Params` (whose key block would be
/// zeroed and wiped for nothing); the one-shot `blake2b` / `blake2s` functions.
#[inline]
pub(crate) fn hash_default<V: Variant>(input: &[u8]) -> Hash<V> {
    let length = V::OUTBYTES as u8;
    let words = ParamBlock::sequential(length).words::<V>();
    hash_all(
        Platform::current(),
        words,
        None,
        input,
        LastNode::No,
        length,
    )
}

/// Checks a length-limited byte string parameter and pads it into `out` with zeros.
pub(crate) fn set_padded(out: &mut [u8], value: &[u8], limit: usize, what: &str, name: &str) {
    assert!(
        value.len() <= limit,
        "{what} must be at most {limit} bytes for {name}, got {}",
        value.len()
    );
    out.fill(0);
    out[..value.len()].copy_from_slice(value);
}

/// Checks a hash length: 1 to `V::OUTBYTES`.
pub(crate) fn check_hash_length<V: Variant>(length: usize) -> u8 {
    assert!(
        (1..=V::OUTBYTES).contains(&length),
        "hash_length must be between 1 and {} for {}, got {length}",
        V::OUTBYTES,
        V::NAME
    );
    length as u8
}

/// A secret key held in a zero-padded block, wiped when dropped.
#[derive(Clone)]
pub(crate) struct Key<V: Variant> {
    pub block: V::Block,
    pub length: u8,
}

impl<V: Variant> Key<V> {
    pub(crate) const NONE: Self = Key {
        block: V::ZERO_BLOCK,
        length: 0,
    };

    /// Sets the key; checks its length against `KEYBYTES` (= `OUTBYTES`).
    pub(crate) fn set(&mut self, key: &[u8], name: &str) {
        wipe(self.block.as_mut());
        set_padded(self.block.as_mut(), key, V::OUTBYTES, "key", name);
        self.length = key.len() as u8;
    }
}

impl<V: Variant> Drop for Key<V> {
    fn drop(&mut self) {
        // Bytes past the key length are always zero.
        wipe(&mut self.block.as_mut()[..self.length as usize]);
    }
}

/// A parameter builder for every BLAKE2 feature (the `Params` of `blake2b_simd` /
/// `blake2s_simd`): hash length, key, salt, personalization and the tree parameters.
///
/// Apart from the hash length, the parameters are associated data mixed into the hash. Out of
/// range values panic with a message naming the parameter and its limit. The key is wiped from
/// memory when the `Params` is dropped, and `Debug` does not show it.
///
/// ```
/// use arborhash::blake2b::Params;
/// let hash = Params::new().hash_length(16).key(b"secret").hash(b"input");
/// assert_eq!(hash.as_bytes().len(), 16);
/// ```
#[derive(Clone)]
pub struct Params<V: Variant> {
    pub(crate) block: ParamBlock,
    pub(crate) key: Key<V>,
    pub(crate) last_node: LastNode,
    _variant: PhantomData<V>,
}

impl<V: Variant> Params<V> {
    /// Default parameters: full-length hash, no key, sequential mode.
    pub fn new() -> Self {
        Params {
            block: ParamBlock::sequential(V::OUTBYTES as u8),
            key: Key::NONE,
            last_node: LastNode::No,
            _variant: PhantomData,
        }
    }

    /// Parameters from a parameter block and a key (whose length the block must carry).
    pub(crate) fn from_parts(block: ParamBlock, key: Key<V>) -> Self {
        debug_assert_eq!(block.key_length, key.length);
        Params {
            block,
            key,
            last_node: LastNode::No,
            _variant: PhantomData,
        }
    }

    /// Hashes `input` all at once with these parameters.
    pub fn hash(&self, input: &[u8]) -> Hash<V> {
        let key = (self.key.length > 0).then_some(&self.key.block);
        hash_all(
            Platform::current(),
            self.block.words::<V>(),
            key,
            input,
            self.last_node,
            self.block.digest_length,
        )
    }

    /// The length of the final hash in bytes, from 1 to `OUTBYTES`. Also associated data:
    /// changing it changes every byte of the hash.
    pub fn hash_length(&mut self, length: usize) -> &mut Self {
        self.block.digest_length = check_hash_length::<V>(length);
        self
    }

    /// A secret key of at most `KEYBYTES`, making the hash a MAC. An empty key means no key.
    pub fn key(&mut self, key: &[u8]) -> &mut Self {
        self.key.set(key, V::NAME);
        self.block.key_length = self.key.length;
        self
    }

    /// A salt of at most `SALTBYTES`, zero-padded.
    pub fn salt(&mut self, salt: &[u8]) -> &mut Self {
        set_padded(
            &mut self.block.salt[..V::SALTBYTES],
            salt,
            V::SALTBYTES,
            "salt",
            V::NAME,
        );
        self
    }

    /// A personalization string of at most `PERSONALBYTES`, zero-padded.
    pub fn personal(&mut self, personalization: &[u8]) -> &mut Self {
        set_padded(
            &mut self.block.personal[..V::SALTBYTES],
            personalization,
            V::SALTBYTES,
            "personal",
            V::NAME,
        );
        self
    }

    /// Tree fanout, from 0 (unlimited) to 255; 1 (the default) is sequential mode.
    pub fn fanout(&mut self, fanout: u8) -> &mut Self {
        self.block.fanout = fanout;
        self
    }

    /// Maximal tree depth, from 0 to 255 (unlimited); 1 (the default) is sequential mode.
    pub fn max_depth(&mut self, depth: u8) -> &mut Self {
        self.block.max_depth = depth;
        self
    }

    /// Maximal leaf length in bytes, from 0 (the default: unlimited or sequential) to 2^32-1.
    pub fn max_leaf_length(&mut self, length: u32) -> &mut Self {
        self.block.leaf_length = length;
        self
    }

    /// Node offset, from 0 (the default) to 2^64-1 for BLAKE2b and 2^48-1 for BLAKE2s.
    pub fn node_offset(&mut self, offset: u64) -> &mut Self {
        let bits = 8 * V::NODE_OFFSET_BYTES;
        assert!(
            bits == 64 || offset < 1 << bits,
            "node_offset must be less than 2^{bits} for {}, got {offset}",
            V::NAME
        );
        self.block.node_offset = offset;
        self
    }

    /// Node depth, from 0 (the default: leaf or sequential) to 255.
    pub fn node_depth(&mut self, depth: u8) -> &mut Self {
        self.block.node_depth = depth;
        self
    }

    /// Inner hash length, from 0 (the default: sequential) to `OUTBYTES`.
    pub fn inner_hash_length(&mut self, length: usize) -> &mut Self {
        assert!(
            length <= V::OUTBYTES,
            "inner_hash_length must be at most {} for {}, got {length}",
            V::OUTBYTES,
            V::NAME
        );
        self.block.inner_length = length as u8;
        self
    }

    /// Marks the last (rightmost) node of a tree level; sets the f1 flag in the final block.
    /// Can also be changed on the `State` with `set_last_node`.
    pub fn last_node(&mut self, last_node: bool) -> &mut Self {
        self.last_node = LastNode::from_bool(last_node);
        self
    }
}

impl<V: Variant> Default for Params<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> fmt::Debug for Params<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.block;
        // The key itself is secret and not shown.
        f.debug_struct("Params")
            .field("hash_length", &b.digest_length)
            .field("key_length", &b.key_length)
            .field("salt", &&b.salt[..V::SALTBYTES])
            .field("personal", &&b.personal[..V::SALTBYTES])
            .field("fanout", &b.fanout)
            .field("max_depth", &b.max_depth)
            .field("max_leaf_length", &b.leaf_length)
            .field("node_offset", &b.node_offset)
            .field("node_depth", &b.node_depth)
            .field("inner_hash_length", &b.inner_length)
            .field("last_node", &self.last_node)
            .finish()
    }
}
