//! What one command is to make, resolved once from the command line ("high" arguments):
//! the games, papers, duplex, language, players, print service, press, limits, outputs
//! and where they go. Everything below the commands reads a `Job`, never a clap type.

use std::path::PathBuf;

use crate::layout::{Duplex, Orientation, Paper};
use crate::length::Length;
use crate::limits::Limits;
use crate::press::Condition;
pub use crate::press::PressSpec;
use crate::services::Service;
use crate::world::World;

/// A command's work: the same games, options and outputs for each game.
pub struct Job {
    pub games: Vec<Game>,
    pub print: Print,
    /// Bounds on the work a catalogue may ask for (`--limit`).
    pub limits: Limits,
    /// Warnings are errors (`--strict`).
    pub strict: bool,
    /// What is made of each game.
    pub output: Output,
}

/// One catalogue to work on, and how the user named it.
pub struct Game {
    pub name: String,
    pub world: World,
}

/// What is made of each game.
pub enum Output {
    /// `validate`: everything `build` does but writing; no PDF is serialised.
    Check,
    /// `build`: the print service's files under `out/<game>/`.
    Files { out: PathBuf },
    /// `preview`: PNGs, contact sheets and the gallery under `out/<game>/preview/`.
    Previews(PreviewOptions),
    /// `export tts`: Tabletop Simulator sheets and saved object under `out/<game>/tts/`.
    Tts(TtsOptions),
    /// `play`: the playtest table page and its pictures under `out/<game>/play/`, or with
    /// `--odds` the odds table.
    Play(PlayOptions),
}

/// How the playtest table is dealt and where it goes.
#[derive(Clone)]
pub struct PlayOptions {
    pub out: PathBuf,
    /// The player count the page opens with (`None`: the game's first dealt count).
    pub players: Option<u32>,
    /// The seed the page opens with.
    pub seed: u32,
    /// `--odds N`: deal N times per player count and print the table, not the page.
    pub odds: Option<u32>,
    pub lang: Option<String>,
    pub quiet: bool,
}

/// How pieces are printed: for `build` and `validate`; the defaults elsewhere.
#[derive(Clone)]
pub struct Print {
    /// Home papers, each once.
    pub papers: Vec<Paper>,
    /// The large sheet boards are printed on whole (`None`: the smallest that fits).
    pub board_paper: Option<BoardPaper>,
    /// Only these decks and sheets are built (after the whole game is validated).
    pub only: Vec<String>,
    pub players: Option<u32>,
    pub lang: Option<String>,
    pub duplex: Duplex,
    /// Which way home sheets stand (`--orientation`; `Auto`: whichever holds more).
    pub orientation: Orientation,
    /// A duplex printer's back-page correction in millimetres (right, down).
    pub back_offset: (f32, f32),
    pub service: &'static Service,
    /// Decks that share a card size and one back printed together.
    pub gang: bool,
    /// `--bleed`, over each deck's own (a service's bleed is over both).
    pub bleed: Option<Length>,
    /// CMYK for a press; `None` for RGB.
    pub press: Option<PressSpec>,
    /// Cut files beside home front sheets, and registration marks on them.
    pub cut: Option<CutFormat>,
    /// `--fit`: how a deck of no product's size is made one (`None`: it is an error).
    pub fit: Option<Fit>,
    /// `build --changed-since PATH`: only the cards whose art changed since that build.
    pub changed_since: Option<std::path::PathBuf>,
    /// `--ink-saver`: templates see `print.ink_saver` and can leave out full-bleed
    /// backgrounds and dark fills; the files are named `…-inksaver`.
    pub ink_saver: bool,
}

impl Default for Print {
    fn default() -> Self {
        Self {
            papers: vec![Paper::A4],
            board_paper: None,
            only: Vec::new(),
            players: None,
            lang: None,
            duplex: Duplex::Long,
            orientation: Orientation::Auto,
            back_offset: (0.0, 0.0),
            service: crate::services::home(),
            gang: false,
            bleed: None,
            press: None,
            cut: None,
            fit: None,
            changed_since: None,
            ink_saver: false,
        }
    }
}

impl Print {
    /// The bleed art is drawn with: the service's, `--bleed`, or (`None`) each deck's own.
    pub fn bleed(&self) -> Option<Length> {
        self.service.bleed.or(self.bleed)
    }

    /// What templates see of these options, as `print`.
    pub fn variant(&self) -> crate::model::PrintVariant {
        crate::model::PrintVariant { ink_saver: self.ink_saver, cmyk: self.press.is_some() }
    }

    /// What ends every file name of a build in language `lang`: `-ru`, `-inksaver`,
    /// `-ru-inksaver`, or nothing; so each variant's files can sit in one folder.
    pub fn file_suffix(&self, lang: Option<&str>) -> String {
        let lang = lang.map(|l| format!("-{l}")).unwrap_or_default();
        if self.ink_saver {
            format!("{lang}-inksaver")
        } else {
            lang
        }
    }
}

/// A large sheet for boards.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardPaper {
    pub name: String,
    pub size: (Length, Length),
}

/// How previews are drawn.
#[derive(Clone)]
pub struct PreviewOptions {
    pub out: PathBuf,
    pub dpi: u32,
    pub quiet: bool,
    /// Only the card with this id (`--card`).
    pub card: Option<String>,
    /// Cut and safe-zone lines over each card (`--guides`).
    pub guides: bool,
    /// Soft proof through this printing condition (`--proof`).
    pub proof: Option<Condition>,
    /// Seconds after which the gallery reloads itself (`watch`).
    pub refresh: Option<u32>,
    /// The edition drawn (`--lang`): translated labels, texts and names.
    pub lang: Option<String>,
    /// `--cvd`: every picture as a player with this colour-vision deficiency sees it.
    pub cvd: Option<crate::render::colour::Deficiency>,
    /// `--changed-since`: a previous preview's folder, to show what changed side by side.
    pub changed_since: Option<PathBuf>,
}

/// How a game is exported to Tabletop Simulator.
#[derive(Clone)]
pub struct TtsOptions {
    pub out: PathBuf,
    /// Where TTS finds the images (`None`: file:// URLs of the written files).
    pub base_url: Option<String>,
    pub quiet: bool,
    /// The edition exported (`--lang`).
    pub lang: Option<String>,
}

/// How a deck is made a product a print service prints when its size is none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Scale the art uniformly, by at most 2 %, to cover the product's card.
    Scale,
    /// Keep the art's size and widen its bleed out to the product's card.
    Extend,
}

/// The format of a cut file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutFormat {
    /// SVG in millimetres: Silhouette Studio (Designer Edition) and Cricut Design Space import it.
    Svg,
    /// AutoCAD R12 DXF in millimetres: Silhouette Studio (every edition) opens it.
    Dxf,
}
