//! `arbor bench speedtest`: one buffer hashed N times per contestant, like btrfs `hash-speedtest`.

use super::contestants;
use super::cpu;
use super::measure::{self, PerMessage};
use super::print;
use super::table::Table;
use clap::Args;
use serde::Serialize;

/// Options of `arbor bench speedtest`.
#[derive(Debug, Args)]
pub struct SpeedtestArgs {
    /// Bytes per message, e.g. 4096, 4k or 1MiB (at most 64MiB, as a batch row holds
    /// several messages).
    #[arg(long, default_value = "4096", value_parser = |s: &str| super::sizes::parse_size_in(1, 1 << 26)(s).map(|n| n as usize))]
    pub size: usize,
    /// Calls per repetition (a call of a batch hash, "xN", hashes N messages).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Timed repetitions after a warm-up, each running every hash once in turn (so that a
    /// change of machine load falls on all alike); the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..1000))]
    pub repetitions: u64,
    /// Only the hashes whose name (as --list prints them: "algorithm library backend")
    /// contains this text (case-insensitive; separate alternatives with commas).
    #[arg(long)]
    pub filter: Option<String>,
    /// Print the names --filter matches against, and measure nothing.
    #[arg(long)]
    pub list: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// One row of the report.
#[derive(Debug, Serialize)]
struct Row {
    name: String,
    implementation: &'static str,
    backend: String,
    group: String,
    /// Messages per call (1, or the batch size).
    messages_per_call: usize,
    cycles_per_iteration: Option<measure::Summary>,
    cycles_per_byte: Option<f64>,
    nanos_per_iteration: measure::Summary,
    mb_per_s: f64,
    spread_percent: f64,
}

#[derive(Debug, Serialize)]
struct Report {
    cpu: String,
    features: Vec<&'static str>,
    size: usize,
    iterations: u64,
    repetitions: u64,
    rows: Vec<Row>,
}

fn row(c: &contestants::Contestant, size: usize, m: PerMessage) -> Row {
    let spread = m.cycles.unwrap_or(m.nanos).spread_percent();
    Row {
        name: c.name.clone(),
        implementation: c.implementation,
        backend: c.backend.clone(),
        group: format!("{:?}", c.group).to_lowercase(),
        messages_per_call: c.messages_per_call(),
        cycles_per_iteration: m.cycles,
        cycles_per_byte: m.cycles.map(|s| s.median / size.max(1) as f64),
        nanos_per_iteration: m.nanos,
        mb_per_s: size as f64 / m.nanos.median.max(1e-3) * 1e3,
        spread_percent: spread,
    }
}

fn text(report: &Report) -> String {
    let mut out = String::new();
    for line in cpu::header() {
        out.push_str(&line);
        out.push('\n');
    }
    let unit = if measure::has_cycle_counter() {
        "time-stamp counter cycles"
    } else {
        "no cycle counter: cycles not available"
    };
    out.push_str(&format!(
        "size {} B, {} iterations, median of {} interleaved repetitions after a warm-up; {unit}; \
         batch rows (xN) are per message\n\n",
        report.size, report.iterations, report.repetitions
    ));
    let mut t = Table::new(&[
        "contestant",
        "implementation",
        "backend",
        "cycles/iter",
        "cycles/byte",
        "MB/s",
        "spread",
    ]);
    for r in &report.rows {
        t.row(vec![
            r.name.clone(),
            r.implementation.to_string(),
            r.backend.clone(),
            r.cycles_per_iteration
                .map_or("-".into(), |c| format!("{:.0}", c.median)),
            r.cycles_per_byte.map_or("-".into(), |c| format!("{c:.2}")),
            // A run disturbed by other processes can fall below 1 MB/s on tiny inputs; print
            // it rather than a misleading 0.
            if r.mb_per_s < 10.0 {
                format!("{:.2}", r.mb_per_s)
            } else {
                format!("{:.0}", r.mb_per_s)
            },
            format!("{:.1}%", r.spread_percent),
        ]);
    }
    out.push_str(&t.to_text());
    out
}

/// Runs the speed test and prints the table or JSON.
pub fn run(args: &SpeedtestArgs) -> Result<(), String> {
    let rows = contestants::matching(args.filter.as_deref())?;
    let runs: Vec<_> = rows.iter().map(|c| (c, args.iterations)).collect();
    let times = measure::per_message(&runs, args.size, args.repetitions as usize);
    let rows = rows
        .iter()
        .zip(times)
        .map(|(c, m)| row(c, args.size, m))
        .collect();
    let report = Report {
        cpu: cpu::model(),
        features: cpu::features(),
        size: args.size,
        iterations: args.iterations,
        repetitions: args.repetitions,
        rows,
    };
    if args.json {
        let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        print(format_args!("{json}\n"));
    } else {
        print(format_args!("{}", text(&report)));
    }
    Ok(())
}
