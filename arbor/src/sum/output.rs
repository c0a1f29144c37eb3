//! Standard output and error: buffered output lines, messages in order with them, hex encoding,
//! and a quiet exit when the reader of the output has gone.

use super::{Format, Tool};
use arbor::algorithm::{Algorithm, Digest, Spec};
use arbor::escape;
use arbor::quote::{self, Charset};
use std::io::{self, BufWriter, Stdout, Write};
use std::process::ExitCode;
use std::sync::OnceLock;

/// The exit status after a closed pipe, as a shell reports a process ended by SIGPIPE.
const BROKEN_PIPE_STATUS: i32 = 141;

/// Writes results to standard output and messages to standard error, prefixed by the program
/// name. A write to a closed pipe ends the program quietly.
pub struct Reporter {
    tool: Tool,
    program: String,
    out: BufWriter<Stdout>,
    /// Standard output was closed when the program started (see [`super::stdio`]).
    closed: bool,
}

impl Reporter {
    pub fn new(tool: Tool, program: String) -> Reporter {
        Reporter {
            tool,
            program,
            out: BufWriter::with_capacity(64 * 1024, io::stdout()),
            closed: super::stdio::stdout_closed(),
        }
    }

    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Writes bytes to standard output.
    pub fn put(&mut self, bytes: &[u8]) {
        if self.closed {
            self.output_failed(super::stdio::closed_error());
        }
        if let Err(e) = self.out.write_all(bytes) {
            self.output_failed(e);
        }
    }

    /// Writes `TOOL: message` to standard error, after the output so far.
    pub fn message(&mut self, message: &str) {
        self.flush();
        // Nothing useful can be done if standard error is gone.
        let _ = writeln!(io::stderr().lock(), "{}: {message}", self.program);
    }

    /// Reports an error that stops the program before any work.
    pub fn fatal(&mut self, message: &str) -> ExitCode {
        match self.tool {
            // b3sum returns its errors from main, which prints them this way.
            Tool::B3sum => {
                let _ = writeln!(io::stderr().lock(), "Error: {message}");
            }
            _ => self.message(message),
        }
        ExitCode::FAILURE
    }

    /// Flushes the output and turns success into the exit status.
    pub fn finish(mut self, ok: bool) -> ExitCode {
        self.flush();
        if self.tool == Tool::B2sum && super::stdio::closed_stdin_was_read() {
            // coreutils closes standard input at exit, and reports that too.
            self.message("standard input: Bad file descriptor");
        }
        if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        }
    }

    /// Writes out the lines held in the buffer.
    pub fn flush(&mut self) {
        if let Err(e) = self.out.flush() {
            self.output_failed(e);
        }
    }

    fn output_failed(&mut self, e: io::Error) -> ! {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(BROKEN_PIPE_STATUS);
        }
        // coreutils' wording, which scripts may look for; coreutils names the reason only for
        // a closed descriptor.
        let reason = match self.tool {
            Tool::B2sum if e.raw_os_error() != Some(libc::EBADF) => String::new(),
            _ => format!(": {}", coreutils_error(&e)),
        };
        let _ = writeln!(io::stderr().lock(), "{}: write error{reason}", self.program);
        std::process::exit(1);
    }

    /// Writes the next `length` bytes of `digest` in lowercase hex.
    pub fn put_hex(&mut self, digest: &mut Digest, mut length: u64) {
        let mut block = [0u8; 64];
        let mut hex = [0u8; 128];
        while length > 0 {
            let take = length.min(64) as usize;
            digest.fill(&mut block[..take]);
            encode_hex(&block[..take], &mut hex[..2 * take]);
            self.put(&hex[..2 * take]);
            length -= take as u64;
        }
    }

    /// Writes the next `length` bytes of `digest` as they are.
    pub fn put_raw(&mut self, digest: &mut Digest, mut length: u64) {
        let mut block = [0u8; 64];
        while length > 0 {
            let take = length.min(64) as usize;
            digest.fill(&mut block[..take]);
            self.put(&block[..take]);
            length -= take as u64;
        }
    }

    /// Writes the line for one hashed input, in `format`, its name escaped in `style`. Returns
    /// false when the name could not be written faithfully (not UTF-8 in b3sum's style), which
    /// `arbor` reports.
    pub fn put_hash_line(
        &mut self,
        spec: &Spec,
        format: Format,
        style: escape::Style,
        digest: &mut Digest,
        name: &[u8],
    ) -> bool {
        let length = spec.length();
        if format.raw {
            self.put_raw(digest, length);
            return true;
        }
        let end: &[u8] = if format.zero { b"\0" } else { b"\n" };
        if format.no_names {
            self.put_hex(digest, length);
            self.put(end);
            return true;
        }
        let listed = if format.zero {
            escape::ListedName {
                text: name.into(),
                escaped: false,
            }
        } else {
            escape::for_list(name, style)
        };
        let faithful =
            format.zero || style != escape::Style::B3sum || std::str::from_utf8(name).is_ok();
        if listed.escaped {
            self.put(b"\\");
        }
        if format.tag {
            self.put(tag(spec.algorithm(), length).as_bytes());
            if spec.is_keyed() {
                // A MAC must not read as the plain hash of the file.
                self.put(b" keyed");
            }
            self.put(b" (");
            self.put(&listed.text);
            self.put(b") = ");
            self.put_hex(digest, length);
        } else {
            self.put_hex(digest, length);
            self.put(if format.binary { b" *" } else { b"  " });
            self.put(&listed.text);
        }
        self.put(end);
        faithful
    }
}

/// The BSD-style tag: `BLAKE3` at any length, as b3sum writes it; BLAKE2 variants carry their
/// length in bits when it is not the default, as coreutils writes `BLAKE2b-256`.
pub fn tag(algorithm: Algorithm, length: u64) -> String {
    if algorithm == Algorithm::Blake3 || length == algorithm.default_length() {
        algorithm.tag().to_string()
    } else {
        format!("{}-{}", algorithm.tag(), length * 8)
    }
}

/// The two lowercase hex digits of every byte, so that encoding takes one lookup per byte.
const HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0; 2]; 256];
    let mut byte = 0;
    while byte < 256 {
        pairs[byte] = [DIGITS[byte >> 4], DIGITS[byte & 15]];
        byte += 1;
    }
    pairs
};

fn encode_hex(bytes: &[u8], out: &mut [u8]) {
    for (byte, pair) in bytes.iter().zip(out.chunks_exact_mut(2)) {
        pair.copy_from_slice(&HEX_PAIRS[usize::from(*byte)]);
    }
}

/// An I/O error as coreutils prints it: the system's text without Rust's `(os error N)`.
pub fn coreutils_error(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// The locale's character set, looked up once.
fn charset() -> Charset {
    static CHARSET: OnceLock<Charset> = OnceLock::new();
    *CHARSET.get_or_init(Charset::from_env)
}

/// A file name quoted the way coreutils quotes names in messages, for the locale's character set.
pub fn coreutils_quote(name: &[u8]) -> String {
    let quoted = quote::quote(name, charset());
    // Only printable characters of the character set are left unescaped, so nothing is lost.
    String::from_utf8_lossy(&quoted).into_owned()
}

/// An argument quoted the way coreutils quotes arguments in messages (`invalid length: '7'`).
pub fn coreutils_quote_arg(arg: &[u8]) -> String {
    quote::locale_quote(arg, charset())
}

/// Writes `text` (help or version) to standard output under the same rules as hash lines: a
/// write error is reported and exits 1, a closed pipe ends the program quietly.
pub fn print_text(tool: Tool, program: &str, text: &[u8]) -> ExitCode {
    let mut reporter = Reporter::new(tool, program.into());
    reporter.put(text);
    reporter.finish(true)
}
