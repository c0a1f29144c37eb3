//! Choosing the SIMD backend.
//!
//! Every algorithm in this crate has a portable backend; on x86-64, SSE4.1, AVX2 and AVX-512
//! backends; on AArch64, a NEON backend; on WebAssembly built with `simd128`, a SIMD128 backend.
//! The AVX-512 backend (AVX-512F with AVX-512VL) runs BLAKE3's 16-lane kernels and the AVX-512VL
//! rotations; algorithms without a kernel of their own for it run their AVX2 kernels there. The
//! best backend the CPU supports is detected once, at first use, and cached. Users and tests can
//! override the choice:
//!
//! - the environment variable
//!   `ARBORHASH_BACKEND=portable|sse41|avx2|avx512|avx512-scalar|neon|simd128`, read once at
//!   first use;
//! - [`force_backend`], for the whole process;
//! - [`with_backend`] (with `std`), for the calling thread during one closure, which is what the
//!   tests use to exercise each backend while running in parallel.
//!
//! The Cargo features `pure` (portable only), `no_sse41`, `no_avx2` (which also excludes AVX-512)
//! and `no_avx512` remove backends from the choice at compile time, as if the CPU lacked them.
//! NEON is on by default on AArch64 (`pure` removes it too); the `neon` feature is accepted for
//! the `blake3` crate's users and changes nothing. WebAssembly has no run-time detection, so
//! SIMD128 is available exactly when the build enables `target_feature = "simd128"` (and `pure`
//! is off).
//!
//! Asking for a backend the CPU lacks never reaches its code: the request falls back to the best
//! available backend, and [`selection`] reports both what was asked for and what is used.
//!
//! A backend is an instruction set, or a named route on one: `avx512-scalar` is AVX-512 with one
//! stream's chains in general-purpose registers, chosen by detection on the CPUs where that is
//! faster and forceable like any backend, so that every path runs in the tests of every machine
//! that can run it.
//!
//! Internally, algorithms ask for a `Platform`, a token that can only be made here and only for a
//! backend the running CPU supports. Holding one is the proof that its `#[target_feature]` code may
//! be called; that is the single invariant all `unsafe` kernel calls in the crate rely on.

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

/// An implementation strategy for the hash kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Backend {
    /// Plain Rust, any CPU.
    Portable,
    /// x86-64 SSE4.1 (128-bit vectors).
    Sse41,
    /// x86-64 AVX2 (256-bit vectors).
    Avx2,
    /// x86-64 AVX-512F and AVX-512VL (512-bit vectors, and rotations on 128/256-bit ones), with
    /// AVX2.
    Avx512,
    /// The AVX-512 backend with one stream's chain of compressions in general-purpose registers
    /// (BLAKE3's chains of two blocks or more, BLAKE2's single streams): detection chooses it on
    /// AMD family 1Ah (Zen 5), whose vector additions, xors and rotations have twice the latency
    /// of scalar ones, so that a chain, one long dependency, runs faster on scalars although it
    /// takes several times the instructions. Many lanes at once stay in vectors.
    Avx512Scalar,
    /// AArch64 NEON (Advanced SIMD, 128-bit vectors); Tillich-Zémor also needs PMULL (the `aes`
    /// feature) for its vector code.
    Neon,
    /// WebAssembly SIMD128 (128-bit vectors), present when the module is built with
    /// `-C target-feature=+simd128`; Tillich-Zémor runs its portable kernels there, since
    /// WebAssembly has no carry-less multiply, and so do BLAKE2b and single BLAKE2s streams,
    /// which measured no faster in vectors.
    Simd128,
}

impl Backend {
    /// All backends: portable, then x86-64's slowest first, then AArch64's, then WebAssembly's.
    pub const ALL: [Backend; 7] = [
        Backend::Portable,
        Backend::Sse41,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Avx512Scalar,
        Backend::Neon,
        Backend::Simd128,
    ];

    /// The name used by `ARBORHASH_BACKEND` and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Sse41 => "sse41",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Avx512Scalar => "avx512-scalar",
            Backend::Neon => "neon",
            Backend::Simd128 => "simd128",
        }
    }

    /// Parses a name as accepted by `ARBORHASH_BACKEND` (case-insensitive; `sse4.1` also works).
    pub fn from_name(name: &str) -> Option<Backend> {
        let name = name.trim();
        Backend::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
            .or_else(|| {
                name.eq_ignore_ascii_case("sse4.1")
                    .then_some(Backend::Sse41)
            })
    }

    /// Whether the running CPU can execute this backend (and the crate's features allow it).
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Sse41 => sse41_detected(),
            Backend::Avx2 => avx2_detected(),
            Backend::Avx512 | Backend::Avx512Scalar => avx512_detected(),
            Backend::Neon => neon_detected(),
            Backend::Simd128 => simd128_detected(),
        }
    }

    fn from_u8(v: u8) -> Backend {
        match v {
            1 => Backend::Sse41,
            2 => Backend::Avx2,
            3 => Backend::Avx512,
            4 => Backend::Avx512Scalar,
            5 => Backend::Neon,
            6 => Backend::Simd128,
            _ => Backend::Portable,
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What was asked for and what is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The backend requested through [`force_backend`], [`with_backend`] or `ARBORHASH_BACKEND`,
    /// if any.
    pub requested: Option<Backend>,
    /// The backend in use: the request if the CPU supports it, else the best supported one.
    pub active: Backend,
}

impl Selection {
    /// True when a backend was requested but the CPU lacks it, so another one is used.
    pub fn fell_back(&self) -> bool {
        matches!(self.requested, Some(r) if r != self.active)
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn cpu_has_sse41() -> bool {
    std::is_x86_feature_detected!("sse4.1")
}
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn cpu_has_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn cpu_has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && cpu_has_avx2()
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn cpu_has_sse41() -> bool {
    cfg!(target_feature = "sse4.1")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn cpu_has_avx2() -> bool {
    cfg!(target_feature = "avx2")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn cpu_has_avx512() -> bool {
    cfg!(all(
        target_feature = "avx512f",
        target_feature = "avx512vl",
        target_feature = "avx2"
    ))
}
#[cfg(all(target_arch = "aarch64", feature = "std"))]
fn cpu_has_neon() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}
#[cfg(all(target_arch = "aarch64", not(feature = "std")))]
fn cpu_has_neon() -> bool {
    cfg!(target_feature = "neon")
}
#[cfg(not(target_arch = "aarch64"))]
fn cpu_has_neon() -> bool {
    false
}
fn cpu_has_simd128() -> bool {
    cfg!(all(target_arch = "wasm32", target_feature = "simd128"))
}
#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_sse41() -> bool {
    false
}
#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_avx2() -> bool {
    false
}
#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_avx512() -> bool {
    false
}

// The Cargo features `pure`, `no_sse41`, `no_avx2` and `no_avx512` switch backends off at
// compile time: they are never selected, as if the CPU lacked them. `no_avx2` takes AVX-512 with
// it, since that backend runs the AVX2 kernels of algorithms without AVX-512 kernels.
const SSE41_ALLOWED: bool = !cfg!(any(feature = "pure", feature = "no_sse41"));
const AVX2_ALLOWED: bool = !cfg!(any(feature = "pure", feature = "no_avx2"));
const AVX512_ALLOWED: bool = AVX2_ALLOWED && !cfg!(feature = "no_avx512");
const NEON_ALLOWED: bool = !cfg!(feature = "pure");
const SIMD128_ALLOWED: bool = !cfg!(feature = "pure");

fn sse41_detected() -> bool {
    SSE41_ALLOWED && cpu_has_sse41()
}
fn avx2_detected() -> bool {
    AVX2_ALLOWED && cpu_has_avx2()
}
fn avx512_detected() -> bool {
    AVX512_ALLOWED && cpu_has_avx512()
}
fn neon_detected() -> bool {
    NEON_ALLOWED && cpu_has_neon()
}
fn simd128_detected() -> bool {
    SIMD128_ALLOWED && cpu_has_simd128()
}

/// The best backend the running CPU supports, ignoring any override.
pub fn best_supported() -> Backend {
    if neon_detected() {
        Backend::Neon
    } else if simd128_detected() {
        Backend::Simd128
    } else if avx512_detected() {
        if vector_latency_doubled() {
            Backend::Avx512Scalar
        } else {
            Backend::Avx512
        }
    } else if avx2_detected() {
        Backend::Avx2
    } else if sse41_detected() {
        Backend::Sse41
    } else {
        Backend::Portable
    }
}

fn clamp(requested: Backend) -> Backend {
    if requested.is_supported() {
        requested
    } else {
        best_supported()
    }
}

// Process-wide state, packed in one byte so that reading it is one relaxed load:
// bit 7 set once initialised; bits 0-2 the active backend; bit 6 set if a backend was requested,
// bits 3-5 the requested one. Three bits hold all seven backends.
static GLOBAL: AtomicU8 = AtomicU8::new(0);
const INIT: u8 = 0x80;
const HAS_REQUEST: u8 = 0x40;

fn pack(sel: Selection) -> u8 {
    let mut v = INIT | sel.active as u8;
    if let Some(r) = sel.requested {
        v |= HAS_REQUEST | ((r as u8) << 3);
    }
    v
}

fn unpack(v: u8) -> Selection {
    Selection {
        requested: (v & HAS_REQUEST != 0).then(|| Backend::from_u8((v >> 3) & 7)),
        active: Backend::from_u8(v & 7),
    }
}

fn resolve(requested: Option<Backend>) -> Selection {
    Selection {
        requested,
        active: requested.map_or_else(best_supported, clamp),
    }
}

#[cold]
fn init_global() -> u8 {
    let requested = env_request();
    let v = pack(resolve(requested));
    // A concurrent force_backend wins; otherwise store ours.
    match GLOBAL.compare_exchange(0, v, Ordering::Relaxed, Ordering::Relaxed) {
        Ok(_) => v,
        Err(current) => current,
    }
}

#[cfg(feature = "std")]
fn env_request() -> Option<Backend> {
    let value = std::env::var("ARBORHASH_BACKEND").ok()?;
    if value.trim().is_empty() {
        return None;
    }
    // An unknown name is treated as a request for nothing in particular; `selection` then shows
    // no request, and `env_error` explains why.
    Backend::from_name(&value)
}

#[cfg(not(feature = "std"))]
fn env_request() -> Option<Backend> {
    None
}

/// If `ARBORHASH_BACKEND` is set to a name that is not a backend, a message saying so.
#[cfg(feature = "std")]
pub fn env_error() -> Option<std::string::String> {
    let value = std::env::var("ARBORHASH_BACKEND").ok()?;
    if value.trim().is_empty() || Backend::from_name(&value).is_some() {
        return None;
    }
    let names: std::vec::Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
    Some(std::format!(
        "ARBORHASH_BACKEND={value:?} is not one of {}; using {}",
        names.join(", "),
        best_supported()
    ))
}

fn global_selection() -> Selection {
    let v = GLOBAL.load(Ordering::Relaxed);
    unpack(if v == 0 { init_global() } else { v })
}

/// Uses `backend` (or the best supported one, if the CPU lacks it) for the whole process from now
/// on, overriding `ARBORHASH_BACKEND`. Returns the resulting selection.
pub fn force_backend(backend: Backend) -> Selection {
    let sel = resolve(Some(backend));
    GLOBAL.store(pack(sel), Ordering::Relaxed);
    sel
}

/// Forgets any process-wide request: back to the best supported backend.
pub fn reset_backend() -> Selection {
    let sel = resolve(None);
    GLOBAL.store(pack(sel), Ordering::Relaxed);
    sel
}

#[cfg(feature = "std")]
std::thread_local! {
    // 0 = no thread override; otherwise a packed Selection.
    static THREAD: core::cell::Cell<u8> = const { core::cell::Cell::new(0) };
}

/// How many `with_backend` calls are running, in all threads: while none is, `selection` skips
/// the thread-local, whose every access costs a call into the dynamic loader in a shared library
/// (the Python extension, the C library).
#[cfg(feature = "std")]
static THREAD_OVERRIDES: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// Runs `f` with `backend` (or the best supported one, if the CPU lacks it) selected for the
/// calling thread only. Work that this crate hands to other threads (rayon) inside `f` uses the
/// process-wide selection. Nested calls restore the outer choice on return, also on panic.
#[cfg(feature = "std")]
pub fn with_backend<R>(backend: Backend, f: impl FnOnce() -> R) -> R {
    struct Restore(u8);
    impl Drop for Restore {
        fn drop(&mut self) {
            THREAD.with(|t| t.set(self.0));
            THREAD_OVERRIDES.fetch_sub(1, Ordering::Relaxed);
        }
    }
    // (A thread sees its own count in order, so it never skips its own override.)
    THREAD_OVERRIDES.fetch_add(1, Ordering::Relaxed);
    let previous = THREAD.with(|t| t.replace(pack(resolve(Some(backend)))));
    let _restore = Restore(previous);
    f()
}

/// The backend selection in force for the calling thread.
pub fn selection() -> Selection {
    #[cfg(feature = "std")]
    if THREAD_OVERRIDES.load(Ordering::Relaxed) != 0 {
        let v = THREAD.with(|t| t.get());
        if v != 0 {
            return unpack(v);
        }
    }
    global_selection()
}

/// The backend in use for the calling thread.
pub fn backend() -> Backend {
    selection().active
}

/// Whether the CPU is one of those whose vector integer additions, xors, rotations and shuffles
/// have twice the latency of scalar ones (AMD family 1Ah), for which detection picks
/// [`Backend::Avx512Scalar`]. CPUID is read only here, once per process (in a VM it traps to the
/// hypervisor).
#[cfg(target_arch = "x86_64")]
fn vector_latency_doubled() -> bool {
    // 0: not read yet; 1: no; 2: yes.
    static CACHE: AtomicU8 = AtomicU8::new(0);
    match CACHE.load(Ordering::Relaxed) {
        0 => {
            let yes = amd_family() == Some(0x1A);
            CACHE.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        v => v == 2,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn vector_latency_doubled() -> bool {
    false
}

/// The CPU family (base plus extended) if the vendor is AMD.
#[cfg(target_arch = "x86_64")]
#[cold]
fn amd_family() -> Option<u32> {
    use core::arch::x86_64::__cpuid;
    // CPUID leaves 0 and 1 exist on every x86-64 CPU.
    let (vendor, version) = (__cpuid(0), __cpuid(1));
    // "AuthenticAMD" in EBX, EDX, ECX.
    if (vendor.ebx, vendor.edx, vendor.ecx) != (0x6874_7541, 0x6974_6E65, 0x444D_4163) {
        return None;
    }
    let base = (version.eax >> 8) & 0xF;
    let extended = (version.eax >> 20) & 0xFF;
    Some(if base == 0xF { base + extended } else { base })
}

/// Runs `$body` with the type `$K` naming the kernels of `$p`'s backend for one algorithm: the
/// module `$m` names each backend's unit type (`Portable`, `Sse41`, `Avx2`, `Avx512`,
/// `Avx512Scalar`, `Neon`, `Simd128`, where one backend may reuse another's type), and `$body`,
/// compiled once per backend, calls that algorithm's kernel trait through `$K`. Each arm's type
/// is the backend that the `Platform` proves the CPU has, which is what makes the kernels'
/// `unsafe` calls in `$body` sound. A new backend is one arm here.
macro_rules! dispatch {
    ($p:expr, $($m:ident)::+, |$K:ident| $body:expr) => {
        match $crate::platform::Platform::backend($p) {
            $crate::platform::Backend::Portable => {
                type $K = $($m)::+::Portable;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::platform::Backend::Sse41 => {
                type $K = $($m)::+::Sse41;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::platform::Backend::Avx2 => {
                type $K = $($m)::+::Avx2;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::platform::Backend::Avx512 => {
                type $K = $($m)::+::Avx512;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::platform::Backend::Avx512Scalar => {
                type $K = $($m)::+::Avx512Scalar;
                $body
            }
            #[cfg(target_arch = "aarch64")]
            $crate::platform::Backend::Neon => {
                type $K = $($m)::+::Neon;
                $body
            }
            #[cfg(target_arch = "wasm32")]
            $crate::platform::Backend::Simd128 => {
                type $K = $($m)::+::Simd128;
                $body
            }
            #[cfg(not(target_arch = "x86_64"))]
            $crate::platform::Backend::Sse41
            | $crate::platform::Backend::Avx2
            | $crate::platform::Backend::Avx512
            | $crate::platform::Backend::Avx512Scalar => {
                unreachable!("x86 backends are only selected on x86-64")
            }
            #[cfg(not(target_arch = "aarch64"))]
            $crate::platform::Backend::Neon => {
                unreachable!("the NEON backend is only selected on AArch64")
            }
            #[cfg(not(target_arch = "wasm32"))]
            $crate::platform::Backend::Simd128 => {
                unreachable!("the SIMD128 backend is only selected on WebAssembly")
            }
        }
    };
}
pub(crate) use dispatch;

/// Proof that the running CPU supports a backend. Only this module makes one, and only for a
/// supported backend, so code holding a `Platform` may call that backend's `#[target_feature]`
/// functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Platform(Backend);

impl Platform {
    /// The platform selected for the calling thread (see the module documentation).
    #[inline]
    pub(crate) fn current() -> Platform {
        // `selection().active` is always clamped to a supported backend.
        Platform(backend())
    }

    /// The portable platform, always valid.
    #[allow(dead_code)]
    pub(crate) const fn portable() -> Platform {
        Platform(Backend::Portable)
    }

    #[inline]
    pub(crate) fn backend(self) -> Backend {
        self.0
    }
}

// Carry-less multiplication (Tillich-Zémor)

impl Platform {
    /// The platform on which the Tillich-Zémor kernels run, which also proves a carry-less
    /// multiply: this one if the CPU has the one its backend's kernels use (PCLMULQDQ for
    /// SSE4.1; VPCLMULQDQ and PCLMULQDQ for AVX2 and AVX-512; PMULL for NEON), else SSE4.1 if
    /// it has PCLMULQDQ, else portable.
    #[inline]
    pub(crate) fn carryless(self) -> Platform {
        match self.0 {
            Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar
                if cpu_has_pclmulqdq() && cpu_has_vpclmulqdq() =>
            {
                self
            }
            Backend::Sse41 | Backend::Avx2 | Backend::Avx512 | Backend::Avx512Scalar
                if cpu_has_pclmulqdq() =>
            {
                Platform(Backend::Sse41)
            }
            Backend::Neon if cpu_has_pmull() => self,
            _ => Platform(Backend::Portable),
        }
    }
}

#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn cpu_has_pclmulqdq() -> bool {
    std::is_x86_feature_detected!("pclmulqdq")
}
#[cfg(all(target_arch = "x86_64", feature = "std"))]
fn cpu_has_vpclmulqdq() -> bool {
    std::is_x86_feature_detected!("vpclmulqdq")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn cpu_has_pclmulqdq() -> bool {
    cfg!(target_feature = "pclmulqdq")
}
#[cfg(all(target_arch = "x86_64", not(feature = "std")))]
fn cpu_has_vpclmulqdq() -> bool {
    cfg!(target_feature = "vpclmulqdq")
}
#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_pclmulqdq() -> bool {
    false
}
#[cfg(not(target_arch = "x86_64"))]
fn cpu_has_vpclmulqdq() -> bool {
    false
}
#[cfg(all(target_arch = "aarch64", feature = "std"))]
fn cpu_has_pmull() -> bool {
    std::arch::is_aarch64_feature_detected!("aes")
}
#[cfg(all(target_arch = "aarch64", not(feature = "std")))]
fn cpu_has_pmull() -> bool {
    cfg!(target_feature = "aes")
}
#[cfg(not(target_arch = "aarch64"))]
fn cpu_has_pmull() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Backend::ALL {
            assert_eq!(Backend::from_name(b.name()), Some(b));
        }
        assert_eq!(Backend::from_name("SSE4.1"), Some(Backend::Sse41));
        assert_eq!(Backend::from_name("avx512"), Some(Backend::Avx512));
        assert_eq!(Backend::from_name("avx1024"), None);
    }

    #[test]
    fn pack_round_trips() {
        for a in Backend::ALL {
            for r in core::iter::once(None).chain(Backend::ALL.map(Some)) {
                let sel = Selection {
                    requested: r,
                    active: a,
                };
                assert_eq!(unpack(pack(sel)), sel);
            }
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn thread_override_is_scoped_and_clamped() {
        let outer = backend();
        for b in Backend::ALL {
            with_backend(b, || {
                let sel = selection();
                assert_eq!(sel.requested, Some(b));
                assert!(sel.active.is_supported());
                assert_eq!(sel.active == b, b.is_supported());
                assert_eq!(sel.fell_back(), !b.is_supported());
                with_backend(Backend::Portable, || {
                    assert_eq!(backend(), Backend::Portable)
                });
                assert_eq!(selection(), sel);
            });
        }
        assert_eq!(backend(), outer);
    }
}
