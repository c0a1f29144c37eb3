//! A short BLAKE3 written straight from the specification, as the test oracle: recursive tree,
//! one block at a time, no buffering, no SIMD.

const IV: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];
const PERM: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const PARENT: u32 = 4;
const ROOT: u32 = 8;
pub const KEYED_HASH: u32 = 16;
const DERIVE_KEY_CONTEXT: u32 = 32;
pub const DERIVE_KEY_MATERIAL: u32 = 64;
pub const CHUNK_LEN: usize = 1024;

fn g(v: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize, x: u32, y: u32) {
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(x);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(12);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(y);
    v[d] = (v[d] ^ v[a]).rotate_right(8);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(7);
}

/// The full 16-word compression output.
fn compress(cv: [u32; 8], block: &[u8; 64], counter: u64, len: u32, flags: u32) -> [u32; 16] {
    let mut m: [u32; 16] =
        std::array::from_fn(|i| u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().unwrap()));
    let mut v = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        IV[0],
        IV[1],
        IV[2],
        IV[3],
        counter as u32,
        (counter >> 32) as u32,
        len,
        flags,
    ];
    for r in 0..7 {
        g(&mut v, 0, 4, 8, 12, m[0], m[1]);
        g(&mut v, 1, 5, 9, 13, m[2], m[3]);
        g(&mut v, 2, 6, 10, 14, m[4], m[5]);
        g(&mut v, 3, 7, 11, 15, m[6], m[7]);
        g(&mut v, 0, 5, 10, 15, m[8], m[9]);
        g(&mut v, 1, 6, 11, 12, m[10], m[11]);
        g(&mut v, 2, 7, 8, 13, m[12], m[13]);
        g(&mut v, 3, 4, 9, 14, m[14], m[15]);
        if r < 6 {
            m = PERM.map(|i| m[i]);
        }
    }
    for i in 0..8 {
        v[i] ^= v[i + 8];
        v[i + 8] ^= cv[i];
    }
    v
}

/// A node before its final compression.
#[derive(Clone, Copy)]
struct Node {
    cv: [u32; 8],
    block: [u8; 64],
    counter: u64,
    len: u32,
    flags: u32,
}

impl Node {
    fn chaining_value(&self) -> [u32; 8] {
        compress(self.cv, &self.block, self.counter, self.len, self.flags)[..8]
            .try_into()
            .unwrap()
    }
}

fn chunk_node(chunk: &[u8], index: u64, key: [u32; 8], flags: u32) -> Node {
    let mut cv = key;
    let blocks: Vec<&[u8]> = if chunk.is_empty() {
        vec![&[][..]]
    } else {
        chunk.chunks(64).collect()
    };
    for (i, b) in blocks.iter().enumerate() {
        let mut block = [0u8; 64];
        block[..b.len()].copy_from_slice(b);
        let mut f = flags;
        if i == 0 {
            f |= CHUNK_START;
        }
        if i + 1 == blocks.len() {
            return Node {
                cv,
                block,
                counter: index,
                len: b.len() as u32,
                flags: f | CHUNK_END,
            };
        }
        cv = compress(cv, &block, index, 64, f)[..8].try_into().unwrap();
    }
    unreachable!()
}

/// The node over `input`, whose first chunk has index `first_chunk`.
fn node(input: &[u8], first_chunk: u64, key: [u32; 8], flags: u32) -> Node {
    if input.len() <= CHUNK_LEN {
        return chunk_node(input, first_chunk, key, flags);
    }
    // The left subtree: the largest power of two of chunks leaving at least one byte.
    let chunks = input.len().div_ceil(CHUNK_LEN);
    let left_chunks = 1usize << (usize::BITS - 1 - (chunks - 1).leading_zeros());
    let split = left_chunks * CHUNK_LEN;
    let l = node(&input[..split], first_chunk, key, flags).chaining_value();
    let r = node(
        &input[split..],
        first_chunk + left_chunks as u64,
        key,
        flags,
    )
    .chaining_value();
    let mut block = [0u8; 64];
    for i in 0..8 {
        block[4 * i..4 * i + 4].copy_from_slice(&l[i].to_le_bytes());
        block[32 + 4 * i..32 + 4 * i + 4].copy_from_slice(&r[i].to_le_bytes());
    }
    Node {
        cv: key,
        block,
        counter: 0,
        len: 64,
        flags: flags | PARENT,
    }
}

fn root_output(n: &Node, out: &mut [u8], start: u64) {
    let mut i = 0;
    while i < out.len() {
        let pos = start + i as u64;
        let words = compress(n.cv, &n.block, pos / 64, n.len, n.flags | ROOT);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let offset = (pos % 64) as usize;
        let take = (64 - offset).min(out.len() - i);
        out[i..i + take].copy_from_slice(&bytes[offset..offset + take]);
        i += take;
    }
}

pub fn key_words(key: &[u8; 32]) -> [u32; 8] {
    std::array::from_fn(|i| u32::from_le_bytes(key[4 * i..4 * i + 4].try_into().unwrap()))
}

/// Extended output of `input` under `key` and mode `flags`, from byte `start`.
pub fn xof(input: &[u8], key: [u32; 8], flags: u32, start: u64, out: &mut [u8]) {
    root_output(&node(input, 0, key, flags), out, start)
}

/// The chaining value of the subtree over `input` starting at chunk `first_chunk`.
pub fn subtree_cv(input: &[u8], first_chunk: u64, key: [u32; 8], flags: u32) -> [u8; 32] {
    let cv = node(input, first_chunk, key, flags).chaining_value();
    let mut out = [0u8; 32];
    for i in 0..8 {
        out[4 * i..4 * i + 4].copy_from_slice(&cv[i].to_le_bytes());
    }
    out
}

pub fn hash(input: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    xof(input, IV, 0, 0, &mut out);
    out
}

pub fn keyed_hash(key: &[u8; 32], input: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    xof(input, key_words(key), KEYED_HASH, 0, &mut out);
    out
}

pub fn context_key(context: &str) -> [u8; 32] {
    context_key_bytes(context.as_bytes())
}

/// The context key of a context given as bytes (the official C API takes any bytes).
pub fn context_key_bytes(context: &[u8]) -> [u8; 32] {
    let mut key = [0u8; 32];
    xof(context, IV, DERIVE_KEY_CONTEXT, 0, &mut key);
    key
}

pub fn derive_key(context: &str, material: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    xof(
        material,
        key_words(&context_key(context)),
        DERIVE_KEY_MATERIAL,
        0,
        &mut out,
    );
    out
}

pub const IV_WORDS: [u32; 8] = IV;
