//! Memory-mapped files that cannot kill the program when they shrink while they are read.
//!
//! Reading a page of a mapping that lies past the end of its file raises SIGBUS, whose default
//! action ends the process and loses every line not yet printed. While a file is mapped here, its
//! address range is registered, and a SIGBUS handler that finds the faulting address in a
//! registered range maps zero-filled anonymous pages over the rest of that range and notes the
//! fault; the interrupted read then resumes on zeros, and [`Mapped::faulted`] tells the reader,
//! which reports the file as changed instead of printing its hash or writing its encoding. A
//! fault anywhere else is handed back to the handler that was there before, which ends the
//! process as it would have.
//!
//! Why this and not reading every file: mapping keeps the multithreaded BLAKE3 speed on large
//! files (scripts/bench-cli.sh), and the handler returns normally, so no frame is skipped as a
//! `longjmp` would; it only loads and stores atomics and makes the `mmap` system call, which on
//! Linux enters the kernel directly with no lock or allocation in user space. Elsewhere, and
//! whenever the guard cannot be set up, files are read instead of mapped.

use std::fs::File;
use std::io;

/// Mappings guarded at once: one per thread hashing a large file, and threads are capped at this
/// many ([`crate::sum::MAX_THREADS`]); when every slot is taken the file is read instead.
pub const SLOTS: usize = 256;

/// A file mapped under the guard.
pub struct Mapped {
    map: memmap2::Mmap,
    slot: &'static guard::Slot,
}

impl Mapped {
    /// Maps `file` under the guard; `None` when it cannot be mapped or guarded (read it instead).
    pub fn new(file: &File) -> Option<Mapped> {
        let slot = guard::claim()?;
        // SAFETY: the map is read-only and private to this process. Another process may change
        // the file meanwhile: changed bytes only make a wrong hash, which the reader catches with
        // the size, and lost pages fault into the guard (see the module's documentation).
        match unsafe { memmap2::Mmap::map(file) } {
            Ok(map) => {
                slot.register(map.as_ptr() as usize, map.len());
                Some(Mapped { map, slot })
            }
            Err(_) => {
                slot.release();
                None
            }
        }
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Asks the kernel to read ahead, for a pass from start to end on one thread.
    pub fn advise_sequential(&self) {
        let _ = self.map.advise(memmap2::Advice::Sequential);
    }

    /// Whether part of the file vanished while it was mapped (its pages then read as zeros).
    pub fn faulted(&self) -> bool {
        self.slot.faulted()
    }
}

/// The error for a file whose bytes as read are not the file: it lost pages while it was mapped
/// (`faulted`), or its length went from `before` to `after` while it was `read_as` ("hashed").
pub fn changed_error(faulted: bool, before: u64, after: u64, read_as: &str) -> io::Error {
    let how = if faulted || after < before {
        "shrank"
    } else {
        "changed size"
    };
    io::Error::other(format!(
        "the file {how} while it was {read_as} ({before} bytes, then {after})"
    ))
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // Nothing reads the map any more; the slot may serve another file.
        self.slot.release();
    }
}

#[cfg(target_os = "linux")]
mod guard {
    use std::ptr;
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
    use std::sync::OnceLock;

    /// One registered mapping: `start..end` in whole pages, 0 when free.
    pub struct Slot {
        taken: AtomicBool,
        start: AtomicUsize,
        end: AtomicUsize,
        faulted: AtomicBool,
    }

    impl Slot {
        const fn free() -> Slot {
            Slot {
                taken: AtomicBool::new(false),
                start: AtomicUsize::new(0),
                end: AtomicUsize::new(0),
                faulted: AtomicBool::new(false),
            }
        }

        pub fn register(&self, start: usize, len: usize) {
            self.faulted.store(false, Ordering::Relaxed);
            self.end
                .store(start + len.next_multiple_of(page()), Ordering::Release);
            self.start.store(start, Ordering::Release);
        }

        pub fn faulted(&self) -> bool {
            self.faulted.load(Ordering::Acquire)
        }

        pub fn release(&self) {
            self.start.store(0, Ordering::Release);
            self.taken.store(false, Ordering::Release);
        }
    }

    static SLOTS: [Slot; super::SLOTS] = [const { Slot::free() }; super::SLOTS];

    /// Whether the handler is installed (tried once).
    static INSTALLED: OnceLock<bool> = OnceLock::new();

    /// The action before ours, for faults outside the registered mappings: a leaked, never freed
    /// copy, null until it is saved.
    static PREVIOUS: AtomicPtr<libc::sigaction> = AtomicPtr::new(ptr::null_mut());

    static PAGE: AtomicUsize = AtomicUsize::new(4096);

    fn page() -> usize {
        PAGE.load(Ordering::Relaxed)
    }

    /// A free slot, once the handler is installed.
    pub fn claim() -> Option<&'static Slot> {
        if !*INSTALLED.get_or_init(install) {
            return None;
        }
        SLOTS.iter().find(|slot| {
            slot.taken
                .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        })
    }

    fn install() -> bool {
        // SAFETY: plain system calls on owned, zero-initialised structures; the handler only
        // touches statics initialised before it is installed.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE);
            if page > 0 {
                PAGE.store(page as usize, Ordering::Relaxed);
            }
            let mut previous: libc::sigaction = std::mem::zeroed();
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigbus as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            // The previous action is saved before ours can run.
            if libc::sigaction(libc::SIGBUS, ptr::null(), &mut previous) != 0 {
                return false;
            }
            PREVIOUS.store(Box::into_raw(Box::new(previous)), Ordering::Release);
            libc::sigaction(libc::SIGBUS, &action, ptr::null_mut()) == 0
        }
    }

    extern "C" fn on_sigbus(_: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
        let address = unsafe { (*info).si_addr() } as usize;
        for slot in &SLOTS {
            let start = slot.start.load(Ordering::Acquire);
            let end = slot.end.load(Ordering::Acquire);
            if start == 0 || !(start..end).contains(&address) {
                continue;
            }
            let from = address & !(page() - 1);
            // SAFETY: `from..end` lies inside a live mapping that this program owns and reads
            // only through `Mapped`, so replacing its pages by zeros invalidates no reference.
            let zeros = unsafe {
                libc::mmap(
                    from as *mut libc::c_void,
                    end - from,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if zeros as usize == from {
                slot.faulted.store(true, Ordering::Release);
                return;
            }
            break;
        }
        // Not ours (or not repairable): return under the previous action, so that the faulting
        // instruction runs again and meets it.
        let previous = PREVIOUS.load(Ordering::Acquire);
        // SAFETY: `previous` is null or a leaked, never-freed sigaction; sigaction is
        // async-signal-safe.
        unsafe {
            if previous.is_null() {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(libc::SIGBUS, &default, ptr::null_mut());
            } else {
                libc::sigaction(libc::SIGBUS, previous, ptr::null_mut());
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod guard {
    /// Without the guard nothing is mapped.
    pub struct Slot;

    impl Slot {
        pub fn register(&self, _start: usize, _len: usize) {}
        pub fn faulted(&self) -> bool {
            false
        }
        pub fn release(&self) {}
    }

    pub fn claim() -> Option<&'static Slot> {
        None
    }
}
