//! The parts of the `arbor` command that are worth testing and fuzzing on their own: the
//! algorithm table, file-name escaping and quoting, and the checksum-list parser.

pub mod algorithm;
pub mod checklist;
pub mod escape;
pub mod quote;
