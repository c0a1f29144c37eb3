//! Fuzzes the check-list line parser of `arbor sum -c` in every dialect: it must never panic,
//! and an entry it returns must be consistent with the line.
#![no_main]

use arbor::algorithm::Algorithm;
use arbor::checklist::{parse_line, Dialect, Line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in [Dialect::Arbor, Dialect::B3sum, Dialect::Coreutils] {
        for default in Algorithm::ALL {
            if let Ok(Line::Entry(entry)) = parse_line(data, default, dialect) {
                assert!(!entry.path.is_empty());
                assert!(!entry.expected.is_empty());
                assert!(2 * entry.expected.len() < data.len());
            }
        }
    }
});
