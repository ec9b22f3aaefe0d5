//! `deckpress calibrate`: a two-sided test sheet that measures how far a duplex printer
//! puts the back away from the front. The front carries millimetre rulers crossing at
//! five points; the back a crosshair behind each point (where a perfect printer puts
//! it). Held to the light, each crosshair's lines cross the rulers at the correction to
//! pass as `--back-offset X,Y`: the rulers are numbered so that no sign has to be worked
//! out (their + direction depends on how the paper is flipped). A landscape sheet
//! (`--orientation landscape`) measures landscape card sheets: the printer turns the page
//! a quarter turn onto the paper, so its offset in the page's own right and down is not
//! the portrait one's.

use crate::cli::CalibrateArgs;
use crate::diag::Failure;
use crate::layout::marks::{line, Anchor, Layer, Text, BLACK};
use crate::layout::{BackMirror, Duplex, Orientation, Paper, Rect, Sheet, Side};
use crate::length::Length;

/// Where the rulers cross, from the page's corners and centre, in millimetres.
const INSET_X: f32 = 35.0;
const INSET_Y: f32 = 45.0;
/// Ruler half-length in millimetres.
const REACH: i32 = 6;

/// `deckpress calibrate`: the duplex test sheet, written to OUT.
pub fn run(args: &CalibrateArgs) -> Result<Vec<String>, Failure> {
    use crate::export::pdf::{write_pdf, DocInfo, PrintAs};
    let sheets = sheets(args.paper, args.duplex, args.orientation).map_err(Failure::Io)?;
    let landscape = sheets[0].width > sheets[0].height;
    let print_as = if args.duplex == Duplex::Short {
        PrintAs::DuplexShortEdge
    } else {
        PrintAs::DuplexLongEdge
    };
    let title = format!(
        "deckpress duplex calibration ({}{}, {})",
        args.paper.name(),
        if landscape { " landscape" } else { "" },
        crate::driver::duplex_name(args.duplex)
    );
    let info = DocInfo { title: &title, author: None, subject: None };
    let mut pdf = std::io::Cursor::new(Vec::new());
    write_pdf(Box::new(sheets), &mut crate::render::NoArt, &info, print_as, None, &mut pdf)
        .map_err(|e| Failure::Io(e.to_string()))?;
    let bytes = pdf.into_inner();
    let name = format!(
        "calibrate-{}-{}{}.pdf",
        args.paper.name(),
        if args.duplex == Duplex::Short { "short" } else { "long" },
        if landscape { "-landscape" } else { "" }
    );
    let how = (Some(args.paper.name()), None, false);
    let made =
        crate::plan::Made::document(name.into(), bytes, crate::plan::Product::Calibration, how);
    let wait = crate::limits::Limits::default().lock_seconds;
    crate::plan::commit(&args.out, "", vec![made], wait)
}

/// The two pages of the test sheet, front then back, for this paper, flip and way round
/// (`Auto` stands portrait).
pub fn sheets(
    paper: Paper,
    duplex: Duplex,
    orientation: Orientation,
) -> Result<Vec<Sheet>, String> {
    if matches!(duplex, Duplex::None | Duplex::Fold) {
        return Err("calibrate measures a duplex printer: use --duplex long or short".to_string());
    }
    let (w, h) = orientation.sizes(paper.size())[0];
    let landscape = w > h;
    // Behind a point of the front, on the back page: as the card sheets mirror their backs.
    let mirror = BackMirror::of(duplex, (w, h));
    let (wm, hm) = (w.to_mm(), h.to_mm());
    let points = [
        ("A", INSET_X, INSET_Y + 25.0),
        ("B", wm - INSET_X, INSET_Y + 25.0),
        ("C", wm / 2.0, hm / 2.0),
        ("D", INSET_X, hm - INSET_Y),
        ("E", wm - INSET_X, hm - INSET_Y),
    ];
    // The back: where a point of the front lands on the back page, by the flip.
    let behind = |x: f32, y: f32| match mirror {
        BackMirror::Rows => (x, hm - y),
        BackMirror::Columns => (wm - x, y),
    };
    // The correction's + direction on the front's rulers (see the module comment): seen
    // through the sheet, a back shifted along the mirrored axis moves the other way.
    let (x_sign, y_sign) = match mirror {
        BackMirror::Rows => (-1.0, 1.0),
        BackMirror::Columns => (1.0, -1.0),
    };
    let flip = if duplex == Duplex::Short { "short edge" } else { "long edge" };
    let standing = if landscape { ", landscape" } else { "" };
    let mut front = Layer::default();
    front.push(
        Text::new(
            (INSET_X, 14.0),
            5.0,
            format!(
                "deckpress duplex calibration — {}{standing}, flip on the {flip}",
                paper.name().to_uppercase()
            ),
        )
        .bold(),
    );
    let lines = [
        "1. Print this PDF on both sides (2 pages, one sheet) at 100 % / actual size, flipping on the",
        &format!("   {flip}: the same settings you print cards with. The bar below must measure 50 mm."),
        "2. Hold the sheet to a light, front towards you. Behind each ruler cross there is a crosshair.",
        "3. Read where its vertical line crosses the horizontal ruler (X) and where its horizontal line",
        "   crosses the vertical ruler (Y), in millimetres. Average the five points.",
        "4. Build with --back-offset X,Y (e.g. --back-offset 1,-0.5) and print a deck the same way.",
    ];
    let landscape_lines = [
        "   This sheet is landscape: its X and Y are for landscape card sheets (--orientation",
        "   landscape, or auto where the sheets turn). Portrait sheets take a portrait reading.",
    ];
    let lines: Vec<&str> = match landscape {
        true => lines.iter().copied().chain(landscape_lines).collect(),
        false => lines.to_vec(),
    };
    for (i, line) in lines.iter().enumerate() {
        front.push(Text::new((INSET_X, 21.0 + i as f32 * 4.4), 3.2, *line));
    }
    let bar_y = hm / 2.0 + 30.0;
    let x0 = wm / 2.0 - 25.0;
    front.push(line((x0, bar_y), (wm / 2.0 + 25.0, bar_y), 0.3, BLACK));
    front.push(Text::new((x0, bar_y + 4.0), 3.0, "50 mm"));
    let mut back = Layer::default();
    back.push(Text::new((INSET_X, 14.0), 5.0, "back — hold to the light from the front").bold());
    for (label, x, y) in points {
        rulers(&mut front, label, x, y, x_sign, y_sign);
        let (bx, by) = behind(x, y);
        crosshair(&mut back, label, bx, by);
    }
    let page = |side: Side, layer: Layer| Sheet {
        side,
        decor: vec![std::sync::Arc::new(layer)],
        trim: Rect { x: Length::ZERO, y: Length::ZERO, w, h },
        ..Sheet::blank(w, h)
    };
    Ok(vec![page(Side::Front, front), page(Side::Back, back)])
}

/// Millimetre rulers crossing at (x, y), numbered from -6 to 6 with the correction's +
/// direction (`x_sign`, `y_sign`: +1 right or down, -1 left or up).
fn rulers(layer: &mut Layer, label: &str, x: f32, y: f32, x_sign: f32, y_sign: f32) {
    let reach = REACH as f32;
    layer.push(line((x - reach, y), (x + reach, y), 0.15, BLACK));
    layer.push(line((x, y - reach), (x, y + reach), 0.15, BLACK));
    for i in -REACH..=REACH {
        let long = if i % 5 == 0 { 2.0 } else { 1.0 };
        let (tx, ty) = (x + i as f32, y + i as f32);
        layer.push(line((tx, y - long), (tx, y), 0.15, BLACK));
        layer.push(line((x, ty), (x + long, ty), 0.15, BLACK));
    }
    for i in (-REACH..=REACH).step_by(2).filter(|i| *i != 0) {
        // X numbers below the horizontal ruler, Y numbers left of the vertical one: the
        // ticks point up and right, so the two sets never meet.
        layer.push(
            Text::new((x + i as f32 * x_sign, y + 2.4), 1.6, signed(i)).anchor(Anchor::Middle),
        );
        if (i as f32 * y_sign - 2.0).abs() > 0.1 {
            // (the one 2 mm below the cross would sit on the X numbers)
            layer.push(
                Text::new((x - 0.8, y + i as f32 * y_sign + 0.55), 1.6, signed(i))
                    .anchor(Anchor::End),
            );
        }
    }
    layer.push(Text::new((x - reach - 4.0, y - 3.0), 3.0, label).bold());
    layer.push(Text::new((x + reach + 1.0, y + 0.7), 2.0, "X"));
    layer.push(Text::new((x + 1.0, y - reach - 1.0), 2.0, "Y"));
}

/// A thin red crosshair, long enough to cross the front's rulers wherever it lands.
fn crosshair(layer: &mut Layer, label: &str, x: f32, y: f32) {
    const RED: [u8; 3] = [0xd0, 0, 0];
    layer.push(line((x - 12.0, y), (x + 12.0, y), 0.15, RED));
    layer.push(line((x, y - 12.0), (x, y + 12.0), 0.15, RED));
    layer.push(Text::new((x + 4.0, y - 4.0), 3.0, label).bold().colour(RED));
}

fn signed(i: i32) -> String {
    if i > 0 {
        format!("+{i}")
    } else {
        format!("-{}", -i)
    }
}
