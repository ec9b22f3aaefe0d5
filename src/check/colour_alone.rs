//! Told apart by colour alone? For each enum field (suit, colour, …), two cards that differ
//! in it and as little else as the deck has are rendered and compared as players with
//! each colour-vision deficiency see them.

use resvg::tiny_skia::{Pixmap, Transform};

use super::colour::Deficiency;
use super::legibility::MM_PER_PIXEL;
use super::raster::Rasteriser;

/// The piece rendered at `MM_PER_PIXEL`.
/// The piece as cut, rendered at `MM_PER_PIXEL`: without the `bleed_mm` the cut takes off
/// each side.
fn render(tree: &usvg::Tree, bleed_mm: f32, pictures: &Rasteriser) -> Option<Pixmap> {
    let size = tree.size();
    let scale = 25.4 / 96.0 / MM_PER_PIXEL;
    // usvg's units are 1/96 in.
    let bleed = bleed_mm / 25.4 * 96.0;
    let cut = |side: f32| ((side - 2.0 * bleed).max(0.0) * scale).ceil() as u32;
    let (w, h) = (cut(size.width()), cut(size.height()));
    let mut pixmap = Pixmap::new(w.max(1), h.max(1))?;
    let at = Transform::from_scale(scale, scale).pre_translate(-bleed, -bleed);
    pictures.render(tree, at, &mut pixmap.as_mut());
    Some(pixmap)
}

/// How two renders of cards that differ in one field compare, for each deficiency: the
/// area (mm²) that still tells them apart, and the mean CIEDE2000 over the pixels that
/// differ in normal vision.
#[derive(Debug, Clone, Copy)]
pub struct Apart {
    pub deficiency: Deficiency,
    /// Area (mm²) where the two cards differ clearly in normal vision.
    pub normal_mm2: f32,
    /// Of that, the area that still differs clearly for this deficiency.
    pub seen_mm2: f32,
    /// Mean ΔE (CIEDE2000) between the two, as this deficiency sees them, over the area
    /// that differs in normal vision.
    pub delta_e: f64,
}

/// A pixel difference clearly seen (CIEDE2000).
const CLEAR: f64 = 10.0;

/// A piece as cut, rendered at `MM_PER_PIXEL` for comparing, each pixel over white paper:
/// what the bleed shows is cut away before a player sees it.
pub struct OnPaper {
    size: (u32, u32),
    /// 0xRRGGBB: two pictures are compared a word a pixel.
    rgb: Vec<u32>,
    /// The pixels (x0, y0, x1, y1) of what a player reads rather than sees at a glance:
    /// letters and digits (a name, a number), and symbols too small to see across a table
    /// (`GLYPH_MM`). A symbol as large (♠, ★), in a text of its own or beside a name, is art.
    words: Vec<[u32; 4]>,
}

/// The height of ink from which a symbol printed as text (a suit glyph) is seen at a
/// glance: 4 mm is 20 minutes of arc at 70 cm, a card on the table at arm's length; 20' is
/// the character height ANSI/HFES 100-2007 prefers (16' its least), for letters that are
/// read, so a symbol that is only seen is not held to more.
pub const GLYPH_MM: f32 = 4.0;

impl OnPaper {
    pub fn of(tree: &usvg::Tree, bleed_mm: f32, pictures: &Rasteriser) -> Option<OnPaper> {
        let picture = render(tree, bleed_mm, pictures)?;
        let rgb = pixels::over_white_packed(picture.data());
        let (w, h) = (picture.width(), picture.height());
        let scale = 25.4 / 96.0 / MM_PER_PIXEL;
        let bleed = bleed_mm / 25.4 * 96.0;
        // One pixel more all round: the letters' antialiased edges.
        let pixel = |v: f32, round: fn(f32) -> f32, out: f32, most: u32| {
            (round((v - bleed) * scale) + out).clamp(0.0, most as f32) as u32
        };
        let words = read_boxes(tree)
            .into_iter()
            .map(|b| {
                [
                    pixel(b.left(), f32::floor, -1.0, w),
                    pixel(b.top(), f32::floor, -1.0, h),
                    pixel(b.right(), f32::ceil, 1.0, w),
                    pixel(b.bottom(), f32::ceil, 1.0, h),
                ]
            })
            .collect();
        Some(OnPaper { size: (w, h), rgb, words })
    }
}

/// The boxes, in the tree's units, of the ink a player reads: each run of letters and
/// digits on a line, and each symbol under `GLYPH_MM` tall. Measured glyph by glyph from
/// the fonts' outlines, so that a suit glyph beside its name is not taken for part of it.
fn read_boxes(tree: &usvg::Tree) -> Vec<usvg::Rect> {
    let db = tree.fontdb();
    // usvg's units are 1/96 in.
    let glyph_min = GLYPH_MM / 25.4 * 96.0;
    let mut boxes = Vec::new();
    for text in super::texts_but(tree, |_| false) {
        let at = text.abs_transform();
        let mut run: Option<usvg::Rect> = None;
        for span in text.layouted().iter().filter(|s| s.visible) {
            for glyph in &span.positioned_glyphs {
                // A space has no ink, and neither joins nor ends a run.
                let Some(ink) = glyph_ink(db, glyph, at) else { continue };
                let read =
                    glyph.text.chars().any(char::is_alphanumeric) || ink.height() < glyph_min;
                run = match (run, read) {
                    (Some(r), true) if r.top() < ink.bottom() && ink.top() < r.bottom() => {
                        usvg::Rect::from_ltrb(
                            r.left().min(ink.left()),
                            r.top().min(ink.top()),
                            r.right().max(ink.right()),
                            r.bottom().max(ink.bottom()),
                        )
                    }
                    (r, true) => {
                        boxes.extend(r);
                        Some(ink)
                    }
                    (r, false) => {
                        boxes.extend(r);
                        None
                    }
                };
            }
        }
        boxes.extend(run);
    }
    boxes
}

/// A glyph's ink as its font draws it (its outline's box), placed by `at` on the tree.
fn glyph_ink(
    db: &usvg::fontdb::Database,
    glyph: &usvg::layout::PositionedGlyph,
    at: usvg::Transform,
) -> Option<usvg::Rect> {
    let b = db.with_face_data(glyph.font, |data, index| {
        ttf_parser::Face::parse(data, index)
            .ok()?
            .glyph_bounding_box(ttf_parser::GlyphId(glyph.id.0))
    })??;
    let mut corners =
        [(b.x_min, b.y_min), (b.x_max, b.y_min), (b.x_min, b.y_max), (b.x_max, b.y_max)]
            .map(|(x, y)| usvg::tiny_skia_path::Point::from_xy(f32::from(x), f32::from(y)));
    at.pre_concat(glyph.outline_transform()).map_points(&mut corners);
    usvg::Rect::from_points(&corners)
}

fn unpack(rgb: u32) -> [u8; 3] {
    [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8]
}

/// CIELAB in normal vision, then as each of `Deficiency::ALL` sees it.
type Views = [[f64; 3]; 4];

fn views(rgb: [u8; 3]) -> Views {
    let [a, b, c] = Deficiency::ALL.map(|d| super::colour::lab(d.simulate(rgb)));
    [super::colour::lab(rgb), a, b, c]
}

/// A pixel's colour in the first picture and in the second.
type ColourPair = ([u8; 3], [u8; 3]);

/// Where two pictures of the same size differ: each pair of colours with the number of
/// pixels showing it.
type Differences = Vec<(ColourPair, usize)>;

fn differences(pa: &OnPaper, pb: &OnPaper) -> Option<Differences> {
    if pa.size != pb.size {
        return None;
    }
    Some(differing(&pa.rgb, &pb.rgb))
}

/// Where two pictures differ but in their words (`whole`, less the differences inside
/// either card's words): the art a player tells them apart by at a glance. `None` when
/// they have no words. Only the words' pixels are read again.
fn differences_but_words(pa: &OnPaper, pb: &OnPaper, whole: &Differences) -> Option<Differences> {
    if pa.size != pb.size || (pa.words.is_empty() && pb.words.is_empty()) {
        return None;
    }
    let (width, height) = (pa.size.0 as usize, pa.size.1 as usize);
    let rects: Vec<[u32; 4]> = pa.words.iter().chain(&pb.words).copied().collect();
    let mut in_words: rustc_hash::FxHashMap<ColourPair, usize> = Default::default();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for y in 0..height {
        // The row's parts under some word, each pixel once however many words cover it.
        spans.clear();
        spans.extend(
            rects
                .iter()
                .filter(|r| (r[1] as usize..r[3] as usize).contains(&y))
                .map(|r| (r[0] as usize, (r[2] as usize).min(width))),
        );
        spans.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for &(x0, x1) in &spans {
            match merged.last_mut() {
                Some(last) if x0 <= last.1 => last.1 = last.1.max(x1),
                _ => merged.push((x0, x1)),
            }
        }
        for (x0, x1) in merged.into_iter().filter(|(x0, x1)| x0 < x1) {
            let at = y * width;
            let (a, b) = (&pa.rgb[at + x0..at + x1], &pb.rgb[at + x0..at + x1]);
            for (p, n) in pixels::changed_runs(a, b) {
                let pair = (unpack((p >> 32) as u32), unpack(p as u32));
                *in_words.entry(pair).or_insert(0) += n;
            }
        }
    }
    Some(
        whole
            .iter()
            .map(|&(pair, n)| (pair, n - in_words.get(&pair).copied().unwrap_or(0).min(n)))
            .filter(|&(_, n)| n > 0)
            .collect(),
    )
}

/// Each pair of colours where two pictures of the same size differ, with its pixels.
fn differing(a: &[u32], b: &[u32]) -> Differences {
    // Keyed by both colours in one word.
    let mut pairs: rustc_hash::FxHashMap<u64, usize> = Default::default();
    // Most of two cards' pixels are the same: only the others are looked at, a run of
    // one pair of colours at a time.
    for (p, n) in pixels::changed_runs(a, b) {
        *pairs.entry(p).or_insert(0) += n;
    }
    let mut pairs: Differences =
        pairs.into_iter().map(|(p, n)| ((unpack((p >> 32) as u32), unpack(p as u32)), n)).collect();
    // In one order whatever the hashing: the mean ΔE is summed in it.
    pairs.sort_unstable();
    pairs
}

/// ΔE (CIEDE2000) between two colours in normal vision, then as each of
/// `Deficiency::ALL` sees them; only the first when that is not clearly seen.
type Deltas = [f64; 4];

fn deltas(x: &Views, y: &Views) -> Deltas {
    use super::colour::delta_e_lab;
    let normal = delta_e_lab(x[0], y[0]);
    if normal <= CLEAR {
        return [normal, 0.0, 0.0, 0.0];
    }
    [normal, delta_e_lab(x[1], y[1]), delta_e_lab(x[2], y[2]), delta_e_lab(x[3], y[3])]
}

/// Compares two pieces as each deficiency sees them, from where they differ and each
/// pair of colours' differences.
fn apart(
    differences: &Differences,
    deltas: &rustc_hash::FxHashMap<ColourPair, Deltas>,
) -> Vec<Apart> {
    let mm2 = MM_PER_PIXEL * MM_PER_PIXEL;
    let differing: Vec<(&Deltas, usize)> = differences
        .iter()
        .filter_map(|(pair, n)| Some((deltas.get(pair)?, *n)))
        .filter(|(d, _)| d[0] > CLEAR)
        .collect();
    let count: usize = differing.iter().map(|d| d.1).sum();
    let normal_mm2 = count as f32 * mm2;
    Deficiency::ALL
        .iter()
        .enumerate()
        .map(|(k, &deficiency)| {
            let mut seen = 0usize;
            let mut total = 0.0;
            for (d, n) in &differing {
                let d = d[k + 1];
                total += d * *n as f64;
                if d > CLEAR {
                    seen += n;
                }
            }
            Apart {
                deficiency,
                normal_mm2,
                seen_mm2: seen as f32 * mm2,
                delta_e: if count == 0 { 0.0 } else { total / count as f64 },
            }
        })
        .collect()
}

/// Enum fields with more values than this are not compared pair by pair.
const MAX_VALUES: usize = 12;

/// Two cards of a deck that differ in an enum field's value and as little else as could
/// be found: the pair the colour-alone check compares.
#[derive(Debug, Clone)]
pub struct Pair {
    pub deck: usize,
    pub field: String,
    pub values: (String, String),
    pub rows: (usize, usize),
}

/// For each enum field of each deck, one pair of cards per pair of its values that differ
/// in that field and as few others as can be found. Nothing is drawn: `colour_alone`
/// compares them once their pictures are at hand.
pub fn colour_pairs(cat: &crate::model::Catalogue) -> Vec<Pair> {
    use crate::model::FieldKind;
    let mut pairs = Vec::new();
    if !cat.legibility.colour_alone || super::off("colour-alone") {
        return pairs;
    }
    let enums: Vec<&crate::model::Field> = cat
        .fields
        .iter()
        .filter(|f| matches!(&f.kind, FieldKind::Enum(v) if v.len() <= MAX_VALUES))
        .collect();
    for (d, deck) in cat.decks.iter().enumerate() {
        for field in &enums {
            let FieldKind::Enum(values) = &field.kind else { continue };
            let others: Vec<&str> = cat
                .fields
                .iter()
                .map(|f| f.name.as_str())
                .filter(|name| *name != field.name)
                .collect();
            // Each value's designs: its rows told apart by the other fields, the first
            // row of each; many cards share a design, so pairs are sought among far
            // fewer designs than rows.
            let designs: Vec<Designs> = values
                .iter()
                .map(|v| Designs::of(deck, &field.name, v, &others))
                .filter(|designs| !designs.first.is_empty())
                .collect();
            for (i, a) in designs.iter().enumerate() {
                for b in &designs[i + 1..] {
                    if let Some((x, y)) = a.closest(b, deck, &others) {
                        pairs.push(Pair {
                            deck: d,
                            field: field.name.clone(),
                            values: (a.value.clone(), b.value.clone()),
                            rows: (x, y),
                        });
                    }
                }
            }
        }
    }
    pairs
}

/// Designs compared at most, a value against a value: beyond it, the first designs stand
/// for the rest, so the check stays linear in cards whatever a catalogue holds.
const MAX_DESIGN_PAIRS: usize = 4096;

/// The rows of a deck with one value of a field, one per design (the other fields' values),
/// in the deck's order.
struct Designs {
    value: String,
    /// The first row of each design, in row order.
    first: Vec<usize>,
    /// Each design's first row, keyed by the other fields' values.
    by_look: rustc_hash::FxHashMap<Vec<String>, usize>,
}

impl Designs {
    fn of(deck: &crate::model::Deck, field: &str, value: &str, others: &[&str]) -> Designs {
        let mut first = Vec::new();
        let mut by_look: rustc_hash::FxHashMap<Vec<String>, usize> = Default::default();
        for (i, row) in deck.rows.iter().enumerate().filter(|(_, r)| r.value(field) == value) {
            let look: Vec<String> = others.iter().map(|f| row.value(f).to_string()).collect();
            by_look.entry(look).or_insert_with(|| {
                first.push(i);
                i
            });
        }
        Designs { value: value.to_string(), first, by_look }
    }

    /// The two rows, one of each, that differ in the fewest other fields (the earliest
    /// such): a card of `other` of the very same design when there is one, found by its look.
    fn closest(
        &self,
        other: &Designs,
        deck: &crate::model::Deck,
        others: &[&str],
    ) -> Option<(usize, usize)> {
        let same = self.first.iter().find_map(|&i| {
            let look: Vec<String> =
                others.iter().map(|f| deck.rows[i].value(f).to_string()).collect();
            other.by_look.get(&look).map(|&j| (i, j))
        });
        if same.is_some() {
            return same;
        }
        let differ = |i: usize, j: usize| {
            let (x, y) = (&deck.rows[i], &deck.rows[j]);
            others.iter().filter(|f| x.value(f) != y.value(f)).count()
        };
        let side = (MAX_DESIGN_PAIRS as f64).sqrt() as usize;
        let (mine, theirs) = match self.first.len() * other.first.len() <= MAX_DESIGN_PAIRS {
            true => (&self.first[..], &other.first[..]),
            false => (
                &self.first[..self.first.len().min(side)],
                &other.first[..other.first.len().min(side)],
            ),
        };
        mine.iter()
            .flat_map(|&i| theirs.iter().map(move |&j| (differ(i, j), i, j)))
            .min()
            .map(|(_, i, j)| (i, j))
    }
}

/// The pairs compared as each colour deficiency sees them, from the cards' pictures
/// (deck, row): a warning where two values that differ clearly in normal vision become
/// nearly the same card (told apart by colour alone), or where only their words still
/// differ (told apart by colour and words alone: a player must read what others see at a
/// glance), unless `[check] accept_colour_alone` names the field.
pub fn colour_alone(
    cat: &crate::model::Catalogue,
    pairs: &[Pair],
    pictures: &rustc_hash::FxHashMap<(usize, usize), Option<OnPaper>>,
) -> Vec<crate::diag::Diagnostic> {
    // Two fields can pick the same two cards: each pair of cards is compared once.
    let mut cards: Vec<(usize, (usize, usize))> = pairs.iter().map(|p| (p.deck, p.rows)).collect();
    cards.sort_unstable();
    cards.dedup();
    let compared = compare(&cards, pictures);
    let mut found = Vec::new();
    for pair in pairs {
        let Ok(at) = cards.binary_search(&(pair.deck, pair.rows)) else { continue };
        let (Some(whole), art) = &compared[at] else { continue };
        let normal = whole.first().map_or(0.0, |v| v.normal_mm2);
        if normal < 4.0 {
            continue; // hardly different at all: not a colour question
        }
        let merged = |v: &&Apart| v.seen_mm2 < (0.02 * v.normal_mm2).min(10.0);
        let alone: Vec<&Apart> = whole.iter().filter(merged).collect();
        for v in &alone {
            found.push(said_alone(cat, pair, v));
        }
        if !alone.is_empty() || cat.legibility.accept_colour_alone.contains(&pair.field) {
            continue;
        }
        // The art but the words: different in normal vision, the same for a deficiency.
        let Some(art) = art.as_ref().filter(|a| a.first().is_some_and(|v| v.normal_mm2 >= 4.0))
        else {
            continue;
        };
        let merged: Vec<&Apart> = art.iter().filter(merged).collect();
        if !merged.is_empty() {
            found.push(said_with_words(cat, pair, &merged));
        }
    }
    found
}

/// For each pair of cards, how they compare for each deficiency: whole, and but for their
/// words (`None` when they have none, or could not be compared).
type Compared = (Option<Vec<Apart>>, Option<Vec<Apart>>);

fn compare(
    cards: &[(usize, (usize, usize))],
    pictures: &rustc_hash::FxHashMap<(usize, usize), Option<OnPaper>>,
) -> Vec<Compared> {
    let compared_cards = crate::parallel::par_map(cards, |&(deck, (a, b))| {
        let picture = |row| pictures.get(&(deck, row))?.as_ref();
        let (Some(pa), Some(pb)) = (picture(a), picture(b)) else { return (None, None) };
        let whole = differences(pa, pb);
        let art = whole.as_ref().and_then(|whole| differences_but_words(pa, pb, whole));
        (whole, art)
    });
    // Each colour is seen through each deficiency once, and each pair of colours
    // compared once, however many cards show them.
    let mut pairs_met: Vec<ColourPair> = compared_cards
        .iter()
        .flat_map(|(whole, art)| whole.iter().chain(art).flatten())
        .map(|(pair, _)| *pair)
        .collect();
    pairs_met.sort_unstable();
    pairs_met.dedup();
    let mut colours: Vec<[u8; 3]> = pairs_met.iter().flat_map(|(x, y)| [*x, *y]).collect();
    colours.sort_unstable();
    colours.dedup();
    let seen: rustc_hash::FxHashMap<[u8; 3], Views> =
        colours.iter().copied().zip(crate::parallel::par_map(&colours, |&c| views(c))).collect();
    let measured = crate::parallel::par_map(&pairs_met, |(x, y)| deltas(&seen[x], &seen[y]));
    let deltas: rustc_hash::FxHashMap<ColourPair, Deltas> =
        pairs_met.into_iter().zip(measured).collect();
    compared_cards
        .iter()
        .map(|(whole, art)| {
            (whole.as_ref().map(|d| apart(d, &deltas)), art.as_ref().map(|d| apart(d, &deltas)))
        })
        .collect()
}

/// Two values told apart by colour alone: for `v`'s deficiency, nearly the same card.
fn said_alone(cat: &crate::model::Catalogue, pair: &Pair, v: &Apart) -> crate::diag::Diagnostic {
    let deck = &cat.decks[pair.deck];
    let (field, (a, b)) = (&pair.field, &pair.values);
    let (ra, rb) = (&deck.rows[pair.rows.0], &deck.rows[pair.rows.1]);
    crate::diag::Diagnostic::warning(
        &deck.rows_file,
        ra.spans.get(field),
        format!(
            "`{field}` values `{a}` and `{b}` are told apart by colour alone: for {} they are nearly the same card",
            v.deficiency.name()
        ),
    )
    .about(crate::diag::Topic::ColourAlone)
    .with_note(format!(
        "cards `{}` and `{}` of deck `{}` differ on {:.0} mm² in normal vision; for {} on {:.1} mm², mean ΔE {:.1} (CIEDE2000) where they differ",
        ra.id, rb.id, deck.id, v.normal_mm2, v.deficiency.name(), v.seen_mm2, v.delta_e
    ))
    .with_note("about 1 man in 12 sees colours this way: add a glyph or a pattern to each card (a name helps those who read it); `deckpress preview --cvd deuteranopia` shows the deck as they see it")
}

/// Two values whose art, but for its words, is told apart by colour alone: for the
/// deficiencies `merged`, only the words tell them apart.
fn said_with_words(
    cat: &crate::model::Catalogue,
    pair: &Pair,
    merged: &[&Apart],
) -> crate::diag::Diagnostic {
    let deck = &cat.decks[pair.deck];
    let (field, (a, b)) = (&pair.field, &pair.values);
    let (ra, rb) = (&deck.rows[pair.rows.0], &deck.rows[pair.rows.1]);
    let names: Vec<&str> = merged.iter().map(|v| v.deficiency.name()).collect();
    let v = merged[0];
    crate::diag::Diagnostic::warning(
        &deck.rows_file,
        ra.spans.get(field),
        format!(
            "`{field}` values `{a}` and `{b}` are told apart only by colour and by words: for {} only the words differ",
            names.join(" and ")
        ),
    )
    .about(crate::diag::Topic::ColourAlone)
    .with_note(format!(
        "cards `{}` and `{}` of deck `{}`: their art but the words differs on {:.0} mm² in normal vision; for {} on {:.1} mm², mean ΔE {:.1} (CIEDE2000); a player sees a card's {field} at a glance and does not read it",
        ra.id, rb.id, deck.id, v.normal_mm2, v.deficiency.name(), v.seen_mm2, v.delta_e
    ))
    .with_note(format!("add a glyph or a pattern that differs by `{field}` (a symbol printed as text counts from {GLYPH_MM} mm tall: smaller, it is read like a word), or, if players are meant to read it, accept it in game.toml: [check] accept_colour_alone = [\"{field}\"]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of `picture` with a dark pixel in columns `x0..x1`: the ink's top and bottom.
    fn dark_rows(picture: &Pixmap, x0: u32, x1: u32) -> Option<(u32, u32)> {
        let dark = |y| (x0..x1).any(|x| picture.pixel(x, y).is_some_and(|p| p.alpha() > 128));
        let rows: Vec<u32> = (0..picture.height()).filter(|&y| dark(y)).collect();
        Some((*rows.first()?, *rows.last()?))
    }

    /// A ♥ in the same text as its suit's name, 7 mm of font, and one of 2.5 mm: the large
    /// one is art (not among the boxes read), the small one and the letters are read. The
    /// ink boxes are checked against the glyphs as resvg draws them, not the font's numbers
    /// alone.
    #[test]
    fn a_glyph_large_enough_is_art_and_its_ink_is_as_drawn() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="40mm" viewBox="0 0 1000 400">
            <text x="50" y="150" font-family="Noto Sans" font-size="70">♥ Red</text>
            <text x="600" y="150" font-family="Noto Sans" font-size="70"><tspan font-size="25">♥</tspan> Red</text>
        </svg>"##;
        let options = crate::svg::sealed(crate::fonts::bundled());
        let tree = usvg::Tree::from_str(svg, &options).unwrap();
        let mm = |v: f32| v * 25.4 / 96.0;
        let boxes = read_boxes(&tree);
        // "Red" of each text, and the small ♥ with its name in one run: not the large ♥.
        assert_eq!(boxes.len(), 2, "{boxes:?}");
        let large_heart_x = mm(boxes[0].left());
        assert!(large_heart_x > 12.0, "the large ♥ (from 5 mm) is not read: {boxes:?}");
        assert!(mm(boxes[1].left()) < 62.0, "the small ♥ is read with its name: {boxes:?}");
        // Each ♥'s ink, from its outline, against the picture: 10 pixels a mm.
        let mut picture = Pixmap::new(1000, 400).unwrap();
        let scale = mm(1.0) * 10.0;
        resvg::render(&tree, Transform::from_scale(scale, scale), &mut picture.as_mut());
        let at = |t: usize| tree_texts(&tree)[t].abs_transform();
        for (t, x_mm, least, most) in [(0, 5.0, GLYPH_MM, 7.0), (1, 60.0, 1.0, GLYPH_MM)] {
            let text = tree_texts(&tree)[t];
            let glyph = &text.layouted()[0].positioned_glyphs[0];
            assert_eq!(glyph.text, "♥");
            let ink = glyph_ink(tree.fontdb(), glyph, at(t)).unwrap();
            let (x0, x1) = ((mm(ink.left()) * 10.0) as u32, (mm(ink.right()) * 10.0) as u32);
            assert!((mm(ink.left()) - x_mm).abs() < 1.0, "{ink:?}");
            let (top, bottom) = dark_rows(&picture, x0 + 2, x1 - 2).unwrap();
            let drawn = (bottom + 1 - top) as f32 / 10.0;
            let height = mm(ink.height());
            assert!(
                (drawn - height).abs() <= 0.2,
                "♥ {height} mm from its outline, {drawn} mm drawn"
            );
            assert!((least..most).contains(&height), "♥ {height} mm");
        }
    }

    fn tree_texts(tree: &usvg::Tree) -> Vec<&usvg::Text> {
        super::super::texts_but(tree, |_| false)
    }
}
