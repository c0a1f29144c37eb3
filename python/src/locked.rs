//! A hasher state that several Python threads may share (with or without the GIL, as on
//! free-threaded CPython): a mutex, taken with the GIL released whenever waiting or hashing may
//! take long, so that one thread's long update never stalls the others.

use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::prelude::*;

use crate::buffer::{Bytes, RELEASE_GIL_MIN};

pub struct Locked<S>(Mutex<S>);

impl<S: Send> Locked<S> {
    pub fn new(state: S) -> Self {
        Locked(Mutex::new(state))
    }

    fn lock(&self) -> MutexGuard<'_, S> {
        // A panic never leaves a hasher half-updated in a way that matters more than the panic.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the state; `long` says whether it may take long enough to release the GIL.
    pub fn with<T: Send>(
        &self,
        py: Python<'_>,
        long: bool,
        f: impl FnOnce(&mut S) -> T + Send,
    ) -> T {
        if !long {
            if let Ok(mut state) = self.0.try_lock() {
                return f(&mut state);
            }
        }
        py.detach(|| f(&mut self.lock()))
    }

    /// Feeds `data` to the state with `update`.
    pub fn update(
        &self,
        py: Python<'_>,
        data: &Bytes<'_>,
        update: impl FnOnce(&mut S, &[u8]) + Send,
    ) {
        let bytes = data.as_slice();
        self.with(py, bytes.len() >= RELEASE_GIL_MIN, |state| {
            update(state, bytes)
        });
    }
}

impl<S: Clone + Send> Locked<S> {
    pub fn snapshot(&self, py: Python<'_>) -> S {
        self.with(py, false, |state| state.clone())
    }
}
