//! A progress bar on standard error for long runs: bytes, speed and time left (only bytes and
//! speed when the size is unknown: pipes, FIFOs, standard input). It exists only when standard
//! error is a terminal and `--no-progress` is not given, and appears only once the work has taken
//! a second, so short runs and pipelines never see it and their output stays byte for byte the
//! same.

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
    /// A progress bar for `total()` bytes (`None`: unknown) if `wanted` and standard error is a
    /// terminal. `total` usually stats every input, so it is called only then.
    pub fn new(wanted: bool, total: impl FnOnce() -> Option<u64>) -> Progress {
        Progress::drawn_if(wanted && std::io::stderr().is_terminal(), total)
    }

    fn drawn_if(terminal: bool, total: impl FnOnce() -> Option<u64>) -> Progress {
        let bar = terminal.then(|| {
            let total = total();
            // Hidden until the delay has passed (see `advance`).
            let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
            let template = match total {
                Some(_) => "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {eta} left",
                None => "{spinner} {bytes} {binary_bytes_per_sec}",
            };
            bar.set_style(
                ProgressStyle::with_template(template).expect("the progress template is valid"),
            );
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// Records `bytes` more hashed.
    pub fn advance(&self, bytes: u64) {
        let Some(bar) = &self.bar else { return };
        bar.inc(bytes);
        // The cheap load first: after the bar is shown, the hot path is one relaxed load.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_terminal_there_is_no_bar_and_no_total() {
        let progress = Progress::drawn_if(false, || unreachable!("the total is not needed"));
        assert!(progress.bar.is_none());
        progress.advance(1 << 30);
        assert!(!progress.shown.load(Ordering::Relaxed));
        assert_eq!(progress.suspend(|| 7), 7);
        progress.finish();
    }

    #[test]
    fn on_a_terminal_the_bar_waits_for_the_delay() {
        let progress = Progress::drawn_if(true, || Some(1000));
        assert!(progress.bar.is_some());
        let bar = progress.bar.clone().expect("a terminal gets a bar");
        assert_eq!(bar.length(), Some(1000));
        progress.advance(10);
        assert!(!progress.shown.load(Ordering::Relaxed), "shown at once");
        assert!(bar.is_hidden());
        assert_eq!(bar.position(), 10);
        // The same bar, started long enough ago.
        let late = Progress {
            start: Instant::now() - 2 * DELAY,
            ..progress
        };
        late.advance(10);
        assert!(
            late.shown.load(Ordering::Relaxed),
            "not shown after the delay"
        );
        assert_eq!(bar.position(), 20);
        late.finish();
    }
}
