//! What distinguishes BLAKE2b from BLAKE2s: the word type, the sizes derived from it, the IV and
//! the kernels. Everything else in the BLAKE2 family (parameters, buffering, trees, the batch
//! scheduler, BLAKE2X) is written once, generic over [`Variant`].

use core::fmt::Debug;
use core::ops::BitXor;

use super::Lane;
use crate::bytes::HexString;
use crate::platform::Platform;
use crate::{blake2b, blake2s};

/// A BLAKE2 state word (`u64` for BLAKE2b, `u32` for BLAKE2s).
pub trait Word:
    Copy + Default + Eq + Debug + BitXor<Output = Self> + Send + Sync + 'static
{
    /// Bytes in a word.
    const BYTES: usize;
    /// Reads a little-endian word from the first `BYTES` bytes of `bytes`.
    fn from_le(bytes: &[u8]) -> Self;
    /// Writes the word little-endian into the first `BYTES` bytes of `out`.
    fn write_le(self, out: &mut [u8]);
}

// Two integer types, one body: a macro is clearer here than two copies.
macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const BYTES: usize = core::mem::size_of::<$t>();
            #[inline(always)]
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes[..Self::BYTES].try_into().unwrap())
            }
            #[inline(always)]
            fn write_le(self, out: &mut [u8]) {
                out[..Self::BYTES].copy_from_slice(&self.to_le_bytes());
            }
        }
    };
}
impl_word!(u32);
impl_word!(u64);

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Blake2b {}
    impl Sealed for super::Blake2s {}
}

/// A member of the BLAKE2 family: [`Blake2b`] or [`Blake2s`]. Sealed; it only exists so that the
/// public types (`blake2b::Params` is `Params<Blake2b>`) are written once.
pub trait Variant: sealed::Sealed + Copy + Debug + Default + Send + Sync + 'static {
    /// The state word.
    type Word: Word;
    /// What `State::count` returns (`u128` for BLAKE2b, `u64` for BLAKE2s, as in
    /// `blake2b_simd` / `blake2s_simd`).
    type Count: Copy + Debug + Eq + Ord;
    /// `[u8; BLOCKBYTES]`.
    type Block: Copy + AsRef<[u8]> + AsMut<[u8]> + Send + Sync + 'static;
    /// `[u8; OUTBYTES]`.
    type Array: Copy + AsRef<[u8]> + AsMut<[u8]> + Debug + Send + Sync + 'static;
    /// The hex string of a hash of up to `OUTBYTES` bytes.
    type Hex: Copy + Debug + core::fmt::Display;

    /// "BLAKE2b" or "BLAKE2s", for messages.
    const NAME: &'static str;
    /// The initialization vector.
    const IV: [Self::Word; 8];
    /// An all-zero block.
    const ZERO_BLOCK: Self::Block;
    /// An all-zero hash array.
    const ZERO_ARRAY: Self::Array;
    /// Bytes of the node offset field in the parameter block (8 for BLAKE2b, 6 for BLAKE2s).
    const NODE_OFFSET_BYTES: usize;
    /// Leaves of the parallel variant (4 for BLAKE2bp, 8 for BLAKE2sp).
    const PARALLEL_LEAVES: usize;
    /// The largest declared BLAKE2X output length; the same value in the parameter block also
    /// means "unknown length" (2^32-1 for BLAKE2Xb, 2^16-1 for BLAKE2Xs).
    const XOF_MAX_LENGTH: u32;

    /// Bytes in a hash of full length; also the largest key.
    const OUTBYTES: usize = 8 * <Self::Word as Word>::BYTES;
    /// Bytes in a block.
    const BLOCKBYTES: usize = 16 * <Self::Word as Word>::BYTES;
    /// Bytes of salt and of personalization.
    const SALTBYTES: usize = 2 * <Self::Word as Word>::BYTES;

    /// Narrows the internal byte counter to the public count type.
    fn count(count: u128) -> Self::Count;
    /// Hex-encodes up to `OUTBYTES` bytes.
    fn hex(bytes: &[u8]) -> Self::Hex;

    // The kernels (see the variant's `kernels` module), hidden: only the crate can call them.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn compress_blocks(p: Platform, h: &mut [Self::Word; 8], blocks: &[u8], count: &mut u128);
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn compress_final(
        p: Platform,
        h: &mut [Self::Word; 8],
        block: &Self::Block,
        count: u128,
        last_node: bool,
    );
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn compress_lanes(
        p: Platform,
        lanes: &mut [Lane<'_, Self::Word>],
        blocks: usize,
        stride: usize,
    );
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn degree(p: Platform) -> usize;
}

/// The most lanes any kernel runs at once (BLAKE2s on AVX2); also the most BLAKE2sp leaves.
pub(crate) const MAX_LANES: usize = 8;

// The two implementations differ only in names and numbers; a macro keeps them in step.
macro_rules! impl_variant {
    ($ty:ident, $module:ident, $word:ty, $count:ty, $name:literal, $node_offset_bytes:literal,
     $leaves:literal, $xof_max:expr) => {
        // The kernel methods take crate-private types (`Platform`, `Lane`): nothing outside the
        // crate can call them, since no `Platform` can be made there.
        #[allow(private_interfaces)]
        impl Variant for $ty {
            type Word = $word;
            type Count = $count;
            type Block = [u8; 16 * core::mem::size_of::<$word>()];
            type Array = [u8; 8 * core::mem::size_of::<$word>()];
            type Hex = HexString<{ 16 * core::mem::size_of::<$word>() }>;

            const NAME: &'static str = $name;
            const IV: [$word; 8] = $module::IV;
            const ZERO_BLOCK: Self::Block = [0; 16 * core::mem::size_of::<$word>()];
            const ZERO_ARRAY: Self::Array = [0; 8 * core::mem::size_of::<$word>()];
            const NODE_OFFSET_BYTES: usize = $node_offset_bytes;
            const PARALLEL_LEAVES: usize = $leaves;
            const XOF_MAX_LENGTH: u32 = $xof_max;

            #[inline]
            fn count(count: u128) -> $count {
                count as $count
            }
            fn hex(bytes: &[u8]) -> Self::Hex {
                HexString::encode(bytes)
            }
            #[inline]
            fn compress_blocks(p: Platform, h: &mut [$word; 8], blocks: &[u8], count: &mut u128) {
                $module::kernels::compress_blocks(p, h, blocks, count)
            }
            #[inline]
            fn compress_final(
                p: Platform,
                h: &mut [$word; 8],
                block: &Self::Block,
                count: u128,
                last_node: bool,
            ) {
                $module::kernels::compress_final(p, h, block, count, last_node)
            }
            #[inline]
            fn compress_lanes(
                p: Platform,
                lanes: &mut [Lane<'_, $word>],
                blocks: usize,
                stride: usize,
            ) {
                $module::kernels::compress_lanes(p, lanes, blocks, stride)
            }
            #[inline]
            fn degree(p: Platform) -> usize {
                $module::kernels::degree(p)
            }
        }
    };
}

/// BLAKE2b: 64-bit words, 128-byte blocks, up to 64-byte hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blake2b;

/// BLAKE2s: 32-bit words, 64-byte blocks, up to 32-byte hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blake2s;

impl_variant!(Blake2b, blake2b, u64, u128, "BLAKE2b", 8, 4, u32::MAX);
impl_variant!(Blake2s, blake2s, u32, u64, "BLAKE2s", 6, 8, u16::MAX as u32);
