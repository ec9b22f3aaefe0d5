//! Label sheets: each deck printed on labels, on its product's own paper once whatever the
//! home paper, every label of its rows on as many pages as they need; with `--cut` the
//! labels' outlines as cut files.

use super::{Body, Context, CutFiles, Document, Draw, Drawing, Plan, Printing};
use crate::diag::{Diagnostic, Failure};
use crate::layout::ArtRef;

pub(super) fn plan(ctx: &Context, plan: &mut Plan) {
    let cat = ctx.cat();
    for (d, deck) in cat.decks.iter().enumerate() {
        let Some(layout) = &deck.labels else { continue };
        let name = ctx.home_file(&deck.id, layout.paper.0);
        let stem = name.strip_suffix(".pdf").unwrap_or(&name).to_string();
        plan.documents.push(Document {
            file: ctx.file(name),
            title: format!("{} — {} ({})", cat.name, deck.name, layout.name),
            body: Body::Pdf(Box::new(Labels { deck: d })),
            printing: Printing::Simplex,
            cut: Some(CutFiles::Numbered { stem }),
            product: super::Product::Labels { deck: d },
            paper: Some(layout.paper.0.to_string()),
        });
    }
}

/// The label sheets of deck `deck`.
struct Labels {
    deck: usize,
}

impl Draw for Labels {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        let (cat, d) = (at.ctx.cat(), self.deck);
        let deck = &cat.decks[d];
        let Some(layout) = &deck.labels else { return Ok(Box::new(Vec::new())) };
        let faces: Vec<ArtRef> =
            crate::layout::physical_cards(deck, d).map(|(face, _)| face).collect();
        let mut sheets = crate::layout::labels::pages(&faces, layout, deck.shape, deck.corner);
        if at.ctx.job.print.cut.is_some() {
            // Registration marks for the cutter, on sheets whose labels leave them room.
            use crate::layout::registration;
            for sheet in &mut sheets {
                let (w, h) = (sheet.width, sheet.height);
                sheet.registration = sheet.items.iter().all(|p| registration::clear(&p.rect, w, h));
            }
            if sheets.iter().any(|s| !s.registration) {
                let why = format!(
                    "deck `{}`: {} labels leave no room for registration marks; its cut files have none",
                    deck.id, layout.name
                );
                let hint = "the marks would print on the labels: use the sheet as die-cut, or cut plain sticker paper laid out with room for them";
                at.warnings.push(Diagnostic::warning(&cat.game_toml, None, why).with_note(hint));
            }
        }
        Ok(Box::new(sheets))
    }
}
