//! Two pieces of work on two threads of rayon's pool where the caller asks for it (and the
//! `rayon` feature is on), else one after the other: the BLAKE3 tree's halves, a mapped
//! file's next piece filled while this one is hashed (`mmap`), and a Bao decoder's next piece
//! read while this one is verified.

/// Where a large input is hashed: on the calling thread, or spread over rayon's thread pool
/// (with the `rayon` feature; without it, `Pool` also stays on the calling thread).
///
/// ```
/// use arborhash::{mmap, Threads};
/// let data = vec![7u8; 100_000];
/// let mut hasher = arborhash::blake3::Hasher::new();
/// mmap::update_in_pieces(&data, Threads::Caller, |piece| {
///     hasher.update(piece);
/// });
/// assert_eq!(hasher.finalize(), arborhash::blake3::hash(&data));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// Everything on the calling thread.
    Caller,
    /// Work spread over rayon's global pool where it pays.
    Pool,
}

/// Runs `a` and `b`, on two threads with `parallel`, and returns both results.
#[cfg(feature = "rayon")]
pub(crate) fn join<A, B, RA, RB>(parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    if parallel {
        rayon::join(a, b)
    } else {
        (a(), b())
    }
}

/// Runs `a`, then `b` (no `rayon` feature), and returns both results.
#[cfg(not(feature = "rayon"))]
pub(crate) fn join<A, B, RA, RB>(_parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    (a(), b())
}

/// Runs `a` on another thread of rayon's pool, with `parallel`, while the caller runs `b`
/// (which need not be `Send`: it may hold a reader of any type), and returns both results;
/// else (or without the `rayon` feature) `a` then `b`.
#[cfg(feature = "rayon")]
pub(crate) fn beside<A, B, RA, RB>(parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB,
    RA: Send,
{
    if !parallel {
        return (a(), b());
    }
    let mut ra = None;
    let rb = rayon::in_place_scope(|scope| {
        scope.spawn(|_| ra = Some(a()));
        b()
    });
    (ra.expect("a scope ends after its spawned work"), rb)
}

/// Runs `a`, then `b` (no `rayon` feature), and returns both results.
#[cfg(all(feature = "std", not(feature = "rayon")))]
pub(crate) fn beside<A, B, RA, RB>(_parallel: bool, a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    (a(), b())
}
