//! Writing outputs atomically: each file is written beside its target and renamed into
//! place, so a failed or interrupted build never leaves a truncated PDF and never
//! destroys the previous one.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The writers' locks of folders with nothing staged in them any more let go, their lock
/// files removed: at the end of a run (and of each of `watch`'s).
pub fn let_go_locks() {
    held::let_go();
}

/// The output folders of this run (`--out`): below them, nothing is written through a
/// symbolic link. A game folder, its `preview/`, a service's PNG folder or `tts/` made a
/// link by a stranger sent a build's files wherever it pointed.
static ROOTS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Says that this run writes below `out`: from now on a link inside it is an error.
pub fn writes_under(out: &Path) {
    ROOTS.lock().unwrap_or_else(|e| e.into_inner()).push(out.to_path_buf());
}

/// `Err` naming the first part of `dir` below an output folder that is a symbolic link
/// (checked on the file system, before anything is made or written there).
pub fn no_link(dir: &Path) -> std::io::Result<()> {
    let roots = ROOTS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for root in roots.iter().filter(|r| dir.starts_with(r)) {
        let mut at = root.clone();
        for part in dir.strip_prefix(root).into_iter().flat_map(Path::components) {
            at.push(part);
            match std::fs::symlink_metadata(&at) {
                Ok(found) if found.file_type().is_symlink() => {
                    return Err(std::io::Error::other(format!(
                        "{} is a symbolic link inside the output folder {}: deckpress writes through no link (remove it, and a real folder is made)",
                        at.display(),
                        root.display()
                    )))
                }
                Ok(_) => {}
                Err(_) => break, // not made yet: it will be a real folder
            }
        }
    }
    Ok(())
}

/// `create_dir_all`, refusing to make it through a link inside an output folder.
pub fn create_dir(dir: &Path) -> std::io::Result<()> {
    no_link(dir)?;
    std::fs::create_dir_all(dir)
}

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
    /// `None` once committed.
    tmp: Option<tempfile::TempPath>,
    path: std::path::PathBuf,
    /// The folder whose writer's lock (`Held`) this file keeps taken.
    held: PathBuf,
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
        no_link(dir)?;
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
        // Our lock files would keep the folders made for a failed game.
        held::let_go();
        let mut made = std::mem::take(self.0.get_mut().unwrap_or_else(|e| e.into_inner()));
        made.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for dir in made {
            let _ = std::fs::remove_dir(dir); // fails, as it should, when a file is in it
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        // The temporary goes (or went, committed) before its writer's lock is let go.
        drop(self.tmp.take());
        held::release(&self.held);
    }
}

impl Staged {
    /// Puts the file in place, once its bytes are on the disk.
    pub fn commit(mut self) -> std::io::Result<()> {
        if let Some(syncing) = self.syncing.take() {
            syncing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        }
        match self.tmp.take() {
            Some(tmp) => tmp.persist(&self.path).map_err(|e| e.error),
            None => Ok(()),
        }
    }

    /// The temporary file, until it is committed.
    fn tmp(&self) -> &Path {
        self.tmp.as_deref().unwrap_or(&self.path)
    }

    /// Where the file goes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Waits until its bytes are on the disk.
    fn synced(&mut self) -> std::io::Result<()> {
        match self.syncing.take() {
            Some(syncing) => {
                syncing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            }
            None => Ok(()),
        }
    }
}

/// Every temporary file's name starts so: with the writer's token, which names the lock
/// its writer holds in the same folder (`held`), so that a later run can tell a killed
/// process's leftovers from those of a build still running.
fn temp_prefix() -> String {
    format!(".deckpress-{}-", held::token())
}

/// The writer's lock: while a process has files staged in a folder it holds an exclusive
/// lock on `.deckpress-<token>.lock` there, which the kernel lets go when it dies. Its
/// files' writer is alive exactly while that lock is taken: a process id in /proc was
/// still there for a moment after kill -9 (a build started at once kept the leftovers),
/// and meant nothing to another container sharing the folder. The token is the process
/// id and a random number: two containers' processes of one id are two writers.
mod held {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, OnceLock};

    /// The lock file of each folder with files of ours staged in it, and how many.
    static HELD: Mutex<Option<HashMap<PathBuf, (std::fs::File, usize)>>> = Mutex::new(None);

    pub fn token() -> &'static str {
        static TOKEN: OnceLock<String> = OnceLock::new();
        TOKEN.get_or_init(|| {
            use std::hash::{BuildHasher, Hasher};
            let mut random = std::collections::hash_map::RandomState::new().build_hasher();
            random.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            format!("{}x{:08x}", std::process::id(), random.finish() as u32)
        })
    }

    pub fn lock_file(dir: &Path, token: &str) -> PathBuf {
        dir.join(format!(".deckpress-{token}.lock"))
    }

    /// Takes (or counts one more file under) this process's lock in `dir`.
    pub fn take(dir: &Path) -> std::io::Result<()> {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        let held = held.get_or_insert_with(HashMap::new);
        if let Some((_, count)) = held.get_mut(dir) {
            *count += 1;
            return Ok(());
        }
        let path = lock_file(dir, token());
        loop {
            let file =
                std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path)?;
            file.lock()?;
            // Another run's repair may have found it not yet locked and removed it: then
            // the lock is on no file in the folder, and is taken again.
            if same_file(&file, &path) {
                held.insert(dir.to_path_buf(), (file, 1));
                return Ok(());
            }
        }
    }

    fn same_file(file: &std::fs::File, path: &Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (file.metadata(), std::fs::metadata(path)) {
                (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = file;
            path.exists()
        }
    }

    /// One file fewer under the lock in `dir`. The lock stays taken, for the next file
    /// staged there (a preview writes thousands, one at a time), until `let_go`.
    pub fn release(dir: &Path) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, count)) = held.as_mut().and_then(|h| h.get_mut(dir)) {
            *count = count.saturating_sub(1);
        }
    }

    /// Every lock with no file staged under it let go, its file removed.
    pub fn let_go() {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        let Some(held) = held.as_mut() else { return };
        held.retain(|dir, (_, count)| {
            if *count == 0 {
                let _ = std::fs::remove_file(lock_file(dir, token()));
            }
            *count > 0
        });
    }

    /// Whether the writer of token `token`, staging in `dir`, is gone: its lock file is
    /// missing or can be locked (the kernel let it go when the writer died).
    pub fn gone(dir: &Path, token: &str) -> bool {
        if token == self::token() {
            return false;
        }
        match std::fs::File::open(lock_file(dir, token)) {
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
            Ok(file) => file.try_lock().is_ok(),
        }
    }
}

/// The journal of a commit under way, in the game's folder: which staged file becomes
/// which, written before the first rename and removed after the last.
const JOURNAL: &str = ".deckpress-commit";
/// The lock file that lets one process at a time commit a game's files, where a folder
/// cannot be locked itself.
const LOCK: &str = ".deckpress-lock";

/// A game's output folder, held by this process while it puts a set of files in place.
/// A build killed half-way through its renames leaves its journal, and the next one
/// finishes them before anything else; a build killed while drawing leaves staged files,
/// and the next one removes them. So no kill leaves a game mixing two builds, nor
/// temporary files that stay, and two builds at once commit one after the other.
pub struct Commit {
    dir: PathBuf,
    /// Held (locked) for as long as the commit lives.
    _lock: std::fs::File,
}

impl Commit {
    /// Waits for any other process committing into `dir`, saying so at once and for at
    /// most `wait` seconds, then finishes the renames of a commit that a killed one began.
    pub fn begin(dir: &Path, wait: u64) -> std::io::Result<Commit> {
        create_dir(dir)?;
        // The folder itself is locked where it can be opened (Unix): no lock file is left.
        let lock = match std::fs::File::open(dir) {
            Ok(folder) if cfg!(unix) => folder,
            _ => std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(dir.join(LOCK))?,
        };
        if let Err(std::fs::TryLockError::WouldBlock) = lock.try_lock() {
            let holder = holder(&lock).map_or(String::new(), |pid| format!(" (process {pid})"));
            eprintln!(
                "deckpress: waiting for another build that holds {}{holder}, at most {wait} s (--limit lock-seconds=N)",
                dir.display()
            );
            let until = std::time::Instant::now() + std::time::Duration::from_secs(wait);
            loop {
                match lock.try_lock() {
                    Ok(()) => break,
                    Err(std::fs::TryLockError::WouldBlock)
                        if std::time::Instant::now() < until =>
                    {
                        std::thread::sleep(std::time::Duration::from_millis(50))
                    }
                    Err(std::fs::TryLockError::WouldBlock) => {
                        return Err(std::io::Error::other(format!(
                            "another build{holder} still holds the folder after {wait} s: run again when it is done, or wait longer with --limit lock-seconds=N"
                        )))
                    }
                    Err(std::fs::TryLockError::Error(e)) => return Err(e),
                }
            }
        }
        let commit = Commit { dir: dir.to_path_buf(), _lock: lock };
        commit.finish_journal()?;
        Ok(commit)
    }

    /// What a killed build left in `dir`, repaired (its commit finished, its temporary
    /// files removed) if the folder is there: done before a game is drawn, so that a build
    /// that then fails still leaves the folder clean.
    /// The folder is walked for them here only: a build that is killed while drawing
    /// leaves its temporaries to the next build's repair.
    pub fn repair(dir: &Path, wait: u64) -> std::io::Result<()> {
        if !dir.is_dir() {
            return Ok(());
        }
        let _held = Commit::begin(dir, wait)?;
        remove_orphans(dir);
        Ok(())
    }

    /// Puts every file in place as one set.
    pub fn all(&self, mut files: Vec<Staged>) -> std::io::Result<()> {
        let mut journal = String::new();
        for file in &mut files {
            file.synced()?;
            let (tmp, to) = (file.tmp().to_path_buf(), file.path.clone());
            // A file outside the game's folder (none, as files are named) is put in place
            // without the journal.
            if let (Ok(tmp), Ok(to)) = (tmp.strip_prefix(&self.dir), to.strip_prefix(&self.dir)) {
                let id = file_id(&std::fs::symlink_metadata(file.tmp())?);
                journal.push_str(&format!("{}\0{}\0{id}\n", tmp.display(), to.display()));
            }
        }
        // Kept from a kill by the page cache; the staged files themselves are synced.
        write_atomic_unsynced(&self.dir.join(JOURNAL), journal.as_bytes())?;
        for file in files {
            file.commit()?;
        }
        std::fs::remove_file(self.dir.join(JOURNAL))
    }

    /// The renames of a commit that was killed, done now: its staged files are complete
    /// (each was on the disk before the journal was written).
    fn finish_journal(&self) -> std::io::Result<()> {
        let journal = self.dir.join(JOURNAL);
        let Ok(found) = std::fs::symlink_metadata(&journal) else { return Ok(()) };
        // Ours is a plain file of a line a staged file: a pipe, a link or gigabytes by
        // that name are no journal of ours, never read (a pipe hung the build:
        // tests/stranger/faults/journal-fifo), and removed.
        let text = match found.is_file() {
            true => crate::world::read_regular(&journal, crate::world::MAX_FILE_BYTES).ok(),
            false => None,
        };
        let Some(text) = text.and_then(|bytes| String::from_utf8(bytes).ok()) else {
            return std::fs::remove_file(journal);
        };
        for line in text.lines() {
            let mut parts = line.split('\0');
            let (Some(tmp), Some(to), Some(id), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            // Only what `all` writes: a staged file of ours and its place, both below the
            // folder. A journal found in --out is data like any other: a line naming
            // `/etc/passwd` or `../../x` moved that file in, or out (tests/stranger/faults/
            // journal-garbage, journal-renames-out, journal-takes-from-outside).
            let staged_name = Path::new(tmp).file_name().map(|n| n.to_string_lossy());
            let ours =
                staged_name.is_some_and(|n| n.starts_with(".deckpress-") && n.ends_with(".tmp"));
            let (Ok(tmp), Ok(to)) =
                (inside(&self.dir, Path::new(tmp)), inside(&self.dir, Path::new(to)))
            else {
                continue;
            };
            // And the file system agrees, not only the text: no folder on either way is a
            // link (a planted one renamed a file out, or in), and the staged file is the
            // very file the journal's process staged (its inode), a plain file.
            let real_way = |p: &Path| {
                p.parent().is_some_and(|dir| {
                    dir.strip_prefix(&self.dir).is_ok_and(|rel| {
                        let mut at = self.dir.clone();
                        rel.components().all(|part| {
                            at.push(part);
                            std::fs::symlink_metadata(&at).is_ok_and(|m| m.is_dir())
                        })
                    })
                })
            };
            let same = std::fs::symlink_metadata(&tmp)
                .is_ok_and(|m| m.file_type().is_file() && file_id(&m) == id);
            // Done before the kill, or this line only: the temporary is gone.
            if ours && same && real_way(&tmp) && real_way(&to) {
                std::fs::rename(&tmp, &to)?;
            }
        }
        std::fs::remove_file(journal)
    }
}

/// The process holding a lock on `file`, where the system says (Linux's /proc/locks).
fn holder(file: &std::fs::File) -> Option<u32> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let ino = file.metadata().ok()?.ino();
        let locks = std::fs::read_to_string("/proc/locks").ok()?;
        locks.lines().find_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let at = fields.iter().position(|f| f.matches(':').count() == 2 && f.len() > 5)?;
            let found = fields[at].rsplit(':').next()?.parse::<u64>().ok()?;
            (found == ino).then(|| fields.get(at.checked_sub(1)?)?.parse().ok()).flatten()
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        None
    }
}

/// A file's identity on its file system (device and inode), as the journal records it.
fn file_id(found: &std::fs::Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        format!("{}:{}", found.dev(), found.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = found;
        String::from("-")
    }
}

/// Removes, under `dir`, the temporary files (and lock files) of writers that are gone.
fn remove_orphans(dir: &Path) {
    let mut todo = vec![dir.to_path_buf()];
    while let Some(folder) = todo.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            let name = entry.file_name().to_string_lossy().into_owned();
            if kind.is_dir() {
                todo.push(entry.path());
            } else if kind.is_file() && orphan(&folder, &name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Whether a temporary or lock file in `folder` is a gone writer's.
fn orphan(folder: &Path, name: &str) -> bool {
    let Some(rest) = name.strip_prefix(".deckpress-") else { return false };
    if let Some(token) = rest.strip_suffix(".lock") {
        return held::gone(folder, token);
    }
    if !name.ends_with(".tmp") {
        return false;
    }
    let Some(token) = rest.split('-').next().filter(|t| !t.is_empty()) else { return false };
    held::gone(folder, token)
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
        None => create_dir(dir)?,
    }
    held::take(dir)?;
    // Let go again if staging fails below.
    let release = ReleaseOnError(Some(dir.to_path_buf()));
    let mut builder = tempfile::Builder::new();
    let prefix = temp_prefix();
    builder.prefix(&prefix).suffix(".tmp");
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
        tmp: Some(tmp.into_temp_path()),
        path: path.to_path_buf(),
        held: release.keep(),
        _folders: folders.cloned(),
        syncing,
    })
}

/// A writer's lock taken for a file being staged, let go if the staging fails.
struct ReleaseOnError(Option<PathBuf>);

impl ReleaseOnError {
    fn keep(mut self) -> PathBuf {
        self.0.take().unwrap_or_default()
    }
}

impl Drop for ReleaseOnError {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            held::release(&dir);
        }
    }
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
    fn a_commit_killed_between_renames_is_finished_by_the_next_run() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("game");
        for name in ["a.pdf", "b.pdf"] {
            write_atomic(&game.join(name), b"old").unwrap();
        }
        let mut staged = vec![
            stage(&game.join("a.pdf"), b"new").unwrap(),
            stage(&game.join("b.pdf"), b"new").unwrap(),
        ];
        // What `Commit::all` does, killed after the first rename: the second temporary
        // stays on the disk, and so does the journal.
        let mut journal = String::new();
        for file in &mut staged {
            file.synced().unwrap();
            let tmp = file.tmp().strip_prefix(&game).unwrap().display().to_string();
            let to = file.path.strip_prefix(&game).unwrap().display().to_string();
            let id = file_id(&std::fs::symlink_metadata(file.tmp()).unwrap());
            journal.push_str(&format!("{tmp}\0{to}\0{id}\n"));
        }
        std::fs::write(game.join(JOURNAL), journal).unwrap();
        let mut second = staged.pop().unwrap();
        staged.pop().unwrap().commit().unwrap();
        second.tmp.take().unwrap().keep().unwrap();
        drop(second);
        let_go_locks();
        assert_eq!(std::fs::read(game.join("b.pdf")).unwrap(), b"old", "killed: a mixed set");
        drop(Commit::begin(&game, 1).unwrap());
        for name in ["a.pdf", "b.pdf"] {
            assert_eq!(std::fs::read(game.join(name)).unwrap(), b"new", "{name}");
        }
        let names: Vec<_> =
            std::fs::read_dir(&game).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "no journal or temporary left: {names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_journal_is_trusted_only_where_the_file_system_agrees() {
        let dir = tempfile::tempdir().unwrap();
        let (game, away) = (dir.path().join("game"), dir.path().join("away"));
        std::fs::create_dir_all(&away).unwrap();
        std::fs::create_dir_all(game.join("real")).unwrap();
        std::os::unix::fs::symlink(&away, game.join("link")).unwrap();
        let staged = |rel: &str| {
            std::fs::write(game.join(rel), b"x").unwrap();
            file_id(&std::fs::symlink_metadata(game.join(rel)).unwrap())
        };
        let a = staged(".deckpress-1-a.tmp");
        let b = staged(".deckpress-1-b.tmp");
        let c = staged("real/.deckpress-1-c.tmp");
        std::fs::write(away.join(".deckpress-1-d.tmp"), b"outside").unwrap();
        let d = file_id(&std::fs::symlink_metadata(away.join(".deckpress-1-d.tmp")).unwrap());
        let journal = format!(
            ".deckpress-1-a.tmp\0link/out.pdf\0{a}\n\
             .deckpress-1-b.tmp\0b.pdf\0{c}\n\
             link/.deckpress-1-d.tmp\0d.pdf\0{d}\n\
             real/.deckpress-1-c.tmp\0c.pdf\0{c}\n"
        );
        let _ = b;
        std::fs::write(game.join(JOURNAL), journal).unwrap();
        drop(Commit::begin(&game, 1).unwrap());
        assert!(!away.join("out.pdf").exists(), "renamed out through a link");
        assert!(!game.join("d.pdf").exists(), "taken in through a link");
        assert!(!game.join("b.pdf").exists(), "another file's identity");
        assert!(game.join("c.pdf").exists(), "the line the file system agrees with is done");
    }

    #[test]
    fn a_gone_writer_s_temporaries_are_removed_and_a_live_one_s_kept() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("game");
        std::fs::create_dir_all(game.join("deck")).unwrap();
        // An old name (a process id only, no lock file), a writer whose lock file is there
        // but no longer locked (killed), one that holds its lock, and ours.
        let old = game.join("deck/.deckpress-4194999-abc.tmp");
        let killed = game.join(".deckpress-88x1-abc.tmp");
        let other = game.join(".deckpress-77x1-abc.tmp");
        let ours = game.join(format!(".deckpress-{}-abc.tmp", held::token()));
        let plain = game.join("notes.tmp");
        for file in [&old, &killed, &other, &ours, &plain] {
            std::fs::write(file, b"x").unwrap();
        }
        std::fs::write(game.join(".deckpress-88x1.lock"), b"").unwrap();
        let holding = std::fs::File::create(game.join(".deckpress-77x1.lock")).unwrap();
        holding.lock().unwrap();
        Commit::repair(&game, 1).unwrap();
        assert!(!old.exists() && !killed.exists(), "a gone writer's files are removed");
        assert!(!game.join(".deckpress-88x1.lock").exists(), "and its lock file");
        assert!(other.exists() && ours.exists() && plain.exists());
        assert!(game.join(".deckpress-77x1.lock").exists());
        drop(holding);
        Commit::repair(&game, 1).unwrap();
        assert!(!other.exists(), "its lock let go, the writer is gone");
    }

    #[test]
    fn a_staged_file_holds_its_writer_s_lock_until_it_is_committed_or_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let lock = held::lock_file(dir.path(), held::token());
        let a = stage(&dir.path().join("a.pdf"), b"a").unwrap();
        let b = stage(&dir.path().join("b.pdf"), b"b").unwrap();
        let locked = || std::fs::File::open(&lock).map(|f| f.try_lock().is_err());
        assert!(locked().unwrap(), "held while files are staged");
        a.commit().unwrap();
        assert!(locked().unwrap(), "held while one is left");
        drop(b);
        assert!(locked().unwrap(), "kept for the next file");
        let_go_locks();
        assert!(!lock.exists(), "let go with no file staged");
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/deck.pdf");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let_go_locks();
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
        let_go_locks();
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

/// Removes the PNGs in `folders` that are not `current` (a card renamed in its CSV, a deck
/// removed), so that a preview's or a table's folders hold its pictures only. A folder
/// that is a link is left alone: nothing is removed where it leads. Best effort: a file
/// left behind is clutter, never wrong output.
pub fn remove_pngs_but(
    folders: impl IntoIterator<Item = PathBuf>,
    current: &std::collections::HashSet<PathBuf>,
) {
    for folder in folders {
        if !std::fs::symlink_metadata(&folder).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for path in entries.flatten().map(|e| e.path()) {
            if path.extension().is_some_and(|e| e == "png") && !current.contains(&path) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// A preview's file written by `write_atomic_unsynced`, a failure naming its path.
pub fn write_preview(path: &Path, bytes: &[u8]) -> Result<(), crate::diag::Failure> {
    write_atomic_unsynced(path, bytes).map_err(|e| cannot_write(path, e))
}

/// The error of a file that could not be written: an I/O failure (exit 2), with its path.
pub fn cannot_write(path: &Path, e: std::io::Error) -> crate::diag::Failure {
    crate::diag::Failure::Io(format!("cannot write {}: {e}", path.display()))
}
