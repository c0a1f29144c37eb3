//! The public modules of the BLAKE2 family (`blake2b`, `blake2s`, `blake2bp`, `blake2sp`,
//! `blake2xb`, `blake2xs`) are the generic types of this module instantiated for one variant.
//! These macros write those instantiations once: each expands, inside the public module, into
//! the constants, type aliases and free functions that make the module a drop-in for the
//! matching `blake2b_simd` / `blake2s_simd` module. They contain no logic.

/// The items of `blake2b` / `blake2s`: sizes, `Params`, `State`, `Hash`, the one-shot function,
/// the `many` batch module and a re-export of the parallel variant's module.
macro_rules! sequential_api {
    ($variant:ty, $name:literal, $hash_fn:ident, $parallel:ident, $max_degree:literal) => {
        use crate::blake2::variant::Variant as _;

        /// The largest (and default) hash length in bytes.
        pub const OUTBYTES: usize = <$variant>::OUTBYTES;
        /// The largest key length in bytes.
        pub const KEYBYTES: usize = <$variant>::OUTBYTES;
        /// The largest salt length in bytes.
        pub const SALTBYTES: usize = <$variant>::SALTBYTES;
        /// The largest personalization length in bytes.
        pub const PERSONALBYTES: usize = <$variant>::SALTBYTES;
        /// Bytes in a block.
        pub const BLOCKBYTES: usize = <$variant>::BLOCKBYTES;

        #[doc = concat!("A ", $name, " parameter builder (hash length, key, salt, personalization, tree parameters).")]
        pub type Params = crate::blake2::Params<$variant>;
        #[doc = concat!("An incremental ", $name, " hasher.")]
        pub type State = crate::blake2::State<$variant>;
        #[doc = concat!("A ", $name, " hash with constant-time equality.")]
        pub type Hash = crate::blake2::Hash<$variant>;

        #[doc = concat!("Hashes `input` with ", $name, " and default parameters (full length, no key).")]
        pub fn $hash_fn(input: &[u8]) -> Hash {
            crate::blake2::params::hash_default(input)
        }

        pub use crate::$parallel;

        #[doc = concat!("Hashing many independent ", $name, " inputs at once, one per SIMD lane.")]
        pub mod many {
            pub use crate::blake2::many::{hash_many, update_many};

            /// The most inputs any backend hashes at once.
            pub const MAX_DEGREE: usize = $max_degree;

            #[doc = concat!("One ", $name, " input for [`hash_many`], and afterwards its hash.")]
            pub type HashManyJob<'a> = crate::blake2::many::HashManyJob<'a, $variant>;

            /// How many inputs the selected backend hashes at once; batches that are a multiple
            /// of it use the lanes best.
            pub fn degree() -> usize {
                use crate::blake2::dispatch::Dispatch as _;
                <$variant as crate::blake2::Variant>::Word::degree(crate::platform::Platform::current())
            }
        }
    };
}

/// The items of `blake2bp` / `blake2sp`.
macro_rules! parallel_api {
    ($variant:ty, $name:literal, $hash_fn:ident) => {
        use crate::blake2::variant::Variant as _;

        /// The largest (and default) hash length in bytes.
        pub const OUTBYTES: usize = <$variant>::OUTBYTES;
        /// The largest key length in bytes.
        pub const KEYBYTES: usize = <$variant>::OUTBYTES;

        #[doc = concat!("A ", $name, " parameter builder (hash length and key).")]
        pub type Params = crate::blake2::parallel::Params<$variant>;
        #[doc = concat!("An incremental ", $name, " hasher.")]
        pub type State = crate::blake2::parallel::State<$variant>;
        #[doc = concat!("A ", $name, " hash with constant-time equality.")]
        pub type Hash = crate::blake2::Hash<$variant>;

        #[doc = concat!("Hashes `input` with ", $name, " and default parameters (full length, no key).")]
        pub fn $hash_fn(input: &[u8]) -> Hash {
            Params::new().hash(input)
        }
    };
}

/// The items of `blake2xb` / `blake2xs`.
macro_rules! xof_api {
    ($variant:ty, $name:literal, $hash_fn:ident) => {
        use crate::blake2::variant::Variant as _;

        #[doc = concat!("The largest output length of ", $name, " that can be declared in advance.")]
        pub const MAX_OUTPUT_LENGTH: usize = <$variant>::XOF_MAX_LENGTH as usize;
        /// The largest key length in bytes.
        pub const KEYBYTES: usize = <$variant>::OUTBYTES;
        /// The largest salt length in bytes.
        pub const SALTBYTES: usize = <$variant>::SALTBYTES;
        /// The largest personalization length in bytes.
        pub const PERSONALBYTES: usize = <$variant>::SALTBYTES;

        #[doc = concat!("A ", $name, " parameter builder (key, salt, personalization, output length).")]
        pub type Params = crate::blake2::xof::Params<$variant>;
        #[doc = concat!("An incremental ", $name, " hasher.")]
        pub type State = crate::blake2::xof::State<$variant>;
        #[doc = concat!("A reader of ", $name, " output (`std::io::Read` and `Seek` with `std`).")]
        pub type OutputReader = crate::blake2::xof::OutputReader<$variant>;

        #[doc = concat!("Fills `output` with the ", $name, " hash of `input`; the output length, `output.len()`, must be 1 to [`MAX_OUTPUT_LENGTH`].")]
        pub fn $hash_fn(input: &[u8], output: &mut [u8]) {
            Params::new().hash(input, output)
        }
    };
}

pub(crate) use {parallel_api, sequential_api, xof_api};
