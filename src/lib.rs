//! deckpress: card games described as data → validated, print-ready sheets.
//!
//! The pipeline, one module per stage, each importing only the stages before it:
//! `cli` (argv → Args) → `commands` (Args → `job::Job`) → `driver` (runs the stages for
//! each game): `load` (files → Catalogue) → `validate` (→ Validated) → `render`
//! (templates → art) → `layout` (→ Sheets) → `export` (→ PDF, PNG, cut, TTS bytes) →
//! `output` (atomic writes); `preview` draws previews. Only `main` prints.

pub mod cli;
pub mod commands;
pub mod diag;
pub mod driver;
pub mod export;
pub mod fonts;
pub mod games;
pub mod images;
pub mod job;
pub mod labels;
pub mod layout;
pub mod length;
pub mod limits;
pub mod load;
pub mod model;
pub mod output;
pub mod parallel;
pub mod press;
pub mod preview;
pub mod progress;
pub mod render;
pub mod services;
pub mod validate;
pub mod world;
