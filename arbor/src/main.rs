//! The `arbor` command: checksum files (`arbor sum`) and benchmark hashes (`arbor bench`).

mod bench;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "arbor", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Benchmark our hashes beside the reference crates.
    #[command(subcommand)]
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Bench(args) => match bench::run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("arbor bench: {message}");
                ExitCode::FAILURE
            }
        },
    }
}
