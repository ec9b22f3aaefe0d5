//! deckpress: card games described as data → validated, print-ready sheets.
//!
//! The pipeline, one module per stage:
//! `cli` (argv → Args) → `load` (files → Catalogue) → `validate` (→ Validated)
//! → `render` (templates → Art) → `layout` (→ Sheets) → `export` (→ PDF bytes)
//! → `output` (atomic writes). `app` wires them; only `main` prints.

pub mod app;
pub mod calibrate;
pub mod cli;
pub mod diag;
pub mod export;
pub mod fonts;
pub mod games;
pub mod images;
pub mod layout;
pub mod length;
pub mod limits;
pub mod load;
pub mod model;
pub mod output;
pub mod parallel;
pub mod preview;
pub mod press;
pub mod render;
pub mod scaffold;
pub mod validate;
pub mod world;
