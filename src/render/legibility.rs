//! Can a player read it? The text of a drawn piece measured as printed: its size in
//! points after `textbox` shrank it, and its WCAG contrast against what is actually drawn
//! under it, read from the piece rendered; and whether an enum field's values are told
//! apart by colour alone (see `colour_alone`).

use resvg::tiny_skia::{Pixmap, Transform};

use super::colour::{contrast, Deficiency};
use super::raster::Rasteriser;
use super::under::Layers;
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
/// `pictures`: also read each text's contrast from the piece rendered by it (`validate`;
/// a build only measures sizes).
pub fn text_findings(
    tree: &usvg::Tree,
    check: &Legibility,
    pictures: Option<&Rasteriser>,
) -> Vec<Finding> {
    let texts = readable_texts(tree);
    let mut found = Vec::new();
    let mut layers: Option<Layers> = None;
    // Spans whose contrast only the picture can tell: (where their finding goes, text,
    // words, colour, contrast needed).
    let mut unsure: Vec<(usize, &usvg::Text, String, [u8; 3], f32)> = Vec::new();
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
                    found.push(Some(Finding::Small { text: words.to_string(), pt }));
                }
                if pictures.is_none() {
                    continue;
                }
                let Some(usvg::Paint::Color(c)) = span.fill().map(|f| f.paint()) else { continue };
                let fg = [c.red, c.green, c.blue];
                let needed = if pt >= 14.0 { check.large_contrast } else { check.contrast };
                // Plain colours under it, each readable: the picture could show nothing else.
                let layers = layers.get_or_insert_with(|| Layers::of(tree));
                let area = pixel_area(text.abs_bounding_box());
                // The layers are what is drawn under the text, never the text itself. What
                // covers all of the text's box (the first colour: the card, a band) is
                // judged whatever its colour: one like the text's own is the faintest case.
                // Of the rest (lines, marks crossing the box), one near the text's colour
                // is as `background` reads it: the text's own pixels.
                if let Some(colours) = area.and_then(|a| layers.colours_over(a)) {
                    let fg_lab = super::colour::lab(fg);
                    let unlike = |c: &&[u8; 3]| distance(super::colour::lab(**c), fg_lab) > 20.0;
                    let under = colours.first().is_some_and(|&c| faint(fg, c, needed));
                    if !under && !colours.iter().filter(unlike).any(|&c| faint(fg, c, needed)) {
                        continue;
                    }
                }
                unsure.push((found.len(), text, words.to_string(), fg, needed));
                found.push(None);
            }
        }
    }
    // A picture of the part of the piece under each text in doubt (a text's spans share
    // it): texts in two corners would make one picture of the whole piece.
    if let Some(pictures) = pictures {
        let mut pictured: Vec<(*const usvg::Text, Option<Region>)> = Vec::new();
        for (at, text, words, fg, needed) in unsure {
            let key: *const usvg::Text = text;
            let picture = match pictured.iter().position(|(t, _)| *t == key) {
                Some(i) => &pictured[i].1,
                None => {
                    pictured.push((key, Region::under(tree, &[text], pictures)));
                    &pictured[pictured.len() - 1].1
                }
            };
            let Some(picture) = picture else { continue };
            let Some(bg) = background(picture, text.abs_bounding_box(), fg) else { continue };
            if faint(fg, bg, needed) {
                let ratio = contrast(fg, bg);
                found[at] = Some(Finding::Faint { text: words, ratio, needed, fg, bg });
            }
        }
    }
    found.into_iter().flatten().collect()
}

/// Text in `fg` on `bg` under the contrast it needs.
fn faint(fg: [u8; 3], bg: [u8; 3], needed: f32) -> bool {
    contrast(fg, bg) < needed as f64 - 0.005
}

/// The text a player is meant to read: all of it but what lies in an element whose id
/// starts with `decor` (a pattern of symbols on a back, a watermark).
fn readable_texts(tree: &usvg::Tree) -> Vec<&usvg::Text> {
    super::texts_but(tree, |node| node.id().starts_with("decor"))
}

/// The pixels `background` reads for a text's box (in the tree's units), and one more
/// all round for antialiasing.
fn pixel_area(bbox: usvg::Rect) -> Option<usvg::Rect> {
    let scale = 25.4 / 96.0 / MM_PER_PIXEL;
    let edge = |v: f32, round: fn(f32) -> f32, out: f32| (round(v * scale) + out) / scale;
    usvg::Rect::from_ltrb(
        edge(bbox.left(), f32::floor, -1.0),
        edge(bbox.top(), f32::floor, -1.0),
        edge(bbox.right(), f32::ceil, 1.0),
        edge(bbox.bottom(), f32::ceil, 1.0),
    )
}

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
    fn under(tree: &usvg::Tree, texts: &[&usvg::Text], pictures: &Rasteriser) -> Option<Region> {
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
        pictures.render(tree, at, &mut pixmap.as_mut());
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
            let rgb = on_white(picture.pixel(x, y)?);
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
    if all == 0 {
        return None;
    }
    if unlike * 10 < all {
        // Nearly every pixel of the box is like the text: the text is as faint as what
        // is under it. Glyphs cover well under three quarters of their box, so the
        // commonest colour other than the text's own is the background; with none, the
        // text is drawn on its own colour and cannot be seen at all.
        let mut like: Vec<([u8; 3], usize)> = counts_near(picture, (x0, y0, x1, y1));
        like.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        return Some(
            like.iter().find(|(rgb, n)| *rgb != fg && *n * 4 >= all).map_or(fg, |(rgb, _)| *rgb),
        );
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

/// Every colour of the pixels in `x0..x1, y0..y1` of `picture`, with its count.
fn counts_near(picture: &Pixmap, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> Vec<([u8; 3], usize)> {
    let mut counts: rustc_hash::FxHashMap<[u8; 3], usize> = Default::default();
    for y in y0..y1 {
        for x in x0..x1 {
            if let Some(p) = picture.pixel(x, y) {
                *counts.entry(on_white(p)).or_insert(0) += 1;
            }
        }
    }
    counts.into_iter().collect()
}

/// A rendered pixel as printed: over white paper where the art is transparent.
fn on_white(p: resvg::tiny_skia::PremultipliedColorU8) -> [u8; 3] {
    pixels::over_white([p.red(), p.green(), p.blue(), p.alpha()])
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

/// A piece as cut, rendered at `MM_PER_PIXEL` for comparing, each pixel over white paper:
/// what the bleed shows is cut away before a player sees it.
pub struct OnPaper {
    size: (u32, u32),
    /// 0xRRGGBB: two pictures are compared a word a pixel.
    rgb: Vec<u32>,
}

impl OnPaper {
    pub fn of(tree: &usvg::Tree, bleed_mm: f32, pictures: &Rasteriser) -> Option<OnPaper> {
        let picture = render(tree, bleed_mm, pictures)?;
        let rgb = pixels::over_white_packed(picture.data());
        Some(OnPaper { size: (picture.width(), picture.height()), rgb })
    }
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
    // Keyed by both colours in one word.
    let mut pairs: rustc_hash::FxHashMap<u64, usize> = Default::default();
    // Most of two cards' pixels are the same: only the others are looked at, a run of
    // one pair of colours at a time.
    for (p, n) in pixels::changed_runs(&pa.rgb, &pb.rgb) {
        *pairs.entry(p).or_insert(0) += n;
    }
    let mut pairs: Differences =
        pairs.into_iter().map(|(p, n)| ((unpack((p >> 32) as u32), unpack(p as u32)), n)).collect();
    // In one order whatever the hashing: the mean ΔE is summed in it.
    pairs.sort_unstable();
    Some(pairs)
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
/// nearly the same card (told apart by colour alone).
pub fn colour_alone(
    cat: &crate::model::Catalogue,
    pairs: &[Pair],
    pictures: &rustc_hash::FxHashMap<(usize, usize), Option<OnPaper>>,
) -> Vec<crate::diag::Diagnostic> {
    // Two fields can pick the same two cards: each pair of cards is compared once.
    let mut cards: Vec<(usize, (usize, usize))> = pairs.iter().map(|p| (p.deck, p.rows)).collect();
    cards.sort_unstable();
    cards.dedup();
    let compared_cards = crate::parallel::par_map(&cards, |&(deck, (a, b))| {
        let picture = |row| pictures.get(&(deck, row))?.as_ref();
        differences(picture(a)?, picture(b)?)
    });

    // Each colour is seen through each deficiency once, and each pair of colours
    // compared once, however many cards show them.
    let mut pairs_met: Vec<ColourPair> =
        compared_cards.iter().flatten().flatten().map(|(pair, _)| *pair).collect();
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
    let aparts: Vec<Option<Vec<Apart>>> =
        compared_cards.iter().map(|d| d.as_ref().map(|d| apart(d, &deltas))).collect();
    let compared = pairs.iter().map(|p| {
        let at = cards.binary_search(&(p.deck, p.rows)).ok()?;
        aparts[at].clone()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every premultiplied pixel comes out as the float blend over white, rounded.
    #[test]
    fn a_pixel_on_white_paper_is_the_float_blend_rounded() {
        for a in 0..=255u8 {
            for v in 0..=a {
                let p = resvg::tiny_skia::PremultipliedColorU8::from_rgba(v, 0, a, a).unwrap();
                let c = p.demultiply();
                let f = a as f32 / 255.0;
                let on = |x: u8| (x as f32 * f + 255.0 * (1.0 - f)).round() as u8;
                assert_eq!(on_white(p), [on(c.red()), on(c.green()), on(c.blue())], "{v} at {a}");
            }
        }
    }
}
