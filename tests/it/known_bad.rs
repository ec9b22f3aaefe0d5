//! The known-bad corpus: for every check, files a printer or a player would reject
//! (tests/known-bad/<case>/), each run as a user would, asserting that its check FAILs with
//! its message; then run again with that check turned off (`DECKPRESS_CHECK_OFF`, heard
//! by debug builds only), asserting that the message is gone. So no check can be one that
//! cannot fail, and no case is caught by some other check by accident.
//!
//! A case is a folder with `case.toml`:
//! ```toml
//! check = "contrast"          # a name in deckpress::check::NAMES
//! why = "#e0e0e0 text on an #eeeeee card"
//! args = ["validate", "{case}/game", "--strict"]  # {case}: this folder, {out}: a temp dir
//! exit = 1                    # the exit status expected
//! says = "contrast"           # text the check's FAIL prints (stdout and stderr)
//! ```

use crate::common::repo;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    check: String,
    why: String,
    args: Vec<String>,
    exit: i32,
    says: String,
}

fn cases() -> Vec<(PathBuf, Case)> {
    let root = repo().join("tests/known-bad");
    let mut found: Vec<_> = std::fs::read_dir(&root)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    found.sort();
    found
        .into_iter()
        .filter(|dir| dir.is_dir())
        .map(|dir| {
            let file = dir.join("case.toml");
            let text = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            let case: Case =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            (dir, case)
        })
        .collect()
}

/// Runs a case's command, with `off` turned off when given: (exit status, all it printed).
fn run(dir: &Path, case: &Case, off: Option<&str>) -> (Option<i32>, String) {
    let out = tempfile::tempdir().unwrap();
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| {
            a.replace("{case}", &dir.display().to_string())
                .replace("{out}", &out.path().display().to_string())
        })
        .collect();
    let mut command = Command::new(env!("CARGO_BIN_EXE_deckpress"));
    command.args(&args).current_dir(out.path()).env_remove("DECKPRESS_CHECK_OFF");
    if let Some(name) = off {
        command.env("DECKPRESS_CHECK_OFF", name);
    }
    let output = command.output().expect("the binary runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), said)
}

#[test]
fn every_known_bad_file_fails_its_check_and_passes_with_that_check_off() {
    let cases = cases();
    assert!(!cases.is_empty(), "tests/known-bad holds no case");
    for (dir, case) in &cases {
        let name = dir.file_name().unwrap().to_string_lossy();
        assert!(!case.why.is_empty(), "{name}: say why a printer or player rejects it");
        let (code, said) = run(dir, case, None);
        assert_eq!(code, Some(case.exit), "{name} ({}): exit status\n{said}", case.why);
        assert!(
            said.contains(&case.says),
            "{name} ({}): `{}` not said\n{said}",
            case.why,
            case.says
        );
        let (_, said_off) = run(dir, case, Some(&case.check));
        assert!(
            !said_off.contains(&case.says),
            "{name}: with check `{}` off, `{}` is still said: another check catches this \
             file, or the check does not listen to DECKPRESS_CHECK_OFF\n{said_off}",
            case.check,
            case.says
        );
    }
}

#[test]
fn every_check_has_a_known_bad_case_and_every_case_a_check() {
    let names = deckpress::check::NAMES;
    assert!(!names.is_empty(), "check::NAMES lists no check");
    let cases = cases();
    for name in names {
        assert!(
            cases.iter().any(|(_, c)| c.check == *name),
            "check `{name}` has no case in tests/known-bad: nothing proves it can fail"
        );
    }
    for (dir, case) in &cases {
        assert!(
            names.contains(&case.check.as_str()),
            "{}: `{}` is not a name in check::NAMES",
            dir.display(),
            case.check
        );
    }
}
