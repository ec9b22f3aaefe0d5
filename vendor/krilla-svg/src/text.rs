use std::collections::hash_map::Entry;
use std::collections::HashMap;

use fontdb::Database;
use krilla::color::rgb;
use krilla::geom::Point;
use krilla::num::NormalizedF32;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use skrifa::{FontRef, MetadataProvider};
use smallvec::SmallVec;
use usvg::tiny_skia_path::Transform;
use usvg::{FontOpticalSizing, FontVariation, PaintOrder};

use crate::util::{convert_fill, convert_stroke, UsvgTransformExt};
use crate::{path, ProcessContext};

/// Render a text into a surface.
pub(crate) fn render(
    text: &usvg::Text,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) {
    for span in text.layouted() {
        if !span.visible {
            continue;
        }

        if let Some(overline) = &span.overline {
            path::render(overline, surface, process_context);
        }

        if let Some(underline) = &span.underline {
            path::render(underline, surface, process_context);
        }

        // deckpress: glyphs are drawn in runs (one `draw_glyphs` call, i.e. one BT/Tf/Tm and
        // one TJ, per run) rather than one q/cm/BT/Tf/Tm/Tj/ET/Q block per glyph, which made
        // text dominate the size of the PDF. A run is a sequence of glyphs of the same font
        // whose transforms differ only by a translation along the first glyph's baseline;
        // anything else (rotated glyphs, text on a path, baseline shifts) starts a new run.
        // A run of one glyph is drawn exactly as upstream draws every glyph.
        let glyphs = &span.positioned_glyphs;
        let mut start = 0;
        while start < glyphs.len() {
            start += render_run(span, &glyphs[start..], surface, process_context).max(1);
        }

        if let Some(line_through) = &span.line_through {
            path::render(line_through, surface, process_context);
        }
    }
}

/// Glyph positions closer than this (in font units) to a whole number of font units are
/// snapped to it: the layout's `f32` arithmetic leaves noise in the last bits that would
/// otherwise become tiny TJ adjustments. The pen position is tracked, so snapping never
/// accumulates: every glyph stays within this distance of where the layout put it.
const SNAP_UNITS: f64 = 0.05;

/// Draws the longest run at the start of `glyphs` that can be one text showing operation
/// (see `render`) and returns how many glyphs it consumed.
fn render_run(
    span: &usvg::layout::Span,
    glyphs: &[usvg::layout::PositionedGlyph],
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) -> usize {
    let first = &glyphs[0];
    // Ignore glyph if font can't be fetched.
    let Some(font) = process_context.fonts.retrieve(span, first.font) else {
        return 1;
    };

    let upem = font.units_per_em();
    let font_size = span.font_size.get();

    // The text transform contains the scale transform `font_size / upem`, we need to invert that
    // so we only get the raw transform to account for the glyph position, and the font size
    // is being taken care of by krilla.
    let raw_transform = |glyph: &usvg::layout::PositionedGlyph| {
        glyph
            .transform()
            .pre_concat(Transform::from_scale(upem / font_size, upem / font_size))
    };
    let transform = raw_transform(first);

    let Some(inverted) = transform.invert() else {
        return 1;
    };

    // Where each further glyph of the run starts, in the first glyph's coordinate system
    // (user units along its baseline).
    let mut origins = vec![0.0f64];
    for glyph in &glyphs[1..] {
        if glyph.font != first.font {
            break;
        }
        let t = raw_transform(glyph);
        let same_linear = [(t.sx, transform.sx), (t.kx, transform.kx), (t.ky, transform.ky), (t.sy, transform.sy)]
            .iter()
            .all(|&(a, b)| (a - b).abs() <= 1e-6 * (1.0 + b.abs()));
        if !same_linear {
            break;
        }
        // The translation between the two glyphs, mapped back through the shared linear part.
        let (dx, dy) = ((t.tx as f64) - (transform.tx as f64), (t.ty as f64) - (transform.ty as f64));
        let (a, b, c, d) = (inverted.sx as f64, inverted.ky as f64, inverted.kx as f64, inverted.sy as f64);
        let (x, y) = (a * dx + c * dy, b * dx + d * dy);
        // Off the baseline (superscripts, vertical text, ...): not a simple run.
        if (y / font_size as f64 * upem as f64).abs() > SNAP_UNITS {
            break;
        }
        origins.push(x);
    }
    let run = &glyphs[..origins.len()];

    // Advances in em (krilla multiplies them by the font size). The last glyph's advance only
    // moves the pen after the run; it is the font's own, so that krilla's box of the run
    // (which clips a form XObject) reaches past the last glyph, not only to its start.
    let upem64 = upem as f64;
    let mut krilla_glyphs = Vec::with_capacity(run.len());
    let mut text = String::new();
    let mut pen = 0.0f64;
    for (i, glyph) in run.iter().enumerate() {
        let x_advance = match origins.get(i + 1) {
            Some(next) => {
                let wanted = (next / font_size as f64 - pen) * upem64;
                let snapped = wanted.round();
                let units = if (wanted - snapped).abs() <= SNAP_UNITS { snapped } else { wanted };
                // Same f32 expression krilla uses for the font's own advance, so an unkerned
                // glyph gets an adjustment of exactly zero.
                let advance = units as f32 / upem;
                pen += advance as f64;
                advance
            }
            None => process_context.fonts.advance(first.font, glyph.id.0).map_or(0.0, |units| units / upem),
        };
        let range = text.len()..text.len() + glyph.text.len();
        text.push_str(&glyph.text);
        krilla_glyphs.push(KrillaGlyph::new(
            GlyphId::new(glyph.id.0 as u32),
            x_advance,
            0.0,
            0.0,
            0.0,
            range,
            None,
        ));
    }

    // We need to apply the inverse transform to fill/stroke because we don't
    // want the paint to be affected by the transform applied to the glyph. See docs
    // of `convert_paint`.
    let fill = span
        .fill
        .as_ref()
        .map(|f| convert_fill(f, surface.stream_builder(), process_context, inverted, crate::Ink::Text));

    let stroke = span
        .stroke
        .as_ref()
        .map(|s| convert_stroke(s, surface.stream_builder(), process_context, inverted));

    let draw_op = |s: &mut Surface,
                   fill: Option<Fill>,
                   stroke: Option<Stroke>,
                   font: Font,
                   embed_text: bool| {
        s.set_fill(fill);
        s.set_stroke(stroke);

        s.draw_glyphs(
            Point::from_xy(0.0, 0.0),
            &krilla_glyphs,
            font,
            &text,
            font_size,
            !embed_text,
        );
    };

    surface.push_transform(&transform.to_krilla());

    if fill.is_none() && stroke.is_none() {
        // Emulate invisible glyph by drawing it with an opacity of zero.
        draw_op(
            surface,
            Some(Fill {
                paint: rgb::Color::new(0, 0, 0).into(),
                opacity: NormalizedF32::ZERO,
                rule: Default::default(),
            }),
            None,
            font,
            process_context.svg_settings.embed_text,
        )
    } else if matches!(span.paint_order, PaintOrder::FillAndStroke)
        || fill.is_none()
        || stroke.is_none()
    {
        draw_op(
            surface,
            fill,
            stroke,
            font.clone(),
            process_context.svg_settings.embed_text,
        );
    } else {
        // Paint order stroke and fill, and we have BOTH, a fill and
        // stroke.

        // We always draw the text outlined in this case, so that
        // text won't be embedded twice.
        draw_op(surface, None, stroke, font.clone(), false);

        draw_op(
            surface,
            fill,
            None,
            font.clone(),
            process_context.svg_settings.embed_text,
        );
    }

    surface.pop();

    run.len()
}

/// Manages the krilla fonts used by an SVG.
pub(crate) struct Fonts<'a> {
    db: &'a mut Database,
    fonts: HashMap<FontInstance, Option<Font>>,
    supported_axes: HashMap<fontdb::ID, SmallVec<[[u8; 4]; 2]>>,
}

/// Identifies a font at specific variation coordinates.
type FontInstance = (fontdb::ID, FontVariations);
type FontVariations = SmallVec<[FontVariation; 2]>;

impl<'a> Fonts<'a> {
    pub(crate) fn new(db: &'a mut Database) -> Self {
        Self {
            db,
            fonts: HashMap::new(),
            supported_axes: HashMap::new(),
        }
    }

    /// A glyph's advance width in font units, as the font's metrics give it.
    fn advance(&self, id: fontdb::ID, glyph: u16) -> Option<f32> {
        self.db
            .with_face_data(id, |data, index| {
                let font = FontRef::from_index(data, index).ok()?;
                let metrics = font.glyph_metrics(skrifa::instance::Size::unscaled(), skrifa::instance::LocationRef::default());
                metrics.advance_width(skrifa::GlyphId::new(u32::from(glyph)))
            })
            .flatten()
    }

        /// Retrieves the font identified by `id` from the cache or loads it.
    fn retrieve(&mut self, span: &usvg::layout::Span, id: fontdb::ID) -> Option<Font> {
        let variations = self.resolve_variations(span, id);
        match self.fonts.entry((id, variations)) {
            Entry::Occupied(entry) => entry.get().clone(),
            Entry::Vacant(entry) => {
                let font = if let Some((font_data, index)) =
                    unsafe { self.db.make_shared_face_data(id) }
                {
                    let variations = &entry.key().1;
                    let coords: SmallVec<[_; 2]> = variations
                        .iter()
                        .map(|var| (krilla::text::Tag::new(&var.tag), var.value))
                        .collect();
                    Font::new_variable(font_data.into(), index, &coords)
                } else {
                    None
                };

                entry.insert(font.clone());
                font
            }
        }
    }

    /// Resolves which variations are applicable for the given font (filtering out undefined axis
    /// values and taking into account optical sizing).
    fn resolve_variations(&mut self, span: &usvg::layout::Span, id: fontdb::ID) -> FontVariations {
        let supported_axes = self.supported_axes.entry(id).or_insert_with(|| {
            self.db
                .with_face_data(id, |data, index| {
                    FontRef::from_index(data, index)
                        .into_iter()
                        .flat_map(|font| font.axes().iter())
                        .map(|axis| axis.tag().to_be_bytes())
                        .collect()
                })
                .unwrap_or_default()
        });
        let is_supported = |tag| supported_axes.contains(tag);

        let mut variations: FontVariations = span
            .variations
            .iter()
            .filter(|var| is_supported(&var.tag))
            .copied()
            .collect();

        // Set the font size for optical sizing if desired, supported, and not manually set.
        const OPSZ: &[u8; 4] = b"opsz";
        if span.font_optical_sizing == FontOpticalSizing::Auto
            && is_supported(OPSZ)
            && !variations.iter().any(|v| v.tag == *OPSZ)
        {
            variations.push(FontVariation {
                tag: *OPSZ,
                value: span.font_size.get(),
            });
        }

        variations
    }
}
