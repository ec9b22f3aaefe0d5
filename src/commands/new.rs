//! `deckpress new`: a working catalogue folder for a new game, copied from a starting
//! point (a blank game, a game on the shared French deck, or any built-in game) with the
//! game id set from the folder's name. It validates and builds at once.

use std::path::Path;

use crate::diag::Failure;
use crate::world::World;

/// Starting points besides the built-in games, kept in the shared templates under `new/`.
const STARTERS: [&str; 3] = ["blank", "french", "score-pad"];

/// Copies the starting point `from` into the new folder `dest`.
pub fn new_game(dest: &Path, from: &str) -> Result<Vec<String>, Failure> {
    let id = game_id(dest).ok_or_else(|| {
        Failure::Io(format!("cannot make a game id from `{}`: name the folder with letters and digits, like `my-game`", dest.display()))
    })?;
    if std::fs::read_dir(dest).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(Failure::Io(format!(
            "{} exists and is not empty; choose a new folder",
            dest.display()
        )));
    }
    let source = match from {
        starter if STARTERS.contains(&starter) => World::templates().sub(&format!("new/{starter}")),
        game => crate::games::builtin(game),
    };
    let source = source.ok_or_else(|| {
        let mut known: Vec<String> = STARTERS.iter().map(|s| s.to_string()).collect();
        known.extend(crate::games::builtin_ids());
        Failure::Io(format!(
            "no starting point `{}`; use --from with one of: {}",
            from,
            crate::diag::accepted(known)
        ))
    })?;
    let mut written = Vec::new();
    for rel in source.all_files() {
        let bytes = source.read_bytes(&rel).map_err(|e| {
            Failure::Io(format!("cannot read {}: {e}", source.display_path(&rel).display()))
        })?;
        let bytes = if rel == crate::load::GAME_TOML {
            with_id(&String::from_utf8_lossy(&bytes), &id).into_bytes()
        } else {
            bytes.to_vec()
        };
        let path = dest.join(&rel);
        crate::output::write_atomic(&path, &bytes)
            .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
        written.push(path.display().to_string());
    }
    written.push(format!(
        "next: deckpress build {}   (or `deckpress watch {}` while you edit)",
        dest.display(),
        dest.display()
    ));
    Ok(written)
}

/// `My Game!` → `my-game`: what the folder's name gives as an id, if anything.
fn game_id(folder: &Path) -> Option<String> {
    crate::load::plain_id(&folder.file_name()?.to_string_lossy())
}

/// game.toml with its `[game] id` replaced (the first `id = "…"` line, which is the
/// game's: `[game]` comes first in every starting point).
fn with_id(game_toml: &str, id: &str) -> String {
    let mut done = false;
    game_toml
        .split_inclusive('\n')
        .map(|line| {
            if !done && line.trim_start().starts_with("id =") {
                done = true;
                let comment = line
                    .find('#')
                    .map(|i| format!("  {}", line[i..].trim_end()))
                    .unwrap_or_default();
                format!("id = \"{id}\"{comment}\n")
            } else {
                line.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_folder_name() {
        assert_eq!(game_id(Path::new("games/My Game!")).as_deref(), Some("my-game"));
        assert_eq!(game_id(Path::new("???")), None);
        assert_eq!(
            with_id(
                "[game]\nid = \"travfuda\" # names it\nname = \"x\"\n[[deck]]\nid = \"cards\"\n",
                "demo"
            ),
            "[game]\nid = \"demo\"  # names it\nname = \"x\"\n[[deck]]\nid = \"cards\"\n"
        );
    }
}
