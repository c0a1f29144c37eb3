//! The RustCrypto `digest` traits (version 0.11) for [`Hasher`] and [`OutputReader`], as the
//! `blake3` crate implements them under its `traits-preview` feature: a fixed 32-byte output, an
//! extendable output, and a MAC keyed with 32 bytes. Like the crate's, these follow `digest`'s
//! changes without a semver promise.
//!
//! ```
//! use arborhash::blake3::{self, traits::digest::Digest};
//! let hash = blake3::Hasher::digest(b"abc");
//! assert_eq!(hash.as_slice(), blake3::hash(b"abc").as_bytes());
//! ```

pub use digest;

use digest::array::typenum::{U32, U64};
use digest::array::Array;

use super::hasher::Hasher;
use super::output::OutputReader;

impl digest::HashMarker for Hasher {}

impl digest::MacMarker for Hasher {}

impl digest::Update for Hasher {
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }
}

impl digest::Reset for Hasher {
    fn reset(&mut self) {
        Hasher::reset(self);
    }
}

impl digest::OutputSizeUser for Hasher {
    type OutputSize = U32;
}

impl digest::common::BlockSizeUser for Hasher {
    type BlockSize = U64;
}

impl digest::common::KeySizeUser for Hasher {
    type KeySize = U32;
}

impl digest::KeyInit for Hasher {
    fn new(key: &digest::Key<Self>) -> Hasher {
        Hasher::new_keyed(&(*key).into())
    }
}

impl digest::FixedOutput for Hasher {
    fn finalize_into(self, out: &mut Array<u8, U32>) {
        out.copy_from_slice(Hasher::finalize(&self).as_bytes());
    }
}

impl digest::FixedOutputReset for Hasher {
    fn finalize_into_reset(&mut self, out: &mut Array<u8, U32>) {
        out.copy_from_slice(Hasher::finalize(self).as_bytes());
        Hasher::reset(self);
    }
}

impl digest::ExtendableOutput for Hasher {
    type Reader = OutputReader;

    fn finalize_xof(self) -> OutputReader {
        Hasher::finalize_xof(&self)
    }
}

impl digest::ExtendableOutputReset for Hasher {
    fn finalize_xof_reset(&mut self) -> OutputReader {
        let reader = Hasher::finalize_xof(self);
        Hasher::reset(self);
        reader
    }
}

impl digest::XofReader for OutputReader {
    fn read(&mut self, buffer: &mut [u8]) {
        self.fill(buffer);
    }
}
