//! AArch64 NEON pieces shared by the BLAKE3 and BLAKE2s kernels, whose G is the same function
//! on 32-bit words (rotations 16, 12, 8, 7): vector arithmetic, G on four columns at once, the
//! 4x4 transpose, and the two shapes of rounds (transposed lanes and rows).
//!
//! Everything here is `#[inline(always)]` without `#[target_feature]`: it is only ever compiled
//! inlined into a kernel's `#[target_feature(enable = "neon")]` entry points, which run only on
//! a CPU with NEON. That is why each function is `unsafe`.

use core::arch::aarch64::*;

/// Four 32-bit words.
pub(crate) type V = uint32x4_t;

/// Byte indices of `tbl` rotating every 32-bit word right by 8 bits.
const ROT8: [u8; 16] = [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12];

// SAFETY (every function): NEON is enabled in the caller (see the module documentation);
// pointers are the caller's to keep valid, as each says.

#[inline(always)]
pub(crate) unsafe fn add(a: V, b: V) -> V {
    unsafe { vaddq_u32(a, b) }
}
#[inline(always)]
pub(crate) unsafe fn xor(a: V, b: V) -> V {
    unsafe { veorq_u32(a, b) }
}
#[inline(always)]
pub(crate) unsafe fn splat(x: u32) -> V {
    unsafe { vdupq_n_u32(x) }
}
/// Each of the four words at `w` in every element of its own vector (one `ld4r`).
#[inline(always)]
pub(crate) unsafe fn splat4(w: &[u32; 4]) -> [V; 4] {
    unsafe {
        let x = vld4q_dup_u32(w.as_ptr());
        [x.0, x.1, x.2, x.3]
    }
}
/// Four 32-bit values, one per element.
#[inline(always)]
pub(crate) unsafe fn words(x: [u32; 4]) -> V {
    unsafe { vld1q_u32(x.as_ptr()) }
}
/// Stores `x` little-endian at `out` (16 writable bytes).
#[inline(always)]
pub(crate) unsafe fn store(out: *mut u8, x: V) {
    unsafe { vst1q_u8(out, vreinterpretq_u8_u32(x)) }
}
#[inline(always)]
unsafe fn rot16(x: V) -> V {
    unsafe { vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x))) }
}
#[inline(always)]
unsafe fn rot12(x: V) -> V {
    unsafe { vsriq_n_u32::<12>(vshlq_n_u32::<20>(x), x) }
}
#[inline(always)]
unsafe fn rot8(x: V) -> V {
    unsafe {
        let idx = vld1q_u8(ROT8.as_ptr());
        vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), idx))
    }
}
#[inline(always)]
unsafe fn rot7(x: V) -> V {
    unsafe { vsriq_n_u32::<7>(vshlq_n_u32::<25>(x), x) }
}

/// A vector of independent lanes' state words on which G runs element by element: four
/// BLAKE2s or BLAKE3 states (`uint32x4_t`, here) or two BLAKE2b states (`uint64x2_t`,
/// blake2/neon.rs).
pub(crate) trait GLanes: Copy {
    /// G on words `a`, `b`, `c`, `d` with message words `x`, `y`, in every lane.
    unsafe fn g(a: &mut Self, b: &mut Self, c: &mut Self, d: &mut Self, x: Self, y: Self);
}

impl GLanes for V {
    /// G of BLAKE2s and BLAKE3.
    #[inline(always)]
    unsafe fn g(a: &mut V, b: &mut V, c: &mut V, d: &mut V, x: V, y: V) {
        unsafe {
            *a = add(add(*a, *b), x);
            *d = rot16(xor(*d, *a));
            *c = add(*c, *d);
            *b = rot12(xor(*b, *c));
            *a = add(add(*a, *b), y);
            *d = rot8(xor(*d, *a));
            *c = add(*c, *d);
            *b = rot7(xor(*b, *c));
        }
    }
}

/// G of BLAKE2s and BLAKE3 on four columns at once (the rows' form).
#[inline(always)]
unsafe fn g(a: &mut V, b: &mut V, c: &mut V, d: &mut V, x: V, y: V) {
    unsafe { <V as GLanes>::g(a, b, c, d, x, y) }
}

/// Word `j` of row `i` becomes word `i` of row `j`.
#[inline(always)]
pub(crate) unsafe fn transpose(r: [V; 4]) -> [V; 4] {
    unsafe {
        let t0 = vreinterpretq_u64_u32(vtrn1q_u32(r[0], r[1]));
        let t1 = vreinterpretq_u64_u32(vtrn2q_u32(r[0], r[1]));
        let t2 = vreinterpretq_u64_u32(vtrn1q_u32(r[2], r[3]));
        let t3 = vreinterpretq_u64_u32(vtrn2q_u32(r[2], r[3]));
        [
            vreinterpretq_u32_u64(vtrn1q_u64(t0, t2)),
            vreinterpretq_u32_u64(vtrn1q_u64(t1, t3)),
            vreinterpretq_u32_u64(vtrn2q_u64(t0, t2)),
            vreinterpretq_u32_u64(vtrn2q_u64(t1, t3)),
        ]
    }
}

/// One round on several lanes' transposed states (`v[i]` is word `i` of every lane), whose
/// message word `i` is `m[s[i]]`.
#[inline(always)]
pub(crate) unsafe fn round_lanes<L: GLanes>(v: &mut [L; 16], m: &[L; 16], s: &[usize; 16]) {
    let [mut v0, mut v1, mut v2, mut v3, mut v4, mut v5, mut v6, mut v7] =
        [v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]];
    let [mut v8, mut v9, mut v10, mut v11, mut v12, mut v13, mut v14, mut v15] =
        [v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15]];
    unsafe {
        L::g(&mut v0, &mut v4, &mut v8, &mut v12, m[s[0]], m[s[1]]);
        L::g(&mut v1, &mut v5, &mut v9, &mut v13, m[s[2]], m[s[3]]);
        L::g(&mut v2, &mut v6, &mut v10, &mut v14, m[s[4]], m[s[5]]);
        L::g(&mut v3, &mut v7, &mut v11, &mut v15, m[s[6]], m[s[7]]);
        L::g(&mut v0, &mut v5, &mut v10, &mut v15, m[s[8]], m[s[9]]);
        L::g(&mut v1, &mut v6, &mut v11, &mut v12, m[s[10]], m[s[11]]);
        L::g(&mut v2, &mut v7, &mut v8, &mut v13, m[s[12]], m[s[13]]);
        L::g(&mut v3, &mut v4, &mut v9, &mut v14, m[s[14]], m[s[15]]);
    }
    *v = [
        v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15,
    ];
}

/// Half of G (the message word `x[k]`, then rotations `rot_d` of d and `rot_b` of b) on the
/// four columns `cols` (`[a, b, c, d]` word indices each) of four lanes' states at once, each
/// step taken in every column before the next.
#[inline(always)]
unsafe fn half_g_columns(
    v: &mut [V; 16],
    cols: [[usize; 4]; 4],
    x: [V; 4],
    rot_d: unsafe fn(V) -> V,
    rot_b: unsafe fn(V) -> V,
) {
    unsafe {
        for (k, [a, _, _, _]) in cols.into_iter().enumerate() {
            v[a] = add(v[a], x[k]);
        }
        for [a, b, _, _] in cols {
            v[a] = add(v[a], v[b]);
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
}

/// G on the four columns `cols` of four lanes' states at once, with message words `x[k]`,
/// `y[k]` for column `k` (see [`half_g_columns`]).
#[inline(always)]
unsafe fn g_columns(v: &mut [V; 16], cols: [[usize; 4]; 4], x: [V; 4], y: [V; 4]) {
    unsafe {
        half_g_columns(v, cols, x, rot16, rot12);
        half_g_columns(v, cols, y, rot8, rot7);
    }
}

/// One round on four lanes' transposed BLAKE3 states (`v[i]` is word `i` of every lane), whose
/// message word `i` is `m[s[i]]`, each step of G taken in the four columns (then diagonals)
/// before the next: in BLAKE3's four-lane kernel LLVM then spills less than with
/// [`round_lanes`]'s G one after another, which BLAKE2s's kernel (its chaining value live
/// through the rounds) keeps, as it does better there (`scripts/arm-insns.sh` counts both).
#[inline(always)]
pub(crate) unsafe fn round4(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
    unsafe {
        // Written out rather than with `array::map`, which a 16-unit build may leave a call.
        let pick = |o: usize| [m[s[o]], m[s[o + 2]], m[s[o + 4]], m[s[o + 6]]];
        g_columns(
            v,
            [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]],
            pick(0),
            pick(1),
        );
        g_columns(
            v,
            [[0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]],
            pick(8),
            pick(9),
        );
    }
}

/// Four consecutive words at each of `rows`, transposed: element `l` of vector `i` is word `i`
/// at `rows[l]`. One `ld4r` and three single-element `ld4` rather than four loads and a
/// transpose in registers. Each pointer must be readable for 16 bytes (of any alignment:
/// AArch64 element loads need none).
#[inline(always)]
pub(crate) unsafe fn load_transposed4(rows: [*const u8; 4]) -> [V; 4] {
    unsafe {
        let x = vld4q_dup_u32(rows[0].cast());
        let x = vld4q_lane_u32::<1>(rows[1].cast(), x);
        let x = vld4q_lane_u32::<2>(rows[2].cast(), x);
        let x = vld4q_lane_u32::<3>(rows[3].cast(), x);
        [x.0, x.1, x.2, x.3]
    }
}

/// The inverse of [`load_transposed4`]: element `l` of vector `i` to word `i` at `rows[l]`
/// (four single-element `st4`). Each pointer must be writable for 16 bytes.
#[inline(always)]
pub(crate) unsafe fn store_transposed4(x: [V; 4], rows: [*mut u8; 4]) {
    unsafe {
        let x = uint32x4x4_t(x[0], x[1], x[2], x[3]);
        vst4q_lane_u32::<0>(rows[0].cast(), x);
        vst4q_lane_u32::<1>(rows[1].cast(), x);
        vst4q_lane_u32::<2>(rows[2].cast(), x);
        vst4q_lane_u32::<3>(rows[3].cast(), x);
    }
}

/// The 64-byte blocks at `inputs[l] + offset` of four lanes, as message words: word `i` of
/// every lane in `m[i]`. Each pointer must be readable for 64 bytes from `offset`. (Loading
/// with single-element `ld4`, as [`load_transposed4`] does, costs more here: the rounds need
/// every register, and LLVM spills and reloads the four-register groups `ld4` fills whole.)
#[inline(always)]
pub(crate) unsafe fn load_blocks4(inputs: &[*const u8; 4], offset: usize) -> [V; 16] {
    unsafe {
        let rows = inputs.map(|p| vld1q_u8_x4(p.add(offset)));
        let quarter = |k: usize| {
            transpose(rows.each_ref().map(|r| {
                vreinterpretq_u32_u8(match k {
                    0 => r.0,
                    1 => r.1,
                    2 => r.2,
                    _ => r.3,
                })
            }))
        };
        let [a, b, c, d] = [quarter(0), quarter(1), quarter(2), quarter(3)];
        [
            a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], c[0], c[1], c[2], c[3], d[0], d[1],
            d[2], d[3],
        ]
    }
}

/// `tbl` indices into a 64-byte block of the four message vectors of a round in rows, for
/// each round of `schedule` (message word `i` of round `r` is block word `schedule[r][i]`):
/// the column step's first and second words ([s0, s2, s4, s6], [s1, s3, s5, s7]), then the
/// diagonal step's in the order [`rounds_rows`] lines the diagonals up ([s14, s8, s10, s12],
/// [s15, s9, s11, s13]: the column of b's word 4 holds the last diagonal, 3-4-9-14).
pub(crate) const fn row_message<const R: usize>(schedule: &[[usize; 16]; R]) -> [[[u8; 16]; 4]; R] {
    const ORDER: [[usize; 4]; 4] = [[0, 2, 4, 6], [1, 3, 5, 7], [14, 8, 10, 12], [15, 9, 11, 13]];
    let mut table = [[[0u8; 16]; 4]; R];
    let mut r = 0;
    while r < R {
        let mut k = 0;
        while k < 4 {
            let mut w = 0;
            while w < 4 {
                let word = schedule[r][ORDER[k][w]];
                let mut b = 0;
                while b < 4 {
                    table[r][k][4 * w + b] = (4 * word + b) as u8;
                    b += 1;
                }
                w += 1;
            }
            k += 1;
        }
        r += 1;
    }
    table
}

/// The rounds of one state in rows (`rows` = [a, b, c, d], four words each) on the 64-byte
/// block at `block`, one round per entry of `table` (from [`row_message`]). The column step
/// runs the four column G at once; rotating rows a, c and d (b stays) then lines the diagonals
/// up as columns, and rotating them back restores the rows.
#[inline(always)]
pub(crate) unsafe fn rounds_rows(
    rows: [V; 4],
    block: *const u8,
    table: &[[[u8; 16]; 4]],
) -> [V; 4] {
    unsafe {
        let msg = vld1q_u8_x4(block);
        let [mut a, mut b, mut c, mut d] = rows;
        for idx in table {
            let pick = |k: usize| vreinterpretq_u32_u8(vqtbl4q_u8(msg, vld1q_u8(idx[k].as_ptr())));
            g(&mut a, &mut b, &mut c, &mut d, pick(0), pick(1));
            a = vextq_u32::<3>(a, a);
            c = vextq_u32::<1>(c, c);
            d = vextq_u32::<2>(d, d);
            g(&mut a, &mut b, &mut c, &mut d, pick(2), pick(3));
            a = vextq_u32::<1>(a, a);
            c = vextq_u32::<3>(c, c);
            d = vextq_u32::<2>(d, d);
        }
        [a, b, c, d]
    }
}

// Carry-less multiplication

/// `uint64x2_t` with PMULL (the `aes` feature): one 128-bit lane, word 0 the low one.
mod clmul {
    use crate::arch::clmul::ClmulLanes;
    use core::arch::aarch64::*;

    /// `vmull_p64` of the words `IMM` picks. (`vmull_p64` is inlined only into code with its
    /// features, hence theirs here and `#[inline]`.)
    #[inline]
    #[target_feature(enable = "neon,aes")]
    unsafe fn pmull<const IMM: i32>(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
        let x = if IMM & 0x01 == 0 {
            vgetq_lane_u64::<0>(a)
        } else {
            vgetq_lane_u64::<1>(a)
        };
        let y = if IMM & 0x10 == 0 {
            vgetq_lane_u64::<0>(b)
        } else {
            vgetq_lane_u64::<1>(b)
        };
        vreinterpretq_u64_p128(vmull_p64(x, y))
    }

    // SAFETY (every function): the caller has NEON and AES (see `ClmulLanes`).
    impl ClmulLanes for uint64x2_t {
        #[inline(always)]
        unsafe fn clmul<const IMM: i32>(a: Self, b: Self) -> Self {
            unsafe { pmull::<IMM>(a, b) }
        }
        #[inline(always)]
        unsafe fn xor(a: Self, b: Self) -> Self {
            unsafe { veorq_u64(a, b) }
        }
        #[inline(always)]
        unsafe fn and(a: Self, b: Self) -> Self {
            unsafe { vandq_u64(a, b) }
        }
        #[inline(always)]
        unsafe fn unpacklo64(a: Self, b: Self) -> Self {
            unsafe { vtrn1q_u64(a, b) }
        }
        #[inline(always)]
        unsafe fn unpackhi64(a: Self, b: Self) -> Self {
            unsafe { vtrn2q_u64(a, b) }
        }
        #[inline(always)]
        unsafe fn srli64<const N: i32>(a: Self) -> Self {
            unsafe { vshrq_n_u64::<N>(a) }
        }
        #[inline(always)]
        unsafe fn slli64<const N: i32>(a: Self) -> Self {
            unsafe { vshlq_n_u64::<N>(a) }
        }
        #[inline(always)]
        unsafe fn srai32<const N: i32>(a: Self) -> Self {
            unsafe { vreinterpretq_u64_s32(vshrq_n_s32::<N>(vreinterpretq_s32_u64(a))) }
        }
        #[inline(always)]
        unsafe fn bsrli8(a: Self) -> Self {
            unsafe { vextq_u64::<1>(a, Self::zero()) }
        }
        #[inline(always)]
        unsafe fn bslli8(a: Self) -> Self {
            unsafe { vextq_u64::<1>(Self::zero(), a) }
        }
        #[inline(always)]
        unsafe fn blend_hi(a: Self, b: Self) -> Self {
            unsafe { vcopyq_laneq_u64::<1, 1>(a, b) }
        }
        #[inline(always)]
        unsafe fn top_dword(a: Self) -> Self {
            unsafe { vreinterpretq_u64_u32(vdupq_laneq_u32::<3>(vreinterpretq_u32_u64(a))) }
        }
        #[inline(always)]
        unsafe fn sub64(a: Self, b: Self) -> Self {
            unsafe { vsubq_u64(a, b) }
        }
        #[inline(always)]
        unsafe fn zero() -> Self {
            unsafe { vdupq_n_u64(0) }
        }
        #[inline(always)]
        unsafe fn splat64(x: u64) -> Self {
            unsafe { vdupq_n_u64(x) }
        }
        #[inline(always)]
        unsafe fn set64(hi: u64, lo: u64) -> Self {
            unsafe { vcombine_u64(vcreate_u64(lo), vcreate_u64(hi)) }
        }
    }
}

/// A `u128` as a vector: word 0 its low half.
#[inline(always)]
pub(crate) unsafe fn from_u128(x: u128) -> uint64x2_t {
    // SAFETY: the caller has NEON.
    unsafe { <uint64x2_t as crate::arch::clmul::ClmulLanes>::set64((x >> 64) as u64, x as u64) }
}

/// A vector as a `u128`.
#[inline(always)]
pub(crate) unsafe fn to_u128(v: uint64x2_t) -> u128 {
    // SAFETY: the caller has NEON.
    unsafe { u128::from(vgetq_lane_u64::<0>(v)) | (u128::from(vgetq_lane_u64::<1>(v)) << 64) }
}

// SAFETY (every method): as the functions above.
impl super::super::words4::Words4 for V {
    #[inline(always)]
    unsafe fn splat(x: u32) -> V {
        unsafe { splat(x) }
    }
    #[inline(always)]
    unsafe fn splat4(w: &[u32; 4]) -> [V; 4] {
        unsafe { splat4(w) }
    }
    #[inline(always)]
    unsafe fn words(x: [u32; 4]) -> V {
        unsafe { words(x) }
    }
    #[inline(always)]
    unsafe fn or(a: V, b: V) -> V {
        unsafe { vorrq_u32(a, b) }
    }
    #[inline(always)]
    unsafe fn xor(a: V, b: V) -> V {
        unsafe { xor(a, b) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u8) -> V {
        unsafe { vreinterpretq_u32_u8(vld1q_u8(p)) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, x: V) {
        unsafe { store(p, x) }
    }
    #[inline(always)]
    unsafe fn transpose(r: [V; 4]) -> [V; 4] {
        unsafe { transpose(r) }
    }
    #[inline(always)]
    unsafe fn load_transposed4(rows: [*const u8; 4]) -> [V; 4] {
        unsafe { load_transposed4(rows) }
    }
    #[inline(always)]
    unsafe fn store_transposed4(x: [V; 4], rows: [*mut u8; 4]) {
        unsafe { store_transposed4(x, rows) }
    }
    #[inline(always)]
    unsafe fn load_blocks4(inputs: &[*const u8; 4], offset: usize) -> [V; 16] {
        unsafe { load_blocks4(inputs, offset) }
    }
    #[inline(always)]
    unsafe fn round4(v: &mut [V; 16], m: &[V; 16], s: &[usize; 16]) {
        unsafe { round4(v, m, s) }
    }
}
