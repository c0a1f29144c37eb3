//! The BLAKE3 constants and the kernel interface every backend implements.
//!
//! # What a backend provides
//!
//! A backend is one file beside this one (`portable.rs`, `sse41.rs`, `avx2.rs`, `avx512.rs`,
//! `neon.rs`) with a unit type implementing [`Kernels`]:
//!
//! - `DEGREE`: the most lanes one `hash_many` call takes (1 where there are no vectors);
//! - `compress_in_place`: one chaining value through a chain of blocks;
//! - `hash_many`: one [`Group`] of at most `DEGREE` lanes (at most four for a 1-lane backend
//!   given one run of four chunks), each lane's chaining value to `out`;
//! - `xof_many`: consecutive extended-output blocks of one root node;
//! - optionally `hash_many_copying`: whole chunks hashed as `hash_many` hashes them and copied
//!   to destinations on the way (the x86 backends store each block as they load it; the
//!   default copies first).
//!
//! Each is an `unsafe fn`, callable once a `Platform` proves the CPU has the backend's
//! features; the SIMD ones are `#[target_feature]` functions.
//!
//! # Adding a backend
//!
//! One file per algorithm and one line in `platform::dispatch!`: the new file holds the unit
//! type and its `impl Kernels`, built from the vocabulary of its `crate::arch` module, and
//! `dispatch.rs`'s `mod backends` names it. The tree, the hasher, the batch API and the
//! extended output reach every backend through `dispatch.rs`, whose functions are the only
//! callers of the trait; `kernel_tests.rs` checks every backend against the portable one.

/// Bytes in a block.
pub(crate) const BLOCK_LEN: usize = 64;

/// Bytes in a chunk, the leaves of the tree.
pub(crate) const CHUNK_LEN: usize = 1024;

/// The initialization vector: the first 32 bits of the fractional parts of the square roots of
/// the first eight primes (the SHA-256 IV, which BLAKE2s uses too).
pub(crate) const IV: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];

// The domain flags of a compression, one bit each.
pub(crate) const CHUNK_START: u8 = 1 << 0;
pub(crate) const CHUNK_END: u8 = 1 << 1;
pub(crate) const PARENT: u8 = 1 << 2;
pub(crate) const ROOT: u8 = 1 << 3;
pub(crate) const KEYED_HASH: u8 = 1 << 4;
pub(crate) const DERIVE_KEY_CONTEXT: u8 = 1 << 5;
pub(crate) const DERIVE_KEY_MATERIAL: u8 = 1 << 6;

pub(crate) const MSG_PERMUTATION: [usize; 16] =
    [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

/// `MSG_SCHEDULE[r][i]` is the index in the original block of message word `i` in round `r`
/// (what the vector kernels index their message with).
pub(crate) const MSG_SCHEDULE: [[usize; 16]; 7] = {
    let mut schedule = [[0; 16]; 7];
    let mut i = 0;
    while i < 16 {
        schedule[0][i] = i;
        i += 1;
    }
    let mut r = 1;
    while r < 7 {
        let mut i = 0;
        while i < 16 {
            schedule[r][i] = schedule[r - 1][MSG_PERMUTATION[i]];
            i += 1;
        }
        r += 1;
    }
    schedule
};

/// The 16 little-endian message words of a block.
#[inline(always)]
pub(crate) fn block_words(block: &[u8; BLOCK_LEN]) -> [u32; 16] {
    let mut m = [0u32; 16];
    for (w, bytes) in m.iter_mut().zip(block.chunks_exact(4)) {
        *w = u32::from_le_bytes(bytes.try_into().unwrap());
    }
    m
}

/// The offsets of blocks that cover `len` bytes (more than a block) with block-sized moves: every
/// whole block but the last, then the last 64 bytes, which overlap the block before unless `len`
/// is a multiple of 64. The incremental hasher's long copies move their bytes so.
#[inline(always)]
pub(crate) fn block_starts(len: usize) -> impl Iterator<Item = usize> {
    debug_assert!(len > BLOCK_LEN);
    let last = len - BLOCK_LEN;
    (0..last).step_by(BLOCK_LEN).chain(core::iter::once(last))
}

/// One independent lane of blocks hashed by [`hash_lanes`]: a whole or partial chunk, a chunk's
/// continuation, a parent node (one block), or a single-chunk message finalised as the root.
#[derive(Clone, Copy)]
pub(crate) struct Lane<'a> {
    /// Exactly `blocks * BLOCK_LEN` bytes; a partial last block is zero-padded by the caller.
    pub input: &'a [u8],
    /// The chaining value at the start: the key words for a new chunk or a parent.
    pub cv: [u32; 8],
    /// The counter for every block (the chunk index; 0 for parents).
    pub counter: u64,
    /// Flags added to the first block (CHUNK_START for a new chunk, 0 for a continuation).
    pub flags_start: u8,
    /// Flags added to the last block (CHUNK_END, possibly ROOT).
    pub flags_end: u8,
    /// The block length of the last block, 1..=64 (0 only for an empty message's single block).
    pub last_block_len: u8,
}

/// Lanes that differ only in their input and counter, laid out one after the other: whole
/// chunks (counters `counter + i`, `step` 1) or parent nodes (one block each, counter 0, `step`
/// 0), as the tree hashes them. A backend can build every parameter vector of such a group
/// from broadcasts, rather than lane by lane from [`Lane`]s.
#[derive(Clone, Copy)]
pub(crate) struct Run<'a> {
    /// The lanes' inputs, `blocks * BLOCK_LEN` bytes each.
    pub input: &'a [u8],
    pub blocks: usize,
    /// The chaining value every lane starts from.
    pub key: &'a [u32; 8],
    /// The first lane's counter; lane `i` has `counter + step * i` (`step` is 0 or 1).
    pub counter: u64,
    pub step: u64,
    /// Flags on every block, added to the first block (CHUNK_START) and to the last
    /// (CHUNK_END).
    pub flags: u8,
    pub flags_start: u8,
    pub flags_end: u8,
}

impl<'a> Run<'a> {
    /// Lanes in the run.
    pub(crate) fn len(&self) -> usize {
        let lane_len = self.blocks * BLOCK_LEN;
        // The tree's runs are whole chunks or single blocks: a shift rather than a 64-bit
        // division, which every group's pointers, and so its first loads, would wait for.
        if lane_len.is_power_of_two() {
            self.input.len() >> lane_len.trailing_zeros()
        } else {
            self.input.len() / lane_len
        }
    }

    /// The lanes from `first` on, at most `max` of them.
    pub(crate) fn part(&self, first: usize, max: usize) -> Run<'a> {
        let lane_len = self.blocks * BLOCK_LEN;
        let end = (first + max).min(self.len());
        Run {
            input: &self.input[first * lane_len..end * lane_len],
            counter: self.counter.wrapping_add(self.step * first as u64),
            ..*self
        }
    }

    /// The run's lanes (at most 16) as [`Lane`]s, in `lanes`.
    pub(crate) fn lanes<'b>(&self, lanes: &'b mut [Lane<'a>; 16]) -> &'b [Lane<'a>] {
        let lane_len = self.blocks * BLOCK_LEN;
        let n = self.len();
        debug_assert!(n <= lanes.len());
        for (i, (lane, input)) in lanes
            .iter_mut()
            .zip(self.input.chunks_exact(lane_len))
            .enumerate()
        {
            *lane = Lane {
                input,
                cv: *self.key,
                counter: self.counter.wrapping_add(self.step * i as u64),
                flags_start: self.flags_start,
                flags_end: self.flags_end,
                last_block_len: BLOCK_LEN as u8,
            };
        }
        &lanes[..n]
    }
}

/// The lanes one [`Kernels::hash_many`] call hashes: the three shapes in which the tree, the
/// hasher and the batch API produce work. All could be written as [`Lane`]s; the other two let
/// a backend build its parameter vectors from broadcasts and address every lane from one
/// pointer a run, which is what makes the tree's full groups as fast as the `blake3` crate's.
#[derive(Clone, Copy)]
pub(crate) enum Group<'g, 'a> {
    /// Lanes with parameters of their own, each `blocks` blocks, `flags` on every block.
    Lanes {
        lanes: &'g [Lane<'a>],
        blocks: usize,
        flags: u8,
    },
    /// Consecutive lanes of one input (whole chunks or parents).
    Run(Run<'a>),
    /// Runs of four whole chunks each, anywhere in memory, with the first run's key and flags:
    /// lane `i` of run `r` is lane `4 * r + i` (the batch API's messages).
    ChunkRuns(&'g [Run<'a>]),
}

impl<'a> Group<'_, 'a> {
    /// Lanes in the group.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn len(&self) -> usize {
        match self {
            Group::Lanes { lanes, .. } => lanes.len(),
            Group::Run(run) => run.len(),
            Group::ChunkRuns(runs) => 4 * runs.len(),
        }
    }

    /// The group's lanes (at most 16) as [`Lane`]s in `scratch`, with their block count and
    /// the flags of every block: the form the portable backend hashes.
    pub(crate) fn to_lanes<'s>(self, scratch: &'s mut [Lane<'a>; 16]) -> (&'s [Lane<'a>], usize, u8)
    where
        'a: 's,
    {
        match self {
            Group::Lanes {
                lanes,
                blocks,
                flags,
            } => {
                scratch[..lanes.len()].copy_from_slice(lanes);
                (&scratch[..lanes.len()], blocks, flags)
            }
            Group::Run(run) => (run.lanes(scratch), run.blocks, run.flags),
            Group::ChunkRuns(runs) => {
                for (r, run) in runs.iter().enumerate() {
                    let mut one = [EMPTY_LANE; 16];
                    let lanes = run.lanes(&mut one);
                    scratch[4 * r..4 * r + 4].copy_from_slice(lanes);
                }
                let run0 = &runs[0];
                (&scratch[..4 * runs.len()], run0.blocks, run0.flags)
            }
        }
    }
}

/// The BLAKE3 kernels of one backend (see the module documentation).
///
/// # Safety
/// Every function may only be called on a CPU that supports the backend, which a [`Platform`]
/// for it proves ([`with_kernels!`] is where that happens).
pub(crate) trait Kernels {
    /// The most lanes one [`Kernels::hash_many`] call takes.
    const DEGREE: usize;

    /// Compresses `blocks` into `cv`, one after another, each with `block_len`, `counter` and
    /// `flags`, the first with `flags_start` too.
    unsafe fn compress_in_place(
        cv: &mut [u32; 8],
        blocks: &[[u8; BLOCK_LEN]],
        block_len: u8,
        counter: u64,
        flags: u8,
        flags_start: u8,
    );

    /// Hashes each lane of `group` (0 to `DEGREE` lanes; one run of four chunks on a 1-lane
    /// backend) into `out[i]`, which holds at least as many values; nothing past them is
    /// written. The inputs are whole lanes (checked by the driver).
    unsafe fn hash_many(group: Group<'_, '_>, out: &mut [[u8; 32]]);

    /// Hashes the whole chunks `lanes` (1 to `DEGREE`) as `hash_many` hashes them as a
    /// [`Group::Lanes`] with `flags`, and copies lane `i`'s input to `dsts[i]`. The wide
    /// backends copy each block as they load it (`simd::hash_transposed_copying`); this
    /// default copies first.
    ///
    /// # Safety
    /// As `hash_many`; besides, for `i < lanes.len()`, `dsts[i]` is valid for writing a chunk,
    /// overlaps no input and lies at the same offset from a 64-byte boundary as `dsts[0]`.
    unsafe fn hash_many_copying(
        lanes: &[Lane<'_>],
        flags: u8,
        dsts: &[*mut u8; 16],
        out: &mut [[u8; 32]],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { copy_then_hash::<Self>(lanes, flags, dsts, out) }
    }

    /// Fills `out` (whole blocks) with the root compression of `block` under `cv`, counters
    /// `counter`, `counter + 1`, ... for consecutive blocks; `flags` includes ROOT.
    unsafe fn xof_many(
        cv: &[u32; 8],
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
        out: &mut [u8],
    );
}

/// [`Kernels::hash_many_copying`] in two steps: every lane's input copied, then hashed.
///
/// # Safety
/// As [`Kernels::hash_many_copying`].
pub(crate) unsafe fn copy_then_hash<K: Kernels + ?Sized>(
    lanes: &[Lane<'_>],
    flags: u8,
    dsts: &[*mut u8; 16],
    out: &mut [[u8; 32]],
) {
    // SAFETY: the caller promises a chunk's room at each destination, apart from the inputs.
    unsafe {
        for (lane, &dst) in lanes.iter().zip(dsts) {
            core::ptr::copy_nonoverlapping(lane.input.as_ptr(), dst, CHUNK_LEN);
        }
        K::hash_many(
            Group::Lanes {
                lanes,
                blocks: CHUNK_LEN / BLOCK_LEN,
                flags,
            },
            out,
        );
    }
}

/// A placeholder to initialise lane arrays with.
pub(crate) const EMPTY_LANE: Lane<'static> = Lane {
    input: &[],
    cv: [0; 8],
    counter: 0,
    flags_start: 0,
    flags_end: 0,
    last_block_len: 0,
};
