//! Previews: a catalogue → a PNG of every card face and back, one contact sheet per deck
//! and a static HTML gallery with the validation result, under `OUT/<game>/preview/`
//! (`deckpress preview`); kept up to date by `watch`; Tabletop Simulator sheets by
//! `export tts`. A preview is a plan run into the raster sink, as `build` runs one into
//! files: the game is loaded and validated once (`plan::check`), `plan::pictures` plans
//! its picture documents (a set per deck, the boards and pads, box flats and label
//! sheets), `plan::execute` runs them into `Sink::Raster`, whose picture mode
//! (`plan::raster`) is the one painter: resvg, from the trees `render` makes for the PDF,
//! so what a designer sees is what prints. Then the gallery is written from what was made.
//! A valid game is handed back for `watch --pdf` to build without loading it again;
//! `watch` passes the picture mode's cache (`plan::PictureCache`) from one build to the
//! next, so only pictures whose filled SVG changed are drawn again.
//!
//! Unlike `build`, a preview does not stop at the first broken stage: a catalogue that
//! breaks its rules, or a card whose template fails, still gets pictures of everything
//! that could be drawn, with the problems at the top of the gallery (and exit code 1).
//! The executor's context is a `Validated` game, so a rejected catalogue's planned
//! documents are handed to the same painters directly, with the pieces that could be drawn.
//!
//! `snapshot` says what there is to show, `page` writes the gallery, `folder` keeps the
//! folder in step across builds, `card` is `--card`, `flats` box flats and label sheets.

mod card;
mod flats;
mod folder;
pub mod gallery;
mod page;
mod snapshot;

use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Failure};
use crate::job::{Game, PreviewOptions};
use crate::length::Length;
use crate::limits::Limits;
use crate::model::Catalogue;
use crate::output::slug;
use crate::plan::pictures::Set;
use crate::plan::raster::{proof_file, PicturesDrawn, PROOF_DELTA_E};
use crate::plan::{Checked, PictureCache, PictureMode};
use crate::progress::Progress;
use crate::services::{preview_name, PREVIEW};
use crate::validate::Validated;
use crate::world::World;
use snapshot::Snapshot;

/// `deckpress preview` of one game: every picture, or with `--card` one card's.
pub fn preview(
    game: &Game,
    options: &PreviewOptions,
    limits: &Limits,
) -> Result<Vec<String>, Failure> {
    let options = Options::from(options);
    match &options.card {
        Some(id) => card::one_card(&game.world, id, &options, limits),
        None => {
            let mut cache = PictureCache::default();
            build(&game.world, &options, limits, &mut cache).and_then(Built::into_result)
        }
    }
}

/// How previews are drawn and where they go: the job's options and, once the catalogue is
/// loaded, the soft proof's press.
#[derive(Clone)]
pub(crate) struct Options {
    job: PreviewOptions,
    /// `--proof`'s condition with the catalogue's swatches.
    press: Option<std::sync::Arc<crate::press::Press>>,
}

impl From<&PreviewOptions> for Options {
    fn from(job: &PreviewOptions) -> Self {
        Self { job: job.clone(), press: None }
    }
}

impl std::ops::Deref for Options {
    type Target = PreviewOptions;
    fn deref(&self) -> &PreviewOptions {
        &self.job
    }
}

/// Where a game's previews go: `OUT/GAME/preview/`, or `preview-LANG/` for an edition.
pub(crate) fn preview_dir(options: &PreviewOptions, game: &str) -> PathBuf {
    let lang = options.lang.as_ref().map(|lang| format!("-{lang}")).unwrap_or_default();
    let cvd = options.cvd.map(|cvd| format!("-{}", cvd.name())).unwrap_or_default();
    let folder = preview_name(PREVIEW.folder, &[("lang", &lang), ("cvd", &cvd)]);
    options.out.join(game).join(folder)
}

/// What one build did.
pub(crate) struct Built {
    /// Files for the user to open: the gallery, then the contact sheets.
    pub lines: Vec<String>,
    /// `Failure::Invalid` with every problem, when the catalogue has any.
    pub problems: Option<Failure>,
    /// Cards (and backs) drawn anew, and kept from the previous build.
    pub drawn: usize,
    pub kept: usize,
    /// Library deck folders the catalogue uses (for `watch`).
    pub library_decks: Vec<PathBuf>,
    /// The game, when it is valid and every piece could be drawn: PDFs can be built.
    pub validated: Option<Validated>,
}

impl Built {
    fn into_result(self) -> Result<Vec<String>, Failure> {
        match self.problems {
            Some(failure) => Err(failure),
            None => Ok(self.lines),
        }
    }
}

fn folder_name(world: &World) -> String {
    let name = world
        .root()
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    slug(&name.unwrap_or_else(|| "game".to_string()))
}

/// One full build: the plan's pictures whose art changed since `cache` was filled,
/// contact sheets whose content changed, and the gallery. Cards are filled, parsed and
/// drawn a contact sheet at a time; each sheet is written before the next one's cards are
/// parsed.
pub(crate) fn build(
    world: &World,
    options: &Options,
    limits: &Limits,
    cache: &mut PictureCache,
) -> Result<Built, Failure> {
    let fallback = cache.game.clone().unwrap_or_else(|| folder_name(world));
    let (snap, tally, validated) = match crate::plan::check(world, limits) {
        Ok(checked) => {
            let cat = checked.catalogue();
            cat.check_lang(options.lang.as_deref()).map_err(Failure::Io)?;
            let mut snap = Snapshot::new(cat, options.lang.as_deref());
            let dir = preview_dir(options, &snap.id);
            let options = &with_press(options, cat)?;
            let before = match &options.changed_since {
                Some(path) => Some(folder::keep_before(path, &snap, &dir)?),
                None => None,
            };
            let sets = std::mem::take(&mut snap.decks)
                .into_iter()
                .chain([Set::sheets(std::mem::take(&mut snap.sheets))]);
            let drawn = draw_pictures(&checked, sets.collect(), &dir, options, limits, cache)?;
            for set in drawn.sets {
                match set.deck {
                    Some(_) => snap.decks.push(set),
                    None => snap.sheets = set.pictures,
                }
            }
            let (tally, mut drawing) = ((drawn.drawn, drawn.kept), drawn.problems);
            // Box flats and label sheets, as whole pages, after the boards and pads.
            let mut slugs = crate::output::Slugs::default();
            for sheet in &snap.sheets {
                slugs.make(&sheet.id);
            }
            let folders = flats::Folders { out: &options.out, dir: &dir };
            let flats = flats::draw(&checked, folders, &mut slugs, limits, &mut drawing)?;
            for picture in &flats {
                if let Some(art) = picture.art {
                    cache.note(dir.join(&picture.file), art);
                }
            }
            snap.sheets.extend(flats);
            if let Some(path) = before {
                snap.changes = Some(folder::compare_before(&path, &snap, &dir, options.dpi)?);
            }
            let validated = snap.validated(checked, drawing);
            (snap, tally, validated)
        }
        Err(Failure::Invalid(problems, sources)) => {
            (Snapshot::unloaded(fallback, problems, sources), (0, 0), None)
        }
        Err(e) => return Err(e),
    };
    cache.game = Some(snap.id.clone());
    let dir = preview_dir(options, &snap.id);
    // A piece that can no longer be drawn must be drawn again once it is fixed.
    for picture in snap.pictures().filter(|p| p.art.is_none()) {
        cache.forget(&dir.join(&picture.file));
    }
    let mut lines = vec![dir.join(PREVIEW.gallery).display().to_string()];
    lines.extend(
        snap.decks.iter().flat_map(|d| &d.contact).map(|c| dir.join(c).display().to_string()),
    );
    if let Some(condition) = &options.proof {
        lines.extend(page::proof_lines(&snap, &condition.identifier));
    }
    let page = page::gallery_page(&snap, cache, &dir, options.refresh, options.proof.as_ref());
    crate::output::write_preview(&dir.join(PREVIEW.gallery), gallery::html(&page).as_bytes())?;
    folder::remove_stale(&dir, &snap);

    let problems = snap
        .problems
        .iter()
        .any(Diagnostic::is_error)
        .then(|| Failure::Invalid(snap.problems.clone(), snap.sources.clone()));
    Ok(Built {
        lines,
        problems,
        drawn: tally.0,
        kept: tally.1,
        library_decks: snap.library_decks.clone(),
        validated,
    })
}

/// Draws the game's picture `sets` into `dir`: the plan's picture documents run into the
/// raster sink's picture mode (a rejected catalogue's handed to the same painter with what
/// could be loaded), skipping those `cache` drew already. Returns what was drawn: the sets
/// with their art, how many pictures were drawn and kept, and the problems met (its cache
/// is `cache` again).
fn draw_pictures(
    checked: &Checked,
    sets: Vec<Set>,
    dir: &Path,
    options: &Options,
    limits: &Limits,
    cache: &mut PictureCache,
) -> Result<PicturesDrawn, Failure> {
    let cat = checked.catalogue();
    let mode = picture_mode(&sets, dir, options, std::mem::take(cache));
    let folder = dir.strip_prefix(&options.out).unwrap_or(dir);
    let documents: Vec<_> = sets.into_iter().map(|set| set.document(folder)).collect();
    let sink = crate::plan::Sink::Raster { dpi: options.dpi, pictures: Some(&mode) };
    let lang = options.lang.as_deref();
    let drawn = match checked {
        Checked::Valid(validated) => run_plan(validated, documents, &sink, options, limits),
        Checked::Rejected { .. } => documents.iter().try_for_each(|doc| match &doc.body {
            crate::plan::Body::Pictures(set) => {
                crate::plan::raster::draw_set(cat, lang, set, &mode, options.dpi)
            }
            _ => Ok(()),
        }),
    };
    let mut state = mode.state.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    *cache = std::mem::take(&mut state.cache);
    drawn.map(|()| state)
}

/// How `options` asks for the pictures of `sets` drawn into `dir`, skipping those `cache`
/// drew already.
fn picture_mode(sets: &[Set], dir: &Path, options: &Options, cache: PictureCache) -> PictureMode {
    let total = sets.iter().map(|set| set.pictures.len()).sum();
    PictureMode {
        dir: dir.to_path_buf(),
        cvd: options.cvd,
        press: options.press.clone(),
        guides: options.guides,
        progress: Progress::new(total, "drawing", options.quiet || total < 8),
        state: std::sync::Mutex::new(PicturesDrawn { cache, ..Default::default() }),
    }
}

/// The pictures of a valid game's `sets` drawn into `dir` (under `options.out`) as a
/// preview draws them, through the plan's raster sink: what the playtest table shows.
pub(crate) fn draw_sets(
    validated: &Validated,
    sets: Vec<Set>,
    dir: &Path,
    options: &PreviewOptions,
    limits: &Limits,
) -> Result<PicturesDrawn, Failure> {
    let options = Options::from(options);
    let mode = picture_mode(&sets, dir, &options, PictureCache::default());
    let folder = dir.strip_prefix(&options.out).unwrap_or(dir);
    let documents: Vec<_> = sets.into_iter().map(|set| set.document(folder)).collect();
    let sink = crate::plan::Sink::Raster { dpi: options.dpi, pictures: Some(&mode) };
    run_plan(validated, documents, &sink, &options, limits)?;
    Ok(mode.state.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// The job a preview's plan runs under: nothing printed but pictures, within `limits`.
fn picture_job(limits: &Limits) -> crate::job::Job {
    crate::job::Job {
        games: Vec::new(),
        print: crate::job::Print::default(),
        limits: limits.clone(),
        strict: false,
        output: crate::job::Output::Check,
    }
}

/// Runs the picture documents of a valid game through the one executor into `sink`.
fn run_plan(
    validated: &Validated,
    documents: Vec<crate::plan::Document>,
    sink: &crate::plan::Sink,
    options: &Options,
    limits: &Limits,
) -> Result<(), Failure> {
    let job = picture_job(limits);
    let fits = vec![None; validated.catalogue().decks.len()];
    let lang = options.lang.as_deref();
    let ctx = crate::plan::Context { job: &job, validated, fits: &fits, lang, press: None };
    let executor =
        crate::plan::Executor { ctx: &ctx, sink, drawn: crate::plan::Drawn::Note(false) };
    let plan = crate::plan::Plan { documents, notes: Vec::new() };
    // The game's warnings are the gallery's already, and every problem met drawing the
    // pictures is the picture mode's (grouped over every batch): only a failure to write
    // one ends the preview. A problem met setting up the drawing (`Invalid`) was met by
    // each batch the picture mode drew too.
    match executor.run(&mut Vec::new(), |_, _| Ok(plan)) {
        Ok(_) | Err(Failure::Invalid(..)) => Ok(()),
        Err(e) => Err(e),
    }
}

fn mm(length: Length) -> String {
    let mm = length.to_mm();
    if (mm - mm.round()).abs() < 0.05 {
        format!("{mm:.0}")
    } else {
        format!("{mm:.1}")
    }
}

/// The options with the soft proof's press made for `cat`: its swatches print as their own
/// inks, as in a CMYK build.
fn with_press(options: &Options, cat: &Catalogue) -> Result<Options, Failure> {
    let mut options = options.clone();
    if let Some(condition) = options.proof.clone() {
        let press = crate::press::Press::for_catalogue(
            condition,
            crate::press::Pdfx::X1a,
            crate::press::RenderIntent::Relative,
            None,
            &cat.colour,
        )
        .map_err(Failure::Io)?;
        press.ready().map_err(Failure::Io)?;
        options.press = Some(std::sync::Arc::new(press));
    }
    Ok(options)
}
