//! The WebAssembly module of the npm package: raw `extern "C"` exports called by the
//! hand-written glue in `js/src/wasm.js` (no wasm-bindgen: fewer moving parts and the cheapest
//! call for small inputs).
//!
//! # Calling convention
//!
//! - Pointers and lengths are `i32` (wasm32 `usize`). Byte offsets into an input or an output
//!   stream (BLAKE3 subtree offsets, XOF seek positions) are `f64` holding an integer below
//!   2^53, so that JavaScript passes plain numbers rather than `BigInt`s.
//! - Memory: `alloc(len) -> ptr` (0 if it cannot be had) and `free(ptr, len)` with the same
//!   `len`. The glue allocates one I/O buffer once and copies inputs through it in pieces.
//! - Hashers are handles: a `*_new` export returns a pointer to a boxed [`State`] (0 if the
//!   parameters are invalid); `update(h, ptr, len)`, `clone(h) -> h`, `drop_state(h)` work on
//!   every kind; `b3_finalize` / `b2_finalize` read the result without changing the state.
//! - Nothing here panics on any argument the glue can pass: invalid parameters return 0 or a
//!   negative code, checked before any `arborhash` call that would assert. A handle must come
//!   from a `*_new` or `clone` of this instance and not have been dropped (the glue owns that).
//! - BLAKE3 modes (`mode`, with `key_ptr`): 0 hash (`key_ptr` ignored), 1 keyed (32-byte key at
//!   `key_ptr`), 2 derive-key material (32-byte context key at `key_ptr`, from
//!   `b3_context_key`).
//! - BLAKE2 variants (`variant`): 0 BLAKE2b, 1 BLAKE2s, 2 BLAKE2bp, 3 BLAKE2sp; parameters in a
//!   [`Blake2Params`] block the glue writes at `params_ptr` (BLAKE2bp/2sp use only the digest
//!   length and the key).
//! - Bao's exports live in their own module, `bao.rs`, under the same convention;
//!   `arborhash::bao` needs the crate's `std` feature, which builds for wasm32-unknown-unknown.

mod bao;

use arborhash::blake3::hazmat::{self, HasherExt, Mode};
use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake3};
use core::slice;

/// One hasher behind a handle.
// Flat on purpose (no inner Box): `save` and `load` copy a state as bytes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum State {
    Blake3(blake3::Hasher),
    Blake2b(blake2b::State),
    Blake2s(blake2s::State),
    Blake2bp(blake2bp::State),
    Blake2sp(blake2sp::State),
}

/// The bytes at `ptr..ptr + len`, or an empty slice for length 0 (whatever `ptr` is).
///
/// # Safety
/// `ptr..ptr + len` is memory of this instance that nothing writes during the borrow.
unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        slice::from_raw_parts(ptr, len)
    }
}

/// The writable bytes at `ptr..ptr + len` (empty for length 0).
///
/// # Safety
/// `ptr..ptr + len` is memory of this instance that nothing else reads or writes meanwhile.
unsafe fn output<'a>(ptr: *mut u8, len: usize) -> &'a mut [u8] {
    if len == 0 {
        &mut []
    } else {
        slice::from_raw_parts_mut(ptr, len)
    }
}

/// Allocates `len` bytes (alignment 8); 0 if `len` is 0 or the memory cannot grow.
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    match std::alloc::Layout::from_size_align(len, 8) {
        // SAFETY: the layout has a non-zero size.
        Ok(layout) if len > 0 => unsafe { std::alloc::alloc(layout) },
        _ => core::ptr::null_mut(),
    }
}

/// Frees memory from [`alloc`] of the same `len`.
///
/// # Safety
/// `ptr` came from `alloc(len)` and is not used again.
#[no_mangle]
pub unsafe extern "C" fn free(ptr: *mut u8, len: usize) {
    // `alloc` never returns a pointer for length 0, so there is nothing to free then.
    if let (false, true, Ok(layout)) = (
        ptr.is_null(),
        len > 0,
        std::alloc::Layout::from_size_align(len, 8),
    ) {
        std::alloc::dealloc(ptr, layout);
    }
}

fn into_handle(state: State) -> *mut State {
    Box::into_raw(Box::new(state))
}

/// Adds `len` bytes at `ptr` to the hasher `h`.
///
/// # Safety
/// `h` is a live handle; `ptr..ptr + len` is readable.
#[no_mangle]
pub unsafe extern "C" fn update(h: *mut State, ptr: *const u8, len: usize) {
    let data = input(ptr, len);
    match &mut *h {
        State::Blake3(s) => {
            s.update(data);
        }
        State::Blake2b(s) => {
            s.update(data);
        }
        State::Blake2s(s) => {
            s.update(data);
        }
        State::Blake2bp(s) => {
            s.update(data);
        }
        State::Blake2sp(s) => {
            s.update(data);
        }
    }
}

/// A new handle with a copy of the state of `h`.
///
/// # Safety
/// `h` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn clone(h: *const State) -> *mut State {
    into_handle((*h).clone())
}

/// Frees the hasher `h`.
///
/// # Safety
/// `h` is a live handle, not used again.
#[no_mangle]
pub unsafe extern "C" fn drop_state(h: *mut State) {
    drop(Box::from_raw(h));
}

/// The size in bytes of a hasher's state, as [`save`] writes it.
#[no_mangle]
pub extern "C" fn state_size() -> usize {
    core::mem::size_of::<State>()
}

/// Copies the state of `h` (`state_size()` bytes) to `out_ptr`.
///
/// # Safety
/// `h` is a live handle; `out_ptr` has `state_size()` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn save(h: *const State, out_ptr: *mut u8) {
    core::ptr::copy_nonoverlapping(h.cast::<u8>(), out_ptr, state_size());
}

/// Overwrites the state of `h` with `state_size()` bytes at `in_ptr`.
///
/// # Safety
/// `h` is a live handle of the same kind as the hasher the bytes were saved from, and the bytes
/// are exactly what [`save`] wrote in this same build (the glue checks a build tag and a
/// checksum first), so they are a valid `State`, which owns no memory outside itself.
#[no_mangle]
pub unsafe extern "C" fn load(h: *mut State, in_ptr: *const u8) {
    core::ptr::copy_nonoverlapping(in_ptr, h.cast::<u8>(), state_size());
}

// ---------------------------------------------------------------------------------------------
// BLAKE3

/// The 32 bytes at `key_ptr` for modes 1 and 2; `None` for an unknown mode.
///
/// # Safety
/// For modes 1 and 2, `key_ptr` points to 32 readable bytes.
unsafe fn mode<'a>(mode: u32, key_ptr: *const [u8; 32]) -> Option<Mode<'a>> {
    match mode {
        0 => Some(Mode::Hash),
        1 => Some(Mode::KeyedHash(&*key_ptr)),
        2 => Some(Mode::DeriveKeyMaterial(&*key_ptr)),
        _ => None,
    }
}

fn hasher(mode: Mode<'_>) -> blake3::Hasher {
    match mode {
        Mode::Hash => blake3::Hasher::new(),
        Mode::KeyedHash(key) => blake3::Hasher::new_keyed(key),
        Mode::DeriveKeyMaterial(context_key) => blake3::Hasher::new_from_context_key(context_key),
    }
}

/// An XOF seek position from JavaScript, if it is a whole number the stream can reach.
fn position(seek: f64) -> Option<u64> {
    ((0.0..=9007199254740991.0).contains(&seek) && seek.fract() == 0.0).then_some(seek as u64)
}

/// Writes the 32-byte context key of the derive-key context at `ctx_ptr..ctx_ptr + ctx_len` to
/// `out_ptr` (contexts are bytes here: the glue encodes strings as UTF-8).
///
/// # Safety
/// The context is readable and `out_ptr` has 32 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn b3_context_key(ctx_ptr: *const u8, ctx_len: usize, out_ptr: *mut u8) {
    let key = hazmat::hash_derive_key_context_bytes(input(ctx_ptr, ctx_len));
    output(out_ptr, 32).copy_from_slice(&key);
}

/// One-shot BLAKE3: writes `out_len` bytes of the output of `in_ptr..in_ptr + in_len`,
/// starting at byte `seek` of the output stream, to `out_ptr`. Returns 0, or -1 for an unknown
/// mode or a seek that is not a whole number below 2^53.
///
/// # Safety
/// As in the [module documentation](self); the output does not overlap the input.
#[no_mangle]
pub unsafe extern "C" fn b3_hash(
    mode_id: u32,
    key_ptr: *const [u8; 32],
    in_ptr: *const u8,
    in_len: usize,
    out_ptr: *mut u8,
    out_len: usize,
    seek: f64,
) -> i32 {
    let (Some(mode), Some(seek)) = (mode(mode_id, key_ptr), position(seek)) else {
        return -1;
    };
    let data = input(in_ptr, in_len);
    let out = output(out_ptr, out_len);
    if seek == 0 && out_len == 32 && matches!(mode, Mode::Hash) {
        // The common case without a hasher on the stack.
        out.copy_from_slice(blake3::hash(data).as_bytes());
        return 0;
    }
    let mut reader = hasher(mode).update(data).finalize_xof();
    reader.set_position(seek);
    reader.fill(out);
    0
}

/// A new BLAKE3 hasher; 0 for an unknown mode.
///
/// # Safety
/// As for [`b3_hash`]'s `key_ptr`.
#[no_mangle]
pub unsafe extern "C" fn b3_new(mode_id: u32, key_ptr: *const [u8; 32]) -> *mut State {
    match mode(mode_id, key_ptr) {
        Some(mode) => into_handle(State::Blake3(hasher(mode))),
        None => core::ptr::null_mut(),
    }
}

/// Writes `out_len` bytes of the BLAKE3 hasher `h`'s output from position `seek` to `out_ptr`,
/// leaving the hasher unchanged. Returns 0, -1 for a bad seek, -2 if `h` is not BLAKE3.
///
/// # Safety
/// `h` is a live handle; `out_ptr..out_ptr + out_len` is writable.
#[no_mangle]
pub unsafe extern "C" fn b3_finalize(
    h: *const State,
    out_ptr: *mut u8,
    out_len: usize,
    seek: f64,
) -> i32 {
    let State::Blake3(s) = &*h else { return -2 };
    let Some(seek) = position(seek) else {
        return -1;
    };
    let mut reader = s.finalize_xof();
    reader.set_position(seek);
    reader.fill(output(out_ptr, out_len));
    0
}

/// Resets the BLAKE3 hasher `h` to its state before any input (same mode and key).
///
/// # Safety
/// `h` is a live handle.
#[no_mangle]
pub unsafe extern "C" fn b3_reset(h: *mut State) {
    if let State::Blake3(s) = &mut *h {
        s.reset();
    }
}

/// The 32-byte chaining value of the subtree `in_ptr..in_ptr + in_len` starting `offset`
/// bytes into the whole input, written to `out_ptr`. Returns 0, or -1 for an unknown mode or an
/// invalid subtree (see `arborhash::blake3::hazmat::hash_subtree`).
///
/// # Safety
/// As for [`b3_hash`]; `out_ptr` has 32 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn b3_subtree(
    mode_id: u32,
    key_ptr: *const [u8; 32],
    offset: f64,
    in_ptr: *const u8,
    in_len: usize,
    out_ptr: *mut u8,
) -> i32 {
    let (Some(mode), Some(offset)) = (mode(mode_id, key_ptr), position(offset)) else {
        return -1;
    };
    match hazmat::hash_subtree(mode, offset, input(in_ptr, in_len)) {
        Ok(cv) => {
            output(out_ptr, 32).copy_from_slice(&cv);
            0
        }
        Err(_) => -1,
    }
}

/// Merges the chaining values of two sibling subtrees (64 bytes at `cvs_ptr`: left, right).
/// With `root` 0 writes the parent's 32-byte chaining value; otherwise `out_len` bytes of the
/// root's output from position `seek`. Returns 0, or -1 for an unknown mode or a bad seek.
///
/// # Safety
/// As for [`b3_hash`]; `cvs_ptr` has 64 readable bytes.
#[no_mangle]
pub unsafe extern "C" fn b3_merge(
    mode_id: u32,
    key_ptr: *const [u8; 32],
    cvs_ptr: *const [u8; 64],
    root: u32,
    out_ptr: *mut u8,
    out_len: usize,
    seek: f64,
) -> i32 {
    let (Some(mode), Some(seek)) = (mode(mode_id, key_ptr), position(seek)) else {
        return -1;
    };
    let cvs = &*cvs_ptr;
    let (left, right) = (cvs[..32].try_into().unwrap(), cvs[32..].try_into().unwrap());
    if root == 0 {
        let cv = hazmat::merge_subtrees_non_root(left, right, mode);
        output(out_ptr, 32).copy_from_slice(&cv);
    } else {
        let mut reader = hazmat::merge_subtrees_root_xof(left, right, mode);
        reader.set_position(seek);
        reader.fill(output(out_ptr, out_len));
    }
    0
}

// ---------------------------------------------------------------------------------------------
// BLAKE2

/// The parameter block the glue writes for [`b2_new`] and [`b2_hash`] (little-endian, 144
/// bytes). Lengths out of range make those return 0.
#[repr(C)]
pub struct Blake2Params {
    digest_len: u32,
    key_len: u32,
    salt_len: u32,
    personal_len: u32,
    fanout: u32,
    max_depth: u32,
    max_leaf_len: u32,
    node_depth: u32,
    inner_len: u32,
    last_node: u32,
    node_offset: f64,
    key: [u8; 64],
    salt: [u8; 16],
    personal: [u8; 16],
}

/// The limits of one variant: (digest and key length, salt and personal length, node offset
/// bits).
const fn limits(variant: u32) -> (usize, usize, u32) {
    match variant {
        0 | 2 => (64, 16, 64),
        _ => (32, 8, 48),
    }
}

/// Validated BLAKE2 parameters of one variant (small, unlike a [`State`]).
enum Blake2 {
    B(blake2b::Params),
    S(blake2s::Params),
    Bp(blake2bp::Params),
    Sp(blake2sp::Params),
}

impl Blake2 {
    fn state(&self) -> State {
        match self {
            Blake2::B(p) => State::Blake2b(p.to_state()),
            Blake2::S(p) => State::Blake2s(p.to_state()),
            Blake2::Bp(p) => State::Blake2bp(p.to_state()),
            Blake2::Sp(p) => State::Blake2sp(p.to_state()),
        }
    }

    /// Writes the hash of `data` to `out` and returns its length.
    fn hash(&self, data: &[u8], out: &mut [u8; 64]) -> usize {
        let mut put = |hash: &[u8]| {
            out[..hash.len()].copy_from_slice(hash);
            hash.len()
        };
        match self {
            Blake2::B(p) => put(p.hash(data).as_bytes()),
            Blake2::S(p) => put(p.hash(data).as_bytes()),
            Blake2::Bp(p) => put(p.hash(data).as_bytes()),
            Blake2::Sp(p) => put(p.hash(data).as_bytes()),
        }
    }
}

/// The parameters described by `p`, or `None` if one is out of range.
fn blake2_params(variant: u32, p: &Blake2Params) -> Option<Blake2> {
    if variant > 3 {
        return None;
    }
    let (out_max, salt_max, offset_bits) = limits(variant);
    let digest_len = p.digest_len as usize;
    let key = p
        .key
        .get(..p.key_len as usize)
        .filter(|k| k.len() <= out_max)?;
    if !(1..=out_max).contains(&digest_len) {
        return None;
    }
    if variant == 2 {
        let mut params = blake2bp::Params::new();
        params.hash_length(digest_len).key(key);
        return Some(Blake2::Bp(params));
    }
    if variant == 3 {
        let mut params = blake2sp::Params::new();
        params.hash_length(digest_len).key(key);
        return Some(Blake2::Sp(params));
    }
    let salt = p
        .salt
        .get(..p.salt_len as usize)
        .filter(|s| s.len() <= salt_max)?;
    let personal = p
        .personal
        .get(..p.personal_len as usize)
        .filter(|s| s.len() <= salt_max)?;
    let offset = position(p.node_offset).filter(|&o| offset_bits == 64 || o < 1 << offset_bits)?;
    let byte = |v: u32| u8::try_from(v).ok();
    let (fanout, max_depth, node_depth) =
        (byte(p.fanout)?, byte(p.max_depth)?, byte(p.node_depth)?);
    let inner_len = p.inner_len as usize;
    if inner_len > out_max {
        return None;
    }
    macro_rules! build {
        ($module:ident, $variant:ident) => {{
            let mut params = $module::Params::new();
            params
                .hash_length(digest_len)
                .key(key)
                .salt(salt)
                .personal(personal)
                .fanout(fanout)
                .max_depth(max_depth)
                .max_leaf_length(p.max_leaf_len)
                .node_offset(offset)
                .node_depth(node_depth)
                .inner_hash_length(inner_len)
                .last_node(p.last_node != 0);
            Blake2::$variant(params)
        }};
    }
    Some(if variant == 0 {
        build!(blake2b, B)
    } else {
        build!(blake2s, S)
    })
}

/// A new BLAKE2 hasher of `variant` with the parameters at `params_ptr`; 0 if one is invalid.
///
/// # Safety
/// `params_ptr` points to a readable [`Blake2Params`].
#[no_mangle]
pub unsafe extern "C" fn b2_new(variant: u32, params_ptr: *const Blake2Params) -> *mut State {
    match blake2_params(variant, &*params_ptr) {
        Some(params) => Box::into_raw(Box::new(params.state())),
        None => core::ptr::null_mut(),
    }
}

/// Writes the BLAKE2 hash of the hasher `h` to `out_ptr` (which has room for 64 bytes) and
/// returns its length; the hasher is unchanged. Returns -2 if `h` is BLAKE3.
///
/// # Safety
/// `h` is a live handle; `out_ptr` has 64 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn b2_finalize(h: *const State, out_ptr: *mut u8) -> i32 {
    let put = |hash: &[u8]| {
        output(out_ptr, hash.len()).copy_from_slice(hash);
        hash.len() as i32
    };
    match &*h {
        State::Blake3(_) => -2,
        State::Blake2b(s) => put(s.finalize().as_bytes()),
        State::Blake2s(s) => put(s.finalize().as_bytes()),
        State::Blake2bp(s) => put(s.finalize().as_bytes()),
        State::Blake2sp(s) => put(s.finalize().as_bytes()),
    }
}

/// One-shot BLAKE2 of `variant` with the default parameters (what a call without options
/// asks for, without reading or checking a parameter block): writes the hash to `out_ptr`
/// (room for 64 bytes) and returns its length, or -1 for an unknown variant.
///
/// # Safety
/// `in_ptr..in_ptr + in_len` is readable; `out_ptr` has 64 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn b2_hash_default(
    variant: u32,
    in_ptr: *const u8,
    in_len: usize,
    out_ptr: *mut u8,
) -> i32 {
    let data = input(in_ptr, in_len);
    let put = |hash: &[u8]| {
        output(out_ptr, hash.len()).copy_from_slice(hash);
        hash.len() as i32
    };
    match variant {
        0 => put(blake2b::blake2b(data).as_bytes()),
        1 => put(blake2s::blake2s(data).as_bytes()),
        2 => put(blake2bp::blake2bp(data).as_bytes()),
        3 => put(blake2sp::blake2sp(data).as_bytes()),
        _ => -1,
    }
}

/// One-shot BLAKE2: hashes `in_ptr..in_ptr + in_len` with the parameters at `params_ptr`,
/// writes the hash to `out_ptr` (room for 64 bytes) and returns its length, or -1 if a
/// parameter is invalid.
///
/// # Safety
/// As for [`b2_new`] and [`b2_finalize`]; `in_ptr..in_ptr + in_len` is readable.
#[no_mangle]
pub unsafe extern "C" fn b2_hash(
    variant: u32,
    params_ptr: *const Blake2Params,
    in_ptr: *const u8,
    in_len: usize,
    out_ptr: *mut u8,
) -> i32 {
    let Some(params) = blake2_params(variant, &*params_ptr) else {
        return -1;
    };
    let mut out = [0; 64];
    let len = params.hash(input(in_ptr, in_len), &mut out);
    output(out_ptr, len).copy_from_slice(&out[..len]);
    len as i32
}
