//! Resolves the command line into jobs and runs the pipeline:
//! load → validate → render → layout → export → write. Returns what happened for `main`
//! to print; never prints itself.


use std::path::Path;

use crate::cli::{Command, PrintOptions, Service};
use crate::diag::{Diagnostic, Failure, Sources};
use crate::layout::{impose, ArtRef, Cut, Duplex, Paper};
use crate::length::Length;
use crate::model::SheetSize;
use crate::validate::Validated;
use crate::world::World;

/// What one command did for one game: lines for stdout, or why it failed, and the
/// warnings met on the way.
pub struct Outcome {
    pub game: String,
    pub result: Result<Vec<String>, Failure>,
    /// Warnings (not errors) and the files they point into.
    pub warnings: Option<(Vec<Diagnostic>, Sources)>,
}

impl Outcome {
    pub fn new(game: String, result: Result<Vec<String>, Failure>) -> Self {
        Self { game, result, warnings: None }
    }
}

impl From<crate::preview::Done> for Outcome {
    fn from(done: crate::preview::Done) -> Self {
        Self::new(done.game, done.result)
    }
}

pub fn run(command: &Command) -> Result<Vec<Outcome>, Failure> {
    match command {
        Command::List => Ok(list()),
        Command::Validate(args) => {
            crate::limits::set(&args.print.limits);
            let worlds = crate::games::resolve(&args.games)?;
            Ok(crate::parallel::par_map(&worlds, |(name, world)| build(name, world, None, &args.print)))
        }
        Command::Build(args) => {
            crate::limits::set(&args.print.limits);
            let worlds = crate::games::resolve(&args.games)?;
            Ok(crate::parallel::par_map(&worlds, |(name, world)| build(name, world, Some(&args.out), &args.print)))
        }
        Command::Preview(args) => Ok(crate::preview::preview(args)?.into_iter().map(Outcome::from).collect()),
        Command::Watch(args) => crate::preview::watch::watch(args, &mut crate::preview::watch::print).map(|()| Vec::new()),
        Command::Export(crate::cli::ExportTarget::Tts(args)) => Ok(crate::export::tts::export(args)?.into_iter().map(Outcome::from).collect()),
        Command::Calibrate(args) => Ok(vec![Outcome::new("calibrate".to_string(), calibrate(args))]),
        Command::New(args) => Ok(vec![Outcome::new(args.folder.display().to_string(), crate::scaffold::new_game(args))]),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(*shell, &mut crate::cli::Args::command(), "deckpress", &mut script);
            Ok(vec![Outcome::new("completions".to_string(), Ok(vec![String::from_utf8_lossy(&script).trim_end().to_string()]))])
        }
    }
}

fn list() -> Vec<Outcome> {
    crate::games::builtin_ids()
        .into_iter()
        .filter_map(|id| Some((crate::games::builtin(&id)?, id)))
        .map(|(world, id)| {
            let result = crate::load::load(&world, &World::templates()).map(|c| vec![format!("{:<12} {}", id, c.description)]);
            Outcome::new(id, result)
        })
        .collect()
}

fn check(world: &World) -> Result<Validated, Failure> {
    match crate::validate::validate(crate::load::load(world, &World::templates())?) {
        Err(Failure::Invalid(mut diags, sources)) => {
            // A deck that breaks its rules is not drawn; its templates' errors are still
            // said now, so that a designer fixes everything in one round.
            if let Ok(cat) = crate::load::load(world, &World::templates()) {
                for d in template_errors(&cat) {
                    if !diags.contains(&d) {
                        diags.push(d);
                    }
                }
            }
            Err(Failure::Invalid(diags, sources))
        }
        other => other,
    }
}

/// Rows drawn per deck to find template errors in a catalogue that broke its rules.
const TEMPLATE_CHECK_ROWS: usize = 50;

/// The errors filling and parsing the templates meets: on each deck's first rows and
/// back, and every sheet for A4 (a typo on every card is found on the first).
fn template_errors(cat: &crate::model::Catalogue) -> Vec<Diagnostic> {
    let rows: Vec<Vec<usize>> = cat.decks.iter().map(|d| (0..d.rows.len().min(TEMPLATE_CHECK_ROWS)).collect()).collect();
    let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size, Paper::A4)).collect();
    let request = crate::render::Request { wanted: &|_, _| false, rows: Some(&rows), back_rows: None, shared_back: &|_| true, sheet_sizes: Some(&sizes), players: cat.players.map_or(1, |p| p.0.clamp(1, 8)), lang: None };
    let drawn = crate::render::pieces(cat, &request);
    crate::diag::group(drawn.problems.into_iter().filter(Diagnostic::is_error).collect())
}

/// Builds every PDF of a game in memory first, then writes them under `out`: a game that
/// fails anywhere leaves every previous output untouched. Without `out` (`validate`),
/// everything is made and nothing written, so a valid catalogue is one that builds.
fn build(name: &str, world: &World, out: Option<&Path>, args: &PrintOptions) -> Outcome {
    let mut warnings = Vec::new();
    let result = make(world, out, args, &mut warnings);
    if out.is_none() && args.lang.is_none() && result.is_ok() {
        warnings.extend(text_in_other_languages(world, args, &warnings));
    }
    let (errors, warnings) = crate::diag::split(crate::diag::group(warnings), args.strict);
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
    Outcome { game: name.to_string(), result, warnings }
}

/// `validate` promises that text fits in every language the catalogue translates, not only
/// the one asked for (German runs long): each language is drawn, and what does not fit in
/// it, runs off the piece or has no glyph, and was not already said, is reported for it.
fn text_in_other_languages(world: &World, args: &PrintOptions, said: &[Diagnostic]) -> Vec<Diagnostic> {
    let Ok(cat) = crate::load::load(world, &World::templates()) else { return Vec::new() };
    let mut found: Vec<Diagnostic> = Vec::new();
    for lang in cat.lang.keys() {
        let options = PrintOptions { lang: Some(lang.clone()), ..args.clone() };
        let mut diags = Vec::new();
        if let Err(Failure::Invalid(errors, _)) = make(world, None, &options, &mut diags) {
            diags.extend(errors);
        }
        for d in diags.into_iter().filter(|d| d.topic == crate::diag::Topic::TextFit) {
            let same = |o: &Diagnostic| o.file == d.file && o.span == d.span && o.message == d.message;
            if !said.iter().any(same) && !found.iter().any(same) {
                found.push(d.with_note(format!("in language `{lang}` (--lang {lang})")));
            }
        }
    }
    found
}

/// The build itself: lines to print and the sources warnings point into, or the failure.
fn make(world: &World, out: Option<&Path>, args: &PrintOptions, warnings: &mut Vec<Diagnostic>) -> Result<(Vec<String>, Sources), Failure> {
    let mut validated = check(world)?;
    warnings.extend(validated.warnings().iter().cloned());
    if !args.only.is_empty() {
        let all: Vec<String> = {
            let c = validated.catalogue();
            c.decks.iter().map(|d| d.id.clone()).chain(c.sheets.iter().map(|s| s.id.clone())).collect()
        };
        validated = validated.only(&args.only).map_err(|unknown| {
            Failure::Io(format!("no deck or sheet {}; this game has: {}", crate::diag::accepted(unknown), crate::diag::accepted(all)))
        })?;
    }
    // The bleed art is drawn with: the print service's, `--bleed`, or each deck's own.
    if let Some(bleed) = args.service.bleed().or(args.bleed) {
        validated = validated.with_bleed(|_| bleed);
    }
    let cat = validated.catalogue();
    if let Some(lang) = &args.lang {
        if !cat.lang.contains_key(lang) {
            let known: Vec<&String> = cat.lang.keys().collect();
            return Err(Failure::Io(format!("{} has no labels for language `{lang}`; it has: {}", cat.id, crate::diag::accepted(known))));
        }
    }
    let players = players(cat, args.players)?;
    let press = press(cat, args)?;
    let mut press_findings: Vec<(ArtRef, crate::press::Finding)> = Vec::new();
    // Decks are drawn a batch of pieces at a time while their PDFs are written, so memory
    // does not grow with the deck; every problem met is reported at the end.
    let mut art = crate::render::LazyArt::new(&validated, args.lang.as_deref());
    let dir = out.unwrap_or(Path::new("")).join(&cat.id);
    let lang = args.lang.as_ref().map(|l| format!("-{l}")).unwrap_or_default();
    let mut files = Vec::new();
    // The PDF's Subject: what the game is, its version and copyright.
    let subject = {
        let mut parts = vec![cat.description.clone()];
        parts.extend(cat.version.as_ref().map(|v| format!("version {v}")));
        parts.extend(cat.copyright.as_ref().map(|c| match cat.year { Some(y) => format!("© {y} {c}"), None => format!("© {c}") }));
        Some(parts.join(" · "))
    };
    // Home sheets with backs interleaved ask for the duplex they were laid out for.
    let print_as = |sheets: &[crate::layout::Sheet]| {
        let interleaved = sheets.len() > 1 && sheets[1].side == crate::layout::Side::Back;
        match args.duplex {
            Duplex::Long if interleaved => crate::export::pdf::PrintAs::DuplexLongEdge,
            Duplex::Short if interleaved => crate::export::pdf::PrintAs::DuplexShortEdge,
            _ => crate::export::pdf::PrintAs::Simplex,
        }
    };
    let mut pdf = |name: String, sheets: Vec<crate::layout::Sheet>, art: &mut crate::render::LazyArt, title: String| -> Result<(), Failure> {
        let info = crate::export::pdf::DocInfo { title: &title, author: cat.author.as_deref(), subject: subject.as_deref() };
        let written = crate::export::pdf::write_pdf(&sheets, art, &info, print_as(&sheets), press).map_err(Failure::Io)?;
        press_findings.extend(written.findings);
        files.push((dir.join(format!("{}-{name}.pdf", cat.id)), written.bytes));
        Ok(())
    };
    if args.service != Service::Home && args.cut.is_some() {
        return Err(Failure::Io(format!("--cut is for home sheets; print services ({}) cut the cards themselves", args.service.name())));
    }
    // Cut files of front sheets, named after their PDF and page.
    let mut cut_files = Vec::new();
    if args.service != Service::Home {
        let mut pngs = Vec::new();
        // Print services take card files: decks only, each in the service's own form.
        for (d, deck) in cat.decks.iter().enumerate() {
            let name = format!("{}-{}{lang}", deck.id, args.service.name());
            match args.service {
                Service::PdfCards | Service::Drivethrucards => {
                    let title = format!("{} — {} ({})", cat.name, deck.name, args.service.name());
                    pdf(name, crate::export::cards::pages(deck, d, args.service), &mut art, title)?;
                }
                _ => pngs.extend(crate::export::cards::png_set(deck, d, &mut art).map_err(Failure::Io)?.into_iter().map(|(file, bytes)| (dir.join(format!("{}-{name}", cat.id)).join(file), bytes))),
            }
        }
        warnings.extend(press_warnings(cat, press, press_findings));
        art.finish(warnings)?;
        files.extend(pngs);
        return finish(files, out, &validated, cat.sources.clone());
    }
    for &paper in dedup(&args.paper) {
        for group in deck_groups(cat, args.gang) {
            // Every physical piece of the group's decks, face and back, in deck order.
            let pieces: Vec<(ArtRef, ArtRef)> = group
                .iter()
                .flat_map(|&d| {
                    let deck = &cat.decks[d];
                    deck.rows.iter().enumerate().flat_map(move |(row, r)| {
                        let back = ArtRef::Back { deck: d, row: if deck.back_per_card { row } else { 0 } };
                        std::iter::repeat_n((ArtRef::Face { deck: d, row }, back), r.qty as usize)
                    })
                })
                .collect();
            let deck = &cat.decks[group[0]];
            let names: Vec<&str> = group.iter().map(|&d| cat.decks[d].name.as_str()).collect();
            let ids: Vec<&str> = group.iter().map(|&d| cat.decks[d].id.as_str()).collect();
            let cut = Cut { size: (deck.width, deck.height), shape: deck.shape, corner: deck.corner, gap: deck.gap, bleed: deck.bleed, registration: args.cut.is_some() };
            let mut sheets = impose(&pieces, cut, paper, args.duplex, args.back_offset.unwrap_or((0.0, 0.0))).map_err(Failure::Io)?;
            let version = cat.version.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
            crate::layout::slug(&mut sheets, &format!("{}{version} — {}", cat.name, names.join(" + ")), duplex_name(args.duplex));
            let title = format!("{} — {} ({}, {})", cat.name, names.join(" + "), paper.name(), duplex_name(args.duplex));
            let name = format!("{}-{}{lang}", ids.join("+"), paper.name());
            if let Some(format) = args.cut {
                for (page, sheet) in sheets.iter().enumerate().filter(|(_, s)| s.side == crate::layout::Side::Front) {
                    let file = dir.join(format!("{}-{name}-cut-{}.{}", cat.id, page + 1, format.extension()));
                    cut_files.push((file, format.write(sheet).into_bytes()));
                }
            }
            pdf(name, sheets, &mut art, title)?;
        }
        if cat.sheets.is_empty() {
            continue;
        }
        // Sheet components are filled for this paper: page-sized ones take its size.
        let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size, paper)).collect();
        art.sheets = crate::render::render_sheets(&validated, &sizes, players, args.lang.as_deref(), warnings)?.into_iter().map(std::sync::Arc::new).collect();
        for (i, sheet) in cat.sheets.iter().enumerate() {
            let art_ref = ArtRef::Sheet { sheet: i };
            match sheet.size {
                SheetSize::Page { .. } => {
                    let pages = vec![crate::layout::sheets::page(art_ref, sizes[i])];
                    pdf(format!("{}-{}{lang}", sheet.id, paper.name()), pages, &mut art, format!("{} — {} ({})", cat.name, sheet.name, paper.name()))?;
                }
                SheetSize::Fixed { width, height } => {
                    let title = format!("{} — {}", cat.name, sheet.name);
                    let keep = art.sheets.get(i).map(|tree| crate::render::kept_whole(tree, (width, height))).unwrap_or_default();
                    let tiles = crate::layout::sheets::tiles(art_ref, (width, height), paper.size(), &title, &keep);
                    pdf(format!("{}-tiled-{}{lang}", sheet.id, paper.name()), tiles, &mut art, format!("{title} (tiled on {})", paper.name()))?;
                }
            }
        }
    }
    // Boards on one large sheet, once whatever the home paper.
    for (i, sheet) in cat.sheets.iter().enumerate() {
        if let SheetSize::Fixed { width, height } = sheet.size {
            let board_paper = match &args.board_paper {
                Some(p) => p.clone(),
                None => smallest_board_paper((width, height)),
            };
            let large = crate::layout::sheets::large(ArtRef::Sheet { sheet: i }, (width, height), board_paper.size, &board_paper.name).map_err(Failure::Io)?;
            let title = format!("{} — {} ({})", cat.name, sheet.name, board_paper.name);
            pdf(format!("{}-{}{lang}", sheet.id, board_paper.name), vec![large], &mut art, title)?;
        }
    }
    warnings.extend(press_warnings(cat, press, press_findings));
    art.finish(warnings)?;
    files.extend(cut_files);
    let sources = cat.sources.clone();
    finish(files, out, &validated, sources)
}

/// The colour conversion for a press, when the PDFs are CMYK (`--colour cmyk`, or a
/// service that asks for it). Made once per game and kept for the run: the PDF writer's
/// SVG drawing takes it as `'static`.
fn press(cat: &crate::model::Catalogue, args: &PrintOptions) -> Result<Option<&'static crate::press::Press>, Failure> {
    use crate::cli::ColourMode;
    use crate::press::{Condition, Pdfx, Press};
    let dtc = args.service == Service::Drivethrucards;
    let cmyk = match args.colour {
        Some(mode) => mode == ColourMode::Cmyk,
        None => dtc || args.pdfx.is_some() || args.icc.is_some(),
    };
    if !cmyk {
        if args.pdfx.is_some() || args.icc.is_some() {
            return Err(Failure::Io("--pdfx and --icc are for CMYK PDFs; drop --colour rgb".to_string()));
        }
        return Ok(None);
    }
    if matches!(args.service, Service::Gamecrafter | Service::Makeplayingcards) {
        return Err(Failure::Io(format!("{} takes sRGB PNG files; --colour cmyk is for PDFs (home, pdf-cards, drivethrucards)", args.service.name())));
    }
    let condition = match &args.icc {
        Some(path) => Condition::from_file(path).map_err(Failure::Io)?,
        None if dtc => Condition::swop(),
        None => Condition::fogra39(),
    };
    let ink_limit = args.ink_limit.map(|v| v as f32).or(dtc.then_some(240.0));
    let press = Press::for_catalogue(condition, args.pdfx.unwrap_or(Pdfx::X1a), args.intent, ink_limit, &cat.colour).map_err(Failure::Io)?;
    Ok(Some(Box::leak(Box::new(press))))
}

/// What the PDF writer found for the press, as warnings on each piece's template: colours
/// and images over the ink limit, and art flattened for PDF/X-1a.
fn press_warnings(cat: &crate::model::Catalogue, press: Option<&crate::press::Press>, findings: Vec<(ArtRef, crate::press::Finding)>) -> Vec<Diagnostic> {
    use crate::press::Finding;
    let Some(press) = press else { return Vec::new() };
    let mut seen = std::collections::HashSet::new();
    let mut diags = Vec::new();
    for (art, finding) in findings {
        if !seen.insert((art, format!("{finding:?}"))) {
            continue;
        }
        let (template, what) = match art {
            ArtRef::Face { deck, row } => (&cat.decks[deck].face, format!("card `{}` of deck `{}`", cat.decks[deck].rows[row].id, cat.decks[deck].id)),
            ArtRef::Back { deck, row } if cat.decks[deck].back_per_card => (&cat.decks[deck].back, format!("the back of card `{}`", cat.decks[deck].rows[row].id)),
            ArtRef::Back { deck, .. } => (&cat.decks[deck].back, format!("the back of deck `{}`", cat.decks[deck].id)),
            ArtRef::Sheet { sheet } => (&cat.sheets[sheet].template, format!("sheet `{}`", cat.sheets[sheet].id)),
        };
        let (file, span) = (&template.file, finding_span(&template.text, &finding));
        diags.push(match finding {
            Finding::Ink { what: element, ink } => Diagnostic::warning(file, span, format!("{element} takes {ink:.0}% ink, over the {:.0}% limit of {}", press.ink_limit, press.condition.identifier))
                .with_note(format!("in {what}; too much ink smears and dries badly: use a lighter or less saturated colour, or give it a swatch with less ink ([colour.swatches] in game.toml)")),
            Finding::Transparency(element) => Diagnostic::warning(file, span, format!("{element} needs transparency, which PDF/X-1a cannot hold: the piece prints as a 600 dpi picture"))
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
        Finding::Ink { what, .. } => what.rsplit_once("#").map(|(_, hex)| format!("#{}", hex.trim_end_matches(')'))).into_iter().collect(),
        Finding::Transparency(what) => match what.rsplit_once("opacity ") {
            Some((_, value)) => vec![format!("opacity=\"{value}\""), format!("opacity: {value}"), format!("opacity:{value}")],
            None if what.starts_with("a mask") => vec!["mask=".to_string()],
            None if what.starts_with("a filter") => vec!["filter=".to_string()],
            None if what.starts_with("a blend mode") => vec!["mix-blend-mode".to_string()],
            None => Vec::new(),
        },
    };
    let lower = text.to_ascii_lowercase();
    needles.iter().find_map(|n| lower.find(&n.to_ascii_lowercase()).map(|i| i..i + n.len()))
}

/// Writes what was made (nothing for `validate`), and says what.
fn finish(files: Vec<(std::path::PathBuf, Vec<u8>)>, out: Option<&Path>, validated: &Validated, sources: Sources) -> Result<(Vec<String>, Sources), Failure> {
    let Some(_) = out else {
        return Ok((vec![validated.summary()], sources));
    };
    let mut written = Vec::new();
    for (path, bytes) in files {
        crate::output::write_atomic(&path, &bytes).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.display().to_string());
    }
    Ok((written, sources))
}

/// `deckpress calibrate`: the duplex test sheet, written to OUT.
fn calibrate(args: &crate::cli::CalibrateArgs) -> Result<Vec<String>, Failure> {
    let sheets = crate::calibrate::sheets(args.paper, args.duplex).map_err(Failure::Io)?;
    let print_as = if args.duplex == Duplex::Short { crate::export::pdf::PrintAs::DuplexShortEdge } else { crate::export::pdf::PrintAs::DuplexLongEdge };
    let mut art = crate::render::NoArt;
    let title = format!("deckpress duplex calibration ({}, {})", args.paper.name(), duplex_name(args.duplex));
    let info = crate::export::pdf::DocInfo { title: &title, author: None, subject: None };
    let bytes = crate::export::pdf::write_pdf(&sheets, &mut art, &info, print_as, None).map_err(Failure::Io)?.bytes;
    let path = args.out.join(format!("calibrate-{}-{}.pdf", args.paper.name(), if args.duplex == Duplex::Short { "short" } else { "long" }));
    crate::output::write_atomic(&path, &bytes).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(vec![path.display().to_string()])
}

/// The decks printed together: each alone, or with `--gang` those that share a card size,
/// shape, bleed and one back template (shared, not per card) on the same sheets, so
/// their cards fill each other's empty slots.
fn deck_groups(cat: &crate::model::Catalogue, gang: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        let same = |other: &crate::model::Deck| {
            !deck.back_per_card
                && !other.back_per_card
                && other.back.file == deck.back.file
                && (other.width, other.height, other.shape, other.corner, other.gap, other.bleed) == (deck.width, deck.height, deck.shape, deck.corner, deck.gap, deck.bleed)
        };
        match groups.iter_mut().find(|g| gang && same(&cat.decks[g[0]])) {
            Some(group) => group.push(d),
            None => groups.push(vec![d]),
        }
    }
    groups
}

/// The players a score pad is drawn for: `--players`, or the game's most.
fn players(cat: &crate::model::Catalogue, asked: Option<u32>) -> Result<u32, Failure> {
    match (asked, cat.players) {
        (Some(n), Some((min, max))) if n < min || n > max => Err(Failure::Io(format!("{} is for {min} to {max} players, not {n}", cat.name))),
        (Some(0), _) => Err(Failure::Io("--players must be at least 1".to_string())),
        (Some(n), _) => Ok(n),
        (None, Some((_, max))) => Ok(max),
        (None, None) => Ok(1),
    }
}

fn sheet_size(size: SheetSize, paper: Paper) -> (Length, Length) {
    let (w, h) = paper.size();
    match size {
        SheetSize::Page { landscape: false } => (w, h),
        SheetSize::Page { landscape: true } => (h, w),
        SheetSize::Fixed { width, height } => (width, height),
    }
}

/// A3, A2 or A1: the first a board fits on with margins, either way round.
fn smallest_board_paper(board: (Length, Length)) -> crate::cli::BoardPaper {
    let papers = [("a3", 297.0, 420.0), ("a2", 420.0, 594.0), ("a1", 594.0, 841.0)];
    let (short, long) = if board.0 < board.1 { (board.0, board.1) } else { (board.1, board.0) };
    let fits = |w: f32, h: f32| short.to_mm() + 20.0 <= w && long.to_mm() + 20.0 <= h;
    let (name, w, h) = papers.iter().copied().find(|&(_, w, h)| fits(w, h)).unwrap_or(papers[2]);
    crate::cli::BoardPaper { name: name.to_string(), size: (Length::mm(w), Length::mm(h)) }
}

fn dedup(papers: &[Paper]) -> &[Paper] {
    // clap keeps repeats (`--paper a4,a4`); building the same file twice is pointless.
    if papers.len() == 2 && papers[0] == papers[1] {
        &papers[..1]
    } else {
        papers
    }
}

fn duplex_name(d: Duplex) -> &'static str {
    match d {
        Duplex::Long => "duplex, long-edge flip",
        Duplex::Short => "duplex, short-edge flip",
        Duplex::None => "fronts then backs",
    }
}
