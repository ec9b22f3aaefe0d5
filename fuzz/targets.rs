//! The fuzz targets: one file of a real catalogue replaced by the fuzzer's input, then the
//! catalogue loaded, validated (or its cards filled and parsed) and its diagnostics
//! rendered, exactly as `deckpress validate` and `build` would. Seeds are the files of the
//! built-in catalogues (`catalogues/*`) and the spreadsheets of `tests/fixtures`.
//!
//! | target | file replaced | code under test |
//! |---|---|---|
//! | `manifest` | `game.toml` | TOML parsing, the loader's resolution, the rules engine (`validate`) |
//! | `rows` | every rows CSV | the CSV reader, cell checks, then `validate` over the rows |
//! | `spreadsheet` | `markers.xlsx` | the .xlsx reader (calamine) and cell conversion, then `validate` |
//! | `template` | every card template | minijinja filling, usvg parsing and the art checks (`render::pieces`) |

#![allow(dead_code)] // each includer uses part of it

use std::path::{Path, PathBuf};

use super::engine::{kind, Target};
use deckpress::diag::{Diagnostic, Failure, Sources};

/// What the fuzzer feeds and where.
#[derive(Clone, Copy, PartialEq)]
pub enum Stage {
    Manifest,
    Rows,
    Spreadsheet,
    Template,
}

impl Stage {
    pub const ALL: [Stage; 4] = [Stage::Manifest, Stage::Rows, Stage::Spreadsheet, Stage::Template];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Manifest => "manifest",
            Stage::Rows => "rows",
            Stage::Spreadsheet => "spreadsheet",
            Stage::Template => "template",
        }
    }
}

/// A catalogue folder of its own per seed file, so that each input changes one file of
/// an otherwise intact catalogue.
struct Base {
    dir: PathBuf,
    file: String,
}

pub struct CatalogueFile {
    stage: Stage,
    bases: Vec<Base>,
    seeds: Vec<Vec<u8>>,
    _work: tempfile::TempDir,
    /// Inputs run, loaded, and validated (or, for templates, drawn into at least one tree).
    counts: std::cell::Cell<[u64; 3]>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("fuzz work folder");
    for entry in std::fs::read_dir(from).expect("catalogue folder").flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy a catalogue file");
        }
    }
}

/// Files of `dir` (relative, `/`-separated) with one of `extensions`.
fn files_with(dir: &Path, rel: &str, extensions: &[&str], out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir.join(rel)) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        if entry.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            if name != "art" {
                files_with(dir, &path, extensions, out);
            }
        } else if extensions.iter().any(|e| name.ends_with(e)) {
            out.push(path);
        }
    }
}

impl CatalogueFile {
    pub fn new(stage: Stage) -> Self {
        // tmpfs where there is one: millions of small writes.
        let shm = Path::new("/dev/shm");
        let work = if shm.is_dir() { tempfile::tempdir_in(shm) } else { tempfile::tempdir() }
            .expect("a temporary folder");
        let catalogues = repo().join("catalogues");
        let mut games: Vec<PathBuf> = std::fs::read_dir(&catalogues)
            .expect("catalogues/")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("game.toml").is_file())
            .collect();
        games.sort();
        let mut bases = Vec::new();
        let mut seeds = Vec::new();
        for game in &games {
            let files = match stage {
                Stage::Manifest => vec!["game.toml".to_string()],
                Stage::Rows => {
                    let mut csv = Vec::new();
                    files_with(game, "", &[".csv"], &mut csv);
                    csv
                }
                Stage::Spreadsheet => {
                    let mut xlsx = Vec::new();
                    files_with(game, "", &[".xlsx", ".ods"], &mut xlsx);
                    xlsx
                }
                Stage::Template => {
                    let mut svg = Vec::new();
                    files_with(game, "templates", &[".svg"], &mut svg);
                    svg
                }
            };
            for file in files {
                let dir = work.path().join(format!(
                    "{}-{}",
                    bases.len(),
                    game.file_name().unwrap_or_default().to_string_lossy()
                ));
                copy_dir(game, &dir);
                seeds.push(std::fs::read(game.join(&file)).expect("seed file"));
                bases.push(Base { dir, file });
            }
        }
        if stage == Stage::Spreadsheet {
            // The test fixtures' workbooks (merged cells, dates) in place of the first one.
            for name in ["cards.xlsx", "dated.xlsx", "merged.xlsx"] {
                if let Ok(bytes) = std::fs::read(repo().join("tests/fixtures").join(name)) {
                    seeds.push(bytes);
                }
            }
        }
        Self { stage, bases, seeds, _work: work, counts: Default::default() }
    }

    /// Loads the catalogue of base `b`, then validates or draws it; the kinds reached.
    fn check(&self, b: usize) -> Vec<u64> {
        let count = |i: usize| {
            let mut c = self.counts.get();
            c[i] += 1;
            self.counts.set(c);
        };
        count(0);
        let world = deckpress::world::World::new(&self.bases[b].dir);
        let mut kinds = Vec::new();
        let loaded = deckpress::load::load(&world, &deckpress::world::World::templates());
        let cat = match loaded {
            Ok(cat) => cat,
            Err(failure) => return outcome(failure, kinds),
        };
        kinds.push(kind("loaded"));
        count(1);
        if self.stage == Stage::Template {
            let file = &self.bases[b].file;
            // The first cards of the decks whose face or back is the file fuzzed.
            let rows: Vec<Vec<usize>> = cat
                .decks
                .iter()
                .map(|d| {
                    if [&d.face.file, &d.back.file].iter().any(|f| f.ends_with(file)) {
                        (0..d.rows.len().min(2)).collect()
                    } else {
                        Vec::new()
                    }
                })
                .collect();
            let uses = |d: usize| !rows[d].is_empty();
            let request = deckpress::render::Request {
                wanted: &|_, _| false,
                rows: Some(&rows),
                back_rows: None,
                shared_back: &uses,
                sheet_sizes: None,
                players: 2,
                lang: None,
                drawn_before: None,
            };
            let drawn = deckpress::render::pieces(&cat, &request);
            let trees = drawn
                .decks
                .iter()
                .flat_map(|d| d.faces.iter().chain(&d.backs))
                .filter(|(_, p)| p.tree.is_some())
                .count();
            if trees > 0 {
                count(2);
            }
            kinds.push(kind(&format!("trees {}", "+".repeat(trees.min(4)))));
            return report(&drawn.problems, &cat.sources, kinds);
        }
        let sources = cat.sources.clone();
        match deckpress::validate::validate(cat) {
            Ok(v) => {
                kinds.push(kind("valid"));
                count(2);
                let summary = v.summary();
                report(v.warnings(), &sources, kinds).into_iter().chain([kind(&summary)]).collect()
            }
            Err(failure) => outcome(failure, kinds),
        }
    }
}

/// The kinds of a failure; its diagnostics are rendered as `validate` prints them.
fn outcome(failure: Failure, kinds: Vec<u64>) -> Vec<u64> {
    match failure {
        Failure::Invalid(diags, sources) => report(&diags, &sources, kinds),
        Failure::Io(message) => kinds.into_iter().chain([kind(&message)]).collect(),
    }
}

fn report(diags: &[Diagnostic], sources: &Sources, mut kinds: Vec<u64>) -> Vec<u64> {
    // Rendering quotes the source line under each span: a span off the text would panic here.
    let text = sources.render(diags, false);
    kinds.extend(diags.iter().map(|d| kind(&d.message)));
    kinds.push(kind(&format!("lines {}", "+".repeat(text.lines().count().min(8)))));
    kinds
}

const TOML_TOKENS: &[&[u8]] = &[
    b"\n[[deck]]\n",
    b"\n[[rule]]\n",
    b"\n[[deal]]\n",
    b"\n[[sheet]]\n",
    b"\n[card]\n",
    b"\n[game]\n",
    b"\n[fields.x]\n",
    b"\n[lang.fr.suit]\n",
    b"\n[style]\n",
    b" = ",
    b"\"",
    b"'''",
    b"{",
    b"}",
    b"[",
    b"]",
    b", ",
    b"\n",
    b"#",
    b"\r\n",
    b"\0",
    b"\xc3\xa9",
    b"\xf0\x9f\x82\xa1",
    b"\xff",
    b"id = \"x\"\n",
    b"count = 3\n",
    b"each = \"suit\"\n",
    b"where = { suit = \"Sun\" }\n",
    b"unless = { suit = \"Hearts\" }\n",
    b"copies = 3\n",
    b"jokers = 2\n",
    b"from = \"french\"\n",
    b"bleed = \"0mm\"\n",
    b"width = \"1e30mm\"\n",
    b"height = \"-5mm\"\n",
    b"rows = \"../x.csv\"\n",
    b"face = \"/etc/passwd\"\n",
    b"unique = [\"title\"]\n",
    b"sequence = \"value\"\n",
    b"players = { min = 0, max = 4294967295 }\n",
    b"hand = 99\n",
    b"table = 0\n",
    b"size = \"poker\"\n",
    b"shape = \"circle\"\n",
    b"backs = \"per-card\"\n",
    b"sheet = \"Sheet1\"\n",
    b"page = \"landscape\"\n",
    b"template = \"templates/face.svg\"\n",
    b"kind = \"integer\"\n",
    b"values = [\"a\", \"a\"]\n",
    b"min = 1\n",
    b"max = 0\n",
    b"gap = \"2mm\"\n",
    b"delimiter = \";\"\n",
];

const CSV_TOKENS: &[&[u8]] = &[
    b",",
    b"\"",
    b"\"\"",
    b"\n",
    b"\r\n",
    b";",
    b"\t",
    b"\xef\xbb\xbf",
    b"id",
    b"qty",
    b"0",
    b"-1",
    b"1e9",
    b"{coin}",
    b"{",
    b"}",
    b"**",
    b"_",
    b"\xc3\xa9",
    b"\xff\xfe",
    b"=SUM(A1)",
    b",,,,,,,,",
    b"\"a\nb\"",
    b"\0",
    b"..",
    b"/",
    b"\\",
    b" ",
    b"\xf0\x9f\x82\xa1",
];

const SVG_TOKENS: &[&[u8]] = &[
    b"{{",
    b"}}",
    b"{%",
    b"%}",
    b"{#",
    b"#}",
    b"{% for i in range(99) %}",
    b"{% endfor %}",
    b"{% if card.suit %}",
    b"{% endif %}",
    b"{{ card.title }}",
    b"{{ card.nope }}",
    b"{{ textbox(card.title, x=0, y=0, width=100, height=50) }}",
    b"{{ textbox(\"**a** {coin} _b_\", x=0, y=0, width=1, height=1) }}",
    b"{{ text_width(card.title, 10) }}",
    b"{{ t(\"x\") }}",
    b"{{ fail(\"x\") }}",
    b"|safe",
    b"|upper",
    b"{% include \"x.svg\" %}",
    b"{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
    b"{% set x = 1 %}",
    b"<text>",
    b"</text>",
    b"<g>",
    b"</g>",
    b"<tspan>",
    b"</tspan>",
    b"<image href=\"art/x.png\" width=\"10\" height=\"10\"/>",
    b"href=\"../../etc/passwd\"",
    b"<use href=\"#a\"/>",
    b" id=\"a\"",
    b" viewBox=\"0 0 0 0\"",
    b"<!DOCTYPE svg>",
    b"<!ENTITY a \"b\">",
    b"<svg xmlns=\"http://www.w3.org/2000/svg\">",
    b"</svg>",
    b" font-size=\"1e9\"",
    b" transform=\"scale(1e30)\"",
    b" font-family=\"Nope\"",
    b" width=\"0\"",
    b" height=\"-1\"",
    b"&amp;",
    b"&#0;",
    b"<![CDATA[",
    b"]]>",
    b"<style>*{fill:red}</style>",
    b"\xff",
    b"<filter id=\"f\"><feGaussianBlur stdDeviation=\"1e6\"/></filter>",
    b" filter=\"url(#f)\"",
    b"<pattern id=\"p\" width=\"1e-9\" height=\"1e-9\"/>",
];

const ZIP_TOKENS: &[&[u8]] = &[
    b"PK\x03\x04",
    b"PK\x01\x02",
    b"PK\x05\x06",
    b"<c r=\"A1\" t=\"s\"><v>0</v></c>",
    b"<v>1e308</v>",
    b"t=\"e\"",
    b"<mergeCell ref=\"A1:Z99\"/>",
    b"\0\0\0\0",
    b"\xff\xff\xff\xff",
];

impl Target for CatalogueFile {
    fn name(&self) -> &str {
        self.stage.name()
    }

    fn seeds(&self) -> Vec<Vec<u8>> {
        self.seeds.clone()
    }

    fn tokens(&self) -> &[&[u8]] {
        match self.stage {
            Stage::Manifest => TOML_TOKENS,
            Stage::Rows => CSV_TOKENS,
            Stage::Spreadsheet => ZIP_TOKENS,
            Stage::Template => SVG_TOKENS,
        }
    }

    fn depth(&self) -> String {
        let [run, loaded, deep] = self.counts.get();
        let share = |n: u64| format!("{:.1} %", 100.0 * n as f64 / run.max(1) as f64);
        let deep_name = if self.stage == Stage::Template { "drew a card" } else { "valid" };
        format!("{} loaded, {} {deep_name}", share(loaded), share(deep))
    }

    fn run(&mut self, base: usize, input: &[u8]) -> Vec<u64> {
        // Extra seeds (the fixtures' workbooks) go in place of the last base's file.
        let b = base.min(self.bases.len() - 1);
        let path = self.bases[b].dir.join(&self.bases[b].file);
        std::fs::write(&path, input).expect("write the fuzzed file");
        self.check(b)
    }
}
