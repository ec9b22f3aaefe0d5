//! Independent work on every core: games of `build --all`, cards of a batch, pictures of
//! a preview. The machine class deckpress is measured on has two cores.

/// Stack for every worker: the main thread's usual size, for deeply nested art (usvg
/// converts groups recursively).
pub const STACK: usize = 8 << 20;

/// The cores this process may run on (1 when that cannot be told). Asked once: on Linux
/// each answer reads three files of the cgroup, and a build asks for every batch.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `f` over `items` on every core, results in order. The calling thread works too; a
/// helper that cannot be started just leaves it more to do.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let helpers = cores().min(items.len()).saturating_sub(1);
    if helpers == 0 {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Each worker takes the next item until none is left.
    let work = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(i) else { break mine };
            mine.push((i, f(item)));
        }
    };
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..helpers)
            .filter_map(|_| {
                std::thread::Builder::new().stack_size(STACK).spawn_scoped(scope, work).ok()
            })
            .collect();
        let mut all = work();
        // A worker only panics if `f` does; pass that panic on rather than hide it.
        for handle in handles {
            all.extend(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        all
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// `serial` over `0..count` in order, one call at a time (a stage that cannot be shared
/// between threads, as filling templates), each `Some` it makes handed to `parallel` on
/// any core while the next are made: the serial stage keeps one core busy only as long as
/// it takes, instead of leaving the others waiting for it before each batch. Results by
/// index, `None` where `serial` made nothing to do.
pub fn pipeline<W: Send, R: Send>(
    count: usize,
    serial: impl FnMut(usize) -> Option<W> + Send,
    parallel: impl Fn(W) -> R + Sync,
) -> Vec<Option<R>> {
    use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
    /// Calls of `serial` made in a row by the thread that holds it.
    const SERIAL_RUN: usize = 4;
    struct Queue<W> {
        /// The next index for `serial`.
        next: usize,
        /// Whether a thread is in `serial` now.
        serialising: bool,
        /// Made by `serial`, waiting for `parallel`.
        ready: std::collections::VecDeque<(usize, W)>,
        /// A thread panicked: the others stop (its panic is passed on).
        stop: bool,
        /// Threads waiting to be woken: a wake-up is a system call, made only for them.
        waiting: usize,
    }
    let queue = Mutex::new(Queue {
        next: 0,
        serialising: false,
        ready: Default::default(),
        stop: false,
        waiting: 0,
    });
    let serial = Mutex::new(serial);
    let woken = Condvar::new();
    let lock = || queue.lock().unwrap_or_else(PoisonError::into_inner);
    let threads = cores().min(count).max(1);
    /// Wakes the others to stop when its thread unwinds.
    struct OnPanic<'q, W>(&'q Mutex<Queue<W>>, &'q Condvar);
    impl<W> Drop for OnPanic<'_, W> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                self.0.lock().unwrap_or_else(PoisonError::into_inner).stop = true;
                self.1.notify_all();
            }
        }
    }
    // `first_ready` is called by the caller's thread when it hands the first work over:
    // the helpers start then, so a batch whose pieces all need no parse starts no thread.
    let work = |first_ready: &dyn Fn()| {
        let _stop_others = OnPanic(&queue, &woken);
        let mut mine = Vec::new();
        let mut q: MutexGuard<Queue<W>> = lock();
        loop {
            if q.stop {
                break mine;
            }
            // The serial stage first while few are waiting, so that no core runs dry.
            if !q.serialising && q.next < count && q.ready.len() <= threads {
                q.serialising = true;
                // Several in a row: the serial stage's data stay in the cache, and the
                // others find more waiting (fewer waits and wake-ups).
                for _ in 0..SERIAL_RUN {
                    if q.next >= count || q.stop {
                        break;
                    }
                    let i = q.next;
                    q.next += 1;
                    drop(q);
                    let made = (serial.lock().unwrap_or_else(PoisonError::into_inner))(i);
                    q = lock();
                    // Only a thread with something to do is woken: most pieces of a deck of
                    // few designs need no parse, and waking the others for each was most of
                    // the time.
                    if let Some(w) = made {
                        q.ready.push_back((i, w));
                        if q.waiting > 0 {
                            woken.notify_one();
                        }
                        first_ready();
                    }
                }
                q.serialising = false;
                if q.next >= count && q.waiting > 0 {
                    woken.notify_all(); // nothing left to make: the waiting may end
                }
                continue;
            }
            if let Some((i, w)) = q.ready.pop_front() {
                drop(q);
                mine.push((i, parallel(w)));
                q = lock();
                continue;
            }
            if q.next >= count && !q.serialising {
                break mine; // what is left is being done by the others
            }
            q.waiting += 1;
            q = woken.wait(q).unwrap_or_else(PoisonError::into_inner);
            q.waiting -= 1;
        }
    };
    let done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let (helpers, started) = (std::cell::RefCell::new(Vec::new()), std::cell::Cell::new(false));
        let start = || {
            if !started.replace(true) {
                let mut helpers = helpers.borrow_mut();
                let helper = || work(&|| {});
                helpers.extend((1..threads).filter_map(|_| {
                    std::thread::Builder::new().stack_size(STACK).spawn_scoped(scope, helper).ok()
                }));
            }
        };
        let mut all = work(&start);
        for handle in helpers.into_inner() {
            all.extend(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        all
    });
    let mut results: Vec<Option<R>> = (0..count).map(|_| None).collect();
    for (i, r) in done {
        results[i] = Some(r);
    }
    results
}

#[cfg(test)]
mod tests {
    #[test]
    fn par_map_keeps_the_order() {
        let items: Vec<u32> = (0..100).collect();
        assert_eq!(
            super::par_map(&items, |n| n * 2),
            items.iter().map(|n| n * 2).collect::<Vec<_>>()
        );
    }

    #[test]
    fn pipeline_serialises_in_order_and_keeps_every_result_in_its_place() {
        let mut seen = Vec::new();
        let results = super::pipeline(
            1000,
            |i| {
                seen.push(i);
                (i % 3 != 0).then_some(i * 10)
            },
            |w| w + 1,
        );
        assert_eq!(seen, (0..1000).collect::<Vec<_>>());
        let expected: Vec<Option<usize>> =
            (0..1000).map(|i| (i % 3 != 0).then_some(i * 10 + 1)).collect();
        assert_eq!(results, expected);
    }

    /// Runs `pipeline` on a thread of its own: whether it panicked, or `None` when it
    /// hung (the thread is left behind then; the test fails).
    fn panicked(
        serial: impl FnMut(usize) -> Option<usize> + Send + 'static,
        parallel: impl Fn(usize) -> usize + Sync + Send + 'static,
    ) -> Option<bool> {
        let (send, done) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                super::pipeline(200, serial, parallel)
            }));
            let _ = send.send(run.is_err());
        });
        done.recv_timeout(std::time::Duration::from_secs(30)).ok()
    }

    #[test]
    fn a_panic_in_either_stage_is_passed_on_not_a_hang() {
        let serial = |i: usize| {
            assert!(i != 150, "the serial stage failed");
            Some(i)
        };
        assert_eq!(panicked(serial, |w| w), Some(true));
        let parallel = |w: usize| {
            assert!(w != 150, "the parallel stage failed");
            w
        };
        assert_eq!(panicked(Some, parallel), Some(true));
    }
}
