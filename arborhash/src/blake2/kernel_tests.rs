//! Differential tests of every backend's kernels against the portable ones, for both word
//! sizes: [`check`] for one backend, run for each backend the CPU supports.

use super::dispatch::backends;
use super::kernels::{Kernels, Lane, LastBlock, LastNode, Word};
use super::portable;
use crate::platform::{dispatch, with_backend, Backend, Platform};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A multi-lane kernel with its block count and stride bound.
type LanesKernel<'f, W> = dyn Fn(&mut [Lane<'_, W>]) + 'f;

fn name<W: Word>() -> &'static str {
    if W::BYTES == 8 {
        "BLAKE2b"
    } else {
        "BLAKE2s"
    }
}

fn random_count<W: Word>(rng: &mut ChaCha8Rng) -> u128 {
    let word_bits = 8 * W::BYTES;
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0..1 << 20),
        // Carries from the low into the high word, and out of the two words the variant uses
        // (around u128 for BLAKE2b, past u64 for BLAKE2s).
        1 => (u128::MAX >> (128 - word_bits)) - rng.gen_range(0..1024),
        2 => (u128::MAX >> (128 - 2 * word_bits)) - rng.gen_range(0..1024),
        _ => rng.gen(),
    }
}

fn random_h<W: Word>(rng: &mut ChaCha8Rng) -> [W; 8] {
    core::array::from_fn(|_| W::truncate(rng.gen()))
}

fn random_block<W: Word>(rng: &mut ChaCha8Rng) -> W::Block {
    let mut block = W::ZERO_BLOCK;
    rng.fill(block.as_mut());
    block
}

/// A copy of `data` starting `offset` bytes into a fresh buffer, to test unaligned input.
fn unaligned(data: &[u8], offset: usize) -> Vec<u8> {
    let mut buf = vec![0u8; offset];
    buf.extend_from_slice(data);
    buf
}

/// Compares backend `K`'s kernels with the portable ones, for both word sizes. The caller
/// guarantees the CPU has `K`'s features.
fn check<K: Kernels<u64> + Kernels<u32>>(backend: Backend) {
    check_word::<K, u64>(backend);
    check_word::<K, u32>(backend);
}

fn check_word<K: Kernels<W>, W: Word>(backend: Backend) {
    let what = format!("{} {backend:?}", name::<W>());
    let mut rng = ChaCha8Rng::seed_from_u64(0xB200_0000 + (W::BLOCKBYTES + K::DEGREE) as u64);
    check_abc::<K, W>(&what);
    for _ in 0..200 {
        let nblocks = rng.gen_range(0..12);
        let mut data = vec![0u8; nblocks * W::BLOCKBYTES];
        rng.fill(&mut data[..]);
        let offset = rng.gen_range(0..16);
        let buf = unaligned(&data, offset);
        let h0 = random_h::<W>(&mut rng);
        let c0 = random_count::<W>(&mut rng);
        let (mut h_want, mut c_want) = (h0, c0);
        portable::compress_blocks::<W>(&mut h_want, &data, &mut c_want);
        let (mut h_got, mut c_got) = (h0, c0);
        // SAFETY: the caller checked that the CPU has the backend's features.
        unsafe { K::compress_blocks(&mut h_got, &buf[offset..], &mut c_got) };
        assert_eq!((h_got, c_got), (h_want, c_want), "{what} compress_blocks");

        let block = random_block::<W>(&mut rng);
        let last_node = LastNode::from_bool(rng.gen());
        let mut h_want = h0;
        portable::compress_final::<W>(&mut h_want, &block, c0, last_node);
        let mut h_got = h0;
        // SAFETY: as above.
        unsafe { K::compress_final(&mut h_got, &block, c0, last_node) };
        assert_eq!(h_got, h_want, "{what} compress_final");
    }
    for nlanes in 1..=3 * K::DEGREE {
        for _ in 0..12 {
            check_lanes::<K, W>(&what, &mut rng, nlanes);
        }
    }
}

fn check_lanes<K: Kernels<W>, W: Word>(what: &str, rng: &mut ChaCha8Rng, nlanes: usize) {
    let blocks = rng.gen_range(0..5);
    // Contiguous blocks, and the strides of the parallel variant's leaves (4 for BLAKE2bp, 8
    // for BLAKE2sp) and twice that.
    let leaves = 32 / W::BYTES;
    let stride = W::BLOCKBYTES * [1, leaves, 2 * leaves][rng.gen_range(0..3)];
    let len = if blocks == 0 {
        0
    } else {
        (blocks - 1) * stride + W::BLOCKBYTES
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
    let starts: Vec<([W; 8], u128, Option<LastBlock>)> = (0..nlanes)
        .map(|_| {
            let last = rng.gen_bool(0.5).then(|| LastBlock {
                len: rng.gen_range(0..=W::BLOCKBYTES),
                last_node: LastNode::from_bool(rng.gen()),
            });
            (random_h::<W>(rng), random_count::<W>(rng), last)
        })
        .collect();
    let run = |f: &LanesKernel<'_, W>| {
        let mut hs: Vec<[W; 8]> = starts.iter().map(|s| s.0).collect();
        let mut lanes: Vec<Lane<'_, W>> = hs
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
    let want = run(&|lanes| portable::compress_lanes::<W>(lanes, blocks, stride));
    // SAFETY: the CPU has the backend's features (checked by the caller); each input holds
    // exactly the bytes `compress_lanes` requires.
    let got = run(&|lanes| unsafe { K::compress_lanes(lanes, blocks, stride) });
    assert_eq!(
        got, want,
        "{what} compress_lanes: {nlanes} lanes, {blocks} blocks, stride {stride}"
    );
}

/// RFC 7693 appendices A and B: the hash of "abc" at full length, one final block.
fn check_abc<K: Kernels<W>, W: Word>(what: &str) {
    let want = match W::BYTES {
        8 => {
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1\
             7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"
        }
        _ => "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
    };
    let mut h = W::IV;
    // Parameter word 0: digest length, no key, fanout 1, depth 1.
    h[0] = h[0] ^ W::truncate(0x0101_0000 | (8 * W::BYTES) as u128);
    let mut block = W::ZERO_BLOCK;
    block.as_mut()[..3].copy_from_slice(b"abc");
    // SAFETY: the caller checked that the CPU has the backend's features.
    unsafe { K::compress_final(&mut h, &block, 3, LastNode::No) };
    let mut digest = vec![0u8; 8 * W::BYTES];
    for (w, out) in h.iter().zip(digest.chunks_mut(W::BYTES)) {
        w.write_le(out);
    }
    let got: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(got, want, "{what}(\"abc\")");
}

#[test]
fn every_backend_matches_portable() {
    let mut tested = 0;
    for backend in Backend::ALL {
        if !backend.is_supported() {
            println!("skipping BLAKE2 {backend:?} kernel tests: not supported on this CPU");
            continue;
        }
        with_backend(backend, || {
            let p = Platform::current();
            dispatch!(p, backends, |K| check::<K>(backend))
        });
        tested += 1;
    }
    // Portable, at least, runs everywhere.
    assert!(tested >= 1);
}
