//! The BLAKE2 kernel interface and the one dispatch from a [`Platform`] to a backend, for
//! BLAKE2b and BLAKE2s.
//!
//! # What a backend provides
//!
//! A backend is one file beside this one (`portable.rs`, `sse41.rs`, `avx2.rs`, `avx512.rs`,
//! `neon.rs`).
//! Its module `b` (BLAKE2b, `u64` words) and its module `s` (BLAKE2s, `u32` words) each have:
//!
//! - `compress_blocks(h, blocks, count)`: compresses each whole block of `blocks` (a multiple
//!   of the block size, none final) into `h`, adding the block size to `count` before each;
//! - `compress_final(h, block, count, last_node)`: the final block, zero-padded, `count`
//!   including its bytes, f0 set, f1 set when `last_node`;
//! - `compress_lanes(lanes, blocks, stride)`: `blocks` blocks in each of up to the backend's
//!   degree of [`Lane`]s (more lanes are processed in groups), block `j` of a lane at
//!   `j * stride` in its input, which holds them all (checked here).
//!
//! The SIMD ones are `unsafe` `#[target_feature]` functions, callable once a [`Platform`] proves
//! the CPU has the features. The portable backend is generic over the variant instead.
//! Plugging a backend in takes one line in `dispatch!` and one in `degree`. The kernel tests
//! (`kernel_tests.rs`) check a backend's functions against the portable ones.
//!
//! Besides the backend, one route is made here: on `avx512-scalar` (chosen on AMD family 1Ah), one
//! stream's chain of compressions runs in general-purpose registers, since those CPUs add and
//! rotate vectors at twice the latency of scalars: the
//! assembly of `scalar.rs` for BLAKE2s, the portable kernel for BLAKE2b. The lanes, bound by
//! throughput rather than latency, stay on the backend.

use super::Lane;
use crate::platform::{Backend, Platform};

/// Whether one stream's blocks go to a general-purpose-register kernel rather than to `p`'s
/// backend: on the `avx512-scalar` route.
#[cfg(target_arch = "x86_64")]
#[inline]
fn scalar_stream(p: Platform) -> bool {
    p.backend() == Backend::Avx512Scalar
}

/// Calls `<backend>::$m::$f($args)` for the backend of the platform `$p`, or the portable
/// kernel `portable::$f::<$variant>`.
macro_rules! dispatch {
    ($p:expr, $variant:ty, $m:ident :: $f:ident ($($arg:expr),*)) => {
        match $p.backend() {
            Backend::Portable => crate::blake2::portable::$f::<$variant>($($arg),*),
            // SAFETY (SIMD backends): a `Platform` for a backend proves that the CPU supports it,
            // the contract of that backend's kernels besides the lane input lengths, which
            // `compress_lanes` checks before dispatching.
            #[cfg(target_arch = "x86_64")]
            Backend::Sse41 => unsafe { crate::blake2::sse41::$m::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => unsafe { crate::blake2::avx2::$m::$f($($arg),*) },
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 | Backend::Avx512Scalar => unsafe {
                crate::blake2::avx512::$m::$f($($arg),*)
            },
            #[cfg(target_arch = "aarch64")]
            Backend::Neon => unsafe { crate::blake2::neon::$m::$f($($arg),*) },
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Sse41 | Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar => {
                unreachable!("x86 backends are only selected on x86-64")
            }
            #[cfg(not(target_arch = "aarch64"))]
            Backend::Neon => unreachable!("the NEON backend is only selected on AArch64"),
        }
    };
}

/// The dispatching kernels of one variant, as module `$m`; the two differ only in names and
/// numbers.
macro_rules! variant_kernels {
    ($m:ident, $variant:ty, $word:ty, $sse41_degree:literal, $avx2_degree:literal,
     $neon_degree:literal, $chain_blocks:path, $chain_final:path) => {
        pub(crate) mod $m {
            use super::*;
            use crate::blake2::variant::Variant as _;

            /// See `compress_blocks` in the module documentation.
            #[inline]
            pub(crate) fn compress_blocks(
                p: Platform,
                h: &mut [$word; 8],
                blocks: &[u8],
                count: &mut u128,
            ) {
                debug_assert_eq!(blocks.len() % <$variant>::BLOCKBYTES, 0);
                #[cfg(target_arch = "x86_64")]
                if scalar_stream(p) {
                    return $chain_blocks(h, blocks, count);
                }
                dispatch!(p, $variant, $m::compress_blocks(h, blocks, count))
            }

            /// See `compress_final` in the module documentation.
            #[inline]
            pub(crate) fn compress_final(
                p: Platform,
                h: &mut [$word; 8],
                block: &<$variant as crate::blake2::variant::Variant>::Block,
                count: u128,
                last_node: bool,
            ) {
                #[cfg(target_arch = "x86_64")]
                if scalar_stream(p) {
                    return $chain_final(h, block, count, last_node);
                }
                dispatch!(p, $variant, $m::compress_final(h, block, count, last_node))
            }

            /// See `compress_lanes` in the module documentation. Panics if a lane's input is
            /// too short.
            #[inline]
            pub(crate) fn compress_lanes(
                p: Platform,
                lanes: &mut [Lane<'_, $word>],
                blocks: usize,
                stride: usize,
            ) {
                if blocks == 0 {
                    return;
                }
                let needed = (blocks - 1) * stride + <$variant>::BLOCKBYTES;
                for lane in lanes.iter() {
                    assert!(lane.input.len() >= needed, "lane input too short");
                }
                dispatch!(p, $variant, $m::compress_lanes(lanes, blocks, stride))
            }

            /// How many lanes `compress_lanes` runs at once on this platform.
            #[inline]
            pub(crate) fn degree(p: Platform) -> usize {
                match p.backend() {
                    Backend::Portable => 1,
                    Backend::Sse41 => $sse41_degree,
                    Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar => $avx2_degree,
                    Backend::Neon => $neon_degree,
                }
            }
        }
    };
}

variant_kernels!(
    b,
    crate::blake2::variant::Blake2b,
    u64,
    2,
    4,
    2,
    crate::blake2::portable::compress_blocks::<crate::blake2::variant::Blake2b>,
    crate::blake2::portable::compress_final::<crate::blake2::variant::Blake2b>
);
variant_kernels!(
    s,
    crate::blake2::variant::Blake2s,
    u32,
    4,
    8,
    4,
    crate::blake2::scalar::compress_blocks,
    crate::blake2::scalar::compress_final
);
