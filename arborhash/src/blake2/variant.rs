//! What distinguishes BLAKE2b from BLAKE2s, as data: the word type (which selects the kernels),
//! the sizes derived from it, the IV. Everything else in the BLAKE2 family (parameters,
//! buffering, trees, the batch scheduler, BLAKE2X) is written once, generic over [`Variant`].

use core::fmt::Debug;

use super::dispatch::Dispatch;
use super::kernels::Word;
use crate::bytes::HexString;

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Blake2b {}
    impl Sealed for super::Blake2s {}
}

/// A member of the BLAKE2 family: [`Blake2b`] or [`Blake2s`]. Sealed; it only exists so that the
/// public types (`blake2b::Params` is `Params<Blake2b>`) are written once.
pub trait Variant: sealed::Sealed + Copy + Debug + Default + Send + Sync + 'static {
    /// The state word.
    type Word: Dispatch<Block = Self::Block>;
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
    const IV: [Self::Word; 8] = <Self::Word as Word>::IV;
    /// Rounds of the compression function (12 for BLAKE2b, 10 for BLAKE2s).
    const ROUNDS: usize = <Self::Word as Word>::ROUNDS;
    /// G's rotation distances, right, in the order G applies them.
    const ROTATIONS: [u32; 4] = <Self::Word as Word>::ROTATIONS;
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
}

// The two implementations differ only in names and numbers; a macro keeps them in step.
macro_rules! impl_variant {
    ($ty:ident, $word:ty, $count:ty, $name:literal, $node_offset_bytes:literal,
     $leaves:literal, $xof_max:expr) => {
        impl Variant for $ty {
            type Word = $word;
            type Count = $count;
            type Block = [u8; 16 * core::mem::size_of::<$word>()];
            type Array = [u8; 8 * core::mem::size_of::<$word>()];
            type Hex = HexString<{ 16 * core::mem::size_of::<$word>() }>;

            const NAME: &'static str = $name;
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
        }
    };
}

/// BLAKE2b: 64-bit words, 128-byte blocks, up to 64-byte hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blake2b;

/// BLAKE2s: 32-bit words, 64-byte blocks, up to 32-byte hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Blake2s;

impl_variant!(Blake2b, u64, u128, "BLAKE2b", 8, 4, u32::MAX);
impl_variant!(Blake2s, u32, u64, "BLAKE2s", 6, 8, u16::MAX as u32);
