//! Documents beyond the pieces (the rulebook, `rules.md`): filled by the templates'
//! `Filler`, with the same functions and names, and the fonts the pieces are drawn with.

use super::fill::Filler;
use crate::diag::Diagnostic;
use crate::model::{Catalogue, Template};

/// A document beyond the pieces (the rulebook) filled in the environment the templates
/// are, with the same functions and names; its problems go to `diags`.
pub fn fill_document(
    cat: &Catalogue,
    lang: Option<&str>,
    doc: &Template,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    // The templates' own compile errors are the build's to report.
    let mut setup = Vec::new();
    // The rulebook has one variant: the ink saver changes only what pieces draw.
    let variant = crate::model::PrintVariant::default();
    let mut filler = Filler::new(cat, (lang, variant), font_database(cat), &mut setup);
    filler.fill_document(doc, diags)
}

/// The fonts a catalogue's pieces are drawn with: the bundled ones and its own.
pub fn font_database(cat: &Catalogue) -> std::sync::Arc<usvg::fontdb::Database> {
    let fonts: Vec<std::sync::Arc<Vec<u8>>> = cat.fonts.iter().map(|f| f.data.clone()).collect();
    if fonts.is_empty() {
        crate::fonts::bundled()
    } else {
        crate::fonts::database(&fonts)
    }
}
