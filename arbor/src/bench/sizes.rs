//! `arbor bench sizes`: throughput of every contestant from 64 B to 16 MiB, one thread and all
//! threads, written as Markdown, JSON and (with the `bench-peers` feature) an SVG plot.

use super::contestants::{self, Contestant};
use super::cpu;
use super::measure;
#[cfg(feature = "bench-peers")]
use super::plot::{self, Panel, Series};
use super::print;
use super::table::Table;
use clap::Args;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// A parser of sizes with units (see [`super::parse_size`]) from `min` to `max` bytes.
pub fn parse_size_in(min: u64, max: u64) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text| match super::parse_size(text)? {
        n if (min..=max).contains(&n) => Ok(n),
        n => Err(format!("{n} bytes is outside {min}..={max}")),
    }
}

/// Options of `arbor bench sizes`.
#[derive(Debug, Args)]
pub struct SizesArgs {
    /// Where to write sizes.md, sizes.json and sizes.svg (the plot with the bench-peers feature).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// The smallest message size, e.g. 64 or 4k; sizes grow 4x from it.
    #[arg(long, default_value = "64", value_parser = parse_size_in(1, u64::MAX))]
    pub min_size: u64,
    /// The largest message size, e.g. 16MiB (at most 1G).
    #[arg(long, default_value = "16MiB", value_parser = parse_size_in(1, 1 << 30))]
    pub max_size: u64,
    /// About how long one timed repetition lasts, in milliseconds.
    #[arg(long, default_value_t = 20)]
    pub time_ms: u64,
    /// Timed repetitions (after a warm-up); the median is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..100))]
    pub repetitions: u64,
    /// Threads for the all-threads run [default: all the CPU has].
    #[arg(long = "num-threads", alias = "threads", value_name = "NUM")]
    pub threads: Option<usize>,
    /// Only the hashes whose name (as --list prints them: "algorithm library backend")
    /// contains this text (case-insensitive; separate alternatives with commas).
    #[arg(long)]
    pub filter: Option<String>,
    /// Print the names --filter matches against, and measure nothing.
    #[arg(long)]
    pub list: bool,
    /// Measure nothing: rewrite sizes.md and sizes.svg under `--out` from this sizes.json.
    #[arg(long, value_name = "SIZES_JSON")]
    pub from_json: Option<PathBuf>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Row {
    name: String,
    implementation: String,
    backend: String,
    /// Median GB/s at each size, one thread.
    one_thread_gb_per_s: Vec<f64>,
    /// Median aggregate GB/s at each size, every thread hashing its own messages.
    all_threads_gb_per_s: Vec<f64>,
}

#[derive(Debug, Serialize, Deserialize)]
struct Report {
    cpu: String,
    features: Vec<String>,
    threads: usize,
    sizes: Vec<u64>,
    rows: Vec<Row>,
}

fn sizes(min: u64, max: u64) -> Vec<u64> {
    std::iter::successors(Some(min), |&s| s.checked_mul(4))
        .take_while(|&s| s <= max)
        .collect()
}

/// `64 B`, `4 KiB`, `16 MiB`.
pub fn size_name(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b.is_multiple_of(1 << 20) => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b.is_multiple_of(1 << 10) => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

fn markdown(report: &Report) -> String {
    let mut out = format!(
        "CPU: {}  \nfeatures: {}  \n",
        report.cpu,
        report.features.join(" ")
    );
    let headers: Vec<String> = ["contestant", "implementation", "backend"]
        .iter()
        .map(|s| s.to_string())
        .chain(report.sizes.iter().map(|&s| size_name(s)))
        .collect();
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let all_threads = format!("{} threads, each hashing its own messages", report.threads);
    for (title, all) in [("one thread", false), (all_threads.as_str(), true)] {
        out.push_str(&format!("\nGB/s, {title}:\n\n"));
        let mut t = Table::new(&headers);
        for r in &report.rows {
            let mut cells = vec![r.name.clone(), r.implementation.clone(), r.backend.clone()];
            let values = if all {
                &r.all_threads_gb_per_s
            } else {
                &r.one_thread_gb_per_s
            };
            cells.extend(values.iter().map(|v| format!("{v:.2}")));
            t.row(cells);
        }
        out.push_str(&t.to_markdown());
    }
    out
}

#[cfg(feature = "bench-peers")]
fn panels(report: &Report) -> Vec<Panel> {
    let series = |values: fn(&Row) -> &Vec<f64>| -> Vec<Series> {
        report
            .rows
            .iter()
            // NULL-NOP measures the call, not bytes: its "throughput" would only stretch the axis.
            .filter(|r| r.name != "NULL-NOP")
            .map(|r| Series {
                label: [r.name.as_str(), &r.implementation, &r.backend]
                    .into_iter()
                    .filter(|part| *part != "-")
                    .collect::<Vec<_>>()
                    .join(" "),
                points: report
                    .sizes
                    .iter()
                    .zip(values(r))
                    .map(|(&s, &v)| (s as f64, v))
                    .collect(),
            })
            .collect()
    };
    vec![
        Panel {
            title: "one thread".into(),
            series: series(|r| &r.one_thread_gb_per_s),
        },
        Panel {
            title: format!("{} threads", report.threads),
            series: series(|r| &r.all_threads_gb_per_s),
        },
    ]
}

/// Measures every size (or reads `--from-json`) and writes sizes.md, sizes.json and sizes.svg
/// under `--out`.
pub fn run(args: &SizesArgs) -> Result<(), String> {
    let report = match &args.from_json {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("reading {}: {e}", path.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => measure(args)?,
    };
    write(args, &report)
}

fn measure(args: &SizesArgs) -> Result<Report, String> {
    let sizes = sizes(args.min_size, args.max_size);
    if sizes.is_empty() {
        return Err("--min-size is larger than --max-size".into());
    }
    let contestants = contestants::matching(args.filter.as_deref())?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut rows: Vec<Row> = contestants
        .iter()
        .map(|c| Row {
            name: c.name.clone(),
            implementation: c.implementation.to_string(),
            backend: c.backend.clone(),
            one_thread_gb_per_s: Vec::new(),
            all_threads_gb_per_s: Vec::new(),
        })
        .collect();
    let target = Duration::from_millis(args.time_ms.max(1));
    let reps = args.repetitions as usize;
    for &size in &sizes {
        eprintln!("measuring {}", size_name(size));
        let size = size as usize;
        let runs: Vec<(&Contestant, u64)> = contestants
            .iter()
            .map(|c| (c, measure::calibrate(c, size, target)))
            .collect();
        // One thread: every row in turn, repetition by repetition (see `per_message`), so
        // that the machine's drift falls on all rows alike.
        let times = measure::per_message(&runs, size, reps);
        for ((row, m), &(c, iterations)) in rows.iter_mut().zip(times).zip(&runs) {
            row.one_thread_gb_per_s
                .push(size as f64 / m.nanos.median.max(1e-3));
            // All threads: each thread hashes its own copy of the workload, so one row at a
            // time.
            let t = measure::threaded_bytes_per_second(c, size, iterations, reps, threads);
            row.all_threads_gb_per_s.push(t.median / 1e9);
        }
    }
    Ok(Report {
        cpu: cpu::model(),
        features: cpu::features().into_iter().map(String::from).collect(),
        threads,
        sizes,
        rows,
    })
}

fn write(args: &SizesArgs, report: &Report) -> Result<(), String> {
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("creating {}: {e}", args.out.display()))?;
    let write = |name: &str, text: String| {
        let path = args.out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
        Ok::<_, String>(path)
    };
    let md = markdown(report);
    print(format_args!("{md}"));
    let mut written = vec![write("sizes.md", md)?];
    if args.from_json.is_none() {
        let json = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
        written.push(write("sizes.json", json + "\n")?);
    }
    #[cfg(feature = "bench-peers")]
    {
        let svg = args.out.join("sizes.svg");
        plot::write_svg(&svg, &panels(report))?;
        written.push(svg);
    }
    for path in &written {
        print(format_args!("wrote {}\n", path.display()));
    }
    Ok(())
}
