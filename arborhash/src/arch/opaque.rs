//! The x86-64 kernels' way of hiding a value from the optimiser, for the few kernels where LLVM's
//! rewrite of what it can see is slower than the code as written (each use says why).

/// `*p`, loaded afresh where it is used: LLVM can neither fold a constant behind it into other
/// instructions (as it does with byte-shuffle masks) nor keep it in a register (where a kernel
/// needs every register for its state).
#[inline(always)]
pub(crate) fn reload<T: Copy>(p: &T) -> T {
    // SAFETY: a reference is valid, aligned and initialised for a read of `T`.
    unsafe { core::ptr::read_volatile(p) }
}
