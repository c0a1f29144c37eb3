//! Two pieces of work on two threads of rayon's pool where the caller asks for it (and the
//! `rayon` feature is on), else one after the other: the BLAKE3 tree's halves, and a mapped
//! file's next piece filled while this one is hashed (`mmap`), a decoder's pieces verified while it
//! reads the next.

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

/// Jobs handed to rayon's pool from a thread that goes on with other work (which need not be
/// `Send`: reads from a caller's stream); without the `rayon` feature each runs at once.
#[cfg(feature = "rayon")]
pub(crate) struct Background<'a, 's>(&'a rayon::Scope<'s>);

#[cfg(feature = "rayon")]
impl<'s> Background<'_, 's> {
    pub fn spawn(&self, job: impl FnOnce() + Send + 's) {
        self.0.spawn(|_| job());
    }
}

/// Runs `body` on this thread, with a [`Background`] for its jobs; returns when they are done.
#[cfg(feature = "rayon")]
pub(crate) fn with_background<'s, T>(body: impl FnOnce(&Background<'_, 's>) -> T) -> T {
    rayon::in_place_scope(|scope| body(&Background(scope)))
}

#[cfg(not(feature = "rayon"))]
pub(crate) struct Background<'a, 's>(std::marker::PhantomData<&'a &'s ()>);

#[cfg(not(feature = "rayon"))]
impl<'s> Background<'_, 's> {
    pub fn spawn(&self, job: impl FnOnce() + 's) {
        job();
    }
}

#[cfg(not(feature = "rayon"))]
pub(crate) fn with_background<'s, T>(body: impl FnOnce(&Background<'_, 's>) -> T) -> T {
    body(&Background(std::marker::PhantomData))
}
