//! The BLAKE2 family: arborhash beside `blake2b_simd` / `blake2s_simd` in one run.
//!
//! Groups: `ALG/N` for ALG in blake2b, blake2s, blake2bp, blake2sp and one-shot hashing of N
//! bytes, and `ALG/many_4096/16` for the batch API (`many::hash_many` on 16 messages of 4 KiB).
//! Each group has the functions `arborhash` and `blake2b_simd` (or `blake2s_simd`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

fn input(len: usize) -> Vec<u8> {
    // Not zeros: lazily zeroed pages distort large measurements.
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

/// One group: ours beside the peer on the same input.
fn compare<A, B>(c: &mut Criterion, group: &str, peer: &str, len: usize, ours: A, theirs: B)
where
    A: Fn(&[u8]) -> u8,
    B: Fn(&[u8]) -> u8,
{
    let data = input(len);
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Bytes(len as u64));
    g.bench_function("arborhash", |b| b.iter(|| ours(black_box(&data))));
    g.bench_function(peer, |b| b.iter(|| theirs(black_box(&data))));
    g.finish();
}

const SIZES: [usize; 4] = [64, 1024, 4096, 1 << 20];

fn oneshot(c: &mut Criterion) {
    for len in SIZES {
        compare(
            c,
            &format!("blake2b/{len}"),
            "blake2b_simd",
            len,
            |d| arborhash::blake2b::blake2b(d).as_bytes()[0],
            |d| blake2b_simd::blake2b(d).as_bytes()[0],
        );
        compare(
            c,
            &format!("blake2s/{len}"),
            "blake2s_simd",
            len,
            |d| arborhash::blake2s::blake2s(d).as_bytes()[0],
            |d| blake2s_simd::blake2s(d).as_bytes()[0],
        );
        compare(
            c,
            &format!("blake2bp/{len}"),
            "blake2b_simd",
            len,
            |d| arborhash::blake2bp::blake2bp(d).as_bytes()[0],
            |d| blake2b_simd::blake2bp::blake2bp(d).as_bytes()[0],
        );
        compare(
            c,
            &format!("blake2sp/{len}"),
            "blake2s_simd",
            len,
            |d| arborhash::blake2sp::blake2sp(d).as_bytes()[0],
            |d| blake2s_simd::blake2sp::blake2sp(d).as_bytes()[0],
        );
    }
}

const MANY: usize = 16;
const MANY_LEN: usize = 4096;

fn many(c: &mut Criterion) {
    use arborhash::{blake2b, blake2s};
    let (b_ours, b_peer) = (blake2b::Params::new(), blake2b_simd::Params::new());
    let (s_ours, s_peer) = (blake2s::Params::new(), blake2s_simd::Params::new());
    let total = MANY * MANY_LEN;
    compare(
        c,
        &format!("blake2b/many_{MANY_LEN}/{MANY}"),
        "blake2b_simd",
        total,
        |d| {
            let mut jobs: Vec<_> = d
                .chunks(MANY_LEN)
                .map(|m| blake2b::many::HashManyJob::new(&b_ours, m))
                .collect();
            blake2b::many::hash_many(jobs.iter_mut());
            jobs[MANY - 1].to_hash().as_bytes()[0]
        },
        |d| {
            let mut jobs: Vec<_> = d
                .chunks(MANY_LEN)
                .map(|m| blake2b_simd::many::HashManyJob::new(&b_peer, m))
                .collect();
            blake2b_simd::many::hash_many(jobs.iter_mut());
            jobs[MANY - 1].to_hash().as_bytes()[0]
        },
    );
    compare(
        c,
        &format!("blake2s/many_{MANY_LEN}/{MANY}"),
        "blake2s_simd",
        total,
        |d| {
            let mut jobs: Vec<_> = d
                .chunks(MANY_LEN)
                .map(|m| blake2s::many::HashManyJob::new(&s_ours, m))
                .collect();
            blake2s::many::hash_many(jobs.iter_mut());
            jobs[MANY - 1].to_hash().as_bytes()[0]
        },
        |d| {
            let mut jobs: Vec<_> = d
                .chunks(MANY_LEN)
                .map(|m| blake2s_simd::many::HashManyJob::new(&s_peer, m))
                .collect();
            blake2s_simd::many::hash_many(jobs.iter_mut());
            jobs[MANY - 1].to_hash().as_bytes()[0]
        },
    );
}

criterion_group!(benches, oneshot, many);
criterion_main!(benches);
