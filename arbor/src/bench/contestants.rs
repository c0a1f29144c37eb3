//! The contestants: baselines, peers (the reference crates and other fast hashes) and ours on
//! each backend this CPU has.
//!
//! This is the one place that names the hash implementations (the peers in `peers`, with the
//! `bench-peers` feature); the rest of `arbor bench` works on [`Contestant`]s and on the [`ours`]
//! module.

use arborhash::platform::{self, Backend};
use std::cell::RefCell;
use std::sync::Arc;

#[cfg(feature = "bench-peers")]
mod peers;

/// How many independent messages a batch row hashes per call.
pub const BATCH: usize = 16;

/// Our hashes: the only path through which `arbor bench` reaches `arborhash`'s algorithms.
pub mod ours {
    pub use arborhash::{blake2b, blake2bp, blake2s, blake2sp, blake3, tz};
}

/// Hashes one message; returns a word of the digest, so the work cannot be optimised away.
pub type HashOne = dyn Fn(&[u8]) -> u64 + Send + Sync;
/// Hashes [`BATCH`] independent messages in one call; returns a word of the digests.
pub type HashMany = dyn Fn(&[&[u8]]) -> u64 + Send + Sync;

/// A function under test.
#[derive(Clone)]
pub enum Kernel {
    One(Arc<HashOne>),
    Many(Arc<HashMany>),
}

/// What a row is there for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The cost of the harness itself and of touching the bytes.
    Baseline,
    /// Other libraries.
    Peer,
    /// arborhash.
    Ours,
}

/// One row of a benchmark.
#[derive(Clone)]
pub struct Contestant {
    /// The algorithm, e.g. `BLAKE2b`, with `xN` for batch rows.
    pub name: String,
    /// Who implements it: `arborhash`, a crate name, or `-` for baselines.
    pub implementation: &'static str,
    /// The backend the row runs on: ours forced, the peers' own choice described.
    pub backend: String,
    /// What the row is there for.
    pub group: Group,
    /// The code timed.
    pub kernel: Kernel,
    forced: Option<Backend>,
}

impl Contestant {
    /// `name implementation backend`, the text `--filter` matches.
    pub fn label(&self) -> String {
        format!("{} {} {}", self.name, self.implementation, self.backend)
    }

    /// Messages hashed per call of the kernel.
    pub fn messages_per_call(&self) -> usize {
        match self.kernel {
            Kernel::One(_) => 1,
            Kernel::Many(_) => BATCH,
        }
    }

    /// Runs `f` on the calling thread with this row's backend forced, if it has one.
    pub fn with_backend<R>(&self, f: impl FnOnce() -> R) -> R {
        match self.forced {
            Some(b) => platform::with_backend(b, f),
            None => f(),
        }
    }

    fn new(
        name: &str,
        implementation: &'static str,
        backend: String,
        group: Group,
        kernel: Kernel,
    ) -> Contestant {
        Contestant {
            name: name.to_string(),
            implementation,
            backend,
            group,
            kernel,
            forced: None,
        }
    }
}

/// The first eight bytes of a digest as a number.
fn word(digest: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let n = digest.len().min(8);
    w[..n].copy_from_slice(&digest[..n]);
    u64::from_le_bytes(w)
}

fn one(f: impl Fn(&[u8]) -> u64 + Send + Sync + 'static) -> Kernel {
    Kernel::One(Arc::new(f))
}

fn many(f: impl Fn(&[&[u8]]) -> u64 + Send + Sync + 'static) -> Kernel {
    Kernel::Many(Arc::new(move |inputs: &[&[u8]]| {
        assert_eq!(inputs.len(), BATCH, "a batch row takes {BATCH} messages");
        f(inputs)
    }))
}

thread_local! {
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// NULL-MEMCPY: copies the message into a per-thread buffer.
fn memcpy(input: &[u8]) -> u64 {
    SCRATCH.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() < input.len() {
            s.resize(input.len(), 0);
        }
        s[..input.len()].copy_from_slice(input);
        std::hint::black_box(&mut s[..]);
        input.len() as u64
    })
}

fn baselines() -> Vec<Contestant> {
    let row = |name, kernel| Contestant::new(name, "-", "-".into(), Group::Baseline, kernel);
    vec![
        row("NULL-NOP", one(|m| m.len() as u64)),
        row("NULL-MEMCPY", one(memcpy)),
    ]
}

/// Feeds `m` to `update` in pieces of `write` bytes, the last one shorter if need be: the
/// same loop for ours and the peer, the pieces as `chunks_exact` gives them (it advances by a
/// constant), then the rest. Not `chunks`: it takes each piece's length as `min(write, rest)`, a
/// chain of three dependent instructions from one piece to the next, about 1.8 TSC cycles a piece
/// on Zen 5, which is 11 % of one-shot hashing's time for 1 MiB in 64-byte pieces spent by the
/// loop alone: no hasher fed that way could keep 0.9 of one-shot speed there. (Pieces cut by
/// their index, or the rest chained on as one more piece, measured as slow: LLVM then kept our
/// buffer's length in memory across the writes.) Called with a constant `write`, inlined.
#[inline(always)]
fn in_pieces(m: &[u8], write: usize, mut update: impl FnMut(&[u8])) {
    let mut pieces = m.chunks_exact(write);
    for piece in pieces.by_ref() {
        update(piece);
    }
    update(pieces.remainder());
}

/// Our hasher fed `m` in pieces of `W` bytes.
fn ours_writes<const W: usize>(m: &[u8]) -> u64 {
    let mut hasher = ours::blake3::Hasher::new();
    in_pieces(m, W, |piece| {
        hasher.update(piece);
    });
    word(hasher.finalize().as_bytes())
}

/// The incremental-writes rows: a message fed to a hasher in pieces of this many bytes, the small
/// writes a streaming caller makes, by the crate's hasher and by ours. The size is a constant in
/// each, as in a caller writing records of a fixed size: a size known only at run time costs a
/// few instructions more a write, in the loop and in our `update`, which is about 5 % of 1 MiB in
/// 64-byte writes on Zen 5 (probe, 0.91 of one-shot against 0.86).
struct Writes {
    size: usize,
    ours: fn(&[u8]) -> u64,
    #[cfg(feature = "bench-peers")]
    theirs: fn(&[u8]) -> u64,
}

const fn writes<const W: usize>() -> Writes {
    Writes {
        size: W,
        ours: ours_writes::<W>,
        #[cfg(feature = "bench-peers")]
        theirs: peers::blake3_writes::<W>,
    }
}

const WRITES: [Writes; 2] = [writes::<64>(), writes::<1024>()];

/// The name of the row that feeds each message to a hasher `write` bytes at a time.
fn writes_name(write: usize) -> String {
    match write {
        w if w >= 1024 && w % 1024 == 0 => format!("BLAKE3 {} KiB writes", w / 1024),
        w => format!("BLAKE3 {w} B writes"),
    }
}

/// Our rows for one backend.
fn ours_on(backend: Backend) -> Vec<Contestant> {
    let row = |name: &str, kernel| {
        let mut c = Contestant::new(
            name,
            "arborhash",
            backend.name().into(),
            Group::Ours,
            kernel,
        );
        c.forced = Some(backend);
        c
    };
    vec![
        row(
            "BLAKE2b",
            one(|m| word(ours::blake2b::blake2b(m).as_bytes())),
        ),
        row(
            "BLAKE2bp",
            one(|m| word(ours::blake2bp::blake2bp(m).as_bytes())),
        ),
        row(
            "BLAKE2s",
            one(|m| word(ours::blake2s::blake2s(m).as_bytes())),
        ),
        row(
            "BLAKE2sp",
            one(|m| word(ours::blake2sp::blake2sp(m).as_bytes())),
        ),
        row("BLAKE3", one(|m| word(ours::blake3::hash(m).as_bytes()))),
        row("TZ", one(|m| word(&ours::tz::sum(m).as_bytes()))),
        row(
            &format!("BLAKE2b x{BATCH}"),
            many(|ms| {
                let params = ours::blake2b::Params::new();
                let mut jobs: [_; BATCH] =
                    std::array::from_fn(|i| ours::blake2b::many::HashManyJob::new(&params, ms[i]));
                ours::blake2b::many::hash_many(jobs.iter_mut());
                jobs.iter().fold(0, |a, j| a ^ word(j.to_hash().as_bytes()))
            }),
        ),
        row(
            &format!("BLAKE2s x{BATCH}"),
            many(|ms| {
                let params = ours::blake2s::Params::new();
                let mut jobs: [_; BATCH] =
                    std::array::from_fn(|i| ours::blake2s::many::HashManyJob::new(&params, ms[i]));
                ours::blake2s::many::hash_many(jobs.iter_mut());
                jobs.iter().fold(0, |a, j| a ^ word(j.to_hash().as_bytes()))
            }),
        ),
        row(
            &format!("BLAKE3 x{BATCH}"),
            many(|ms| {
                let mut out = [ours::blake3::Hash::from_bytes([0; 32]); BATCH];
                ours::blake3::many::hash_many(ms, &mut out);
                out.iter().fold(0, |a, h| a ^ word(h.as_bytes()))
            }),
        ),
    ]
    .into_iter()
    .chain(
        WRITES
            .iter()
            .map(|w| row(&writes_name(w.size), one(w.ours))),
    )
    .collect()
}

/// Our multi-threaded hash of one message. Not forced onto a backend: the selection
/// `with_backend` makes is the calling thread's own, and rayon's threads would not see it.
fn ours_threaded() -> Contestant {
    Contestant::new(
        "BLAKE3 rayon",
        "arborhash",
        format!("auto:{}", platform::backend().name()),
        Group::Ours,
        one(|m| {
            let mut hasher = ours::blake3::Hasher::new();
            word(hasher.update_rayon(m).finalize().as_bytes())
        }),
    )
}

/// Every contestant, baselines first, then peers, then ours on each supported backend, then
/// ours on all threads.
pub fn all() -> Vec<Contestant> {
    let mut rows = baselines();
    #[cfg(feature = "bench-peers")]
    rows.extend(peers::rows());
    for b in Backend::ALL.into_iter().filter(|b| b.is_supported()) {
        rows.extend(ours_on(b));
    }
    rows.push(ours_threaded());
    rows
}

/// Whether `label` contains `filter`, or one of its comma-separated alternatives
/// (case-insensitive); true without a filter.
pub fn filter_matches(filter: Option<&str>, label: &str) -> bool {
    let Some(filter) = filter else {
        return true;
    };
    let label = label.to_lowercase();
    filter
        .split(',')
        .map(|n| n.trim().to_lowercase())
        .any(|n| !n.is_empty() && label.contains(&n))
}

/// The contestants whose [`Contestant::label`] matches `filter` (see [`filter_matches`]).
pub fn matching(filter: Option<&str>) -> Result<Vec<Contestant>, String> {
    let rows: Vec<_> = all()
        .into_iter()
        .filter(|c| filter_matches(filter, &c.label()))
        .collect();
    if rows.is_empty() {
        return Err(format!(
            "--filter {:?} matches no contestant",
            filter.unwrap_or_default()
        ));
    }
    Ok(rows)
}

/// Each of our rows beside each peer row of the same algorithm, for `arbor bench pairs`. A batch
/// row of ours without a batch peer meets the peer hashing the same messages one by one: what a
/// caller without a batch API would do. Our incremental-writes rows also meet our own one-shot
/// hash on the same backend, the speed that small writes should keep.
pub fn pairs() -> Vec<(Contestant, Contestant)> {
    let (ours, others): (Vec<_>, Vec<_>) = all().into_iter().partition(|c| c.group == Group::Ours);
    let mut peers: Vec<Contestant> = others
        .into_iter()
        .filter(|c| c.group == Group::Peer)
        .collect();
    let one_by_one: Vec<Contestant> = peers
        .iter()
        .filter_map(|p| {
            let Kernel::One(f) = &p.kernel else {
                return None;
            };
            let name = format!("{} x{BATCH}", p.name);
            if peers.iter().any(|q| q.name == name) {
                return None;
            }
            let f = Arc::clone(f);
            let kernel = many(move |ms| ms.iter().fold(0, |a, m| a ^ f(m)));
            let implementation = p.implementation;
            let backend = format!("{}, one by one", p.backend);
            Some(Contestant::new(
                &name,
                implementation,
                backend,
                Group::Peer,
                kernel,
            ))
        })
        .collect();
    peers.extend(one_by_one);
    let writes = WRITES.map(|w| writes_name(w.size));
    let one_shot = |o: &Contestant| {
        ours.iter()
            .filter(|c| writes.contains(&o.name) && c.name == "BLAKE3" && c.forced == o.forced)
            .cloned()
            .collect::<Vec<_>>()
    };
    ours.iter()
        .flat_map(|o| {
            let against = peers.iter().filter(|p| p.name == o.name).cloned();
            against
                .chain(one_shot(o))
                .map(|p| (o.clone(), p))
                .collect::<Vec<_>>()
        })
        .collect()
}
