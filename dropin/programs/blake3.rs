// A program written for the `blake3` crate 1.8 with its features `std`, `rayon`, `mmap`,
// `serde`, `zeroize` and `traits-preview`. It prints what it computes; `run` returns the lines.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io::{Read, Seek, SeekFrom, Write};

use arborhash_dropin::{input, panics};
use blake3::hazmat::{
    hash_derive_key_context, left_subtree_len, max_subtree_len, merge_subtrees_non_root,
    merge_subtrees_root, merge_subtrees_root_xof, ChainingValue, ContextKey, HasherExt, Mode,
};
use blake3::traits::digest;
use blake3::{Hash, Hasher, HexError, OutputReader};
use zeroize::Zeroize;

/// Lengths around the block, chunk and buffer boundaries.
const LENGTHS: [usize; 12] = [
    0, 1, 63, 64, 65, 1023, 1024, 1025, 4096, 16385, 65536, 300_000,
];
const KEY: &[u8; blake3::KEY_LEN] = b"whats the Elvish word for friend";
const CONTEXT: &str = "arborhash dropin 2026-11-26 program test context";

pub fn run() -> String {
    let mut out = String::new();
    writeln!(
        out,
        "constants {} {} {} {}",
        blake3::OUT_LEN,
        blake3::KEY_LEN,
        blake3::BLOCK_LEN,
        blake3::CHUNK_LEN
    )
    .unwrap();
    one_shot_and_incremental(&mut out);
    extended_output(&mut out);
    io_traits(&mut out);
    hash_type(&mut out);
    hex_type(&mut out);
    subtrees(&mut out);
    subtree_panics(&mut out);
    serde_form(&mut out);
    zeroizing(&mut out);
    digest_traits(&mut out);
    out
}

fn one_shot_and_incremental(out: &mut String) {
    for len in LENGTHS {
        let data = input(len);
        let hash = blake3::hash(&data);
        let keyed = blake3::keyed_hash(KEY, &data);
        let derived: [u8; 32] = blake3::derive_key(CONTEXT, &data);
        writeln!(out, "{len} hash {hash}").unwrap();
        writeln!(out, "{len} keyed {}", keyed.to_hex()).unwrap();
        writeln!(out, "{len} derived {}", Hash::from(derived)).unwrap();
        // Incremental, in pieces of 1, 64 and 1000 bytes.
        for piece in [1, 64, 1000] {
            let mut hasher = Hasher::new();
            let mut keyed_hasher = Hasher::new_keyed(KEY);
            let mut derive_hasher = Hasher::new_derive_key(CONTEXT);
            for part in data.chunks(piece) {
                hasher.update(part);
                keyed_hasher.update(part);
                derive_hasher.update(part);
            }
            writeln!(
                out,
                "{len} pieces of {piece}: {} {} {} count {}",
                hasher.finalize() == hash,
                keyed_hasher.finalize() == keyed,
                derive_hasher.finalize() == derived,
                hasher.count()
            )
            .unwrap();
        }
        let mut hasher = Hasher::default();
        hasher.update_rayon(&data);
        writeln!(out, "{len} rayon {}", hasher.finalize() == hash).unwrap();
        hasher.reset();
        hasher.update(&data).update(b"more");
        writeln!(out, "{len} reset, chained {}", hasher.finalize()).unwrap();
    }
}

fn extended_output(out: &mut String) {
    let mut hasher = Hasher::new();
    hasher.update(&input(5000));
    let mut reader: OutputReader = hasher.finalize_xof();
    let mut long = [0u8; 1000];
    reader.fill(&mut long);
    writeln!(out, "xof position {}", reader.position()).unwrap();
    writeln!(out, "xof prefix {}", hasher.finalize() == long[..32]).unwrap();
    reader.set_position(130);
    let mut part = [0u8; 70];
    reader.fill(&mut part);
    writeln!(
        out,
        "xof seek {} {}",
        part == long[130..200],
        reader.position()
    )
    .unwrap();
    writeln!(out, "xof tail {:?}", &long[990..]).unwrap();
    writeln!(out, "xof {:?}", reader).unwrap();
}

fn io_traits(out: &mut String) {
    let data = input(100_000);
    let want = blake3::hash(&data);
    let mut hasher = Hasher::new();
    hasher.write_all(&data).unwrap();
    hasher.flush().unwrap();
    writeln!(out, "io::Write {}", hasher.finalize() == want).unwrap();
    let mut hasher = Hasher::new();
    std::io::copy(&mut &data[..], &mut hasher).unwrap();
    writeln!(out, "io::copy {}", hasher.finalize() == want).unwrap();
    let mut hasher = Hasher::new();
    let hasher = hasher.update_reader(std::io::Cursor::new(&data)).unwrap();
    writeln!(out, "update_reader {}", hasher.finalize() == want).unwrap();

    let path = std::env::temp_dir().join(format!("dropin-blake3-{}", std::process::id()));
    std::fs::write(&path, &data).unwrap();
    let mmap = Hasher::new().update_mmap(&path).unwrap().finalize();
    let mmap_rayon = Hasher::new().update_mmap_rayon(&path).unwrap().finalize();
    std::fs::remove_file(&path).unwrap();
    writeln!(out, "update_mmap {} {}", mmap == want, mmap_rayon == want).unwrap();
    let missing = Hasher::new().update_mmap(&path).map(|_| ()).unwrap_err();
    writeln!(out, "update_mmap missing {:?}", missing.kind()).unwrap();

    let mut reader = Hasher::new().finalize_xof();
    let mut first = [0u8; 100];
    reader.read_exact(&mut first).unwrap();
    let at = reader.seek(SeekFrom::Current(-40)).unwrap();
    let mut again = [0u8; 40];
    reader.read_exact(&mut again).unwrap();
    writeln!(out, "Read+Seek {at} {}", again == first[60..]).unwrap();
    writeln!(
        out,
        "seek from end {:?}",
        reader.seek(SeekFrom::End(0)).unwrap_err().kind()
    )
    .unwrap();
    writeln!(
        out,
        "seek before start {:?}",
        reader.seek(SeekFrom::Current(-1000)).unwrap_err().kind()
    )
    .unwrap();
}

fn hash_type(out: &mut String) {
    let hash = blake3::hash(b"foobarbaz");
    let bytes: [u8; 32] = hash.into();
    let array: &[u8; 32] = hash.as_bytes();
    writeln!(out, "Hash Display {hash} Debug {hash:?}").unwrap();
    writeln!(out, "Hash bytes {:?} {}", bytes, array == &bytes).unwrap();
    writeln!(out, "Hash from_bytes {}", Hash::from_bytes(bytes) == hash).unwrap();
    writeln!(out, "Hash as_slice {}", hash.as_slice() == &bytes[..]).unwrap();
    writeln!(
        out,
        "Hash from_slice {:?}",
        Hash::from_slice(&bytes).map(|h| h == hash)
    )
    .unwrap();
    writeln!(
        out,
        "Hash from_slice short {}",
        Hash::from_slice(&bytes[1..]).is_err()
    )
    .unwrap();
    writeln!(
        out,
        "Hash == [u8; 32] {} == [u8] {}",
        hash == bytes,
        hash == bytes[..]
    )
    .unwrap();
    let hex = hash.to_hex();
    let parsed: Hash = hex.parse().unwrap();
    writeln!(
        out,
        "Hash parse {} from_hex {}",
        parsed == hash,
        Hash::from_hex(hex.as_bytes()).unwrap() == hash
    )
    .unwrap();
    writeln!(
        out,
        "Hash upper {}",
        Hash::from_hex(hex.to_uppercase()).unwrap() == hash
    )
    .unwrap();
    let mut set = std::collections::HashSet::new();
    set.insert(hash);
    writeln!(
        out,
        "Hash in a set {}",
        set.contains(&blake3::hash(b"foobarbaz"))
    )
    .unwrap();
    for bad in ["", "abc", &"g".repeat(64), &format!("{}é", &hex[..62])] {
        let error: HexError = Hash::from_hex(bad).unwrap_err();
        let as_dyn: &dyn std::error::Error = &error;
        writeln!(out, "HexError {error} / {as_dyn}").unwrap();
        writeln!(out, "FromStr error {}", bad.parse::<Hash>().unwrap_err()).unwrap();
    }
}

fn hex_type(out: &mut String) {
    let hash = blake3::hash(b"abc");
    let hex = hash.to_hex();
    let expected = "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85";
    // Both ways, with `str` and `&str`, as users write them.
    assert_eq!(expected, &hash.to_hex());
    assert_eq!(&hash.to_hex(), expected);
    assert_eq!(hash.to_hex(), *expected);
    assert_eq!(*expected, hash.to_hex());
    assert!(*expected == hash.to_hex() && hash.to_hex() == *expected);
    writeln!(out, "hex {hex} len {} as_str {}", hex.len(), hex.as_str()).unwrap();
    // Deref to str, AsRef<str>, Borrow<str>, Ord, Hash, Display.
    fn takes_str(s: &str) -> usize {
        s.len()
    }
    fn as_ref_str(s: impl AsRef<str>) -> String {
        s.as_ref().to_uppercase()
    }
    writeln!(
        out,
        "hex deref {} {} {}",
        takes_str(&hex),
        &hex[..8],
        hex.starts_with("6437")
    )
    .unwrap();
    writeln!(out, "hex as_ref {}", as_ref_str(hex)).unwrap();
    let mut by_hex = HashMap::new();
    by_hex.insert(hash.to_hex(), "abc");
    writeln!(out, "hex Borrow<str> lookup {:?}", by_hex.get(expected)).unwrap();
    let sorted: BTreeSet<_> = [b"b", b"a", b"c"]
        .iter()
        .map(|m| blake3::hash(*m).to_hex())
        .collect();
    let firsts: Vec<&str> = sorted.iter().map(|h| &h[..4]).collect();
    writeln!(out, "hex Ord {firsts:?} {}", sorted.contains(expected)).unwrap();
    let string: String = hex.to_string();
    writeln!(out, "hex Display {hex} to_string {}", string == expected).unwrap();
    writeln!(out, "hex Debug {hex:?}").unwrap();
    let copy = hex;
    writeln!(out, "hex Copy, Eq {}", copy == hex).unwrap();
}

fn hasher_for(mode: Mode<'_>) -> Hasher {
    match mode {
        Mode::Hash => Hasher::new(),
        Mode::KeyedHash(key) => Hasher::new_keyed(key),
        Mode::DeriveKeyMaterial(context_key) => Hasher::new_from_context_key(context_key),
    }
}

/// The chaining value of `data`, a valid subtree at `offset`, split in half again while long.
fn subtree(mode: Mode<'_>, offset: u64, data: &[u8]) -> ChainingValue {
    if data.len() <= 4 * blake3::CHUNK_LEN {
        return hasher_for(mode)
            .set_input_offset(offset)
            .update(data)
            .finalize_non_root();
    }
    let split = left_subtree_len(data.len() as u64);
    let left = subtree(mode, offset, &data[..split as usize]);
    let right = subtree(mode, offset + split, &data[split as usize..]);
    merge_subtrees_non_root(&left, &right, mode)
}

fn subtrees(out: &mut String) {
    let context_key: ContextKey = hash_derive_key_context(CONTEXT);
    writeln!(out, "context key {:?}", context_key).unwrap();
    for len in LENGTHS.into_iter().filter(|&len| len > blake3::CHUNK_LEN) {
        let data = input(len);
        for mode in [
            Mode::Hash,
            Mode::KeyedHash(KEY),
            Mode::DeriveKeyMaterial(&context_key),
        ] {
            let split = left_subtree_len(len as u64);
            let left = subtree(mode, 0, &data[..split as usize]);
            let right = subtree(mode, split, &data[split as usize..]);
            let root = merge_subtrees_root(&left, &right, mode);
            let mut xof = [0u8; 80];
            merge_subtrees_root_xof(&left, &right, mode).fill(&mut xof);
            writeln!(
                out,
                "{len} {mode:?} split {split} root {root} xof {}",
                Hash::from_slice(&xof[..32]).unwrap() == root
            )
            .unwrap();
        }
        writeln!(
            out,
            "{len} derived {:?}",
            blake3::derive_key(CONTEXT, &data)
        )
        .unwrap();
    }
    for offset in [1024u64, 2048, 3072, 4096, 6144, 1 << 20, 1 << 40] {
        writeln!(
            out,
            "max_subtree_len {offset} {:?}",
            max_subtree_len(offset)
        )
        .unwrap();
    }
    writeln!(out, "max_subtree_len 0 {:?}", max_subtree_len(0)).unwrap();
    for len in [1025u64, 2048, 2049, 4096, 4097, 1 << 30] {
        writeln!(out, "left_subtree_len {len} {}", left_subtree_len(len)).unwrap();
    }
    // A subtree filled exactly, in small writes.
    let mut hasher = Hasher::new();
    hasher.set_input_offset(2048);
    for part in input(2048).chunks(100) {
        hasher.update(part);
    }
    writeln!(out, "filled subtree {:?}", hasher.finalize_non_root()).unwrap();
}

fn subtree_panics(out: &mut String) {
    let panicked = panics(|| {
        let _ = Hasher::new().finalize_non_root();
    });
    writeln!(out, "empty subtree panics {panicked}").unwrap();
    let panicked = panics(|| {
        let _ = Hasher::new().set_input_offset(1);
    });
    writeln!(out, "unaligned offset panics {panicked}").unwrap();
    let panicked = panics(|| {
        let _ = Hasher::new().update(b"x").set_input_offset(0);
    });
    writeln!(out, "offset after input panics {panicked}").unwrap();
    let panicked = panics(|| {
        let _ = Hasher::new().set_input_offset(1024).update(&[0; 1025]);
    });
    writeln!(out, "overgrown subtree panics {panicked}").unwrap();
    let panicked = panics(|| {
        let mut hasher = Hasher::new();
        hasher.set_input_offset(1024);
        for _ in 0..17 {
            hasher.update(&[0; 64]);
        }
    });
    writeln!(out, "overgrown in small writes panics {panicked}").unwrap();
    let panicked = panics(|| {
        let _ = Hasher::new().set_input_offset(1024).update(b"x").finalize();
    });
    writeln!(out, "finalize of a subtree panics {panicked}").unwrap();
    let panicked = panics(|| {
        let _ = Hasher::new().set_input_offset(1024).finalize_xof();
    });
    writeln!(out, "finalize_xof of a subtree panics {panicked}").unwrap();
    let panicked = panics(|| {
        let _ = max_subtree_len(1000);
    });
    writeln!(out, "max_subtree_len unaligned panics {panicked}").unwrap();
    // Offset 0 is a whole input: no limit, and finalize works.
    let mut hasher = Hasher::new();
    hasher.set_input_offset(0).update(&input(5000));
    writeln!(
        out,
        "offset 0 {}",
        hasher.finalize() == blake3::hash(&input(5000))
    )
    .unwrap();
}

fn serde_form(out: &mut String) {
    let hash = blake3::hash(b"serde");
    let json = serde_json::to_string(&hash).unwrap();
    let back: Hash = serde_json::from_str(&json).unwrap();
    writeln!(out, "serde json {json} {}", back == hash).unwrap();
    let value = serde_json::to_value(hash).unwrap();
    writeln!(out, "serde value {}", value.as_array().map_or(0, Vec::len)).unwrap();
    writeln!(
        out,
        "serde short {}",
        serde_json::from_str::<Hash>("[1,2,3]").is_err()
    )
    .unwrap();
}

fn zeroizing(out: &mut String) {
    let mut hash = blake3::hash(b"secret");
    hash.zeroize();
    writeln!(out, "zeroized hash {hash}").unwrap();
    let mut hasher = Hasher::new_keyed(KEY);
    hasher.update(&input(20_000));
    hasher.zeroize();
    writeln!(out, "zeroized hasher count {}", hasher.count()).unwrap();
    let mut reader = Hasher::new_keyed(KEY).finalize_xof();
    reader.set_position(1000);
    reader.zeroize();
    writeln!(out, "zeroized reader position {}", reader.position()).unwrap();
}

fn digest_traits(out: &mut String) {
    use digest::{Digest, ExtendableOutput, FixedOutputReset, KeyInit, Mac, XofReader};
    let data = input(3000);
    let fixed = <Hasher as Digest>::digest(&data);
    writeln!(out, "Digest {}", Hash::from_slice(&fixed).unwrap()).unwrap();
    let mut hasher: Hasher = Digest::new();
    Digest::update(&mut hasher, b"xxx");
    Digest::reset(&mut hasher);
    Digest::update(&mut hasher, &data);
    let mut xof = [0u8; 100];
    XofReader::read(
        &mut ExtendableOutput::finalize_xof(hasher.clone()),
        &mut xof,
    );
    writeln!(out, "XofReader {:?}", &xof[90..]).unwrap();
    let first = hasher.finalize_fixed_reset();
    Digest::update(&mut hasher, &data);
    writeln!(
        out,
        "FixedOutputReset {}",
        first == hasher.finalize_fixed_reset()
    )
    .unwrap();
    let mut mac = <Hasher as KeyInit>::new(&(*KEY).into());
    Mac::update(&mut mac, &data);
    let tag = Mac::finalize(mac).into_bytes();
    writeln!(out, "Mac {}", blake3::keyed_hash(KEY, &data) == tag[..]).unwrap();
    let mut mac = <Hasher as KeyInit>::new(&(*KEY).into());
    Mac::update(&mut mac, &data);
    writeln!(out, "Mac verify {}", mac.verify_slice(&tag).is_ok()).unwrap();
}
