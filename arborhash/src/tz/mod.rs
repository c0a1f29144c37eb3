//! The Tillich-Zémor hash, byte-compatible with the Go package nspcc-dev/tzhash.
//!
//! # Not a secure hash
//!
//! Practical collision and (second) preimage attacks on Tillich-Zémor hashing are published
//! (Grassl, Ilic, Magliveras and Steinwandt, "Cryptanalysis of the Tillich-Zémor hash function",
//! 2011; Petit and Quisquater, "Preimages for the Tillich-Zémor hash function", 2010), and the hash
//! is malleable by design. Use it as a homomorphic integrity checksum, for compatibility with
//! tzhash and for splitting work, never where an adversary may choose the data.
//!
//! # Definition
//!
//! Work in GF(2^127) = GF(2)\[x\] / (x^127 + x^63 + 1) ([`Gf127`]). Bit 0 maps to the matrix
//! A = [[x, 1], [1, 0]], bit 1 to B = [[x, x+1], [1, 1]]. The hash of a message is the product of
//! the matrices of its bits, bytes in order, each byte's bits most significant first, starting from
//! the identity: no padding and no length, so the empty message hashes to the identity. The output
//! is 64 bytes: the entries c00, c01, c10, c11 in row-major order, each 16 bytes big-endian.
//!
//! Because the hash is a matrix product, `sum(a || b) == concat(&[sum(a), sum(b)])` for any split;
//! [`concat()`], [`validate`], [`subtract_right`] and [`subtract_left`] build on that, and so does
//! the multi-threaded [`sum_rayon`] (feature `rayon`). A and B have determinant 1, and so does every
//! hash; the inverse of a hash is its adjugate.
//!
//! # Parsing
//!
//! [`Hash::from_bytes`] and [`Hash::from_hex`] reject 64-byte values that no message hashes to:
//! an entry with bit 127 set (not a field element), or a matrix whose determinant is not 1. tzhash
//! accepts the latter, but subtracting such a value with the adjugate would give a wrong answer, so
//! it is rejected here.
//!
//! # Speed
//!
//! The vector backends process the input in windows of 8 bytes: tables of byte matrices (entries
//! of degree at most 8, built at compile time) are multiplied up to the window's matrix (entries of
//! degree at most 64) with carry-less multiplication, and the running hash is multiplied by it with
//! one reduction per entry and window. The SSE4.1 backend does this with PCLMULQDQ; the AVX2
//! backend with VPCLMULQDQ on two halves of the input at once (one per 128-bit lane), multiplying
//! the two results at the end. Each needs its carry-less multiply besides its backend's CPU
//! features and otherwise falls back: the AVX2 backend to the PCLMULQDQ code, either of them to the
//! portable code. Without a carry-less multiply, a window matrix costs as much as its bits, so the
//! portable backend applies the bit matrices one bit at a time; from 2 KiB on it cuts the input
//! into 64 streams and bit-slices them (one stream per bit of a word, both rows of a stream's
//! matrix side by side in a 128-bit vector), which makes the shift by x free and the XORs 128 bits
//! wide, then multiplies the 64 stream matrices (`sliced.rs`).

// The 256-bit carry-less multiply (`_mm256_clmulepi64_epi128`, feature `vpclmulqdq`) is stable
// since Rust 1.89, hence the workspace's minimum Rust version.
#[cfg(target_arch = "x86_64")]
mod avx2;
mod bitwise;
mod dispatch;
mod gf127;
mod hash;
#[cfg(test)]
mod kernel_tests;
mod kernels;
#[cfg(target_arch = "aarch64")]
mod neon;
mod portable;
mod sliced;
#[cfg(target_arch = "x86_64")]
mod sse41;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod tables;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod window;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use gf127::{Gf127, NotAFieldElement};
pub use hash::{concat, subtract_left, subtract_right, validate, Hash, ParseError, OUT_LEN};

use crate::platform::Platform;

/// The hash of `input`.
pub fn sum(input: &[u8]) -> Hash {
    let mut hasher = Hasher::new();
    hasher.update(input);
    hasher.finalize()
}

/// The hash of `input`, computed on all threads of the rayon pool for large inputs.
///
/// The input is cut into pieces, hashed in parallel, and the piece hashes are multiplied in order.
#[cfg(feature = "rayon")]
pub fn sum_rayon(input: &[u8]) -> Hash {
    let mut hasher = Hasher::new();
    hasher.update_rayon(input);
    hasher.finalize()
}

/// An incremental Tillich-Zémor hasher: the running product of the bytes seen so far.
///
/// Any split of the input into `update` calls gives the same hash.
#[derive(Clone, Debug)]
pub struct Hasher {
    state: Hash,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

impl Hasher {
    /// A hasher that has seen nothing (its hash is the identity matrix).
    pub fn new() -> Hasher {
        Hasher {
            state: Hash::IDENTITY,
        }
    }

    /// Appends `input`.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        let mut bits = self.state.to_bits();
        dispatch::mul_bytes(Platform::current(), &mut bits, input);
        self.state = Hash::from_reduced_bits(bits);
        self
    }

    /// Appends `input`, hashing large inputs on all threads of the rayon pool.
    #[cfg(feature = "rayon")]
    pub fn update_rayon(&mut self, input: &[u8]) -> &mut Self {
        /// Pieces smaller than this are not worth a task (the product of two hashes costs about
        /// as much as hashing a few hundred bytes).
        const MIN_PIECE: usize = 128 * 1024;
        fn hash_pieces(input: &[u8]) -> Hash {
            if input.len() < 2 * MIN_PIECE {
                return sum(input);
            }
            let (left, right) = input.split_at(input.len() / 2);
            let (l, r) = rayon::join(|| hash_pieces(left), || hash_pieces(right));
            l * r
        }
        let piece = hash_pieces(input);
        self.state = self.state * piece;
        self
    }

    /// The hash of everything appended so far. The hasher can go on being updated.
    pub fn finalize(&self) -> Hash {
        self.state
    }

    /// Forgets everything appended.
    pub fn reset(&mut self) -> &mut Self {
        self.state = Hash::IDENTITY;
        self
    }
}

#[cfg(feature = "std")]
impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
