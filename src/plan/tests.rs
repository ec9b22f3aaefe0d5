//! A kind of document is one planner and its `Draw`: a trivial kind added here, with no
//! change anywhere else, is made by the one executor like every other document.

use super::*;
use crate::layout::ArtRef;

/// A new kind: the first card of the first deck, alone on a page of its size.
struct FirstCard;

impl Draw for FirstCard {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        let deck = &at.ctx.cat().decks[0];
        let art = ArtRef::Face { deck: 0, row: 0 };
        Ok(Box::new(vec![crate::layout::sheets::page(art, (deck.width, deck.height))]))
    }
}

/// Its planner: one document, named from the home pattern.
fn first_card(ctx: &Context, plan: &mut Plan) {
    plan.documents.push(Document {
        file: ctx.file(ctx.home_file("first-card", "own")),
        title: format!("{} — the first card", ctx.cat().name),
        body: Body::Pdf(Box::new(FirstCard)),
        printing: Printing::Simplex,
        cut: None,
        // One card of the first deck, on a page of its own size.
        product: super::Product::Cards { decks: vec![0] },
        paper: None,
    });
}

/// TravFuda validated for `job`, with no deck fitted to a product.
fn travfuda(job: &Job) -> (Validated, Vec<Option<crate::layout::Fitting>>) {
    let world = crate::games::builtin("travfuda").expect("a built-in game");
    let validated =
        crate::driver::validate(job, &world).unwrap_or_else(|_| panic!("travfuda is valid"));
    let fits = vec![None; validated.catalogue().decks.len()];
    (validated, fits)
}

fn job() -> Job {
    Job {
        games: Vec::new(),
        print: crate::job::Print::default(),
        limits: crate::limits::Limits::default(),
        strict: false,
        output: crate::job::Output::Check,
    }
}

#[test]
fn a_new_kind_of_document_is_one_planner_run_by_the_one_executor() {
    let job = job();
    let (validated, fits) = travfuda(&job);
    let ctx = Context { job: &job, validated: &validated, fits: &fits, lang: None, press: None };
    let mut warnings = Vec::new();
    let executor = Executor { ctx: &ctx, sink: &Sink::Memory, drawn: Drawn::Note(false) };
    let done = executor
        .run(&mut warnings, |ctx, reprint| {
            let mut plan = plan(ctx, reprint)?;
            first_card(ctx, &mut plan);
            Ok(plan)
        })
        .unwrap_or_else(|_| panic!("travfuda's documents are made"));
    let names: Vec<String> = done.made.iter().map(|m| m.path.display().to_string()).collect();
    // Its file is made beside the others, from the home pattern.
    assert!(names.contains(&"travfuda/travfuda-cards-a4.pdf".to_string()), "{names:?}");
    let content = &done
        .made
        .iter()
        .find(|m| m.path.ends_with("travfuda-first-card-own.pdf"))
        .unwrap_or_else(|| panic!("no first-card file among {names:?}"))
        .content;
    let Content::Bytes(bytes) = content else { panic!("kept in memory") };
    // What a user would see of it: one page of a card's size, with its title.
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("first.pdf");
    std::fs::write(&pdf, bytes).unwrap();
    let info = std::process::Command::new("pdfinfo").arg(&pdf).output().expect("pdfinfo runs");
    let info = String::from_utf8_lossy(&info.stdout).into_owned();
    assert!(info.contains("Title:           TravFuda — the first card"), "{info}");
    assert!(info.lines().any(|l| l.starts_with("Pages:") && l.ends_with(" 1")), "{info}");
    // The page is the card: 63 × 88 mm, in points.
    let size = info.lines().find(|l| l.starts_with("Page size:")).unwrap_or_default();
    let numbers: Vec<f32> = size.split_whitespace().filter_map(|w| w.parse::<f32>().ok()).collect();
    let mm = |pt: f32| pt * 25.4 / 72.0;
    assert!(
        numbers.len() == 2
            && (mm(numbers[0]) - 63.0).abs() < 0.01
            && (mm(numbers[1]) - 88.0).abs() < 0.01,
        "{size}"
    );
}

#[test]
fn every_file_name_comes_from_a_pattern_in_services() {
    let mut job = job();
    job.print.papers = vec![Paper::A4, Paper::Letter];
    job.print.cut = Some(crate::job::CutFormat::Svg);
    let (validated, fits) = travfuda(&job);
    let ctx =
        Context { job: &job, validated: &validated, fits: &fits, lang: Some("de"), press: None };
    let plan = plan(&ctx, None).unwrap_or_else(|_| panic!("a plan"));
    let files: Vec<String> = plan.documents.iter().map(|d| d.file.display().to_string()).collect();
    for expected in [
        "travfuda/travfuda-cards-a4-de.pdf",
        "travfuda/travfuda-cards-letter-de.pdf",
        "travfuda/travfuda-box-a4-de.pdf",
        "travfuda/travfuda-de-manifest.json",
    ] {
        assert!(files.iter().any(|f| f == expected), "{expected} among {files:?}");
    }
    assert!(files.iter().all(|f| f.starts_with("travfuda/travfuda-")), "{files:?}");
    let cards = &plan.documents[0];
    assert_eq!(cards.cut, Some(CutFiles::Numbered { stem: "travfuda-cards-a4-de".into() }));
    assert_eq!(
        crate::services::cut_file_name("x-box-a4", Some("lid"), None, "svg"),
        "x-box-a4-lid-cut.svg"
    );
    assert_eq!(
        crate::services::cut_file_name("x-cards-a4", None, Some(3), "dxf"),
        "x-cards-a4-cut-3.dxf"
    );
}

#[test]
fn a_picture_document_is_drawn_by_the_raster_sink_at_the_dpi_asked() {
    let job = job();
    let (validated, fits) = travfuda(&job);
    let ctx = Context { job: &job, validated: &validated, fits: &fits, lang: None, press: None };
    let mut warnings = Vec::new();
    let sink = Sink::Raster { dpi: 150, pictures: None };
    let executor = Executor { ctx: &ctx, sink: &sink, drawn: Drawn::Note(false) };
    let done = executor
        .run(&mut warnings, |ctx, _| {
            let mut plan = Plan::default();
            first_card(ctx, &mut plan);
            // A page picture as `preview` plans it: the tuck box, flat.
            let mut slugs = crate::output::Slugs::default();
            let flats = pictures::page_pictures(ctx.cat(), &mut slugs);
            let tuck = flats.iter().find(|p| p.id == "box").expect("travfuda has a tuck box");
            plan.documents.push(tuck.document(std::path::Path::new("travfuda/preview")));
            Ok(plan)
        })
        .unwrap_or_else(|_| panic!("the pictures are drawn"));
    let png = |name: &str| {
        let found = done.made.iter().find(|m| m.path == std::path::Path::new(name));
        let Some(Content::Bytes(bytes)) = found.map(|m| &m.content) else {
            let names: Vec<_> = done.made.iter().map(|m| m.path.display().to_string()).collect();
            panic!("no {name} among {names:?}")
        };
        resvg::tiny_skia::Pixmap::decode_png(bytes).expect("a PNG")
    };
    // The card's page, 63 × 88 mm, at 150 dpi: 372 × 520 pixels, with the card drawn on it.
    let card = png("travfuda/travfuda-first-card-own.png");
    assert_eq!((card.width(), card.height()), (372, 520));
    let inked = card.pixels().iter().filter(|p| p.red() < 200 || p.blue() < 200).count();
    // (White paper would have none; TravFuda's first card inks about a fifth of it.)
    assert!(inked > card.pixels().len() / 20, "the card is drawn: {inked} dark pixels");
    // The flat tuck box: 10 mm glue flap + 2 × 64 mm faces + 2 × 20.84 mm sides, and a
    // 10 mm margin each side: 199.7 mm, 1179 pixels at 150 dpi.
    let flat = png("travfuda/preview/sheets/box.png");
    assert!(flat.width().abs_diff(1179) <= 3 && flat.height() < flat.width(), "{}", flat.width());
}

/// Every place in `src/` that writes a file, with why it may: a new writer beside the
/// executor's `commit` fails here until it goes through it (or is added with its reason).
#[test]
fn no_code_outside_the_executor_writes_under_out() {
    const WRITERS: &[(&str, &str)] = &[
        ("src/output.rs", "the one door out: atomic writes, staging, the commit's journal"),
        ("src/plan/execute.rs", "the executor: stages a plan's files and commits every command's"),
        ("src/plan/raster.rs", "the executor's raster sink: preview pictures"),
        ("src/export/tts.rs", "stages Tabletop Simulator sheets one at a time for plan::commit"),
        (
            "src/preview/folder.rs",
            "preview's folder: the pictures kept to compare (--changed-since)",
        ),
        ("src/preview/flats.rs", "preview's folder: box flats and label sheets as pictures"),
        ("src/preview/mod.rs", "preview's folder: the gallery page"),
        ("src/commands/new.rs", "`new` writes a new catalogue folder, not under --out"),
        ("src/commands/fetch.rs", "`fetch` writes a linked sheet's local copy into the catalogue"),
        ("src/commands/watch.rs", "`watch` makes --out to watch it"),
    ];
    let words = [
        "fs::write(",
        "write_atomic",
        "write_preview(",
        "output::stage(",
        "stage_file(",
        "Commit::begin(",
        "create_dir",
        "File::create(",
        "fs::copy(",
        "fs::rename(",
        ".persist(",
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut todo = vec![root.join("src")];
    let mut found = Vec::new();
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            // Unit tests write their own temporary files.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let writes = code
                .lines()
                .any(|l| !l.trim_start().starts_with("//") && words.iter().any(|w| l.contains(w)));
            if writes && !WRITERS.iter().any(|(file, _)| *file == rel) && !rel.ends_with("tests.rs")
            {
                found.push(rel);
            }
        }
    }
    assert!(found.is_empty(), "files that write outside plan::commit: {found:?}");
}
