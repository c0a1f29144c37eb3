//! Work spread over the threads of the current rayon pool, results handed over in order as soon
//! as they are ready: output streams, a slow input (a FIFO) holds back only the lines after it,
//! and a small reorder buffer keeps the order. A worker hands over its results a group at a time,
//! and before anything that may wait ([`Emitter::flush`]): one hand-over per result cost a third
//! more time on 10,000 small files (scripts/bench-cli.sh).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Batches of results waiting in the channel before the workers wait for the printer: bounds
/// memory when the output is slower than the hashing.
const QUEUE: usize = 256;

/// Collects a worker's results and hands them to the printer.
pub struct Emitter<'a, R> {
    batch: Vec<(usize, R)>,
    sender: &'a mpsc::SyncSender<Vec<(usize, R)>>,
}

impl<R> Emitter<'_, R> {
    /// The result for `index`.
    pub fn emit(&mut self, index: usize, result: R) {
        self.batch.push((index, result));
    }

    /// Hands over the results so far: call it before anything that may take long.
    pub fn flush(&mut self) {
        if !self.batch.is_empty() {
            // The printer stops early only if it panicked; its join reports that.
            let _ = self.sender.send(std::mem::take(&mut self.batch));
        }
    }
}

/// What the receiving side is told.
pub enum Event<R> {
    /// The result for one index, in index order.
    Ready(usize, R),
    /// The next result is not ready yet (a moment to flush output).
    Waiting,
}

/// Runs `work` on every group of `group` consecutive items among `items`, each on a pool thread;
/// `work(range, emitter)` emits one result for each index in its range, in any order. `deliver`
/// gets the results in index order, on a thread of its own.
pub fn run<R: Send>(
    items: usize,
    group: usize,
    work: impl Fn(std::ops::Range<usize>, &mut Emitter<R>) + Sync,
    deliver: impl FnMut(Event<R>) + Send,
) {
    let (sender, receiver) = mpsc::sync_channel::<Vec<(usize, R)>>(QUEUE);
    let next_group = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let printer = scope.spawn(move || in_order(items, receiver, deliver));
        // Groups are taken in order, so that results arrive nearly in order and the reorder
        // buffer stays small.
        rayon::scope(|pool| {
            for _ in 0..rayon::current_num_threads() {
                let (next_group, work, sender) = (&next_group, &work, &sender);
                pool.spawn(move |_| loop {
                    let start = next_group.fetch_add(1, Ordering::Relaxed) * group;
                    if start >= items {
                        break;
                    }
                    let mut emitter = Emitter {
                        batch: Vec::new(),
                        sender,
                    };
                    work(start..items.min(start + group), &mut emitter);
                    emitter.flush();
                });
            }
        });
        drop(sender);
        printer.join().expect("the output thread does not panic");
    });
}

fn in_order<R>(
    items: usize,
    receiver: mpsc::Receiver<Vec<(usize, R)>>,
    mut deliver: impl FnMut(Event<R>),
) {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    while next < items {
        let batch = match receiver.try_recv() {
            Ok(batch) => batch,
            Err(_) => {
                deliver(Event::Waiting);
                match receiver.recv() {
                    Ok(batch) => batch,
                    Err(_) => return,
                }
            }
        };
        waiting.extend(batch);
        while let Some(result) = waiting.remove(&next) {
            deliver(Event::Ready(next, result));
            next += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Event;

    #[test]
    fn results_arrive_in_order_whatever_order_they_are_made_in() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let mut seen = Vec::new();
        pool.install(|| {
            super::run(
                1000,
                7,
                |range, emitter| {
                    for i in range.rev() {
                        emitter.emit(i, i * 2);
                        if i % 3 == 0 {
                            emitter.flush();
                        }
                    }
                },
                |event| match event {
                    Event::Ready(i, r) => seen.push((i, r)),
                    Event::Waiting => {}
                },
            )
        });
        assert_eq!(seen, (0..1000).map(|i| (i, i * 2)).collect::<Vec<_>>());
    }
}
