//! BLAKE3 kernels for AVX-512 (F and VL): `simd`'s shared code with the `Ror` rotations, whose
//! one-instruction `vprord` shortens every chain, so every vector width compiles here again; and
//! [`compress_scalar`], one lane's chain in general-purpose registers, for [`Avx512Scalar`].

use core::arch::x86_64::*;

use super::kernels::{copy_then_hash, Group, Kernels, Lane, BLOCK_LEN, IV};
use super::simd::{self, LaneWords, RowWords};
use crate::arch::x86::avx512::{self, load_pair, transpose16, transpose4_512};
use crate::arch::x86::sse41::{load128, store128};
use crate::arch::x86::{pick, Ror};

impl LaneWords for __m512i {
    const LANES: usize = 16;
    /// Kept because one-shot 16 KiB-1 MiB calls are faster with it (same-process A/B).
    const FIRST_HALF_AHEAD: bool = true;
    /// The hardware prefetcher does not keep ahead of sixteen streams 1 KiB apart.
    const PREFETCH_AHEAD: usize = 256;

    #[inline(always)]
    unsafe fn stream_line(src: *const u8, dst: *mut u8) {
        // SAFETY: AVX-512F; `src` holds 64 bytes and `dst` is 64-byte aligned (see the trait).
        unsafe { _mm512_stream_si512(dst.cast(), _mm512_loadu_si512(src.cast())) }
    }

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe { _mm512_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 16]) -> Self {
        // SAFETY: AVX-512F; `w` has 64 bytes.
        unsafe { _mm512_loadu_si512(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe { _mm512_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe { _mm512_xor_si512(self, other) }
    }

    /// Blocks load in 32-byte halves, so inserts from memory replace a [`transpose16`] stage.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16], at: usize) -> [Self; W] {
        // SAFETY: the features are enabled; lane `i` reads `4 * W` bytes at `src[i] + at`.
        unsafe {
            let mut words = [_mm512_setzero_si512(); W];
            if W == 16 {
                // Vector `i < 4` of `halves[h]` holds lanes `i` and `i + 4`, `4 + i` lanes `8 + i`
                // and `12 + i`, so in-lane 4x4 transposes and one lane shuffle put them in order.
                let mut halves = [[_mm512_setzero_si512(); 8]; 2];
                for (h, half) in halves.iter_mut().enumerate() {
                    for (i, v) in half.iter_mut().enumerate() {
                        let lane = i % 4 + 8 * (i / 4);
                        *v = load_pair(src[lane].add(at + 32 * h), src[lane + 4].add(at + 32 * h));
                    }
                }
                for (h, half) in halves.iter().enumerate() {
                    let first = transpose4_512([half[0], half[1], half[2], half[3]]);
                    let second = transpose4_512([half[4], half[5], half[6], half[7]]);
                    for k in 0..4 {
                        words[8 * h + k] =
                            _mm512_shuffle_i64x2::<{ pick(0, 2, 0, 2) }>(first[k], second[k]);
                        words[8 * h + 4 + k] =
                            _mm512_shuffle_i64x2::<{ pick(1, 3, 1, 3) }>(first[k], second[k]);
                    }
                }
            } else {
                debug_assert_eq!(W, 8);
                let mut halves = [[_mm512_setzero_si512(); 4]; 2];
                for j in 0..4 {
                    let lo = load_pair(src[j].add(at), src[j + 4].add(at));
                    let hi = load_pair(src[j + 8].add(at), src[j + 12].add(at));
                    halves[0][j] = _mm512_shuffle_i64x2::<{ pick(0, 2, 0, 2) }>(lo, hi);
                    halves[1][j] = _mm512_shuffle_i64x2::<{ pick(1, 3, 1, 3) }>(lo, hi);
                }
                for (group, half) in words.chunks_exact_mut(4).zip(halves) {
                    group.copy_from_slice(&transpose4_512(half));
                }
            }
            words
        }
    }

    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        // SAFETY: the features are enabled; lane `i` writes `4 * W` bytes at `dst[i]`.
        unsafe {
            if W == 16 {
                let mut rows = [_mm512_setzero_si512(); 16];
                rows.copy_from_slice(&words);
                let rows = transpose16(rows);
                for (row, &dst) in rows.into_iter().zip(dst) {
                    _mm512_storeu_si512(dst.cast(), row);
                }
            } else {
                debug_assert_eq!(W, 8);
                let lo = transpose4_512([words[0], words[1], words[2], words[3]]);
                let hi = transpose4_512([words[4], words[5], words[6], words[7]]);
                let first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
                let second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
                for j in 0..4 {
                    for (q, idx) in [(0, first), (2, second)] {
                        let both = _mm512_permutex2var_epi64(lo[j], idx, hi[j]);
                        _mm256_storeu_si256(dst[4 * q + j].cast(), _mm512_castsi512_si256(both));
                        _mm256_storeu_si256(
                            dst[4 * q + 4 + j].cast(),
                            _mm512_extracti64x4_epi64::<1>(both),
                        );
                    }
                }
            }
        }
    }
}

impl RowWords for __m512i {
    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: AVX-512F; the caller guarantees 16 readable bytes at each pointer.
        unsafe {
            let v = _mm512_castsi128_si512(load128(src[0]));
            let v = _mm512_inserti32x4::<1>(v, load128(src[1]));
            let v = _mm512_inserti32x4::<2>(v, load128(src[2]));
            _mm512_inserti32x4::<3>(v, load128(src[3]))
        }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: AVX-512F; the caller guarantees 16 readable bytes at `src`.
        unsafe { _mm512_broadcast_i32x4(load128(src)) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: AVX-512F; the caller guarantees 16 writable bytes at each pointer.
        unsafe {
            store128(dst[0], _mm512_castsi512_si128(self));
            store128(dst[1], _mm512_extracti32x4_epi32::<1>(self));
            store128(dst[2], _mm512_extracti32x4_epi32::<2>(self));
            store128(dst[3], _mm512_extracti32x4_epi32::<3>(self));
        }
    }

    #[inline(always)]
    unsafe fn shuffle_words<const IMM: i32>(self) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe { _mm512_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle_pairs<const IMM: i32>(self, other: Self) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe {
            _mm512_castps_si512(_mm512_shuffle_ps::<IMM>(
                _mm512_castsi512_ps(self),
                _mm512_castsi512_ps(other),
            ))
        }
    }

    /// A `vpternlogd` select with a constant mask, as there is no 512-bit `pblendw` and
    /// `vpblendmd` reloads its mask register before every blend.
    #[inline(always)]
    unsafe fn blend_halfwords<const IMM: i32>(self, other: Self) -> Self {
        let w = |k: i32| -((IMM >> (2 * k)) & 1);
        // SAFETY: AVX-512F; see the trait (0xCA takes `other` where the mask is set).
        unsafe {
            let mask = _mm512_broadcast_i32x4(_mm_setr_epi32(w(0), w(1), w(2), w(3)));
            _mm512_ternarylogic_epi32::<0xCA>(mask, other, self)
        }
    }

    #[inline(always)]
    unsafe fn unpack_lo(self, other: Self) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe { _mm512_unpacklo_epi32(self, other) }
    }

    /// Through [`RowWords::opaque`], because LLVM otherwise merges shuffles into slower
    /// `vpermt2d` (`benches/blake3_kernels.rs`, `chunks/4`).
    #[inline(always)]
    unsafe fn barrier(self) -> Self {
        // SAFETY: AVX-512F; see the trait.
        unsafe { self.opaque() }
    }

    #[inline(always)]
    unsafe fn opaque(self) -> Self {
        // SAFETY: the feature is enabled (see the trait).
        unsafe { avx512::opaque(self) }
    }
}

macro_rules! scalar_op {
    ($op:literal $dst:literal, $src:literal) => {
        concat!($op, " ", $dst, ", ", $src, "\n")
    };
}

/// The assembly text that adds message word `x`, from the block copy at `rsp`, to register `a`.
macro_rules! scalar_add_message {
    ($a:literal, $x:tt) => {
        concat!("add ", $a, ", dword ptr [rsp + 4 * ", stringify!($x), "]\n")
    };
}

/// The assembly text of one G, the message word added first so that one addition waits for `b`.
macro_rules! scalar_g {
    ($a:literal, $b:literal, $c:literal, $d:literal, $x:tt, $y:tt) => {
        concat!(
            scalar_add_message!($a, $x),
            scalar_op!("add" $a, $b),
            scalar_op!("xor" $d, $a),
            scalar_op!("ror" $d, "16"),
            scalar_op!("add" $c, $d),
            scalar_op!("xor" $b, $c),
            scalar_op!("ror" $b, "12"),
            scalar_add_message!($a, $y),
            scalar_op!("add" $a, $b),
            scalar_op!("xor" $d, $a),
            scalar_op!("ror" $d, "8"),
            scalar_op!("add" $c, $d),
            scalar_op!("xor" $b, $c),
            scalar_op!("ror" $b, "7"),
        )
    };
}

/// The assembly text of one round on [`compress_scalar`]'s registers (words 0-14 in `eax` to
/// `r15d`, word 15 at `[rsp + 132]`), word 15 borrowing `r13d` while word 12 waits at
/// `[rsp + 68]`.
macro_rules! scalar_round {
    ([$s0:tt, $s1:tt, $s2:tt, $s3:tt, $s4:tt, $s5:tt, $s6:tt, $s7:tt, $s8:tt,
      $s9:tt, $s10:tt, $s11:tt, $s12:tt, $s13:tt, $s14:tt, $s15:tt]) => {
        concat!(
            scalar_g!("eax", "esi", "r9d", "r13d", $s0, $s1),
            scalar_g!("ebx", "edi", "r10d", "r14d", $s2, $s3),
            scalar_g!("ecx", "ebp", "r11d", "r15d", $s4, $s5),
            "mov dword ptr [rsp + 68], r13d\n",
            "mov r13d, dword ptr [rsp + 132]\n",
            scalar_g!("edx", "r8d", "r12d", "r13d", $s6, $s7),
            scalar_g!("eax", "edi", "r11d", "r13d", $s8, $s9),
            "mov dword ptr [rsp + 132], r13d\n",
            "mov r13d, dword ptr [rsp + 68]\n",
            scalar_g!("ebx", "ebp", "r12d", "r13d", $s10, $s11),
            scalar_g!("ecx", "r8d", "r9d", "r14d", $s12, $s13),
            scalar_g!("edx", "esi", "r10d", "r15d", $s14, $s15),
        )
    };
}

macro_rules! scalar_rounds {
    ($($s:tt),*) => {
        concat!($(scalar_round!($s),)*)
    };
}

/// `portable::compress_in_place` on general-purpose registers, each block copied to the stack;
/// `arbor bench pairs` shows chains faster at 256 B-1 KiB than in rows or the portable code.
///
/// # Safety
/// The CPU must support AVX (the block copy); `blocks` must not be empty.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(crate) unsafe fn compress_scalar(
    cv: &mut [u32; 8],
    blocks: &[[u8; BLOCK_LEN]],
    block_len: u8,
    counter: u64,
    flags: u8,
    flags_start: u8,
) {
    debug_assert!(!blocks.is_empty());
    // SAFETY: AVX is present; the text reads `blocks`, writes `cv`, keeps its frame below the
    // red zone (320 bytes down, 64-aligned) and restores `rsp`, `rbx` and `rbp`. Frame: block
    // 0-63, word 12 at 68, saved `rsp rbx rbp` 72-88, `cv` 96, next block 104, blocks left 112,
    // counter 120, block length 128, word 15 132, later blocks' flags 136.
    unsafe {
        core::arch::asm!(
            "mov rax, rsp",
            "sub rsp, 320",
            "and rsp, -64",
            "mov qword ptr [rsp + 72], rax",
            "mov qword ptr [rsp + 80], rbx",
            "mov qword ptr [rsp + 88], rbp",
            "mov qword ptr [rsp + 96], rdi",
            "mov qword ptr [rsp + 104], rsi",
            "mov qword ptr [rsp + 112], rdx",
            "mov qword ptr [rsp + 120], rcx",
            "mov dword ptr [rsp + 128], r8d",
            "mov dword ptr [rsp + 132], r9d",
            "mov dword ptr [rsp + 136], r10d",
            "mov eax, dword ptr [rdi]",
            "mov ebx, dword ptr [rdi + 4]",
            "mov ecx, dword ptr [rdi + 8]",
            "mov edx, dword ptr [rdi + 12]",
            "mov esi, dword ptr [rdi + 16]",
            "mov ebp, dword ptr [rdi + 24]",
            "mov r8d, dword ptr [rdi + 28]",
            "mov edi, dword ptr [rdi + 20]",
            "2:",
            // Words 8-14 are free until the block's state is set up.
            "mov r9, qword ptr [rsp + 104]",
            "vmovdqu xmm0, xmmword ptr [r9]",
            "vmovdqa xmmword ptr [rsp], xmm0",
            "vmovdqu xmm0, xmmword ptr [r9 + 16]",
            "vmovdqa xmmword ptr [rsp + 16], xmm0",
            "vmovdqu xmm0, xmmword ptr [r9 + 32]",
            "vmovdqa xmmword ptr [rsp + 32], xmm0",
            "vmovdqu xmm0, xmmword ptr [r9 + 48]",
            "vmovdqa xmmword ptr [rsp + 48], xmm0",
            "add r9, 64",
            "mov qword ptr [rsp + 104], r9",
            "mov r9d, {iv0}",
            "mov r10d, {iv1}",
            "mov r11d, {iv2}",
            "mov r12d, {iv3}",
            "mov r13d, dword ptr [rsp + 120]",
            "mov r14d, dword ptr [rsp + 124]",
            "mov r15d, dword ptr [rsp + 128]",
            simd::with_schedule!(scalar_rounds),
            "xor eax, r9d",
            "xor ebx, r10d",
            "xor ecx, r11d",
            "xor edx, r12d",
            "xor esi, r13d",
            "xor edi, r14d",
            "xor ebp, r15d",
            "xor r8d, dword ptr [rsp + 132]",
            "mov r9d, dword ptr [rsp + 136]",
            "mov dword ptr [rsp + 132], r9d",
            "dec qword ptr [rsp + 112]",
            "jnz 2b",
            "mov r9, qword ptr [rsp + 96]",
            "mov dword ptr [r9], eax",
            "mov dword ptr [r9 + 4], ebx",
            "mov dword ptr [r9 + 8], ecx",
            "mov dword ptr [r9 + 12], edx",
            "mov dword ptr [r9 + 16], esi",
            "mov dword ptr [r9 + 20], edi",
            "mov dword ptr [r9 + 24], ebp",
            "mov dword ptr [r9 + 28], r8d",
            "mov rbx, qword ptr [rsp + 80]",
            "mov rbp, qword ptr [rsp + 88]",
            "mov rsp, qword ptr [rsp + 72]",
            iv0 = const IV[0],
            iv1 = const IV[1],
            iv2 = const IV[2],
            iv3 = const IV[3],
            inout("rdi") cv.as_mut_ptr() => _,
            inout("rsi") blocks.as_ptr() => _,
            inout("rdx") blocks.len() => _,
            inout("rcx") counter => _,
            inout("r8") u32::from(block_len) => _,
            inout("r9") u32::from(flags | flags_start) => _,
            inout("r10") u32::from(flags) => _,
            out("rax") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
            out("xmm0") _,
        );
    }
}

/// The AVX-512 backend.
pub(crate) struct Avx512;

impl Kernels for Avx512 {
    const DEGREE: usize = 16;

    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        // SAFETY: the features are enabled here and present (our contract).
        unsafe {
            simd::compress_rows_in_place::<Ror>(cv, blocks, block_len, counter, flags, flags_start)
        }
    }
    /// Nine or more lanes copy each block as it is loaded; fewer are copied first.
    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: the features are present; each kernel gets a lane count it takes.
        unsafe {
            match lanes.len() {
                9.. => simd::hash_transposed_copying::<__m512i, Ror>(lanes, flags, dsts, out),
                5.. => simd::hash_transposed_copying::<__m256i, Ror>(lanes, flags, dsts, out),
                _ => copy_then_hash::<Self>(lanes, flags, dsts, out),
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: the features are present; each kernel gets a lane count it takes.
        unsafe {
            match group.len() {
                9.. => simd::hash_transposed::<__m512i, Ror>(group, out),
                5.. => simd::hash_transposed::<__m256i, Ror>(group, out),
                3.. => simd::hash_in_rows::<__m512i, Ror, 1>(group, out),
                2 => simd::hash_in_rows::<__m256i, Ror, 1>(group, out),
                1 => simd::hash_in_rows::<__m128i, Ror, 1>(group, out),
                _ => {}
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        // SAFETY: the features are present; each group is as many blocks as its kernel computes.
        unsafe {
            let mut counter = counter;
            let mut out = out;
            if out.len() >= 16 * BLOCK_LEN {
                let m = simd::broadcast_block::<__m512i>(block);
                while out.len() >= 16 * BLOCK_LEN {
                    let (group, rest) = out.split_at_mut(16 * BLOCK_LEN);
                    simd::xof_group::<__m512i, Ror>(cv, &m, block_len, counter, flags, group);
                    counter = counter.wrapping_add(16);
                    out = rest;
                }
            }
            if out.len() >= 8 * BLOCK_LEN {
                let (group, rest) = out.split_at_mut(8 * BLOCK_LEN);
                let m = simd::broadcast_block::<__m256i>(block);
                simd::xof_group::<__m256i, Ror>(cv, &m, block_len, counter, flags, group);
                counter = counter.wrapping_add(8);
                out = rest;
            }
            if out.len() >= 4 * BLOCK_LEN {
                let (group, rest) = out.split_at_mut(4 * BLOCK_LEN);
                simd::xof_rows::<__m512i, Ror>(cv, block, block_len, counter, flags, group);
                counter = counter.wrapping_add(4);
                out = rest;
            }
            if out.len() >= 2 * BLOCK_LEN {
                let (group, rest) = out.split_at_mut(2 * BLOCK_LEN);
                simd::xof_rows::<__m256i, Ror>(cv, block, block_len, counter, flags, group);
                counter = counter.wrapping_add(2);
                out = rest;
            }
            if !out.is_empty() {
                simd::xof_rows::<__m128i, Ror>(cv, block, block_len, counter, flags, out);
            }
        }
    }
}

/// The `avx512-scalar` route: the AVX-512 kernels, but chains of two blocks or more go through
/// [`compress_scalar`], shorter on CPUs with slow vector latencies.
pub(crate) struct Avx512Scalar;

impl Kernels for Avx512Scalar {
    const DEGREE: usize = Avx512::DEGREE;

    #[inline(always)]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        // SAFETY: the features are present; the scalar chain gets two or more blocks.
        unsafe {
            if blocks.len() >= 2 {
                compress_scalar(cv, blocks, block_len, counter, flags, flags_start)
            } else {
                Avx512::compress_in_place(cv, blocks, block_len, counter, flags, flags_start)
            }
        }
    }

    #[inline(always)]
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { Avx512::hash_many_copying(lanes, flags, dsts, out) }
    }

    #[inline(always)]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: forwarded from the caller.
        unsafe { Avx512::hash_many(group, out) }
    }

    #[inline(always)]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { Avx512::xof_many(cv, block, block_len, counter, flags, out) }
    }
}
