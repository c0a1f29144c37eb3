//! Every Tillich-Zémor backend the CPU has against the portable one.

use super::dispatch::backends;
use super::kernels::Kernels;
use super::portable::Portable;
use crate::platform::{dispatch, with_backend, Backend, Platform};

/// A fixed-seed generator (xorshift64*), so that failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A field element (below 2^127).
    fn entry(&mut self) -> u128 {
        ((u128::from(self.next()) << 64) | u128::from(self.next())) >> 1
    }
}

/// `K`'s functions give the portable ones' results: lengths across the windows of every backend,
/// the AVX2 backend's two-stream threshold and the portable backend's slicing, at unaligned
/// offsets, from states that are not hashes (any matrix of field elements multiplies alike).
fn check<K: Kernels>() {
    let mut rng = Rng(0x7a5e_ed00_0000_0037);
    let mut input = [0u8; 9000];
    input.iter_mut().for_each(|b| *b = rng.next() as u8);
    let lens = [
        0, 1, 7, 8, 9, 15, 16, 17, 255, 256, 257, 263, 264, 2047, 2048, 2049, 8192,
    ];
    for len in lens {
        for offset in [0, 1, 3] {
            let data = &input[offset..offset + len];
            let start = [0; 4].map(|_: u8| rng.entry());
            let (mut ours, mut theirs) = (start, start);
            // SAFETY: `check` runs under a `Platform` whose backend is `K` (see the test).
            unsafe { K::mul_bytes(&mut ours, data) };
            // SAFETY: the portable kernels need nothing.
            unsafe { Portable::mul_bytes(&mut theirs, data) };
            assert_eq!(ours, theirs, "mul_bytes, {len} bytes at offset {offset}");
        }
    }
    for _ in 0..64 {
        let a = [0; 4].map(|_: u8| rng.entry());
        let b = [0; 4].map(|_: u8| rng.entry());
        // SAFETY: as above.
        let (ours, theirs) = unsafe { (K::mul_matrices(&a, &b), Portable::mul_matrices(&a, &b)) };
        assert_eq!(ours, theirs, "mul_matrices");
    }
}

#[test]
fn every_backend_matches_portable() {
    let mut reached = 0;
    for b in Backend::ALL.into_iter().filter(|b| b.is_supported()) {
        with_backend(b, || {
            let p = Platform::current().carryless();
            dispatch!(p, backends, |K| check::<K>());
        });
        reached += 1;
    }
    assert!(reached >= 1);
}

/// Forcing SSE4.1 reaches the PCLMULQDQ kernels, and AVX2 (or AVX-512) the VPCLMULQDQ ones
/// where the CPU has them.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
#[test]
fn every_carryless_route_is_reachable() {
    let route = |b| with_backend(b, || Platform::current().carryless().backend());
    if Backend::Sse41.is_supported() && std::is_x86_feature_detected!("pclmulqdq") {
        assert_eq!(route(Backend::Sse41), Backend::Sse41);
    }
    let vpclmul = std::is_x86_feature_detected!("vpclmulqdq");
    for b in [Backend::Avx2, Backend::Avx512, Backend::Avx512Scalar] {
        if b.is_supported() && vpclmul {
            assert_eq!(route(b), b);
        }
    }
    assert_eq!(route(Backend::Portable), Backend::Portable);
}
