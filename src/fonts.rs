//! The bundled fonts (OFL, see fonts/OFL.txt). They are compiled into the binary so a
//! build never depends on the fonts of the machine it runs on.

use std::sync::Arc;

use usvg::fontdb::{Database, Source};

/// The family templates get when they name none, or one that is not bundled.
pub const DEFAULT_FAMILY: &str = "Noto Sans";

const FONTS: [&[u8]; 4] = [
    include_bytes!("../fonts/NotoSans-Regular.ttf"),
    include_bytes!("../fonts/NotoSans-Bold.ttf"),
    // ⎈ and other technical symbols.
    include_bytes!("../fonts/NotoSansSymbols-Regular.ttf"),
    // ♠ ♥ ♣ ♦ ✿ ★ and the other suit and dingbat symbols.
    include_bytes!("../fonts/NotoSansSymbols2-Regular.ttf"),
];

/// A font database holding exactly the bundled fonts.
pub fn database() -> Arc<Database> {
    let mut db = Database::new();
    for data in FONTS {
        db.load_font_source(Source::Binary(Arc::new(data)));
    }
    db.set_sans_serif_family(DEFAULT_FAMILY);
    db.set_serif_family(DEFAULT_FAMILY);
    db.set_monospace_family(DEFAULT_FAMILY);
    db.set_cursive_family(DEFAULT_FAMILY);
    db.set_fantasy_family(DEFAULT_FAMILY);
    Arc::new(db)
}
