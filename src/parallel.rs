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
}
