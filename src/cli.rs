//! The command line as the user typed it ("low" arguments), parsed by clap. `app`
//! resolves these into what to build.

use std::path::PathBuf;

use clap::{Args as ClapArgs, Parser, Subcommand};

use crate::layout::{Duplex, Paper};

#[derive(Debug, Parser)]
#[command(name = "deckpress", version, about = "Turns card games described as data into validated, print-ready PDF sheets")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate catalogues and write print-ready PDFs under OUT/<game>/.
    Build(BuildArgs),
    /// Check catalogues against their games' rules (exit 0 valid, 1 invalid, 2 usage or I/O error).
    Validate(Games),
    /// List the built-in games, one id a line.
    List,
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
    /// Paper size; repeat or separate with commas for several (`--paper a4,letter`).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "a4")]
    pub paper: Vec<Paper>,
    /// Print translated labels (e.g. `ru` for Russian card indices) where the catalogue has them.
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// How back pages are arranged: long-edge flip, short-edge flip, or none (fronts, then backs).
    #[arg(long, value_enum, default_value = "long")]
    pub duplex: Duplex,
}
