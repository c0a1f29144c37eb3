//! Differential tests of a BLAKE2b or BLAKE2s SIMD backend's three kernels against the portable
//! ones, written once for both variants; each backend module calls [`check`] with its kernels.

use super::portable;
use super::variant::{Variant, Word};
use super::{Lane, LastBlock};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One backend's three kernels for variant `V`.
pub(crate) struct Kernels<V: Variant> {
    pub name: &'static str,
    pub supported: bool,
    pub degree: usize,
    pub blocks: unsafe fn(&mut [V::Word; 8], &[u8], &mut u128),
    pub last: unsafe fn(&mut [V::Word; 8], &V::Block, u128, bool),
    /// The multi-lane kernel, if the backend has one.
    pub lanes: Option<LanesFn<V::Word>>,
}

/// A multi-lane kernel: `Variant::compress_lanes` without the platform.
type LanesFn<W> = unsafe fn(&mut [Lane<'_, W>], usize, usize);

/// A multi-lane kernel with its block count and stride bound.
type LanesKernel<'f, W> = dyn Fn(&mut [Lane<'_, W>]) + 'f;

fn word_bits<V: Variant>() -> usize {
    8 * <V::Word as Word>::BYTES
}

fn random_count<V: Variant>(rng: &mut ChaCha8Rng) -> u128 {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0..1 << 20),
        // Carries from the low into the high word, and out of the two words the variant uses
        // (around u128 for BLAKE2b, past u64 for BLAKE2s).
        1 => (u128::MAX >> (128 - word_bits::<V>())) - rng.gen_range(0..1024),
        2 => (u128::MAX >> (128 - 2 * word_bits::<V>())) - rng.gen_range(0..1024),
        _ => rng.gen(),
    }
}

fn random_h<V: Variant>(rng: &mut ChaCha8Rng) -> [V::Word; 8] {
    core::array::from_fn(|_| V::Word::truncate(rng.gen()))
}

fn random_block<V: Variant>(rng: &mut ChaCha8Rng) -> V::Block {
    let mut block = V::ZERO_BLOCK;
    rng.fill(block.as_mut());
    block
}

/// A copy of `data` starting `offset` bytes into a fresh buffer, to test unaligned input.
fn unaligned(data: &[u8], offset: usize) -> Vec<u8> {
    let mut buf = vec![0u8; offset];
    buf.extend_from_slice(data);
    buf
}

pub(crate) fn check<V: Variant>(k: &Kernels<V>) {
    if !k.supported {
        println!(
            "skipping {} {} kernel tests: CPU lacks the feature",
            V::NAME,
            k.name
        );
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0xB200_0000 + (V::BLOCKBYTES + k.degree) as u64);
    check_abc(k);
    for _ in 0..200 {
        let nblocks = rng.gen_range(0..12);
        let mut data = vec![0u8; nblocks * V::BLOCKBYTES];
        rng.fill(&mut data[..]);
        let offset = rng.gen_range(0..16);
        let buf = unaligned(&data, offset);
        let h0 = random_h::<V>(&mut rng);
        let c0 = random_count::<V>(&mut rng);
        let (mut h_want, mut c_want) = (h0, c0);
        portable::compress_blocks::<V>(&mut h_want, &data, &mut c_want);
        let (mut h_got, mut c_got) = (h0, c0);
        // SAFETY: `supported` was checked above.
        unsafe { (k.blocks)(&mut h_got, &buf[offset..], &mut c_got) };
        assert_eq!(
            (h_got, c_got),
            (h_want, c_want),
            "{} compress_blocks",
            k.name
        );

        let block = random_block::<V>(&mut rng);
        let last_node = rng.gen();
        let mut h_want = h0;
        portable::compress_final::<V>(&mut h_want, &block, c0, last_node);
        let mut h_got = h0;
        // SAFETY: as above.
        unsafe { (k.last)(&mut h_got, &block, c0, last_node) };
        assert_eq!(h_got, h_want, "{} compress_final", k.name);
    }
    if let Some(lanes) = k.lanes {
        for nlanes in 1..=3 * k.degree {
            for _ in 0..12 {
                check_lanes::<V>(k.name, lanes, &mut rng, nlanes);
            }
        }
    }
}

fn check_lanes<V: Variant>(
    name: &str,
    kernel: LanesFn<V::Word>,
    rng: &mut ChaCha8Rng,
    nlanes: usize,
) {
    let blocks = rng.gen_range(0..5);
    // Contiguous blocks, and the strides of the parallel variant's leaves and twice that.
    let leaves = V::PARALLEL_LEAVES;
    let stride = V::BLOCKBYTES * [1, leaves, 2 * leaves][rng.gen_range(0..3)];
    let len = if blocks == 0 {
        0
    } else {
        (blocks - 1) * stride + V::BLOCKBYTES
    };
    let offset = rng.gen_range(0..16);
    // Each lane reads from its own buffer of exactly the needed length, unaligned.
    let bufs: Vec<Vec<u8>> = (0..nlanes)
        .map(|_| {
            let mut data = vec![0u8; len];
            rng.fill(&mut data[..]);
            unaligned(&data, offset)
        })
        .collect();
    let starts: Vec<([V::Word; 8], u128, Option<LastBlock>)> = (0..nlanes)
        .map(|_| {
            let last = rng.gen_bool(0.5).then(|| LastBlock {
                len: rng.gen_range(0..=V::BLOCKBYTES),
                last_node: rng.gen(),
            });
            (random_h::<V>(rng), random_count::<V>(rng), last)
        })
        .collect();
    let run = |f: &LanesKernel<'_, V::Word>| {
        let mut hs: Vec<[V::Word; 8]> = starts.iter().map(|s| s.0).collect();
        let mut lanes: Vec<Lane<'_, V::Word>> = hs
            .iter_mut()
            .zip(&bufs)
            .zip(&starts)
            .map(|((h, buf), s)| Lane {
                h,
                input: &buf[offset..],
                count: s.1,
                last: s.2,
            })
            .collect();
        f(&mut lanes);
        let counts: Vec<u128> = lanes.iter().map(|l| l.count).collect();
        drop(lanes);
        (hs, counts)
    };
    let want = run(&|lanes| portable::compress_lanes::<V>(lanes, blocks, stride));
    // SAFETY: `supported` was checked by the caller; each input holds exactly the bytes
    // `Variant::compress_lanes` requires.
    let got = run(&|lanes| unsafe { kernel(lanes, blocks, stride) });
    assert_eq!(
        got, want,
        "{name} compress_lanes: {nlanes} lanes, {blocks} blocks, stride {stride}"
    );
}

/// RFC 7693 appendices A and B: the hash of "abc" at full length, one final block.
fn check_abc<V: Variant>(k: &Kernels<V>) {
    let want = match V::NAME {
        "BLAKE2b" => {
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
             7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
        }
        _ => "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
    };
    let mut h = V::IV;
    // Parameter word 0: digest length, no key, fanout 1, depth 1.
    h[0] = h[0] ^ V::Word::truncate(0x0101_0000 | V::OUTBYTES as u128);
    let mut block = V::ZERO_BLOCK;
    block.as_mut()[..3].copy_from_slice(b"abc");
    // SAFETY: the caller checked `supported`.
    unsafe { (k.last)(&mut h, &block, 3, false) };
    let mut digest = vec![0u8; V::OUTBYTES];
    for (w, out) in h.iter().zip(digest.chunks_mut(<V::Word as Word>::BYTES)) {
        w.write_le(out);
    }
    let got: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(got, want, "{} {}(\"abc\")", k.name, V::NAME);
}
