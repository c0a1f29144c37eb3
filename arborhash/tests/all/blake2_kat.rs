//! Published known answers for the BLAKE2 family: the BLAKE2 team's KAT file (all six variants,
//! keyed and unkeyed) and the RFC 7693 appendix E self-test, on every backend. The reference
//! implementation is checked against the same vectors.

use crate::reference::blake2 as reference;

use arborhash::platform::{with_backend, Backend};
use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake2xb, blake2xs};
use std::path::PathBuf;

struct Case {
    hash: String,
    input: Vec<u8>,
    key: Vec<u8>,
    out: Vec<u8>,
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn load_kat() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testvectors/blake2-kat.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the BLAKE2 vectors, {}: {e}", path.display()));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .map(|c| Case {
            hash: c["hash"].as_str().unwrap().to_string(),
            input: unhex(c["in"].as_str().unwrap()),
            key: unhex(c["key"].as_str().unwrap()),
            out: unhex(c["out"].as_str().unwrap()),
        })
        .collect()
}

/// What the library computes for a KAT case.
fn ours(case: &Case) -> Vec<u8> {
    let (input, key, n) = (&case.input[..], &case.key[..], case.out.len());
    match case.hash.as_str() {
        "blake2b" => blake2b::Params::new()
            .key(key)
            .hash(input)
            .as_bytes()
            .to_vec(),
        "blake2s" => blake2s::Params::new()
            .key(key)
            .hash(input)
            .as_bytes()
            .to_vec(),
        "blake2bp" => blake2bp::Params::new()
            .key(key)
            .hash(input)
            .as_bytes()
            .to_vec(),
        "blake2sp" => blake2sp::Params::new()
            .key(key)
            .hash(input)
            .as_bytes()
            .to_vec(),
        "blake2xb" => {
            let mut out = vec![0; n];
            blake2xb::Params::new().key(key).hash(input, &mut out);
            out
        }
        "blake2xs" => {
            let mut out = vec![0; n];
            blake2xs::Params::new().key(key).hash(input, &mut out);
            out
        }
        other => panic!("unknown variant {other}"),
    }
}

/// The same through the streaming states, one byte at a time for short inputs.
fn ours_streaming(case: &Case) -> Vec<u8> {
    let (input, key, n) = (&case.input[..], &case.key[..], case.out.len());
    let pieces: Vec<&[u8]> = input.chunks(7).collect();
    match case.hash.as_str() {
        "blake2b" => {
            let mut s = blake2b::Params::new().key(key).to_state();
            for p in &pieces {
                s.update(p);
            }
            s.finalize().as_bytes().to_vec()
        }
        "blake2s" => {
            let mut s = blake2s::Params::new().key(key).to_state();
            for p in &pieces {
                s.update(p);
            }
            s.finalize().as_bytes().to_vec()
        }
        "blake2bp" => {
            let mut s = blake2bp::Params::new().key(key).to_state();
            for p in &pieces {
                s.update(p);
            }
            s.finalize().as_bytes().to_vec()
        }
        "blake2sp" => {
            let mut s = blake2sp::Params::new().key(key).to_state();
            for p in &pieces {
                s.update(p);
            }
            s.finalize().as_bytes().to_vec()
        }
        "blake2xb" => {
            let mut s = blake2xb::Params::new().key(key).output_length(n).to_state();
            for p in &pieces {
                s.update(p);
            }
            let mut out = vec![0; n];
            s.finalize(&mut out);
            out
        }
        "blake2xs" => {
            let mut s = blake2xs::Params::new().key(key).output_length(n).to_state();
            for p in &pieces {
                s.update(p);
            }
            let mut out = vec![0; n];
            s.finalize(&mut out);
            out
        }
        other => panic!("unknown variant {other}"),
    }
}

fn reference(case: &Case) -> Vec<u8> {
    use reference::{hash, parallel, xof, Node, B, S};
    let (input, key, n) = (&case.input[..], &case.key[..], case.out.len());
    match case.hash.as_str() {
        "blake2b" => hash(&B, &Node::sequential(64, key), input),
        "blake2s" => hash(&S, &Node::sequential(32, key), input),
        "blake2bp" => parallel(&B, 4, 64, key, input),
        "blake2sp" => parallel(&S, 8, 32, key, input),
        "blake2xb" => xof(&B, n as u64, false, key, &[], &[], input, n),
        "blake2xs" => xof(&S, n as u64, false, key, &[], &[], input, n),
        other => panic!("unknown variant {other}"),
    }
}

#[test]
fn kat_every_variant_every_backend() {
    let cases = load_kat();
    assert_eq!(cases.len(), 6 * 512);
    for backend in Backend::ALL {
        with_backend(backend, || {
            for case in &cases {
                let keyed = if case.key.is_empty() {
                    "unkeyed"
                } else {
                    "keyed"
                };
                let what = format!(
                    "{} {keyed} input {} output {} on {backend}",
                    case.hash,
                    case.input.len(),
                    case.out.len()
                );
                assert_eq!(ours(case), case.out, "{what}");
                assert_eq!(ours_streaming(case), case.out, "streaming {what}");
            }
        });
    }
}

#[test]
fn kat_reference() {
    let cases = load_kat();
    for case in &cases {
        assert_eq!(
            reference(case),
            case.out,
            "reference {} {}",
            case.hash,
            case.input.len()
        );
    }
}

/// RFC 7693 appendix E: hashes of generated inputs, unkeyed and keyed, folded into one hash.
fn rfc_selftest(
    md_lens: [usize; 4],
    in_lens: [usize; 6],
    hash: impl Fn(usize, &[u8], &[u8]) -> Vec<u8>,
) -> Vec<u8> {
    let mut all = Vec::new();
    for outlen in md_lens {
        for inlen in in_lens {
            let input = reference::selftest_seq(inlen, inlen as u32);
            all.extend(hash(outlen, &[], &input));
            let key = reference::selftest_seq(outlen, outlen as u32);
            all.extend(hash(outlen, &key, &input));
        }
    }
    all
}

#[test]
fn rfc7693_appendix_e_selftest() {
    let b_expected = "c23a7800d98123bd10f506c61e29da5603d763b8bbad2e737f5e765a7bccd475";
    let s_expected = "6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe";
    for backend in Backend::ALL {
        with_backend(backend, || {
            let b = rfc_selftest([20, 32, 48, 64], [0, 3, 128, 129, 255, 1024], |n, k, i| {
                blake2b::Params::new()
                    .hash_length(n)
                    .key(k)
                    .hash(i)
                    .as_bytes()
                    .to_vec()
            });
            let mut state = blake2b::Params::new().hash_length(32).to_state();
            state.update(&b);
            assert_eq!(state.finalize().to_hex().as_str(), b_expected, "{backend}");

            let s = rfc_selftest([16, 20, 28, 32], [0, 3, 64, 65, 255, 1024], |n, k, i| {
                blake2s::Params::new()
                    .hash_length(n)
                    .key(k)
                    .hash(i)
                    .as_bytes()
                    .to_vec()
            });
            let hash = blake2s::Params::new().hash_length(32).hash(&s);
            assert_eq!(hash.to_hex().as_str(), s_expected, "{backend}");
        });
    }
}
