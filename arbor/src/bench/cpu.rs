//! What the reports say about the machine: the CPU's name and the features that matter to hashing.

/// The CPU's model name, from /proc/cpuinfo where there is one.
pub fn model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        })
        .unwrap_or_else(|| format!("unknown {} CPU", std::env::consts::ARCH))
}

/// The SIMD and hashing features of this CPU (x86-64), in the names `is_x86_feature_detected!`
/// uses.
#[cfg(target_arch = "x86_64")]
pub fn features() -> Vec<&'static str> {
    let mut found = Vec::new();
    macro_rules! probe {
        ($($f:tt),*) => {$(
            if std::is_x86_feature_detected!($f) {
                found.push($f);
            }
        )*};
    }
    probe!("sse2", "ssse3", "sse4.1", "sse4.2", "avx", "avx2", "bmi2", "avx512f", "avx512vl");
    probe!("sha", "pclmulqdq", "vpclmulqdq");
    found
}

/// The SIMD and hashing features of this CPU (AArch64), in the names
/// `is_aarch64_feature_detected!` uses (`aes` includes PMULL).
#[cfg(target_arch = "aarch64")]
pub fn features() -> Vec<&'static str> {
    let mut found = Vec::new();
    macro_rules! probe {
        ($($f:tt),*) => {$(
            if std::arch::is_aarch64_feature_detected!($f) {
                found.push($f);
            }
        )*};
    }
    probe!("neon", "aes", "sha2", "sha3");
    found
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub fn features() -> Vec<&'static str> {
    Vec::new()
}

/// The lines that head every report: CPU, features, threads, arborhash's default backend.
pub fn header() -> Vec<String> {
    let features = features();
    let sel = arborhash::platform::selection();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    vec![
        format!("CPU: {} ({threads} threads)", model()),
        format!(
            "features: {}",
            if features.is_empty() {
                "-".to_string()
            } else {
                features.join(" ")
            }
        ),
        format!("arborhash default backend: {}", sel.active),
    ]
}
