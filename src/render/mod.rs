//! Stage `render`: a catalogue (`Validated` to print, any loaded one to preview) → the
//! usvg tree of each piece (`Pieces`; `LazyArt`, the `ArtSource` the writers draw from, a
//! batch at a time). Fills the SVG templates of every deck, sheet and box (minijinja,
//! `fill`), parses the result with usvg against the bundled and the catalogue's fonts
//! (`parsing`), and reports what a player could not read (`findings`): a character no
//! font has, text off the piece or too small, a template whose shape is not the piece's.

mod art;
pub mod canvas;
mod context;
pub mod document;
mod fill;
mod findings;
mod parsing;
mod queries;
pub mod textbox;
mod undefined;
mod words;
mod written;

// The legibility checks moved to `check`; these names keep the paths the driver, the CLI
// and the previews use until they call `check` themselves.
pub use crate::check::colour;
pub use crate::check::colour_alone as legibility;

use std::sync::Arc;

use crate::check::Outline;
use crate::diag::{Diagnostic, Failure};
use crate::length::Length;
pub use crate::model::{ArtSource, NoArt};

use crate::model::ArtRef;
use crate::model::{Catalogue, PrintVariant};
use crate::validate::Validated;
use context::{Context, Spec};
use fill::Filler;
use findings::{missing_glyphs, texts};
pub use parsing::filled_fingerprint;
use parsing::{fill_and_parse, parse, Filled, ToFill};

type FontDb = Arc<usvg::fontdb::Database>;

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
    /// `thorough`: the checks that render each piece again (contrast), for the commands that
    /// write or judge files (not previews).
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

    /// Whether the checks that render each piece again (contrast) run: not for previews.
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
        // Freed here, by the thread that draws: freed on a thread of their own, glibc took
        // each arena's lock and the trim walked heaps the parse threads allocated in
        // (validate of 10,000 distinct cards took 1.10 x the CPU, pinned to one core).
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
/// the commands that judge files; the problems met setting up come first.
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
        // Each wanted piece filled in turn, and parsed on every core meanwhile (usvg's text
        // layout is most of a build's time).
        let drawn_before = request.drawn_before;
        let fill = |piece: ToFill<'a>| {
            let ToFill { art, template, row, what } = piece;
            let mut fill_diags = Vec::new();
            let svg = filler.fill_card(d, template, row, &mut fill_diags);
            let before = drawn_before.and_then(|b| b.get(&art));
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
        let mut filled: Vec<ToFill> = Vec::new();
        for &i in &picked {
            let row = &deck.rows[i];
            filled.push(ToFill {
                art: ArtRef::Face { deck: d, row: i },
                template: &deck.face,
                row: Some(row),
                what: format!("card `{}` of deck `{}`", row.id, deck.id),
            });
        }
        let mut back_slots = Vec::new();
        if deck.back_per_card {
            back_slots = listed(request.back_rows).unwrap_or_else(|| picked.clone());
            for &i in &back_slots {
                let row = &deck.rows[i];
                let what = format!("the back of card `{}`", row.id);
                let art = ArtRef::Back { deck: d, row: i };
                filled.push(ToFill { art, template: &deck.back, row: Some(row), what });
            }
        } else if (request.shared_back)(d) && deck.labels.is_none() {
            // A label has no back to draw.
            back_slots.push(0);
            let what = format!("the back of deck `{}`", deck.id);
            let art = ArtRef::Back { deck: d, row: 0 };
            filled.push(ToFill { art, template: &deck.back, row: None, what });
        }
        let outline =
            Outline { size: (deck.width, deck.height), shape: deck.shape, corner: deck.corner };
        let drawn = fill_and_parse(filled, fill, Some(outline), deck.bleed, ctx, &mut diags);
        let mut drawn = drawn.into_iter().map(|(svg, tree)| Piece { svg, tree });
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
                    let spec = Spec {
                        template: &sheet.template,
                        row: None,
                        what: &what,
                        outline: Some(Outline::rect(size)),
                        bleed: Length::ZERO,
                    };
                    parse(svg, &spec, ctx, &mut diags)
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
/// `thorough`: also the checks that render each sheet again (contrast), but for previews.
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
                let spec = Spec {
                    template: &face.template,
                    row: None,
                    what: &what,
                    outline: Some(Outline::rect(size)),
                    bleed: def.bleed,
                };
                parse(svg, &spec, &drawer.ctx, &mut diags)
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
    let options = crate::svg::sealed(crate::fonts::bundled());
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
