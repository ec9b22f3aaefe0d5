//! A game loaded and validated once, for every command: the one door a command loads a
//! catalogue through (counted with `DECKPRESS_DEBUG=load`), and the template errors of a
//! catalogue that is not drawn.

use crate::diag::{Diagnostic, Failure};
use crate::layout::Paper;
use crate::length::Length;
use crate::limits::Limits;
use crate::model::Catalogue;
use crate::validate::Validated;
use crate::world::World;

/// Loads a game's catalogue under `limits`: with `check`, the one way a command loads one.
pub fn load(world: &World, limits: &Limits) -> Result<Catalogue, Failure> {
    said_load(world);
    let mut cat = crate::load::load_with(world, limits)?;
    let named = crate::render::document::fill_names(&mut cat);
    if named.iter().any(Diagnostic::is_error) {
        return Err(Failure::Invalid(named, cat.sources));
    }
    Ok(cat)
}

/// With `DECKPRESS_DEBUG=load`, a line on stderr for each catalogue a command loads: the
/// one trace outside `main`, for a test to count that each game is loaded once.
pub fn said_load(world: &World) {
    if std::env::var_os("DECKPRESS_DEBUG").is_some_and(|v| v == "load") {
        eprintln!("deckpress: loading {}", world.root().display());
    }
}

/// A game loaded and validated, or (when it breaks its rules) the catalogue kept with
/// what it breaks.
pub enum Checked {
    Valid(Box<Validated>),
    Rejected { problems: Vec<Diagnostic>, cat: Box<Catalogue> },
}

/// Loads and validates a game, once: what `build`, `validate`, `preflight`, `preview` and
/// `watch` all start from. A catalogue whose rows files do not load has its templates
/// checked on the rows that do, so that a designer fixes everything in one round.
pub fn check(world: &World, limits: &Limits) -> Result<Checked, Failure> {
    said_load(world);
    let cat = match crate::load::load_with_keeping(world, limits) {
        Ok(cat) => cat,
        // Wrong cells in the rows files: the templates are checked on the other rows now,
        // and the deal table as far as it needs no rows (the rules count rows, so wait).
        Err((Failure::Invalid(mut diags, sources), Some(crate::load::Partial(cat)))) => {
            diags.extend(crate::validate::deal_table_problems(&cat));
            return Err(Failure::Invalid(with_template_errors(diags, &cat), sources));
        }
        Err((failure, _)) => return Err(failure),
    };
    // Names and the description written as templates are filled before anything prints
    // them; one that fails makes the game invalid, with its rules' problems if any.
    let mut cat = cat;
    let named = crate::render::document::fill_names(&mut cat);
    match crate::validate::validate_keeping(cat) {
        Ok(validated) if named.is_empty() => Ok(Checked::Valid(Box::new(validated))),
        Ok(validated) => {
            let mut problems = named;
            problems.extend(validated.warnings().iter().cloned());
            Ok(Checked::Rejected { problems, cat: Box::new(validated.catalogue().clone()) })
        }
        Err(rejected) => {
            let (mut problems, cat) = *rejected;
            problems.extend(named);
            Ok(Checked::Rejected { problems, cat: Box::new(cat) })
        }
    }
}

impl Checked {
    pub fn catalogue(&self) -> &Catalogue {
        match self {
            Checked::Valid(validated) => validated.catalogue(),
            Checked::Rejected { cat, .. } => cat,
        }
    }
}

/// `diags` and the errors of the catalogue's templates not among them: a catalogue that is
/// not drawn (broken rules, a deck no print service product fits) still has its templates
/// and art checked, so that a designer fixes everything in one round.
pub fn with_template_errors(mut diags: Vec<Diagnostic>, cat: &Catalogue) -> Vec<Diagnostic> {
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
        cat.sheets.iter().map(|s| super::sheet_size(s.size, Paper::A4)).collect();
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
