//! deckpress: card games described as data → validated, print-ready sheets.
//!
//! The pipeline: `cli` (argv → Args) → `commands` (Args → `job::Job`) → `driver` (runs
//! the stages for each game): `load` (files → Catalogue) → `validate` (→ Validated) →
//! `plan` (→ the documents the job makes, run by one executor) → `render` (templates →
//! SVG trees) → `layout` (→ Sheets) → `export` (→ PDF, PNG, cut, TTS bytes) → `output`
//! (the one door out); `preview` draws previews. Foundations any
//! stage may import: `length`, `limits`, `labels`, `diag`, `world` (the one door in),
//! `images`, `fonts`, `model`, `services`, `output`. A few imports still run against the
//! stages' order (the README's "Layout of the code" lists them). Only `main` prints.

pub mod check;
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
pub mod plan;
pub mod press;
pub mod preview;
pub mod progress;
pub mod render;
pub mod services;
pub mod validate;
pub mod world;
