//! Stage `export`: resolved sheets and drawn pieces → the files each use asks for: sheet
//! PDFs (`pdf`), per-card PDFs and PNG sets for print services (`cards`), cut files for
//! cutting machines (`cut`) and Tabletop Simulator decks (`tts`).

pub mod cards;
pub mod catalog;
pub mod cut;
pub mod pdf;
pub mod tts;
