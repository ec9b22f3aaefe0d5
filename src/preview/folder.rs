//! The preview folder across builds: an earlier preview's pictures kept for
//! `--changed-since` and compared with the new ones, and the pictures a game no longer has
//! removed.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::gallery;
use super::proof_file;
use super::snapshot::Snapshot;
use crate::diag::Failure;

/// The largest earlier picture `--changed-since` copies: a 600 dpi board is far smaller.
const MAX_PICTURE_BYTES: u64 = 256 << 20;

/// Where the previous pictures are kept for `--changed-since`: `before/` in the gallery.
const BEFORE: &str = "before";

/// Copies the previous preview's pictures of this game (those the new one will draw)
/// into `before/`, before drawing overwrites them; returns where they came from.
pub(super) fn keep_before(path: &Path, snap: &Snapshot, dir: &Path) -> Result<PathBuf, Failure> {
    let folder = dir.file_name().map(PathBuf::from).unwrap_or_else(|| PathBuf::from("preview"));
    let old = [path.join(&snap.id).join(&folder), path.join(&folder), path.to_path_buf()]
        .into_iter()
        .find(|p| p.join(crate::services::PREVIEW.gallery).is_file())
        .ok_or_else(|| {
            Failure::Io(format!(
                "no previous preview at {}: give the output folder of an earlier `deckpress preview` (it holds {}/{}/index.html)",
                path.display(),
                snap.id,
                folder.display()
            ))
        })?;
    let before = dir.join(BEFORE);
    let _ = std::fs::remove_dir_all(&before);
    // Box flats and label sheets are drawn last, into `sheets/`: keep its pictures. An
    // earlier preview folder is anyone's: only its own regular files are copied, never
    // what a link in it leads to, and none larger than a picture of ours can be.
    let own = |p: &Path| std::fs::symlink_metadata(p).ok();
    let sheets = old.join("sheets");
    let flats = own(&sheets)
        .filter(|m| m.is_dir())
        .and_then(|_| std::fs::read_dir(&sheets).ok())
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".png") && crate::output::slug(name) == *name)
        .map(|name| format!("sheets/{name}"));
    let files: Vec<String> = snap.pictures().map(|p| p.file.clone()).chain(flats).collect();
    for file in &files {
        let from = old.join(file);
        let inside_old = from.parent().and_then(own).is_some_and(|m| m.is_dir());
        if !inside_old || !own(&from).is_some_and(|m| m.is_file()) {
            continue;
        }
        let Ok(bytes) = crate::world::read_regular(&from, MAX_PICTURE_BYTES) else { continue };
        let to = before.join(file);
        if let Some(parent) = to.parent() {
            crate::output::create_dir(parent)
                .map_err(|e| Failure::Io(format!("cannot create {}: {e}", parent.display())))?;
        }
        std::fs::write(&to, bytes)
            .map_err(|e| Failure::Io(format!("cannot copy {}: {e}", from.display())))?;
    }
    Ok(old)
}

/// The pictures drawn differently from those kept in `before/` (or new): kept there
/// for the gallery to show side by side; the unchanged ones' copies are removed.
pub(super) fn compare_before(
    old: &Path,
    snap: &Snapshot,
    dir: &Path,
    dpi: u32,
) -> Result<gallery::Changes, Failure> {
    let before = dir.join(BEFORE);
    let mut cards = Vec::new();
    for picture in snap.pictures().filter(|p| p.art.is_some()) {
        let (now, then) = (dir.join(&picture.file), before.join(&picture.file));
        let Ok(new_bytes) = std::fs::read(&now) else { continue };
        let previous = std::fs::read(&then).ok();
        if previous.as_deref() == Some(new_bytes.as_slice()) {
            let _ = std::fs::remove_file(&then);
            continue;
        }
        let (w, h) = picture.pixels(dpi)?;
        let width = 160u32;
        cards.push(gallery::Changed {
            label: picture.id.clone(),
            before: previous.map(|_| format!("{BEFORE}/{}", picture.file)),
            after: picture.file.clone(),
            size: (width, (width as f32 * h as f32 / w.max(1) as f32).round() as u32),
        });
    }
    Ok(gallery::Changes { since: old.display().to_string(), cards })
}

/// Removes the PNGs of cards that are gone (renamed in the CSV) or can no longer be drawn,
/// and contact sheets a deck no longer has, so the folder holds exactly the deck's cards.
pub(super) fn remove_stale(dir: &Path, snap: &Snapshot) {
    if !snap.loaded {
        return; // a catalogue that did not load says nothing about which pictures are gone
    }
    let folders = snap.decks.iter().map(|d| dir.join(&d.slug)).chain([dir.join("sheets")]);
    let current: HashSet<PathBuf> = snap
        .pictures()
        .filter(|p| p.art.is_some())
        .flat_map(|p| [dir.join(&p.file), dir.join(proof_file(&p.file))])
        .collect();
    crate::output::remove_pngs_but(folders, &current);
    // `<deck>-contact.png` and `<deck>-contact-N.png` beside the deck folders.
    let contact: HashSet<&str> =
        snap.decks.iter().flat_map(|d| &d.contact).map(String::as_str).collect();
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = snap.decks.iter().any(|d| {
            name.strip_prefix(&d.slug)
                .and_then(|rest| rest.strip_prefix("-contact"))
                .and_then(|rest| rest.strip_suffix(".png"))
                .is_some_and(|n| {
                    n.is_empty()
                        || n.strip_prefix('-')
                            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                })
        });
        if ours && !contact.contains(name.as_str()) {
            // Best effort: a file we cannot remove is only clutter, never wrong output.
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
