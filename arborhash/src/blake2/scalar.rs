//! The single-stream BLAKE2b and BLAKE2s compression on general-purpose registers, in assembly,
//! for the CPUs where `kernels.rs` chooses it (`platform::scalar_chains`, AMD family 1Ah), where
//! it beats the vector rows, whose every instruction has twice the latency there, and what LLVM
//! makes of the portable kernel.
//!
//! A block's compression is one chain of dependent instructions a round (G's additions, xors and
//! rotations, twice), 12 rounds for BLAKE2b and 10 for BLAKE2s; the four G of a column or
//! diagonal step are independent of each other. Here the sixteen state words take fifteen registers and
//! one stack slot and everything else waits in the frame: each block is first copied to the
//! frame, so that its words are read relative to `rsp` and no register holds its address
//! during the rounds. One text serves both variants (the macros take the word width: `q` for
//! BLAKE2b's 64-bit words, `d` for BLAKE2s's 32-bit ones), written from RFC 7693 section 3.
//!
//! Registers: state words 0-14 in `rax`, `rbx`, `rcx`, `rdx`, `rsi`, `rdi`, `rbp`, `r8`-`r15`
//! (32-bit names for BLAKE2s), word 15 in `r13` too: word 12 waits in its slot while word 15
//! is in use (the last column and the first diagonal G), and word 15 while word 12 is.
//!
//! Frame, in 8-byte slots from the 64-byte aligned stack pointer: the block at 0-127, word 12
//! at 128, word 15 at 136, the chaining value at 144-207 (for the feed-forward), the counter's
//! low and high words at 208 and 216, the counter's increment per block at 224, IV 6 ^ f0 and
//! IV 7 ^ f1 at 232 and 240, the next block's address at 248, blocks left at 256, the output
//! pointer at 264, the saved `rsp`, `rbx`, `rbp` at 272, 280, 288. BLAKE2s uses the low half
//! of each slot, and packs its chaining value at 144-175.

use super::variant::{Blake2b, Blake2s, Variant, Word};
use super::variant::{IV_B, IV_S};
use super::SIGMA;

/// The name of the register of state word `$i` (`q`: BLAKE2b's 64-bit names, `d`: BLAKE2s's
/// 32-bit ones).
#[rustfmt::skip]
macro_rules! reg {
    (q 0) => { "rax" }; (q 1) => { "rbx" }; (q 2) => { "rcx" }; (q 3) => { "rdx" };
    (q 4) => { "rsi" }; (q 5) => { "rdi" }; (q 6) => { "rbp" }; (q 7) => { "r8" };
    (q 8) => { "r9" }; (q 9) => { "r10" }; (q 10) => { "r11" }; (q 11) => { "r12" };
    (q 12) => { "r13" }; (q 13) => { "r14" }; (q 14) => { "r15" }; (q 15) => { "r13" };
    (d 0) => { "eax" }; (d 1) => { "ebx" }; (d 2) => { "ecx" }; (d 3) => { "edx" };
    (d 4) => { "esi" }; (d 5) => { "edi" }; (d 6) => { "ebp" }; (d 7) => { "r8d" };
    (d 8) => { "r9d" }; (d 9) => { "r10d" }; (d 10) => { "r11d" }; (d 11) => { "r12d" };
    (d 12) => { "r13d" }; (d 13) => { "r14d" }; (d 14) => { "r15d" }; (d 15) => { "r13d" };
}

/// The memory operand of word `$i` of an array of words at `$base + $offset`.
macro_rules! word {
    (q $base:literal + $offset:literal, $i:tt) => {
        concat!("qword ptr [", $base, " + ", $offset, " + 8 * ", $i, "]")
    };
    (d $base:literal + $offset:literal, $i:tt) => {
        concat!("dword ptr [", $base, " + ", $offset, " + 4 * ", $i, "]")
    };
}

/// G's rotation distances, right: R1-R4 of RFC 7693.
macro_rules! rot {
    (q 1) => {
        "32"
    };
    (q 2) => {
        "24"
    };
    (q 3) => {
        "16"
    };
    (q 4) => {
        "63"
    };
    (d 1) => {
        "16"
    };
    (d 2) => {
        "12"
    };
    (d 3) => {
        "8"
    };
    (d 4) => {
        "7"
    };
}

/// One instruction `$op $dst, $src`.
macro_rules! op {
    ($op:literal $dst:expr, $src:expr) => {
        concat!($op, " ", $dst, ", ", $src, "\n")
    };
}

/// Instruction `$k` (0-13) of G (RFC 7693 section 3.1) on state words `$a`, `$b`, `$c`, `$d`
/// and message words `$x`, `$y` of the block at the stack pointer. The message word is added
/// first, so that only one addition waits for `b`.
macro_rules! gs {
    ($w:ident, 0, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($w $a), word!($w "rsp" + "0", $x)) };
    ($w:ident, 1, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($w $a), reg!($w $b)) };
    ($w:ident, 2, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($w $d), reg!($w $a)) };
    ($w:ident, 3, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($w $d), rot!($w 1)) };
    ($w:ident, 4, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($w $c), reg!($w $d)) };
    ($w:ident, 5, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($w $b), reg!($w $c)) };
    ($w:ident, 6, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($w $b), rot!($w 2)) };
    ($w:ident, 7, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($w $a), word!($w "rsp" + "0", $y)) };
    ($w:ident, 8, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($w $a), reg!($w $b)) };
    ($w:ident, 9, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($w $d), reg!($w $a)) };
    ($w:ident, 10, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($w $d), rot!($w 3)) };
    ($w:ident, 11, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($w $c), reg!($w $d)) };
    ($w:ident, 12, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($w $b), reg!($w $c)) };
    ($w:ident, 13, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($w $b), rot!($w 4)) };
}

/// G, all of it.
macro_rules! g {
    ($w:ident, $($g:tt),*) => {
        concat!(
            gs!($w, 0, $($g),*), gs!($w, 1, $($g),*), gs!($w, 2, $($g),*), gs!($w, 3, $($g),*),
            gs!($w, 4, $($g),*), gs!($w, 5, $($g),*), gs!($w, 6, $($g),*), gs!($w, 7, $($g),*),
            gs!($w, 8, $($g),*), gs!($w, 9, $($g),*), gs!($w, 10, $($g),*),
            gs!($w, 11, $($g),*), gs!($w, 12, $($g),*), gs!($w, 13, $($g),*),
        )
    };
}

/// Three independent G, instruction by instruction, so that the order of the text follows the
/// depth in their chains (see [`round!`]).
macro_rules! g3 {
    ($w:ident, $g0:tt, $g1:tt, $g2:tt) => {
        concat!(
            g3!(@ $w, 0, $g0, $g1, $g2), g3!(@ $w, 1, $g0, $g1, $g2), g3!(@ $w, 2, $g0, $g1, $g2),
            g3!(@ $w, 3, $g0, $g1, $g2), g3!(@ $w, 4, $g0, $g1, $g2), g3!(@ $w, 5, $g0, $g1, $g2),
            g3!(@ $w, 6, $g0, $g1, $g2), g3!(@ $w, 7, $g0, $g1, $g2), g3!(@ $w, 8, $g0, $g1, $g2),
            g3!(@ $w, 9, $g0, $g1, $g2), g3!(@ $w, 10, $g0, $g1, $g2), g3!(@ $w, 11, $g0, $g1, $g2),
            g3!(@ $w, 12, $g0, $g1, $g2), g3!(@ $w, 13, $g0, $g1, $g2),
        )
    };
    (@ $w:ident, $k:tt, [$($g0:tt),*], [$($g1:tt),*], [$($g2:tt),*]) => {
        concat!(gs!($w, $k, $($g0),*), gs!($w, $k, $($g1),*), gs!($w, $k, $($g2),*))
    };
}

/// One round with the message permutation `[$s0, ..., $s15]` (a row of SIGMA). Words 12 and
/// 15 share `r13` (see the module documentation), so the two G on word 15, the last column and
/// the first diagonal, run alone, and each step's three others run interleaved ([`g3!`]). Every
/// G of a step feeds all four of the next, so the step is as late as its slowest G; the
/// scheduler runs the oldest ready instruction first, so the lone G of the columns comes first
/// (its diagonal partner, which needs the other three columns, goes last and flows into the
/// next round's first G). Text G by G in the order of RFC 7693 was slower.
macro_rules! round {
    ($w:ident, [$s0:tt, $s1:tt, $s2:tt, $s3:tt, $s4:tt, $s5:tt, $s6:tt, $s7:tt, $s8:tt,
      $s9:tt, $s10:tt, $s11:tt, $s12:tt, $s13:tt, $s14:tt, $s15:tt]) => {
        concat!(
            g!($w, 3, 7, 11, 15, $s6, $s7),
            op!("mov" word!($w "rsp" + "136", 0), reg!($w 15)),
            op!("mov" reg!($w 12), word!($w "rsp" + "128", 0)),
            g3!($w, [0, 4, 8, 12, $s0, $s1], [1, 5, 9, 13, $s2, $s3], [2, 6, 10, 14, $s4, $s5]),
            g3!($w, [1, 6, 11, 12, $s10, $s11], [2, 7, 8, 13, $s12, $s13], [3, 4, 9, 14, $s14, $s15]),
            op!("mov" word!($w "rsp" + "128", 0), reg!($w 12)),
            op!("mov" reg!($w 15), word!($w "rsp" + "136", 0)),
            g!($w, 0, 5, 10, 15, $s8, $s9),
        )
    };
}

/// Calls `$then!` with the rows of SIGMA as literals, for the assembly rounds (checked against
/// [`SIGMA`] below).
macro_rules! with_sigma {
    ($then:ident) => {
        $then!(
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
            [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
            [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
            [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
            [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
            [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
            [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
            [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
            [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
            [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3]
        )
    };
}

macro_rules! sigma_array {
    ($([$($i:literal),*]),*) => {
        [$([$($i),*]),*]
    };
}

const _: () = {
    const LITERAL: [[u8; 16]; 12] = with_sigma!(sigma_array);
    let mut r = 0;
    while r < 12 {
        let mut i = 0;
        while i < 16 {
            assert!(LITERAL[r][i] == SIGMA[r][i]);
            i += 1;
        }
        r += 1;
    }
};

/// BLAKE2b's twelve rounds.
macro_rules! rounds_q {
    ($($s:tt),*) => {
        concat!($(round!(q, $s),)*)
    };
}

/// BLAKE2s's ten rounds: the first ten rows.
macro_rules! rounds_d {
    ($s0:tt, $s1:tt, $s2:tt, $s3:tt, $s4:tt, $s5:tt, $s6:tt, $s7:tt, $s8:tt, $s9:tt,
     $s10:tt, $s11:tt) => {
        concat!(
            round!(d, $s0),
            round!(d, $s1),
            round!(d, $s2),
            round!(d, $s3),
            round!(d, $s4),
            round!(d, $s5),
            round!(d, $s6),
            round!(d, $s7),
            round!(d, $s8),
            round!(d, $s9),
        )
    };
}

/// Copies the block at `r9` to the stack pointer: 128 bytes for BLAKE2b, 64 for BLAKE2s.
macro_rules! copy_block {
    (q) => {
        concat!(copy_block!(d), copy_block!(64), copy_block!(96))
    };
    (d) => {
        concat!(copy_block!(0), copy_block!(32))
    };
    ($at:literal) => {
        concat!(
            "movdqu xmm0, xmmword ptr [r9 + ",
            $at,
            "]\n",
            "movdqa xmmword ptr [rsp + ",
            $at,
            "], xmm0\n",
            "movdqu xmm0, xmmword ptr [r9 + ",
            $at,
            " + 16]\n",
            "movdqa xmmword ptr [rsp + ",
            $at,
            " + 16], xmm0\n",
        )
    };
}

/// The kernel's text for word width `$w` (`q`: BLAKE2b, `d`: BLAKE2s), `$rounds` the rounds'
/// text. Inputs: `rdi` the chaining value (eight words, read, and written at the end), `rsi`
/// the first block, `rdx` the number of blocks (at least one), `rcx` and `r8` the counter's
/// low and high words before the first block, `r9` what each block adds to the counter before
/// it is compressed, `r10` and `r11` IV 6 ^ f0 and IV 7 ^ f1; IV words 0-5 in `{iv0}`-`{iv5}`.
macro_rules! kernel {
    ($w:ident, $block:literal, $rounds:expr) => {
        concat!(
            "mov rax, rsp\n",
            "sub rsp, 448\n",
            "and rsp, -64\n",
            "mov qword ptr [rsp + 272], rax\n",
            "mov qword ptr [rsp + 280], rbx\n",
            "mov qword ptr [rsp + 288], rbp\n",
            "mov qword ptr [rsp + 264], rdi\n",
            "mov qword ptr [rsp + 248], rsi\n",
            "mov qword ptr [rsp + 256], rdx\n",
            "mov qword ptr [rsp + 208], rcx\n",
            "mov qword ptr [rsp + 216], r8\n",
            "mov qword ptr [rsp + 224], r9\n",
            "mov qword ptr [rsp + 232], r10\n",
            "mov qword ptr [rsp + 240], r11\n",
            // The chaining value; word 5's register holds its address until last.
            op!("mov" reg!($w 0), word!($w "rdi" + "0", 0)),
            op!("mov" reg!($w 1), word!($w "rdi" + "0", 1)),
            op!("mov" reg!($w 2), word!($w "rdi" + "0", 2)),
            op!("mov" reg!($w 3), word!($w "rdi" + "0", 3)),
            op!("mov" reg!($w 4), word!($w "rdi" + "0", 4)),
            op!("mov" reg!($w 6), word!($w "rdi" + "0", 6)),
            op!("mov" reg!($w 7), word!($w "rdi" + "0", 7)),
            op!("mov" reg!($w 5), word!($w "rdi" + "0", 5)),
            "2:\n",
            // Words 8-15 are free until the block's state is set up.
            "mov r9, qword ptr [rsp + 248]\n",
            copy_block!($w),
            concat!("add r9, ", $block, "\n"),
            "mov qword ptr [rsp + 248], r9\n",
            // The chaining value, for the feed-forward.
            op!("mov" word!($w "rsp" + "144", 0), reg!($w 0)),
            op!("mov" word!($w "rsp" + "144", 1), reg!($w 1)),
            op!("mov" word!($w "rsp" + "144", 2), reg!($w 2)),
            op!("mov" word!($w "rsp" + "144", 3), reg!($w 3)),
            op!("mov" word!($w "rsp" + "144", 4), reg!($w 4)),
            op!("mov" word!($w "rsp" + "144", 5), reg!($w 5)),
            op!("mov" word!($w "rsp" + "144", 6), reg!($w 6)),
            op!("mov" word!($w "rsp" + "144", 7), reg!($w 7)),
            // The counter, then words 8-15.
            op!("mov" reg!($w 8), word!($w "rsp" + "224", 0)),
            op!("add" word!($w "rsp" + "208", 0), reg!($w 8)),
            op!("adc" word!($w "rsp" + "216", 0), "0"),
            op!("mov" reg!($w 9), "{iv4}"),
            op!("xor" reg!($w 9), word!($w "rsp" + "208", 0)),
            op!("mov" word!($w "rsp" + "128", 0), reg!($w 9)),
            op!("mov" reg!($w 15), word!($w "rsp" + "240", 0)),
            op!("mov" reg!($w 14), word!($w "rsp" + "232", 0)),
            op!("mov" reg!($w 8), "{iv0}"),
            op!("mov" reg!($w 9), "{iv1}"),
            op!("mov" reg!($w 10), "{iv2}"),
            op!("mov" reg!($w 11), "{iv3}"),
            op!("mov" reg!($w 13), "{iv5}"),
            op!("xor" reg!($w 13), word!($w "rsp" + "216", 0)),
            $rounds,
            // h ^= v[0..8] ^ v[8..16]; word 12 is in its slot, word 15 in its register.
            op!("xor" reg!($w 0), reg!($w 8)),
            op!("xor" reg!($w 1), reg!($w 9)),
            op!("xor" reg!($w 2), reg!($w 10)),
            op!("xor" reg!($w 3), reg!($w 11)),
            op!("xor" reg!($w 4), word!($w "rsp" + "128", 0)),
            op!("xor" reg!($w 5), reg!($w 13)),
            op!("xor" reg!($w 6), reg!($w 14)),
            op!("xor" reg!($w 7), reg!($w 15)),
            op!("xor" reg!($w 0), word!($w "rsp" + "144", 0)),
            op!("xor" reg!($w 1), word!($w "rsp" + "144", 1)),
            op!("xor" reg!($w 2), word!($w "rsp" + "144", 2)),
            op!("xor" reg!($w 3), word!($w "rsp" + "144", 3)),
            op!("xor" reg!($w 4), word!($w "rsp" + "144", 4)),
            op!("xor" reg!($w 5), word!($w "rsp" + "144", 5)),
            op!("xor" reg!($w 6), word!($w "rsp" + "144", 6)),
            op!("xor" reg!($w 7), word!($w "rsp" + "144", 7)),
            "dec qword ptr [rsp + 256]\n",
            "jnz 2b\n",
            "mov r9, qword ptr [rsp + 264]\n",
            op!("mov" word!($w "r9" + "0", 0), reg!($w 0)),
            op!("mov" word!($w "r9" + "0", 1), reg!($w 1)),
            op!("mov" word!($w "r9" + "0", 2), reg!($w 2)),
            op!("mov" word!($w "r9" + "0", 3), reg!($w 3)),
            op!("mov" word!($w "r9" + "0", 4), reg!($w 4)),
            op!("mov" word!($w "r9" + "0", 5), reg!($w 5)),
            op!("mov" word!($w "r9" + "0", 6), reg!($w 6)),
            op!("mov" word!($w "r9" + "0", 7), reg!($w 7)),
            "mov rbx, qword ptr [rsp + 280]\n",
            "mov rbp, qword ptr [rsp + 288]\n",
            "mov rsp, qword ptr [rsp + 272]\n",
        )
    };
}

/// A variant's assembly kernel.
pub(crate) trait Scalar: Variant {
    /// Compresses `n` blocks from `blocks` into `h`, adding `inc` to the counter `count` before
    /// each, with IV 6 ^ `f0` and IV 7 ^ `f1` (the finalization flags as words).
    ///
    /// # Safety
    /// `n >= 1` and `blocks` is readable for `n` blocks.
    unsafe fn kernel(
        h: &mut [Self::Word; 8],
        blocks: *const u8,
        n: usize,
        count: u128,
        inc: usize,
        f0: Self::Word,
        f1: Self::Word,
    );
}

// Each kernel's SAFETY, for the text of `kernel!`:
// - memory: it reads `n` blocks from `blocks` (the caller's contract: `n >= 1`, since the loop
//   counts down to zero after each block) and reads, then writes, the eight words of `h`;
// - stack: its frame lies below the red zone (the stack pointer goes down by at least 448
//   bytes, so the frame's 296 bytes end at least 24 bytes under the 128-byte red zone) and is
//   64-byte aligned (the `movdqa` stores); it restores `rsp` from the frame before it ends;
// - registers: it restores `rbx` and `rbp`, which cannot be operands, from the frame; every
//   other register it writes is an operand or declared clobbered, and the flags are not kept
//   (no `preserves_flags`). BLAKE2s's 32-bit inputs leave the upper halves of their registers
//   undefined, and only the low halves of their slots are read;
// - instructions: only those of every x86-64 CPU (SSE2 for the block copy).

/// The `asm!` of [`kernel!`]'s text `$text` with its operands: IV words 0-5 of `$iv` (as
/// immediates), and the inputs `kernel!` documents, the counter split into the words `$lo` and
/// `$hi`.
macro_rules! kernel_asm {
    ($text:expr, $iv:ident, $h:ident, $blocks:ident, $n:ident, $lo:expr, $hi:expr, $inc:ident,
     $f0:ident, $f1:ident) => {
        core::arch::asm!(
            $text,
            iv0 = const $iv[0] as i64,
            iv1 = const $iv[1] as i64,
            iv2 = const $iv[2] as i64,
            iv3 = const $iv[3] as i64,
            iv4 = const $iv[4] as i64,
            iv5 = const $iv[5] as i64,
            inout("rdi") $h.as_mut_ptr() => _,
            inout("rsi") $blocks => _,
            inout("rdx") $n => _,
            inout("rcx") $lo => _,
            inout("r8") $hi => _,
            inout("r9") $inc => _,
            inout("r10") $iv[6] ^ $f0 => _,
            inout("r11") $iv[7] ^ $f1 => _,
            out("rax") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
            out("xmm0") _,
        )
    };
}

impl Scalar for Blake2b {
    #[inline]
    unsafe fn kernel(
        h: &mut [u64; 8],
        blocks: *const u8,
        n: usize,
        count: u128,
        inc: usize,
        f0: u64,
        f1: u64,
    ) {
        debug_assert!(n >= 1);
        let (lo, hi) = (count as u64, (count >> 64) as u64);
        // SAFETY: see above.
        unsafe {
            kernel_asm!(
                kernel!(q, "128", with_sigma!(rounds_q)),
                IV_B,
                h,
                blocks,
                n,
                lo,
                hi,
                inc,
                f0,
                f1
            );
        }
    }
}

impl Scalar for Blake2s {
    #[inline]
    unsafe fn kernel(
        h: &mut [u32; 8],
        blocks: *const u8,
        n: usize,
        count: u128,
        inc: usize,
        f0: u32,
        f1: u32,
    ) {
        debug_assert!(n >= 1);
        let (lo, hi) = (count as u32, (count >> 32) as u32);
        // SAFETY: see above.
        unsafe {
            kernel_asm!(
                kernel!(d, "64", with_sigma!(rounds_d)),
                IV_S,
                h,
                blocks,
                n,
                lo,
                hi,
                inc,
                f0,
                f1
            );
        }
    }
}

/// See `Variant::compress_blocks`.
pub(crate) fn compress_blocks<V: Scalar>(h: &mut [V::Word; 8], blocks: &[u8], count: &mut u128) {
    let n = blocks.len() / V::BLOCKBYTES;
    if n > 0 {
        let zero = V::Word::default();
        // SAFETY: `blocks` holds `n >= 1` whole blocks.
        unsafe { V::kernel(h, blocks.as_ptr(), n, *count, V::BLOCKBYTES, zero, zero) };
        *count = count.wrapping_add((n * V::BLOCKBYTES) as u128);
    }
}

/// See `Variant::compress_final`.
pub(crate) fn compress_final<V: Scalar>(
    h: &mut [V::Word; 8],
    block: &V::Block,
    count: u128,
    last_node: bool,
) {
    let ones = V::Word::truncate(u128::MAX);
    let f1 = if last_node { ones } else { V::Word::default() };
    // SAFETY: one whole block.
    unsafe { V::kernel(h, block.as_ref().as_ptr(), 1, count, 0, ones, f1) };
}

// Run on every x86-64 machine, whatever `scalar_chains` says; the vector kernels that the
// other CPUs use have their own tests (`avx512_matches_portable` and the like), which call
// them directly.
#[cfg(test)]
mod tests {
    use super::{compress_blocks, compress_final};
    use crate::blake2::kernel_tests::{check, Kernels};
    use crate::blake2::variant::{Blake2b, Blake2s};

    #[test]
    fn blake2b_matches_portable() {
        check(&Kernels::<Blake2b> {
            name: "scalar",
            supported: true,
            degree: 1,
            blocks: compress_blocks::<Blake2b>,
            last: compress_final::<Blake2b>,
            lanes: None,
        });
    }

    #[test]
    fn blake2s_matches_portable() {
        check(&Kernels::<Blake2s> {
            name: "scalar",
            supported: true,
            degree: 1,
            blocks: compress_blocks::<Blake2s>,
            last: compress_final::<Blake2s>,
            lanes: None,
        });
    }
}
