//! Progress for long renders: a bar on a terminal, nothing otherwise. The bar draws to
//! stderr (stdout carries the list of written files), so it is not "printing" a result.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar that hides itself with `--quiet` or when stderr is not a terminal.
pub struct Progress(ProgressBar);

impl Progress {
    pub fn new(len: usize, what: &str, quiet: bool) -> Self {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(len as u64), target);
        if let Ok(style) =
            ProgressStyle::with_template("{msg:>12} [{bar:30}] {pos}/{len} {elapsed}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(what.to_string());
        Self(bar)
    }

    /// One more item done; callable from worker threads.
    pub fn tick(&self) {
        self.0.inc(1);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
