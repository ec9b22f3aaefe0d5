//! Stage `export` (die-lines): a box's cut outline and fold lines, drawn on its PDF page
//! and written to its cut file. Cut lines are solid, fold (score) lines dashed and grey
//! (in a press file each on a spot colour of its own, overprinting); in a cut file they
//! are two layers, `cut` and `score`.

use std::fmt::Write;

use krilla::geom::PathBuilder;
use krilla::paint::{LineCap, Paint, Stroke, StrokeDash};
use krilla::surface::Surface;

use crate::layout::boxes::Die;
use crate::length::PT_PER_MM;

/// The cut line: thin enough to cut on, solid.
const CUT_WIDTH_PT: f32 = 0.5;
/// Fold lines: dashed 3 mm on, 2 mm off, in grey, so they are not cut by mistake.
const FOLD_WIDTH_PT: f32 = 0.5;
const FOLD_DASH_MM: (f32, f32) = (3.0, 2.0);

/// The spot colour a press file's cut line is on: the name cutting and die-making
/// software looks for (Roland's and Mimaki's RIPs cut it; printers map it to their die).
pub const CUT_SPOT: &str = "CutContour";
/// The spot colour of a press file's fold (crease) lines.
pub const FOLD_SPOT: &str = "Crease";

/// How a die-line is painted: on a home sheet, in the marks' black (cut) and grey
/// (folds); in a press file on spot colours of their own that overprint, so that the
/// printer's RIP makes them the die and never prints them over the art in process ink.
pub struct DiePaints {
    pub cut: Paint,
    pub fold: Paint,
    pub overprint: bool,
}

impl DiePaints {
    /// The press file's: `CUT_SPOT` (shown as magenta where no plate for it exists) and
    /// `FOLD_SPOT` (shown as cyan), at full tint, overprinting.
    pub fn press() -> Self {
        use krilla::color::separation::{self, SeparationColorant, SeparationSpace};
        let spot = |name: &str, fallback: krilla::color::cmyk::Color| -> Paint {
            let colorant = SeparationColorant::Custom(name.to_string());
            let space = SeparationSpace::new(colorant, krilla::color::RegularColor::Cmyk(fallback));
            krilla::color::Color::from(separation::Color::new(255, space)).into()
        };
        DiePaints {
            cut: spot(CUT_SPOT, krilla::color::cmyk::Color::new(0, 255, 0, 0)),
            fold: spot(FOLD_SPOT, krilla::color::cmyk::Color::new(255, 0, 0, 0)),
            overprint: true,
        }
    }
}

/// Draws the die-line over the page's art: folds first, then the cut.
pub fn draw(surface: &mut Surface, die: &Die, paints: DiePaints) {
    let DiePaints { cut: black, fold: grey, overprint } = paints;
    let draw = |surface: &mut Surface, path: &krilla::geom::Path| match overprint {
        true => surface.draw_path_overprinted(path),
        false => surface.draw_path(path),
    };
    let pt = |v: f32| v * PT_PER_MM;
    let mut folds = PathBuilder::new();
    for f in &die.folds {
        folds.move_to(pt(f[0]), pt(f[1]));
        folds.line_to(pt(f[2]), pt(f[3]));
    }
    surface.set_fill(None);
    if let Some(path) = folds.finish() {
        surface.set_stroke(Some(Stroke {
            width: FOLD_WIDTH_PT,
            paint: grey,
            line_cap: LineCap::Butt,
            dash: Some(StrokeDash {
                array: vec![pt(FOLD_DASH_MM.0), pt(FOLD_DASH_MM.1)],
                offset: 0.0,
            }),
            ..Stroke::default()
        }));
        draw(surface, &path);
    }
    let mut cut = PathBuilder::new();
    for (i, &(x, y)) in die.cut.iter().enumerate() {
        if i == 0 {
            cut.move_to(pt(x), pt(y));
        } else {
            cut.line_to(pt(x), pt(y));
        }
    }
    cut.close();
    if let Some(path) = cut.finish() {
        surface.set_stroke(Some(Stroke { width: CUT_WIDTH_PT, paint: black, ..Stroke::default() }));
        draw(surface, &path);
    }
    surface.set_stroke(None);
}

/// Millimetres, as few digits as say them to a micrometre (cut files' numbers).
pub(super) fn n(v: f32) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".to_string()
    } else {
        s.to_string()
    }
}

/// The die-line as SVG elements: a `cut` group with the outline, a `score` group with
/// the folds.
pub fn svg(die: &Die) -> String {
    let points: Vec<String> = die.cut.iter().map(|&(x, y)| format!("{},{}", n(x), n(y))).collect();
    let mut out = format!(
        "<g id=\"cut\" fill=\"none\" stroke=\"#ff0000\" stroke-width=\"0.1\">\n<polygon points=\"{}\"/>\n</g>\n<g id=\"score\" fill=\"none\" stroke=\"#0000ff\" stroke-width=\"0.1\" stroke-dasharray=\"{} {}\">\n",
        points.join(" "),
        FOLD_DASH_MM.0,
        FOLD_DASH_MM.1
    );
    for f in &die.folds {
        let _ = writeln!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
            n(f[0]),
            n(f[1]),
            n(f[2]),
            n(f[3])
        );
    }
    out + "</g>\n"
}

/// The die-line as R12 DXF LINE entities on layers `CUT` and `SCORE`, y up from a page
/// `height` mm high.
pub fn dxf(die: &Die, height: f32) -> String {
    let mut e = String::new();
    let mut line = |layer: &str, (x1, y1): (f32, f32), (x2, y2): (f32, f32)| {
        let _ = write!(
            e,
            "0\nLINE\n8\n{layer}\n10\n{}\n20\n{}\n30\n0\n11\n{}\n21\n{}\n31\n0\n",
            n(x1),
            n(height - y1),
            n(x2),
            n(height - y2)
        );
    };
    for (i, &p) in die.cut.iter().enumerate() {
        line("CUT", p, die.cut[(i + 1) % die.cut.len()]);
    }
    for f in &die.folds {
        line("SCORE", (f[0], f[1]), (f[2], f[3]));
    }
    e
}
