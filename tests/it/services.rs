//! Print services are one table: every row is checked against the files it makes (form,
//! side order, bleed, colour, dpi, file names), and a service that is not built in is one
//! row handed to the driver.

use std::path::{Path, PathBuf};
use std::process::Command;

use deckpress::job::{Game, Job, Output, Print};
use deckpress::length::Length;
use deckpress::services::{Colour, Form, Service, SideOrder, SERVICES};

/// TravFuda's markers: ten designs, 10 pieces, a back of its own per marker ("1st Run
/// Attempt" on the front of the first, "+1" on its back); made 3.5 in round here, the
/// size of the square card every service with products prints.
const MARKERS: u32 = 10;
const MARKER_MM: f32 = 88.9;

fn tool(name: &str, args: &[&str]) -> String {
    let out = Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} is needed (see .ci/run): {e}"));
    assert!(out.status.success(), "{name} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn build_markers_for(service: &str, out: &Path) -> std::process::Output {
    let catalogue = out.join("catalogue");
    crate::common::copy_dir(&crate::common::repo().join("catalogues/travfuda"), &catalogue);
    crate::common::edit(
        &catalogue,
        "game.toml",
        "card = { width = \"40mm\", height = \"40mm\" }",
        "card = { width = \"3.5in\", height = \"3.5in\" }",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .args([
            "build",
            catalogue.to_str().unwrap(),
            "--only",
            "markers",
            "--strict",
            "--for",
            service,
            "--out",
            out.to_str().unwrap(),
        ])
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{service}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Page count and the first page's size in points, as pdfinfo reads them.
fn pages_and_size(pdf: &Path) -> (usize, f32, f32) {
    let info = tool("pdfinfo", &[pdf.to_str().unwrap()]);
    let field = |name: &str| {
        info.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {info}"))
            .trim()
            .to_string()
    };
    let count = field("Pages:").parse().unwrap();
    let size = field("Page size:");
    let mut numbers = size.split_whitespace().filter_map(|w| w.parse::<f32>().ok());
    (count, numbers.next().unwrap(), numbers.next().unwrap())
}

fn page_text(pdf: &Path, page: usize) -> String {
    tool(
        "pdftotext",
        &["-f", &page.to_string(), "-l", &page.to_string(), pdf.to_str().unwrap(), "-"],
    )
}

fn pt(mm: f32) -> f32 {
    mm * 72.0 / 25.4
}

/// What a row promises, read from the files `build --for` writes of markers `marker_mm`
/// across.
fn check_row(service: &Service, game_dir: &Path, stdout: &str, marker_mm: f32) {
    let files: Vec<PathBuf> =
        stdout.lines().filter(|l| !l.ends_with("-manifest.json")).map(PathBuf::from).collect();
    assert!(!files.is_empty(), "{}: nothing written", service.name);
    let expected_name = service.file_name("travfuda", "markers", "a4", "");
    match service.form {
        Form::GangSheets => {
            let pdf = game_dir.join(&expected_name);
            assert!(pdf.is_file(), "{}: no {}", service.name, pdf.display());
            let (count, w, h) = pages_and_size(&pdf);
            assert_eq!(
                (w.round(), h.round()),
                (pt(210.0).round(), pt(297.0).round()),
                "{}: A4 sheets",
                service.name
            );
            assert_eq!(count % 2, 0, "{}: fronts and backs interleaved", service.name);
        }
        Form::PdfPagePerSide => {
            let pdf = game_dir.join(&expected_name);
            assert!(pdf.is_file(), "{}: no {}", service.name, pdf.display());
            let (count, w, h) = pages_and_size(&pdf);
            assert_eq!(
                count as u32,
                2 * MARKERS,
                "{}: a page per side of each marker",
                service.name
            );
            let bleed_pt = service.bleed.map_or(pt(3.0), Length::to_pt);
            for (got, what) in [(w, "width"), (h, "height")] {
                assert!(
                    (got - (pt(marker_mm) + 2.0 * bleed_pt)).abs() < 0.05,
                    "{}: page {what} {got} pt is not the marker plus its bleed",
                    service.name
                );
            }
            let (first, second) = (page_text(&pdf, 1), page_text(&pdf, 2));
            let (front, back) = match service.sides {
                SideOrder::FrontFirst => (first, second),
                SideOrder::BackFirst => (second, first),
            };
            assert!(
                front.contains("Run Attempt") && !front.contains("+1"),
                "{}: the front is not where the row says: {front:?}",
                service.name
            );
            assert!(
                back.contains("+1"),
                "{}: the back is not where the row says: {back:?}",
                service.name
            );
            let meta = tool("pdfinfo", &["-meta", pdf.to_str().unwrap()]);
            match service.colour {
                Colour::Cmyk { pdfx, .. } => assert!(
                    meta.contains(pdfx.version()),
                    "{}: not {}",
                    service.name,
                    pdfx.version()
                ),
                Colour::Rgb => {
                    assert!(!meta.contains("PDF/X"), "{}: RGB files claim PDF/X", service.name)
                }
            }
        }
        Form::PngPerSide => {
            let folder = game_dir.join(&expected_name);
            assert!(folder.is_dir(), "{}: no folder {}", service.name, folder.display());
            let pngs: Vec<PathBuf> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "png"))
                .collect();
            assert_eq!(
                pngs.len() as u32,
                2 * MARKERS,
                "{}: a PNG per side of each design",
                service.name
            );
            let dpi = service.dpi.expect("PNG services have a dpi") as f32;
            let bleed_in = service.bleed.map_or(3.0 / 25.4, |b| b.to_pt() / 72.0);
            let side = ((marker_mm / 25.4 + 2.0 * bleed_in) * dpi).round() as u32;
            let decoder =
                png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&pngs[0]).unwrap()));
            let info = decoder.read_info().unwrap();
            let info = info.info();
            assert_eq!(
                (info.width, info.height),
                (side, side),
                "{}: pixels of {}",
                service.name,
                pngs[0].display()
            );
            let per_metre = info.pixel_dims.expect("the resolution is written").xppu;
            assert_eq!(
                per_metre,
                (dpi / 0.0254).round() as u32,
                "{}: written resolution",
                service.name
            );
            assert!(folder.join("quantities.csv").is_file(), "{}: quantities.csv", service.name);
        }
    }
}

#[test]
fn every_service_row_makes_the_files_it_describes() {
    for service in SERVICES {
        let dir = tempfile::tempdir().unwrap();
        let out = build_markers_for(service.name, dir.path());
        check_row(
            service,
            &dir.path().join("travfuda"),
            &String::from_utf8_lossy(&out.stdout),
            MARKER_MM,
        );
    }
}

#[test]
fn services_lists_every_row() {
    let out = Command::new(env!("CARGO_BIN_EXE_deckpress")).arg("services").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), SERVICES.len() + 1, "a header and a line per service:\n{text}");
    for (line, service) in lines[1..].iter().zip(SERVICES) {
        assert!(line.starts_with(service.name), "{line}");
    }
    let dtc = lines.iter().find(|l| l.starts_with("drivethrucards")).unwrap();
    assert!(
        dtc.contains("back, front")
            && dtc.contains("0.125 in")
            && dtc.contains("SWOP")
            && dtc.contains("240 %")
            && dtc.contains("PDF/X-1a:2003"),
        "{dtc}"
    );
}

#[test]
fn an_unknown_service_lists_the_known_ones() {
    let out = Command::new(env!("CARGO_BIN_EXE_deckpress"))
        .args(["build", "travfuda", "--for", "kinkos"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for service in SERVICES {
        assert!(err.contains(service.name), "{err}");
    }
}

/// A print shop that takes one PDF per deck, backs first, with 2 mm of bleed: one row.
static PRINT_SHOP: Service = Service {
    name: "corner-shop",
    title: "the print shop around the corner",
    about: "a print shop around the corner: backs first, 2 mm bleed",
    form: Form::PdfPagePerSide,
    sides: SideOrder::BackFirst,
    bleed: Some(Length::mm(2.0)),
    colour: Colour::Rgb,
    dpi: None,
    files: "{game}-{deck}-for-{service}{lang}.pdf",
    manifest: "{game}-{service}{lang}-manifest.json",
    products: &[],
    floor: deckpress::services::PRESS_FLOOR,
};

#[test]
fn a_new_service_is_one_row() {
    let dir = tempfile::tempdir().unwrap();
    let world = deckpress::games::builtin("travfuda").unwrap();
    let job = Job {
        games: vec![Game { name: "travfuda".into(), world }],
        print: Print { service: &PRINT_SHOP, only: vec!["markers".into()], ..Print::default() },
        limits: Default::default(),
        strict: true,
        output: Output::Files { out: dir.path().to_path_buf() },
    };
    let outcomes = deckpress::driver::run(&job);
    let written = outcomes
        .into_iter()
        .next()
        .unwrap()
        .result
        .unwrap_or_else(|e| panic!("the build failed: {}", e.exit_code()));
    assert_eq!(
        written,
        vec![
            dir.path().join("travfuda/travfuda-markers-for-corner-shop.pdf").display().to_string(),
            dir.path().join("travfuda/travfuda-corner-shop-manifest.json").display().to_string()
        ]
    );
    check_row(&PRINT_SHOP, &dir.path().join("travfuda"), &written.join("\n"), 40.0);
}
