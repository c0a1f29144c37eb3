//! The command line of `arbor sum`.

use super::{CheckOptions, Format, Settings, Tool};
use arbor::algorithm::{Algorithm, Blake2Params};
use clap::Args;
use std::ffi::OsString;

/// Parses `-a/--algorithm`.
fn parse_algorithm(name: &str) -> Result<Algorithm, String> {
    Algorithm::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
        format!("unknown algorithm; expected one of {}", names.join(", "))
    })
}

/// Bytes given in hex (`--key`, `--salt`, `--personal`); a type of its own, since clap would
/// take a `Vec<u8>` for a list of numbers.
#[derive(Clone, Debug)]
struct HexBytes(Vec<u8>);

fn parse_hex(text: &str) -> Result<HexBytes, String> {
    if !text.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".into());
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).map_err(|_| "not hex digits".into()))
        .collect::<Result<_, _>>()
        .map(HexBytes)
}

/// The help heading of the BLAKE2 parameters.
const BLAKE2: &str =
    "BLAKE2 parameters (as in the BLAKE2 specification; blake2bp and blake2sp take none)";

/// The manifest format (v1), shared with `arborhash.dask.hash_tree` in Python.
const MANIFEST_HELP: &str = "\
Print the manifest of the directory ROOT (format v1), a BLAKE3 check list of the tree:
- every regular file below ROOT, found recursively; symbolic links are not followed and not \
listed, nor are FIFOs, sockets and devices (each is skipped with a warning naming it); an \
unreadable file or directory is an error naming it (the run goes on and exits 1);
- one line per file: 64 lowercase hex digits of its BLAKE3 hash, two spaces, its path relative \
to ROOT (components joined by '/', raw bytes), a newline;
- a name holding '\\', a newline or a carriage return is escaped as coreutils and b3sum do: the \
line starts with '\\' and the name has '\\\\', '\\n' and '\\r' in their place;
- lines sorted by the bytes of the relative path (as `LC_ALL=C sort` sorts).
So `cd ROOT && b3sum -c MANIFEST` checks it. The digest of the directory is the BLAKE3 hash of \
the manifest: `arbor sum --manifest ROOT | b3sum`. An empty directory has an empty manifest.";

/// Print or check BLAKE3, BLAKE2 and Tillich-Zémor checksums.
///
/// Output lines follow b3sum (`HASH  NAME`, or `TAG (NAME) = HASH` with --tag); --check reads the
/// lists of b3sum, coreutils b2sum and cksum, and arbor's own.
#[derive(Args, Debug)]
pub struct SumArgs {
    /// Files to hash, or lists to check. With none, or `-`, read standard input.
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,

    /// The hash algorithm: blake3, blake2b, blake2s, blake2bp, blake2sp, blake2xb, blake2xs or
    /// tz (for --check: that of lines without a tag). tz is NOT a secure hash: collisions and
    /// preimages can be computed, so use it only as a checksum against accidents and for its
    /// homomorphism, never where someone may choose the data.
    /// [default: blake3]
    #[arg(short, long, value_name = "ALG", value_parser = parse_algorithm)]
    algorithm: Option<Algorithm>,

    /// The output length in bytes [default: the algorithm's, 32 or 64; blake3 any, blake2xb up to
    /// 2^32-1, blake2xs up to 65535].
    #[arg(short, long, value_name = "LEN")]
    length: Option<u64>,

    /// Keyed hash (a MAC): read the raw key from standard input (32 bytes for blake3, up to 64
    /// for blake2b, 32 for blake2s). --tag lines then say "keyed"; --check takes the key again.
    #[arg(long, conflicts_with_all = ["derive_key", "key"])]
    keyed: bool,

    /// Keyed hash with this key, in hex (visible to other users in the process list: prefer
    /// --keyed).
    #[arg(long, value_name = "HEX", value_parser = parse_hex, conflicts_with = "derive_key")]
    key: Option<HexBytes>,

    /// BLAKE2 salt, in hex: up to 16 bytes for blake2b and blake2xb, 8 for blake2s and blake2xs.
    #[arg(long, value_name = "HEX", value_parser = parse_hex, help_heading = BLAKE2)]
    salt: Option<HexBytes>,

    /// BLAKE2 personalization, in hex (lengths as --salt).
    #[arg(long, value_name = "HEX", value_parser = parse_hex, help_heading = BLAKE2)]
    personal: Option<HexBytes>,

    /// BLAKE2 tree fanout, 0 (unlimited) to 255 [default: 1, sequential]; blake2b and blake2s.
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = BLAKE2)]
    fanout: u8,

    /// BLAKE2 maximal tree depth, 1 to 255 (255: unlimited) [default: 1, sequential].
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u8).range(1..),
        help_heading = BLAKE2
    )]
    max_depth: u8,

    /// BLAKE2 maximal leaf length in bytes, 0 (unlimited) to 2^32-1.
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = BLAKE2)]
    max_leaf_length: u32,

    /// BLAKE2 node offset, below 2^64 for blake2b and 2^48 for blake2s.
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = BLAKE2)]
    node_offset: u64,

    /// BLAKE2 node depth, 0 (leaves) to 255.
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = BLAKE2)]
    node_depth: u8,

    /// BLAKE2 inner hash length in bytes, 0 to 64 for blake2b, to 32 for blake2s.
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = BLAKE2)]
    inner_hash_length: u64,

    /// BLAKE2: this node is the last of its tree level (the final-node flag).
    #[arg(long, help_heading = BLAKE2)]
    last_node: bool,

    /// BLAKE3 key derivation with this context string.
    #[arg(long, value_name = "CONTEXT")]
    derive_key: Option<String>,

    /// BSD-style lines: `BLAKE3 (NAME) = HASH`, `BLAKE2b-256 (NAME) = HASH`.
    #[arg(long)]
    tag: bool,

    /// Print the hashes without names.
    #[arg(long)]
    no_names: bool,

    /// Write the raw hash bytes (one input only).
    #[arg(long)]
    raw: bool,

    /// End lines with NUL instead of newline and print names unescaped.
    #[arg(short, long)]
    zero: bool,

    /// Hash the files under directories, in byte order of their paths, hidden files included.
    /// Links to files are hashed, links to directories are not followed (so no loop), FIFOs,
    /// sockets and devices are skipped; a dangling link is an error.
    #[arg(short, long)]
    recursive: bool,

    /// With -r: skip dangling links and loops of links with a warning instead of failing.
    #[arg(long, requires = "recursive")]
    skip_broken_links: bool,

    /// The most threads to use [default: one per core].
    #[arg(long, value_name = "NUM")]
    num_threads: Option<usize>,

    /// Read files instead of memory-mapping them (one thread per file).
    #[arg(long)]
    no_mmap: bool,

    /// Print the manifest of the directory ROOT: a BLAKE3 check list of every regular file
    /// under it, names relative to ROOT, in byte order.
    #[arg(
        long,
        value_name = "ROOT",
        long_help = MANIFEST_HELP,
        conflicts_with_all = [
            "files", "algorithm", "length", "keyed", "derive_key", "tag", "no_names", "raw",
            "zero", "recursive", "check",
        ]
    )]
    manifest: Option<OsString>,

    /// Read checksum lists and check the files they name (with --keyed, --key and the BLAKE2
    /// parameters given again for lists made with them).
    #[arg(
        short,
        long,
        conflicts_with_all = ["length", "raw", "tag", "no_names", "recursive", "json"]
    )]
    check: bool,

    /// Print one JSON object per line: {"path", "algorithm", "hash", "size"}. A path that is not
    /// UTF-8 is given as {"bytes": [..]} instead of a string.
    #[arg(long, conflicts_with_all = ["tag", "no_names", "raw", "zero", "manifest"])]
    json: bool,

    /// Never draw the progress bar (it is drawn only on a terminal, after a second).
    #[arg(long)]
    no_progress: bool,

    /// --check: do not print OK lines.
    #[arg(long, requires = "check")]
    quiet: bool,

    /// --check: print nothing; the exit status tells.
    #[arg(long, requires = "check")]
    status: bool,

    /// --check: fail on malformed lines (always on; for coreutils compatibility).
    #[arg(long, requires = "check")]
    strict: bool,

    /// --check: report each malformed line (always on; for coreutils compatibility).
    #[arg(short, long, requires = "check")]
    warn: bool,

    /// --check: skip listed files that do not exist.
    #[arg(long, requires = "check")]
    ignore_missing: bool,
}

impl SumArgs {
    /// The run these arguments ask for.
    pub fn into_settings(self) -> Settings {
        Settings {
            tool: Tool::Arbor,
            program: Tool::Arbor.name().into(),
            algorithm: self.algorithm.unwrap_or(Algorithm::Blake3),
            algorithm_given: self.algorithm.is_some(),
            length: self.length,
            seek: 0,
            keyed: self.keyed,
            key: self.key.map(|k| k.0),
            params: Blake2Params {
                salt: self.salt.map_or_else(Vec::new, |s| s.0),
                personal: self.personal.map_or_else(Vec::new, |p| p.0),
                fanout: self.fanout,
                max_depth: self.max_depth,
                max_leaf_length: self.max_leaf_length,
                node_offset: self.node_offset,
                node_depth: self.node_depth,
                inner_hash_length: self.inner_hash_length,
                last_node: self.last_node,
            },
            json: self.json,
            no_progress: self.no_progress,
            derive_key: self.derive_key,
            format: Format {
                tag: self.tag,
                no_names: self.no_names,
                raw: self.raw,
                zero: self.zero,
                binary: false,
            },
            check: self.check.then_some(CheckOptions {
                quiet: self.quiet,
                status: self.status,
                strict: self.strict,
                warn: self.warn,
                ignore_missing: self.ignore_missing,
            }),
            recursive: self.recursive,
            skip_broken_links: self.skip_broken_links,
            num_threads: self.num_threads.filter(|&n| n > 0),
            no_mmap: self.no_mmap,
            manifest: self.manifest.is_some(),
            files: self.manifest.into_iter().chain(self.files).collect(),
        }
    }
}
