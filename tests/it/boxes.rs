//! Tuck boxes (`[[box]]`): the box TravFuda ships with, measured from its PDF and cut
//! file; and the errors `validate` gives for a box that cannot be made.

use std::path::{Path, PathBuf};

use crate::common::{build_game, copy_catalogue, deckpress, drawn_paths, edit, line_of, stderr};

const PT_PER_MM: f64 = 72.0 / 25.4;

fn file(out: &Path, name: &str) -> PathBuf {
    let path = out.join("travfuda").join(name);
    assert!(path.exists(), "{} missing", path.display());
    path
}

/// A stroked path's subpaths, each its points in mm from the page's top-left corner.
type Subpaths = Vec<Vec<(f64, f64)>>;

/// The stroked paths of a page, from `mutool trace`: (dashed, subpaths).
fn die_strokes(pdf: &Path, page: usize) -> Vec<(bool, Subpaths)> {
    let trace = std::process::Command::new("mutool")
        .args(["trace", pdf.to_str().unwrap(), &page.to_string()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&trace.stdout).into_owned();
    // Each stroke_path's opening tag, in order, says whether it is dashed.
    let dashed: Vec<bool> = text
        .split("<stroke_path")
        .skip(1)
        .map(|rest| {
            let end = rest.find("</stroke_path>").unwrap_or(rest.len());
            rest[..end].contains("dash")
        })
        .collect();
    let strokes: Vec<_> =
        drawn_paths(pdf, page).into_iter().filter(|p| p.kind == "stroke").collect();
    assert_eq!(strokes.len(), dashed.len());
    strokes
        .into_iter()
        .zip(dashed)
        .map(|(p, d)| {
            let mm = p
                .subpaths
                .iter()
                .map(|s| s.iter().map(|&(x, y)| (x / PT_PER_MM, y / PT_PER_MM)).collect())
                .collect();
            (d, mm)
        })
        .collect()
}

#[test]
fn travfudas_tuck_box_is_sized_from_its_deck_on_a4_and_letter() {
    let (out, _) =
        build_game("travfuda", &["--only", "box", "--paper", "a4,letter", "--cut", "svg"]);
    for paper in ["a4", "letter"] {
        let pdf = file(out.path(), &format!("travfuda-box-{paper}.pdf"));
        let strokes = die_strokes(&pdf, 1);
        // The folds: dashed lines; the vertical ones between the panels.
        let folds: Vec<&Vec<(f64, f64)>> =
            strokes.iter().filter(|(d, _)| *d).flat_map(|(_, s)| s).collect();
        assert!(folds.len() >= 12, "{paper}: {} dashed fold lines", folds.len());
        let mut xs: Vec<f64> = folds
            .iter()
            .filter(|l| (l[0].0 - l[1].0).abs() < 0.01 && (l[0].1 - l[1].1).abs() > 50.0)
            .map(|l| l[0].0)
            .collect();
        xs.sort_by(f64::total_cmp);
        assert_eq!(xs.len(), 4, "{paper}: vertical folds at {xs:?}");
        let (glue_back, back_side, side_front, front_side) = (xs[0], xs[1], xs[2], xs[3]);
        // 63 × 88 mm cards, 1 mm clearance; 62 cards of 0.32 mm stock.
        let width = front_side - side_front;
        let depth = side_front - back_side;
        assert!((width - 64.0).abs() < 0.05, "{paper}: front panel {width:.3} mm wide");
        assert!((back_side - glue_back - 64.0).abs() < 0.05, "{paper}: back panel");
        assert!((depth - (62.0 * 0.32 + 1.0)).abs() < 0.05, "{paper}: {depth:.3} mm deep");
        let vertical = folds.iter().find(|l| (l[0].0 - side_front).abs() < 0.01).unwrap();
        let height = (vertical[1].1 - vertical[0].1).abs();
        assert!((height - 89.0).abs() < 0.05, "{paper}: front panel {height:.3} mm high");
        // The cut: one solid closed outline; the cut file's contour is the same to 0.1 mm.
        cut_file_matches_the_pdf(
            &strokes,
            &file(out.path(), &format!("travfuda-box-{paper}-cut.svg")),
        );
        // Inside dimensions in the slug.
        let text = crate::common::poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
        assert!(text.contains("inside 64.0 × 89.0 × 20.8 mm"), "{text}");
    }
}

/// The page's solid cut outline, the same as the cut file's contour to 0.1 mm.
fn cut_file_matches_the_pdf(strokes: &[(bool, Subpaths)], cut_file: &Path) -> Vec<(f64, f64)> {
    let cut = strokes
        .iter()
        .filter(|(d, s)| !*d && s.len() == 1 && s[0].len() > 12)
        .map(|(_, s)| &s[0])
        .next()
        .expect("a solid cut outline");
    let svg = std::fs::read_to_string(cut_file).unwrap();
    let points: Vec<(f64, f64)> = svg
        .split("<polygon points=\"")
        .nth(1)
        .expect("a polygon in the cut layer")
        .split('"')
        .next()
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect();
    assert!(svg.contains("<g id=\"cut\"") && svg.contains("<g id=\"score\""), "{svg}");
    assert_eq!(cut.len(), points.len(), "{}: PDF cut line and cut file", cut_file.display());
    for (a, b) in cut.iter().zip(&points) {
        assert!(
            (a.0 - b.0).abs() <= 0.1 && (a.1 - b.1).abs() <= 0.1,
            "{}: PDF {a:?} against cut file {b:?}",
            cut_file.display()
        );
    }
    cut.clone()
}

#[test]
fn a_telescoping_box_is_a_lid_sliding_over_a_base_both_sized_from_the_deck() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "game.toml",
        "deck = \"cards\"\nfront",
        "deck = \"cards\"\nstyle = \"telescope\"\nfront",
    );
    let (out, run) =
        crate::common::build(&cat, &["--only", "box", "--paper", "a4", "--cut", "svg"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("travfuda");
    let pdf = dir.join("travfuda-box-a4.pdf");
    assert_eq!(crate::common::pages(&pdf), 2, "the lid, then the base");
    // The base holds the deck (63 × 88 mm cards, 1 mm clearance, 62 × 0.32 mm deep); the
    // lid goes over its walls (0.4 mm board each side) with 0.5 mm to slide.
    let depth = 62.0 * 0.32 + 1.0;
    for (page, part, floor) in [(1, "lid", (65.3, 90.3)), (2, "base", (64.0, 89.0))] {
        let strokes = die_strokes(&pdf, page);
        let folds: Vec<&Vec<(f64, f64)>> =
            strokes.iter().filter(|(d, _)| *d).flat_map(|(_, s)| s).collect();
        // The floor's four folds: the two long vertical ones, as long as the floor is high.
        let mut sides: Vec<f64> = folds
            .iter()
            .filter(|l| {
                (l[0].0 - l[1].0).abs() < 0.01 && ((l[1].1 - l[0].1).abs() - floor.1).abs() < 0.05
            })
            .map(|l| l[0].0)
            .collect();
        sides.sort_by(f64::total_cmp);
        assert_eq!(sides.len(), 2, "{part}: floor folds at {sides:?}");
        assert!(
            (sides[1] - sides[0] - floor.0).abs() < 0.05,
            "{part}: floor {:.3} wide",
            sides[1] - sides[0]
        );
        let cut = cut_file_matches_the_pdf(
            &strokes,
            &dir.join(format!("travfuda-box-a4-{part}-cut.svg")),
        );
        // The walls stand as deep as the deck: from the floor's fold to the outline's edge.
        let left = cut.iter().map(|p| p.0).fold(f64::MAX, f64::min);
        assert!((sides[0] - left - depth).abs() < 0.05, "{part}: walls {:.3} mm", sides[0] - left);
    }
    let text = crate::common::poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
    assert!(text.contains("The base is 64.0 × 89.0 × 20.8 mm inside"), "{text}");
}

#[test]
fn a_deck_too_thick_for_a_telescoping_box_is_a_validate_error() {
    box_error(
        "deck = \"cards\"\nfront",
        "deck = \"cards\"\nstyle = \"telescope\"\ncards = 400\nfront",
        "cards = 400",
        "400 cards make a deck 129.0 mm deep, too thick for a telescope box (at most 100 mm)",
    );
}

fn box_error(edit_from: &str, edit_to: &str, needle: &str, message: &str) {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "game.toml", edit_from, edit_to);
    let run = deckpress(&["validate", cat.to_str().unwrap()], &cat);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let err = stderr(&run);
    let line = line_of(&cat, "game.toml", needle);
    assert!(err.contains(message), "{err}");
    assert!(err.contains(&format!("game.toml:{line}:")), "line {line}: {err}");
}

#[test]
fn a_deck_too_thick_for_a_tuck_box_is_a_validate_error() {
    box_error(
        "deck = \"cards\"\nfront",
        "deck = \"cards\"\ncards = 200\nfront",
        "cards = 200",
        "200 cards make a deck 65.0 mm deep, too thick for a tuck box",
    );
}

#[test]
fn a_box_too_big_for_every_paper_is_a_validate_error() {
    box_error(
        "[card]\nwidth = \"63mm\"\nheight = \"88mm\"",
        "[card]\nwidth = \"400mm\"\nheight = \"400mm\"",
        "id = \"box\"",
        "too big for every paper, up to A1",
    );
}

#[test]
fn text_near_a_fold_is_a_warning_naming_the_face_and_the_distance() {
    let (_dir, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "templates/box.svg",
        "y=\"{{ h / 2 + 1.6 }}\" font-size=\"4.5\"",
        "y=\"{{ h - 0.5 }}\" font-size=\"4.5\"",
    );
    let run = deckpress(&["validate", cat.to_str().unwrap(), "--strict"], &cat);
    assert_eq!(run.status.code(), Some(1), "--strict makes it an error: {}", stderr(&run));
    let err = stderr(&run);
    assert!(
        err.contains("text \"TravFuda\" is 0.5 mm from the panel's edge (a fold or the cut)"),
        "{err}"
    );
    assert!(err.contains("in the top of box `box`"), "{err}");
}

/// TravFuda with `from` in its box template changed to `to`, validated: it stays valid;
/// returns what `validate` said.
fn box_warnings(from: &str, to: &str) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let (dir, cat) = copy_catalogue("travfuda");
    edit(&cat, "templates/box.svg", from, to);
    let err = crate::common::valid(&cat);
    (dir, cat, err)
}

#[test]
fn text_past_a_panel_is_said_to_run_off_the_panel() {
    // A box face's text that runs past its panel runs into a flap or off the cut: the
    // warning names the panel, not a card.
    let (_dir, _cat, err) = box_warnings(
        "y=\"{{ h / 2 + 1.6 }}\" font-size=\"4.5\"",
        "y=\"{{ h / 2 + 1.6 }}\" font-size=\"40\"",
    );
    assert!(err.contains("text \"TravFuda\" runs "), "{err}");
    assert!(err.contains("mm off the panel"), "{err}");
    assert!(!err.contains("mm off the card"), "{err}");
    // The template prints `{{ game.name }}` in four elements (in `{% if %}` branches):
    // the warning names all four lines rather than guessing one.
    assert!(
        err.contains("the template writes it on lines 19, 27, 32 and 34; which of them printed it depends on the data"),
        "{err}"
    );
}

#[test]
fn a_long_box_caption_is_wrapped_onto_the_page_whole() {
    // Found writing a catalogue from docs/: a longer box and deck name pushed the line
    // under the flat past the paper's right edge, where the last words were lost.
    let long = "Tuck box for the whole TravFuda deck of sixty-two cards, Jokers and Starbursts too";
    for style in ["", "style = \"telescope\"\n"] {
        let (_dir, cat) = copy_catalogue("travfuda");
        edit(&cat, "game.toml", "name = \"Tuck box\"\n", &format!("name = \"{long}\"\n{style}"));
        let (out, run) = crate::common::build(&cat, &["--only", "box", "--paper", "a4"]);
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let pdf = out.path().join("travfuda/travfuda-box-a4.pdf");
        crate::common::assert_words_printable(&pdf, (595.28, 841.89));
        let text = crate::common::poppler("pdftotext", &[pdf.to_str().unwrap(), "-"]);
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains(&format!("TravFuda — {long}: 62 cards of TravFuda deck")),
            "{words}"
        );
        let end = if style.is_empty() {
            "glue the flap inside the far side."
        } else {
            "the lid slides over the base."
        };
        assert!(words.contains(end), "{style}: {words}");
    }
}

#[test]
fn a_warning_about_a_filled_text_points_at_the_element_that_writes_it() {
    // Printed "TravFuda box" is nowhere in the template as such: it is the one text whose
    // written words, `{{ game.name }} box`, fill to it (found writing a catalogue from
    // docs/: such warnings named the template without a line).
    let (_dir, cat, err) = box_warnings(
        "y=\"{{ h / 2 + 1.6 }}\" font-size=\"4.5\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#f9c80e\">{{ game.name }}</text>",
        "y=\"{{ h - 0.5 }}\" font-size=\"4.5\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#f9c80e\">{{ game.name }} box</text>",
    );
    let line = crate::common::line_of(&cat, "templates/box.svg", "{{ game.name }} box");
    assert!(err.contains("text \"TravFuda box\" is 0.5 mm from the panel's edge"), "{err}");
    assert!(err.contains(&format!("box.svg:{line}:")), "{err}");
}

/// The DXF's (group code, value) pairs, trimmed.
fn dxf_pairs(text: &str) -> Vec<(i32, String)> {
    let lines: Vec<&str> = text.lines().collect();
    lines.chunks(2).map(|p| (p[0].trim().parse().unwrap(), p[1].trim().to_string())).collect()
}

#[test]
fn the_box_dxf_defines_its_cut_and_score_layers_and_keeps_them_apart() {
    let (out, _) = build_game("travfuda", &["--only", "box", "--paper", "a4", "--cut", "dxf"]);
    let dxf = std::fs::read_to_string(file(out.path(), "travfuda-box-a4-cut.dxf")).unwrap();
    let pairs = dxf_pairs(&dxf);
    // The LAYER table's entries: name → (ACI colour, line type).
    let mut layers = std::collections::HashMap::new();
    let mut in_layer_table = false;
    for (i, (code, value)) in pairs.iter().enumerate() {
        match (code, value.as_str()) {
            (2, "LAYER") if pairs[i - 1] == (0, "TABLE".to_string()) => in_layer_table = true,
            (0, "ENDTAB") => in_layer_table = false,
            (0, "LAYER") if in_layer_table => {
                let field = |c: i32| {
                    pairs[i + 1..]
                        .iter()
                        .take_while(|(k, _)| *k != 0)
                        .find(|(k, _)| *k == c)
                        .map(|(_, v)| v.clone())
                        .unwrap()
                };
                layers.insert(field(2), (field(62), field(6)));
            }
            _ => {}
        }
    }
    // Every entity's layer is defined; cuts and folds are on their own.
    let start = pairs.iter().position(|p| *p == (2, "ENTITIES".to_string())).unwrap();
    let mut used = std::collections::HashMap::new();
    for (i, (code, value)) in pairs[start..].iter().enumerate() {
        if *code == 8 {
            let kind = &pairs[start + i - 1].1;
            *used.entry((value.clone(), kind.clone())).or_insert(0) += 1;
        }
    }
    for (layer, _) in used.keys() {
        assert!(layers.contains_key(layer), "layer {layer} is used but not defined: {layers:?}");
    }
    let count = |layer: &str| used.get(&(layer.to_string(), "LINE".to_string())).copied();
    assert!(count("CUT").is_some_and(|n| n >= 8), "the outline: {used:?}");
    assert!(count("SCORE").is_some_and(|n| n >= 12), "the folds: {used:?}");
    let (cut, score) = (&layers["CUT"], &layers["SCORE"]);
    assert_ne!(cut.0, score.0, "cut and score are told apart by colour");
    assert_eq!((cut.1.as_str(), score.1.as_str()), ("CONTINUOUS", "DASHED"));
    // The dashed line type the SCORE layer names is defined too.
    assert!(dxf.contains("0\nLTYPE\n2\nDASHED\n"), "{dxf}");
}

#[test]
fn a_press_box_prints_its_die_line_on_spot_colours_that_overprint() {
    let (out, _) = build_game("travfuda", &["--only", "box", "--paper", "a4", "--colour", "cmyk"]);
    let pdf = file(out.path(), "travfuda-box-a4.pdf");
    // Ghostscript's separations: a plate for the cut and one for the folds, each inked.
    let seps = tempfile::tempdir().unwrap();
    let run = std::process::Command::new("gs")
        .args(["-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=tiffsep", "-sCompression=none", "-r20"])
        .arg(format!("-sOutputFile={}", seps.path().join("page.tif").display()))
        .arg(&pdf)
        .output()
        .expect("Ghostscript is needed (apt-get install ghostscript)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for spot in ["CutContour", "Crease"] {
        let plate = seps.path().join(format!("page({spot}).tif"));
        assert!(plate.exists(), "no {spot} separation: the die-line is in process ink");
        let (_, _, _, pixels) = crate::common::read_tiff(&plate);
        // Paper is the plate's most common value; the line is the rest.
        let paper = pixels[0];
        let inked = pixels.iter().filter(|&&v| v != paper).count();
        assert!(inked > 100, "{spot}: {inked} pixels of ink");
    }
    // They overprint (OPM 1: their zero process components leave the art under them).
    let qdf = std::process::Command::new("qpdf")
        .args(["--qdf", "--object-streams=disable"])
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("qpdf is needed");
    let q = String::from_utf8_lossy(&qdf.stdout);
    assert!(
        q.contains("/OP true") && q.contains("/op true") && q.contains("/OPM 1"),
        "no overprinting graphics state"
    );
    for spot in ["/CutContour", "/Crease"] {
        assert!(q.contains(&format!("/Separation\n  {spot}")), "{spot} as a Separation");
    }
}

#[test]
fn a_box_cut_file_and_its_page_carry_registration_marks() {
    let (out, printed) =
        build_game("travfuda", &["--only", "box", "--paper", "a4,letter", "--cut", "svg"]);
    for paper in ["a4", "letter"] {
        let svg =
            std::fs::read_to_string(file(out.path(), &format!("travfuda-box-{paper}-cut.svg")))
                .unwrap();
        let marks = &svg[svg.find("<g id=\"registration\"").unwrap()..];
        let marks = &marks[..marks.find("</g>").unwrap()];
        assert_eq!(marks.matches("<rect").count(), 5, "{paper}: the square and two Ls: {svg}");
        assert!(marks.contains(r#"<rect x="10" y="10" width="5" height="5"/>"#), "{marks}");
        // Printed on the page too: a black fill of five rectangles.
        let pdf = file(out.path(), &format!("travfuda-box-{paper}.pdf"));
        let printed_marks = drawn_paths(&pdf, 1)
            .into_iter()
            .filter(|p| p.kind == "fill" && p.color == "0" && p.subpaths.len() == 5)
            .count();
        assert_eq!(printed_marks, 1, "{paper}: the marks on the page");
    }
    assert!(!printed.contains("no room for registration"), "{printed}");
}
