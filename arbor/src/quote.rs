//! File names quoted for error messages the way GNU coreutils quotes them (`quotef`: gnulib
//! quotearg's "shell-escape" style, with `:` quoted too), so that b2sum drop-in messages match
//! coreutils byte for byte and a name can be pasted back into a shell:
//!
//! - a name of safe characters is written as it is: `dir/file.txt`;
//! - otherwise it goes in single quotes, `'a b'`, a single quote inside written `'\''`;
//! - but a name whose only problem is a single quote, among characters that mean the same inside
//!   C double quotes, goes in double quotes instead: `"it's"`;
//! - characters that cannot be printed leave the quotes for a `$'...'` escape:
//!   `'a'$'\n''b'`, `''$'\377'`.
//!
//! What is printable depends on the locale's character set, as in coreutils: in a UTF-8 locale
//! printable non-ASCII characters stay as they are; in any other locale every byte outside ASCII
//! is escaped.
//!
//! One quirk is kept on purpose: for a name with a single quote that needs the single-quote form,
//! gnulib measures the output in a first pass and writes it in a second one that starts in the
//! `$'...'` state the first pass ended in. A name ending in an unprintable character so gets
//! either a useless `''` before its first character or, if that character is unprintable too, its
//! escape without the `$'` that should open it (`'\001'\'''$'\002'`). coreutils 9.1 prints this,
//! so the drop-in does too.

/// How the bytes of a name are decoded into characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// UTF-8 (for instance `LANG=C.UTF-8`).
    Utf8,
    /// A single-byte locale such as `C`: only printable ASCII is printable.
    Ascii,
}

impl Charset {
    /// The character set of the locale the C library picks from the environment (`LC_ALL`,
    /// else `LC_CTYPE`, else `LANG`): as coreutils, a locale that is not installed is `C`.
    #[cfg(target_os = "linux")]
    pub fn from_env() -> Charset {
        // SAFETY: newlocale copies the name it is given (an empty C string, which means "from the
        // environment"); the locale it returns is only read by nl_langinfo_l, whose result is
        // copied before freelocale, and freed once. Unlike setlocale, nothing global changes.
        let utf8 = unsafe {
            let locale = libc::newlocale(libc::LC_CTYPE_MASK, c"".as_ptr(), std::ptr::null_mut());
            if locale.is_null() {
                false
            } else {
                let codeset = libc::nl_langinfo_l(libc::CODESET, locale);
                let utf8 =
                    !codeset.is_null() && std::ffi::CStr::from_ptr(codeset).to_bytes() == b"UTF-8";
                libc::freelocale(locale);
                utf8
            }
        };
        if utf8 {
            Charset::Utf8
        } else {
            Charset::Ascii
        }
    }

    /// The character set the locale's name says (without the C library's list of installed
    /// locales).
    #[cfg(not(target_os = "linux"))]
    pub fn from_env() -> Charset {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .filter_map(std::env::var_os)
            .find(|value| !value.is_empty())
            .map(|value| value.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if locale.contains("utf-8") || locale.contains("utf8") {
            Charset::Utf8
        } else {
            Charset::Ascii
        }
    }
}

/// One character of a name, as the quoting sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit<'a> {
    /// A printable character, its bytes.
    Printable(&'a [u8]),
    /// A byte that cannot be printed (part of an unprintable or invalid character).
    Unprintable(u8),
}

/// Quotes `name` as coreutils does in messages.
pub fn quote(name: &[u8], charset: Charset) -> Vec<u8> {
    let units = units(name, charset);
    let count = units.len();
    let needs_quotes = count == 0
        || units.iter().enumerate().any(|(i, unit)| match *unit {
            Unit::Printable(&[c]) => needs_quotes(c, i, count),
            Unit::Printable(_) => false,
            Unit::Unprintable(_) => true,
        });
    if !needs_quotes {
        return name.to_vec();
    }
    if !name.contains(&b'\'') {
        return single_quoted(&units, false).0;
    }
    let same_in_double_quotes = units.iter().enumerate().all(|(i, unit)| match *unit {
        Unit::Printable(&[c]) => same_in_double_quotes(c, i),
        Unit::Printable(_) => true,
        Unit::Unprintable(_) => false,
    });
    if same_in_double_quotes {
        let mut out = Vec::with_capacity(name.len() + 2);
        out.push(b'"');
        out.extend_from_slice(name);
        out.push(b'"');
        return out;
    }
    // The two passes (see the module's documentation).
    let (_, escaping_at_end) = single_quoted(&units, false);
    single_quoted(&units, escaping_at_end).0
}

/// Splits `name` into characters: in UTF-8, a valid printable character is one unit and each
/// byte of anything else is one; in ASCII, each byte is one.
fn units(name: &[u8], charset: Charset) -> Vec<Unit<'_>> {
    let mut units = Vec::with_capacity(name.len());
    match charset {
        Charset::Ascii => units.extend(name.iter().map(byte)),
        Charset::Utf8 => {
            for chunk in name.utf8_chunks() {
                let valid = chunk.valid();
                for (at, c) in valid.char_indices() {
                    let bytes = &valid.as_bytes()[at..at + c.len_utf8()];
                    if c.is_ascii() {
                        units.push(byte(&bytes[0]));
                    } else if is_printable(c) {
                        units.push(Unit::Printable(bytes));
                    } else {
                        units.extend(bytes.iter().map(|&b| Unit::Unprintable(b)));
                    }
                }
                units.extend(chunk.invalid().iter().map(|&b| Unit::Unprintable(b)));
            }
        }
    }
    units
}

/// An ASCII byte, printable or a control character.
fn byte(b: &u8) -> Unit<'_> {
    if (0x20..0x7f).contains(b) {
        Unit::Printable(std::slice::from_ref(b))
    } else {
        Unit::Unprintable(*b)
    }
}

/// Whether a non-ASCII character is printable in a UTF-8 locale: not a control character, line
/// or paragraph separator or noncharacter. (The C library also counts code points unassigned in
/// its Unicode version as unprintable; without its tables they are printed here.)
fn is_printable(c: char) -> bool {
    let code = u32::from(c);
    !(c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}')
        || (0xfdd0..=0xfdef).contains(&code)
        || code & 0xfffe == 0xfffe)
}

/// Whether the printable ASCII character `c`, at index `i` of a name of `count` characters,
/// makes the name need quotes: shell syntax, globs, `#` and `~` where they start a word, a
/// lone brace, and `:` (quoted by `quotef` so that names read well in `NAME: message`).
fn needs_quotes(c: u8, i: usize, count: usize) -> bool {
    match c {
        b' ' | b'!' | b'"' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b';' | b'<' | b'='
        | b'>' | b'?' | b'[' | b'\\' | b'^' | b'`' | b'|' | b':' => true,
        b'#' | b'~' => i == 0,
        b'{' | b'}' => count == 1,
        _ => false,
    }
}

/// Whether the printable ASCII character `c` at index `i` reads the same between C double
/// quotes as between shell single quotes, so that a name of such characters may use the former.
fn same_in_double_quotes(c: u8, i: usize) -> bool {
    c.is_ascii_alphanumeric() || b" '%+,-./:@]_".contains(&c) || (i == 0 && b"#~".contains(&c))
}

/// Writes `units` in single quotes with `$'...'` escapes, starting as if inside an escape when
/// `escaping`. Returns the text and whether it ended inside an escape.
fn single_quoted(units: &[Unit<'_>], mut escaping: bool) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(units.len() + 8);
    out.push(b'\'');
    for unit in units {
        match *unit {
            Unit::Unprintable(b) => {
                if !escaping {
                    out.extend_from_slice(b"'$'");
                    escaping = true;
                }
                push_escape(&mut out, b);
            }
            Unit::Printable(b"'") => {
                out.extend_from_slice(b"'\\''");
                escaping = false;
            }
            Unit::Printable(bytes) => {
                if escaping {
                    out.extend_from_slice(b"''");
                    escaping = false;
                }
                out.extend_from_slice(bytes);
            }
        }
    }
    out.push(b'\'');
    (out, escaping)
}

/// A byte inside `$'...'`: C's letter escapes where there is one, else three octal digits.
fn push_escape(out: &mut Vec<u8>, b: u8) {
    let letter = match b {
        0x07 => Some(b'a'),
        0x08 => Some(b'b'),
        b'\t' => Some(b't'),
        b'\n' => Some(b'n'),
        0x0b => Some(b'v'),
        0x0c => Some(b'f'),
        b'\r' => Some(b'r'),
        _ => None,
    };
    out.push(b'\\');
    match letter {
        Some(letter) => out.push(letter),
        None => out.extend_from_slice(&[b'0' + (b >> 6), b'0' + ((b >> 3) & 7), b'0' + (b & 7)]),
    }
}

/// Quotes `text` as gnulib's `quote` does in coreutils' messages about arguments (`invalid
/// length: '7'`): between `'` and `'` outside UTF-8 locales and `‘` and `’` in them, with C's
/// backslash escapes for backslashes, the closing quote and characters that cannot be printed.
pub fn locale_quote(text: &[u8], charset: Charset) -> String {
    let (open, close): (&[u8], &[u8]) = match charset {
        Charset::Utf8 => ("\u{2018}".as_bytes(), "\u{2019}".as_bytes()),
        Charset::Ascii => (b"'", b"'"),
    };
    let mut out = open.to_vec();
    for unit in units(text, charset) {
        match unit {
            Unit::Printable(b"\\") => out.extend_from_slice(b"\\\\"),
            Unit::Printable(bytes) => {
                if bytes == close {
                    out.push(b'\\');
                }
                out.extend_from_slice(bytes);
            }
            Unit::Unprintable(b) => push_escape(&mut out, b),
        }
    }
    out.extend_from_slice(close);
    // Only printable characters of the character set are left unescaped, so nothing is lost.
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8(name: &[u8]) -> String {
        String::from_utf8(quote(name, Charset::Utf8)).unwrap()
    }

    // The expected texts are what coreutils 9.1 b2sum printed for these names under C.UTF-8 (the
    // integration tests compare with b2sum itself where it is installed).
    #[test]
    fn safe_names_are_bare() {
        for name in [
            "a",
            "dir/f-1.txt",
            "x#y",
            "x~y",
            "{}",
            "a{",
            "%@+,]_",
            "caf\u{e9}",
        ] {
            assert_eq!(utf8(name.as_bytes()), name);
        }
    }

    #[test]
    fn shell_syntax_is_single_quoted() {
        for (name, quoted) in [
            ("", "''"),
            ("a b", "'a b'"),
            ("a:b", "'a:b'"),
            ("#x", "'#x'"),
            ("~", "'~'"),
            ("{", "'{'"),
            ("a\\b", "'a\\b'"),
            ("$x", "'$x'"),
            ("a\"b", "'a\"b'"),
        ] {
            assert_eq!(utf8(name.as_bytes()), quoted, "{name:?}");
        }
    }

    #[test]
    fn single_quotes_prefer_double_quotes() {
        assert_eq!(utf8(b"it's"), "\"it's\"");
        assert_eq!(utf8(b"'"), "\"'\"");
        assert_eq!(utf8(b"#a'b: c"), "\"#a'b: c\"");
        assert_eq!(utf8("caf'\u{e9}".as_bytes()), "\"caf'\u{e9}\"");
        assert_eq!(utf8(b"a'#b"), "'a'\\''#b'");
        assert_eq!(utf8(b"a\\'b"), "'a\\'\\''b'");
    }

    #[test]
    fn unprintable_characters_are_escaped() {
        assert_eq!(utf8(b"a\nb"), "'a'$'\\n''b'");
        assert_eq!(utf8(b"tab\there"), "'tab'$'\\t''here'");
        assert_eq!(utf8(b"\x01x"), "''$'\\001''x'");
        assert_eq!(utf8(b"\x07\x08\x0c\r\x0b\x1b"), "''$'\\a\\b\\f\\r\\v\\033'");
        assert_eq!(utf8(b"\xff\xfe"), "''$'\\377\\376'");
        assert_eq!(utf8(b"a\xc3"), "'a'$'\\303'");
        assert_eq!(utf8("\u{85}".as_bytes()), "''$'\\302\\205'");
        assert_eq!(utf8("\u{2028}".as_bytes()), "''$'\\342\\200\\250'");
        assert_eq!(utf8("\u{10ffff}".as_bytes()), "''$'\\364\\217\\277\\277'");
        assert_eq!(utf8(b"\xed\xa0\x80"), "''$'\\355\\240\\200'");
        assert_eq!(utf8("\u{e9}\n".as_bytes()), "'\u{e9}'$'\\n'");
        assert_eq!(
            utf8("\u{a0}\u{200b}\u{ad}".as_bytes()),
            "\u{a0}\u{200b}\u{ad}"
        );
    }

    #[test]
    fn quotes_and_escapes_mix() {
        assert_eq!(utf8(b"\n'"), "''$'\\n'\\'''");
        assert_eq!(utf8(b"'\n"), "''\\'''$'\\n'");
        assert_eq!(utf8(b"a\n'b"), "'a'$'\\n'\\''b'");
        assert_eq!(utf8(b"a\x7f'"), "'a'$'\\177'\\'''");
        // gnulib's second pass starts in the state the first one ended in.
        assert_eq!(utf8(b"a'\xff"), "'''a'\\'''$'\\377'");
        assert_eq!(utf8(b"\x01'\x02"), "'\\001'\\'''$'\\002'");
        assert_eq!(utf8(b"\x01'\x02x"), "''$'\\001'\\'''$'\\002''x'");
    }

    #[test]
    fn outside_utf8_locales_non_ascii_bytes_are_escaped() {
        let ascii = |name: &[u8]| String::from_utf8(quote(name, Charset::Ascii)).unwrap();
        assert_eq!(ascii("caf\u{e9}".as_bytes()), "'caf'$'\\303\\251'");
        assert_eq!(ascii(b"plain"), "plain");
    }

    // What coreutils 9.1 b2sum printed for `-l ARG` under LC_ALL=C and C.UTF-8.
    #[test]
    fn arguments_are_quoted_for_the_locale() {
        let c = |arg: &[u8]| locale_quote(arg, Charset::Ascii);
        let utf8 = |arg: &[u8]| locale_quote(arg, Charset::Utf8);
        assert_eq!(c(b"513"), "'513'");
        assert_eq!(c(b""), "''");
        assert_eq!(c(b"a'b"), "'a\\'b'");
        assert_eq!(c(b"a\\b"), "'a\\\\b'");
        assert_eq!(c(b"a\nb\x01\x7f"), "'a\\nb\\001\\177'");
        assert_eq!(c("caf\u{e9}".as_bytes()), "'caf\\303\\251'");
        assert_eq!(utf8(b"513"), "\u{2018}513\u{2019}");
        assert_eq!(utf8(b"a'b\"x`"), "\u{2018}a'b\"x`\u{2019}");
        assert_eq!(
            utf8("a\u{2019}b".as_bytes()),
            "\u{2018}a\\\u{2019}b\u{2019}"
        );
        assert_eq!(utf8(b"a\xffb"), "\u{2018}a\\377b\u{2019}");
        assert_eq!(
            utf8("\u{85}\u{e9}".as_bytes()),
            "\u{2018}\\302\\205\u{e9}\u{2019}"
        );
    }

    proptest::proptest! {
        #[test]
        fn any_name_quotes_to_utf8(name in proptest::collection::vec(0u8.., 0..12)) {
            for charset in [Charset::Utf8, Charset::Ascii] {
                let quoted = quote(&name, charset);
                proptest::prop_assert!(std::str::from_utf8(&quoted).is_ok());
                // Bare only if nothing had to be quoted.
                proptest::prop_assert!(quoted == name || quoted.len() > name.len());
            }
        }
    }
}
