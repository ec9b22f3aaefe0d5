//! Press-ready colour (issue: "CMYK, PDF/X, ink limits and a soft proof"), measured from
//! the PDFs: the output intent and PDF/X keys qpdf shows, the colour operators and image
//! colour spaces of every content stream, and Ghostscript's colour-managed rendering.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// The PDF uncompressed by qpdf (`--qdf`): every object and content stream readable.
fn qdf(pdf: &Path) -> String {
    qpdf(pdf, "qdf.pdf", &[])
}

/// `qpdf --qdf` of `pdf` with `more` options, read back as text.
fn qpdf(pdf: &Path, suffix: &str, more: &[&str]) -> String {
    let out = pdf.with_extension(suffix);
    let run = Command::new("qpdf")
        .args(["--qdf", "--object-streams=disable"])
        .args(more)
        .arg(pdf)
        .arg(&out)
        .output()
        .expect("qpdf is needed (apt-get install qpdf)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8_lossy(&std::fs::read(out).unwrap()).into_owned()
}

/// The PDF's objects as `qdf` writes them, each on its own, but with their streams left
/// compressed: every dictionary (ExtGStates, image and group dictionaries, the output
/// intent) reads as text, without the pictures' pixels `qdf` inflates (197 MB for
/// Trumpet's tiled board in CMYK: 10 s of CPU to search in a debug build). Keys such as
/// `/SMask`, `/ca` and `/CA` live only in dictionaries, never in a content stream.
fn objects(pdf: &Path) -> String {
    qpdf(pdf, "objects.pdf", &["--stream-data=preserve"])
}

/// A starter game (`deckpress new`) with pure black ink, a swatch for its Moon colour,
/// a rich black, and a dark grey band across each face.
/// The starter game on poker cards (2.5 × 3.5 in, a card size DriveThruCards prints).
fn starter() -> (tempfile::TempDir, PathBuf) {
    let (dir, cat) = new_game();
    edit(&cat, "game.toml", "width = \"63mm\"\nheight = \"88mm\"", "size = \"poker\"");
    edit(&cat, "game.toml", "ink = \"#1d2330\"", "ink = \"#000000\"");
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    std::fs::write(cat.join("game.toml"), toml + "\n[colour]\nrich_black = [60, 40, 40, 100]\n[colour.swatches]\n\"#3f51b5\" = [80, 60, 0, 0]\n").unwrap();
    edit(&cat, "templates/face.svg", "<circle cx=\"315\"", "<rect id=\"band\" x=\"100\" y=\"760\" width=\"430\" height=\"40\" fill=\"#202020\"/>\n  <circle cx=\"315\"");
    (dir, cat)
}

/// The content streams of pages and form XObjects in a `--qdf` file (not fonts, images
/// or metadata, whose bytes are no operators).
fn content_streams(qdf: &str) -> String {
    let mut out = String::new();
    let mut rest = qdf;
    while let Some(i) = rest.find("\nstream\n") {
        let head = &rest[..i];
        let dict = &head[head.rfind(" obj").unwrap_or(0)..];
        let is_page = head[head.rfind("endobj").unwrap_or(0)..].contains("%% Contents for page");
        let body = &rest[i + 8..];
        let end = body.find("\nendstream").unwrap_or(body.len());
        if is_page || dict.contains("/Subtype /Form") {
            out.push_str(&body[..end]);
            out.push('\n');
        }
        rest = &body[end..];
    }
    out
}

/// Every colour-setting operator of the content streams (`… k`, `… rg`, `… g`, `… sc`).
fn colour_operators(qdf: &str) -> Vec<String> {
    content_streams(qdf).lines().flat_map(colour_operators_of).collect()
}

/// The colour operators of one line of a content stream.
fn colour_operators_of(line: &str) -> Vec<String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut ops = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if matches!(
            *t,
            "k" | "K" | "rg" | "RG" | "g" | "G" | "sc" | "SC" | "scn" | "SCN" | "cs" | "CS"
        ) {
            let start = tokens[..i]
                .iter()
                .rposition(|t| t.parse::<f32>().is_err() && !t.starts_with('/'))
                .map_or(0, |p| p + 1);
            ops.push(tokens[start..=i].join(" "));
        }
    }
    ops
}

#[test]
fn drivethrucards_is_pdfx_1a_in_cmyk_with_the_swop_output_intent() {
    // TravFuda's 63 × 88 mm cards become DriveThruCards' poker card.
    let (out, printed) =
        build_game("travfuda", &["--for", "drivethrucards", "--only", "cards", "--fit", "scale"]);
    let pdf = out.path().join("travfuda/travfuda-cards-drivethrucards.pdf");
    assert!(printed.contains("travfuda-cards-drivethrucards.pdf"), "{printed}");
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF-1.4"), "PDF/X-1a:2003 is PDF 1.4");
    let check = Command::new("qpdf").arg("--check").arg(&pdf).output().expect("qpdf runs");
    assert!(check.status.success(), "qpdf --check: {}", String::from_utf8_lossy(&check.stdout));
    let q = qdf(&pdf);
    // The output intent: GTS_PDFX, a registered condition and a 4-channel profile.
    assert!(q.contains("/S /GTS_PDFX"), "GTS_PDFX output intent");
    assert!(
        q.contains("/OutputConditionIdentifier (CGATS TR 003)")
            && q.contains("/RegistryName (http://www.color.org)")
    );
    let profile_ref = q
        .lines()
        .find_map(|l| l.trim().strip_prefix("/DestOutputProfile "))
        .expect("a destination profile")
        .trim()
        .to_string();
    let object = format!("\n{} obj", profile_ref.trim_end_matches(" R"));
    let profile = &q[q.find(&object).expect("the profile object")..];
    let dict = &profile[..profile.find("stream").unwrap()];
    assert!(dict.contains("/N 4"), "a CMYK profile: {dict}");
    assert!(
        q.contains("/GTS_PDFXVersion (PDF/X-1a:2003)") && q.contains("/Trapped /False"),
        "PDF/X keys in Info"
    );
    assert!(
        q.contains("<pdfxid:GTS_PDFXVersion>PDF/X-1a:2003</pdfxid:GTS_PDFXVersion>"),
        "and in the XMP"
    );
    assert!(q.contains("/CreationDate (D:") && q.contains("/ModDate (D:"), "PDF/X dates");
    // The XMP identification PDF/X asks for: ids as URIs, a version, the master rendition,
    // and when the metadata was written.
    let xmp = |key: &str| {
        let open = format!("<{key}>");
        let at = q.find(&open).unwrap_or_else(|| panic!("no {key} in the XMP")) + open.len();
        q[at..at + q[at..].find('<').unwrap()].to_string()
    };
    for id in ["xmpMM:DocumentID", "xmpMM:InstanceID"] {
        let uuid = xmp(id);
        let hex =
            uuid.strip_prefix("uuid:").unwrap_or_else(|| panic!("{id} {uuid}: not a uuid: URI"));
        let groups: Vec<usize> = hex.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12], "{id} {uuid}");
        assert!(hex.chars().all(|c| c == '-' || c.is_ascii_hexdigit()), "{id} {uuid}");
    }
    assert_ne!(xmp("xmpMM:DocumentID"), xmp("xmpMM:InstanceID"));
    assert_eq!(xmp("xmpMM:VersionID"), "1");
    assert_eq!(xmp("xmpMM:RenditionClass"), "default", "not a proof: the master");
    assert_eq!(xmp("xmp:MetadataDate"), xmp("xmp:ModifyDate"));
    // Trim and bleed on every page.
    let n = pages(&pdf);
    assert_eq!(n, 124, "62 cards, back and front");
    assert_eq!(q.matches("/TrimBox [").count(), n);
    assert_eq!(q.matches("/BleedBox [").count(), n);
    // Nothing RGB, nothing transparent: colour operators are CMYK only.
    for forbidden in
        ["/DeviceRGB", "/ICCBased", "/DeviceGray", "/SMask", "/Transparency", "/CalRGB"]
    {
        assert!(!q.contains(forbidden), "{forbidden} in a PDF/X-1a file");
    }
    let ops = colour_operators(&q);
    assert!(
        ops.iter().filter(|o| o.ends_with(" k")).count() > 100,
        "{:?}",
        &ops[..ops.len().min(10)]
    );
    let not_cmyk: Vec<&String> =
        ops.iter().filter(|o| !o.ends_with(" k") && !o.ends_with(" K")).collect();
    assert!(not_cmyk.is_empty(), "colour operators other than k/K: {not_cmyk:?}");
    for line in q.lines().filter(|l| l.contains("/ca ") || l.contains("/CA ")) {
        assert!(line.trim().ends_with(" 1"), "opacity below 1: {line}");
    }
    let images = poppler("pdfimages", &["-list", pdf.to_str().unwrap()]);
    let colours: Vec<&str> =
        images.lines().skip(2).map(|l| l.split_whitespace().nth(5).unwrap()).collect();
    assert!(
        !colours.is_empty() && colours.iter().all(|c| *c == "cmyk"),
        "image colour spaces: {colours:?}"
    );
    // DriveThruCards' order: the back of card 1, then its front. Text stays text.
    assert!(
        words_of(&pdf, Some(1)).contains("TravFuda")
            && !words_of(&pdf, Some(1)).contains("CUTLASS"),
        "page 1 is a back"
    );
    assert!(words_of(&pdf, Some(2)).contains("CUTLASS"), "page 2 is its front");
    assert_fonts_embedded(&pdf);
}

#[test]
fn black_text_is_black_ink_alone_and_a_swatch_prints_its_exact_cmyk() {
    let (_dir, cat) = starter();
    let (out, run) = build(&cat, &["--for", "pdf-cards", "--colour", "cmyk"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let q = qdf(&out.path().join("game/game-cards-pdf-cards.pdf"));
    assert!(
        q.contains("/OutputConditionIdentifier (FOGRA39)"),
        "CMYK for any service uses FOGRA39 by default"
    );
    // Each text object is painted with the fill set last before it. The templates' black
    // text (value, title, suit: 3 per face) is 0/0/0/100; no text is a four-colour black.
    let mut fill = String::new();
    let mut black = 0;
    for line in content_streams(&q).lines() {
        for op in colour_operators_of(line) {
            if op.ends_with(" k") {
                fill = op;
            }
        }
        if line.starts_with("BT") || line.contains(" BT") {
            let inks: Vec<f32> = fill.split_whitespace().filter_map(|v| v.parse().ok()).collect();
            if fill == "0 0 0 1 k" {
                black += 1;
            } else {
                assert!(
                    !(inks[3] > 0.8 && inks[..3].iter().any(|&v| v > 0.0)),
                    "text in four-colour black: {fill}"
                );
            }
        }
    }
    assert!(black >= 3 * 6, "{black} black text objects for 6 designs");
    // The Moon colour #3f51b5 is a swatch: 80/60/0/0 exactly, untouched by the profile.
    assert!(colour_operators(&q).iter().any(|o| o == "0.8 0.6 0 0 k"), "the swatch's CMYK");
}

#[test]
fn a_colour_over_the_ink_limit_warns_with_the_card_and_strict_refuses_it() {
    let (_dir, cat) = starter();
    let run = deckpress(
        &["validate", cat.to_str().unwrap(), "--for", "drivethrucards", "--ink-limit", "150"],
        &repo(),
    );
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(err.contains("warning: the fill `band` (#202020) takes 179% ink, over the 150% limit of CGATS TR 003"), "{err}");
    let line = line_of(&cat, "templates/face.svg", "#202020");
    assert!(
        err.contains(&format!("templates/face.svg:{line}:"))
            && err.contains("card `sun-1` of deck `cards`"),
        "names the template line and the card: {err}"
    );
    // Rich black (60/40/40/100 = 240 %) on the back is over 150 % too; black text is not.
    assert!(err.contains("the fill (#000000) takes 240% ink"), "{err}");
    assert!(!err.contains("text"), "black text is 100 % ink: {err}");
    let strict = deckpress(
        &[
            "validate",
            cat.to_str().unwrap(),
            "--for",
            "drivethrucards",
            "--ink-limit",
            "150",
            "--strict",
        ],
        &repo(),
    );
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    // At DriveThruCards' own 240 % the starter game is clean.
    let clean = deckpress(
        &["validate", cat.to_str().unwrap(), "--for", "drivethrucards", "--strict"],
        &repo(),
    );
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
}

#[test]
fn a_photo_over_the_ink_limit_warns_in_build_as_in_validate() {
    // The back's photo is converted while the pages are drawn; its ink is still told, at
    // the back's template, and as validate tells it.
    let out = tempfile::tempdir().unwrap();
    let args = ["--for", "drivethrucards", "--fit", "scale", "--ink-limit", "150"];
    let mut build = vec!["build", "travfuda", "--only", "cards", "--out"];
    build.push(out.path().to_str().unwrap());
    build.extend(args);
    let built = deckpress(&build, &repo());
    let mut validate = vec!["validate", "travfuda", "--only", "cards"];
    validate.extend(args);
    let validated = deckpress(&validate, &repo());
    let photo = "warning: image takes 205% ink, over the 150% limit of CGATS TR 003\n \
                 = in catalogues/travfuda/templates/back.svg\n = in the back of deck `cards`";
    for run in [&built, &validated] {
        let err = stderr(run);
        assert_eq!(run.status.code(), Some(0), "{err}");
        assert!(err.contains(photo), "{err}");
    }
    let warnings = |run| stderr(run).lines().filter(|l| l.starts_with("warning:")).count();
    assert_eq!(warnings(&built), warnings(&validated));
}

#[test]
fn transparency_is_flattened_for_pdfx_1a_with_a_warning_and_kept_by_pdfx_4() {
    let (_dir, cat) = starter();
    edit(&cat, "templates/face.svg", "<circle cx=\"315\"", "<circle opacity=\"0.5\" cx=\"315\"");
    let (out, run) = build(&cat, &["--for", "drivethrucards"]);
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "needs transparency, which PDF/X-1a cannot hold: the piece prints as a 600 dpi picture"
        ) && err.contains("card `sun-1` of deck `cards`"),
        "{err}"
    );
    let line = line_of(&cat, "templates/face.svg", "opacity=\"0.5\"");
    assert!(err.contains(&format!("templates/face.svg:{line}:")), "points at the opacity: {err}");
    let pdf = out.path().join("game/game-cards-drivethrucards.pdf");
    // The face is one CMYK picture at 600 dpi (2.5 in and 1/8 in each side: 1650 pixels); the back is
    // still vector art with its text.
    let images = poppler("pdfimages", &["-list", "-f", "2", "-l", "2", pdf.to_str().unwrap()]);
    let row: Vec<&str> =
        images.lines().nth(2).expect("an image on the face").split_whitespace().collect();
    assert_eq!((row[3], row[5]), ("1650", "cmyk"), "{images}");
    assert!(words_of(&pdf, Some(1)).contains("My Game"), "the back keeps its text");
    assert!(!objects(&pdf).contains("/SMask"));

    let (out4, run4) = build(&cat, &["--for", "drivethrucards", "--pdfx", "4"]);
    assert_eq!(run4.status.code(), Some(0), "{}", stderr(&run4));
    assert!(!stderr(&run4).contains("transparency"), "{}", stderr(&run4));
    let pdf4 = out4.path().join("game/game-cards-drivethrucards.pdf");
    assert!(std::fs::read(&pdf4).unwrap().starts_with(b"%PDF-1.6"));
    let q4 = objects(&pdf4);
    assert!(q4.contains("/GTS_PDFXVersion (PDF/X-4)"));
    assert!(words_of(&pdf4, Some(2)).contains("Dawn"), "the face keeps its text");
}

/// sRGB (0–255) to CIE L*a*b* (D65).
fn lab(rgb: [u8; 3]) -> [f64; 3] {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (lin(rgb[0]), lin(rgb[1]), lin(rgb[2]));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
    [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
}

/// Ghostscript's rendering of one page, colour-managed through the PDF's output intent.
fn ghostscript(pdf: &Path, page: usize, png: &Path) -> resvg::tiny_skia::Pixmap {
    let run = Command::new("gs")
        .args([
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-dSAFER",
            "-sDEVICE=png16m",
            "-r40",
            "-dUsePDFX3Profile",
        ])
        .arg(format!("-dFirstPage={page}"))
        .arg(format!("-dLastPage={page}"))
        .arg(format!("-sOutputFile={}", png.display()))
        .arg(pdf)
        .output()
        .expect("Ghostscript is needed (apt-get install ghostscript)");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    resvg::tiny_skia::Pixmap::load_png(png).unwrap()
}

#[test]
fn the_cmyk_pdf_looks_like_the_rgb_pdf_within_delta_e_6() {
    let dtc = ["--for", "drivethrucards", "--only", "cards", "--fit", "scale"];
    let (cmyk, _) = build_game("travfuda", &dtc);
    let (rgb, _) = build_game("travfuda", &[&dtc[..], &["--colour", "rgb"]].concat());
    let file = "travfuda/travfuda-cards-drivethrucards.pdf";
    let mut deltas = Vec::new();
    // A back, and faces of several colours.
    for page in [1, 2, 8, 14, 26, 38] {
        let a =
            ghostscript(&cmyk.path().join(file), page, &cmyk.path().join(format!("c{page}.png")));
        let b = ghostscript(&rgb.path().join(file), page, &rgb.path().join(format!("r{page}.png")));
        assert_eq!((a.width(), a.height()), (b.width(), b.height()));
        let px = |p: &resvg::tiny_skia::Pixmap, x: u32, y: u32| {
            let c = p.pixel(x, y).unwrap();
            [c.red(), c.green(), c.blue()]
        };
        // Flat colour only (all 3 × 3 neighbours equal in the RGB rendering): edges are
        // anti-aliasing, not colour.
        for y in 1..b.height() - 1 {
            for x in 1..b.width() - 1 {
                let c = px(&b, x, y);
                if (0..9).all(|i| px(&b, x + i % 3 - 1, y + i / 3 - 1) == c) {
                    let (l1, l2) = (lab(px(&a, x, y)), lab(c));
                    deltas.push(
                        ((l1[0] - l2[0]).powi(2)
                            + (l1[1] - l2[1]).powi(2)
                            + (l1[2] - l2[2]).powi(2))
                        .sqrt(),
                    );
                }
            }
        }
    }
    deltas.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |q: f64| deltas[((deltas.len() - 1) as f64 * q) as usize];
    eprintln!(
        "ΔE over {} flat pixels: median {:.2}, 95th percentile {:.2}, max {:.2}",
        deltas.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
    assert!(deltas.len() > 10_000, "{} flat pixels", deltas.len());
    assert!(
        at(0.5) < 3.0 && at(0.95) < 6.0,
        "ΔE median {:.2}, 95th percentile {:.2}",
        at(0.5),
        at(0.95)
    );
}

#[test]
fn wrong_colour_options_and_swatches_are_clear_errors() {
    let (_dir, cat) = starter();
    let c = cat.to_str().unwrap();
    let bad = cat.join("bad.icc");
    std::fs::write(&bad, b"not a profile").unwrap();
    let run =
        deckpress(&["validate", c, "--colour", "cmyk", "--icc", bad.to_str().unwrap()], &repo());
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("bad.icc is not an ICC profile"), "{}", stderr(&run));
    let run = deckpress(&["validate", c, "--for", "gamecrafter", "--colour", "cmyk"], &repo());
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("gamecrafter takes sRGB PNG files"), "{}", stderr(&run));
    edit(&cat, "game.toml", "\"#3f51b5\" = [80, 60, 0, 0]", "\"indigo\" = [80, 60, 0]");
    let err = invalid(&cat);
    let line = line_of(&cat, "game.toml", "\"indigo\"");
    assert!(
        err.contains("swatch `indigo` is not an sRGB colour")
            && err.contains(&format!("game.toml:{line}:")),
        "{err}"
    );
    edit(&cat, "game.toml", "\"indigo\" = [80, 60, 0]", "\"#3f51b5\" = [80, 60, 0]");
    let err = invalid(&cat);
    assert!(
        err.contains("swatch `#3f51b5` has 3 values") && err.contains("[60, 40, 40, 100]"),
        "{err}"
    );
}

/// Every constant opacity (`/ca`, `/CA`) an ExtGState of a PDF sets below 1.
fn live_opacities(q: &str) -> Vec<String> {
    q.split(['/'])
        .filter_map(|token| {
            let (key, rest) = token.split_once(' ')?;
            let value: f32 = rest.split_whitespace().next()?.parse().ok()?;
            (matches!(key, "ca" | "CA") && value < 1.0).then(|| format!("/{key} {value}"))
        })
        .collect()
}

#[test]
fn a_tiled_board_in_pdfx_1a_has_no_live_transparency() {
    // Trumpet's board tiled on A4: page 2 is a tile with its neighbour's glue strip.
    let (out, _) = build_game("trumpet", &["--only", "board", "--colour", "cmyk", "--paper", "a4"]);
    let pdf = out.path().join("trumpet/trumpet-board-tiled-a4.pdf");
    let q = objects(&pdf);
    assert!(q.contains("/GTS_PDFXVersion (PDF/X-1a:2003)"), "a PDF/X-1a file");
    assert_eq!(live_opacities(&q), Vec::<String>::new(), "PDF/X-1a has no transparency");
    assert!(!q.contains("/SMask") && !q.contains("/Transparency"));
    // The glue strip is still there to glue on, as opaque hatching with its label.
    assert!(words_of(&pdf, Some(2)).contains("glue"), "{}", words_of(&pdf, Some(2)));
}

#[test]
fn near_black_and_grey_text_print_in_black_ink_alone() {
    let (_dir, cat) = starter();
    // The starter's text in a near-black (#141414: 191 % of four inks through FOGRA39) and
    // its suit line in a mid grey.
    edit(&cat, "game.toml", "ink = \"#000000\"", "ink = \"#141414\"");
    edit(
        &cat,
        "templates/face.svg",
        "font-size=\"36\" text-anchor=\"middle\" fill=\"{{ style.ink }}\"",
        "font-size=\"36\" text-anchor=\"middle\" fill=\"#6e6e6e\"",
    );
    let (out, run) = build(&cat, &["--colour", "cmyk", "--only", "cards"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let q = qdf(&out.path().join("game/game-cards-a4.pdf"));
    // The colour set just before each text object.
    let streams = content_streams(&q);
    let lines: Vec<&str> = streams.lines().collect();
    let text_colours: Vec<String> = lines
        .windows(2)
        .filter(|w| w[1].starts_with("BT"))
        .filter_map(|w| colour_operators_of(w[0]).pop())
        .collect();
    assert!(text_colours.len() >= 12, "{text_colours:?}");
    let ink = |op: &str| -> Vec<f32> {
        op.split_whitespace().filter_map(|t| t.parse().ok()).collect::<Vec<f32>>()
    };
    // Dark text (over 50 % of ink; the back's cream title is a light colour, not grey).
    for op in &text_colours {
        let v = ink(op);
        if op.ends_with(" k") && v.iter().sum::<f32>() > 0.5 {
            assert_eq!(v[..3], [0.0, 0.0, 0.0], "dark text in four inks: {op}");
        }
    }
    assert!(text_colours.iter().any(|op| op == "0 0 0 1 k"), "near-black is K 100 %");
    // The grey is a lighter K, not K 100 %.
    assert!(text_colours.iter().any(|op| (0.3..0.9).contains(&ink(op)[3])), "{text_colours:?}");
}
