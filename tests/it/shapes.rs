//! Shapes and cut files (issue: "Cards as designers write them"), measured from what the
//! binary writes: hex tiles and rounded cards with their cut guides on A4 and Letter, backs
//! behind their faces in duplex, crop marks clear of the paper's edge, and cut files whose
//! contours are the PDF's cut guides. Nothing here recomputes a layout: every number is
//! read back from the PDFs (`mutool trace`) and the cut files.

use std::path::{Path, PathBuf};

use crate::common::*;

const MM: f64 = 72.0 / 25.4;
/// How far a measured line may be from where it should be.
const TOLERANCE_MM: f64 = 0.1;
/// Grey of the cut guides as mutool writes it (110 / 255).
const GUIDE_GREY: &str = ".43137256 .43137256 .43137256";

type Point = (f64, f64);

fn fixture() -> PathBuf {
    repo().join("tests/fixtures/shapes")
}

fn paper_mm(paper: &str) -> (f64, f64) {
    match paper {
        "a4" => (210.0, 297.0),
        _ => (215.9, 279.4),
    }
}

/// Builds the shapes fixture into a fresh folder.
fn build_shapes(args: &[&str]) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let fixture = fixture();
    let mut all = vec!["build", fixture.to_str().unwrap(), "--out", out.path().to_str().unwrap()];
    all.extend_from_slice(args);
    let run = deckpress(&all, &repo());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    out
}

fn shapes_pdf(out: &tempfile::TempDir, deck: &str, paper: &str) -> PathBuf {
    out.path().join(format!("shapes/shapes-{deck}-{paper}.pdf"))
}

fn in_mm(sub: &[Point]) -> Vec<Point> {
    sub.iter().map(|(x, y)| (x / MM, y / MM)).collect()
}

/// The cut guides a page draws: one closed outline each, in millimetres.
fn guides(pdf: &Path, page: usize) -> Vec<Vec<Point>> {
    drawn_paths(pdf, page)
        .into_iter()
        .filter(|p| p.kind == "stroke" && p.color == GUIDE_GREY)
        .flat_map(|p| p.subpaths)
        .map(|s| in_mm(&s))
        .collect()
}

/// The crop marks a page draws (black hairlines), as (start, end) in millimetres.
fn crop_marks(pdf: &Path, page: usize) -> Vec<(Point, Point)> {
    drawn_paths(pdf, page)
        .into_iter()
        .filter(|p| p.kind == "stroke" && p.color == "0" && (p.line_width - 0.4).abs() < 0.01)
        .flat_map(|p| p.subpaths)
        .map(|s| (in_mm(&s)[0], in_mm(&s)[1]))
        .collect()
}

/// The registration marks: the black page-level fill of five rectangles, if any.
fn registration(pdf: &Path, page: usize) -> Vec<Vec<Point>> {
    drawn_paths(pdf, page)
        .into_iter()
        .filter(|p| p.kind == "fill" && p.color == "0" && p.subpaths.len() == 5)
        .flat_map(|p| p.subpaths)
        .map(|s| in_mm(&s))
        .collect()
}

fn bbox(points: &[Point]) -> (f64, f64, f64, f64) {
    points.iter().fold((f64::MAX, f64::MAX, f64::MIN, f64::MIN), |(a, b, c, d), &(x, y)| {
        (a.min(x), b.min(y), c.max(x), d.max(y))
    })
}

fn centre(points: &[Point]) -> Point {
    let (x0, y0, x1, y1) = bbox(points);
    ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
}

fn near(a: Point, b: Point, within: f64) -> bool {
    (a.0 - b.0).hypot(a.1 - b.1) <= within
}

/// Every point of `a` lies within the tolerance of some point of `b`.
fn covered(a: &[Point], b: &[Point]) -> Result<(), Point> {
    match a.iter().find(|p| !b.iter().any(|q| near(**p, *q, TOLERANCE_MM))) {
        Some(p) => Err(*p),
        None => Ok(()),
    }
}

#[test]
fn nineteen_hex_tiles_print_as_regular_hexagons_with_cut_guides_and_bleed_on_a4_and_letter() {
    let out = build_shapes(&["--only", "tiles", "--paper", "a4,letter"]);
    for paper in ["a4", "letter"] {
        let pdf = shapes_pdf(&out, "tiles", paper);
        let (w, h) = paper_mm(paper);
        assert_eq!(pages(&pdf), 4, "{paper}: two fronts, each followed by its backs");
        let (first, second) = (guides(&pdf, 1), guides(&pdf, 3));
        assert_eq!(first.len(), 18, "{paper}: a full page of tiles");
        assert_eq!(first.len() + second.len(), 19, "{paper}");
        for hex in first.iter().chain(&second) {
            // Six corners, six edges of 30 mm: a regular hexagon 60 mm across its corners,
            // flat on top (two corners share the top edge).
            assert_eq!(hex.len(), 6, "{paper}: {hex:?}");
            for i in 0..6 {
                let (a, b) = (hex[i], hex[(i + 1) % 6]);
                assert!(
                    ((a.0 - b.0).hypot(a.1 - b.1) - 30.0).abs() < TOLERANCE_MM,
                    "{paper}: edge {a:?}–{b:?}"
                );
            }
            let (x0, y0, x1, y1) = bbox(hex);
            assert!(
                ((x1 - x0) - 60.0).abs() < TOLERANCE_MM && ((y1 - y0) - 51.96).abs() < TOLERANCE_MM,
                "{paper}: {hex:?}"
            );
            assert_eq!(
                hex.iter().filter(|p| (p.1 - y0).abs() < 0.01).count(),
                2,
                "flat-topped: {hex:?}"
            );
            assert!(
                x0 >= 5.0 && y0 >= 5.0 && x1 <= w - 5.0 && y1 <= h - 5.0,
                "{paper}: a tile within 5 mm of the edge: {hex:?}"
            );
        }
        // Tiles never overlap: centres at least the distance across the flats apart.
        let centres: Vec<Point> = first.iter().map(|hx| centre(hx)).collect();
        for (i, a) in centres.iter().enumerate() {
            for b in &centres[i + 1..] {
                assert!(
                    (a.0 - b.0).hypot(a.1 - b.1) >= 51.96 - TOLERANCE_MM,
                    "{paper}: {a:?} and {b:?} overlap"
                );
            }
        }
        // The art shows its bleed around every tile: each is clipped to its hexagon grown
        // by the same margin on every edge, more than zero.
        let clips: Vec<Vec<Point>> = drawn_paths(&pdf, 1)
            .into_iter()
            .filter(|p| p.kind == "clip")
            .flat_map(|p| p.subpaths)
            .map(|s| in_mm(&s))
            .filter(|s| s.len() == 6)
            .collect();
        let mut shown = Vec::new();
        for hex in &first {
            let clip = clips
                .iter()
                .find(|c| near(centre(c), centre(hex), 0.01))
                .unwrap_or_else(|| panic!("{paper}: no clip around {hex:?}"));
            shown.push((bbox(clip).3 - bbox(clip).1 - 51.96) / 2.0);
        }
        assert!(
            shown.iter().all(|s| *s > 0.2 && (s - shown[0]).abs() < 0.01),
            "{paper}: bleed shown {shown:?}"
        );
    }
}

/// The centres of the art's own background rectangles on a page, by their colour: the
/// art is measured where it is drawn, not where its guide is.
fn art_centres(pdf: &Path, page: usize, colours: &[[u8; 3]]) -> Vec<Point> {
    let rgb = |c: &str| -> Option<[u8; 3]> {
        let v: Vec<u8> = c
            .split_whitespace()
            .map(|v| (v.parse::<f64>().unwrap() * 255.0).round() as u8)
            .collect();
        (v.len() == 3).then(|| [v[0], v[1], v[2]])
    };
    drawn_paths(pdf, page)
        .into_iter()
        .filter(|p| {
            p.kind == "fill"
                && rgb(&p.color).is_some_and(|c| colours.contains(&c))
                && p.subpaths.len() == 1
                && p.subpaths[0].len() == 4
        })
        .map(|p| centre(&in_mm(&p.subpaths[0])))
        .collect()
}

#[test]
fn hex_and_rounded_backs_land_behind_their_faces_for_long_and_short_edge_flips() {
    // Tile faces are green, red or yellow, their backs blue; card faces cream, backs brown.
    let tile_faces = [[0x2e, 0x7d, 0x32], [0xc6, 0x28, 0x28], [0xf9, 0xa8, 0x25]];
    let tile_backs = [[0x15, 0x65, 0xc0]];
    let card_faces = [[0xff, 0xf3, 0xe0]];
    let card_backs = [[0x4e, 0x34, 0x2e]];
    for duplex in ["long", "short"] {
        let out =
            build_shapes(&["--only", "tiles,cards", "--paper", "a4,letter", "--duplex", duplex]);
        for paper in ["a4", "letter"] {
            let (w, h) = paper_mm(paper);
            let mirror = |(x, y): Point| if duplex == "long" { (w - x, y) } else { (x, h - y) };
            for (deck, faces, backs) in [
                ("tiles", &tile_faces[..], &tile_backs[..]),
                ("cards", &card_faces[..], &card_backs[..]),
            ] {
                let pdf = shapes_pdf(&out, deck, paper);
                let (front, back) = (art_centres(&pdf, 1, faces), art_centres(&pdf, 2, backs));
                assert!(
                    front.len() >= 9 && front.len() == back.len(),
                    "{duplex} {paper} {deck}: {} faces, {} backs",
                    front.len(),
                    back.len()
                );
                let mirrored: Vec<Point> = front.iter().map(|&p| mirror(p)).collect();
                covered(&mirrored, &back).unwrap_or_else(|p| {
                    panic!("{duplex} {paper} {deck}: no back behind the face mirrored to {p:?}")
                });
                // The guides on the back page follow the backs.
                let (fg, bg) = (guides(&pdf, 1), guides(&pdf, 2));
                let fg: Vec<Point> = fg.iter().map(|g| mirror(centre(g))).collect();
                let bg: Vec<Point> = bg.iter().map(|g| centre(g)).collect();
                covered(&fg, &bg)
                    .unwrap_or_else(|p| panic!("{duplex} {paper} {deck}: no back guide at {p:?}"));
            }
        }
    }
}

#[test]
fn rounded_cards_get_rounded_guides_on_their_crop_marks() {
    let out = build_shapes(&["--only", "cards", "--paper", "a4,letter"]);
    for paper in ["a4", "letter"] {
        let pdf = shapes_pdf(&out, "cards", paper);
        let guides = guides(&pdf, 1);
        assert_eq!(guides.len(), 9, "{paper}: nine cards a page");
        let marks = crop_marks(&pdf, 1);
        for card in &guides {
            // Four edges and four quarter circles, starting where the top edge leaves the
            // top-left corner's arc: 3 mm in from the card's left edge.
            assert_eq!(card.len(), 9, "{paper}: {card:?}");
            let (x0, y0, x1, y1) = bbox(card);
            assert!(
                ((x1 - x0) - 63.0).abs() < TOLERANCE_MM && ((y1 - y0) - 88.0).abs() < TOLERANCE_MM,
                "{paper}: {card:?}"
            );
            assert!(
                ((card[0].0 - x0) - 3.0).abs() < TOLERANCE_MM
                    && (card[0].1 - y0).abs() < TOLERANCE_MM,
                "{paper}: corner radius from {card:?}"
            );
            assert!(
                card.iter().all(|p| !near(*p, (x0, y0), 2.0)),
                "{paper}: the corner itself is cut away: {card:?}"
            );
            // The crop marks are on the card's cut lines.
            for x in [x0, x1] {
                assert!(
                    marks.iter().any(|(a, b)| (a.0 - x).abs() < 0.05 && (b.0 - x).abs() < 0.05),
                    "{paper}: no mark for x = {x}"
                );
            }
            for y in [y0, y1] {
                assert!(
                    marks.iter().any(|(a, b)| (a.1 - y).abs() < 0.05 && (b.1 - y).abs() < 0.05),
                    "{paper}: no mark for y = {y}"
                );
            }
        }
    }
}

#[test]
fn crop_marks_keep_5_mm_from_the_edge_of_letter_with_nine_63_by_88_cards() {
    // Issue "Print-ready for real": on Letter, 63 × 88 mm cards left 2.5 mm marks 3.2 mm
    // from the edge. Now the marks down the page go in the gutters between the cards.
    let out = build_shapes(&["--only", "cards", "--paper", "a4,letter"]);
    for paper in ["a4", "letter"] {
        let pdf = shapes_pdf(&out, "cards", paper);
        let (w, h) = paper_mm(paper);
        assert_eq!(pages(&pdf), 2, "{paper}: 9 cards on one sheet");
        let marks = crop_marks(&pdf, 1);
        let closest = marks
            .iter()
            .flat_map(|(a, b)| [*a, *b])
            .map(|(x, y)| x.min(y).min(w - x).min(h - y))
            .fold(f64::MAX, f64::min);
        assert!(closest >= 5.0 - 0.01, "{paper}: a mark {closest:.2} mm from the edge");
        // Every cut line still has marks: the 4 vertical and 4 horizontal edges of the
        // columns and rows of cards (gutters twice the bleed wide make 6 lines each way).
        let cards = guides(&pdf, 1);
        let mut xs: Vec<f64> = cards.iter().flat_map(|c| [bbox(c).0, bbox(c).2]).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() < 0.05);
        assert_eq!(xs.len(), 6, "{paper}: {xs:?}");
        for x in xs {
            let on_line = marks
                .iter()
                .filter(|(a, b)| (a.0 - x).abs() < 0.05 && (b.0 - x).abs() < 0.05)
                .count();
            assert!(on_line >= 2, "{paper}: {on_line} marks for the cut at x = {x:.2}");
        }
    }
}

/// The outline points of the shapes in a cut SVG: (registration, cut contours).
fn svg_points(svg: &str) -> (Vec<Point>, Vec<Point>, usize) {
    let (marks, cuts) = svg.split_once("<g id=\"cut\"").expect("a cut group");
    let attr = |el: &str, key: &str| -> Option<f64> {
        el.split(&format!(" {key}=\"")).nth(1)?.split('"').next()?.parse().ok()
    };
    let points = |part: &str| -> (Vec<Point>, usize) {
        let mut points = Vec::new();
        let mut shapes = 0;
        for el in part.split('<').skip(1) {
            let a = |k| attr(el, k).unwrap();
            if el.starts_with("rect ") {
                let (x, y, w, h) = (a("x"), a("y"), a("width"), a("height"));
                match attr(el, "rx") {
                    Some(r) => points.extend([
                        (x + r, y),
                        (x + w - r, y),
                        (x + w, y + r),
                        (x + w, y + h - r),
                        (x + w - r, y + h),
                        (x + r, y + h),
                        (x, y + h - r),
                        (x, y + r),
                    ]),
                    None => points.extend([(x, y), (x + w, y), (x + w, y + h), (x, y + h)]),
                }
            } else if el.starts_with("circle ") {
                let (cx, cy, r) = (a("cx"), a("cy"), a("r"));
                points.extend([(cx + r, cy), (cx - r, cy), (cx, cy + r), (cx, cy - r)]);
            } else if el.starts_with("polygon ") {
                let list = el.split("points=\"").nth(1).unwrap().split('"').next().unwrap();
                points.extend(list.split_whitespace().map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                }));
            } else {
                continue;
            }
            shapes += 1;
        }
        (points, shapes)
    };
    let (marks, _) = points(marks);
    let (cuts, shapes) = points(cuts);
    (marks, cuts, shapes)
}

/// The same from a DXF: LINE ends, ARC ends, CIRCLE extremes and SOLID corners, turned
/// back to the page's top-left origin.
fn dxf_points(dxf: &str, height: f64) -> (Vec<Point>, Vec<Point>) {
    let lines: Vec<&str> = dxf.lines().map(str::trim).collect();
    assert!(
        lines.len().is_multiple_of(2) && dxf.contains("AC1009"),
        "an R12 DXF of code/value pairs"
    );
    let pairs: Vec<(i32, &str)> = lines.chunks(2).map(|c| (c[0].parse().unwrap(), c[1])).collect();
    let (mut marks, mut cuts) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < pairs.len() {
        let kind = pairs[i].1;
        let mut j = i + 1;
        while j < pairs.len() && pairs[j].0 != 0 {
            j += 1;
        }
        let get = |code: i32| {
            pairs[i + 1..j].iter().find(|(c, _)| *c == code).map(|(_, v)| v.parse::<f64>().unwrap())
        };
        let layer = pairs[i + 1..j].iter().find(|(c, _)| *c == 8).map(|(_, v)| *v);
        let page = |x: f64, y: f64| (x, height - y);
        match kind {
            "LINE" => cuts.extend([
                page(get(10).unwrap(), get(20).unwrap()),
                page(get(11).unwrap(), get(21).unwrap()),
            ]),
            "ARC" => {
                let (cx, cy, r) = (get(10).unwrap(), get(20).unwrap(), get(40).unwrap());
                for a in [get(50).unwrap(), get(51).unwrap()] {
                    let a = a.to_radians();
                    cuts.push(page(cx + r * a.cos(), cy + r * a.sin()));
                }
            }
            "CIRCLE" => {
                let (cx, cy, r) = (get(10).unwrap(), get(20).unwrap(), get(40).unwrap());
                cuts.extend([
                    page(cx + r, cy),
                    page(cx - r, cy),
                    page(cx, cy + r),
                    page(cx, cy - r),
                ]);
            }
            "SOLID" if layer == Some("REGISTRATION") => {
                for (x, y) in [(10, 20), (11, 21), (12, 22), (13, 23)] {
                    marks.push(page(get(x).unwrap(), get(y).unwrap()));
                }
            }
            _ => {}
        }
        i = j;
    }
    (marks, cuts)
}

#[test]
fn cut_files_hold_the_pdf_cut_guides_and_registration_marks_to_a_tenth_of_a_millimetre() {
    for (format, paper) in [("svg", "a4"), ("dxf", "letter")] {
        let out = build_shapes(&["--paper", paper, "--cut", format]);
        // Hexes, rounded rectangles, circles and rectangles.
        for deck in ["tiles", "cards", "tokens", "chits"] {
            let pdf = shapes_pdf(&out, deck, paper);
            // The page as written: it turns landscape where that holds more pieces.
            let (w, h) = crate::fold::page_mm(&pdf);
            for page in (1..=pages(&pdf)).step_by(2) {
                let file =
                    out.path().join(format!("shapes/shapes-{deck}-{paper}-cut-{page}.{format}"));
                let text = std::fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                let guides = guides(&pdf, page);
                let drawn: Vec<Point> = guides.iter().flatten().copied().collect();
                let (marks, cuts) = if format == "svg" {
                    let (marks, cuts, shapes) = svg_points(&text);
                    assert_eq!(shapes, guides.len(), "{deck} page {page}: one contour per guide");
                    (marks, cuts)
                } else {
                    dxf_points(&text, h)
                };
                covered(&cuts, &drawn).unwrap_or_else(|p| {
                    panic!("{format} {deck} page {page}: contour point {p:?} is on no guide")
                });
                covered(&drawn, &cuts).unwrap_or_else(|p| {
                    panic!("{format} {deck} page {page}: guide point {p:?} is on no contour")
                });
                let printed: Vec<Point> = registration(&pdf, page).into_iter().flatten().collect();
                assert_eq!(printed.len(), 20, "{deck} page {page}: five filled marks");
                // The marks where Silhouette Studio draws its own at its smallest inset,
                // 10 mm (the docs' set-up could not be followed at 5 mm): the square's
                // edges on the inset, each L a 0.5 mm line centred on it (Studio's stroke
                // straddles the line: an L whose outer edge was on it sat 0.25 mm in).
                let rects: Vec<(f64, f64, f64, f64)> =
                    registration(&pdf, page).iter().map(|r| bbox(r)).collect();
                let (sx0, sy0, _, _) = rects[0];
                assert!(
                    (sx0 - 10.0).abs() < 0.05 && (sy0 - 10.0).abs() < 0.05,
                    "{deck}: square at {:?}",
                    rects[0]
                );
                let middle = |a: f64, b: f64| (a + b) / 2.0;
                // Top-right L: its horizontal arm's centre 10 mm from the top, its
                // vertical arm's 10 mm from the right; bottom-left likewise.
                let lines = [
                    middle(rects[1].1, rects[1].3),
                    w - middle(rects[2].0, rects[2].2),
                    h - middle(rects[3].1, rects[3].3),
                    middle(rects[4].0, rects[4].2),
                ];
                assert!(
                    lines.iter().all(|d| (d - 10.0).abs() < 0.05),
                    "{deck} page {page}: the L marks' centre lines {lines:?} mm in, not 10"
                );
                let thick = [rects[1].3 - rects[1].1, rects[2].2 - rects[2].0];
                assert!(thick.iter().all(|t| (t - 0.5).abs() < 0.05), "{deck}: arms {thick:?} mm");
                covered(&marks, &printed).and_then(|_| covered(&printed, &marks)).unwrap_or_else(
                    |p| panic!("{format} {deck}: registration mark corner {p:?} differs"),
                );
                // Art keeps clear of the marks: nothing drawn within the top-left square's corner.
                assert!(
                    drawn.iter().all(|&(x, y)| x > 16.5 || y > 16.5),
                    "{deck}: a guide in the square's corner"
                );
            }
            // Back pages have no cut file and no registration marks.
            assert!(!out
                .path()
                .join(format!("shapes/shapes-{deck}-{paper}-cut-2.{format}"))
                .exists());
            assert!(registration(&pdf, 2).is_empty(), "{deck}: marks on a back");
            let check = std::process::Command::new("qpdf")
                .args(["--check", pdf.to_str().unwrap()])
                .output()
                .expect("qpdf");
            assert!(
                check.status.success(),
                "qpdf --check {deck}: {}",
                String::from_utf8_lossy(&check.stdout)
            );
        }
    }
    // Without --cut, no marks and no cut files.
    let out = build_shapes(&["--only", "cards"]);
    assert!(registration(&shapes_pdf(&out, "cards", "a4"), 1).is_empty());
    assert!(!out.path().join("shapes/shapes-cards-a4-cut-1.svg").exists());
}

/// A copy of the fixture with one edit to its manifest; validated, it must fail (exit 1).
fn broken(from: &str, to: &str) -> (tempfile::TempDir, String, usize) {
    let dir = tempfile::tempdir().unwrap();
    let cat = dir.path().join("shapes");
    copy_dir(&fixture(), &cat);
    edit(&cat, "game.toml", from, to);
    let line = line_of(&cat, "game.toml", to.lines().next().unwrap());
    let err = invalid(&cat);
    (dir, err, line)
}

#[test]
fn bad_shapes_corners_and_hex_sizes_are_errors_at_their_line() {
    let cases = [
        ("shape = \"hex\"", "shape = \"hexagon\"", "unknown shape `hexagon`"),
        ("hex = \"flat\"", "hex = \"sideways\"", "unknown hex orientation `sideways`"),
        ("corner = \"3mm\"", "corner = \"3\"", "has no unit"),
        (
            "corner = \"3mm\"",
            "corner = \"40mm\"",
            "a 40mm corner is more than half the piece's shorter side (31.5mm)",
        ),
        (
            "card = { width = \"60mm\" }",
            "card = { width = \"60mm\", height = \"55mm\" }",
            "a flat-topped hex 60mm across is 51.96mm high, not 55mm",
        ),
        (
            "gap = \"4mm\"",
            "gap = \"4mm\"\ncorner = \"2mm\"",
            "`corner` rounds a rect piece's corners",
        ),
    ];
    for (from, to, message) in cases {
        let (_dir, err, line) = broken(from, to);
        assert!(err.contains(message), "{to}: {err}");
        let line = if to.contains('\n') { line + 1 } else { line };
        assert!(err.contains(&format!("game.toml:{line}:")), "{to}: line {line} in {err}");
    }
}

#[test]
fn an_unknown_cut_format_is_a_usage_error() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "build",
            fixture().to_str().unwrap(),
            "--cut",
            "pdf",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("svg") && stderr(&run).contains("dxf"), "{}", stderr(&run));
    let run = deckpress(
        &[
            "build",
            fixture().to_str().unwrap(),
            "--cut",
            "svg",
            "--for",
            "pdf-cards",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
}

#[test]
fn previews_of_rounded_cards_tokens_and_tiles_show_the_piece_as_cut() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "preview",
            fixture().to_str().unwrap(),
            "--dpi",
            "100",
            "--out",
            out.path().to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("shapes/preview");
    let alpha = |file: &str, fx: f32, fy: f32| {
        let png = resvg::tiny_skia::Pixmap::load_png(dir.join(file)).unwrap();
        png.pixel(((png.width() - 1) as f32 * fx) as u32, ((png.height() - 1) as f32 * fy) as u32)
            .unwrap()
            .alpha()
    };
    // The very corner is outside a 3 mm rounding (and a circle, and a hexagon); 2 mm in
    // along an edge of the card is inside it; every piece's middle is art.
    for file in ["cards/road.png", "tokens/robber.png", "tiles/forest.png", "tiles-back.png"] {
        assert_eq!(alpha(file, 0.0, 0.0), 0, "{file}: the corner is masked");
        assert_eq!(alpha(file, 0.5, 0.5), 255, "{file}: the middle is art");
    }
    assert_eq!(alpha("cards/road.png", 0.5, 0.0), 255, "the card's top edge is art");
    assert_eq!(alpha("chits/robber.png", 0.0, 0.0), 255, "square chits keep their corners");
}

#[test]
fn trumpets_letter_sheets_keep_nine_cards_and_every_crop_mark_5_mm_from_the_edge() {
    let (out, _) = build_game("trumpet", &["--only", "cards", "--paper", "letter"]);
    let pdf = out.path().join("trumpet/trumpet-cards-letter.pdf");
    // 69 cards, 9 a sheet: 8 sheets, each followed by its backs.
    assert_eq!(pages(&pdf), 16);
    for page in [1, 2, 15] {
        let marks = crop_marks(&pdf, page);
        assert!(marks.len() >= 24, "page {page}: {} marks", marks.len());
        let closest = marks
            .iter()
            .flat_map(|(a, b)| [*a, *b])
            .map(|(x, y)| x.min(y).min(215.9 - x).min(279.4 - y))
            .fold(f64::MAX, f64::min);
        assert!(closest >= 5.0 - 0.01, "page {page}: a mark {closest:.2} mm from the edge");
    }
}

/// `--cut svg` writes, beside each front sheet's cut file, the picture of its art that
/// Cricut Design Space's Print Then Cut uploads with it: the page's size at 300 dpi (said
/// in its pHYs), the art inside every contour of the cut file, and no registration marks
/// (Design Space prints its own frame), where the PDF prints them.
#[test]
fn a_print_then_cut_picture_lies_under_its_svg_cut_file() {
    let out = build_shapes(&["--paper", "a4", "--cut", "svg", "--only", "cards,tokens"]);
    for deck in ["cards", "tokens"] {
        // The page as written: it turns landscape where that holds more pieces.
        let (w, h) = crate::fold::page_mm(&shapes_pdf(&out, deck, "a4"));
        let png = out.path().join(format!("shapes/shapes-{deck}-a4-print-1.png"));
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display())),
        ));
        let mut reader = decoder.read_info().unwrap();
        let info = reader.info().clone();
        let px = |mm: f64| mm / 25.4 * 300.0;
        assert!((f64::from(info.width) - px(w)).abs() <= 1.0, "{deck}: {} px wide", info.width);
        assert!((f64::from(info.height) - px(h)).abs() <= 1.0, "{deck}: {} px high", info.height);
        let dims = info.pixel_dims.expect("pHYs");
        assert_eq!((dims.xppu, dims.yppu), (11811, 11811), "{deck}: 300 dpi");
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut buf).unwrap();
        let channels = frame.line_size / info.width as usize;
        let at = |(x, y): Point| -> &[u8] {
            let i = px(y) as usize * frame.line_size + px(x) as usize * channels;
            &buf[i..i + 3]
        };
        let white = |p: &[u8]| p.iter().all(|&c| c > 250);
        // Inside each contour of the cut file, art.
        let svg =
            std::fs::read_to_string(out.path().join(format!("shapes/shapes-{deck}-a4-cut-1.svg")))
                .unwrap();
        let (_, cuts, shapes) = svg_points(&svg);
        assert!(shapes > 0);
        let per = cuts.len() / shapes;
        for contour in cuts.chunks(per) {
            // Above the middle, clear of a centred title.
            let (x0, y0, x1, y1) = bbox(contour);
            let p = ((x0 + x1) / 2.0, y0 + 0.2 * (y1 - y0));
            assert!(!white(at(p)), "{deck}: blank at {p:?}, inside a contour");
        }
        // The top-left square of the registration marks: black in the PDF, paper here.
        let pdf = shapes_pdf(&out, deck, "a4");
        assert!(!registration(&pdf, 1).is_empty(), "{deck}: the PDF has its marks");
        assert!(white(at((12.5, 12.5))), "{deck}: a registration mark in the picture");
        // Backs have none.
        assert!(!out.path().join(format!("shapes/shapes-{deck}-a4-print-2.png")).exists());
    }
    // A DXF cut file (Silhouette) has no picture beside it.
    let out = build_shapes(&["--paper", "a4", "--cut", "dxf", "--only", "cards"]);
    assert!(!out.path().join("shapes/shapes-cards-a4-print-1.png").exists());
}
