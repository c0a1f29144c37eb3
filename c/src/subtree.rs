//! BLAKE3 subtrees for `arborhash.h`: `arborhash::blake3::hazmat` in C. Parts of one input
//! hashed apart (on other threads or machines) into chaining values, merged into parents and
//! into the root. Functions return 0 on success, -1 on a bad argument, including an offset or a
//! length that cannot form a subtree, and -2 on a caught internal error.

use core::ffi::c_void;

use arborhash::blake3::hazmat::{self, ChainingValue, Mode};
use arborhash::blake3::CHUNK_LEN;

use crate::ffi::{input, output, status, BAD_ARGUMENT};

/// `ARBORHASH_BLAKE3_MODE_HASH`: the default hash; the key pointer is not read.
pub const MODE_HASH: i32 = 0;
/// `ARBORHASH_BLAKE3_MODE_KEYED_HASH`: the keyed hash; the key pointer gives the 32-byte key.
pub const MODE_KEYED_HASH: i32 = 1;
/// `ARBORHASH_BLAKE3_MODE_DERIVE_KEY_MATERIAL`: the key-material stage of key derivation; the
/// key pointer gives the context key from `arborhash_blake3_hash_derive_key_context`.
pub const MODE_DERIVE_KEY_MATERIAL: i32 = 2;

/// The 32 bytes at `ptr`.
///
/// # Safety
/// `ptr` is NULL or points to 32 readable bytes.
unsafe fn array<'a>(ptr: *const u8) -> Option<&'a [u8; 32]> {
    // SAFETY: the caller's promise.
    unsafe { input(ptr.cast(), 32) }?.try_into().ok()
}

/// The hazmat mode for a C mode number and its key; `None` for an unknown mode or a NULL key
/// where the mode needs one.
///
/// # Safety
/// `key` is NULL or points to 32 readable bytes.
unsafe fn mode<'a>(mode: i32, key: *const u8) -> Option<Mode<'a>> {
    match mode {
        MODE_HASH => Some(Mode::Hash),
        // SAFETY: the caller's promise.
        MODE_KEYED_HASH => Some(Mode::KeyedHash(unsafe { array(key) }?)),
        // SAFETY: the caller's promise.
        MODE_DERIVE_KEY_MATERIAL => Some(Mode::DeriveKeyMaterial(unsafe { array(key) }?)),
        _ => None,
    }
}

/// Hashes a derive-key context of `context_len` bytes (any bytes, as the official
/// `blake3_hasher_init_derive_key_raw` takes) into the 32-byte context key at `context_key`.
///
/// # Safety
/// `context` is NULL or points to `context_len` bytes; `context_key` is NULL or points to 32
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hash_derive_key_context(
    context: *const c_void,
    context_len: usize,
    context_key: *mut u8,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (context, out) = unsafe { (input(context, context_len)?, output(context_key, 32)?) };
        out.copy_from_slice(&hazmat::hash_derive_key_context_bytes(context));
        Some(())
    })
}

/// The chaining value of the subtree of `len` bytes at `input`, which starts `input_offset`
/// bytes into the whole input, into the 32 bytes at `cv`. -1 if no subtree has that offset and
/// length (see `hazmat::hash_subtree`).
///
/// # Safety
/// `key` as for the mode; `input` is NULL or points to `len` bytes; `cv` is NULL or points to 32
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hash_subtree(
    mode: i32,
    key: *const u8,
    input_offset: u64,
    input: *const c_void,
    len: usize,
    cv: *mut u8,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (mode, bytes, out) = unsafe {
            (
                self::mode(mode, key)?,
                self::input(input, len)?,
                output(cv, 32)?,
            )
        };
        out.copy_from_slice(&hazmat::hash_subtree(mode, input_offset, bytes).ok()?);
        Some(())
    })
}

/// The two children's chaining values, the mode and the output.
///
/// # Safety
/// `left` and `right` are NULL or point to 32 bytes, `key` as for the mode, `out` is NULL or
/// points to `out_len` writable bytes.
unsafe fn merge_arguments<'a>(
    left: *const u8,
    right: *const u8,
    mode: i32,
    key: *const u8,
    out: *mut u8,
    out_len: usize,
) -> Option<(&'a ChainingValue, &'a ChainingValue, Mode<'a>, &'a mut [u8])> {
    // SAFETY: the caller's promises.
    unsafe {
        Some((
            array(left)?,
            array(right)?,
            self::mode(mode, key)?,
            output(out, out_len)?,
        ))
    }
}

/// The chaining value of the parent (not the root) of two sibling subtrees, into the 32 bytes
/// at `cv`.
///
/// # Safety
/// As for [`merge_arguments`], with `cv` of 32 bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_merge_subtrees_non_root(
    left: *const u8,
    right: *const u8,
    mode: i32,
    key: *const u8,
    cv: *mut u8,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (left, right, mode, out) = unsafe { merge_arguments(left, right, mode, key, cv, 32)? };
        out.copy_from_slice(&hazmat::merge_subtrees_non_root(left, right, mode));
        Some(())
    })
}

/// `out_len` bytes of the output of the root whose children are `left` and `right`, from byte
/// `seek` on: with `seek` 0 and `out_len` 32, the hash of the whole input.
///
/// # Safety
/// As for [`merge_arguments`].
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_merge_subtrees_root(
    left: *const u8,
    right: *const u8,
    mode: i32,
    key: *const u8,
    seek: u64,
    out: *mut u8,
    out_len: usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (left, right, mode, out) =
            unsafe { merge_arguments(left, right, mode, key, out, out_len)? };
        let mut reader = hazmat::merge_subtrees_root_xof(left, right, mode);
        reader.set_position(seek);
        reader.fill(out);
        Some(())
    })
}

/// Into `*left_len`: the length of the left child of a parent over `input_len` bytes (the
/// root's split, for the whole input). -1 if `input_len` is at most one chunk (no children).
///
/// # Safety
/// `left_len` is NULL or points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_left_subtree_len(
    input_len: u64,
    left_len: *mut u64,
) -> i32 {
    if left_len.is_null() || input_len <= CHUNK_LEN as u64 {
        return BAD_ARGUMENT;
    }
    status(|| {
        let len = hazmat::left_subtree_len(input_len);
        // SAFETY: non-NULL (checked above) and the caller's promise.
        unsafe { left_len.write_unaligned(len) };
        Some(())
    })
}

/// Into `*max_len`: the most bytes a subtree starting at `input_offset` can hold, UINT64_MAX
/// for offset 0 (no limit). -1 if `input_offset` is not a multiple of `BLAKE3_CHUNK_LEN`.
///
/// # Safety
/// `max_len` is NULL or points to a writable `uint64_t`.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_max_subtree_len(
    input_offset: u64,
    max_len: *mut u64,
) -> i32 {
    if max_len.is_null() || !input_offset.is_multiple_of(CHUNK_LEN as u64) {
        return BAD_ARGUMENT;
    }
    status(|| {
        let len = hazmat::max_subtree_len(input_offset).unwrap_or(u64::MAX);
        // SAFETY: non-NULL (checked above) and the caller's promise.
        unsafe { max_len.write_unaligned(len) };
        Some(())
    })
}
