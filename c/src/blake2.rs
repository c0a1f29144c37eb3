//! `blake2.h`: the libb2 API over `arborhash`'s BLAKE2b, BLAKE2s, BLAKE2bp and BLAKE2sp.
//!
//! Every function returns 0 on success and -1 on a bad argument (NULL where memory is needed, a
//! length out of range, a state never initialised or already finalised), as libb2 does; -2 would
//! mean a caught internal error.

use core::ffi::c_void;

use arborhash::{blake2b, blake2bp, blake2s, blake2sp};

use crate::ffi::{input, output, status};
use crate::slot;

/// A Rust state in a C `blake2*_state`, with libb2's rule that a finalised state takes no more
/// calls until it is initialised again.
struct Entry<S> {
    state: S,
    finalized: bool,
}

/// Puts the state `make` builds into `slot`, or clears the slot if `make` fails.
///
/// # Safety
/// `slot` is NULL or points to the C struct for `S`.
unsafe fn init<S>(slot: *mut u64, make: impl FnOnce() -> Option<S>) -> i32 {
    if slot.is_null() {
        return crate::ffi::BAD_ARGUMENT;
    }
    let mut state = None;
    let result = status(|| {
        state = Some(make()?);
        Some(())
    });
    // SAFETY: non-NULL, and the C struct for `S` has room for its slot.
    unsafe {
        match state {
            Some(state) => slot::put(
                slot,
                Entry {
                    state,
                    finalized: false,
                },
            ),
            None => slot::clear(slot),
        }
    }
    result
}

/// The initialised, not yet finalised state in `slot`.
///
/// # Safety
/// `slot` is NULL or points to the C struct for `S`, which nothing else uses during the borrow.
unsafe fn open<'a, S>(slot: *mut u64) -> Option<&'a mut Entry<S>> {
    if slot.is_null() {
        return None;
    }
    // SAFETY: the caller's promise.
    unsafe { slot::get_mut::<Entry<S>>(slot) }.filter(|entry| !entry.finalized)
}

/// Checks a hash length and an optional key for `init`, `init_key` and the one-shot functions.
fn check(outlen: usize, key: &[u8], max: usize) -> Option<()> {
    ((1..=max).contains(&outlen) && key.len() <= max).then_some(())
}

/// Writes the first `outlen` bytes of `hash` (at most its length) to `out`.
///
/// # Safety
/// `out` is NULL or points to `outlen` writable bytes.
unsafe fn write_hash(out: *mut u8, outlen: usize, max: usize, hash: &[u8]) -> Option<()> {
    if !(1..=max).contains(&outlen) {
        return None;
    }
    // SAFETY: the caller's promise.
    let out = unsafe { output(out, outlen) }?;
    let n = outlen.min(hash.len());
    out[..n].copy_from_slice(&hash[..n]);
    Some(())
}

/// The parameter block fields of `blake2b_param` / `blake2s_param`, read from the raw block
/// (the C structs are packed and laid out as the BLAKE2 specification's parameter block).
struct ParamBlock<'a> {
    digest_length: usize,
    key_length: u8,
    fanout: u8,
    depth: u8,
    leaf_length: u32,
    node_offset: u64,
    node_depth: u8,
    inner_length: usize,
    reserved: &'a [u8],
    salt: &'a [u8],
    personal: &'a [u8],
}

impl<'a> ParamBlock<'a> {
    /// Reads a block whose node offset takes `offset_len` bytes and whose salt and
    /// personalization take `salt_len` bytes each.
    fn read(block: &'a [u8], offset_len: usize, salt_len: usize) -> ParamBlock<'a> {
        let mut offset = [0; 8];
        offset[..offset_len].copy_from_slice(&block[8..8 + offset_len]);
        let rest = 8 + offset_len;
        let salt_at = block.len() - 2 * salt_len;
        ParamBlock {
            digest_length: block[0].into(),
            key_length: block[1],
            fanout: block[2],
            depth: block[3],
            leaf_length: u32::from_le_bytes(block[4..8].try_into().unwrap()),
            node_offset: u64::from_le_bytes(offset),
            node_depth: block[rest],
            inner_length: block[rest + 1].into(),
            reserved: &block[rest + 2..salt_at],
            salt: &block[salt_at..salt_at + salt_len],
            personal: &block[salt_at + salt_len..],
        }
    }

    /// Whether arborhash's `Params` can express the block: a key length of zero (the key comes
    /// with `init_key`), lengths in range, and zero reserved bytes.
    fn valid(&self, outbytes: usize) -> bool {
        (1..=outbytes).contains(&self.digest_length)
            && self.key_length == 0
            && self.inner_length <= outbytes
            && self.reserved.iter().all(|&b| b == 0)
    }
}

/// The functions of one BLAKE2 variant: `init`, `init_key`, `update`, `final` and the one-shot
/// function, over the variant's `Params` and `State`.
macro_rules! variant {
    ($c_state:ident, $module:ident, $init:ident, $init_key:ident, $update:ident, $final:ident,
     $oneshot:ident) => {
        /// The C state: a slot holding an `Entry` of the Rust state.
        #[allow(non_camel_case_types)]
        #[repr(C)]
        pub struct $c_state {
            opaque: [u64; slot::words::<Entry<$module::State>>()],
        }

        /// Starts a hash of `outlen` bytes (1 to OUTBYTES).
        ///
        /// # Safety
        /// `s` is NULL or points to a writable state.
        #[no_mangle]
        pub unsafe extern "C" fn $init(s: *mut $c_state, outlen: usize) -> i32 {
            // SAFETY: the caller's promise.
            unsafe {
                init(s.cast(), || {
                    check(outlen, &[], $module::OUTBYTES)?;
                    Some($module::Params::new().hash_length(outlen).to_state())
                })
            }
        }

        /// Starts a keyed hash of `outlen` bytes with a key of 1 to KEYBYTES bytes.
        ///
        /// # Safety
        /// `s` as for `init`; `key` is NULL or points to `keylen` readable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $init_key(
            s: *mut $c_state,
            outlen: usize,
            key: *const c_void,
            keylen: usize,
        ) -> i32 {
            // SAFETY: the caller's promises.
            unsafe {
                init(s.cast(), || {
                    let key = input(key, keylen).filter(|key| !key.is_empty())?;
                    check(outlen, key, $module::OUTBYTES)?;
                    Some(
                        $module::Params::new()
                            .hash_length(outlen)
                            .key(key)
                            .to_state(),
                    )
                })
            }
        }

        /// Adds `inlen` bytes at `in_` to the hash.
        ///
        /// # Safety
        /// `s` is NULL or points to a state; `in_` is NULL or points to `inlen` readable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $update(s: *mut $c_state, in_: *const u8, inlen: usize) -> i32 {
            status(|| {
                // SAFETY: the caller's promises.
                let (entry, bytes) =
                    unsafe { (open::<$module::State>(s.cast())?, input(in_.cast(), inlen)?) };
                entry.state.update(bytes);
                Some(())
            })
        }

        /// Writes the hash (its first `outlen` bytes if `outlen` is shorter) to `out`; the
        /// state then takes no more calls until initialised again.
        ///
        /// # Safety
        /// `s` as for `update`; `out` is NULL or points to `outlen` writable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $final(s: *mut $c_state, out: *mut u8, outlen: usize) -> i32 {
            status(|| {
                // SAFETY: the caller's promise.
                let entry = unsafe { open::<$module::State>(s.cast())? };
                let hash = entry.state.finalize();
                // SAFETY: the caller's promise.
                unsafe { write_hash(out, outlen, $module::OUTBYTES, hash.as_bytes()) }?;
                entry.finalized = true;
                Some(())
            })
        }

        /// Hashes `inlen` bytes at `in_` into `outlen` bytes at `out`, keyed if `keylen > 0`.
        ///
        /// # Safety
        /// Each pointer is NULL or points to as many bytes as its length says.
        #[no_mangle]
        pub unsafe extern "C" fn $oneshot(
            out: *mut u8,
            in_: *const c_void,
            key: *const c_void,
            outlen: usize,
            inlen: usize,
            keylen: usize,
        ) -> i32 {
            status(|| {
                // SAFETY: the caller's promises.
                let (bytes, key) = unsafe { (input(in_, inlen)?, input(key, keylen)?) };
                check(outlen, key, $module::OUTBYTES)?;
                let hash = $module::Params::new()
                    .hash_length(outlen)
                    .key(key)
                    .hash(bytes);
                // SAFETY: the caller's promise.
                unsafe { write_hash(out, outlen, $module::OUTBYTES, hash.as_bytes()) }
            })
        }
    };
}

/// `init_param` of a sequential variant, whose C parameter struct is `$len` bytes.
macro_rules! init_param {
    ($c_state:ident, $c_param:ident, $module:ident, $init_param:ident, $len:literal,
     $offset_len:literal) => {
        /// The C parameter block (packed, the BLAKE2 specification's layout).
        #[allow(non_camel_case_types)]
        #[repr(C)]
        pub struct $c_param {
            bytes: [u8; $len],
        }

        /// Starts a hash with every parameter of the block at `p` (whose key length must be 0:
        /// keys come with `init_key`).
        ///
        /// # Safety
        /// `s` is NULL or points to a writable state; `p` is NULL or points to a parameter
        /// block.
        #[no_mangle]
        pub unsafe extern "C" fn $init_param(s: *mut $c_state, p: *const $c_param) -> i32 {
            // SAFETY: the caller's promises.
            unsafe {
                init(s.cast(), || {
                    let block = input(p.cast(), if p.is_null() { 1 } else { $len })?;
                    let b = ParamBlock::read(block, $offset_len, $module::SALTBYTES);
                    if !b.valid($module::OUTBYTES) {
                        return None;
                    }
                    let state = $module::Params::new()
                        .hash_length(b.digest_length)
                        .fanout(b.fanout)
                        .max_depth(b.depth)
                        .max_leaf_length(b.leaf_length)
                        .node_offset(b.node_offset)
                        .node_depth(b.node_depth)
                        .inner_hash_length(b.inner_length)
                        .salt(b.salt)
                        .personal(b.personal)
                        .to_state();
                    Some(state)
                })
            }
        }
    };
}

variant!(
    blake2b_state,
    blake2b,
    blake2b_init,
    blake2b_init_key,
    blake2b_update,
    blake2b_final,
    blake2b
);
variant!(
    blake2s_state,
    blake2s,
    blake2s_init,
    blake2s_init_key,
    blake2s_update,
    blake2s_final,
    blake2s
);
variant!(
    blake2bp_state,
    blake2bp,
    blake2bp_init,
    blake2bp_init_key,
    blake2bp_update,
    blake2bp_final,
    blake2bp
);
variant!(
    blake2sp_state,
    blake2sp,
    blake2sp_init,
    blake2sp_init_key,
    blake2sp_update,
    blake2sp_final,
    blake2sp
);
init_param!(
    blake2b_state,
    blake2b_param,
    blake2b,
    blake2b_init_param,
    64,
    8
);
init_param!(
    blake2s_state,
    blake2s_param,
    blake2s,
    blake2s_init_param,
    32,
    6
);

/// `uint64_t` words of each C state, in the order blake2b, blake2s, blake2bp, blake2sp (the
/// `ARBORHASH_BLAKE2*_STATE_WORDS` of `blake2.h`).
pub const STATE_WORDS: [usize; 4] = [
    slot::words::<Entry<blake2b::State>>(),
    slot::words::<Entry<blake2s::State>>(),
    slot::words::<Entry<blake2bp::State>>(),
    slot::words::<Entry<blake2sp::State>>(),
];
