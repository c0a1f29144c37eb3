//! BLAKE3 subtrees for `arborhash.h`: `arborhash::blake3::hazmat` in C. Parts of one input
//! hashed apart (on other threads or machines) into chaining values, merged into parents and
//! into the root. Functions return 0 on success, -1 on a bad argument, including an offset or a
//! length that cannot form a subtree, and -2 on a caught internal error.

use core::ffi::c_void;

use arborhash::blake3::hazmat::{self, ChainingValue, HasherExt, Mode};
use arborhash::blake3::{Hasher, CHUNK_LEN};

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

/// The C `arborhash_blake3_subtree_hasher`: a subtree fed in pieces. It checks every rule
/// `HasherExt` would panic on before the `Hasher` sees the input, so nothing panics.
pub struct SubtreeHasher {
    hasher: Hasher,
    /// Where the subtree starts in the whole input; only offset 0 has a root.
    offset: u64,
    /// Set by a finalize: later calls are refused.
    finished: bool,
}

/// A new subtree hasher for the subtree starting `input_offset` bytes into the whole input,
/// into `*hasher` (freed with `arborhash_blake3_subtree_hasher_free`). -1 for an unknown mode,
/// a NULL key the mode needs, an offset that is not a multiple of `BLAKE3_CHUNK_LEN`, or a NULL
/// `hasher` (then nothing is allocated).
///
/// # Safety
/// `key` as for the mode; `hasher` is NULL or points to a writable pointer.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_subtree_hasher_new(
    mode: i32,
    key: *const u8,
    input_offset: u64,
    hasher: *mut *mut SubtreeHasher,
) -> i32 {
    if hasher.is_null() || !input_offset.is_multiple_of(CHUNK_LEN as u64) {
        return BAD_ARGUMENT;
    }
    status(|| {
        // SAFETY: the caller's promise.
        let mut inner = match unsafe { self::mode(mode, key) }? {
            Mode::Hash => Hasher::new(),
            Mode::KeyedHash(key) => Hasher::new_keyed(key),
            Mode::DeriveKeyMaterial(context_key) => Hasher::new_from_context_key(context_key),
        };
        inner.set_input_offset(input_offset);
        let made = Box::new(SubtreeHasher {
            hasher: inner,
            offset: input_offset,
            finished: false,
        });
        // SAFETY: non-NULL (checked above) and the caller's promise.
        unsafe { hasher.write_unaligned(Box::into_raw(made)) };
        Some(())
    })
}

/// The hasher behind a C pointer, if it may take another call.
///
/// # Safety
/// `hasher` is NULL or from `arborhash_blake3_subtree_hasher_new`, not freed, used by no other
/// call meanwhile.
unsafe fn open<'a>(hasher: *mut SubtreeHasher) -> Option<&'a mut SubtreeHasher> {
    // SAFETY: the caller's promise.
    unsafe { hasher.as_mut() }.filter(|h| !h.finished)
}

/// Adds `len` bytes at `input` to the subtree. -1, adding nothing, if the subtree would grow
/// past `max_subtree_len(offset)`, if the hasher was finalized, or for NULL pointers.
///
/// # Safety
/// As for [`open`]; `input` is NULL or points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_subtree_hasher_update(
    hasher: *mut SubtreeHasher,
    input: *const c_void,
    len: usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (h, bytes) = unsafe { (open(hasher)?, self::input(input, len)?) };
        let room = hazmat::max_subtree_len(h.offset).map_or(u64::MAX, |max| max - h.hasher.count());
        if bytes.len() as u64 > room {
            return None;
        }
        h.hasher.update(bytes);
        Some(())
    })
}

/// The chaining value of the subtree into the 32 bytes at `cv`, finishing the hasher. -1 if it
/// took no input (empty subtrees are never valid), was finalized, or for NULL pointers.
///
/// # Safety
/// As for [`open`]; `cv` is NULL or points to 32 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_subtree_hasher_finalize_non_root(
    hasher: *mut SubtreeHasher,
    cv: *mut u8,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (h, out) = unsafe { (open(hasher)?, output(cv, 32)?) };
        if h.hasher.count() == 0 {
            return None;
        }
        out.copy_from_slice(&h.hasher.finalize_non_root());
        h.finished = true;
        Some(())
    })
}

/// `out_len` bytes of the root output from byte `seek` on, finishing the hasher: the whole
/// input's hash or extended output, so only for offset 0. -1 for another offset, a finalized
/// hasher, or NULL pointers.
///
/// # Safety
/// As for [`open`]; `out` is NULL or points to `out_len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_subtree_hasher_finalize_root(
    hasher: *mut SubtreeHasher,
    seek: u64,
    out: *mut u8,
    out_len: usize,
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (h, out) = unsafe { (open(hasher)?, output(out, out_len)?) };
        if h.offset != 0 {
            return None;
        }
        let mut reader = h.hasher.finalize_xof();
        reader.set_position(seek);
        reader.fill(out);
        h.finished = true;
        Some(())
    })
}

/// Frees a hasher from `arborhash_blake3_subtree_hasher_new`; NULL is ignored.
///
/// # Safety
/// `hasher` is NULL or from `arborhash_blake3_subtree_hasher_new` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_subtree_hasher_free(hasher: *mut SubtreeHasher) {
    if !hasher.is_null() {
        // SAFETY: the caller's promise: made by `Box::into_raw` and not freed.
        drop(unsafe { Box::from_raw(hasher) });
    }
}
