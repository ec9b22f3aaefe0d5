//! Label and sticker sheets as data: each product's paper, label size and shape, and
//! where its labels lie (first label's corner, pitch across and down), from the makers'
//! published templates. A deck printed on one (`labels = "avery-l7160"`) is laid out
//! label by label, with no crop marks, each label's art clipped to its die-cut shape.

use crate::layout::Paper;
use crate::length::Length;
use crate::model::LabelSheet;

/// A label product: a row of the table.
pub struct Product {
    pub name: &'static str,
    pub about: &'static str,
    pub paper: Paper,
    /// Width and height of one label, millimetres.
    pub size: (f32, f32),
    pub round: bool,
    /// Corner radius of a rectangular label, millimetres.
    pub corner: f32,
    pub columns: u32,
    pub rows: u32,
    /// The first label's top-left corner from the sheet's, millimetres.
    pub first: (f32, f32),
    /// From one label's corner to the next one's, across and down, millimetres.
    pub pitch: (f32, f32),
}

const IN: f32 = 25.4;

/// The products `labels = "…"` names. A4 figures are Avery UK's template millimetres,
/// US Letter figures Avery US's template inches (converted exactly).
pub const PRODUCTS: &[Product] = &[
    // Avery L7160 template: 21 labels 63.5 × 38.1 mm, 3 × 7, top margin 15.15 mm, side
    // margin 7.2 mm, horizontal pitch 66.0 mm (2.5 mm gaps), vertical pitch 38.1 mm.
    Product {
        name: "avery-l7160",
        about: "Avery L7160: 21 address labels 63.5 × 38.1 mm on A4",
        paper: Paper::A4,
        size: (63.5, 38.1),
        round: false,
        corner: 1.5,
        columns: 3,
        rows: 7,
        first: (7.2, 15.15),
        pitch: (66.0, 38.1),
    },
    // Avery L7163 template: 14 labels 99.1 × 38.1 mm, 2 × 7, top 15.15 mm, side 4.65 mm,
    // horizontal pitch 101.6 mm, vertical pitch 38.1 mm.
    Product {
        name: "avery-l7163",
        about: "Avery L7163: 14 parcel labels 99.1 × 38.1 mm on A4",
        paper: Paper::A4,
        size: (99.1, 38.1),
        round: false,
        corner: 1.5,
        columns: 2,
        rows: 7,
        first: (4.65, 15.15),
        pitch: (101.6, 38.1),
    },
    // Avery L7651 template: 65 labels 38.1 × 21.2 mm, 5 × 13, top 10.7 mm, side 4.75 mm,
    // horizontal pitch 40.6 mm, vertical pitch 21.2 mm.
    Product {
        name: "avery-l7651",
        about: "Avery L7651: 65 mini labels 38.1 × 21.2 mm on A4",
        paper: Paper::A4,
        size: (38.1, 21.2),
        round: false,
        corner: 1.0,
        columns: 5,
        rows: 13,
        first: (4.75, 10.7),
        pitch: (40.6, 21.2),
    },
    // Avery 5160 template: 30 labels 2 5/8 × 1 in, 3 × 10, top margin 1/2 in, side 3/16 in,
    // horizontal pitch 2 3/4 in, vertical pitch 1 in.
    Product {
        name: "avery-5160",
        about: "Avery 5160: 30 address labels 2 5/8 × 1 in on US Letter",
        paper: Paper::Letter,
        size: (2.625 * IN, 1.0 * IN),
        round: false,
        corner: 0.0625 * IN,
        columns: 3,
        rows: 10,
        first: (0.1875 * IN, 0.5 * IN),
        pitch: (2.75 * IN, 1.0 * IN),
    },
    // Avery 5163 template: 10 labels 4 × 2 in, 2 × 5, top 1/2 in, side 5/32 in, horizontal
    // pitch 4 3/16 in, vertical pitch 2 in.
    Product {
        name: "avery-5163",
        about: "Avery 5163: 10 shipping labels 4 × 2 in on US Letter",
        paper: Paper::Letter,
        size: (4.0 * IN, 2.0 * IN),
        round: false,
        corner: 0.0625 * IN,
        columns: 2,
        rows: 5,
        first: (0.15625 * IN, 0.5 * IN),
        pitch: (4.1875 * IN, 2.0 * IN),
    },
    // Avery 5167 template: 80 labels 1 3/4 × 1/2 in, 4 × 20, top 1/2 in, side 0.3 in,
    // horizontal pitch 2.05 in, vertical pitch 1/2 in.
    Product {
        name: "avery-5167",
        about: "Avery 5167: 80 return-address labels 1 3/4 × 1/2 in on US Letter",
        paper: Paper::Letter,
        size: (1.75 * IN, 0.5 * IN),
        round: false,
        corner: 0.0625 * IN,
        columns: 4,
        rows: 20,
        first: (0.3 * IN, 0.5 * IN),
        pitch: (2.05 * IN, 0.5 * IN),
    },
];

impl Product {
    pub fn sheet(&self) -> LabelSheet {
        let mm = Length::mm;
        LabelSheet {
            name: self.name.to_string(),
            paper: self.paper.size(),
            paper_name: self.paper.name().to_string(),
            size: (mm(self.size.0), mm(self.size.1)),
            round: self.round,
            corner: mm(self.corner),
            columns: self.columns,
            rows: self.rows,
            first: (mm(self.first.0), mm(self.first.1)),
            pitch: (mm(self.pitch.0), mm(self.pitch.1)),
        }
    }
}

pub fn find(name: &str) -> Option<&'static Product> {
    PRODUCTS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_fits_its_paper_and_its_labels_do_not_overlap() {
        for p in PRODUCTS {
            let (pw, ph) = p.paper.size();
            let right = p.first.0 + (p.columns - 1) as f32 * p.pitch.0 + p.size.0;
            let bottom = p.first.1 + (p.rows - 1) as f32 * p.pitch.1 + p.size.1;
            assert!(right <= pw.to_mm() + 0.01 && bottom <= ph.to_mm() + 0.01, "{}", p.name);
            assert!(p.pitch.0 >= p.size.0 - 0.01 && p.pitch.1 >= p.size.1 - 0.01, "{}", p.name);
            assert_eq!(find(p.name).map(|f| f.name), Some(p.name));
        }
    }
}
