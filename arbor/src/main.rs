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
use std::io::IsTerminal;
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
        _ => match parse(args).command {
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

/// Parses arbor's command line. Help and version go out as hash lines do (clap would ignore a
/// failed write and exit 0); usage errors go to standard error as clap prints them.
fn parse(args: Vec<OsString>) -> Cli {
    match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            let rendered = e.render();
            let text = if std::io::stdout().is_terminal() {
                rendered.ansi().to_string()
            } else {
                rendered.to_string()
            };
            let _ = sum::output::print_text(sum::Tool::Arbor, "arbor", text.as_bytes());
            std::process::exit(e.exit_code())
        }
        Err(e) => e.exit(),
    }
}
