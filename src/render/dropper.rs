//! Letting go of a batch's trees on a thread of their own: a tree is thousands of small
//! allocations, and freeing a batch of them on the drawing thread was a tenth of what
//! `validate`'s main thread did while the other core waited for its next batch.

use std::sync::mpsc::SyncSender;
use std::sync::Arc;

/// Trees let go of between two `give_back_memory`s: a few batches of pages.
const TREES_PER_TRIM: usize = 500;

/// Batches handed over but not yet freed, at most: the drawing never runs far ahead of
/// the freeing, so memory stays that of a few batches.
const BATCHES_AHEAD: usize = 2;

type Batch = Vec<Arc<usvg::Tree>>;

/// Where trees go to be freed: a thread started when the first batch is let go of, or,
/// when none can be started, the caller's.
#[derive(Default)]
pub(super) struct Dropper {
    thread: Option<(SyncSender<Batch>, std::thread::JoinHandle<()>)>,
    /// Trees freed by the caller since memory was last given back (no thread).
    released: usize,
    /// A thread could not be started: the caller frees.
    inline: bool,
}

impl Dropper {
    /// Frees `trees` (on the thread when they hold the last reference).
    pub(super) fn drop_later(&mut self, trees: Batch) {
        if trees.is_empty() {
            return;
        }
        if self.thread.is_none() && !self.inline {
            self.thread = start();
            self.inline = self.thread.is_none();
        }
        let trees = match &self.thread {
            Some((send, _)) => match send.send(trees) {
                Ok(()) => return,
                Err(unsent) => unsent.0, // the thread is gone: freed here
            },
            None => trees,
        };
        self.released += trees.len();
        drop(trees);
        // Trimming costs a walk over the heap: worth it once a large deck has let go of
        // many trees, not after every batch of a small one.
        if self.released >= TREES_PER_TRIM {
            self.released = 0;
            super::give_back_memory();
        }
    }
}

fn start() -> Option<(SyncSender<Batch>, std::thread::JoinHandle<()>)> {
    let (send, batches) = std::sync::mpsc::sync_channel::<Batch>(BATCHES_AHEAD);
    let free = move || {
        let mut released = 0;
        for trees in batches {
            released += trees.len();
            drop(trees);
            if released >= TREES_PER_TRIM {
                released = 0;
                super::give_back_memory();
            }
        }
    };
    let thread = std::thread::Builder::new().stack_size(crate::parallel::STACK).spawn(free).ok()?;
    Some((send, thread))
}

impl Drop for Dropper {
    /// Every tree handed over is freed before the art that drew them is gone.
    fn drop(&mut self) {
        if let Some((send, thread)) = self.thread.take() {
            drop(send);
            // Only a panic while freeing ends the thread otherwise; nothing is left to do then.
            let _ = thread.join();
        }
    }
}
