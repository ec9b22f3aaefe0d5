//! All file reads of a catalogue go through a `World`: it knows the catalogue's root and
//! refuses paths that would escape it (absolute paths, `..`, URLs), so a template or a
//! manifest can never make deckpress read `/etc/passwd`.

use std::path::{Component, Path, PathBuf};

/// A catalogue folder on disk.
#[derive(Debug, Clone)]
pub struct World {
    root: PathBuf,
}

/// Why a catalogue-relative path could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The path points outside the catalogue folder or is not a plain relative path.
    Escapes,
    NotFound,
    Io(std::io::Error),
    NotUtf8,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Escapes => write!(f, "the path must be relative and stay inside the catalogue folder"),
            ReadError::NotFound => write!(f, "no such file"),
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotUtf8 => write!(f, "the file is not UTF-8 text"),
        }
    }
}

impl World {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The path shown to users in diagnostics: root joined with the relative path.
    pub fn display_path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Reads a UTF-8 file given relative to the catalogue root.
    pub fn read_text(&self, rel: &str) -> Result<String, ReadError> {
        let path = self.resolve(rel)?;
        let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::NotFound,
            _ => ReadError::Io(e),
        })?;
        String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
    }

    /// Names of the sub-folders that hold `file` (catalogues with a `game.toml`, library
    /// entries with a `deck.toml`), sorted: for listings and "known values" hints.
    pub fn folders_with(&self, file: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join(file).is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }

    fn resolve(&self, rel: &str) -> Result<PathBuf, ReadError> {
        if rel.contains(':') {
            return Err(ReadError::Escapes); // file:, http:, C:\ — never follow
        }
        let rel_path = Path::new(rel);
        let plain = rel_path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        if !plain || rel.is_empty() {
            return Err(ReadError::Escapes);
        }
        Ok(self.root.join(rel_path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_that_escape_the_root() {
        let world = World::new("catalogues/travfuda");
        for bad in ["../x.svg", "/etc/passwd", "a/../../b", "file:x.svg", "http://x/y.svg", ""] {
            assert!(matches!(world.resolve(bad), Err(ReadError::Escapes)), "{bad}");
        }
        assert!(world.resolve("templates/face.svg").is_ok());
    }
}
