//! Tillich-Zémor throughput on every backend (and with rayon, 1 vs 2 threads at 64 MiB).
//!
//! The Go package nspcc-dev/tzhash cannot run inside criterion; measure it side by side with a
//! small Go program (see the report in docs/performance.md).

use arborhash::platform::{with_backend, Backend};
use arborhash::tz;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

fn backends(c: &mut Criterion) {
    let mut group = c.benchmark_group("tz");
    for len in [64, 4 << 10, 64 << 10, 1 << 20] {
        let data = input(len);
        group.throughput(Throughput::Bytes(len as u64));
        for b in Backend::ALL.into_iter().filter(|b| b.is_supported()) {
            group.bench_with_input(BenchmarkId::new(b.name(), len), &data, |bench, data| {
                with_backend(b, || bench.iter(|| tz::sum(data)))
            });
        }
    }
    group.finish();
}

#[cfg(feature = "rayon")]
fn threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("tz-rayon");
    group.sample_size(10);
    let len = 64 << 20;
    let data = input(len);
    group.throughput(Throughput::Bytes(len as u64));
    for n in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("thread pool");
        group.bench_with_input(BenchmarkId::new("threads", n), &data, |bench, data| {
            pool.install(|| bench.iter(|| tz::sum_rayon(data)))
        });
    }
    group.finish();
}

#[cfg(not(feature = "rayon"))]
fn threads(_: &mut Criterion) {}

criterion_group!(benches, backends, threads);
criterion_main!(benches);
