//! Each program in `programs/` is written for a peer crate. It is compiled twice: in `peer`,
//! where its crate names are the peer's, and in `ours`, where the imports a switching user
//! changes (`use arborhash::blake3;`, `use arborhash::blake2b as blake2b_simd;`, ...) give the
//! names to arborhash. Both must build and print the same.

macro_rules! compiled_twice {
    ($program:ident, $file:literal, peer: { $($peer:item)* }, ours: { $($ours:item)* }) => {
        mod $program {
            pub mod peer {
                $($peer)*
                include!($file);
            }
            pub mod ours {
                $($ours)*
                include!($file);
            }
        }
    };
}

compiled_twice!(blake3_program, "../programs/blake3.rs",
    peer: { use peer_blake3 as blake3; },
    ours: { use arborhash::blake3; });
// BLAKE2b and BLAKE2s share one program: only their names and sizes differ.
compiled_twice!(blake2b_program, "../programs/blake2_simd.rs",
peer: {
    use peer_blake2b_simd as blake2_simd;
    use peer_blake2b_simd::{blake2b as blake2, blake2bp as blake2p, blake2bp::blake2bp as blake2p_hash};
},
ours: {
    use arborhash::blake2b as blake2_simd;
    use arborhash::blake2b::{blake2b as blake2, blake2bp as blake2p, blake2bp::blake2bp as blake2p_hash};
});
compiled_twice!(blake2s_program, "../programs/blake2_simd.rs",
peer: {
    use peer_blake2s_simd as blake2_simd;
    use peer_blake2s_simd::{blake2s as blake2, blake2sp as blake2p, blake2sp::blake2sp as blake2p_hash};
},
ours: {
    use arborhash::blake2s as blake2_simd;
    use arborhash::blake2s::{blake2s as blake2, blake2sp as blake2p, blake2sp::blake2sp as blake2p_hash};
});

/// Compares two transcripts line by line, naming the first line that differs.
fn assert_same(peer: String, ours: String) {
    for (i, (p, o)) in peer.lines().zip(ours.lines()).enumerate() {
        assert_eq!(p, o, "line {} differs (peer, ours)", i + 1);
    }
    assert_eq!(
        peer.lines().count(),
        ours.lines().count(),
        "transcript lengths"
    );
    assert!(
        peer.lines().count() > 10,
        "the program printed little:\n{peer}"
    );
}

#[test]
fn blake3_program_prints_the_same() {
    assert_same(blake3_program::peer::run(), blake3_program::ours::run());
}

#[test]
fn blake2b_simd_program_prints_the_same() {
    assert_same(blake2b_program::peer::run(), blake2b_program::ours::run());
}

#[test]
fn blake2s_simd_program_prints_the_same() {
    assert_same(blake2s_program::peer::run(), blake2s_program::ours::run());
}
