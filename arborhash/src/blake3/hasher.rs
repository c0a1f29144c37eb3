//! The incremental hasher.

use core::fmt;
use core::mem::MaybeUninit;

#[cfg(target_arch = "x86_64")]
use super::avx2;
use super::dispatch;
use super::kernels;
use super::output::OutputReader;
use super::tree::{Output, Params, Tree, CHUNK_LEN};
use super::{context_key, Hash, KEY_LEN};
use crate::platform::Platform;

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
/// copy long writes into its buffer; the hashing itself runs on the backend current at each
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
    /// Bytes held.
    len: usize,
    /// Writes that would bring the length to this take `Hasher::update_with`: `BUF_LEN`, or 0
    /// for a subtree hasher with a limited length, whose every write is checked there; one
    /// compare with a field beside the length, so that other hashers pay nothing more.
    room: usize,
    /// Whether long writes are copied with 32-byte moves ([`dispatch::wide_copies`] of the
    /// platform the hasher was made on).
    wide: bool,
}

impl Buffer {
    fn new(p: Platform) -> Buffer {
        // Not `[MaybeUninit::uninit(); BUF_LEN]`: with a zero length that makes the whole
        // `Buffer` a constant, which LLVM copies in by zeroing all 16 KiB (uninit bytes may be
        // zeros).
        let bytes = MaybeUninit::<[MaybeUninit<u8>; BUF_LEN]>::uninit();
        Buffer {
            // SAFETY: an array of `MaybeUninit` needs no initialisation.
            bytes: unsafe { bytes.assume_init() },
            len: 0,
            room: BUF_LEN,
            wide: dispatch::wide_copies(p),
        }
    }

    /// Bytes held.
    fn len(&self) -> usize {
        self.len
    }

    fn set_len(&mut self, len: usize) {
        debug_assert!(len <= BUF_LEN);
        self.len = len;
    }

    /// The bytes held.
    fn filled(&self) -> &[u8] {
        // SAFETY: `push` and `append_small` initialised `bytes[..len]`; `MaybeUninit<u8>`
        // has the layout of `u8`.
        unsafe { core::slice::from_raw_parts(self.bytes.as_ptr().cast::<u8>(), self.len) }
    }

    /// Room for more bytes.
    fn free(&self) -> usize {
        BUF_LEN - self.len
    }

    /// Appends all of `input` if it leaves room for more (a write that would fill the buffer,
    /// such as 16 KiB into an empty one, is better hashed from the caller's memory, see
    /// `Hasher::update_with`); returns whether it did.
    #[inline(always)]
    fn append_small(&mut self, input: &[u8]) -> bool {
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
        copy(self.wide, input, &mut self.bytes[len..end]);
        self.len = end;
        true
    }

    /// Appends as much of `input` as fits; returns how much that was.
    fn push(&mut self, input: &[u8]) -> usize {
        let (len, take) = (self.len, input.len().min(self.free()));
        copy(self.wide, &input[..take], &mut self.bytes[len..len + take]);
        self.len = len + take;
        take
    }
}

/// Copies `src` to `dst`, of the same length: `memcpy`, but for long copies (see
/// [`REP_MOVSB_MIN`]), made with 32-byte moves where `wide`.
#[inline(always)]
fn copy(wide: bool, src: &[u8], dst: &mut [MaybeUninit<u8>]) {
    let n = src.len();
    if n >= REP_MOVSB_MIN {
        return copy_blocks(wide, src, dst);
    }
    // SAFETY: `dst` is `n` bytes we borrow exclusively, so it cannot overlap `src`, which has
    // `n` bytes too; `MaybeUninit<u8>` has the layout of `u8`.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast(), n) };
}

/// Copies of this many bytes or more are made by [`copy_blocks`], not `memcpy`: glibc copies
/// long buffers with `rep movsb`, which on AMD Zen 3 is many times slower when the destination
/// is 1 to 31 bytes past the source modulo 4 KiB (4 KiB writes of 256 KiB took three times as
/// long as one-shot hashing there), and a caller's buffer can sit so.
const REP_MOVSB_MIN: usize = 2048;

/// Copies `src` to `dst`, of the same length, more than a block, as whole blocks and a last
/// block that overlaps the one before it unless the length is a multiple of 64 (see
/// [`REP_MOVSB_MIN`] for why not with `memcpy`), with 32-byte moves where `wide`: the 16-byte
/// moves that code built for any x86-64 has cost 4-5 % in 4 KiB writes.
#[inline(never)]
fn copy_blocks(
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))] wide: bool,
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) {
    let n = src.len();
    assert!(n > 64 && dst.len() == n);
    #[cfg(target_arch = "x86_64")]
    if wide {
        // SAFETY: `wide` is set only for platforms with AVX (`dispatch::wide_copies`); `dst` is
        // `n` bytes we borrow exclusively, apart from `src`.
        return unsafe { avx2::copy_blocks(src, dst.as_mut_ptr().cast()) };
    }
    kernels::block_starts(n).for_each(|at| {
        // Two moves of half a block each: one of the whole block, as long as the step, is a
        // loop that LLVM turns back into a `memcpy` of the lot.
        copy_fixed::<32>(&src[at..at + 32], &mut dst[at..at + 32]);
        copy_fixed::<32>(&src[at + 32..at + 64], &mut dst[at + 32..at + 64]);
    });
}

/// Copies the `W` bytes of `src` to `dst`, straight: not through a local array, which LLVM may
/// keep on the stack.
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

    pub(crate) fn from_params(params: Params) -> Hasher {
        Hasher::from_tree(Tree::new(params, 0))
    }

    /// Makes a hasher with an empty buffer hash the subtree starting at chunk `first_chunk`,
    /// forgetting what its tree held; the length is then limited (see [`Buffer::room`]) unless
    /// the subtree starts the input.
    pub(crate) fn set_first_chunk(&mut self, first_chunk: u64) {
        debug_assert_eq!(self.buf.len(), 0);
        self.tree = Tree::new(self.tree.params(), first_chunk);
        self.buf.room = if first_chunk == 0 { BUF_LEN } else { 0 };
    }

    /// The most bytes this hasher may take: a subtree starting at chunk `N > 0` holds at most
    /// `2^(trailing zeros of N)` chunks.
    fn max_count(&self) -> Option<u64> {
        let first_chunk = self.tree.first_chunk();
        (first_chunk != 0).then(|| (CHUNK_LEN as u64) << first_chunk.trailing_zeros())
    }

    /// A hasher for the default hash function.
    pub fn new() -> Hasher {
        Hasher::from_params(Params::HASH)
    }

    /// A hasher for the keyed hash function (a MAC or PRF with a 32-byte key).
    pub fn new_keyed(key: &[u8; KEY_LEN]) -> Hasher {
        Hasher::from_params(Params::keyed(key))
    }

    /// A hasher for the key derivation function: `context` should be hardcoded, globally unique
    /// and application-specific; the key material is the input.
    pub fn new_derive_key(context: &str) -> Hasher {
        let context_key = context_key(Platform::current(), context.as_bytes());
        Hasher::from_params(Params::derive_key_material(&context_key))
    }

    /// Forgets all input, keeping the mode and key: the same as a new hasher (also the input
    /// offset of [`HasherExt::set_input_offset`](super::hazmat::HasherExt::set_input_offset)
    /// goes back to 0).
    pub fn reset(&mut self) -> &mut Hasher {
        self.buf.set_len(0);
        self.set_first_chunk(0);
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
        if let Some(max) = self.max_count() {
            let offset = self.tree.first_chunk() * CHUNK_LEN as u64;
            assert!(
                input.len() as u64 <= max - self.count(),
                "the subtree starting at {offset} contains at most {max} bytes (found {})",
                input.len(),
            );
        }
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
            "set_input_offset must be used with finalize_non_root"
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

    /// Adds everything `reader` yields until its end, read in 64 KiB pieces (a piece fills the
    /// widest kernel four times over, where `std::io::copy`'s 8 KiB would not fill it once);
    /// reads interrupted by a signal are retried. On an error, the input read before it stays
    /// added.
    #[cfg(feature = "std")]
    pub fn update_reader(
        &mut self,
        mut reader: impl std::io::Read,
    ) -> std::io::Result<&mut Hasher> {
        let mut piece = [0u8; 64 * 1024];
        loop {
            match reader.read(&mut piece) {
                Ok(0) => return Ok(self),
                Ok(n) => {
                    self.update(&piece[..n]);
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
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

/// Wipes the key and all input held; the hasher is then as a new one with an all-zero key and no
/// mode flags, which is no BLAKE3 function: make a new one to hash again.
#[cfg(feature = "zeroize")]
impl zeroize::Zeroize for Hasher {
    fn zeroize(&mut self) {
        let wide = self.buf.wide;
        // SAFETY: a `Hasher` holds only integers, arrays of them and `MaybeUninit`s, for which
        // all-zero bytes are valid values.
        unsafe { zeroize::zeroize_flat_type(self) };
        // Zero would make every write take the slow path: keep the buffer's set-up.
        self.buf.room = BUF_LEN;
        self.buf.wide = wide;
    }
}
