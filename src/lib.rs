//! deckpress: card games described as data → validated, print-ready sheets.
//!
//! The pipeline: `cli` (argv → Args) → `commands` (Args → `job::Job`) → `driver` (runs
//! the stages for each game): `load` (files → Catalogue) → `validate` (→ Validated) →
//! `plan` (→ the documents the job makes, run by one executor) → `render` (templates →
//! SVG trees) → `layout` (→ Sheets) → `export` (→ PDF, PNG, cut, TTS bytes) → `output`
//! (the one door out); `preview` (and `watch`) runs a plan of pictures into the executor's
//! raster sink and writes the gallery of them; `bundle` makes documents of a validated
//! game (the rulebook, the print-and-play file); `check` holds every check. Foundations
//! any stage may import: `length`, `limits`, `paper`, `labels`, `diag`, `world` (the one
//! door in), `svg` (every usvg parse's options: what an SVG may open), `images`, `fonts`, `model` (with `ArtSource`, where the writers get art),
//! `press`, `services`, `output`. Each stage imports only the stages before it, but one
//! thing: the flat sizes of a box (`layout::boxes`), which `load` checks against the paper
//! and `render` draws the box's faces at. Only `main` prints (but the `DECKPRESS_DEBUG`
//! traces `plan` writes for the tests).

pub mod bundle;
pub mod check;
pub mod cli;
pub mod commands;
pub mod diag;
pub mod driver;
pub mod environment;
pub mod export;
pub mod fonts;
pub mod games;
pub mod images;
pub mod job;
pub mod labels;
pub mod layout;
pub mod length;
pub mod limits;
pub mod link;
pub mod load;
pub mod model;
pub mod output;
pub mod paper;
pub mod parallel;
pub mod phrases;
pub mod plan;
pub mod play;
pub mod press;
pub mod preview;
pub mod progress;
pub mod render;
pub mod services;
pub mod svg;
pub mod validate;
pub mod world;
