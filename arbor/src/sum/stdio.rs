//! Standard input and output that the caller closed (`<&-`, `>&-`). Before `main`, Rust's
//! runtime opens /dev/null on a closed standard descriptor, so a closed standard input would read
//! as empty and a closed standard output would swallow every line. A constructor that runs
//! before the runtime notes which were closed, so that reading `-` is an error and writing is a
//! "write error", as in coreutils.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Bit `fd` set: descriptor `fd` (0 or 1) was closed when the program started.
static CLOSED: AtomicU8 = AtomicU8::new(0);

// glibc runs the executable's `.init_array` before calling `main`, where Rust's runtime starts.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_AT_START: extern "C" fn() = note_closed;

#[cfg(target_os = "linux")]
extern "C" fn note_closed() {
    let mut closed = 0;
    for fd in 0..2 {
        // SAFETY: F_GETFD only queries the descriptor's flags.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed |= 1 << fd;
        }
    }
    CLOSED.store(closed, Ordering::Relaxed);
}

fn was_closed(fd: u8) -> bool {
    CLOSED.load(Ordering::Relaxed) & (1 << fd) != 0
}

/// The error of a closed descriptor.
pub fn closed_error() -> io::Error {
    io::Error::from_raw_os_error(libc::EBADF)
}

/// Whether [`stdin`] was called on a closed standard input.
static CLOSED_STDIN_READ: AtomicBool = AtomicBool::new(false);

/// Standard input, or the error of a closed descriptor.
pub fn stdin() -> io::Result<io::StdinLock<'static>> {
    if was_closed(0) {
        CLOSED_STDIN_READ.store(true, Ordering::Relaxed);
        return Err(closed_error());
    }
    Ok(io::stdin().lock())
}

/// Whether standard output was closed at the start.
pub fn stdout_closed() -> bool {
    was_closed(1)
}

/// Whether the program tried to read a standard input that was closed.
pub fn closed_stdin_was_read() -> bool {
    CLOSED_STDIN_READ.load(Ordering::Relaxed)
}
