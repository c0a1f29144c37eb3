//! A straightforward implementation of the layout (see [`super::layout`]) to check the fast one
//! against: one node at a time, one thread, every node's input copied out.

use super::layout::{self, Layout};
use super::nodes::{Cv, NodeHash, NodeId};

/// The tree hash of `input`, level by level, one node at a time.
pub fn hash(layout: &Layout, input: &[u8]) -> Cv {
    let shape = layout.shape();
    let mut level: Vec<Cv> = layout::chunks(input, layout.chunk_size)
        .iter()
        .enumerate()
        .map(|(i, c)| layout.chunk_hash.hash(shape, NodeId::chunk(i as u64), c))
        .collect();
    let mut depth = 1u8;
    while level.len() > layout.arity {
        level = level
            .chunks(layout.arity)
            .enumerate()
            .map(|(i, group)| {
                if group.len() == 1 {
                    group[0]
                } else {
                    let id = NodeId::parent(depth, i as u64);
                    layout.parent_hash.hash(shape, id, &group.concat())
                }
            })
            .collect();
        depth += 1;
    }
    let mut root = level.concat();
    root.extend_from_slice(&(input.len() as u64).to_le_bytes());
    layout.parent_hash.hash(shape, NodeId::root(depth), &root)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Lengths around every boundary of a small layout: chunk edges, full groups, levels.
    fn lengths(chunk: usize, arity: usize) -> Vec<usize> {
        let mut out = vec![0, 1, chunk - 1, chunk, chunk + 1];
        for chunks in [arity, arity + 1, arity * arity, arity * arity + 1, 37, 300] {
            out.extend([chunks * chunk - 1, chunks * chunk, chunks * chunk + 1]);
        }
        out
    }

    #[test]
    fn fast_matches_reference_for_every_hash_pair_arity_and_length() {
        let pools = [pool(1), pool(2)];
        for chunk_hash in NodeHash::ALL {
            for parent_hash in NodeHash::ALL {
                for arity in [2, 3, 4, 8] {
                    // Small chunks make deep trees out of short inputs.
                    let layout = Layout {
                        chunk_size: 65,
                        arity,
                        chunk_hash,
                        parent_hash,
                    };
                    for len in lengths(layout.chunk_size, arity) {
                        let data = input(len);
                        let want = hash(&layout, &data);
                        for p in &pools {
                            for batched in [false, true] {
                                let got = p.install(|| layout.hash(&data, batched));
                                assert_eq!(got, want, "{layout:?} len {len} batched {batched}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn lab_sizes_match_reference_on_uneven_input() {
        for (chunk_size, arity) in [(1024, 2), (4096, 4), (65536, 8)] {
            let layout = Layout {
                chunk_size,
                arity,
                chunk_hash: NodeHash::Blake2b,
                parent_hash: NodeHash::Blake2s,
            };
            let data = input(chunk_size * 21 + 5);
            assert_eq!(
                pool(2).install(|| layout.hash(&data, true)),
                hash(&layout, &data)
            );
        }
    }

    /// The layout written out by hand from its specification for two chunks, against the
    /// reference crates directly.
    #[test]
    fn two_chunk_trees_follow_the_specification() {
        let data = input(100);
        let (a, b) = data.split_at(64);
        let len = 100u64.to_le_bytes();

        let blake2b = |depth: u8, offset: u64, root: bool, bytes: &[u8]| {
            let h = blake2b_simd::Params::new()
                .hash_length(32)
                .fanout(2)
                .max_depth(255)
                .max_leaf_length(64)
                .inner_hash_length(32)
                .node_depth(depth)
                .node_offset(offset)
                .last_node(root)
                .hash(bytes);
            h.as_bytes().to_vec()
        };
        let leaves = [blake2b(0, 0, false, a), blake2b(0, 1, false, b)].concat();
        let want = blake2b(1, 0, true, &[&leaves[..], &len].concat());
        let layout = Layout {
            chunk_size: 64,
            arity: 2,
            chunk_hash: NodeHash::Blake2b,
            parent_hash: NodeHash::Blake2b,
        };
        assert_eq!(layout.hash(&data, true).to_vec(), want);

        let b3 = |bytes: &[u8]| blake3::hash(bytes).as_bytes().to_vec();
        let want = b3(&[&b3(a)[..], &b3(b), &len].concat());
        let layout = Layout {
            chunk_hash: NodeHash::Blake3,
            parent_hash: NodeHash::Blake3,
            ..layout
        };
        assert_eq!(layout.hash(&data, true).to_vec(), want);
    }

    #[test]
    fn a_lone_last_cv_is_carried_up_unhashed() {
        // Three chunks, binary: level 1 is [parent(c0, c1), c2], and the root covers both.
        let layout = Layout {
            chunk_size: 10,
            arity: 2,
            chunk_hash: NodeHash::Blake3,
            parent_hash: NodeHash::Blake3,
        };
        let data = input(25);
        let b3 = |bytes: &[u8]| *blake3::hash(bytes).as_bytes();
        let c: Vec<Cv> = data.chunks(10).map(b3).collect();
        let p = b3(&[c[0], c[1]].concat());
        let want = b3(&[&p[..], &c[2], &25u64.to_le_bytes()].concat());
        assert_eq!(layout.hash(&data, false), want);
    }

    #[test]
    #[should_panic(expected = "arity must be 2 to 255")]
    fn arity_one_is_refused() {
        let layout = Layout {
            chunk_size: 64,
            arity: 1,
            chunk_hash: NodeHash::Blake2b,
            parent_hash: NodeHash::Blake2b,
        };
        layout.hash(b"x", false);
    }
}
