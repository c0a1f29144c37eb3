//! `arbor bench pairs`: each of our rows against each peer of the same algorithm, called in turn,
//! call by call, at several sizes.
//!
//! On a shared machine most calls run slower than the fastest one, and two implementations need
//! not slow down alike; so the figure reported is the median over pairs of calls of the peer's
//! time over ours, with the ratio of the fastest calls beside it. Our incremental-writes rows
//! also meet our one-shot hash (see `contestants::pairs`).

use super::contestants::{self, Contestant};
use super::cpu;
use super::measure::{self, Ratio};
use super::print;
use super::sizes;
use super::table::Table;
use clap::Args;
use serde::Serialize;
use std::time::Duration;

/// Options of `arbor bench pairs`.
#[derive(Debug, Args)]
pub struct PairsArgs {
    /// Message sizes, comma-separated, with units if you like: 64,4k,1MiB (each at most 1G).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "64,1k,4k,16k,64k,256k,1M,16M",
        value_parser = |s: &str| match super::parse_size(s)? {
            n if (1..=1 << 30).contains(&n) => Ok(n),
            n => Err(format!("{n} bytes is outside 1..=1G")),
        }
    )]
    pub sizes: Vec<u64>,
    /// Seconds of alternating calls per pair and size.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Only the pairs whose name (as --list prints them: "arborhash's hash vs the other
    /// library's") contains this text (case-insensitive; separate alternatives with commas).
    #[arg(long)]
    pub filter: Option<String>,
    /// Print the names --filter matches against, and measure nothing.
    #[arg(long)]
    pub list: bool,
    /// Print the table as Markdown.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Serialize)]
struct Row {
    name: String,
    ours_backend: String,
    peer: String,
    peer_backend: String,
    /// The peer's time over ours at each size: above 1 where ours is faster.
    peer_over_ours: Vec<Ratio>,
}

#[derive(Debug, Serialize)]
struct Report {
    cpu: String,
    features: Vec<&'static str>,
    seconds: f64,
    sizes: Vec<u64>,
    rows: Vec<Row>,
}

fn label(ours: &Contestant, peer: &Contestant) -> String {
    format!("{} vs {}", ours.label(), peer.label())
}

fn measure(args: &PairsArgs) -> Result<Report, String> {
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err(format!(
            "--seconds {} is not between 0 and 3600",
            args.seconds
        ));
    }
    let pairs: Vec<(Contestant, Contestant)> = contestants::pairs()
        .into_iter()
        .filter(|(o, p)| contestants::filter_matches(args.filter.as_deref(), &label(o, p)))
        .collect();
    if pairs.is_empty() {
        return Err(format!(
            "--filter {:?} matches no pair",
            args.filter.as_deref().unwrap_or_default()
        ));
    }
    let duration = Duration::from_secs_f64(args.seconds);
    let rows = pairs
        .iter()
        .map(|(ours, peer)| {
            eprintln!("measuring {}", label(ours, peer));
            Row {
                name: ours.name.clone(),
                ours_backend: ours.backend.clone(),
                peer: peer.implementation.to_string(),
                peer_backend: peer.backend.clone(),
                peer_over_ours: args
                    .sizes
                    .iter()
                    .map(|&size| measure::alternating(ours, peer, size as usize, duration))
                    .collect(),
            }
        })
        .collect();
    Ok(Report {
        cpu: cpu::model(),
        features: cpu::features(),
        seconds: args.seconds,
        sizes: args.sizes.clone(),
        rows,
    })
}

fn table(report: &Report) -> Table {
    let sizes: Vec<String> = report.sizes.iter().map(|&s| sizes::size_name(s)).collect();
    let mut headers = vec!["algorithm", "ours", "peer", "peer backend"];
    headers.extend(sizes.iter().map(String::as_str));
    let mut t = Table::new(&headers);
    for r in &report.rows {
        let mut cells = vec![
            r.name.clone(),
            r.ours_backend.clone(),
            r.peer.clone(),
            r.peer_backend.clone(),
        ];
        cells.extend(
            r.peer_over_ours
                .iter()
                .map(|x| format!("{:.2} ({:.2})", x.median, x.fastest)),
        );
        t.row(cells);
    }
    t
}

/// Measures every pair and prints the table (or Markdown, or JSON).
pub fn run(args: &PairsArgs) -> Result<(), String> {
    let report = measure(args)?;
    if args.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        print(format_args!("{json}\n"));
        return Ok(());
    }
    let header = format!(
        "peer time / our time per message: median of {} s of calls in turn (fastest calls' \
         ratio in brackets); above 1 where ours is faster. Where the peer is arborhash, the \
         writes row is set against our one-shot hash: the fraction of its speed kept",
        report.seconds
    );
    // Markdown's line breaks within a paragraph need two trailing spaces.
    let newline = if args.markdown { "  \n" } else { "\n" };
    for line in cpu::header() {
        print(format_args!("{line}{newline}"));
    }
    print(format_args!("{header}\n\n"));
    let t = table(&report);
    print(format_args!(
        "{}",
        if args.markdown {
            t.to_markdown()
        } else {
            t.to_text()
        }
    ));
    Ok(())
}
