//! BLAKE3 kernels for AVX2: the transposed kernels of `sse41` with eight lanes per `__m256i`.
//!
//! AVX2 implies SSE4.1, so the rest comes from `sse41`, compiled here with AVX2 enabled (VEX
//! encoded, so no SSE/AVX transition costs): single blocks use its row-vectorised compression,
//! groups of at most four lanes its row form with two lanes per `__m256i`, and the last few
//! extended-output blocks its 4-block and single-block paths.

use core::arch::x86_64::*;

use super::kernels::{Lane, BLOCK_LEN};
use super::sse41::{self, LaneWords, RowWords, ROT16_MASK, ROT8_BYTES};

#[inline(always)]
unsafe fn load128(p: *const u8) -> __m128i {
    // SAFETY: the caller guarantees 16 readable bytes at `p`; the load is unaligned.
    unsafe { _mm_loadu_si128(p.cast()) }
}

/// A byte shuffle mask for `_mm256_shuffle_epi8`: the same 16-byte pattern in both halves.
#[inline(always)]
unsafe fn byte_mask(pattern: &[u8; 16]) -> __m256i {
    // SAFETY: AVX2; see `LaneWords`. The pattern has 16 bytes.
    unsafe { _mm256_broadcastsi128_si256(load128(pattern.as_ptr())) }
}

/// [`sse41`]'s 4x4 word transpose in each 128-bit half independently.
#[inline(always)]
unsafe fn transpose4_halves(r: [__m256i; 4]) -> [__m256i; 4] {
    // SAFETY: AVX2; see `LaneWords`.
    unsafe {
        let ab_lo = _mm256_unpacklo_epi32(r[0], r[1]);
        let ab_hi = _mm256_unpackhi_epi32(r[0], r[1]);
        let cd_lo = _mm256_unpacklo_epi32(r[2], r[3]);
        let cd_hi = _mm256_unpackhi_epi32(r[2], r[3]);
        [
            _mm256_unpacklo_epi64(ab_lo, cd_lo),
            _mm256_unpackhi_epi64(ab_lo, cd_lo),
            _mm256_unpacklo_epi64(ab_hi, cd_hi),
            _mm256_unpackhi_epi64(ab_hi, cd_hi),
        ]
    }
}

impl LaneWords for __m256i {
    const LANES: usize = 8;

    #[inline(always)]
    unsafe fn splat(w: u32) -> Self {
        // SAFETY: AVX; see the trait.
        unsafe { _mm256_set1_epi32(w as i32) }
    }

    #[inline(always)]
    unsafe fn from_lanes(w: &[u32; 8]) -> Self {
        // SAFETY: AVX; `w` has 32 bytes.
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

    #[inline(always)]
    unsafe fn rot16(self) -> Self {
        // SAFETY: AVX2; see the trait. The mask is 32-byte aligned and 32 bytes; see
        // `ROT16_MASK` for why the load is volatile.
        unsafe {
            let mask = core::ptr::read_volatile(ROT16_MASK.0.as_ptr().cast::<__m256i>());
            _mm256_shuffle_epi8(self, mask)
        }
    }

    #[inline(always)]
    unsafe fn rot12(self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_srli_epi32::<12>(self), _mm256_slli_epi32::<20>(self)) }
    }

    #[inline(always)]
    unsafe fn rot8(self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_shuffle_epi8(self, byte_mask(&ROT8_BYTES)) }
    }

    #[inline(always)]
    unsafe fn rot7(self) -> Self {
        // SAFETY: AVX2; see the trait.
        unsafe { _mm256_or_si256(_mm256_srli_epi32::<7>(self), _mm256_slli_epi32::<25>(self)) }
    }

    /// Row `i` of each 4x4 transpose holds 16 bytes of lane `i` in its low half and of lane
    /// `i + 4` in its high half (a load plus `vinserti128` from memory, cheaper than transposing
    /// 8x8 with `vperm2i128`), so the in-half transpose leaves word `k` of lanes 0-7 in order.
    #[inline(always)]
    unsafe fn load_transposed(src: &[*const u8; 8], words: &mut [Self]) {
        for (quarter, group) in words.chunks_exact_mut(4).enumerate() {
            // SAFETY: the caller guarantees `4 * words.len()` readable bytes at each pointer;
            // AVX2 (see the trait).
            let rows = core::array::from_fn(|i| unsafe {
                _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(load128(src[i].add(16 * quarter))),
                    load128(src[i + 4].add(16 * quarter)),
                )
            });
            // SAFETY: the feature is enabled (see the trait).
            group.copy_from_slice(&unsafe { transpose4_halves(rows) });
        }
    }

    #[inline(always)]
    unsafe fn store_transposed(words: &[Self], out: &[*mut u8; 8]) {
        for (quarter, group) in words.chunks_exact(4).enumerate() {
            // SAFETY: the feature is enabled (see the trait).
            let rows = unsafe { transpose4_halves([group[0], group[1], group[2], group[3]]) };
            for (i, row) in rows.into_iter().enumerate() {
                // SAFETY: the caller guarantees `4 * words.len()` writable bytes at each
                // pointer; lane `i` is the low half of row `i`, lane `i + 4` its high half.
                unsafe {
                    _mm_storeu_si128(out[i].add(16 * quarter).cast(), _mm256_castsi256_si128(row));
                    _mm_storeu_si128(
                        out[i + 4].add(16 * quarter).cast(),
                        _mm256_extracti128_si256::<1>(row),
                    );
                }
            }
        }
    }
}

impl RowWords for __m256i {
    const ROW_LANES: usize = 2;

    #[inline(always)]
    unsafe fn load_rows(src: &[*const u8; 2]) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes at each pointer; AVX2 (see the trait).
        unsafe {
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load128(src[0])), load128(src[1]))
        }
    }

    #[inline(always)]
    unsafe fn store_rows(self, out: &[*mut u8; 2]) {
        // SAFETY: the caller guarantees 16 writable bytes at each pointer; AVX2 (see the trait).
        unsafe {
            _mm_storeu_si128(out[0].cast(), _mm256_castsi256_si128(self));
            _mm_storeu_si128(out[1].cast(), _mm256_extracti128_si256::<1>(self));
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
}

/// Compresses one block into `cv`: the SSE4.1 row-vectorised compression, compiled with AVX2.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn compress_in_place(
    cv: &mut [u32; 8],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    // SAFETY: AVX2, hence SSE4.1, is enabled here and present (our contract).
    unsafe { sse41::compress_rows_in_place(cv, block, block_len, counter, flags) }
}

/// Hashes every lane, eight at a time: the AVX2 form of `portable::hash_lanes`. A last group of
/// five to seven lanes runs padded to eight; one of at most four runs in the row form, two lanes
/// per `__m256i` (as two interleaved states for three or four).
///
/// # Safety
/// The CPU must support AVX2; `out.len() >= lanes.len()` and every lane's input is
/// `blocks * BLOCK_LEN` bytes (as `kernels::hash_lanes` checks).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn hash_lanes(
    lanes: &[Lane<'_>],
    blocks: usize,
    flags: u8,
    out: &mut [[u8; 32]],
) {
    // SAFETY: AVX2, hence SSE4.1, is enabled here and present; the lengths are our contract.
    unsafe {
        for (group, out) in lanes.chunks(8).zip(out.chunks_mut(8)) {
            match group.len() {
                1 => sse41::hash_rows::<__m128i, 1>(group, blocks, flags, out),
                2 => sse41::hash_rows::<__m256i, 1>(group, blocks, flags, out),
                3 | 4 => sse41::hash_rows::<__m256i, 2>(group, blocks, flags, out),
                _ => sse41::hash_group::<__m256i>(group, blocks, flags, out),
            }
        }
    }
}

/// Extended output, eight blocks at a time: the AVX2 form of `portable::xof_many`.
///
/// # Safety
/// The CPU must support AVX2; `out.len()` must be a multiple of `BLOCK_LEN`.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn xof_many(
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
            let m = sse41::broadcast_block::<__m256i>(block);
            for group in &mut groups {
                sse41::xof_group(cv, &m, block_len, counter, flags, group);
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

#[cfg(all(test, feature = "std"))]
mod tests {
    //! The differential tests of `sse41`, run on the AVX2 kernels.

    use super::super::sse41::tests::{
        check_compress, check_empty_input, check_hash_lanes, check_xof_many, Kernels,
    };

    fn kernels() -> Option<Kernels> {
        if !std::is_x86_feature_detected!("avx2") {
            println!("skipped: this CPU lacks AVX2");
            return None;
        }
        // SAFETY (each closure): AVX2 is present, detected above; `hash_lanes` is only given
        // lanes of `blocks` blocks and enough outputs, `xof_many` whole blocks.
        Some(Kernels {
            degree: 8,
            compress_in_place: |cv, block, len, counter, flags| unsafe {
                super::compress_in_place(cv, block, len, counter, flags)
            },
            hash_lanes: |lanes, blocks, flags, out| unsafe {
                super::hash_lanes(lanes, blocks, flags, out)
            },
            xof_many: |cv, block, len, counter, flags, out| unsafe {
                super::xof_many(cv, block, len, counter, flags, out)
            },
        })
    }

    #[test]
    fn compress_in_place_matches_portable() {
        if let Some(k) = kernels() {
            check_compress(&k);
        }
    }

    #[test]
    fn hash_lanes_matches_portable() {
        if let Some(k) = kernels() {
            check_hash_lanes(&k);
        }
    }

    #[test]
    fn xof_many_matches_portable() {
        if let Some(k) = kernels() {
            check_xof_many(&k);
        }
    }

    #[test]
    fn empty_input_hash() {
        if let Some(k) = kernels() {
            check_empty_input(&k);
        }
    }
}

#[cfg(all(test, feature = "std"))]
mod timing {
    //! Kernel throughput beside the `blake3` crate, printed, never asserted. Run with
    //! `cargo test --release -p arborhash --lib --all-features print_throughput -- --ignored
    //! --nocapture`.
    use super::super::kernels::{Lane, BLOCK_LEN};
    use super::super::{portable, sse41};
    use std::hint::black_box;
    use std::time::Instant;

    /// GB/s of the fastest of many single calls: on a loaded machine the fastest call is the
    /// one least disturbed.
    fn rate(bytes: usize, mut f: impl FnMut()) -> f64 {
        let mut best = f64::MAX;
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < 0.5 {
            let call = Instant::now();
            f();
            best = best.min(call.elapsed().as_secs_f64());
        }
        bytes as f64 / best / 1e9
    }

    #[test]
    #[ignore]
    fn print_throughput() {
        let input = vec![0x5Au8; 8 * 16 * BLOCK_LEN];
        let lanes: Vec<Lane<'_>> = input
            .chunks_exact(16 * BLOCK_LEN)
            .enumerate()
            .map(|(i, chunk)| Lane {
                input: chunk,
                cv: crate::blake2s::IV,
                counter: i as u64,
                flags_start: 1,
                flags_end: 2,
                last_block_len: 64,
            })
            .collect();
        let mut out = [[0u8; 32]; 8];
        let n = input.len();
        println!("hash_lanes 8 x 16 blocks, GB/s:");
        println!(
            "  portable {:.3}",
            rate(n, || portable::hash_lanes(
                black_box(&lanes),
                16,
                0,
                &mut out
            ))
        );
        println!(
            "  sse41    {:.3}",
            rate(n, || unsafe {
                sse41::hash_lanes(black_box(&lanes), 16, 0, &mut out)
            })
        );
        println!(
            "  avx2     {:.3}",
            rate(n, || unsafe {
                super::hash_lanes(black_box(&lanes), 16, 0, &mut out)
            })
        );
        let lanes4 = &lanes[..4];
        println!(
            "  sse41 4 lanes {:.3}",
            rate(4 * 1024, || unsafe {
                sse41::hash_lanes(black_box(lanes4), 16, 0, &mut out)
            })
        );
        let parents: Vec<Lane<'_>> = input
            .chunks_exact(BLOCK_LEN)
            .take(8)
            .map(|b| Lane {
                input: b,
                ..lanes[0]
            })
            .collect();
        println!(
            "  avx2 8 parents (1 block) {:.3}",
            rate(8 * 64, || unsafe {
                super::hash_lanes(black_box(&parents), 1, 4, &mut out)
            })
        );
        let block = [7u8; 64];
        let mut cv = crate::blake2s::IV;
        println!("compress_in_place, 1000 chained blocks, GB/s:");
        println!(
            "  portable {:.3}",
            rate(64_000, || for _ in 0..1000 {
                portable::compress_in_place(black_box(&mut cv), &block, 64, 0, 0)
            })
        );
        println!(
            "  sse41    {:.3}",
            rate(64_000, || for _ in 0..1000 {
                unsafe { sse41::compress_in_place(black_box(&mut cv), &block, 64, 0, 0) }
            })
        );
        println!(
            "  avx2     {:.3}",
            rate(64_000, || for _ in 0..1000 {
                unsafe { super::compress_in_place(black_box(&mut cv), &block, 64, 0, 0) }
            })
        );
        let mut xof = vec![0u8; 64 * 64];
        println!("xof_many 64 blocks, GB/s:");
        println!(
            "  portable {:.3}",
            rate(xof.len(), || portable::xof_many(
                &cv,
                &block,
                64,
                0,
                11,
                black_box(&mut xof)
            ))
        );
        println!(
            "  sse41    {:.3}",
            rate(xof.len(), || unsafe {
                sse41::xof_many(&cv, &block, 64, 0, 11, black_box(&mut xof))
            })
        );
        println!(
            "  avx2     {:.3}",
            rate(xof.len(), || unsafe {
                super::xof_many(&cv, &block, 64, 0, 11, black_box(&mut xof))
            })
        );
        let big = vec![0x5Au8; 1 << 20];
        for backend in crate::Backend::ALL {
            let r = crate::platform::with_backend(backend, || {
                rate(big.len(), || {
                    black_box(crate::blake3::hash(black_box(&big)));
                })
            });
            println!("arborhash::blake3::hash 1 MiB, {backend}: {r:.3} GB/s");
        }
        type HashLanes = unsafe fn(&[Lane<'_>], usize, u8, &mut [[u8; 32]]);
        let tree = |hash_lanes: HashLanes| {
            let chunks: Vec<Lane<'_>> = big
                .chunks_exact(16 * BLOCK_LEN)
                .enumerate()
                .map(|(i, chunk)| Lane {
                    input: chunk,
                    counter: i as u64,
                    ..lanes[0]
                })
                .collect();
            let mut level = vec![[0u8; 32]; chunks.len()];
            unsafe { hash_lanes(&chunks, 16, 0, &mut level) };
            while level.len() > 1 {
                let root = if level.len() == 2 { 8 } else { 0 };
                let parents: Vec<Lane<'_>> = level
                    .as_flattened()
                    .chunks_exact(BLOCK_LEN)
                    .map(|pair| Lane {
                        input: pair,
                        cv: crate::blake2s::IV,
                        counter: 0,
                        flags_start: 0,
                        flags_end: root,
                        last_block_len: 64,
                    })
                    .collect();
                let mut next = vec![[0u8; 32]; parents.len()];
                unsafe { hash_lanes(&parents, 1, 4, &mut next) };
                level = next;
            }
            level[0]
        };
        assert_eq!(tree(super::hash_lanes), *blake3::hash(&big).as_bytes());
        assert_eq!(tree(sse41::hash_lanes), *blake3::hash(&big).as_bytes());
        println!("1 MiB tree of hash_lanes calls, GB/s:");
        println!(
            "  sse41    {:.3}",
            rate(big.len(), || {
                black_box(tree(sse41::hash_lanes));
            })
        );
        println!(
            "  avx2     {:.3}",
            rate(big.len(), || {
                black_box(tree(super::hash_lanes));
            })
        );
        println!(
            "blake3 crate 1 MiB (its best SIMD): {:.3}",
            rate(big.len(), || {
                black_box(blake3::hash(black_box(&big)));
            })
        );
    }
}
