//! Hashing many independent inputs at once, one per SIMD lane (the `many` module of
//! `blake2b_simd` / `blake2s_simd`).

use core::fmt;

use super::kernels::{Lane, LastBlock, LastNode};
use super::lanes::{run_jobs, Job, Run};
use super::params::Params;
use super::state::State;
use super::variant::Variant;
use super::Hash;
use crate::bytes::wipe;
use crate::platform::Platform;

/// One input to hash with [`hash_many`], and afterwards its hash.
#[derive(Clone)]
pub struct HashManyJob<'a, V: Variant> {
    words: [V::Word; 8],
    count: u128,
    /// Input not yet compressed.
    input: &'a [u8],
    /// The key block while `key_pending`, then the zero-padded final block.
    block: V::Block,
    key_pending: bool,
    keyed: bool,
    last_node: LastNode,
    hash_length: u8,
    finished: bool,
}

impl<'a, V: Variant> HashManyJob<'a, V> {
    /// A job hashing `input` with `params`.
    pub fn new(params: &Params<V>, input: &'a [u8]) -> Self {
        let keyed = params.key.length > 0;
        HashManyJob {
            words: params.block.words::<V>(),
            count: 0,
            input,
            block: if keyed {
                params.key.block
            } else {
                V::ZERO_BLOCK
            },
            key_pending: keyed,
            keyed,
            last_node: params.last_node,
            hash_length: params.block.digest_length,
            finished: false,
        }
    }

    /// The hash of the input. Panics if [`hash_many`] has not run this job.
    pub fn to_hash(&self) -> Hash<V> {
        assert!(
            self.finished,
            "HashManyJob::to_hash called before hash_many ran the job"
        );
        Hash::from_words(&self.words, self.hash_length as usize)
    }
}

impl<V: Variant> Job<V::Word> for &mut HashManyJob<'_, V> {
    fn run(&mut self) -> Run<'_, V::Word> {
        let block = V::BLOCKBYTES;
        let job = &mut **self;
        let (input, blocks, last) = if job.key_pending {
            // The key block is final only for an empty message.
            let last = job.input.is_empty().then_some(LastBlock {
                len: block,
                last_node: job.last_node,
            });
            (job.block.as_ref(), 1, last)
        } else if !job.input.is_empty() && job.input.len().is_multiple_of(block) {
            // Whole blocks only: all of them, the final one too, straight from the caller's
            // buffer, so that the kernel call that compresses the message also finishes it.
            let last = Some(LastBlock {
                len: block,
                last_node: job.last_node,
            });
            (job.input, job.input.len() / block, last)
        } else if job.input.len() > block {
            // Every whole block before the partial last one, straight from the caller's buffer.
            (job.input, job.input.len() / block, None)
        } else {
            job.block = V::ZERO_BLOCK;
            job.block.as_mut()[..job.input.len()].copy_from_slice(job.input);
            let last = Some(LastBlock {
                len: job.input.len(),
                last_node: job.last_node,
            });
            (job.block.as_ref(), 1, last)
        };
        Run {
            lane: Lane {
                h: &mut job.words,
                input,
                count: job.count,
                last,
            },
            blocks,
        }
    }

    fn advance(&mut self, blocks: usize, count: u128) -> bool {
        self.count = count;
        if self.key_pending {
            self.key_pending = false;
            self.finished = self.input.is_empty();
        } else if self.input.len() >= V::BLOCKBYTES {
            // The run read the caller's buffer; it ended the message if it took all of it.
            self.input = &self.input[blocks * V::BLOCKBYTES..];
            self.finished = self.input.is_empty();
        } else {
            self.input = &[];
            self.finished = true;
        }
        self.finished
    }
}

impl<V: Variant> Drop for HashManyJob<'_, V> {
    fn drop(&mut self) {
        if self.keyed {
            wipe(self.block.as_mut());
            wipe(&mut self.words);
        }
    }
}

impl<V: Variant> fmt::Debug for HashManyJob<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HashManyJob")
            .field("remaining_input", &self.input.len())
            .field("hash_length", &self.hash_length)
            .field("last_node", &self.last_node.is_set())
            .field("finished", &self.finished)
            .finish()
    }
}

/// Hashes every job, filling all SIMD lanes (see `degree`) and refilling a lane as soon as its
/// job ends, so inputs of mixed lengths and parameters are fine. Jobs already run are skipped.
/// Read the results with `HashManyJob::to_hash`.
///
/// ```
/// use arborhash::blake2b::{blake2b, many::{hash_many, HashManyJob}, Params};
/// let params = Params::new();
/// let inputs = [&b"foo"[..], b"bar", b"a longer input"];
/// let mut jobs: Vec<_> = inputs.iter().map(|i| HashManyJob::new(&params, i)).collect();
/// hash_many(jobs.iter_mut());
/// for (job, input) in jobs.iter().zip(inputs) {
///     assert_eq!(job.to_hash(), blake2b(input));
/// }
/// ```
pub fn hash_many<'a, 'b: 'a, V: Variant>(
    jobs: impl IntoIterator<Item = &'a mut HashManyJob<'b, V>>,
) {
    let jobs = jobs.into_iter().filter(|job| !job.finished);
    run_jobs::<V, _>(Platform::current(), jobs);
}

/// An update of a `State` in progress: the buffered block, then whole blocks of input.
struct Update<'a, V: Variant> {
    state: &'a mut State<V>,
    /// The state's buffer is full and must be compressed first.
    buffer_pending: bool,
    /// Input not yet compressed.
    input: &'a [u8],
}

impl<'a, V: Variant> Update<'a, V> {
    /// Starts an update, or does all of it if the input fits in the state's buffer.
    fn start(state: &'a mut State<V>, mut input: &'a [u8]) -> Option<Self> {
        let block = V::BLOCKBYTES;
        let free = block - state.buflen;
        let take = free.min(input.len());
        state.buf.as_mut()[state.buflen..state.buflen + take].copy_from_slice(&input[..take]);
        state.buflen += take;
        input = &input[take..];
        if input.is_empty() {
            // Everything was buffered; the buffered block might be final.
            return None;
        }
        let buffer_pending = state.buflen == block;
        Some(Update {
            state,
            buffer_pending,
            input,
        })
    }
}

impl<V: Variant> Job<V::Word> for Update<'_, V> {
    fn run(&mut self) -> Run<'_, V::Word> {
        let state = &mut *self.state;
        let (input, blocks) = if self.buffer_pending {
            (state.buf.as_ref(), 1)
        } else {
            (self.input, (self.input.len() - 1) / V::BLOCKBYTES)
        };
        Run {
            lane: Lane {
                h: &mut state.words,
                input,
                count: state.count,
                last: None,
            },
            blocks,
        }
    }

    fn advance(&mut self, blocks: usize, count: u128) -> bool {
        self.state.count = count;
        if self.buffer_pending {
            self.buffer_pending = false;
            self.state.buflen = 0;
        } else {
            self.input = &self.input[blocks * V::BLOCKBYTES..];
        }
        // The last block (1 to BLOCKBYTES bytes) stays in the buffer: it may be final.
        let done = self.input.len() <= V::BLOCKBYTES;
        if done {
            self.state.buf.as_mut()[..self.input.len()].copy_from_slice(self.input);
            self.state.buflen = self.input.len();
        }
        done
    }
}

/// Updates many states at once, one per SIMD lane, like calling `update` on each.
///
/// ```
/// use arborhash::blake2s::{blake2s, many::update_many, State};
/// let mut states = [State::new(), State::new()];
/// let inputs = [&b"foo"[..], b"bar"];
/// update_many(states.iter_mut().zip(inputs.iter()));
/// assert_eq!(states[1].finalize(), blake2s(b"bar"));
/// ```
pub fn update_many<'a, 'b, V, I, T>(pairs: I)
where
    V: Variant,
    I: IntoIterator<Item = (&'a mut State<V>, &'b T)>,
    T: 'b + AsRef<[u8]> + ?Sized,
{
    let updates = pairs
        .into_iter()
        .filter_map(|(state, input)| Update::start(state, input.as_ref()));
    run_jobs::<V, _>(Platform::current(), updates);
}
