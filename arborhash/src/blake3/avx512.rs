//! BLAKE3 kernels for AVX-512 (AVX-512F with AVX-512VL): the shared SIMD code of `simd` with
//! the `Ror` rotations, on `__m512i` (sixteen lanes transposed, four in rows) and on the
//! narrower vectors of `sse41` and `avx2`.
//!
//! AVX-512VL gives the one-instruction rotation `vprord` on 128- and 256-bit vectors too (SSE4.1
//! and AVX2 need two shifts and an or, or a byte shuffle), so every path compiles here again
//! with it: a row-form compression, one long dependency chain, gets shorter by one instruction
//! for every rotation by 12 or 7. Groups of nine to sixteen lanes run transposed in `__m512i`,
//! of five to eight in `__m256i`; three or four in rows in `__m512i`, two in `__m256i`, one in
//! `__m128i`. [`compress_scalar`], one lane's chain in general-purpose registers, is the
//! `avx512-scalar` route's ([`Avx512Scalar`]).
//!
//! The helpers are `#[inline(always)]` without `#[target_feature]`: they are only compiled into
//! this module's `#[target_feature(enable = "avx512f,avx512vl,avx2")]` entry points. That is why
//! each helper is `unsafe`: calling one is sound only from code compiled with those features, on
//! a CPU that has them.

use core::arch::x86_64::*;

use super::kernels::{copy_then_hash, Group, Kernels, Lane, BLOCK_LEN, IV};
use super::simd::{self, LaneWords, RowWords};
use crate::arch::x86::avx512::{self, load_pair, transpose16, transpose4_512};
use crate::arch::x86::sse41::{load128, store128};
use crate::arch::x86::{pick, Ror};

impl LaneWords for __m512i {
    const LANES: usize = 16;
    /// Same-process A/B against loading each block just before its rounds (probe bin tri,
    /// one-shot 16 KiB-1 MiB, crate/ours): 0.94-0.99 -> 0.97-1.01 in the fastest calls, 0.95-1.00
    /// -> 0.96-1.01 in the median round. Again with the block in assembly (`Ror`'s
    /// `compress_block`), where the eight vectors go through the stack across the rounds: 16 KiB
    /// 1.009-1.015 of main against 1.000-1.006 without, 64 KiB 1.015-1.020 against 1.002-1.014.
    const FIRST_HALF_AHEAD: bool = true;
    /// Inputs larger than the L2 cache: sixteen streams 1 KiB apart are more than the hardware
    /// prefetcher keeps ahead of (16 MiB one-shot 0.81-0.87 of the crate without a prefetch,
    /// 0.90-0.97 with; no change in cache).
    const PREFETCH_AHEAD: usize = 256;

    #[inline(always)]
    unsafe fn stream_line(src: *const u8, dst: *mut u8) {
        // SAFETY: AVX-512F; `src` holds 64 bytes and `dst`, 64-byte aligned, takes them (see
        // the trait).
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

    /// Blocks (`W = 16`) are loaded in 32-byte halves, two lanes to a vector: the inserts from
    /// memory replace one of [`transpose16`]'s two stages of 128-bit lane shuffles, sixteen
    /// operations off the shuffle port (16 parents 0.96 -> 0.99 of the crate). Chaining values
    /// (`W = 8`): lanes `j` and `j + 4` share one load and an insert, as do lanes `j + 8` and
    /// `j + 12`; two 128-bit lane shuffles gather words 0-3 (and 4-7) of lanes `j`, `j + 4`,
    /// `j + 8`, `j + 12`, and 4x4 transposes within 128-bit lanes finish.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16], at: usize) -> [Self; W] {
        // SAFETY: the features are enabled and lane `i` reads its `4 * W` bytes at `src[i] + at`
        // (see the trait).
        unsafe {
            let mut words = [_mm512_setzero_si512(); W];
            if W == 16 {
                // Vector `i < 4` of `halves[h]` holds the 32 bytes at `32 * h` of lanes `i` and
                // `i + 4`, vector `4 + i` those of lanes `8 + i` and `12 + i`; the insert from
                // memory needs no shuffle port. 4x4 transposes within 128-bit lanes leave in
                // vector `k` of group `g` words `k` (128-bit lanes 0 and 2) and `4 + k` (1 and
                // 3) of lanes `8g..8g + 8`, which one 128-bit lane shuffle of each pair of groups
                // puts in order: three stages rather than `transpose16`'s four.
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

    /// Blocks (`W = 16`) go through [`transpose16`]. Chaining values (`W = 8`): after 4x4
    /// transposes within 128-bit lanes, 128-bit lane `q` of vector `j` of the first (second)
    /// group holds words 0-3 (4-7) of lane `4q + j`; one two-source permute per pair of lanes
    /// joins the halves into 32 contiguous bytes.
    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        // SAFETY: the features are enabled and lane `i` writes its `4 * W` bytes at `dst[i]`
        // (see the trait).
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
        // SAFETY: the caller guarantees 16 readable bytes at each pointer; AVX-512F (see the
        // trait). Inserts from memory need no shuffle port.
        unsafe {
            let v = _mm512_castsi128_si512(load128(src[0]));
            let v = _mm512_inserti32x4::<1>(v, load128(src[1]));
            let v = _mm512_inserti32x4::<2>(v, load128(src[2]));
            _mm512_inserti32x4::<3>(v, load128(src[3]))
        }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `src`; AVX-512F (see the trait).
        unsafe { _mm512_broadcast_i32x4(load128(src)) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: the caller guarantees 16 writable bytes at each pointer; AVX-512F (see the
        // trait).
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

    /// AVX-512 has no 512-bit `pblendw` with an immediate: the halfword mask (pairs of equal
    /// bits, as every caller passes) becomes a constant vector of word masks, and a bitwise
    /// select (`vpternlogd`) blends. Not `vpblendmd`: its mask register was loaded again with a
    /// `kmovw` (port 5) before every blend in each round, and the row form of four lanes is
    /// bound by its µops on ports 0 and 5 nearly as much as by its latency.
    #[inline(always)]
    unsafe fn blend_halfwords<const IMM: i32>(self, other: Self) -> Self {
        // All ones in word `k` if it comes from `other`.
        let w = |k: i32| -((IMM >> (2 * k)) & 1);
        // SAFETY: AVX-512F; see the trait. Truth table 0xCA: the mask's bit selects `other`'s
        // bit where set, `self`'s where clear.
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

    /// Through [`RowWords::opaque`]. Without it, LLVM's shuffle combiner merges the row form's
    /// pairs of one-source shuffles, blends and unpacks (latency 1, some on two ports) into
    /// two-source word permutes (`vpermt2d`, latency 3, port 5 only, plus a register copy each,
    /// as it overwrites an operand) with 512-bit vectors, in each block's first message and in
    /// every round's permutation, which made 4-chunk groups about a tenth slower
    /// (`benches/blake3_kernels.rs`, `chunks/4`), also when written by hand.
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

/// The assembly text of one scalar instruction `op` on `dst` and `src` (register names or an
/// immediate).
macro_rules! scalar_op {
    ($op:literal $dst:literal, $src:literal) => {
        concat!($op, " ", $dst, ", ", $src, "\n")
    };
}

/// The assembly text that adds message word `x`, read from the copy of the block at the stack
/// pointer, to register `a`.
macro_rules! scalar_add_message {
    ($a:literal, $x:tt) => {
        concat!("add ", $a, ", dword ptr [rsp + 4 * ", stringify!($x), "]\n")
    };
}

/// The assembly text of one G on general-purpose registers `a`, `b`, `c`, `d` (32-bit names),
/// message words `x` and `y`. The message word is added first, so that one addition waits for
/// `b`.
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

/// The assembly text of one round whose message words are `s` (`MSG_SCHEDULE` of the round), on
/// [`compress_scalar`]'s registers: state words 0-14 in `eax`, `ebx`, `ecx`, `edx`, `esi`,
/// `edi`, `ebp`, `r8d`-`r15d`, word 15 at `[rsp + 132]`. Fifteen registers hold fifteen words
/// (the sixteenth names the stack): word 15 takes `r13d` (word 12) for the two G that use it,
/// the last of the columns and the first of the diagonals, while word 12, done with for the
/// columns and first needed in the second diagonal, waits at `[rsp + 68]`.
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

/// The seven rounds on general-purpose registers, for `with_schedule!`.
macro_rules! scalar_rounds {
    ($($s:tt),*) => {
        concat!($(scalar_round!($s),)*)
    };
}

/// `portable::compress_in_place` on general-purpose registers, for [`Avx512Scalar`]: the
/// sixteen state words in fifteen registers and one stack slot, the chaining value kept in
/// registers from block to block. Each block is copied to the stack first, so that its words
/// are read relative to `rsp` and no register holds its address during the rounds; its
/// pointer, the block count and the parameters wait in the frame too.
///
/// Where chosen, a chain of blocks takes less time than in rows or in the portable code
/// (`arbor bench pairs --filter "BLAKE3 arborhash avx512 vs"` at 256 B-1 KiB, against builds
/// with either in its place); single blocks stay in rows, where the scalar form's many
/// instructions cost more than its shorter chain saves.
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
    // SAFETY: AVX is present (our contract). The text reads `blocks.len()` blocks from
    // `blocks` and writes the 32 bytes of `cv`; its frame lies below the red zone (at least
    // 320 bytes under the stack pointer, aligned down to 64), and it restores `rsp`, `rbx` and
    // `rbp`, which it saves in the frame, before it ends. Frame: the block at 0-63, word 12 at
    // 68, the saved `rsp`, `rbx`, `rbp` at 72, 80, 88, the `cv` pointer at 96, the next
    // block's at 104, blocks left at 112, the counter at 120, the block length at 128, word 15
    // (the flags word when a block starts) at 132, the flags of blocks after the first at 136.
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

    /// Compresses `blocks` into `cv`, one after another, in rows: the AVX-512 form of
    /// `portable::compress_in_place`.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, AVX-512VL and AVX2.
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
    /// Hashes the 1 to 16 whole chunks `lanes` and copies them to `dsts`: nine or more
    /// transposed in `__m512i`, five to eight in `__m256i`, each block copied as it is loaded;
    /// fewer lanes are copied first, then hashed in rows.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, AVX-512VL and AVX2; the arguments are as
    /// `Kernels::hash_many_copying` requires.
    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: the features are enabled here and present; each kernel gets a lane count it
        // takes, and the rest is forwarded from the caller.
        unsafe {
            match lanes.len() {
                9.. => simd::hash_transposed_copying::<__m512i, Ror>(lanes, flags, dsts, out),
                5.. => simd::hash_transposed_copying::<__m256i, Ror>(lanes, flags, dsts, out),
                _ => copy_then_hash::<Self>(lanes, flags, dsts, out),
            }
        }
    }

    /// Hashes the 0 to 16 lanes of `group`, lane `i` into `out[i]`: nine or more transposed in
    /// `__m512i` (padded to sixteen), five to eight in `__m256i`; three or four in rows four blocks
    /// wide, a pair two wide, a single lane one wide.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, AVX-512VL and AVX2; the group and `out` are as
    /// `Kernels::hash_many` requires.
    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: the features are enabled here and present; each kernel gets a lane count it
        // takes.
        unsafe {
            match group.len() {
                9.. => simd::hash_transposed::<__m512i, Ror>(group, out),
                5.. => simd::hash_transposed::<__m256i, Ror>(group, out),
                3.. => simd::hash_in_rows::<__m512i, Ror, 1>(group, out),
                2 => simd::hash_in_rows::<__m256i, Ror, 1>(group, out),
                1 => simd::hash_in_rows::<__m128i, Ror, 1>(group, out),
                // An empty group (the kernel tests pass one): nothing to hash.
                _ => {}
            }
        }
    }

    /// Extended output, sixteen blocks at a time, then eight, then in rows four, two and one wide:
    /// the AVX-512 form of `portable::xof_many`.
    ///
    /// # Safety
    /// The CPU must support AVX-512F, AVX-512VL and AVX2; `out.len()` must be a multiple of
    /// `BLOCK_LEN`.
    #[target_feature(enable = "avx512f,avx512vl,avx2")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        // SAFETY: the features are enabled here and present (our contract); each group slice is
        // exactly as many blocks as its kernel computes.
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

/// The `avx512-scalar` route: the AVX-512 kernels, but a chain of two blocks or more is
/// compressed by [`compress_scalar`], whose one dependency chain is shorter on CPUs with slow
/// vector latencies.
pub(crate) struct Avx512Scalar;

impl Kernels for Avx512Scalar {
    const DEGREE: usize = Avx512::DEGREE;

    /// # Safety
    /// As [`Avx512::compress_in_place`].
    #[inline(always)]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        // SAFETY: the features are present (our contract); the scalar chain gets two or more
        // blocks.
        unsafe {
            if blocks.len() >= 2 {
                compress_scalar(cv, blocks, block_len, counter, flags, flags_start)
            } else {
                Avx512::compress_in_place(cv, blocks, block_len, counter, flags, flags_start)
            }
        }
    }

    /// # Safety
    /// As [`Avx512::hash_many_copying`].
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

    /// # Safety
    /// As [`Avx512::hash_many`].
    #[inline(always)]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: forwarded from the caller.
        unsafe { Avx512::hash_many(group, out) }
    }

    /// # Safety
    /// As [`Avx512::xof_many`].
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
