//! Previews: a catalogue → a PNG of every card face and back, one contact sheet per deck
//! and a static HTML gallery with the validation result, under `OUT/<game>/preview/`
//! (`deckpress preview`); kept up to date by `watch`; Tabletop Simulator sheets by
//! `export tts`. Everything is drawn with resvg from the trees `render` makes for the PDF,
//! so what a designer sees is what prints. The game is loaded and validated once, as every
//! command does (`plan::check`), and a valid one is handed back for `watch --pdf` to build
//! without loading it again.
//!
//! Unlike `build`, a preview does not stop at the first broken stage: a catalogue that
//! breaks its rules, or a card whose template fails, still gets pictures of everything
//! that could be drawn, with the problems at the top of the gallery (and exit code 1).
//!
//! `snapshot` says what there is to show, `draw` draws it, `page` writes the gallery,
//! `folder` keeps the folder in step across builds, `card` is `--card`, `flats` box flats
//! and label sheets.

mod card;
pub mod contact;
mod draw;
mod flats;
mod folder;
pub mod gallery;
mod page;
mod snapshot;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostic, Failure};
use crate::job::{Game, PreviewOptions};
use crate::length::Length;
use crate::limits::Limits;
use crate::model::Catalogue;
use crate::output::slug;
use crate::progress::Progress;
use crate::services::{preview_name, PREVIEW};
use crate::validate::Validated;
use crate::world::World;
use draw::Painter;
use snapshot::{render_some, Picture, Snapshot};

/// Width of a card on a contact sheet, in pixels.
const THUMB_WIDTH: u32 = 180;

/// Pictures on one contact sheet: ten rows of ten. A deck with more gets a sheet per
/// hundred, each written as soon as its cards are drawn, so a preview holds the pixels
/// of one sheet at a time however large the deck.
pub const PER_CONTACT_SHEET: usize = 100;

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
            build(&game.world, &options, limits, &mut Cache::default()).and_then(Built::into_result)
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

/// Colours that move more than this (CIEDE2000) through the press are listed.
const PROOF_DELTA_E: f64 = 10.0;

/// Where a game's previews go: `OUT/GAME/preview/`, or `preview-LANG/` for an edition.
pub(crate) fn preview_dir(options: &PreviewOptions, game: &str) -> PathBuf {
    let lang = options.lang.as_ref().map(|lang| format!("-{lang}")).unwrap_or_default();
    let cvd = options.cvd.map(|cvd| format!("-{}", cvd.name())).unwrap_or_default();
    let folder = preview_name(PREVIEW.folder, &[("lang", &lang), ("cvd", &cvd)]);
    options.out.join(game).join(folder)
}

/// `cards/x.png` → `cards/x.proof.png`: where a picture's soft proof goes.
fn proof_file(file: &str) -> String {
    preview_name(PREVIEW.proof, &[("stem", file.strip_suffix(".png").unwrap_or(file))])
}

/// What earlier builds drew, so that `watch` redraws only the cards whose filled SVG
/// changed. Fingerprints, not pictures: the cache stays small however large the deck.
#[derive(Default)]
pub(crate) struct Cache {
    /// PNG path → fingerprint of the filled SVG it was drawn from.
    drawn: HashMap<PathBuf, u64>,
    /// Contact sheet path → fingerprint of what it shows.
    sheets: HashMap<PathBuf, u64>,
    /// The game's id from the last catalogue that loaded: where to put the gallery that
    /// reports a catalogue that no longer loads (a half-saved `game.toml`).
    pub(crate) id: Option<String>,
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

/// One full build: pictures whose art changed since `cache` was filled, contact sheets
/// whose content changed, and the gallery. Cards are filled, parsed and drawn a contact
/// sheet at a time; each sheet is written before the next one's cards are parsed.
pub(crate) fn build(
    world: &World,
    options: &Options,
    limits: &Limits,
    cache: &mut Cache,
) -> Result<Built, Failure> {
    let fallback = cache.id.clone().unwrap_or_else(|| folder_name(world));
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
            let total: usize = snap.pictures().count();
            let progress = Progress::new(total, "drawing", options.quiet || total < 8);
            let mut painter = Painter {
                dir: &dir,
                options,
                cache: &mut *cache,
                progress: &progress,
                tally: Default::default(),
                problems: Default::default(),
            };
            for d in 0..snap.decks.len() {
                draw::draw_deck(cat, d, &mut snap, &mut painter)?;
            }
            let sheets: Vec<&Picture> = snap.sheets.iter().collect();
            let lang = options.lang.as_deref();
            let pieces = render_some(cat, None, &sheets, lang, &mut painter.problems);
            draw::draw_batch(&mut snap.sheets, pieces, false, &mut painter)?;
            let Painter { tally, problems: mut drawing, .. } = painter;
            drop(progress);
            // Box flats and label sheets, as whole pages, after the boards and pads.
            let mut slugs = crate::output::Slugs::default();
            for sheet in &snap.sheets {
                slugs.make(&sheet.id);
            }
            let folders = flats::Folders { out: &options.out, dir: &dir };
            let flats = flats::draw(&checked, folders, &mut slugs, limits, &mut drawing)?;
            for picture in &flats {
                cache.drawn.extend(picture.art.map(|art| (dir.join(&picture.file), art)));
            }
            snap.sheets.extend(flats);
            if let Some(path) = before {
                snap.changes = Some(folder::compare_before(&path, &snap, &dir, options.dpi)?);
            }
            let validated = snap.validated(checked, drawing);
            (snap, tally, validated)
        }
        Err(Failure::Invalid(problems, sources)) => {
            (Snapshot::unloaded(fallback, problems, sources), Default::default(), None)
        }
        Err(e) => return Err(e),
    };
    cache.id = Some(snap.id.clone());
    let dir = preview_dir(options, &snap.id);
    // A piece that can no longer be drawn must be drawn again once it is fixed.
    for picture in snap.pictures().filter(|p| p.art.is_none()) {
        cache.drawn.remove(&dir.join(&picture.file));
    }
    let mut lines = vec![dir.join(PREVIEW.gallery).display().to_string()];
    lines.extend(
        snap.decks.iter().flat_map(|d| &d.contact).map(|c| dir.join(c).display().to_string()),
    );
    if let Some(condition) = &options.proof {
        lines.extend(page::proof_lines(&snap, &condition.identifier));
    }
    let page = page::gallery_page(&snap, cache, &dir, options.refresh, options.proof.as_ref());
    write(&dir.join(PREVIEW.gallery), gallery::html(&page).as_bytes())?;
    folder::remove_stale(&dir, &snap);

    let problems = snap
        .problems
        .iter()
        .any(Diagnostic::is_error)
        .then(|| Failure::Invalid(snap.problems.clone(), snap.sources.clone()));
    Ok(Built {
        lines,
        problems,
        drawn: tally.drawn,
        kept: tally.kept,
        library_decks: snap.library_decks.clone(),
        validated,
    })
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    crate::output::write_atomic_unsynced(path, bytes)
        .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))
}

pub(crate) fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
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
