//! The one driver every command runs: for each game of a `Job`, load → validate → plan →
//! execute (`plan`): staged files for `build`, findings for `validate`, memory for
//! `preflight`; previews and Tabletop Simulator from the same loaded game. Every
//! document reports through the game's one list of diagnostics, so no warning is lost.
//! Returns what happened for `main` to print; never prints itself.

use crate::diag::{Diagnostic, Failure, Sources};
use crate::job::{Fit, Game, Job, Output};
use crate::layout::Fitting;
use crate::length::Length;
use crate::model::Catalogue;
use crate::plan::{Context, Drawn, Sink};
use crate::render::LazyArt;
use crate::validate::Validated;
use crate::world::World;

use crate::plan::with_template_errors;
pub use crate::plan::{duplex_name, sheet_size, Checked, Content, Made};

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
        Output::Play(options) => job
            .games
            .iter()
            .map(|game| {
                finish_game(job, game, |warnings| {
                    let validated = validate(job, &game.world)?;
                    crate::play::play(job, validated, options, warnings)
                })
            })
            .collect(),
    }
}

/// Loads and validates a game (`check`), failing when it breaks its rules: with every
/// problem, and a deck no product fits among them (for the decks the job asks for).
pub fn validate(job: &Job, world: &World) -> Result<Validated, Failure> {
    match crate::plan::check(world, &job.limits)? {
        // A language the game lacks is refused here, for every command, before anything
        // is made: it would be put in file names and print the game untranslated.
        Checked::Valid(validated) => {
            validated.catalogue().check_lang(job.print.lang.as_deref()).map_err(Failure::Io)?;
            Ok(*validated)
        }
        Checked::Rejected { problems, cat } => {
            Err(Failure::Invalid(rejected(job, problems, &cat), cat.sources))
        }
    }
}

/// The problems of a game that broke its rules: `problems`, a deck no print service
/// product fits (its fitting's warnings wait for the round that draws it), and the
/// template errors not already among them.
fn rejected(job: &Job, mut problems: Vec<Diagnostic>, cat: &Catalogue) -> Vec<Diagnostic> {
    let only = &job.print.only;
    let asked = |d: &crate::model::Deck| only.is_empty() || only.contains(&d.id);
    problems.extend(fits(job, cat, asked, &mut Vec::new()).errors);
    problems.extend(crate::plan::misfits(job, cat));
    with_template_errors(problems, cat)
}

/// Runs `make` for a game with one list for its warnings, which `--strict` turns into errors.
fn finish_game(
    job: &Job,
    game: &Game,
    make: impl FnOnce(&mut Vec<Diagnostic>) -> Result<(Vec<String>, Sources), Failure>,
) -> Outcome {
    let mut warnings = Vec::new();
    let result = make(&mut warnings);
    let sources = match &result {
        Ok((_, sources)) => sources.clone(),
        Err(Failure::Invalid(_, sources)) => sources.clone(),
        Err(Failure::Io(_)) => Sources::default(),
    };
    outcome(game, job.strict, result.map(|(lines, _)| lines), warnings, sources)
}

/// What one game came to: its files (or why not) and its warnings, said from `sources`;
/// with `strict`, the warnings that become errors fail it.
pub fn outcome(
    game: &Game,
    strict: bool,
    result: Result<Vec<String>, Failure>,
    warnings: Vec<Diagnostic>,
    sources: Sources,
) -> Outcome {
    let (errors, warnings) = crate::diag::split(crate::diag::group(warnings), strict);
    let result = match result {
        Ok(_) if !errors.is_empty() => Err(Failure::Invalid(errors, sources.clone())),
        Err(Failure::Invalid(mut diags, sources)) => {
            diags.extend(errors);
            Err(Failure::Invalid(diags, sources))
        }
        other => other,
    };
    let warnings = (!warnings.is_empty()).then_some((warnings, sources));
    Outcome { game: game.name.to_string(), result, warnings, report: Vec::new() }
}

/// `build` and `validate`: every file of a game is made first (staged beside its place,
/// or for `validate` only drawn and checked), then put under `out` as one set, so a game
/// that fails anywhere leaves every previous output untouched. `validate` draws and checks
/// everything `build` would, in every language the catalogue translates.
fn print(job: &Job, game: &Game) -> Outcome {
    finish_game(job, game, |warnings| print_validated(job, validate(job, &game.world)?, warnings))
}

/// `build` or `validate` of a game already loaded and validated (`watch --pdf` has it from
/// the previews).
pub fn print_game(job: &Job, game: &Game, validated: Validated) -> Outcome {
    finish_game(job, game, |warnings| print_validated(job, validated, warnings))
}

fn print_validated(
    job: &Job,
    validated: Validated,
    warnings: &mut Vec<Diagnostic>,
) -> Result<(Vec<String>, Sources), Failure> {
    let validated = narrow(job, validated)?;
    let (validated, fits, errors) = products(job, validated, warnings);
    let cat = validated.catalogue();
    if !errors.is_empty() {
        return Err(Failure::Invalid(with_template_errors(errors, cat), cat.sources.clone()));
    }
    let sink = match &job.output {
        Output::Files { out } => {
            let dir = out.join(&cat.id);
            crate::output::Commit::repair(&dir, job.limits.lock_seconds)
                .map_err(|e| crate::output::cannot_write(&dir, e))?;
            Sink::Files { out: out.clone() }
        }
        _ => Sink::Findings,
    };
    // `validate` draws each translation after the language asked for.
    let translations = matches!(sink, Sink::Findings) && job.print.lang.is_none();
    let ctx = Context {
        job,
        validated: &validated,
        fits: &fits,
        lang: job.print.lang.as_deref(),
        press: None,
    };
    let done = crate::plan::execute(&ctx, &sink, Drawn::Note(translations), warnings)?;
    if translations {
        warnings.extend(text_in_other_languages(job, &validated, &fits, done.filled, warnings));
    }
    let mut sources = cat.sources.clone();
    if matches!(sink, Sink::Findings) {
        let found = rulebooks(job, cat, &mut sources)?;
        warnings.extend(found);
    }
    match &sink {
        Sink::Files { out } => {
            let mut written =
                crate::plan::commit(out, &cat.id, done.made, job.limits.lock_seconds)?;
            written.extend(done.notes);
            Ok((written, sources))
        }
        _ => Ok((vec![validated.summary()], sources)),
    }
}

/// `validate` promises that every language the catalogue translates builds, not only the
/// one asked for (German runs long): each language is drawn, and what does not fit in it,
/// runs off the piece, has no glyph or fails, and was not already said, is reported for it.
fn text_in_other_languages(
    job: &Job,
    validated: &Validated,
    fits: &[Option<Fitting>],
    filled: rustc_hash::FxHashMap<crate::layout::ArtRef, u64>,
    said: &[Diagnostic],
) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = Vec::new();
    let filled = std::sync::Arc::new(filled);
    for lang in validated.catalogue().lang.keys() {
        let mut diags = Vec::new();
        // A piece the language fills as the first did says nothing new.
        let before = Drawn::Before(filled.clone());
        let ctx = Context { job, validated, fits, lang: Some(lang), press: None };
        if let Err(Failure::Invalid(errors, _)) =
            crate::plan::execute(&ctx, &Sink::Findings, before, &mut diags)
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

/// `validate` answers for `rules` and `bundle` too: the rulebook filled and typeset on
/// each paper of the job, in the language asked for or else in every language the
/// catalogue has, each problem said once (with the language it is met in).
fn rulebooks(
    job: &Job,
    cat: &Catalogue,
    sources: &mut Sources,
) -> Result<Vec<Diagnostic>, Failure> {
    let langs: Vec<Option<&str>> = match job.print.lang.as_deref() {
        Some(lang) => vec![Some(lang)],
        None => std::iter::once(None).chain(cat.lang.keys().map(|l| Some(l.as_str()))).collect(),
    };
    let mut found: Vec<Diagnostic> = Vec::new();
    for paper in &job.print.papers {
        let geometry = crate::bundle::rules_geometry(*paper, false);
        for &lang in &langs {
            let mut diags = Vec::new();
            crate::bundle::rulebook(cat, lang, geometry, &mut diags, sources)?;
            let asked = lang == job.print.lang.as_deref();
            for d in diags {
                let same =
                    |o: &Diagnostic| o.file == d.file && o.span == d.span && o.message == d.message;
                // What another language's edition would print untranslated is for its
                // `--lang` to say, as for its labels.
                let untranslated = d.topic == crate::diag::Topic::Untranslated && !d.is_error();
                if found.iter().any(same) || (untranslated && !asked) {
                    continue;
                }
                found.push(match lang {
                    Some(lang) if lang != job.print.lang.as_deref().unwrap_or_default() => {
                        d.with_note(format!("in language `{lang}` (--lang {lang})"))
                    }
                    _ => d,
                });
            }
        }
    }
    // What the bundle's own pages would print untranslated in the language asked for:
    // they list every deck, sheet and box of the game.
    if let Some(lang) = job.print.lang.as_deref() {
        let decks = cat.decks.iter().map(|d| d.id.as_str());
        let sheets = cat.sheets.iter().map(|s| s.id.as_str());
        let listed: Vec<&str> =
            decks.chain(sheets).chain(cat.boxes.iter().map(|b| b.id.as_str())).collect();
        found.extend(crate::bundle::pnp::untranslated_names(cat, lang, &listed));
    }
    Ok(found)
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
    Ok(validated.with_variant(print.variant()))
}

/// What `preflight` inspects of a deck: the files it becomes for the job's service, made
/// in memory and not written, and every problem met making them (errors and warnings
/// alike, `--strict` or not).
pub struct Inspected {
    pub files: Vec<(std::path::PathBuf, Vec<u8>)>,
    pub problems: Vec<Diagnostic>,
    pub sources: Sources,
    /// Card designs (rows) and cards (their copies) of the decks made: what the files
    /// must hold a side of each.
    pub designs: usize,
    pub cards: usize,
}

/// Makes the job's files of deck `deck` of a game loaded once (`check`) as `build` would,
/// but keeps them in memory.
/// `press`: one made for the game's job already, shared by its decks (each photo is then
/// converted once for all of them).
pub fn inspect(
    job: &Job,
    game: &Checked,
    deck: &str,
    press: Option<&std::sync::Arc<crate::press::Press>>,
) -> Result<Inspected, Failure> {
    let mut print = job.print.clone();
    print.only = vec![deck.to_string()];
    let job = &Job {
        games: Vec::new(),
        print,
        limits: job.limits.clone(),
        strict: job.strict,
        output: Output::Check,
    };
    let validated = match game {
        Checked::Valid(validated) => (**validated).clone(),
        Checked::Rejected { problems, cat } => {
            let problems = rejected(job, problems.clone(), cat);
            let sources = cat.sources.clone();
            return Ok(Inspected { files: Vec::new(), problems, sources, designs: 0, cards: 0 });
        }
    };
    let mut problems = Vec::new();
    let made = (|| {
        let validated = narrow(job, validated)?;
        // The other checks still run on a deck of the wrong size.
        let (validated, fits, errors) = products(job, validated, &mut problems);
        problems.extend(errors);
        let ctx = Context {
            job,
            validated: &validated,
            fits: &fits,
            lang: job.print.lang.as_deref(),
            press,
        };
        let done = crate::plan::execute(&ctx, &Sink::Memory, Drawn::Note(false), &mut problems)?;
        let files = done.in_memory().collect();
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
/// errors apart (a deck in error is drawn at its own size), with those of decks too large
/// for the home sheets' paper.
fn products(
    job: &Job,
    validated: Validated,
    warnings: &mut Vec<Diagnostic>,
) -> (Validated, Vec<Option<Fitting>>, Vec<Diagnostic>) {
    let Fits { fits, widened, mut errors } = fits(job, validated.catalogue(), |_| true, warnings);
    // Home sheets: a deck too large for the paper, as laid out, is the catalogue's error.
    errors.extend(crate::plan::misfits(job, validated.catalogue()));
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
    let checked = !crate::check::off("product-size");
    let Some(bleed) = service.bleed.filter(|_| checked) else {
        let n = cat.decks.len();
        return Fits { fits: vec![None; n], widened: vec![None; n], errors: Vec::new() };
    };
    let text = cat.sources.get(&cat.game_toml).unwrap_or_default();
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
                Diagnostic::new(&cat.game_toml, span, format!("{named} is {shape}, and {} prints its pieces as rectangular cards", service.title))
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
                    Diagnostic::new(&cat.game_toml, span, format!("{named} is no card size {} prints", service.title))
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
                    &cat.game_toml,
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
                        &cat.game_toml,
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
                    &cat.game_toml,
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
                        &cat.game_toml,
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
    let mut art = LazyArt::new(&validated, lang, false);
    let staged = crate::export::tts::export(validated.catalogue(), &mut art, options);
    // Problems met drawing are said even when the export failed because of them.
    art.finish(warnings)?;
    let what = crate::plan::What::whole(crate::plan::Product::Tts, (None, lang, false));
    let made = staged?.into_iter().map(|(path, file)| Made {
        path,
        content: Content::Staged(file),
        what: Some(what.clone()),
    });
    let (id, wait) = (&validated.catalogue().id, job.limits.lock_seconds);
    let written = crate::plan::commit(&options.out, id, made.collect(), wait)?;
    Ok((written, validated.catalogue().sources.clone()))
}

/// A document made in memory: what it is, and its bytes.
pub type InMemory = (crate::plan::What, Vec<u8>);

/// `bundle`: the files `build` makes of a game, kept in memory (the job's output is
/// `Check`, so nothing is staged), the validated catalogue they were made from, and what
/// `beside` made of that catalogue on another thread meanwhile (the rulebook).
pub fn made_in_memory<T: Send>(
    job: &Job,
    game: &Game,
    warnings: &mut Vec<Diagnostic>,
    beside: impl FnOnce(&Validated) -> T + Send,
) -> Result<(Validated, Vec<InMemory>, T), Failure> {
    let validated = narrow(job, validate(job, &game.world)?)?;
    let (validated, fits, errors) = products(job, validated, warnings);
    if !errors.is_empty() {
        let cat = validated.catalogue();
        return Err(Failure::Invalid(with_template_errors(errors, cat), cat.sources.clone()));
    }
    let lang = job.print.lang.as_deref();
    let ctx = Context { job, validated: &validated, fits: &fits, lang, press: None };
    let (done, made_beside) = std::thread::scope(|scope| {
        let made_beside = scope.spawn(|| beside(&validated));
        let done = crate::plan::execute(&ctx, &Sink::Memory, Drawn::Note(false), warnings);
        (done, made_beside.join())
    });
    let made_beside =
        made_beside.map_err(|_| Failure::Io("internal error: a thread panicked".into()))?;
    let files = done?.documents_in_memory().collect();
    Ok((validated, files, made_beside))
}
