//! `[[sheet]]` tables with `labels`: a sheet of labels or stickers, loaded as a deck whose
//! pieces are the labels (one per row copy, `card.*` in its `face`), laid out where the
//! product's template puts them (`crate::labels`).

use toml::Spanned;

use super::game_toml::{RawLabels, RawOwnLabels, RawSheet};
use super::{Kind, Loader};
use crate::diag::accepted;
use crate::labels::{LabelShape, Layout};
use crate::length::Length;
use crate::model::{Deck, Field, Shape};

impl Loader<'_> {
    /// A label sheet as a deck; `None` (with the problems said) when it cannot be one.
    pub(super) fn label_sheet(
        &mut self,
        spanned: &Spanned<RawSheet>,
        labels: &Spanned<RawLabels>,
        fields: &[Field],
    ) -> Option<Deck> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
        for (key, given) in [
            ("template", raw.template.is_some()),
            ("from", raw.from.is_some()),
            ("page", raw.page.is_some()),
            ("width", raw.width.is_some()),
            ("height", raw.height.is_some()),
            ("data", raw.data.is_some()),
        ] {
            if given {
                self.error(
                    spanned.span(),
                    format!("label sheet `{id}` cannot have `{key}`"),
                    "a label sheet takes its paper and sizes from `labels`, and draws each label with `face` from `rows`",
                );
            }
        }
        let layout = self.label_layout(labels)?;
        let (Some(rows_rel), Some(face_rel)) = (&raw.rows, &raw.face) else {
            self.error(
                spanned.span(),
                format!("label sheet `{id}` needs `rows` and `face`"),
                "name the CSV of what goes on the labels (one label per row copy) and the SVG template of one label",
            );
            return None;
        };
        let world = self.world.clone();
        let face = self.template_in(&world, face_rel);
        let (rows, rows_file) = self.sheet_rows(raw, rows_rel, fields, Kind::Deck, &id);
        let face = face?;
        let (shape, corner) = match layout.shape {
            LabelShape::Rect { corner } => (Shape::Rect, corner),
            LabelShape::Round => (Shape::Circle, Length::ZERO),
        };
        Some(Deck {
            name: raw.name.clone().unwrap_or_else(|| id.clone()),
            id,
            width: layout.label.0,
            height: layout.label.1,
            rows,
            rows_file,
            // A label has no back: the face stands in for a template never drawn.
            back: face.clone(),
            face,
            shape,
            corner,
            gap: Length::ZERO,
            // The art is clipped to the die-cut outline: nothing past it prints.
            bleed: Length::ZERO,
            back_per_card: false,
            name_field: None,
            labels: Some(layout),
        })
    }

    /// The layout `labels` names or gives.
    fn label_layout(&mut self, labels: &Spanned<RawLabels>) -> Option<Layout> {
        let span = labels.span();
        let layout = match labels.get_ref() {
            RawLabels::Named(name) => match crate::labels::find(name) {
                Some(product) => product.layout,
                None => {
                    self.error(
                        span,
                        format!("unknown label sheet `{name}`"),
                        format!(
                            "{}known label sheets: {}; or give your own as a table: labels = {{ paper = \"a4\", width = \"63.5mm\", height = \"38.1mm\", columns = 3, rows = 7, left = \"7.21mm\", top = \"15.15mm\", across = \"66.04mm\" }}",
                            crate::diag::closest(name, crate::labels::names())
                                .map_or_else(String::new, |c| format!("did you mean `{c}`? ")),
                            accepted(crate::labels::names())
                        ),
                    );
                    return None;
                }
            },
            RawLabels::Own(own) => self.own_labels(own, span.clone())?,
        };
        if let Some(problem) = layout.problem() {
            self.error(
                span,
                format!("the label sheet does not fit: {problem}"),
                "measure the maker's template again: `left` and `top` to the first label, `across` and `down` from one label to the next",
            );
            return None;
        }
        Some(layout)
    }

    fn own_labels(&mut self, own: &RawOwnLabels, span: std::ops::Range<usize>) -> Option<Layout> {
        let paper = match own.paper.as_str() {
            "a4" | "letter" => {
                let paper = crate::paper::named(&own.paper).unwrap_or(crate::paper::A4);
                (paper.name, paper.width, paper.height)
            }
            other => {
                self.error(
                    span,
                    format!("unknown label paper `{other}`"),
                    format!("use {}", accepted(["a4", "letter"])),
                );
                return None;
            }
        };
        let length = |this: &mut Self, key: &str, text: &str, least: f32| -> Option<Length> {
            match Length::parse(text) {
                Ok(l) if l.to_mm() >= least => Some(l),
                Ok(l) => {
                    this.error(
                        span.clone(),
                        format!("label `{key}` {l} is too small"),
                        format!("at least {least} mm"),
                    );
                    None
                }
                Err(message) => {
                    this.error(
                        span.clone(),
                        format!("label `{key}`: {message}"),
                        "lengths look like `25mm` or `1in`",
                    );
                    None
                }
            }
        };
        let width = length(self, "width", &own.width, 5.0);
        let height = length(self, "height", &own.height, 5.0);
        let left = length(self, "left", &own.left, 0.0);
        let top = length(self, "top", &own.top, 0.0);
        let across = own.across.as_deref().map(|a| length(self, "across", a, 5.0));
        let down = own.down.as_deref().map(|d| length(self, "down", d, 5.0));
        let corner = own.corner.as_deref().map(|c| length(self, "corner", c, 0.0));
        let (width, height, left, top) = (width?, height?, left?, top?);
        let shape = match own.shape.as_deref() {
            None | Some("rect") => {
                LabelShape::Rect { corner: corner.flatten().unwrap_or(Length::ZERO) }
            }
            Some("round") if (width.to_mm() - height.to_mm()).abs() < 0.01 => {
                if corner.is_some() {
                    self.error(span.clone(), "a round label has no corners", "drop `corner`");
                }
                LabelShape::Round
            }
            Some("round") => {
                self.error(
                    span,
                    format!("a round label is as wide as it is high, not {width} × {height}"),
                    "give the circle's diameter as both `width` and `height`",
                );
                return None;
            }
            Some(other) => {
                self.error(
                    span,
                    format!("unknown label shape `{other}`"),
                    format!("use {}", accepted(["rect", "round"])),
                );
                return None;
            }
        };
        if let LabelShape::Rect { corner } = shape {
            let half = if width < height { width } else { height } * 0.5;
            if corner > half {
                self.error(
                    span,
                    format!("a {corner} corner is more than half the label's shorter side"),
                    format!("at most {half}"),
                );
                return None;
            }
        }
        Some(Layout {
            name: "custom",
            paper,
            label: (width, height),
            shape,
            columns: own.columns,
            rows: own.rows,
            pitch: (across.flatten().unwrap_or(width), down.flatten().unwrap_or(height)),
            margin: (left, top),
        })
    }
}
