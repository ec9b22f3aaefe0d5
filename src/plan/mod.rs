//! Stage `plan`: a validated game and a `Job` → a `Plan`, the documents the job makes of
//! the game, each with its file name, title, pages, how it prints and its cut files.
//! One small planner per kind of document (home gang sheets, page-sized sheets, tiled and
//! large boards, label sheets, boxes, a print service's per-card files, the manifest);
//! `execute` runs a plan into a sink: staged files (`build`), memory (`preflight`),
//! findings only (`validate`) or pictures (`preview` and `watch`: `pictures` plans them,
//! a set per deck of every card design and side, the boards and pads, box flats and label
//! sheets; `raster` draws them, and any document's pages, as PNGs).
//!
//! A planner only decides what will exist; the pages of a document are laid out when the
//! executor reaches it (`Draw`), so a 100,000-card deck's sheets are never all in memory.
//! A new kind of document is one planner file (a function and its `Draw`), its `mod`
//! line and one line in `plan` (`tests.rs` adds one with no change here at all).

mod boxes;
mod cards;
mod contact;
mod execute;
mod game;
mod gang;
mod labels;
pub mod pictures;
mod press;
pub mod raster;
mod reprint;
mod sheets;

use std::path::PathBuf;

use crate::diag::{Diagnostic, Failure};
use crate::job::Job;
use crate::layout::{Fitting, Paper, Side};
use crate::model::Catalogue;
use crate::render::LazyArt;
use crate::services::Form;
use crate::validate::Validated;

pub use execute::{commit, execute, Drawn, Executed, Executor, Sink};
pub use game::{check, load, said_load, with_template_errors, Checked};
pub use gang::{duplex_name, misfits};
pub use press::press as press_for;
pub use raster::{page as raster_page, PictureCache, PictureMode};
pub use reprint::Reprint;
pub use sheets::sheet_size;

/// What a job makes of one game: its documents, in the order they are made and listed.
#[derive(Default)]
pub struct Plan {
    pub documents: Vec<Document>,
    /// Lines for the user besides the files (a deck on labels left out of a service's files).
    pub notes: Vec<String>,
}

/// One file (or folder of files) the job makes.
pub struct Document {
    /// Where it goes under the output folder: `<game>/<name>`.
    pub file: PathBuf,
    /// The PDF's Title.
    pub title: String,
    /// What it holds.
    pub body: Body,
    /// How the PDF asks to be printed.
    pub printing: Printing,
    /// Its cut files (`--cut`), beside it.
    pub cut: Option<CutFiles>,
    /// What it is, for the commands that use the files (the bundle, preflight).
    pub product: Product,
    /// The paper its pages are printed on, by name (`a4`, `letter`, a label product's
    /// paper, a large sheet's `a3`); `None` when its pages are the pieces' own size.
    pub paper: Option<String>,
}

/// What a document is. The bundle and preflight read this, never a file name or the
/// bytes: a kind they do not handle is a compile error, not a file skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Product {
    /// Home sheets of cards, tokens or tiles: the decks printed together, in order.
    Cards { decks: Vec<usize> },
    /// A page-sized sheet: a score pad, a mat, a player aid.
    Sheet { sheet: usize },
    /// A board tiled across home pages.
    TiledBoard { sheet: usize },
    /// A board on one large sheet.
    LargeBoard { sheet: usize },
    /// A deck printed on label sheets.
    Labels { deck: usize },
    /// A box's flats.
    Box { index: usize },
    /// A print service's PDF of one deck.
    ServiceDeck { deck: usize },
    /// A print service's folder of PNGs of one deck.
    ServicePngs { deck: usize },
    /// What every piece was drawn from, for a later `--changed-since`.
    Manifest,
    /// `preview`'s pictures.
    Pictures,
    /// The rulebook, typeset from rules.md (`rules`).
    Rulebook,
    /// The print-and-play file (`bundle`).
    Bundle,
    /// A Tabletop Simulator deck sheet or saved object (`export tts`).
    Tts,
    /// A duplex printer's test sheet (`calibrate`).
    Calibration,
    /// `preflight`'s report.
    Report,
}

impl What {
    /// A whole file made outside a plan's pages (a rulebook, a bundle, a test sheet, a
    /// Tabletop Simulator sheet): simplex, not folded, in `lang` and `ink_saver`'s variant.
    pub fn whole(
        product: Product,
        (paper, lang, ink_saver): (Option<&str>, Option<&str>, bool),
    ) -> What {
        What {
            product,
            paper: paper.map(str::to_string),
            print_as: crate::export::pdf::PrintAs::Simplex,
            folded: false,
            lang: lang.map(str::to_string),
            ink_saver,
        }
    }
}

impl Made {
    /// A whole document made outside a plan's pages, `path` under the output folder.
    pub fn document(
        path: PathBuf,
        bytes: Vec<u8>,
        product: Product,
        how: (Option<&str>, Option<&str>, bool),
    ) -> Self {
        Made { path, content: Content::Bytes(bytes), what: Some(What::whole(product, how)) }
    }
}

/// What a made file is: its document's product and paper, how it prints, and the edition
/// and variant it was made in.
#[derive(Debug, Clone, PartialEq)]
pub struct What {
    pub product: Product,
    pub paper: Option<String>,
    /// Simplex, or duplex with the flip it was laid out for.
    pub print_as: crate::export::pdf::PrintAs,
    /// Gutter-fold sheets (`--duplex fold`): printed single-sided, folded, glued and cut.
    pub folded: bool,
    pub lang: Option<String>,
    pub ink_saver: bool,
}

/// What a document holds.
pub enum Body {
    /// A PDF of pages, laid out when it is made.
    Pdf(Box<dyn Draw>),
    /// A folder of one PNG per card design and side of deck `deck`, at `dpi`.
    Pngs { deck: usize, dpi: u32 },
    /// `preview`'s pictures of a deck's designs and sides (with its contact sheets), or of
    /// the boards and pads: the raster sink's picture mode draws them.
    Pictures(Box<pictures::Set>),
    /// What every piece was drawn from, for a later `--changed-since`.
    Manifest,
}

/// How a PDF asks to be printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printing {
    Simplex,
    /// With the job's duplex flip when its fronts and backs alternate (home gang sheets).
    AsImposed,
}

/// The cut files of a PDF's pages, in the job's `--cut` format.
#[derive(Debug, Clone, PartialEq)]
pub enum CutFiles {
    /// One per front page, numbered by its page: `STEM-cut-N`.
    Numbered { stem: String },
    /// One per page, named by the part of a box it holds (none for a one-piece box):
    /// `STEM-cut`, `STEM-lid-cut`.
    Parts { stem: String, parts: Vec<Option<&'static str>> },
}

impl CutFiles {
    /// Whether page `i` (of `side`) gets files beside it (a cut file, a print-then-cut
    /// picture), and what names them: the stem, the box part, the page number.
    fn of_page(&self, i: usize, side: Side) -> Option<(&str, Option<&str>, Option<usize>)> {
        match self {
            CutFiles::Numbered { .. } if side != Side::Front => None,
            CutFiles::Numbered { stem } => Some((stem, None, Some(i + 1))),
            CutFiles::Parts { stem, parts } => Some((stem, parts.get(i).copied().flatten(), None)),
        }
    }
}

/// The pages of a document, laid out from the game when the executor reaches it.
pub trait Draw: Send + Sync {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure>;
}

/// A file made for a game: its path under the output folder, what it holds, and what it
/// is (`None` for what goes beside a document: its cut files, a preview's pictures).
pub struct Made {
    pub path: PathBuf,
    pub content: Content,
    pub what: Option<What>,
}

impl Made {
    /// A file that is no document of its own.
    pub fn beside(path: PathBuf, content: Content) -> Self {
        Made { path, content, what: None }
    }
}

/// What a file made for a game holds.
pub enum Content {
    /// Its bytes (empty when only checked).
    Bytes(Vec<u8>),
    /// `build`: the file itself, written beside its place and put there with the game's
    /// other files. A 100,000-card deck's PDF (tens of MB) is not held while the rest of the
    /// game is made.
    Staged(crate::output::Staged),
}

/// What a plan is made from: the game as the job prints it.
pub struct Context<'a> {
    pub job: &'a Job,
    pub validated: &'a Validated,
    /// How each deck is made one of the service's products (`--fit`), by deck.
    pub fits: &'a [Option<Fitting>],
    /// The language drawn (`--lang`, or a translation `validate` checks).
    pub lang: Option<&'a str>,
    /// A press made already and shared by several executions (preflight's decks), so that
    /// each photo is converted once; `None`: the execution makes the job's own.
    pub press: Option<&'a std::sync::Arc<crate::press::Press>>,
}

impl<'a> Context<'a> {
    pub fn cat(&self) -> &'a Catalogue {
        self.validated.catalogue()
    }

    /// `-LANG` in file names (and `-inksaver` for the ink saver's variant).
    pub fn lang_suffix(&self) -> String {
        self.job.print.file_suffix(self.lang)
    }

    /// The file `name` in the game's folder.
    fn file(&self, name: String) -> PathBuf {
        PathBuf::from(&self.cat().id).join(name)
    }

    /// A home file from the home pattern: `{game}-{part}-{paper}{lang}.pdf`.
    fn home_file(&self, part: &str, paper: &str) -> String {
        crate::services::home().file_name(&self.cat().id, part, paper, &self.lang_suffix())
    }
}

/// What a document's pages are laid out with: the game, the art drawn so far, and the
/// game's one list of warnings.
pub struct Drawing<'r, 'a> {
    pub ctx: &'r Context<'a>,
    pub art: &'r mut LazyArt<'a>,
    pub warnings: &'r mut Vec<Diagnostic>,
    /// `--changed-since`: the cards to reprint.
    pub reprint: Option<&'r Reprint>,
    /// The paper the sheets' art was last filled for, and whether the boxes' art is drawn.
    prepared: &'r mut Prepared,
}

/// Which sheet and box art a game's documents have had drawn.
#[derive(Default)]
pub(crate) struct Prepared {
    sheets: Option<Paper>,
    boxes: bool,
}

impl Drawing<'_, '_> {
    /// The sheet components' art, filled for `paper` (page-sized ones take its size); any
    /// paper's when `None` (a board's size is its own).
    fn sheets_for(&mut self, paper: Option<Paper>) -> Result<(), Failure> {
        let paper = match (paper, self.prepared.sheets) {
            (Some(p), Some(done)) if p == done => return Ok(()),
            (None, Some(_)) => return Ok(()),
            (Some(p), _) => p,
            (None, None) => self.ctx.job.print.papers.first().copied().unwrap_or(Paper::A4),
        };
        let cat = self.ctx.cat();
        let players = players(cat, self.ctx.job.print.players)?;
        let sizes: Vec<_> = cat.sheets.iter().map(|s| sheet_size(s.size, paper)).collect();
        let how = (self.ctx.lang, self.art.thorough());
        self.art.sheets =
            crate::render::render_sheets(self.ctx.validated, &sizes, players, how, self.warnings)?;
        self.prepared.sheets = Some(paper);
        Ok(())
    }

    /// The boxes' faces, drawn once.
    fn boxes(&mut self) -> Result<(), Failure> {
        if !self.prepared.boxes {
            let how = (self.ctx.lang, self.art.thorough());
            self.art.boxes =
                crate::render::render_printed_boxes(self.ctx.validated, how, self.warnings)?;
            self.prepared.boxes = true;
        }
        Ok(())
    }
}

/// The documents the job makes of the game, in order; with `--changed-since`, only the
/// cards in `reprint`.
pub fn plan(ctx: &Context, reprint: Option<&Reprint>) -> Result<Plan, Failure> {
    let mut plan = Plan::default();
    let print = &ctx.job.print;
    match print.service.form {
        Form::GangSheets => {
            // A score pad for more players than the game has is said before anything is made.
            players(ctx.cat(), print.players)?;
            for &paper in &print.papers {
                gang::plan(ctx, paper, reprint, &mut plan);
                // A reprint is of cards: boards and pads are printed whole when they change.
                if reprint.is_none() {
                    sheets::on_paper(ctx, paper, &mut plan);
                }
            }
            labels::plan(ctx, &mut plan);
            // Nor are boxes: an unchanged box's PDF is left as it was, not written again.
            match reprint {
                None => {
                    boxes::plan(ctx, &mut plan);
                    sheets::large(ctx, &mut plan);
                }
                Some(_) if !ctx.cat().boxes.is_empty() => plan.notes.push(format!(
                    "{}: boxes, boards and pads are left out of a reprint of cards: build without --changed-since to print one that changed",
                    ctx.cat().id
                )),
                Some(_) => {}
            }
        }
        Form::PdfPagePerSide => cards::pdfs(ctx, &mut plan),
        Form::PngPerSide => cards::pngs(ctx, &mut plan),
    }
    // Every build says what it drew, for a later `--changed-since`.
    let name = print.service.manifest_name(&ctx.cat().id, &ctx.lang_suffix());
    plan.documents.push(Document {
        file: ctx.file(name),
        title: String::new(),
        body: Body::Manifest,
        printing: Printing::Simplex,
        cut: None,
        product: Product::Manifest,
        paper: None,
    });
    Ok(plan)
}

/// The players a score pad is drawn for: `--players`, or the game's most.
pub fn players(cat: &Catalogue, asked: Option<u32>) -> Result<u32, Failure> {
    match (asked, cat.players) {
        (Some(n), Some((min, max))) if n < min || n > max => {
            Err(Failure::Io(format!("{} is for {min} to {max} players, not {n}", cat.name)))
        }
        (Some(0), _) => Err(Failure::Io("--players must be at least 1".to_string())),
        (Some(n), _) => Ok(n),
        (None, Some((_, max))) => Ok(max),
        (None, None) => Ok(1),
    }
}

/// How wide a slug's or a box caption's text is, in ems of the bundled sans the PDF draws
/// marks in.
fn slug_width() -> crate::layout::SlugWidth {
    let metrics = crate::render::textbox::Metrics::new(crate::fonts::bundled());
    std::sync::Arc::new(move |text: &str| {
        metrics.width(crate::fonts::DEFAULT_FAMILY, false, false, text)
    })
}

/// Where in game.toml a quoted id or name is written, for a warning's span.
fn span_of(cat: &Catalogue, quoted: &str) -> Option<std::ops::Range<usize>> {
    let text = cat.sources.get(&cat.game_toml).unwrap_or_default();
    let needle = format!("\"{quoted}\"");
    text.find(&needle).map(|i| i..i + needle.len())
}

#[cfg(test)]
mod tests;
