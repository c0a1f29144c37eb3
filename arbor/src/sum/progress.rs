//! A progress bar on standard error for long runs: bytes, speed and time left. It appears only
//! when standard error is a terminal and the work has already taken a second, so short runs and
//! pipelines never see it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const DELAY: Duration = Duration::from_secs(1);

/// Counts hashed bytes from any thread.
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    shown: AtomicBool,
}

impl Progress {
    /// A progress bar for `total` bytes, drawn only if `wanted` and standard error is a terminal.
    pub fn new(total: u64, wanted: bool) -> Progress {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {eta} left",
                )
                .expect("the progress template is valid"),
            );
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// A progress counter that never draws.
    pub fn none() -> Progress {
        Progress::new(0, false)
    }

    /// Records `bytes` more hashed.
    pub fn advance(&self, bytes: u64) {
        let Some(bar) = &self.bar else { return };
        bar.inc(bytes);
        if !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= DELAY
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Runs `write` with the bar taken off the screen, so that output lines do not mix with it.
    pub fn suspend<R>(&self, write: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }

    /// Removes the bar before the final messages.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
