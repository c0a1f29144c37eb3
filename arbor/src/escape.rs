//! How file names are written into checksum lines and read back.
//!
//! A name holding a backslash or a line break would make its line ambiguous, so b3sum and
//! coreutils replace those characters by backslash escapes and mark the line with a leading
//! backslash; both escape backslash, newline and carriage return. They differ in details:
//! - b3sum first converts the name to UTF-8, replacing invalid bytes by U+FFFD;
//! - coreutils keeps the name's bytes, and when it reports a check result it escapes only names
//!   that hold a newline.

use std::borrow::Cow;

/// Whose conventions a name follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// b3sum's (also `arbor`'s own).
    B3sum,
    /// GNU coreutils' (b2sum, cksum).
    Coreutils,
}

/// A name as it appears in a checksum line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedName<'a> {
    /// The bytes written after the hash (or inside the tag's parentheses).
    pub text: Cow<'a, [u8]>,
    /// Whether `text` holds escapes, so that the line starts with a backslash.
    pub escaped: bool,
}

/// Writes `name` as it goes into a hash line.
pub fn for_list(name: &[u8], style: Style) -> ListedName<'_> {
    let text: Cow<'_, [u8]> = match style {
        // `from_utf8` checks ASCII a word at a time; `from_utf8_lossy` goes byte by byte.
        Style::B3sum if std::str::from_utf8(name).is_err() => {
            Cow::Owned(String::from_utf8_lossy(name).into_owned().into_bytes())
        }
        Style::B3sum | Style::Coreutils => Cow::Borrowed(name),
    };
    escape_if_any(text)
}

/// Writes `name` as coreutils prints it in a check result (`NAME: OK`).
pub fn for_coreutils_report(name: &[u8]) -> ListedName<'_> {
    if name.contains(&b'\n') {
        escape_if_any(Cow::Borrowed(name))
    } else {
        ListedName {
            text: Cow::Borrowed(name),
            escaped: false,
        }
    }
}

fn escape_if_any(text: Cow<'_, [u8]>) -> ListedName<'_> {
    // Without an early exit the scan compiles to SIMD compares: names are short, and this runs
    // for every line of a tree of small files.
    let special = text.iter().fold(false, |found, &b| {
        found | matches!(b, b'\\' | b'\n' | b'\r')
    });
    if !special {
        return ListedName {
            text,
            escaped: false,
        };
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    for &b in text.iter() {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
    ListedName {
        text: Cow::Owned(out),
        escaped: true,
    }
}

/// Reverses the escaping of a name from a line that starts with a backslash: `\\`, `\n` and `\r`;
/// any other escape is an error.
pub fn unescape(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.iter();
    while let Some(&b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next()? {
            b'\\' => out.push(b'\\'),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_borrowed_unchanged() {
        for style in [Style::B3sum, Style::Coreutils] {
            let listed = for_list(b"dir/a b.txt", style);
            assert_eq!(&*listed.text, b"dir/a b.txt");
            assert!(!listed.escaped);
            assert!(matches!(listed.text, Cow::Borrowed(_)));
        }
    }

    #[test]
    fn the_styles_differ_on_invalid_utf8() {
        let b3 = for_list(b"a\\b\nc\rd\xff", Style::B3sum);
        assert_eq!(&*b3.text, "a\\\\b\\nc\\rd\u{FFFD}".as_bytes());
        assert!(b3.escaped);
        let cu = for_list(b"a\\b\nc\rd\xff", Style::Coreutils);
        assert_eq!(&*cu.text, b"a\\\\b\\nc\\rd\xff");
        assert!(cu.escaped);
    }

    #[test]
    fn unescape_reverses_escape() {
        let name = b"x\\y\nz\r";
        let listed = for_list(name, Style::B3sum);
        assert_eq!(unescape(&listed.text).unwrap(), name);
        assert_eq!(unescape(b"a\\"), None);
        assert_eq!(unescape(b"a\\t"), None);
    }

    #[test]
    fn coreutils_reports_escape_only_newlines() {
        assert!(!for_coreutils_report(b"a\\b\r").escaped);
        assert_eq!(&*for_coreutils_report(b"a\\b\n\r").text, b"a\\\\b\\n\\r");
    }
}
