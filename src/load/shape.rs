//! A deck's outline as game.toml gives it: `shape`, a hex tile's `hex` orientation and
//! size, and a rect piece's rounded `corner`, checked against each other.

use std::path::Path;

use toml::Spanned;

use super::game_toml::{RawCardSize, RawDeck};
use super::Loader;
use crate::diag::accepted;
use crate::length::Length;
use crate::model::{HexTop, Shape};

/// How far a hex tile's given height may be from the one its width makes: a rounding of
/// the third decimal, not a different shape.
const HEX_HEIGHT_TOLERANCE_MM: f32 = 0.05;

impl Loader<'_> {
    /// `shape` and, for hex tiles, `hex`: the piece's outline.
    pub(super) fn shape(&mut self, raw: &RawDeck) -> Shape {
        let shape = match raw.shape.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
            None | Some(("rect", _)) => Shape::Rect,
            Some(("circle", _)) => Shape::Circle,
            Some(("hex", _)) => Shape::Hex(HexTop::Flat),
            Some((other, span)) => {
                self.error(
                    span,
                    format!("unknown shape `{other}`"),
                    format!("use {}", accepted(["rect", "circle", "hex"])),
                );
                Shape::Rect
            }
        };
        let Some(hex) = &raw.hex else { return shape };
        let top = match hex.get_ref().as_str() {
            "flat" => HexTop::Flat,
            "pointy" => HexTop::Pointy,
            other => {
                self.error(
                    hex.span(),
                    format!("unknown hex orientation `{other}`"),
                    format!("use {} (an edge or a corner on top)", accepted(["flat", "pointy"])),
                );
                HexTop::Flat
            }
        };
        match shape {
            Shape::Hex(_) => Shape::Hex(top),
            _ => {
                self.error(
                    hex.span(),
                    "`hex` is for hex tiles",
                    "add shape = \"hex\", or drop `hex`",
                );
                shape
            }
        }
    }

    /// A hex tile's size: its `width` across, and the height that width makes (a given
    /// `height` must be that one).
    pub(super) fn hex_size(
        &mut self,
        deck: std::ops::Range<usize>,
        size: Option<&Spanned<RawCardSize>>,
        top: HexTop,
        file: &Path,
    ) -> Option<(Length, Length)> {
        let example = format!(
            "card = {{ width = \"60mm\" }}: a {}-topped hex 60mm across is {:.2}mm high",
            top.name(),
            60.0 * top.aspect()
        );
        let Some(size) = size else {
            self.error(
                deck,
                "a hex deck needs its own `card = { width = \"…\" }`, the width across the tile",
                example,
            );
            return None;
        };
        let raw = size.get_ref();
        let Some(width) = raw.width.as_ref().filter(|_| raw.size.is_none()) else {
            self.error_in(file, size.span(), "a hex tile's size is its `width` across", example);
            return None;
        };
        let width = match Length::parse(width.get_ref()) {
            Ok(w) if (10.0..=400.0).contains(&w.to_mm()) => w,
            Ok(w) => {
                self.error_in(
                    file,
                    width.span(),
                    format!("a hex tile {w} across cannot be printed"),
                    "tiles must be between 10mm and 400mm across",
                );
                return None;
            }
            Err(message) => {
                self.error_in(file, width.span(), message, "widths look like `60mm` or `2.5in`");
                return None;
            }
        };
        let height = Length::mm(width.to_mm() * top.aspect());
        if let Some(given) = &raw.height {
            match Length::parse(given.get_ref()) {
                Ok(h) if (h.to_mm() - height.to_mm()).abs() <= HEX_HEIGHT_TOLERANCE_MM => {}
                Ok(h) => {
                    let message = format!(
                        "a {}-topped hex {width} across is {:.2}mm high, not {h}",
                        top.name(),
                        height.to_mm()
                    );
                    self.error_in(
                        file,
                        given.span(),
                        message,
                        "leave `height` out: it follows from the width",
                    );
                }
                Err(message) => self.error_in(
                    file,
                    given.span(),
                    message,
                    "or leave `height` out: it follows from the width",
                ),
            }
        }
        Some((width, height))
    }

    /// `corner`: the radius of a rect piece's corners, at most half its shorter side.
    pub(super) fn corner(&mut self, raw: &RawDeck, shape: Shape, size: (Length, Length)) -> Length {
        let Some(corner) = &raw.corner else { return Length::ZERO };
        let radius = match Length::parse(corner.get_ref()) {
            Ok(r) => r,
            Err(message) => {
                self.error(corner.span(), message, "corners look like `3mm` or `0.125in`");
                return Length::ZERO;
            }
        };
        if shape != Shape::Rect {
            self.error(
                corner.span(),
                "`corner` rounds a rect piece's corners",
                "circles and hexes have no corners to round: drop `corner`",
            );
            return Length::ZERO;
        }
        let half = if size.0 < size.1 { size.0 } else { size.1 } * 0.5;
        if radius > half {
            self.error(
                corner.span(),
                format!("a {radius} corner is more than half the piece's shorter side ({half})"),
                format!("at most {half}; playing cards use about 3mm"),
            );
            return Length::ZERO;
        }
        radius
    }
}
