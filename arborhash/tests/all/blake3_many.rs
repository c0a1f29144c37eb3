//! Batch hashing (`blake3::many`) on every backend against hashing one by one (the `blake3`
//! crate and the spec reference): mixed lengths, random mixes, many equal messages, all modes.

use crate::reference::blake3 as reference;

use arborhash::blake3::{many, Hash};
use arborhash::platform::{with_backend, Backend};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const KEY: [u8; 32] = [0x42; 32];
const CONTEXT: &str = "arborhash 2026-11-22 batch test context";

fn messages(rng: &mut ChaCha8Rng, lens: &[usize]) -> Vec<Vec<u8>> {
    lens.iter()
        .map(|&len| {
            let mut m = vec![0u8; len];
            rng.fill(&mut m[..]);
            m
        })
        .collect()
}

fn check(messages: &[Vec<u8>], what: &str) {
    let inputs: Vec<&[u8]> = messages.iter().map(|m| m.as_slice()).collect();
    let n = inputs.len();
    let zero = Hash::from_bytes([0; 32]);
    let want: Vec<::blake3::Hash> = inputs.iter().map(|m| ::blake3::hash(m)).collect();
    let want_keyed: Vec<::blake3::Hash> = inputs
        .iter()
        .map(|m| ::blake3::keyed_hash(&KEY, m))
        .collect();
    let want_derived: Vec<[u8; 32]> = inputs
        .iter()
        .map(|m| ::blake3::derive_key(CONTEXT, m))
        .collect();
    for backend in Backend::ALL {
        with_backend(backend, || {
            let mut out = vec![zero; n];
            many::hash_many(&inputs, &mut out);
            for (i, (got, want)) in out.iter().zip(&want).enumerate() {
                assert_eq!(
                    *got,
                    *want.as_bytes(),
                    "{backend} {what}: message {i}, len {}",
                    inputs[i].len()
                );
            }
            let mut out = vec![zero; n];
            many::keyed_hash_many(&KEY, &inputs, &mut out);
            for (i, (got, want)) in out.iter().zip(&want_keyed).enumerate() {
                assert_eq!(
                    *got,
                    *want.as_bytes(),
                    "{backend} {what} keyed: message {i}"
                );
            }
            let mut out = vec![[0u8; 32]; n];
            many::derive_key_many(CONTEXT, &inputs, &mut out);
            assert_eq!(out, want_derived, "{backend} {what} derive_key");
        });
    }
}

#[test]
fn every_length_up_to_three_chunks() {
    // Every block-boundary shape at least once, several times over so lanes mix.
    let lens: Vec<usize> = (0..=3 * 1024 + 1)
        .step_by(7)
        .chain([0, 64, 1024, 2048, 3072])
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let msgs = messages(&mut rng, &lens);
    check(&msgs, "lengths 0..3073");
    // The reference agrees on a sample (the crate is the main oracle here).
    let inputs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
    let mut out = vec![Hash::from_bytes([0; 32]); inputs.len()];
    many::hash_many(&inputs, &mut out);
    for i in (0..inputs.len()).step_by(37) {
        assert_eq!(out[i], reference::hash(inputs[i]), "reference, message {i}");
    }
}

#[test]
fn random_mix_up_to_40_kib() {
    // Up to 40 chunks: across the most chunks a message may have to be batched with others
    // (twice the kernel's lanes: 8 for SSE4.1, 16 for AVX2, 32 for AVX-512).
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let lens: Vec<usize> = (0..300)
        .map(|_| match rng.gen_range(0..4) {
            0 => rng.gen_range(0..=1024),
            1 => rng.gen_range(0..=40 * 1024),
            2 => 1024 * rng.gen_range(1..=40),
            _ => 1024 * rng.gen_range(1..=40) + [1, 63, 64, 65][rng.gen_range(0..4)],
        })
        .collect();
    check(&messages(&mut rng, &lens), "random mix");
}

#[test]
fn uniform_batches() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    check(&messages(&mut rng, &[4096; 1000]), "1000 x 4 KiB");
    check(&messages(&mut rng, &[1024; 130]), "130 x 1 KiB");
    // Waves of one power of two of chunks take the uniform parents; of three, the mixed ones.
    check(&messages(&mut rng, &[2048; 40]), "40 x 2 KiB");
    check(&messages(&mut rng, &[4000; 33]), "33 x 4000 B");
    check(&messages(&mut rng, &[8192; 20]), "20 x 8 KiB");
    check(&messages(&mut rng, &[3 * 1024; 21]), "21 x 3 KiB");
    // Runs of four chunks, some beside the lanes of the other three.
    check(&messages(&mut rng, &[7 * 1024; 19]), "19 x 7 KiB");
    check(&messages(&mut rng, &[12 * 1024; 11]), "11 x 12 KiB");
    // Whole groups of lanes per message (AVX2: 8 and 16 KiB; SSE4.1: 4 KiB on; AVX-512: 16
    // KiB), hashed one message to a call, beside messages of no whole run.
    check(&messages(&mut rng, &[16 * 1024; 9]), "9 x 16 KiB");
    // Runs and a partial last chunk, no other whole chunk: the runs are hashed apart from their
    // messages' slots, and no lanes are set up (AVX2, AVX-512).
    check(&messages(&mut rng, &[4096 + 1; 26]), "26 x 4 KiB + 1 B");
    let lens: Vec<usize> = (0..24)
        .map(|i| [4096 + 1, 12 * 1024 + 1000, 8 * 1024 + 64][i % 3])
        .collect();
    check(
        &messages(&mut rng, &lens),
        "runs and a partial chunk, mixed",
    );
    let lens: Vec<usize> = (0..30)
        .map(|i| [16 * 1024, 8 * 1024, 100, 8 * 1024 + 65, 32 * 1024, 0][i % 6])
        .collect();
    check(
        &messages(&mut rng, &lens),
        "8, 16 and 32 KiB among short messages",
    );
    check(&messages(&mut rng, &[100; 70]), "70 x 100 B");
    // More last chunks of one shape in a wave than one call's lanes take (16), some of whole
    // blocks, some with a partial block.
    let lens: Vec<usize> = (0..64)
        .map(|i| [65, 128, 1000, 2048 + 100, 64, 0][i % 6])
        .collect();
    check(
        &messages(&mut rng, &lens),
        "64 short and partial, lanes in batches",
    );
    check(&messages(&mut rng, &[64 * 1024 + 1; 3]), "3 x 64 KiB + 1");
    check(&messages(&mut rng, &[0; 20]), "20 empty");
    // A window of one length (hashed without sorting) between windows of several, which share
    // its wave.
    let lens: Vec<usize> = (0..200)
        .map(|i| match i / 64 {
            1 => 4096,
            _ => [100, 4096, 5000, 2048][i % 4],
        })
        .collect();
    check(&messages(&mut rng, &lens), "mixed, 64 x 4 KiB, mixed");
    check(&messages(&mut rng, &[]), "no messages");
}

#[test]
fn extended_outputs_of_every_length_match_the_crate() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let lens: Vec<usize> = (0..40).map(|_| rng.gen_range(0..=5 * 1024)).collect();
    let msgs = messages(&mut rng, &lens);
    let inputs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
    for backend in Backend::ALL {
        with_backend(backend, || {
            for out_len in [0, 1, 31, 32, 33, 64, 65, 200, 1025] {
                let mut out = vec![0u8; inputs.len() * out_len];
                let mut keyed = out.clone();
                let mut derived = out.clone();
                many::hash_many_xof(&inputs, out_len, &mut out);
                many::keyed_hash_many_xof(&KEY, &inputs, out_len, &mut keyed);
                many::derive_key_many_xof(CONTEXT, &inputs, out_len, &mut derived);
                for (i, input) in inputs.iter().enumerate() {
                    let run = i * out_len..(i + 1) * out_len;
                    let mut want = vec![0u8; out_len];
                    let mut reader = ::blake3::Hasher::new().update(input).finalize_xof();
                    reader.fill(&mut want);
                    assert_eq!(
                        out[run.clone()],
                        want,
                        "{backend}: {out_len} B of message {i}"
                    );
                    let mut reader = ::blake3::Hasher::new_keyed(&KEY)
                        .update(input)
                        .finalize_xof();
                    reader.fill(&mut want);
                    assert_eq!(keyed[run.clone()], want, "{backend}: keyed, message {i}");
                    let mut reader = ::blake3::Hasher::new_derive_key(CONTEXT)
                        .update(input)
                        .finalize_xof();
                    reader.fill(&mut want);
                    assert_eq!(derived[run], want, "{backend}: derive_key, message {i}");
                }
            }
        });
    }
}

#[test]
#[should_panic(expected = "outputs must hold out_len = 33 bytes for each of 2 inputs")]
fn mismatched_extended_output_length_panics() {
    let mut out = [0u8; 65];
    many::hash_many_xof(&[b"a", b"b"], 33, &mut out);
}

#[test]
#[should_panic(expected = "outputs must have one entry per input")]
fn mismatched_lengths_panic() {
    let mut out = [Hash::from_bytes([0; 32]); 1];
    many::hash_many(&[b"a", b"b"], &mut out);
}
