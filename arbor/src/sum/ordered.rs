//! Work spread over the threads of the current rayon pool, results handed over in order as soon
//! as each is ready: output streams line by line, a slow input (a FIFO) holds back only the lines
//! after it, and a small reorder buffer keeps the order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Results waiting in the channel before the workers wait for the printer: bounds memory when
/// the output is slower than the hashing.
const QUEUE: usize = 4096;

/// What the receiving side is told.
pub enum Event<R> {
    /// The result for one index, in index order.
    Ready(usize, R),
    /// The next result is not ready yet (a moment to flush output).
    Waiting,
}

/// Runs `work` on every group of `group` consecutive items among `items`, each on a pool thread;
/// `work(range, emit)` calls `emit(index, result)` once for each index in its range, in any
/// order. `deliver` gets the results in index order, on a thread of its own.
pub fn run<R: Send>(
    items: usize,
    group: usize,
    work: impl Fn(std::ops::Range<usize>, &mut dyn FnMut(usize, R)) + Sync,
    deliver: impl FnMut(Event<R>) + Send,
) {
    let (sender, receiver) = mpsc::sync_channel::<(usize, R)>(QUEUE);
    let next_group = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let printer = scope.spawn(move || in_order(items, receiver, deliver));
        // Groups are taken in order, so that results arrive nearly in order and the reorder
        // buffer stays small.
        rayon::scope(|pool| {
            for _ in 0..rayon::current_num_threads() {
                let sender = sender.clone();
                let (next_group, work) = (&next_group, &work);
                pool.spawn(move |_| loop {
                    let start = next_group.fetch_add(1, Ordering::Relaxed) * group;
                    if start >= items {
                        break;
                    }
                    let mut emit = |index: usize, result: R| {
                        // The printer stops early only if it panicked; its join reports that.
                        let _ = sender.send((index, result));
                    };
                    work(start..items.min(start + group), &mut emit);
                });
            }
        });
        drop(sender);
        printer.join().expect("the output thread does not panic");
    });
}

fn in_order<R>(
    items: usize,
    receiver: mpsc::Receiver<(usize, R)>,
    mut deliver: impl FnMut(Event<R>),
) {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    while next < items {
        let (index, result) = match receiver.try_recv() {
            Ok(received) => received,
            Err(_) => {
                deliver(Event::Waiting);
                match receiver.recv() {
                    Ok(received) => received,
                    Err(_) => return,
                }
            }
        };
        waiting.insert(index, result);
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
                |range, emit| {
                    for i in range.rev() {
                        emit(i, i * 2);
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
