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
//! The single entry point is [`run`].

mod contestants;
mod cpu;
mod measure;
mod pairs;
mod plot;
mod sizes;
mod speedtest;
mod table;
mod tree;

use clap::Subcommand;

/// The `arbor bench` subcommands.
#[derive(Debug, Subcommand)]
pub enum BenchArgs {
    /// Hash one buffer N times per contestant and print cycles per iteration, cycles per byte and
    /// MB/s.
    Speedtest(speedtest::SpeedtestArgs),
    /// Throughput from 64 B to 16 MiB, one thread and all threads; writes sizes.md, sizes.json
    /// and sizes.svg.
    Sizes(sizes::SizesArgs),
    /// Each of our rows against each peer of the same algorithm, calls in turn: median and
    /// fastest-call ratios per size.
    Pairs(pairs::PairsArgs),
    /// Compare tree-hash layouts: chunk size, arity, chunk and parent hash, batched parents.
    Tree(tree::TreeArgs),
}

/// Runs one `arbor bench` subcommand; an error is a message for the user.
pub fn run(args: BenchArgs) -> Result<(), String> {
    match args {
        BenchArgs::Speedtest(a) => speedtest::run(&a),
        BenchArgs::Sizes(a) => sizes::run(&a),
        BenchArgs::Pairs(a) => pairs::run(&a),
        BenchArgs::Tree(a) => tree::run(&a),
    }
}
