//! Stage `render`: `Validated` → `Art`. Fills the SVG templates of every deck and sheet
//! (minijinja), parses the result with usvg against the bundled fonts, and refuses art a
//! player could not read: a character no bundled font has, or a template whose shape is
//! not the piece's.

mod art;
pub mod canvas;
pub mod colour;
mod fill;
pub mod legibility;
mod queries;
mod raster;
pub mod textbox;
mod undefined;
mod under;
mod written;

use std::sync::{Arc, Mutex};

use crate::diag::{Diagnostic, Failure};
use crate::length::Length;
use crate::model::ArtRef;
use crate::model::{Catalogue, PrintVariant, Row, Template};
use crate::validate::Validated;
use fill::Filler;
use written::{
    call_site, field_span, printed_text_span, strongly_written, written_strength, Written,
};

type FontDb = Arc<usvg::fontdb::Database>;

/// Where the PDF and PNG writers get the tree of each piece: a batch at a time
/// (`LazyArt`), so that memory does not grow with the deck.
pub trait ArtSource {
    /// Makes sure the trees of `refs` are at hand.
    fn prepare(&mut self, refs: &[ArtRef]);
    /// The tree of a piece prepared before; `None` where it could not be drawn (the
    /// problem is reported by the source).
    fn tree(&self, _art: ArtRef) -> Option<&usvg::Tree> {
        None
    }
    /// The same, to keep after `release` (the PDF writer draws on another thread).
    fn shared(&self, _art: ArtRef) -> Option<Arc<usvg::Tree>> {
        None
    }
    /// Lets go of the trees prepared so far.
    fn release(&mut self) {}
    /// A text cell as pieces print it: filled when it is written as a template
    /// (`{{ count(…) }}`); `None` when it is not one, or filling failed (reported there).
    fn cell_text(&self, _deck: usize, _row: usize, _field: &str) -> Option<String> {
        None
    }
}

/// No art at all: pages that draw only marks (the duplex calibration sheet).
pub struct NoArt;

impl ArtSource for NoArt {
    fn prepare(&mut self, _: &[ArtRef]) {}
}

/// Deck art drawn on demand, a batch of pieces at a time, with every problem met kept
/// for the end: one parse per piece, and only a batch of trees in memory.
pub struct LazyArt<'a> {
    cat: &'a Catalogue,
    lang: Option<&'a str>,
    drawer: Drawer<'a>,
    trees: std::collections::HashMap<ArtRef, Arc<usvg::Tree>>,
    /// Sheet components (boards, pads), drawn for the paper being printed.
    pub sheets: Vec<Arc<usvg::Tree>>,
    /// Each box's faces, in its `faces` order (`render_boxes`).
    pub boxes: Vec<Vec<Option<Arc<usvg::Tree>>>>,
    /// Grouped as they come: one per distinct problem however many cards meet it.
    problems: crate::diag::Grouped,
    /// Trees let go of since memory was last given back to the OS.
    released: usize,
    /// What each piece drawn looks like, as a number: its filled SVG and the bytes of the
    /// art files it draws (the build's manifest).
    fingerprints: std::collections::HashMap<ArtRef, u64>,
    /// Each art file's fingerprint, read once.
    art_files: std::collections::HashMap<String, u64>,
    /// Cards (deck, row) whose pictures the colour-alone check compares: kept as they are
    /// drawn, so that no card is drawn twice for it.
    pub keep: rustc_hash::FxHashSet<(usize, usize)>,
    /// Each as drawn: `None` when it could not be (its problem is reported once, by the
    /// drawing).
    pub kept: rustc_hash::FxHashMap<(usize, usize), Option<legibility::OnPaper>>,
    /// Whether to note what each piece was filled as (`filled`), for drawing another
    /// language after this one.
    pub note_filled: bool,
    pub filled: rustc_hash::FxHashMap<ArtRef, u64>,
    /// What another language filled each piece as: those filled the same again are not
    /// parsed nor checked a second time.
    pub drawn_before: Option<Arc<rustc_hash::FxHashMap<ArtRef, u64>>>,
}

/// Trees let go of between two `give_back_memory`s: a few batches of pages.
const TREES_PER_TRIM: usize = 500;

impl<'a> LazyArt<'a> {
    /// `thorough`: the checks that render each piece again (contrast), for `validate`.
    pub fn new(validated: &'a Validated, lang: Option<&'a str>, thorough: bool) -> Self {
        let mut drawer = Drawer::new(validated.catalogue(), lang, validated.variant());
        drawer.ctx.thorough = thorough;
        let mut problems = crate::diag::Grouped::default();
        problems.extend(drawer.setup.iter().cloned());
        Self {
            cat: validated.catalogue(),
            lang,
            drawer,
            trees: Default::default(),
            sheets: Vec::new(),
            boxes: Vec::new(),
            problems,
            released: 0,
            fingerprints: Default::default(),
            art_files: Default::default(),
            keep: Default::default(),
            kept: Default::default(),
            note_filled: false,
            filled: Default::default(),
            drawn_before: None,
        }
    }

    /// Whether the checks that render each piece again (contrast) run: `validate`'s art.
    pub fn thorough(&self) -> bool {
        self.drawer.ctx.thorough
    }

    /// The pictures of the colour-alone pairs' cards: those the pages drew were kept as
    /// they went; the others (a label deck a service leaves out) are drawn now.
    pub fn colour_pictures(&mut self) {
        let missing: Vec<ArtRef> = self
            .keep
            .iter()
            .filter(|k| !self.kept.contains_key(k))
            .map(|&(deck, row)| ArtRef::Face { deck, row })
            .collect();
        // Drawn for the comparison only, as the check drew them before sharing pictures:
        // the problems of cards no page prints are not reported by the way.
        let problems = std::mem::take(&mut self.problems);
        for batch in missing.chunks(64) {
            self.prepare(batch);
            self.release();
        }
        self.problems = problems;
    }

    /// The fingerprints of every piece drawn so far.
    pub fn fingerprints(&self) -> &std::collections::HashMap<ArtRef, u64> {
        &self.fingerprints
    }

    /// A piece's fingerprint: its filled SVG and every art file it names (by `href`).
    fn fingerprint(&mut self, svg: &str) -> u64 {
        let mut parts = vec![svg.to_string()];
        let mut rest = svg;
        while let Some(i) = rest.find("href=\"") {
            rest = &rest[i + 6..];
            let Some(end) = rest.find('"') else { break };
            let href = &rest[..end];
            if !href.starts_with("data:") && !href.is_empty() {
                let world = &self.cat.world;
                let hash = *self.art_files.entry(href.to_string()).or_insert_with(|| {
                    world.read_bytes(href).map_or(0, |b| crate::output::fingerprint_bytes(&b))
                });
                parts.push(format!("{hash:016x}"));
            }
        }
        crate::output::fingerprint(parts.iter().map(String::as_str))
    }

    /// The tree of a piece at hand: a sheet component, or one of the batch prepared.
    fn held(&self, art: ArtRef) -> Option<&Arc<usvg::Tree>> {
        match art {
            ArtRef::Sheet { sheet } => self.sheets.get(sheet),
            ArtRef::BoxFace { b, face } => self.boxes.get(b)?.get(face)?.as_ref(),
            _ => self.trees.get(&art),
        }
    }

    /// Every problem met while drawing: `Err` with them all when one is an error, else
    /// the warnings handed to `warnings`.
    pub fn finish(self, warnings: &mut Vec<Diagnostic>) -> Result<(), Failure> {
        finish(self.cat, self.problems.finish(), warnings, ())
    }
}

impl ArtSource for LazyArt<'_> {
    fn prepare(&mut self, refs: &[ArtRef]) {
        use std::collections::HashSet;
        let cat = self.cat;
        let missing: Vec<ArtRef> = refs
            .iter()
            .copied()
            .filter(|r| {
                !self.trees.contains_key(r)
                    && !matches!(r, ArtRef::Sheet { .. } | ArtRef::BoxFace { .. })
            })
            .collect();
        if missing.is_empty() {
            return;
        }
        let mut rows: Vec<Vec<usize>> = vec![Vec::new(); cat.decks.len()];
        let mut shared: HashSet<usize> = HashSet::new();
        for r in &missing {
            match *r {
                ArtRef::Face { deck, row } => rows[deck].push(row),
                ArtRef::Back { deck, row } if cat.decks[deck].back_per_card => rows[deck].push(row),
                ArtRef::Back { deck, .. } => {
                    shared.insert(deck);
                }
                ArtRef::Sheet { .. } | ArtRef::BoxFace { .. } => {}
            }
        }
        let request = Request {
            wanted: &|_, _| false,
            rows: Some(&rows),
            back_rows: None,
            shared_back: &|d| shared.contains(&d),
            sheet_sizes: None,
            players: 1,
            lang: self.lang,
            drawn_before: self.drawn_before.as_deref(),
        };
        let drawn = self.drawer.pieces(&request);
        self.problems.extend(drawn.problems);
        for (d, deck) in drawn.decks.into_iter().enumerate() {
            for (art, svg) in deck
                .faces
                .iter()
                .map(|(row, p)| (ArtRef::Face { deck: d, row: *row }, &p.svg))
                .chain(
                    deck.backs.iter().map(|(row, p)| (ArtRef::Back { deck: d, row: *row }, &p.svg)),
                )
            {
                if let Some(svg) = svg {
                    let f = self.fingerprint(svg);
                    self.fingerprints.insert(art, f);
                    if self.note_filled {
                        self.filled.insert(art, filled_fingerprint(svg));
                    }
                }
            }
            let wanted: Vec<(usize, Option<&usvg::Tree>)> = deck
                .faces
                .iter()
                .filter(|(row, _)| {
                    self.keep.contains(&(d, *row)) && !self.kept.contains_key(&(d, *row))
                })
                .map(|(row, p)| (*row, p.tree.as_deref()))
                .collect();
            let rasteriser = &self.drawer.ctx.pictures;
            let bleed = cat.decks[d].bleed.to_mm();
            let pictures = crate::parallel::par_map(&wanted, |(_, t)| {
                t.and_then(|t| legibility::OnPaper::of(t, bleed, rasteriser))
            });
            for ((row, _), picture) in wanted.iter().zip(pictures) {
                self.kept.insert((d, *row), picture);
            }
            for (row, piece) in deck.faces {
                if let Some(tree) = piece.tree {
                    self.trees.insert(ArtRef::Face { deck: d, row }, tree);
                }
            }
            for (row, piece) in deck.backs {
                if let Some(tree) = piece.tree {
                    self.trees.insert(ArtRef::Back { deck: d, row }, tree);
                }
            }
        }
    }

    fn tree(&self, art: ArtRef) -> Option<&usvg::Tree> {
        self.held(art).map(|t| &**t)
    }

    fn shared(&self, art: ArtRef) -> Option<Arc<usvg::Tree>> {
        self.held(art).cloned()
    }

    fn cell_text(&self, deck: usize, row: usize, field: &str) -> Option<String> {
        let row = self.cat.decks.get(deck)?.rows.get(row)?;
        self.drawer.filler.cell_text(row, field)
    }

    fn release(&mut self) {
        self.released += self.trees.len();
        self.trees.clear();
        // Trimming costs a walk over the heap: worth it once a large deck has let go of
        // many trees, not after every batch of a small one.
        if self.released >= TREES_PER_TRIM {
            self.released = 0;
            give_back_memory();
        }
    }
}

/// Returns to the OS the pages that the trees just dropped leave free. A tree is thousands
/// of small allocations made among the PDF's growing buffers; glibc's `free` keeps the
/// holes they leave mapped, so a 100,000-card build (about 300 MB of heap at its peak)
/// showed 0.4–1.1 GB of resident memory depending on how the threads interleaved.
/// `malloc_trim` releases whole free pages anywhere in the heap, not only at its top.
pub(crate) fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only changes how the allocator maps its free memory; it takes no
    // pointer and is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// One piece: its filled SVG and checked tree; `None` where that step failed (the
/// problem is in the diagnostics returned beside it).
pub struct Piece {
    pub svg: Option<String>,
    /// Shared by the pieces of one design.
    pub tree: Option<Arc<usvg::Tree>>,
}

/// The pieces drawn of a deck, in row order, each with its row's index: only the rows
/// asked for, so drawing a batch of a huge deck costs the batch, not the deck.
pub struct DeckPieces {
    pub faces: Vec<(usize, Piece)>,
    /// The deck's one back (index 0), or one per row asked for when the deck fills backs
    /// per card.
    pub backs: Vec<(usize, Piece)>,
}

/// Everything drawn, with every problem met on the way.
pub struct Pieces {
    pub decks: Vec<DeckPieces>,
    /// One per sheet component (board, score pad), filled for the sizes asked for.
    pub sheets: Vec<Piece>,
    /// Not grouped: a caller drawing in batches groups them once, over every batch, so
    /// "and N more cards" counts them all.
    pub problems: Vec<Diagnostic>,
}

/// Which pieces to draw and how: the print path draws everything of a valid catalogue;
/// previews draw what they can of any loaded catalogue, or a single card.
pub struct Request<'a> {
    pub wanted: &'a dyn Fn(&crate::model::Deck, &crate::model::Row) -> bool,
    /// Or, per deck, the indices of the rows to draw (`wanted` is not asked then).
    pub rows: Option<&'a [Vec<usize>]>,
    /// Per deck, the rows whose per-card backs to draw, when not those of their faces.
    pub back_rows: Option<&'a [Vec<usize>]>,
    /// Whether to draw deck `d`'s back when it is shared by all its cards.
    pub shared_back: &'a dyn Fn(usize) -> bool,
    /// One size per sheet (the paper for page-sized sheets); `None` draws no sheets.
    pub sheet_sizes: Option<&'a [(Length, Length)]>,
    pub players: u32,
    /// Translated labels (`labels.FIELD`) of this language.
    pub lang: Option<&'a str>,
    /// Each piece's filled SVG, by its fingerprint, as drawn in another language: a piece
    /// filled the same is not parsed and checked again (`validate` checks translations).
    pub drawn_before: Option<&'a rustc_hash::FxHashMap<ArtRef, u64>>,
}

/// Fills and parses the pieces a request asks for, keeping every piece that could be
/// drawn and each filled SVG beside its tree (so `watch` can tell what changed).
pub fn pieces(cat: &Catalogue, request: &Request) -> Pieces {
    pieces_checked(cat, request, false, PrintVariant::default())
}

/// `pieces`, with `thorough` the checks that render each piece again (contrast), for
/// `validate`; the problems met setting up come first.
fn pieces_checked(
    cat: &Catalogue,
    request: &Request,
    thorough: bool,
    variant: PrintVariant,
) -> Pieces {
    let mut drawer = Drawer::new(cat, request.lang, variant);
    drawer.ctx.thorough = thorough;
    let mut drawn = drawer.pieces(request);
    let mut problems = std::mem::take(&mut drawer.setup);
    problems.append(&mut drawn.problems);
    drawn.problems = problems;
    drawn
}

/// What drawing any number of batches of one catalogue shares: the font database (a
/// catalogue's own fonts parsed once), the compiled templates and the text measures.
/// `LazyArt` keeps one for a whole build instead of making them again for every batch.
pub struct Drawer<'a> {
    cat: &'a Catalogue,
    ctx: Context,
    filler: Filler<'a>,
    /// Problems met setting up (a template that does not compile), reported once.
    setup: Vec<Diagnostic>,
}

impl<'a> Drawer<'a> {
    /// `variant`: what the templates see as `print` (`print.ink_saver`).
    pub fn new(cat: &'a Catalogue, lang: Option<&str>, variant: PrintVariant) -> Self {
        let ctx = Context::new(cat);
        let mut setup = Vec::new();
        let filler = Filler::new(cat, (lang, variant), ctx.fontdb.clone(), &mut setup);
        Self { cat, ctx, filler, setup }
    }

    /// Fills and parses the pieces `request` asks for (its `lang` is the drawer's).
    pub fn pieces(&self, request: &Request) -> Pieces {
        draw_pieces(self.cat, &self.ctx, &self.filler, request)
    }
}

fn draw_pieces<'a>(
    cat: &'a Catalogue,
    ctx: &Context,
    filler: &Filler<'a>,
    request: &Request,
) -> Pieces {
    let mut diags = Vec::new();
    let mut decks = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        // Fill every wanted piece first (cheap), then parse them on every core (usvg's
        // text layout is most of a build's time).
        let fill = |art: ArtRef, template: &'a Template, row: Option<&'a Row>, what: String| {
            let mut fill_diags = Vec::new();
            let svg = filler.fill_card(d, template, row, &mut fill_diags);
            let before = request.drawn_before.and_then(|b| b.get(&art));
            let again = svg.as_deref().is_some_and(|svg| before == Some(&filled_fingerprint(svg)));
            Filled { svg, template, what, fill_diags, row, again }
        };
        // The rows to draw: those listed (a batch of a large deck: no pass over every
        // row), or those the `wanted` filter picks.
        let listed = |rows: Option<&[Vec<usize>]>| {
            rows.and_then(|r| r.get(d)).map(|listed| {
                let mut picked: Vec<usize> =
                    listed.iter().copied().filter(|&i| i < deck.rows.len()).collect();
                picked.sort_unstable();
                picked.dedup();
                picked
            })
        };
        let picked = listed(request.rows).unwrap_or_else(|| {
            deck.rows
                .iter()
                .enumerate()
                .filter(|(_, row)| (request.wanted)(deck, row))
                .map(|(i, _)| i)
                .collect()
        });
        let mut filled = Vec::new();
        for &i in &picked {
            let row = &deck.rows[i];
            filled.push(fill(
                ArtRef::Face { deck: d, row: i },
                &deck.face,
                Some(row),
                format!("card `{}` of deck `{}`", row.id, deck.id),
            ));
        }
        let mut back_slots = Vec::new();
        if deck.back_per_card {
            back_slots = listed(request.back_rows).unwrap_or_else(|| picked.clone());
            for &i in &back_slots {
                let row = &deck.rows[i];
                let what = format!("the back of card `{}`", row.id);
                filled.push(fill(ArtRef::Back { deck: d, row: i }, &deck.back, Some(row), what));
            }
        } else if (request.shared_back)(d) && deck.labels.is_none() {
            // A label has no back to draw.
            back_slots.push(0);
            let what = format!("the back of deck `{}`", deck.id);
            filled.push(fill(ArtRef::Back { deck: d, row: 0 }, &deck.back, None, what));
        }
        let svgs: Vec<Option<String>> = filled.iter().map(|f| f.svg.clone()).collect();
        let trees = parse_all(filled, Some((deck.width, deck.height)), deck.bleed, ctx, &mut diags);
        let mut drawn = svgs.into_iter().zip(trees).map(|(svg, tree)| Piece { svg, tree });
        let faces: Vec<(usize, Piece)> = picked.iter().copied().zip(drawn.by_ref()).collect();
        let backs: Vec<(usize, Piece)> = back_slots.into_iter().zip(drawn).collect();
        decks.push(DeckPieces { faces, backs });
    }
    let sheets = match request.sheet_sizes {
        Some(sizes) => cat
            .sheets
            .iter()
            .zip(sizes)
            .enumerate()
            .map(|(i, (sheet, &size))| {
                let svg = filler.fill_sheet(
                    i,
                    (size.0.to_mm(), size.1.to_mm()),
                    request.players,
                    &mut diags,
                );
                let what = format!("sheet `{}`", sheet.id);
                let tree = svg.as_deref().and_then(|svg| {
                    parse(
                        svg,
                        &sheet.template,
                        None,
                        &what,
                        Some(size),
                        Length::ZERO,
                        ctx,
                        &mut diags,
                    )
                });
                Piece { svg, tree: tree.map(Arc::new) }
            })
            .collect(),
        None => Vec::new(),
    };
    diags.extend(filler.untranslated());
    Pieces { decks, sheets, problems: diags }
}

/// Renders the sheet components for one paper: `sizes[i]` is sheet i's size (the page for
/// page-sized sheets), `players` the number of columns a score pad should have.
/// `thorough`: also the checks that render each sheet again (contrast), for `validate`.
pub fn render_sheets(
    validated: &Validated,
    sizes: &[(Length, Length)],
    players: u32,
    (lang, thorough): (Option<&str>, bool),
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Arc<usvg::Tree>>, Failure> {
    let cat = validated.catalogue();
    let request = Request {
        wanted: &|_, _| false,
        rows: None,
        back_rows: None,
        shared_back: &|_| false,
        sheet_sizes: Some(sizes),
        players,
        lang,
        drawn_before: None,
    };
    let drawn = pieces_checked(cat, &request, thorough, validated.variant());
    let trees = drawn.sheets.into_iter().map(|p| p.tree).collect::<Option<Vec<_>>>();
    finish(cat, drawn.problems, warnings, trees.unwrap_or_default())
}

/// Fills and parses every face of every box, each for its panel on the flat with the
/// box's bleed around it: `[box][face]`, `None` where a face could not be drawn (the
/// problem is an error then). Text near a fold or off the panel is warned of as text off
/// a card is.
pub fn render_boxes(
    cat: &Catalogue,
    edition: (Option<&str>, bool),
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Vec<Option<Arc<usvg::Tree>>>>, Failure> {
    render_boxes_as(cat, PrintVariant::default(), edition, warnings)
}

/// `render_boxes` for a build: the faces see the job's `print` (`--ink-saver`).
pub fn render_printed_boxes(
    validated: &Validated,
    edition: (Option<&str>, bool),
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Vec<Option<Arc<usvg::Tree>>>>, Failure> {
    render_boxes_as(validated.catalogue(), validated.variant(), edition, warnings)
}

fn render_boxes_as(
    cat: &Catalogue,
    variant: PrintVariant,
    (lang, thorough): (Option<&str>, bool),
    warnings: &mut Vec<Diagnostic>,
) -> Result<Vec<Vec<Option<Arc<usvg::Tree>>>>, Failure> {
    let mut drawer = Drawer::new(cat, lang, variant);
    drawer.ctx.thorough = thorough;
    let mut diags = drawer.setup.clone();
    let mut boxes = Vec::new();
    for (b, def) in cat.boxes.iter().enumerate() {
        let flats = crate::layout::boxes::flats(def.style, def.inside);
        let mut faces = Vec::new();
        for (i, face) in def.faces.iter().enumerate() {
            let panels = flats.iter().flat_map(|f| &f.panels);
            let Some(panel) = panels.clone().find(|p| p.kind == face.kind) else {
                faces.push(None);
                continue;
            };
            let size = (Length::mm(panel.rect[2]), Length::mm(panel.rect[3]));
            let svg = drawer.filler.fill_box(b, i, (panel.rect[2], panel.rect[3]), &mut diags);
            let what = format!("the {} of box `{}`", face.kind.name(), def.id);
            let before = diags.len();
            let tree = svg.as_deref().and_then(|svg| {
                parse(
                    svg,
                    &face.template,
                    None,
                    &what,
                    Some(size),
                    def.bleed,
                    &drawer.ctx,
                    &mut diags,
                )
            });
            // A face's edges are folds as much as cuts: say so where the card checks say cut.
            for d in &mut diags[before..] {
                d.message =
                    d.message.replace("from the cut", "from the panel's edge (a fold or the cut)");
                for note in &mut d.notes {
                    *note = note
                        .replace("a cut that strays", "a fold or cut that strays")
                        .replace("the card's edge", "the panel's edge");
                }
            }
            faces.push(tree.map(Arc::new));
        }
        boxes.push(faces);
    }
    diags.extend(drawer.filler.untranslated());
    finish(cat, diags, warnings, boxes)
}

/// Page marks (slugs, tile labels, glue strips) as SVG made by export: deckpress's own
/// SVG, so a failure to parse it is a bug, not a catalogue problem.
pub fn decor(svg: &str) -> Result<usvg::Tree, String> {
    let options = usvg::Options {
        font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
        fontdb: crate::fonts::bundled(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| format!("internal error drawing page marks: {e}"))?;
    match missing_glyphs(&texts(&tree)).first() {
        Some(c) => Err(format!("internal error: page marks use `{c}`, which no bundled font has")),
        None => Ok(tree),
    }
}

/// The value, with warnings handed to the caller; or every problem when one is an error.
fn finish<T>(
    cat: &Catalogue,
    diags: Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
    value: T,
) -> Result<T, Failure> {
    if diags.iter().any(Diagnostic::is_error) {
        Err(Failure::Invalid(crate::diag::group(diags), cat.sources.clone()))
    } else {
        warnings.extend(diags);
        Ok(value)
    }
}

/// What every parse of one run shares: the fonts (bundled and the catalogue's) and where
/// art files come from.
struct Context {
    fontdb: FontDb,
    icons: Vec<crate::model::Icon>,
    art: art::ArtSource,
    /// The job's bound on one text element's characters.
    text_chars: u64,
    /// The legibility checks' thresholds (`[check]`).
    legibility: crate::model::Legibility,
    /// Whether the checks that render a piece again (text contrast) run: `validate`'s.
    thorough: bool,
    /// What draws the pictures those checks read.
    pictures: raster::Rasteriser,
    /// game.toml and its text: a sheet's `data` (a score pad's title) is written there.
    manifest: (std::path::PathBuf, Arc<str>),
    /// Templates others include or import: a frame's macro writes the text it draws.
    includes: Vec<Template>,
    /// Pieces parsed and checked before, by what they were filled as: many cards of a
    /// deck share a design, and each design is parsed and checked once.
    designs: Mutex<rustc_hash::FxHashMap<u64, Arc<Design>>>,
}

/// One design parsed and checked: its tree, the piece it was first drawn as and what its
/// checks found there, said again for each piece of the same design.
struct Design {
    tree: Option<Arc<usvg::Tree>>,
    what: String,
    diags: Vec<Diagnostic>,
}

/// Designs kept at most: a deck of few designs keeps them all; one of all-different cards
/// keeps only a batch's worth, so memory stays flat.
const MAX_DESIGNS: usize = 512;

impl Design {
    /// Its problems as met by the piece `what`.
    fn said_for(&self, what: &str) -> Vec<Diagnostic> {
        self.diags
            .iter()
            .cloned()
            .map(|mut d| {
                if what != self.what {
                    d.message = d.message.replace(&self.what, what);
                    for note in &mut d.notes {
                        *note = note.replace(&self.what, what);
                    }
                }
                d
            })
            .collect()
    }
}

impl Context {
    fn new(cat: &Catalogue) -> Self {
        let fonts: Vec<Arc<Vec<u8>>> = cat.fonts.iter().map(|f| f.data.clone()).collect();
        let art = art::ArtSource {
            catalogue: cat.world.clone(),
            checked: cat.checked.clone(),
            max_pixels: cat.world.limits().get("image-pixels"),
        };
        art.check_ahead(cat.templates());
        // The bundled fonts are loaded once per run; a catalogue's own make a database of its own.
        let fontdb =
            if fonts.is_empty() { crate::fonts::bundled() } else { crate::fonts::database(&fonts) };
        Self {
            fontdb,
            icons: cat.icons.clone(),
            art,
            text_chars: cat.world.limits().get("text-chars"),
            legibility: cat.legibility,
            thorough: false,
            pictures: raster::Rasteriser::default(),
            manifest: (
                cat.manifest.clone(),
                cat.sources.get(&cat.manifest).unwrap_or_default().into(),
            ),
            designs: Default::default(),
            includes: cat.includes.clone(),
        }
    }

    /// Where a diagnostic about printed `text` points: where `template` writes it, else
    /// the words in game.toml (a sheet's `data` that a shared template prints), else the
    /// template alone.
    fn text_place(
        &self,
        template: &Template,
        row: Option<&Row>,
        text: &str,
    ) -> (std::path::PathBuf, Option<std::ops::Range<usize>>, Written) {
        let written = printed_text_span(&template.text, row, text);
        if let Some((file, through)) = self.written_by_included(template, row, text, &written) {
            let span = through.span();
            return (file, span, through);
        }
        if written == Written::Unknown {
            let start: String = text.trim().trim_end_matches('…').chars().take(24).collect();
            if start.chars().count() >= 8 {
                if let Some(at) = find_outside_comments(&self.manifest.1, &start) {
                    return (self.manifest.0.clone(), Some(at), written);
                }
            }
        }
        let span = written.span();
        (template.file.clone(), span, written)
    }

    /// Where a template that `template` includes or imports writes `text`, when it writes
    /// it more surely than `template` itself (a frame's `credits()` macro, whose words
    /// are its own, against card text elements that print any value): that file and span,
    /// with the line of `template` that calls it.
    fn written_by_included(
        &self,
        template: &Template,
        row: Option<&Row>,
        text: &str,
        own: &Written,
    ) -> Option<(std::path::PathBuf, Written)> {
        let own_strength = match own {
            Written::At(_) if strongly_written(&template.text, row, text).is_some() => return None,
            Written::At(span) => written_strength(&template.text, span),
            _ => 0,
        };
        let mut best: Option<(usize, &Template, std::ops::Range<usize>)> = None;
        for inc in self.includes.iter().filter(|t| template.text.contains(t.name.as_str())) {
            let (strength, span) = match strongly_written(&inc.text, row, text) {
                Some(span) => (usize::MAX, span),
                None => match printed_text_span(&inc.text, row, text) {
                    Written::At(span) => (written_strength(&inc.text, &span), span),
                    _ => continue,
                },
            };
            if strength > own_strength && best.as_ref().is_none_or(|(b, _, _)| strength > *b) {
                best = Some((strength, inc, span));
            }
        }
        let (_, inc, span) = best?;
        let call = self.call_note(template, inc, span.start);
        Some((inc.file.clone(), Written::Through(span, call)))
    }

    /// "called from templates/face.svg line 16": where `template` calls what `inc`
    /// defines around `at`.
    fn call_note(&self, template: &Template, inc: &Template, at: usize) -> Option<String> {
        call_site(&template.text, &inc.text, &inc.name, at).map(|call| {
            format!(
                "called from {} line {}",
                template.file.display(),
                crate::diag::line_col(&template.text, call).0
            )
        })
    }

    /// Where a template `template` includes or imports writes `words` (a font family
    /// its macro asks for): that file, the span and the call.
    fn written_in_included(
        &self,
        template: &Template,
        words: &str,
    ) -> Option<(std::path::PathBuf, std::ops::Range<usize>, Option<String>)> {
        self.includes.iter().filter(|t| template.text.contains(t.name.as_str())).find_map(|inc| {
            let span = find_outside_comments(&inc.text, words)?;
            Some((inc.file.clone(), span.clone(), self.call_note(template, inc, span.start)))
        })
    }

    /// Parsing options for a template read from `folder`, logging the art it pulls in.
    fn options(
        &self,
        folder: &crate::world::World,
        log: Arc<Mutex<art::ArtLog>>,
    ) -> usvg::Options<'static> {
        usvg::Options {
            font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
            fontdb: self.fontdb.clone(),
            image_href_resolver: self.art.resolver(folder, log),
            ..usvg::Options::default()
        }
    }
}

/// A card template filled for one row, waiting to be parsed.
struct Filled<'a> {
    svg: Option<String>,
    template: &'a Template,
    /// The card, for finding which field a misplaced text came from.
    row: Option<&'a Row>,
    what: String,
    fill_diags: Vec<Diagnostic>,
    /// Drawn from this very SVG before (in another language): not parsed again.
    again: bool,
}

/// What a piece was filled as, to tell whether another language fills it the same.
pub fn filled_fingerprint(svg: &str) -> u64 {
    crate::output::fingerprint([svg])
}

/// Parses filled templates on every core: usvg's text layout is most of a build's time.
/// The trees come back in order, and `diags` gets each card's filling problems, then its
/// parsing problems, card after card: exactly what parsing them one by one gives.
fn parse_all(
    filled: Vec<Filled>,
    expected: Option<(Length, Length)>,
    bleed: Length,
    ctx: &Context,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Option<Arc<usvg::Tree>>> {
    // What each piece was filled as, with what it is drawn from and at: the same text
    // from the same template at the same size is the same design.
    let size = expected.map(|(w, h)| (w.to_pt().to_bits(), h.to_pt().to_bits()));
    let keys: Vec<Option<u64>> = filled
        .iter()
        .map(|f| {
            let svg = f.svg.as_deref().filter(|_| !f.again)?;
            // The text hashed a word at a time (optimised in dev builds too), then with
            // where it is drawn from and at.
            let text = pixels::fnv_words(svg.as_bytes());
            let at = format!("{size:?} {} {text}", bleed.to_pt().to_bits());
            Some(crate::output::fingerprint([f.template.file.to_string_lossy().as_ref(), &at]))
        })
        .collect();
    // Each design not met before is parsed once, on every core.
    let known: Vec<Option<Arc<Design>>> = {
        let designs = ctx.designs.lock().unwrap_or_else(|e| e.into_inner());
        keys.iter().map(|k| designs.get(&(*k)?).cloned()).collect()
    };
    let mut first: rustc_hash::FxHashMap<u64, usize> = Default::default();
    let new: Vec<usize> = (0..filled.len())
        .filter(|&i| known[i].is_none())
        .filter(|&i| keys[i].is_none_or(|k| *first.entry(k).or_insert(i) == i))
        .collect();
    let parsed = crate::parallel::par_map(&new, |&i| {
        let f = &filled[i];
        let mut parse_diags = Vec::new();
        let tree = f.svg.as_ref().filter(|_| !f.again).and_then(|svg| {
            parse(svg, f.template, f.row, &f.what, expected, bleed, ctx, &mut parse_diags)
        });
        Design { tree: tree.map(Arc::new), what: f.what.clone(), diags: parse_diags }
    });
    let made: rustc_hash::FxHashMap<usize, Arc<Design>> =
        new.iter().copied().zip(parsed.into_iter().map(Arc::new)).collect();
    {
        let mut designs = ctx.designs.lock().unwrap_or_else(|e| e.into_inner());
        for (&i, design) in &made {
            if let Some(k) = keys[i].filter(|_| designs.len() < MAX_DESIGNS) {
                designs.insert(k, Arc::clone(design));
            }
        }
    }
    filled
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            diags.extend(f.fill_diags);
            // Parsed for this piece, met before, or parsed for an earlier piece of the batch.
            let first_of_batch = keys[i].and_then(|k| first.get(&k)).and_then(|j| made.get(j));
            let design = made.get(&i).or(known[i].as_ref()).or(first_of_batch)?;
            diags.extend(design.said_for(&f.what));
            design.tree.clone()
        })
        .collect()
}

/// Filled SVG → checked tree, or the problems pushed to `diags`. `what` names the piece
/// in messages; `expected` is the piece's size as cut; the tree's canvas is that plus
/// `bleed` on every side.
#[allow(clippy::too_many_arguments)]
fn parse(
    svg: &str,
    template: &Template,
    row: Option<&Row>,
    what: &str,
    expected: Option<(Length, Length)>,
    bleed: Length,
    ctx: &Context,
    diags: &mut Vec<Diagnostic>,
) -> Option<usvg::Tree> {
    if crate::world::declares_entities(svg) {
        // usvg expands entities; a few nested ones make gigabytes ("billion laughs").
        let span = template.text.find("<!").map(|i| i..i + 9);
        diags.push(
            Diagnostic::new(
                &template.file,
                span,
                "templates may not declare a DOCTYPE or entities",
            )
            .with_note(format!(
                "in {what}; entity expansion can exhaust memory, so deckpress refuses it"
            )),
        );
        return None;
    }
    let longest = svg
        .split('<')
        .map(|part| part.split_once('>').map_or(0, |(_, text)| text.len()))
        .max()
        .unwrap_or(0);
    if longest as u64 > ctx.text_chars {
        // Laying out a megabyte of text on a card takes minutes and draws nothing legible.
        diags.push(
            Diagnostic::new(&template.file, None, format!("the filled template has a text of {longest} characters, more than a card can show"))
                .with_note(format!("in {what}; the limit is {} characters (--limit text-chars=N)", ctx.text_chars)),
        );
        return None;
    }
    if let Some(card) = expected {
        if let Some(d) = proportions(svg, template, card, what) {
            diags.push(d);
            return None;
        }
    }
    let widened;
    let svg = match expected {
        Some(card) if bleed > Length::ZERO => match canvas::with_bleed(svg, card, bleed) {
            Some(s) => {
                widened = s;
                widened.as_str()
            }
            None => {
                let span = template.text.find("<svg").map(|i| i..i + 4);
                diags.push(
                    Diagnostic::new(&template.file, span, "the template has no viewBox, so deckpress cannot add the bleed around it")
                        .with_note(format!("in {what}; give the root <svg> a viewBox (e.g. viewBox=\"0 0 630 880\" for 63 × 88 mm in tenths of a millimetre), or set `bleed = \"0mm\"` on the deck")),
                );
                return None;
            }
        },
        // Without bleed (labels, `bleed = "0mm"`) the root still gets the piece's size, so
        // that the tree's pixels are the paper's for every check: a label template with a
        // viewBox alone was measured in the viewBox's units as pixels (6 mm text as 4.5 pt).
        // A template without a viewBox keeps its own width and height.
        Some(card) => match canvas::with_bleed(svg, card, Length::ZERO) {
            Some(s) => {
                widened = s;
                widened.as_str()
            }
            None => svg,
        },
        None => svg,
    };
    let log = Arc::new(Mutex::new(art::ArtLog::default()));
    let parsed = usvg::Tree::from_str(svg, &ctx.options(&template.world, log.clone()));
    let log = std::mem::take(&mut *log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    for problem in &log.problems {
        let mut d = Diagnostic::new(
            &template.file,
            href_span(&template.text, &problem.href),
            &problem.message,
        )
        .with_note(format!("in {what}"));
        if let Some(hint) = &problem.hint {
            d = d.with_note(hint);
        }
        diags.push(d);
    }
    let tree = match parsed {
        Ok(tree) => tree,
        Err(e) => {
            let mut d = Diagnostic::new(
                &template.file,
                None,
                format!("the filled template is not valid SVG: {e}"),
            );
            if let usvg::Error::ParsingFailed(xml) = &e {
                d = d.with_note(format!("at line {} of the filled SVG", xml.pos().row));
            }
            diags.push(d.with_note(format!("while filling {what}")));
            return None;
        }
    };
    if let Some(card) = expected.filter(|_| bleed > Length::ZERO) {
        // The art must reach the canvas's edge: a hundredth of a millimetre short is fine.
        let drawn = canvas::bleed_drawn(&tree, card, bleed);
        if drawn < bleed.to_mm() - 0.01 {
            let span = template.text.find("<svg").map(|i| i..i + 4);
            let what_drawn =
                if drawn < 0.05 { "nothing".to_string() } else { format!("only {drawn:.2} mm") };
            diags.push(
                Diagnostic::warning(&template.file, span, format!("the template draws {what_drawn} of the {:.2} mm bleed past the cut: a slightly-off cut shows a white edge", bleed.to_mm()))
                    .about(crate::diag::Topic::Bleed)
                    .with_note(format!("in {what}; draw the background well past the card's edge (in a 630 × 880 viewBox for 63 × 88 mm, 5 mm is x=-50 y=-50 width=730 height=980; what lies beyond the bleed is cut off); print services need the bleed, and only a piece that is never cut (a label) may set `bleed = \"0mm\"`")),
            );
        }
    }
    let fine = check_art(&tree, template, row, what, expected, bleed, ctx, &log, diags);
    (fine && log.problems.is_empty()).then_some(tree)
}

/// The span of an href in a template: where the path is written; else the `href` whose
/// written text and tags fill to it (`art/mark-{{ card.colour }}.png`), not the first
/// image's; else the first `href` filled from data; `None` if none is found.
fn href_span(text: &str, href: &str) -> Option<std::ops::Range<usize>> {
    if let Some(i) = text.find(href).filter(|_| !href.is_empty()) {
        return Some(i..i + href.len());
    }
    if let Some((i, written)) = art::href_values(text).find(|(_, w)| art::fills_to(w, href)) {
        return Some(i..i + written.len());
    }
    let i = text.find("href=\"{{").or_else(|| text.find("href="))?;
    Some(i..i + 4)
}

/// The span of a font family's name in a template.
fn family_span(text: &str, family: &str) -> Option<std::ops::Range<usize>> {
    text.find(family).map(|i| i..i + family.len())
}

/// Checks what a player would see: every character has a glyph in the font asked for,
/// art prints sharp and undistorted, the art has the piece's shape.
#[allow(clippy::too_many_arguments)]
fn check_art(
    tree: &usvg::Tree,
    template: &Template,
    row: Option<&Row>,
    what: &str,
    expected: Option<(Length, Length)>,
    bleed: Length,
    ctx: &Context,
    log: &art::ArtLog,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let mut ok = true;
    let file = &template.file;
    let texts = texts(tree);
    let mut missing = missing_glyphs(&texts);
    if !missing.is_empty() {
        missing.sort();
        missing.dedup();
        let list: Vec<String> = missing
            .iter()
            .map(|c| format!("`{c}` (U+{:04X})", c.chars().next().map_or(0, |c| c as u32)))
            .collect();
        diags.push(
            Diagnostic::new(file, None, format!("no font has {}", list.join(", ")))
                .about(crate::diag::Topic::TextFit)
                .with_note(format!("in {what}; it would print as an empty box"))
                .with_note(format!("fonts: {}; add a font that has it to the catalogue's fonts/ folder, or draw the mark as a path", crate::fonts::families(&ctx.fontdb).join(", "))),
        );
        ok = false;
    }
    for problem in crate::fonts::check(&texts, &ctx.fontdb) {
        match problem {
            crate::fonts::FontProblem::UnknownFamily(family) => {
                // In the template, or in a frame it includes or imports (then with the call).
                let (at, span, call) = match family_span(&template.text, &family) {
                    Some(span) => (file.clone(), Some(span), None),
                    None => ctx
                        .written_in_included(template, &family)
                        .map_or((file.clone(), None, None), |(at, span, call)| {
                            (at, Some(span), call)
                        }),
                };
                let mut d = Diagnostic::new(at, span, format!("no font of family `{family}`"))
                    .with_note(format!("in {what}; it would print in another font"));
                if let Some(call) = call {
                    d = d.with_note(call);
                }
                diags.push(d.with_note(format!(
                    "families: {}; a catalogue adds its own in fonts/",
                    crate::diag::accepted(crate::fonts::families(&ctx.fontdb))
                )));
                ok = false;
            }
            crate::fonts::FontProblem::FallbackStyle { character, family, style } => {
                diags.push(
                    Diagnostic::warning(
                        file,
                        None,
                        format!(
                            "`{character}` (U+{:04X}) has no {style} face: it prints {} from `{family}`",
                            character as u32,
                            if style == "bold" { "in the regular weight" } else { "upright" }
                        ),
                    )
                    .about(crate::diag::Topic::TextFit)
                    .with_note(format!("in {what}"))
                    .with_note(format!(
                        "add a font with a {style} `{character}` to the catalogue's fonts/ folder, or print it outside the {style} text"
                    )),
                );
            }
            crate::fonts::FontProblem::MissingStyle { family, style } => {
                diags.push(
                    Diagnostic::warning(
                        file,
                        family_span(&template.text, &family),
                        format!("font family `{family}` has no {style} face"),
                    )
                    .with_note(format!(
                        "in {what}; the text prints {}",
                        if style == "bold" { "in the regular weight" } else { "upright" }
                    ))
                    .with_note(format!(
                        "add the {style} face of `{family}` to the catalogue's fonts/ folder"
                    )),
                );
            }
        }
    }
    if let Some(far) = farthest_coordinate(tree.root()).filter(|v| *v > MAX_COORDINATE) {
        diags.push(
            Diagnostic::new(file, huge_number_span(&template.text), format!("a shape reaches {:.1e} m off the piece, which no PDF can hold", far / 96.0 * 0.0254))
                .with_note(format!("in {what}; keep what is drawn within {:.0} m of the piece (a number in the template or its data is far too large)", MAX_COORDINATE / 96.0 * 0.0254)),
        );
        ok = false;
    }
    if let Some((w, h)) = expected {
        for warning in art::measure(tree, (w + bleed * 2.0).to_mm(), log) {
            diags.push(match warning {
                art::ArtWarning::LowResolution { href, dpi } => {
                    let (quality, advice) = if dpi < crate::images::POOR_DPI { ("blurred", "it will look blurred") } else { ("soft", "print shops ask for 300 dpi") };
                    Diagnostic::warning(file, href_span(&template.text, &href), format!("image `{href}` prints at {dpi:.0} dpi ({quality})"))
                        .about(crate::diag::Topic::Resolution)
                        .with_note(format!("in {what}; {advice}: use an image with {:.0}% more pixels each way", (crate::images::GOOD_DPI / dpi - 1.0) * 100.0))
                }
                art::ArtWarning::Stretched { href, ratio } => Diagnostic::warning(file, href_span(&template.text, &href), format!("image `{href}` is stretched {:.1}% out of its proportions", (ratio - 1.0).abs() * 100.0))
                    .with_note(format!("in {what}; remove preserveAspectRatio=\"none\", or give the image the box's proportions")),
            });
        }
        // `{coin}` printed as text: the field went to the card without textbox().
        let printed: Vec<String> =
            texts.iter().map(|t| t.chunks().iter().map(|c| c.text()).collect()).collect();
        let mut named = std::collections::BTreeSet::new();
        for (text, name) in printed
            .iter()
            .flat_map(|t| crate::load::icon_names(t).into_iter().map(move |n| (t.as_str(), n)))
        {
            if !ctx.icons.iter().any(|i| i.name == name) || !named.insert(name) {
                continue;
            }
            // At the expression that prints the field, where it can be found.
            let span = field_span(&template.text, row, text)
                .or_else(|| template.text.find("{{").map(|i| i..i + 2));
            diags.push(
                Diagnostic::new(file, span, format!("icon `{{{name}}}` is printed as text"))
                    .with_note(format!("in {what}; print the field with textbox(…), which draws icons, bold and italic")),
            );
            ok = false;
        }
        // Text a player can read: its printed size, and its contrast on the card as drawn.
        for finding in
            legibility::text_findings(tree, &ctx.legibility, ctx.thorough.then_some(&ctx.pictures))
        {
            let (text, message, advice, topic) = match finding {
                legibility::Finding::Small { text, pt } => {
                    let message = format!(
                        "text \"{}\" prints at {pt:.1} pt, smaller than the {} pt a player reads",
                        short_text(&text),
                        ctx.legibility.min_text_pt
                    );
                    (text, message, "shorten it, give its box more room, or set [check] min_text_pt in game.toml for this game", crate::diag::Topic::TextSize)
                }
                legibility::Finding::Faint { text, ratio, needed, fg, bg } => {
                    let message = format!("text \"{}\" has a contrast of {ratio:.1}:1 against what is drawn under it, under the {needed}:1 it needs", short_text(&text));
                    let _ = (fg, bg);
                    (text, message, "darken the text or lighten what is under it (or the other way round); [check] contrast in game.toml tunes it", crate::diag::Topic::Legibility)
                }
            };
            let (at, span, written) = ctx.text_place(template, row, &text);
            diags.push(
                written.said(
                    &template.text,
                    Diagnostic::warning(&at, span, message)
                        .about(topic)
                        .with_note(format!("in {what}; {advice}")),
                ),
            );
        }
        // Cards keep text inside a safe zone, so a cut that strays does not touch it.
        let safe = if bleed > Length::ZERO { SAFE_MM } else { 0.0 };
        for off in text_off_the_piece(tree, &texts, (w, h), bleed) {
            // Looked for only when it is said: most texts are well inside.
            let place = || ctx.text_place(template, row, &off.text);
            let piece = if what.starts_with("sheet") {
                "sheet"
            } else if what.contains(" of box `") {
                "panel"
            } else {
                "card"
            };
            if off.mm > 0.1 {
                let (at, span, written) = place();
                diags.push(written.said(
                    &template.text,
                    Diagnostic::warning(&at, span, format!("text \"{}\" runs {:.1} mm off the {piece}", off.text, off.mm))
                        .about(crate::diag::Topic::OffPiece)
                        .with_note(format!("in {what}; it would be cut off: shorten it, make it smaller, or use textbox() to wrap and shrink it")),
                ));
            } else if -off.mm < safe - 0.05 {
                let (at, span, written) = place();
                diags.push(written.said(
                    &template.text,
                    Diagnostic::warning(&at, span, format!("text \"{}\" is {:.1} mm from the cut, inside the {safe} mm safe zone", off.text, -off.mm))
                        .about(crate::diag::Topic::SafeZone)
                        .with_note(format!("in {what}; a cut that strays by a millimetre would touch it: keep text {safe} mm inside the card's edge")),
                ));
            }
        }
    }
    ok
}

/// A template whose size or viewBox is more than 0.5 % off the piece's proportions
/// (it would be stretched or letterboxed), said in the template's own words.
fn proportions(
    svg: &str,
    template: &Template,
    (w, h): (Length, Length),
    what: &str,
) -> Option<Diagnostic> {
    let ratio = |rw: f32, rh: f32| (rw / rh) / (w.to_pt() / h.to_pt()) - 1.0;
    let size = canvas::size(svg).map(|(sw, sh)| ratio(sw.to_pt(), sh.to_pt()));
    let view = canvas::view_box(svg).map(|(_, _, vw, vh)| ratio(vw, vh));
    let off =
        [size, view]
            .into_iter()
            .flatten()
            .fold(0.0f32, |a, b| if b.abs() > a.abs() { b } else { a });
    if off.abs() <= 0.005 {
        return None;
    }
    // Said in the template's own words: its width, height and viewBox as written.
    let attr = |name: &str| canvas::root_attr(&template.text, name);
    let written: Vec<String> = ["width", "height", "viewBox"]
        .iter()
        .filter_map(|n| attr(n).map(|(_, v)| format!("{n}=\"{v}\"")))
        .collect();
    let span = attr("viewBox").or_else(|| attr("width")).map(|(at, v)| at..at + v.len());
    let shape = if written.is_empty() { "its size".to_string() } else { written.join(" ") };
    // What would be right, to the hundredth (a hex tile's 51.96 mm): the piece's size, and
    // the viewBox as wide as written with the height that goes with it.
    let number = |v: f32| {
        let v = format!("{v:.2}");
        v.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let mut right = Vec::new();
    if size.is_some_and(|o| o.abs() > 0.005) {
        right.push(format!("width=\"{}mm\" height=\"{}mm\"", number(w.to_mm()), number(h.to_mm())));
    }
    if let (Some(o), Some((vx, vy, vw, _))) = (view, canvas::view_box(svg)) {
        if o.abs() > 0.005 {
            let vh = vw * h.to_pt() / w.to_pt();
            right.push(format!(
                "viewBox=\"{} {} {} {}\"",
                number(vx),
                number(vy),
                number(vw),
                number(vh)
            ));
        }
    }
    Some(
        Diagnostic::new(&template.file, span, format!("the template's proportions ({shape}) are {:.1}% off the piece's {w} × {h}", off.abs() * 100.0))
            .with_note(format!("in {what}; it would be stretched or letterboxed: give width, height and viewBox the piece's proportions ({})", right.join(" "))),
    )
}

/// A text whose ink leaves the piece, and by how much.
struct OffPiece {
    text: String,
    mm: f32,
}

/// Text on a card stays this far inside the cut (print shops ask for 3 mm).
const SAFE_MM: f32 = 3.0;

/// Every text with how far its ink reaches past the piece's cut (inside a canvas
/// widened by `bleed`): positive when it runs off, negative its distance inside.
fn text_off_the_piece(
    tree: &usvg::Tree,
    texts: &[&usvg::Text],
    (w, h): (Length, Length),
    bleed: Length,
) -> Vec<OffPiece> {
    let size = tree.size();
    let mm_per_unit = (w + bleed * 2.0).to_mm() / size.width();
    let b = bleed.to_mm() / mm_per_unit;
    let (left, top, right, bottom) =
        (b, b, b + w.to_mm() / mm_per_unit, b + h.to_mm() / mm_per_unit);
    texts
        .iter()
        .filter_map(|text| {
            // The ink: the outlines usvg made of the glyphs, not the line boxes.
            let ink = text.flattened().bounding_box().transform(text.abs_transform())?;
            let over =
                [left - ink.left(), top - ink.top(), ink.right() - right, ink.bottom() - bottom]
                    .into_iter()
                    .fold(f32::MIN, f32::max)
                    * mm_per_unit;
            let words: String =
                text.chunks().iter().map(|c| c.text()).collect::<Vec<_>>().join(" ");
            let short: String = words.chars().take(40).collect();
            let short = if words.chars().count() > 40 { format!("{short}…") } else { short };
            Some(OffPiece { text: short, mm: over })
        })
        .collect()
}

/// How far, in usvg's pixels (1/96 in), anything drawn may reach from the piece's
/// corner: 264 m. A PDF's numbers are bounded (qpdf rejects 1e19), and no piece is
/// anywhere near so large.
const MAX_COORDINATE: f32 = 1_000_000.0;

/// The largest distance, in usvg's pixels, that anything drawn reaches from the tree's
/// origin (`None` for nothing drawn).
fn farthest_coordinate(group: &usvg::Group) -> Option<f32> {
    let far = |r: usvg::Rect| {
        [r.left(), r.top(), r.right(), r.bottom()]
            .into_iter()
            .map(|v| if v.is_finite() { v.abs() } else { f32::INFINITY })
            .fold(0.0, f32::max)
    };
    group
        .children()
        .iter()
        .filter_map(|node| match node {
            usvg::Node::Group(g) => farthest_coordinate(g),
            usvg::Node::Path(p) => Some(far(p.abs_bounding_box())),
            usvg::Node::Image(i) => Some(far(i.abs_bounding_box())),
            usvg::Node::Text(t) => Some(far(t.abs_bounding_box())),
        })
        .reduce(f32::max)
}

/// The first number in a template as large as a shape could only wrongly be.
fn huge_number_span(text: &str) -> Option<std::ops::Range<usize>> {
    let is_number = |c: char| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+');
    let mut at = 0;
    while let Some(start) = text[at..].find(|c: char| c.is_ascii_digit()).map(|i| i + at) {
        let end = text[start..].find(|c: char| !is_number(c)).map_or(text.len(), |i| i + start);
        if text[start..end].parse::<f64>().is_ok_and(|v| v.abs() > f64::from(MAX_COORDINATE)) {
            return Some(start..end);
        }
        at = end.max(start + 1);
    }
    None
}

/// Every text element of a tree, in drawing order: what the text checks look at.
fn texts(tree: &usvg::Tree) -> Vec<&usvg::Text> {
    texts_but(tree, |_| false)
}

/// The text elements of a tree, in drawing order, but those in (or being) a node `skip`
/// says to leave out.
pub(crate) fn texts_but(tree: &usvg::Tree, skip: impl Fn(&usvg::Node) -> bool) -> Vec<&usvg::Text> {
    fn walk<'t>(
        group: &'t usvg::Group,
        skip: &dyn Fn(&usvg::Node) -> bool,
        out: &mut Vec<&'t usvg::Text>,
    ) {
        for node in group.children() {
            if skip(node) {
                continue;
            }
            match node {
                usvg::Node::Group(g) => walk(g, skip, out),
                usvg::Node::Text(t) => out.push(t),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(tree.root(), &skip, &mut out);
    out
}

/// The characters of `texts` that no font had a glyph for.
fn missing_glyphs(texts: &[&usvg::Text]) -> Vec<String> {
    texts
        .iter()
        .flat_map(|t| t.layouted())
        .flat_map(|span| span.positioned_glyphs.iter())
        .filter(|g| g.id.0 == 0 && !g.text.trim().is_empty())
        .map(|g| g.text.clone())
        .collect()
}

/// Where a template writes a text (three letters or more), not counting its comments.
fn find_outside_comments(template: &str, text: &str) -> Option<std::ops::Range<usize>> {
    if text.len() < 3 {
        return None;
    }
    let in_comment = |i: usize, open: &str, close: &str| {
        let before = &template[..i];
        before.rfind(open).is_some_and(|o| before.rfind(close).is_none_or(|c| c < o))
    };
    template
        .match_indices(text)
        .map(|(i, _)| i)
        .find(|&i| !in_comment(i, "{#", "#}") && !in_comment(i, "<!--", "-->"))
        .map(|i| i..i + text.len())
}

/// The first words of a text, for a message.
fn short_text(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(8).collect();
    let more = if text.split_whitespace().count() > 8 { " …" } else { "" };
    format!("{}{more}", words.join(" "))
}

/// The parts of a board a tiling seam should not cut through: every element whose id
/// starts with `no-seam` (a path space, a card place), as x0, y0, x1, y1 in millimetres
/// on a board of `size`.
pub fn kept_whole(tree: &usvg::Tree, size: (Length, Length)) -> Vec<[f32; 4]> {
    let (sx, sy) = (size.0.to_mm() / tree.size().width(), size.1.to_mm() / tree.size().height());
    let mut kept = Vec::new();
    fn walk(g: &usvg::Group, s: (f32, f32), kept: &mut Vec<[f32; 4]>) {
        for node in g.children() {
            if node.id().starts_with("no-seam") {
                let b = node.abs_bounding_box();
                kept.push([b.left() * s.0, b.top() * s.1, b.right() * s.0, b.bottom() * s.1]);
            } else if let usvg::Node::Group(inner) = node {
                walk(inner, s, kept);
            }
        }
    }
    walk(tree.root(), (sx, sy), &mut kept);
    kept
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_printed_text_is_found_where_its_written_words_fill_to_it() {
        let template =
            "<text x=\"1\">{{ a }}</text><text>{{ a }} ({{ n }} cards)</text><tspan>{{ b }}</tspan>";
        use super::Written;
        let Written::At(span) = super::printed_text_span(template, None, "X (3 cards)") else {
            panic!("one element writes it")
        };
        assert_eq!(&template[span], "{{ a }} ({{ n }} cards)");
        // Two elements fill to it with nothing written: both, neither chosen.
        let Written::OneOf(spans) = super::printed_text_span(template, None, "Y") else {
            panic!("two elements write it")
        };
        assert_eq!(
            spans.iter().map(|s| &template[s.clone()]).collect::<Vec<_>>(),
            ["{{ a }}", "{{ b }}"]
        );
        // Words written as printed are found as they are.
        assert_eq!(
            super::printed_text_span("<text>Hello</text>", None, "Hello"),
            Written::At(6..11)
        );
        assert_eq!(super::printed_text_span("<text>Hello</text>", None, "Bye"), Written::Unknown);
        // A word written as t()'s text is found there, not in a field starting with it.
        let template = "<text>{{ t(\"Score\") }}</text><text>{{ card.text }}</text>";
        let mut values = crate::model::Values::default();
        values.insert("text", "Score {{ values('suit') }}".to_string());
        let row = crate::model::Row {
            id: "a".into(),
            qty: 1,
            values,
            spans: Default::default(),
            span: 0..0,
        };
        let at = template.find("Score").unwrap();
        assert_eq!(
            super::printed_text_span(template, Some(&row), "Score"),
            Written::At(at..at + 5)
        );
    }
}
