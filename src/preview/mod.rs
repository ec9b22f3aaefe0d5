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
pub mod gallery;
pub mod png;
mod progress;
pub mod tts;
pub mod watch;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use resvg::tiny_skia::Pixmap;

use crate::app::Outcome;
use crate::cli::PreviewArgs;
use crate::diag::{Diagnostic, Failure, Sources};
use crate::length::Length;
use crate::model::{Catalogue, Deck, Row, Shape, SheetSize};
use crate::world::World;
use progress::{par_map, Progress};

/// Width of a card on a contact sheet, in pixels.
const THUMB_WIDTH: u32 = 180;

/// `deckpress preview`: every game asked for, or one card of each with `--card`.
pub fn preview(args: &PreviewArgs) -> Result<Vec<Outcome>, Failure> {
    let worlds = crate::games::resolve(&args.games)?;
    let options = Options { dpi: args.dpi, out: args.out.clone(), quiet: args.quiet, refresh: None, guides: args.guides };
    Ok(worlds
        .iter()
        .map(|(name, world)| {
            let result = match &args.card {
                Some(id) => one_card(world, id, &options),
                None => build(world, &options, &mut Cache::default()).and_then(Built::into_result),
            };
            Outcome::new(name.clone(), result)
        })
        .collect())
}

/// How previews are drawn and where they go.
pub(crate) struct Options {
    pub dpi: u32,
    pub out: PathBuf,
    pub quiet: bool,
    /// Seconds after which the gallery reloads itself (`watch`); `None` for a still page.
    pub refresh: Option<u32>,
    /// Cards drawn with their bleed and the cut and safe-zone lines over them.
    pub guides: bool,
}

/// What earlier builds drew, so that `watch` redraws only the cards whose filled SVG changed.
#[derive(Default)]
pub(crate) struct Cache {
    /// PNG path → the SVG it was drawn from, and the card's contact-sheet thumbnail.
    drawn: HashMap<PathBuf, Drawn>,
    /// Contact sheet path → fingerprint of what it shows.
    sheets: HashMap<PathBuf, u64>,
    /// The game's id from the last catalogue that loaded: where to put the gallery that
    /// reports a catalogue that no longer loads (a half-saved `game.toml`).
    id: Option<String>,
}

struct Drawn {
    /// What it was drawn from (`Picture::source`).
    svg: String,
    thumb: Option<Pixmap>,
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
struct Snapshot {
    id: String,
    name: String,
    description: String,
    /// `app::summary` when the catalogue is valid and every piece could be drawn.
    valid: Option<String>,
    problems: Vec<Diagnostic>,
    sources: Sources,
    decks: Vec<DeckView>,
    /// Boards and score pads, page-sized ones filled for A4.
    sheets: Vec<Picture>,
    library_decks: Vec<PathBuf>,
    /// The catalogue loaded: the pictures above are all it has (not so for a half-saved file).
    loaded: bool,
}

struct DeckView {
    slug: String,
    name: String,
    faces: Vec<Picture>,
    backs: Vec<Picture>,
}

impl DeckView {
    fn card_count(&self) -> u32 {
        self.faces.iter().filter_map(|c| c.count).sum()
    }

    /// Faces, then the back or backs: every picture of the deck.
    fn pictures(&self) -> impl Iterator<Item = &Picture> {
        self.faces.iter().chain(&self.backs)
    }
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
    /// `None` when it was not asked for (`--card`).
    art: Option<crate::render::Piece>,
    /// The piece's outline (boards and pads: a plain rectangle): what is masked off.
    shape: Shape,
    corner: Length,
}

impl Picture {
    fn svg(&self) -> Option<&str> {
        self.art.as_ref()?.svg.as_deref()
    }

    /// What its PNG is drawn from: the SVG and the outline masked to (a change of `corner`
    /// alone redraws it).
    fn source(&self) -> Option<String> {
        Some(format!("{}\n{:?} {}", self.svg()?, self.shape, self.corner))
    }

    fn tree(&self) -> Option<&usvg::Tree> {
        self.art.as_ref()?.tree.as_ref()
    }

    /// Pixel size at `dpi`; sheets larger than a screen are drawn at a lower resolution.
    fn pixels(&self, dpi: u32) -> Result<(u32, u32), Failure> {
        let longest_in = self.size.0.to_pt().max(self.size.1.to_pt()) / 72.0;
        let dpi = if self.thumb.is_none() { dpi.min((MAX_SHEET_SIDE as f32 / longest_in) as u32).max(1) } else { dpi };
        png::pixel_size(self.size.0, self.size.1, dpi).map_err(Failure::Io)
    }
}

/// Longest side of a board or pad preview, in pixels.
const MAX_SHEET_SIDE: u32 = 4096;

/// Loads, renders piece by piece and validates; a catalogue that cannot be loaded at all
/// becomes a snapshot with its problems and no pictures.
fn snapshot(loaded: Result<Catalogue, Failure>, fallback_id: &str, wanted: &dyn Fn(&Deck, &Row) -> bool, sheets: bool) -> Result<Snapshot, Failure> {
    let cat = match loaded {
        Ok(cat) => cat,
        Err(Failure::Invalid(problems, sources)) => {
            let id = fallback_id.to_string();
            let name = id.clone();
            let (decks, sheets, library_decks) = (Vec::new(), Vec::new(), Vec::new());
            return Ok(Snapshot { id, name, description: String::new(), valid: None, problems, sources, decks, sheets, library_decks, loaded: false });
        }
        Err(e) => return Err(e),
    };
    let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size)).collect();
    let players = cat.players.map_or(1, |(_, max)| max);
    let request = crate::render::Request { wanted, rows: None, shared_back: &|_| true, sheet_sizes: sheets.then_some(&sizes[..]), players, lang: None };
    let pieces = crate::render::pieces(&cat, &request);
    let decks = deck_views(&cat, pieces.decks);
    let sheets = sheet_views(&cat, pieces.sheets, &sizes);
    let library_decks = library_decks(&cat);
    let (id, name, description) = (cat.id.clone(), cat.name.clone(), cat.description.clone());
    let (valid, mut problems, sources) = match crate::validate::validate(cat) {
        Ok(v) => (Some(crate::app::summary(&v)), v.warnings().to_vec(), v.catalogue().sources.clone()),
        Err(Failure::Invalid(problems, sources)) => (None, problems, sources),
        Err(e) => return Err(e),
    };
    // Warnings (low-resolution art, a text near the edge) do not stop a build: nor here.
    let valid = valid.filter(|_| !pieces.problems.iter().any(Diagnostic::is_error));
    problems.extend(pieces.problems);
    Ok(Snapshot { id, name, description, valid, problems, sources, decks, sheets, library_decks, loaded: true })
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

fn deck_views(cat: &Catalogue, pieces: Vec<crate::render::DeckPieces>) -> Vec<DeckView> {
    let mut deck_slugs = Slugs::default();
    cat.decks
        .iter()
        .zip(pieces)
        .map(|(deck, pieces)| {
            let slug = deck_slugs.make(&deck.id);
            let size = (deck.width, deck.height);
            let thumb = Some((THUMB_WIDTH, (THUMB_WIDTH as f32 * deck.height.to_pt() / deck.width.to_pt()).round().max(1.0) as u32));
            let mut card_slugs = Slugs::default();
            let names: Vec<String> = deck.rows.iter().map(|r| card_slugs.make(&r.id)).collect();
            let faces = deck
                .rows
                .iter()
                .zip(pieces.faces)
                .zip(&names)
                .map(|((row, art), name)| Picture { id: row.id.clone(), label: row.id.clone(), count: Some(row.qty), file: format!("{slug}/{name}.png"), size, thumb, art, shape: deck.shape, corner: deck.corner })
                .collect();
            let backs = if deck.back_per_card {
                deck.rows
                    .iter()
                    .zip(pieces.backs)
                    .zip(&names)
                    .map(|((row, art), name)| Picture { id: row.id.clone(), label: format!("back of {}", row.id), count: None, file: format!("{slug}/{name}.back.png"), size, thumb, art, shape: deck.shape, corner: deck.corner })
                    .collect()
            } else {
                let art = pieces.backs.into_iter().next().flatten();
                vec![Picture { id: "back".into(), label: "card back".into(), count: None, file: format!("{slug}-back.png"), size, thumb, art, shape: deck.shape, corner: deck.corner }]
            };
            DeckView { slug, name: deck.name.clone(), faces, backs }
        })
        .collect()
}

fn sheet_views(cat: &Catalogue, pieces: Vec<crate::render::Piece>, sizes: &[(Length, Length)]) -> Vec<Picture> {
    let mut slugs = Slugs::default();
    cat.sheets
        .iter()
        .zip(pieces)
        .zip(sizes)
        .map(|((sheet, art), &size)| Picture {
            id: sheet.id.clone(),
            label: sheet.name.clone(),
            count: None,
            file: format!("sheets/{}.png", slugs.make(&sheet.id)),
            size,
            thumb: None,
            art: Some(art),
            shape: Shape::Rect,
            corner: Length::ZERO,
        })
        .collect()
}

/// The folders under the library that this catalogue's decks read from (`library/french`).
fn library_decks(cat: &Catalogue) -> Vec<PathBuf> {
    let library = crate::world::World::templates();
    // Only a templates folder on disk can change while `watch` runs.
    let Some(disk) = library.disk_root() else { return Vec::new() };
    let files = cat.decks.iter().flat_map(|d| [&d.rows_file, &d.face.file, &d.back.file]).chain(cat.sheets.iter().flat_map(|s| [&s.rows_file, &s.template.file]));
    let mut folders: Vec<PathBuf> = files.filter_map(|file| file.strip_prefix(library.root()).ok()?.components().next().map(|c| disk.join(c))).collect();
    folders.sort();
    folders.dedup();
    folders
}

fn folder_name(world: &World) -> String {
    let name = world.root().canonicalize().ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    slug(&name.unwrap_or_else(|| "game".to_string()))
}

/// One full build: pictures whose art changed since `cache` was filled, contact sheets
/// whose content changed, and the gallery.
pub(crate) fn build(world: &World, options: &Options, cache: &mut Cache) -> Result<Built, Failure> {
    let fallback = cache.id.clone().unwrap_or_else(|| folder_name(world));
    let snap = snapshot(crate::load::load(world, &crate::world::World::templates()), &fallback, &|_, _| true, true)?;
    cache.id = Some(snap.id.clone());
    let dir = options.out.join(&snap.id).join("preview");

    // Pictures to draw: those with a tree whose SVG differs from what their PNG was drawn from.
    let pictures: Vec<&Picture> = snap.decks.iter().flat_map(DeckView::pictures).chain(&snap.sheets).collect();
    let stale = |p: &Picture| {
        let path = dir.join(&p.file);
        p.tree().is_some() && (cache.drawn.get(&path).map(|d| &d.svg) != p.source().as_ref() || !path.is_file())
    };
    let todo: Vec<&Picture> = pictures.iter().copied().filter(|p| stale(p)).collect();
    let kept = pictures.iter().filter(|p| p.tree().is_some()).count() - todo.len();
    let progress = Progress::new(todo.len(), "drawing", options.quiet || todo.len() < 8);
    let drawn = par_map(&todo, |picture| {
        let result = draw(picture, &dir, options.dpi, options.guides);
        progress.tick();
        result
    });
    drop(progress);
    for (picture, result) in todo.iter().zip(drawn) {
        let thumb = result?;
        cache.drawn.insert(dir.join(&picture.file), Drawn { svg: picture.source().unwrap_or_default(), thumb });
    }
    // A piece that can no longer be drawn must be drawn again once it is fixed.
    for picture in pictures.iter().filter(|p| p.tree().is_none()) {
        cache.drawn.remove(&dir.join(&picture.file));
    }

    let mut lines = vec![dir.join("index.html").display().to_string()];
    let mut contact_sheets = Vec::new();
    for deck in &snap.decks {
        let name = format!("{}-contact.png", deck.slug);
        let path = dir.join(&name);
        let parts = deck.pictures().flat_map(|p| [p.label.clone(), p.count.map_or(String::new(), |n| n.to_string()), p.tree().and(p.source()).unwrap_or_else(|| "-".to_string())]);
        let key = fingerprint(parts.chain([deck.name.clone(), snap.name.clone()]).collect::<Vec<_>>().iter().map(String::as_str));
        if cache.sheets.get(&path) != Some(&key) || !path.is_file() {
            let cells: Vec<contact::Cell> = deck.pictures().map(|p| contact::Cell { label: &p.label, count: p.count, thumb: cache.drawn.get(&dir.join(&p.file)).and_then(|d| d.thumb.as_ref()) }).collect();
            let title = format!("{} — {} · {} designs, {} cards", snap.name, deck.name, deck.faces.len(), deck.card_count());
            let thumb = deck.faces.first().or(deck.backs.first()).and_then(|p| p.thumb).unwrap_or((THUMB_WIDTH, THUMB_WIDTH));
            let sheet = contact::sheet(&title, &cells, thumb).map_err(Failure::Io)?;
            write(&path, &png::encode(&sheet).map_err(Failure::Io)?)?;
            cache.sheets.insert(path.clone(), key);
        }
        lines.push(path.display().to_string());
        contact_sheets.push(name);
    }

    let page = gallery_page(&snap, &contact_sheets, cache, &dir, options.refresh);
    write(&dir.join("index.html"), gallery::html(&page).as_bytes())?;
    remove_stale(&dir, &snap);

    let problems = snap.problems.iter().any(Diagnostic::is_error).then(|| Failure::Invalid(snap.problems.clone(), snap.sources.clone()));
    Ok(Built { lines, problems, drawn: todo.len(), kept, library_decks: snap.library_decks.clone(), valid: snap.valid.is_some() })
}

/// Draws one picture at the preview resolution, writes its PNG, and returns its
/// contact-sheet thumbnail (deck pieces only).
fn draw(picture: &Picture, dir: &Path, dpi: u32, guides: bool) -> Result<Option<Pixmap>, Failure> {
    let tree = picture.tree().ok_or_else(|| Failure::Io(format!("`{}` has no art", picture.id)))?;
    let (w, h) = picture.pixels(dpi)?;
    let full = match guides && picture.thumb.is_some() {
        // Deck pieces only: boards and pads have no bleed.
        true => png::draw_guides(tree, picture.size, picture.shape, picture.corner, Length::mm(3.0), dpi),
        false => png::draw(tree, picture.size, w, h).map(|mut p| {
            png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
            p
        }),
    }
    .map_err(Failure::Io)?;
    write(&dir.join(&picture.file), &png::encode(&full).map_err(Failure::Io)?)?;
    let thumb = |(tw, th)| {
        let mut p = png::draw(tree, picture.size, tw, th)?;
        png::mask_to(&mut p, picture.shape, picture.corner, picture.size);
        Ok(p)
    };
    picture.thumb.map(|size| thumb(size).map_err(Failure::Io)).transpose()
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    crate::output::write_atomic(path, bytes).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))
}

fn gallery_page<'a>(snap: &'a Snapshot, contact_sheets: &'a [String], cache: &Cache, dir: &Path, refresh: Option<u32>) -> gallery::Page<'a> {
    let status = match &snap.valid {
        Some(summary) => gallery::Status::Valid(summary.clone()),
        None => gallery::Status::Problems { count: snap.problems.len(), text: snap.sources.render(&snap.problems, false) },
    };
    let figure = |p: &'a Picture, width: u32| {
        let height = (width as f32 * p.size.1.to_pt() / p.size.0.to_pt()).round() as u32;
        gallery::Figure {
            label: &p.label,
            count: p.count,
            src: cache.drawn.get(&dir.join(&p.file)).map(|d| format!("{}?v={:016x}", p.file, fingerprint([d.svg.as_str()]))),
            size: (width, height),
        }
    };
    let mut sections: Vec<gallery::Section> = snap
        .decks
        .iter()
        .zip(contact_sheets)
        .map(|(deck, contact)| {
            let (w, h) = deck.faces.first().or(deck.backs.first()).map_or((Length::ZERO, Length::ZERO), |p| p.size);
            let summary = format!("{} designs · {} cards · {} × {} mm", deck.faces.len(), deck.card_count(), mm(w), mm(h));
            gallery::Section { id: format!("deck-{}", deck.slug), name: &deck.name, summary, contact: Some(contact.as_str()), figures: deck.pictures().map(|p| figure(p, THUMB_WIDTH)).collect() }
        })
        .collect();
    if !snap.sheets.is_empty() {
        let figures = snap.sheets.iter().map(|p| figure(p, SHEET_WIDTH)).collect();
        sections.push(gallery::Section { id: "sheets".into(), name: "Boards and sheets", summary: format!("{} · page-sized ones shown on A4", plural(snap.sheets.len(), "sheet")), contact: None, figures });
    }
    gallery::Page { title: &snap.name, description: &snap.description, status, sections, refresh }
}

fn plural(n: usize, what: &str) -> String {
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
/// so a deck folder always holds exactly the cards of the deck.
fn remove_stale(dir: &Path, snap: &Snapshot) {
    if !snap.loaded {
        return; // a catalogue that did not load says nothing about which pictures are gone
    }
    let folders = snap.decks.iter().map(|d| dir.join(&d.slug)).chain([dir.join("sheets")]);
    let current: HashSet<PathBuf> = snap.decks.iter().flat_map(DeckView::pictures).chain(&snap.sheets).filter(|p| p.tree().is_some()).map(|p| dir.join(&p.file)).collect();
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(folder) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.extension().is_some_and(|e| e == "png") && !current.contains(&path) {
                // Best effort: a file we cannot remove is only clutter, never wrong output.
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// `preview --card ID`: draws the cards with that id (in any deck) and nothing else.
fn one_card(world: &World, id: &str, options: &Options) -> Result<Vec<String>, Failure> {
    let cat = crate::load::load(world, &crate::world::World::templates())?;
    let ids: Vec<&str> = cat.decks.iter().flat_map(|d| d.rows.iter().map(|r| r.id.as_str())).collect();
    if !ids.contains(&id) {
        return Err(Failure::Io(unknown_card(&cat.id, id, &ids)));
    }
    let game = cat.id.clone();
    let snap = snapshot(Ok(cat), &game, &|_, row| row.id == id, false)?;
    let dir = options.out.join(&snap.id).join("preview");
    let mut lines = Vec::new();
    for picture in snap.decks.iter().flat_map(DeckView::pictures).filter(|p| p.id == id && p.tree().is_some()) {
        draw(picture, &dir, options.dpi, options.guides)?;
        lines.push(dir.join(&picture.file).display().to_string());
    }
    match !snap.problems.iter().any(Diagnostic::is_error) {
        true => Ok(lines),
        false => Err(Failure::Invalid(snap.problems, snap.sources)),
    }
}

fn unknown_card(game: &str, id: &str, ids: &[&str]) -> String {
    let mut close: Vec<(f64, &str)> = ids.iter().map(|c| (strsim::jaro_winkler(&id.to_lowercase(), &c.to_lowercase()), *c)).filter(|(s, _)| *s >= 0.8).collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    close.dedup_by_key(|c| c.1);
    let quoted = |list: &[&str]| list.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ");
    if close.is_empty() {
        let first: Vec<&str> = ids.iter().copied().take(8).collect();
        let more = if ids.len() > first.len() { format!(", … ({} in all)", ids.len()) } else { String::new() };
        format!("no card `{id}` in {game}; its cards are {}{more}", quoted(&first))
    } else {
        let names: Vec<&str> = close.iter().take(5).map(|c| c.1).collect();
        format!("no card `{id}` in {game}; did you mean {}?", quoted(&names))
    }
}

/// A file name for an id from a CSV cell: letters, digits, `-`, `_` and `.` kept, anything
/// else (`/`, spaces, `..`) made `_`, so no id can write outside the preview folder.
fn slug(id: &str) -> String {
    let s: String = id.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    let s = s.trim_start_matches('.');
    if s.is_empty() {
        "_".to_string()
    } else {
        s.to_string()
    }
}

/// Unique file names within one folder, also on case-insensitive file systems.
#[derive(Default)]
struct Slugs(HashSet<String>);

impl Slugs {
    fn make(&mut self, id: &str) -> String {
        let base = slug(id);
        let mut name = base.clone();
        let mut n = 2;
        while !self.0.insert(name.to_lowercase()) {
            name = format!("{base}~{n}");
            n += 1;
        }
        name
    }
}

/// FNV-1a over the parts: a fingerprint that stays the same across Rust versions, used in
/// image URLs (`?v=`) so a browser reloads exactly the images that changed.
fn fingerprint<'a>(parts: impl IntoIterator<Item = &'a str>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_become_safe_distinct_file_names() {
        let mut slugs = Slugs::default();
        assert_eq!(slugs.make("1-plain"), "1-plain");
        assert_eq!(slugs.make("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(slugs.make("a b"), "a_b");
        assert_eq!(slugs.make("a/b"), "a_b~2");
        assert_eq!(slugs.make("A_B"), "A_B~3");
        assert_eq!(slugs.make(".."), "_");
    }

    #[test]
    fn unknown_cards_get_the_close_ids() {
        let ids = ["1-cutlass-red", "1-flag-green", "2-plain"];
        assert_eq!(unknown_card("g", "1-cutlas-red", &ids), "no card `1-cutlas-red` in g; did you mean `1-cutlass-red`?");
        assert!(unknown_card("g", "zzz", &ids).contains("its cards are `1-cutlass-red`, `1-flag-green`, `2-plain`"));
    }
}
