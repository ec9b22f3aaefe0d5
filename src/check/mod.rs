//! The one room for checks: everything that can say a piece or a file is wrong for a
//! player or a printer (legibility, resolution, glyphs, ink, proportions, a print
//! service's spec). Each check has a name in `NAMES`; the known-bad corpus
//! (tests/it/known_bad.rs) holds a file that each one must fail, and turns each off in turn
//! to prove that it can.

pub mod pdf;
pub mod service;

/// Every check by name. A check asks `off(NAME)` before it looks, so that a test can prove
/// it is the one that catches its known-bad file.
pub const NAMES: &[&str] = &[
    // A print service's spec, on the files made for it (service.rs).
    "safe-zone",
    "bleed",
    "small-text",
    "hairline",
    "transparency",
    "image-dpi",
    "colour-space",
    "fonts-embedded",
    "file-order",
];

/// True when a test has turned the named check off with `DECKPRESS_CHECK_OFF=name[,name]`.
/// Only debug builds listen: a release build never lets a check be silenced this way.
pub fn off(name: &str) -> bool {
    if !cfg!(debug_assertions) {
        return false;
    }
    std::env::var("DECKPRESS_CHECK_OFF")
        .is_ok_and(|names| names.split(',').any(|n| n.trim() == name))
}
