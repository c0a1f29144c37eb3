//! The parts of the `arbor` command that are worth testing and fuzzing on their own: the
//! algorithm table, file-name escaping and quoting, the checksum-list parser, and the b2sum
//! drop-in's getopt.

pub mod algorithm;
pub mod checklist;
pub mod escape;
pub mod getopt;
pub mod quote;
