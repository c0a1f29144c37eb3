//! The features that limit the backends (`pure`, `no_sse41`, `no_avx2`, `no_avx512`): the
//! backends they exclude are never selected, by detection or on request, and the others stay
//! available wherever the CPU has them. scripts/test-features.sh builds this test once per
//! feature; in other builds it checks that nothing is excluded.

use arborhash::platform::{self, Backend};

/// The backends the enabled features exclude.
fn excluded() -> Vec<Backend> {
    let mut excluded = Vec::new();
    if cfg!(any(feature = "pure", feature = "no_sse41")) {
        excluded.push(Backend::Sse41);
    }
    if cfg!(any(feature = "pure", feature = "no_avx2")) {
        excluded.push(Backend::Avx2);
    }
    if cfg!(any(
        feature = "pure",
        feature = "no_avx2",
        feature = "no_avx512"
    )) {
        excluded.push(Backend::Avx512);
        excluded.push(Backend::Avx512Scalar);
    }
    if cfg!(feature = "pure") {
        excluded.push(Backend::Neon);
        excluded.push(Backend::Simd128);
    }
    excluded
}

/// Whether the CPU can run `backend`, features aside.
fn cpu_has(backend: Backend) -> bool {
    #[cfg(target_arch = "x86_64")]
    return match backend {
        Backend::Portable => true,
        Backend::Sse41 => is_x86_feature_detected!("sse4.1"),
        Backend::Avx2 => is_x86_feature_detected!("avx2"),
        Backend::Avx512 | Backend::Avx512Scalar => {
            is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx2")
        }
        Backend::Neon | Backend::Simd128 => false,
    };
    #[cfg(target_arch = "aarch64")]
    return match backend {
        Backend::Portable => true,
        Backend::Neon => std::arch::is_aarch64_feature_detected!("neon"),
        Backend::Sse41
        | Backend::Avx2
        | Backend::Avx512
        | Backend::Avx512Scalar
        | Backend::Simd128 => false,
    };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    return backend == Backend::Portable
        || (backend == Backend::Simd128 && cfg!(target_feature = "simd128"));
}

#[test]
fn excluded_backends_are_never_selected() {
    let excluded = excluded();
    for backend in Backend::ALL {
        let allowed = !excluded.contains(&backend);
        assert_eq!(
            backend.is_supported(),
            allowed && cpu_has(backend),
            "{backend}"
        );
        platform::with_backend(backend, || {
            assert_eq!(platform::backend() == backend, allowed && cpu_has(backend));
            // Whatever runs, the hashes stay right.
            let input = vec![0x5a; 100_000];
            assert_eq!(
                arborhash::blake3::hash(&input).as_bytes(),
                blake3::hash(&input).as_bytes()
            );
            assert_eq!(
                arborhash::blake2b::blake2b(&input).as_bytes(),
                blake2b_simd::blake2b(&input).as_bytes()
            );
        });
    }
    assert!(!excluded.contains(&platform::best_supported()));
}
