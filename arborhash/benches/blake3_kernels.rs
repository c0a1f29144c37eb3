//! BLAKE3's kernels as the public API reaches them, on each backend, beside the `blake3` crate's
//! kernels of the same width (through its hidden `platform` module) doing the same work: the
//! root of one block, the roots of 1 to 16 one-chunk messages (`many::hash_many`), one parent
//! (`hazmat::merge_subtrees_non_root`) and 16 blocks of extended output (`many::hash_many_xof`).
//! Ours include the public call's own overhead, which the crate's bare kernels do not. Whole
//! hashes are in `benches/blake3.rs`; these show which kernel a difference there comes from.
//!
//! Groups: `blake3_kernels/<kernel>/<count>`, functions `arborhash_<backend>` and
//! `blake3_<platform>`. Run with `cargo bench -p arborhash --bench blake3_kernels`.

use arborhash::blake3::{self as ours, hazmat, many};
use arborhash::platform::with_backend;
use arborhash::Backend;
use blake3::platform::Platform as Theirs;
use blake3::IncrementCounter;
use criterion::measurement::WallTime;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkGroup, Criterion};

const IV: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];
// The domain flags of the BLAKE3 specification.
const CHUNK_START: u8 = 1;
const CHUNK_END: u8 = 2;
const PARENT: u8 = 4;
const ROOT: u8 = 8;

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

/// Times `ours` with each backend forced and `theirs` on the crate's kernels of the same width.
fn pair(
    g: &mut BenchmarkGroup<'_, WallTime>,
    mut ours: impl FnMut(),
    mut theirs: impl FnMut(Theirs),
) {
    for (backend, platform) in contestants() {
        g.bench_function(format!("arborhash_{}", backend.name()), |b| {
            b.iter(|| with_backend(backend, &mut ours))
        });
        g.bench_function(format!("blake3_{platform:?}").to_lowercase(), |b| {
            b.iter(|| theirs(platform))
        });
    }
}

fn kernels(c: &mut Criterion) {
    let block = [7u8; 64];
    let mut g = c.benchmark_group("blake3_kernels/block/1");
    pair(
        &mut g,
        || {
            black_box(ours::hash(black_box(&block)));
        },
        |platform| {
            let mut cv = IV;
            platform.compress_in_place(
                &mut cv,
                black_box(&block),
                64,
                0,
                CHUNK_START | CHUNK_END | ROOT,
            );
            black_box(cv);
        },
    );
    g.finish();

    let input = vec![0x5Au8; 16 * 1024];
    let mut out = [ours::Hash::from_bytes([0; 32]); 16];
    let mut flat = [0u8; 16 * 32];
    for count in [1, 4, 8, 16] {
        let messages: Vec<&[u8]> = input[..count * 1024].chunks_exact(1024).collect();
        let chunks: Vec<&[u8; 1024]> = messages.iter().map(|m| (*m).try_into().unwrap()).collect();
        let mut g = c.benchmark_group(format!("blake3_kernels/chunks/{count}"));
        pair(
            &mut g,
            || many::hash_many(black_box(&messages), &mut out[..count]),
            |platform| {
                platform.hash_many(
                    black_box(&chunks),
                    &IV,
                    0,
                    IncrementCounter::No,
                    0,
                    CHUNK_START,
                    CHUNK_END | ROOT,
                    &mut flat[..count * 32],
                )
            },
        );
        g.finish();
    }

    let child = [0x3Cu8; 32];
    let parent_block = [0x3Cu8; 64];
    let mut g = c.benchmark_group("blake3_kernels/parents/1");
    pair(
        &mut g,
        || {
            black_box(hazmat::merge_subtrees_non_root(
                black_box(&child),
                &child,
                hazmat::Mode::Hash,
            ));
        },
        |platform| {
            let mut cv = IV;
            platform.compress_in_place(&mut cv, black_box(&parent_block), 64, 0, PARENT);
            black_box(cv);
        },
    );
    g.finish();

    let mut xof = vec![0u8; 16 * 64];
    let mut theirs_out = xof.clone();
    let mut g = c.benchmark_group("blake3_kernels/xof/16");
    pair(
        &mut g,
        || many::hash_many_xof(&[black_box(&block[..])], 16 * 64, &mut xof),
        |platform| {
            platform.xof_many(
                &IV,
                &block,
                64,
                0,
                CHUNK_START | CHUNK_END | ROOT,
                black_box(&mut theirs_out),
            )
        },
    );
    g.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
