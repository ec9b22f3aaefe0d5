//! A print service's per-card files (`--for`): one PDF per deck with a page per card
//! side, or a folder per deck of one PNG per card design and side, named by the service's
//! pattern. A deck on labels is a home sheet: it is left out, and the user told.

use super::{Body, Context, Document, Draw, Drawing, Plan, Printing};
use crate::diag::Failure;
use crate::services::SideOrder;

/// One PDF per deck, a page per card side in the service's order.
pub(super) fn pdfs(ctx: &Context, plan: &mut Plan) {
    let (cat, lang, service) = (ctx.cat(), ctx.lang, ctx.job.print.service);
    for d in decks(ctx, plan) {
        let deck = &cat.decks[d];
        plan.documents.push(Document {
            file: ctx.file(service.file_name(&cat.id, &deck.id, "", &ctx.lang_suffix())),
            title: format!(
                "{} — {} ({})",
                cat.name_in(lang),
                cat.deck_name_in(d, lang),
                service.name
            ),
            body: Body::Pdf(Box::new(Sides { deck: d })),
            printing: Printing::Simplex,
            cut: None,
            product: super::Product::ServiceDeck { deck: d },
            paper: None,
        });
    }
}

/// A folder per deck of one PNG per card design and side.
pub(super) fn pngs(ctx: &Context, plan: &mut Plan) {
    let (cat, service) = (ctx.cat(), ctx.job.print.service);
    let dpi = service.dpi.unwrap_or(300);
    for d in decks(ctx, plan) {
        let deck = &cat.decks[d];
        plan.documents.push(Document {
            file: ctx.file(service.file_name(&cat.id, &deck.id, "", &ctx.lang_suffix())),
            title: String::new(),
            body: Body::Pngs { deck: d, dpi },
            printing: Printing::Simplex,
            cut: None,
            product: super::Product::ServicePngs { deck: d },
            paper: None,
        });
    }
}

/// The decks a service's files are made of; each deck on labels is noted as left out.
fn decks(ctx: &Context, plan: &mut Plan) -> Vec<usize> {
    let (cat, service) = (ctx.cat(), ctx.job.print.service);
    let mut decks = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate() {
        if deck.labels.is_none() {
            decks.push(d);
            continue;
        }
        plan.notes.push(format!(
            "deck `{}` is printed on labels: left out of the files for {} (build it without --for)",
            deck.id, service.title
        ));
    }
    decks
}

/// Every card side of a deck on a page of its own (TrimBox on the card).
struct Sides {
    deck: usize,
}

impl Draw for Sides {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        let (ctx, d) = (at.ctx, self.deck);
        let back_first = ctx.job.print.service.sides == SideOrder::BackFirst;
        let deck = &ctx.cat().decks[d];
        Ok(Box::new(crate::export::cards::pages(deck, d, back_first, ctx.fits[d])))
    }
}
