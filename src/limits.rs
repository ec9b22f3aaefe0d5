//! Bounds on the work a catalogue can ask for. A catalogue is a stranger's input: without
//! them a template loop, a decompression bomb or a deck of ten million cards hangs or
//! exhausts the machine. Each limit is far beyond any real game, is reported as a clear
//! error (exit 1, found by `validate`), and can be raised with `--limit NAME=VALUE`.

/// Every limit, its default and what it bounds.
pub const LIMITS: [(&str, u64, &str); 7] = [
    ("cards", 100_000, "physical cards (rows × qty × copies) in one game"),
    ("image-pixels", 100_000_000, "pixels of one image (decompression bombs)"),
    ("template-fuel", 2_000_000, "template instructions to fill one piece (endless loops)"),
    ("filled-bytes", 8 << 20, "bytes of one filled template (one card's SVG)"),
    ("text-chars", 20_000, "characters in one text element of a filled template"),
    ("players", 100, "players a game is for (score pads, deal tables)"),
    ("rules-pages", 200, "pages of one rulebook (rules.md)"),
];

/// The limits in force for one job: the defaults, with `--limit NAME=VALUE` over them.
/// The job owns them and hands them to the catalogue's `World`, so every stage reads the
/// limits of its own job (two jobs in one process may differ).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    overrides: Vec<(String, u64)>,
}

impl Limits {
    /// The defaults with `overrides` (later ones win) over them.
    pub fn new(overrides: &[(String, u64)]) -> Self {
        Self { overrides: overrides.to_vec() }
    }

    /// The value of a limit in force.
    pub fn get(&self, name: &str) -> u64 {
        let default = LIMITS.iter().find(|(n, _, _)| *n == name).map_or(u64::MAX, |(_, v, _)| *v);
        self.overrides.iter().rev().find(|(n, _)| n == name).map_or(default, |(_, v)| *v)
    }
}
/// `NAME=VALUE` → the override, for clap.
pub fn parse(text: &str) -> Result<(String, u64), String> {
    let names = || {
        LIMITS
            .iter()
            .map(|(n, v, what)| format!("{n} (default {v}: {what})"))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let (name, value) =
        text.split_once('=').ok_or_else(|| format!("write NAME=VALUE; limits: {}", names()))?;
    if !LIMITS.iter().any(|(n, _, _)| *n == name) {
        return Err(format!("no limit `{name}`; limits: {}", names()));
    }
    let value = value
        .replace('_', "")
        .parse::<u64>()
        .map_err(|_| format!("`{value}` is not a whole number"))?;
    Ok((name.to_string(), value))
}
