//! Issue 48: every command resolves the job at one place and `validate` answers for what
//! `rules` and `bundle` make. Each test here failed on fac5ced (the main before it).

use std::path::Path;

use crate::common::{append, copy_catalogue, deckpress, line_of, new_game, stderr, stdout};

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> Vec<String> {
    crate::common::files_under(dir)
        .iter()
        .map(|p| p.strip_prefix(dir).unwrap().display().to_string())
        .collect()
}

#[test]
fn a_language_the_game_lacks_is_refused_by_every_command_and_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let out = out.to_str().unwrap();
    for lang in ["xx", "../x"] {
        for command in [
            vec!["rules", "travfuda"],
            vec!["bundle", "travfuda"],
            vec!["build", "travfuda"],
            vec!["validate", "travfuda"],
            vec!["export", "tts", "travfuda"],
            vec!["preview", "travfuda", "-q"],
        ] {
            let mut args = command.clone();
            args.extend(["--lang", lang]);
            if command[0] != "validate" {
                args.extend(["--out", out]);
            }
            let run = deckpress(&args, root.path());
            let err = stderr(&run);
            assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(&format!("no labels for language `{lang}`")), "{args:?}: {err}");
            assert!(err.contains("it has: none"), "{args:?}: the languages it has:\n{err}");
        }
        let written = files_under(&root.path().join("out"));
        assert!(written.is_empty(), "--lang {lang} wrote {written:?}");
    }
}

#[test]
fn preflight_of_the_ink_saver_finds_the_files_the_build_names() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let run = deckpress(
        &[
            "preflight",
            "anti-trump",
            "--for",
            "pdf-cards",
            "--ink-saver",
            "--out",
            out.to_str().unwrap(),
        ],
        root.path(),
    );
    let said = format!("{}{}", stdout(&run), stderr(&run));
    assert!(!said.contains("is missing"), "{said}");
    assert!(said.contains("file-order") && said.contains("0 checks failed"), "{said}");
    assert_eq!(run.status.code(), Some(0), "{said}");
}

/// A rulebook mistake: the rules.md written, the line that is wrong and the words said.
struct Mistake {
    rules: &'static str,
    line: &'static str,
    says: &'static str,
}

const MISTAKES: &[Mistake] = &[
    Mistake {
        rules: "# Rules\n\nFor {{ game.players }} players.\n",
        line: "For {{ game.players }}",
        says: "prints a map",
    },
    Mistake {
        rules: "# Rules\n\nDeal: {{ deals }}.\n",
        line: "Deal: {{ deals }}",
        says: "prints a list",
    },
    Mistake {
        rules: "# Rules\n\n| Players | Hand |\n|---|---|\n{% for d in deals %}| {{ d.players }} | {{ d.hand }} |{% endfor %}\n",
        line: "{% for d in deals %}",
        says: "where its header has 2",
    },
    Mistake {
        rules: "# Rules\n\n| Players | Hand |\n|---|---|\n| 2 | 7 | 9 |\n",
        line: "| 2 | 7 | 9 |",
        says: "this table row has 3 cells where its header has 2",
    },
    Mistake {
        rules: "# Rules\n\nSee {{ gmae.name }}.\n",
        line: "See {{ gmae.name }}",
        says: "gmae",
    },
    Mistake {
        rules: "# Rules\n\n![map](art/map.png)\n",
        line: "![map](art/map.png)",
        says: "image `art/map.png`",
    },
];

#[test]
fn a_rulebook_mistake_fails_validate_rules_and_bundle_at_its_line() {
    for m in MISTAKES {
        let (dir, cat) = new_game();
        std::fs::write(cat.join("rules.md"), m.rules).unwrap();
        let line = line_of(&cat, "rules.md", m.line);
        let out = dir.path().join("out");
        for command in ["validate", "rules", "bundle"] {
            let mut args = vec![command, cat.to_str().unwrap()];
            if command != "validate" {
                args.extend(["--out", out.to_str().unwrap()]);
            }
            let run = deckpress(&args, dir.path());
            let err = stderr(&run);
            assert_eq!(run.status.code(), Some(1), "{command} of {:?}: {err}", m.rules);
            assert!(
                err.contains(&format!("rules.md:{line}:")),
                "{command}: not at line {line}: {err}"
            );
            assert!(err.contains(m.says), "{command}: `{}` not said: {err}", m.says);
        }
        assert!(files_under(&out).is_empty(), "{:?} wrote {:?}", m.rules, files_under(&out));
    }
}

#[test]
fn what_validate_passes_rules_and_bundle_make() {
    // Rulebooks written right, beside the mistakes above: validate's verdict is theirs.
    let good = [
        "# Rules\n\nFor {{ game.players.min }} to {{ game.players.max }} players.\n",
        "# Rules\n\n| Players | Hand |\n|---|---|\n{% for d in deals %}| {{ d.players }} | {{ d.hand }} |\n{% endfor %}\n",
        "# Rules\n\n| a | b |\n|---|---|\n| `x|y` |\n",
    ];
    let all = good.iter().copied().chain(MISTAKES.iter().map(|m| m.rules));
    for rules in all {
        let (dir, cat) = new_game();
        std::fs::write(cat.join("rules.md"), rules).unwrap();
        let out = dir.path().join("out");
        let out = out.to_str().unwrap();
        let validated = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
        for command in ["rules", "bundle", "build"] {
            let run = deckpress(&[command, cat.to_str().unwrap(), "--out", out], dir.path());
            if validated.status.success() {
                assert!(
                    run.status.success(),
                    "validate passed {rules:?} but {command} failed: {}",
                    stderr(&run)
                );
            }
        }
    }
    // And a designer's real game, in each of its languages.
    let (dir, cat) = copy_catalogue("track");
    append(&cat, "rules.md", "\nFor {{ game.players.max }} players.\n");
    let validated = deckpress(&["validate", cat.to_str().unwrap()], dir.path());
    assert!(validated.status.success(), "{}", stderr(&validated));
    let out = dir.path().join("out");
    for lang in [None, Some("ru")] {
        let mut args = vec!["bundle", cat.to_str().unwrap(), "--out", out.to_str().unwrap()];
        args.extend(lang.map(|l| ["--lang", l]).into_iter().flatten());
        let run = deckpress(&args, dir.path());
        assert!(run.status.success(), "{args:?}: {}", stderr(&run));
    }
}

/// The page labels of a PDF: (first page index, prefix), as qpdf reads them.
fn page_labels(pdf: &Path) -> Vec<(usize, String)> {
    let out = std::process::Command::new("qpdf")
        .args(["--json=2", "--json-key=pagelabels"])
        .arg(pdf)
        .output()
        .expect("qpdf runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("qpdf's JSON");
    json["pagelabels"]
        .as_array()
        .expect("page labels")
        .iter()
        .map(|l| {
            let prefix = l["label"]["/P"].as_str().unwrap_or_default();
            let prefix = prefix.strip_prefix("u:").unwrap_or(prefix).trim_end().to_string();
            (l["index"].as_u64().unwrap() as usize, prefix)
        })
        .collect()
}

/// The text of page `page` (1-based) of a PDF.
fn page_text(pdf: &Path, page: usize) -> String {
    let p = page.to_string();
    crate::common::poppler(
        "pdftotext",
        &["-layout", "-f", &p, "-l", &p, pdf.to_str().unwrap(), "-"],
    )
}

#[test]
fn every_double_sided_part_of_a_bundle_starts_on_a_front() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let cases = [
        ("trumpet", "letter"),
        ("trumpet", "universal"),
        ("travfuda", "a4"),
        ("travfuda", "letter"),
    ];
    for (game, paper) in cases {
        let run = deckpress(
            &["bundle", game, "--paper", paper, "--out", out.to_str().unwrap()],
            root.path(),
        );
        assert!(run.status.success(), "{}", stderr(&run));
        let pdf = out.join(game).join(format!("{game}-pnp-{paper}.pdf"));
        let labels = page_labels(&pdf);
        // The guide's table, as printed: "9–24  Game cards …  double-sided, flip on the long edge".
        let guide: String = (2..=4).map(|p| page_text(&pdf, p)).collect();
        let mut double = 0;
        let rows = guide.lines().filter(|l| l.trim().starts_with(|c: char| c.is_ascii_digit()));
        for line in rows.filter(|l| l.contains("double-sided, flip")) {
            let first: usize = line.trim().split(['–', ' ']).next().unwrap().parse().unwrap();
            let before = line.split("double-sided").next().unwrap().trim();
            let title = before.split_once(' ').unwrap().1.trim();
            assert!(first % 2 == 1, "{game} {paper}: `{title}` starts on page {first}, a back");
            let label = labels.iter().find(|(i, _)| *i == first - 1).map(|(_, l)| l.as_str());
            assert_eq!(
                label,
                Some(title),
                "{game} {paper}: page {first} is not where `{title}` starts"
            );
            if labels.iter().any(|(i, l)| *i == first - 2 && l == "Blank") {
                assert!(page_text(&pdf, first - 1).contains("intentionally blank"));
            }
            double += 1;
        }
        assert!(double >= 3, "{game} {paper}: no double-sided parts read in the guide:\n{guide}");
        assert!(guide.contains("whole file"), "{game} {paper}: the guide says one way only");
    }
}

#[test]
fn a_part_on_another_paper_is_listed_as_printed_separately_never_dropped() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let command = "deckpress build trumpet --only pawn-stickers";
    for paper in ["letter", "universal"] {
        let run = deckpress(
            &["bundle", "trumpet", "--paper", paper, "--out", out.to_str().unwrap()],
            root.path(),
        );
        assert!(run.status.success(), "{}", stderr(&run));
        assert!(stdout(&run).contains(command), "{paper}: not said: {}", stdout(&run));
        let pdf = out.join(format!("trumpet/trumpet-pnp-{paper}.pdf"));
        let cover = page_text(&pdf, 1);
        assert!(cover.contains("Printed separately") && cover.contains("Pawn"), "{paper}: {cover}");
        let guide: String = (2..=4).map(|p| page_text(&pdf, p)).collect();
        assert!(guide.contains(command), "{paper}: the guide has no command:\n{guide}");
    }
    // On A4, the sheet of A4 labels is in the file.
    let run = deckpress(&["bundle", "trumpet", "--out", out.to_str().unwrap()], root.path());
    assert!(run.status.success(), "{}", stderr(&run));
    let labels = page_labels(&out.join("trumpet/trumpet-pnp-a4.pdf"));
    assert!(labels.iter().any(|(_, l)| l == "Pawn stickers"), "{labels:?}");
    assert!(!stdout(&run).contains("printed separately"), "{}", stdout(&run));
}

#[test]
fn a_list_deeper_than_the_page_can_step_in_is_said_at_its_line() {
    let (dir, cat) = new_game();
    let mut rules = String::from("# Rules\n\n");
    for level in 0..14 {
        rules.push_str(&format!("{}- level {}\n", "  ".repeat(level), level + 1));
    }
    std::fs::write(cat.join("rules.md"), rules).unwrap();
    let line = line_of(&cat, "rules.md", "- level 11");
    let out = dir.path().join("out");
    for command in ["validate", "rules"] {
        let mut args = vec![command, cat.to_str().unwrap()];
        if command == "rules" {
            args.extend(["--out", out.to_str().unwrap()]);
        }
        let run = deckpress(&args, dir.path());
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(0), "{command}: {err}");
        assert!(err.contains(&format!("rules.md:{line}:")), "{command}: not at line {line}: {err}");
        assert!(err.contains("11 levels deep"), "{command}: {err}");
        // Under --strict it fails, as any warning does.
        args.push("--strict");
        assert_eq!(deckpress(&args, dir.path()).status.code(), Some(1), "{command} --strict");
    }
}
