//! BLAKE3's kernels, each backend beside the `blake3` crate's kernels of the same width (through
//! its hidden `platform` module): a chain of single-block compressions, `hash_many` over 1 to 16
//! whole chunks and over 1 to 16 parents, and extended output. Whole hashes are in
//! `benches/blake3.rs`; these show which kernel a difference there comes from.
//!
//! Groups: `blake3_kernels/<kernel>/<count>`, functions `arborhash_<backend>` and
//! `blake3_<platform>`. Run with `cargo bench -p arborhash --bench blake3_kernels`.

use arborhash::blake3::kernel_bench as ours;
use arborhash::Backend;
use blake3::platform::Platform as Theirs;
use blake3::IncrementCounter;
use criterion::measurement::WallTime;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion};

const IV: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];

/// Our SIMD backends of the target, each with the crate's kernels of the same width.
#[cfg(target_arch = "x86_64")]
fn simd_backends() -> [(Backend, Option<Theirs>); 3] {
    [
        (Backend::Sse41, Theirs::sse41()),
        (Backend::Avx2, Theirs::avx2()),
        (Backend::Avx512, Theirs::avx512()),
    ]
}
#[cfg(target_arch = "aarch64")]
fn simd_backends() -> [(Backend, Option<Theirs>); 1] {
    [(Backend::Neon, Theirs::neon())]
}
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn simd_backends() -> [(Backend, Option<Theirs>); 0] {
    []
}

/// Our supported SIMD backends, each with the crate's kernels of the same width.
fn contestants() -> Vec<(Backend, Theirs)> {
    simd_backends()
        .into_iter()
        .filter_map(|(ours, theirs)| Some((ours, theirs?)).filter(|_| ours.is_supported()))
        .collect()
}

/// Times `ours` on each backend and `theirs` on the crate's kernels of the same width.
fn pair(
    g: &mut BenchmarkGroup<'_, WallTime>,
    mut ours: impl FnMut(Backend),
    mut theirs: impl FnMut(Theirs),
) {
    for (backend, platform) in contestants() {
        g.bench_function(format!("arborhash_{}", backend.name()), |b| {
            b.iter(|| ours(backend))
        });
        g.bench_function(format!("blake3_{platform:?}").to_lowercase(), |b| {
            b.iter(|| theirs(platform))
        });
    }
}

fn kernels(c: &mut Criterion) {
    let block = [7u8; 64];
    const CHAIN: usize = 64;
    let mut g = c.benchmark_group(format!("blake3_kernels/compress_chain/{CHAIN}"));
    let (mut a, mut b) = (IV, IV);
    pair(
        &mut g,
        |backend| ours::compress_chain(backend, black_box(&mut a), &block, CHAIN),
        |platform| {
            for _ in 0..CHAIN {
                platform.compress_in_place(black_box(&mut b), &block, 64, 0, 0);
            }
        },
    );
    g.finish();

    let input = vec![0x5Au8; 16 * 1024];
    let mut out = [[0u8; 32]; 16];
    let mut flat = [0u8; 16 * 32];
    for count in [1, 4, 8, 16] {
        let data = &input[..count * 1024];
        let chunks: Vec<&[u8; 1024]> = data
            .chunks_exact(1024)
            .map(|c| c.try_into().unwrap())
            .collect();
        let mut g = c.benchmark_group(format!("blake3_kernels/chunks/{count}"));
        pair(
            &mut g,
            |backend| ours::hash_chunks(backend, black_box(data), &mut out),
            |platform| {
                let out = &mut flat[..count * 32];
                platform.hash_many(
                    black_box(&chunks),
                    &IV,
                    0,
                    IncrementCounter::Yes,
                    0,
                    1,
                    2,
                    out,
                )
            },
        );
        g.finish();

        let data = &input[..count * 64];
        let blocks: Vec<&[u8; 64]> = data
            .chunks_exact(64)
            .map(|c| c.try_into().unwrap())
            .collect();
        let mut g = c.benchmark_group(format!("blake3_kernels/parents/{count}"));
        pair(
            &mut g,
            |backend| ours::hash_parents(backend, black_box(data), &mut out),
            |platform| {
                let out = &mut flat[..count * 32];
                platform.hash_many(
                    black_box(&blocks),
                    &IV,
                    0,
                    IncrementCounter::No,
                    4,
                    0,
                    0,
                    out,
                )
            },
        );
        g.finish();
    }

    let mut xof = vec![0u8; 16 * 64];
    let mut g = c.benchmark_group("blake3_kernels/xof/16");
    let mut theirs_out = xof.clone();
    pair(
        &mut g,
        |backend| ours::xof(backend, &IV, &block, black_box(&mut xof)),
        |platform| platform.xof_many(&IV, &block, 64, 0, 11, black_box(&mut theirs_out)),
    );
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
