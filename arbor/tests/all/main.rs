//! arbor's integration tests in one binary, one module per area; `common` runs the binary and
//! its peers and builds the corpus of awkward files.

mod bao_cli;
mod bao_reliability;
mod bench_smoke;
mod checklist_fuzz;
mod cli_limits;
#[cfg(unix)]
mod common;
mod sum_blake2;
mod sum_compat;
mod sum_dropin_errors;
mod sum_errors;
mod sum_fidelity;
mod sum_manifest;
mod sum_progress;
mod sum_reliability;
