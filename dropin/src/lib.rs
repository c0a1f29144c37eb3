//! Programs written for the `blake3`, `blake2b_simd` and `blake2s_simd` crates (in `programs/`),
//! each compiled twice by `tests/dropin.rs`: once against the crate, once against arborhash with
//! only the import of the crate's name changed. Both runs must print the same.
//!
//! This library holds what the programs share that is no part of either API.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static EXPECTING_PANIC: Cell<bool> = const { Cell::new(false) };
}

/// Whether `f` panics, without printing the panic (other panics, such as a failing assertion of
/// the harness, still print).
pub fn panics<R>(f: impl FnOnce() -> R) -> bool {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !EXPECTING_PANIC.with(Cell::get) {
                default(info);
            }
        }));
    });
    EXPECTING_PANIC.with(|e| e.set(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    EXPECTING_PANIC.with(|e| e.set(false));
    result.is_err()
}

/// A deterministic, non-repeating input of `len` bytes.
pub fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8 ^ (i >> 8) as u8).collect()
}
