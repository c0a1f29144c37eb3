//! The `arbor` command: checksum files (`arbor sum`) and benchmark hashes (`arbor bench`).
//!
//! Invoked through a link named `b3sum` or `b2sum`, it is a drop-in for that tool.

mod bao;
mod bench;
mod generate;
mod mapped;
mod sum;

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "arbor", version, about = "Checksum files and benchmark hashes")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print or check checksums (BLAKE3, BLAKE2, Tillich-Zémor).
    Sum(sum::args::SumArgs),
    /// Benchmark our hashes beside the reference crates.
    #[command(subcommand)]
    Bench(bench::BenchArgs),
    /// Print shell completions for arbor: bash, zsh, fish, elvish or powershell.
    Completions(generate::CompletionsArgs),
    /// Print arbor's manual page (roff), e.g. `arbor man > arbor.1`.
    Man,
    /// Bao verified streaming: encode, decode and slice, with chunk groups.
    Bao(bao::BaoArgs),
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let program = args
        .first()
        .and_then(|arg0| Path::new(arg0).file_stem())
        .and_then(|stem| stem.to_str());
    match program {
        Some("b3sum") => sum::dropin::b3sum(args),
        Some("b2sum") => sum::dropin::b2sum(args),
        _ => match Cli::parse_from(args).command {
            Command::Sum(sum_args) => sum::run(sum_args.into_settings()),
            Command::Completions(args) => generate::completions::<Cli>(args),
            Command::Man => generate::man::<Cli>(),
            Command::Bao(bao_args) => bao::run(bao_args),
            Command::Bench(bench_args) => match bench::run(bench_args) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("arbor bench: {message}");
                    ExitCode::FAILURE
                }
            },
        },
    }
}
