//! BLAKE2bp and BLAKE2sp: the input striped block by block over 4 (BLAKE2bp) or 8 (BLAKE2sp)
//! leaves hashed side by side in SIMD lanes, and a root hashing the leaves' full-length outputs.
//!
//! Leaf `i` hashes blocks `i`, `i + leaves`, `i + 2 * leaves`, ... The leaves advance in lockstep
//! one stripe (one block per leaf) at a time, reading straight from the caller's buffer with the
//! kernel's stride. A stripe is compressed only once the last leaf is known to have input after
//! it, so that no leaf compresses its final block too early; that holds back at most
//! `2 * stripe - block` bytes, which finalization hashes.

use core::fmt;

use super::kernels::{Lane, LastBlock, LastNode, MAX_LANES};
use super::lanes::compress_lane_list;
use super::params::{check_hash_length, Key, ParamBlock};
use super::variant::Variant;
use super::Hash;
use crate::bytes::wipe;
use crate::platform::Platform;

/// The largest stripe (leaves x block) of any variant: 4 x 128 and 8 x 64 bytes.
const MAX_STRIPE: usize = 512;

fn stripe<V: Variant>() -> usize {
    V::PARALLEL_LEAVES * V::BLOCKBYTES
}

/// Input that must stay unhashed until more arrives or the hash is finalized.
fn hold_back<V: Variant>() -> usize {
    2 * stripe::<V>() - V::BLOCKBYTES
}

/// How many whole stripes at the start of `len` bytes can be compressed as non-final.
fn stripes_ready<V: Variant>(len: usize) -> usize {
    len.saturating_sub(hold_back::<V>()).div_ceil(stripe::<V>())
}

fn node_block<V: Variant>(hash_length: u8, key_length: u8) -> ParamBlock {
    ParamBlock {
        key_length,
        fanout: V::PARALLEL_LEAVES as u8,
        max_depth: 2,
        // Always the full length, whatever the requested hash length (as in the reference
        // implementation).
        inner_length: V::OUTBYTES as u8,
        ..ParamBlock::sequential(hash_length)
    }
}

/// A parameter builder for the parallel variant: hash length and key only, as in
/// `blake2b_simd::blake2bp::Params` and the reference implementation.
#[derive(Clone)]
pub struct Params<V: Variant> {
    hash_length: u8,
    key: Key<V>,
}

impl<V: Variant> Params<V> {
    /// Default parameters: full-length hash, no key.
    pub fn new() -> Self {
        Params {
            hash_length: V::OUTBYTES as u8,
            key: Key::NONE,
        }
    }

    /// Hashes `input` all at once with these parameters.
    pub fn hash(&self, input: &[u8]) -> Hash<V> {
        let p = Platform::current();
        let mut leaves = Leaves::new(self.hash_length, &self.key);
        if !input.is_empty() && input.len().is_multiple_of(stripe::<V>()) {
            return leaves.finish_stripes(p, &self.key, input, self.hash_length);
        }
        let ready = stripes_ready::<V>(input.len()) * stripe::<V>();
        leaves.compress_stripes(p, &self.key, &input[..ready]);
        leaves.finish(p, &self.key, &input[ready..], self.hash_length)
    }

    /// A `State` with these parameters, for hashing input incrementally.
    pub fn to_state(&self) -> State<V> {
        State {
            leaves: Leaves::new(self.hash_length, &self.key),
            key: self.key.clone(),
            buf: [0; 2 * MAX_STRIPE],
            buflen: 0,
            compressed: 0,
            hash_length: self.hash_length,
        }
    }

    /// The length of the final hash in bytes, from 1 to `OUTBYTES`.
    pub fn hash_length(&mut self, length: usize) -> &mut Self {
        self.hash_length = check_hash_length::<V>(length);
        self
    }

    /// A secret key of at most `KEYBYTES`; every leaf absorbs it. An empty key means no key.
    pub fn key(&mut self, key: &[u8]) -> &mut Self {
        self.key.set(key, V::NAME);
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
        f.debug_struct("Params")
            .field("hash_length", &self.hash_length)
            .field("key_length", &self.key.length)
            .finish()
    }
}

/// The leaves' chaining values. All leaves have compressed the same number of blocks.
#[derive(Clone)]
struct Leaves<V: Variant> {
    /// The first `PARALLEL_LEAVES` are used.
    h: [[V::Word; 8]; MAX_LANES],
    /// Each leaf's byte counter (the same for all).
    count: u128,
    /// The key block has not been compressed yet.
    key_pending: bool,
}

impl<V: Variant> Leaves<V> {
    fn new(hash_length: u8, key: &Key<V>) -> Self {
        let mut h = [[V::Word::default(); 8]; MAX_LANES];
        for (i, leaf) in h[..V::PARALLEL_LEAVES].iter_mut().enumerate() {
            let block = ParamBlock {
                node_offset: i as u64,
                ..node_block::<V>(hash_length, key.length)
            };
            *leaf = block.words::<V>();
        }
        Leaves {
            h,
            count: 0,
            key_pending: key.length > 0,
        }
    }

    /// Compresses whole stripes, none of them holding a leaf's final block, preceded by the key
    /// block in every leaf if it is still pending.
    fn compress_stripes(&mut self, p: Platform, key: &Key<V>, stripes: &[u8]) {
        let (leaves, block) = (V::PARALLEL_LEAVES, V::BLOCKBYTES);
        let n = stripes.len() / stripe::<V>();
        if n == 0 {
            return;
        }
        if self.key_pending {
            self.compress_key_block(p, key, |_| None);
            self.key_pending = false;
        }
        let lanes = self.h[..leaves].iter_mut().enumerate().map(|(i, h)| Lane {
            h,
            input: &stripes[i * block..],
            count: self.count,
            last: None,
        });
        self.count = compress_lane_list::<V>(p, lanes, n, stripe::<V>())[0];
    }

    /// Compresses the key block in every leaf, as the final block of the leaves `last` says.
    /// Returns the leaves' counters.
    fn compress_key_block(
        &mut self,
        p: Platform,
        key: &Key<V>,
        last: impl Fn(usize) -> Option<LastBlock>,
    ) -> [u128; MAX_LANES] {
        let count = self.count;
        let lanes = self.h[..V::PARALLEL_LEAVES]
            .iter_mut()
            .enumerate()
            .map(|(i, h)| Lane {
                h,
                input: key.block.as_ref(),
                count,
                last: last(i),
            });
        let counts = compress_lane_list::<V>(p, lanes, 1, V::BLOCKBYTES);
        self.count = counts[0];
        counts
    }

    /// Hashes whole `stripes` (at least one) that end the input into the leaves in one kernel
    /// call, finalizing them on the last stripe, where every leaf's final block is whole and can
    /// be read in place; then hashes the leaves' outputs in the root.
    fn finish_stripes(
        mut self,
        p: Platform,
        key: &Key<V>,
        stripes: &[u8],
        hash_length: u8,
    ) -> Hash<V> {
        let (leaves, block) = (V::PARALLEL_LEAVES, V::BLOCKBYTES);
        debug_assert!(!stripes.is_empty() && stripes.len().is_multiple_of(stripe::<V>()));
        if self.key_pending {
            self.compress_key_block(p, key, |_| None);
        }
        let lanes = self.h[..leaves].iter_mut().enumerate().map(|(i, h)| Lane {
            h,
            input: &stripes[i * block..],
            count: self.count,
            last: Some(LastBlock {
                len: block,
                last_node: LastNode::from_bool(i == leaves - 1),
            }),
        });
        compress_lane_list::<V>(p, lanes, stripes.len() / stripe::<V>(), stripe::<V>());
        self.root(p, key, hash_length)
    }

    /// Hashes the held-back `tail` (at most `hold_back` bytes) into the leaves, finalizes them
    /// and hashes their outputs in the root.
    fn finish(mut self, p: Platform, key: &Key<V>, tail: &[u8], hash_length: u8) -> Hash<V> {
        let (leaves, block) = (V::PARALLEL_LEAVES, V::BLOCKBYTES);
        debug_assert!(tail.len() <= hold_back::<V>());
        let blocks = tail.len().div_ceil(block);
        let last = |i: usize, len: usize| LastBlock {
            len,
            last_node: LastNode::from_bool(i == leaves - 1),
        };
        let mut counts = [self.count; MAX_LANES];
        // Leaves that get no tail input end with the key block, or else with an empty block.
        let mut open = leaves;
        if self.key_pending {
            counts = self.compress_key_block(p, key, |i| (i >= blocks).then_some(last(i, block)));
            open = blocks.min(leaves);
        }
        // Leaves with two tail blocks compress the first one (whole, not final) in place.
        let doubled = blocks.saturating_sub(leaves);
        if doubled > 0 {
            let lanes = self.h[..doubled].iter_mut().enumerate().map(|(i, h)| Lane {
                h,
                input: &tail[i * block..],
                count: counts[i],
                last: None,
            });
            let updated = compress_lane_list::<V>(p, lanes, 1, block);
            counts[..doubled].copy_from_slice(&updated[..doubled]);
        }
        // Every open leaf's final block, zero-padded.
        let mut finals = [V::ZERO_BLOCK; MAX_LANES];
        let mut lens = [0; MAX_LANES];
        for i in 0..open.min(blocks) {
            let j = if i < doubled { i + leaves } else { i };
            let bytes = &tail[j * block..tail.len().min((j + 1) * block)];
            finals[i].as_mut()[..bytes.len()].copy_from_slice(bytes);
            lens[i] = bytes.len();
        }
        let lanes = self.h[..open]
            .iter_mut()
            .zip(&finals)
            .enumerate()
            .map(|(i, (h, input))| Lane {
                h,
                input: input.as_ref(),
                count: counts[i],
                last: Some(last(i, lens[i])),
            });
        compress_lane_list::<V>(p, lanes, 1, block);
        if key.length > 0 {
            for block in &mut finals {
                wipe(block.as_mut());
            }
        }
        self.root(p, key, hash_length)
    }

    /// Hashes the finalized leaves' outputs in the root.
    fn root(mut self, p: Platform, key: &Key<V>, hash_length: u8) -> Hash<V> {
        let root_words = ParamBlock {
            node_depth: 1,
            ..node_block::<V>(hash_length, key.length)
        }
        .words::<V>();
        let mut root = super::State::<V>::from_words(root_words, hash_length, LastNode::Yes);
        for leaf in &self.h[..V::PARALLEL_LEAVES] {
            root.update_on(p, Hash::<V>::from_words(leaf, V::OUTBYTES).as_bytes());
        }
        if key.length > 0 {
            wipe(&mut self.h);
        }
        root.finalize_on(p)
    }
}

/// An incremental hasher for the parallel variant. Any split of the input into updates gives
/// the same hash; large updates are hashed in the lanes straight from the caller's buffer.
#[derive(Clone)]
pub struct State<V: Variant> {
    leaves: Leaves<V>,
    key: Key<V>,
    /// Held-back input, at most `hold_back` bytes.
    buf: [u8; 2 * MAX_STRIPE],
    buflen: usize,
    /// Input bytes compressed into the leaves.
    compressed: u128,
    hash_length: u8,
}

impl<V: Variant> State<V> {
    /// A state with default parameters, equivalent to `Params::new().to_state()`.
    pub fn new() -> Self {
        Params::new().to_state()
    }

    /// Adds input to the hash. Returns `self` so that calls can be chained.
    pub fn update(&mut self, mut input: &[u8]) -> &mut Self {
        let p = Platform::current();
        let stripe = stripe::<V>();
        loop {
            if self.buflen >= stripe {
                if self.buflen + input.len() <= hold_back::<V>() {
                    break;
                }
                self.leaves
                    .compress_stripes(p, &self.key, &self.buf[..stripe]);
                self.buf.copy_within(stripe..self.buflen, 0);
                self.buflen -= stripe;
                self.compressed += stripe as u128;
            } else if self.buflen > 0 {
                // Top the buffer up to a whole stripe.
                let take = (stripe - self.buflen).min(input.len());
                self.buf[self.buflen..self.buflen + take].copy_from_slice(&input[..take]);
                self.buflen += take;
                input = &input[take..];
                if self.buflen < stripe {
                    return self;
                }
            } else {
                let ready = stripes_ready::<V>(input.len()) * stripe;
                self.leaves.compress_stripes(p, &self.key, &input[..ready]);
                self.compressed += ready as u128;
                input = &input[ready..];
                break;
            }
        }
        self.buf[self.buflen..self.buflen + input.len()].copy_from_slice(input);
        self.buflen += input.len();
        self
    }

    /// The hash of the input so far. The state is unchanged.
    pub fn finalize(&self) -> Hash<V> {
        self.leaves.clone().finish(
            Platform::current(),
            &self.key,
            &self.buf[..self.buflen],
            self.hash_length,
        )
    }

    /// Bytes of input hashed so far.
    pub fn count(&self) -> V::Count {
        V::count(self.compressed + self.buflen as u128)
    }
}

impl<V: Variant> Default for State<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Variant> Drop for State<V> {
    fn drop(&mut self) {
        if self.key.length > 0 {
            wipe(&mut self.leaves.h);
            wipe(&mut self.buf);
        }
    }
}

impl<V: Variant> fmt::Debug for State<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("count", &self.count())
            .field("hash_length", &self.hash_length)
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
