//! The one driver every command runs: for each game of a `Job`, load → validate → draw →
//! the exporters the job asks for (sheet PDFs, card PDFs, PNG sets, cut files, Tabletop
//! Simulator, previews). Every exporter reports through the game's one list of
//! diagnostics, so no warning is lost. Returns what happened for `main` to print; never
//! prints itself.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Diagnostic, Failure, Sources};
use crate::export::pdf::PrintAs;
use crate::job::{BoardPaper, Fit, Game, Job, Output};
use crate::layout::{ArtRef, Cut, Duplex, Fitting, Imposed, Pages, Paper, Sheet, Side};
use crate::length::Length;
use crate::model::{Catalogue, SheetSize};
use crate::press::Press;
use crate::render::{ArtSource, LazyArt};
use crate::services::{Form, SideOrder};
use crate::validate::Validated;
use crate::world::World;

/// What one command did for one game: lines for stdout, or why it failed, and the
/// warnings met on the way.
pub struct Outcome {
    pub game: String,
    pub result: Result<Vec<String>, Failure>,
    /// Warnings (not errors) and the files they point into.
    pub warnings: Option<(Vec<Diagnostic>, Sources)>,
    /// Lines printed whatever the result (`preflight`'s checks, passed or failed).
    pub report: Vec<String>,
}

impl Outcome {
    pub fn new(game: String, result: Result<Vec<String>, Failure>) -> Self {
        Self { game, result, warnings: None, report: Vec::new() }
    }
}

/// Runs `job` on each of its games: PDFs on every core, one game at a time for the
/// outputs that already draw on every core (previews, Tabletop Simulator sheets).
pub fn run(job: &Job) -> Vec<Outcome> {
    match &job.output {
        Output::Check | Output::Files { .. } => {
            crate::parallel::par_map(&job.games, |game| print(job, game))
        }
        Output::Previews(options) => job
            .games
            .iter()
            .map(|game| {
                Outcome::new(game.name.clone(), crate::preview::preview(game, options, &job.limits))
            })
            .collect(),
        Output::Tts(options) => job
            .games
            .iter()
            .map(|game| finish_game(job, game, |warnings| tts(job, game, options, warnings)))
            .collect(),
    }
}

/// Loads a game's catalogue under the job's limits.
pub fn load(job: &Job, world: &World) -> Result<Catalogue, Failure> {
    said_load(world);
    crate::load::load_with(world, &job.limits)
}

/// With `DECKPRESS_DEBUG=load`, a line on stderr for each catalogue a command loads: the
/// one trace outside `main`, for a test to count that each game is loaded once.
pub fn said_load(world: &World) {
    if std::env::var_os("DECKPRESS_DEBUG").is_some_and(|v| v == "load") {
        eprintln!("deckpress: loading {}", world.root().display());
    }
}

/// Loads and validates a game. A deck that breaks its rules is not drawn; its templates'
/// errors are still said now, so that a designer fixes everything in one round.
pub fn validate(job: &Job, world: &World) -> Result<Validated, Failure> {
    said_load(world);
    let cat = match crate::load::load_with_keeping(world, &job.limits) {
        Ok(cat) => cat,
        // Wrong cells in the rows files: the templates are checked on the other rows now,
        // and the deal table as far as it needs no rows (the rules count rows, so wait).
        Err((Failure::Invalid(mut diags, sources), Some(crate::load::Partial(cat)))) => {
            diags.extend(crate::validate::deal_table_problems(&cat));
            return Err(Failure::Invalid(with_template_errors(diags, &cat), sources));
        }
        Err((failure, _)) => return Err(failure),
    };
    match crate::validate::validate_keeping(cat) {
        Ok(validated) => Ok(validated),
        Err(rejected) => {
            let (mut diags, cat) = *rejected;
            // A deck no product fits is said now too (its fitting's warnings wait for the
            // round that draws it), for the decks the job asks for.
            let only = &job.print.only;
            let asked = |d: &crate::model::Deck| only.is_empty() || only.contains(&d.id);
            diags.extend(fits(job, &cat, asked, &mut Vec::new()).errors);
            Err(Failure::Invalid(with_template_errors(diags, &cat), cat.sources))
        }
    }
}

/// `diags` and the errors of the catalogue's templates not among them: a catalogue that is
/// not drawn (broken rules, a deck no print service product fits) still has its templates
/// and art checked, so that a designer fixes everything in one round.
fn with_template_errors(mut diags: Vec<Diagnostic>, cat: &Catalogue) -> Vec<Diagnostic> {
    for d in template_errors(cat) {
        if !diags.contains(&d) {
            diags.push(d);
        }
    }
    diags
}

/// Rows drawn per deck to find template errors in a catalogue that broke its rules.
const TEMPLATE_CHECK_ROWS: usize = 50;

/// The errors filling and parsing the templates meets: on each deck's first rows and
/// back, and every sheet for A4 (a typo on every card is found on the first).
fn template_errors(cat: &Catalogue) -> Vec<Diagnostic> {
    let rows: Vec<Vec<usize>> =
        cat.decks.iter().map(|d| (0..d.rows.len().min(TEMPLATE_CHECK_ROWS)).collect()).collect();
    let sizes: Vec<(Length, Length)> =
        cat.sheets.iter().map(|s| sheet_size(s.size, Paper::A4)).collect();
    let request = crate::render::Request {
        wanted: &|_, _| false,
        rows: Some(&rows),
        back_rows: None,
        shared_back: &|d| cat.decks[d].labels.is_none(),
        sheet_sizes: Some(&sizes),
        players: cat.players.map_or(1, |p| p.0.clamp(1, 8)),
        lang: None,
        drawn_before: None,
    };
    let drawn = crate::render::pieces(cat, &request);
    crate::diag::group(drawn.problems.into_iter().filter(Diagnostic::is_error).collect())
}

/// Runs `make` for a game with one list for its warnings, which `--strict` turns into errors.
fn finish_game(
    job: &Job,
    game: &Game,
    make: impl FnOnce(&mut Vec<Diagnostic>) -> Result<(Vec<String>, Sources), Failure>,
) -> Outcome {
    let mut warnings = Vec::new();
    let result = make(&mut warnings);
    let (errors, warnings) = crate::diag::split(crate::diag::group(warnings), job.strict);
    let sources = match &result {
        Ok((_, sources)) => sources.clone(),
        Err(Failure::Invalid(_, sources)) => sources.clone(),
        Err(Failure::Io(_)) => Sources::default(),
    };
    let result = match result {
        Ok(_) if !errors.is_empty() => Err(Failure::Invalid(errors, sources.clone())),
        Ok((lines, _)) => Ok(lines),
        Err(Failure::Invalid(mut diags, sources)) => {
            diags.extend(errors);
            Err(Failure::Invalid(diags, sources))
        }
        Err(e) => Err(e),
    };
    let warnings = (!warnings.is_empty()).then_some((warnings, sources));
    Outcome { game: game.name.to_string(), result, warnings, report: Vec::new() }
}

/// `build` and `validate`: every file of a game is made in memory first, then written
/// under `out`, so a game that fails anywhere leaves every previous output untouched.
/// `validate` draws and checks everything `build` would, in every language the catalogue
/// translates, and serialises no PDF.
fn print(job: &Job, game: &Game) -> Outcome {
    finish_game(job, game, |warnings| {
        let validated = narrow(job, validate(job, &game.world)?)?;
        let (validated, fits, errors) = products(job, validated, warnings);
        if !errors.is_empty() {
            let cat = validated.catalogue();
            return Err(Failure::Invalid(with_template_errors(errors, cat), cat.sources.clone()));
        }
        let check_only = matches!(job.output, Output::Check);
        if let Output::Files { out } = &job.output {
            let dir = out.join(&validated.catalogue().id);
            crate::output::Commit::repair(&dir).map_err(|e| cannot_write(&dir, e))?;
        }
        // `validate` draws each translation after the language asked for.
        let translations = check_only && job.print.lang.is_none();
        let lang = job.print.lang.as_deref();
        let drawn =
            pieces(job, &validated, &fits, check_only, lang, Drawn::Note(translations), warnings)?;
        let (made, summary, notes) = (drawn.made, drawn.summary, drawn.notes);
        if translations {
            warnings.extend(text_in_other_languages(
                job,
                &validated,
                &fits,
                drawn.filled,
                warnings,
            ));
        }
        let sources = validated.catalogue().sources.clone();
        match &job.output {
            Output::Files { out } => {
                let dir = out.join(&validated.catalogue().id);
                let (mut written, mut staged) = (Vec::new(), Vec::new());
                for (path, content) in made {
                    let path = crate::output::inside(out, &path).map_err(Failure::Io)?;
                    staged.push(match content {
                        Content::Bytes(bytes) => crate::output::stage(&path, &bytes)
                            .map_err(|e| cannot_write(&path, e))?,
                        Content::Staged(staged) => staged,
                    });
                    written.push(path.display().to_string());
                }
                // The game's files go in place as one set, one build at a time.
                crate::output::Commit::begin(&dir)
                    .and_then(|commit| commit.all(staged))
                    .map_err(|e| cannot_write(&dir, e))?;
                written.extend(notes);
                Ok((written, sources))
            }
            _ => Ok((vec![summary], sources)),
        }
    })
}

fn cannot_write(path: &std::path::Path, e: std::io::Error) -> Failure {
    Failure::Io(format!("cannot write {}: {e}", path.display()))
}

/// `validate` promises that every language the catalogue translates builds, not only the
/// one asked for (German runs long): each language is drawn, and what does not fit in it,
/// runs off the piece, has no glyph or fails, and was not already said, is reported for it.
fn text_in_other_languages(
    job: &Job,
    validated: &Validated,
    fits: &[Option<Fitting>],
    filled: rustc_hash::FxHashMap<ArtRef, u64>,
    said: &[Diagnostic],
) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    let filled = std::sync::Arc::new(filled);
    for lang in validated.catalogue().lang.keys() {
        let mut diags = Vec::new();
        // A piece the language fills as the first did says nothing new.
        let before = Drawn::Before(filled.clone());
        if let Err(Failure::Invalid(errors, _)) =
            pieces(job, validated, fits, true, Some(lang), before, &mut diags)
        {
            diags.extend(errors);
        }
        // What a translation can break: text that no longer fits or has no glyph, and
        // anything that fails outright (markup, icons). Its untranslated values are for
        // `--lang` to list.
        let broken = |d: &Diagnostic| {
            use crate::diag::Topic;
            matches!(d.topic, Topic::TextFit | Topic::OffPiece | Topic::SafeZone)
                || d.severity == crate::diag::Severity::Error
        };
        for d in diags.into_iter().filter(broken) {
            let same =
                |o: &Diagnostic| o.file == d.file && o.span == d.span && o.message == d.message;
            if !said.iter().any(same) && !found.iter().any(same) {
                found.push(d.with_note(format!("in language `{lang}` (--lang {lang})")));
            }
        }
    }
    found
}

/// The catalogue as the job prints it: only the decks and sheets asked for (`--only`),
/// with the service's or `--bleed`'s bleed. Taken, not copied: a deck of 100,000 cards is
/// in memory once.
fn narrow(job: &Job, validated: Validated) -> Result<Validated, Failure> {
    let print = &job.print;
    let mut validated = validated;
    if !print.only.is_empty() {
        let all: Vec<String> = {
            let c = validated.catalogue();
            c.decks
                .iter()
                .map(|d| d.id.clone())
                .chain(c.sheets.iter().map(|s| s.id.clone()))
                .chain(c.boxes.iter().map(|b| b.id.clone()))
                .collect()
        };
        validated = validated.only(&print.only).map_err(|unknown| {
            let meant = unknown
                .iter()
                .find_map(|u| crate::diag::closest(u, all.iter().map(String::as_str)));
            Failure::Io(format!(
                "no deck or sheet {}; {}this game has: {}",
                crate::diag::accepted(&unknown),
                meant.map_or_else(String::new, |m| format!("did you mean `{m}`? ")),
                crate::diag::accepted(all)
            ))
        })?;
    }
    if let Some(bleed) = print.bleed() {
        validated = validated.with_bleed(|_| bleed);
    }
    Ok(validated)
}

/// What `preflight` inspects: the files a game's decks become for the job's service,
/// made in memory and not written, and every problem met making them (errors and
/// warnings alike, `--strict` or not).
pub struct Inspected {
    pub files: Vec<(PathBuf, Vec<u8>)>,
    pub problems: Vec<Diagnostic>,
    pub sources: Sources,
    /// Card designs (rows) and cards (their copies) of the decks made: what the files
    /// must hold a side of each.
    pub designs: usize,
    pub cards: usize,
}

/// Makes the job's files of a game as `build` would, but keeps them in memory.
pub fn inspect(job: &Job, game: &Game) -> Result<Inspected, Failure> {
    let mut problems = Vec::new();
    let made = (|| {
        let validated = narrow(job, validate(job, &game.world)?)?;
        // The other checks still run on a deck of the wrong size.
        let (validated, fits, errors) = products(job, validated, &mut problems);
        problems.extend(errors);
        let lang = job.print.lang.as_deref();
        let drawn = pieces(job, &validated, &fits, false, lang, Drawn::Note(false), &mut problems)?;
        // Nothing is staged: `inspect` has no output folder.
        let files = drawn
            .made
            .into_iter()
            .filter_map(|(path, content)| match content {
                Content::Bytes(bytes) => Some((path, bytes)),
                Content::Staged(_) => None,
            })
            .collect();
        let cat = validated.catalogue();
        let decks = || cat.decks.iter().filter(|d| d.labels.is_none());
        let designs = decks().map(|d| d.rows.len()).sum();
        let cards = decks().flat_map(|d| &d.rows).map(|r| r.qty as usize).sum();
        Ok((files, cat.sources.clone(), (designs, cards)))
    })();
    match made {
        Ok((files, sources, (designs, cards))) => {
            Ok(Inspected { files, problems, sources, designs, cards })
        }
        Err(Failure::Invalid(errors, sources)) => {
            problems.extend(errors);
            Ok(Inspected { files: Vec::new(), problems, sources, designs: 0, cards: 0 })
        }
        Err(e) => Err(e),
    }
}

/// Each deck made one of the service's products (`--for`): a deck that is one needs
/// nothing; one that is none is an error naming the nearest, unless `--fit` scales its
/// art (at most 2 %, a warning with the factor) or widens its bleed to the product (a
/// warning with how far). The fittings come back by deck, the bleeds widened, and the
/// errors apart (a deck in error is drawn at its own size).
fn products(
    job: &Job,
    validated: Validated,
    warnings: &mut Vec<Diagnostic>,
) -> (Validated, Vec<Option<Fitting>>, Vec<Diagnostic>) {
    let Fits { fits, widened, errors } = fits(job, validated.catalogue(), |_| true, warnings);
    let ids: Vec<String> = validated.catalogue().decks.iter().map(|d| d.id.clone()).collect();
    let validated = validated.with_bleed(|deck| {
        let d = ids.iter().position(|id| *id == deck.id).unwrap_or(0);
        widened[d].unwrap_or(deck.bleed)
    });
    (validated, fits, errors)
}

/// What `products` finds of a catalogue's decks, by deck: how each is fitted, the bleed it
/// is widened to, and the errors of those that fit no product.
struct Fits {
    fits: Vec<Option<Fitting>>,
    widened: Vec<Option<Length>>,
    errors: Vec<Diagnostic>,
}

/// Only the decks `asked` for are looked at.
fn fits(
    job: &Job,
    cat: &Catalogue,
    asked: impl Fn(&crate::model::Deck) -> bool,
    warnings: &mut Vec<Diagnostic>,
) -> Fits {
    use crate::services::ProductMatch;
    let print = &job.print;
    let service = print.service;
    let Some(bleed) = service.bleed else {
        let n = cat.decks.len();
        return Fits { fits: vec![None; n], widened: vec![None; n], errors: Vec::new() };
    };
    let text = cat.sources.get(&cat.manifest).unwrap_or_default();
    let mut errors = Vec::new();
    let mut fits = Vec::new();
    let mut widened = Vec::new();
    for deck in &cat.decks {
        // A deck on labels is left out of a service's files (`skip_labels`).
        if deck.labels.is_some() || !asked(deck) {
            fits.push(None);
            widened.push(None);
            continue;
        }
        let size = (deck.width, deck.height);
        let id = format!("\"{}\"", deck.id);
        let span = text.find(&id).map(|i| i..i + id.len());
        let mm = |l: Length| {
            format!("{:.2}", l.to_mm()).trim_end_matches('0').trim_end_matches('.').to_string()
        };
        let (product, nearest) = match service.product_for(size) {
            ProductMatch::AnySize | ProductMatch::Is(_) => {
                fits.push(None);
                widened.push(None);
                continue;
            }
            ProductMatch::Nearest(nearest) => (nearest[0], nearest),
        };
        let trim = product.trim_for(size);
        let scale = product.scale_for(size);
        let named = format!("deck `{}` ({} × {} mm)", deck.id, mm(size.0), mm(size.1));
        // A service's products are rectangular cards: a round token or a hex tile fitted
        // to one would print on a card of white around it.
        if deck.shape != crate::model::Shape::Rect {
            let shape = match deck.shape {
                crate::model::Shape::Circle => "round",
                _ => "hexagonal",
            };
            errors.push(
                Diagnostic::new(&cat.manifest, span, format!("{named} is {shape}, and {} prints its pieces as rectangular cards", service.title))
                    .with_note("a round or hex piece fitted to a card would print on a white card around it: print it at home (build without --for), or make it a card of the product's size")
                    .about(crate::diag::Topic::Product),
            );
            fits.push(None);
            widened.push(None);
            continue;
        }
        match print.fit {
            None => {
                let list: Vec<String> = nearest.iter().take(3).map(|p| p.describe()).collect();
                errors.push(
                    Diagnostic::new(&cat.manifest, span, format!("{named} is no card size {} prints", service.title))
                        .about(crate::diag::Topic::Product)
                        .with_note(format!("its nearest products: {}", list.join(", ")))
                        .with_note(format!(
                            "make the deck `size = \"{}\"`, or build with `--fit scale` (the art {:+.1} %) or `--fit extend` (the bleed widened to the product)",
                            product.name,
                            (scale - 1.0) * 100.0
                        )),
                );
            }
            Some(Fit::Scale) if (scale - 1.0).abs() > MAX_FIT_SCALE => errors.push(
                Diagnostic::new(
                    &cat.manifest,
                    span,
                    format!(
                        "{named} needs scaling by {:+.1} % to be {}'s {}: more than --fit scale's {:.0} %",
                        (scale - 1.0) * 100.0,
                        service.title,
                        product.name,
                        MAX_FIT_SCALE * 100.0
                    ),
                )
                .with_note(format!("use `--fit extend`, or make the deck `size = \"{}\"`", product.name))
                .about(crate::diag::Topic::Product),
            ),
            Some(Fit::Scale) => {
                let spill = |t: Length, s: Length| ((s * scale - t) * 0.5).to_mm().max(0.0);
                warnings.push(
                    Diagnostic::warning(
                        &cat.manifest,
                        span,
                        format!(
                            "{named} scaled by {scale:.4} ({:+.1} %) to {}'s {}",
                            (scale - 1.0) * 100.0,
                            service.title,
                            product.describe()
                        ),
                    )
                    .with_note(format!(
                        "{:.2} mm of each side and {:.2} mm of the top and bottom pass into the bleed; the safe zone shrinks as much",
                        spill(trim.0, size.0),
                        spill(trim.1, size.1)
                    ))
                    .about(crate::diag::Topic::Product),
                );
                fits.push(Some(Fitting { trim, scale, bleed }));
                widened.push(None);
                continue;
            }
            Some(Fit::Extend) if trim.0 < size.0 || trim.1 < size.1 => errors.push(
                Diagnostic::new(
                    &cat.manifest,
                    span,
                    format!("{named} is larger than {}'s {}: --fit extend only widens the bleed", service.title, product.describe()),
                )
                .with_note(format!("use `--fit scale` or make the deck `size = \"{}\"`", product.name))
                .about(crate::diag::Topic::Product),
            ),
            Some(Fit::Extend) => {
                let (dx, dy) = ((trim.0 - size.0) * 0.5, (trim.1 - size.1) * 0.5);
                warnings.push(
                    Diagnostic::warning(
                        &cat.manifest,
                        span,
                        format!("{named} printed as {}'s {}: its bleed widened", service.title, product.describe()),
                    )
                    .with_note(format!(
                        "the product's cut lies {:.2} mm outside the card's at each side and {:.2} mm at the top and bottom: the art's bleed prints there",
                        dx.to_mm(),
                        dy.to_mm()
                    ))
                    .about(crate::diag::Topic::Product),
                );
                fits.push(Some(Fitting { trim, scale: 1.0, bleed }));
                widened.push(Some(bleed + if dx > dy { dx } else { dy }));
                continue;
            }
        }
        fits.push(None);
        widened.push(None);
    }
    Fits { fits, widened, errors }
}

/// How much `--fit scale` may scale a deck's art: more is a visibly different card.
const MAX_FIT_SCALE: f32 = 0.02;

/// A file made for a game: its path under the output folder, and what it holds.
pub type Made = (PathBuf, Content);

/// What a file made for a game holds.
pub enum Content {
    /// Its bytes (empty when only checked).
    Bytes(Vec<u8>),
    /// `build`: the file itself, written beside its place and put there with the game's
    /// other files. A 100,000-card deck's PDF (tens of MB) is not held while the rest of the
    /// game is made.
    Staged(crate::output::Staged),
}

/// How one language's drawing stands to another's (`validate` draws each translation).
enum Drawn {
    /// Whether to note what each piece was filled as, for the translations after it.
    Note(bool),
    /// What the first language filled each piece as: what is filled the same again is
    /// not parsed nor checked again.
    Before(std::sync::Arc<rustc_hash::FxHashMap<ArtRef, u64>>),
}

/// What drawing a game in one language made.
struct Pieces {
    made: Vec<Made>,
    /// What was validated, as `validate` says it.
    summary: String,
    /// Lines for the user besides the files (what a reprint left out).
    notes: Vec<String>,
    /// What each piece was filled as, when `Drawn::Note(true)` asked.
    filled: rustc_hash::FxHashMap<ArtRef, u64>,
}

/// Lays out and draws every piece of a game for the job's service, in `lang`: the files,
/// or (for `validate`) the same work with nothing serialised; and what was validated, as
/// `validate` says it.
/// `check_only`: drawn and checked, no PDF serialised (`validate`).
fn pieces(
    job: &Job,
    validated: &Validated,
    fits: &[Option<Fitting>],
    check_only: bool,
    lang: Option<&str>,
    drawn: Drawn,
    warnings: &mut Vec<Diagnostic>,
) -> Result<Pieces, Failure> {
    let print = &job.print;
    warnings.extend(validated.warnings().iter().cloned());
    let cat = validated.catalogue();
    cat.check_lang(lang).map_err(Failure::Io)?;
    if let Some(lang) = lang {
        warnings.extend(crate::validate::untranslated_values(cat, lang));
    }
    // The checks that draw pieces again (contrast; colour alone, on pairs of cards) are
    // `validate`'s, in the language asked for (the others' colours are the same).
    let thorough = check_only && lang == job.print.lang.as_deref();
    // Values a player with a colour-vision deficiency could not tell apart: the pairs of
    // cards compared are pictured as the pages draw them, and compared at the end.
    let colour_pairs = match thorough {
        true => crate::render::legibility::colour_pairs(cat),
        false => Vec::new(),
    };
    let colour_warnings_at = warnings.len();
    let press = press(job, cat)?;
    // A build converts each photo for the press as soon as it has been checked.
    let _ahead = press.as_ref().filter(|_| !check_only).map(|press| {
        let press = press.clone();
        cat.checked.watch_photos(Arc::new(move |photo, pixels| press.convert_ahead(photo, pixels)))
    });
    let mut writer = Writer {
        check_only,
        stage_in: match &job.output {
            Output::Files { out } if !check_only => Some(out.clone()),
            _ => None,
        },
        folders: Default::default(),
        cat,
        dir: PathBuf::from(&cat.id),
        lang: lang.map(|l| format!("-{l}")).unwrap_or_default(),
        subject: subject(cat, lang),
        press: press.as_deref(),
        findings: Vec::new(),
        files: Vec::new(),
        notes: Vec::new(),
    };
    // Decks are drawn a batch of pieces at a time while their PDFs are written, so memory
    // does not grow with the deck; every problem met is reported at the end.
    let mut art = LazyArt::new(validated, lang, thorough);
    match drawn {
        Drawn::Note(note) => art.note_filled = note,
        Drawn::Before(filled) => art.drawn_before = Some(filled),
    }
    art.keep = colour_pairs.iter().flat_map(|p| [(p.deck, p.rows.0), (p.deck, p.rows.1)]).collect();
    match print.service.form {
        Form::GangSheets => gang_sheets(job, validated, &mut writer, &mut art, lang, warnings)?,
        Form::PdfPagePerSide => {
            for (d, deck) in cat.decks.iter().enumerate() {
                if skip_labels(deck, print.service, &mut writer) {
                    continue;
                }
                let title = format!(
                    "{} — {} ({})",
                    cat.name_in(lang),
                    cat.deck_name_in(d, lang),
                    print.service.name
                );
                let file = print.service.file_name(&cat.id, &deck.id, "", &writer.lang);
                let pages = crate::export::cards::pages(
                    deck,
                    d,
                    print.service.sides == SideOrder::BackFirst,
                    fits[d],
                );
                writer.pdf(file, Box::new(pages), &mut art, title, PrintAs::Simplex)?;
            }
        }
        Form::PngPerSide => {
            let dpi = print.service.dpi.unwrap_or(300);
            for (d, deck) in cat.decks.iter().enumerate() {
                if skip_labels(deck, print.service, &mut writer) {
                    continue;
                }
                let folder =
                    writer.dir.join(print.service.file_name(&cat.id, &deck.id, "", &writer.lang));
                match writer.check_only {
                    true => {
                        let names =
                            crate::export::cards::check_png_set(deck, d, dpi, fits[d], &mut art)
                                .map_err(Failure::Io)?;
                        for name in names {
                            crate::output::inside(Path::new("."), &folder.join(name))
                                .map_err(Failure::Io)?;
                        }
                    }
                    false => {
                        let files = crate::export::cards::png_set(deck, d, dpi, fits[d], &mut art)
                            .map_err(Failure::Io)?;
                        writer.files.extend(
                            files
                                .into_iter()
                                .map(|(file, bytes)| (folder.join(file), Content::Bytes(bytes))),
                        );
                    }
                }
            }
        }
    }
    if !colour_pairs.is_empty() {
        art.colour_pictures();
        let found = crate::render::legibility::colour_alone(cat, &colour_pairs, &art.kept);
        warnings.splice(colour_warnings_at..colour_warnings_at, found);
        art.kept.clear();
    }
    warnings.extend(press_warnings(cat, press.as_deref(), std::mem::take(&mut writer.findings)));
    if !check_only {
        // Every build says what it drew, for a later `--changed-since`.
        let name = crate::export::manifest::file_name(&cat.id, print.service.name, &writer.lang);
        let fingerprints = art.fingerprints();
        writer.add(writer.dir.join(name), |out| {
            crate::export::manifest::write_json(cat, fingerprints, out)
        })?;
    }
    let filled = std::mem::take(&mut art.filled);
    art.finish(warnings)?;
    Ok(Pieces { made: writer.files, summary: validated.summary(), notes: writer.notes, filled })
}

/// Where a game's PDFs go and what they say about themselves.
struct Writer<'a> {
    /// `validate`: pages are laid out and their art drawn and checked, but no PDF is made.
    check_only: bool,
    /// `build`: the output folder, where large files are staged as soon as they are made.
    stage_in: Option<PathBuf>,
    /// The folders made there, removed again if the game fails.
    folders: Arc<crate::output::Folders>,
    cat: &'a Catalogue,
    dir: PathBuf,
    /// `-LANG` in file names.
    lang: String,
    /// The PDF's Subject: what the game is, its version and copyright.
    subject: Option<String>,
    press: Option<&'a Press>,
    findings: Vec<(ArtRef, crate::press::Finding)>,
    files: Vec<Made>,
    /// Lines for the user besides the files written (what a reprint left out).
    notes: Vec<String>,
}

impl Writer<'_> {
    /// The PDF `name` of `sheets` (or, for `validate`, their art checked as the PDF writer would).
    fn pdf(
        &mut self,
        file: String,
        sheets: Box<dyn Pages + '_>,
        art: &mut LazyArt,
        title: String,
        print_as: PrintAs,
    ) -> Result<(), Failure> {
        if self.check_only {
            self.findings
                .extend(crate::export::pdf::check(&*sheets, art, self.press).map_err(Failure::Io)?);
            return Ok(());
        }
        let (author, subject) = (self.cat.author.clone(), self.subject.clone());
        let info = crate::export::pdf::DocInfo {
            title: &title,
            author: author.as_deref(),
            subject: subject.as_deref(),
        };
        let press = self.press;
        let (mut findings, mut failed) = (Vec::new(), None);
        let written = self.add_file(self.dir.join(file), |sink| {
            match crate::export::pdf::write_pdf(sheets, art, &info, print_as, press, sink) {
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
                    .map_err(|e| cannot_write(&target, e))?;
                Content::Staged(staged)
            }
            None => {
                let mut bytes = std::io::Cursor::new(Vec::new());
                write(&mut bytes).map_err(|e| Failure::Io(e.to_string()))?;
                Content::Bytes(bytes.into_inner())
            }
        };
        self.files.push((path, content));
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

fn subject(cat: &Catalogue, lang: Option<&str>) -> Option<String> {
    let mut parts = vec![cat.description_in(lang).to_string()];
    parts.extend(cat.version.as_ref().map(|v| format!("version {v}")));
    parts.extend(cat.copyright.as_ref().map(|c| match cat.year {
        Some(y) => format!("© {y} {c}"),
        None => format!("© {c}"),
    }));
    Some(parts.join(" · "))
}

/// A deck on labels is a home sheet: a print service's card files are no place for it,
/// and the user is told it was left out.
fn skip_labels(
    deck: &crate::model::Deck,
    service: &crate::services::Service,
    writer: &mut Writer,
) -> bool {
    if deck.labels.is_none() {
        return false;
    }
    writer.notes.push(format!(
        "deck `{}` is printed on labels: left out of the files for {} (build it without --for)",
        deck.id, service.title
    ));
    true
}

/// The copy number (1, 2, …) of each physical piece of a deck, in `layout::pieces` order.
fn copy_numbers(deck: &crate::model::Deck) -> impl Iterator<Item = u32> + '_ {
    deck.rows.iter().flat_map(|row| 1..=row.qty)
}

/// `--changed-since PATH`: every design drawn once for its fingerprint and compared with
/// the manifest of that build. The cards to reprint come back as (deck, id, copy); what
/// is gone, or that nothing changed, is said in the writer's notes.
fn changed_since(
    cat: &Catalogue,
    path: &std::path::Path,
    service: &str,
    writer: &mut Writer,
    art: &mut LazyArt,
) -> Result<std::collections::BTreeSet<(String, String, u32)>, Failure> {
    use crate::export::manifest::{changes, of, Manifest};
    let before = Manifest::read(path, &cat.id, service, &writer.lang).map_err(Failure::Io)?;
    for (d, deck) in cat.decks.iter().enumerate() {
        let designs: Vec<ArtRef> = (0..deck.rows.len())
            .flat_map(|row| {
                let back = ArtRef::Back { deck: d, row: if deck.back_per_card { row } else { 0 } };
                [ArtRef::Face { deck: d, row }, back]
            })
            .collect();
        for batch in designs.chunks(64) {
            art.prepare(batch);
            art.release();
        }
    }
    let found = changes(&before, &of(cat, art.fingerprints()));
    let cards = found.reprint.len();
    writer.notes.push(match cards {
        0 => format!("{}: nothing changed since {}: no reprint", cat.id, path.display()),
        n => format!(
            "{}: {n} card{} changed or new since {}",
            cat.id,
            if n == 1 { "" } else { "s" },
            path.display()
        ),
    });
    writer.notes.extend(found.removed.iter().map(|r| format!("removed since then: {r}")));
    Ok(found.reprint)
}

/// Home printing: each deck (or gang of decks) imposed on every paper with its cut files,
/// the page-sized sheets and tiled boards on every paper, and each board on one large sheet.
fn gang_sheets(
    job: &Job,
    validated: &Validated,
    writer: &mut Writer,
    art: &mut LazyArt,
    lang: Option<&str>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Failure> {
    let (print, cat) = (&job.print, validated.catalogue());
    let players = players(cat, print.players)?;
    let mut cut_files = Vec::new();
    let lang_suffix = writer.lang.clone();
    let reprint = match &print.changed_since {
        Some(path) => Some(changed_since(cat, path, print.service.name, writer, art)?),
        None => None,
    };
    for &paper in &print.papers {
        for group in deck_groups(cat, print.gang) {
            // Every physical piece of the group's decks, face and back, in deck order (for
            // a reprint, those whose art changed).
            let pieces: Vec<(ArtRef, ArtRef)> = group
                .iter()
                .flat_map(|&d| {
                    crate::layout::pieces(&cat.decks[d], d).zip(copy_numbers(&cat.decks[d]))
                })
                .filter(|((face, _), copy)| match (&reprint, face) {
                    (Some(changed), ArtRef::Face { deck, row }) => changed.contains(&(
                        cat.decks[*deck].id.clone(),
                        cat.decks[*deck].rows[*row].id.clone(),
                        *copy,
                    )),
                    _ => true,
                })
                .map(|(piece, _)| piece)
                .collect();
            if pieces.is_empty() {
                continue;
            }
            let deck = &cat.decks[group[0]];
            let names: Vec<&str> = group.iter().map(|&d| cat.deck_name_in(d, lang)).collect();
            let ids: Vec<&str> = group.iter().map(|&d| cat.decks[d].id.as_str()).collect();
            let cut = Cut {
                size: (deck.width, deck.height),
                shape: deck.shape,
                corner: deck.corner,
                gap: deck.gap,
                bleed: deck.bleed,
                registration: print.cut.is_some(),
            };
            let version = cat.version.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
            // Each sheet is made when it is drawn (and for the cut files): a 100,000-card
            // deck's sheets are never all in memory.
            let sheets = Imposed::new(pieces, cut, paper, print.duplex, print.back_offset)
                .map_err(Failure::Io)?
                .with_slug(
                    &format!("{}{version} — {}", cat.name_in(lang), names.join(" + ")),
                    duplex_name(print.duplex),
                    slug_width(),
                );
            if sheets.slug_shortened() {
                let text = cat.sources.get(&cat.manifest).unwrap_or_default();
                let name = format!("\"{}\"", cat.name);
                let span = text.find(&name).map(|i| i..i + name.len());
                warnings.push(
                    Diagnostic::warning(
                        &cat.manifest,
                        span,
                        format!(
                            "the game's and {} names are too long for the line under the {} sheets: shortened there with \"…\"",
                            if names.len() == 1 { "deck's" } else { "decks'" },
                            paper.name()
                        ),
                    )
                    .with_note("the line names the game, its version and the decks on the sheets, then which sheet it is; a shorter game or deck name fits whole"),
                );
            }
            let title = format!(
                "{} — {} ({}, {})",
                cat.name_in(lang),
                names.join(" + "),
                paper.name(),
                duplex_name(print.duplex)
            );
            let deck_part = match reprint {
                Some(_) => format!("{}-reprint", ids.join("+")),
                None => ids.join("+"),
            };
            let name = print.service.file_name(&cat.id, &deck_part, paper.name(), &lang_suffix);
            let stem = name.strip_suffix(".pdf").unwrap_or(&name).to_string();
            if let Some(format) = print.cut {
                for (page, sheet) in (0..sheets.count())
                    .map(|i| (i, sheets.sheet(i)))
                    .filter(|(_, s)| s.side == Side::Front)
                {
                    let file =
                        writer.dir.join(format!("{stem}-cut-{}.{}", page + 1, format.extension()));
                    cut_files.push((
                        file,
                        Content::Bytes(if writer.check_only {
                            Vec::new()
                        } else {
                            format.write(&sheet).into_bytes()
                        }),
                    ));
                }
            }
            let print_as = print_as(&sheets, print.duplex);
            writer.pdf(name, Box::new(sheets), art, title, print_as)?;
        }
        // A reprint is of cards: boards and pads are printed whole when they change.
        if cat.sheets.is_empty() || reprint.is_some() {
            continue;
        }
        // Sheet components are filled for this paper: page-sized ones take its size.
        let sizes: Vec<(Length, Length)> =
            cat.sheets.iter().map(|s| sheet_size(s.size, paper)).collect();
        art.sheets = crate::render::render_sheets(
            validated,
            &sizes,
            players,
            (lang, art.thorough()),
            warnings,
        )?;
        for (i, sheet) in cat.sheets.iter().enumerate() {
            let art_ref = ArtRef::Sheet { sheet: i };
            match sheet.size {
                SheetSize::Page { .. } => {
                    let pages = vec![crate::layout::sheets::page(art_ref, sizes[i])];
                    let title = format!(
                        "{} — {} ({})",
                        cat.name_in(lang),
                        cat.sheet_name_in(i, lang),
                        paper.name()
                    );
                    writer.pdf(
                        format!("{}-{}-{}{lang_suffix}.pdf", cat.id, sheet.id, paper.name()),
                        Box::new(pages),
                        art,
                        title,
                        PrintAs::Simplex,
                    )?;
                }
                SheetSize::Fixed { width, height } => {
                    let title = format!("{} — {}", cat.name_in(lang), cat.sheet_name_in(i, lang));
                    let keep = art
                        .sheets
                        .get(i)
                        .map(|tree| crate::render::kept_whole(tree, (width, height)))
                        .unwrap_or_default();
                    let tiles = crate::layout::sheets::tiles(
                        art_ref,
                        (width, height),
                        paper.size(),
                        &title,
                        &keep,
                    );
                    let name =
                        format!("{}-{}-tiled-{}{lang_suffix}.pdf", cat.id, sheet.id, paper.name());
                    writer.pdf(
                        name,
                        Box::new(tiles),
                        art,
                        format!("{title} (tiled on {})", paper.name()),
                        PrintAs::Simplex,
                    )?;
                }
            }
        }
    }
    label_sheets(job, cat, writer, art, warnings)?;
    box_sheets(job, validated, writer, art, lang, warnings)?;
    // Boards on one large sheet, once whatever the home paper.
    let boards = if reprint.is_some() { &[][..] } else { &cat.sheets[..] };
    for (i, sheet) in boards.iter().enumerate() {
        if let SheetSize::Fixed { width, height } = sheet.size {
            let board_paper =
                print.board_paper.clone().unwrap_or_else(|| smallest_board_paper((width, height)));
            let large = crate::layout::sheets::large(
                ArtRef::Sheet { sheet: i },
                (width, height),
                board_paper.size,
                &board_paper.name,
            )
            .map_err(Failure::Io)?;
            let title = format!(
                "{} — {} ({})",
                cat.name_in(lang),
                cat.sheet_name_in(i, lang),
                board_paper.name
            );
            writer.pdf(
                format!("{}-{}-{}{lang_suffix}.pdf", cat.id, sheet.id, board_paper.name),
                Box::new(vec![large]),
                art,
                title,
                PrintAs::Simplex,
            )?;
        }
    }
    writer.files.extend(cut_files);
    Ok(())
}

/// Each label sheet on its product's own paper, once whatever the home paper: every
/// label of its rows, as many pages as they need, and with `--cut` the labels' outlines.
fn label_sheets(
    job: &Job,
    cat: &Catalogue,
    writer: &mut Writer,
    art: &mut LazyArt,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Failure> {
    for (d, deck) in cat.decks.iter().enumerate() {
        let Some(layout) = &deck.labels else { continue };
        let faces: Vec<ArtRef> = crate::layout::pieces(deck, d).map(|(face, _)| face).collect();
        let mut sheets = crate::layout::labels::pages(&faces, layout, deck.shape, deck.corner);
        let stem = format!("{}-{}-{}{}", cat.id, deck.id, layout.paper.0, writer.lang);
        if let Some(format) = job.print.cut {
            // Registration marks for the cutter, on sheets whose labels leave them room.
            use crate::layout::registration;
            for sheet in &mut sheets {
                let (w, h) = (sheet.width, sheet.height);
                sheet.registration = sheet.items.iter().all(|p| registration::clear(&p.rect, w, h));
            }
            if sheets.iter().any(|s| !s.registration) {
                let why = format!(
                    "deck `{}`: {} labels leave no room for registration marks; its cut files have none",
                    deck.id, layout.name
                );
                let hint = "the marks would print on the labels: use the sheet as die-cut, or cut plain sticker paper laid out with room for them";
                warnings.push(Diagnostic::warning(&cat.manifest, None, why).with_note(hint));
            }
            for (page, sheet) in sheets.iter().enumerate() {
                let file =
                    writer.dir.join(format!("{stem}-cut-{}.{}", page + 1, format.extension()));
                let bytes =
                    if writer.check_only { Vec::new() } else { format.write(sheet).into_bytes() };
                writer.files.push((file, Content::Bytes(bytes)));
            }
        }
        let title = format!("{} — {} ({})", cat.name, deck.name, layout.name);
        writer.pdf(format!("{stem}.pdf"), Box::new(sheets), art, title, PrintAs::Simplex)?;
    }
    Ok(())
}

/// Each box flat on every home paper it fits (with `--cut`, its die-line as a cut file),
/// and on the smallest A-size it fits when a home paper is too small for it.
fn box_sheets(
    job: &Job,
    validated: &Validated,
    writer: &mut Writer,
    art: &mut LazyArt,
    lang: Option<&str>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(), Failure> {
    use crate::layout::{boxes, registration};
    let cat = validated.catalogue();
    if cat.boxes.is_empty() {
        return Ok(());
    }
    art.boxes = crate::render::render_boxes(cat, (lang, art.thorough()), warnings)?;
    let lang_suffix = writer.lang.clone();
    for (b, def) in cat.boxes.iter().enumerate() {
        let flats = boxes::flats(def.style, def.inside);
        // Each piece on a page of the paper, turned as it fits.
        let on = |(w, h): (f32, f32)| -> Option<Vec<(Length, Length)>> {
            flats.iter().map(|f| boxes::fits(f, (Length::mm(w), Length::mm(h)))).collect()
        };
        let mut papers: Vec<(String, Vec<(Length, Length)>)> = Vec::new();
        for &paper in &job.print.papers {
            let (w, h) = paper.size();
            if let Some(pages) = on((w.to_mm(), h.to_mm())) {
                papers.push((paper.name().to_string(), pages));
            }
        }
        if papers.len() < job.print.papers.len() {
            let larger = [("a3", 297.0, 420.0), ("a2", 420.0, 594.0), ("a1", 594.0, 841.0)];
            // The loader made sure it fits A1.
            if let Some((name, pages)) =
                larger.iter().find_map(|&(name, w, h)| on((w, h)).map(|p| (name, p)))
            {
                papers.push((name.to_string(), pages));
            }
        }
        for (paper, pages) in papers {
            let stem = format!("{}-{}-{paper}{lang_suffix}", cat.id, def.id);
            let mut sheets = Vec::new();
            for (flat, page) in flats.iter().zip(pages) {
                let mut sheet = boxes::sheet(def, b, flat, page);
                if job.print.cut.is_some() {
                    // Registration marks for the cutter, where the flat leaves them room.
                    let art = sheet.trim.grown(sheet.bleed);
                    sheet.registration = registration::clear(&art, sheet.width, sheet.height);
                    if !sheet.registration {
                        let why = format!(
                            "box `{}` ({}) on {paper} leaves no room for registration marks: its cut file has none",
                            def.id, flat.part
                        );
                        let span = Some(def.span.clone());
                        warnings.push(
                            Diagnostic::warning(&cat.manifest, span, why)
                                .with_note("cut it by hand, or print it on a larger --paper"),
                        );
                    }
                }
                box_slug(&mut sheet, cat, def, flat.part);
                if let Some(format) = job.print.cut {
                    // A one-piece box's cut file is `-cut`; a lid's `-lid-cut`.
                    let part = match flat.part {
                        "box" => String::new(),
                        part => format!("-{part}"),
                    };
                    let file = writer.dir.join(format!("{stem}{part}-cut.{}", format.extension()));
                    let bytes = match writer.check_only {
                        true => Vec::new(),
                        false => format.write(&sheet).into_bytes(),
                    };
                    writer.files.push((file, Content::Bytes(bytes)));
                }
                sheets.push(sheet);
            }
            let title = format!("{} — {} ({paper})", cat.name, def.name);
            writer.pdf(format!("{stem}.pdf"), Box::new(sheets), art, title, PrintAs::Simplex)?;
        }
    }
    Ok(())
}

/// Lines under the flat: what the box holds, its inside, and how to make it. A box's one
/// sentence starts at the flat's left, a lid's or base's two at the page's margin; a
/// sentence too long for the page is wrapped from the margin, smaller if that is what
/// keeps its lines between the flat and the page's unprintable edge.
fn box_slug(sheet: &mut Sheet, cat: &Catalogue, def: &crate::model::BoxDef, part: &str) {
    use crate::layout::marks::{wrap, Layer, Text};
    use crate::layout::registration;
    const SIZES_MM: [f32; 3] = [2.5, 2.0, 1.5];
    let bottom = (sheet.trim.y + sheet.trim.h).to_mm();
    let page_h = sheet.height.to_mm();
    let (w, h, d) = (def.inside.0.to_mm(), def.inside.1.to_mm(), def.inside.2.to_mm());
    let holds = format!("{} — {}: {} cards of {}", cat.name, def.name, def.cards, def.deck_name);
    let sentences = if part == "box" {
        vec![format!("{holds}; inside {w:.1} × {h:.1} × {d:.1} mm. Cut the solid line, fold on the dashed lines, glue the flap inside the far side.")]
    } else {
        vec![
            format!("{holds}; the {part}. The base is {w:.1} × {h:.1} × {d:.1} mm inside."),
            "Cut the solid line, fold the walls up on the dashed lines, glue each tab inside the wall beside it; the lid slides over the base.".to_string(),
        ]
    };
    let measure = slug_width();
    let width = |text: &str, size: f32| measure(text) * size;
    let right = sheet.width.to_mm() - crate::layout::boxes::MARGIN_MM;
    let margin = sheet.trim.x.to_mm().min(crate::layout::boxes::MARGIN_MM);
    let at_flat = sheet.trim.x.to_mm();
    // Clear of the bottom-left registration mark, where there is one.
    let (at_flat, margin) = match sheet.registration {
        true => (at_flat.max(registration::SLUG_FROM_MM), margin.max(registration::SLUG_FROM_MM)),
        false => (at_flat, margin),
    };
    let x = if part == "box" && width(&sentences[0], SIZES_MM[0]) <= right - at_flat {
        at_flat
    } else {
        margin
    };
    // The largest size whose lines, 1.6 sizes apart, stand between the flat and the edge.
    let lines_at = |size: f32| -> Vec<String> {
        sentences.iter().flat_map(|s| wrap(s, right - x, |t| width(t, size))).collect()
    };
    let below = bottom + 1.0;
    let above = page_h - crate::layout::UNPRINTABLE_MM;
    let (size, lines) = SIZES_MM
        .iter()
        .map(|&size| (size, lines_at(size)))
        .find(|(size, lines)| {
            lines.len().saturating_sub(1) as f32 * 1.6 * size + size <= above - below
        })
        .unwrap_or_else(|| (SIZES_MM[2], lines_at(SIZES_MM[2])));
    let pitch = 1.6 * size;
    // Centred under the flat, moved off the page's edge or the flat if that puts them
    // past either.
    let span = lines.len().saturating_sub(1) as f32 * pitch;
    let centre = (bottom + page_h) / 2.0 + 1.0;
    let first = (centre - span / 2.0).min(above - span).max(below + size);
    let mut layer = Layer::default();
    for (i, line) in lines.into_iter().enumerate() {
        layer.push(Text::new((x, first + i as f32 * pitch), size, line));
    }
    sheet.decor.push(Arc::new(layer));
}

/// How wide a slug's or a box caption's text is, in ems of the bundled sans the PDF draws
/// marks in.
fn slug_width() -> crate::layout::SlugWidth {
    let metrics = crate::render::textbox::Metrics::new(crate::fonts::bundled());
    Arc::new(move |text: &str| metrics.width(crate::fonts::DEFAULT_FAMILY, false, false, text))
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

/// The colour conversion for a press, when the job's PDFs are CMYK: the job's printing
/// condition with the catalogue's swatches. Shared by the PDF writer's threads.
fn press(job: &Job, cat: &Catalogue) -> Result<Option<Arc<Press>>, Failure> {
    let Some(spec) = &job.print.press else { return Ok(None) };
    let press = Press::for_catalogue(
        spec.condition.clone(),
        spec.pdfx,
        spec.intent,
        spec.ink_limit,
        &cat.colour,
    )
    .map_err(Failure::Io)?;
    Ok(Some(Arc::new(press)))
}

/// What the PDF writer found for the press, as warnings on each piece's template: colours
/// and images over the ink limit, and art flattened for PDF/X-1a.
fn press_warnings(
    cat: &Catalogue,
    press: Option<&Press>,
    findings: Vec<(ArtRef, crate::press::Finding)>,
) -> Vec<Diagnostic> {
    use crate::press::Finding;
    let Some(press) = press else { return Vec::new() };
    let mut seen = std::collections::HashSet::new();
    let mut diags = Vec::new();
    for (art, finding) in findings {
        if !seen.insert((art, format!("{finding:?}"))) {
            continue;
        }
        let (template, what) = match art {
            ArtRef::Face { deck, row } => (
                &cat.decks[deck].face,
                format!("card `{}` of deck `{}`", cat.decks[deck].rows[row].id, cat.decks[deck].id),
            ),
            ArtRef::Back { deck, row } if cat.decks[deck].back_per_card => (
                &cat.decks[deck].back,
                format!("the back of card `{}`", cat.decks[deck].rows[row].id),
            ),
            ArtRef::Back { deck, .. } => {
                (&cat.decks[deck].back, format!("the back of deck `{}`", cat.decks[deck].id))
            }
            ArtRef::Sheet { sheet } => {
                (&cat.sheets[sheet].template, format!("sheet `{}`", cat.sheets[sheet].id))
            }
            ArtRef::BoxFace { b, face } => {
                let def = &cat.boxes[b];
                let face = &def.faces[face];
                (&face.template, format!("the {} of box `{}`", face.kind.name(), def.id))
            }
        };
        let (file, span) = (&template.file, finding_span(&template.text, &finding));
        diags.push(match finding {
            Finding::Ink { what: element, ink } => Diagnostic::warning(file, span, format!("{element} takes {ink:.0}% ink, over the {:.0}% limit of {}", press.ink_limit, press.condition.identifier))
                .about(crate::diag::Topic::Ink)
                .with_note(format!("in {what}; too much ink smears and dries badly: use a lighter or less saturated colour, or give it a swatch with less ink ([colour.swatches] in game.toml)")),
            Finding::Transparency(element) => Diagnostic::warning(file, span, format!("{element} needs transparency, which PDF/X-1a cannot hold: the piece prints as a 600 dpi picture"))
                .about(crate::diag::Topic::Transparency)
                .with_note(format!("in {what}; its text is no longer text; draw it without opacity, masks or semi-transparent images, or use --pdfx 4 if the printer takes PDF/X-4")),
        });
    }
    diags
}

/// Where in its template a press finding was written, when the template spells it out:
/// the colour (`#202020`), or the attribute that makes the transparency (`opacity="0.8"`,
/// `mask=`, `filter=`, `mix-blend-mode`). A colour filled from data or `style` is not in
/// the template: no span then.
fn finding_span(text: &str, finding: &crate::press::Finding) -> Option<std::ops::Range<usize>> {
    use crate::press::Finding;
    let needles: Vec<String> = match finding {
        Finding::Ink { what, .. } => what
            .rsplit_once("#")
            .map(|(_, hex)| format!("#{}", hex.trim_end_matches(')')))
            .into_iter()
            .collect(),
        Finding::Transparency(what) => match what.rsplit_once("opacity ") {
            Some((_, value)) => vec![
                format!("opacity=\"{value}\""),
                format!("opacity: {value}"),
                format!("opacity:{value}"),
            ],
            None if what.starts_with("a mask") => vec!["mask=".to_string()],
            None if what.starts_with("a filter") => vec!["filter=".to_string()],
            None if what.starts_with("a blend mode") => vec!["mix-blend-mode".to_string()],
            None => Vec::new(),
        },
    };
    let lower = text.to_ascii_lowercase();
    needles.iter().find_map(|n| lower.find(&n.to_ascii_lowercase()).map(|i| i..i + n.len()))
}

/// `export tts`: a valid game's Tabletop Simulator files, written once all could be drawn.
fn tts(
    job: &Job,
    game: &Game,
    options: &crate::job::TtsOptions,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Vec<String>, Sources), Failure> {
    let validated = validate(job, &game.world)?;
    warnings.extend(validated.warnings().iter().cloned());
    let lang = options.lang.as_deref();
    validated.catalogue().check_lang(lang).map_err(Failure::Io)?;
    let mut art = LazyArt::new(&validated, lang, false);
    let staged = crate::export::tts::export(validated.catalogue(), &mut art, options);
    // Problems met drawing are said even when the export failed because of them.
    art.finish(warnings)?;
    let mut written = Vec::new();
    for file in staged? {
        let path = file.path().display().to_string();
        file.commit().map_err(|e| Failure::Io(format!("cannot write {path}: {e}")))?;
        written.push(path);
    }
    Ok((written, validated.catalogue().sources.clone()))
}

/// The decks printed together: each alone, or with `--gang` those that share a card size,
/// shape, bleed and one back template (shared, not per card) on the same sheets, so
/// their cards fill each other's empty slots.
fn deck_groups(cat: &Catalogue, gang: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate().filter(|(_, d)| d.labels.is_none()) {
        let same = |other: &crate::model::Deck| {
            deck.labels.is_none()
                && other.labels.is_none()
                && !deck.back_per_card
                && !other.back_per_card
                && other.back.file == deck.back.file
                && (other.width, other.height, other.shape, other.corner, other.gap, other.bleed)
                    == (deck.width, deck.height, deck.shape, deck.corner, deck.gap, deck.bleed)
        };
        match groups.iter_mut().find(|g| gang && same(&cat.decks[g[0]])) {
            Some(group) => group.push(d),
            None => groups.push(vec![d]),
        }
    }
    groups
}

/// The players a score pad is drawn for: `--players`, or the game's most.
fn players(cat: &Catalogue, asked: Option<u32>) -> Result<u32, Failure> {
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

/// A sheet component's size on `paper`: page-sized ones take the paper's.
pub fn sheet_size(size: SheetSize, paper: Paper) -> (Length, Length) {
    let (w, h) = paper.size();
    match size {
        SheetSize::Page { landscape: false } => (w, h),
        SheetSize::Page { landscape: true } => (h, w),
        SheetSize::Fixed { width, height } => (width, height),
    }
}

/// A3, A2 or A1: the first a board fits on with margins, either way round.
fn smallest_board_paper(board: (Length, Length)) -> BoardPaper {
    let papers = [("a3", 297.0, 420.0), ("a2", 420.0, 594.0), ("a1", 594.0, 841.0)];
    let (short, long) = if board.0 < board.1 { (board.0, board.1) } else { (board.1, board.0) };
    let fits = |w: f32, h: f32| short.to_mm() + 20.0 <= w && long.to_mm() + 20.0 <= h;
    let (name, w, h) = papers.iter().copied().find(|&(_, w, h)| fits(w, h)).unwrap_or(papers[2]);
    BoardPaper { name: name.to_string(), size: (Length::mm(w), Length::mm(h)) }
}

pub fn duplex_name(d: Duplex) -> &'static str {
    match d {
        Duplex::Long => "duplex, long-edge flip",
        Duplex::Short => "duplex, short-edge flip",
        Duplex::None => "fronts then backs",
    }
}
