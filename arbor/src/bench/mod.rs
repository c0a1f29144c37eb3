//! `arbor bench`: measure our hashes beside the reference crates and simple baselines.
//!
//! - `speedtest`: one buffer hashed N times per contestant, timed with the CPU's time-stamp
//!   counter, like the btrfs `hash-speedtest` tool;
//! - `sizes`: throughput from 64 B to 16 MiB, one thread and all threads, written as Markdown,
//!   JSON and an SVG plot;
//! - `pairs`: each of our rows against each peer of the same algorithm, called in turn, call by
//!   call: the ratio that holds for a typical call on a shared machine;
//! - `tree`: the tree-hash design lab (chunk size, arity, chunk and parent hash, batched parents).
//!
//! The peers, the SVG plot and the tree lab come with the `bench-peers` feature; without it the
//! subcommands measure our hashes alone. The single entry point is [`run`].

mod contestants;
mod cpu;
mod measure;
mod pairs;
#[cfg(feature = "bench-peers")]
mod plot;
mod sizes;
mod speedtest;
mod table;
#[cfg(feature = "bench-peers")]
mod tree;

use clap::Subcommand;

/// The `arbor bench` subcommands. Each compares arborhash's hashes with other Rust libraries
/// (blake3, blake2b_simd, blake2s_simd, sha2, xxhash-rust, crc32c) on this machine, if arbor was
/// built with the `bench-peers` feature; `--list` shows the names `--filter` picks from.
#[derive(Debug, Subcommand)]
pub enum BenchArgs {
    /// Hash one buffer many times with each hash and print cycles per byte and MB/s (about 10
    /// seconds with the defaults).
    Speedtest(speedtest::SpeedtestArgs),
    /// Speed from 64 B to 16 MiB messages, on one thread and on all threads; writes sizes.md,
    /// sizes.json and sizes.svg (a few minutes with the defaults).
    Sizes(sizes::SizesArgs),
    /// arborhash against the other library for the same algorithm, calls alternating, at
    /// several sizes: how much faster or slower a typical call is (about 1 second per pair and
    /// size, some minutes in all; narrow it with --filter).
    Pairs(pairs::PairsArgs),
    /// Compare tree-hash layouts for a BLAKE3-like tree: chunk size, arity, chunk and parent
    /// hash (under a minute with the defaults).
    #[cfg(feature = "bench-peers")]
    Tree(tree::TreeArgs),
    /// Compare tree-hash layouts for a BLAKE3-like tree (needs arbor built with the
    /// `bench-peers` feature).
    #[cfg(not(feature = "bench-peers"))]
    Tree(NoTreeLab),
}

/// The arguments of `arbor bench tree` in a build without the lab, accepted so that the error
/// says what the build lacks.
#[cfg(not(feature = "bench-peers"))]
#[derive(Debug, clap::Args)]
pub struct NoTreeLab {
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<std::ffi::OsString>,
}

/// A size in bytes with an optional unit: `4096`, `4k`, `4KiB`, `16M`, `16MiB`, `1G` (units
/// are powers of 1024).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a size such as 4096, 4k or 16MiB"))?;
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => {
            return Err(format!(
                "unknown unit {unit:?}: use k, M or G (KiB, MiB, GiB)"
            ))
        }
    };
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{text} is too large"))
}

/// Writes to standard output under the rules of hash output: a failed write is reported and
/// exits 1, a closed pipe ends the program quietly (where `print!` would panic).
pub(crate) fn print(text: std::fmt::Arguments<'_>) {
    let mut out = crate::sum::output::Reporter::new(crate::sum::Tool::Arbor, "arbor bench".into());
    out.put(text.to_string().as_bytes());
    out.flush();
}

/// Prints what `--filter` can match, one name a line (`--list`).
fn list(labels: impl IntoIterator<Item = String>) -> Result<(), String> {
    for label in labels {
        print(format_args!("{label}\n"));
    }
    Ok(())
}

/// What a build without the `bench-peers` feature says before it measures.
#[cfg(not(feature = "bench-peers"))]
const OURS_ONLY: &str = "arbor bench: arborhash only; the other libraries, the SVG plot and the \
    tree lab need arbor built with --features bench-peers";

/// Runs one `arbor bench` subcommand; an error is a message for the user.
pub fn run(args: BenchArgs) -> Result<(), String> {
    #[cfg(not(feature = "bench-peers"))]
    if !matches!(args, BenchArgs::Tree(_)) {
        eprintln!("{OURS_ONLY}");
    }
    match args {
        BenchArgs::Speedtest(a) if a.list => list(contestants::all().iter().map(|c| c.label())),
        BenchArgs::Sizes(a) if a.list => list(contestants::all().iter().map(|c| c.label())),
        BenchArgs::Pairs(a) if a.list => list(
            contestants::pairs()
                .iter()
                .map(|(ours, peer)| format!("{} vs {}", ours.label(), peer.label())),
        ),
        BenchArgs::Speedtest(a) => speedtest::run(&a),
        BenchArgs::Sizes(a) => sizes::run(&a),
        BenchArgs::Pairs(a) => pairs::run(&a),
        #[cfg(feature = "bench-peers")]
        BenchArgs::Tree(a) => tree::run(&a),
        #[cfg(not(feature = "bench-peers"))]
        BenchArgs::Tree(_) => {
            Err("the tree lab needs arbor built with --features bench-peers".into())
        }
    }
}
