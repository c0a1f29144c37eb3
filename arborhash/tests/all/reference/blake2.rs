//! A deliberately simple BLAKE2 written from RFC 7693 (sections 2 and 3) and blake2.pdf
//! (parameter block, tree mode, BLAKE2bp/sp) and the BLAKE2X paper: the oracle the tests compare
//! the library against. Words are held in `u64` and masked to the variant's width, so one
//! function serves BLAKE2b and BLAKE2s. Slow and allocating on purpose; no SIMD, no buffering.

// G and the BLAKE2X entry point take the spec's arguments as they are named there.
#![allow(clippy::too_many_arguments)]

/// The constants that distinguish BLAKE2b and BLAKE2s (RFC 7693 section 2.1).
pub struct Spec {
    pub bits: u32,
    pub rounds: usize,
    pub rotations: [u32; 4],
    pub iv: [u64; 8],
}

pub const B: Spec = Spec {
    bits: 64,
    rounds: 12,
    rotations: [32, 24, 16, 63],
    iv: [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ],
};

pub const S: Spec = Spec {
    bits: 32,
    rounds: 10,
    rotations: [16, 12, 8, 7],
    iv: [
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB,
        0x5BE0CD19,
    ],
};

const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

impl Spec {
    pub fn word_bytes(&self) -> usize {
        self.bits as usize / 8
    }
    /// Block bytes: 16 words.
    pub fn bb(&self) -> usize {
        16 * self.word_bytes()
    }
    /// Largest output (and key): 8 words.
    pub fn nn(&self) -> usize {
        8 * self.word_bytes()
    }
    fn mask(&self) -> u64 {
        u64::MAX >> (64 - self.bits)
    }
    fn rotr(&self, x: u64, n: u32) -> u64 {
        ((x >> n) | (x << (self.bits - n))) & self.mask()
    }
    fn add(&self, a: u64, b: u64) -> u64 {
        a.wrapping_add(b) & self.mask()
    }
    fn word(&self, bytes: &[u8]) -> u64 {
        let mut w = 0u64;
        for (i, &b) in bytes[..self.word_bytes()].iter().enumerate() {
            w |= (b as u64) << (8 * i);
        }
        w
    }

    /// RFC 7693 section 3.1, the mixing function G.
    fn g(&self, v: &mut [u64; 16], a: usize, b: usize, c: usize, d: usize, x: u64, y: u64) {
        let [r1, r2, r3, r4] = self.rotations;
        v[a] = self.add(self.add(v[a], v[b]), x);
        v[d] = self.rotr(v[d] ^ v[a], r1);
        v[c] = self.add(v[c], v[d]);
        v[b] = self.rotr(v[b] ^ v[c], r2);
        v[a] = self.add(self.add(v[a], v[b]), y);
        v[d] = self.rotr(v[d] ^ v[a], r3);
        v[c] = self.add(v[c], v[d]);
        v[b] = self.rotr(v[b] ^ v[c], r4);
    }

    /// RFC 7693 section 3.2, the compression function F, plus the f1 (last node) flag.
    fn compress(&self, h: &mut [u64; 8], block: &[u8], t: u128, last: bool, last_node: bool) {
        let m: Vec<u64> = block
            .chunks(self.word_bytes())
            .map(|c| self.word(c))
            .collect();
        let mut v = [0u64; 16];
        v[..8].copy_from_slice(h);
        v[8..].copy_from_slice(&self.iv);
        v[12] ^= (t as u64) & self.mask();
        v[13] ^= ((t >> self.bits) as u64) & self.mask();
        if last {
            v[14] ^= self.mask();
        }
        if last_node {
            v[15] ^= self.mask();
        }
        for i in 0..self.rounds {
            let s = &SIGMA[i % 10];
            self.g(&mut v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
            self.g(&mut v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
            self.g(&mut v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
            self.g(&mut v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
            self.g(&mut v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
            self.g(&mut v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
            self.g(&mut v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
            self.g(&mut v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
        }
        for i in 0..8 {
            h[i] ^= v[i] ^ v[i + 8];
        }
    }
}

/// Every field of the parameter block (blake2.pdf section 2.8), the key to absorb and the f1 flag.
#[derive(Clone, Debug)]
pub struct Node {
    pub digest_length: usize,
    /// Written to the parameter block; normally `key.len()`, but a BLAKE2bp root sets it without
    /// absorbing a key.
    pub key_length: usize,
    pub key: Vec<u8>,
    pub fanout: u8,
    pub depth: u8,
    pub leaf_length: u32,
    pub node_offset: u64,
    pub node_depth: u8,
    pub inner_length: u8,
    pub salt: Vec<u8>,
    pub personal: Vec<u8>,
    pub last_node: bool,
}

impl Node {
    /// Sequential mode with this digest length and key.
    pub fn sequential(digest_length: usize, key: &[u8]) -> Node {
        Node {
            digest_length,
            key_length: key.len(),
            key: key.to_vec(),
            fanout: 1,
            depth: 1,
            leaf_length: 0,
            node_offset: 0,
            node_depth: 0,
            inner_length: 0,
            salt: vec![],
            personal: vec![],
            last_node: false,
        }
    }

    fn param_block(&self, spec: &Spec) -> Vec<u8> {
        let wb = spec.word_bytes();
        let mut p = vec![0u8; 8 * wb];
        p[0] = self.digest_length as u8;
        p[1] = self.key_length as u8;
        p[2] = self.fanout;
        p[3] = self.depth;
        p[4..8].copy_from_slice(&self.leaf_length.to_le_bytes());
        if spec.bits == 64 {
            p[8..16].copy_from_slice(&self.node_offset.to_le_bytes());
            p[16] = self.node_depth;
            p[17] = self.inner_length;
            // bytes 18..32 reserved
        } else {
            p[8..14].copy_from_slice(&self.node_offset.to_le_bytes()[..6]);
            p[14] = self.node_depth;
            p[15] = self.inner_length;
        }
        p[4 * wb..4 * wb + self.salt.len()].copy_from_slice(&self.salt);
        p[6 * wb..6 * wb + self.personal.len()].copy_from_slice(&self.personal);
        p
    }
}

/// The whole final chaining value (8 words, little-endian), whatever the digest length.
pub fn hash_full(spec: &Spec, node: &Node, input: &[u8]) -> Vec<u8> {
    let bb = spec.bb();
    let params = node.param_block(spec);
    let mut h = [0u64; 8];
    for i in 0..8 {
        h[i] = spec.iv[i] ^ spec.word(&params[i * spec.word_bytes()..]);
    }
    // RFC 7693 section 3.3: a key is padded to a whole block and hashed as the first block.
    let mut data = Vec::new();
    if !node.key.is_empty() {
        data.extend_from_slice(&node.key);
        data.resize(bb, 0);
    }
    data.extend_from_slice(input);
    let blocks: Vec<&[u8]> = if data.is_empty() {
        vec![&[]]
    } else {
        data.chunks(bb).collect()
    };
    let mut t: u128 = 0;
    for (i, block) in blocks.iter().enumerate() {
        let mut padded = block.to_vec();
        padded.resize(bb, 0);
        t += block.len() as u128;
        let last = i + 1 == blocks.len();
        spec.compress(&mut h, &padded, t, last, last && node.last_node);
    }
    h.iter()
        .flat_map(|w| w.to_le_bytes()[..spec.word_bytes()].to_vec())
        .collect()
}

/// BLAKE2b / BLAKE2s with every parameter.
pub fn hash(spec: &Spec, node: &Node, input: &[u8]) -> Vec<u8> {
    let mut out = hash_full(spec, node, input);
    out.truncate(node.digest_length);
    out
}

/// BLAKE2bp (B, 4 leaves) / BLAKE2sp (S, 8 leaves): block `j` goes to leaf `j % leaves`; each
/// leaf absorbs the key; the root hashes the full-length leaf outputs and absorbs no key.
pub fn parallel(
    spec: &Spec,
    leaves: usize,
    digest_length: usize,
    key: &[u8],
    input: &[u8],
) -> Vec<u8> {
    let node = |node_offset: u64, node_depth: u8, last_node: bool, key: &[u8]| Node {
        fanout: leaves as u8,
        depth: 2,
        node_offset,
        node_depth,
        inner_length: spec.nn() as u8,
        last_node,
        key_length: key.len(),
        ..Node::sequential(digest_length, key)
    };
    let mut leaf_inputs = vec![Vec::new(); leaves];
    for (j, block) in input.chunks(spec.bb()).enumerate() {
        leaf_inputs[j % leaves].extend_from_slice(block);
    }
    let mut root_input = Vec::new();
    for (i, leaf_input) in leaf_inputs.iter().enumerate() {
        let leaf = node(i as u64, 0, i == leaves - 1, key);
        root_input.extend(hash_full(spec, &leaf, leaf_input));
    }
    let root = Node {
        key_length: key.len(),
        ..node(0, 1, true, &[])
    };
    hash(spec, &root, &root_input)
}

/// BLAKE2X output of `out_len` bytes. `declared` is the XOF length in the parameter block (the
/// variant's maximum for "unknown"); with `full_blocks`, every output block has full digest
/// length (the unknown-length stream) instead of the last one being shortened.
pub fn xof(
    spec: &Spec,
    declared: u64,
    full_blocks: bool,
    key: &[u8],
    salt: &[u8],
    personal: &[u8],
    input: &[u8],
    out_len: usize,
) -> Vec<u8> {
    let nn = spec.nn();
    let root = Node {
        node_offset: declared << 32,
        salt: salt.to_vec(),
        personal: personal.to_vec(),
        ..Node::sequential(nn, key)
    };
    let h0 = hash(spec, &root, input);
    let mut out = Vec::new();
    let mut i = 0u64;
    while out.len() < out_len {
        let left = out_len - out.len();
        let digest_length = if full_blocks { nn } else { left.min(nn) };
        let block = Node {
            fanout: 0,
            depth: 0,
            leaf_length: nn as u32,
            node_offset: i | declared << 32,
            inner_length: nn as u8,
            salt: salt.to_vec(),
            personal: personal.to_vec(),
            ..Node::sequential(digest_length, &[])
        };
        let bytes = hash(spec, &block, &h0);
        out.extend_from_slice(&bytes[..left.min(bytes.len())]);
        i += 1;
    }
    out
}

/// The input generator of RFC 7693 appendix E.
pub fn selftest_seq(len: usize, seed: u32) -> Vec<u8> {
    let mut a = 0xDEAD4BADu32.wrapping_mul(seed);
    let mut b = 1u32;
    (0..len)
        .map(|_| {
            let t = a.wrapping_add(b);
            a = b;
            b = t;
            (t >> 24) as u8
        })
        .collect()
}
