//! Tillich-Zémor: published vectors on every backend, a bit-by-bit oracle, the algebra.

use arborhash::platform::{with_backend, Backend};
use arborhash::tz::{self, Gf127, Hash, ParseError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::path::PathBuf;

/// The definition, bit by bit, on plain integers: the oracle for everything else.
mod reference {
    const MODULUS_LOW: u128 = (1 << 63) | 1; // x^127 = x^63 + 1

    fn mul_x(a: u128) -> u128 {
        let shifted = a << 1;
        if shifted >> 127 == 1 {
            (shifted ^ (1 << 127)) ^ MODULUS_LOW
        } else {
            shifted
        }
    }

    /// Row-major entries of the hash of `input`.
    pub fn hash(input: &[u8]) -> [u128; 4] {
        let mut m = [1, 0, 0, 1];
        for byte in input {
            for bit in (0..8).rev() {
                for row in [0, 2] {
                    let (u, v) = (m[row], m[row + 1]);
                    let ux_v = mul_x(u) ^ v;
                    // A = [[x, 1], [1, 0]], B = [[x, x+1], [1, 1]].
                    m[row] = ux_v;
                    m[row + 1] = if (byte >> bit) & 1 == 1 { ux_v ^ u } else { u };
                }
            }
        }
        m
    }

    /// Field product, shift and add.
    pub fn mul(a: u128, b: u128) -> u128 {
        let (mut acc, mut a) = (0, a);
        for i in 0..127 {
            if (b >> i) & 1 == 1 {
                acc ^= a;
            }
            a = mul_x(a);
        }
        acc
    }

    pub fn bytes(m: [u128; 4]) -> Vec<u8> {
        m.iter().flat_map(|e| e.to_be_bytes()).collect()
    }
}

fn vectors() -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testvectors/tz.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the Tillich-Zémor vectors, {}: {e}", path.display()));
    serde_json::from_str(&text).expect("tz.json parses")
}

fn mod251(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn published_vectors_on_every_backend() {
    let v = vectors();
    for b in Backend::ALL {
        with_backend(b, || {
            for case in v["cases"].as_array().unwrap() {
                let input = match case["input"].as_str() {
                    Some(h) => hex(h),
                    None => mod251(case["input_len"].as_u64().unwrap() as usize),
                };
                let want = case["hash"].as_str().unwrap();
                assert_eq!(
                    tz::sum(&input).to_hex().as_str(),
                    want,
                    "{b} len {}",
                    input.len()
                );
            }
        })
    }
}

#[test]
fn published_concat_vectors() {
    let v = vectors();
    for case in v["concat"].as_array().unwrap() {
        let parts: Vec<Hash> = case["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().parse().unwrap())
            .collect();
        let whole: Hash = case["hash"].as_str().unwrap().parse().unwrap();
        assert_eq!(tz::concat(&parts), whole);
        assert!(tz::validate(&whole, &parts));
    }
}

fn random_bytes(rng: &mut ChaCha8Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.gen()).collect()
}

fn random_element(rng: &mut ChaCha8Rng) -> Gf127 {
    Gf127::new(rng.gen::<u128>() >> 1).unwrap()
}

#[test]
fn every_backend_matches_the_reference_on_random_inputs_and_splits() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut lengths: Vec<usize> = (0..80).collect();
    lengths.extend([255, 256, 257, 263, 511, 512, 513, 1000, 4099, 20_000]);
    lengths.extend((0..10).map(|_| rng.gen_range(0..10_000)));
    for len in lengths {
        let input = random_bytes(&mut rng, len);
        let want = reference::bytes(reference::hash(&input));
        for b in Backend::ALL {
            with_backend(b, || {
                assert_eq!(tz::sum(&input).as_bytes().to_vec(), want, "{b} len {len}");
                let mut hasher = tz::Hasher::new();
                let mut rest = &input[..];
                while !rest.is_empty() {
                    let n = rng.gen_range(0..=rest.len().min(700));
                    hasher.update(&rest[..n]);
                    rest = &rest[n..];
                }
                assert_eq!(
                    hasher.finalize().as_bytes().to_vec(),
                    want,
                    "{b} len {len} split"
                );
            });
        }
    }
}

/// The portable backend slices inputs from 2 KiB into 64 streams of a multiple of 8 bytes (a
/// block shorter when that is a multiple of 1 KiB): every length around the threshold and around
/// the shortened streams, lengths around multiples of the stream block, with tails, uniform
/// bytes, and updates that start from a state other than the identity, against the bit-by-bit
/// reference.
#[test]
fn portable_streams_match_the_reference_on_random_inputs_and_splits() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    // The threshold (64 streams of 32 bytes), one stream block above it, and 64 streams of
    // 1 KiB (shortened by a block), every length from 16 below to 16 above.
    for boundary in [2048, 2048 + 512, 65536] {
        for len in boundary - 16..=boundary + 16 {
            inputs.push(random_bytes(&mut rng, len));
        }
    }
    for len in [
        1535,
        1536,
        3071,
        3072,
        4095,
        4096,
        4097,
        4096 + 511,
        8192 + 7,
        64 * 1000 + 3,
    ] {
        inputs.push(random_bytes(&mut rng, len));
    }
    for _ in 0..12 {
        let len = rng.gen_range(1024..40_000);
        inputs.push(random_bytes(&mut rng, len));
    }
    inputs.push(vec![0; 5000]);
    inputs.push(vec![0xff; 5000]);
    for input in inputs {
        let len = input.len();
        let want = reference::bytes(reference::hash(&input));
        with_backend(Backend::Portable, || {
            assert_eq!(tz::sum(&input).as_bytes().to_vec(), want, "len {len}");
            // Pieces large enough to be sliced, after a prefix that leaves a non-trivial state.
            let mut hasher = tz::Hasher::new();
            let mut rest = &input[..];
            while !rest.is_empty() {
                let n = rng.gen_range(0..=rest.len().min(12_000));
                hasher.update(&rest[..n]);
                rest = &rest[n..];
            }
            assert_eq!(
                hasher.finalize().as_bytes().to_vec(),
                want,
                "len {len} split"
            );
        });
    }
}

#[test]
fn hash_of_concatenation_is_product_on_every_backend() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for b in Backend::ALL {
        with_backend(b, || {
            for _ in 0..20 {
                let len = rng.gen_range(0..3000);
                let input = random_bytes(&mut rng, len);
                let cut = rng.gen_range(0..=input.len());
                let (a, c) = input.split_at(cut);
                let (ha, hc, whole) = (tz::sum(a), tz::sum(c), tz::sum(&input));
                assert_eq!(tz::concat(&[ha, hc]), whole, "{b}");
                assert_eq!(ha * hc, whole);
                assert!(tz::validate(&whole, &[ha, hc]));
                assert!(!tz::validate(&whole, &[hc, ha]) || ha * hc == hc * ha);
                assert_eq!(tz::subtract_right(&whole, &hc), ha);
                assert_eq!(tz::subtract_left(&whole, &ha), hc);
                for h in [ha, hc, whole] {
                    assert_eq!(h.determinant(), Gf127::ONE);
                    assert_eq!(h * h.inverse(), Hash::IDENTITY);
                    assert_eq!(h.inverse() * h, Hash::IDENTITY);
                }
            }
        })
    }
}

#[test]
fn concat_of_nothing_is_the_identity() {
    assert_eq!(tz::concat(&[]), Hash::IDENTITY);
    assert_eq!(tz::sum(b""), Hash::IDENTITY);
    assert!(tz::validate(&Hash::IDENTITY, &[]));
    assert!(!tz::validate(&tz::sum(b"a"), &[]));
}

#[test]
fn writer_and_reset() {
    let mut hasher = tz::Hasher::default();
    hasher.write_all(b"hello ").unwrap();
    write!(hasher, "world").unwrap();
    hasher.flush().unwrap();
    assert_eq!(hasher.finalize(), tz::sum(b"hello world"));
    hasher.reset();
    assert_eq!(hasher.finalize(), Hash::IDENTITY);
}

#[cfg(feature = "rayon")]
#[test]
fn rayon_matches_serial() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let input = random_bytes(&mut rng, (1 << 20) + 13);
    let serial = tz::sum(&input);
    assert_eq!(tz::sum_rayon(&input), serial);
    let mut hasher = tz::Hasher::new();
    hasher.update(&input[..5]).update_rayon(&input[5..]);
    assert_eq!(hasher.finalize(), serial);
}

#[test]
fn field_axioms_on_random_elements() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..200 {
        let (a, b, c) = (
            random_element(&mut rng),
            random_element(&mut rng),
            random_element(&mut rng),
        );
        assert_eq!((a * b).to_bits(), reference::mul(a.to_bits(), b.to_bits()));
        assert_eq!(a * b, b * a);
        assert_eq!((a * b) * c, a * (b * c));
        assert_eq!(a * (b + c), a * b + a * c);
        assert_eq!(a + a, Gf127::ZERO);
        assert_eq!(a * Gf127::ONE, a);
        assert_eq!(a.mul_x(), a * Gf127::X);
        assert_eq!(Gf127::from_be_bytes(a.to_be_bytes()), Ok(a));
    }
    for _ in 0..20 {
        let a = random_element(&mut rng);
        if a != Gf127::ZERO {
            assert_eq!(a * a.inverse().unwrap(), Gf127::ONE);
        }
    }
    assert_eq!(Gf127::ZERO.inverse(), None);
    assert_eq!(Gf127::ONE.inverse(), Some(Gf127::ONE));
    // x * x^126 = x^127 = x^63 + 1.
    let x126 = Gf127::new(1 << 126).unwrap();
    assert_eq!(x126.mul_x().to_bits(), (1 << 63) | 1);
    assert_eq!(Gf127::new(1 << 127), None);
}

#[test]
fn parsing_round_trips_and_rejects_invalid_encodings() {
    let h = tz::sum(b"abc");
    assert_eq!(Hash::from_bytes(&h.as_bytes()), Ok(h));
    assert_eq!(Hash::try_from(&h.as_bytes()[..]), Ok(h));
    assert_eq!(Hash::from_hex(h.to_hex().to_uppercase()), Ok(h));
    assert_eq!(h.to_string().parse::<Hash>(), Ok(h));
    assert_eq!(format!("{h}"), h.to_hex().as_str());

    for index in 0..4 {
        let mut bytes = h.as_bytes();
        bytes[16 * index] |= 0x80;
        assert_eq!(
            Hash::from_bytes(&bytes),
            Err(ParseError::NotAFieldElement { index })
        );
    }
    let mut bytes = h.as_bytes();
    bytes[63] ^= 1; // c11 changes: the determinant is no longer 1.
    assert_eq!(Hash::from_bytes(&bytes), Err(ParseError::DeterminantNotOne));
    assert_eq!(
        Hash::from_bytes(&[0; 64]),
        Err(ParseError::DeterminantNotOne)
    );
    assert_eq!(
        Hash::from_bytes(&[0; 63]),
        Err(ParseError::InvalidLength { found: 63 })
    );
    assert!(matches!(Hash::from_hex("00"), Err(ParseError::Hex(_))));
    let mut hex = h.to_hex().to_string();
    hex.replace_range(0..1, "g");
    assert!(matches!(Hash::from_hex(&hex), Err(ParseError::Hex(_))));
    assert_eq!(
        Hash::from_entries([Gf127::ONE, Gf127::ONE, Gf127::ZERO, Gf127::ONE]).map(|h| h.entries()),
        Ok([Gf127::ONE, Gf127::ONE, Gf127::ZERO, Gf127::ONE])
    );
}
