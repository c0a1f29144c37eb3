//! Two pieces of work on two threads of rayon's pool where the caller asks for it (and the
//! `rayon` feature is on), else one after the other: the BLAKE3 tree's halves, and a mapped
//! file's next piece filled while this one is hashed (`mmap`).

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
