//! Label and sticker sheets as data: one row per product, with the numbers its maker's
//! published template gives (paper, label size, grid, pitch, margins), read by the loader
//! (`[[sheet]] labels = "avery-l7160"`) and the label layout. Adding a product is one row
//! here and one line in docs/catalogue.md; nothing else branches on a product's name.
//!
//! Sources, for every row: the maker's template page for the product (its "template
//! specification" table: top and side margin, horizontal and vertical pitch, label size),
//! cross-checked against the gLabels template database (github.com/jimevins/glabels-qt,
//! templates/avery-iso-templates.xml and avery-us-templates.xml), which also gives the
//! corner radii the makers draw but do not print in the table. Each row's margins and
//! pitches were checked to centre the grid on the paper (a test below).

use crate::length::Length;

/// The die-cut outline of every label of a sheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LabelShape {
    /// A rectangle; corners rounded to this radius (zero: square).
    Rect { corner: Length },
    /// A circle (or an ellipse, when width and height differ) filling the label.
    Round,
}

/// A sheet of labels, every length resolved: a product of the table or the designer's own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// What the designer wrote (`avery-l7160`), or `custom`.
    pub name: &'static str,
    /// The paper's name in file names (`a4`, `letter`) and its size.
    pub paper: (&'static str, Length, Length),
    /// One label.
    pub label: (Length, Length),
    pub shape: LabelShape,
    pub columns: u32,
    pub rows: u32,
    /// From one label's left (top) edge to the next one's.
    pub pitch: (Length, Length),
    /// From the paper's left and top edges to the first label's.
    pub margin: (Length, Length),
}

impl Layout {
    pub fn per_page(&self) -> usize {
        (self.columns * self.rows) as usize
    }

    /// The top-left corner of the label in `column`, `row` (from 0), from the paper's
    /// top-left corner: labels fill a sheet row by row, as the maker numbers them.
    pub fn corner(&self, column: u32, row: u32) -> (Length, Length) {
        (self.margin.0 + self.pitch.0 * column as f32, self.margin.1 + self.pitch.1 * row as f32)
    }

    /// Whether the grid lies on the paper and no two labels overlap.
    pub fn problem(&self) -> Option<String> {
        let eps = 0.01;
        let (lw, lh) = (self.label.0.to_mm(), self.label.1.to_mm());
        let (px, py) = (self.pitch.0.to_mm(), self.pitch.1.to_mm());
        if self.columns == 0 || self.rows == 0 {
            return Some("a sheet needs at least one column and one row".to_string());
        }
        if (self.columns > 1 && px < lw - eps) || (self.rows > 1 && py < lh - eps) {
            return Some(format!("labels {lw} × {lh} mm overlap at a pitch of {px} × {py} mm"));
        }
        let (x, y) = self.corner(self.columns - 1, self.rows - 1);
        let (right, bottom) = ((x + self.label.0).to_mm(), (y + self.label.1).to_mm());
        let (w, h) = (self.paper.1.to_mm(), self.paper.2.to_mm());
        if right > w + eps || bottom > h + eps {
            return Some(format!(
                "the last label reaches {right:.1} × {bottom:.1} mm, past the {w:.1} × {h:.1} mm paper"
            ));
        }
        None
    }
}

/// A label sheet of the table (a maker's product), in the units its maker publishes.
#[derive(Debug, Clone, Copy)]
pub struct LabelSheet {
    /// What `labels =` takes: maker and code, lower case (`avery-l7160`).
    pub name: &'static str,
    /// One line for docs and errors.
    pub about: &'static str,
    pub layout: Layout,
}

const fn mm(v: f32) -> Length {
    Length::mm(v)
}

const fn inch(v: f32) -> Length {
    Length::inches(v)
}

const fn paper(p: crate::paper::PaperSize) -> (&'static str, Length, Length) {
    (p.name, p.width, p.height)
}

const A4: (&str, Length, Length) = paper(crate::paper::A4);
const LETTER: (&str, Length, Length) = paper(crate::paper::LETTER);

/// Every label sheet deckpress knows by name.
pub const SHEETS: &[LabelSheet] = &[
    // avery.co.uk/template-l7160: 63.5 × 38.1 mm, 21 a sheet; top margin 15.15 mm, side
    // margin 7.21 mm, horizontal pitch 66.04 mm, vertical pitch 38.1 mm.
    LabelSheet {
        name: "avery-l7160",
        about: "Avery L7160 address labels, A4, 3 × 7 of 63.5 × 38.1 mm",
        layout: Layout {
            name: "avery-l7160",
            paper: A4,
            label: (mm(63.5), mm(38.1)),
            shape: LabelShape::Rect { corner: mm(1.5) },
            columns: 3,
            rows: 7,
            pitch: (mm(66.04), mm(38.1)),
            margin: (mm(7.21), mm(15.15)),
        },
    },
    // avery.co.uk/template-l7163: 99.1 × 38.1 mm, 14 a sheet; top margin 15.15 mm, side
    // margin 4.65 mm, horizontal pitch 101.6 mm, vertical pitch 38.1 mm.
    LabelSheet {
        name: "avery-l7163",
        about: "Avery L7163 parcel labels, A4, 2 × 7 of 99.1 × 38.1 mm",
        layout: Layout {
            name: "avery-l7163",
            paper: A4,
            label: (mm(99.1), mm(38.1)),
            shape: LabelShape::Rect { corner: mm(1.5) },
            columns: 2,
            rows: 7,
            pitch: (mm(101.6), mm(38.1)),
            margin: (mm(4.65), mm(15.15)),
        },
    },
    // avery.co.uk/template-l7651: 38.1 × 21.2 mm, 65 a sheet; top margin 10.7 mm, side
    // margin 4.75 mm, horizontal pitch 40.6 mm, vertical pitch 21.2 mm.
    LabelSheet {
        name: "avery-l7651",
        about: "Avery L7651 mini labels, A4, 5 × 13 of 38.1 × 21.2 mm",
        layout: Layout {
            name: "avery-l7651",
            paper: A4,
            label: (mm(38.1), mm(21.2)),
            shape: LabelShape::Rect { corner: mm(1.5) },
            columns: 5,
            rows: 13,
            pitch: (mm(40.6), mm(21.2)),
            margin: (mm(4.75), mm(10.7)),
        },
    },
    // avery.co.uk/template-l3415: 45.7 × 25.4 mm, 40 a sheet; top margin 21.5 mm, side
    // margin 9.7 mm, horizontal pitch 48.3 mm, vertical pitch 25.4 mm.
    LabelSheet {
        name: "avery-l3415",
        about: "Avery L3415 multipurpose labels, A4, 4 × 10 of 45.7 × 25.4 mm",
        layout: Layout {
            name: "avery-l3415",
            paper: A4,
            label: (mm(45.7), mm(25.4)),
            shape: LabelShape::Rect { corner: mm(1.5) },
            columns: 4,
            rows: 10,
            pitch: (mm(48.3), mm(25.4)),
            margin: (mm(9.7), mm(21.5)),
        },
    },
    // avery.com/templates/5160: 1 × 2 5/8 in, 30 a sheet; top margin 0.5 in, side margin
    // 3/16 in, horizontal pitch 2.75 in, vertical pitch 1 in.
    LabelSheet {
        name: "avery-5160",
        about: "Avery 5160 address labels, US Letter, 3 × 10 of 2 5/8 × 1 in",
        layout: Layout {
            name: "avery-5160",
            paper: LETTER,
            label: (inch(2.625), inch(1.0)),
            shape: LabelShape::Rect { corner: inch(0.0625) },
            columns: 3,
            rows: 10,
            pitch: (inch(2.75), inch(1.0)),
            margin: (inch(0.1875), inch(0.5)),
        },
    },
    // avery.com/templates/5163: 2 × 4 in, 10 a sheet; top margin 0.5 in, side margin
    // 5/32 in, horizontal pitch 4 3/16 in, vertical pitch 2 in.
    LabelSheet {
        name: "avery-5163",
        about: "Avery 5163 shipping labels, US Letter, 2 × 5 of 4 × 2 in",
        layout: Layout {
            name: "avery-5163",
            paper: LETTER,
            label: (inch(4.0), inch(2.0)),
            shape: LabelShape::Rect { corner: inch(0.125) },
            columns: 2,
            rows: 5,
            pitch: (inch(4.1875), inch(2.0)),
            margin: (inch(0.15625), inch(0.5)),
        },
    },
    // avery.com/templates/5164: 4 × 3 1/3 in, 6 a sheet; top margin 0.5 in, side margin
    // 5/32 in, horizontal pitch 4 3/16 in, vertical pitch 3 1/3 in.
    LabelSheet {
        name: "avery-5164",
        about: "Avery 5164 shipping labels, US Letter, 2 × 3 of 4 × 3 1/3 in",
        layout: Layout {
            name: "avery-5164",
            paper: LETTER,
            label: (inch(4.0), inch(10.0 / 3.0)),
            shape: LabelShape::Rect { corner: inch(0.125) },
            columns: 2,
            rows: 3,
            pitch: (inch(4.1875), inch(10.0 / 3.0)),
            margin: (inch(0.15625), inch(0.5)),
        },
    },
    // Round labels from the gLabels template database (avery-us-templates.xml, the
    // maker's US templates): radius, grid and first label's corner as it gives them.
    // 5193: 1 5/8 in round, 4 × 6; x0 0.4157 in, y0 0.549 in, pitch 2.0145 × 1.6554 in.
    LabelSheet {
        name: "avery-5193",
        about: "Avery 5193 round labels, US Letter, 4 × 6 of 1 5/8 in",
        layout: Layout {
            name: "avery-5193",
            paper: LETTER,
            label: (inch(1.625), inch(1.625)),
            shape: LabelShape::Round,
            columns: 4,
            rows: 6,
            pitch: (inch(2.0145), inch(1.6554)),
            margin: (inch(0.4157), inch(0.549)),
        },
    },
    // 5195: 3 5/16 in round, 2 × 3; x0 0.6406 in, y0 0.4844 in, pitch 3.9063 × 3.3594 in.
    LabelSheet {
        name: "avery-5195",
        about: "Avery 5195 round labels, US Letter, 2 × 3 of 3 5/16 in",
        layout: Layout {
            name: "avery-5195",
            paper: LETTER,
            label: (inch(3.3125), inch(3.3125)),
            shape: LabelShape::Round,
            columns: 2,
            rows: 3,
            pitch: (inch(3.9063), inch(3.3594)),
            margin: (inch(0.6406), inch(0.4844)),
        },
    },
    // 3274.2: 1 1/2 in round stickers, 4 × 5; x0 0.5 in, y0 0.75 in, pitch 2 × 2 in.
    LabelSheet {
        name: "avery-3274.2",
        about: "Avery 3274.2 small round stickers, US Letter, 4 × 5 of 1 1/2 in",
        layout: Layout {
            name: "avery-3274.2",
            paper: LETTER,
            label: (inch(1.5), inch(1.5)),
            shape: LabelShape::Round,
            columns: 4,
            rows: 5,
            pitch: (inch(2.0), inch(2.0)),
            margin: (inch(0.5), inch(0.75)),
        },
    },
];

/// The product called `name` (any case).
pub fn find(name: &str) -> Option<&'static LabelSheet> {
    SHEETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// The names `labels =` takes, for error messages.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHEETS.iter().map(|p| p.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_lies_on_its_paper_and_names_are_unique() {
        for (i, p) in SHEETS.iter().enumerate() {
            assert_eq!(p.name, p.layout.name);
            assert!(SHEETS[..i].iter().all(|o| o.name != p.name), "{} twice", p.name);
            assert_eq!(p.layout.problem(), None, "{}", p.name);
        }
    }

    #[test]
    fn every_grid_is_centred_across_its_paper() {
        // A transcription slip in a margin or pitch shows as a grid off centre: the makers
        // centre every sheet of the table across, within a tenth of a millimetre.
        for p in SHEETS {
            let l = &p.layout;
            let (x, _) = l.corner(l.columns - 1, 0);
            let right = l.paper.1.to_mm() - (x + l.label.0).to_mm();
            assert!((right - l.margin.0.to_mm()).abs() < 0.1, "{}: {right} right", p.name);
        }
    }
}
