//! Differential tests of the BLAKE2 family on every backend: random parameters of every kind,
//! lengths across block and stripe boundaries up to over 100 KiB, random update splits (empty ones
//! included) of unaligned slices, against the reference implementation and against
//! `blake2b_simd` / `blake2s_simd`. Seeded, so failures reproduce.

use crate::reference::blake2 as reference;

use arborhash::platform::{with_backend, Backend};
use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake2xb, blake2xs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{Node, Spec, B, S};

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn random_bytes(rng: &mut ChaCha8Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.gen()).collect()
}

/// A length near a multiple of `unit` (often exactly on it), or anywhere up to `max`.
fn random_length(rng: &mut ChaCha8Rng, unit: usize, max: usize) -> usize {
    match rng.gen_range(0..4) {
        0 => rng.gen_range(0..=max),
        1 => rng.gen_range(0..4 * unit),
        _ => (rng.gen_range(0..=12) * unit).saturating_add_signed(rng.gen_range(-1..=1)),
    }
}

/// Splits `input` into pieces at random points, empty pieces included.
fn random_split<'a>(rng: &mut ChaCha8Rng, mut input: &'a [u8], unit: usize) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    while !input.is_empty() {
        let n = match rng.gen_range(0..5) {
            0 => 0,
            1 => rng.gen_range(1..=8),
            2 => unit,
            3 => rng.gen_range(0..3 * unit),
            _ => rng.gen_range(0..=input.len()),
        }
        .min(input.len());
        pieces.push(&input[..n]);
        input = &input[n..];
    }
    pieces.push(&[]);
    pieces
}

/// Input of `len` bytes starting at a random misalignment.
fn unaligned_input(rng: &mut ChaCha8Rng, len: usize) -> (Vec<u8>, usize) {
    let offset = rng.gen_range(0..16);
    (random_bytes(rng, offset + len), offset)
}

/// Every sequential parameter, chosen at random within its limits.
fn random_node(rng: &mut ChaCha8Rng, spec: &Spec) -> Node {
    let nn = spec.nn();
    let key_len = if rng.gen_bool(0.5) {
        0
    } else {
        rng.gen_range(0..=nn)
    };
    let salt_len = rng.gen_range(0..=nn / 4);
    let personal_len = rng.gen_range(0..=nn / 4);
    let offset_bits = if spec.bits == 64 { 64 } else { 48 };
    let default = rng.gen_bool(0.3);
    let key = random_bytes(rng, key_len);
    Node {
        digest_length: rng.gen_range(1..=nn),
        salt: random_bytes(rng, salt_len),
        personal: random_bytes(rng, personal_len),
        fanout: if default { 1 } else { rng.gen() },
        depth: if default { 1 } else { rng.gen() },
        leaf_length: if default { 0 } else { rng.gen() },
        node_offset: if default {
            0
        } else {
            rng.gen::<u64>() >> (64 - offset_bits)
        },
        node_depth: if default { 0 } else { rng.gen() },
        inner_length: if default {
            0
        } else {
            rng.gen_range(0..=nn as u8)
        },
        last_node: rng.gen_bool(0.3),
        ..Node::sequential(0, &key)
    }
}

/// Sets every parameter of `node` on a `Params` of this crate or of blake2b_simd / blake2s_simd
/// (same method names).
macro_rules! params {
    ($module:path, $node:expr) => {{
        use $module as m;
        let node = $node;
        let mut params = m::Params::new();
        params
            .hash_length(node.digest_length)
            .key(&node.key)
            .salt(&node.salt)
            .personal(&node.personal)
            .fanout(node.fanout)
            .max_depth(node.depth)
            .max_leaf_length(node.leaf_length)
            .node_offset(node.node_offset)
            .node_depth(node.node_depth)
            .inner_hash_length(node.inner_length as usize)
            .last_node(node.last_node);
        params
    }};
}

/// BLAKE2b or BLAKE2s: one-shot, streamed in random pieces, and the peer crate, all equal to the
/// reference.
macro_rules! sequential_test {
    ($name:ident, $ours:ident, $peer:ident, $spec:expr, $seed:literal) => {
        #[test]
        fn $name() {
            let spec = &$spec;
            let mut rng = rng($seed);
            for backend in Backend::ALL {
                with_backend(backend, || {
                    for case in 0..300 {
                        let node = random_node(&mut rng, spec);
                        // One large input per backend; the rest stay small to keep the test fast.
                        let max = if case < 3 { 100 * 1024 + 77 } else { 3000 };
                        let len = random_length(&mut rng, spec.bb(), max);
                        let (buf, offset) = unaligned_input(&mut rng, len);
                        let input = &buf[offset..];
                        let expected = reference::hash(spec, &node, input);
                        let what = format!("{backend} case {case} len {len} {node:?}");

                        let params = params!(arborhash::$ours, &node);
                        assert_eq!(params.hash(input).as_bytes(), &expected[..], "{what}");
                        let peer = params!($peer, &node);
                        assert_eq!(peer.hash(input).as_bytes(), &expected[..], "peer {what}");

                        let mut state = params.to_state();
                        let mut peer_state = peer.to_state();
                        for piece in random_split(&mut rng, input, spec.bb()) {
                            state.update(piece);
                            peer_state.update(piece);
                            assert_eq!(state.count(), peer_state.count(), "count {what}");
                        }
                        assert_eq!(state.finalize().as_bytes(), &expected[..], "split {what}");
                        assert_eq!(state.finalize(), state.finalize(), "repeat {what}");
                    }
                });
            }
        }
    };
}

sequential_test!(
    blake2b_matches_reference_and_peer,
    blake2b,
    blake2b_simd,
    B,
    1
);
sequential_test!(
    blake2s_matches_reference_and_peer,
    blake2s,
    blake2s_simd,
    S,
    2
);

/// BLAKE2bp or BLAKE2sp against the reference and the peer, one-shot and streamed.
macro_rules! parallel_test {
    ($name:ident, $ours:ident, $peer:path, $spec:expr, $leaves:literal, $seed:literal) => {
        #[test]
        fn $name() {
            use $peer as peer;
            let spec = &$spec;
            let stripe = $leaves * spec.bb();
            let mut rng = rng($seed);
            for backend in Backend::ALL {
                with_backend(backend, || {
                    for case in 0..250 {
                        let hash_length = rng.gen_range(1..=spec.nn());
                        let key_len = if rng.gen_bool(0.5) { 0 } else { rng.gen_range(0..=spec.nn()) };
                        let key = random_bytes(&mut rng, key_len);
                        let max = if case < 3 { 100 * 1024 + 77 } else { 5000 };
                        let len = match rng.gen_range(0..3) {
                            0 => random_length(&mut rng, spec.bb(), max),
                            _ => random_length(&mut rng, stripe, max),
                        };
                        let (buf, offset) = unaligned_input(&mut rng, len);
                        let input = &buf[offset..];
                        let expected = reference::parallel(spec, $leaves, hash_length, &key, input);
                        let what = format!("{backend} case {case} len {len} hash_length {hash_length} key {key_len}");

                        let mut params = $ours::Params::new();
                        params.hash_length(hash_length).key(&key);
                        assert_eq!(params.hash(input).as_bytes(), &expected[..], "{what}");
                        let peer_hash = peer::Params::new().hash_length(hash_length).key(&key).hash(input);
                        assert_eq!(peer_hash.as_bytes(), &expected[..], "peer {what}");

                        let mut state = params.to_state();
                        for piece in random_split(&mut rng, input, stripe) {
                            state.update(piece);
                        }
                        assert_eq!(state.count() as usize, len, "count {what}");
                        assert_eq!(state.finalize().as_bytes(), &expected[..], "split {what}");
                        assert_eq!(state.finalize(), state.finalize(), "repeat {what}");
                    }
                });
            }
        }
    };
}

parallel_test!(
    blake2bp_matches_reference_and_peer,
    blake2bp,
    blake2b_simd::blake2bp,
    B,
    4,
    3
);
parallel_test!(
    blake2sp_matches_reference_and_peer,
    blake2sp,
    blake2s_simd::blake2sp,
    S,
    8,
    4
);

/// BLAKE2Xb or BLAKE2Xs against the reference: declared lengths (one-shot and streamed), and the
/// unknown-length stream read in random pieces with seeks.
macro_rules! xof_test {
    ($name:ident, $ours:ident, $spec:expr, $max_declared:expr, $unknown:expr, $seed:literal) => {
        #[test]
        fn $name() {
            let spec = &$spec;
            let nn = spec.nn();
            let mut rng = rng($seed);
            for backend in Backend::ALL {
                with_backend(backend, || {
                    for case in 0..80 {
                        let key_len = if rng.gen_bool(0.5) {
                            0
                        } else {
                            rng.gen_range(0..=nn)
                        };
                        let key = random_bytes(&mut rng, key_len);
                        let salt_len = rng.gen_range(0..=nn / 4);
                        let salt = random_bytes(&mut rng, salt_len);
                        let personal_len = rng.gen_range(0..=nn / 4);
                        let personal = random_bytes(&mut rng, personal_len);
                        let len = random_length(&mut rng, spec.bb(), 2000);
                        let input = random_bytes(&mut rng, len);
                        let out_len = match case {
                            0 => $max_declared,
                            _ => random_length(&mut rng, nn, 1500).max(1),
                        };
                        let what = format!("{backend} case {case} len {len} out {out_len}");
                        let mut params = $ours::Params::new();
                        params.key(&key).salt(&salt).personal(&personal);

                        let expected = reference::xof(
                            spec,
                            out_len as u64,
                            false,
                            &key,
                            &salt,
                            &personal,
                            &input,
                            out_len,
                        );
                        let mut out = vec![0; out_len];
                        params.hash(&input, &mut out);
                        assert!(out == expected, "{what}");
                        let mut declared = params.clone();
                        let mut state = declared.output_length(out_len).to_state();
                        for piece in random_split(&mut rng, &input, spec.bb()) {
                            state.update(piece);
                        }
                        out.fill(0);
                        state.finalize(&mut out);
                        assert!(out == expected, "streamed {what}");

                        // Unknown length: full-length blocks; read in pieces, seeking back and forth.
                        let stream_len = out_len.min(3000);
                        let expected = reference::xof(
                            spec, $unknown, true, &key, &salt, &personal, &input, stream_len,
                        );
                        let mut reader = params.to_state().update(&input).finalize_xof();
                        let mut got = vec![0; stream_len];
                        let mut at = 0;
                        while at < stream_len {
                            let n = rng.gen_range(0..=stream_len - at).min(3 * nn);
                            reader.fill(&mut got[at..at + n]);
                            at += n;
                        }
                        assert!(got == expected, "unknown length {what}");
                        let seek = rng.gen_range(0..stream_len);
                        reader.set_position(seek as u64);
                        let mut tail = vec![0; stream_len - seek];
                        std::io::Read::read_exact(&mut reader, &mut tail).unwrap();
                        assert!(tail == expected[seek..], "seek {seek} {what}");
                    }
                });
            }
        }
    };
}

xof_test!(
    blake2xb_matches_reference,
    blake2xb,
    B,
    70_000,
    u32::MAX as u64,
    5
);
xof_test!(blake2xs_matches_reference, blake2xs, S, 65_535, 65_535, 6);

/// The batch API with many jobs of mixed lengths (or, in some rounds, one length) and parameters
/// equals hashing each alone, and `update_many` equals updating each state alone.
macro_rules! many_test {
    ($name:ident, $ours:ident, $spec:expr, $seed:literal) => {
        #[test]
        fn $name() {
            use arborhash::$ours::many::{hash_many, update_many, HashManyJob};
            let spec = &$spec;
            let mut rng = rng($seed);
            for backend in Backend::ALL {
                with_backend(backend, || {
                    for round in 0..16 {
                        let count = rng.gen_range(0..40);
                        // From round 12 on, the jobs share one length, so that every lane
                        // reaches its final block in the same kernel call: whole blocks (finished
                        // straight from the caller's buffer) in rounds 12 and 13.
                        let shared = match round {
                            12 | 13 => Some(rng.gen_range(1..=16) * spec.bb()),
                            14 | 15 => Some(random_length(&mut rng, spec.bb(), 2_000)),
                            _ => None,
                        };
                        let inputs: Vec<Vec<u8>> = (0..count)
                            .map(|_| {
                                let len = shared.unwrap_or_else(|| {
                                    random_length(
                                        &mut rng,
                                        spec.bb(),
                                        if round == 0 { 20_000 } else { 2_000 },
                                    )
                                });
                                random_bytes(&mut rng, len)
                            })
                            .collect();
                        let params: Vec<_> = (0..count)
                            .map(|_| params!(arborhash::$ours, &random_node(&mut rng, spec)))
                            .collect();
                        let mut jobs: Vec<_> = inputs
                            .iter()
                            .zip(&params)
                            .map(|(input, p)| HashManyJob::new(p, input))
                            .collect();
                        hash_many(jobs.iter_mut());
                        // Jobs already run are skipped.
                        hash_many(jobs.iter_mut());
                        for (i, job) in jobs.iter().enumerate() {
                            assert_eq!(
                                job.to_hash(),
                                params[i].hash(&inputs[i]),
                                "{backend} job {i} len {}",
                                inputs[i].len()
                            );
                        }

                        // update_many from states in every buffering situation.
                        let mut states: Vec<_> = params.iter().map(|p| p.to_state()).collect();
                        let mut singles = states.clone();
                        let firsts: Vec<Vec<u8>> = (0..count)
                            .map(|_| {
                                let len = random_length(&mut rng, spec.bb(), 700);
                                random_bytes(&mut rng, len)
                            })
                            .collect();
                        for (state, first) in singles.iter_mut().zip(&firsts) {
                            state.update(first);
                        }
                        update_many(states.iter_mut().zip(&firsts));
                        for (state, input) in singles.iter_mut().zip(&inputs) {
                            state.update(input);
                        }
                        update_many(states.iter_mut().zip(inputs.iter().map(|v| &v[..])));
                        for (i, (a, b)) in states.iter().zip(&singles).enumerate() {
                            assert_eq!(a.count(), b.count(), "{backend} update_many count {i}");
                            assert_eq!(a.finalize(), b.finalize(), "{backend} update_many {i}");
                        }
                    }
                });
            }
        }
    };
}

many_test!(blake2b_many_equals_single, blake2b, B, 7);
many_test!(blake2s_many_equals_single, blake2s, S, 8);

#[test]
fn finalize_is_repeatable_and_updating_continues() {
    for backend in Backend::ALL {
        with_backend(backend, || {
            let data = random_bytes(&mut rng(9), 3000);
            for key in [&b""[..], b"key"] {
                let mut b = blake2b::Params::new().key(key).to_state();
                let mut s = blake2s::Params::new().key(key).to_state();
                let mut bp = blake2bp::Params::new().key(key).to_state();
                let mut sp = blake2sp::Params::new().key(key).to_state();
                for cut in [0, 1, 64, 128, 129, 512, 1024, 3000] {
                    let (done, _) = data.split_at(cut);
                    let first = b.finalize();
                    assert_eq!(first, b.finalize());
                    assert_eq!(first, blake2b::Params::new().key(key).hash(done));
                    assert_eq!(s.finalize(), blake2s::Params::new().key(key).hash(done));
                    assert_eq!(bp.finalize(), blake2bp::Params::new().key(key).hash(done));
                    assert_eq!(sp.finalize(), blake2sp::Params::new().key(key).hash(done));
                    let next = &data[cut..[0, 1, 64, 128, 129, 512, 1024, 3000]
                        .iter()
                        .copied()
                        .find(|&c| c > cut)
                        .unwrap_or(3000)];
                    b.update(next);
                    s.update(next);
                    bp.update(next);
                    sp.update(next);
                }
            }
        });
    }
}

#[test]
fn hash_api_matches_peer() {
    let ours = blake2b::blake2b(b"abc");
    let peer = blake2b_simd::blake2b(b"abc");
    assert_eq!(ours.as_bytes(), peer.as_bytes());
    assert_eq!(ours.as_array(), peer.as_array());
    assert_eq!(ours.to_hex().as_str(), peer.to_hex().as_str());
    assert_eq!(format!("{ours:?}"), format!("{peer:?}"));
    assert!(ours == *peer.as_bytes());
    assert!(ours == peer.as_bytes());
    assert!(ours == *peer.as_array());
    assert!(ours != blake2b::blake2b(b"abd"));
    assert!(ours != peer.as_bytes()[..63]);
    let s = blake2s::blake2s(b"abc");
    assert_eq!(
        s.to_hex().as_str(),
        blake2s_simd::blake2s(b"abc").to_hex().as_str()
    );
    assert_eq!(
        blake2bp::blake2bp(b"abc").as_bytes(),
        blake2b_simd::blake2bp::blake2bp(b"abc").as_bytes()
    );
    assert_eq!(
        blake2sp::blake2sp(b"abc").as_bytes(),
        blake2s_simd::blake2sp::blake2sp(b"abc").as_bytes()
    );
    // Debug never shows the key.
    let params = blake2b::Params::new().key(b"secret key").clone();
    assert!(!format!("{params:?}").contains("115"));
    // std::io::Write.
    let mut state = blake2s::State::new();
    std::io::Write::write_all(&mut state, b"abc").unwrap();
    assert_eq!(state.finalize(), s);
    assert!(blake2b::many::degree() <= blake2b::many::MAX_DEGREE);
    assert!(blake2s::many::degree() <= blake2s::many::MAX_DEGREE);
}
