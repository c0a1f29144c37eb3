//! BLAKE3 kernels for AVX2: the shared SIMD code of `simd` on `__m256i`, eight lanes per vector
//! in the transposed form and two in the row form, with the `Shuffles` rotations.
//!
//! AVX2 implies SSE4.1, so single blocks and the last few extended-output blocks take the
//! `__m128i` paths of `simd`, compiled here with AVX2 enabled (VEX encoded, so no SSE/AVX
//! transition costs).

use core::arch::x86_64::*;

use super::kernels::{self, copy_then_hash, Group, Kernels, Lane, BLOCK_LEN};
use super::simd::{self, LaneWords, Rotate, RowMessage, RowWords};
use crate::arch::x86::avx2::{self, load_halves, store_halves, transpose4_halves};
use crate::arch::x86::sse41::{load128, ByteMask, ROT16, ROT8};
use crate::arch::x86::Shuffles;

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

/// What the assembly reads besides its operands, in one place so that one register addresses
/// it: the shuffles of `ROT16` and `ROT8` at offsets 0 and 32.
#[repr(C, align(32))]
struct AsmConsts {
    rot16: ByteMask,
    rot8: ByteMask,
}

static ASM_CONSTS: AsmConsts = AsmConsts {
    rot16: ROT16,
    rot8: ROT8,
};

impl Rotate<__m256i> for Shuffles {
    /// In assembly with the two states' rows pinned to `ymm0-7` and their messages to
    /// `ymm8-15`, each message's first two rows going through memory once added (as the blake3
    /// crate's assembly does): LLVM, with the same sixteen vectors and its temporaries, spilled
    /// both state and message rows (`arbor bench pairs --filter "BLAKE3 arborhash avx2 vs"` at
    /// 3 and 4 KiB, against a build with the trait's default).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rounds_two_row_states(rows: &mut [[__m256i; 4]; 2], m: [RowMessage<__m256i>; 2]) {
        let mut scratch = core::mem::MaybeUninit::<[__m256i; 6]>::uninit();
        // SAFETY: AVX2 is enabled here and present (the trait's contract). The text writes and
        // reads back the 192 bytes of `scratch` (32-byte aligned, as `__m256i` is), reads the
        // 64 bytes of shuffles at the start of `ASM_CONSTS`, and touches no register but its
        // operands.
        unsafe {
            simd::asm_row_consts!(
                rows_rounds_text!();
                k = in(reg) &ASM_CONSTS,
                n = out(reg) _,
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
}

impl LaneWords for __m256i {
    const LANES: usize = 8;
    /// Inputs larger than the L2 cache stream from eight places 1 KiB apart, and the hardware
    /// prefetcher does not keep ahead of them all.
    const PREFETCH_AHEAD: usize = 256;

    #[inline(always)]
    unsafe fn stream_line(src: *const u8, dst: *mut u8) {
        // SAFETY: AVX; `src` holds 64 bytes and `dst`, 64-byte aligned, takes them (see the
        // trait).
        unsafe {
            for half in [0, 32] {
                let v = _mm256_loadu_si256(src.add(half).cast());
                _mm256_stream_si256(dst.add(half).cast(), v);
            }
        }
    }

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

impl RowWords for __m256i {
    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at the first two pointers; AVX2 (see
        // the trait). An insert from memory needs no shuffle port.
        unsafe { load_halves(src[0], src[1]) }
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
        unsafe { store_halves(self, dst[0], dst[1]) }
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

    #[inline(always)]
    unsafe fn opaque(self) -> Self {
        // SAFETY: the feature is enabled (see the trait).
        unsafe { avx2::opaque(self) }
    }
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
    /// Hashes the 1 to 8 whole chunks `lanes` and copies them to `dsts`: five or more
    /// transposed, each block copied as it is loaded; fewer lanes are copied first, then hashed
    /// in rows.
    ///
    /// # Safety
    /// The CPU must support AVX2; the arguments are as `Kernels::hash_many_copying`
    /// requires.
    #[target_feature(enable = "avx2")]
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
                5.. => simd::hash_transposed_copying::<__m256i, Shuffles>(lanes, flags, dsts, out),
                _ => copy_then_hash::<Self>(lanes, flags, dsts, out),
            }
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
            simd::xof_many_128(
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

/// Copies `src` to `dst` (`src.len()` bytes, more than a block) two 32-byte moves a block, the
/// last block overlapping the one before it unless the length is a multiple of 64: the
/// incremental hasher's copy of writes of 2 KiB and more on AVX2 and AVX-512 platforms
/// (`dispatch::copy_blocks`). Two moves a block, not one of 64 bytes with AVX-512: LLVM turns a
/// loop of moves as long as its step back into a `memcpy`.
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
