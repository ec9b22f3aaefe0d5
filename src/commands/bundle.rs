//! `deckpress rules` (the rulebook of each game, from its `rules.md`) and `deckpress
//! bundle` (one print-and-play PDF: cover, print guide, rules and every component).
//! Each game is validated, its files made in memory, and one PDF written under OUT/<game>/.

use std::path::{Path, PathBuf};

use crate::bundle::assemble::Assembly;
use crate::bundle::{faces_of, rules_geometry, Rulebook};
use crate::cli::{BundleArgs, RulesArgs};
use crate::diag::{Diagnostic, Failure, Sources};
use crate::driver::Outcome;
use crate::job::{Game, Job, Output, Print};
use crate::layout::Paper;
use crate::limits::Limits;
use crate::model::Catalogue;
use crate::plan::{Made, Product};

/// `deckpress rules`: each game's rulebook, `OUT/<game>/<game>-rules-<paper>.pdf`.
pub fn rules(args: &RulesArgs) -> Result<Vec<Outcome>, Failure> {
    let job = job(&args.games, &args.document, args.paper, false, crate::layout::Duplex::Long)?;
    Ok(each_game(&job, |game, warnings, sources| rules_file(&job, game, args, warnings, sources)))
}

/// `deckpress bundle`: each game's print-and-play file, `OUT/<game>/<game>-pnp-<paper>.pdf`.
pub fn bundle(args: &BundleArgs) -> Result<Vec<Outcome>, Failure> {
    let mut job = job(&args.games, &args.document, args.paper, args.ink_saver, args.duplex)?;
    job.print.orientation = args.orientation;
    let out = &args.document.out;
    Ok(each_game(&job, |game, warnings, sources| bundle_file(&job, game, out, warnings, sources)))
}

/// `make` run for every game of the job, each to its outcome.
fn each_game(
    job: &Job,
    make: impl Fn(&Game, &mut Vec<Diagnostic>, &mut Sources) -> Result<Vec<String>, Failure>,
) -> Vec<Outcome> {
    job.games
        .iter()
        .map(|game| outcome(game, job.strict, |warnings, sources| make(game, warnings, sources)))
        .collect()
}

/// The job of `rules` or `bundle`: one paper, the edition and variant asked for.
fn job(
    games: &crate::cli::Games,
    document: &crate::cli::DocumentOptions,
    paper: Paper,
    ink_saver: bool,
    duplex: crate::layout::Duplex,
) -> Result<Job, Failure> {
    let games = crate::games::resolve(&games.games, games.all)?
        .into_iter()
        .map(|(name, world)| Game { name, world })
        .collect();
    let print = Print {
        papers: vec![paper],
        lang: document.lang.clone(),
        ink_saver,
        duplex,
        ..Print::default()
    };
    // Made in memory: the bundle writes one file, not the build's.
    let limits = Limits::new(&document.limits);
    Ok(Job { games, print, limits, strict: document.strict, output: Output::Check })
}

/// What one game came to: the files written, or why not, with its warnings.
fn outcome(
    game: &Game,
    strict: bool,
    make: impl FnOnce(&mut Vec<Diagnostic>, &mut Sources) -> Result<Vec<String>, Failure>,
) -> Outcome {
    let (mut warnings, mut sources) = (Vec::new(), Sources::default());
    let result = make(&mut warnings, &mut sources);
    crate::driver::outcome(game, strict, result, warnings, sources)
}

/// The rulebook of `cat`, or an error when it has none or it has errors.
fn checked_rulebook(
    cat: &Catalogue,
    job: &Job,
    geometry: crate::bundle::typeset::Geometry,
    warnings: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Result<Option<Rulebook>, Failure> {
    let mut diags = Vec::new();
    let book =
        crate::bundle::rulebook(cat, job.print.lang.as_deref(), geometry, &mut diags, sources)?;
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Failure::Invalid(crate::diag::group(diags), sources.clone()));
    }
    warnings.extend(diags);
    Ok(book)
}

fn rules_file(
    job: &Job,
    game: &Game,
    args: &RulesArgs,
    warnings: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Result<Vec<String>, Failure> {
    let validated = crate::driver::validate(job, &game.world)?;
    let cat = validated.catalogue();
    *sources = cat.sources.clone();
    let geometry = rules_geometry(args.paper, args.booklet);
    let Some(book) = checked_rulebook(cat, job, geometry, warnings, sources)? else {
        return Err(Failure::Io(format!(
            "{} has no {}: write the game's rules there in Markdown (see docs/rules.md)",
            game.world.root().display(),
            crate::bundle::RULES_FILE
        )));
    };
    let (db, _, _) = faces_of(cat);
    let name = cat.name_in(job.print.lang.as_deref());
    let title = book.words.with("rules_title", &[("name", name)]);
    let mut pdf = Assembly::new(&title, db.clone(), &cat.world);
    crate::bundle::rules_pages(&mut pdf, &book).map_err(Failure::Io)?;
    pdf.marks = crate::bundle::section_marks(&book.laid.sections, 0);
    let mut bytes = pdf.finish("Simplex").map_err(Failure::Io)?;
    let paper = args.paper.name();
    let lang = job.print.lang.as_deref().map(|l| format!("-{l}")).unwrap_or_default();
    let mut name = format!("{}-rules-{paper}{lang}.pdf", cat.id);
    if args.booklet {
        let (w, h) = (args.paper.size().0.to_mm(), args.paper.size().1.to_mm());
        let mut sheets = Assembly::new(&title, db, &cat.world);
        let label = book.words.get("sheet_side");
        sheets.booklet(bytes, (h, w), &label).map_err(Failure::Io)?;
        // Landscape sheets printed on both sides turn over their short edge.
        bytes = sheets.finish("DuplexFlipShortEdge").map_err(Failure::Io)?;
        name = format!("{}-rules-booklet-{paper}{lang}.pdf", cat.id);
    }
    let how = (Some(args.paper.name()), job.print.lang.as_deref(), false);
    let out = (args.document.out.as_path(), job.limits.lock_seconds);
    let path = write(out, &cat.id, &name, (bytes, Product::Rulebook, how))?;
    Ok(vec![path])
}

/// Writes the document `name` of game `game` under OUT/<game>/, through the executor's
/// commit like a build's files.
fn write(
    (out, wait): (&Path, u64),
    game: &str,
    name: &str,
    document: Document,
) -> Result<String, Failure> {
    let (bytes, product, how) = document;
    let made = Made::document(PathBuf::from(game).join(name), bytes, product, how);
    let mut written = crate::plan::commit(out, game, vec![made], wait)?;
    Ok(written.remove(0))
}

/// A document's bytes, what it is, and its paper, language and variant.
type Document<'a> = (Vec<u8>, Product, (Option<&'a str>, Option<&'a str>, bool));

fn bundle_file(
    job: &Job,
    game: &Game,
    out: &Path,
    warnings: &mut Vec<Diagnostic>,
    sources: &mut Sources,
) -> Result<Vec<String>, Failure> {
    let paper = job.print.papers[0];
    // The rulebook is typeset while the components are made: neither needs the other.
    let geometry = rules_geometry(paper, false);
    let typeset = |validated: &crate::validate::Validated| {
        let (mut said, mut read) = (Vec::new(), validated.catalogue().sources.clone());
        let book = checked_rulebook(validated.catalogue(), job, geometry, &mut said, &mut read);
        (book, said, read)
    };
    let (validated, files, (book, said, read)) =
        crate::driver::made_in_memory(job, game, warnings, typeset)?;
    let cat = validated.catalogue();
    *sources = read;
    warnings.extend(said);
    let lang = job.print.lang.as_deref();
    // The edition is wholly in its language, or says what is not.
    let (words, no_words) = crate::phrases::words_for(cat, lang);
    warnings.extend(no_words);
    // `-ru`, `-inksaver`: the names the build gives its files, and the bundle too.
    let suffix = job.print.file_suffix(lang);
    let (parts, separate) = crate::bundle::pnp::components(cat, (&game.name, &words), files, paper)
        .map_err(Failure::Io)?;
    if let Some(lang) = lang {
        let listed = crate::bundle::pnp::listed_ids(&parts, &separate);
        warnings.extend(crate::bundle::pnp::untranslated_names(cat, lang, &listed));
    }
    // The ink saver's guide states both variants' ink, measured from their pieces drawn
    // again (half the bundle's work: the full-colour bundle only points to it).
    let measure = job.print.ink_saver;
    let ink = measure.then(|| crate::bundle::ink::coverage(cat, lang, paper, &parts)).flatten();
    let book = book?;
    let ink =
        ink.map(|coverage| crate::bundle::guide::Ink { coverage, ink_saver: job.print.ink_saver });
    if measure && ink.is_none() && parts.iter().any(|p| p.source.is_some()) {
        warnings.push(
            Diagnostic::warning(
                &cat.game_toml,
                None,
                "the print guide states no ink coverage: a piece cannot be drawn in both variants",
            )
            .with_note("`deckpress build --ink-saver` (and without) names the piece"),
        );
    }
    let how = (ink.as_ref(), job.print.variant());
    let contents = (parts, &separate[..]);
    let bytes =
        crate::bundle::pnp::assemble(cat, (lang, &words), paper, book.as_ref(), contents, how)
            .map_err(Failure::Io)?;
    let name = format!("{}-pnp-{}{suffix}.pdf", cat.id, paper.name());
    let how = (Some(paper.name()), lang, job.print.ink_saver);
    let out = (out, job.limits.lock_seconds);
    let mut lines = vec![write(out, &cat.id, &name, (bytes, Product::Bundle, how))?];
    // Said where the user looks, as the cover and the guide say it.
    lines.extend(separate.iter().map(|s| {
        format!("{}: {} is printed separately, on {}: {}", cat.id, s.title, s.paper, s.command)
    }));
    // Said, not a warning: a game of cards alone is no mistake, and `--strict` would fail
    // every catalogue made before rulebooks were (`deckpress new` starts one now).
    if book.is_none() {
        lines.push(format!("{}: the bundle has no rules: the game has no rules.md (write them in Markdown beside game.toml, docs/rules.md)", cat.id));
    }
    Ok(lines)
}
