//! `deckpress export tts`: a valid game → Tabletop Simulator deck sheets, the back as its
//! own image, and a saved object (`<game>.json`) that loads every deck from them.
//!
//! What TTS expects, from its save-file format and custom-deck documentation:
//! - a deck sheet is a grid of at most 10 × 7 cards and should stay within 4096 px a side;
//! - the bottom-right slot of every sheet is the "hidden" image TTS shows for a card in
//!   another player's hand, so a full sheet holds 69 cards (we draw the back there, and
//!   also set `BackIsHidden`, which makes TTS use the back for that purpose);
//! - a saved object is `{"ObjectStates": [...]}` with a `DeckCustom` per deck: its
//!   `CustomDeck` maps a sheet key to `FaceURL`/`BackURL`/`NumWidth`/`NumHeight`, every
//!   card is `CardID = key * 100 + slot`, `DeckIDs` lists the cards top to bottom and
//!   `ContainedObjects` holds one `Card` per physical card (quantities exploded).
//!
//! A sheet holds each card *design* once; copies share a `CardID`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform as PixTransform};
use serde::Serialize;

use super::raster as png;
use crate::diag::Failure;
use crate::job::TtsOptions;
use crate::layout::ArtRef;
use crate::model::ArtSource;
use crate::model::{Catalogue, Deck, Shape};
use crate::output::{fingerprint, Slugs};
use crate::parallel::par_map;
use crate::progress::Progress;

/// Slots of a sheet, across and down, and its largest side in pixels.
pub const MAX_COLUMNS: u32 = 10;
pub const MAX_ROWS: u32 = 7;
pub const MAX_SIDE: u32 = 4096;
/// Cards per sheet: every slot but the hidden one.
pub const PER_SHEET: usize = (MAX_COLUMNS * MAX_ROWS - 1) as usize;
/// No sheet draws cards finer than this: more pixels would only make TTS slower.
const MAX_DPI: u32 = 300;

/// Which designs one sheet holds and its grid.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetPlan {
    pub first: usize,
    pub len: usize,
    pub cols: u32,
    pub rows: u32,
}

impl SheetPlan {
    /// The slot TTS reads as the hidden card: the last one, bottom right.
    pub fn hidden_slot(&self) -> u32 {
        self.cols * self.rows - 1
    }
}

/// Splits `designs` cards into sheets of at most 69, each on the smallest grid (at least
/// 2 × 2, as TTS's deck importer asks) that leaves the last slot free.
pub fn plan(designs: usize) -> Vec<SheetPlan> {
    (0..designs)
        .step_by(PER_SHEET)
        .map(|first| {
            let len = PER_SHEET.min(designs - first);
            let slots = len as u32 + 1;
            let rows = slots.div_ceil(MAX_COLUMNS).max(2);
            let cols = slots.div_ceil(rows).max(2);
            SheetPlan { first, len, cols, rows }
        })
        .collect()
}

/// Pixel size of one card on a sheet: as large as fits 4096 px, at most 300 dpi.
pub fn card_pixels(plan: &SheetPlan, deck_px_at_max_dpi: (u32, u32)) -> (u32, u32) {
    let aspect = deck_px_at_max_dpi.0 as f32 / deck_px_at_max_dpi.1 as f32;
    let (w_max, h_max) = (MAX_SIDE / plan.cols, MAX_SIDE / plan.rows);
    let w = w_max.min((h_max as f32 * aspect).floor() as u32).min(deck_px_at_max_dpi.0).max(1);
    let h = ((w as f32 / aspect).round() as u32).clamp(1, h_max);
    (w, h)
}

/// Draws and stages one sheet after another (the trees of one sheet and the pixels of one
/// sheet in memory at a time): the files for the executor to put in place once all could
/// be drawn (`plan::commit`), each with its name under the output folder. What drawing met is
/// reported by `art`.
pub fn export(
    cat: &Catalogue,
    art: &mut dyn ArtSource,
    args: &TtsOptions,
) -> Result<Vec<(PathBuf, crate::output::Staged)>, Failure> {
    let lang = args.lang.as_deref();
    let dir = PathBuf::from(&cat.id).join(lang.map_or("tts".to_string(), |l| format!("tts-{l}")));
    let base = match &args.base_url {
        Some(url) if url.ends_with('/') => url.clone(),
        Some(url) => format!("{url}/"),
        None => {
            // Where the files will be: made absolute without writing anything yet.
            let absolute = std::path::absolute(args.out.join(&dir))
                .map_err(|e| Failure::Io(format!("cannot find {}: {e}", dir.display())))?;
            format!("{}/", file_url(&absolute))
        }
    };

    let total: usize =
        cat.decks.iter().map(|d| d.rows.len() * if d.back_per_card { 2 } else { 1 } + 1).sum();
    let progress = Progress::new(total, "tts sheets", args.quiet);
    let mut staged: Vec<(PathBuf, crate::output::Staged)> = Vec::new();
    let mut stage = |path: PathBuf, bytes: &[u8]| -> Result<(), Failure> {
        let target = crate::output::inside(&args.out, &path).map_err(Failure::Io)?;
        let file = crate::output::stage(&target, bytes)
            .map_err(|e| crate::output::cannot_write(&target, e))?;
        staged.push((path, file));
        Ok(())
    };
    let mut objects = Vec::new();
    let mut next_key = 1u32;
    let mut slugs = Slugs::default();
    let mut complete = true;
    for (d, deck) in cat.decks.iter().enumerate() {
        if deck.rows.is_empty() || deck.labels.is_some() {
            continue; // nothing to put on a table; stickers go on pieces, not a table
        }
        let slug = slugs.make(&deck.id);
        let max_px = png::pixel_size(deck.width, deck.height, MAX_DPI).map_err(Failure::Io)?;
        let plans = plan(deck.rows.len());
        // The deck's one back, also drawn in every sheet's hidden slot.
        let back_px = plans.first().map_or(max_px, |p| card_pixels(p, max_px));
        let piece = (deck.width, deck.height);
        let back_ref = ArtRef::Back { deck: d, row: 0 };
        art.release();
        art.prepare(&[back_ref]);
        let Some(back_tree) = art.tree(back_ref) else {
            complete = false; // the problem is reported by `finish`
            continue;
        };
        let back = png::draw(back_tree, piece, back_px.0, back_px.1).map_err(Failure::Io)?;
        progress.tick();
        let single_back = format!("{slug}-back.png");

        let mut sheets = BTreeMap::new();
        let mut card_ids = vec![0u32; deck.rows.len()];
        for (s, sheet) in plans.iter().enumerate() {
            let key = next_key;
            next_key += 1;
            let range = sheet.first..sheet.first + sheet.len;
            let faces: Vec<ArtRef> =
                range.clone().map(|row| ArtRef::Face { deck: d, row }).collect();
            let backs: Vec<ArtRef> = if deck.back_per_card {
                range.clone().map(|row| ArtRef::Back { deck: d, row }).collect()
            } else {
                Vec::new()
            };
            art.release();
            art.prepare(&[faces.as_slice(), backs.as_slice()].concat());
            let trees = |refs: &[ArtRef]| {
                refs.iter().map(|&r| art.tree(r)).collect::<Option<Vec<&usvg::Tree>>>()
            };
            let face_name = format!("{slug}-sheet-{}.png", s + 1);
            match trees(&faces) {
                Some(trees) => stage(
                    dir.join(&face_name),
                    &draw_sheet(sheet, &trees, piece, &back, max_px, &progress)?,
                )?,
                None => complete = false,
            }
            // Backs filled per card are a sheet of their own, slot for slot (TTS's "unique backs").
            let back_name = if deck.back_per_card {
                let name = format!("{slug}-backs-{}.png", s + 1);
                match trees(&backs) {
                    Some(trees) => stage(
                        dir.join(&name),
                        &draw_sheet(sheet, &trees, piece, &back, max_px, &progress)?,
                    )?,
                    None => complete = false,
                }
                name
            } else {
                single_back.clone()
            };
            for (i, id) in card_ids[range].iter_mut().enumerate() {
                *id = key * 100 + i as u32;
            }
            let kind = match deck.shape {
                Shape::Circle => 4,
                Shape::Hex(_) => 3,
                _ => 0,
            };
            sheets.insert(
                key.to_string(),
                CustomDeck {
                    face_url: format!("{base}{face_name}"),
                    back_url: format!("{base}{back_name}"),
                    num_width: sheet.cols,
                    num_height: sheet.rows,
                    back_is_hidden: true,
                    unique_back: deck.back_per_card,
                    kind,
                },
            );
        }
        if !deck.back_per_card {
            stage(dir.join(&single_back), &png::encode(&back).map_err(Failure::Io)?)?;
        }
        objects.push(deck_object(cat, deck, d, &sheets, &card_ids, lang, &*art));
    }
    drop(progress);
    if !complete {
        return Err(Failure::Io("a piece could not be drawn".to_string())); // the art source names it
    }

    let saved = SavedObject { object_states: objects, ..SavedObject::default() };
    let json = serde_json::to_string_pretty(&saved)
        .map_err(|e| Failure::Io(format!("cannot write JSON: {e}")))?;
    stage(dir.join(format!("{}.json", cat.id)), json.as_bytes())?;
    Ok(staged)
}

/// One sheet: `cards` in reading order, the hidden slot showing `hidden` (the back).
fn draw_sheet(
    sheet: &SheetPlan,
    cards: &[&usvg::Tree],
    piece: (crate::length::Length, crate::length::Length),
    hidden: &Pixmap,
    max_px: (u32, u32),
    progress: &Progress,
) -> Result<Vec<u8>, Failure> {
    let (cw, ch) = card_pixels(sheet, max_px);
    let drawn = par_map(cards, |tree| {
        let pixmap = png::draw(tree, piece, cw, ch);
        progress.tick();
        pixmap
    });
    let mut pixmap = Pixmap::new(sheet.cols * cw, sheet.rows * ch)
        .ok_or_else(|| Failure::Io("cannot make a sheet image".to_string()))?;
    let mut place = |slot: u32, card: &Pixmap| {
        let (x, y) = ((slot % sheet.cols) * cw, (slot / sheet.cols) * ch);
        // Scaled only when the back was drawn for another sheet's card size.
        let scale = PixTransform::from_scale(
            cw as f32 / card.width() as f32,
            ch as f32 / card.height() as f32,
        );
        pixmap.draw_pixmap(
            0,
            0,
            card.as_ref(),
            &PixmapPaint::default(),
            scale.post_translate(x as f32, y as f32),
            None,
        );
    };
    for (i, card) in drawn.into_iter().enumerate() {
        place(i as u32, &card.map_err(Failure::Io)?);
    }
    place(sheet.hidden_slot(), hidden);
    png::encode(&pixmap).map_err(Failure::Io)
}

/// One `DeckCustom` holding a `Card` per physical card, in row order.
fn deck_object(
    cat: &Catalogue,
    deck: &Deck,
    index: usize,
    sheets: &BTreeMap<String, CustomDeck>,
    card_ids: &[u32],
    lang: Option<&str>,
    art: &dyn ArtSource,
) -> DeckObject {
    let guid = |parts: &[&str]| {
        format!(
            "{:06x}",
            fingerprint(
                [cat.id.as_str(), deck.id.as_str()].into_iter().chain(parts.iter().copied())
            ) & 0xff_ffff
        )
    };
    // Landscape cards lie sideways in Tabletop Simulator (it draws every card portrait).
    let common = || Common { sideways_card: deck.width > deck.height, ..Common::default() };
    // One card object per design, then one per physical card (`model::copies`).
    let mut designs = Vec::new();
    for (r, (row, &card_id)) in deck.rows.iter().zip(card_ids).enumerate() {
        let key = (card_id / 100).to_string();
        let sheet: BTreeMap<String, CustomDeck> =
            sheets.get(&key).cloned().into_iter().map(|s| (key.clone(), s)).collect();
        // The edition's label of a value, where it has one; a cell written as a template
        // as the pieces print it.
        let label = |field: &str| -> String {
            if let Some(filled) = art.cell_text(index, r, field) {
                return filled;
            }
            let value = row.value(field);
            lang.and_then(|l| cat.lang.get(l)?.get(field)?.get(value))
                .map_or(value, String::as_str)
                .to_string()
        };
        // Plain text: TTS shows no markup, and icons by their names.
        let value = |f: &crate::model::Field| match f.kind {
            crate::model::FieldKind::Text => {
                crate::render::textbox::plain_text(&label(&f.name), &cat.icons)
            }
            _ => label(&f.name),
        };
        let description: Vec<String> = cat
            .fields
            .iter()
            .filter(|f| !row.value(&f.name).is_empty())
            .map(|f| format!("{}: {}", f.name, value(f)))
            .collect();
        let nickname = deck
            .name_field
            .as_deref()
            .map(label)
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| row.id.clone());
        let nickname = crate::render::textbox::plain_text(&nickname, &cat.icons);
        designs.push(CardObject {
            name: "Card",
            transform: Transform::at(0.0),
            nickname,
            description: description.join("\n"),
            card_id,
            custom_deck: sheet,
            common: common(),
            guid: String::new(),
        });
    }
    let cards: Vec<CardObject> = crate::model::copies(&deck.rows)
        .filter_map(|(r, _)| designs.get(r))
        .enumerate()
        .map(|(n, design)| CardObject { guid: guid(&["card", &n.to_string()]), ..design.clone() })
        .collect();
    DeckObject {
        name: "DeckCustom",
        transform: Transform::at(index as f32 * 3.0),
        nickname: cat.deck_name_in(index, lang).to_string(),
        description: cat.name_in(lang).to_string(),
        deck_ids: cards.iter().map(|c| c.card_id).collect(),
        custom_deck: sheets.clone(),
        contained_objects: cards,
        common: common(),
        guid: guid(&["deck"]),
    }
}

/// `file:///…` for an absolute path, with the characters a URL cannot hold escaped.
fn file_url(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut url = String::from("file://");
    if !text.starts_with('/') {
        url.push('/'); // C:/… on Windows
    }
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' | b':' => {
                url.push(byte as char)
            }
            _ => url.push_str(&format!("%{byte:02X}")),
        }
    }
    url
}

// The saved-object format, as TTS writes it (field names are TTS's own).

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct SavedObject {
    save_name: String,
    date: String,
    version_number: String,
    game_mode: String,
    game_type: String,
    game_complexity: String,
    tags: Vec<String>,
    gravity: f32,
    play_area: f32,
    table: String,
    sky: String,
    note: String,
    tab_states: BTreeMap<String, String>,
    lua_script: String,
    lua_script_state: String,
    #[serde(rename = "XmlUI")]
    xml_ui: String,
    object_states: Vec<DeckObject>,
}

impl Default for SavedObject {
    fn default() -> Self {
        // A saved object leaves the save-game fields empty and gravity and play area at 0.5.
        Self {
            save_name: String::new(),
            date: String::new(),
            version_number: String::new(),
            game_mode: String::new(),
            game_type: String::new(),
            game_complexity: String::new(),
            tags: Vec::new(),
            gravity: 0.5,
            play_area: 0.5,
            table: String::new(),
            sky: String::new(),
            note: String::new(),
            tab_states: BTreeMap::new(),
            lua_script: String::new(),
            lua_script_state: String::new(),
            xml_ui: String::new(),
            object_states: Vec::new(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct DeckObject {
    name: &'static str,
    transform: Transform,
    nickname: String,
    description: String,
    #[serde(rename = "DeckIDs")]
    deck_ids: Vec<u32>,
    custom_deck: BTreeMap<String, CustomDeck>,
    contained_objects: Vec<CardObject>,
    #[serde(flatten)]
    common: Common,
    #[serde(rename = "GUID")]
    guid: String,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct CardObject {
    name: &'static str,
    transform: Transform,
    nickname: String,
    description: String,
    #[serde(rename = "CardID")]
    card_id: u32,
    custom_deck: BTreeMap<String, CustomDeck>,
    #[serde(flatten)]
    common: Common,
    #[serde(rename = "GUID")]
    guid: String,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct CustomDeck {
    #[serde(rename = "FaceURL")]
    face_url: String,
    #[serde(rename = "BackURL")]
    back_url: String,
    num_width: u32,
    num_height: u32,
    back_is_hidden: bool,
    unique_back: bool,
    /// Card shape in Tabletop Simulator's order (rounded rectangle, rectangle, rounded
    /// hex, hex, circle): 0 for cards, 3 for hex tiles, 4 for round tokens.
    #[serde(rename = "Type")]
    kind: u32,
}

/// Fields every TTS object has, at the values TTS gives a new deck.
#[derive(Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Common {
    #[serde(rename = "GMNotes")]
    gm_notes: String,
    color_diffuse: Color,
    locked: bool,
    grid: bool,
    snap: bool,
    autoraise: bool,
    sticky: bool,
    tooltip: bool,
    hide_when_face_down: bool,
    hands: bool,
    sideways_card: bool,
}

impl Default for Common {
    fn default() -> Self {
        Self {
            gm_notes: String::new(),
            color_diffuse: Color { r: 0.713_235_3, g: 0.713_235_3, b: 0.713_235_3 },
            locked: false,
            grid: true,
            snap: true,
            autoraise: true,
            sticky: true,
            tooltip: true,
            hide_when_face_down: true,
            hands: true,
            sideways_card: false,
        }
    }
}

#[derive(Serialize, Clone)]
struct Color {
    r: f32,
    g: f32,
    b: f32,
}

#[derive(Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Transform {
    pos_x: f32,
    pos_y: f32,
    pos_z: f32,
    rot_x: f32,
    rot_y: f32,
    rot_z: f32,
    scale_x: f32,
    scale_y: f32,
    scale_z: f32,
}

impl Transform {
    /// On the table at `x`, face down (turned 180° about z), as a deck is dealt from.
    fn at(x: f32) -> Self {
        Self {
            pos_x: x,
            pos_y: 1.0,
            pos_z: 0.0,
            rot_x: 0.0,
            rot_y: 180.0,
            rot_z: 180.0,
            scale_x: 1.0,
            scale_y: 1.0,
            scale_z: 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sheets_hold_at_most_69_cards_and_keep_the_last_slot_free() {
        let plans = plan(158);
        assert_eq!(plans.iter().map(|p| p.len).collect::<Vec<_>>(), vec![69, 69, 20]);
        assert_eq!((plans[0].cols, plans[0].rows), (10, 7));
        for p in &plans {
            assert!(
                p.cols <= MAX_COLUMNS && p.rows <= MAX_ROWS && p.cols >= 2 && p.rows >= 2,
                "{p:?}"
            );
            assert!(p.len < p.hidden_slot() as usize + 1, "a card in the hidden slot: {p:?}");
        }
        assert_eq!((plans[2].cols, plans[2].rows), (7, 3));
        assert_eq!(plan(44), vec![SheetPlan { first: 0, len: 44, cols: 9, rows: 5 }]);
        assert_eq!(plan(1), vec![SheetPlan { first: 0, len: 1, cols: 2, rows: 2 }]);
        assert!(plan(0).is_empty());
    }

    #[test]
    fn sheets_stay_within_4096_pixels() {
        for designs in [1, 9, 44, 69, 70, 158] {
            for p in plan(designs) {
                let (w, h) = card_pixels(&p, (744, 1039));
                assert!(w * p.cols <= MAX_SIDE && h * p.rows <= MAX_SIDE, "{p:?} {w}×{h}");
                assert!(w <= 744, "never above 300 dpi");
            }
        }
    }

    #[test]
    fn file_urls_escape_what_a_url_cannot_hold() {
        assert_eq!(file_url(Path::new("/home/a b/tts#1")), "file:///home/a%20b/tts%231");
    }
}
