//! What distinguishes BLAKE2b from BLAKE2s: the word type, the sizes derived from it, the IV and
//! the kernels. Everything else in the BLAKE2 family (parameters, buffering, trees, the batch
//! scheduler, BLAKE2X) is written once, generic over [`Variant`].

use core::fmt::Debug;
use core::ops::BitXor;

use super::Lane;
use crate::bytes::HexString;
use crate::platform::{Backend, Platform};
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
    /// The low `BYTES` bytes of `x`.
    fn truncate(x: u128) -> Self;
    /// Addition modulo 2^(8 * BYTES).
    fn wrapping_add(self, other: Self) -> Self;
    /// Rotation right by `n` bits.
    fn rotate_right(self, n: u32) -> Self;
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
    /// Rounds of the compression function (12 for BLAKE2b, 10 for BLAKE2s).
    const ROUNDS: usize;
    /// G's rotation distances, right, in the order G applies them.
    const ROTATIONS: [u32; 4];
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

    // The kernels, hidden: only the crate can call them. Each dispatches on the platform's
    // backend to blake2/portable.rs or to the variant's sse41, avx2 or avx512 module, which all
    // have the same three functions with the semantics given here.

    /// Compresses each whole block of `blocks` (a multiple of `BLOCKBYTES` long, none of them
    /// final), adding `BLOCKBYTES` to `count` before each.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn compress_blocks(p: Platform, h: &mut [Self::Word; 8], blocks: &[u8], count: &mut u128);
    /// Compresses the final block: `block` is zero-padded, `count` already includes its bytes,
    /// f0 is set, and f1 is set when `last_node`.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn compress_final(
        p: Platform,
        h: &mut [Self::Word; 8],
        block: &Self::Block,
        count: u128,
        last_node: bool,
    );
    /// Compresses `blocks` blocks in each lane (see [`Lane`]), up to `degree(p)` lanes at a
    /// time; more lanes are processed in groups. Panics if a lane's input is too short.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn compress_lanes(
        p: Platform,
        lanes: &mut [Lane<'_, Self::Word>],
        blocks: usize,
        stride: usize,
    );
    /// How many lanes `compress_lanes` runs at once on this platform.
    #[doc(hidden)]
    #[allow(private_interfaces)]
    fn degree(p: Platform) -> usize;
}

/// The most lanes any kernel runs at once (BLAKE2s on AVX2); also the most BLAKE2sp leaves.
pub(crate) const MAX_LANES: usize = 8;

/// Whether one stream's blocks, a chain of compressions each of which needs the last one's
/// result, go to the assembly kernels of blake2/scalar.rs rather than to `p`'s: on CPUs where
/// such a chain is faster in general-purpose registers ([`scalar_chains`]), for the vector
/// backends (the portable one stays plain Rust). On Zen 5 even the portable kernel beat the
/// AVX-512 rows at every size from 64 B to 16 MiB, 1.73-1.86x `blake2b_simd`'s speed against
/// 1.08-1.09x and 1.50-2.05x `blake2s_simd`'s against 0.97-1.14x (calls in turn), and the
/// assembly beats the portable kernel by 3-7 %. The multi-lane kernels, bound by throughput,
/// stay on `p`.
///
/// [`scalar_chains`]: crate::platform::scalar_chains
#[cfg(target_arch = "x86_64")]
#[inline]
fn scalar_stream(p: Platform) -> bool {
    p.backend() != Backend::Portable && crate::platform::scalar_chains()
}

/// Calls `$module::<backend>::$f($args)` for the backend of the platform `$p`.
macro_rules! dispatch {
    ($p:expr, $module:ident :: $f:ident ($($arg:expr),*)) => {
        match $p.backend() {
            Backend::Portable => crate::blake2::portable::$f::<Self>($($arg),*),
            // SAFETY (vector backends): a `Platform` for a backend proves that the CPU supports it,
            // the contract of that backend's kernels besides the lane input lengths, which
            // `compress_lanes` checks before dispatching.
            #[cfg(target_arch = "x86_64")]
            Backend::Sse41 => unsafe { $module::sse41::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => unsafe { $module::avx2::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => unsafe { $module::avx512::$f($($arg),*) },
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => unsafe { $module::neon::$f($($arg),*) },
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => {
                unreachable!("x86 backends are only selected on x86-64")
            }
            #[cfg(not(target_arch = "aarch64"))]
            Backend::Neon => unreachable!("the NEON backend is only selected on AArch64"),
        }
    };
}

// The two implementations differ only in names and numbers; a macro keeps them in step.
macro_rules! impl_variant {
    ($ty:ident, $module:ident, $word:ty, $count:ty, $name:literal, $node_offset_bytes:literal,
     $leaves:literal, $xof_max:expr, $rounds:literal, $rotations:expr, $sse41_degree:literal,
     $avx2_degree:literal, $neon_degree:literal) => {
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
            const ROUNDS: usize = $rounds;
            const ROTATIONS: [u32; 4] = $rotations;
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
                debug_assert_eq!(blocks.len() % Self::BLOCKBYTES, 0);
                #[cfg(target_arch = "x86_64")]
                if scalar_stream(p) {
                    return crate::blake2::scalar::compress_blocks::<Self>(h, blocks, count);
                }
                dispatch!(p, $module::compress_blocks(h, blocks, count))
            }
            #[inline]
            fn compress_final(
                p: Platform,
                h: &mut [$word; 8],
                block: &Self::Block,
                count: u128,
                last_node: bool,
            ) {
                #[cfg(target_arch = "x86_64")]
                if scalar_stream(p) {
                    return crate::blake2::scalar::compress_final::<Self>(
                        h, block, count, last_node,
                    );
                }
                dispatch!(p, $module::compress_final(h, block, count, last_node))
            }
            #[inline]
            fn compress_lanes(
                p: Platform,
                lanes: &mut [Lane<'_, $word>],
                blocks: usize,
                stride: usize,
            ) {
                if blocks == 0 {
                    return;
                }
                let needed = (blocks - 1) * stride + Self::BLOCKBYTES;
                for lane in lanes.iter() {
                    assert!(lane.input.len() >= needed, "lane input too short");
                }
                dispatch!(p, $module::compress_lanes(lanes, blocks, stride))
            }
            #[inline]
            fn degree(p: Platform) -> usize {
                match p.backend() {
                    Backend::Portable => 1,
                    Backend::Sse41 => $sse41_degree,
                    Backend::Avx2 | Backend::Avx512 => $avx2_degree,
                    Backend::Neon => $neon_degree,
                }
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

impl_variant!(
    Blake2b,
    blake2b,
    u64,
    u128,
    "BLAKE2b",
    8,
    4,
    u32::MAX,
    12,
    [32, 24, 16, 63],
    2,
    4,
    2
);
impl_variant!(
    Blake2s,
    blake2s,
    u32,
    u64,
    "BLAKE2s",
    6,
    8,
    u16::MAX as u32,
    10,
    [16, 12, 8, 7],
    4,
    8,
    4
);
