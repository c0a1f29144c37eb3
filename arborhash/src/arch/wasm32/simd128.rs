//! WebAssembly SIMD128 pieces shared by the BLAKE3 and BLAKE2s kernels, whose G is the same
//! function on 32-bit words (rotations 16, 12, 8, 7): vector arithmetic, the 4x4 transpose, loads
//! of four lanes' blocks transposed, and the two shapes of rounds (four lanes transposed, and one
//! state in rows).
//!
//! WebAssembly has no run-time feature detection: this module is compiled only into a module
//! built with `-C target-feature=+simd128`, which an engine without SIMD128 refuses to load
//! whole, so the feature being enabled at compile time is the proof that every instruction here
//! may run. That is also why the `core::arch::wasm32` intrinsics are safe functions; only the
//! loads and stores through raw pointers are `unsafe`.

use core::arch::wasm32::*;

/// Four 32-bit words.
pub(crate) type V = v128;

#[inline(always)]
pub(crate) fn add(a: V, b: V) -> V {
    u32x4_add(a, b)
}
#[inline(always)]
pub(crate) fn xor(a: V, b: V) -> V {
    v128_xor(a, b)
}
#[inline(always)]
pub(crate) fn or(a: V, b: V) -> V {
    v128_or(a, b)
}
#[inline(always)]
pub(crate) fn splat(x: u32) -> V {
    u32x4_splat(x)
}
/// Four 32-bit values, one per element.
#[inline(always)]
pub(crate) fn words(x: [u32; 4]) -> V {
    u32x4(x[0], x[1], x[2], x[3])
}
/// 16 bytes at `p` (readable, of any alignment: WebAssembly loads need none).
#[inline(always)]
pub(crate) unsafe fn load(p: *const u8) -> V {
    // SAFETY: the caller's pointer is readable for 16 bytes; `v128_load` is unaligned.
    unsafe { v128_load(p.cast()) }
}
/// Stores `x` little-endian at `p` (16 writable bytes, of any alignment).
#[inline(always)]
pub(crate) unsafe fn store(p: *mut u8, x: V) {
    // SAFETY: the caller's pointer is writable for 16 bytes; `v128_store` is unaligned.
    unsafe { v128_store(p.cast(), x) }
}
#[inline(always)]
fn rot16(x: V) -> V {
    i8x16_shuffle::<2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13>(x, x)
}
#[inline(always)]
fn rot12(x: V) -> V {
    or(u32x4_shr(x, 12), u32x4_shl(x, 20))
}
#[inline(always)]
fn rot8(x: V) -> V {
    i8x16_shuffle::<1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12>(x, x)
}
#[inline(always)]
fn rot7(x: V) -> V {
    or(u32x4_shr(x, 7), u32x4_shl(x, 25))
}

/// Word `j` of row `i` becomes word `i` of row `j`.
#[inline(always)]
pub(crate) fn transpose(r: [V; 4]) -> [V; 4] {
    let t0 = i32x4_shuffle::<0, 4, 1, 5>(r[0], r[1]);
    let t1 = i32x4_shuffle::<2, 6, 3, 7>(r[0], r[1]);
    let t2 = i32x4_shuffle::<0, 4, 1, 5>(r[2], r[3]);
    let t3 = i32x4_shuffle::<2, 6, 3, 7>(r[2], r[3]);
    [
        i64x2_shuffle::<0, 2>(t0, t2),
        i64x2_shuffle::<1, 3>(t0, t2),
        i64x2_shuffle::<0, 2>(t1, t3),
        i64x2_shuffle::<1, 3>(t1, t3),
    ]
}

/// Half of G (the message word `x[k]`, then rotations `rot_d` of d and `rot_b` of b) on the
/// four columns `cols` (`[a, b, c, d]` word indices each) of four lanes' states at once, each
/// step taken in every column before the next, so that the engine sees four independent
/// operations at a time (it schedules little of its own).
#[inline(always)]
fn half_g_columns(
    v: &mut [V; 16],
    cols: [[usize; 4]; 4],
    x: [V; 4],
    rot_d: fn(V) -> V,
    rot_b: fn(V) -> V,
) {
    for (k, [a, b, _, _]) in cols.into_iter().enumerate() {
        v[a] = add(add(v[a], v[b]), x[k]);
    }
    for [a, _, _, d] in cols {
        v[d] = rot_d(xor(v[d], v[a]));
    }
    for [_, _, c, d] in cols {
        v[c] = add(v[c], v[d]);
    }
    for [_, b, c, _] in cols {
        v[b] = rot_b(xor(v[b], v[c]));
    }
}

/// One round of BLAKE2s or BLAKE3 on four lanes' transposed states (`v[i]` is word `i` of
/// every lane), whose message word `i` is `m[s[i]]`.
#[inline(always)]
pub(crate) fn round4(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
    let pick = |o: usize| [m[s[o]], m[s[o + 2]], m[s[o + 4]], m[s[o + 6]]];
    let columns = [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]];
    half_g_columns(v, columns, pick(0), rot16, rot12);
    half_g_columns(v, columns, pick(1), rot8, rot7);
    let diagonals = [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]];
    half_g_columns(v, diagonals, pick(8), rot16, rot12);
    half_g_columns(v, diagonals, pick(9), rot8, rot7);
}

/// Four consecutive words at each of `rows`, transposed: element `l` of vector `i` is word `i`
/// at `rows[l]`. Each pointer must be readable for 16 bytes.
#[inline(always)]
pub(crate) unsafe fn load_transposed4(rows: [*const u8; 4]) -> [V; 4] {
    // SAFETY: the caller's pointers are readable for 16 bytes each.
    transpose(rows.map(|p| unsafe { load(p) }))
}

/// The inverse of [`load_transposed4`]: element `l` of vector `i` to word `i` at `rows[l]`.
/// Each pointer must be writable for 16 bytes.
#[inline(always)]
pub(crate) unsafe fn store_transposed4(x: [V; 4], rows: [*mut u8; 4]) {
    for (p, row) in rows.into_iter().zip(transpose(x)) {
        // SAFETY: the caller's pointers are writable for 16 bytes each.
        unsafe { store(p, row) };
    }
}

/// The 64-byte blocks at `inputs[l] + offset` of four lanes, as message words: word `i` of
/// every lane in `m[i]`. Each pointer must be readable for 64 bytes from `offset`.
#[inline(always)]
pub(crate) unsafe fn load_blocks4(inputs: &[*const u8; 4], offset: usize) -> [V; 16] {
    let mut m = [splat(0); 16];
    for q in 0..4 {
        // SAFETY: the caller's blocks are readable for 64 bytes, so at 16 * q for 16.
        let t = unsafe { load_transposed4(inputs.map(|p| p.add(offset + 16 * q))) };
        m[4 * q..4 * q + 4].copy_from_slice(&t);
    }
    m
}

/// G of BLAKE2s and BLAKE3 on the four columns of one state in rows.
#[inline(always)]
fn g_rows(a: &mut V, b: &mut V, c: &mut V, d: &mut V, x: V, y: V) {
    *a = add(add(*a, *b), x);
    *d = rot16(xor(*d, *a));
    *c = add(*c, *d);
    *b = rot12(xor(*b, *c));
    *a = add(add(*a, *b), y);
    *d = rot8(xor(*d, *a));
    *c = add(*c, *d);
    *b = rot7(xor(*b, *c));
}

/// One round of BLAKE2s or BLAKE3 on one state in rows `[a, b, c, d]` (four words each), with
/// the message vectors `m`: the column step's first and second words ([s0, s2, s4, s6],
/// [s1, s3, s5, s7]), then the diagonal step's ([s8, s10, s12, s14], [s9, s11, s13, s15]).
/// Rotating rows b, c and d by one, two and three words lines the diagonals up as columns.
#[inline(always)]
pub(crate) fn round_rows(rows: &mut [V; 4], m: &[V; 4]) {
    let [mut a, mut b, mut c, mut d] = *rows;
    g_rows(&mut a, &mut b, &mut c, &mut d, m[0], m[1]);
    b = i32x4_shuffle::<1, 2, 3, 0>(b, b);
    c = i32x4_shuffle::<2, 3, 0, 1>(c, c);
    d = i32x4_shuffle::<3, 0, 1, 2>(d, d);
    g_rows(&mut a, &mut b, &mut c, &mut d, m[2], m[3]);
    b = i32x4_shuffle::<3, 0, 1, 2>(b, b);
    c = i32x4_shuffle::<2, 3, 0, 1>(c, c);
    d = i32x4_shuffle::<1, 2, 3, 0>(d, d);
    *rows = [a, b, c, d];
}

/// The 64-byte block at `block` as [`round_rows`]'s message vectors in the block's own order:
/// the even and the odd words of each half. `block` must be readable for 64 bytes.
#[inline(always)]
pub(crate) unsafe fn load_rows_message(block: *const u8) -> [V; 4] {
    // SAFETY: the caller's block is readable for 64 bytes, so at 16 * q for 16.
    let [b0, b1, b2, b3] = [0, 1, 2, 3].map(|q| unsafe { load(block.add(16 * q)) });
    [
        i32x4_shuffle::<0, 2, 4, 6>(b0, b1),
        i32x4_shuffle::<1, 3, 5, 7>(b0, b1),
        i32x4_shuffle::<0, 2, 4, 6>(b2, b3),
        i32x4_shuffle::<1, 3, 5, 7>(b2, b3),
    ]
}

/// Words picked from two vectors: `I` < 4 from `a`, the others from `b` (`I - 4`).
#[inline(always)]
pub(crate) fn shuffle<const I0: usize, const I1: usize, const I2: usize, const I3: usize>(
    a: V,
    b: V,
) -> V {
    i32x4_shuffle::<I0, I1, I2, I3>(a, b)
}

impl super::super::words4::Words4 for V {
    #[inline(always)]
    unsafe fn splat(x: u32) -> V {
        splat(x)
    }
    #[inline(always)]
    unsafe fn splat4(w: &[u32; 4]) -> [V; 4] {
        w.map(splat)
    }
    #[inline(always)]
    unsafe fn words(x: [u32; 4]) -> V {
        words(x)
    }
    #[inline(always)]
    unsafe fn or(a: V, b: V) -> V {
        or(a, b)
    }
    #[inline(always)]
    unsafe fn xor(a: V, b: V) -> V {
        xor(a, b)
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> V {
        // SAFETY: forwarded from the caller.
        unsafe { load(p) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, x: V) {
        // SAFETY: forwarded from the caller.
        unsafe { store(p, x) }
    }
    #[inline(always)]
    unsafe fn transpose(r: [V; 4]) -> [V; 4] {
        transpose(r)
    }
    #[inline(always)]
    unsafe fn load_transposed4(rows: [*const u8; 4]) -> [V; 4] {
        // SAFETY: forwarded from the caller.
        unsafe { load_transposed4(rows) }
    }
    #[inline(always)]
    unsafe fn store_transposed4(x: [V; 4], rows: [*mut u8; 4]) {
        // SAFETY: forwarded from the caller.
        unsafe { store_transposed4(x, rows) }
    }
    #[inline(always)]
    unsafe fn load_blocks4(inputs: &[*const u8; 4], offset: usize) -> [V; 16] {
        // SAFETY: forwarded from the caller.
        unsafe { load_blocks4(inputs, offset) }
    }
    #[inline(always)]
    unsafe fn round4(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
        round4(v, m, s)
    }
}
