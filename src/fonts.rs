//! Fonts: the bundled faces (OFL, see fonts/OFL.txt), compiled into the binary so a build
//! never depends on the machine it runs on, plus a catalogue's own fonts. A template that
//! asks for a family nobody has, or for an italic or bold face its family lacks, is told
//! so instead of silently getting another font.

use std::collections::BTreeSet;
use std::sync::Arc;

use usvg::fontdb::{Database, Family, Query, Source, Stretch, Style, Weight};

/// The family templates get when they name none.
pub const DEFAULT_FAMILY: &str = "Noto Sans";

const FONTS: [&[u8]; 6] = [
    include_bytes!("../fonts/NotoSans-Regular.ttf"),
    include_bytes!("../fonts/NotoSans-Bold.ttf"),
    // `font-style="italic"` works out of the box.
    include_bytes!("../fonts/NotoSans-Italic.ttf"),
    include_bytes!("../fonts/NotoSans-BoldItalic.ttf"),
    // ⎈ and other technical symbols.
    include_bytes!("../fonts/NotoSansSymbols-Regular.ttf"),
    // ♠ ♥ ♣ ♦ ✿ ★ and the other suit and dingbat symbols.
    include_bytes!("../fonts/NotoSansSymbols2-Regular.ttf"),
];

/// A font database holding the bundled fonts and `extra` ones (a catalogue's own, each
/// shared, not copied).
pub fn database(extra: &[Arc<Vec<u8>>]) -> Arc<Database> {
    let mut db = Database::new();
    for data in FONTS {
        db.load_font_source(Source::Binary(Arc::new(data)));
    }
    for data in extra {
        db.load_font_source(Source::Binary(data.clone()));
    }
    db.set_sans_serif_family(DEFAULT_FAMILY);
    db.set_serif_family(DEFAULT_FAMILY);
    db.set_monospace_family(DEFAULT_FAMILY);
    db.set_cursive_family(DEFAULT_FAMILY);
    db.set_fantasy_family(DEFAULT_FAMILY);
    Arc::new(db)
}

/// The bundled fonts alone, loaded once per run: for deckpress's own page marks, slugs and
/// contact sheets, drawn on every page.
pub fn bundled() -> Arc<Database> {
    static BUNDLED: std::sync::OnceLock<Arc<Database>> = std::sync::OnceLock::new();
    BUNDLED.get_or_init(|| database(&[])).clone()
}

/// The families of a font file, or `None` when it is not a font fontdb can read.
pub fn families_in(data: &Arc<Vec<u8>>) -> Option<Vec<String>> {
    // A collection's header says how many fonts it holds, and each one's offset: a
    // count its file cannot hold (2^32 claimed in a few bytes) is no font, not a loop.
    if let Some(header) = data.strip_prefix(b"ttcf") {
        let count = u32::from_be_bytes(header.get(4..8)?.try_into().ok()?) as usize;
        if count == 0 || count > MAX_FONTS_IN_COLLECTION || 12 + count * 4 > data.len() {
            return None;
        }
    }
    let mut db = Database::new();
    db.load_font_source(Source::Binary(data.clone()));
    let names: BTreeSet<String> =
        db.faces().filter_map(|f| f.families.first().map(|(n, _)| n.clone())).collect();
    (!names.is_empty()).then(|| names.into_iter().collect())
}

/// Why a font file cannot be embedded in a PDF, if it cannot: a face whose character map
/// gives a character a glyph the face does not have (fontdb read its names and `validate`
/// passed; the PDF writer failed: "failed to subset font: malformed font", naming no
/// font), or whose outlines of the Latin letters and digits it maps cannot be read (a
/// glyph table cut short: its text fell back to another font without a word). Each face
/// is parsed once, its map walked once.
pub fn unembeddable(data: &[u8]) -> Option<String> {
    let faces =
        ttf_parser::fonts_in_collection(data).unwrap_or(1).min(MAX_FONTS_IN_COLLECTION as u32);
    for index in 0..faces {
        let face = match ttf_parser::Face::parse(data, index) {
            Ok(face) => face,
            Err(e) => return Some(format!("its face {index} cannot be read ({e})")),
        };
        let glyphs = face.number_of_glyphs();
        let Some(cmap) = face.tables().cmap else { continue };
        for table in cmap.subtables {
            let mut bad = None;
            table.codepoints(|c| {
                if bad.is_none() {
                    bad = table.glyph_index(c).filter(|g| g.0 >= glyphs).map(|g| (c, g.0));
                }
            });
            if let Some((c, g)) = bad {
                return Some(format!(
                    "its character map gives U+{c:04X} glyph {g}, but the face has only {glyphs} glyphs"
                ));
            }
        }
        if let Some(why) = unreadable_outline(&face) {
            return Some(why);
        }
    }
    None
}

/// The first Latin letter or digit the face maps whose outline cannot be read, in a face
/// drawn by outlines (`glyf` or CFF; a colour-bitmap face has none to read). A letter or
/// digit is never an empty glyph, so none is taken for damage.
fn unreadable_outline(face: &ttf_parser::Face) -> Option<String> {
    let tables = face.tables();
    if tables.glyf.is_none() && tables.cff.is_none() && tables.cff2.is_none() {
        return None;
    }
    struct Ignore;
    impl ttf_parser::OutlineBuilder for Ignore {
        fn move_to(&mut self, _: f32, _: f32) {}
        fn line_to(&mut self, _: f32, _: f32) {}
        fn quad_to(&mut self, _: f32, _: f32, _: f32, _: f32) {}
        fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: f32) {}
        fn close(&mut self) {}
    }
    ('A'..='Z').chain('a'..='z').chain('0'..='9').find_map(|c| {
        let glyph = face.glyph_index(c)?;
        face.outline_glyph(glyph, &mut Ignore).is_none().then(|| {
            format!("its outline of `{c}` (glyph {}) cannot be read: the glyph data is cut short or damaged", glyph.0)
        })
    })
}

/// Fonts one collection (.ttc) may hold: the largest shipped (Noto CJK) hold a few dozen.
const MAX_FONTS_IN_COLLECTION: usize = 1024;

/// Every family name a template can use, sorted.
pub fn families(db: &Database) -> Vec<String> {
    let names: BTreeSet<String> =
        db.faces().filter_map(|f| f.families.first().map(|(n, _)| n.clone())).collect();
    names.into_iter().collect()
}

/// What a text asked for that the fonts cannot give.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum FontProblem {
    /// No font has any of the named families: the text would fall back to another font.
    UnknownFamily(String),
    /// The family has no face of this style ("italic", "bold"): it prints upright or regular.
    MissingStyle { family: String, style: &'static str },
    /// A character of a bold or italic text that only a face of another weight or style
    /// has (a symbol from a fallback font): it prints regular or upright among the rest.
    FallbackStyle { character: char, family: String, style: &'static str },
}

/// The font problems of the texts of a parsed tree, each once.
pub fn check(texts: &[&usvg::Text], db: &Database) -> Vec<FontProblem> {
    let spans = texts.iter().flat_map(|t| t.chunks()).flat_map(|c| c.spans());
    let mut problems: BTreeSet<FontProblem> =
        spans.clone().filter_map(|span| check_font(span.font(), db)).collect();
    for chunk in texts.iter().flat_map(|t| t.chunks()) {
        for span in chunk.spans() {
            let text = chunk.text().get(span.start()..span.end()).unwrap_or_default();
            problems.extend(fallback_styles(span.font(), text, db));
        }
    }
    problems.into_iter().collect()
}

/// The characters of a bold or italic span that no face of its weight and style has,
/// but a face of another does (usvg then draws them from it). Only characters beyond
/// ASCII are looked at: the catalogue's own fonts have the letters; symbols come from
/// fallback fonts.
fn fallback_styles(font: &usvg::Font, text: &str, db: &Database) -> Vec<FontProblem> {
    let bold = font.weight() >= 600;
    let italic = font.style() != usvg::FontStyle::Normal;
    if !(bold || italic) || text.is_ascii() {
        return Vec::new();
    }
    let has = |id, c: char| {
        db.with_face_data(id, |data, index| {
            ttf_parser::Face::parse(data, index).ok().and_then(|f| f.glyph_index(c)).is_some()
        })
        .unwrap_or(false)
    };
    let styled = |face: &usvg::fontdb::FaceInfo| {
        (!bold || face.weight.0 >= 600) && (!italic || face.style != Style::Normal)
    };
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    for c in text.chars().filter(|c| !c.is_ascii() && !c.is_whitespace()) {
        if !seen.insert(c) || db.faces().any(|f| styled(f) && has(f.id, c)) {
            continue;
        }
        if let Some(face) = db.faces().find(|f| has(f.id, c)) {
            let family = face.families.first().map(|f| f.0.clone()).unwrap_or_default();
            let style = if bold && face.weight.0 < 600 { "bold" } else { "italic" };
            found.push(FontProblem::FallbackStyle { character: c, family, style });
        }
    }
    found
}

fn check_font(font: &usvg::Font, db: &Database) -> Option<FontProblem> {
    let named: Vec<&str> = font
        .families()
        .iter()
        .filter_map(|f| match f {
            usvg::FontFamily::Named(name) => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let has = |name: &str| {
        db.faces().any(|f| f.families.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)))
    };
    let Some(family) = named.iter().find(|n| has(n)) else {
        // Only generic families (sans-serif): they map to the default family.
        return named.first().map(|n| FontProblem::UnknownFamily(n.to_string()));
    };
    let style = match font.style() {
        usvg::FontStyle::Normal => Style::Normal,
        usvg::FontStyle::Italic => Style::Italic,
        usvg::FontStyle::Oblique => Style::Oblique,
    };
    let query = Query {
        families: &[Family::Name(family)],
        weight: Weight(font.weight()),
        stretch: Stretch::Normal,
        style,
    };
    let face = db.face(db.query(&query)?)?;
    let family = family.to_string();
    if style != Style::Normal && face.style == Style::Normal {
        Some(FontProblem::MissingStyle { family, style: "italic" })
    } else if font.weight() >= 600 && face.weight.0 < 600 {
        Some(FontProblem::MissingStyle { family, style: "bold" })
    } else {
        None
    }
}
