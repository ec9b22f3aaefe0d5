//! The PDF's post-pass: the document put together and written out, the print preferences
//! added after it (`catalog`), and what the press was found to need to hear about.

use krilla::Document;

use super::{PdfFailure, PrintAs};
use crate::layout::ArtRef;
use crate::press::{Finding, Inspection, Press};

/// Writes `document` to `sink`, asks for `print_as`, and returns the findings of
/// `inspections`.
pub(super) fn finish(
    document: Document,
    sink: &mut dyn krilla::Sink,
    print_as: PrintAs,
    press: Option<&Press>,
    inspections: Vec<(ArtRef, Inspection)>,
) -> Result<Vec<(ArtRef, Finding)>, PdfFailure> {
    let duplex = match print_as {
        PrintAs::Simplex => "Simplex",
        PrintAs::DuplexLongEdge => "DuplexFlipLongEdge",
        PrintAs::DuplexShortEdge => "DuplexFlipShortEdge",
    };
    // Written a few megabytes at a time: the whole file is never in memory.
    document.finish_to(sink).map_err(|e| match e {
        krilla::error::KrillaError::Io(e) => PdfFailure::Io(std::io::Error::other(e)),
        e => PdfFailure::Pdf(format!("the PDF writer failed: {e:?}")),
    })?;
    crate::export::catalog::add_print_preferences(sink, duplex).map_err(PdfFailure::Io)?;
    let mut findings = Vec::new();
    if let Some(press) = press {
        for (art, inspection) in inspections {
            findings.extend(inspection.findings(press).into_iter().map(|f| (art, f)));
        }
    }
    Ok(findings)
}
