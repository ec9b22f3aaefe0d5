//! Bad input gets a clear error, never a panic: catalogues cut short at many points,
//! and with bytes scrambled, must give exit 1 or 2 with a message, never a crash. And
//! `validate` is the promise that `build` and `rules` succeed: on every one of these
//! catalogues they agree (no catalogue is valid for one and broken for the others).

use crate::common::*;

/// A small deterministic generator, so a failure can be reproduced.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

fn assert_handled(cat: &std::path::Path, what: &str) {
    let validated = deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    let out = deckpress(&["build", cat.to_str().unwrap(), "--out", "out"], cat.parent().unwrap());
    let err = stderr(&out);
    let code = out.status.code();
    // Since issue 50 `validate` checks the rulebook too (a rules.md asking for a sheet the
    // scrambled game.toml lost fails `rules`, not `build`).
    let rules = cat.join("rules.md").is_file().then(|| {
        deckpress(&["rules", cat.to_str().unwrap(), "--out", "out"], cat.parent().unwrap())
    });
    let rules_code = rules.as_ref().map_or(Some(0), |r| r.status.code());
    assert_eq!(
        validated.status.code() == Some(0),
        code == Some(0) && rules_code == Some(0),
        "{what}: validate said {:?}, build {code:?}, rules {rules_code:?}\n{}\n{err}\n{}",
        validated.status.code(),
        stderr(&validated),
        rules.as_ref().map(stderr).unwrap_or_default()
    );
    assert!(matches!(code, Some(0..=2)), "{what}: exit {code:?}\n{err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    if code != Some(0) {
        assert!(err.contains("error"), "{what}: a failure says what is wrong\n{err}");
    }
}

#[test]
fn truncated_and_scrambled_files_never_crash() {
    let mut rng = Lcg(20261122);
    for file in [
        "game.toml",
        "cards.csv",
        "templates/face.svg",
        "templates/back.svg",
        "art/suit-3.png",
        "art/back-texture.jpg",
    ] {
        for round in 0..6 {
            let (_guard, cat) = copy_catalogue("travfuda");
            let path = cat.join(file);
            let mut bytes = std::fs::read(&path).unwrap();
            if round % 2 == 0 {
                bytes.truncate(rng.next(bytes.len()));
            } else {
                let junk = b"\",=[]{}<>&%\n\xff0-";
                for _ in 0..8 {
                    let i = rng.next(bytes.len());
                    bytes[i] = junk[rng.next(junk.len())];
                }
            }
            std::fs::write(&path, &bytes).unwrap();
            assert_handled(&cat, &format!("{file}, round {round}"));
        }
    }
}

#[test]
fn absurd_numbers_are_reported_not_overflowed() {
    let (_guard, cat) = copy_catalogue("travfuda");
    edit(&cat, "game.toml", "players = 2\nhand = 12", "players = 4000000000\nhand = 4000000000");
    edit(&cat, "cards.csv", "2-plain,4,", "2-plain,4000000000,");
    let out = deckpress(&["validate", cat.to_str().unwrap()], cat.parent().unwrap());
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("4000000000 copies of one card is more than deckpress prints"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
