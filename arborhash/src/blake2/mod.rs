//! The BLAKE2 engine, written once for BLAKE2b and BLAKE2s: the types of the public modules
//! [`blake2b`](crate::blake2b), [`blake2s`](crate::blake2s), [`blake2bp`](crate::blake2bp),
//! [`blake2sp`](crate::blake2sp), [`blake2xb`](crate::blake2xb) and [`blake2xs`](crate::blake2xs)
//! are the generic types of this module for one [`Variant`], [`Blake2b`] or [`Blake2s`]:
//! `blake2b::Params` is [`Params<Blake2b>`](Params). Use them through those modules; every
//! method documented here is theirs.
//!
//! Inside the crate this module also holds what the two variants share below the API: the
//! message schedule, the lane description the multi-lane kernels take, the kernels and their
//! dispatch (`kernels.rs`).

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
    /// Sets the finalization flag f1 (the last node of a tree level).
    pub last_node: bool,
}

pub(crate) mod api;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod hash;
#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) mod kernel_tests;
mod kernels;
mod lanes;
pub mod many;
#[cfg(target_arch = "aarch64")]
mod neon;
pub mod parallel;
pub(crate) mod params;
pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod simd;
#[cfg(target_arch = "x86_64")]
mod sse41;
mod state;
pub(crate) mod variant;
pub mod xof;

pub use hash::Hash;
pub use params::Params;
pub use state::State;
pub use variant::{Blake2b, Blake2s, Variant, Word};
