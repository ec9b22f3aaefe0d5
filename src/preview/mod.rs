//! Previews: a catalogue → a PNG of every card face and back, one contact sheet per deck
//! and a static HTML gallery with the validation result, under `OUT/<game>/preview/`
//! (`deckpress preview`); kept up to date by `watch`; Tabletop Simulator sheets by
//! `export tts`. Everything is drawn with resvg from the trees `render` makes for the PDF,
//! so what a designer sees is what prints.
//!
//! Unlike `build`, a preview does not stop at the first broken stage: a catalogue that
//! breaks its rules, or a card whose template fails, still gets pictures of everything
//! that could be drawn, with the problems at the top of the gallery (and exit code 1).

pub mod contact;
mod flats;
pub mod gallery;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use resvg::tiny_skia::Pixmap;

use crate::diag::{Diagnostic, Failure, Sources};
use crate::export::raster as png;
use crate::job::{Game, PreviewOptions};
use crate::length::Length;
use crate::limits::Limits;
use crate::model::{Catalogue, Shape, SheetSize};
use crate::output::{fingerprint, slug, Slugs};
use crate::parallel::par_map;
use crate::progress::Progress;
use crate::world::World;

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
        Some(id) => one_card(&game.world, id, &options, limits),
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
    let mut folder = "preview".to_string();
    if let Some(lang) = &options.lang {
        folder.push_str(&format!("-{lang}"));
    }
    if let Some(cvd) = options.cvd {
        folder.push_str(&format!("-{}", cvd.name()));
    }
    options.out.join(game).join(folder)
}

/// `cards/x.png` → `cards/x.proof.png`: where a picture's soft proof goes.
fn proof_file(file: &str) -> String {
    format!("{}.proof.png", file.strip_suffix(".png").unwrap_or(file))
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
    /// The game is valid: PDFs can be built.
    pub valid: bool,
}

impl Built {
    fn into_result(self) -> Result<Vec<String>, Failure> {
        match self.problems {
            Some(failure) => Err(failure),
            None => Ok(self.lines),
        }
    }
}

/// A game as far as it could be read and drawn, with every problem found on the way.
/// It holds names and fingerprints, never pictures or trees: those live for one contact
/// sheet's worth of cards.
struct Snapshot {
    id: String,
    name: String,
    description: String,
    /// `Validated::summary` when the catalogue is valid and every piece could be drawn.
    valid: Option<String>,
    problems: Vec<Diagnostic>,
    sources: Sources,
    decks: Vec<DeckView>,
    /// Boards and score pads, page-sized ones filled for A4.
    sheets: Vec<Picture>,
    library_decks: Vec<PathBuf>,
    /// The catalogue loaded: the pictures above are all it has (not so for a half-saved file).
    loaded: bool,
    /// `--changed-since`: the pictures that differ from the previous preview's.
    changes: Option<gallery::Changes>,
}

struct DeckView {
    slug: String,
    name: String,
    /// Faces in row order, then the back or backs: every picture of the deck.
    pictures: Vec<Picture>,
    /// How many of `pictures` are faces.
    designs: usize,
    /// The deck's contact sheets, relative to the preview folder.
    contact: Vec<String>,
}

impl DeckView {
    fn card_count(&self) -> u32 {
        self.pictures.iter().filter_map(|c| c.count).sum()
    }

    /// The pictures of each contact sheet.
    fn pages(&self) -> Vec<std::ops::Range<usize>> {
        (0..self.pictures.len())
            .step_by(PER_CONTACT_SHEET)
            .map(|first| first..(first + PER_CONTACT_SHEET).min(self.pictures.len()))
            .collect()
    }
}

/// Which piece of the catalogue a picture shows.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    Face(usize),
    /// A per-card back (the row), or the deck's one back (0).
    Back(usize),
    Sheet,
}

/// One PNG: a card face, a back, or a sheet component.
struct Picture {
    id: String,
    /// The caption: the card's id, "card back", or the sheet's name.
    label: String,
    /// Copies in the deck, for faces.
    count: Option<u32>,
    /// Where its PNG goes, relative to the preview folder, with `/` separators.
    file: String,
    size: (Length, Length),
    /// Contact-sheet thumbnail size in pixels, for deck pieces.
    thumb: Option<(u32, u32)>,
    which: Which,
    /// Fingerprint of the filled SVG its tree was made from (and of its outline), once
    /// drawn; `None` when it could not be drawn or was not asked for (`--card`).
    art: Option<u64>,
    /// The piece's outline (boards and pads: a plain rectangle): what is masked off.
    shape: Shape,
    corner: Length,
    /// With `--proof`: its colours that move more than `PROOF_DELTA_E` in print.
    moved: Vec<crate::press::Moved>,
}

impl Picture {
    /// Pixel size at `dpi`; sheets larger than a screen are drawn at a lower resolution.
    fn pixels(&self, dpi: u32) -> Result<(u32, u32), Failure> {
        let longest_in = self.size.0.to_pt().max(self.size.1.to_pt()) / 72.0;
        let dpi = if self.thumb.is_none() {
            dpi.min((MAX_SHEET_SIDE as f32 / longest_in) as u32).max(1)
        } else {
            dpi
        };
        png::pixel_size(self.size.0, self.size.1, dpi).map_err(Failure::Io)
    }
}

/// Longest side of a board or pad preview, in pixels.
const MAX_SHEET_SIDE: u32 = 4096;

impl Snapshot {
    /// A catalogue that could not be loaded: its problems and no pictures.
    fn unloaded(id: String, problems: Vec<Diagnostic>, sources: Sources) -> Self {
        Self {
            name: id.clone(),
            id,
            description: String::new(),
            valid: None,
            problems,
            sources,
            decks: Vec::new(),
            sheets: Vec::new(),
            library_decks: Vec::new(),
            loaded: false,
            changes: None,
        }
    }

    /// Names, files and sizes of every picture of `cat`; nothing drawn yet.
    fn new(cat: &Catalogue, lang: Option<&str>) -> Self {
        let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size)).collect();
        Self {
            id: cat.id.clone(),
            name: cat.name_in(lang).to_string(),
            description: cat.description_in(lang).to_string(),
            valid: None,
            problems: Vec::new(),
            sources: cat.sources.clone(),
            decks: deck_views(cat, lang),
            sheets: sheet_views(cat, &sizes),
            library_decks: library_decks(cat),
            loaded: true,
            changes: None,
        }
    }

    /// Validates the catalogue (which it takes) and adds what drawing it met.
    fn validated(&mut self, cat: Catalogue, drawing: crate::diag::Grouped) -> Result<(), Failure> {
        let (valid, mut problems, sources) = match crate::validate::validate(cat) {
            Ok(v) => (Some(v.summary()), v.warnings().to_vec(), v.catalogue().sources.clone()),
            Err(Failure::Invalid(problems, sources)) => (None, problems, sources),
            Err(e) => return Err(e),
        };
        let drawing = drawing.finish();
        // Warnings (low-resolution art, a text near the edge) do not stop a build: nor here.
        self.valid = valid.filter(|_| !drawing.iter().any(Diagnostic::is_error));
        problems.extend(drawing);
        self.problems = problems;
        self.sources = sources;
        Ok(())
    }

    fn pictures(&self) -> impl Iterator<Item = &Picture> {
        self.decks.iter().flat_map(|d| &d.pictures).chain(&self.sheets)
    }
}

/// Fills and parses the pictures of deck `d` (or the sheets) listed in `pictures`;
/// returns their pieces in that order, and hands the problems met to `problems`.
fn render_some(
    cat: &Catalogue,
    d: Option<usize>,
    pictures: &[&Picture],
    lang: Option<&str>,
    problems: &mut crate::diag::Grouped,
) -> Vec<Option<crate::render::Piece>> {
    let decks = cat.decks.len();
    let (mut faces, mut backs) = (vec![Vec::new(); decks], vec![Vec::new(); decks]);
    let mut shared = false;
    let per_card = d.is_some_and(|d| cat.decks[d].back_per_card);
    for p in pictures {
        match (d, p.which) {
            (Some(d), Which::Face(row)) => faces[d].push(row),
            (Some(d), Which::Back(row)) if per_card => backs[d].push(row),
            (Some(_), Which::Back(_)) => shared = true,
            _ => {}
        }
    }
    let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size)).collect();
    let players = cat.players.map_or(1, |(_, max)| max);
    let request = crate::render::Request {
        wanted: &|_, _| false,
        rows: Some(&faces),
        back_rows: Some(&backs),
        shared_back: &|deck| shared && Some(deck) == d,
        sheet_sizes: d.is_none().then_some(&sizes[..]),
        players,
        lang,
        drawn_before: None,
    };
    let drawn = crate::render::pieces(cat, &request);
    problems.extend(drawn.problems);
    let mut by_piece: HashMap<(bool, usize), crate::render::Piece> = HashMap::new();
    if let Some(deck) = d.and_then(|d| drawn.decks.into_iter().nth(d)) {
        by_piece.extend(deck.faces.into_iter().map(|(row, p)| ((false, row), p)));
        by_piece.extend(deck.backs.into_iter().map(|(row, p)| ((true, row), p)));
    }
    let mut sheets = drawn.sheets.into_iter().map(Some).collect::<Vec<_>>().into_iter();
    pictures
        .iter()
        .map(|p| match p.which {
            Which::Face(row) => by_piece.remove(&(false, row)),
            Which::Back(row) => by_piece.remove(&(true, row)),
            Which::Sheet => sheets.next().flatten(),
        })
        .collect()
}

/// Page-sized sheets are previewed on A4, as `build` prints them by default.
fn sheet_size(size: SheetSize) -> (Length, Length) {
    let (w, h) = crate::layout::Paper::A4.size();
    match size {
        SheetSize::Page { landscape: false } => (w, h),
        SheetSize::Page { landscape: true } => (h, w),
        SheetSize::Fixed { width, height } => (width, height),
    }
}

fn deck_views(cat: &Catalogue, lang: Option<&str>) -> Vec<DeckView> {
    let mut deck_slugs = Slugs::default();
    cat.decks
        .iter()
        .enumerate()
        .map(|(d, deck)| {
            let slug = deck_slugs.make(&deck.id);
            let size = (deck.width, deck.height);
            let thumb = Some((
                THUMB_WIDTH,
                (THUMB_WIDTH as f32 * deck.height.to_pt() / deck.width.to_pt()).round().max(1.0)
                    as u32,
            ));
            let mut card_slugs = Slugs::default();
            let names: Vec<String> = deck.rows.iter().map(|r| card_slugs.make(&r.id)).collect();
            let picture =
                |id: String, label: String, count: Option<u32>, file: String, which: Which| {
                    Picture {
                        id,
                        label,
                        count,
                        file,
                        size,
                        thumb,
                        which,
                        art: None,
                        shape: deck.shape,
                        corner: deck.corner,
                        moved: Vec::new(),
                    }
                };
            let mut pictures: Vec<Picture> = deck
                .rows
                .iter()
                .zip(&names)
                .enumerate()
                .map(|(i, (row, name))| {
                    picture(
                        row.id.clone(),
                        row.id.clone(),
                        Some(row.qty),
                        format!("{slug}/{name}.png"),
                        Which::Face(i),
                    )
                })
                .collect();
            let designs = pictures.len();
            if deck.back_per_card {
                pictures.extend(deck.rows.iter().zip(&names).enumerate().map(
                    |(i, (row, name))| {
                        picture(
                            row.id.clone(),
                            format!("back of {}", row.id),
                            None,
                            format!("{slug}/{name}.back.png"),
                            Which::Back(i),
                        )
                    },
                ));
            } else if deck.labels.is_none() {
                // A label has no back.
                pictures.push(picture(
                    "back".into(),
                    "card back".into(),
                    None,
                    format!("{slug}-back.png"),
                    Which::Back(0),
                ));
            }
            let name = cat.deck_name_in(d, lang).to_string();
            DeckView { slug, name, pictures, designs, contact: Vec::new() }
        })
        .collect()
}

fn sheet_views(cat: &Catalogue, sizes: &[(Length, Length)]) -> Vec<Picture> {
    let mut slugs = Slugs::default();
    cat.sheets
        .iter()
        .zip(sizes)
        .map(|(sheet, &size)| Picture {
            id: sheet.id.clone(),
            label: sheet.name.clone(),
            count: None,
            file: format!("sheets/{}.png", slugs.make(&sheet.id)),
            size,
            thumb: None,
            which: Which::Sheet,
            art: None,
            shape: Shape::Rect,
            corner: Length::ZERO,
            moved: Vec::new(),
        })
        .collect()
}

/// The folders under the library that this catalogue's decks read from (`library/french`).
fn library_decks(cat: &Catalogue) -> Vec<PathBuf> {
    let library = crate::world::World::templates();
    // Only a templates folder on disk can change while `watch` runs.
    let Some(disk) = library.disk_root() else { return Vec::new() };
    let files = cat
        .decks
        .iter()
        .flat_map(|d| [&d.rows_file, &d.face.file, &d.back.file])
        .chain(cat.sheets.iter().flat_map(|s| [&s.rows_file, &s.template.file]));
    let mut folders: Vec<PathBuf> = files
        .filter_map(|file| {
            file.strip_prefix(library.root()).ok()?.components().next().map(|c| disk.join(c))
        })
        .collect();
    folders.sort();
    folders.dedup();
    folders
}

fn folder_name(world: &World) -> String {
    let name = world
        .root()
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    slug(&name.unwrap_or_else(|| "game".to_string()))
}

/// What drawing a batch of pictures did.
#[derive(Default)]
struct Tally {
    drawn: usize,
    kept: usize,
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
    crate::driver::said_load(world);
    let (snap, tally) = match crate::load::load_with(world, limits) {
        Ok(cat) => {
            cat.check_lang(options.lang.as_deref()).map_err(Failure::Io)?;
            let mut snap = Snapshot::new(&cat, options.lang.as_deref());
            let dir = preview_dir(options, &snap.id);
            let options = &with_press(options, &cat)?;
            let before = match &options.changed_since {
                Some(path) => Some(keep_before(path, &snap, &dir)?),
                None => None,
            };
            let mut drawing = crate::diag::Grouped::default();
            let total: usize = snap.pictures().count();
            let progress = Progress::new(total, "drawing", options.quiet || total < 8);
            let mut tally = Tally::default();
            for d in 0..snap.decks.len() {
                draw_deck(
                    &cat,
                    d,
                    &mut snap,
                    &dir,
                    options,
                    cache,
                    &progress,
                    &mut tally,
                    &mut drawing,
                )?;
            }
            let sheets: Vec<&Picture> = snap.sheets.iter().collect();
            let pieces = render_some(&cat, None, &sheets, options.lang.as_deref(), &mut drawing);
            draw_batch(
                &mut snap.sheets,
                pieces,
                &dir,
                options,
                cache,
                &progress,
                false,
                &mut tally,
            )?;
            drop(progress);
            // Box flats and label sheets, as whole pages, after the boards and pads.
            let mut slugs = crate::output::Slugs::default();
            for sheet in &snap.sheets {
                slugs.make(&sheet.id);
            }
            let flats = flats::draw(&cat, &dir, &mut slugs, &mut drawing)?;
            for picture in &flats {
                cache.drawn.extend(picture.art.map(|art| (dir.join(&picture.file), art)));
            }
            snap.sheets.extend(flats);
            if let Some(path) = before {
                snap.changes = Some(compare_before(&path, &snap, &dir, options.dpi)?);
            }
            snap.validated(cat, drawing)?;
            (snap, tally)
        }
        Err(Failure::Invalid(problems, sources)) => {
            (Snapshot::unloaded(fallback, problems, sources), Tally::default())
        }
        Err(e) => return Err(e),
    };
    cache.id = Some(snap.id.clone());
    let dir = preview_dir(options, &snap.id);
    // A piece that can no longer be drawn must be drawn again once it is fixed.
    for picture in snap.pictures().filter(|p| p.art.is_none()) {
        cache.drawn.remove(&dir.join(&picture.file));
    }
    let mut lines = vec![dir.join("index.html").display().to_string()];
    lines.extend(
        snap.decks.iter().flat_map(|d| &d.contact).map(|c| dir.join(c).display().to_string()),
    );
    if let Some(condition) = &options.proof {
        lines.extend(proof_lines(&snap, &condition.identifier));
    }
    let page = gallery_page(&snap, cache, &dir, options.refresh, options.proof.as_ref());
    write(&dir.join("index.html"), gallery::html(&page).as_bytes())?;
    remove_stale(&dir, &snap);

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
        valid: snap.valid.is_some(),
    })
}

/// Draws deck `d` a contact sheet at a time: its cards' PNGs where their art changed,
/// and the sheet where what it shows changed.
#[allow(clippy::too_many_arguments)]
fn draw_deck(
    cat: &Catalogue,
    d: usize,
    snap: &mut Snapshot,
    dir: &Path,
    options: &Options,
    cache: &mut Cache,
    progress: &Progress,
    tally: &mut Tally,
    problems: &mut crate::diag::Grouped,
) -> Result<(), Failure> {
    let game = snap.name.clone();
    let deck = &mut snap.decks[d];
    let pages = deck.pages();
    let (designs, cards) = (deck.designs, deck.card_count());
    // A contact sheet is put together and written on a thread of its own while the next
    // sheet's cards are drawn: it was two fifths of a large deck's preview, on one core.
    std::thread::scope(|scope| -> Result<(), Failure> {
        let mut writing: Option<std::thread::ScopedJoinHandle<'_, Result<(), Failure>>> = None;
        let finish = |handle: std::thread::ScopedJoinHandle<'_, Result<(), Failure>>| {
            handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        };
        for (n, range) in pages.iter().enumerate() {
            let name = match pages.len() {
                1 => format!("{}-contact.png", deck.slug),
                _ => format!("{}-contact-{}.png", deck.slug, n + 1),
            };
            let path = dir.join(&name);
            let batch: Vec<&Picture> = deck.pictures[range.clone()].iter().collect();
            let pieces = render_some(cat, Some(d), &batch, options.lang.as_deref(), problems);
            let pictures = &mut deck.pictures[range.clone()];
            note_art(pictures, &pieces);
            let title = match pages.len() {
                1 => format!("{game} — {} · {designs} designs, {cards} cards", deck.name),
                _ => format!(
                    "{game} — {} · {designs} designs, {cards} cards · sheet {} of {}",
                    deck.name,
                    n + 1,
                    pages.len()
                ),
            };
            let art: Vec<String> = pictures
                .iter()
                .map(|p| p.art.map_or("-".to_string(), |f| format!("{f:016x}")))
                .collect();
            let parts =
                pictures.iter().zip(&art).flat_map(|(p, art)| [p.label.as_str(), art.as_str()]);
            let counts: Vec<String> =
                pictures.iter().map(|p| p.count.map_or(String::new(), |n| n.to_string())).collect();
            let key =
                fingerprint(parts.chain(counts.iter().map(String::as_str)).chain([title.as_str()]));
            let sheet_stale = cache.sheets.get(&path) != Some(&key) || !path.is_file();
            let thumbs =
                draw_batch(pictures, pieces, dir, options, cache, progress, sheet_stale, tally)?;
            if sheet_stale {
                let cells: Vec<(String, Option<u32>, Option<Pixmap>)> = pictures
                    .iter()
                    .zip(thumbs)
                    .map(|(p, thumb)| (p.label.clone(), p.count, thumb))
                    .collect();
                let size =
                    pictures.first().and_then(|p| p.thumb).unwrap_or((THUMB_WIDTH, THUMB_WIDTH));
                if let Some(previous) = writing.take() {
                    finish(previous)?;
                }
                let file = path.clone();
                writing = Some(scope.spawn(move || {
                    let cells: Vec<contact::Cell> = cells
                        .iter()
                        .map(|(label, count, thumb)| contact::Cell {
                            label,
                            count: *count,
                            thumb: thumb.as_ref(),
                        })
                        .collect();
                    let sheet = contact::sheet(&title, &cells, size).map_err(Failure::Io)?;
                    write(&file, &png::encode_fast(sheet).map_err(Failure::Io)?)
                }));
                cache.sheets.insert(path, key);
            }
            deck.contact.push(name);
        }
        writing.map_or(Ok(()), finish)
    })
}

/// Draws the PNG of every picture whose art changed since it was last drawn, and with
/// `thumbs` the contact-sheet thumbnail of every picture that has art (in order; `None`
/// for the others), on every core. Records what was drawn in `cache`.
#[allow(clippy::too_many_arguments)]
fn draw_batch(
    pictures: &mut [Picture],
    pieces: Vec<Option<crate::render::Piece>>,
    dir: &Path,
    options: &Options,
    cache: &mut Cache,
    progress: &Progress,
    thumbs: bool,
    tally: &mut Tally,
) -> Result<Vec<Option<Pixmap>>, Failure> {
    note_art(pictures, &pieces);
    let jobs: Vec<(&Picture, Option<&usvg::Tree>, bool)> = pictures
        .iter()
        .zip(&pieces)
        .map(|(p, piece)| {
            let path = dir.join(&p.file);
            let proof_missing = options.press.is_some() && !dir.join(proof_file(&p.file)).is_file();
            let stale = p.art.is_some()
                && (cache.drawn.get(&path) != p.art.as_ref() || !path.is_file() || proof_missing);
            (p, piece.as_ref().and_then(|piece| piece.tree.as_deref()), stale)
        })
        .collect();
    let results = par_map(&jobs, |&(picture, tree, stale)| {
        progress.tick();
        let Some(tree) = tree else { return Ok(None) };
        if stale {
            draw(picture, tree, dir, options)?;
        }
        match (thumbs, picture.thumb) {
            (true, Some((tw, th))) => png::draw(tree, picture.size, tw, th)
                .map(|mut p| {
                    png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
                    as_seen(&mut p, options.cvd);
                    Some(p)
                })
                .map_err(Failure::Io),
            _ => Ok(None),
        }
    });
    for (&(picture, _, stale), _) in jobs.iter().zip(&results) {
        if let Some(art) = picture.art {
            if stale {
                cache.drawn.insert(dir.join(&picture.file), art);
                tally.drawn += 1;
            } else {
                tally.kept += 1;
            }
        }
    }
    if let Some(press) = &options.press {
        for (picture, piece) in pictures.iter_mut().zip(&pieces) {
            if let Some(tree) = piece.as_ref().and_then(|p| p.tree.as_ref()) {
                picture.moved = crate::press::moved_colours(press, tree, PROOF_DELTA_E);
            }
        }
    }
    results.into_iter().collect()
}

/// Records which pictures could be drawn, and from what.
fn note_art(pictures: &mut [Picture], pieces: &[Option<crate::render::Piece>]) {
    for (picture, piece) in pictures.iter_mut().zip(pieces) {
        // A change of `corner` alone redraws it.
        let outline = format!("{:?} {}", picture.shape, picture.corner);
        picture.art = piece
            .as_ref()
            .filter(|p| p.tree.is_some())
            .map(|p| fingerprint([p.svg.as_deref().unwrap_or_default(), outline.as_str()]));
    }
}

/// Draws one picture at the preview resolution and writes its PNG (and its soft proof).
fn draw(
    picture: &Picture,
    tree: &usvg::Tree,
    dir: &Path,
    options: &Options,
) -> Result<(), Failure> {
    let (w, h) = picture.pixels(options.dpi)?;
    let full = match options.guides && picture.thumb.is_some() {
        // Deck pieces only: boards and pads have no bleed.
        true => png::draw_guides(
            tree,
            picture.size,
            picture.shape,
            picture.corner,
            Length::mm(3.0),
            options.dpi,
        ),
        false => png::draw(tree, picture.size, w, h).map(|mut p| {
            png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
            p
        }),
    }
    .map_err(Failure::Io)?;
    let mut full = full;
    as_seen(&mut full, options.cvd);
    let proof = options.press.as_ref().map(|press| proofed(&full, press));
    write(&dir.join(&picture.file), &png::encode_fast(full).map_err(Failure::Io)?)?;
    if let Some(proof) = proof {
        write(
            &dir.join(proof_file(&picture.file)),
            &png::encode_fast(proof).map_err(Failure::Io)?,
        )?;
    }
    Ok(())
}

/// A picture as a player with a colour-vision deficiency sees it (`--cvd`).
fn as_seen(picture: &mut Pixmap, cvd: Option<crate::render::colour::Deficiency>) {
    let Some(cvd) = cvd else { return };
    let mut seen = std::collections::HashMap::new();
    for p in picture.pixels_mut() {
        let c = p.demultiply();
        let [r, g, b] = *seen
            .entry([c.red(), c.green(), c.blue()])
            .or_insert_with_key(|rgb| cvd.simulate(*rgb));
        *p = resvg::tiny_skia::ColorU8::from_rgba(r, g, b, c.alpha()).premultiply();
    }
}

/// What `--proof` found, a line per picture with colours that move (the first 20), for
/// the terminal; the gallery shows them all beside the cards.
fn proof_lines(snap: &Snapshot, condition: &str) -> Vec<String> {
    let moving: Vec<&Picture> = snap.pictures().filter(|p| !p.moved.is_empty()).collect();
    if moving.is_empty() {
        return vec![format!(
            "soft proof ({condition}): no colour moves more than ΔE {PROOF_DELTA_E:.0}"
        )];
    }
    let mut lines = vec![format!("soft proof ({condition}): {} with colours that move more than ΔE {PROOF_DELTA_E:.0} in print:", plural(moving.len(), "picture"))];
    for p in moving.iter().take(20) {
        let colours: Vec<String> = p
            .moved
            .iter()
            .map(|m| {
                format!(
                    "{} prints as {} (ΔE {:.1})",
                    crate::press::hex(m.colour),
                    crate::press::hex(m.printed),
                    m.delta_e
                )
            })
            .collect();
        lines.push(format!("  {}: {}", p.label, colours.join(", ")));
    }
    if moving.len() > 20 {
        lines.push(format!("  and {} more (see the gallery)", moving.len() - 20));
    }
    lines
}

/// A picture as the press prints it: every pixel through CMYK and back to screen.
fn proofed(pixmap: &Pixmap, press: &crate::press::Press) -> Pixmap {
    let mut rgba = crate::images::straight_rgba(pixmap);
    press.proof_pixels(&mut rgba);
    let mut out = pixmap.clone();
    for (p, c) in out.pixels_mut().iter_mut().zip(rgba.chunks_exact(4)) {
        *p = resvg::tiny_skia::ColorU8::from_rgba(c[0], c[1], c[2], c[3]).premultiply();
    }
    out
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    crate::output::write_atomic_unsynced(path, bytes)
        .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))
}

fn gallery_page<'a>(
    snap: &'a Snapshot,
    cache: &Cache,
    dir: &Path,
    refresh: Option<u32>,
    proof: Option<&crate::press::Condition>,
) -> gallery::Page<'a> {
    let proof_name = proof.map(|c| c.identifier.clone());
    let proof = proof.is_some();
    let status = match &snap.valid {
        Some(summary) => gallery::Status::Valid(summary.clone()),
        None => gallery::Status::Problems {
            count: snap.problems.len(),
            text: snap.sources.render(&snap.problems, false),
        },
    };
    let figure = |p: &'a Picture, width: u32| {
        let height = (width as f32 * p.size.1.to_pt() / p.size.0.to_pt()).round() as u32;
        gallery::Figure {
            label: &p.label,
            count: p.count,
            src: p
                .art
                .filter(|_| cache.drawn.contains_key(&dir.join(&p.file)))
                .map(|art| format!("{}?v={art:016x}", p.file)),
            size: (width, height),
            proof: p
                .art
                .filter(|_| proof && dir.join(proof_file(&p.file)).is_file())
                .map(|art| format!("{}?v={art:016x}", proof_file(&p.file))),
            moved: p
                .moved
                .iter()
                .map(|m| (crate::press::hex(m.colour), crate::press::hex(m.printed), m.delta_e))
                .collect(),
        }
    };
    let mut sections: Vec<gallery::Section> = snap
        .decks
        .iter()
        .map(|deck| {
            let (w, h) = deck.pictures.first().map_or((Length::ZERO, Length::ZERO), |p| p.size);
            let summary = format!(
                "{} designs · {} cards · {} × {} mm",
                deck.designs,
                deck.card_count(),
                mm(w),
                mm(h)
            );
            let contact = deck.contact.iter().map(String::as_str).collect();
            gallery::Section {
                id: format!("deck-{}", deck.slug),
                name: &deck.name,
                summary,
                contact,
                figures: deck.pictures.iter().map(|p| figure(p, THUMB_WIDTH)).collect(),
            }
        })
        .collect();
    if !snap.sheets.is_empty() {
        let figures = snap.sheets.iter().map(|p| figure(p, SHEET_WIDTH)).collect();
        sections.push(gallery::Section {
            id: "sheets".into(),
            name: "Boards and sheets",
            summary: format!(
                "{} · page-sized ones shown on A4",
                plural(snap.sheets.len(), "sheet")
            ),
            contact: Vec::new(),
            figures,
        });
    }
    gallery::Page {
        title: &snap.name,
        description: &snap.description,
        status,
        sections,
        refresh,
        proof: proof_name,
        preflights: preflights(dir),
        changes: snap.changes.as_ref().map(|c| gallery::Changes {
            since: c.since.clone(),
            cards: c
                .cards
                .iter()
                .map(|x| gallery::Changed {
                    label: x.label.clone(),
                    before: x.before.clone(),
                    after: x.after.clone(),
                    size: x.size,
                })
                .collect(),
        }),
    }
}

/// The largest earlier picture `--changed-since` copies: a 600 dpi board is far smaller.
const MAX_PICTURE_BYTES: u64 = 256 << 20;

/// Where the previous pictures are kept for `--changed-since`: `before/` in the gallery.
const BEFORE: &str = "before";

/// Copies the previous preview's pictures of this game (those the new one will draw)
/// into `before/`, before drawing overwrites them; returns where they came from.
fn keep_before(path: &Path, snap: &Snapshot, dir: &Path) -> Result<PathBuf, Failure> {
    let folder = dir.file_name().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("preview"));
    let old = [path.join(&snap.id).join(&folder), path.join(&folder), path.to_path_buf()]
        .into_iter()
        .find(|p| p.join("index.html").is_file())
        .ok_or_else(|| {
            Failure::Io(format!(
                "no previous preview at {}: give the output folder of an earlier `deckpress preview` (it holds {}/{}/index.html)",
                path.display(),
                snap.id,
                folder.display()
            ))
        })?;
    let before = dir.join(BEFORE);
    let _ = std::fs::remove_dir_all(&before);
    // Box flats and label sheets are drawn last, into `sheets/`: keep its pictures. An
    // earlier preview folder is anyone's: only its own regular files are copied, never
    // what a link in it leads to, and none larger than a picture of ours can be.
    let own = |p: &Path| std::fs::symlink_metadata(p).ok();
    let sheets = old.join("sheets");
    let flats = own(&sheets)
        .filter(|m| m.is_dir())
        .and_then(|_| std::fs::read_dir(&sheets).ok())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".png") && crate::output::slug(name) == *name)
        .map(|name| format!("sheets/{name}"));
    let files: Vec<String> = snap.pictures().map(|p| p.file.clone()).chain(flats).collect();
    for file in &files {
        let from = old.join(file);
        let inside_old = from.parent().and_then(own).is_some_and(|m| m.is_dir());
        if !inside_old || !own(&from).is_some_and(|m| m.is_file()) {
            continue;
        }
        let Ok(bytes) = crate::world::read_regular(&from, MAX_PICTURE_BYTES) else { continue };
        let to = before.join(file);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Failure::Io(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::write(&to, bytes)
            .map_err(|e| Failure::Io(format!("cannot copy {}: {e}", from.display())))?;
    }
    Ok(old)
}

/// The pictures drawn differently from those kept in `before/` (or new): kept there
/// for the gallery to show side by side; the unchanged ones' copies are removed.
fn compare_before(
    old: &Path,
    snap: &Snapshot,
    dir: &Path,
    dpi: u32,
) -> Result<gallery::Changes, Failure> {
    let before = dir.join(BEFORE);
    let mut cards = Vec::new();
    for picture in snap.pictures().filter(|p| p.art.is_some()) {
        let (now, then) = (dir.join(&picture.file), before.join(&picture.file));
        let Ok(new_bytes) = std::fs::read(&now) else { continue };
        let previous = std::fs::read(&then).ok();
        if previous.as_deref() == Some(new_bytes.as_slice()) {
            let _ = std::fs::remove_file(&then);
            continue;
        }
        let (w, h) = picture.pixels(dpi)?;
        let width = 160u32;
        cards.push(gallery::Changed {
            label: picture.id.clone(),
            before: previous.map(|_| format!("{BEFORE}/{}", picture.file)),
            after: picture.file.clone(),
            size: (width, (width as f32 * h as f32 / w.max(1) as f32).round() as u32),
        });
    }
    Ok(gallery::Changes { since: old.display().to_string(), cards })
}

/// The services a `preflight` report was written for beside the gallery.
fn preflights(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            Some(name.strip_prefix("preflight-")?.strip_suffix(".html")?.to_string())
        })
        .collect();
    found.sort();
    found
}

pub(crate) fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// Display width of a board or pad in the gallery, in CSS pixels.
const SHEET_WIDTH: u32 = 420;

fn mm(length: Length) -> String {
    let mm = length.to_mm();
    if (mm - mm.round()).abs() < 0.05 {
        format!("{mm:.0}")
    } else {
        format!("{mm:.1}")
    }
}

/// Removes the PNGs of cards that are gone (renamed in the CSV) or can no longer be drawn,
/// and contact sheets a deck no longer has, so the folder holds exactly the deck's cards.
fn remove_stale(dir: &Path, snap: &Snapshot) {
    if !snap.loaded {
        return; // a catalogue that did not load says nothing about which pictures are gone
    }
    let folders = snap.decks.iter().map(|d| dir.join(&d.slug)).chain([dir.join("sheets")]);
    let current: HashSet<PathBuf> = snap
        .pictures()
        .filter(|p| p.art.is_some())
        .flat_map(|p| [dir.join(&p.file), dir.join(proof_file(&p.file))])
        .collect();
    let remove = |path: &Path| {
        // Best effort: a file we cannot remove is only clutter, never wrong output.
        let _ = std::fs::remove_file(path);
    };
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.extension().is_some_and(|e| e == "png") && !current.contains(&path) {
                remove(&path);
            }
        }
    }
    // `<deck>-contact.png` and `<deck>-contact-N.png` beside the deck folders.
    let contact: HashSet<&str> =
        snap.decks.iter().flat_map(|d| &d.contact).map(String::as_str).collect();
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = snap.decks.iter().any(|d| {
            name.strip_prefix(&d.slug)
                .and_then(|rest| rest.strip_prefix("-contact"))
                .and_then(|rest| rest.strip_suffix(".png"))
                .is_some_and(|n| {
                    n.is_empty()
                        || n.strip_prefix('-')
                            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                })
        });
        if ours && !contact.contains(name.as_str()) {
            remove(&entry.path());
        }
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

/// `preview --card ID`: draws the cards with that id (in any deck) and nothing else.
fn one_card(
    world: &World,
    id: &str,
    options: &Options,
    limits: &Limits,
) -> Result<Vec<String>, Failure> {
    crate::driver::said_load(world);
    let cat = crate::load::load_with(world, limits)?;
    let ids: Vec<&str> =
        cat.decks.iter().flat_map(|d| d.rows.iter().map(|r| r.id.as_str())).collect();
    if !ids.contains(&id) {
        return Err(Failure::Io(unknown_card(&cat.id, id, &ids)));
    }
    cat.check_lang(options.lang.as_deref()).map_err(Failure::Io)?;
    let mut snap = Snapshot::new(&cat, options.lang.as_deref());
    let dir = preview_dir(options, &snap.id);
    let options = &with_press(options, &cat)?;
    let mut drawing = crate::diag::Grouped::default();
    let mut lines = Vec::new();
    for (d, deck) in snap.decks.iter().enumerate() {
        let pictures: Vec<&Picture> = deck.pictures.iter().filter(|p| p.id == id).collect();
        let pieces = render_some(&cat, Some(d), &pictures, options.lang.as_deref(), &mut drawing);
        for (picture, piece) in pictures.into_iter().zip(pieces) {
            if let Some(tree) = piece.and_then(|p| p.tree) {
                draw(picture, &tree, &dir, options)?;
                lines.push(dir.join(&picture.file).display().to_string());
                if let Some(press) = &options.press {
                    lines.push(dir.join(proof_file(&picture.file)).display().to_string());
                    for m in crate::press::moved_colours(press, &tree, PROOF_DELTA_E) {
                        lines.push(format!(
                            "  {} prints as {} (ΔE {:.1})",
                            crate::press::hex(m.colour),
                            crate::press::hex(m.printed),
                            m.delta_e
                        ));
                    }
                }
            }
        }
    }
    snap.validated(cat, drawing)?;
    match !snap.problems.iter().any(Diagnostic::is_error) {
        true => Ok(lines),
        false => Err(Failure::Invalid(snap.problems, snap.sources)),
    }
}

fn unknown_card(game: &str, id: &str, ids: &[&str]) -> String {
    let mut close: Vec<(f64, &str)> = ids
        .iter()
        .map(|c| (strsim::jaro_winkler(&id.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(s, _)| *s >= 0.8)
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    close.dedup_by_key(|c| c.1);
    let quoted =
        |list: &[&str]| list.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
    if close.is_empty() {
        let first: Vec<&str> = ids.iter().copied().take(8).collect();
        let more = if ids.len() > first.len() {
            format!(", … ({} in all)", ids.len())
        } else {
            String::new()
        };
        format!("no card `{id}` in {game}; its cards are {}{more}", quoted(&first))
    } else {
        let names: Vec<&str> = close.iter().take(5).map(|c| c.1).collect();
        format!("no card `{id}` in {game}; did you mean {}?", quoted(&names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_cards_get_the_close_ids() {
        let ids = ["1-cutlass-red", "1-flag-green", "2-plain"];
        assert_eq!(
            unknown_card("g", "1-cutlas-red", &ids),
            "no card `1-cutlas-red` in g; did you mean `1-cutlass-red`?"
        );
        assert!(unknown_card("g", "zzz", &ids)
            .contains("its cards are `1-cutlass-red`, `1-flag-green`, `2-plain`"));
    }
}
