//! Letting go of a batch's trees. A tree is thousands of small allocations. They were
//! freed on a thread of their own for a while (helper vpipe), but glibc's `free` of memory
//! another thread allocated takes that arena's lock, and the trim below then walked the
//! heaps while the parse threads allocated in them: `validate` of 10,000 distinct cards
//! took 1.10 × the CPU of freeing here, pinned to one core (`farm-bench`, helper vpipe2).
//! Freed by the drawing thread, as before the pipeline.

use std::sync::Arc;

/// Trees let go of between two `give_back_memory`s: a few batches of pages.
const TREES_PER_TRIM: usize = 500;

type Batch = Vec<Arc<usvg::Tree>>;

/// Counts the trees freed, to give their memory back now and then.
#[derive(Default)]
pub(super) struct Dropper {
    /// Trees freed since memory was last given back.
    released: usize,
}

impl Dropper {
    /// Frees `trees` (those that hold the last reference to theirs).
    pub(super) fn free(&mut self, trees: Batch) {
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
