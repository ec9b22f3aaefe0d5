//! Previews of pages made of several pieces: each box's flat and each label sheet's first
//! page, planned by `plan::pictures` and drawn by the one executor's raster sink, for the
//! gallery beside the boards and pads.
//!
//! The executor draws a `Validated` game, and only `validate` makes one: a catalogue that
//! breaks its rules (or a valid one with a piece that cannot be drawn, which the executor
//! refuses whole) still gets the same planned pages, drawn here with the pieces that could
//! be, so that a designer sees everything that can be seen.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Failure, Grouped};
use crate::layout::ArtRef;
use crate::length::Length;
use crate::limits::Limits;
use crate::model::{Catalogue, Shape};
use crate::plan::pictures::{page_pictures, PagePicture};
use crate::plan::pictures::{Picture, Which};
use crate::plan::{Checked, Context, Drawn, Executor, Plan, Sink};
use crate::validate::Validated;

/// Pictures of whole pages are drawn at this resolution.
const DPI: u32 = 100;

/// Where a game's page pictures go: `out` the output folder, `dir` the preview folder in it.
pub(super) struct Folders<'a> {
    pub(super) out: &'a Path,
    pub(super) dir: &'a Path,
}

/// Draws every box flat and label sheet of the game into `dir/sheets/`: their pictures,
/// and the problems met drawing their pieces in `problems`.
pub(super) fn draw(
    checked: &Checked,
    into: Folders,
    slugs: &mut crate::output::Slugs,
    limits: &Limits,
    problems: &mut Grouped,
) -> Result<Vec<Picture>, Failure> {
    let cat = checked.catalogue();
    let planned = page_pictures(cat, slugs);
    if planned.is_empty() {
        return Ok(Vec::new());
    }
    let folder = into.dir.strip_prefix(into.out).unwrap_or(into.dir);
    let drawn = match checked {
        Checked::Valid(validated) => {
            by_the_executor(validated, &planned, folder, limits, problems)?
        }
        Checked::Rejected { .. } => None,
    };
    let pngs = match drawn {
        Some(pngs) => pngs,
        None => from_the_catalogue(cat, &planned, problems)?,
    };
    planned.iter().zip(pngs).map(|(page, png)| save(into.dir, page, png)).collect()
}

/// The pages' PNGs, in order, drawn by `plan::execute`'s raster sink; `None` when a piece
/// could not be drawn.
fn by_the_executor(
    validated: &Validated,
    planned: &[PagePicture],
    folder: &Path,
    limits: &Limits,
    problems: &mut Grouped,
) -> Result<Option<Vec<Vec<u8>>>, Failure> {
    let job = super::picture_job(limits);
    let fits = vec![None; validated.catalogue().decks.len()];
    // In the catalogue's own language, as boxes and label sheets have always been previewed.
    let ctx = Context { job: &job, validated, fits: &fits, lang: None, press: None };
    let documents = planned.iter().map(|page| page.document(folder)).collect();
    let executor = Executor {
        ctx: &ctx,
        sink: &Sink::Raster { dpi: DPI, pictures: None },
        drawn: Drawn::Note(false),
    };
    let mut warnings = Vec::new();
    let done = match executor.run(&mut warnings, |_, _| Ok(Plan { documents, notes: Vec::new() })) {
        Ok(done) => done,
        Err(Failure::Invalid(..)) => return Ok(None),
        Err(e) => return Err(e),
    };
    // The game's own warnings are the gallery's already.
    problems.extend(warnings.into_iter().skip(validated.warnings().len()));
    let mut made: HashMap<PathBuf, Vec<u8>> = done.in_memory().collect();
    let pngs = planned.iter().map(|page| {
        let file = folder.join(&page.file);
        made.remove(&file).ok_or_else(|| Failure::Io(format!("{} was not drawn", file.display())))
    });
    pngs.collect::<Result<Vec<_>, _>>().map(Some)
}

/// The pages' PNGs, in order, drawn with the pieces of `cat` that could be drawn.
fn from_the_catalogue(
    cat: &Catalogue,
    planned: &[PagePicture],
    problems: &mut Grouped,
) -> Result<Vec<Vec<u8>>, Failure> {
    let mut box_faces: Option<Vec<Vec<Option<std::sync::Arc<usvg::Tree>>>>> = None;
    let mut pngs = Vec::new();
    for page in planned {
        let pixmap = if page.of_box {
            let faces = match &box_faces {
                Some(faces) => faces,
                None => box_faces.insert(boxes(cat, problems)?),
            };
            crate::plan::raster_page(
                &page.sheet,
                |art| match art {
                    ArtRef::BoxFace { b, face } => faces.get(b)?.get(face)?.as_deref(),
                    _ => None,
                },
                DPI as f32,
            )?
        } else {
            let trees = label_faces(cat, page, problems);
            crate::plan::raster_page(&page.sheet, |art| trees.get(&art).map(|t| &**t), DPI as f32)?
        };
        pngs.push(crate::export::raster::encode_fast(pixmap).map_err(Failure::Io)?);
    }
    Ok(pngs)
}

/// The faces of every box, `None` where one could not be drawn.
fn boxes(
    cat: &Catalogue,
    problems: &mut Grouped,
) -> Result<Vec<Vec<Option<std::sync::Arc<usvg::Tree>>>>, Failure> {
    let mut diags = Vec::new();
    let faces = match crate::render::render_boxes(cat, (None, false), &mut diags) {
        Ok(faces) => faces,
        Err(Failure::Invalid(found, _)) => {
            problems.extend(found);
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    problems.extend(diags);
    Ok(faces)
}

/// The trees of the labels on a label sheet's page.
fn label_faces(
    cat: &Catalogue,
    page: &PagePicture,
    problems: &mut Grouped,
) -> HashMap<ArtRef, std::sync::Arc<usvg::Tree>> {
    let mut rows = vec![Vec::new(); cat.decks.len()];
    for placed in &page.sheet.items {
        if let ArtRef::Face { deck, row } = placed.art {
            rows[deck].push(row);
        }
    }
    let drawn = crate::render::pieces(
        cat,
        &crate::render::Request {
            wanted: &|_, _| false,
            rows: Some(&rows),
            back_rows: None,
            shared_back: &|_| false,
            sheet_sizes: None,
            players: 1,
            lang: None,
            drawn_before: None,
        },
    );
    problems.extend(drawn.problems);
    drawn
        .decks
        .into_iter()
        .enumerate()
        .flat_map(|(d, pieces)| pieces.faces.into_iter().map(move |(row, piece)| (d, row, piece)))
        .filter_map(|(deck, row, piece)| Some((ArtRef::Face { deck, row }, piece.tree?)))
        .collect()
}

/// Writes a page's PNG and says what the gallery shows of it.
fn save(dir: &Path, page: &PagePicture, png: Vec<u8>) -> Result<Picture, Failure> {
    crate::output::write_preview(&dir.join(&page.file), &png)?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&png, &mut hasher);
    Ok(Picture {
        id: page.id.clone(),
        label: page.label.clone(),
        count: None,
        file: page.file.clone(),
        size: (page.sheet.width, page.sheet.height),
        thumb: None,
        which: Which::Sheet,
        art: Some(std::hash::Hasher::finish(&hasher)),
        shape: Shape::Rect,
        corner: Length::ZERO,
        moved: Vec::new(),
    })
}
