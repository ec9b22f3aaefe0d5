//! Stage `export` (page marks): a layout `Layer` → a usvg tree of the page in millimetres,
//! drawn with the bundled fonts like any art, so that marks are vector art and their text
//! stays text.

use std::fmt::Write;

use crate::layout::marks::{Anchor, Layer, PageMark, Rgb};
use crate::length::Length;
use crate::render::canvas::escape_xml;

/// The marks of `layer` over a page of `size`.
pub fn tree(layer: &Layer, size: (Length, Length)) -> Result<usvg::Tree, String> {
    crate::render::decor(&svg(layer, size))
}

/// The SVG of a layer: the page in millimetres, the marks in order.
pub fn svg(layer: &Layer, size: (Length, Length)) -> String {
    let (w, h) = (size.0.to_mm(), size.1.to_mm());
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}" font-family="Noto Sans">"#
    );
    for mark in &layer.marks {
        // Writing to a String cannot fail.
        let _ = match mark {
            PageMark::Line { from, to, width, colour, dash } => {
                let dash = dash
                    .map(|(on, off)| format!(r#" stroke-dasharray="{on} {off}""#))
                    .unwrap_or_default();
                write!(
                    out,
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{width}"{dash}/>"#,
                    from.0,
                    from.1,
                    to.0,
                    to.1,
                    hex(*colour)
                )
            }
            PageMark::Frame { x, y, w, h, colour, width } => write!(
                out,
                r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="none" stroke="{}" stroke-width="{width}"/>"#,
                hex(*colour)
            ),
            PageMark::Arrow { at: (x, y), down: false } => write!(
                out,
                r##"<path d="M {} {} l -2.5 -1.8 v 3.6 z" fill="#000000"/>"##,
                x + 0.2,
                y
            ),
            PageMark::Arrow { at: (x, y), down: true } => write!(
                out,
                r##"<path d="M {} {} l -1.8 -2.5 h 3.6 z" fill="#000000"/>"##,
                x,
                y + 0.2
            ),
            PageMark::Text(t) => {
                let (x, y) = t.at;
                let weight = if t.bold { r#" font-weight="bold""# } else { "" };
                let anchor = match t.anchor {
                    Anchor::Start => "",
                    Anchor::Middle => r#" text-anchor="middle""#,
                    Anchor::End => r#" text-anchor="end""#,
                };
                let fill = t.colour.map(|c| format!(r#" fill="{}""#, hex(c))).unwrap_or_default();
                let rotate = t
                    .rotate
                    .map(|(deg, (cx, cy))| format!(r#" transform="rotate({deg} {cx} {cy})""#))
                    .unwrap_or_default();
                write!(
                    out,
                    r#"<text x="{x}" y="{y}" font-size="{}"{weight}{anchor}{fill}{rotate}>{}</text>"#,
                    t.size,
                    escape_xml(&t.text)
                )
            }
        };
    }
    out.push_str("</svg>");
    out
}

fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

#[cfg(test)]
mod tests {
    use crate::layout::{Rect, Sheet};
    use crate::length::Length;
    use crate::model::ArtRef;

    #[test]
    fn tile_marks_only_use_characters_the_bundled_fonts_have() {
        let mm = Length::mm;
        let sheets = crate::layout::sheets::tiles(
            ArtRef::Sheet { sheet: 0 },
            (mm(300.0), mm(500.0)),
            (mm(210.0), mm(297.0)),
            "Board & <co>",
            &[],
        );
        for sheet in &sheets {
            super::tree(&sheet.decor[0], (sheet.width, sheet.height)).unwrap();
        }
    }

    #[test]
    fn slug_marks_fall_back_to_the_symbol_fonts() {
        let mm = Length::mm;
        let mut sheets = vec![Sheet {
            trim: Rect { x: mm(20.0), y: mm(20.0), w: mm(170.0), h: mm(250.0) },
            ..Sheet::blank(mm(210.0), mm(297.0))
        }];
        crate::layout::slug(
            &mut sheets,
            "Anti-Trump — Anti-Trump deck (♦ ♣ ♠)",
            "duplex, long-edge flip",
            &|text: &str| text.chars().count() as f32 * 0.6,
        );
        assert!(!sheets[0].decor.is_empty(), "a sheet with margins gets a slug");
        for layer in &sheets[0].decor {
            let tree = super::tree(layer, (sheets[0].width, sheets[0].height));
            assert!(tree.is_ok(), "{:?} {layer:?}", tree.err());
        }
    }
}
