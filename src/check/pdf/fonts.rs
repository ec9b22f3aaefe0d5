//! Fonts as a page's text is measured with them: each code's advance, ink (from the
//! embedded font program, read with ttf-parser), ascent and descent, the text it stands
//! for (ToUnicode), and whether the font's program is in the file.

use std::collections::HashMap;
use std::rc::Rc;

use hayro_syntax::object::{Array, Dict, Name, Object, Stream};

use super::FontUse;

/// Codes read from a font's `/W` or ToUnicode ranges at most: more than any font has
/// glyphs, and a bound on a hostile file's work.
const MAX_CODES_READ: usize = 1 << 18;

/// What a font needs for measuring text: widths, ascent and descent, code length, the
/// text each code stands for.
#[derive(Debug, Default)]
pub(super) struct Font {
    pub(super) two_byte: bool,
    /// Advance of a code per unit of font size.
    pub(super) widths: HashMap<u32, f32>,
    pub(super) default_width: f32,
    pub(super) ascent: f32,
    pub(super) descent: f32,
    /// How much larger than its `Tf` size the font draws (Type 3 fonts with their own
    /// FontMatrix); 1 for every other font.
    pub(super) em: f32,
    pub(super) unicode: HashMap<u32, String>,
    /// Each code's ink, `[x0, y0, x1, y1]` per unit of font size, read from the embedded
    /// font program; empty when it could not be read (the box is then the advance by the
    /// ascent and descent).
    pub(super) ink: HashMap<u32, [f32; 4]>,
}

impl Font {
    /// The ink of a code drawn at `x` with `size` and horizontal scale `h`, in text space.
    pub(super) fn ink_at(
        &self,
        code: u32,
        x: f32,
        size: f32,
        h: f32,
        advance: f32,
    ) -> Option<[f32; 4]> {
        if self.ink.is_empty() {
            return Some([x, self.descent * size, x + advance, self.ascent * size]);
        }
        // A code with no outline (a space) leaves no ink.
        let [x0, y0, x1, y1] = *self.ink.get(&code)?;
        Some([x + x0 * size * h, y0 * size, x + x1 * size * h, y1 * size])
    }
}

/// The ink of each glyph of a CID font whose program is embedded (TrueType or OpenType).
fn read_ink(cid: &Dict<'_>, codes: impl Iterator<Item = u32>) -> HashMap<u32, [f32; 4]> {
    let mut ink = HashMap::new();
    let Some(descriptor) = cid.get::<Dict<'_>>("FontDescriptor") else { return ink };
    let Some(program) =
        ["FontFile2", "FontFile3"].iter().find_map(|k| descriptor.get::<Stream<'_>>(k))
    else {
        return ink;
    };
    let Ok(data) = program.decoded() else { return ink };
    let Ok(face) = ttf_parser::Face::parse(&data, 0) else { return ink };
    let map = cid.get::<Stream<'_>>("CIDToGIDMap").and_then(|s| s.decoded().ok());
    let em = face.units_per_em() as f32;
    for code in codes {
        let gid = match &map {
            Some(m) => match m.get(2 * code as usize..2 * code as usize + 2) {
                Some(b) => u16::from_be_bytes([b[0], b[1]]),
                None => continue,
            },
            None => code as u16,
        };
        if let Some(b) = face.glyph_bounding_box(ttf_parser::GlyphId(gid)) {
            let n = |v: i16| v as f32 / em;
            ink.insert(code, [n(b.x_min), n(b.y_min), n(b.x_max), n(b.y_max)]);
        }
    }
    ink
}

#[derive(Default)]
pub(super) struct FontCache {
    fonts: HashMap<String, Rc<Font>>,
    pub(super) used: Vec<FontUse>,
}

impl FontCache {
    pub(super) fn get(&mut self, dict: &Dict<'_>) -> Rc<Font> {
        let key = dict
            .obj_id()
            .map(|id| format!("{id:?}"))
            .unwrap_or_else(|| String::from_utf8_lossy(dict.data()).into_owned());
        if let Some(font) = self.fonts.get(&key) {
            return font.clone();
        }
        let (font, used) = read_font(dict);
        self.used.push(used);
        let font = Rc::new(font);
        self.fonts.insert(key, font.clone());
        font
    }
}

fn read_font(dict: &Dict<'_>) -> (Font, FontUse) {
    let name = dict.get::<Name<'_>>("BaseFont").map(|n| n.as_str().to_string()).unwrap_or_default();
    let subtype =
        dict.get::<Name<'_>>("Subtype").map(|n| n.as_str().to_string()).unwrap_or_default();
    let mut font =
        Font { default_width: 1.0, ascent: 0.8, descent: -0.2, em: 1.0, ..Font::default() };
    let unicode = dict.get::<Stream<'_>>("ToUnicode").and_then(|s| s.decoded().ok());
    font.unicode = unicode.map(|c| parse_to_unicode(&c)).unwrap_or_default();
    let has_file = |descriptor: &Dict<'_>| {
        ["FontFile", "FontFile2", "FontFile3"].iter().any(|k| descriptor.contains_key(k))
    };
    let metrics = |descriptor: Option<Dict<'_>>, font: &mut Font| -> bool {
        let Some(d) = descriptor else { return false };
        if let (Some(a), Some(de)) = (d.get::<f32>("Ascent"), d.get::<f32>("Descent")) {
            if a > de {
                (font.ascent, font.descent) = (a / 1000.0, de / 1000.0);
            }
        }
        has_file(&d)
    };
    let embedded = match subtype.as_str() {
        "Type0" => {
            font.two_byte = true;
            let cid =
                dict.get::<Array<'_>>("DescendantFonts").and_then(|a| a.iter::<Dict<'_>>().next());
            match cid {
                Some(cid) => {
                    font.default_width = cid.get::<f32>("DW").unwrap_or(1000.0) / 1000.0;
                    if let Some(w) = cid.get::<Array<'_>>("W") {
                        read_cid_widths(&w, &mut font.widths);
                    }
                    font.ink = read_ink(&cid, font.widths.keys().copied());
                    metrics(cid.get::<Dict<'_>>("FontDescriptor"), &mut font)
                }
                None => false,
            }
        }
        "Type3" => {
            // Its glyphs are content streams in the file: embedded by what it is.
            let matrix =
                dict.get::<Array<'_>>("FontMatrix").map(|m| m.iter::<f32>().collect::<Vec<_>>());
            let (sx, sy) = match matrix.as_deref() {
                Some([a, _, _, d, ..]) => (*a, *d),
                _ => (0.001, 0.001),
            };
            font.em = (sy / 0.001).abs();
            read_simple_widths(dict, sx, &mut font.widths);
            if let Some(b) = dict.get::<hayro_syntax::object::Rect>("FontBBox") {
                let (lo, hi) = ((b.y0.min(b.y1) as f32) * sy, (b.y0.max(b.y1) as f32) * sy);
                if hi > lo {
                    (font.ascent, font.descent) = (hi / font.em.max(1e-6), lo / font.em.max(1e-6));
                }
            }
            true
        }
        _ => {
            read_simple_widths(dict, 0.001, &mut font.widths);
            font.default_width = 0.5;
            metrics(dict.get::<Dict<'_>>("FontDescriptor"), &mut font)
        }
    };
    let shown = if name.is_empty() { subtype } else { name.clone() };
    (font, FontUse { name: shown, embedded })
}

/// A CIDFont's `/W`: `c [w1 w2 …]` or `c_first c_last w`.
fn read_cid_widths(w: &Array<'_>, widths: &mut HashMap<u32, f32>) {
    let items: Vec<Object<'_>> = w.iter::<Object<'_>>().collect();
    // Codes are two bytes (Identity-H), and a hostile `/W` may repeat ranges: the work is
    // bounded, the rest of the codes take the default width.
    let mut budget = MAX_CODES_READ;
    let mut set = |code: u32, width: f32, budget: &mut usize| {
        if code <= 0xFFFF && *budget > 0 {
            *budget -= 1;
            widths.insert(code, width);
        }
    };
    let mut i = 0;
    while i + 1 < items.len() && budget > 0 {
        let first = match &items[i] {
            Object::Number(n) => n.as_f64().clamp(0.0, 65_536.0) as u32,
            _ => return,
        };
        match &items[i + 1] {
            Object::Array(list) => {
                for (k, width) in list.iter::<f32>().enumerate().take(65_536) {
                    set(first + k as u32, width / 1000.0, &mut budget);
                }
                i += 2;
            }
            Object::Number(last) if i + 2 < items.len() => {
                let width = match &items[i + 2] {
                    Object::Number(n) => n.as_f32() / 1000.0,
                    _ => return,
                };
                let last = last.as_f64().clamp(0.0, 65_535.0) as u32;
                for code in first..=last {
                    set(code, width, &mut budget);
                }
                i += 3;
            }
            _ => return,
        }
    }
}

/// A simple font's `/FirstChar` and `/Widths`, scaled to a unit of font size.
fn read_simple_widths(dict: &Dict<'_>, scale: f32, widths: &mut HashMap<u32, f32>) {
    let first = dict.get::<f32>("FirstChar").unwrap_or(0.0) as u32;
    if let Some(list) = dict.get::<Array<'_>>("Widths") {
        for (k, w) in list.iter::<f32>().enumerate().take(256) {
            widths.insert(first + k as u32, w * scale);
        }
    }
}

/// The `bfchar` and `bfrange` entries of a ToUnicode CMap: code → text.
fn parse_to_unicode(cmap: &[u8]) -> HashMap<u32, String> {
    let text = String::from_utf8_lossy(cmap);
    let hex = |s: &str| u32::from_str_radix(s, 16).ok();
    let utf16 = |s: &str| -> String {
        let units: Vec<u16> = (0..s.len() / 4)
            .filter_map(|i| u16::from_str_radix(s.get(i * 4..i * 4 + 4)?, 16).ok())
            .collect();
        String::from_utf16_lossy(&units)
    };
    let mut map = HashMap::new();
    let mut budget = MAX_CODES_READ;
    for (section, end) in [("beginbfchar", "endbfchar"), ("beginbfrange", "endbfrange")] {
        for part in text.split(section).skip(1) {
            let body = part.split(end).next().unwrap_or("");
            let tokens: Vec<&str> =
                body.split(['<', '>', '\n', '\r', ' ', '\t']).filter(|t| !t.is_empty()).collect();
            if section == "beginbfchar" {
                for pair in tokens.chunks(2) {
                    if let [code, to] = pair {
                        if let Some(code) = hex(code) {
                            map.insert(code, utf16(to));
                        }
                    }
                }
            } else {
                // Ranges onto arrays ("[<…> <…>]") are rare and left to print as codes.
                for triple in tokens.chunks(3) {
                    if let [lo, hi, to] = triple {
                        let (Some(lo), Some(hi)) = (hex(lo), hex(hi)) else { continue };
                        let Some(base) = hex(to) else { continue };
                        for (k, code) in (lo..=hi.min(lo.saturating_add(0xFFFF))).enumerate() {
                            if budget == 0 {
                                return map;
                            }
                            budget -= 1;
                            let c = base.checked_add(k as u32).and_then(char::from_u32);
                            map.insert(code, c.map(String::from).unwrap_or_default());
                        }
                    }
                }
            }
        }
    }
    map
}
