//! Fuzzes the check-list line parser of `arbor sum -c` in every dialect, and the record parser of
//! `arbor sum -c -z`: they must never panic, and an entry they return must be consistent with the
//! line.
#![no_main]

use arbor::algorithm::Algorithm;
use arbor::checklist::{parse_line, parse_record, Dialect, Line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for default in Algorithm::ALL {
        let parsed = [Dialect::Arbor, Dialect::B3sum, Dialect::Coreutils]
            .map(|dialect| parse_line(data, default, dialect));
        for result in parsed.into_iter().chain([parse_record(data, default)]) {
            if let Ok(Line::Entry(entry)) = result {
                assert!(!entry.path.is_empty());
                assert!(!entry.expected.is_empty());
                assert!(2 * entry.expected.len() < data.len());
            }
        }
    }
});
