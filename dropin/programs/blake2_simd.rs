// A program written for the `blake2b_simd` and `blake2s_simd` crates 1.0, whose APIs differ
// only in names and sizes: the harness imports the crate as `blake2_simd`, its `blake2b` or
// `blake2s` as `blake2`, and its `blake2bp` or `blake2sp` module as `blake2p` and function as `blake2p_hash`. It prints what
// it computes; `run` returns the lines.

use std::fmt::Write as _;
use std::io::Write;

use arborhash_dropin::{input, panics};
use blake2_simd::many::{hash_many, update_many, HashManyJob};
use blake2_simd::{Hash, Params, State, KEYBYTES, OUTBYTES, PERSONALBYTES, SALTBYTES};

const LENGTHS: [usize; 10] = [0, 1, 127, 128, 129, 255, 256, 1000, 4096, 100_000];

pub fn run() -> String {
    let mut out = String::new();
    writeln!(
        out,
        "constants {} {} {} {} {}",
        blake2_simd::OUTBYTES,
        blake2_simd::KEYBYTES,
        blake2_simd::SALTBYTES,
        blake2_simd::PERSONALBYTES,
        blake2_simd::BLOCKBYTES
    )
    .unwrap();
    for len in LENGTHS {
        let data = input(len);
        let hash = blake2(&data);
        writeln!(out, "{len} sequential {}", hash.to_hex()).unwrap();
        let mut params = Params::new();
        params
            .hash_length(20)
            .key(b"a key")
            .salt(b"salty")
            .personal(b"personal")
            .fanout(2)
            .max_depth(3)
            .max_leaf_length(4096)
            .node_offset(5)
            .node_depth(1)
            .inner_hash_length(32)
            .last_node(true);
        let tuned = params.hash(&data);
        writeln!(out, "{len} all params {}", tuned.to_hex()).unwrap();
        let mut state = params.to_state();
        for part in data.chunks(77) {
            state.update(part);
        }
        writeln!(
            out,
            "{len} state {} count {}",
            state.finalize() == tuned,
            state.count()
        )
        .unwrap();
        let mut state = State::new();
        state.write_all(&data).unwrap();
        writeln!(out, "{len} io::Write {}", state.finalize() == hash).unwrap();
        state.set_last_node(true);
        writeln!(out, "{len} set_last_node {:?}", state.finalize()).unwrap();
        writeln!(out, "{len} parallel {}", blake2p_hash(&data).to_hex()).unwrap();
        let mut bp = blake2p::Params::new();
        bp.hash_length(OUTBYTES / 2 + 1).key(b"bp key");
        let mut bp_state = bp.to_state();
        bp_state.update(&data[..len / 3]).update(&data[len / 3..]);
        writeln!(
            out,
            "{len} parallel keyed {} {} count {}",
            bp.hash(&data).to_hex(),
            bp_state.finalize() == bp.hash(&data),
            bp_state.count()
        )
        .unwrap();
        let mut bp_default = blake2p::State::new();
        bp_default.update(&data);
        writeln!(
            out,
            "{len} parallel state {}",
            bp_default.finalize() == blake2p_hash(&data)
        )
        .unwrap();
    }
    hash_type(&mut out);
    many(&mut out);
    bad_params(&mut out);
    out
}

fn hash_type(out: &mut String) {
    let hash = blake2(b"abc");
    let owned = hash.to_hex().to_string();
    let expected: &str = &owned;
    assert_eq!(expected, &hash.to_hex());
    assert_eq!(&hash.to_hex(), expected);
    assert_eq!(hash.to_hex(), *expected);
    assert!(*expected == hash.to_hex() && hash.to_hex() == *expected);
    let hex = hash.to_hex();
    writeln!(
        out,
        "hex {} {} {}",
        hex.len(),
        &hex[..16],
        hex.as_str() == expected
    )
    .unwrap();
    let array: [u8; OUTBYTES] = *hash.as_array();
    writeln!(out, "From<[u8; OUTBYTES]> {}", Hash::from(array) == hash).unwrap();
    writeln!(out, "From<&[u8; OUTBYTES]> {}", Hash::from(&array) == hash).unwrap();
    let converted: Hash = array.into();
    writeln!(out, "Into {:?}", converted).unwrap();
    writeln!(
        out,
        "== [u8] {} as_ref {}",
        hash == array[..],
        hash.as_ref() == &array[..]
    )
    .unwrap();
    let short = Params::new().hash_length(16).hash(b"abc");
    writeln!(out, "short {} {:?}", short.as_bytes().len(), short).unwrap();
    writeln!(
        out,
        "short as_array panics {}",
        panics(|| *short.as_array())
    )
    .unwrap();
    writeln!(out, "short != long {}", short != hash).unwrap();
}

fn many(out: &mut String) {
    writeln!(
        out,
        "MAX_DEGREE >= degree {}",
        blake2_simd::many::MAX_DEGREE >= blake2_simd::many::degree()
    )
    .unwrap();
    let inputs: Vec<Vec<u8>> = (0..9).map(|i| input(i * 300)).collect();
    let mut params = Params::new();
    params.hash_length(24);
    let mut jobs: Vec<HashManyJob> = inputs
        .iter()
        .map(|data| HashManyJob::new(&params, data))
        .collect();
    hash_many(jobs.iter_mut());
    for (job, data) in jobs.iter().zip(&inputs) {
        writeln!(
            out,
            "hash_many {} {}",
            job.to_hash().to_hex(),
            job.to_hash() == params.hash(data)
        )
        .unwrap();
    }
    let mut states: Vec<State> = (0..9).map(|_| params.to_state()).collect();
    update_many(states.iter_mut().zip(&inputs));
    update_many(states.iter_mut().zip(&inputs));
    for (state, data) in states.iter().zip(&inputs) {
        let twice = params.to_state().update(data).update(data).finalize();
        writeln!(out, "update_many {}", state.finalize() == twice).unwrap();
    }
}

fn bad_params(out: &mut String) {
    let panicked = panics(|| {
        Params::new().hash_length(0);
    });
    writeln!(out, "hash_length 0 panics {panicked}").unwrap();
    let panicked = panics(|| {
        Params::new().hash_length(OUTBYTES + 1);
    });
    writeln!(out, "hash_length too long panics {panicked}").unwrap();
    let panicked = panics(|| {
        Params::new().key(&[0; KEYBYTES + 1]);
    });
    writeln!(out, "key too long panics {panicked}").unwrap();
    let panicked = panics(|| {
        Params::new().salt(&[0; SALTBYTES + 1]);
    });
    writeln!(out, "salt too long panics {panicked}").unwrap();
    let panicked = panics(|| {
        Params::new().personal(&[0; PERSONALBYTES + 1]);
    });
    writeln!(out, "personal too long panics {panicked}").unwrap();
    let panicked = panics(|| {
        Params::new().inner_hash_length(OUTBYTES + 1);
    });
    writeln!(out, "inner_hash_length too long panics {panicked}").unwrap();
    let panicked = panics(|| {
        blake2p::Params::new().hash_length(0);
    });
    writeln!(out, "parallel hash_length 0 panics {panicked}").unwrap();
    // Short keys, salts and personalisations are padded.
    writeln!(
        out,
        "full key {}",
        Params::new().key(&[1; KEYBYTES]).hash(b"x").to_hex()
    )
    .unwrap();
    writeln!(
        out,
        "salt 3 {}",
        Params::new().salt(&[1; 3]).hash(b"x").to_hex()
    )
    .unwrap();
}
