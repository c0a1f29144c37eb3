//! The one dispatch from a [`Platform`] to a BLAKE2 backend: the safe functions the engine calls,
//! for each word size.

use super::kernels::{Kernels, Lane, LastNode, Word};
use crate::platform::{dispatch, Platform};

/// Each backend's kernel type, under the names [`dispatch!`](crate::platform::dispatch) looks
/// up.
pub(super) mod backends {
    #[cfg(target_arch = "aarch64")]
    pub(crate) use super::super::neon::Neon;
    pub(crate) use super::super::portable::Portable;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    pub(crate) use super::super::simd128::Simd128;
    /// A module built without SIMD128 never selects it: the portable kernels, so that it
    /// holds no SIMD instruction an engine without them would refuse.
    #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128")))]
    pub(crate) type Simd128 = Portable;
    #[cfg(target_arch = "x86_64")]
    pub(crate) use super::super::{avx2::Avx2, avx512::Avx512, sse41::Sse41};
    #[cfg(target_arch = "x86_64")]
    pub(crate) use super::Avx512Scalar;
}

/// The `avx512-scalar` route: one stream's chain of compressions in general-purpose registers
/// (scalar.rs's assembly for BLAKE2s, the portable kernel for BLAKE2b), the lanes on AVX-512.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512Scalar;

#[cfg(target_arch = "x86_64")]
impl Kernels<u32> for Avx512Scalar {
    const DEGREE: usize = <backends::Avx512 as Kernels<u32>>::DEGREE;

    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
        super::scalar::compress_blocks(h, blocks, count)
    }

    #[inline(always)]
    unsafe fn compress_final(h: &mut [u32; 8], block: &[u8; 64], count: u128, last_node: LastNode) {
        super::scalar::compress_final(h, block, count, last_node.is_set())
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u32>], blocks: usize, stride: usize) {
        // SAFETY: the caller's contract, for this route's AVX-512 lanes.
        unsafe { <backends::Avx512 as Kernels<u32>>::compress_lanes(lanes, blocks, stride) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels<u64> for Avx512Scalar {
    const DEGREE: usize = <backends::Avx512 as Kernels<u64>>::DEGREE;

    #[inline(always)]
    unsafe fn compress_blocks(h: &mut [u64; 8], blocks: &[u8], count: &mut u128) {
        super::portable::compress_blocks(h, blocks, count)
    }

    #[inline(always)]
    unsafe fn compress_final(
        h: &mut [u64; 8],
        block: &[u8; 128],
        count: u128,
        last_node: LastNode,
    ) {
        super::portable::compress_final(h, block, count, last_node)
    }

    #[inline(always)]
    unsafe fn compress_lanes(lanes: &mut [Lane<'_, u64>], blocks: usize, stride: usize) {
        // SAFETY: the caller's contract, for this route's AVX-512 lanes.
        unsafe { <backends::Avx512 as Kernels<u64>>::compress_lanes(lanes, blocks, stride) }
    }
}

/// The dispatched kernels of one word size: what the engine, generic over the variant, calls.
/// Implemented for `u64` (BLAKE2b) and `u32` (BLAKE2s); see [`Kernels`] for each function.
///
/// Public only as the bound of `Variant::Word`, in a private module: nothing outside the crate can
/// name it, nor make the `Platform` its functions take.
#[allow(private_interfaces)]
pub trait Dispatch: Word {
    /// [`Kernels::compress_blocks`] on `p`'s backend.
    fn compress_blocks(p: Platform, h: &mut [Self; 8], blocks: &[u8], count: &mut u128);
    /// [`Kernels::compress_final`] on `p`'s backend.
    fn compress_final(
        p: Platform,
        h: &mut [Self; 8],
        block: &Self::Block,
        count: u128,
        last_node: LastNode,
    );
    /// [`Kernels::compress_lanes`] on `p`'s backend. Panics if a lane's input is too short.
    fn compress_lanes(p: Platform, lanes: &mut [Lane<'_, Self>], blocks: usize, stride: usize);
    /// [`Kernels::DEGREE`] of `p`'s backend.
    fn degree(p: Platform) -> usize;
}

// The two word sizes differ only in the type: a macro keeps them in step.
macro_rules! impl_dispatch {
    ($word:ty) => {
        // SAFETY (every `unsafe` call below): `dispatch!` names the backend the `Platform` proves
        // the CPU supports, and `compress_lanes` checks the lane input lengths first.
        #[allow(private_interfaces)]
        impl Dispatch for $word {
            #[inline]
            fn compress_blocks(p: Platform, h: &mut [$word; 8], blocks: &[u8], count: &mut u128) {
                debug_assert_eq!(blocks.len() % <$word>::BLOCKBYTES, 0);
                dispatch!(p, backends, |K| unsafe {
                    <K as Kernels<$word>>::compress_blocks(h, blocks, count)
                })
            }

            #[inline]
            fn compress_final(
                p: Platform,
                h: &mut [$word; 8],
                block: &Self::Block,
                count: u128,
                last_node: LastNode,
            ) {
                dispatch!(p, backends, |K| unsafe {
                    <K as Kernels<$word>>::compress_final(h, block, count, last_node)
                })
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
                let needed = (blocks - 1) * stride + <$word>::BLOCKBYTES;
                for lane in lanes.iter() {
                    assert!(lane.input.len() >= needed, "lane input too short");
                }
                dispatch!(p, backends, |K| unsafe {
                    <K as Kernels<$word>>::compress_lanes(lanes, blocks, stride)
                })
            }

            #[inline]
            fn degree(p: Platform) -> usize {
                dispatch!(p, backends, |K| <K as Kernels<$word>>::DEGREE)
            }
        }
    };
}
impl_dispatch!(u64);
impl_dispatch!(u32);
