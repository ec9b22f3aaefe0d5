//! Reprints of what changed: every build writes a manifest of its pieces' art, and
//! `build --changed-since` prints only the cards whose art changed (both sides, paired
//! for duplex), measured from the PDF.

use crate::common::*;

#[test]
fn one_edited_row_reprints_that_card_front_and_back_only() {
    let (dir, cat) = copy_catalogue("travfuda");
    let first = dir.path().join("first");
    let run = deckpress(
        &["build", cat.to_str().unwrap(), "--only", "cards", "--out", first.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let manifest = std::fs::read_to_string(first.join("travfuda/travfuda-manifest.json")).unwrap();
    // 62 cards, a front and a back each.
    assert_eq!(manifest.matches("\"side\": \"front\"").count(), 62, "{manifest}");
    assert_eq!(manifest.matches("\"side\": \"back\"").count(), 62);

    edit(&cat, "cards.csv", "1-flag-green,1,1,Scoutship", "1-flag-green,1,1,Scout ship");
    let second = dir.path().join("second");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--only",
            "cards",
            "--changed-since",
            first.to_str().unwrap(),
            "--out",
            second.to_str().unwrap(),
        ],
        dir.path(),
    );
    let said = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(said.contains("travfuda: 1 card changed or new since"), "{said}");
    let pdf = second.join("travfuda/travfuda-cards-reprint-a4.pdf");
    assert!(!second.join("travfuda/travfuda-cards-a4.pdf").exists(), "only the reprint");
    assert_eq!(pages(&pdf), 2, "a front sheet and a back sheet");
    let front = words_of(&pdf, Some(1));
    assert!(front.contains("Scout ship"), "{front}");
    // The cards' words come before the slug ("TravFuda 1.0 — TravFuda deck …").
    let cards = |text: &str| text.split("TravFuda 1.0 —").next().unwrap_or_default().to_string();
    assert_eq!(cards(&front).matches("points").count(), 1, "one card on the front: {front}");
    let back = words_of(&pdf, Some(2));
    assert_eq!(cards(&back).matches("TravFuda").count(), 1, "its one back: {back}");

    // Against that build, nothing changed: said, and no PDF.
    let third = dir.path().join("third");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--only",
            "cards",
            "--changed-since",
            second.join("travfuda/travfuda-manifest.json").to_str().unwrap(),
            "--out",
            third.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(stdout(&run).contains("nothing changed since"), "{}", stdout(&run));
    let pdfs = std::fs::read_dir(third.join("travfuda"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "pdf"))
        .count();
    assert_eq!(pdfs, 0);
}

#[test]
fn a_changed_art_file_reprints_the_cards_that_draw_it() {
    let (dir, cat) = new_game();
    std::fs::create_dir_all(cat.join("art")).unwrap();
    std::fs::copy(repo().join("tests/fixtures/photo.jpg"), cat.join("art/sun.jpg")).unwrap();
    edit(&cat, "templates/face.svg", "<circle cx=\"315\"", "{% if card.suit == \"Sun\" %}<image href=\"art/sun.jpg\" x=\"215\" y=\"320\" width=\"200\" height=\"150\"/>{% endif %}<circle cx=\"315\"");
    let first = dir.path().join("first");
    let run =
        deckpress(&["build", cat.to_str().unwrap(), "--out", first.to_str().unwrap()], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    // The same file name, other pixels: the 4 Sun cards (3 designs, one of them twice).
    let mut bytes = std::fs::read(cat.join("art/sun.jpg")).unwrap();
    let n = bytes.len();
    bytes[n - 100] ^= 0x55;
    std::fs::write(cat.join("art/sun.jpg"), bytes).unwrap();
    let second = dir.path().join("second");
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--changed-since",
            first.to_str().unwrap(),
            "--out",
            second.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(stdout(&run).contains("game: 4 cards changed or new"), "{}", stdout(&run));
}

#[test]
fn a_missing_or_foreign_manifest_is_a_clear_error() {
    let (dir, cat) = new_game();
    let run = deckpress(
        &["build", cat.to_str().unwrap(), "--changed-since", dir.path().to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("no manifest of a previous build"), "{}", stderr(&run));
    let run = deckpress(
        &[
            "build",
            cat.to_str().unwrap(),
            "--for",
            "pdf-cards",
            "--changed-since",
            dir.path().to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
}

/// A reprint is of cards: into the folder of the whole build, `--changed-since` leaves
/// its box, board and pad PDFs as they were (the box's was written again, byte for byte
/// the same but new), and says they are left out.
#[test]
fn a_reprint_into_the_builds_folder_leaves_its_box_alone() {
    let (dir, cat) = copy_catalogue("travfuda");
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let run = deckpress(&["build", cat.to_str().unwrap(), "--out", o], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let files = ["travfuda-box-a4.pdf", "travfuda-pad-a4.pdf", "travfuda-aid-a4.pdf"];
    let stamp =
        |f: &str| std::fs::metadata(out.join("travfuda").join(f)).unwrap().modified().unwrap();
    let before: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    edit(&cat, "cards.csv", "1-flag-green,1,1,Scoutship", "1-flag-green,1,1,Scout ship");
    let run =
        deckpress(&["build", cat.to_str().unwrap(), "--changed-since", o, "--out", o], dir.path());
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let said = stdout(&run);
    assert!(said.contains("1 card changed or new since"), "{said}");
    assert!(said.contains("boxes, boards and pads are left out of a reprint"), "{said}");
    assert!(!said.contains("travfuda-box-a4.pdf"), "{said}");
    let after: Vec<_> = files.iter().map(|f| stamp(f)).collect();
    assert_eq!(before, after, "{files:?} written again");
    assert!(out.join("travfuda/travfuda-cards-reprint-a4.pdf").exists());
}
