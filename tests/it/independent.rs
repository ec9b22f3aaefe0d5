//! An independent set of files a printer or a player would reject, and their good twins
//! (tests/independent/, made for issue 49 by someone who did not write the checks, with
//! `gen.py`): each case run as its `run.sh` says a user would, its verdict held to
//! `cases.tsv`. A bad file FAILs (exit 1, a line naming its check and its figure), a good
//! one passes (exit 0). Where deckpress's rule differs from the set's expectation, the row
//! says why (`policy:`), and a known gap is held as the N/A it is (`gap:`), so that closing
//! it, or opening another, shows here.

use std::path::Path;
use std::process::Command;

use crate::common::repo;

struct Case {
    path: String,
    expected: String,
    patterns: Vec<String>,
    figures: Vec<String>,
}

fn cases(root: &Path) -> Vec<Case> {
    let table = std::fs::read_to_string(root.join("cases.tsv")).unwrap();
    let split = |s: &str| -> Vec<String> {
        s.split('|').filter(|p| !p.is_empty()).map(str::to_string).collect()
    };
    table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').chain(std::iter::repeat("")).take(6).collect();
            Case {
                path: cells[0].to_string(),
                expected: cells[1].to_string(),
                patterns: split(&cells[3].to_lowercase()),
                figures: split(cells[4]),
            }
        })
        .collect()
}

/// The case run as its run.sh does; what is wrong with the verdict, if anything.
fn judge(root: &Path, case: &Case, tmp: &Path) -> Option<String> {
    let dir = root.join(&case.path);
    let run = Command::new("sh")
        .arg("run.sh")
        .arg(env!("CARGO_BIN_EXE_deckpress"))
        .current_dir(&dir)
        .env("TMPDIR", tmp)
        .output()
        .expect("sh runs");
    let said =
        format!("{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    assert!(!said.contains("panicked"), "{}: {said}", case.path);
    let lines: Vec<&str> = said.lines().map(str::trim_start).collect();
    let names = |l: &&&str| {
        let lower = l.to_lowercase();
        case.patterns.iter().any(|p| lower.contains(p.as_str()))
    };
    let with_figure =
        |l: &&&str| case.figures.is_empty() || case.figures.iter().any(|f| l.contains(f.as_str()));
    let code = run.status.code();
    let wrong = match case.expected.as_str() {
        "FAIL" => {
            let failing = |l: &&&str| {
                l.starts_with("FAIL") || l.starts_with("error:") || l.starts_with("warning:")
            };
            let hit = lines.iter().filter(failing).filter(names).any(|l| with_figure(&l));
            (code != Some(1) || !hit)
                .then(|| format!("expected a FAIL naming {:?} {:?}", case.patterns, case.figures))
        }
        "PASS" => (code != Some(0)).then(|| "expected a PASS".to_string()),
        "N/A" => {
            let hit = lines.iter().filter(|l| l.starts_with("N/A")).any(|l| names(&l));
            (code != Some(0) || !hit).then(|| format!("expected N/A naming {:?}", case.patterns))
        }
        other => Some(format!("cases.tsv: unknown expectation `{other}`")),
    };
    wrong.map(|why| format!("{}: {why}; exit {code:?}\n{said}", case.path))
}

#[test]
fn the_independent_set_gets_no_false_pass_and_no_false_fail() {
    let root = repo().join("tests/independent");
    let all = cases(&root);
    assert!(all.len() >= 80, "{} cases", all.len());
    let tmp = tempfile::tempdir().unwrap();
    let wrong: Vec<String> = std::thread::scope(|scope| {
        let halves: Vec<_> = all
            .chunks(all.len().div_ceil(2))
            .map(|chunk| {
                let (root, tmp) = (&root, tmp.path());
                scope.spawn(move || {
                    chunk.iter().filter_map(|c| judge(root, c, tmp)).collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(wrong.is_empty(), "{} of {} cases:\n{}", wrong.len(), all.len(), wrong.join("\n"));
}
