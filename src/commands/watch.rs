//! `deckpress watch`: rebuilds the previews (and with `--pdf` the PDFs) whenever a file of
//! the catalogue, or of a library deck it uses, changes. Only cards whose filled SVG
//! changed are drawn again: each rebuild runs the preview's plan into the raster sink,
//! handing it the cache of what it drew (`plan::PictureCache`) from one rebuild to the
//! next. A half-saved CSV or a broken template is reported and the watch goes on; the
//! gallery reloads itself, so the browser follows the edits.
//!
//! This is the one command that runs until stopped, so it reports as it goes through a
//! callback; `print` is the callback `app` gives it, the only printing outside `main`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher};

use crate::cli::WatchArgs;
use crate::diag::Failure;
use crate::diag::{plural, printable};
use crate::job::{Game, Job, Output, PreviewOptions, Print};
use crate::limits::Limits;
use crate::plan::PictureCache as Cache;
use crate::preview::{build, Options};

/// Editors write a file in bursts (truncate, write, rename); wait this long for quiet.
const DEBOUNCE: Duration = Duration::from_millis(150);
/// How often the gallery page reloads itself while watching.
const REFRESH_SECONDS: u32 = 1;

/// What the watcher has to say.
pub enum Event {
    Watching(Vec<PathBuf>),
    /// A rebuild finished: a summary line, then the files written.
    Built(Vec<String>),
    /// The catalogue has problems (the gallery shows them too).
    Problems(Failure),
    /// Something went wrong that the next change may fix.
    Error(String),
}

/// Watches until the process is stopped. Errors before the first build (no such game, a
/// folder that cannot be watched) end it with exit code 2.
pub fn watch(args: &WatchArgs, report: &mut dyn FnMut(&Event)) -> Result<(), Failure> {
    let (name, world) = crate::games::resolve(std::slice::from_ref(&args.game), false)?
        .pop()
        .ok_or_else(|| Failure::Io("no game to watch".to_string()))?;
    let Some(root) = world.disk_root().map(Path::to_path_buf) else {
        return Err(Failure::Io(format!(
            "`{name}` is built into deckpress and cannot change while it runs; copy it to a folder to work on it: `deckpress new my-game --from {name}`"
        )));
    };
    // A catalogue folder that is not one at all is a usage error, not something to wait out.
    if !root.join(crate::load::GAME_TOML).is_file() {
        return Err(Failure::Io(format!(
            "{} has no {}: is it a catalogue folder?",
            world.root().display(),
            crate::load::GAME_TOML
        )));
    }
    let library = crate::world::World::templates();
    let library_root = library.disk_root().map(Path::to_path_buf);
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure::Io(format!("cannot create {}: {e}", args.out.display())))?;
    let out = canonical(&args.out)?;

    let (tx, rx) = std::sync::mpsc::channel::<notify::Result<notify::Event>>();
    let mut watcher = notify::recommended_watcher(tx)
        .map_err(|e| Failure::Io(format!("cannot watch files: {e}")))?;
    let mut watched = vec![root.clone()];
    watched.extend(library_root.clone());
    for path in &watched {
        watcher
            .watch(path, RecursiveMode::Recursive)
            .map_err(|e| Failure::Io(format!("cannot watch {}: {e}", path.display())))?;
    }
    report(&Event::Watching(watched));

    let options = Options::from(&PreviewOptions {
        out: args.out.clone(),
        dpi: args.dpi,
        quiet: false,
        card: None,
        guides: false,
        proof: None,
        refresh: Some(REFRESH_SECONDS),
        lang: args.lang.clone(),
        cvd: None,
        changed_since: None,
    });
    let limits = Limits::default();
    let mut cache = Cache::default();
    let mut used_library: Option<Vec<PathBuf>> = None;
    let rebuild = |cache: &mut Cache,
                   used_library: &mut Option<Vec<PathBuf>>,
                   report: &mut dyn FnMut(&Event)| {
        let started = Instant::now();
        // A bug in a dependency must not end a session of work: report it and keep watching.
        let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            build(&world.fresh(), &options, &limits, cache)
        }));
        // No writer's lock file stays in the folders between rebuilds.
        crate::output::let_go_locks();
        match built {
            Ok(Ok(built)) => {
                *used_library = Some(built.library_decks.clone());
                let game = cache.game.as_deref().unwrap_or(&name);
                let mut lines = vec![format!(
                    "{game}: {} drawn, {} unchanged in {:.2} s",
                    plural(built.drawn, "picture"),
                    built.kept,
                    started.elapsed().as_secs_f32()
                )];
                lines.extend(built.lines.iter().take(1).cloned());
                if let Some(validated) = built.validated.filter(|_| args.pdf) {
                    let game = Game { name: name.clone(), world: world.fresh() };
                    lines.extend(pdfs(&game, validated, &args.out, args.lang.clone(), report));
                }
                report(&Event::Built(lines));
                if let Some(problems) = built.problems {
                    report(&Event::Problems(problems));
                }
            }
            Ok(Err(failure @ Failure::Invalid(..))) => report(&Event::Problems(failure)),
            Ok(Err(Failure::Io(message))) => report(&Event::Error(message)),
            Err(_) => {
                *cache = Cache::default();
                report(&Event::Error(
                    "internal error while rebuilding (see above); still watching".to_string(),
                ));
            }
        }
    };
    rebuild(&mut cache, &mut used_library, report);

    let relevant = |event: &notify::Result<notify::Event>, used: Option<&[PathBuf]>| match event {
        // Opening and reading a file (our own builds do) changes nothing.
        Ok(event) => {
            !matches!(event.kind, EventKind::Access(_))
                && event
                    .paths
                    .iter()
                    .any(|p| concerns(p, &root, &out, library_root.as_deref(), used))
        }
        Err(_) => false,
    };
    while let Ok(first) = rx.recv() {
        if let Err(e) = &first {
            report(&Event::Error(format!("watching files: {e}")));
        }
        let mut changed = relevant(&first, used_library.as_deref());
        // Debounce: an editor's save is a burst of events; rebuild once it has been quiet.
        while let Ok(next) = rx.recv_timeout(DEBOUNCE) {
            changed |= relevant(&next, used_library.as_deref());
        }
        if changed {
            rebuild(&mut cache, &mut used_library, report);
        }
    }
    Ok(())
}

/// Whether a changed path should trigger a rebuild: a file of the catalogue or of a library
/// deck it uses (any library deck until one build has said which), never our own output.
fn concerns(
    path: &Path,
    root: &Path,
    out: &Path,
    library: Option<&Path>,
    used: Option<&[PathBuf]>,
) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    if path.starts_with(out) || name.starts_with(".deckpress-") {
        return false;
    }
    if path.starts_with(root) {
        return true;
    }
    match (library, used) {
        (Some(lib), Some(used)) => {
            path.starts_with(lib)
                && used.iter().any(|u| path.starts_with(canonical(u).as_deref().unwrap_or(u)))
        }
        (Some(lib), None) => path.starts_with(lib),
        (None, _) => false,
    }
}

fn canonical(path: &Path) -> Result<PathBuf, Failure> {
    path.canonicalize().map_err(|e| Failure::Io(format!("cannot watch {}: {e}", path.display())))
}

/// `watch --pdf`: the A4 PDFs (of the edition watched) of the game the previews loaded and
/// validated, built as `build` does without loading it again.
fn pdfs(
    game: &Game,
    validated: crate::validate::Validated,
    out: &Path,
    lang: Option<String>,
    report: &mut dyn FnMut(&Event),
) -> Vec<String> {
    let job = Job {
        games: Vec::new(),
        print: Print { lang, ..Print::default() },
        limits: Limits::default(),
        strict: false,
        output: Output::Files { out: out.to_path_buf() },
    };
    match crate::driver::print_game(&job, game, validated).result {
        Ok(written) => written,
        Err(failure) => {
            report(&Event::Problems(failure));
            Vec::new()
        }
    }
}

/// Prints events the way `main` prints results: files on stdout, problems on stderr.
pub fn print(event: &Event) {
    let color = std::io::stderr().is_terminal();
    match event {
        Event::Watching(paths) => {
            let list: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            eprintln!("watching {} (Ctrl-C to stop)", printable(&list.join(" and ")));
        }
        Event::Built(lines) => lines.iter().for_each(|l| println!("{}", printable(l))),
        Event::Problems(Failure::Invalid(diags, sources)) => {
            eprint!("{}", sources.render(diags, color));
            eprintln!(
                "{} problem{} found; still watching",
                diags.len(),
                if diags.len() == 1 { "" } else { "s" }
            );
        }
        Event::Problems(Failure::Io(message)) | Event::Error(message) => {
            eprintln!("error: {}", printable(message))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_catalogue_and_used_library_files_count() {
        let (root, out, lib) =
            (Path::new("/c/game"), Path::new("/c/game/output"), Path::new("/lib"));
        let used = [PathBuf::from("/lib/french")];
        assert!(concerns(Path::new("/c/game/cards.csv"), root, out, Some(lib), Some(&used)));
        assert!(!concerns(
            Path::new("/c/game/output/game/preview/x.png"),
            root,
            out,
            Some(lib),
            Some(&used)
        ));
        assert!(!concerns(
            Path::new("/c/game/.deckpress-123.tmp"),
            root,
            out,
            Some(lib),
            Some(&used)
        ));
        assert!(concerns(Path::new("/lib/french/cards.csv"), root, out, Some(lib), Some(&used)));
        assert!(!concerns(Path::new("/lib/german/cards.csv"), root, out, Some(lib), Some(&used)));
        assert!(concerns(Path::new("/lib/german/cards.csv"), root, out, Some(lib), None));
    }
}
