//! BLAKE3: arborhash beside the `blake3` crate in one run. On a CPU with AVX-512 both use their
//! AVX-512 kernels; the `blake3_no_avx512` column is the crate built without them (version 0.3.8
//! with `no_avx512`, see Cargo.toml), which is what it runs on CPUs without AVX-512. Set
//! `ARBORHASH_BACKEND=avx2` to compare like with like there.
//!
//! Groups: `blake3/oneshot/N`, `blake3/incremental_W/1048576` (W-byte writes: 64, 1024, 16384;
//! `copy_only` is the cost of the writes' copy alone, see there),
//! `blake3/many_N/256` (256 messages of N bytes: `hash_many` against the crate one by one),
//! `blake3/rayon/N` (`update_rayon`), and `blake3/rayon_threshold/N` (ours, `update` against
//! `update_rayon`, to place the multi-threading threshold).

use arborhash::blake3 as ours;
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn input(len: usize) -> Vec<u8> {
    // Not zeros: lazily zeroed pages distort large measurements.
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

fn oneshot(c: &mut Criterion) {
    for len in [64, 1024, 2048, 4096, 8192, 16 * 1024, 1 << 20] {
        let data = input(len);
        let mut g = c.benchmark_group(format!("blake3/oneshot/{len}"));
        g.throughput(Throughput::Bytes(len as u64));
        g.bench_function("arborhash", |b| b.iter(|| ours::hash(black_box(&data))));
        g.bench_function("blake3", |b| b.iter(|| blake3::hash(black_box(&data))));
        g.bench_function("blake3_no_avx512", |b| {
            b.iter(|| blake3_no_avx512::hash(black_box(&data)))
        });
        g.finish();
    }
}

fn incremental(c: &mut Criterion) {
    let data = input(1 << 20);
    incremental_group::<64>(c, &data);
    incremental_group::<1024>(c, &data);
    incremental_group::<{ 16 * 1024 }>(c, &data);
}

/// `data` in `W`-byte writes: the size a constant, as in a caller writing records of a fixed
/// size (see `in_pieces`).
fn incremental_group<const W: usize>(c: &mut Criterion, data: &[u8]) {
    let mut g = c.benchmark_group(format!("blake3/incremental_{W}/{}", data.len()));
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_function("arborhash", |b| {
        b.iter(|| {
            let mut h = ours::Hasher::new();
            in_pieces(data, W, |piece| {
                h.update(piece);
            });
            h.finalize()
        })
    });
    g.bench_function("blake3", |b| {
        b.iter(|| {
            let mut h = blake3::Hasher::new();
            in_pieces(data, W, |piece| {
                h.update(piece);
            });
            h.finalize()
        })
    });
    g.bench_function("blake3_no_avx512", |b| {
        b.iter(|| {
            let mut h = blake3_no_avx512::Hasher::new();
            in_pieces(data, W, |piece| {
                h.update(piece);
            });
            h.finalize()
        })
    });
    // Not a hasher: the same writes copied into a 16 KiB buffer (our `Hasher`'s) and nothing
    // else, so that one-shot time / (one-shot + this) bounds what any buffering hasher can reach
    // against one-shot hashing.
    let mut buf = [0u8; 16 * 1024];
    g.bench_function("copy_only", |b| b.iter(|| copy_writes::<W>(data, &mut buf)));
    g.finish();
}

/// Feeds `data` to `update` in pieces of `write` bytes, the last one shorter if need be: the
/// same loop for ours and the peer, the pieces as `chunks_exact` gives them (it advances by a
/// constant), then the rest. Not `chunks`: it takes each piece's length as `min(write, rest)`, a
/// chain of three dependent instructions from one piece to the next, about 1.8 TSC cycles a piece
/// on Zen 5, which is 11 % of one-shot hashing's time for 1 MiB in 64-byte pieces spent by the
/// loop alone: no hasher fed that way could keep 0.9 of one-shot speed there. (Pieces cut by
/// their index, or the rest chained on as one more piece, measured as slow: LLVM then kept our
/// buffer's length in memory across the writes.) Called with a constant `write`, inlined.
#[inline(always)]
fn in_pieces(data: &[u8], write: usize, mut update: impl FnMut(&[u8])) {
    let mut pieces = data.chunks_exact(write);
    for piece in pieces.by_ref() {
        update(piece);
    }
    update(pieces.remainder());
}

/// Copies `data` in `W`-byte writes into `buf`, from its start again whenever it is full: fixed-size
/// moves, as a hasher's inlined small-write path makes them, not a `memcpy` call per write.
fn copy_writes<const W: usize>(data: &[u8], buf: &mut [u8; 16 * 1024]) {
    let mut len = 0;
    for piece in data.chunks_exact(W) {
        if len + W > buf.len() {
            black_box(&mut *buf);
            len = 0;
        }
        let piece: &[u8; W] = piece.try_into().unwrap();
        buf[len..len + W].copy_from_slice(piece);
        len += W;
    }
    black_box(&*buf);
}

fn many(c: &mut Criterion) {
    const COUNT: usize = 256;
    for len in [1024, 4096] {
        let data = input(len * COUNT);
        let messages: Vec<&[u8]> = data.chunks(len).collect();
        let mut g = c.benchmark_group(format!("blake3/many_{len}/{COUNT}"));
        g.throughput(Throughput::Bytes(data.len() as u64));
        let mut out = vec![ours::Hash::from_bytes([0; 32]); COUNT];
        g.bench_function("arborhash", |b| {
            b.iter(|| ours::many::hash_many(black_box(&messages), &mut out))
        });
        g.bench_function("arborhash_one_by_one", |b| {
            b.iter(|| {
                for (m, o) in messages.iter().zip(out.iter_mut()) {
                    *o = ours::hash(black_box(m));
                }
            })
        });
        let mut theirs = vec![blake3::Hash::from_bytes([0; 32]); COUNT];
        g.bench_function("blake3", |b| {
            b.iter(|| {
                for (m, o) in messages.iter().zip(theirs.iter_mut()) {
                    *o = blake3::hash(black_box(m));
                }
            })
        });
        let mut theirs = vec![blake3_no_avx512::Hash::from([0; 32]); COUNT];
        g.bench_function("blake3_no_avx512", |b| {
            b.iter(|| {
                for (m, o) in messages.iter().zip(theirs.iter_mut()) {
                    *o = blake3_no_avx512::hash(black_box(m));
                }
            })
        });
        g.finish();
    }
}

fn rayon(c: &mut Criterion) {
    for len in [16 << 20, 256 << 20] {
        let data = input(len);
        let mut g = c.benchmark_group(format!("blake3/rayon/{len}"));
        g.throughput(Throughput::Bytes(len as u64));
        g.sample_size(10);
        g.bench_function("arborhash", |b| {
            b.iter(|| {
                ours::Hasher::new()
                    .update_rayon(black_box(&data))
                    .finalize()
            })
        });
        g.bench_function("blake3", |b| {
            b.iter(|| {
                blake3::Hasher::new()
                    .update_rayon(black_box(&data))
                    .finalize()
            })
        });
        g.finish();
    }
    let data = input(1 << 20);
    for len in [64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20] {
        let mut g = c.benchmark_group("blake3/rayon_threshold");
        g.throughput(Throughput::Bytes(len as u64));
        let data = &data[..len];
        g.bench_with_input(BenchmarkId::new("update", len), data, |b, d| {
            b.iter(|| ours::Hasher::new().update(d).finalize())
        });
        g.bench_with_input(BenchmarkId::new("update_rayon", len), data, |b, d| {
            b.iter(|| ours::Hasher::new().update_rayon(d).finalize())
        });
        g.bench_with_input(
            BenchmarkId::new("blake3_update_rayon", len),
            data,
            |b, d| b.iter(|| blake3::Hasher::new().update_rayon(d).finalize()),
        );
        g.finish();
    }
}

criterion_group!(benches, oneshot, incremental, many, rayon);
criterion_main!(benches);
