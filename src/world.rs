//! Every read of a catalogue goes through a `World`: game.toml, rows, templates,
//! template includes, art files and fonts. A world is either a folder on disk or a folder
//! embedded in the binary (the built-in games and the shared templates), and it refuses
//! anything outside its root: absolute paths, `..`, URLs, and symlinks that resolve
//! outside the folder. A refused read names the path as written, never what is there.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use include_dir::{include_dir, Dir};

/// The built-in games, compiled into the binary so that one file is the whole program.
static BUILTIN_CATALOGUES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/catalogues");
/// Shared decks and sheet templates (`from = "french"`, `from = "score-pad"`).
static BUILTIN_TEMPLATES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/templates");

/// Largest file deckpress reads (a 100 MB CSV or image is a mistake or an attack).
pub const MAX_FILE_BYTES: u64 = 100 << 20;

/// A catalogue folder (or the templates folder), on disk or embedded.
#[derive(Clone)]
pub struct World {
    source: Source,
    /// Files already read, by relative path: an image used by 60 cards is read once and
    /// shared (the same `Arc`) by every card's tree.
    cache: Arc<Mutex<HashMap<String, Arc<Vec<u8>>>>>,
    /// The bounds of the job reading this folder (`--limit`).
    limits: Arc<crate::limits::Limits>,
}

#[derive(Clone)]
enum Source {
    Disk {
        /// The root as the user gave it: what diagnostics show.
        root: PathBuf,
        /// The root with symlinks resolved: what every read must stay inside.
        real: Option<PathBuf>,
    },
    Embedded {
        /// The embedded tree; include_dir names every entry by its path from this root.
        tree: &'static Dir<'static>,
        /// This world's folder inside `tree` ("" for the tree itself).
        prefix: PathBuf,
        /// How diagnostics name the folder (`catalogues/travfuda`).
        shown: PathBuf,
    },
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "World({})", self.root().display())
    }
}

/// Why a catalogue-relative path could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The path is absolute, climbs out with `..`, or is a URL.
    Escapes,
    /// The path resolves, through a symlink, to a file outside the folder.
    LinksOutside,
    NotFound,
    TooLarge(u64),
    /// A FIFO, a device, a socket or a folder: reading it could block or never end.
    NotAFile,
    Io(std::io::Error),
    NotUtf8,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Escapes => write!(f, "the path must be relative and stay inside the catalogue folder"),
            ReadError::LinksOutside => write!(f, "it is a symlink to a file outside the catalogue folder, which deckpress never reads"),
            ReadError::NotFound => write!(f, "no such file"),
            ReadError::TooLarge(n) => write!(f, "the file is {} MB, more than the {} MB deckpress reads", n >> 20, MAX_FILE_BYTES >> 20),
            ReadError::NotAFile => write!(f, "it is not a regular file (a folder, a pipe or a device), which deckpress never reads"),
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::NotUtf8 => write!(f, "the file is not UTF-8 text"),
        }
    }
}

impl World {
    /// A folder on disk.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let real = root.canonicalize().ok();
        Self::with(Source::Disk { root, real })
    }

    fn with(source: Source) -> Self {
        Self { source, cache: Arc::default(), limits: Arc::default() }
    }

    /// The same folder read under the job's `limits`.
    pub fn with_limits(mut self, limits: &crate::limits::Limits) -> World {
        self.limits = Arc::new(limits.clone());
        self
    }

    /// The limits of the job reading this folder.
    pub fn limits(&self) -> &crate::limits::Limits {
        &self.limits
    }

    /// The same folder with nothing read yet: `watch` reads the files anew on every change.
    pub fn fresh(&self) -> World {
        World { limits: self.limits.clone(), ..World::with(self.source.clone()) }
    }

    /// The built-in games: `$DECKPRESS_CATALOGUES` (for development), or the ones
    /// compiled into the binary.
    pub fn builtin_games() -> World {
        match std::env::var_os("DECKPRESS_CATALOGUES") {
            Some(dir) => World::new(dir),
            None => World::with(Source::Embedded {
                tree: &BUILTIN_CATALOGUES,
                prefix: PathBuf::new(),
                shown: PathBuf::from("catalogues"),
            }),
        }
    }

    /// Shared decks and sheet templates: `$DECKPRESS_TEMPLATES` (for development), or
    /// the ones compiled into the binary.
    pub fn templates() -> World {
        match std::env::var_os("DECKPRESS_TEMPLATES") {
            Some(dir) => World::new(dir),
            None => World::with(Source::Embedded {
                tree: &BUILTIN_TEMPLATES,
                prefix: PathBuf::new(),
                shown: PathBuf::from("templates"),
            }),
        }
    }

    /// The root as diagnostics show it.
    pub fn root(&self) -> &Path {
        match &self.source {
            Source::Disk { root, .. } => root,
            Source::Embedded { shown, .. } => shown,
        }
    }

    /// The folder on disk, with symlinks resolved; `None` for an embedded world.
    pub fn disk_root(&self) -> Option<&Path> {
        match &self.source {
            Source::Disk { real, .. } => real.as_deref(),
            Source::Embedded { .. } => None,
        }
    }

    /// Whether two worlds are the same folder.
    pub fn same_as(&self, other: &World) -> bool {
        self.root() == other.root()
    }

    /// A sub-folder (a game among the built-ins, an entry of the templates) as a world
    /// of its own, which cannot read its siblings.
    pub fn sub(&self, name: &str) -> Option<World> {
        let rel = plain(name).ok()?;
        match &self.source {
            Source::Disk { root, real } => {
                let real_sub = real.as_ref().and_then(|r| r.join(&rel).canonicalize().ok())?;
                // A symlinked sub-folder pointing elsewhere is not part of this world.
                real_sub.starts_with(real.as_ref()?).then(|| World {
                    limits: self.limits.clone(),
                    ..World::with(Source::Disk { root: root.join(&rel), real: Some(real_sub) })
                })
            }
            Source::Embedded { tree, prefix, shown } => {
                let prefix = prefix.join(&rel);
                tree.get_dir(&prefix)?;
                Some(World {
                    limits: self.limits.clone(),
                    ..World::with(Source::Embedded { tree, prefix, shown: shown.join(&rel) })
                })
            }
        }
    }

    /// The path shown to users in diagnostics: root joined with the relative path.
    pub fn display_path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// Reads a file given relative to the root, once: later reads share the bytes.
    pub fn read_bytes(&self, rel: &str) -> Result<Arc<Vec<u8>>, ReadError> {
        let key = plain(rel)?;
        let key = key.to_string_lossy().into_owned();
        if let Some(bytes) = self.cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(bytes);
        }
        let bytes = Arc::new(self.read_fresh(&key)?);
        // Two cores may have read it at once: the first copy kept is the one every reader
        // gets, so that whatever is keyed by the bytes' address (a decoded image in the
        // PDF writer) is made once.
        match self.cache.lock() {
            Ok(mut cache) => Ok(cache.entry(key).or_insert(bytes).clone()),
            Err(_) => Ok(bytes),
        }
    }

    /// Reads a UTF-8 file given relative to the root. Not kept: its reader keeps the text
    /// it needs (a 100,000-card rows file was held twice for the whole build).
    pub fn read_text(&self, rel: &str) -> Result<String, ReadError> {
        let key = plain(rel)?;
        let key = key.to_string_lossy().into_owned();
        let bytes = match self.cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            Some(bytes) => bytes.to_vec(),
            None => self.read_fresh(&key)?,
        };
        String::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)
    }

    /// The bytes of the file `key` (a plain relative path), read now.
    fn read_fresh(&self, key: &str) -> Result<Vec<u8>, ReadError> {
        match &self.source {
            Source::Disk { .. } => {
                let path = self.locate(key)?;
                read_regular(&path, MAX_FILE_BYTES)
            }
            Source::Embedded { tree, prefix, .. } => {
                Ok(tree.get_file(prefix.join(key)).ok_or(ReadError::NotFound)?.contents().to_vec())
            }
        }
    }

    /// Whether `rel` names a readable file of this world.
    pub fn is_file(&self, rel: &str) -> bool {
        match &self.source {
            Source::Disk { .. } => plain(rel)
                .ok()
                .and_then(|p| self.locate(&p.to_string_lossy()).ok())
                .is_some_and(|p| p.is_file()),
            Source::Embedded { tree, prefix, .. } => {
                plain(rel).ok().is_some_and(|p| tree.get_file(prefix.join(p)).is_some())
            }
        }
    }

    /// Files directly inside the folder `rel` ("" for the root), as root-relative paths,
    /// sorted: for font folders and "did you mean" hints. Symlinks leading outside are
    /// left out.
    pub fn files_in(&self, rel: &str) -> Vec<String> {
        let mut names = self.entries_in(rel, Entries::Files);
        names.sort();
        names
    }

    /// Everything directly inside the folder `rel` that is not a folder of this world,
    /// sorted: its files, and what only looks like one (a pipe, a device, a symlink
    /// leading outside), for a reader that must say why it does not read one rather than
    /// leave it out unsaid (a pipe in `fonts/`: tests/stranger/pipes-devices/font).
    pub fn non_folders_in(&self, rel: &str) -> Vec<String> {
        let mut names = self.entries_in(rel, Entries::NotFolders);
        names.sort();
        names
    }

    /// Whether `rel` is a symlink (or lies under one) leading outside the catalogue.
    pub fn links_outside(&self, rel: &str) -> bool {
        plain(rel).is_ok_and(|p| {
            matches!(self.locate(&p.to_string_lossy()), Err(ReadError::LinksOutside))
        })
    }

    /// Files, sub-folders or anything but sub-folders directly inside `rel`,
    /// root-relative.
    fn entries_in(&self, rel: &str, wanted: Entries) -> Vec<String> {
        let folders = wanted == Entries::Folders;
        let prefix = if rel.is_empty() { PathBuf::new() } else { plain(rel).unwrap_or_default() };
        match &self.source {
            // The folder itself is checked before it is listed: a symlinked folder that
            // leads outside is never opened.
            Source::Disk { .. } => (if prefix.as_os_str().is_empty() {
                self.disk_root().map(Path::to_path_buf)
            } else {
                self.locate(&prefix.to_string_lossy()).ok().filter(|p| p.is_dir())
            })
            .and_then(|folder| std::fs::read_dir(folder).ok())
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .map(|name| join_rel(&prefix, &name))
            .filter(|rel| {
                let found = self.locate(rel);
                match wanted {
                    Entries::Files => found.is_ok_and(|p| p.is_file()),
                    Entries::Folders => found.is_ok_and(|p| p.is_dir()),
                    Entries::NotFolders => !found.is_ok_and(|p| p.is_dir()),
                }
            })
            .collect(),
            Source::Embedded { tree, prefix: own, .. } => {
                let folder = own.join(&prefix);
                let dir =
                    if folder.as_os_str().is_empty() { Some(*tree) } else { tree.get_dir(&folder) };
                let name = |p: &Path| {
                    join_rel(&prefix, &p.file_name().unwrap_or_default().to_string_lossy())
                };
                match dir {
                    Some(d) if folders => d.dirs().map(|d| name(d.path())).collect(),
                    Some(d) => d.files().map(|f| name(f.path())).collect(),
                    None => Vec::new(),
                }
            }
        }
    }

    /// The file of this world whose name is closest to `rel`'s, in the same folder: for
    /// "did you mean" hints on a misspelt path.
    pub fn closest_file(&self, rel: &str) -> Option<String> {
        let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let name = name.to_lowercase();
        self.files_in(dir)
            .into_iter()
            .map(|f| {
                (strsim::levenshtein(&f.rsplit('/').next().unwrap_or(&f).to_lowercase(), &name), f)
            })
            .min_by_key(|(d, _)| *d)
            .filter(|(d, _)| *d <= 3.max(name.len() / 3))
            .map(|(_, f)| f)
    }

    /// Every file of this world, in every folder, as root-relative paths, sorted.
    pub fn all_files(&self) -> Vec<String> {
        let mut files = Vec::new();
        let mut folders = vec![String::new()];
        while let Some(folder) = folders.pop() {
            files.extend(self.files_in(&folder));
            folders.extend(self.entries_in(&folder, Entries::Folders));
        }
        files.sort();
        files
    }

    /// Names of the sub-folders that hold `file` (catalogues with a `game.toml`, shared
    /// decks with a `deck.toml`), sorted: for listings and "known values" hints.
    pub fn folders_with(&self, file: &str) -> Vec<String> {
        let mut names: Vec<String> = match &self.source {
            Source::Disk { root, .. } => std::fs::read_dir(root)
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|name| self.sub(name).is_some_and(|w| w.is_file(file)))
                .collect(),
            Source::Embedded { tree, prefix, .. } => {
                (if prefix.as_os_str().is_empty() { Some(*tree) } else { tree.get_dir(prefix) })
                    .into_iter()
                    .flat_map(|d| d.dirs())
                    .filter(|d| d.get_file(d.path().join(file)).is_some())
                    .filter_map(|d| Some(d.path().file_name()?.to_string_lossy().into_owned()))
                    .collect()
            }
        };
        names.sort();
        names
    }

    /// A path on disk inside the real root, with symlinks followed.
    fn locate(&self, rel: &str) -> Result<PathBuf, ReadError> {
        let Source::Disk { root, real } = &self.source else { return Err(ReadError::NotFound) };
        let real_root = real.as_ref().ok_or(ReadError::NotFound)?;
        let path = root.join(rel);
        let resolved = path.canonicalize().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::NotFound,
            _ => ReadError::Io(e),
        })?;
        if resolved.starts_with(real_root) {
            Ok(resolved)
        } else {
            Err(ReadError::LinksOutside)
        }
    }
}

/// What `World::entries_in` lists.
#[derive(Clone, Copy, PartialEq)]
enum Entries {
    Files,
    Folders,
    NotFolders,
}

/// The most an .svgz may inflate to: the largest file `World` reads.
const MAX_SVG_BYTES: u64 = MAX_FILE_BYTES;

/// An SVG file's text as its reader sees it: an .svgz inflated (at most to the size of
/// any file deckpress reads), and refused when it declares a DOCTYPE or entities, whose
/// expansion can exhaust memory. The check reads the inflated text, not the gzip bytes.
pub fn plain_svg(data: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, String> {
    use std::io::Read;
    let text: std::borrow::Cow<[u8]> = if data.starts_with(&[0x1f, 0x8b]) {
        let mut inflated = Vec::new();
        flate2::read::GzDecoder::new(data)
            .take(MAX_SVG_BYTES + 1)
            .read_to_end(&mut inflated)
            .map_err(|e| format!("the .svgz cannot be inflated: {e}"))?;
        if inflated.len() as u64 > MAX_SVG_BYTES {
            return Err(format!(
                "the .svgz inflates to more than {} MB, more than deckpress reads",
                MAX_SVG_BYTES >> 20
            ));
        }
        inflated.into()
    } else {
        data.into()
    };
    if declares_entities(&String::from_utf8_lossy(&text)) {
        return Err(
            "SVG art with a DOCTYPE or entities is refused (entity expansion can exhaust memory)"
                .to_string(),
        );
    }
    Ok(text)
}

/// Whether an SVG's text declares a DOCTYPE or entities: usvg expands entities, and a few
/// nested ones make gigabytes ("billion laughs").
pub fn declares_entities(svg: &str) -> bool {
    svg.contains("<!ENTITY") || svg.contains("<!DOCTYPE")
}

/// The bytes of the regular file at `path`, at most `limit` of them. Whether it is a
/// regular file is asked before it is opened (opening a FIFO waits for a writer), and
/// again of the file opened, in case it was swapped meanwhile; the read stops at the
/// limit whatever the file's size claimed.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let found = std::fs::metadata(path).map_err(ReadError::Io)?;
    if !found.is_file() {
        return Err(ReadError::NotAFile);
    }
    if found.len() > limit {
        return Err(ReadError::TooLarge(found.len()));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(ReadError::Io)?;
    let opened = file.metadata().map_err(ReadError::Io)?;
    if !opened.is_file() {
        return Err(ReadError::NotAFile);
    }
    let mut bytes = Vec::with_capacity(opened.len().min(limit) as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

fn join_rel(prefix: &Path, name: &str) -> String {
    prefix.join(name).to_string_lossy().replace('\\', "/")
}

/// A relative path with only plain components (`./` dropped), or `Escapes`.
fn plain(rel: &str) -> Result<PathBuf, ReadError> {
    if rel.contains(':') || rel.contains('\\') || rel.is_empty() {
        return Err(ReadError::Escapes); // file:, http:, C:\ — never followed
    }
    let mut out = PathBuf::new();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return Err(ReadError::Escapes),
        }
    }
    if out.as_os_str().is_empty() {
        return Err(ReadError::Escapes);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_that_escape_the_root() {
        let world = World::new(concat!(env!("CARGO_MANIFEST_DIR"), "/catalogues/travfuda"));
        for bad in
            ["../x.svg", "/etc/passwd", "a/../../b", "file:x.svg", "http://x/y.svg", "", "..\\x"]
        {
            assert!(matches!(world.read_bytes(bad), Err(ReadError::Escapes)), "{bad}");
        }
        assert!(world.read_text("./templates/face.svg").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_that_lead_outside() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("inner")).unwrap();
        std::fs::write(dir.path().join("inner/ok.txt"), "ok").unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.txt"),
            dir.path().join("file-link.txt"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("folder-link")).unwrap();
        std::os::unix::fs::symlink(
            dir.path().join("inner/ok.txt"),
            dir.path().join("inside-link.txt"),
        )
        .unwrap();
        let world = World::new(dir.path());
        assert!(matches!(world.read_text("file-link.txt"), Err(ReadError::LinksOutside)));
        assert!(matches!(world.read_text("folder-link/secret.txt"), Err(ReadError::LinksOutside)));
        assert_eq!(world.read_text("inside-link.txt").unwrap(), "ok");
        assert!(world.sub("folder-link").is_none());
        assert_eq!(world.files_in(""), vec!["inside-link.txt".to_string()]);
    }

    #[test]
    fn embedded_games_read_like_folders() {
        let games = World::with(Source::Embedded {
            tree: &BUILTIN_CATALOGUES,
            prefix: PathBuf::new(),
            shown: PathBuf::from("catalogues"),
        });
        assert!(games.folders_with("game.toml").contains(&"travfuda".to_string()));
        let travfuda = games.sub("travfuda").unwrap();
        assert!(travfuda.read_text("game.toml").unwrap().contains("TravFuda"));
        assert!(travfuda.files_in("templates").contains(&"templates/face.svg".to_string()));
        assert!(matches!(travfuda.read_text("../trash/game.toml"), Err(ReadError::Escapes)));
        assert_eq!(
            travfuda.display_path("game.toml"),
            PathBuf::from("catalogues/travfuda/game.toml")
        );
    }
}
