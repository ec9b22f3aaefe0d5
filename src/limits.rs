//! Bounds on the work a catalogue can ask for. A catalogue is a stranger's input: without
//! them a template loop, a decompression bomb or a deck of ten million cards hangs or
//! exhausts the machine. Each limit is far beyond any real game, is reported as a clear
//! error (exit 1, found by `validate`), and can be raised with `--limit NAME=VALUE`.

/// The limits in force for one job: the defaults, with `--limit NAME=VALUE` over them.
/// The job owns them and hands them to the catalogue's `World`, so every stage reads the
/// limits of its own job (two jobs in one process may differ).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Physical cards (rows × qty × copies) in one game; `cards`, default 100,000.
    pub cards: u64,
    /// Pixels of one image (decompression bombs); `image-pixels`, default 100,000,000.
    pub image_pixels: u64,
    /// Template instructions to fill one piece (endless loops); `template-fuel`, default
    /// 2,000,000.
    pub template_fuel: u64,
    /// Bytes of one filled template (one card's SVG); `filled-bytes`, default 8 MiB.
    pub filled_bytes: u64,
    /// Characters in one text element of a filled template; `text-chars`, default 20,000.
    pub text_chars: u64,
    /// Players a game is for (score pads, deal tables); `players`, default 100.
    pub players: u64,
    /// Pages of one rulebook (rules.md); `rules-pages`, default 200.
    pub rules_pages: u64,
    /// Bytes of one sheet `fetch` downloads; `fetch-bytes`, default 50 MiB.
    pub fetch_bytes: u64,
    /// Seconds one sheet's download may take, redirects and all; `fetch-seconds`, default 60.
    pub fetch_seconds: u64,
    /// Seconds a build waits for another process that holds its game folder's lock;
    /// `lock-seconds`, default 300.
    pub lock_seconds: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cards: 100_000,
            image_pixels: 100_000_000,
            template_fuel: 2_000_000,
            filled_bytes: 8 << 20,
            text_chars: 20_000,
            players: 100,
            rules_pages: 200,
            fetch_bytes: 50 << 20,
            fetch_seconds: 60,
            lock_seconds: 300,
        }
    }
}

/// A limit's field in `Limits`.
type Field = fn(&mut Limits) -> &mut u64;

/// Every limit: its name on the command line, what it bounds, and its field.
const NAMED: [(&str, &str, Field); 10] = [
    ("cards", "physical cards (rows × qty × copies) in one game", |l| &mut l.cards),
    ("image-pixels", "pixels of one image (decompression bombs)", |l| &mut l.image_pixels),
    ("template-fuel", "template instructions to fill one piece (endless loops)", |l| {
        &mut l.template_fuel
    }),
    ("filled-bytes", "bytes of one filled template (one card's SVG)", |l| &mut l.filled_bytes),
    ("text-chars", "characters in one text element of a filled template", |l| &mut l.text_chars),
    ("players", "players a game is for (score pads, deal tables)", |l| &mut l.players),
    ("rules-pages", "pages of one rulebook (rules.md)", |l| &mut l.rules_pages),
    ("fetch-bytes", "bytes of one sheet `fetch` downloads", |l| &mut l.fetch_bytes),
    ("fetch-seconds", "seconds one sheet's download may take", |l| &mut l.fetch_seconds),
    ("lock-seconds", "seconds to wait for another build holding the game's folder", |l| {
        &mut l.lock_seconds
    }),
];

impl Limits {
    /// The defaults with `overrides` (later ones win) over them; a name that is no limit
    /// (`parse` lets none through) changes nothing.
    pub fn new(overrides: &[(String, u64)]) -> Self {
        let mut limits = Limits::default();
        for (name, value) in overrides {
            if let Some((_, _, field)) = NAMED.iter().find(|(n, _, _)| n == name) {
                *field(&mut limits) = *value;
            }
        }
        limits
    }
}

/// `NAME=VALUE` → the override, for clap.
pub fn parse(text: &str) -> Result<(String, u64), String> {
    let names = || {
        let mut defaults = Limits::default();
        NAMED
            .iter()
            .map(|(n, what, field)| format!("{n} (default {}: {what})", field(&mut defaults)))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let (name, value) =
        text.split_once('=').ok_or_else(|| format!("write NAME=VALUE; limits: {}", names()))?;
    if !NAMED.iter().any(|(n, _, _)| *n == name) {
        return Err(format!("no limit `{name}`; limits: {}", names()));
    }
    let value = value
        .replace('_', "")
        .parse::<u64>()
        .map_err(|_| format!("`{value}` is not a whole number"))?;
    Ok((name.to_string(), value))
}
