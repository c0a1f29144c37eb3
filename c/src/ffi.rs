//! What every exported function shares: turning C pointers into slices after checking them, and
//! keeping panics from crossing into C.

use core::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Success.
pub const OK: i32 = 0;
/// A bad argument: NULL where memory is needed, or a length out of range.
pub const BAD_ARGUMENT: i32 = -1;
/// An internal error (a panic, which would be a bug) was caught before it reached C.
pub const INTERNAL: i32 = -2;

/// Runs `f`, returning `on_panic` if it panics: unwinding into C is undefined behaviour. (Built
/// with `panic = "abort"`, a panic aborts the process instead, which is defined.)
pub fn guard<R>(on_panic: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(on_panic)
}

/// Runs a fallible `f` for a function returning `OK` or an error code.
pub fn status(f: impl FnOnce() -> Option<()>) -> i32 {
    guard(INTERNAL, || f().map_or(BAD_ARGUMENT, |()| OK))
}

/// The `len` bytes at `ptr`: `None` if `ptr` is NULL while `len > 0`, or `len` exceeds what
/// Rust allows in one object.
///
/// # Safety
/// If non-NULL, `ptr` points to `len` readable bytes that stay unchanged while the slice lives.
pub unsafe fn input<'a>(ptr: *const c_void, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        Some(&[])
    } else if ptr.is_null() || len > isize::MAX as usize {
        None
    } else {
        // SAFETY: the caller's promise; non-NULL and in range (checked above).
        Some(unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len) })
    }
}

/// The `len` writable bytes at `ptr`, with the same rules as [`input`].
///
/// # Safety
/// If non-NULL, `ptr` points to `len` writable bytes that nothing else uses while the slice
/// lives.
pub unsafe fn output<'a>(ptr: *mut u8, len: usize) -> Option<&'a mut [u8]> {
    if len == 0 {
        Some(&mut [])
    } else if ptr.is_null() || len > isize::MAX as usize {
        None
    } else {
        // SAFETY: the caller's promise; non-NULL and in range (checked above).
        Some(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
    }
}

/// `count` messages given as an array of pointers and an array of lengths; `None` if either
/// array, or a message pointer with a nonzero length, is NULL, or if no array can hold `count`
/// elements (checked before either array is read).
///
/// # Safety
/// If non-NULL, `ptrs` and `lens` point to `count` elements each, and every message pointer
/// to as many readable bytes as its length.
pub unsafe fn messages<'a>(
    ptrs: *const *const u8,
    lens: *const usize,
    count: usize,
) -> Option<Vec<&'a [u8]>> {
    let too_many = count > isize::MAX as usize / size_of::<usize>();
    if too_many || count > 0 && (ptrs.is_null() || lens.is_null()) {
        return None;
    }
    (0..count)
        // SAFETY: the caller's promise for both arrays (non-NULL, checked above) and every
        // message.
        .map(|i| unsafe { input(ptrs.add(i).read().cast(), lens.add(i).read()) })
        .collect()
}
