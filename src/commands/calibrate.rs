//! `deckpress calibrate`: a two-sided test sheet that measures how far a duplex printer
//! puts the back away from the front. The front carries millimetre rulers crossing at
//! five points; the back a crosshair behind each point (where a perfect printer puts
//! it). Held to the light, each crosshair's lines cross the rulers at the correction to
//! pass as `--back-offset X,Y`: the rulers are numbered so that no sign has to be worked
//! out (their + direction depends on how the paper is flipped).

use crate::cli::CalibrateArgs;
use crate::diag::Failure;
use crate::layout::{Duplex, Paper, Rect, Sheet, Side};
use crate::length::Length;

/// Where the rulers cross, from the page's corners and centre, in millimetres.
const INSET_X: f32 = 35.0;
const INSET_Y: f32 = 45.0;
/// Ruler half-length in millimetres.
const REACH: i32 = 6;

/// `deckpress calibrate`: the duplex test sheet, written to OUT.
pub fn run(args: &CalibrateArgs) -> Result<Vec<String>, Failure> {
    use crate::export::pdf::{write_pdf, DocInfo, PrintAs};
    let sheets = sheets(args.paper, args.duplex).map_err(Failure::Io)?;
    let print_as = if args.duplex == Duplex::Short { PrintAs::DuplexShortEdge } else { PrintAs::DuplexLongEdge };
    let title = format!("deckpress duplex calibration ({}, {})", args.paper.name(), crate::driver::duplex_name(args.duplex));
    let info = DocInfo { title: &title, author: None, subject: None };
    let bytes = write_pdf(&sheets, &mut crate::render::NoArt, &info, print_as, None).map_err(Failure::Io)?.bytes;
    let path = args.out.join(format!("calibrate-{}-{}.pdf", args.paper.name(), if args.duplex == Duplex::Short { "short" } else { "long" }));
    crate::output::write_atomic(&path, &bytes).map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
    Ok(vec![path.display().to_string()])
}

/// The two pages of the test sheet, front then back, for this paper and flip.
pub fn sheets(paper: Paper, duplex: Duplex) -> Result<Vec<Sheet>, String> {
    if duplex == Duplex::None {
        return Err("calibrate measures a duplex printer: use --duplex long or short".to_string());
    }
    let (w, h) = paper.size();
    let (wm, hm) = (w.to_mm(), h.to_mm());
    let points = [("A", INSET_X, INSET_Y + 25.0), ("B", wm - INSET_X, INSET_Y + 25.0), ("C", wm / 2.0, hm / 2.0), ("D", INSET_X, hm - INSET_Y), ("E", wm - INSET_X, hm - INSET_Y)];
    // The back: where a point of the front lands on the back page, by the flip.
    let behind = |x: f32, y: f32| match duplex {
        Duplex::Short => (x, hm - y),
        _ => (wm - x, y),
    };
    // The correction's + direction on the front's rulers (see the module comment).
    let (x_sign, y_sign) = match duplex {
        Duplex::Short => (-1.0, 1.0),
        _ => (1.0, -1.0),
    };
    let flip = if duplex == Duplex::Short { "short edge" } else { "long edge" };
    let mut front = String::new();
    front += &format!(
        r#"<text x="{INSET_X}" y="14" font-size="5" font-weight="bold">deckpress duplex calibration — {}, flip on the {flip}</text>"#,
        paper.name().to_uppercase()
    );
    let lines = [
        "1. Print this PDF on both sides (2 pages, one sheet) at 100 % / actual size, flipping on the",
        &format!("   {flip}: the same settings you print cards with. The bar below must measure 50 mm."),
        "2. Hold the sheet to a light, front towards you. Behind each ruler cross there is a crosshair.",
        "3. Read where its vertical line crosses the horizontal ruler (X) and where its horizontal line",
        "   crosses the vertical ruler (Y), in millimetres. Average the five points.",
        "4. Build with --back-offset X,Y (e.g. --back-offset 1,-0.5) and print a deck the same way.",
    ];
    for (i, line) in lines.iter().enumerate() {
        front += &format!(r#"<text x="{INSET_X}" y="{}" font-size="3.2">{}</text>"#, 21.0 + i as f32 * 4.4, line);
    }
    let bar_y = hm / 2.0 + 30.0;
    front += &format!(r#"<line x1="{x0}" y1="{bar_y}" x2="{}" y2="{bar_y}" stroke="black" stroke-width="0.3"/><text x="{x0}" y="{}" font-size="3">50 mm</text>"#, wm / 2.0 + 25.0, bar_y + 4.0, x0 = wm / 2.0 - 25.0);
    let mut back = String::new();
    back += &format!(r#"<text x="{INSET_X}" y="14" font-size="5" font-weight="bold">back — hold to the light from the front</text>"#);
    for (label, x, y) in points {
        front += &rulers(label, x, y, x_sign, y_sign);
        let (bx, by) = behind(x, y);
        back += &crosshair(label, bx, by);
    }
    let page = |side: Side, body: String| Sheet {
        side,
        decor: vec![format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="{wm}mm" height="{hm}mm" viewBox="0 0 {wm} {hm}" font-family="Noto Sans">{body}</svg>"#).into()],
        trim: Rect { x: Length::ZERO, y: Length::ZERO, w, h },
        ..Sheet::blank(w, h)
    };
    Ok(vec![page(Side::Front, front), page(Side::Back, back)])
}

/// Millimetre rulers crossing at (x, y), numbered from -6 to 6 with the correction's +
/// direction (`x_sign`, `y_sign`: +1 right or down, -1 left or up).
fn rulers(label: &str, x: f32, y: f32, x_sign: f32, y_sign: f32) -> String {
    let mut out = format!(r#"<g stroke="black" stroke-width="0.15"><line x1="{}" y1="{y}" x2="{}" y2="{y}"/><line x1="{x}" y1="{}" x2="{x}" y2="{}"/>"#, x - REACH as f32, x + REACH as f32, y - REACH as f32, y + REACH as f32);
    for i in -REACH..=REACH {
        let long = if i % 5 == 0 { 2.0 } else { 1.0 };
        let (tx, ty) = (x + i as f32, y + i as f32);
        out += &format!(r#"<line x1="{tx}" y1="{}" x2="{tx}" y2="{y}"/><line x1="{x}" y1="{ty}" x2="{}" y2="{ty}"/>"#, y - long, x + long);
    }
    out += "</g>";
    for i in (-REACH..=REACH).step_by(2).filter(|i| *i != 0) {
        // X numbers below the horizontal ruler, Y numbers left of the vertical one: the
        // ticks point up and right, so the two sets never meet.
        out += &format!(r#"<text x="{}" y="{}" font-size="1.6" text-anchor="middle">{}</text>"#, x + i as f32 * x_sign, y + 2.4, signed(i));
        if (i as f32 * y_sign - 2.0).abs() > 0.1 {
            // (the one 2 mm below the cross would sit on the X numbers)
            out += &format!(r#"<text x="{}" y="{}" font-size="1.6" text-anchor="end">{}</text>"#, x - 0.8, y + i as f32 * y_sign + 0.55, signed(i));
        }
    }
    out += &format!(r#"<text x="{}" y="{}" font-size="3" font-weight="bold">{label}</text>"#, x - REACH as f32 - 4.0, y - 3.0);
    out += &format!(r#"<text x="{}" y="{}" font-size="2">X</text><text x="{}" y="{}" font-size="2">Y</text>"#, x + REACH as f32 + 1.0, y + 0.7, x + 1.0, y - REACH as f32 - 1.0);
    out
}

/// A thin red crosshair, long enough to cross the front's rulers wherever it lands.
fn crosshair(label: &str, x: f32, y: f32) -> String {
    format!(
        r##"<g stroke="#d00000" stroke-width="0.15"><line x1="{}" y1="{y}" x2="{}" y2="{y}"/><line x1="{x}" y1="{}" x2="{x}" y2="{}"/></g><text x="{}" y="{}" font-size="3" font-weight="bold" fill="#d00000">{label}</text>"##,
        x - 12.0,
        x + 12.0,
        y - 12.0,
        y + 12.0,
        x + 4.0,
        y - 4.0
    )
}

fn signed(i: i32) -> String {
    if i > 0 { format!("+{i}") } else { format!("-{}", -i) }
}
