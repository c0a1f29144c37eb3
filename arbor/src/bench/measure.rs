//! Timing a contestant: the time-stamp counter, warm-up, repetitions, median and spread.

use super::contestants::{Contestant, Kernel};
use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Reads the time-stamp counter, ordered against the code around it: the first `lfence` waits
/// for earlier instructions to finish, the second keeps later ones from starting before the read.
#[cfg(target_arch = "x86_64")]
fn ticks() -> Option<u64> {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};
    // SAFETY: `lfence` (SSE2) and `rdtsc` are part of every x86-64 CPU and touch no memory.
    Some(unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> Option<u64> {
    None
}

/// Whether times are in time-stamp counter cycles (else only nanoseconds are reported).
pub fn has_cycle_counter() -> bool {
    ticks().is_some()
}

/// One timed run.
#[derive(Clone, Copy, Debug)]
struct Sample {
    cycles: Option<u64>,
    nanos: u64,
}

/// The messages a contestant hashes per call: one buffer, or [`super::contestants::BATCH`]
/// independent buffers of the same size for batch rows.
pub struct Workload {
    buffer: Vec<u8>,
    size: usize,
    count: usize,
}

impl Workload {
    /// Enough bytes for `messages` messages of `size` bytes, filled with a fixed non-zero pattern
    /// (zeroed pages can be lazily mapped and distort timings).
    pub fn new(size: usize, messages: usize) -> Workload {
        let buffer = (0..size * messages)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(7))
            .collect();
        Workload {
            buffer,
            size,
            count: messages,
        }
    }

    fn messages(&self) -> Vec<&[u8]> {
        (0..self.count)
            .map(|i| &self.buffer[i * self.size..(i + 1) * self.size])
            .collect()
    }
}

/// Calls the contestant's kernel `iterations` times on the first messages of `workload` (as many
/// as one call takes) and times the loop.
fn time_loop(c: &Contestant, workload: &Workload, iterations: u64) -> Sample {
    let messages = workload.messages();
    let kernel = &c.kernel;
    let one = messages[0];
    let messages = &messages[..c.messages_per_call()];
    c.with_backend(|| {
        let start_instant = Instant::now();
        let start = ticks();
        let mut acc = 0u64;
        for _ in 0..iterations {
            acc ^= match kernel {
                Kernel::One(f) => f(black_box(one)),
                Kernel::Many(f) => f(black_box(messages)),
            };
        }
        let end = ticks();
        let nanos = start_instant.elapsed().as_nanos() as u64;
        black_box(acc);
        Sample {
            cycles: start.zip(end).map(|(s, e)| e.wrapping_sub(s)),
            nanos,
        }
    })
}

/// Median, minimum and maximum of repeated measurements.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Summary {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// The summary of some measurements (at least one).
    pub fn of(mut values: Vec<f64>) -> Summary {
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let median = if n % 2 == 1 {
            values[n / 2]
        } else {
            (values[n / 2 - 1] + values[n / 2]) / 2.0
        };
        Summary {
            median,
            min: values[0],
            max: values[n - 1],
        }
    }

    /// (max - min) / median, in percent.
    pub fn spread_percent(&self) -> f64 {
        if self.median > 0.0 {
            (self.max - self.min) / self.median * 100.0
        } else {
            0.0
        }
    }
}

/// The time per message of one contestant at one size.
#[derive(Clone, Copy, Debug)]
pub struct PerMessage {
    /// Time-stamp counter cycles per message, where there is a counter.
    pub cycles: Option<Summary>,
    /// Nanoseconds per message.
    pub nanos: Summary,
}

/// The time per message of each contestant at one size, `runs` pairing a contestant with its
/// calls per repetition: one warm-up run each, then `repetitions` rounds in which every
/// contestant runs once, in turn, on the calling thread. Interleaved so that the machine's drift
/// (clock speed, other processes) falls on every row alike rather than on whichever ran during a
/// slow spell, and the ratios between rows stay fair.
pub fn per_message(
    runs: &[(&Contestant, u64)],
    size: usize,
    repetitions: usize,
) -> Vec<PerMessage> {
    // One workload for every row: a single-message row hashes its first message. Rows of 16 MiB
    // batches would not fit in memory together if each had its own.
    let messages = runs.iter().map(|(c, _)| c.messages_per_call()).max();
    let workload = Workload::new(size, messages.unwrap_or(1));
    for (c, iterations) in runs {
        time_loop(c, &workload, iterations.div_ceil(10).max(1));
    }
    let mut samples = vec![Vec::new(); runs.len()];
    for _ in 0..repetitions.max(1) {
        for ((c, iterations), samples) in runs.iter().zip(&mut samples) {
            samples.push(time_loop(c, &workload, *iterations));
        }
    }
    runs.iter()
        .zip(samples)
        .map(|((c, iterations), samples)| {
            let per = (iterations * c.messages_per_call() as u64) as f64;
            let cycles = samples
                .iter()
                .map(|s| s.cycles.map(|v| v as f64 / per))
                .collect::<Option<Vec<f64>>>()
                .map(Summary::of);
            PerMessage {
                cycles,
                nanos: Summary::of(samples.iter().map(|s| s.nanos as f64 / per).collect()),
            }
        })
        .collect()
}

/// How many calls make one repetition last about `target`: doubles from one call until a run
/// takes a tenth of it, then scales.
pub fn calibrate(c: &Contestant, size: usize, target: Duration) -> u64 {
    calibrate_on(c, &Workload::new(size, c.messages_per_call()), target)
}

fn calibrate_on(c: &Contestant, workload: &Workload, target: Duration) -> u64 {
    // An untimed first call, and the faster of two runs at each step: a first call may fault in
    // fresh stack pages (our 26 KiB BLAKE3 `Hasher`) and a run may be interrupted, and one run
    // of a tenth of the target ended the doubling at one call. Our 64-byte `Hasher` rows were
    // then timed one call at a time against the crate's hundreds, the timer's own cost included
    // (`bench pairs`: 0.63-0.77 of the crate's `Hasher` at 64 B, 436 621 pairs a second).
    time_loop(c, workload, 1);
    let mut iterations = 1u64;
    loop {
        let run = || time_loop(c, workload, iterations).nanos;
        let nanos = run().min(run()).max(1);
        if nanos * 10 >= target.as_nanos() as u64 || iterations >= 1 << 40 {
            let scaled = iterations as u128 * target.as_nanos() / nanos as u128;
            return (scaled as u64).max(1);
        }
        iterations *= 2;
    }
}

/// Bytes per second of `threads` threads each hashing its own copy of the workload `iterations`
/// times at once (aggregate throughput of independent messages), median of `repetitions`.
///
/// The run lasts from the first thread's start to the last one's end, as the threads see it (the
/// calling thread may be scheduled late on a busy machine, so it does not hold the clock).
pub fn threaded_bytes_per_second(
    c: &Contestant,
    size: usize,
    iterations: u64,
    repetitions: usize,
    threads: usize,
) -> Summary {
    let runs = (0..repetitions.max(1))
        .map(|_| {
            let start = Barrier::new(threads);
            let spans: Vec<(Instant, Instant)> = std::thread::scope(|s| {
                let workers: Vec<_> = (0..threads)
                    .map(|_| {
                        s.spawn(|| {
                            let workload = Workload::new(size, c.messages_per_call());
                            time_loop(c, &workload, 1);
                            start.wait();
                            let begin = Instant::now();
                            time_loop(c, &workload, iterations);
                            (begin, Instant::now())
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .map(|w| w.join().expect("a benchmark thread panicked"))
                    .collect()
            });
            let begin = spans
                .iter()
                .map(|s| s.0)
                .min()
                .expect("at least one thread");
            let end = spans
                .iter()
                .map(|s| s.1)
                .max()
                .expect("at least one thread");
            let nanos = (end - begin).as_nanos().max(1) as f64;
            let bytes =
                (threads as u64 * iterations * c.messages_per_call() as u64) as f64 * size as f64;
            bytes / nanos * 1e9
        })
        .collect();
    Summary::of(runs)
}

/// How much faster one contestant is than another, from calls of the two in turn.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Ratio {
    /// The median over pairs of calls made one right after the other of the second row's time
    /// per message over the first's. Each pair shares the machine's state of the moment (clock
    /// speed, other processes, cache contents), so the median follows the typical call.
    pub median: f64,
    /// The second row's fastest call over the first's: what best-of-N benchmarks report. On a
    /// shared machine most calls are slower than the fastest, and not every implementation
    /// slows down alike, so this can differ from the median.
    pub fastest: f64,
    /// The pairs of calls timed.
    pub pairs: usize,
}

/// About how long one timed call of a pair lasts: long enough for the timer's own cost not to
/// count, short enough for the machine to stay the same within a pair.
const PAIR_CALL: Duration = Duration::from_micros(50);

/// `b`'s time per message over `a`'s (above 1 when `a` is faster), from timed calls of `a` and
/// `b` in turn for about `duration`, on the same messages. Which of the two goes first
/// alternates from pair to pair, so neither always finds the other's cache contents.
pub fn alternating(a: &Contestant, b: &Contestant, size: usize, duration: Duration) -> Ratio {
    let messages = a.messages_per_call().max(b.messages_per_call());
    let workload = Workload::new(size, messages);
    let calls = [a, b].map(|c| calibrate_on(c, &workload, PAIR_CALL));
    let per_message = |c: &Contestant, s: Sample, calls: u64| {
        let t = s.cycles.map_or(s.nanos as f64, |c| c as f64);
        t / (calls * c.messages_per_call() as u64) as f64
    };
    let mut ratios = Vec::new();
    let mut fastest = [f64::INFINITY; 2];
    let start = Instant::now();
    while ratios.len() < 3 || start.elapsed() < duration {
        let (ta, tb) = if ratios.len() % 2 == 0 {
            let ta = time_loop(a, &workload, calls[0]);
            (ta, time_loop(b, &workload, calls[1]))
        } else {
            let tb = time_loop(b, &workload, calls[1]);
            (time_loop(a, &workload, calls[0]), tb)
        };
        let t = [per_message(a, ta, calls[0]), per_message(b, tb, calls[1])];
        fastest = [fastest[0].min(t[0]), fastest[1].min(t[1])];
        ratios.push(t[1] / t[0].max(f64::MIN_POSITIVE));
    }
    Ratio {
        pairs: ratios.len(),
        median: Summary::of(ratios).median,
        fastest: fastest[1] / fastest[0].max(f64::MIN_POSITIVE),
    }
}
