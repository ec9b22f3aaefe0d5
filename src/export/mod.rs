//! Stage `export`: resolved sheets and drawn pieces → the files each use asks for: sheet
//! PDFs (`pdf`), per-card PDFs and PNG sets for print services (`cards`), cut files for
//! cutting machines (`cut`), Tabletop Simulator decks (`tts`), and the pixels every
//! picture is drawn with (`raster`).

pub mod cards;
pub mod catalog;
pub mod cut;
pub mod die;
pub mod manifest;
pub mod marks;
pub mod pdf;
pub mod raster;
pub mod tts;
