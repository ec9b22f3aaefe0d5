//! Issue 6, previews: card PNGs, contact sheets, the HTML gallery (opened in a real
//! headless Chromium), `watch`, and the Tabletop Simulator export.

use crate::common::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[1..4], b"PNG", "{} is a PNG", path.display());
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

/// `(id, qty)` of every row of TravFuda's cards.csv.
fn travfuda_rows() -> Vec<(String, u32)> {
    let text = std::fs::read_to_string(repo().join("catalogues/travfuda/cards.csv")).unwrap();
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut cells = l.split(',');
            (cells.next().unwrap().to_string(), cells.next().unwrap().parse().unwrap())
        })
        .collect()
}

fn preview(args: &[&str]) -> (tempfile::TempDir, std::process::Output) {
    let out = tempfile::tempdir().unwrap();
    let mut all = vec!["preview"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", out.path().to_str().unwrap()]);
    let run = deckpress(&all, &repo());
    (out, run)
}

#[test]
fn preview_draws_every_card_and_back_and_a_contact_sheet() {
    let (out, run) = preview(&["travfuda"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("travfuda/preview");
    assert!(stdout(&run).contains(dir.join("index.html").to_str().unwrap()), "{}", stdout(&run));
    for (id, _) in travfuda_rows() {
        assert_eq!(
            png_size(&dir.join(format!("cards/{id}.png"))),
            (372, 520),
            "63 × 88 mm at 150 dpi: {id}"
        );
    }
    assert_eq!(png_size(&dir.join("cards-back.png")), (372, 520));
    let pngs = std::fs::read_dir(dir.join("cards")).unwrap().count();
    assert_eq!(pngs, travfuda_rows().len(), "one PNG per design");
    let (w, h) = png_size(&dir.join("cards-contact.png"));
    assert!(w > 1500 && h > 1000, "a 10-column grid of 45 thumbnails: {w}×{h}");
}

#[test]
fn preview_dpi_sets_the_pixel_size() {
    let (out, run) = preview(&["travfuda", "--card", "1-plain", "--dpi", "300"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(png_size(&out.path().join("travfuda/preview/cards/1-plain.png")), (744, 1039));
}

#[test]
fn preview_card_draws_that_card_only() {
    let (out, run) = preview(&["travfuda", "--card", "1-cutlass-red"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("travfuda/preview");
    let names: Vec<_> =
        std::fs::read_dir(dir.join("cards")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("1-cutlass-red.png")]);
    assert!(!dir.join("index.html").exists(), "the fast path writes the card and nothing else");
    assert_eq!(stdout(&run).trim(), dir.join("cards/1-cutlass-red.png").to_str().unwrap());
}

#[test]
fn preview_of_an_unknown_card_lists_close_ids_and_exits_2() {
    let (_out, run) = preview(&["travfuda", "--card", "1-cutlas-red"]);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("no card `1-cutlas-red` in travfuda; did you mean `1-cutlass-red`"),
        "{}",
        stderr(&run)
    );
}

#[test]
fn an_invalid_catalogue_is_still_previewed_with_its_problems_and_exits_1() {
    let (_guard, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "cards.csv",
        "10-starburst-yellow,1,10,Terran World,Starburst,Yellow,20",
        "10-cutlass-yellow,1,10,Terran World,Cutlass,Yellow,10",
    );
    let (out, run) = preview(&[cat.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("there are 5 Starbursts"), "{}", stderr(&run));
    let dir = out.path().join("travfuda/preview");
    assert_eq!(png_size(&dir.join("cards/10-cutlass-yellow.png")), (372, 520));
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let problems = html.find("problems found").expect("the problems are in the gallery");
    assert!(problems < html.find("<section class=\"deck\"").unwrap(), "problems come first");
    assert!(html.contains("rule &quot;there are 5 Starbursts&quot; failed"), "{html}");
}

#[test]
fn a_card_whose_art_cannot_be_drawn_leaves_the_others_drawn() {
    let (_guard, cat) = copy_catalogue("travfuda");
    // A character no bundled font has: only this card's art is refused.
    edit(&cat, "cards.csv", "1-cutlass-red,1,1,Scoutship,", "1-cutlass-red,1,1,Scout\u{6F22}ship,");
    let (out, run) = preview(&[cat.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let dir = out.path().join("travfuda/preview");
    assert!(!dir.join("cards/1-cutlass-red.png").exists());
    assert!(dir.join("cards/1-flag-green.png").exists());
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("not drawn"), "{html}");
}

// ---- The gallery in a real browser ----

fn chromium() -> Option<PathBuf> {
    crate::common::chromium("the gallery")
}

/// Runs headless Chromium on a page with `extra` arguments; (stdout, stderr).
fn headless(chromium: &Path, page: &Path, extra: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut args = vec![
        "--headless".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        // Console messages (console.*, uncaught errors) are logged at INFO as `CONSOLE`.
        "--enable-logging=stderr".into(),
        "--log-level=0".into(),
        format!("--user-data-dir={}", profile.path().display()),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.push(format!("file://{}", page.display()));
    let child = Command::new(chromium)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let out = wait_with_timeout(child, Duration::from_secs(90));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn wait_with_timeout(child: Child, limit: Duration) -> std::process::Output {
    let id = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.expect("chromium ran"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("chromium did not finish within {limit:?}");
        }
    }
}

#[test]
fn the_gallery_loads_every_image_in_headless_chromium() {
    let Some(chromium) = chromium() else { return };
    let (out, run) = preview(&["travfuda"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let page = out.path().join("travfuda/preview/index.html");
    let (dom, log) = headless(&chromium, &page, &["--virtual-time-budget=10000", "--dump-dom"]);
    let images = dom.matches("<img ").count();
    assert!(images > travfuda_rows().len(), "every design and the back: {images} images");
    assert!(
        dom.contains(&format!("data-images=\"ok {images}\"")),
        "every image must load; body says: {}",
        dom.lines().find(|l| l.contains("<body")).unwrap_or(&dom[..dom.len().min(400)])
    );
    assert!(
        dom.contains("TravFuda deck") && dom.contains("✔ travfuda: valid"),
        "{}",
        &dom[..dom.len().min(2000)]
    );
    let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
}

#[test]
fn the_browser_check_catches_a_missing_image() {
    // The check above must be able to fail: remove one image and look again.
    let Some(chromium) = chromium() else { return };
    let (out, run) = preview(&["travfuda"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    std::fs::remove_file(out.path().join("travfuda/preview/cards/1-plain.png")).unwrap();
    let page = out.path().join("travfuda/preview/index.html");
    let (dom, _log) = headless(&chromium, &page, &["--virtual-time-budget=10000", "--dump-dom"]);
    assert!(
        dom.contains("data-images=\"broken: cards/1-plain.png"),
        "{}",
        dom.lines().find(|l| l.contains("<body")).unwrap_or_default()
    );
}

// ---- watch ----

/// How long a watch test waits for each step.
const STEP: Duration = Duration::from_secs(20);

#[test]
fn watch_redraws_the_card_whose_csv_cell_changed_and_survives_broken_files() {
    let (_guard, cat) = copy_catalogue("travfuda");
    let out = tempfile::tempdir().unwrap();
    let watch = Watching::start(
        &[cat.to_str().unwrap(), "--out", out.path().to_str().unwrap()],
        None,
        out.path().join("watch.log"),
    );
    let dir = out.path().join("travfuda/preview");
    let (card, other, index) = (
        dir.join("cards/1-cutlass-red.png"),
        dir.join("cards/1-flag-green.png"),
        dir.join("index.html"),
    );
    let gallery = || std::fs::read_to_string(&index).unwrap_or_default();
    watch.wait_for("the first build", STEP, || gallery().contains("status valid"));

    // A broken template is reported (in the gallery too) and the watch goes on.
    let template = cat.join("templates/face.svg");
    let good = std::fs::read_to_string(&template).unwrap();
    std::fs::write(&template, good.replace("</svg>", "")).unwrap();
    watch.wait_for("the broken template to be reported", STEP, || {
        gallery().contains("status invalid")
    });
    std::fs::write(&template, &good).unwrap();
    watch.wait_for("the fixed template", STEP, || gallery().contains("status valid"));

    // A CSV saved half-way, then saved in full with one cell changed.
    let before = std::fs::read(&card).unwrap();
    let modified = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let pad = dir.join("sheets/pad.png");
    let (other_modified, pad_modified) = (modified(&other), pad.exists().then(|| modified(&pad)));
    let csv = cat.join("cards.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    std::fs::write(&csv, &text[..text.len() / 2]).unwrap();
    watch.wait_for("the half-saved CSV to be reported", STEP, || {
        gallery().contains("status invalid")
    });
    // Rebuild reports ("travfuda: N pictures drawn, …") said before the full save.
    let drawn =
        |l: &str| -> usize { l["travfuda: ".len()..].split(' ').next().unwrap().parse().unwrap() };
    let reports = || -> Vec<usize> {
        let said = watch.said();
        said.lines()
            .filter(|l| l.starts_with("travfuda: ") && l.contains(" drawn, "))
            .map(drawn)
            .collect()
    };
    let reported_before = reports().len();
    std::fs::write(
        &csv,
        text.replacen("1-cutlass-red,1,1,Scoutship,", "1-cutlass-red,1,1,Scout Vessel,", 1),
    )
    .unwrap();
    watch.wait_for("the edited card to be redrawn", STEP, || {
        std::fs::read(&card).is_ok_and(|now| now != before) && gallery().contains("status valid")
    });
    // The report is printed after the files are written: wait for it too.
    watch.wait_for("the rebuild's report", STEP, || {
        reports()[reported_before..].iter().any(|&n| n > 0)
    });

    assert_eq!(modified(&other), other_modified, "an unchanged card is not redrawn");
    // Regression: a catalogue that did not load (the half-saved CSV) removed the sheets' PNGs.
    assert_eq!(pad.exists().then(|| modified(&pad)), pad_modified, "an unchanged sheet is kept");
    let said = watch.said();
    // The rebuilds after the edit redrew the edited card and the few pieces that print its
    // cell (the player aid lists suit names), not the deck. (An editor's save can raise a
    // second event; that rebuild finds nothing changed and draws 0.)
    let after: Vec<usize> = reports()[reported_before..].to_vec();
    assert!(after.iter().all(|&n| n < 10) && after.iter().any(|&n| n >= 1), "{after:?}\n{said}");
    assert!(!said.contains("panicked"), "{said}");
}

// ---- Tabletop Simulator ----

#[test]
fn tts_export_is_a_saved_object_with_one_card_per_physical_card() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["export", "tts", "travfuda", "--out", out.path().to_str().unwrap(), "--quiet"],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("travfuda/tts");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("travfuda.json")).unwrap()).unwrap();

    let states = json["ObjectStates"].as_array().expect("ObjectStates");
    let decks = std::fs::read_to_string(repo().join("catalogues/travfuda/game.toml"))
        .unwrap()
        .matches("[[deck]]")
        .count();
    assert_eq!(states.len(), decks, "one DeckCustom per deck");
    let deck = &states[0]; // the cards, the first deck
    assert_eq!(deck["Name"], "DeckCustom");
    let cards = deck["ContainedObjects"].as_array().unwrap();
    let deck_ids: Vec<u64> =
        deck["DeckIDs"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(cards.len(), 62, "quantities exploded");
    assert_eq!(deck_ids, cards.iter().map(|c| c["CardID"].as_u64().unwrap()).collect::<Vec<_>>());

    let sheets = deck["CustomDeck"].as_object().unwrap();
    assert_eq!(sheets.len(), 1, "44 designs fit one sheet");
    for (key, sheet) in sheets {
        let (cols, rows) =
            (sheet["NumWidth"].as_u64().unwrap(), sheet["NumHeight"].as_u64().unwrap());
        assert!((2..=10).contains(&cols) && (2..=7).contains(&rows), "{sheet}");
        let face = sheet["FaceURL"].as_str().unwrap();
        assert!(face.starts_with("file:///") && face.ends_with("/cards-sheet-1.png"), "{face}");
        let (w, h) = png_size(&dir.join("cards-sheet-1.png"));
        assert!(
            w <= 4096 && h <= 4096 && w % cols as u32 == 0 && h % rows as u32 == 0,
            "{w}×{h} for {cols}×{rows}"
        );
        assert!(sheet["BackURL"].as_str().unwrap().ends_with("/cards-back.png"));
        assert!(dir.join("cards-back.png").is_file());
        // No card in the hidden (bottom-right) slot.
        let hidden = key.parse::<u64>().unwrap() * 100 + cols * rows - 1;
        assert!(deck_ids.iter().all(|&id| id < hidden), "a card in the hidden slot");
    }

    let mut per_design: BTreeMap<String, (u32, u64)> = BTreeMap::new();
    for card in cards {
        assert_eq!(card["Name"], "Card");
        let id = card["CardID"].as_u64().unwrap();
        let key = (id / 100).to_string();
        assert_eq!(card["CustomDeck"][&key], deck["CustomDeck"][&key], "each card names its sheet");
        let entry =
            per_design.entry(card["Nickname"].as_str().unwrap().to_string()).or_insert((0, id));
        entry.0 += 1;
        assert_eq!(entry.1, id, "copies share a CardID");
    }
    let expected: BTreeMap<String, u32> = travfuda_rows().into_iter().collect();
    assert_eq!(
        per_design.iter().map(|(k, v)| (k.clone(), v.0)).collect::<BTreeMap<_, _>>(),
        expected
    );
    let distinct: std::collections::BTreeSet<u64> = deck_ids.iter().copied().collect();
    assert_eq!(distinct.len(), 44, "one slot per design");
}

#[test]
fn tts_export_can_name_uploaded_images() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "export",
            "tts",
            "travfuda",
            "--out",
            out.path().to_str().unwrap(),
            "--base-url",
            "https://example.org/tf",
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json = std::fs::read_to_string(out.path().join("travfuda/tts/travfuda.json")).unwrap();
    assert!(json.contains("\"FaceURL\": \"https://example.org/tf/cards-sheet-1.png\""), "{json}");
}

#[test]
fn tts_export_refuses_an_invalid_catalogue() {
    let (_guard, cat) = copy_catalogue("travfuda");
    edit(
        &cat,
        "cards.csv",
        "10-starburst-yellow,1,10,Terran World,Starburst,Yellow,20",
        "10-cutlass-yellow,1,10,Terran World,Cutlass,Yellow,10",
    );
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &["export", "tts", cat.to_str().unwrap(), "--out", out.path().to_str().unwrap()],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(!out.path().join("travfuda/tts/travfuda.json").exists());
}

/// A starter catalogue (`deckpress new`) with `n` distinct cards, two suits of n/2.
fn starter_with(dir: &Path, n: usize) -> PathBuf {
    let cat = dir.join("game");
    if !cat.exists() {
        assert_eq!(deckpress(&["new", "game"], dir).status.code(), Some(0));
    }
    let rows: String = (0..n)
        .map(|i| {
            format!(
                "c{i:04},1,{},{},Card {i}\n",
                if i % 2 == 0 { "Sun" } else { "Moon" },
                i % 9 + 1
            )
        })
        .collect();
    std::fs::write(cat.join("cards.csv"), format!("id,qty,suit,value,title\n{rows}")).unwrap();
    let toml = std::fs::read_to_string(cat.join("game.toml")).unwrap();
    let toml = with_suit_count(&toml, n / 2);
    std::fs::write(cat.join("game.toml"), toml).unwrap();
    cat
}

/// The starter's rule "each suit has four cards", made to hold for `per_suit`.
fn with_suit_count(toml: &str, per_suit: usize) -> String {
    let at = toml.find("each = \"suit\"").expect("the starter has a per-suit rule");
    let count = at + toml[at..].find("count = ").unwrap() + "count = ".len();
    let end = count + toml[count..].find('\n').unwrap();
    format!("{}{per_suit}{}", &toml[..count], &toml[end..])
}

#[test]
fn a_large_deck_gets_a_contact_sheet_per_hundred_pictures_and_shrinking_removes_the_extra_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cat = starter_with(dir.path(), 210);
    let out = dir.path().join("out");
    let args =
        ["preview", cat.to_str().unwrap(), "--out", out.to_str().unwrap(), "--dpi", "20", "-q"];
    let run = deckpress(&args, dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let preview = out.join("game/preview");
    // 210 faces and the back: 100 + 100 + 11 pictures.
    let sheets: Vec<(u32, u32)> =
        (1..=3).map(|n| png_size(&preview.join(format!("cards-contact-{n}.png")))).collect();
    assert_eq!(sheets[0], sheets[1], "two full sheets of ten by ten");
    assert_eq!(sheets[2].0, sheets[0].0, "ten columns on the last sheet too");
    assert!(sheets[2].1 * 3 < sheets[0].1, "the last sheet has two rows: {sheets:?}");
    assert!(
        !preview.join("cards-contact.png").exists()
            && !preview.join("cards-contact-4.png").exists()
    );
    for n in 1..=3 {
        assert!(stdout(&run).contains(&format!("cards-contact-{n}.png")), "{}", stdout(&run));
    }
    let html = std::fs::read_to_string(preview.join("index.html")).unwrap();
    assert!(html.contains("contact sheets <a href=\"cards-contact-1.png\">1</a> <a href=\"cards-contact-2.png\">2</a> <a href=\"cards-contact-3.png\">3</a>"), "{html}");
    assert_eq!(html.matches("<img ").count(), 211, "every picture in the gallery");
    assert_eq!(std::fs::read_dir(preview.join("cards")).unwrap().count(), 210);

    starter_with(dir.path(), 40);
    let run = deckpress(&args, dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(preview.join("cards-contact.png").is_file());
    for n in 1..=3 {
        assert!(
            !preview.join(format!("cards-contact-{n}.png")).exists(),
            "sheet {n} of the larger deck is gone"
        );
    }
    assert_eq!(std::fs::read_dir(preview.join("cards")).unwrap().count(), 40);
}

#[test]
fn soft_proof_draws_cards_as_printed_lists_colours_that_move_and_toggles_in_the_gallery() {
    let (dir, cat) = new_game();
    // A green no press can print; the Moon's blue and the paper stay close.
    edit(&cat, "game.toml", "Sun = \"#e8a317\"", "Sun = \"#00ff00\"");
    let out = dir.path().join("out");
    let run = deckpress(
        &["preview", cat.to_str().unwrap(), "--proof", "--quiet", "--out", out.to_str().unwrap()],
        dir.path(),
    );
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(
        text.contains("soft proof (FOGRA39): 3 pictures with colours that move more than ΔE 10"),
        "{text}"
    );
    for card in ["sun-1", "sun-2", "sun-3"] {
        assert!(
            text.lines().any(|l| l.trim().starts_with(&format!("{card}: #00ff00 prints as #"))),
            "{text}"
        );
    }
    assert!(!text.contains("moon-"), "in-gamut cards are not listed: {text}");
    // The proof beside each card: the green circle duller, the paper as it was.
    let dir = out.join("game/preview");
    let (a, b) = (
        resvg::tiny_skia::Pixmap::load_png(dir.join("cards/sun-1.png")).unwrap(),
        resvg::tiny_skia::Pixmap::load_png(dir.join("cards/sun-1.proof.png")).unwrap(),
    );
    assert_eq!((a.width(), a.height()), (b.width(), b.height()));
    let (cx, cy) = (a.width() / 2, (a.height() as f32 * 420.0 / 880.0) as u32);
    let (screen, printed) = (a.pixel(cx, cy).unwrap(), b.pixel(cx, cy).unwrap());
    assert_eq!((screen.red(), screen.green(), screen.blue()), (0, 255, 0));
    assert!(
        printed.green() < 220 && printed.red() > 60,
        "the press's green is duller: {printed:?}"
    );
    let (paper, paper_proof) =
        (a.pixel(30, a.height() / 3).unwrap(), b.pixel(30, b.height() / 3).unwrap());
    assert!(
        (paper.red() as i32 - paper_proof.red() as i32).abs() <= 3
            && (paper.blue() as i32 - paper_proof.blue() as i32).abs() <= 3,
        "{paper:?} {paper_proof:?}"
    );
    // The gallery: a toggle, and `#proof` shows every card's proof in a real browser.
    let page = dir.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("id=\"proof-toggle\"") && html.contains("#00ff00 prints as #"),
        "toggle and list"
    );
    let Some(chromium) = chromium() else { return };
    let (dom, _) = headless(
        &chromium,
        &PathBuf::from(format!("{}#proof", page.display())),
        &["--virtual-time-budget=10000", "--dump-dom"],
    );
    let srcs: Vec<&str> = dom
        .split("<img ")
        .skip(1)
        .filter_map(|t| t.split("src=\"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(srcs.len(), 7, "6 designs and the back: {srcs:?}");
    assert!(srcs.iter().all(|s| s.contains(".proof.png")), "{srcs:?}");
    assert!(
        dom.contains("data-images=\"ok 7\""),
        "every proof loads: {}",
        dom.lines().find(|l| l.contains("<body")).unwrap_or("")
    );
}

#[test]
fn tts_knows_hex_tiles_and_round_tokens_by_shape() {
    let out = tempfile::tempdir().unwrap();
    let run = deckpress(
        &[
            "export",
            "tts",
            "tests/fixtures/shapes",
            "--out",
            out.path().to_str().unwrap(),
            "--quiet",
        ],
        &repo(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("shapes/tts/shapes.json")).unwrap(),
    )
    .unwrap();
    let shape_of = |nickname: &str| -> Vec<u64> {
        let states = json["ObjectStates"].as_array().unwrap();
        let deck = states.iter().find(|d| d["Nickname"] == nickname).unwrap_or_else(|| {
            panic!(
                "deck {nickname} among {:?}",
                states.iter().map(|d| &d["Nickname"]).collect::<Vec<_>>()
            )
        });
        deck["CustomDeck"]
            .as_object()
            .unwrap()
            .values()
            .map(|s| s["Type"].as_u64().unwrap())
            .collect()
    };
    // Tabletop Simulator's card shapes: 0 rounded rectangle, 3 hex, 4 circle.
    assert!(shape_of("tiles").iter().all(|&t| t == 3), "{:?}", shape_of("tiles"));
    assert!(shape_of("tokens").iter().all(|&t| t == 4));
    assert!(shape_of("cards").iter().all(|&t| t == 0));
}

#[test]
fn the_gallery_shows_each_changed_card_before_and_after_in_chromium() {
    let Some(chromium) = chromium() else { return };
    let (dir, cat) = copy_catalogue("travfuda");
    let (first, second) = (dir.path().join("first"), dir.path().join("second"));
    let run = deckpress(
        &["preview", cat.to_str().unwrap(), "--quiet", "--out", first.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    edit(&cat, "cards.csv", "1-flag-green,1,1,Scoutship", "1-flag-green,1,1,Scout ship");
    let run = deckpress(
        &[
            "preview",
            cat.to_str().unwrap(),
            "--quiet",
            "--changed-since",
            first.to_str().unwrap(),
            "--out",
            second.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let page = second.join("travfuda/preview/index.html");
    let (dom, _log) = headless(&chromium, &page, &["--virtual-time-budget=10000", "--dump-dom"]);
    let images = dom.matches("<img ").count();
    assert!(
        dom.contains(&format!("data-images=\"ok {images}\"")),
        "every image loads, the before ones too"
    );
    assert_eq!(dom.matches("<figure class=\"change\">").count(), 1, "one card changed");
    assert!(
        dom.contains("<img class=\"before\" src=\"before/cards/1-flag-green.png\"")
            && dom.contains("<img class=\"after\" src=\"cards/1-flag-green.png\""),
        "{}",
        &dom[dom.find("Changed since").unwrap_or(0)..][..600.min(dom.len())]
    );
    // The two pictures differ, and the unchanged cards' copies are not kept.
    let before =
        std::fs::read(second.join("travfuda/preview/before/cards/1-flag-green.png")).unwrap();
    let after = std::fs::read(second.join("travfuda/preview/cards/1-flag-green.png")).unwrap();
    assert_ne!(before, after);
    assert_eq!(std::fs::read_dir(second.join("travfuda/preview/before/cards")).unwrap().count(), 1);
}

#[test]
fn the_gallery_previews_the_flat_box_and_the_first_label_sheet() {
    // TravFuda's tuck box lies flat 10 mm glue flap + 2 × 64 mm faces + 2 × 20.84 mm sides
    // wide, with 10 mm of paper each side: 199.7 mm, 786 px at the 100 dpi sheets are shown at.
    let (out, run) = preview(&["travfuda"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("travfuda/preview");
    let (w, h) = png_size(&dir.join("sheets/box.png"));
    assert!(w.abs_diff(786) <= 2 && h < w, "the flat box: {w}×{h}");
    let gallery = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(gallery.contains("Tuck box (flat)") && gallery.contains("sheets/box.png"));
    // Trumpet's pawn stickers: the first A4 sheet of round labels.
    let (out, run) = preview(&["trumpet"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let dir = out.path().join("trumpet/preview");
    assert_eq!(png_size(&dir.join("sheets/pawn-stickers.png")), (827, 1169), "A4 at 100 dpi");
    let gallery = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        gallery.contains("Pawn stickers (custom, first sheet)"),
        "the label sheet is in the gallery"
    );
}
