//! Command-line parsing as GNU `getopt_long` does it, for the b2sum drop-in mode: bundled short
//! options (`-tb`, `-l256`), long options with `=` or a separate value, unambiguous
//! abbreviations of long options (`--stat`), options after file names unless
//! `POSIXLY_CORRECT` is set, `--` to end options, and glibc's error messages.

use std::ffi::{OsStr, OsString};
use std::fmt;

/// One option a program takes.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// The long name, without `--`.
    pub long: &'static str,
    /// The short letter, if any.
    pub short: Option<u8>,
    /// Whether it takes a value.
    pub takes_value: bool,
}

impl Opt {
    /// An option without a value.
    pub const fn flag(long: &'static str, short: Option<u8>) -> Opt {
        Opt {
            long,
            short,
            takes_value: false,
        }
    }

    /// An option that takes a value.
    pub const fn value(long: &'static str, short: Option<u8>) -> Opt {
        Opt {
            long,
            short,
            takes_value: true,
        }
    }
}

/// One parsed item, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// The option at this index of the table, with its value if it takes one.
    Opt(usize, Option<OsString>),
    /// A file name (or other operand).
    Operand(OsString),
}

/// A usage error, worded as glibc words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// `--name` matches no option.
    Unrecognized(String),
    /// `--name` abbreviates several options: the name given and the options it could be.
    Ambiguous(String, Vec<&'static str>),
    /// `-x` is no option.
    Invalid(char),
    /// The short option needs a value and none followed.
    ShortNeedsValue(char),
    /// The long option needs a value and none followed.
    LongNeedsValue(&'static str),
    /// `--name=value` for an option that takes no value.
    LongTakesNoValue(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Unrecognized(arg) => write!(f, "unrecognized option '{arg}'"),
            Error::Ambiguous(arg, names) => {
                write!(f, "option '{arg}' is ambiguous; possibilities:")?;
                for name in names {
                    write!(f, " '--{name}'")?;
                }
                Ok(())
            }
            Error::Invalid(c) => write!(f, "invalid option -- '{c}'"),
            Error::ShortNeedsValue(c) => write!(f, "option requires an argument -- '{c}'"),
            Error::LongNeedsValue(name) => write!(f, "option '--{name}' requires an argument"),
            Error::LongTakesNoValue(name) => {
                write!(f, "option '--{name}' doesn't allow an argument")
            }
        }
    }
}

/// Where options may appear among operands, in glibc's terms.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Order {
    /// Options anywhere (glibc's default): `b2sum f -b` sees `-b`.
    Permute,
    /// The first operand ends the options, as under `POSIXLY_CORRECT`.
    RequireOrder,
}

/// Parses `args` (without the program name) against `options`, in `order`.
pub fn parse(options: &[Opt], args: &[OsString], order: Order) -> Result<Vec<Arg>, Error> {
    let mut parsed = Vec::new();
    let mut rest = args.iter();
    let mut only_operands = false;
    while let Some(arg) = rest.next() {
        let bytes = arg.as_encoded_bytes();
        if only_operands || bytes == b"-" || !bytes.starts_with(b"-") {
            only_operands |= order == Order::RequireOrder;
            parsed.push(Arg::Operand(arg.clone()));
        } else if bytes == b"--" {
            only_operands = true;
        } else if let Some(long) = bytes.strip_prefix(b"--") {
            let (name, value) = match long.iter().position(|&b| b == b'=') {
                Some(at) => (&long[..at], Some(os(&long[at + 1..]))),
                None => (long, None),
            };
            let index = find_long(options, name, arg)?;
            let opt = options[index];
            let value = match (opt.takes_value, value) {
                (true, Some(value)) => Some(value),
                (true, None) => Some(rest.next().ok_or(Error::LongNeedsValue(opt.long))?.clone()),
                (false, Some(_)) => return Err(Error::LongTakesNoValue(opt.long)),
                (false, None) => None,
            };
            parsed.push(Arg::Opt(index, value));
        } else {
            let letters = &bytes[1..];
            for (at, &letter) in letters.iter().enumerate() {
                let Some(index) = options.iter().position(|o| o.short == Some(letter)) else {
                    return Err(Error::Invalid(char::from(letter)));
                };
                if !options[index].takes_value {
                    parsed.push(Arg::Opt(index, None));
                    continue;
                }
                let value = match &letters[at + 1..] {
                    [] => rest
                        .next()
                        .ok_or(Error::ShortNeedsValue(char::from(letter)))?
                        .clone(),
                    attached => os(attached),
                };
                parsed.push(Arg::Opt(index, Some(value)));
                break;
            }
        }
    }
    Ok(parsed)
}

/// The option `--name` means: an exact match, or the only option it abbreviates.
fn find_long(options: &[Opt], name: &[u8], arg: &OsStr) -> Result<usize, Error> {
    if let Some(exact) = options.iter().position(|o| o.long.as_bytes() == name) {
        return Ok(exact);
    }
    let matches: Vec<usize> = (0..options.len())
        .filter(|&i| !name.is_empty() && options[i].long.as_bytes().starts_with(name))
        .collect();
    match matches[..] {
        [one] => Ok(one),
        [] => Err(Error::Unrecognized(arg.to_string_lossy().into_owned())),
        _ => Err(Error::Ambiguous(
            format!("--{}", String::from_utf8_lossy(name)),
            matches.iter().map(|&i| options[i].long).collect(),
        )),
    }
}

#[cfg(unix)]
fn os(bytes: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(bytes).to_os_string()
}

#[cfg(not(unix))]
fn os(bytes: &[u8]) -> OsString {
    String::from_utf8_lossy(bytes).into_owned().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: &[Opt] = &[
        Opt::value("length", Some(b'l')),
        Opt::flag("binary", Some(b'b')),
        Opt::flag("status", None),
        Opt::flag("strict", None),
        Opt::flag("tag", None),
    ];

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn run(list: &[&str]) -> Result<Vec<Arg>, Error> {
        parse(OPTIONS, &args(list), Order::Permute)
    }

    #[test]
    fn options_take_every_gnu_form() {
        let value = |v: &str| Some(OsString::from(v));
        assert_eq!(
            run(&[
                "-bl256", "f", "--len=8", "--length", "16", "-l", "24", "--stat", "-", "--", "-b"
            ])
            .unwrap(),
            vec![
                Arg::Opt(1, None),
                Arg::Opt(0, value("256")),
                Arg::Operand("f".into()),
                Arg::Opt(0, value("8")),
                Arg::Opt(0, value("16")),
                Arg::Opt(0, value("24")),
                Arg::Opt(2, None),
                Arg::Operand("-".into()),
                Arg::Operand("-b".into()),
            ]
        );
        let posix = parse(OPTIONS, &args(&["f", "-b"]), Order::RequireOrder).unwrap();
        assert_eq!(
            posix,
            vec![Arg::Operand("f".into()), Arg::Operand("-b".into())]
        );
    }

    #[test]
    fn errors_read_as_glibc_writes_them() {
        let message = |list: &[&str]| run(list).unwrap_err().to_string();
        assert_eq!(message(&["--bogus=1"]), "unrecognized option '--bogus=1'");
        assert_eq!(
            message(&["--st"]),
            "option '--st' is ambiguous; possibilities: '--status' '--strict'"
        );
        assert_eq!(message(&["-h"]), "invalid option -- 'h'");
        assert_eq!(message(&["-l"]), "option requires an argument -- 'l'");
        assert_eq!(
            message(&["--length"]),
            "option '--length' requires an argument"
        );
        assert_eq!(
            message(&["--tag=1"]),
            "option '--tag' doesn't allow an argument"
        );
    }
}
