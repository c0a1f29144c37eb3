//! The incremental hasher.

use core::fmt;
use core::mem::MaybeUninit;

use super::kernels;
use super::output::OutputReader;
use super::tree::{Output, Params, Tree, CHUNK_LEN};
#[cfg(target_arch = "x86_64")]
use super::{avx2, avx512, kernels::BLOCK_LEN};
use super::{context_key, Hash, KEY_LEN};
use crate::platform::{Backend, Platform};

/// Input held back so that writes of any size reach the kernels as many chunks at once: 16
/// chunks fill the widest kernel's 16 lanes (AVX-512), or AVX2's 8 lanes twice. The last chunk is
/// never hashed until more input or `finalize` shows whether it is the last, so the buffer is
/// hashed only when full and more input arrives.
const BUF_LEN: usize = 16 * CHUNK_LEN;

/// An incremental BLAKE3 hasher: `update` with input in pieces of any size, then `finalize` or
/// `finalize_xof`.
///
/// Small writes are gathered in a 16 KiB buffer and hashed 16 chunks at a time; writes of
/// 16 KiB and more are hashed straight from the caller's memory. The result does not depend on
/// how the input was split. A `Hasher` is about 26 KiB (the buffer, a stack of chaining values
/// and two levels of up to 128 chaining values held back), so keep it on the heap where stacks
/// are small.
///
/// The backend current when a hasher is made (see [`crate::platform`]) chooses the moves that
/// copy small writes into its buffer; the hashing itself runs on the backend current at each
/// call.
#[derive(Clone)]
pub struct Hasher {
    tree: Tree,
    buf: Buffer,
}

/// The input held back, of which only the first `len()` bytes are initialised: zeroing 16 KiB
/// for every new hasher would cost more than hashing a short message.
///
/// The bytes start on a cache line: block-sized writes are then stored without splitting a line,
/// and the kernels load each lane's blocks whole rather than across two lines.
#[derive(Clone)]
#[repr(C, align(64))]
struct Buffer {
    bytes: [MaybeUninit<u8>; BUF_LEN],
    /// The number of bytes held (the low bits, [`LEN_MASK`]) plus the tag of how block-sized
    /// writes are copied (the top two bits): [`COPY_512`], [`COPY_256`] or [`COPY_128`], chosen
    /// by [`Buffer::new`] from the platform the hasher was made on and never changed.
    ///
    /// One word, so that a block-sized write reads nothing but it: on Zen 5 every further load
    /// in the write's path (a platform byte, or a limit beside the length) cost about a cycle a
    /// write, and a block write tests the room left and its way of copying with one
    /// comparison with a constant (see [`Buffer::append_small`]).
    state: usize,
}

/// The bit where [`Buffer::state`]'s copy tag starts.
const TAG_SHIFT: u32 = usize::BITS - 2;
/// The bits of [`Buffer::state`] that count the bytes held.
const LEN_MASK: usize = (1 << TAG_SHIFT) - 1;
/// Tag: the platform has AVX-512F, blocks are copied with one 64-byte move. Zero, so that the
/// state of such a hasher is its length.
const COPY_512: usize = 0;
/// Tag: the platform has AVX2, blocks are copied with two 32-byte moves.
const COPY_256: usize = 1 << TAG_SHIFT;
/// Tag: any other platform, blocks are copied as other writes are (16-byte moves on x86-64).
const COPY_128: usize = 2 << TAG_SHIFT;

impl Buffer {
    fn new(p: Platform) -> Buffer {
        // Not `[MaybeUninit::uninit(); BUF_LEN]`: with a zero state that makes the whole
        // `Buffer` a constant, which LLVM copies in by zeroing all 16 KiB (uninit bytes may be
        // zeros).
        let bytes = MaybeUninit::<[MaybeUninit<u8>; BUF_LEN]>::uninit();
        let tag = match p.backend() {
            Backend::Avx512 => COPY_512,
            Backend::Avx2 => COPY_256,
            Backend::Portable | Backend::Sse41 | Backend::Neon => COPY_128,
        };
        Buffer {
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            bytes: unsafe { bytes.assume_init() },
            state: tag,
        }
    }

    /// Bytes held.
    fn len(&self) -> usize {
        self.state & LEN_MASK
    }

    fn set_len(&mut self, len: usize) {
        debug_assert!(len <= BUF_LEN);
        self.state = self.state & !LEN_MASK | len;
    }

    /// The bytes held.
    fn filled(&self) -> &[u8] {
        // SAFETY: `push` and `append_small` initialised `bytes[..len]`; `MaybeUninit<u8>`
        // has the layout of `u8`.
        unsafe { core::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.len()) }
    }

    /// Room for more bytes.
    fn free(&self) -> usize {
        BUF_LEN - self.len()
    }

    /// Appends all of `input` if it is a block that fits, or if it leaves room for more (a write
    /// that would fill the buffer, such as 16 KiB into an empty one, is better hashed from the
    /// caller's memory, see `Hasher::update_with`); returns whether it did. A block-sized write on
    /// an AVX-512 or AVX2 platform is one comparison of the state with a constant and one or two
    /// vector moves; others cost one comparison more than their copy.
    #[inline(always)]
    fn append_small(&mut self, input: &[u8]) -> bool {
        // The state is read once, before the copy, and written after it: with `+=` after the
        // copy, which LLVM cannot tell apart from the state, it was read again there, a
        // load-add-store that each write's next one waited for (measured slower).
        let state = self.state;
        #[cfg(target_arch = "x86_64")]
        if let Ok(block) = <&[u8; BLOCK_LEN]>::try_from(input) {
            // Below this, the state is a length with a block's room (and the tag the one
            // subtracted). The block may fill the buffer: the next write then hashes it, one
            // call of the slow path every 16 KiB, where a block left for that write took two.
            const ROOM: usize = BUF_LEN - BLOCK_LEN + 1;
            if state < ROOM {
                let dst = &mut self.bytes[state..state + BLOCK_LEN];
                // SAFETY: the tag is `COPY_512` (zero), which `Buffer::new` sets only for a
                // platform with AVX-512F; `dst` is a block of our own, apart from `block`.
                unsafe { avx512::copy_block(block, dst.as_mut_ptr().cast()) };
                self.state = state + BLOCK_LEN;
                return true;
            }
            let len = state.wrapping_sub(COPY_256);
            if len < ROOM {
                let dst = &mut self.bytes[len..len + BLOCK_LEN];
                // SAFETY: the tag is `COPY_256`, set only for a platform with AVX2; as above.
                unsafe { avx2::copy_block(block, dst.as_mut_ptr().cast()) };
                self.state = state + BLOCK_LEN;
                return true;
            }
        }
        let len = state & LEN_MASK;
        // SAFETY: the length never exceeds BUF_LEN: it grows only by what fits, and is otherwise
        // set to 0. Telling the compiler saves the bounds check below.
        unsafe { core::hint::assert_unchecked(len <= BUF_LEN) };
        // The new length, compared with the buffer's: the sum is needed anyway, where testing
        // the room left (`BUF_LEN - len`) took two more instructions a write. It cannot wrap:
        // a slice holds at most `isize::MAX` bytes.
        let end = len + input.len();
        if end >= BUF_LEN {
            return false;
        }
        copy(state & !LEN_MASK, input, &mut self.bytes[len..end]);
        self.state = state + input.len();
        true
    }

    /// Appends as much of `input` as fits; returns how much that was.
    fn push(&mut self, input: &[u8]) -> usize {
        let (len, take) = (self.len(), input.len().min(self.free()));
        let tag = self.state & !LEN_MASK;
        copy(tag, &input[..take], &mut self.bytes[len..len + take]);
        self.set_len(len + take);
        take
    }
}

/// Copies `src` to `dst`, of the same length. Writes of up to 64 bytes (a block) are the common
/// small write: they are moved inline, largest first, since a call to `memcpy` and its size
/// dispatch would cost as much again as the copy. `tag` is the buffer's copy tag (see
/// [`Buffer::state`]), which picks the moves of long copies.
#[inline(always)]
fn copy(tag: usize, src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    let n = src.len();
    if n == 64 {
        // A whole block, a common write: one test, and moves at fixed offsets that do not wait
        // for the length.
        copy_fixed::<64>(src, dst);
    } else if n >= 32 {
        if n <= 64 {
            copy_ends::<32>(src, dst);
        } else if n < REP_MOVSB_MIN {
            // SAFETY: `dst` is `n` bytes we borrow exclusively, so it cannot overlap `src`,
            // which has `n` bytes too; `MaybeUninit<u8>` has the layout of `u8`.
            unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast(), n) };
        } else {
            copy_blocks(tag, src, dst);
        }
    } else if n >= 16 {
        copy_ends::<16>(src, dst);
    } else if n >= 8 {
        copy_ends::<8>(src, dst);
    } else if n >= 4 {
        copy_ends::<4>(src, dst);
    } else if n >= 2 {
        copy_ends::<2>(src, dst);
    } else if n == 1 {
        dst[0] = MaybeUninit::new(src[0]);
    }
}

/// Copies of this many bytes or more are made by [`copy_blocks`], not `memcpy`: glibc's (2.36,
/// AVX2) copies from 2112 bytes on with `rep movsb`, which on Zen 3 moves about a byte a cycle
/// when the destination is 1 to 31 bytes past the source modulo 4 KiB (20-40 times slower than
/// otherwise). A caller's buffer in that position made 4 KiB writes of 256 KiB take 3 times as
/// long as hashing it one-shot, against 1.1 times in the others. Below this, `memcpy` moves 32
/// bytes at a time with AVX2 where `copy_blocks`, built for any x86-64, moves 16: 1 MiB in 1 KiB
/// writes took about 2 % longer through `copy_blocks` (fastest calls 660 000 cycles against
/// 648 000-652 000, separate runs).
const REP_MOVSB_MIN: usize = 2048;

/// Copies `src` to `dst`, of the same length, more than a block, as whole blocks and a last
/// block that overlaps the one before it unless the length is a multiple of 64 (see
/// [`REP_MOVSB_MIN`] for why not with `memcpy`), with 32-byte moves where the copy tag `tag`
/// allows (AVX2 and AVX-512): 16-byte moves, all that code built for any x86-64 has, made 1 MiB
/// in 4 KiB writes take 4-5 % longer on Zen 5 (AVX-512).
#[inline(never)]
fn copy_blocks(
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))] tag: usize,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) {
    let n = src.len();
    assert!(n > 64 && dst.len() == n);
    #[cfg(target_arch = "x86_64")]
    match tag {
        // SAFETY: the tags are set only for platforms with AVX-512F and AVX2, both with AVX
        // (`Buffer::new`); `dst` is `n` bytes we borrow exclusively, apart from `src`.
        COPY_512 | COPY_256 => return unsafe { avx2::copy_blocks(src, dst.as_mut_ptr().cast()) },
        _ => {}
    }
    kernels::block_starts(n).for_each(|at| {
        // Two moves of half a block each: one of the whole block, as long as the step, is a
        // loop that LLVM turns back into a `memcpy` of the lot.
        copy_fixed::<32>(&src[at..at + 32], &mut dst[at..at + 32]);
        copy_fixed::<32>(&src[at + 32..at + 64], &mut dst[at + 32..at + 64]);
    });
}

/// Copies `src` to `dst` (of the same length, `W` to `2 * W` bytes) as its first and its last
/// `W` bytes, which overlap unless the length is `2 * W`: two fixed-size moves instead of a
/// loop over the length.
#[inline(always)]
fn copy_ends<const W: usize>(src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    let n = src.len();
    copy_fixed::<W>(&src[..W], &mut dst[..W]);
    copy_fixed::<W>(&src[n - W..], &mut dst[n - W..]);
}

/// Copies the `W` bytes of `src` to `dst`, straight: not through a local array, which LLVM may
/// keep on the stack (an extra store and load of every byte), nor byte by byte, which it does
/// with a loop once inlined.
#[inline(always)]
fn copy_fixed<const W: usize>(src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    assert!(src.len() == W && dst.len() == W);
    // SAFETY: both are `W` bytes; `dst` is borrowed exclusively, so it cannot overlap `src`;
    // `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<u8>(), W) };
}

impl Hasher {
    fn from_tree(tree: Tree) -> Hasher {
        Hasher {
            tree,
            buf: Buffer::new(Platform::current()),
        }
    }

    pub(crate) fn for_subtree(params: Params, first_chunk: u64) -> Hasher {
        Hasher::from_tree(Tree::new(params, first_chunk))
    }

    pub(crate) fn first_chunk(&self) -> u64 {
        self.tree.first_chunk()
    }

    /// A hasher for the default hash function.
    pub fn new() -> Hasher {
        Hasher::from_tree(Tree::new(Params::HASH, 0))
    }

    /// A hasher for the keyed hash function (a MAC or PRF with a 32-byte key).
    pub fn new_keyed(key: &[u8; KEY_LEN]) -> Hasher {
        Hasher::from_tree(Tree::new(Params::keyed(key), 0))
    }

    /// A hasher for the key derivation function: `context` should be hardcoded, globally unique
    /// and application-specific; the key material is the input.
    pub fn new_derive_key(context: &str) -> Hasher {
        let context_key = context_key(Platform::current(), context);
        Hasher::from_tree(Tree::new(Params::derive_key_material(&context_key), 0))
    }

    /// Forgets all input, keeping the mode and key.
    pub fn reset(&mut self) -> &mut Hasher {
        self.tree = Tree::new(self.tree.params(), self.tree.first_chunk());
        self.buf.set_len(0);
        self
    }

    /// Adds input.
    #[inline]
    pub fn update(&mut self, input: &[u8]) -> &mut Hasher {
        // The common case of small writes: into the buffer, without looking up the platform
        // (a thread-local read) since nothing is hashed. A write that would fill the buffer
        // takes the slow path, which hashes a whole buffer or more from the caller's memory.
        if self.buf.append_small(input) {
            return self;
        }
        self.update_with(Platform::current(), input, false);
        self
    }

    #[inline(never)]
    fn update_with(&mut self, p: Platform, mut input: &[u8], parallel: bool) {
        if self.buf.len() > 0 {
            input = &input[self.buf.push(input)..];
            if input.is_empty() {
                return;
            }
            // The buffer is full and more input follows, so none of it is the last chunk. Its
            // next contents most likely follow `input` in the caller's memory: while it is
            // hashed the kernels prefetch those too, which the copy would otherwise wait for
            // when the input is not in the cache (see `Run::prefetch_offset`).
            let next = (input.as_ptr() as usize).wrapping_sub(self.buf.bytes.as_ptr() as usize);
            self.tree
                .push_chunks_prefetching(p, self.buf.filled(), false, next);
            self.buf.set_len(0);
        }
        if input.len() >= BUF_LEN {
            // Straight from the caller's memory, as one subtree where the length allows: the
            // tree keeps its top node's children apart in case they end the input.
            let whole = input.len() / CHUNK_LEN * CHUNK_LEN;
            self.tree.push_chunks(p, &input[..whole], parallel);
            input = &input[whole..];
        }
        self.buf.push(input);
    }

    pub(crate) fn top_node(&self, p: Platform) -> Output {
        self.tree.top_node(p, self.buf.filled())
    }

    fn root_node(&self, p: Platform) -> Output {
        assert_eq!(
            self.tree.first_chunk(),
            0,
            "a subtree hasher (nonzero offset) is finished with hazmat::finalize_subtree"
        );
        self.top_node(p)
    }

    /// The hash of all input so far. The hasher is unchanged and can take more input.
    pub fn finalize(&self) -> Hash {
        let p = Platform::current();
        Hash::from_bytes(self.root_node(p).root_hash(p))
    }

    /// A reader for the extended output of all input so far.
    pub fn finalize_xof(&self) -> OutputReader {
        OutputReader::new(self.root_node(Platform::current()))
    }

    /// Bytes of input so far.
    pub fn count(&self) -> u64 {
        self.tree.chunks() * CHUNK_LEN as u64 + self.buf.len() as u64
    }

    /// Like [`update`](Hasher::update), but hashes a large input on several threads (rayon's
    /// global pool). Inputs of 1 MiB and more are split into subtrees of at least 128 KiB hashed
    /// on the pool's threads; shorter inputs are hashed on the calling thread, exactly like
    /// `update`, since waking the pool costs more than it saves there (see `PARALLEL_MIN_INPUT`
    /// in tree.rs for the measurements). The backend is the caller's, also on the pool's threads.
    #[cfg(feature = "rayon")]
    pub fn update_rayon(&mut self, input: &[u8]) -> &mut Hasher {
        self.update_with(Platform::current(), input, true);
        self
    }

    /// Hashes a file by memory-mapping it; files shorter than 16 KiB (where mapping costs more
    /// than it saves), and files that cannot be mapped (pipes, special files), are read normally.
    #[cfg(feature = "mmap")]
    pub fn update_mmap(
        &mut self,
        path: impl AsRef<std::path::Path>,
    ) -> std::io::Result<&mut Hasher> {
        self.update_file(path.as_ref(), false)
    }

    /// Like [`update_mmap`](Hasher::update_mmap), hashing the mapped file on several threads
    /// as [`update_rayon`](Hasher::update_rayon) does.
    #[cfg(all(feature = "mmap", feature = "rayon"))]
    pub fn update_mmap_rayon(
        &mut self,
        path: impl AsRef<std::path::Path>,
    ) -> std::io::Result<&mut Hasher> {
        self.update_file(path.as_ref(), true)
    }

    #[cfg(feature = "mmap")]
    fn update_file(
        &mut self,
        path: &std::path::Path,
        parallel: bool,
    ) -> std::io::Result<&mut Hasher> {
        /// Below this, reading into a buffer beats setting up a mapping.
        const MMAP_MIN_LEN: u64 = 16 * 1024;
        let mut file = std::fs::File::open(path)?;
        let metadata = file.metadata()?;
        if metadata.is_file() && metadata.len() >= MMAP_MIN_LEN {
            // SAFETY: the mapping is read-only and dropped before we return. If another process
            // truncates or rewrites the file meanwhile, the bytes hashed may be inconsistent or
            // the process may get SIGBUS, as with every mmap-based hasher (b3sum included); no
            // Rust invariant depends on the contents.
            let map = unsafe { memmap2::Mmap::map(&file)? };
            let p = Platform::current();
            crate::mmap::update_in_pieces(&map, parallel, |piece| {
                self.update_with(p, piece, parallel)
            });
        } else {
            std::io::copy(&mut file, self)?;
        }
        Ok(self)
    }
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

impl fmt::Debug for Hasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The key and the buffered input may be secret; show only how much went in.
        f.debug_struct("Hasher")
            .field("count", &self.count())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "std")]
impl std::io::Write for Hasher {
    fn write(&mut self, input: &[u8]) -> std::io::Result<usize> {
        self.update(input);
        Ok(input.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
