//! Stage `export` (cut files): a front `Sheet` → the cut contours of its pieces and its
//! registration marks, at 1:1 in millimetres, for print-then-cut machines. SVG keeps the
//! page's top-left origin; DXF (R12, ASCII: LINE, ARC, CIRCLE and SOLID entities, which
//! every cutter's software reads) has its origin at the page's bottom-left, y up.

use std::fmt::Write;

use super::die::n;
use crate::job::CutFormat;
use crate::layout::{hex, registration, Outline, Rect, Sheet};

impl CutFormat {
    pub fn extension(self) -> &'static str {
        match self {
            CutFormat::Svg => "svg",
            CutFormat::Dxf => "dxf",
        }
    }

    /// The cut file of a sheet, in this format.
    pub fn write(self, sheet: &Sheet) -> String {
        match self {
            CutFormat::Svg => svg(sheet),
            CutFormat::Dxf => dxf(sheet),
        }
    }
}

fn mm(r: &Rect) -> (f32, f32, f32, f32) {
    (r.x.to_mm(), r.y.to_mm(), r.w.to_mm(), r.h.to_mm())
}

/// The registration marks printed on the sheet: none on a sheet printed without them
/// (a label sheet, already die-cut; a tuck box cut by hand).
fn marks(sheet: &Sheet) -> Vec<Rect> {
    if sheet.registration {
        registration::marks(sheet.width, sheet.height)
    } else {
        Vec::new()
    }
}

/// The registration marks as filled black shapes (group `registration`) and every
/// piece's outline as a hairline (group `cut`): the machine cuts the paths, not the marks.
pub fn svg(sheet: &Sheet) -> String {
    let (w, h) = (sheet.width.to_mm(), sheet.height.to_mm());
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}mm\" height=\"{}mm\" viewBox=\"0 0 {} {}\">\n<g id=\"registration\" fill=\"#000000\" stroke=\"none\">\n",
        n(w),
        n(h),
        n(w),
        n(h)
    );
    for m in marks(sheet) {
        let (x, y, mw, mh) = mm(&m);
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
            n(x),
            n(y),
            n(mw),
            n(mh)
        );
    }
    out += "</g>\n<g id=\"cut\" fill=\"none\" stroke=\"#ff0000\" stroke-width=\"0.1\">\n";
    for cut in &sheet.cuts {
        let (x, y, cw, ch) = mm(&cut.rect());
        let _ = match cut {
            Outline::Rect(_) => writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                n(x),
                n(y),
                n(cw),
                n(ch)
            ),
            Outline::Rounded(_, c) => writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" ry=\"{}\"/>",
                n(x),
                n(y),
                n(cw),
                n(ch),
                n(c.to_mm()),
                n(c.to_mm())
            ),
            Outline::Circle(_) => writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                n(x + cw / 2.0),
                n(y + ch / 2.0),
                n(cw / 2.0)
            ),
            Outline::Hex(r, top) => {
                let points: Vec<String> = hex::corners(r, *top)
                    .iter()
                    .map(|(px, py)| format!("{},{}", n(*px), n(*py)))
                    .collect();
                writeln!(out, "<polygon points=\"{}\"/>", points.join(" "))
            }
        };
    }
    out += "</g>\n";
    if let Some(die) = &sheet.die {
        // A box has its die-line instead of pieces: its own `cut` and `score` groups.
        let empty = "<g id=\"cut\" fill=\"none\" stroke=\"#ff0000\" stroke-width=\"0.1\">\n</g>\n";
        if out.ends_with(empty) {
            out.truncate(out.len() - empty.len());
        }
        out += &super::die::svg(die);
    }
    out += "</svg>\n";
    out
}

/// The same as `svg`, as R12 DXF: outlines on layer `CUT`, marks as SOLIDs on layer
/// `REGISTRATION`.
pub fn dxf(sheet: &Sheet) -> String {
    let height = sheet.height.to_mm();
    // DXF's y grows upwards from the page's bottom edge.
    let up = |y: f32| height - y;
    let mut e = String::new();
    let line = |e: &mut String, (x1, y1): (f32, f32), (x2, y2): (f32, f32)| {
        let _ = write!(
            e,
            "0\nLINE\n8\nCUT\n10\n{}\n20\n{}\n30\n0\n11\n{}\n21\n{}\n31\n0\n",
            n(x1),
            n(up(y1)),
            n(x2),
            n(up(y2))
        );
    };
    // Centre in page coordinates; angles in degrees counter-clockwise from +x, y up.
    let arc = |e: &mut String, (cx, cy): (f32, f32), r: f32, from: f32, to: f32| {
        let _ = write!(
            e,
            "0\nARC\n8\nCUT\n10\n{}\n20\n{}\n30\n0\n40\n{}\n50\n{}\n51\n{}\n",
            n(cx),
            n(up(cy)),
            n(r),
            n(from),
            n(to)
        );
    };
    for m in marks(sheet) {
        let (x, y, w, h) = mm(&m);
        // A SOLID's third and fourth corners are given crosswise.
        let _ = write!(
            e,
            "0\nSOLID\n8\nREGISTRATION\n10\n{}\n20\n{}\n30\n0\n11\n{}\n21\n{}\n31\n0\n12\n{}\n22\n{}\n32\n0\n13\n{}\n23\n{}\n33\n0\n",
            n(x),
            n(up(y)),
            n(x + w),
            n(up(y)),
            n(x),
            n(up(y + h)),
            n(x + w),
            n(up(y + h))
        );
    }
    for cut in &sheet.cuts {
        let (x, y, w, h) = mm(&cut.rect());
        match cut {
            Outline::Rect(_) => {
                let c = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)];
                for i in 0..4 {
                    line(&mut e, c[i], c[(i + 1) % 4]);
                }
            }
            Outline::Rounded(_, c) => {
                let r = c.to_mm();
                let (x1, y1) = (x + w, y + h);
                line(&mut e, (x + r, y), (x1 - r, y));
                line(&mut e, (x1, y + r), (x1, y1 - r));
                line(&mut e, (x1 - r, y1), (x + r, y1));
                line(&mut e, (x, y1 - r), (x, y + r));
                // Top corners are the upper quarter circles once y points up.
                arc(&mut e, (x1 - r, y + r), r, 0.0, 90.0);
                arc(&mut e, (x + r, y + r), r, 90.0, 180.0);
                arc(&mut e, (x + r, y1 - r), r, 180.0, 270.0);
                arc(&mut e, (x1 - r, y1 - r), r, 270.0, 360.0);
            }
            Outline::Circle(_) => {
                let _ = write!(
                    e,
                    "0\nCIRCLE\n8\nCUT\n10\n{}\n20\n{}\n30\n0\n40\n{}\n",
                    n(x + w / 2.0),
                    n(up(y + h / 2.0)),
                    n(w / 2.0)
                );
            }
            Outline::Hex(r, top) => {
                let c = hex::corners(r, *top);
                for i in 0..6 {
                    line(&mut e, c[i], c[(i + 1) % 6]);
                }
            }
        }
    }
    if let Some(die) = &sheet.die {
        e += &super::die::dxf(die, height);
    }
    // $INSUNITS 4 and $MEASUREMENT 1: millimetres, for readers that ask.
    format!("0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1009\n9\n$INSUNITS\n70\n4\n9\n$MEASUREMENT\n70\n1\n0\nENDSEC\n{}0\nSECTION\n2\nENTITIES\n{e}0\nENDSEC\n0\nEOF\n", TABLES)
}

/// The layers every entity is on, defined: a reader that meets an undefined layer puts
/// its lines on one default layer, and a cutter then cuts the folds with the outline.
/// `CUT` red and solid, `SCORE` blue and dashed 3 mm on, 2 mm off (as the PDF draws the
/// folds), `REGISTRATION` black (ACI colours 1, 5 and 7).
const TABLES: &str = "0\nSECTION\n2\nTABLES\n\
0\nTABLE\n2\nLTYPE\n70\n2\n\
0\nLTYPE\n2\nCONTINUOUS\n70\n0\n3\nSolid line\n72\n65\n73\n0\n40\n0\n\
0\nLTYPE\n2\nDASHED\n70\n0\n3\nDashed 3 mm, gap 2 mm\n72\n65\n73\n2\n40\n5\n49\n3\n49\n-2\n\
0\nENDTAB\n\
0\nTABLE\n2\nLAYER\n70\n3\n\
0\nLAYER\n2\nCUT\n70\n0\n62\n1\n6\nCONTINUOUS\n\
0\nLAYER\n2\nSCORE\n70\n0\n62\n5\n6\nDASHED\n\
0\nLAYER\n2\nREGISTRATION\n70\n0\n62\n7\n6\nCONTINUOUS\n\
0\nENDTAB\n\
0\nENDSEC\n";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::length::Length;

    fn sheet(cuts: Vec<Outline>) -> Sheet {
        Sheet { cuts, registration: true, ..Sheet::blank(Length::mm(210.0), Length::mm(297.0)) }
    }

    fn rect(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x: Length::mm(x), y: Length::mm(y), w: Length::mm(w), h: Length::mm(h) }
    }

    #[test]
    fn svg_outlines_are_in_page_millimetres() {
        let svg = svg(&sheet(vec![
            Outline::Rounded(rect(10.0, 20.0, 63.0, 88.0), Length::mm(3.0)),
            Outline::Circle(rect(100.0, 100.0, 30.0, 30.0)),
        ]));
        assert!(
            svg.contains(r#"<rect x="10" y="20" width="63" height="88" rx="3" ry="3"/>"#),
            "{svg}"
        );
        assert!(svg.contains(r#"<circle cx="115" cy="115" r="15"/>"#), "{svg}");
        assert!(
            svg.contains(r#"<rect x="10" y="10" width="5" height="5"/>"#),
            "the square mark: {svg}"
        );
    }

    #[test]
    fn dxf_turns_y_up_from_the_bottom_edge() {
        let dxf = dxf(&sheet(vec![Outline::Rect(rect(10.0, 20.0, 63.0, 88.0))]));
        // The top edge, 20 mm below the page's top, is 277 mm above its bottom.
        assert!(
            dxf.contains("0\nLINE\n8\nCUT\n10\n10\n20\n277\n30\n0\n11\n73\n21\n277\n"),
            "{dxf}"
        );
        assert_eq!(dxf.matches("\nLINE\n").count(), 4);
        assert!(dxf.ends_with("0\nEOF\n"));
    }
}
