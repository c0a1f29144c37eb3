//! BLAKE3 kernels for AVX2: the shared SIMD code of `simd` on `__m256i`, eight lanes per vector
//! in the transposed form and two in the row form, with the `Shuffles` rotations.
//!
//! AVX2 implies SSE4.1, so single blocks and the last few extended-output blocks take the
//! `__m128i` paths of `sse41`, compiled here with AVX2 enabled (VEX encoded, so no SSE/AVX
//! transition costs).

use core::arch::x86_64::*;

use super::kernels::{self, Group, Kernels, BLOCK_LEN};
use super::simd::{
    self, load128, transpose4_fn, with_schedule, LaneWords, Rotate, RowMessage, RowWords,
};
use super::sse41::{self, ByteMask, Shuffles, ROT16, ROT16_MASK, ROT8, ROT8_MASK};
use super::IV;

/// `asm!` with `ymm8-15` declared as scratch, which the block and the loader use freely, and
/// with neither the stack nor the flags touched.
macro_rules! asm_with_upper_scratch {
    ($($args:tt)*) => {
        core::arch::asm!(
            $($args)*
            out("ymm8") _,
            out("ymm9") _,
            out("ymm10") _,
            out("ymm11") _,
            out("ymm12") _,
            out("ymm13") _,
            out("ymm14") _,
            out("ymm15") _,
            options(nostack, preserves_flags),
        )
    };
}

/// `asm!` of the row-state rounds (one or two states): the template, then the operands they
/// share, the constants' address `k` and the round counter `n` (the shuffle immediates come
/// from [`simd::asm_row_consts`]), then the caller's own operands.
macro_rules! asm_row_rounds {
    ($($template:expr),+; $($operands:tt)*) => {
        simd::asm_row_consts!(
            $($template),+;
            k = in(reg) &ASM_CONSTS,
            n = out(reg) _,
            $($operands)*
        )
    };
}

/// The assembly text of half a G on four columns (or diagonals) at once, given as `(a, b, c,
/// d, x)`: state word `i` in `ymm{i}`, but for word 8, the first column's `c`, which stays in
/// the spill slot. `a` += message word `x` + `b`, `d` = (`d` ^ `a`) rotated by the byte shuffle
/// `mask`, `c` += `d`, `b` = (`b` ^ `c`) rotated right by `rb` bits (`lb` = 32 - `rb`).
///
/// `ymm8` holds the shuffle mask, then word 8 from its `c += d` to its `b ^ c`, then the
/// shift-or rotations' temporary: the one register the rounds need beyond the sixteen words.
macro_rules! half_g {
    (
        ($a0:literal, $b0:literal, 8, $d0:literal, $x0:literal),
        $(($a:literal, $b:literal, $c:literal, $d:literal, $x:literal)),*;
        $mask:literal, $rb:literal, $lb:literal
    ) => {
        concat!(
            "vpaddd ymm", $a0, ", ymm", $a0, ", ymmword ptr [{m} + 32 * ", $x0, "]\n",
            $("vpaddd ymm", $a, ", ymm", $a, ", ymmword ptr [{m} + 32 * ", $x, "]\n",)*
            "vpaddd ymm", $a0, ", ymm", $a0, ", ymm", $b0, "\n",
            $("vpaddd ymm", $a, ", ymm", $a, ", ymm", $b, "\n",)*
            "vpxor ymm", $d0, ", ymm", $d0, ", ymm", $a0, "\n",
            $("vpxor ymm", $d, ", ymm", $d, ", ymm", $a, "\n",)*
            "vmovdqu ymm8, ymmword ptr [", $mask, "]\n",
            "vpshufb ymm", $d0, ", ymm", $d0, ", ymm8\n",
            $("vpshufb ymm", $d, ", ymm", $d, ", ymm8\n",)*
            "vpaddd ymm8, ymm", $d0, ", ymmword ptr [{spill}]\n",
            $("vpaddd ymm", $c, ", ymm", $c, ", ymm", $d, "\n",)*
            "vpxor ymm", $b0, ", ymm", $b0, ", ymm8\n",
            $("vpxor ymm", $b, ", ymm", $b, ", ymm", $c, "\n",)*
            "vmovdqu ymmword ptr [{spill}], ymm8\n",
            "vpsrld ymm8, ymm", $b0, ", ", $rb, "\n",
            "vpslld ymm", $b0, ", ymm", $b0, ", ", $lb, "\n",
            "vpor ymm", $b0, ", ymm", $b0, ", ymm8\n",
            $(
                "vpsrld ymm8, ymm", $b, ", ", $rb, "\n",
                "vpslld ymm", $b, ", ymm", $b, ", ", $lb, "\n",
                "vpor ymm", $b, ", ymm", $b, ", ymm8\n",
            )*
        )
    };
}

/// The assembly text of one round whose message words are `s` (`MSG_SCHEDULE` of the round):
/// the columns, then the diagonals `[2, 7, 8, 13]`, `[3, 4, 9, 14]`, `[0, 5, 10, 15]`,
/// `[1, 6, 11, 12]` (the one with word 8 first, see `half_g`).
macro_rules! round_text {
    ([$s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal, $s5:literal,
      $s6:literal, $($rest:literal),*]) => {
        concat!(
            half_g!((0, 4, 8, 12, $s0), (1, 5, 9, 13, $s2), (2, 6, 10, 14, $s4),
                (3, 7, 11, 15, $s6); "{k}", 12, 20),
            round_rest_text!([$s0, $s1, $s2, $s3, $s4, $s5, $s6, $($rest),*]),
        )
    };
}

/// [`round_text`] after its first half G: the second half on the columns and the diagonals.
macro_rules! round_rest_text {
    ([$s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal, $s5:literal,
      $s6:literal, $s7:literal, $s8:literal, $s9:literal, $s10:literal, $s11:literal,
      $s12:literal, $s13:literal, $s14:literal, $s15:literal]) => {
        concat!(
            half_g!((0, 4, 8, 12, $s1), (1, 5, 9, 13, $s3), (2, 6, 10, 14, $s5),
                (3, 7, 11, 15, $s7); "{k} + 32", 7, 25),
            half_g!((2, 7, 8, 13, $s12), (3, 4, 9, 14, $s14), (0, 5, 10, 15, $s8),
                (1, 6, 11, 12, $s10); "{k}", 12, 20),
            half_g!((2, 7, 8, 13, $s13), (3, 4, 9, 14, $s15), (0, 5, 10, 15, $s9),
                (1, 6, 11, 12, $s11); "{k} + 32", 7, 25),
        )
    };
}

macro_rules! rounds_text {
    ($($s:tt),*) => {
        concat!(
            "vmovdqu ymmword ptr [{spill}], ymm8\n",
            $(round_text!($s),)*
            "vmovdqu ymm8, ymmword ptr [{spill}]\n",
        )
    };
}

/// The assembly text of the seven rounds of a whole block (see [`Shuffles::compress_block`]):
/// [`rounds_text`] but for the first half of the first round's columns, which reads rows `c`
/// and `d` of the initial state (the IV's first words, the counter, the block length and the
/// flags) from memory where they are first used, as the blake3 crate's assembly does, rather
/// than loading them into `ymm8-15` first (eight instructions a block fewer). The first row
/// `c` (word 8) goes to the spill slot as in [`half_g`]; the rest of the round is
/// [`round_rest_text`].
macro_rules! block_rounds_text {
    ([$s0:literal, $s1:literal, $s2:literal, $s3:literal, $s4:literal, $s5:literal,
      $s6:literal, $($rest:literal),*], $($s:tt),*) => {
        concat!(
            "vpaddd ymm0, ymm0, ymmword ptr [{m} + 32 * ", $s0, "]\n",
            "vpaddd ymm1, ymm1, ymmword ptr [{m} + 32 * ", $s2, "]\n",
            "vpaddd ymm2, ymm2, ymmword ptr [{m} + 32 * ", $s4, "]\n",
            "vpaddd ymm3, ymm3, ymmword ptr [{m} + 32 * ", $s6, "]\n",
            "vpaddd ymm0, ymm0, ymm4\n",
            "vpaddd ymm1, ymm1, ymm5\n",
            "vpaddd ymm2, ymm2, ymm6\n",
            "vpaddd ymm3, ymm3, ymm7\n",
            "vpxor ymm12, ymm0, ymmword ptr [{counter}]\n",
            "vpxor ymm13, ymm1, ymmword ptr [{counter} + 32]\n",
            "vpxor ymm14, ymm2, ymmword ptr [{len}]\n",
            "vpxor ymm15, ymm3, ymmword ptr [{flags}]\n",
            "vmovdqu ymm8, ymmword ptr [{k}]\n",
            "vpshufb ymm12, ymm12, ymm8\n",
            "vpshufb ymm13, ymm13, ymm8\n",
            "vpshufb ymm14, ymm14, ymm8\n",
            "vpshufb ymm15, ymm15, ymm8\n",
            "vpaddd ymm8, ymm12, ymmword ptr [{k} + 64]\n",
            "vpaddd ymm9, ymm13, ymmword ptr [{k} + 96]\n",
            "vpaddd ymm10, ymm14, ymmword ptr [{k} + 128]\n",
            "vpaddd ymm11, ymm15, ymmword ptr [{k} + 160]\n",
            "vpxor ymm4, ymm4, ymm8\n",
            "vpxor ymm5, ymm5, ymm9\n",
            "vpxor ymm6, ymm6, ymm10\n",
            "vpxor ymm7, ymm7, ymm11\n",
            "vmovdqu ymmword ptr [{spill}], ymm8\n",
            "vpsrld ymm8, ymm4, 12\n",
            "vpslld ymm4, ymm4, 20\n",
            "vpor ymm4, ymm4, ymm8\n",
            "vpsrld ymm8, ymm5, 12\n",
            "vpslld ymm5, ymm5, 20\n",
            "vpor ymm5, ymm5, ymm8\n",
            "vpsrld ymm8, ymm6, 12\n",
            "vpslld ymm6, ymm6, 20\n",
            "vpor ymm6, ymm6, ymm8\n",
            "vpsrld ymm8, ymm7, 12\n",
            "vpslld ymm7, ymm7, 20\n",
            "vpor ymm7, ymm7, ymm8\n",
            round_rest_text!([$s0, $s1, $s2, $s3, $s4, $s5, $s6, $($rest),*]),
            $(round_text!($s),)*
            "vmovdqu ymm8, ymmword ptr [{spill}]\n",
        )
    };
}

/// The assembly text of half a G on the four columns (or diagonals) of two row states at once,
/// their instructions interleaved: state 0's rows `a, b, c, d` in `ymm0-3`, state 1's in
/// `ymm4-7`, their message rows in registers `x0` and `x1`, which `$store` (empty, or the
/// stores of `x0` and `x1`) may save once added. `a` += message + `b`, `d` = (`d` ^ `a`)
/// rotated by the byte shuffle at `mask`, `c` += `d`, `b` = (`b` ^ `c`) rotated right by `rb`
/// bits (`lb` = 32 - `rb`). `ymm8` and `ymm12` are free here: they hold the shuffle, then the
/// rotations' temporaries.
macro_rules! rows_half_g {
    ($x0:literal, $x1:literal, $store:expr, $mask:literal, $rb:literal, $lb:literal) => {
        concat!(
            "vpaddd ymm0, ymm0, ",
            $x0,
            "\n",
            "vpaddd ymm4, ymm4, ",
            $x1,
            "\n",
            $store,
            "vpaddd ymm0, ymm0, ymm1\n",
            "vpaddd ymm4, ymm4, ymm5\n",
            "vpxor ymm3, ymm3, ymm0\n",
            "vpxor ymm7, ymm7, ymm4\n",
            "vmovdqa ymm8, ymmword ptr [",
            $mask,
            "]\n",
            "vpshufb ymm3, ymm3, ymm8\n",
            "vpshufb ymm7, ymm7, ymm8\n",
            "vpaddd ymm2, ymm2, ymm3\n",
            "vpaddd ymm6, ymm6, ymm7\n",
            "vpxor ymm1, ymm1, ymm2\n",
            "vpxor ymm5, ymm5, ymm6\n",
            "vpsrld ymm8, ymm1, ",
            $rb,
            "\n",
            "vpsrld ymm12, ymm5, ",
            $rb,
            "\n",
            "vpslld ymm1, ymm1, ",
            $lb,
            "\n",
            "vpslld ymm5, ymm5, ",
            $lb,
            "\n",
            "vpor ymm1, ymm1, ymm8\n",
            "vpor ymm5, ymm5, ymm12\n",
        )
    };
}

/// The assembly text of one round of two row states (see `rows_half_g`), as
/// `simd::interleaved_rounds_rows` does it: the columns, rows `a`, `c` and `d` rotated so that
/// word `j` holds diagonal `j - 1`, the diagonals, and the rotation undone. The message rows
/// `[A, B, C', D']` (see `simd::RowMessage`) are in `ymm8-11` for state 0, `ymm12-15` for
/// state 1; `A` and `B` go to `{m}` (state 0's at 0 and 32, state 1's at 64 and 96) once
/// added, which frees their registers for the shuffles and temporaries.
macro_rules! rows_round_text {
    () => {
        concat!(
            rows_half_g!(
                "ymm8",
                "ymm12",
                concat!(
                    "vmovdqa ymmword ptr [{m}], ymm8\n",
                    "vmovdqa ymmword ptr [{m} + 64], ymm12\n",
                ),
                "{k}",
                12,
                20
            ),
            rows_half_g!(
                "ymm9",
                "ymm13",
                concat!(
                    "vmovdqa ymmword ptr [{m} + 32], ymm9\n",
                    "vmovdqa ymmword ptr [{m} + 96], ymm13\n",
                ),
                "{k} + 32",
                7,
                25
            ),
            "vpshufd ymm0, ymm0, {right}\n",
            "vpshufd ymm4, ymm4, {right}\n",
            "vpshufd ymm2, ymm2, {left}\n",
            "vpshufd ymm6, ymm6, {left}\n",
            "vpshufd ymm3, ymm3, {swap}\n",
            "vpshufd ymm7, ymm7, {swap}\n",
            rows_half_g!("ymm10", "ymm14", "", "{k}", 12, 20),
            rows_half_g!("ymm11", "ymm15", "", "{k} + 32", 7, 25),
            "vpshufd ymm0, ymm0, {left}\n",
            "vpshufd ymm4, ymm4, {left}\n",
            "vpshufd ymm2, ymm2, {right}\n",
            "vpshufd ymm6, ymm6, {right}\n",
            "vpshufd ymm3, ymm3, {swap}\n",
            "vpshufd ymm7, ymm7, {swap}\n",
        )
    };
}

/// The assembly text of `simd::permute_row_message` for one state: its message rows `A` in
/// register `a`, `B` in operand `b` (a register or memory), `C'` and `D'` in registers `c` and
/// `d`. The next `A` goes to `na`, `B` to `nb`, `C'` to `nc` and `D'` to `d`, through the
/// temporaries `t0` and `t1`; `na`, `nb`, `nc`, `t0` and `t1` are free and distinct but for `nb`
/// (which may be `a`, read before it is written) and `nc` (which may be `t0`).
///
/// Every blend takes whole words, so it is `vpblendd` (the `blend_halfwords` masks `0x3 << 2k`
/// become `0x11 << k`): Intel runs `vpblendw` on the shuffle port only, beside this loop's
/// shuffles, and `vpblendd` on any vector ALU port.
macro_rules! permute_text {
    ($a:literal, $b:expr, $c:literal, $d:literal, $na:literal, $nb:literal, $nc:literal,
     $t0:literal, $t1:literal) => {
        concat!(
            "vpunpckldq ",
            $t0,
            ", ",
            $a,
            ", ",
            $b,
            "\n",
            "vpblendd ",
            $t1,
            ", ",
            $a,
            ", ",
            $b,
            ", 0x88\n",
            "vshufps ",
            $na,
            ", ",
            $t0,
            ", ",
            $t1,
            ", {next_a}\n",
            "vpblendd ",
            $t0,
            ", ",
            $a,
            ", ",
            $c,
            ", 0x44\n",
            "vpblendd ",
            $t1,
            ", ",
            $a,
            ", ",
            $d,
            ", 0x88\n",
            "vshufps ",
            $nb,
            ", ",
            $t0,
            ", ",
            $t1,
            ", {next_b}\n",
            "vpunpckldq ",
            $t0,
            ", ",
            $d,
            ", ",
            $b,
            "\n",
            "vpblendd ",
            $t1,
            ", ",
            $c,
            ", ",
            $d,
            ", 0x22\n",
            "vshufps ",
            $nc,
            ", ",
            $t0,
            ", ",
            $t1,
            ", {next_c}\n",
            "vpblendd ",
            $t1,
            ", ",
            $c,
            ", ",
            $d,
            ", 0x44\n",
            "vpblendd ",
            $d,
            ", ",
            $c,
            ", ",
            $b,
            ", 0xEE\n",
            "vshufps ",
            $d,
            ", ",
            $t1,
            ", ",
            $d,
            ", {next_d}\n",
        )
    };
}

/// [`permute_text`] for one of two states whose `A` and `B` are at `{m} + $o` and
/// `{m} + $o + 32`, `C'` and `D'` in registers `c`, `d`: the next `A` goes to `na`, `B` to
/// `nb`, `C'` to `c` and `D'` to `d`, with `t0` and `t1` as temporaries (`na`, `nb`, `t0` and
/// `t1` free and distinct).
macro_rules! rows_permute_text {
    ($o:literal, $c:literal, $d:literal, $na:literal, $nb:literal, $t0:literal, $t1:literal) => {
        concat!(
            "vmovdqa ",
            $nb,
            ", ymmword ptr [{m} + ",
            $o,
            "]\n",
            permute_text!(
                $nb,
                concat!("ymmword ptr [{m} + ", $o, " + 32]"),
                $c,
                $d,
                $na,
                $nb,
                $t0,
                $t0,
                $t1
            ),
            "vmovdqa ",
            $c,
            ", ",
            $t0,
            "\n",
        )
    };
}

/// The assembly text of the message permutation between two rounds: state 0's in `ymm8-11`
/// with `ymm12` and `ymm13` as temporaries, then state 1's in `ymm12-15` with `ymm8` and `ymm9`,
/// which hold state 0's next `A` and `B` meanwhile at `{m} + 128` and `{m} + 160`.
macro_rules! rows_next_message_text {
    () => {
        concat!(
            rows_permute_text!(0, "ymm10", "ymm11", "ymm8", "ymm9", "ymm12", "ymm13"),
            "vmovdqa ymmword ptr [{m} + 128], ymm8\n",
            "vmovdqa ymmword ptr [{m} + 160], ymm9\n",
            rows_permute_text!(64, "ymm14", "ymm15", "ymm12", "ymm13", "ymm8", "ymm9"),
            "vmovdqa ymm8, ymmword ptr [{m} + 128]\n",
            "vmovdqa ymm9, ymmword ptr [{m} + 160]\n",
        )
    };
}

/// The seven rounds of two row states, the message permuted between rounds: a loop over one
/// round's text (`{n}` counts the rounds left), which keeps the code small: unrolled, typical
/// calls ran slower (`arbor bench pairs`, BLAKE3 at 4 KiB), the code competing for the
/// decoded-instruction cache.
macro_rules! rows_rounds_text {
    () => {
        concat!(
            "mov {n:e}, 7\n",
            "2:\n",
            rows_round_text!(),
            "dec {n:e}\n",
            "jz 3f\n",
            rows_next_message_text!(),
            "jmp 2b\n",
            "3:\n",
        )
    };
}

/// The assembly text of half a G on the four columns (or diagonals) of one row state: its rows
/// `a, b, c, d` in `ymm0-3`, the message row in register `x`, the byte shuffle in register
/// `mask`; `a` += message + `b`, `d` = (`d` ^ `a`) shuffled, `c` += `d`, `b` = (`b` ^ `c`)
/// rotated right by `rb` bits (`lb` = 32 - `rb`), through `ymm8`.
macro_rules! row_half_g {
    ($x:literal, $mask:literal, $rb:literal, $lb:literal) => {
        concat!(
            "vpaddd ymm0, ymm0, ",
            $x,
            "\n",
            "vpaddd ymm0, ymm0, ymm1\n",
            "vpxor ymm3, ymm3, ymm0\n",
            "vpshufb ymm3, ymm3, ",
            $mask,
            "\n",
            "vpaddd ymm2, ymm2, ymm3\n",
            "vpxor ymm1, ymm1, ymm2\n",
            "vpsrld ymm8, ymm1, ",
            $rb,
            "\n",
            "vpslld ymm1, ymm1, ",
            $lb,
            "\n",
            "vpor ymm1, ymm1, ymm8\n",
        )
    };
}

/// The seven rounds of one row state, its message `[A, B, C', D']` in `ymm4-7`, the shuffles of
/// `ROT16` and `ROT8` in `ymm14` and `ymm15`: the rounds of `simd::interleaved_rounds_rows` for
/// one state, and between rounds `simd::permute_row_message` ([`permute_text`], with `A` and
/// `B` in registers) through `ymm8-12`; a loop over one round, as for two states.
macro_rules! row_rounds_text {
    () => {
        concat!(
            "mov {n:e}, 7\n",
            "2:\n",
            row_half_g!("ymm4", "ymm14", 12, 20),
            row_half_g!("ymm5", "ymm15", 7, 25),
            "vpshufd ymm0, ymm0, {right}\n",
            "vpshufd ymm2, ymm2, {left}\n",
            "vpshufd ymm3, ymm3, {swap}\n",
            row_half_g!("ymm6", "ymm14", 12, 20),
            row_half_g!("ymm7", "ymm15", 7, 25),
            "vpshufd ymm0, ymm0, {left}\n",
            "vpshufd ymm2, ymm2, {right}\n",
            "vpshufd ymm3, ymm3, {swap}\n",
            "dec {n:e}\n",
            "jz 3f\n",
            permute_text!(
                "ymm4", "ymm5", "ymm6", "ymm7", "ymm10", "ymm11", "ymm12", "ymm8", "ymm9"
            ),
            "vmovdqa ymm4, ymm10\n",
            "vmovdqa ymm5, ymm11\n",
            "vmovdqa ymm6, ymm12\n",
            "jmp 2b\n",
            "3:\n",
        )
    };
}

/// What the assembly reads besides its operands, in one place so that one register addresses
/// it all (the loop around the rounds keeps eight input pointers in registers): the shuffles
/// of `ROT16` and `ROT8` at offsets 0 and 32, then the IV's first four words, each in every
/// lane, at 64, 96, 128 and 160.
#[repr(C, align(32))]
struct AsmConsts {
    rot16: ByteMask,
    rot8: ByteMask,
    iv: [[u32; 8]; 4],
}

static ASM_CONSTS: AsmConsts = AsmConsts {
    rot16: ROT16,
    rot8: ROT8,
    iv: [[IV[0]; 8], [IV[1]; 8], [IV[2]; 8], [IV[3]; 8]],
};

impl Rotate<__m256i> for Shuffles {
    /// One copy of the block loop: the block is large assembly, and peeling the first and last
    /// blocks would hold several copies of it.
    const ONE_BLOCK_COPY: bool = true;

    /// Written in assembly with the sixteen state words pinned to the sixteen registers and
    /// the message words read from memory, as the steps of G across the four columns: LLVM
    /// interleaves the rounds' columns its own way and spills state words in every block. The
    /// fastest calls are the same either way, but typical calls on a busy host are faster in
    /// assembly (`arbor bench pairs` on AVX2, BLAKE3 at 16 KiB-1 MiB, both builds alternated).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rounds(v: &mut [__m256i; 16], m: &[__m256i; 16]) {
        let mut spill = core::mem::MaybeUninit::<__m256i>::uninit();
        // SAFETY: AVX2 is enabled here and present (the trait's contract). The text reads the
        // 16 message vectors at `m` and the masks in `ASM_CONSTS`, writes and reads back the
        // 32 bytes of `spill`, and touches no register but the sixteen operands.
        unsafe {
            core::arch::asm!(
                with_schedule!(rounds_text),
                m = in(reg) m.as_ptr(),
                k = in(reg) &ASM_CONSTS,
                spill = in(reg) spill.as_mut_ptr(),
                inout("ymm0") v[0],
                inout("ymm1") v[1],
                inout("ymm2") v[2],
                inout("ymm3") v[3],
                inout("ymm4") v[4],
                inout("ymm5") v[5],
                inout("ymm6") v[6],
                inout("ymm7") v[7],
                inout("ymm8") v[8],
                inout("ymm9") v[9],
                inout("ymm10") v[10],
                inout("ymm11") v[11],
                inout("ymm12") v[12],
                inout("ymm13") v[13],
                inout("ymm14") v[14],
                inout("ymm15") v[15],
                options(nostack, preserves_flags),
            );
        }
    }

    /// The whole block in assembly, the rounds as in [`Self::rounds`] but for the first half
    /// G, which reads the state's other half from memory ([`block_rounds_text`]): the chaining
    /// values stay in `ymm0-7` from one block's last XOR to the next block's rounds, rather
    /// than going through the stack around LLVM's code for the state's other half.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn compress_block(
        cv: &mut [__m256i; 8],
        m: &[__m256i; 16],
        counter: &[__m256i; 2],
        block_len: &__m256i,
        flags: &__m256i,
    ) {
        let mut spill = core::mem::MaybeUninit::<__m256i>::uninit();
        // SAFETY: AVX2 is enabled here and present (the trait's contract). The text reads the
        // 16 message vectors at `m`, the 192 bytes of `ASM_CONSTS`, the two counter vectors,
        // `block_len` and `flags`, writes and reads back the 32 bytes of `spill`, and touches
        // no register but its operands.
        unsafe {
            asm_with_upper_scratch!(
                with_schedule!(block_rounds_text),
                "vpxor ymm0, ymm0, ymm8",
                "vpxor ymm1, ymm1, ymm9",
                "vpxor ymm2, ymm2, ymm10",
                "vpxor ymm3, ymm3, ymm11",
                "vpxor ymm4, ymm4, ymm12",
                "vpxor ymm5, ymm5, ymm13",
                "vpxor ymm6, ymm6, ymm14",
                "vpxor ymm7, ymm7, ymm15",
                counter = in(reg) counter.as_ptr(),
                len = in(reg) block_len,
                flags = in(reg) flags,
                m = in(reg) m.as_ptr(),
                k = in(reg) &ASM_CONSTS,
                spill = in(reg) spill.as_mut_ptr(),
                inout("ymm0") cv[0],
                inout("ymm1") cv[1],
                inout("ymm2") cv[2],
                inout("ymm3") cv[3],
                inout("ymm4") cv[4],
                inout("ymm5") cv[5],
                inout("ymm6") cv[6],
                inout("ymm7") cv[7],
            );
        }
    }

    /// In assembly with the rows pinned to `ymm0-3`, the message to `ymm4-7` and the shuffles
    /// to `ymm14-15`, as the two-state rounds are.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rounds_one_row_state(rows: &mut [__m256i; 4], m: RowMessage<__m256i>) {
        // SAFETY: AVX2 is enabled here and present (the trait's contract). The text reads the
        // 64 bytes of shuffles at the start of `ASM_CONSTS` and touches no register but its
        // operands.
        unsafe {
            asm_row_rounds!(
                "vmovdqa ymm14, ymmword ptr [{k}]",
                "vmovdqa ymm15, ymmword ptr [{k} + 32]",
                row_rounds_text!();
                inout("ymm0") rows[0],
                inout("ymm1") rows[1],
                inout("ymm2") rows[2],
                inout("ymm3") rows[3],
                inout("ymm4") m[0] => _,
                inout("ymm5") m[1] => _,
                inout("ymm6") m[2] => _,
                inout("ymm7") m[3] => _,
                out("ymm8") _,
                out("ymm9") _,
                out("ymm10") _,
                out("ymm11") _,
                out("ymm12") _,
                out("ymm14") _,
                out("ymm15") _,
                options(readonly, nostack),
            );
        }
    }

    /// In assembly with the two states' rows pinned to `ymm0-7` and their messages to
    /// `ymm8-15`, each message's first two rows going through memory once added (as the blake3
    /// crate's assembly does): LLVM, with the same sixteen vectors and its temporaries, spilled
    /// both state and message rows.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rounds_two_row_states(rows: &mut [[__m256i; 4]; 2], m: [RowMessage<__m256i>; 2]) {
        let mut scratch = core::mem::MaybeUninit::<[__m256i; 6]>::uninit();
        // SAFETY: AVX2 is enabled here and present (the trait's contract). The text writes and
        // reads back the 192 bytes of `scratch` (32-byte aligned, as `__m256i` is), reads the
        // 64 bytes of shuffles at the start of `ASM_CONSTS`, and touches no register but its
        // operands.
        unsafe {
            asm_row_rounds!(
                rows_rounds_text!();
                m = in(reg) scratch.as_mut_ptr(),
                inout("ymm0") rows[0][0],
                inout("ymm1") rows[0][1],
                inout("ymm2") rows[0][2],
                inout("ymm3") rows[0][3],
                inout("ymm4") rows[1][0],
                inout("ymm5") rows[1][1],
                inout("ymm6") rows[1][2],
                inout("ymm7") rows[1][3],
                inout("ymm8") m[0][0] => _,
                inout("ymm9") m[0][1] => _,
                inout("ymm10") m[0][2] => _,
                inout("ymm11") m[0][3] => _,
                inout("ymm12") m[1][0] => _,
                inout("ymm13") m[1][1] => _,
                inout("ymm14") m[1][2] => _,
                inout("ymm15") m[1][3] => _,
                options(nostack),
            );
        }
    }

    #[inline(always)]
    unsafe fn load_message(src: &[*const u8; 16], at: usize) -> [__m256i; 16] {
        // SAFETY: AVX2 is enabled and present (the trait's contract); the caller guarantees the
        // 64 bytes at each lane.
        unsafe { load_block_transposed(src, at) }
    }

    #[inline(always)]
    unsafe fn rot16(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi8(x, ROT16_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot12(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_srli_epi32::<12>(x), _mm256_slli_epi32::<20>(x)) }
    }

    #[inline(always)]
    unsafe fn rot8(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi8(x, ROT8_MASK.get()) }
    }

    #[inline(always)]
    unsafe fn rot7(x: __m256i) -> __m256i {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_srli_epi32::<7>(x), _mm256_slli_epi32::<25>(x)) }
    }
}

transpose4_fn!(
    transpose4_halves,
    __m256i,
    _mm256_unpacklo_epi32,
    _mm256_unpackhi_epi32,
    _mm256_unpacklo_epi64,
    _mm256_unpackhi_epi64
);

impl LaneWords for __m256i {
    const LANES: usize = 8;
    /// Inputs larger than the L2 cache stream from eight places 1 KiB apart, and the hardware
    /// prefetcher does not keep ahead of them all.
    const PREFETCH_AHEAD: usize = 256;

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: AVX; see the trait.
        unsafe { _mm256_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 16]) -> Self {
        // SAFETY: AVX; `w` has at least 32 bytes.
        unsafe { _mm256_loadu_si256(w.as_ptr().cast()) }
    }

    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_add_epi32(self, other) }
    }

    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_xor_si256(self, other) }
    }

    /// Row `i` of each 4x4 transpose holds 16 bytes of lane `i` in its low half and of lane
    /// `i + 4` in its high half (a load plus `vinserti128` from memory, cheaper than transposing
    /// 8x8 with `vperm2i128`), so the in-half transpose leaves word `k` of lanes 0-7 in order.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16], at: usize) -> [Self; W] {
        // SAFETY: AVX2 (see the trait); the caller guarantees `4 * W` readable bytes at
        // `src[i] + at` for the first eight pointers.
        unsafe {
            let mut words = [_mm256_setzero_si256(); W];
            for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
                let at = at + 16 * quarter;
                let mut rows = [_mm256_setzero_si256(); 4];
                for (i, row) in rows.iter_mut().enumerate() {
                    *row = Self::load_rows(&[src[i].add(at), src[i + 4].add(at), src[0], src[0]]);
                }
                group.copy_from_slice(&transpose4_halves(rows));
            }
            words
        }
    }

    #[inline(always)]
    unsafe fn store_transposed<const W: usize>(words: [Self; W], dst: &[*mut u8; 16]) {
        for (quarter, group) in words.chunks_exact(4).enumerate() {
            let at = 16 * quarter;
            // SAFETY: the feature is enabled (see the trait).
            let rows = unsafe { transpose4_halves([group[0], group[1], group[2], group[3]]) };
            for (i, row) in rows.into_iter().enumerate() {
                // SAFETY: the caller guarantees `4 * W` writable bytes at the first eight
                // pointers; lane `i` is the low half of row `i`, lane `i + 4` its high half.
                unsafe { row.store_rows(&[dst[i].add(at), dst[i + 4].add(at), dst[0], dst[0]]) };
            }
        }
    }
}

/// The assembly text of [`load_block_transposed`] for message words `4 * q` to `4 * q + 3`,
/// at byte offset `{at}` + `$at` (`16 * q`) of each lane and `$m` (`128 * q`) of the output
/// (the block's offset an index register, so that the lane pointers go in as they are: adding
/// it to each of the eight made LLVM store the sums and load them back every block): the rows
/// (lane `i` in the low half, lane `i + 4` in the high one) in `ymm8-11`, the in-half
/// transpose through `ymm12-15`.
macro_rules! transpose_quarter {
    ($at:literal, $m:literal) => {
        concat!(
            "vmovdqu xmm8, xmmword ptr [{p0} + {at} + ",
            $at,
            "]\n",
            "vinserti128 ymm8, ymm8, xmmword ptr [{p4} + {at} + ",
            $at,
            "], 1\n",
            "vmovdqu xmm9, xmmword ptr [{p1} + {at} + ",
            $at,
            "]\n",
            "vinserti128 ymm9, ymm9, xmmword ptr [{p5} + {at} + ",
            $at,
            "], 1\n",
            "vmovdqu xmm10, xmmword ptr [{p2} + {at} + ",
            $at,
            "]\n",
            "vinserti128 ymm10, ymm10, xmmword ptr [{p6} + {at} + ",
            $at,
            "], 1\n",
            "vmovdqu xmm11, xmmword ptr [{p3} + {at} + ",
            $at,
            "]\n",
            "vinserti128 ymm11, ymm11, xmmword ptr [{p7} + {at} + ",
            $at,
            "], 1\n",
            "vpunpckldq ymm12, ymm8, ymm9\n",
            "vpunpckhdq ymm13, ymm8, ymm9\n",
            "vpunpckldq ymm14, ymm10, ymm11\n",
            "vpunpckhdq ymm15, ymm10, ymm11\n",
            "vpunpcklqdq ymm8, ymm12, ymm14\n",
            "vpunpckhqdq ymm9, ymm12, ymm14\n",
            "vpunpcklqdq ymm10, ymm13, ymm15\n",
            "vpunpckhqdq ymm11, ymm13, ymm15\n",
            "vmovdqu ymmword ptr [{m} + ",
            $m,
            "], ymm8\n",
            "vmovdqu ymmword ptr [{m} + ",
            $m,
            " + 32], ymm9\n",
            "vmovdqu ymmword ptr [{m} + ",
            $m,
            " + 64], ymm10\n",
            "vmovdqu ymmword ptr [{m} + ",
            $m,
            " + 96], ymm11\n",
        )
    };
}

/// `load_transposed::<16>` in assembly with `ymm8-15` only, as the crate's kernel does it: the
/// chaining values, which [`Shuffles::compress_block`] keeps in `ymm0-7`, stay there while
/// the next block is loaded. LLVM's schedule of the same intrinsics uses all sixteen
/// registers and moves the chaining values through the stack every block. `Shuffles` only:
/// AVX-512's 8-lane groups keep their message in `ymm16-31`, where LLVM loads it.
///
/// # Safety
/// AVX2 must be enabled and present; 64 readable bytes at `src[i] + at` for `i < 8`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_block_transposed(src: &[*const u8; 16], at: usize) -> [__m256i; 16] {
    let mut words = core::mem::MaybeUninit::<[__m256i; 16]>::uninit();
    // SAFETY: AVX2 is enabled and present (our contract); the text reads 64 bytes at each of
    // the eight lane pointers (our contract), writes the 512 bytes of `words`, and touches no
    // register but its operands.
    unsafe {
        asm_with_upper_scratch!(
            transpose_quarter!(0, 0),
            transpose_quarter!(16, 128),
            transpose_quarter!(32, 256),
            transpose_quarter!(48, 384),
            p0 = in(reg) src[0],
            p1 = in(reg) src[1],
            p2 = in(reg) src[2],
            p3 = in(reg) src[3],
            p4 = in(reg) src[4],
            p5 = in(reg) src[5],
            p6 = in(reg) src[6],
            p7 = in(reg) src[7],
            at = in(reg) at,
            m = in(reg) words.as_mut_ptr(),
        );
        words.assume_init()
    }
}

impl RowWords for __m256i {
    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at the first two pointers; AVX2 (see
        // the trait). An insert from memory needs no shuffle port.
        unsafe {
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load128(src[0])), load128(src[1]))
        }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `src`; AVX2 (see the trait).
        unsafe { _mm256_broadcastsi128_si256(load128(src)) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: the caller guarantees 16 writable bytes at the first two pointers; AVX2 (see
        // the trait).
        unsafe {
            _mm_storeu_si128(dst[0].cast(), _mm256_castsi256_si128(self));
            _mm_storeu_si128(dst[1].cast(), _mm256_extracti128_si256::<1>(self));
        }
    }

    #[inline(always)]
    unsafe fn shuffle_words<const IMM: i32>(self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi32::<IMM>(self) }
    }

    #[inline(always)]
    unsafe fn shuffle_pairs<const IMM: i32>(self, other: Self) -> Self {
        // SAFETY: AVX; see the trait.
        unsafe {
            _mm256_castps_si256(_mm256_shuffle_ps::<IMM>(
                _mm256_castsi256_ps(self),
                _mm256_castsi256_ps(other),
            ))
        }
    }

    #[inline(always)]
    unsafe fn blend_halfwords<const IMM: i32>(self, other: Self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_blend_epi16::<IMM>(self, other) }
    }

    #[inline(always)]
    unsafe fn unpack_lo(self, other: Self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_unpacklo_epi32(self, other) }
    }

    simd::opaque_fn!("avx", ymm_reg);
}

/// The AVX2 backend.
pub(crate) struct Avx2;

impl Kernels for Avx2 {
    const DEGREE: usize = 8;

    /// Compresses `blocks` into `cv`, one after another (see `portable::compress_in_place`): the
    /// SSE4.1 row-vectorised compression, compiled with AVX2.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    ) {
        // SAFETY: AVX2, hence SSE4.1, is enabled here and present (our contract).
        unsafe {
            simd::compress_rows_in_place::<Shuffles>(
                cv,
                blocks,
                block_len,
                counter,
                flags,
                flags_start,
            )
        }
    }

    /// Hashes the 0 to 8 lanes of `group`, lane `i` into `out[i]`: five or more transposed
    /// (padded to eight); one to four in rows, two lanes per `__m256i`, three or four as two
    /// interleaved states, whose chains overlap.
    ///
    /// # Safety
    /// The CPU must support AVX2; the group and `out` are as `Kernels::hash_many` requires.
    #[target_feature(enable = "avx2")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: AVX2, hence SSE4.1, is enabled here and present; each kernel gets a lane count
        // it takes.
        unsafe {
            match group.len() {
                5.. => simd::hash_transposed::<__m256i, Shuffles>(group, out),
                3 | 4 => simd::hash_in_rows::<__m256i, Shuffles, 2>(group, out),
                2 => simd::hash_in_rows::<__m256i, Shuffles, 1>(group, out),
                1 => simd::hash_in_rows::<__m128i, Shuffles, 1>(group, out),
                // An empty group (the kernel tests pass one): nothing to hash.
                _ => {}
            }
        }
    }

    /// Extended output, eight blocks at a time: the AVX2 form of `portable::xof_many`.
    ///
    /// # Safety
    /// The CPU must support AVX2; `out.len()` must be a multiple of `BLOCK_LEN`.
    #[target_feature(enable = "avx2")]
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    ) {
        const GROUP: usize = 8 * BLOCK_LEN;
        // SAFETY: AVX2, hence SSE4.1, is enabled here and present (our contract); each group slice
        // is exactly eight blocks and the remainder a multiple of `BLOCK_LEN`.
        unsafe {
            let mut counter = counter;
            let mut groups = out.chunks_exact_mut(GROUP);
            if groups.len() > 0 {
                let m = simd::broadcast_block::<__m256i>(block);
                for group in &mut groups {
                    simd::xof_group::<__m256i, Shuffles>(cv, &m, block_len, counter, flags, group);
                    counter = counter.wrapping_add(8);
                }
            }
            sse41::xof_many_from(
                cv,
                block,
                block_len,
                counter,
                flags,
                groups.into_remainder(),
            );
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    #[test]
    fn avx2_matches_portable() {
        super::super::kernel_tests::check::<super::Avx2>(crate::Backend::Avx2);
    }
}

/// Copies `src` to `dst` (`src.len()` bytes, more than a block) two 32-byte moves a block, the
/// last block overlapping the one before it unless the length is a multiple of 64: the
/// incremental hasher's copy of writes of 2 KiB and more on AVX2 and AVX-512 platforms
/// (`hasher::copy_blocks`, which says why not with `memcpy`). Two moves a block, not one of 64
/// bytes with AVX-512: LLVM turns a loop of moves as long as its step back into a `memcpy`.
///
/// # Safety
/// The CPU must support AVX; `dst` is valid for writes of `src.len()` bytes and does not overlap
/// `src`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn copy_blocks(src: &[u8], dst: *mut u8) {
    kernels::block_starts(src.len()).for_each(|at| {
        // SAFETY: the block at `at` is within `src`, and within `dst` (our contract); AVX is
        // present (our contract).
        unsafe {
            let [lo, hi] = [at, at + 32].map(|at| _mm256_loadu_si256(src.as_ptr().add(at).cast()));
            _mm256_storeu_si256(dst.add(at).cast(), lo);
            _mm256_storeu_si256(dst.add(at + 32).cast(), hi);
        }
    });
}
