//! Parsing of checksum-list lines, as written by b3sum, coreutils b2sum and `cksum -a blake2b`,
//! and `arbor sum` itself.
//!
//! A line is either untagged, `[\]HEX  NAME` (coreutils also writes `HEX *NAME` for binary mode),
//! or tagged, `[\]TAG[-BITS] (NAME) = HEX`. A leading backslash means NAME holds escapes (see
//! [`crate::escape`]). Untagged lines get their algorithm from the caller (`-a`); tagged ones name
//! it. The length of the hash is that of its hex digits.

use crate::algorithm::Algorithm;
use crate::escape;
use std::fmt;

/// Whose rules a list follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `arbor sum -c`: every format below, every algorithm's tag, comments and blank lines skipped.
    Arbor,
    /// b3sum 1.x: BLAKE3 only, 32-byte lowercase hashes, no comments.
    B3sum,
    /// coreutils b2sum: BLAKE2b only, any whole number of bytes up to 64, `#` comments.
    Coreutils,
}

/// One line to check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The algorithm: from the tag, or the caller's default.
    pub algorithm: Algorithm,
    /// The expected hash; its length is the output length to compute.
    pub expected: Vec<u8>,
    /// The file name, unescaped.
    pub path: Vec<u8>,
    /// The name as written in the line (still escaped).
    pub listed: Vec<u8>,
    /// Whether the line started with a backslash.
    pub escaped: bool,
    /// Whether the line is tagged as a keyed hash (`TAG keyed (NAME) = HEX`, `arbor` only).
    pub keyed: bool,
}

/// What a line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A hash to check.
    Entry(Entry),
    /// A comment or a blank line.
    Ignored,
}

/// Why a line is malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing on the line.
    Empty,
    /// Neither `HEX  NAME` nor `TAG (NAME) = HEX`.
    Format,
    /// A tag naming no algorithm this program knows.
    UnknownTag(String),
    /// The `-BITS` after a tag is not a whole number of bytes within the algorithm's range.
    TagLength,
    /// The hash has a length the algorithm cannot produce (or that its tag contradicts).
    HashLength,
    /// A character in the hash is not a hex digit.
    Hex,
    /// A backslash escape other than `\\`, `\n` and `\r`.
    Escape,
    /// The name is empty.
    EmptyPath,
    /// A NUL byte in the name would truncate it.
    Nul,
    /// U+FFFD in the name: b3sum writes it for bytes that are not UTF-8, so the real name is lost.
    Replacement,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("Empty line"),
            ParseError::Format => f.write_str("Invalid check line format"),
            ParseError::UnknownTag(tag) => write!(f, "Unknown algorithm tag {tag:?}"),
            ParseError::TagLength => f.write_str("Invalid length after the algorithm tag"),
            ParseError::HashLength => f.write_str("Invalid hash length"),
            ParseError::Hex => f.write_str("Invalid hex"),
            ParseError::Escape => f.write_str("Invalid backslash escape"),
            ParseError::EmptyPath => f.write_str("empty file path"),
            ParseError::Nul => f.write_str("Null character in path"),
            ParseError::Replacement => f.write_str("Unicode replacement character in path"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one line of a checksum list (with or without its line terminator). `default` is the
/// algorithm of untagged lines.
pub fn parse_line(line: &[u8], default: Algorithm, dialect: Dialect) -> Result<Line, ParseError> {
    let line = trim_line_end(line);
    match dialect {
        Dialect::Arbor => parse_arbor(line, default, Framing::Line),
        Dialect::B3sum => parse_b3sum(line),
        Dialect::Coreutils => parse_coreutils(line),
    }
}

fn trim_line_end(mut line: &[u8]) -> &[u8] {
    while let [rest @ .., b'\n' | b'\r'] = line {
        line = rest;
    }
    line
}

/// Parses one NUL-terminated record of a list written by `arbor sum -z` (without its NUL): a
/// line in `arbor`'s format whose name is taken as it is, with no escapes and no line end.
pub fn parse_record(record: &[u8], default: Algorithm) -> Result<Line, ParseError> {
    parse_arbor(record, default, Framing::NulRecord)
}

/// How an `arbor` list separates its entries, which decides whether names can be escaped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// One entry a line: a name with a newline or backslash is escaped, marked by a leading `\`.
    Line,
    /// NUL-terminated records (`arbor sum -z`): names as they are.
    NulRecord,
}

fn parse_arbor(line: &[u8], default: Algorithm, framing: Framing) -> Result<Line, ParseError> {
    if line.is_empty() || line[0] == b'#' {
        return Ok(Line::Ignored);
    }
    let (escaped, body) = match framing {
        Framing::NulRecord => (false, line),
        Framing::Line => strip_escape_mark(line),
    };
    let token_end = body
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .ok_or(ParseError::Format)?;
    let (token, rest) = body.split_at(token_end);
    if !token.is_empty() && token.iter().all(u8::is_ascii_hexdigit) {
        // Untagged: `HEX  NAME`, `HEX *NAME`, or as coreutils also reads them `HEX NAME` and
        // `HEX<TAB>NAME`.
        let name = untagged_name(rest).ok_or(ParseError::Format)?;
        let expected = decode_hex(token, HexCase::Any)?;
        check_length(default, &expected, None)?;
        return entry(default, expected, name, escaped, NameRules::ARBOR);
    }
    // Tagged: `TAG[-BITS] (NAME) = HEX`, or `TAG[-BITS] keyed (NAME) = HEX` for a keyed hash.
    let (keyed, inner) = match rest.strip_prefix(b" keyed (") {
        Some(inner) => (true, inner),
        None => (false, rest.strip_prefix(b" (").ok_or(ParseError::Format)?),
    };
    let (tag, bits) = split_tag_bits(token)?;
    let algorithm = Algorithm::from_tag(tag)
        .ok_or_else(|| ParseError::UnknownTag(String::from_utf8_lossy(tag).into_owned()))?;
    let (name, hex) = rsplit_once(inner, b") = ").ok_or(ParseError::Format)?;
    let expected = decode_hex(hex, HexCase::Any)?;
    check_length(algorithm, &expected, bits)?;
    let mut line = entry(algorithm, expected, name, escaped, NameRules::ARBOR)?;
    if let Line::Entry(entry) = &mut line {
        entry.keyed = keyed;
    }
    Ok(line)
}

fn parse_b3sum(line: &[u8]) -> Result<Line, ParseError> {
    if line.is_empty() {
        return Err(ParseError::Empty);
    }
    let (escaped, body) = strip_escape_mark(line);
    // b3sum tries the untagged split first, from the left, since names may hold two spaces.
    let (hex, name) = match split_once(body, b"  ") {
        Some(parts) => parts,
        None => {
            let inner = body.strip_prefix(b"BLAKE3 (").ok_or(ParseError::Format)?;
            let (name, hex) = rsplit_once(inner, b") = ").ok_or(ParseError::Format)?;
            (hex, name)
        }
    };
    if hex.len() != 64 {
        return Err(ParseError::HashLength);
    }
    let expected = decode_hex(hex, HexCase::Lower)?;
    entry(Algorithm::Blake3, expected, name, escaped, NameRules::B3SUM)
}

fn parse_coreutils(line: &[u8]) -> Result<Line, ParseError> {
    let start = line
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(line.len());
    let line = &line[start..];
    if line.is_empty() || line[0] == b'#' {
        return Ok(Line::Ignored);
    }
    let (escaped, body) = strip_escape_mark(line);
    if let Some(after_tag) = body.strip_prefix(b"BLAKE2b") {
        // `BLAKE2b[-BITS] (NAME) = HEX`, spaces around `=` optional; the name ends at the last `)`.
        let (bits, after_bits) = match after_tag.strip_prefix(b"-") {
            Some(rest) => {
                let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
                (Some(&rest[..digits]), &rest[digits..])
            }
            None => (None, after_tag),
        };
        let after_space = after_bits.strip_prefix(b" ").unwrap_or(after_bits);
        let inner = after_space.strip_prefix(b"(").ok_or(ParseError::Format)?;
        let close = inner
            .iter()
            .rposition(|&b| b == b')')
            .ok_or(ParseError::Format)?;
        let (name, rest) = (&inner[..close], &inner[close + 1..]);
        let rest = trim_start_blank(rest)
            .strip_prefix(b"=")
            .ok_or(ParseError::Format)?;
        let expected = decode_hex(trim_start_blank(rest), HexCase::Any)?;
        let bits = bits.map(parse_bits).transpose()?;
        check_length(Algorithm::Blake2b, &expected, bits)?;
        return entry(
            Algorithm::Blake2b,
            expected,
            name,
            escaped,
            NameRules::COREUTILS,
        );
    }
    // `HEX  NAME`, `HEX *NAME`, `HEX NAME` or `HEX<TAB>NAME`.
    let hex_len = body.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    let (hex, rest) = body.split_at(hex_len);
    let name = untagged_name(rest).ok_or(ParseError::Format)?;
    let expected = decode_hex(hex, HexCase::Any)?;
    check_length(Algorithm::Blake2b, &expected, None)?;
    entry(
        Algorithm::Blake2b,
        expected,
        name,
        escaped,
        NameRules::COREUTILS,
    )
}

/// The name after an untagged hash: a space or tab, then coreutils' mode mark (` ` text, `*`
/// binary) if there is one, then the name.
fn untagged_name(rest: &[u8]) -> Option<&[u8]> {
    match rest {
        [b' ' | b'\t', b' ' | b'*', name @ ..] => Some(name),
        [b' ' | b'\t', name @ ..] => Some(name),
        _ => None,
    }
}

/// What a dialect allows in names.
#[derive(Clone, Copy)]
struct NameRules {
    /// Refuse U+FFFD, the mark of a name b3sum could not write faithfully.
    reject_replacement: bool,
}

impl NameRules {
    /// `arbor` writes names as bytes where b3sum would write U+FFFD, so U+FFFD in its lists
    /// is a real name.
    const ARBOR: NameRules = NameRules::COREUTILS;
    const B3SUM: NameRules = NameRules {
        reject_replacement: true,
    };
    const COREUTILS: NameRules = NameRules {
        reject_replacement: false,
    };
}

fn entry(
    algorithm: Algorithm,
    expected: Vec<u8>,
    listed: &[u8],
    escaped: bool,
    rules: NameRules,
) -> Result<Line, ParseError> {
    let path = if escaped {
        escape::unescape(listed).ok_or(ParseError::Escape)?
    } else {
        listed.to_vec()
    };
    if path.is_empty() {
        return Err(ParseError::EmptyPath);
    }
    if path.contains(&0) {
        return Err(ParseError::Nul);
    }
    if rules.reject_replacement && contains(&path, "\u{FFFD}".as_bytes()) {
        return Err(ParseError::Replacement);
    }
    Ok(Line::Entry(Entry {
        algorithm,
        expected,
        path,
        listed: listed.to_vec(),
        escaped,
        keyed: false,
    }))
}

fn strip_escape_mark(line: &[u8]) -> (bool, &[u8]) {
    match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    }
}

/// Splits `BLAKE2b-256` into the tag and the length in bytes.
fn split_tag_bits(token: &[u8]) -> Result<(&[u8], Option<u64>), ParseError> {
    match token.iter().position(|&b| b == b'-') {
        Some(dash) => Ok((&token[..dash], Some(parse_bits(&token[dash + 1..])?))),
        None => Ok((token, None)),
    }
}

/// A `-BITS` suffix as a length in bytes.
fn parse_bits(digits: &[u8]) -> Result<u64, ParseError> {
    let bits: u64 = std::str::from_utf8(digits)
        .ok()
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .ok_or(ParseError::TagLength)?;
    if bits == 0 || !bits.is_multiple_of(8) {
        return Err(ParseError::TagLength);
    }
    Ok(bits / 8)
}

fn check_length(
    algorithm: Algorithm,
    expected: &[u8],
    tagged_length: Option<u64>,
) -> Result<(), ParseError> {
    let length = expected.len() as u64;
    let (min, max) = algorithm.lengths();
    if length == 0 || !(min..=max).contains(&length) {
        return Err(ParseError::HashLength);
    }
    match tagged_length {
        Some(tagged) if !(min..=max).contains(&tagged) => Err(ParseError::TagLength),
        Some(tagged) if tagged != length => Err(ParseError::HashLength),
        _ => Ok(()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum HexCase {
    Lower,
    Any,
}

fn decode_hex(hex: &[u8], case: HexCase) -> Result<Vec<u8>, ParseError> {
    if !hex.len().is_multiple_of(2) {
        return Err(ParseError::HashLength);
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' if case == HexCase::Any => Ok(c - b'A' + 10),
        _ => Err(ParseError::Hex),
    };
    hex.chunks_exact(2)
        .map(|pair| Ok(digit(pair[0])? << 4 | digit(pair[1])?))
        .collect()
}

fn trim_start_blank(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(s.len());
    &s[start..]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

fn split_once<'a>(s: &'a [u8], sep: &[u8]) -> Option<(&'a [u8], &'a [u8])> {
    find(s, sep).map(|i| (&s[..i], &s[i + sep.len()..]))
}

fn rsplit_once<'a>(s: &'a [u8], sep: &[u8]) -> Option<(&'a [u8], &'a [u8])> {
    s.windows(sep.len())
        .rposition(|w| w == sep)
        .map(|i| (&s[..i], &s[i + sep.len()..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry_of(line: &[u8], default: Algorithm, dialect: Dialect) -> Entry {
        match parse_line(line, default, dialect) {
            Ok(Line::Entry(e)) => e,
            other => panic!("{:?} parsed as {other:?}", String::from_utf8_lossy(line)),
        }
    }

    const H32: &str = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";

    #[test]
    fn untagged_and_tagged_blake3() {
        let e = entry_of(
            format!("{H32}  a  b\n").as_bytes(),
            Algorithm::Blake3,
            Dialect::Arbor,
        );
        assert_eq!(e.path, b"a  b");
        assert_eq!(e.expected.len(), 32);
        let t = entry_of(
            format!("BLAKE3 (x) = y) = {H32}").as_bytes(),
            Algorithm::Blake2b,
            Dialect::Arbor,
        );
        assert_eq!(t.algorithm, Algorithm::Blake3);
        assert_eq!(t.path, b"x) = y");
        assert_eq!(
            entry_of(
                format!("{H32}  a").as_bytes(),
                Algorithm::Blake3,
                Dialect::B3sum
            )
            .path,
            b"a"
        );
    }

    #[test]
    fn tags_carry_algorithm_and_length() {
        let hex = "00".repeat(32);
        let e = entry_of(
            format!("\\BLAKE2b-256 (a\\nb) = {hex}").as_bytes(),
            Algorithm::Blake3,
            Dialect::Arbor,
        );
        assert_eq!(
            (e.algorithm, e.path.as_slice(), e.escaped),
            (Algorithm::Blake2b, &b"a\nb"[..], true)
        );
        let bad = format!("BLAKE2b-512 (a) = {hex}");
        assert_eq!(
            parse_line(bad.as_bytes(), Algorithm::Blake3, Dialect::Arbor),
            Err(ParseError::HashLength)
        );
        let unknown = format!("SHA256 (a) = {hex}");
        assert!(matches!(
            parse_line(unknown.as_bytes(), Algorithm::Blake3, Dialect::Arbor),
            Err(ParseError::UnknownTag(_))
        ));
    }

    #[test]
    fn coreutils_forms() {
        let hex = "AB".repeat(64);
        let e = entry_of(
            format!("  {hex} *bin").as_bytes(),
            Algorithm::Blake3,
            Dialect::Coreutils,
        );
        assert_eq!((e.path.as_slice(), e.expected.len()), (&b"bin"[..], 64));
        let t = entry_of(
            format!("BLAKE2b-16 (f)={}", "ab".repeat(2)).as_bytes(),
            Algorithm::Blake3,
            Dialect::Coreutils,
        );
        assert_eq!(t.expected, vec![0xab, 0xab]);
        assert_eq!(
            parse_line(b"# note", Algorithm::Blake3, Dialect::Coreutils),
            Ok(Line::Ignored)
        );
    }

    #[test]
    fn malformed_lines() {
        let cases: &[(&[u8], ParseError)] = &[
            (b"abc", ParseError::Format),
            (b"abc  x", ParseError::HashLength),
            (b"zz  x", ParseError::Format),
            (b"BLAKE3 (x) = 0g", ParseError::Hex),
            (b"\\00  a\\q", ParseError::Escape),
            (b"00  ", ParseError::EmptyPath),
            (b"00  a\0b", ParseError::Nul),
            (b"BLAKE2b-7 (x) = 00", ParseError::TagLength),
        ];
        for (line, err) in cases {
            assert_eq!(
                parse_line(line, Algorithm::Blake3, Dialect::Arbor).as_ref(),
                Err(err),
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
        assert_eq!(
            parse_line(b"", Algorithm::Blake3, Dialect::B3sum),
            Err(ParseError::Empty)
        );
        let hex = "00".repeat(32);
        assert_eq!(
            parse_line(
                format!("{hex}  a\u{FFFD}").as_bytes(),
                Algorithm::Blake3,
                Dialect::B3sum
            ),
            Err(ParseError::Replacement)
        );
    }
}
