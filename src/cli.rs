//! The command line as the user typed it ("low" arguments), parsed by clap. `commands`
//! resolves these into a `Job`; nothing below the commands sees these types.

use std::path::PathBuf;

use clap::builder::{EnumValueParser, TypedValueParser};
use clap::{Args as ClapArgs, Parser, Subcommand};

use crate::job::{BoardPaper, CutFormat, Fit};
use crate::layout::{Duplex, Orientation, Paper};

/// The version and the commit it was built from (`deckpress --version`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("DECKPRESS_COMMIT"), ")");

#[derive(Debug, Parser)]
#[command(name = "deckpress", version = VERSION, about = "Turns card games described as data into validated, print-ready PDF sheets")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate catalogues and write print-ready PDFs under OUT/<game>/.
    Build(BuildArgs),
    /// Check everything `build` would (rules, templates, art, fonts, sizes) without writing
    /// (exit 0 valid, 1 invalid, 2 usage or I/O error).
    Validate(ValidateArgs),
    /// Check a game's files against a print service's spec, deck by deck: product size,
    /// bleed, safe zone, art resolution, total ink, fonts, transparency, colour, order;
    /// each PASS or FAIL with the card and the fix (exit 0 all pass, 1 any fails).
    Preflight(PreflightArgs),
    /// Typeset the game's rulebook (rules.md in its folder, its numbers filled from the
    /// data) as OUT/<game>/<game>-rules-<paper>.pdf.
    Rules(RulesArgs),
    /// One print-and-play file: a cover, a print guide, the rules and every component, as
    /// OUT/<game>/<game>-pnp-<paper>.pdf.
    Bundle(BundleArgs),
    /// List the built-in games, one id a line.
    List,
    /// List the print services `--for` takes, one a line: files, side order, bleed,
    /// colour, ink limit and PDF/X.
    Services,
    /// Draw every card as PNG, one contact sheet per deck and an HTML gallery under OUT/<game>/preview/.
    Preview(PreviewArgs),
    /// Rebuild the previews (and with --pdf the PDFs) whenever a file of the catalogue changes.
    Watch(WatchArgs),
    /// Write the game for another program.
    #[command(subcommand)]
    Export(ExportTarget),
    /// A playtest table in the browser: OUT/<game>/play/index.html, dealt by the game's
    /// `[[deal]]` rows from a seed in its address; with --odds, how often the game's
    /// `[[odds]]` conditions hold at the deal.
    Play(PlayArgs),
    /// Download the sheets a catalogue links its rows to (`rows_url`) into their local
    /// copies, and say what changed; the one command that uses the network.
    Fetch(FetchArgs),
    /// Start a new game: a catalogue folder that validates and builds at once.
    New(NewArgs),
    /// Print a two-sided test sheet that measures a duplex printer's back-to-front offset
    /// (for `build --back-offset X,Y`).
    Calibrate(CalibrateArgs),
    /// Print a shell completion script (e.g. `deckpress completions bash > /etc/bash_completion.d/deckpress`).
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, ClapArgs)]
pub struct CalibrateArgs {
    /// Paper size.
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: Paper,
    /// How the printer flips the sheet: on the long edge or the short edge.
    #[arg(long, value_enum, default_value = "long")]
    pub duplex: Duplex,
    /// Which way the test sheet stands: `portrait`, or `landscape` to measure the
    /// offset of landscape card sheets (the printer turns them onto the paper).
    #[arg(long, value_name = "ORIENTATION", default_value = "portrait", value_parser = EnumValueParser::<Standing>::new().map(Orientation::from))]
    pub orientation: Orientation,
    /// Folder the PDF goes in.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
}

#[derive(Debug, ClapArgs)]
pub struct FetchArgs {
    #[command(flatten)]
    pub games: Games,
    /// Raise a bound: `--limit fetch-seconds=120`, `--limit fetch-bytes=100000000`.
    #[arg(long = "limit", value_name = "NAME=VALUE", value_parser = crate::limits::parse)]
    pub limits: Vec<(String, u64)>,
}

#[derive(Debug, ClapArgs)]
pub struct RulesArgs {
    #[command(flatten)]
    pub games: Games,
    /// Paper size (`universal`: inside 210 × 279.4 mm, for A4 and Letter alike).
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: Paper,
    /// A5 (half-letter) pages two-up on the paper turned, in booklet order: printed on both
    /// sides and folded in half, they read in order (GAME-rules-booklet-PAPER.pdf).
    #[arg(long)]
    pub booklet: bool,
    #[command(flatten)]
    pub document: DocumentOptions,
}

/// What `rules` and `bundle` share: where the file goes, its language, its limits and
/// whether warnings are errors.
#[derive(Debug, ClapArgs)]
pub struct DocumentOptions {
    /// Folder the PDF goes under, one sub-folder per game.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Print this edition: translated labels and texts (`[lang.LANG]`).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Raise (or lower) a bound on the work a catalogue may ask for, e.g.
    /// `--limit rules-pages=400`; see docs/catalogue.md for every limit.
    #[arg(long = "limit", value_name = "NAME=VALUE", value_parser = crate::limits::parse)]
    pub limits: Vec<(String, u64)>,
    /// Treat every warning (raw HTML left out, text under `[check] min_text_pt`, …) as an error.
    #[arg(long)]
    pub strict: bool,
}

#[derive(Debug, ClapArgs)]
pub struct BundleArgs {
    #[command(flatten)]
    pub games: Games,
    /// Paper size (`universal`: every page inside 210 × 279.4 mm, so the one file prints
    /// at 100 % on A4 and on Letter).
    #[arg(long, value_enum, default_value = "a4")]
    pub paper: Paper,
    #[command(flatten)]
    pub document: DocumentOptions,
    /// How the cards' backs are printed: `long` or `short` (duplex, flip on that edge),
    /// or `fold` (gutter fold: each front beside its back, folded and glued, no duplex).
    #[arg(long, value_enum, default_value = "long")]
    pub duplex: Duplex,
    /// Which way the card sheets stand: `auto` (the one that holds more cards; ties stay
    /// portrait), `portrait` or `landscape`.
    #[arg(long, value_enum, default_value = "auto")]
    pub orientation: Orientation,
    /// The ink saver's bundle: templates see `print.ink_saver` and leave out full-bleed
    /// backgrounds and dark fills; the file is named `…-inksaver`.
    #[arg(long)]
    pub ink_saver: bool,
}

#[derive(Debug, ClapArgs)]
pub struct NewArgs {
    /// The folder to create; its name becomes the game id.
    #[arg(value_name = "FOLDER")]
    pub folder: PathBuf,
    /// What to start from: `blank` (a small game of its own), `french` (the shared
    /// 52-card deck), `score-pad` (the French deck and a score pad, every key of the pad
    /// written out) or a built-in game to copy (e.g. `travfuda`).
    #[arg(long, value_name = "START", default_value = "blank")]
    pub from: String,
}

/// Which catalogues a command works on.
#[derive(Debug, ClapArgs)]
pub struct Games {
    /// Built-in game ids (see `deckpress list`) or paths to catalogue folders.
    #[arg(value_name = "GAME|PATH", required_unless_present = "all")]
    pub games: Vec<String>,
    /// Every built-in game.
    #[arg(long, conflicts_with = "games")]
    pub all: bool,
}

#[derive(Debug, ClapArgs)]
pub struct BuildArgs {
    #[command(flatten)]
    pub games: Games,
    /// Folder the PDFs go under, one sub-folder per game.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Reprint only what changed since a previous build (its output folder or its
    /// manifest): GAME-DECK-reprint-PAPER.pdf with the cards whose art changed or is new.
    #[arg(long, value_name = "PATH")]
    pub changed_since: Option<PathBuf>,
    #[command(flatten)]
    pub print: PrintOptions,
}

/// `preflight` takes `build`'s options; its report also goes beside the preview gallery.
#[derive(Debug, ClapArgs)]
pub struct PreflightArgs {
    #[command(flatten)]
    pub games: Games,
    /// Folder the report page goes under, in OUT/<game>/preview/.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Check this file in place of the one of the same name preflight makes (a file edited
    /// after the build, or made elsewhere); repeat for more.
    #[arg(long = "file", value_name = "PATH")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub print: PrintOptions,
}

/// `validate` checks everything `build` would, with the same options, and writes nothing.
#[derive(Debug, ClapArgs)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub games: Games,
    #[command(flatten)]
    pub print: PrintOptions,
}

/// What to print and how: shared by `build` and `validate`, so that a catalogue valid for
/// these options is one `build` prints.
#[derive(Debug, Clone, ClapArgs)]
pub struct PrintOptions {
    /// Paper size; repeat or separate with commas for several (`--paper a4,letter`).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "a4")]
    pub paper: Vec<Paper>,
    /// Paper for boards printed as one large sheet: a3, a2, a1 or WIDTHxHEIGHTmm
    /// (default: the smallest A size the board fits). Boards are also tiled on --paper.
    #[arg(long, value_name = "PAPER", value_parser = parse_board_paper)]
    pub board_paper: Option<BoardPaper>,
    /// Build only these decks, sheets and boxes: a list of ids, comma-separated
    /// (`--only cards,box`) or the option given again, after validating the whole game.
    #[arg(long, value_name = "ID,ID…", value_delimiter = ',')]
    pub only: Vec<String>,
    /// Fit score pads to this many players (default: the game's most).
    #[arg(long, value_name = "N")]
    pub players: Option<u32>,
    /// Print translated labels (e.g. `ru` for Russian card indices) where the catalogue has them.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// How back pages are arranged: long-edge flip, short-edge flip, or none (fronts, then backs).
    #[arg(long, value_enum, default_value = "long")]
    pub duplex: Duplex,
    /// Which way home card sheets stand: `auto` (the one that holds more cards; ties stay
    /// portrait), `portrait` or `landscape`. Long- and short-edge flips are the page's own
    /// edges, so a landscape page's long-edge backs are mirrored top to bottom.
    #[arg(long, value_enum, default_value = "auto")]
    pub orientation: Orientation,
    /// Treat every warning (low-resolution art, a missing bold face, …) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Who prints it: `home` (gang sheets with crop marks, duplex), or the files a print
    /// shop or service takes (`deckpress services` lists them with their formats).
    #[arg(long = "for", value_name = "SERVICE", default_value = "home", value_parser = service_names())]
    pub service: String,
    /// Print decks that share a card size and one back together, so they fill each
    /// other's empty slots (one PDF named after all of them).
    #[arg(long)]
    pub gang: bool,
    /// Shift every back page by X,Y millimetres (right and down), to correct a duplex
    /// printer's registration as measured with `deckpress calibrate` (e.g. `1,-0.5`).
    #[arg(long, value_name = "X,Y", value_parser = parse_offset, allow_hyphen_values = true)]
    pub back_offset: Option<(f32, f32)>,
    /// Bleed around every card for `home` and `pdf-cards` (e.g. `3mm`, `0.125in`, `0mm`),
    /// instead of each deck's own.
    #[arg(long, value_name = "LENGTH", value_parser = parse_length)]
    pub bleed: Option<crate::length::Length>,
    /// Raise (or lower) a bound on the work a catalogue may ask for, e.g.
    /// `--limit cards=500000`; see docs/catalogue.md for every limit.
    #[arg(long = "limit", value_name = "NAME=VALUE", value_parser = crate::limits::parse)]
    pub limits: Vec<(String, u64)>,
    /// Colours of the PDFs: `rgb` for screens and home printers, or `cmyk` for a press:
    /// converted through --icc and written as PDF/X (default: `cmyk` for drivethrucards).
    #[arg(long, alias = "color", value_enum)]
    pub colour: Option<ColourMode>,
    /// The printer's CMYK profile for `--colour cmyk` (default: the bundled FOGRA39, or
    /// SWOP (CGATS TR 003) for drivethrucards).
    #[arg(long, value_name = "FILE")]
    pub icc: Option<PathBuf>,
    /// How colours the press cannot print are brought in: `relative` (exact where it can,
    /// with black-point compensation) or `perceptual` (smoother for photos).
    #[arg(long, value_enum, default_value = "relative")]
    pub intent: crate::press::RenderIntent,
    /// Total ink (percent, C+M+Y+K) no colour or image may pass; over it is a warning
    /// naming the card (default: the service's, or the profile's).
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(u32).range(100..=400))]
    pub ink_limit: Option<u32>,
    /// The PDF/X of CMYK PDFs: `1a` (PDF/X-1a:2003; art with transparency is drawn as a
    /// 600 dpi picture) or `4` (PDF/X-4, transparency kept).
    #[arg(long, value_enum)]
    pub pdfx: Option<crate::press::Pdfx>,
    /// For a print-then-cut machine (Silhouette, Cricut): write each front sheet's cut
    /// contours beside its PDF as `svg` or `dxf` (millimetres, 1:1), and print
    /// registration marks on the front sheets (home sheets only; default: no cut files).
    #[arg(long, value_name = "FORMAT", value_parser = EnumValueParser::<CutArg>::new().map(CutFormat::from))]
    pub cut: Option<CutFormat>,
    /// With --for: make a deck whose size the service does not print into its nearest
    /// product, by scaling the art (`scale`, at most 2 %) or widening its bleed (`extend`).
    #[arg(long, value_name = "HOW", value_parser = EnumValueParser::<FitArg>::new().map(Fit::from))]
    pub fit: Option<Fit>,
    /// Print a variant that spends less ink: templates see `print.ink_saver` and leave out
    /// full-bleed backgrounds and dark fills; the files are named `…-inksaver`.
    #[arg(long)]
    pub ink_saver: bool,
}

/// `calibrate --orientation`'s values as clap reads them: a test sheet stands one way.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Standing {
    /// The paper's short side across.
    Portrait,
    /// The paper turned, its long side across.
    Landscape,
}

impl From<Standing> for Orientation {
    fn from(arg: Standing) -> Self {
        match arg {
            Standing::Portrait => Orientation::Portrait,
            Standing::Landscape => Orientation::Landscape,
        }
    }
}

/// `--cut`'s values as clap reads them; each is a `job::CutFormat`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum CutArg {
    /// SVG in millimetres: Silhouette Studio (Designer Edition) and Cricut Design Space import it.
    Svg,
    /// AutoCAD R12 DXF in millimetres: Silhouette Studio (every edition) opens it.
    Dxf,
}

impl From<CutArg> for CutFormat {
    fn from(arg: CutArg) -> Self {
        match arg {
            CutArg::Svg => CutFormat::Svg,
            CutArg::Dxf => CutFormat::Dxf,
        }
    }
}

/// `--fit`'s values as clap reads them; each is a `job::Fit`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum FitArg {
    /// Scale the art uniformly, by at most 2 %, to cover the product's card.
    Scale,
    /// Keep the art's size and widen its bleed out to the product's card.
    Extend,
}

impl From<FitArg> for Fit {
    fn from(arg: FitArg) -> Self {
        match arg {
            FitArg::Scale => Fit::Scale,
            FitArg::Extend => Fit::Extend,
        }
    }
}

/// The colours a PDF is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourMode {
    Rgb,
    Cmyk,
}

#[derive(Debug, ClapArgs)]
pub struct PreviewArgs {
    #[command(flatten)]
    pub games: Games,
    /// Draw only the card with this id (the fast path while working on one card).
    #[arg(long, value_name = "ID")]
    pub card: Option<String>,
    /// Pixels per inch of the card PNGs.
    #[arg(long, value_name = "N", default_value_t = 150, value_parser = clap::value_parser!(u32).range(10..=1200))]
    pub dpi: u32,
    /// Folder the previews go under, in OUT/<game>/preview/.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Draw each card with its bleed and the cut (red) and 3 mm safe zone (blue dashed)
    /// over it.
    #[arg(long)]
    pub guides: bool,
    /// Soft proof: also draw each card as a press prints it (through a CMYK profile and back
    /// to screen: `fogra39`, the default, `swop`, or an .icc file), with a gallery toggle,
    /// and list the colours that move more than ΔE 10.
    #[arg(long, value_name = "PROFILE", num_args = 0..=1, default_missing_value = "fogra39")]
    pub proof: Option<String>,
    /// Draw the gallery as a player with this colour-vision deficiency sees it (Machado
    /// 2009, full severity), in OUT/<game>/preview-KIND/.
    #[arg(long, value_enum, value_name = "KIND")]
    pub cvd: Option<crate::render::colour::Deficiency>,
    /// Show the cards drawn differently from an earlier preview (its output folder) at
    /// the top of the gallery, before and after side by side.
    #[arg(long, value_name = "PATH")]
    pub changed_since: Option<PathBuf>,
    /// Draw this edition: translated labels, texts and names (`[lang.LANG]`).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
}

#[derive(Debug, ClapArgs)]
pub struct WatchArgs {
    /// A built-in game id or the path to a catalogue folder.
    #[arg(value_name = "GAME|PATH")]
    pub game: String,
    /// Rebuild the A4 PDFs too, when the catalogue is valid.
    #[arg(long)]
    pub pdf: bool,
    /// Pixels per inch of the card PNGs.
    #[arg(long, value_name = "N", default_value_t = 150, value_parser = clap::value_parser!(u32).range(10..=1200))]
    pub dpi: u32,
    /// Folder the previews (and PDFs) go under, one sub-folder per game.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Draw this edition: translated labels, texts and names (`[lang.LANG]`).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
}

#[derive(Debug, ClapArgs)]
pub struct PlayArgs {
    /// A built-in game id or the path to a catalogue folder.
    #[arg(value_name = "GAME|PATH")]
    pub game: String,
    /// Players the page deals for first (one of the counts the game's [[deal]] rows deal
    /// for; the page's address changes it: `?players=3`).
    #[arg(long, value_name = "N")]
    pub players: Option<u32>,
    /// The shuffle's seed the page deals from first (`?seed=42` in its address).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u32,
    /// Folder the table goes under, in OUT/<game>/play/.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Draw this edition: translated labels, texts and names (`[lang.LANG]`).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Deal N times for each player count (or --players) and print how often each
    /// `[[odds]]` condition of game.toml holds; writes no page.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub odds: Option<u32>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum ExportTarget {
    /// Tabletop Simulator: deck sheet PNGs, the back, and a saved-object JSON under OUT/<game>/tts/.
    Tts(TtsArgs),
}

#[derive(Debug, ClapArgs)]
pub struct TtsArgs {
    #[command(flatten)]
    pub games: Games,
    /// Folder the export goes under, in OUT/<game>/tts/.
    #[arg(long, value_name = "DIR", default_value = "output")]
    pub out: PathBuf,
    /// Where TTS finds the images: a URL prefix such as `https://example.org/travfuda/`
    /// after uploading them. Default: file:/// URLs of the written files.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Draw this edition: translated labels, texts and names (`[lang.LANG]`).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
}

/// `--for`'s values: the services table's names, each with its one-line description.
fn service_names() -> clap::builder::PossibleValuesParser {
    crate::services::SERVICES
        .iter()
        .map(|s| clap::builder::PossibleValue::new(s.name).help(s.about))
        .collect::<Vec<_>>()
        .into()
}

fn parse_offset(text: &str) -> Result<(f32, f32), String> {
    let (x, y) = text.split_once(',').ok_or("write X,Y in millimetres, like `1,-0.5`")?;
    let parse =
        |v: &str| v.trim().trim_end_matches("mm").parse::<f32>().ok().filter(|v| v.abs() <= 10.0);
    match (parse(x), parse(y)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err("X and Y are millimetres between -10 and 10, like `1,-0.5`".to_string()),
    }
}

fn parse_length(text: &str) -> Result<crate::length::Length, String> {
    let l = crate::length::Length::parse(text)?;
    if l.to_mm() > 10.0 {
        return Err("a bleed over 10mm is paper thrown away".to_string());
    }
    Ok(l)
}

fn parse_board_paper(text: &str) -> Result<BoardPaper, String> {
    use crate::length::Length;
    let name = text.to_lowercase();
    if let Some(paper) = crate::paper::LARGE.iter().find(|p| p.name == name) {
        return Ok(BoardPaper { name, size: paper.size() });
    }
    let dims = name.strip_suffix("mm").ok_or("use a3, a2, a1 or WIDTHxHEIGHTmm, like 500x700mm")?;
    let (w, h) = dims.split_once('x').ok_or("use WIDTHxHEIGHTmm, like 500x700mm")?;
    let parse = |v: &str| v.trim().parse::<f32>().ok().filter(|v| *v >= 50.0 && *v <= 5000.0);
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => {
            Ok(BoardPaper { name: name.clone(), size: (Length::mm(w), Length::mm(h)) })
        }
        _ => Err("width and height must be numbers of millimetres between 50 and 5000".to_string()),
    }
}
