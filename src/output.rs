//! Writing outputs atomically: each file is written beside its target and renamed into
//! place, so a failed or interrupted build never leaves a truncated PDF and never
//! destroys the previous one.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

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
}

impl Staged {
    pub fn commit(self) -> std::io::Result<()> {
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

/// `stage` for a file written piece by piece by `write` (buffered), never whole in memory.
pub fn stage_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<Staged> {
    staged_with(path, true, write)
}

/// `stage`, with the bytes synced to the disk before the file can be committed when `durable`.
fn staged(path: &Path, bytes: &[u8], durable: bool) -> std::io::Result<Staged> {
    staged_with(path, durable, |out| out.write_all(bytes))
}

fn staged_with(
    path: &Path,
    durable: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<Staged> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".deckpress-").suffix(".tmp");
    #[cfg(unix)]
    {
        // Temporary files are private (0600); a finished PDF is an ordinary file.
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    let mut out = std::io::BufWriter::new(tmp.as_file_mut());
    write(&mut out)?;
    out.flush()?;
    drop(out);
    if durable {
        tmp.as_file().sync_all()?;
    }
    Ok(Staged { tmp: tmp.into_temp_path(), path: path.to_path_buf() })
}

#[cfg(test)]
mod tests {
    use super::*;

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

/// A file name for an id from a CSV cell: letters, digits, `-`, `_` and `.` kept, anything
/// else (`/`, spaces, `..`) made `_`, so no id can write outside the preview folder.
pub fn slug(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .collect();
    let s = s.trim_start_matches('.');
    if s.is_empty() {
        "_".to_string()
    } else {
        s.to_string()
    }
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
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash: u64, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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
}
