//! The incremental hasher.

use core::fmt;

use super::buffer::{Buffer, BufferedTree, BUF_LEN};
use super::hash::Hash;
use super::kernels::CHUNK_LEN;
use super::output::OutputReader;
use super::tree::{context_key, Output, Params, Threads, KEY_LEN};
use crate::platform::Platform;

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
    tree: BufferedTree,
    buf: Buffer,
}

impl Hasher {
    fn from_tree(tree: BufferedTree) -> Hasher {
        Hasher {
            tree,
            buf: Buffer::new(Platform::current()),
        }
    }

    pub(crate) fn from_params(params: Params) -> Hasher {
        Hasher::from_tree(BufferedTree::new(params, 0))
    }

    /// Makes a hasher with an empty buffer hash the subtree starting at chunk `first_chunk`,
    /// forgetting what its tree held; the length is then limited (see [`Buffer::room`]) unless
    /// the subtree starts the input.
    pub(crate) fn set_first_chunk(&mut self, first_chunk: u64) {
        debug_assert_eq!(self.buf.len(), 0);
        self.tree = BufferedTree::new(self.tree.params(), first_chunk);
        self.buf.room = if first_chunk == 0 { BUF_LEN } else { 0 };
    }

    /// The most bytes this hasher may take: a subtree starting at chunk `N > 0` holds at most
    /// `2^(trailing zeros of N)` chunks.
    fn max_count(&self) -> Option<u64> {
        let first_chunk = self.tree.first_chunk();
        (first_chunk != 0).then(|| (CHUNK_LEN as u64) << first_chunk.trailing_zeros())
    }

    /// A hasher for the default hash function, [`hash`](super::hash).
    pub fn new() -> Hasher {
        Hasher::from_params(Params::HASH)
    }

    /// A hasher for the keyed hash function, [`keyed_hash`](super::keyed_hash): a MAC or PRF
    /// with a secret 32-byte key.
    pub fn new_keyed(key: &[u8; KEY_LEN]) -> Hasher {
        Hasher::from_params(Params::keyed(key))
    }

    /// A hasher for the key derivation function, [`derive_key`](super::derive_key): `context`
    /// should be hardcoded, globally unique and application-specific; the key material is the
    /// input, and [`finalize_xof`](Hasher::finalize_xof) gives keys of any length.
    pub fn new_derive_key(context: &str) -> Hasher {
        let context_key = context_key(Platform::current(), context.as_bytes());
        Hasher::from_params(Params::derive_key_material(&context_key))
    }

    /// Forgets all input, keeping the mode and key: the same as a new hasher (also the input
    /// offset of [`HasherExt::set_input_offset`](super::hazmat::HasherExt::set_input_offset)
    /// goes back to 0).
    ///
    /// ```
    /// use arborhash::blake3;
    /// let mut hasher = blake3::Hasher::new();
    /// hasher.update(b"first message");
    /// hasher.reset().update(b"second");
    /// assert_eq!(hasher.finalize(), blake3::hash(b"second"));
    /// ```
    pub fn reset(&mut self) -> &mut Hasher {
        self.buf.set_len(0);
        self.set_first_chunk(0);
        self
    }

    /// Appends `input` to the message and returns the hasher, so that calls chain. The hash
    /// depends only on the bytes, not on how they were split between calls; small writes are
    /// buffered, so any write size is efficient.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let mut hasher = blake3::Hasher::new();
    /// hasher.update(b"foo").update(b"bar");
    /// for byte in b"baz" {
    ///     hasher.update(&[*byte]);
    /// }
    /// assert_eq!(hasher.finalize(), blake3::hash(b"foobarbaz"));
    /// ```
    #[inline]
    pub fn update(&mut self, input: &[u8]) -> &mut Hasher {
        // The common case of small writes: into the buffer, without looking up the platform
        // (a thread-local read) since nothing is hashed. A write that would fill the buffer
        // takes the slow path, which hashes a whole buffer or more from the caller's memory.
        if self.buf.append_small(input) {
            return self;
        }
        self.update_with(Platform::current(), input, Threads::Caller);
        self
    }

    #[inline(never)]
    fn update_with(&mut self, p: Platform, mut input: &[u8], threads: Threads) {
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
            // The buffer is full and more input follows, so none of it is the last chunk.
            self.tree.push_chunks(p, self.buf.filled(), Threads::Caller);
            self.buf.set_len(0);
        }
        if input.len() >= BUF_LEN {
            // Straight from the caller's memory, as one subtree where the length allows: the
            // tree keeps its top node's children apart in case they end the input.
            let whole = input.len() / CHUNK_LEN * CHUNK_LEN;
            self.tree.push_chunks(p, &input[..whole], threads);
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

    /// The hash of all input so far. The hasher is unchanged and can take more input, so a
    /// running hash can be read at any point.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let mut hasher = blake3::Hasher::new();
    /// hasher.update(b"foo");
    /// assert_eq!(hasher.finalize(), blake3::hash(b"foo"));
    /// hasher.update(b"bar");
    /// assert_eq!(hasher.finalize(), blake3::hash(b"foobar"));
    /// ```
    pub fn finalize(&self) -> Hash {
        let p = Platform::current();
        Hash::from_bytes(self.root_node(p).root_hash(p))
    }

    /// A reader for the extended output of all input so far: any number of bytes, of which the
    /// first 32 are [`finalize`](Hasher::finalize)'s hash. The hasher is unchanged.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let mut hasher = blake3::Hasher::new();
    /// hasher.update(b"abc");
    /// let mut output = [0u8; 100];
    /// hasher.finalize_xof().fill(&mut output);
    /// assert_eq!(output[..32], *hasher.finalize().as_bytes());
    /// ```
    pub fn finalize_xof(&self) -> OutputReader {
        OutputReader::new(self.root_node(Platform::current()))
    }

    /// How many bytes of input the hasher has taken (since it was made or reset).
    pub fn count(&self) -> u64 {
        self.tree.chunks() * CHUNK_LEN as u64 + self.buf.len() as u64
    }

    /// Appends everything `reader` yields until its end, read in 64 KiB pieces (a piece fills
    /// the widest kernel four times over, where `std::io::copy`'s 8 KiB would not fill it
    /// once); reads interrupted by a signal are retried. On an error, the input read before it
    /// stays added.
    ///
    /// ```
    /// use arborhash::blake3;
    /// let input = vec![1u8; 100_000];
    /// let mut hasher = blake3::Hasher::new();
    /// hasher.update_reader(&input[..])?;
    /// assert_eq!(hasher.finalize(), blake3::hash(&input));
    /// # Ok::<(), std::io::Error>(())
    /// ```
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
    /// in tree.rs). The backend is the caller's, also on the pool's threads.
    #[cfg(feature = "rayon")]
    pub fn update_rayon(&mut self, input: &[u8]) -> &mut Hasher {
        self.update_with(Platform::current(), input, Threads::Pool);
        self
    }

    /// Hashes a file by memory-mapping it; files shorter than 16 KiB (where mapping costs more
    /// than it saves), and files that cannot be mapped (pipes, special files), are read normally.
    #[cfg(feature = "mmap")]
    pub fn update_mmap(
        &mut self,
        path: impl AsRef<std::path::Path>,
    ) -> std::io::Result<&mut Hasher> {
        self.update_file(path.as_ref(), Threads::Caller)
    }

    /// Like [`update_mmap`](Hasher::update_mmap), hashing the mapped file on several threads
    /// as [`update_rayon`](Hasher::update_rayon) does.
    #[cfg(all(feature = "mmap", feature = "rayon"))]
    pub fn update_mmap_rayon(
        &mut self,
        path: impl AsRef<std::path::Path>,
    ) -> std::io::Result<&mut Hasher> {
        self.update_file(path.as_ref(), Threads::Pool)
    }

    #[cfg(feature = "mmap")]
    fn update_file(
        &mut self,
        path: &std::path::Path,
        threads: Threads,
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
            crate::mmap::update_in_pieces(&map, threads, |piece| {
                self.update_with(p, piece, threads)
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
        let platform = self.buf.platform;
        // SAFETY: a `Hasher` holds only integers, arrays of them and `MaybeUninit`s, for which
        // all-zero bytes are valid values.
        unsafe { zeroize::zeroize_flat_type(self) };
        // Zero would make every write take the slow path: keep the buffer's set-up.
        self.buf.room = BUF_LEN;
        self.buf.platform = platform;
    }
}
