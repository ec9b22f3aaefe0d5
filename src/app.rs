//! Resolves the command line into jobs and runs the pipeline:
//! load → validate → render → layout → export → write. Returns what happened for `main`
//! to print; never prints itself.

use std::path::{Path, PathBuf};

use crate::cli::{BuildArgs, Command, Games};
use crate::diag::Failure;
use crate::layout::{impose, ArtRef, Cut, Duplex, Paper};
use crate::length::Length;
use crate::model::{Shape, SheetSize};
use crate::validate::Validated;
use crate::world::World;

/// What one command did for one game: lines for stdout, or why it failed.
pub struct Outcome {
    pub game: String,
    pub result: Result<Vec<String>, Failure>,
}

/// The folder holding the built-in catalogues: `$DECKPRESS_CATALOGUES`, or the
/// `catalogues` folder of the source tree this binary was built from.
pub fn builtin_dir() -> PathBuf {
    std::env::var_os("DECKPRESS_CATALOGUES")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogues"))
}

/// The folder of shared library decks (`from = "french"`): `$DECKPRESS_LIBRARY`, or the
/// `library` folder of the source tree.
pub fn library() -> World {
    World::new(
        std::env::var_os("DECKPRESS_LIBRARY")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("library")),
    )
}

/// Ids of the built-in games, sorted.
pub fn builtin_ids() -> Vec<String> {
    World::new(builtin_dir()).folders_with(crate::load::MANIFEST)
}

pub fn run(command: &Command) -> Result<Vec<Outcome>, Failure> {
    match command {
        Command::List => Ok(list()),
        Command::Validate(games) => {
            let worlds = resolve_games(games)?;
            Ok(worlds.iter().map(|(name, world)| Outcome { game: name.clone(), result: check(world).map(|v| vec![summary(&v)]) }).collect())
        }
        Command::Build(args) => {
            let worlds = resolve_games(&args.games)?;
            Ok(worlds.iter().map(|(name, world)| Outcome { game: name.clone(), result: build(world, args) }).collect())
        }
        Command::Preview(args) => crate::preview::preview(args),
        Command::Watch(args) => crate::preview::watch::watch(args, &mut crate::preview::watch::print),
        Command::Export(crate::cli::ExportTarget::Tts(args)) => crate::preview::tts::export(args),
    }
}

fn list() -> Vec<Outcome> {
    builtin_ids()
        .into_iter()
        .map(|id| {
            let world = World::new(builtin_dir().join(&id));
            let result = crate::load::load(&world, &library()).map(|c| vec![format!("{:<12} {}", id, c.description)]);
            Outcome { game: id, result }
        })
        .collect()
}

/// Game arguments → catalogue folders. A name with a path separator, or an existing
/// folder, is a path; anything else must be a built-in id.
pub fn resolve_games(games: &Games) -> Result<Vec<(String, World)>, Failure> {
    if games.all {
        let ids = builtin_ids();
        if ids.is_empty() {
            return Err(Failure::Io(format!("no built-in catalogues found in {}", builtin_dir().display())));
        }
        return Ok(ids.into_iter().map(|id| (id.clone(), World::new(builtin_dir().join(id)))).collect());
    }
    games
        .games
        .iter()
        .map(|arg| {
            let path = Path::new(arg);
            if arg.contains(std::path::MAIN_SEPARATOR) || arg.contains('/') || path.is_dir() {
                if !path.is_dir() {
                    return Err(Failure::Io(format!("{arg} is not a folder")));
                }
                Ok((arg.clone(), World::new(path)))
            } else if builtin_ids().iter().any(|id| id == arg) {
                Ok((arg.clone(), World::new(builtin_dir().join(arg))))
            } else {
                Err(Failure::Io(format!("unknown game `{arg}`; built-in games: {}; or give the path to a catalogue folder", builtin_ids().join(", "))))
            }
        })
        .collect()
}

fn check(world: &World) -> Result<Validated, Failure> {
    crate::validate::validate(crate::load::load(world, &library())?)
}

pub fn summary(v: &Validated) -> String {
    let c = v.catalogue();
    // "62 cards in `cards`, 10 in `markers`": decks hold cards, tokens and aids alike.
    let decks: Vec<String> = c
        .decks
        .iter()
        .enumerate()
        .map(|(i, d)| if i == 0 { format!("{} cards in `{}`", d.card_count(), d.id) } else { format!("{} in `{}`", d.card_count(), d.id) })
        .collect();
    let sheets = if c.sheets.is_empty() { String::new() } else { format!(", {} sheet{}", c.sheets.len(), if c.sheets.len() == 1 { "" } else { "s" }) };
    format!("{}: valid — {}{sheets}; {} rules and {} deals checked", c.id, decks.join(", "), c.rules.len(), c.deals.len())
}

/// Builds every PDF of a game in memory first, then writes them: a game that fails
/// anywhere leaves every previous output untouched.
fn build(world: &World, args: &BuildArgs) -> Result<Vec<String>, Failure> {
    let mut validated = check(world)?;
    if !args.only.is_empty() {
        let all: Vec<String> = {
            let c = validated.catalogue();
            c.decks.iter().map(|d| d.id.clone()).chain(c.sheets.iter().map(|s| s.id.clone())).collect()
        };
        validated = validated.only(&args.only).map_err(|unknown| {
            Failure::Io(format!("no deck or sheet {}; this game has: {}", crate::diag::accepted(unknown), crate::diag::accepted(all)))
        })?;
    }
    let cat = validated.catalogue();
    if let Some(lang) = &args.lang {
        if !cat.lang.contains_key(lang) {
            let known: Vec<&String> = cat.lang.keys().collect();
            return Err(Failure::Io(format!("{} has no labels for language `{lang}`; it has: {}", cat.id, crate::diag::accepted(known))));
        }
    }
    let players = players(cat, args.players)?;
    let mut art = crate::render::render(&validated, args.lang.as_deref())?;
    let dir = args.out.join(&cat.id);
    let lang = args.lang.as_ref().map(|l| format!("-{l}")).unwrap_or_default();
    let mut files = Vec::new();
    let mut pdf = |name: String, sheets: Vec<crate::layout::Sheet>, art: &crate::render::Art, title: String| -> Result<(), Failure> {
        let bytes = crate::export::pdf::write_pdf(&sheets, art, &title).map_err(Failure::Io)?;
        files.push((dir.join(format!("{}-{name}.pdf", cat.id)), bytes));
        Ok(())
    };
    for &paper in dedup(&args.paper) {
        for (d, deck) in cat.decks.iter().enumerate() {
            let pieces: Vec<(ArtRef, ArtRef)> = deck
                .rows
                .iter()
                .enumerate()
                .flat_map(|(row, r)| {
                    let back = ArtRef::Back { deck: d, row: if deck.back_per_card { row } else { 0 } };
                    std::iter::repeat_n((ArtRef::Face { deck: d, row }, back), r.qty as usize)
                })
                .collect();
            let cut = Cut { size: (deck.width, deck.height), circle: deck.shape == Shape::Circle, gap: deck.gap };
            let sheets = impose(&pieces, cut, paper, args.duplex).map_err(Failure::Io)?;
            let title = format!("{} — {} ({}, {})", cat.name, deck.name, paper.name(), duplex_name(args.duplex));
            pdf(format!("{}-{}{lang}", deck.id, paper.name()), sheets, &art, title)?;
        }
        if cat.sheets.is_empty() {
            continue;
        }
        // Sheet components are filled for this paper: page-sized ones take its size.
        let sizes: Vec<(Length, Length)> = cat.sheets.iter().map(|s| sheet_size(s.size, paper)).collect();
        art.sheets = crate::render::render_sheets(&validated, &sizes, players)?;
        for (i, sheet) in cat.sheets.iter().enumerate() {
            let art_ref = ArtRef::Sheet { sheet: i };
            match sheet.size {
                SheetSize::Page { .. } => {
                    let pages = vec![crate::layout::sheets::page(art_ref, sizes[i])];
                    pdf(format!("{}-{}", sheet.id, paper.name()), pages, &art, format!("{} — {} ({})", cat.name, sheet.name, paper.name()))?;
                }
                SheetSize::Fixed { width, height } => {
                    let title = format!("{} — {}", cat.name, sheet.name);
                    let tiles = crate::layout::sheets::tiles(art_ref, (width, height), paper.size(), &title);
                    pdf(format!("{}-tiled-{}", sheet.id, paper.name()), tiles, &art, format!("{title} (tiled on {})", paper.name()))?;
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
            pdf(format!("{}-{}", sheet.id, board_paper.name), vec![large], &art, title)?;
        }
    }
    let mut written = Vec::new();
    for (path, bytes) in files {
        crate::output::write_atomic(&path, &bytes).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.display().to_string());
    }
    Ok(written)
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
