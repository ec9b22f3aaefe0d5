//! Which catalogues a command works on: built-in game ids (embedded in the binary) or
//! catalogue folders on disk, resolved into `World`s. Every command (build, validate,
//! preview, watch, export, new) starts here.

use std::path::Path;

use crate::diag::Failure;
use crate::world::World;

/// Ids of the built-in games, sorted.
pub fn builtin_ids() -> Vec<String> {
    World::builtin_games().folders_with(crate::load::GAME_TOML)
}

/// The built-in game `id`, if there is one.
pub fn builtin(id: &str) -> Option<World> {
    builtin_ids().iter().any(|known| known == id).then(|| World::builtin_games().sub(id)).flatten()
}

/// Game arguments → catalogue folders. A name with a path separator, or an existing
/// folder, is a path; anything else must be a built-in id.
pub fn resolve(names: &[String], all: bool) -> Result<Vec<(String, World)>, Failure> {
    if all {
        let ids = builtin_ids();
        if ids.is_empty() {
            return Err(Failure::Io(format!(
                "no built-in catalogues found in {}",
                World::builtin_games().root().display()
            )));
        }
        return Ok(ids.into_iter().filter_map(|id| Some((id.clone(), builtin(&id)?))).collect());
    }
    names
        .iter()
        .map(|arg| {
            let path = Path::new(arg);
            if arg.contains(std::path::MAIN_SEPARATOR) || arg.contains('/') || path.is_dir() {
                if !path.is_dir() {
                    return Err(Failure::Io(format!("{arg} is not a folder")));
                }
                Ok((arg.clone(), World::new(path)))
            } else if let Some(world) = builtin(arg) {
                Ok((arg.clone(), world))
            } else {
                Err(Failure::Io(format!("unknown game `{arg}`; built-in games: {}; or give the path to a catalogue folder", builtin_ids().join(", "))))
            }
        })
        .collect()
}
