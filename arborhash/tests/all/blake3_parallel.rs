//! The rayon and mmap variants of the BLAKE3 hasher on every backend, against one-shot hashing
//! and the `blake3` crate.

#![cfg(any(feature = "rayon", feature = "mmap"))]

use arborhash::blake3::Hasher;
use arborhash::platform::{with_backend, Backend};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn input(len: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(len as u64);
    let mut v = vec![0u8; len];
    rng.fill(&mut v[..]);
    v
}

#[cfg(feature = "rayon")]
#[test]
fn update_rayon_matches_crate() {
    // Exact powers of two end the input with a pushed subtree; odd lengths split unevenly.
    // Around the threads' threshold (1 MiB) and with a right half shorter than one task.
    for len in [
        0,
        1025,
        100_000,
        256 * 1024,
        (512 << 10) + 3072,
        (1 << 20) - 1,
        1 << 20,
        (1 << 20) + (33 << 10) + 7,
        2 << 20,
        (3 << 20) + 1,
    ] {
        let data = input(len);
        let want = ::blake3::hash(&data);
        for backend in Backend::ALL {
            with_backend(backend, || {
                let mut hasher = Hasher::new();
                hasher.update_rayon(&data);
                assert_eq!(hasher.finalize(), *want.as_bytes(), "{backend} len {len}");
                // After a misaligned start.
                let mut hasher = Hasher::new_keyed(&[3; 32]);
                hasher
                    .update(&data[..len.min(777)])
                    .update_rayon(&data[len.min(777)..]);
                assert_eq!(
                    hasher.finalize(),
                    *::blake3::keyed_hash(&[3; 32], &data).as_bytes(),
                    "{backend} keyed len {len}"
                );
            });
        }
    }
}

#[cfg(feature = "mmap")]
#[test]
fn update_mmap_matches_one_shot() {
    let dir = std::env::temp_dir().join(format!("arborhash-b3-mmap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The last length spans three of the pieces that are filled and hashed in turn.
    let pieces = 2 * arborhash::mmap::PIECE + 1000;
    for len in [0, 100, 16 * 1024 - 1, 16 * 1024, 1 << 20, pieces] {
        let data = input(len);
        let path = dir.join(format!("input-{len}"));
        std::fs::write(&path, &data).unwrap();
        let want = ::blake3::hash(&data);
        for backend in Backend::ALL {
            with_backend(backend, || {
                let mut hasher = Hasher::new();
                hasher.update_mmap(&path).unwrap();
                assert_eq!(
                    hasher.finalize(),
                    *want.as_bytes(),
                    "{backend} mmap len {len}"
                );
                #[cfg(feature = "rayon")]
                {
                    let mut hasher = Hasher::new();
                    hasher.update(b"prefix").update_mmap_rayon(&path).unwrap();
                    let mut expected = Hasher::new();
                    expected.update(b"prefix").update(&data);
                    assert_eq!(
                        hasher.finalize(),
                        expected.finalize(),
                        "{backend} len {len}"
                    );
                }
            });
        }
    }
    assert!(Hasher::new().update_mmap(dir.join("missing")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
