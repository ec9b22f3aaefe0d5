//! The one executor: a game's plan run into a sink. Each document's pages are laid out
//! when it is reached and drawn a batch of pieces at a time while its PDF is written, so
//! memory does not grow with the deck; every problem met is reported at the end.
//! - `Sink::Files`: `build`, each file staged in the output folder as soon as it is made,
//!   put in place with the game's other files by the caller (`output::Commit`);
//! - `Sink::Memory`: `preflight`, the same bytes kept in memory;
//! - `Sink::Findings`: `validate`, the pages laid out and their art drawn and checked,
//!   nothing serialised;
//! - `Sink::Raster`: `preview` and `watch`, each page drawn as a PNG at the dpi asked
//!   (`raster.rs`), kept in memory; with its picture mode, the sets of card, board and
//!   pad pictures (`Body::Pictures`) drawn into the preview folder with their contact
//!   sheets, skipping those the mode's cache drew already.
//!
//! With `DECKPRESS_DEBUG=plan`, a line on stderr for each document executed, naming the
//! sink: a test's proof that every command runs its documents through here.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Body, Content, Context, Document, Drawing, Made, Plan, Prepared, Printing, Reprint};
use crate::diag::{Diagnostic, Failure};
use crate::export::pdf::PrintAs;
use crate::layout::{ArtRef, Duplex, Pages, Side};
use crate::press::Press;
use crate::render::LazyArt;

/// Where a plan's files go.
pub enum Sink<'s> {
    /// `build`: staged under this output folder.
    Files { out: PathBuf },
    /// `preflight`: kept in memory.
    Memory,
    /// `validate`: drawn and checked, nothing made.
    Findings,
    /// `preview`: each page drawn as a PNG at `dpi`, kept in memory; with `pictures`, the
    /// picture sets drawn as it asks (`watch` too).
    Raster { dpi: u32, pictures: Option<&'s super::raster::PictureMode> },
}

impl Sink<'_> {
    /// How the `DECKPRESS_DEBUG=plan` trace names it.
    fn name(&self) -> &'static str {
        match self {
            Sink::Files { .. } => "files",
            Sink::Memory => "memory",
            Sink::Findings => "findings",
            Sink::Raster { pictures: None, .. } => "raster",
            Sink::Raster { pictures: Some(_), .. } => "raster pictures",
        }
    }
}

/// Whether `DECKPRESS_DEBUG=plan` asks for a line per document executed.
fn trace_plan() -> bool {
    static ASKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ASKED.get_or_init(|| std::env::var_os("DECKPRESS_DEBUG").is_some_and(|v| v == "plan"))
}

/// How one language's drawing stands to another's (`validate` draws each translation).
pub enum Drawn {
    /// Whether to note what each piece was filled as, for the translations after it.
    Note(bool),
    /// What the first language filled each piece as: what is filled the same again is
    /// not parsed nor checked again.
    Before(Arc<rustc_hash::FxHashMap<ArtRef, u64>>),
}

/// What running a plan made.
pub struct Executed {
    pub made: Vec<Made>,
    /// Lines for the user besides the files (what a reprint left out).
    pub notes: Vec<String>,
    /// What each piece was filled as, when `Drawn::Note(true)` asked.
    pub filled: rustc_hash::FxHashMap<ArtRef, u64>,
}

impl Executed {
    /// The files made in memory (`Sink::Memory`, `Sink::Raster`), with their bytes.
    pub fn in_memory(self) -> impl Iterator<Item = (PathBuf, Vec<u8>)> {
        self.made.into_iter().filter_map(|made| match made.content {
            Content::Bytes(bytes) => Some((made.path, bytes)),
            Content::Staged(_) => None,
        })
    }

    /// The documents made in memory, with what each is (their cut files left out).
    pub fn documents_in_memory(self) -> impl Iterator<Item = (super::What, Vec<u8>)> {
        self.made.into_iter().filter_map(|made| match (made.what, made.content) {
            (Some(what), Content::Bytes(bytes)) => Some((what, bytes)),
            _ => None,
        })
    }
}

/// The one way a command's files reach `--out` (build, rules, bundle, export tts,
/// calibrate, preflight's report): each put inside it (`output::inside`) and staged beside
/// its place, then all put in place as one set under the lock of `out/<folder>`, one
/// command at a time (waiting `wait` seconds at most for another); returns their paths.
pub fn commit(
    out: &Path,
    folder: &str,
    made: Vec<Made>,
    wait: u64,
) -> Result<Vec<String>, Failure> {
    let dir = out.join(folder);
    let (mut written, mut staged) = (Vec::new(), Vec::new());
    for Made { path, content, .. } in made {
        let path = crate::output::inside(out, &path).map_err(Failure::Io)?;
        staged.push(match content {
            Content::Bytes(bytes) => crate::output::stage(&path, &bytes)
                .map_err(|e| crate::output::cannot_write(&path, e))?,
            Content::Staged(staged) => staged,
        });
        written.push(path.display().to_string());
    }
    crate::output::Commit::begin(&dir, wait)
        .and_then(|commit| commit.all(staged))
        .map_err(|e| crate::output::cannot_write(&dir, e))?;
    Ok(written)
}

/// Plans the game's documents and runs them into `sink`.
pub fn execute(
    ctx: &Context,
    sink: &Sink<'_>,
    drawn: Drawn,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Executed, Failure> {
    Executor { ctx, sink, drawn }.run(warnings, super::plan)
}

/// A plan's run: the game, where its files go, and what an earlier language drew.
pub struct Executor<'r, 'a> {
    pub ctx: &'r Context<'a>,
    pub sink: &'r Sink<'r>,
    pub drawn: Drawn,
}

impl Executor<'_, '_> {
    /// Runs the plan `planner` makes of the game (with the cards a `--changed-since`
    /// reprints): the files, and every problem met in `warnings`.
    pub fn run(
        self,
        warnings: &mut Vec<Diagnostic>,
        planner: impl FnOnce(&Context, Option<&Reprint>) -> Result<Plan, Failure>,
    ) -> Result<Executed, Failure> {
        let Executor { ctx, sink, drawn } = self;
        let (job, cat, lang) = (ctx.job, ctx.cat(), ctx.lang);
        warnings.extend(ctx.validated.warnings().iter().cloned());
        cat.check_lang(lang).map_err(Failure::Io)?;
        if let Some(lang) = lang {
            warnings.extend(crate::validate::untranslated_values(cat, lang));
        }
        let check_only = matches!(sink, Sink::Findings);
        // The checks that draw pieces again (contrast; colour alone, on pairs of cards) run
        // for every command that writes or judges a file (`build --strict` fails where
        // `validate --strict` does), in the language asked for (the others' colours are
        // the same); not for previews, which judge nothing.
        let raster = matches!(sink, Sink::Raster { .. });
        let thorough = !raster && lang == job.print.lang.as_deref();
        // Values a player with a colour-vision deficiency could not tell apart: the pairs of
        // cards compared are pictured as the pages draw them, and compared at the end.
        let colour_pairs = match thorough {
            true => crate::render::legibility::colour_pairs(cat),
            false => Vec::new(),
        };
        let colour_warnings_at = warnings.len();
        let press = match ctx.press {
            Some(shared) => Some(shared.clone()),
            None => super::press::press(job, cat)?,
        };
        // A build converts each photo for the press as soon as it has been checked.
        let _ahead = press.as_ref().filter(|_| !check_only).map(|press| {
            let press = press.clone();
            cat.checked
                .watch_photos(Arc::new(move |photo, pixels| press.convert_ahead(photo, pixels)))
        });
        let mut art = LazyArt::new(ctx.validated, lang, thorough);
        match drawn {
            Drawn::Note(note) => art.note_filled = note,
            Drawn::Before(filled) => art.drawn_before = Some(filled),
        }
        art.keep =
            colour_pairs.iter().flat_map(|p| [(p.deck, p.rows.0), (p.deck, p.rows.1)]).collect();
        let mut notes = Vec::new();
        let reprint = match &job.print.changed_since {
            Some(path) => Some(super::reprint::changed_since(ctx, path, &mut art, &mut notes)?),
            None => None,
        };
        let plan = planner(ctx, reprint.as_ref())?;
        notes.extend(plan.notes);
        let mut writer = Writer::new(ctx, sink, press.as_deref());
        let mut prepared = Prepared::default();
        for document in &plan.documents {
            let reprint = reprint.as_ref();
            let prepared = &mut prepared;
            let mut at =
                Drawing { ctx, art: &mut art, warnings: &mut *warnings, reprint, prepared };
            writer.document(document, &mut at)?;
        }
        if !colour_pairs.is_empty() {
            art.colour_pictures();
            let found = crate::render::legibility::colour_alone(cat, &colour_pairs, &art.kept);
            warnings.splice(colour_warnings_at..colour_warnings_at, found);
            art.kept.clear();
        }
        let findings = std::mem::take(&mut writer.findings);
        warnings.extend(super::press::press_warnings(cat, press.as_deref(), findings));
        let filled = std::mem::take(&mut art.filled);
        art.finish(warnings)?;
        Ok(Executed { made: writer.files, notes, filled })
    }
}

/// Where a game's files go and what its PDFs say about themselves.
struct Writer<'a> {
    /// `validate`: pages are laid out and their art drawn and checked, but no file is made.
    check_only: bool,
    /// `preview`: pages are drawn as PNGs at this dpi, picture sets as this mode asks.
    raster: Option<(u32, Option<&'a super::raster::PictureMode>)>,
    /// The sink's name, for the `DECKPRESS_DEBUG=plan` trace.
    sink: &'static str,
    /// `build`: the output folder, where files are staged as soon as they are made.
    stage_in: Option<PathBuf>,
    /// The folders made there, removed again if the game fails.
    folders: Arc<crate::output::Folders>,
    /// The PDF's Author and Subject (what the game is, its version and copyright).
    author: Option<String>,
    subject: Option<String>,
    press: Option<&'a Press>,
    findings: Vec<(ArtRef, crate::press::Finding)>,
    files: Vec<Made>,
    /// What the document being made is, given to each of its files.
    what: Option<super::What>,
}

impl<'a> Writer<'a> {
    fn new(ctx: &Context, sink: &Sink<'a>, press: Option<&'a Press>) -> Self {
        let cat = ctx.cat();
        Writer {
            check_only: matches!(sink, Sink::Findings),
            raster: match sink {
                Sink::Raster { dpi, pictures } => Some((*dpi, *pictures)),
                _ => None,
            },
            sink: sink.name(),
            stage_in: match sink {
                Sink::Files { out } => Some(out.clone()),
                _ => None,
            },
            folders: Default::default(),
            author: cat.author.clone(),
            subject: subject(cat, ctx.lang),
            press,
            findings: Vec::new(),
            files: Vec::new(),
            what: None,
        }
    }

    /// Makes one document: its pages laid out and drawn into its PDF (or checked, or drawn
    /// as PNGs), then its cut files; a service's PNGs; or the manifest of what was drawn.
    fn document(&mut self, doc: &Document, at: &mut Drawing) -> Result<(), Failure> {
        if trace_plan() {
            eprintln!("deckpress: executing {} into {}", doc.file.display(), self.sink);
        }
        let (print, lang) = (&at.ctx.job.print, at.ctx.lang);
        let folded = doc.printing == Printing::AsImposed && print.duplex == Duplex::Fold;
        let what = |print_as| super::What {
            product: doc.product.clone(),
            paper: doc.paper.clone(),
            print_as,
            folded,
            lang: lang.map(str::to_string),
            ink_saver: print.ink_saver,
        };
        self.what = Some(what(PrintAs::Simplex));
        match &doc.body {
            Body::Pdf(draw) => {
                let pages = draw.pages(at)?;
                // The PDF writer's own limits, known from the page count: `validate` says
                // what `build` would fail on after drawing every card.
                let too_many =
                    crate::export::pdf::too_many_pages(&doc.file, pages.count(), self.press);
                if let Some(why) = too_many.filter(|_| self.raster.is_none()) {
                    return Err(Failure::Io(why));
                }
                if let Some((dpi, _)) = self.raster {
                    let pictures = super::raster::pictures(&doc.file, &*pages, at.art, dpi)?;
                    self.files.extend(pictures);
                    return Ok(());
                }
                let print_as = match doc.printing {
                    Printing::Simplex => PrintAs::Simplex,
                    Printing::AsImposed => print_as(&*pages, at.ctx.job.print.duplex),
                };
                self.what = Some(what(print_as));
                let mut cuts = self.cut_files(doc, &*pages, at.ctx.job.print.cut);
                cuts.extend(self.print_then_cut(doc, &*pages, at.art, at.ctx.job.print.cut)?);
                self.pdf(&doc.file, pages, at.art, &doc.title, print_as)?;
                self.files.extend(cuts);
                Ok(())
            }
            Body::Pngs { deck, dpi } => self.pngs(&doc.file, *deck, *dpi, at),
            Body::Pictures(set) => match self.raster {
                Some((dpi, Some(mode))) => {
                    super::raster::draw_set(at.ctx.cat(), at.ctx.lang, set, mode, dpi)
                }
                _ => Err(Failure::Io(format!(
                    "{}: pictures are drawn by the raster sink's picture mode only",
                    doc.file.display()
                ))),
            },
            // Pictures are not built from: there is nothing to reprint from them.
            Body::Manifest if self.check_only || self.raster.is_some() => Ok(()),
            Body::Manifest => {
                let (cat, fingerprints) = (at.ctx.cat(), at.art.fingerprints());
                self.add(doc.file.clone(), |out| {
                    crate::export::manifest::write_json(cat, fingerprints, out)
                })
            }
        }
    }

    /// The cut files of a document's pages (`--cut`); none when only checked.
    fn cut_files(
        &self,
        doc: &Document,
        pages: &dyn Pages,
        format: Option<crate::job::CutFormat>,
    ) -> Vec<Made> {
        let (Some(cut), Some(format), false) = (&doc.cut, format, self.check_only) else {
            return Vec::new();
        };
        let dir = doc.file.parent().unwrap_or(Path::new(""));
        let ext = format.extension();
        let mut made = Vec::new();
        for i in 0..pages.count() {
            let sheet = pages.page(i);
            let Some((stem, part, number)) = cut.of_page(i, sheet.side) else { continue };
            let name = crate::services::cut_file_name(stem, part, number, ext);
            let bytes = format.write(&sheet).into_bytes();
            made.push(Made::beside(dir.join(name), Content::Bytes(bytes)));
        }
        made
    }

    /// With `--cut svg`, a picture of each front sheet's art beside its cut file, the same
    /// size as the page and the cut (300 dpi, said in the PNG): what Cricut Design Space
    /// uploads for Print Then Cut with the SVG. No registration marks: it prints its own.
    fn print_then_cut(
        &self,
        doc: &Document,
        pages: &dyn Pages,
        art: &mut LazyArt,
        format: Option<crate::job::CutFormat>,
    ) -> Result<Vec<Made>, Failure> {
        let (Some(cut), Some(crate::job::CutFormat::Svg), false) =
            (&doc.cut, format, self.check_only)
        else {
            return Ok(Vec::new());
        };
        use crate::render::ArtSource;
        const DPI: u32 = 300;
        let dir = doc.file.parent().unwrap_or(Path::new(""));
        let mut made = Vec::new();
        for i in 0..pages.count() {
            let sheet = pages.page(i);
            let Some((stem, part, number)) = cut.of_page(i, sheet.side) else { continue };
            let name = crate::services::print_then_cut_name(stem, part, number);
            let refs: Vec<ArtRef> = sheet.items.iter().map(|placed| placed.art).collect();
            art.prepare(&refs);
            let pixmap = super::raster::page(&sheet, |a| art.tree(a), DPI as f32)?;
            art.release();
            let bytes = crate::export::cards::encode_print(&pixmap, DPI).map_err(Failure::Io)?;
            made.push(Made::beside(dir.join(name), Content::Bytes(bytes)));
        }
        Ok(made)
    }

    /// The PDF `file` of `pages` (or, for `validate`, their art checked as the PDF writer would).
    fn pdf(
        &mut self,
        file: &Path,
        pages: Box<dyn Pages + '_>,
        art: &mut LazyArt,
        title: &str,
        print_as: PrintAs,
    ) -> Result<(), Failure> {
        if self.check_only {
            let found = crate::export::pdf::check(&*pages, art, self.press).map_err(Failure::Io)?;
            self.findings.extend(found);
            return Ok(());
        }
        let (author, subject) = (self.author.clone(), self.subject.clone());
        let info = crate::export::pdf::DocInfo {
            title,
            author: author.as_deref(),
            subject: subject.as_deref(),
        };
        let press = self.press;
        let (mut findings, mut failed) = (Vec::new(), None);
        let written = self.add_file(file.to_path_buf(), |sink| {
            match crate::export::pdf::write_pdf(pages, art, &info, print_as, press, sink) {
                Ok(found) => findings = found,
                // Said with the file's name, as any other file that cannot be written.
                Err(crate::export::pdf::PdfFailure::Io(e)) => return Err(e),
                Err(e) => failed = Some(e.to_string()),
            }
            Ok(())
        });
        if let Some(e) = failed {
            return Err(Failure::Io(e));
        }
        written?;
        self.findings.extend(findings);
        Ok(())
    }

    /// A service's folder of PNGs of deck `d` (for `validate`, their names checked).
    fn pngs(&mut self, folder: &Path, d: usize, dpi: u32, at: &mut Drawing) -> Result<(), Failure> {
        let (deck, fit) = (&at.ctx.cat().decks[d], at.ctx.fits[d]);
        if self.check_only {
            let names = crate::export::cards::check_png_set(deck, d, dpi, fit, at.art)
                .map_err(Failure::Io)?;
            for name in names {
                crate::output::inside(Path::new("."), &folder.join(name)).map_err(Failure::Io)?;
            }
            return Ok(());
        }
        let files =
            crate::export::cards::png_set(deck, d, dpi, fit, at.art).map_err(Failure::Io)?;
        let what = self.what.clone();
        let made = files.into_iter().map(|(file, bytes)| Made {
            path: folder.join(file),
            content: Content::Bytes(bytes),
            what: what.clone(),
        });
        self.files.extend(made);
        Ok(())
    }

    /// The file `path`, written by `write`, which may also read and seek in it (a PDF):
    /// staged in the output folder (`build`), or kept.
    fn add_file(
        &mut self,
        path: PathBuf,
        write: impl FnOnce(&mut dyn krilla::Sink) -> std::io::Result<()>,
    ) -> Result<(), Failure> {
        // `validate` asks the one door out the same question as `build`.
        let target =
            crate::output::inside(self.stage_in.as_deref().unwrap_or(Path::new(".")), &path)
                .map_err(Failure::Io)?;
        let content = match &self.stage_in {
            Some(_) => {
                let staged = crate::output::stage_file(&target, &self.folders, |file| write(file))
                    .map_err(|e| crate::output::cannot_write(&target, e))?;
                Content::Staged(staged)
            }
            None => {
                let mut bytes = std::io::Cursor::new(Vec::new());
                write(&mut bytes).map_err(|e| Failure::Io(e.to_string()))?;
                Content::Bytes(bytes.into_inner())
            }
        };
        self.files.push(Made { path, content, what: self.what.clone() });
        Ok(())
    }

    /// The file `path`, written by `write` (buffered): staged in the output folder
    /// (`build`), or kept.
    fn add(
        &mut self,
        path: PathBuf,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<(), Failure> {
        self.add_file(path, |sink| {
            let mut out = std::io::BufWriter::new(sink);
            write(&mut out)?;
            std::io::Write::flush(&mut out)
        })
    }
}

/// A PDF's Subject: what the game is, its version and copyright.
fn subject(cat: &crate::model::Catalogue, lang: Option<&str>) -> Option<String> {
    let mut parts = vec![cat.description_in(lang).to_string()];
    parts.extend(cat.version.as_ref().map(|v| format!("version {v}")));
    parts.extend(cat.copyright.as_ref().map(|c| match cat.year {
        Some(y) => format!("© {y} {c}"),
        None => format!("© {c}"),
    }));
    Some(parts.join(" · "))
}

/// Home sheets with backs interleaved ask for the duplex they were laid out for.
fn print_as(sheets: &dyn Pages, duplex: Duplex) -> PrintAs {
    let interleaved = sheets.count() > 1 && sheets.page(1).side == Side::Back;
    match duplex {
        Duplex::Long if interleaved => PrintAs::DuplexLongEdge,
        Duplex::Short if interleaved => PrintAs::DuplexShortEdge,
        _ => PrintAs::Simplex,
    }
}
