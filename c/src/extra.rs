//! `arborhash.h`: what neither official API has. Batch hashing, multi-threaded hashing,
//! Tillich-Zémor and the backend query. Functions return 0 on success, -1 on a bad argument and
//! -2 on a caught internal error.

use core::ffi::{c_char, c_void, CStr};

use arborhash::blake3::hazmat::{self, HasherExt};
use arborhash::blake3::{self, KEY_LEN, OUT_LEN};
use arborhash::{blake2b, blake2s, platform, tz, Backend};

use crate::ffi::{input, messages, output, status};

/// `count` outputs of `len` bytes each at `outputs`.
///
/// # Safety
/// `outputs` is NULL or points to `count * len` writable bytes.
unsafe fn outputs<'a>(outputs: *mut u8, count: usize, len: usize) -> Option<&'a mut [u8]> {
    // SAFETY: the caller's promise.
    unsafe { output(outputs, count.checked_mul(len)?) }
}

/// BLAKE3 of each of `count` messages: message `i` is `input_lens[i]` bytes at `inputs[i]`,
/// its hash goes to the 32 bytes at `outputs + 32 * i`.
///
/// # Safety
/// Each pointer is NULL or points to as much memory as the lengths say.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hash_many(
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    outputs: *mut u8,
) -> i32 {
    // SAFETY: the caller's promises.
    unsafe { blake3_many(None, inputs, input_lens, count, outputs) }
}

/// Like `arborhash_blake3_hash_many`, with the keyed hash and the 32-byte key at `key`.
///
/// # Safety
/// As for [`arborhash_blake3_hash_many`]; `key` is NULL or points to 32 bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_keyed_hash_many(
    key: *const u8,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    outputs: *mut u8,
) -> i32 {
    // SAFETY: the caller's promise.
    let Some(key) = (unsafe { input(key.cast(), KEY_LEN) }) else {
        return crate::ffi::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises.
    unsafe { blake3_many(key.try_into().ok(), inputs, input_lens, count, outputs) }
}

/// # Safety
/// As for [`arborhash_blake3_hash_many`].
unsafe fn blake3_many(
    key: Option<&[u8; KEY_LEN]>,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out: *mut u8,
) -> i32 {
    status(|| {
        // The outputs first: their length check bounds `count` before the arrays are read.
        // SAFETY: the caller's promises.
        let (out, inputs) = unsafe {
            (
                outputs(out, count, OUT_LEN)?,
                messages(inputs, input_lens, count)?,
            )
        };
        let mut hashes = vec![blake3::Hash::from_bytes([0; OUT_LEN]); count];
        match key {
            Some(key) => blake3::many::keyed_hash_many(key, &inputs, &mut hashes),
            None => blake3::many::hash_many(&inputs, &mut hashes),
        }
        for (out, hash) in out.chunks_exact_mut(OUT_LEN).zip(&hashes) {
            out.copy_from_slice(hash.as_bytes());
        }
        Some(())
    })
}

/// BLAKE3 extended output of each of `count` messages (as for `arborhash_blake3_hash_many`):
/// `out_len` bytes each at `outputs + out_len * i`.
///
/// # Safety
/// Each pointer is NULL or points to as much memory as the lengths say.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hash_many_xof(
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out_len: usize,
    outputs: *mut u8,
) -> i32 {
    // SAFETY: the caller's promises.
    unsafe {
        blake3_many_xof(
            inputs,
            input_lens,
            count,
            out_len,
            outputs,
            |inputs, out| blake3::many::hash_many_xof(inputs, out_len, out),
        )
    }
}

/// Like `arborhash_blake3_hash_many_xof`, with the keyed hash and the 32-byte key at `key`.
///
/// # Safety
/// As for [`arborhash_blake3_hash_many_xof`]; `key` is NULL or points to 32 bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_keyed_hash_many_xof(
    key: *const u8,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out_len: usize,
    outputs: *mut u8,
) -> i32 {
    // SAFETY: the caller's promise.
    let Some(key) = (unsafe { input(key.cast(), KEY_LEN) }).and_then(|k| k.try_into().ok()) else {
        return crate::ffi::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises.
    unsafe {
        blake3_many_xof(
            inputs,
            input_lens,
            count,
            out_len,
            outputs,
            |inputs, out| blake3::many::keyed_hash_many_xof(key, inputs, out_len, out),
        )
    }
}

/// Like `arborhash_blake3_hash_many_xof`, with key derivation in the NUL-terminated `context`,
/// whose bytes are hashed as they are (UTF-8 or not), as `blake3_hasher_init_derive_key` does.
///
/// # Safety
/// As for [`arborhash_blake3_hash_many_xof`]; `context` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_derive_key_many_xof(
    context: *const c_char,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out_len: usize,
    outputs: *mut u8,
) -> i32 {
    if context.is_null() {
        return crate::ffi::BAD_ARGUMENT;
    }
    // SAFETY: the caller's promise: non-NULL (checked above) and NUL-terminated.
    let context = unsafe { CStr::from_ptr(context) }.to_bytes();
    // SAFETY: the caller's promises.
    unsafe { derive_key_many_xof(context, inputs, input_lens, count, out_len, outputs) }
}

/// Like `arborhash_blake3_derive_key_many_xof`, with a context of `context_len` bytes of any
/// value, as `blake3_hasher_init_derive_key_raw` takes.
///
/// # Safety
/// As for [`arborhash_blake3_hash_many_xof`]; `context` is NULL or points to `context_len`
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_derive_key_many_xof_raw(
    context: *const c_void,
    context_len: usize,
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out_len: usize,
    outputs: *mut u8,
) -> i32 {
    // SAFETY: the caller's promise.
    let Some(context) = (unsafe { input(context, context_len) }) else {
        return crate::ffi::BAD_ARGUMENT;
    };
    // SAFETY: the caller's promises.
    unsafe { derive_key_many_xof(context, inputs, input_lens, count, out_len, outputs) }
}

/// Key derivation of each message in `context`. The Rust batch API, which shares the SIMD lanes
/// across messages, takes a string; other bytes take one hasher per message in turn.
///
/// # Safety
/// As for [`arborhash_blake3_hash_many_xof`].
unsafe fn derive_key_many_xof(
    context: &[u8],
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out_len: usize,
    outputs: *mut u8,
) -> i32 {
    let hash = |inputs: &[&[u8]], out: &mut [u8]| match core::str::from_utf8(context) {
        Ok(context) => blake3::many::derive_key_many_xof(context, inputs, out_len, out),
        // No output has nothing to hash (and `chunks_exact_mut` takes no 0).
        Err(_) if out_len == 0 => {}
        Err(_) => {
            let key = hazmat::hash_derive_key_context_bytes(context);
            let mut hasher = blake3::Hasher::new_from_context_key(&key);
            for (input, out) in inputs.iter().zip(out.chunks_exact_mut(out_len)) {
                hasher.reset().update(input).finalize_xof().fill(out);
            }
        }
    };
    // SAFETY: the caller's promises.
    unsafe { blake3_many_xof(inputs, input_lens, count, out_len, outputs, hash) }
}

/// Checks the batch and its outputs, then runs `hash` on them.
///
/// # Safety
/// As for [`arborhash_blake3_hash_many_xof`].
unsafe fn blake3_many_xof(
    inputs: *const *const u8,
    input_lens: *const usize,
    count: usize,
    out_len: usize,
    out: *mut u8,
    hash: impl FnOnce(&[&[u8]], &mut [u8]),
) -> i32 {
    status(|| {
        // The outputs first: their length check bounds `count` before the arrays are read.
        // SAFETY: the caller's promises.
        let (out, inputs) = unsafe {
            (
                outputs(out, count, out_len)?,
                messages(inputs, input_lens, count)?,
            )
        };
        hash(&inputs, out);
        Some(())
    })
}

/// Batch hashing for a BLAKE2 variant with a hash length and an optional key.
macro_rules! blake2_many {
    ($name:ident, $module:ident) => {
        /// Hashes each of `count` messages (as for `arborhash_blake3_hash_many`) into `outlen`
        /// bytes (1 to the variant's OUTBYTES) at `outputs + outlen * i`, keyed if `keylen > 0`
        /// (at most the variant's KEYBYTES).
        ///
        /// # Safety
        /// Each pointer is NULL or points to as much memory as the lengths say.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            inputs: *const *const u8,
            input_lens: *const usize,
            count: usize,
            key: *const u8,
            keylen: usize,
            outlen: usize,
            outputs: *mut u8,
        ) -> i32 {
            status(|| {
                if !(1..=$module::OUTBYTES).contains(&outlen) || keylen > $module::KEYBYTES {
                    return None;
                }
                // The outputs first: their length check bounds `count` before the arrays are
                // read.
                // SAFETY: the caller's promises.
                let (key, out, inputs) = unsafe {
                    (
                        input(key.cast(), keylen)?,
                        self::outputs(outputs, count, outlen)?,
                        messages(inputs, input_lens, count)?,
                    )
                };
                let mut params = $module::Params::new();
                params.hash_length(outlen).key(key);
                let mut jobs: Vec<_> = inputs
                    .iter()
                    .map(|m| $module::many::HashManyJob::new(&params, m))
                    .collect();
                $module::many::hash_many(jobs.iter_mut());
                for (out, job) in out.chunks_exact_mut(outlen).zip(&jobs) {
                    out.copy_from_slice(job.to_hash().as_bytes());
                }
                Some(())
            })
        }
    };
}

blake2_many!(arborhash_blake2b_hash_many, blake2b);
blake2_many!(arborhash_blake2s_hash_many, blake2s);

/// BLAKE3 of `len` bytes at `input` into the 32 bytes at `out`, without a `blake3_hasher`.
///
/// # Safety
/// `input` is NULL or points to `len` bytes; `out` is NULL or points to 32 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hash(
    input: *const c_void,
    len: usize,
    out: *mut u8,
) -> i32 {
    // SAFETY: the caller's promises.
    unsafe { one_shot(input, len, out, |bytes| *blake3::hash(bytes).as_bytes()) }
}

/// Writes `hash` of the `len` bytes at `input` to the `N` bytes at `out`.
///
/// # Safety
/// `input` is NULL or points to `len` bytes; `out` is NULL or points to `N` writable bytes.
unsafe fn one_shot<const N: usize>(
    input: *const c_void,
    len: usize,
    out: *mut u8,
    hash: impl FnOnce(&[u8]) -> [u8; N],
) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (bytes, out) = unsafe { (self::input(input, len)?, output(out, N)?) };
        out.copy_from_slice(&hash(bytes));
        Some(())
    })
}

/// BLAKE3 of `len` bytes at `input` into the 32 bytes at `out`, on several threads for inputs of
/// 1 MiB and more.
///
/// # Safety
/// `input` is NULL or points to `len` bytes; `out` is NULL or points to 32 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_blake3_hash_threaded(
    input: *const c_void,
    len: usize,
    out: *mut u8,
) -> i32 {
    // SAFETY: the caller's promises.
    unsafe {
        one_shot(input, len, out, |bytes| {
            *blake3::Hasher::new()
                .update_rayon(bytes)
                .finalize()
                .as_bytes()
        })
    }
}

/// Bytes of a Tillich-Zémor hash.
const TZ_LEN: usize = tz::OUT_LEN;

/// The Tillich-Zémor hash (NOT collision resistant: see `arborhash.h`) of `len` bytes at
/// `input` into the 64 bytes at `out`; with `threaded` nonzero, on several threads.
///
/// # Safety
/// `input` is NULL or points to `len` bytes; `out` is NULL or points to 64 writable bytes.
#[no_mangle]
pub unsafe extern "C" fn arborhash_tz_sum(
    input: *const c_void,
    len: usize,
    threaded: i32,
    out: *mut u8,
) -> i32 {
    let sum = if threaded != 0 {
        tz::sum_rayon
    } else {
        tz::sum
    };
    // SAFETY: the caller's promises.
    unsafe { one_shot(input, len, out, |bytes| sum(bytes).as_bytes()) }
}

/// The Tillich-Zémor hash of the concatenation of the messages whose `count` hashes lie one
/// after another at `hashes` (64 bytes each), into `out`. -1 if a hash is not a valid one.
///
/// # Safety
/// `hashes` is NULL or points to `64 * count` bytes; `out` as for [`arborhash_tz_sum`].
#[no_mangle]
pub unsafe extern "C" fn arborhash_tz_concat(hashes: *const u8, count: usize, out: *mut u8) -> i32 {
    status(|| {
        // SAFETY: the caller's promises.
        let (hashes, out) = unsafe {
            (
                input(hashes.cast(), count.checked_mul(TZ_LEN)?)?,
                output(out, TZ_LEN)?,
            )
        };
        let parsed = hashes
            .chunks_exact(TZ_LEN)
            .map(|h| tz::Hash::from_bytes(h).ok())
            .collect::<Option<Vec<_>>>()?;
        out.copy_from_slice(&tz::concat(&parsed).as_bytes());
        Some(())
    })
}

/// The name of the SIMD backend in use for the calling thread: "portable", "sse41", "avx2",
/// "avx512", "avx512-scalar", "neon" or "simd128" (a static string).
#[no_mangle]
pub extern "C" fn arborhash_backend() -> *const c_char {
    let name: &CStr = match crate::ffi::guard(Backend::Portable, platform::backend) {
        Backend::Portable => c"portable",
        Backend::Sse41 => c"sse41",
        Backend::Avx2 => c"avx2",
        Backend::Avx512 => c"avx512",
        Backend::Avx512Scalar => c"avx512-scalar",
        Backend::Neon => c"neon",
        Backend::Simd128 => c"simd128",
    };
    name.as_ptr()
}

/// This library's version (a static string).
#[no_mangle]
pub extern "C" fn arborhash_version() -> *const c_char {
    VERSION.as_ptr()
}

/// `ARBORHASH_VERSION_STRING` of `arborhash.h`: the crate's version.
pub const VERSION: &CStr =
    match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => panic!("version string"),
    };
