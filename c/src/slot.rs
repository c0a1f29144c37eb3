//! Rust values kept inside the opaque C structs (`blake3_hasher`, `blake2b_state`, ...).
//!
//! A C struct is an array of `uint64_t` words: the first word tags the slot (a magic number and
//! the byte offset of the value), the value follows at the first offset its alignment allows.
//! C guarantees only 8-byte alignment for such a struct (malloc gives 16 at most, while the
//! BLAKE3 hasher wants 64), and C code copies these structs with `=` or `memcpy` to places of
//! another alignment; so each access finds where the value must sit now and moves it there when
//! the struct was copied (a `memmove` within the struct, once per copy).

use core::mem::{align_of, size_of, ManuallyDrop};
use core::ptr;

/// Marks an initialised slot in the tag word's upper bits, so that most uses of a struct that
/// was never initialised are refused rather than read.
const MAGIC: u64 = 0x6172_626f_7268_0000;
const OFFSET_MASK: u64 = 0xffff;

/// The `uint64_t` words a C struct needs to hold a `T` at any 8-byte-aligned address.
pub const fn words<T>() -> usize {
    let align = if align_of::<T>() > 8 {
        align_of::<T>()
    } else {
        8
    };
    (align + size_of::<T>()).div_ceil(8)
}

/// The byte offset at which a `T` must sit in the slot starting at `base`.
fn offset_for<T>(base: usize) -> usize {
    let align = align_of::<T>().max(8);
    (base + 8).next_multiple_of(align) - base
}

/// The offset the tag records, if the slot is initialised and the offset leaves room for a `T`.
///
/// # Safety
/// `slot` points to at least one readable word.
unsafe fn recorded_offset<T>(slot: *const u64) -> Option<usize> {
    // SAFETY: the caller's promise.
    let tag = unsafe { slot.read() };
    let offset = (tag & OFFSET_MASK) as usize;
    let fits = (8..=words::<T>() * 8 - size_of::<T>()).contains(&offset);
    (tag & !OFFSET_MASK == MAGIC && fits).then_some(offset)
}

/// Stores `value` in the slot (whose previous contents, if any, are forgotten, not dropped).
///
/// # Safety
/// `slot` is non-null, 8-byte aligned, and points to `words::<T>()` writable words.
pub unsafe fn put<T>(slot: *mut u64, value: T) {
    // SAFETY: the caller's promise.
    unsafe { put_with(slot, || value) }
}

/// Stores `make()` in the slot, as [`put`]; written so that the compiler can build a large
/// value in its place rather than copy it there.
///
/// # Safety
/// As for [`put`].
#[inline(always)]
pub unsafe fn put_with<T>(slot: *mut u64, make: impl FnOnce() -> T) {
    let offset = offset_for::<T>(slot as usize);
    // SAFETY: `offset + size_of::<T>()` is within `words::<T>()` words, aligned for `T`; the
    // tag is written last, so a panic in `make` leaves the slot as it was.
    unsafe {
        ptr::write(slot.cast::<u8>().add(offset).cast::<T>(), make());
        slot.write(MAGIC | offset as u64);
    }
}

/// The value in the slot, moved to its place for the slot's current address first; `None` if
/// the slot was never initialised.
///
/// # Safety
/// `slot` is non-null, 8-byte aligned, and points to `words::<T>()` words that are either a slot
/// filled by [`put`] for the same `T` (possibly copied bytewise from elsewhere) or not
/// initialised by us; nothing else refers to it during the borrow.
pub unsafe fn get_mut<'a, T>(slot: *mut u64) -> Option<&'a mut T> {
    // SAFETY: the caller's promise.
    let recorded = unsafe { recorded_offset::<T>(slot) }?;
    let offset = offset_for::<T>(slot as usize);
    // SAFETY: both ranges lie within the slot's words (checked above, and by `offset_for`).
    unsafe {
        let bytes = slot.cast::<u8>();
        if recorded != offset {
            ptr::copy(bytes.add(recorded), bytes.add(offset), size_of::<T>());
            slot.write(MAGIC | offset as u64);
        }
        Some(&mut *bytes.add(offset).cast::<T>())
    }
}

/// The value in a slot seen through a `const` pointer: borrowed where it lies, or a copy when
/// the slot was copied to an address where the value is misaligned (not ours to move through a
/// `const` pointer). The copy is never dropped: the value still lives in the slot.
pub enum Ref<'a, T> {
    /// In place.
    Borrowed(&'a T),
    /// Copied out of a misaligned place.
    Copied(ManuallyDrop<T>),
}

impl<T> core::ops::Deref for Ref<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Ref::Borrowed(value) => value,
            Ref::Copied(value) => value,
        }
    }
}

/// The value in the slot for reading; `None` if the slot was never initialised.
///
/// # Safety
/// As for [`get_mut`], with read access only; `T` holds no pointers into itself (a bitwise copy
/// is a valid value).
pub unsafe fn get<'a, T>(slot: *const u64) -> Option<Ref<'a, T>> {
    // SAFETY: the caller's promise.
    let recorded = unsafe { recorded_offset::<T>(slot) }?;
    let value = slot.cast::<u8>().wrapping_add(recorded).cast::<T>();
    Some(if recorded == offset_for::<T>(slot as usize) {
        // SAFETY: in range (checked by `recorded_offset`) and aligned.
        Ref::Borrowed(unsafe { &*value })
    } else {
        // SAFETY: in range; read unaligned into an aligned local.
        Ref::Copied(ManuallyDrop::new(unsafe { value.read_unaligned() }))
    })
}

/// Marks the slot as not initialised (its value, if any, is forgotten, not dropped).
///
/// # Safety
/// `slot` is non-null, 8-byte aligned and points to a writable word.
pub unsafe fn clear(slot: *mut u64) {
    // SAFETY: the caller's promise.
    unsafe { slot.write(0) }
}
