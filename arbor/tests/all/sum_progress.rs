//! The progress bar of `arbor sum`: runs that outlast its one-second delay print exactly what a
//! quick run prints when standard error is not a terminal, and draw the bar when it is one.
#![cfg(unix)] // Named pipes make a run slow on demand; `script` gives it a terminal.

use crate::common::*;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;
use std::time::Duration;

/// The contents written into the slow input.
const SLOW_LEN: usize = 100_000;

/// A directory with `fast` (a regular file) and `slow`, which is first a regular file with the
/// same contents as the named pipe it later becomes, and the check list of both.
struct Slow {
    dir: tempfile::TempDir,
    list: Vec<u8>,
}

impl Slow {
    fn new() -> Slow {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fast"), bytes(50_000, 1)).unwrap();
        std::fs::write(dir.path().join("slow"), bytes(SLOW_LEN, 2)).unwrap();
        let list = arbor_sum(dir.path(), &os(&["fast", "slow"]), b"").stdout;
        Slow { dir, list }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Replaces `slow` by a named pipe that delivers the same bytes in two halves, the second
    /// after the progress delay, so that the run certainly outlasts it.
    fn make_slow(&self) -> thread::JoinHandle<()> {
        let fifo = self.path().join("slow");
        std::fs::remove_file(&fifo).unwrap();
        let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(status.success());
        thread::spawn(move || feed(fifo))
    }
}

fn feed(fifo: PathBuf) {
    use std::io::Write;
    let data = bytes(SLOW_LEN, 2);
    // Opening blocks until arbor opens the pipe to read it.
    let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
    pipe.write_all(&data[..SLOW_LEN / 2]).unwrap();
    thread::sleep(Duration::from_millis(1500));
    pipe.write_all(&data[SLOW_LEN / 2..]).unwrap();
}

#[test]
fn without_a_terminal_slow_runs_print_what_quick_ones_do() {
    for args in [&["fast", "slow"][..], &["-c", "list"][..]] {
        let slow = Slow::new();
        std::fs::write(slow.path().join("list"), &slow.list).unwrap();
        let quick = arbor_sum(slow.path(), &os(args), b"");
        assert_eq!((quick.code, quick.stderr.as_str()), (Some(0), ""));
        let feeder = slow.make_slow();
        let long = arbor_sum(slow.path(), &os(args), b"");
        feeder.join().unwrap();
        assert_eq!(long.stdout, quick.stdout, "{args:?}");
        assert_eq!((long.code, long.stderr.as_str()), (Some(0), ""), "{args:?}");
    }
}

#[test]
fn on_a_terminal_check_mode_draws_the_bar() {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("note: `script` (util-linux) is missing; skipping the terminal test");
        return;
    }
    let slow = Slow::new();
    std::fs::write(slow.path().join("list"), &slow.list).unwrap();
    let feeder = slow.make_slow();
    // `script` runs the command on a new terminal and copies what it writes to our stdout.
    let command = format!("{} sum -c list", arbor_path().display());
    let args: Vec<OsString> = os(&["-qec", &command, "/dev/null"]);
    let run = run_in(slow.path(), Path::new("script"), &args, b"");
    feeder.join().unwrap();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let screen = run.stdout_text();
    assert!(
        screen.contains("fast: OK") && screen.contains("slow: OK"),
        "{screen:?}"
    );
    // The bar shows the bytes done (150,000: "146.48 KiB"), with no total: a FIFO's size is
    // unknown.
    assert!(
        screen.contains("146.48 KiB") && !screen.contains("146.48 KiB/"),
        "no bar drawn, or a wrong total: {screen:?}"
    );
}
