//! Hashes a buffer a given number of times with one implementation, ours or a peer crate's: the
//! subject of instruction counting under an emulator (scripts/arm-insns.sh runs it under
//! qemu-aarch64 with the counting plugin of tools/insn-count, once with the repetitions and once
//! with none, and divides the difference by the bytes hashed). A crate of its own, so that
//! arborhash is built as a dependent's default release profile builds it.
//!
//! Usage: `hash_loop <algorithm> <bytes> <repetitions>`, where the algorithm is one of
//! blake3, blake3-crate, blake2b, blake2b_simd, blake2s, blake2s_simd, blake2bp, blake2bp_simd,
//! blake2sp, blake2sp_simd, tz.
//! The backend of ours is the default one unless `ARBORHASH_BACKEND` says otherwise.

use std::hint::black_box;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [algorithm, bytes, reps] = args.as_slice() else {
        eprintln!("usage: hash_loop <algorithm> <bytes> <repetitions>");
        return ExitCode::FAILURE;
    };
    let (Ok(bytes), Ok(reps)) = (bytes.parse::<usize>(), reps.parse::<usize>()) else {
        eprintln!("hash_loop: <bytes> and <repetitions> must be whole numbers");
        return ExitCode::FAILURE;
    };
    let input: Vec<u8> = (0..bytes).map(|i| (i * 7 + 3) as u8).collect();
    let hash: fn(&[u8]) -> u8 = match algorithm.as_str() {
        "blake3" => |x| arborhash::blake3::hash(x).as_bytes()[0],
        "blake3-crate" => |x| blake3::hash(x).as_bytes()[0],
        "blake2b" => |x| arborhash::blake2b::blake2b(x).as_bytes()[0],
        "blake2b_simd" => |x| blake2b_simd::blake2b(x).as_bytes()[0],
        "blake2s" => |x| arborhash::blake2s::blake2s(x).as_bytes()[0],
        "blake2s_simd" => |x| blake2s_simd::blake2s(x).as_bytes()[0],
        "blake2bp" => |x| arborhash::blake2bp::blake2bp(x).as_bytes()[0],
        "blake2bp_simd" => |x| blake2b_simd::blake2bp::blake2bp(x).as_bytes()[0],
        "blake2sp" => |x| arborhash::blake2sp::blake2sp(x).as_bytes()[0],
        "blake2sp_simd" => |x| blake2s_simd::blake2sp::blake2sp(x).as_bytes()[0],
        "tz" => |x| arborhash::tz::sum(x).as_bytes()[0],
        other => {
            eprintln!("hash_loop: unknown algorithm {other:?}");
            return ExitCode::FAILURE;
        }
    };
    let mut acc = 0u8;
    for _ in 0..reps {
        acc ^= hash(black_box(&input));
    }
    black_box(acc);
    ExitCode::SUCCESS
}
