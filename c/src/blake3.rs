//! `blake3.h`: the official BLAKE3 C API over `arborhash::blake3`.
//!
//! The official functions return nothing, so a bad argument (a NULL pointer)
//! cannot be reported by the call: it leaves the hasher unusable, later calls on it do nothing,
//! finalisation writes zeros, and `arborhash_blake3_hasher_check` (in `arborhash.h`) says so.

use core::ffi::{c_char, c_void, CStr};

use arborhash::blake3::KEY_LEN;
use arborhash::Threads;

use crate::blake3_state::State;
use crate::ffi::{self, guard, input, output};
use crate::slot;

/// `uint64_t` words of `blake3_hasher` (`ARBORHASH_BLAKE3_HASHER_WORDS` in `blake3.h`).
pub const HASHER_WORDS: usize = slot::words::<State>();

/// The C `blake3_hasher`: a [`State`] in a slot (see [`slot`]).
#[allow(non_camel_case_types)]
#[repr(C)]
pub struct blake3_hasher {
    opaque: [u64; HASHER_WORDS],
}

const VERSION: &CStr = c"1.8.7";

/// The version of the official BLAKE3 C API this library is compatible with.
#[no_mangle]
pub extern "C" fn blake3_version() -> *const c_char {
    VERSION.as_ptr()
}

/// How a hasher starts.
enum Mode<'a> {
    Hash,
    Keyed(&'a [u8; KEY_LEN]),
    DeriveKey(&'a [u8]),
}

/// Builds the hasher for `mode` in its slot, or marks the hasher unusable if `mode` is `None`
/// (a bad argument). The state is built by a closure inside the slot write, so that the
/// compiler can build it in place rather than move its 26 KiB.
///
/// # Safety
/// `hasher` is NULL or points to a writable `blake3_hasher`.
unsafe fn init(hasher: *mut blake3_hasher, mode: Option<Mode>) {
    if hasher.is_null() {
        return;
    }
    let slot = hasher.cast::<u64>();
    let built = mode.is_some_and(|mode| {
        guard(false, || {
            // SAFETY: non-NULL, and a `blake3_hasher` has room for a `State` slot.
            unsafe {
                match mode {
                    Mode::Hash => slot::put_with(slot, || State::new(None)),
                    Mode::Keyed(key) => slot::put_with(slot, || State::new(Some(key))),
                    Mode::DeriveKey(context) => slot::put_with(slot, || State::derive_key(context)),
                }
            }
            true
        })
    });
    if !built {
        // SAFETY: as above.
        unsafe { slot::clear(slot) };
    }
}

/// Runs `f` on the hasher; marks the hasher unusable if `f` fails.
///
/// # Safety
/// `hasher` is NULL or points to a `blake3_hasher` that nothing else uses during the call.
unsafe fn with_mut(hasher: *mut blake3_hasher, f: impl FnOnce(&mut State) -> Option<()>) {
    if hasher.is_null() {
        return;
    }
    let slot = hasher.cast::<u64>();
    // SAFETY: the caller's promise.
    let Some(value) = (unsafe { slot::get_mut::<State>(slot) }) else {
        return;
    };
    if guard(None, || f(value)).is_none() {
        // SAFETY: as above.
        unsafe { slot::clear(slot) };
    }
}

/// Initialises `self` for the default hash.
///
/// # Safety
/// `self_` is NULL or points to a writable `blake3_hasher`.
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_init(self_: *mut blake3_hasher) {
    // SAFETY: the caller's promise.
    unsafe { init(self_, Some(Mode::Hash)) }
}

/// Initialises `self` for the keyed hash with the 32 bytes at `key`.
///
/// # Safety
/// `self_` as for [`blake3_hasher_init`]; `key` is NULL or points to 32 readable bytes.
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_init_keyed(self_: *mut blake3_hasher, key: *const u8) {
    // SAFETY: the caller's promise.
    let key = unsafe { input(key.cast(), KEY_LEN) }.and_then(|key| key.try_into().ok());
    // SAFETY: the caller's promise.
    unsafe { init(self_, key.map(Mode::Keyed)) }
}

/// Initialises `self` for key derivation with a NUL-terminated context string (its bytes are
/// hashed as they are, UTF-8 or not, as in the official library).
///
/// # Safety
/// `self_` as for [`blake3_hasher_init`]; `context` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_init_derive_key(
    self_: *mut blake3_hasher,
    context: *const c_char,
) {
    let context = if context.is_null() {
        None
    } else {
        // SAFETY: the caller's promise.
        Some(unsafe { CStr::from_ptr(context) }.to_bytes())
    };
    // SAFETY: the caller's promise.
    unsafe { init(self_, context.map(Mode::DeriveKey)) }
}

/// Initialises `self` for key derivation with a context of `context_len` bytes.
///
/// # Safety
/// `self_` as for [`blake3_hasher_init`]; `context` is NULL or points to `context_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_init_derive_key_raw(
    self_: *mut blake3_hasher,
    context: *const c_void,
    context_len: usize,
) {
    // SAFETY: the caller's promise.
    let context = unsafe { input(context, context_len) };
    // SAFETY: the caller's promise.
    unsafe { init(self_, context.map(Mode::DeriveKey)) }
}

/// Adds `input_len` bytes at `input` to the hash.
///
/// # Safety
/// `self_` is NULL or an initialised `blake3_hasher`; `input` is NULL or points to `input_len`
/// readable bytes.
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_update(
    self_: *mut blake3_hasher,
    input: *const c_void,
    input_len: usize,
) {
    // SAFETY: the caller's promises.
    unsafe {
        with_mut(self_, |hasher| {
            hasher.update(ffi::input(input, input_len)?, Threads::Caller);
            Some(())
        })
    }
}

/// Forgets all input, keeping the mode and key.
///
/// # Safety
/// As for [`blake3_hasher_update`].
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_reset(self_: *mut blake3_hasher) {
    // SAFETY: the caller's promise.
    unsafe {
        with_mut(self_, |hasher| {
            hasher.reset();
            Some(())
        })
    }
}

/// Writes `out_len` bytes of output starting at byte `seek` of the extended output.
///
/// # Safety
/// `self_` is NULL or an initialised `blake3_hasher`; `out` is NULL or points to `out_len`
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_finalize_seek(
    self_: *const blake3_hasher,
    seek: u64,
    out: *mut u8,
    out_len: usize,
) {
    // SAFETY: the caller's promise.
    let Some(out) = (unsafe { output(out, out_len) }) else {
        return;
    };
    let hasher = if self_.is_null() {
        None
    } else {
        // SAFETY: the caller's promise.
        unsafe { slot::get::<State>(self_.cast()) }
    };
    let Some(hasher) = hasher else {
        out.fill(0);
        return;
    };
    let done = guard(false, || {
        hasher.finalize(seek, out);
        true
    });
    if !done {
        out.fill(0);
    }
}

/// Writes `out_len` bytes of output (32 is the default hash; more is extended output).
///
/// # Safety
/// As for [`blake3_hasher_finalize_seek`].
#[no_mangle]
pub unsafe extern "C" fn blake3_hasher_finalize(
    self_: *const blake3_hasher,
    out: *mut u8,
    out_len: usize,
) {
    // SAFETY: the caller's promises.
    unsafe { blake3_hasher_finalize_seek(self_, 0, out, out_len) }
}

/// Whether `hasher` is initialised and every call on it so far had valid arguments: 0 if so,
/// -1 if not.
///
/// # Safety
/// `hasher` is NULL or points to a `blake3_hasher`.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hasher_check(hasher: *const blake3_hasher) -> i32 {
    // SAFETY: the caller's promise.
    let valid = !hasher.is_null() && unsafe { slot::get::<State>(hasher.cast()) }.is_some();
    if valid {
        ffi::OK
    } else {
        ffi::BAD_ARGUMENT
    }
}

/// Like `blake3_hasher_update`, but hashes inputs of 1 MiB and more on several threads; returns
/// 0, or -1 for bad arguments or a hasher that is not usable.
///
/// # Safety
/// As for [`blake3_hasher_update`].
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hasher_update_threaded(
    self_: *mut blake3_hasher,
    input: *const c_void,
    input_len: usize,
) -> i32 {
    let mut result = ffi::BAD_ARGUMENT;
    // SAFETY: the caller's promises.
    unsafe {
        with_mut(self_, |hasher| {
            hasher.update(ffi::input(input, input_len)?, Threads::Pool);
            result = ffi::OK;
            Some(())
        })
    };
    result
}
