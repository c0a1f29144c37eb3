//! The `avx512-scalar` route (chosen on AMD family 1Ah, whose vector instructions have twice the
//! latency of scalar ones): a single stream's BLAKE2s compression on general-purpose registers,
//! in assembly, and BLAKE2b's on the portable kernel; the lanes stay on AVX-512.
//!
//! A block's compression is one chain of dependent instructions a round (G's additions, xors and
//! rotations, twice), 10 rounds; the four G of a column or diagonal step are independent of each
//! other. Here the sixteen state words take fifteen registers and one stack slot and everything
//! else waits in the frame: each block is first copied to the frame, so that its words are read
//! relative to `rsp` and no register holds its address during the rounds. Written from RFC 7693
//! section 3.
//!
//! Registers: state words 0-14 in `eax`, `ebx`, `ecx`, `edx`, `esi`, `edi`, `ebp`,
//! `r8d`-`r15d`, word 15 in `r13d` too: word 12 waits in its slot while word 15 is in use (the
//! last column and the first diagonal G), and word 15 while word 12 is.
//!
//! Frame, in 8-byte slots from the 64-byte aligned stack pointer, of which 32-bit words use the
//! low half: the block at 0-63, word 12 at 128, word 15 at 136, the chaining value packed at
//! 144-175 (for the feed-forward), the counter's low and high words at 208 and 216, the
//! counter's increment per block at 224, IV 6 ^ f0 and IV 7 ^ f1 at 232 and 240, the next
//! block's address at 248, blocks left at 256, the output pointer at 264, the saved `rsp`,
//! `rbx`, `rbp` at 272, 280, 288.

use super::kernels::s::{BLOCKBYTES, IV as IV_S};
use super::kernels::SIGMA;

/// The name of the register of state word `$i` (`q`: BLAKE2b's 64-bit names, `d`: BLAKE2s's
/// 32-bit ones).
#[rustfmt::skip]
macro_rules! reg {
    (0) => { "eax" }; (1) => { "ebx" }; (2) => { "ecx" }; (3) => { "edx" };
    (4) => { "esi" }; (5) => { "edi" }; (6) => { "ebp" }; (7) => { "r8d" };
    (8) => { "r9d" }; (9) => { "r10d" }; (10) => { "r11d" }; (11) => { "r12d" };
    (12) => { "r13d" }; (13) => { "r14d" }; (14) => { "r15d" }; (15) => { "r13d" };
}

/// The memory operand of word `$i` of an array of words at `$base + $offset`.
macro_rules! word {
    ($base:literal + $offset:literal, $i:tt) => {
        concat!("dword ptr [", $base, " + ", $offset, " + 4 * ", $i, "]")
    };
}

/// G's rotation distances, right: R1-R4 of RFC 7693.
macro_rules! rot {
    (1) => {
        "16"
    };
    (2) => {
        "12"
    };
    (3) => {
        "8"
    };
    (4) => {
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
    (0, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($a), word!("rsp" + "0", $x)) };
    (1, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($a), reg!($b)) };
    (2, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($d), reg!($a)) };
    (3, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($d), rot!(1)) };
    (4, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($c), reg!($d)) };
    (5, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($b), reg!($c)) };
    (6, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($b), rot!(2)) };
    (7, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($a), word!("rsp" + "0", $y)) };
    (8, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($a), reg!($b)) };
    (9, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($d), reg!($a)) };
    (10, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($d), rot!(3)) };
    (11, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("add" reg!($c), reg!($d)) };
    (12, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("xor" reg!($b), reg!($c)) };
    (13, $a:tt, $b:tt, $c:tt, $d:tt, $x:tt, $y:tt) => { op!("ror" reg!($b), rot!(4)) };
}

/// G, all of it.
macro_rules! g {
    ($($g:tt),*) => {
        concat!(
            gs!(0, $($g),*), gs!(1, $($g),*), gs!(2, $($g),*), gs!(3, $($g),*),
            gs!(4, $($g),*), gs!(5, $($g),*), gs!(6, $($g),*), gs!(7, $($g),*),
            gs!(8, $($g),*), gs!(9, $($g),*), gs!(10, $($g),*),
            gs!(11, $($g),*), gs!(12, $($g),*), gs!(13, $($g),*),
        )
    };
}

/// Three independent G, instruction by instruction, so that the order of the text follows the
/// depth in their chains (see [`round!`]).
macro_rules! g3 {
    ($g0:tt, $g1:tt, $g2:tt) => {
        concat!(
            g3!(@ 0, $g0, $g1, $g2), g3!(@ 1, $g0, $g1, $g2), g3!(@ 2, $g0, $g1, $g2),
            g3!(@ 3, $g0, $g1, $g2), g3!(@ 4, $g0, $g1, $g2), g3!(@ 5, $g0, $g1, $g2),
            g3!(@ 6, $g0, $g1, $g2), g3!(@ 7, $g0, $g1, $g2), g3!(@ 8, $g0, $g1, $g2),
            g3!(@ 9, $g0, $g1, $g2), g3!(@ 10, $g0, $g1, $g2), g3!(@ 11, $g0, $g1, $g2),
            g3!(@ 12, $g0, $g1, $g2), g3!(@ 13, $g0, $g1, $g2),
        )
    };
    (@ $k:tt, [$($g0:tt),*], [$($g1:tt),*], [$($g2:tt),*]) => {
        concat!(gs!($k, $($g0),*), gs!($k, $($g1),*), gs!($k, $($g2),*))
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
    ([$s0:tt, $s1:tt, $s2:tt, $s3:tt, $s4:tt, $s5:tt, $s6:tt, $s7:tt, $s8:tt,
      $s9:tt, $s10:tt, $s11:tt, $s12:tt, $s13:tt, $s14:tt, $s15:tt]) => {
        concat!(
            g!(3, 7, 11, 15, $s6, $s7),
            op!("mov" word!("rsp" + "136", 0), reg!(15)),
            op!("mov" reg!(12), word!("rsp" + "128", 0)),
            g3!([0, 4, 8, 12, $s0, $s1], [1, 5, 9, 13, $s2, $s3], [2, 6, 10, 14, $s4, $s5]),
            g3!([1, 6, 11, 12, $s10, $s11], [2, 7, 8, 13, $s12, $s13], [3, 4, 9, 14, $s14, $s15]),
            op!("mov" word!("rsp" + "128", 0), reg!(12)),
            op!("mov" reg!(15), word!("rsp" + "136", 0)),
            g!(0, 5, 10, 15, $s8, $s9),
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

/// BLAKE2s's ten rounds: the first ten rows.
macro_rules! rounds {
    ($s0:tt, $s1:tt, $s2:tt, $s3:tt, $s4:tt, $s5:tt, $s6:tt, $s7:tt, $s8:tt, $s9:tt,
     $s10:tt, $s11:tt) => {
        concat!(
            round!($s0),
            round!($s1),
            round!($s2),
            round!($s3),
            round!($s4),
            round!($s5),
            round!($s6),
            round!($s7),
            round!($s8),
            round!($s9),
        )
    };
}

/// Copies 32 bytes of the block at `r9` to the stack pointer, at offset `$at`.
macro_rules! copy_half_block {
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

/// The kernel's text, `$rounds` the rounds' text. Inputs: `rdi` the chaining value (eight words, read, and written at the end), `rsi`
/// the first block, `rdx` the number of blocks (at least one), `rcx` and `r8` the counter's
/// low and high words before the first block, `r9` what each block adds to the counter before
/// it is compressed, `r10` and `r11` IV 6 ^ f0 and IV 7 ^ f1; IV words 0-5 in `{iv0}`-`{iv5}`.
macro_rules! kernel {
    ($rounds:expr) => {
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
            op!("mov" reg!(0), word!("rdi" + "0", 0)),
            op!("mov" reg!(1), word!("rdi" + "0", 1)),
            op!("mov" reg!(2), word!("rdi" + "0", 2)),
            op!("mov" reg!(3), word!("rdi" + "0", 3)),
            op!("mov" reg!(4), word!("rdi" + "0", 4)),
            op!("mov" reg!(6), word!("rdi" + "0", 6)),
            op!("mov" reg!(7), word!("rdi" + "0", 7)),
            op!("mov" reg!(5), word!("rdi" + "0", 5)),
            "2:\n",
            // Words 8-15 are free until the block's state is set up.
            "mov r9, qword ptr [rsp + 248]\n",
            copy_half_block!(0),
            copy_half_block!(32),
            "add r9, 64\n",
            "mov qword ptr [rsp + 248], r9\n",
            // The chaining value, for the feed-forward.
            op!("mov" word!("rsp" + "144", 0), reg!(0)),
            op!("mov" word!("rsp" + "144", 1), reg!(1)),
            op!("mov" word!("rsp" + "144", 2), reg!(2)),
            op!("mov" word!("rsp" + "144", 3), reg!(3)),
            op!("mov" word!("rsp" + "144", 4), reg!(4)),
            op!("mov" word!("rsp" + "144", 5), reg!(5)),
            op!("mov" word!("rsp" + "144", 6), reg!(6)),
            op!("mov" word!("rsp" + "144", 7), reg!(7)),
            // The counter, then words 8-15.
            op!("mov" reg!(8), word!("rsp" + "224", 0)),
            op!("add" word!("rsp" + "208", 0), reg!(8)),
            op!("adc" word!("rsp" + "216", 0), "0"),
            op!("mov" reg!(9), "{iv4}"),
            op!("xor" reg!(9), word!("rsp" + "208", 0)),
            op!("mov" word!("rsp" + "128", 0), reg!(9)),
            op!("mov" reg!(15), word!("rsp" + "240", 0)),
            op!("mov" reg!(14), word!("rsp" + "232", 0)),
            op!("mov" reg!(8), "{iv0}"),
            op!("mov" reg!(9), "{iv1}"),
            op!("mov" reg!(10), "{iv2}"),
            op!("mov" reg!(11), "{iv3}"),
            op!("mov" reg!(13), "{iv5}"),
            op!("xor" reg!(13), word!("rsp" + "216", 0)),
            $rounds,
            // h ^= v[0..8] ^ v[8..16]; word 12 is in its slot, word 15 in its register.
            op!("xor" reg!(0), reg!(8)),
            op!("xor" reg!(1), reg!(9)),
            op!("xor" reg!(2), reg!(10)),
            op!("xor" reg!(3), reg!(11)),
            op!("xor" reg!(4), word!("rsp" + "128", 0)),
            op!("xor" reg!(5), reg!(13)),
            op!("xor" reg!(6), reg!(14)),
            op!("xor" reg!(7), reg!(15)),
            op!("xor" reg!(0), word!("rsp" + "144", 0)),
            op!("xor" reg!(1), word!("rsp" + "144", 1)),
            op!("xor" reg!(2), word!("rsp" + "144", 2)),
            op!("xor" reg!(3), word!("rsp" + "144", 3)),
            op!("xor" reg!(4), word!("rsp" + "144", 4)),
            op!("xor" reg!(5), word!("rsp" + "144", 5)),
            op!("xor" reg!(6), word!("rsp" + "144", 6)),
            op!("xor" reg!(7), word!("rsp" + "144", 7)),
            "dec qword ptr [rsp + 256]\n",
            "jnz 2b\n",
            "mov r9, qword ptr [rsp + 264]\n",
            op!("mov" word!("r9" + "0", 0), reg!(0)),
            op!("mov" word!("r9" + "0", 1), reg!(1)),
            op!("mov" word!("r9" + "0", 2), reg!(2)),
            op!("mov" word!("r9" + "0", 3), reg!(3)),
            op!("mov" word!("r9" + "0", 4), reg!(4)),
            op!("mov" word!("r9" + "0", 5), reg!(5)),
            op!("mov" word!("r9" + "0", 6), reg!(6)),
            op!("mov" word!("r9" + "0", 7), reg!(7)),
            "mov rbx, qword ptr [rsp + 280]\n",
            "mov rbp, qword ptr [rsp + 288]\n",
            "mov rsp, qword ptr [rsp + 272]\n",
        )
    };
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

/// Compresses `n` blocks from `blocks` into `h`, adding `inc` to the counter `count` before each,
/// with IV 6 ^ `f0` and IV 7 ^ `f1` (the finalization flags as words).
///
/// # Safety
/// `n >= 1` and `blocks` is readable for `n` blocks.
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
            kernel!(with_sigma!(rounds)),
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

/// See `Kernels::compress_blocks`.
pub(crate) fn compress_blocks(h: &mut [u32; 8], blocks: &[u8], count: &mut u128) {
    let n = blocks.len() / BLOCKBYTES;
    if n > 0 {
        // SAFETY: `blocks` holds `n >= 1` whole blocks.
        unsafe { kernel(h, blocks.as_ptr(), n, *count, BLOCKBYTES, 0, 0) };
        *count = count.wrapping_add((n * BLOCKBYTES) as u128);
    }
}

/// See `Kernels::compress_final`.
pub(crate) fn compress_final(h: &mut [u32; 8], block: &[u8; 64], count: u128, last_node: bool) {
    let f1 = if last_node { u32::MAX } else { 0 };
    // SAFETY: one whole block.
    unsafe { kernel(h, block.as_ptr(), 1, count, 0, u32::MAX, f1) };
}
