//! The incremental hasher's optimisation layer over the textbook tree of [`super::tree`].
//!
//! A [`CvStack`] alone would hash each write on its own, so many small writes would reach the
//! kernels one chunk at a time and each group of chunks would be merged into the stack one
//! parent at a time. This layer makes incremental hashing run as wide as one-shot hashing:
//!
//! - [`Buffer`] gathers writes into 16 KiB, [`WIDE`] chunks, which one kernel call hashes.
//! - [`BufferedTree`] holds the chunk chaining values of such buffers back unreduced
//!   ([`Pending`]), up to [`PENDING`] of them, and then their subtree's `WIDE` top nodes one
//!   level up, so that the parents above run `WIDE` lanes wide too; only complete subtrees
//!   reach the stack.
//!
//! The tree below does not know about this layer: it sees complete subtrees pushed in order.

use core::mem::MaybeUninit;

use super::dispatch;
use super::kernels::CHUNK_LEN;
use super::tree::{
    chunk_cvs, hash_all, prev_power_of_two, reduce_to_wide, CvBytes, CvStack, Output, Params,
    Threads, WIDE,
};
use crate::platform::Platform;

/// Input held back so that writes of any size reach the kernels as many chunks at once: 16
/// chunks fill the widest kernel's 16 lanes (AVX-512), or AVX2's 8 lanes twice. The last chunk is
/// never hashed until more input or `finalize` shows whether it is the last, so the buffer is
/// hashed only when full and more input arrives.
pub(crate) const BUF_LEN: usize = WIDE * CHUNK_LEN;

/// Chunk chaining values a [`BufferedTree`] holds back unreduced when chunks arrive [`WIDE`] at
/// a time: held back, they become one subtree of 128 chunks whose parent levels all run `WIDE`
/// lanes wide, where each group reduced on its own would run its upper levels narrow.
const PENDING: usize = 8 * WIDE;

/// Chunks under each node of the upper held-back level: `PENDING` chunk CVs reduce to `WIDE`.
const FAN: u64 = (PENDING / WIDE) as u64;

/// The input held back, of which only the first `len()` bytes are initialised: zeroing 16 KiB
/// for every new hasher would cost more than hashing a short message.
///
/// The bytes start on a cache line, so that the kernels load each lane's blocks whole rather
/// than across two lines.
#[derive(Clone)]
#[repr(C, align(64))]
pub(crate) struct Buffer {
    bytes: [MaybeUninit<u8>; BUF_LEN],
    /// Bytes held.
    len: usize,
    /// Writes that would bring the length to this take the hasher's slow path: `BUF_LEN`, or 0
    /// for a subtree hasher with a limited length, whose every write is checked there; one
    /// compare with a field beside the length, so that other hashers pay nothing more.
    pub(crate) room: usize,
    /// The platform the hasher was made on, whose block copy takes long writes.
    pub(crate) platform: Platform,
}

impl Buffer {
    pub(crate) fn new(p: Platform) -> Buffer {
        // Not `[MaybeUninit::uninit(); BUF_LEN]`: with a zero length that makes the whole
        // `Buffer` a constant, which LLVM copies in by zeroing all 16 KiB.
        let bytes = MaybeUninit::<[MaybeUninit<u8>; BUF_LEN]>::uninit();
        Buffer {
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            bytes: unsafe { bytes.assume_init() },
            len: 0,
            room: BUF_LEN,
            platform: p,
        }
    }

    /// Bytes held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn set_len(&mut self, len: usize) {
        debug_assert!(len <= BUF_LEN);
        self.len = len;
    }

    /// The bytes held.
    pub(crate) fn filled(&self) -> &[u8] {
        // SAFETY: `push` and `append_small` initialised `bytes[..len]`; `MaybeUninit<u8>`
        // has the layout of `u8`.
        unsafe { core::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.len) }
    }

    /// Room for more bytes.
    fn free(&self) -> usize {
        BUF_LEN - self.len
    }

    /// Appends all of `input` if it leaves room for more (a write that would fill the buffer,
    /// such as 16 KiB into an empty one, is better hashed from the caller's memory); returns
    /// whether it did.
    #[inline(always)]
    pub(crate) fn append_small(&mut self, input: &[u8]) -> bool {
        let len = self.len;
        // SAFETY: the length never exceeds BUF_LEN: it grows only by what fits, and is otherwise
        // set to 0. Telling the compiler saves the bounds check below.
        unsafe { core::hint::assert_unchecked(len <= BUF_LEN) };
        // It cannot wrap: a slice holds at most `isize::MAX` bytes.
        let end = len + input.len();
        if end >= self.room {
            return false;
        }
        // SAFETY: `room` is `BUF_LEN` or 0. Telling the compiler saves the bounds check below.
        unsafe { core::hint::assert_unchecked(end < BUF_LEN) };
        copy(self.platform, input, &mut self.bytes[len..end]);
        self.len = end;
        true
    }

    /// Appends as much of `input` as fits; returns how much that was.
    pub(crate) fn push(&mut self, input: &[u8]) -> usize {
        let (len, take) = (self.len, input.len().min(self.free()));
        copy(
            self.platform,
            &input[..take],
            &mut self.bytes[len..len + take],
        );
        self.len = len + take;
        take
    }
}

/// Copies `src` to `dst`, of the same length: `memcpy`, but for long copies (see
/// [`REP_MOVSB_MIN`]) the platform's block copy, [`dispatch::copy_blocks`].
#[inline(always)]
fn copy(p: Platform, src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    let n = src.len();
    if n >= REP_MOVSB_MIN {
        return dispatch::copy_blocks(p, src, dst);
    }
    // SAFETY: `dst` is `n` bytes we borrow exclusively, so it cannot overlap `src`, which has
    // `n` bytes too; `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast(), n) };
}

/// Copies of this many bytes or more are made by [`dispatch::copy_blocks`], not `memcpy`: glibc
/// copies long buffers with `rep movsb`, which some CPUs run many times slower at some distances
/// between source and destination, and a caller's buffer can sit at any.
const REP_MOVSB_MIN: usize = 2048;

/// A [`CvStack`] with chunk chaining values held back before it, in two levels: `pending[0]`
/// holds the CVs of chunks starting at a multiple of `PENDING` chunks, and `pending[1]` nodes
/// of [`FAN`] chunks each, starting at a multiple of `FAN * PENDING` chunks, which come before
/// them in the input.
pub(crate) struct BufferedTree {
    stack: CvStack,
    pending: [Pending; 2],
}

/// Nodes of one level held back unreduced, in groups of [`WIDE`]; the first `len` are
/// initialised.
///
/// Aligned to a cache line, so that the copy [`Pending::copy_from`] makes always has its
/// destination a multiple of 64 bytes from its source, a distance at which `memcpy` is fast
/// (see [`REP_MOVSB_MIN`]).
#[repr(C, align(64))]
struct Pending {
    nodes: [MaybeUninit<CvBytes>; PENDING],
    len: usize,
}

/// Copies only the initialised entries: `finalize` clones the tree whenever the input is
/// longer than the buffer, while few of its entries are ever in use.
impl Clone for BufferedTree {
    fn clone(&self) -> BufferedTree {
        let mut copy = BufferedTree::new(self.stack.params(), self.stack.first_chunk());
        copy.stack.clone_from(&self.stack);
        // In place, initialised nodes only: cloning the array would build each `Pending` on
        // the stack and move it whole.
        for (to, from) in copy.pending.iter_mut().zip(&self.pending) {
            to.copy_from(from);
        }
        copy
    }
}

impl Pending {
    fn new() -> Pending {
        Pending {
            // SAFETY: an array of `MaybeUninit` needs no initialisation. (Not a constant
            // `[MaybeUninit::uninit(); N]`, which LLVM may fill with zeros, see `Buffer::new`.)
            nodes: unsafe {
                MaybeUninit::<[MaybeUninit<CvBytes>; PENDING]>::uninit().assume_init()
            },
            len: 0,
        }
    }

    /// Makes this store hold what `other` holds, copying only the initialised nodes.
    fn copy_from(&mut self, other: &Pending) {
        self.nodes[..other.len].copy_from_slice(&other.nodes[..other.len]);
        self.len = other.len;
    }

    /// Appends a group of nodes to a store that is not full; returns whether it is full now.
    fn append(&mut self, group: &[CvBytes; WIDE]) -> bool {
        debug_assert!(self.len < PENDING);
        for (slot, node) in self.nodes[self.len..].iter_mut().zip(group) {
            slot.write(*node);
        }
        self.len += WIDE;
        self.len == PENDING
    }

    /// The nodes held.
    fn nodes_mut(&mut self) -> &mut [CvBytes] {
        // SAFETY: `append` wrote the first `len` entries; `MaybeUninit<T>` has T's layout.
        unsafe { core::slice::from_raw_parts_mut(self.nodes.as_mut_ptr().cast(), self.len) }
    }
}

impl BufferedTree {
    pub(crate) fn new(params: Params, first_chunk: u64) -> BufferedTree {
        BufferedTree {
            stack: CvStack::new(params, first_chunk),
            pending: [Pending::new(), Pending::new()],
        }
    }

    pub(crate) fn params(&self) -> Params {
        self.stack.params()
    }

    pub(crate) fn first_chunk(&self) -> u64 {
        self.stack.first_chunk()
    }

    /// Chunks hashed so far, in the stack or held back.
    pub(crate) fn chunks(&self) -> u64 {
        self.stack.chunks() + self.pending[0].len as u64 + FAN * self.pending[1].len as u64
    }

    /// Hashes whole chunks, as [`CvStack::push_chunks`] does.
    pub(crate) fn push_chunks(&mut self, p: Platform, input: &[u8], threads: Threads) {
        debug_assert_eq!(input.len() % CHUNK_LEN, 0);
        if input.len() == WIDE * CHUNK_LEN
            && (self.pending[0].len > 0 || self.chunks().is_multiple_of(PENDING as u64))
        {
            let mut cvs = [[0u8; 32]; WIDE];
            let counter = self.first_chunk() + self.chunks();
            let params = self.params();
            chunk_cvs(p, input, counter, params, &mut cvs);
            if self.pending[0].append(&cvs) {
                self.push_full_chunk_cvs(p);
            }
            return;
        }
        self.push_pending(p);
        self.stack.push_chunks(p, input, threads);
    }

    /// Reduces the `PENDING` held-back chunk CVs to their subtree's `WIDE` top nodes, and holds
    /// those back one level up where that level starts or continues; else pushes the subtree.
    fn push_full_chunk_cvs(&mut self, p: Platform) {
        let mut top = [[0u8; 32]; WIDE];
        let params = self.params();
        let cvs = self.pending[0].nodes_mut();
        reduce_to_wide(p, cvs, params);
        top.copy_from_slice(&cvs[..WIDE]);
        self.pending[0].len = 0;
        if self.pending[1].len > 0 || self.stack.chunks().is_multiple_of(FAN * PENDING as u64) {
            if self.pending[1].append(&top) {
                self.push_pending_level(p, 1);
            }
        } else {
            self.stack.push_subtree(p, &mut top, PENDING as u64);
        }
    }

    /// Moves all held-back nodes into the stack, the upper level's first (they come first).
    fn push_pending(&mut self, p: Platform) {
        self.push_pending_level(p, 1);
        self.push_pending_level(p, 0);
    }

    /// Moves the held-back nodes of one level (`FAN^level` chunks each) into the stack, as
    /// complete subtrees: a multiple of `WIDE` nodes that starts at a multiple of `PENDING`
    /// nodes is whole subtrees of `PENDING / 2`, ..., `WIDE` nodes, largest first.
    fn push_pending_level(&mut self, p: Platform, level: usize) {
        let len = self.pending[level].len;
        let node_chunks = FAN.pow(level as u32);
        let params = self.params();
        let mut done = 0;
        while done < len {
            let size = prev_power_of_two((len - done) as u64) as usize;
            let subtree = &mut self.pending[level].nodes_mut()[done..done + size];
            let n = reduce_to_wide(p, subtree, params);
            let mut top = [[0u8; 32]; WIDE];
            top[..n].copy_from_slice(&subtree[..n]);
            self.stack
                .push_subtree(p, &mut top[..n], (size as u64) * node_chunks);
            done += size;
        }
        self.pending[level].len = 0;
    }

    /// The (sub)tree's top node, given the rest of the input after the pushed chunks (possibly
    /// none of it, but not a lone pushed chunk). The tree is unchanged: only a tree with entries
    /// is copied to finish, so that short messages never copy the stack.
    pub(crate) fn top_node(&self, p: Platform, tail: &[u8]) -> Output {
        if self.chunks() == 0 {
            return hash_all(p, tail, self.params(), self.first_chunk());
        }
        let mut copy = self.clone();
        let mut tail = tail;
        if tail.len() == WIDE * CHUNK_LEN {
            // A full buffer completes the held-back levels like the ones before it, so that
            // their parents run full width as in one-shot hashing.
            copy.push_chunks(p, tail, Threads::Caller);
            tail = &[];
        }
        copy.push_pending(p);
        copy.stack.finish(p, tail)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use crate::platform::{with_backend, Backend};

    /// Full buffers pushed one at a time, past both held-back levels' boundaries, and then
    /// pushed in other sizes, give the top node of the textbook tree over the same input.
    #[test]
    fn held_back_levels_give_the_tree_of_the_whole_input() {
        let buffers = FAN as usize * PENDING / WIDE + 3;
        let input: Vec<u8> = (0..(buffers + 2) * BUF_LEN)
            .map(|i| (i % 251) as u8)
            .collect();
        let params = Params::HASH;
        for backend in Backend::ALL.into_iter().filter(|b| b.is_supported()) {
            with_backend(backend, || {
                let p = Platform::current();
                // Tails of none, part of a chunk, a whole buffer, and a buffer and a half.
                for (pushed, tail) in [(buffers, 0), (buffers, 100), (buffers - 1, BUF_LEN)] {
                    let mut tree = BufferedTree::new(params, 0);
                    for buffer in input[..pushed * BUF_LEN].chunks(BUF_LEN) {
                        tree.push_chunks(p, buffer, Threads::Caller);
                    }
                    let end = pushed * BUF_LEN + tail;
                    let got = tree.top_node(p, &input[pushed * BUF_LEN..end]);
                    let want = hash_all(p, &input[..end], params, 0);
                    assert_eq!(got.chaining_value(p), want.chaining_value(p), "{backend:?}");
                    // A push of another size moves the held-back levels into the stack first.
                    let start = pushed * BUF_LEN;
                    tree.push_chunks(p, &input[start..start + 3 * CHUNK_LEN], Threads::Caller);
                    let want = hash_all(p, &input[..start + 3 * CHUNK_LEN], params, 0);
                    assert_eq!(
                        tree.top_node(p, &[]).chaining_value(p),
                        want.chaining_value(p)
                    );
                }
            });
        }
    }
}
