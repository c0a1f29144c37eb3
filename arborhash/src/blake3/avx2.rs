//! BLAKE3 kernels for AVX2: `simd`'s shared code on `__m256i`, eight lanes transposed or two in
//! rows; single blocks take the `__m128i` paths, compiled here VEX-encoded.

use core::arch::x86_64::*;

use super::kernels::{self, copy_then_hash, Group, Kernels, Lane, BLOCK_LEN};
use super::simd::{self, LaneWords, Rotate, RowMessage, RowWords};
use crate::arch::x86::avx2::{self, load_halves, store_halves, transpose4_halves};
use crate::arch::x86::sse41::{load128, ByteMask, ROT16, ROT8};
use crate::arch::x86::Shuffles;

/// The assembly text of half a G on two row states, interleaved: rows in `ymm0-3` and `ymm4-7`,
/// message rows in `x0` and `x1` (saved by `$store` once added), `ymm8` and `ymm12` free.
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

/// The assembly text of one round of two row states, as `simd::interleaved_rounds_rows` does
/// it; messages in `ymm8-11` and `ymm12-15`, whose `A` and `B` go to `{m}` once added.
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

/// The assembly text of `simd::permute_row_message` for one state, `a b c d` to `na nb nc d`
/// through `t0 t1` (`nb` may be `a`, `nc` may be `t0`); `vpblendd` keeps off the shuffle port.
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

/// [`permute_text`] for a state whose `A` and `B` are at `{m} + $o` and `{m} + $o + 32`.
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

/// The assembly text of the message permutation between two rounds, state 0's then state 1's.
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

/// The seven rounds of two row states as a loop, not unrolled, which `arbor bench pairs` shows
/// faster at 4 KiB.
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

/// The shuffles the assembly reads, at offsets 0 and 32, so that one register addresses them.
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
    /// In assembly because LLVM spills the rows (`arbor bench pairs`, BLAKE3 avx2 at 3-4 KiB).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn rounds_two_row_states(rows: &mut [[__m256i; 4]; 2], m: [RowMessage<__m256i>; 2]) {
        let mut scratch = core::mem::MaybeUninit::<[__m256i; 6]>::uninit();
        // SAFETY: AVX2 is present; the text touches only its operands, `scratch`'s 192 aligned
        // bytes and the 64 bytes of shuffles at `ASM_CONSTS`.
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
    /// The hardware prefetcher does not keep ahead of eight streams 1 KiB apart.
    const PREFETCH_AHEAD: usize = 256;

    #[inline(always)]
    unsafe fn stream_line(src: *const u8, dst: *mut u8) {
        // SAFETY: AVX; `src` holds 64 bytes and `dst` is 64-byte aligned (see the trait).
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

    /// Lanes `i` and `i + 4` share row `i`'s halves, so an in-half transpose suffices.
    #[inline(always)]
    unsafe fn load_transposed<const W: usize>(src: &[*const u8; 16], at: usize) -> [Self; W] {
        // SAFETY: AVX2; the caller guarantees `4 * W` readable bytes at each `src[i] + at`.
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
                // SAFETY: the caller guarantees `4 * W` writable bytes at the first eight pointers.
                unsafe { row.store_rows(&[dst[i].add(at), dst[i + 4].add(at), dst[0], dst[0]]) };
            }
        }
    }
}

impl RowWords for __m256i {
    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 4]) -> Self {
        // SAFETY: AVX2; the caller guarantees 16 readable bytes at the first two pointers.
        unsafe { load_halves(src[0], src[1]) }
    }

    #[inline(always)]
    unsafe fn broadcast_row(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at `src`; AVX2 (see the trait).
        unsafe { _mm256_broadcastsi128_si256(load128(src)) }
    }

    #[inline(always)]
    unsafe fn store_rows(self, dst: &[*mut u8; 4]) {
        // SAFETY: AVX2; the caller guarantees 16 writable bytes at the first two pointers.
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
    /// Five or more lanes copy each block as it is loaded; fewer are copied first.
    #[target_feature(enable = "avx2")]
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: AVX2 is present; each kernel gets a lane count it takes.
        unsafe {
            match lanes.len() {
                5.. => simd::hash_transposed_copying::<__m256i, Shuffles>(lanes, flags, dsts, out),
                _ => copy_then_hash::<Self>(lanes, flags, dsts, out),
            }
        }
    }

    /// Five or more lanes transposed; fewer in rows, two per `__m256i`, as two interleaved states.
    #[target_feature(enable = "avx2")]
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]) {
        // SAFETY: AVX2, hence SSE4.1, is present; each kernel gets a lane count it takes.
        unsafe {
            match group.len() {
                5.. => simd::hash_transposed::<__m256i, Shuffles>(group, out),
                3 | 4 => simd::hash_in_rows::<__m256i, Shuffles, 2>(group, out),
                2 => simd::hash_in_rows::<__m256i, Shuffles, 1>(group, out),
                1 => simd::hash_in_rows::<__m128i, Shuffles, 1>(group, out),
                _ => {}
            }
        }
    }

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
        // SAFETY: AVX2 is present; groups are eight blocks, the rest a multiple of `BLOCK_LEN`.
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

/// Copies `src` (more than a block) to `dst` two 32-byte moves a block, the last overlapping,
/// for `dispatch::copy_blocks`; not 64-byte moves, which LLVM turns back into a `memcpy`.
///
/// # Safety
/// The CPU must support AVX; `dst` is valid for writes of `src.len()` bytes and does not overlap
/// `src`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn copy_blocks(src: &[u8], dst: *mut u8) {
    kernels::block_starts(src.len()).for_each(|at| {
        // SAFETY: AVX is present and the block at `at` is within `src` and `dst` (our contract).
        unsafe {
            let [lo, hi] = [at, at + 32].map(|at| _mm256_loadu_si256(src.as_ptr().add(at).cast()));
            _mm256_storeu_si256(dst.add(at).cast(), lo);
            _mm256_storeu_si256(dst.add(at + 32).cast(), hi);
        }
    });
}
