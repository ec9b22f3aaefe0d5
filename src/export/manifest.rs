//! The manifest a build writes beside its files: every physical piece of every deck (its
//! deck, id, copy and side) with a fingerprint of the art drawn for it. A later build
//! with `--changed-since` compares against it and reprints only what changed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::layout::ArtRef;
use crate::model::Catalogue;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub game: String,
    pub pieces: Vec<Entry>,
}

/// One side of one physical card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub deck: String,
    pub id: String,
    /// 1 for the first of a row's `qty` copies.
    pub copy: u32,
    pub side: Side,
    /// FNV-1a of the filled SVG and of the bytes of every art file it draws, in hex.
    pub art: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Front,
    Back,
}

/// The manifest of the pieces drawn, from their art's fingerprints.
pub fn of(cat: &Catalogue, fingerprints: &HashMap<ArtRef, u64>) -> Manifest {
    Manifest { game: cat.id.clone(), pieces: entries(cat, fingerprints).collect() }
}

/// `of(cat, fingerprints)` as pretty JSON and a newline, written as it is made: the manifest of a
/// 100,000-card deck is 200,000 entries, never all in memory.
pub fn write_json(
    cat: &Catalogue,
    fingerprints: &HashMap<ArtRef, u64>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    /// Serialised as `Manifest` is, with the entries made one at a time.
    #[derive(Serialize)]
    struct Streamed<'a> {
        game: &'a str,
        pieces: Entries<'a>,
    }
    struct Entries<'a>(&'a Catalogue, &'a HashMap<ArtRef, u64>);
    impl Serialize for Entries<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(entries(self.0, self.1))
        }
    }
    let streamed = Streamed { game: &cat.id, pieces: Entries(cat, fingerprints) };
    serde_json::to_writer_pretty(&mut *out, &streamed)?;
    out.write_all(b"\n")
}

/// Each side of each physical piece of every deck, in deck order.
fn entries<'a>(
    cat: &'a Catalogue,
    fingerprints: &'a HashMap<ArtRef, u64>,
) -> impl Iterator<Item = Entry> + 'a {
    cat.decks.iter().enumerate().flat_map(move |(d, deck)| {
        let mut copies: HashMap<usize, u32> = HashMap::new();
        crate::layout::physical_cards(deck, d).flat_map(move |(face, back)| {
            let ArtRef::Face { row, .. } = face else { return Vec::new() };
            let copy = copies.entry(row).or_insert(0);
            *copy += 1;
            let copy = *copy;
            [(Side::Front, face), (Side::Back, back)]
                .into_iter()
                .map(|(side, art)| Entry {
                    deck: deck.id.clone(),
                    id: deck.rows[row].id.clone(),
                    copy,
                    side,
                    art: fingerprints.get(&art).map_or_else(String::new, |f| format!("{f:016x}")),
                })
                .collect()
        })
    })
}

impl Manifest {
    /// Reads a manifest: the file itself, or the one a previous build wrote in `path`
    /// (an output folder, or its game folder).
    /// `service` names it (`Service::manifest`).
    pub fn read(
        path: &Path,
        game: &str,
        service: &crate::services::Service,
        lang: &str,
    ) -> Result<Manifest, String> {
        let name = service.manifest_name(game, lang);
        let candidates: Vec<PathBuf> = if path.is_dir() {
            vec![path.join(game).join(&name), path.join(&name)]
        } else {
            vec![path.to_path_buf()]
        };
        // Whatever is there, a file or not, is what read_regular judges (a pipe is said to
        // be one, not "no manifest": tests/stranger/changed-since/manifest-fifo).
        let file = candidates.iter().find(|p| p.symlink_metadata().is_ok()).ok_or_else(|| {
            format!(
                "no manifest of a previous build at {}: a build writes {game}/{name} beside its files",
                path.display()
            )
        })?;
        // A link in an earlier build's folder leads wherever its maker chose: never followed
        // out of it (tests/stranger/changed-since/manifest-links-outside).
        if path.is_dir() {
            let real = |p: &Path| p.canonicalize().ok();
            if !real(file).zip(real(path)).is_some_and(|(f, folder)| f.starts_with(folder)) {
                return Err(format!(
                    "cannot read {}: it is a symlink to a file outside {}, which deckpress never reads",
                    file.display(),
                    path.display()
                ));
            }
        }
        // A manifest is a few hundred bytes a card: 64 MB is far past the largest game.
        let bytes = crate::world::read_regular(file, 64 << 20)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{} is no deckpress manifest: not UTF-8", file.display()))?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| format!("{} is no deckpress manifest: {e}", file.display()))?;
        if manifest.game != game {
            return Err(format!(
                "{} is the manifest of `{}`, not of `{game}`",
                file.display(),
                manifest.game
            ));
        }
        Ok(manifest)
    }
}

/// What changed from `before` to `now`: the physical cards (deck, id, copy) to reprint,
/// both sides, because either side's art changed or the card is new; and the cards that
/// are gone, as "deck `cards`: `x` (copy 2)".
pub struct Changes {
    pub reprint: BTreeSet<(String, String, u32)>,
    pub removed: Vec<String>,
}

pub fn changes(before: &Manifest, now: &Manifest) -> Changes {
    let key = |e: &Entry| ((e.deck.clone(), e.id.clone(), e.copy), e.side);
    let old: BTreeMap<_, &str> = before.pieces.iter().map(|e| (key(e), e.art.as_str())).collect();
    let new: BTreeMap<_, &str> = now.pieces.iter().map(|e| (key(e), e.art.as_str())).collect();
    let reprint = new
        .iter()
        .filter(|(k, art)| old.get(k) != Some(art))
        .map(|((card, _), _)| card.clone())
        .collect();
    let gone: BTreeSet<_> =
        old.keys().filter(|k| !new.contains_key(k)).map(|(c, _)| c.clone()).collect();
    let removed = gone
        .into_iter()
        .map(|(deck, id, copy)| format!("deck `{deck}`: `{id}` (copy {copy})"))
        .collect();
    Changes { reprint, removed }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_streamed_manifest_is_the_manifest_serialised_whole() {
        let world = crate::games::builtin("travfuda").expect("a built-in game");
        let cat = crate::load::load(&world, &crate::world::World::templates()).ok().unwrap();
        let fingerprints: HashMap<ArtRef, u64> = cat
            .decks
            .iter()
            .enumerate()
            .flat_map(|(d, deck)| crate::layout::physical_cards(deck, d))
            .enumerate()
            .flat_map(|(i, (face, back))| [(face, i as u64 * 7), (back, 3)])
            .collect();
        let mut whole = serde_json::to_vec_pretty(&of(&cat, &fingerprints)).unwrap();
        whole.push(b'\n');
        let mut streamed = Vec::new();
        write_json(&cat, &fingerprints, &mut streamed).unwrap();
        assert!(whole.len() > 1000);
        assert_eq!(String::from_utf8(streamed).unwrap(), String::from_utf8(whole).unwrap());
    }

    fn entry(id: &str, copy: u32, side: Side, art: &str) -> Entry {
        Entry { deck: "cards".into(), id: id.into(), copy, side, art: art.into() }
    }

    #[test]
    fn a_changed_side_reprints_its_card_and_gone_cards_are_listed() {
        let before = Manifest {
            game: "g".into(),
            pieces: vec![
                entry("a", 1, Side::Front, "1"),
                entry("a", 1, Side::Back, "9"),
                entry("b", 1, Side::Front, "2"),
                entry("b", 1, Side::Back, "9"),
                entry("c", 1, Side::Front, "3"),
                entry("c", 1, Side::Back, "9"),
            ],
        };
        let mut now = before.clone();
        now.pieces[3].art = "8".into(); // b's back
        now.pieces.truncate(4); // c gone
        now.pieces.push(entry("a", 2, Side::Front, "1")); // a second copy of a
        now.pieces.push(entry("a", 2, Side::Back, "9"));
        let c = changes(&before, &now);
        let ids: Vec<(&str, u32)> =
            c.reprint.iter().map(|(_, id, copy)| (id.as_str(), *copy)).collect();
        assert_eq!(ids, [("a", 2), ("b", 1)]);
        assert_eq!(c.removed, ["deck `cards`: `c` (copy 1)"]);
    }
}
