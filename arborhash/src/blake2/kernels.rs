//! The bottom of BLAKE2: the constants, the word types, and the kernel trait every backend
//! implements, for BLAKE2b (`u64` words) and BLAKE2s (`u32` words).
//!
//! # What a backend provides
//!
//! A backend is a unit struct implementing [`Kernels<u64>`](Kernels) and [`Kernels<u32>`](Kernels):
//! one stream's whole blocks, one stream's final block, and up to [`Kernels::DEGREE`] independent
//! streams ([`Lane`]s) at once. The trait is generic over the word because everything BLAKE2b and
//! BLAKE2s differ in below the API follows from the word (see [`Word`]).
//!
//! # Adding a backend
//!
//! Write one file beside `portable.rs` with the unit struct and its two `impl Kernels`, name it in
//! `dispatch.rs`'s `mod backends`, and add its arm to `platform::dispatch!` if the instruction set
//! is new. The kernel tests (`kernel_tests.rs`) then check it against the portable kernels.

use core::fmt::Debug;
use core::ops::BitXor;

/// The message word permutations. BLAKE2s uses rows 0..10; BLAKE2b's 12 rounds use rows 0..12,
/// where rows 10 and 11 repeat rows 0 and 1.
pub(crate) const SIGMA: [[u8; 16]; 12] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
];

/// BLAKE2b's constants, for the backends written for 64-bit words.
pub(crate) mod b {
    /// Bytes in a block (for the vector backends).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const BLOCKBYTES: usize = 128;
    /// The initialization vector (the SHA-512 IV).
    pub(crate) const IV: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
}

/// BLAKE2s's constants, for the backends written for 32-bit words.
pub(crate) mod s {
    /// Bytes in a block (for the vector backends).
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(dead_code)
    )]
    pub(crate) const BLOCKBYTES: usize = 64;
    /// The initialization vector (the SHA-256 IV).
    pub(crate) const IV: [u32; 8] = [
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB,
        0x5BE0CD19,
    ];
}

/// The most lanes any kernel runs at once (BLAKE2s on AVX2); also the most BLAKE2sp leaves.
pub(crate) const MAX_LANES: usize = 8;

/// A BLAKE2 state word (`u64` for BLAKE2b, `u32` for BLAKE2s), with the constants of the
/// compression function on that word size.
pub trait Word:
    Copy + Default + Eq + Debug + BitXor<Output = Self> + Send + Sync + 'static
{
    /// Bytes in a word.
    const BYTES: usize;
    /// Bytes in a block (16 words).
    const BLOCKBYTES: usize = 16 * Self::BYTES;
    /// Rounds of the compression function (12 for BLAKE2b, 10 for BLAKE2s).
    const ROUNDS: usize;
    /// G's rotation distances, right, in the order G applies them.
    const ROTATIONS: [u32; 4];
    /// The initialization vector.
    const IV: [Self; 8];
    /// `[u8; BLOCKBYTES]`.
    type Block: Copy + AsRef<[u8]> + AsMut<[u8]> + Send + Sync + 'static;
    /// An all-zero block.
    const ZERO_BLOCK: Self::Block;
    /// Reads a little-endian word from the first `BYTES` bytes of `bytes`.
    fn from_le(bytes: &[u8]) -> Self;
    /// Writes the word little-endian into the first `BYTES` bytes of `out`.
    fn write_le(self, out: &mut [u8]);
    /// The low `BYTES` bytes of `x`.
    fn truncate(x: u128) -> Self;
    /// Addition modulo 2^(8 * BYTES).
    fn wrapping_add(self, other: Self) -> Self;
    /// Rotation right by `n` bits.
    fn rotate_right(self, n: u32) -> Self;
}

// Two integer types, one body: a macro is clearer here than two copies.
macro_rules! impl_word {
    ($t:ty, $rounds:literal, $rotations:expr, $iv:expr) => {
        impl Word for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            const ROUNDS: usize = $rounds;
            const ROTATIONS: [u32; 4] = $rotations;
            const IV: [$t; 8] = $iv;
            type Block = [u8; 16 * core::mem::size_of::<$t>()];
            const ZERO_BLOCK: Self::Block = [0; 16 * core::mem::size_of::<$t>()];
            #[inline(always)]
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes[..Self::BYTES].try_into().unwrap())
            }
            #[inline(always)]
            fn write_le(self, out: &mut [u8]) {
                out[..Self::BYTES].copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            fn truncate(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn rotate_right(self, n: u32) -> Self {
                <$t>::rotate_right(self, n)
            }
        }
    };
}
impl_word!(u32, 10, [16, 12, 8, 7], s::IV);
impl_word!(u64, 12, [32, 24, 16, 63], b::IV);

/// Whether a final block also ends the last node of its tree level (the finalization flag f1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LastNode {
    /// f1 clear: any node but the last of its level.
    No,
    /// f1 set.
    Yes,
}

impl LastNode {
    /// `Yes` if `last`.
    #[inline(always)]
    pub(crate) fn from_bool(last: bool) -> Self {
        if last {
            Self::Yes
        } else {
            Self::No
        }
    }

    /// Whether f1 is set.
    #[inline(always)]
    pub(crate) fn is_set(self) -> bool {
        self == Self::Yes
    }
}

/// One independent hash state advanced by a multi-lane kernel call.
///
/// A call compresses the same number of blocks, `blocks`, in every lane. Block `j` of a lane is
/// read from `input[j * stride..j * stride + BLOCKBYTES]` (the stride lets BLAKE2bp/BLAKE2sp read
/// their striped leaves straight from the caller's buffer). `input` must hold all of them; a
/// partial final block is zero-padded into a buffer by the caller.
pub(crate) struct Lane<'a, W> {
    /// The chaining value, updated in place.
    pub h: &'a mut [W; 8],
    /// Where this lane's first block starts.
    pub input: &'a [u8],
    /// The byte counter `t` before the first block; updated in place. Each block adds
    /// `BLOCKBYTES`, except a final block, which adds `last.len`.
    pub count: u128,
    /// If set, the call's last block is the lane's final block.
    pub last: Option<LastBlock>,
}

/// How a lane's final block is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LastBlock {
    /// Bytes of real input in the block (0 only for an empty unkeyed message), added to the
    /// counter instead of `BLOCKBYTES`.
    pub len: usize,
    /// Whether f1 is set (the last node of a tree level).
    pub last_node: LastNode,
}

/// What one backend provides for words `W`. The functions are `unsafe`: a backend's CPU
/// features must be present, which a `Platform` for it proves (see `dispatch.rs`).
pub(crate) trait Kernels<W: Word> {
    /// How many lanes `compress_lanes` runs at once.
    const DEGREE: usize;

    /// Compresses each whole block of `blocks` (a multiple of `BLOCKBYTES` long, none of them
    /// final) into `h`, adding `BLOCKBYTES` to `count` before each.
    ///
    /// # Safety
    /// The backend's CPU features.
    unsafe fn compress_blocks(h: &mut [W; 8], blocks: &[u8], count: &mut u128);

    /// Compresses the final block: `block` is zero-padded, `count` already includes its bytes,
    /// f0 is set, and f1 is set for `LastNode::Yes`.
    ///
    /// # Safety
    /// The backend's CPU features.
    unsafe fn compress_final(h: &mut [W; 8], block: &W::Block, count: u128, last_node: LastNode);

    /// Compresses `blocks` blocks in each lane (see [`Lane`]), up to `DEGREE` lanes at a time;
    /// more lanes are processed in groups.
    ///
    /// # Safety
    /// The backend's CPU features, and every lane's input holds
    /// `(blocks - 1) * stride + BLOCKBYTES` bytes.
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, W>], blocks: usize, stride: usize);
}
