//! `arbor bench tree`: the tree-hash design lab. Each variant is a [`Layout`] (chunk size,
//! arity, chunk hash, parent hash) hashed with parents one by one or in SIMD batches, timed on
//! one input single- and multi-threaded, and compared with the standard layout (binary, 4 KiB
//! chunks, BLAKE2b, parents one by one). Without `--filter` or `--sweep`, a last row shows BLAKE3's
//! own tree (arborhash and the blake3 crate) for scale.

mod layout;
mod nodes;
#[cfg(test)]
mod reference;

use super::contestants::ours;
use super::cpu;
use super::measure::Summary;
use super::print;
use super::table::Table;
use clap::Args;
use layout::Layout;
use nodes::NodeHash;
use std::hint::black_box;
use std::time::Instant;

/// Options of `arbor bench tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// Bytes of input (filled with 0xff), e.g. 16MiB.
    #[arg(long, default_value = "16MiB", value_parser = |s: &str| super::parse_size(s).map(|n| n as usize))]
    pub size: usize,
    /// Threads of the multi-threaded runs [default: all the CPU has].
    #[arg(long = "num-threads", alias = "threads", value_name = "NUM", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Timed repetitions after a warm-up; the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..1000))]
    pub repetitions: u64,
    /// Every combination of chunk size (1, 4, 16, 64 KiB), arity (2, 4, 8), chunk hash and parent
    /// hash, instead of the reference table's variants.
    #[arg(long)]
    pub sweep: bool,
    /// Only variants whose name contains this text (case-insensitive; separate alternatives with
    /// commas). The standard layout is always measured, as the base of the ratios.
    #[arg(long)]
    pub filter: Option<String>,
}

/// A named layout; each is measured with parents one by one and batched.
struct Variant {
    name: String,
    layout: Layout,
}

/// The standard layout every ratio is relative to.
const STANDARD: Layout = Layout {
    chunk_size: 4096,
    arity: 2,
    chunk_hash: NodeHash::Blake2b,
    parent_hash: NodeHash::Blake2b,
};

fn variant(
    name: &str,
    chunk_kib: usize,
    arity: usize,
    chunk: NodeHash,
    parent: NodeHash,
) -> Variant {
    Variant {
        name: name.to_string(),
        layout: Layout {
            chunk_size: chunk_kib * 1024,
            arity,
            chunk_hash: chunk,
            parent_hash: parent,
        },
    }
}

/// The reference table's variants, then a few more points of the design space.
fn table_variants() -> Vec<Variant> {
    use NodeHash::*;
    vec![
        variant("BLAKE2b standard", 4, 2, Blake2b, Blake2b),
        variant("BLAKE2b 4-ary", 4, 4, Blake2b, Blake2b),
        variant("BLAKE2b 64 KiB chunks", 64, 2, Blake2b, Blake2b),
        variant("BLAKE2s", 4, 2, Blake2s, Blake2s),
        variant("hybrid BLAKE2b/BLAKE2s", 4, 2, Blake2b, Blake2s),
        variant("BLAKE2b 8-ary", 4, 8, Blake2b, Blake2b),
        variant("BLAKE2b 1 KiB chunks", 1, 2, Blake2b, Blake2b),
        variant("BLAKE2b 4-ary 64 KiB", 64, 4, Blake2b, Blake2b),
        variant("hybrid BLAKE2b/BLAKE3", 4, 2, Blake2b, Blake3),
        variant("BLAKE3 4 KiB chunks", 4, 2, Blake3, Blake3),
        variant("BLAKE3 1 KiB chunks", 1, 2, Blake3, Blake3),
    ]
}

fn sweep_variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for chunk_kib in [1, 4, 16, 64] {
        for arity in [2, 4, 8] {
            for chunk in NodeHash::ALL {
                for parent in NodeHash::ALL {
                    let name = format!(
                        "{}/{} {chunk_kib} KiB {arity}-ary",
                        chunk.name(),
                        parent.name()
                    );
                    out.push(variant(&name, chunk_kib, arity, chunk, parent));
                }
            }
        }
    }
    out
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("starting {threads} threads: {e}"))
}

/// Median seconds of one tree hash of `input` in `pool`, after a warm-up.
fn seconds(pool: &rayon::ThreadPool, f: &(dyn Fn() + Sync), repetitions: u64) -> Summary {
    pool.install(|| {
        f();
        let times: Vec<f64> = (0..repetitions)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64()
            })
            .collect();
        Summary::of(times)
    })
}

fn gib_per_s(bytes: usize, s: &Summary) -> f64 {
    bytes as f64 / s.median.max(1e-12) / (1u64 << 30) as f64
}

/// Runs the lab and prints one row per variant and parent strategy.
pub fn run(args: &TreeArgs) -> Result<(), String> {
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let mut variants = if args.sweep {
        sweep_variants()
    } else {
        table_variants()
    };
    if let Some(filter) = &args.filter {
        let needles: Vec<String> = filter.split(',').map(|n| n.trim().to_lowercase()).collect();
        variants.retain(|v| {
            let name = v.name.to_lowercase();
            needles.iter().any(|n| !n.is_empty() && name.contains(n))
        });
        if variants.is_empty() {
            return Err(format!("--filter {filter:?} matches no variant"));
        }
    }
    let input = vec![0xffu8; args.size];
    let pools = [pool(1)?, pool(threads)?];
    let time = |layout: Layout, batched: bool| -> [f64; 2] {
        let f = || {
            black_box(layout.hash(black_box(&input), batched));
        };
        pools
            .each_ref()
            .map(|p| gib_per_s(args.size, &seconds(p, &f, args.repetitions)))
    };
    let base = time(STANDARD, false);

    for line in cpu::header() {
        print(format_args!("{line}\n"));
    }
    print(format_args!(
        "input {} bytes of 0xff; median of {} runs after a warm-up; 32-byte CVs; chunks always \
         batched; ratios against BLAKE2b standard (binary, 4 KiB chunks), parents one by one\n\n",
        args.size, args.repetitions
    ));
    let mut t = Table::new(&[
        "variant",
        "chunk",
        "arity",
        "chunk hash",
        "parent hash",
        "parents",
        "1 thread GiB/s",
        "ratio",
        &format!("{threads} threads GiB/s"),
        "ratio",
    ]);
    for v in &variants {
        for batched in [false, true] {
            let speed = if v.layout == STANDARD && !batched {
                base
            } else {
                time(v.layout, batched)
            };
            t.row(vec![
                v.name.clone(),
                format!("{} KiB", v.layout.chunk_size / 1024),
                v.layout.arity.to_string(),
                v.layout.chunk_hash.name().into(),
                v.layout.parent_hash.name().into(),
                if batched { "batched" } else { "one by one" }.into(),
                format!("{:.3}", speed[0]),
                format!("{:.3}x", speed[0] / base[0]),
                format!("{:.3}", speed[1]),
                format!("{:.3}x", speed[1] / base[1]),
            ]);
        }
    }
    if args.filter.is_none() && !args.sweep {
        // BLAKE3's own tree (1 KiB chunks, binary, compression-function parents, SIMD across
        // chunks and parents), for scale, multi-threaded in the Hasher's rayon mode.
        let ours = || {
            black_box(
                ours::blake3::Hasher::new()
                    .update_rayon(black_box(&input))
                    .finalize(),
            );
        };
        let peer = || {
            black_box(
                blake3::Hasher::new()
                    .update_rayon(black_box(&input))
                    .finalize(),
            );
        };
        let rows: [(&str, &(dyn Fn() + Sync)); 2] = [
            ("BLAKE3 itself (arborhash)", &ours),
            ("BLAKE3 itself (blake3 crate)", &peer),
        ];
        for (name, f) in rows {
            let speed = pools
                .each_ref()
                .map(|p| gib_per_s(args.size, &seconds(p, f, args.repetitions)));
            t.row(vec![
                name.into(),
                "1 KiB".into(),
                "2".into(),
                "BLAKE3".into(),
                "BLAKE3".into(),
                "batched".into(),
                format!("{:.3}", speed[0]),
                format!("{:.3}x", speed[0] / base[0]),
                format!("{:.3}", speed[1]),
                format!("{:.3}x", speed[1] / base[1]),
            ]);
        }
    }
    print(format_args!("{}", t.to_text()));
    Ok(())
}
