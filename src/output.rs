//! Writing outputs atomically: each file is written beside its target and renamed into
//! place, so a failed or interrupted build never leaves a truncated PDF and never
//! destroys the previous one.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    stage(path, bytes)?.commit()
}

/// `write_atomic` without waiting for the disk: for previews, drawn anew on every save of
/// `watch` and thousands at a time, where a sync per file was a third of the time. A
/// crash can lose the newest picture, never leave half of one.
pub fn write_atomic_unsynced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    staged(path, bytes, false)?.commit()
}

/// A file written beside its target, put in place by `commit`; dropped uncommitted, it
/// is removed. Files that must appear together (a deck's sheets and the saved object
/// naming them) are staged one by one as they are made, then committed: only one
/// file's bytes are in memory at a time, and a failure half-way leaves the old ones.
pub struct Staged {
    tmp: tempfile::TempPath,
    path: std::path::PathBuf,
    /// The folders made for it and the files staged with it: dropped after `tmp`.
    _folders: Option<Arc<Folders>>,
    /// Its bytes being synced to the disk, on a thread of their own: the build goes on
    /// meanwhile (the next file, the manifest), and `commit` waits.
    syncing: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

/// The folders made to stage a game's files in, removed again once the last of its files
/// is gone uncommitted: a build that fails leaves no folder behind either. Only empty
/// folders are removed, so a committed file keeps its own.
#[derive(Default)]
pub struct Folders(Mutex<Vec<PathBuf>>);

impl Folders {
    /// Makes `dir` and the folders above it that are missing, remembering them.
    fn create(&self, dir: &Path) -> std::io::Result<()> {
        let missing: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        // Once more if another game's failed build removed a folder on the way.
        std::fs::create_dir_all(dir).or_else(|_| std::fs::create_dir_all(dir))?;
        if let Ok(mut made) = self.0.lock() {
            made.extend(missing);
        }
        Ok(())
    }
}

impl Drop for Folders {
    fn drop(&mut self) {
        let mut made = std::mem::take(self.0.get_mut().unwrap_or_else(|e| e.into_inner()));
        made.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for dir in made {
            let _ = std::fs::remove_dir(dir); // fails, as it should, when a file is in it
        }
    }
}

impl Staged {
    /// Puts the file in place, once its bytes are on the disk.
    pub fn commit(mut self) -> std::io::Result<()> {
        if let Some(syncing) = self.syncing.take() {
            syncing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        }
        self.tmp.persist(&self.path).map_err(|e| e.error)
    }

    /// Where the file goes.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Writes `bytes` to a temporary file beside `path`, to be committed later.
pub fn stage(path: &Path, bytes: &[u8]) -> std::io::Result<Staged> {
    staged(path, bytes, true)
}

/// `stage`, with the bytes synced to the disk before the file can be committed when `durable`.
fn staged(path: &Path, bytes: &[u8], durable: bool) -> std::io::Result<Staged> {
    staged_with(path, durable, None, |out| out.write_all(bytes))
}

/// `stage` for a file written piece by piece by `write`, never whole in memory, which it
/// may also read and seek in (a PDF, which krilla reads again for its id): unbuffered,
/// the writer buffers. The folders it needs are made in `folders`.
pub fn stage_file(
    path: &Path,
    folders: &Arc<Folders>,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<Staged> {
    staged_file(path, true, Some(folders), write)
}

fn staged_with(
    path: &Path,
    durable: bool,
    folders: Option<&Arc<Folders>>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<Staged> {
    staged_file(path, durable, folders, |file| {
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        out.flush()
    })
}

fn staged_file(
    path: &Path,
    durable: bool,
    folders: Option<&Arc<Folders>>,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
) -> std::io::Result<Staged> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match folders {
        Some(folders) => folders.create(dir)?,
        None => std::fs::create_dir_all(dir)?,
    }
    let mut builder = tempfile::Builder::new();
    builder.prefix(".deckpress-").suffix(".tmp");
    #[cfg(unix)]
    {
        // Temporary files are private (0600); a finished PDF is an ordinary file.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = match builder.tempfile_in(dir) {
        // Another game's failed build removed a folder this one had just found there.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && folders.is_some() => {
            folders.into_iter().try_for_each(|f| f.create(dir))?;
            builder.tempfile_in(dir)?
        }
        made => made?,
    };
    write(tmp.as_file_mut())?;
    let syncing = match durable {
        true => sync_in_background(tmp.as_file())?,
        false => None,
    };
    Ok(Staged {
        tmp: tmp.into_temp_path(),
        path: path.to_path_buf(),
        _folders: folders.cloned(),
        syncing,
    })
}

/// `file` synced to the disk on a thread of its own; synced here, and `None`, when no
/// thread can be started.
fn sync_in_background(
    file: &std::fs::File,
) -> std::io::Result<Option<std::thread::JoinHandle<std::io::Result<()>>>> {
    let handle = file.try_clone()?;
    match std::thread::Builder::new().name("sync".into()).spawn(move || handle.sync_all()) {
        Ok(syncing) => Ok(Some(syncing)),
        Err(_) => file.sync_all().map(|()| None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_game_leaves_no_folder_and_a_built_one_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let folders = Arc::new(Folders::default());
        let staged = [
            stage_file(&out.join("game/a.pdf"), &folders, |w| w.write_all(b"a")).unwrap(),
            stage_file(&out.join("game/b.json"), &folders, |w| w.write_all(b"b")).unwrap(),
        ];
        drop(folders);
        drop(staged);
        assert!(!out.exists(), "the folders made for a failed game are removed");
        let folders = Arc::new(Folders::default());
        let staged = stage_file(&out.join("game/a.pdf"), &folders, |w| w.write_all(b"a")).unwrap();
        drop(folders);
        staged.commit().unwrap();
        assert_eq!(std::fs::read(out.join("game/a.pdf")).unwrap(), b"a");
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/deck.pdf");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("deck.pdf")]);
    }

    #[test]
    fn staged_files_appear_on_commit_and_vanish_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let (kept, dropped) = (dir.path().join("a.png"), dir.path().join("b.png"));
        let a = stage(&kept, b"a").unwrap();
        let b = stage(&dropped, b"b").unwrap();
        assert!(!kept.exists() && !dropped.exists(), "nothing in place before commit");
        a.commit().unwrap();
        drop(b);
        assert_eq!(std::fs::read(&kept).unwrap(), b"a");
        let names: Vec<_> =
            std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.png")], "no temporary left");
    }
}

/// The longest name `slug` makes, in bytes: with a row number before it and `-front.png`
/// after it, a name stays well inside the 255 bytes every file system takes.
pub const SLUG_MAX: usize = 96;

/// A file name for an id from a CSV cell: letters, digits, `-`, `_` and `.` kept, anything
/// else (`/`, spaces, `..`, control characters) made `_`, so no id can write outside its
/// folder; an id longer than `SLUG_MAX` is cut and given a fingerprint of the whole, so
/// two long ids stay two names and no name is too long for the file system.
pub fn slug(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .collect();
    let s = s.trim_start_matches('.');
    if s.is_empty() {
        return "_".to_string();
    }
    if s.len() <= SLUG_MAX {
        return s.to_string();
    }
    let tag = format!("~{:016x}", fingerprint([id]));
    format!("{}{tag}", &s[..SLUG_MAX - tag.len()])
}

/// `out` joined with `name`, a path made by deckpress from ids: the one door out. Every
/// file a build writes goes through it, and `validate` asks it the same question, so an
/// id that `validate` passes always builds. `name` must stay below `out`: no `..`, no
/// root, no part longer than a file system takes.
pub fn inside(out: &Path, name: &Path) -> Result<PathBuf, String> {
    use std::path::Component;
    for part in name.components() {
        match part {
            Component::Normal(p) if p.len() <= 255 => {}
            Component::Normal(p) => {
                return Err(format!(
                    "the file name `{}` is {} bytes long, more than the 255 a file system takes",
                    p.to_string_lossy(),
                    p.len()
                ))
            }
            _ => {
                return Err(format!(
                    "`{}` would be written outside the output folder {}",
                    name.display(),
                    out.display()
                ))
            }
        }
    }
    Ok(out.join(name))
}

/// Unique file names within one folder, also on case-insensitive file systems.
#[derive(Default)]
pub struct Slugs(HashSet<String>);

impl Slugs {
    pub fn make(&mut self, id: &str) -> String {
        let base = slug(id);
        let mut name = base.clone();
        let mut n = 2;
        while !self.0.insert(name.to_lowercase()) {
            name = format!("{base}~{n}");
            n += 1;
        }
        name
    }
}

/// FNV-1a over the parts: a fingerprint that stays the same across Rust versions, used in
/// image URLs (`?v=`) so a browser reloads exactly the images that changed.
pub fn fingerprint<'a>(parts: impl IntoIterator<Item = &'a str>) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// FNV-1a over bytes (an art file's, for the manifest's fingerprints).
pub fn fingerprint_bytes(bytes: &[u8]) -> u64 {
    pixels::fnv_bytes(bytes)
}

#[cfg(test)]
mod slug_tests {
    use super::*;

    #[test]
    fn ids_become_safe_distinct_file_names() {
        let mut slugs = Slugs::default();
        assert_eq!(slugs.make("1-plain"), "1-plain");
        assert_eq!(slugs.make("../../etc/passwd"), "_.._etc_passwd");
        assert_eq!(slugs.make("a b"), "a_b");
        assert_eq!(slugs.make("a/b"), "a_b~2");
        assert_eq!(slugs.make("A_B"), "A_B~3");
        assert_eq!(slugs.make(".."), "_");
    }

    #[test]
    fn long_ids_are_cut_to_names_a_file_system_takes_and_stay_distinct() {
        let (a, b) = ("x".repeat(250) + "a", "x".repeat(250) + "b");
        let (sa, sb) = (slug(&a), slug(&b));
        assert!(sa.len() <= SLUG_MAX && sb.len() <= SLUG_MAX, "{sa}");
        assert_ne!(sa, sb);
    }

    #[test]
    fn nothing_gets_out_of_the_output_folder() {
        let out = Path::new("/tmp/out");
        assert_eq!(inside(out, Path::new("game/a.pdf")).unwrap(), out.join("game/a.pdf"));
        for bad in ["../a.pdf", "game/../../a.pdf", "/etc/passwd", "game/./../x"] {
            assert!(inside(out, Path::new(bad)).is_err(), "{bad} is let out");
        }
        assert!(inside(out, Path::new(&"y".repeat(256))).unwrap_err().contains("255"));
    }
}
