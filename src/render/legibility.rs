//! Can a player read it? The text of a drawn piece measured as printed: its size in
//! points after `textbox` shrank it, and its WCAG contrast against what is actually drawn
//! under it, read from the piece rendered; and whether an enum field's values are told
//! apart by colour alone (see `colour_alone`).

use resvg::tiny_skia::{Pixmap, Transform};

use super::colour::{contrast, Deficiency};
use crate::model::Legibility;

/// Millimetres a pixel of the rendered piece the contrast is read from: 0.4 mm (64 dpi)
/// puts a few pixels of background around and inside 6 pt letters, and a card renders in
/// well under a millisecond.
const MM_PER_PIXEL: f32 = 0.4;

/// What a reader would trip over in a piece's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Finding {
    Small { text: String, pt: f32 },
    Faint { text: String, ratio: f64, needed: f32, fg: [u8; 3], bg: [u8; 3] },
}

/// The size and contrast of every text span of `tree` (a piece `mm` wide, in the tree's
/// own pixels), against the thresholds.
/// `thorough`: also read each text's contrast from the piece rendered (`validate`; a
/// build only measures sizes).
pub fn text_findings(tree: &usvg::Tree, check: &Legibility, thorough: bool) -> Vec<Finding> {
    let texts = readable_texts(tree);
    let mut found = Vec::new();
    let mut picture: Option<Option<Region>> = None;
    for text in &texts {
        let scale = text.abs_transform().get_scale().1;
        for chunk in text.chunks() {
            for span in chunk.spans() {
                let words = chunk.text().get(span.start()..span.end()).unwrap_or_default().trim();
                if words.is_empty() || !span.is_visible() {
                    continue;
                }
                // usvg's pixels are 1/96 in; a point is 1/72 in.
                let pt = span.font_size().get() * scale * 0.75;
                if pt < check.min_text_pt - 0.05 {
                    found.push(Finding::Small { text: words.to_string(), pt });
                }
                if !thorough {
                    continue;
                }
                let Some(usvg::Paint::Color(c)) = span.fill().map(|f| f.paint()) else { continue };
                let fg = [c.red, c.green, c.blue];
                let picture = picture.get_or_insert_with(|| Region::under(tree, &texts));
                let Some(picture) = picture else { continue };
                let Some(bg) = background(picture, text.abs_bounding_box(), fg) else {
                    continue;
                };
                let ratio = contrast(fg, bg);
                let needed = if pt >= 14.0 { check.large_contrast } else { check.contrast };
                if ratio < needed as f64 - 0.005 {
                    found.push(Finding::Faint { text: words.to_string(), ratio, needed, fg, bg });
                }
            }
        }
    }
    found
}

/// The text a player is meant to read: all of it but what lies in an element whose id
/// starts with `decor` (a pattern of symbols on a back, a watermark).
fn readable_texts(tree: &usvg::Tree) -> Vec<&usvg::Text> {
    super::texts_but(tree, |node| node.id().starts_with("decor"))
}

/// The piece rendered at `MM_PER_PIXEL`.
fn render(tree: &usvg::Tree) -> Option<Pixmap> {
    let size = tree.size();
    let scale = 25.4 / 96.0 / MM_PER_PIXEL;
    let (w, h) = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
    let mut pixmap = Pixmap::new(w.max(1), h.max(1))?;
    resvg::render(tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    Some(pixmap)
}

/// The part of a piece its texts lie on, rendered at `MM_PER_PIXEL` on the same pixel grid
/// as the whole piece would be: only what is under text is read.
struct Region {
    pixmap: Pixmap,
    /// The region's top-left pixel in the whole piece's grid.
    origin: (u32, u32),
    /// Pixels per unit of the tree.
    scale: f32,
}

impl Region {
    fn under(tree: &usvg::Tree, texts: &[&usvg::Text]) -> Option<Region> {
        let size = tree.size();
        let scale = 25.4 / 96.0 / MM_PER_PIXEL;
        let full = ((size.width() * scale).ceil() as u32, (size.height() * scale).ceil() as u32);
        let (mut x0, mut y0, mut x1, mut y1) = (full.0, full.1, 0, 0);
        for bbox in texts.iter().map(|t| t.abs_bounding_box()) {
            x0 = x0.min((bbox.left() * scale).floor().max(0.0) as u32);
            y0 = y0.min((bbox.top() * scale).floor().max(0.0) as u32);
            x1 = x1.max(((bbox.right() * scale).ceil().max(0.0) as u32).min(full.0));
            y1 = y1.max(((bbox.bottom() * scale).ceil().max(0.0) as u32).min(full.1));
        }
        let mut pixmap = Pixmap::new(x1.saturating_sub(x0).max(1), y1.saturating_sub(y0).max(1))?;
        let at = Transform::from_translate(-(x0 as f32), -(y0 as f32)).pre_scale(scale, scale);
        resvg::render(tree, at, &mut pixmap.as_mut());
        Some(Region { pixmap, origin: (x0, y0), scale })
    }
}

/// What is drawn under a text: the pixels of its box that are not its own colour, their
/// median by luminance (a band, a picture, the card), on white paper. `None` when the
/// glyphs cover nearly all of the box.
fn background(region: &Region, bbox: usvg::Rect, fg: [u8; 3]) -> Option<[u8; 3]> {
    let (scale, picture, (ox, oy)) = (region.scale, &region.pixmap, region.origin);
    let x0 = ((bbox.left() * scale).floor().max(0.0) as u32).saturating_sub(ox);
    let y0 = ((bbox.top() * scale).floor().max(0.0) as u32).saturating_sub(oy);
    let x1 =
        ((bbox.right() * scale).ceil().max(0.0) as u32).saturating_sub(ox).min(picture.width());
    let y1 =
        ((bbox.bottom() * scale).ceil().max(0.0) as u32).saturating_sub(oy).min(picture.height());
    // Pixels are counted by colour (a card has few), then classed by CIE76 distance.
    let mut counts: rustc_hash::FxHashMap<[u8; 3], usize> = Default::default();
    let mut all = 0usize;
    // Runs of one colour along a row are counted as one.
    let mut run: Option<([u8; 3], usize)> = None;
    for y in y0..y1 {
        for x in x0..x1 {
            let p = picture.pixel(x, y)?.demultiply();
            // Over white paper where the art is transparent.
            let a = p.alpha() as f32 / 255.0;
            let on_paper = |c: u8| (c as f32 * a + 255.0 * (1.0 - a)).round() as u8;
            let rgb = [on_paper(p.red()), on_paper(p.green()), on_paper(p.blue())];
            all += 1;
            match &mut run {
                Some((colour, n)) if *colour == rgb => *n += 1,
                _ => {
                    if let Some((colour, n)) = run.replace((rgb, 1)) {
                        *counts.entry(colour).or_insert(0) += n;
                    }
                }
            }
        }
    }
    if let Some((colour, n)) = run {
        *counts.entry(colour).or_insert(0) += n;
    }
    let fg_lab = super::colour::lab(fg);
    let mut under: Vec<(f64, [u8; 3], usize)> = counts
        .into_iter()
        .map(|(rgb, n)| (distance(super::colour::lab(rgb), fg_lab), rgb, n))
        .filter(|(d, _, _)| *d > 20.0)
        .collect();
    let unlike: usize = under.iter().map(|u| u.2).sum();
    if all == 0 || unlike * 10 < all {
        return None;
    }
    // Antialiased glyph edges lie between the text's colour and the background: of the
    // pixels unlike the text, those three quarters of the way from it are background.
    under.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut past = unlike * 3 / 4;
    for (_, rgb, n) in &under {
        if past < *n {
            return Some(*rgb);
        }
        past -= n;
    }
    None
}

/// CIE76: the Euclidean distance in CIELAB.
fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
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

/// A piece rendered at `MM_PER_PIXEL` for comparing, each pixel over white paper.
pub struct OnPaper {
    size: (u32, u32),
    rgb: Vec<[u8; 3]>,
}

impl OnPaper {
    pub fn of(tree: &usvg::Tree) -> Option<OnPaper> {
        let picture = render(tree)?;
        let rgb = picture
            .pixels()
            .iter()
            .map(|c| {
                let c = c.demultiply();
                let a = c.alpha() as f32 / 255.0;
                let on = |v: u8| (v as f32 * a + 255.0 * (1.0 - a)).round() as u8;
                [on(c.red()), on(c.green()), on(c.blue())]
            })
            .collect();
        Some(OnPaper { size: (picture.width(), picture.height()), rgb })
    }
}

/// A colour's CIELAB in normal vision and as each deficiency sees it, computed once for
/// each colour met (a card has few).
#[derive(Default)]
struct Seen(rustc_hash::FxHashMap<[u8; 3], Views>);

/// CIELAB in normal vision, then as each of `Deficiency::ALL` sees it.
type Views = [[f64; 3]; 4];

impl Seen {
    fn of(&mut self, rgb: [u8; 3]) -> Views {
        *self.0.entry(rgb).or_insert_with(|| {
            let [a, b, c] = Deficiency::ALL.map(|d| super::colour::lab(d.simulate(rgb)));
            [super::colour::lab(rgb), a, b, c]
        })
    }
}

/// Compares two pieces as each deficiency sees them.
pub fn apart(pa: &OnPaper, pb: &OnPaper) -> Option<Vec<Apart>> {
    use super::colour::delta_e_lab;
    if pa.size != pb.size {
        return None;
    }
    let mm2 = MM_PER_PIXEL * MM_PER_PIXEL;
    // Each pair of colours is measured once: a card has few.
    let mut pairs: rustc_hash::FxHashMap<([u8; 3], [u8; 3]), usize> = Default::default();
    // Most of two cards' pixels are the same: only the others are looked at.
    for (x, y) in pa.rgb.iter().zip(&pb.rgb) {
        if x != y {
            *pairs.entry((*x, *y)).or_insert(0) += 1;
        }
    }
    let mut seen = Seen::default();
    let differing: Vec<(Views, Views, usize)> = pairs
        .into_iter()
        .map(|((x, y), n)| (seen.of(x), seen.of(y), n))
        .filter(|(x, y, _)| delta_e_lab(x[0], y[0]) > CLEAR)
        .collect();
    let count: usize = differing.iter().map(|d| d.2).sum();
    let normal_mm2 = count as f32 * mm2;
    Some(
        Deficiency::ALL
            .iter()
            .enumerate()
            .map(|(k, &deficiency)| {
                let mut seen = 0usize;
                let mut total = 0.0;
                for (x, y, n) in &differing {
                    let d = delta_e_lab(x[k + 1], y[k + 1]);
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
            .collect(),
    )
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
    if !cat.legibility.colour_alone {
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
            let present: Vec<&String> = values
                .iter()
                .filter(|v| deck.rows.iter().any(|r| r.value(&field.name) == v.as_str()))
                .collect();
            for (i, a) in present.iter().enumerate() {
                for b in &present[i + 1..] {
                    let others = |x: &crate::model::Row, y: &crate::model::Row| {
                        cat.fields
                            .iter()
                            .filter(|f| {
                                f.name != field.name && x.value(&f.name) != y.value(&f.name)
                            })
                            .count()
                    };
                    let best = deck
                        .rows
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.value(&field.name) == a.as_str())
                        .flat_map(|(i, x)| {
                            deck.rows
                                .iter()
                                .enumerate()
                                .filter(|(_, r)| r.value(&field.name) == b.as_str())
                                .map(move |(j, y)| (others(x, y), i, j))
                        })
                        .min();
                    if let Some((_, i, j)) = best {
                        pairs.push(Pair {
                            deck: d,
                            field: field.name.clone(),
                            values: (a.to_string(), b.to_string()),
                            rows: (i, j),
                        });
                    }
                }
            }
        }
    }
    pairs
}

/// The pairs compared as each colour deficiency sees them, from the cards' pictures
/// (deck, row): a warning where two values that differ clearly in normal vision become
/// nearly the same card (told apart by colour alone).
pub fn colour_alone(
    cat: &crate::model::Catalogue,
    pairs: &[Pair],
    pictures: &rustc_hash::FxHashMap<(usize, usize), Option<OnPaper>>,
) -> Vec<crate::diag::Diagnostic> {
    let compared = crate::parallel::par_map(pairs, |p| {
        let picture = |row| pictures.get(&(p.deck, row))?.as_ref();
        apart(picture(p.rows.0)?, picture(p.rows.1)?)
    });
    let mut found = Vec::new();
    for (pair, views) in pairs.iter().zip(compared) {
        let Some(views) = views else { continue };
        let normal = views.first().map_or(0.0, |v| v.normal_mm2);
        if normal < 4.0 {
            continue; // hardly different at all: not a colour question
        }
        let deck = &cat.decks[pair.deck];
        let (field, (a, b)) = (&pair.field, &pair.values);
        for v in views.iter().filter(|v| v.seen_mm2 < (0.02 * v.normal_mm2).min(10.0)) {
            let (ra, rb) = (&deck.rows[pair.rows.0], &deck.rows[pair.rows.1]);
            let span = ra.spans.get(field);
            found.push(
                crate::diag::Diagnostic::warning(
                    &deck.rows_file,
                    span,
                    format!(
                        "`{field}` values `{a}` and `{b}` are told apart by colour alone: for {} they are nearly the same card",
                        v.deficiency.name()
                    ),
                )
                .about(crate::diag::Topic::Legibility)
                .with_note(format!(
                    "cards `{}` and `{}` of deck `{}` differ on {:.0} mm² in normal vision; for {} on {:.1} mm², mean ΔE {:.1} (CIEDE2000) where they differ",
                    ra.id, rb.id, deck.id, v.normal_mm2, v.deficiency.name(), v.seen_mm2, v.delta_e
                ))
                .with_note("about 1 man in 12 sees colours this way: add a glyph, a pattern or the value's name to each card; `deckpress preview --cvd deuteranopia` shows the deck as they see it"),
            );
        }
    }
    found
}
