//! Home gang sheets: each deck (or with `--gang` each group of decks sharing a card size,
//! shape, bleed and back) imposed on a home paper, with crop marks, a slug, duplex backs
//! and a cut file per front sheet (`--cut`).

use super::{Context, CutFiles, Document, Draw, Drawing, Plan, Printing, Reprint};
use crate::diag::{Diagnostic, Failure};
use crate::layout::{ArtRef, Cut, Duplex, Imposed, Orientation, Paper, SlugWords};
use crate::length::Length;
use crate::model::Catalogue;

/// The gang sheets of every deck group on `paper` (for a reprint, of the groups with a
/// card to reprint).
pub(super) fn plan(ctx: &Context, paper: Paper, reprint: Option<&Reprint>, plan: &mut Plan) {
    let (print, cat, lang) = (&ctx.job.print, ctx.cat(), ctx.lang);
    for decks in deck_groups(cat, print.gang) {
        if physical_cards(cat, &decks, reprint).next().is_none() {
            continue;
        }
        let names: Vec<&str> = decks.iter().map(|&d| cat.deck_name_in(d, lang)).collect();
        let ids: Vec<&str> = decks.iter().map(|&d| cat.decks[d].id.as_str()).collect();
        let version = cat.version.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
        let slug = format!("{}{version} — {}", cat.name_in(lang), names.join(" + "));
        let title = format!(
            "{} — {} ({}, {})",
            cat.name_in(lang),
            names.join(" + "),
            paper.name(),
            duplex_name(print.duplex)
        );
        let part = match reprint {
            Some(_) => format!("{}-reprint", ids.join("+")),
            None => ids.join("+"),
        };
        let name = print.service.file_name(&cat.id, &part, paper.name(), &ctx.lang_suffix());
        let stem = name.strip_suffix(".pdf").unwrap_or(&name).to_string();
        let names = names.len();
        let product = super::Product::Cards { decks: decks.clone() };
        plan.documents.push(Document {
            file: ctx.file(name),
            title,
            body: super::Body::Pdf(Box::new(Gang { decks, paper, slug, names })),
            printing: Printing::AsImposed,
            cut: Some(CutFiles::Numbered { stem }),
            product,
            paper: Some(paper.name().to_string()),
        });
    }
}

/// A deck group on one paper.
struct Gang {
    decks: Vec<usize>,
    paper: Paper,
    /// The line under the sheets: the game, its version and the decks.
    slug: String,
    /// How many decks it names.
    names: usize,
}

impl Draw for Gang {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        let (print, cat) = (&at.ctx.job.print, at.ctx.cat());
        let pieces = physical_cards(cat, &self.decks, at.reprint).collect();
        let deck = &cat.decks[self.decks[0]];
        let cut = Cut::of(deck, print.cut.is_some());
        // Each sheet is made when it is drawn (and for the cut files): a 100,000-card
        // deck's sheets are never all in memory.
        let sheets = Imposed::new(
            pieces,
            cut,
            self.paper,
            print.duplex,
            print.orientation,
            print.back_offset,
        )
        .map_err(Failure::Io)?;
        // The printer's marks in the edition's language: the bundle's words.
        let (words, _) = crate::phrases::words_for(cat, at.ctx.lang);
        if let Some(said) = crate::phrases::marks_in_english(cat, at.ctx.lang) {
            if !at.warnings.iter().any(|d| d.message == said.message) {
                at.warnings.push(said);
            }
        }
        let printing = words.get(match print.duplex {
            Duplex::Long => "slug_duplex_long",
            Duplex::Short => "slug_duplex_short",
            Duplex::None => "slug_duplex_none",
            Duplex::Fold => "slug_duplex_fold",
        });
        let sheets = sheets.with_words(SlugWords {
            sheet_of: words.get("slug_sheet_of"),
            sheets: words.get("slug_sheets"),
            front: words.get("slug_front"),
            back: words.get("slug_back"),
            how: words.get("slug_how"),
            fold: words.get("slug_fold"),
        });
        let sheets = sheets.with_slug(&self.slug, &printing, super::slug_width());
        if sheets.slug_shortened() {
            at.warnings.push(
                Diagnostic::warning(
                    &cat.game_toml,
                    super::span_of(cat, &cat.name),
                    format!(
                        "the game's and {} names are too long for the line under the {} sheets: shortened there with \"…\"",
                        if self.names == 1 { "deck's" } else { "decks'" },
                        self.paper.name()
                    ),
                )
                .with_note("the line names the game, its version and the decks on the sheets, then which sheet it is; a shorter game or deck name fits whole"),
            );
        }
        let (dx, dy) = print.back_offset;
        let offset = (dx, dy) != (0.0, 0.0) && matches!(print.duplex, Duplex::Long | Duplex::Short);
        if offset && print.orientation == Orientation::Auto && sheets.landscape() {
            // A reading taken on a portrait calibration sheet is turned on these pages.
            at.warnings.push(
                Diagnostic::warning(
                    &cat.game_toml,
                    size_span(cat.sources.get(&cat.game_toml).unwrap_or_default(), &deck.id),
                    format!(
                        "deck `{}`'s {} sheets turned landscape (more cards a page): --back-offset {dx},{dy} moves their backs right and down as the landscape page reads",
                        deck.id,
                        self.paper.name()
                    ),
                )
                .with_note("a printer turns a landscape page a quarter turn onto the paper, so a portrait reading does not carry over: measure it on `deckpress calibrate --orientation landscape`, and say which way with --orientation landscape (or keep the portrait reading with --orientation portrait)"),
            );
        }
        Ok(Box::new(sheets))
    }
}

/// Every physical card of the group's decks, face and back, in deck order (for a
/// reprint, those whose art changed).
fn physical_cards<'c>(
    cat: &'c Catalogue,
    decks: &'c [usize],
    reprint: Option<&'c Reprint>,
) -> impl Iterator<Item = (ArtRef, ArtRef)> + 'c {
    decks
        .iter()
        .flat_map(move |&d| {
            crate::layout::physical_cards(&cat.decks[d], d).zip(copy_numbers(cat, d))
        })
        .filter(move |((face, _), copy)| match (reprint, face) {
            (Some(changed), ArtRef::Face { deck, row }) => changed.contains(&(
                cat.decks[*deck].id.clone(),
                cat.decks[*deck].rows[*row].id.clone(),
                *copy,
            )),
            _ => true,
        })
        .map(|(piece, _)| piece)
}

/// The copy number (1, 2, …) of each physical piece of deck `d`, in `layout::physical_cards` order.
fn copy_numbers(cat: &Catalogue, d: usize) -> impl Iterator<Item = u32> + '_ {
    cat.decks[d].rows.iter().flat_map(|row| 1..=row.qty)
}

/// The decks printed together: each alone, or with `--gang` those that share a card size,
/// shape, bleed and one back template (shared, not per card) on the same sheets, so
/// their cards fill each other's empty slots. Decks on labels are label sheets.
fn deck_groups(cat: &Catalogue, gang: bool) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (d, deck) in cat.decks.iter().enumerate().filter(|(_, d)| d.labels.is_none()) {
        let same = |other: &crate::model::Deck| {
            deck.labels.is_none()
                && other.labels.is_none()
                && !deck.back_per_card
                && !other.back_per_card
                && other.back.file == deck.back.file
                && (other.width, other.height, other.shape, other.corner, other.gap, other.bleed)
                    == (deck.width, deck.height, deck.shape, deck.corner, deck.gap, deck.bleed)
        };
        match groups.iter_mut().find(|g| gang && same(&cat.decks[g[0]])) {
            Some(group) => group.push(d),
            None => groups.push(vec![d]),
        }
    }
    groups
}

/// How sheets printed with `d` are to be put through the printer, for slugs and titles.
pub fn duplex_name(d: Duplex) -> &'static str {
    match d {
        Duplex::Long => "duplex, long-edge flip",
        Duplex::Short => "duplex, short-edge flip",
        Duplex::None => "fronts then backs",
        Duplex::Fold => "gutter fold",
    }
}

/// Each deck the home sheets cannot hold on a paper of the job, as it is laid out
/// (`--duplex`, `--orientation`): an error at the deck's card size in game.toml, naming
/// what does fit (the paper without the fold, a larger paper, the largest size of the
/// card's proportions). Nothing is scaled to fit.
pub fn misfits(job: &crate::job::Job, cat: &Catalogue) -> Vec<Diagnostic> {
    let print = &job.print;
    if print.service.form != crate::services::Form::GangSheets {
        return Vec::new();
    }
    let text = cat.sources.get(&cat.game_toml).unwrap_or_default();
    let only = &print.only;
    let decks = cat.decks.iter().filter(|d| d.labels.is_none());
    let decks = decks.filter(|d| only.is_empty() || only.contains(&d.id));
    let mut found = Vec::new();
    for deck in decks {
        let cut = Cut::of(deck, print.cut.is_some());
        let fits = |paper: (Length, Length), duplex: Duplex| {
            crate::layout::fits_on(paper, cut, duplex, print.orientation)
        };
        for &paper in &print.papers {
            if fits(paper.size(), print.duplex) {
                continue;
            }
            let size = format!("{} × {}", mm(deck.width), mm(deck.height));
            let folded = print.duplex == Duplex::Fold;
            let paper_name = paper.name().to_uppercase();
            let mut error = Diagnostic::new(
                &cat.game_toml,
                size_span(text, &deck.id),
                format!(
                    "deck `{}`'s {size} mm cards do not fit on {}{paper_name}{}{}",
                    deck.id,
                    if folded { "half of " } else { "" },
                    match print.orientation {
                        Orientation::Auto => ", portrait or landscape",
                        Orientation::Portrait => " standing portrait",
                        Orientation::Landscape => " turned landscape",
                    },
                    if folded { ", as a gutter fold needs" } else { "" }
                ),
            );
            if folded && fits(paper.size(), Duplex::Long) {
                error = error.with_note(format!(
                    "it fits on {paper_name} without the fold: build it with --duplex long or short"
                ));
            }
            let larger = crate::paper::LARGE.iter().find(|p| fits(p.size(), print.duplex));
            if let Some(larger) = larger {
                error = error.with_note(format!(
                    "{} it on {} or larger (a print shop's paper: --paper takes a4, letter or universal)",
                    if folded { "a fold fits" } else { "the sheets fit" },
                    larger.name.to_uppercase()
                ));
            }
            // The largest card of the same proportions that fits, to a tenth of a percent.
            let scaled = |k: f32| Cut { size: (deck.width * k, deck.height * k), ..cut };
            let (mut lo, mut hi) = (0.0f32, 1.0f32);
            for _ in 0..12 {
                let mid = (lo + hi) / 2.0;
                match crate::layout::fits_on(
                    paper.size(),
                    scaled(mid),
                    print.duplex,
                    print.orientation,
                ) {
                    true => lo = mid,
                    false => hi = mid,
                }
            }
            if lo > 0.0 {
                error = error.with_note(format!(
                    "{} on {paper_name} holds cards of these proportions up to {:.1} × {:.1} mm; nothing is scaled to fit",
                    if folded { "a fold" } else { "a sheet" },
                    (deck.width * lo).to_mm(),
                    (deck.height * lo).to_mm()
                ));
            }
            found.push(error);
        }
    }
    found
}

/// A length in millimetres as a person writes it: 63, 63.5, 44.45.
fn mm(l: Length) -> String {
    let text = format!("{:.2}", l.to_mm());
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Where deck `id`'s card size is said in game.toml: its own table's `card`, `size` or
/// `width` line, else the `[card]` table's, else its id.
fn size_span(text: &str, id: &str) -> Option<std::ops::Range<usize>> {
    let quoted = format!("\"{id}\"");
    let at = text.find(&format!("id = {quoted}")).or_else(|| text.find(&quoted))?;
    let table_end = |from: usize| text[from..].find("\n[").map_or(text.len(), |e| from + e);
    // The first line of `text[from..to]` setting one of the size keys.
    let size_line = |from: usize, to: usize| {
        let mut offset = from;
        for line in text[from..to].split_inclusive('\n') {
            let key = line.trim_start();
            let start = offset + (line.len() - key.len());
            offset += line.len();
            let named = ["card", "size", "width"].iter().any(|k| {
                key.strip_prefix(k).is_some_and(|rest| rest.trim_start().starts_with('='))
            });
            if named {
                return Some(start..start + key.trim_end().len());
            }
        }
        None
    };
    let table = text[..at].rfind("[[").unwrap_or(0);
    let shared = || {
        let card = if text.starts_with("[card]") { 0 } else { text.find("\n[card]")? + 1 };
        size_line(card, table_end(card + 1))
    };
    size_line(table, table_end(at)).or_else(shared).or(Some(at..at + quoted.len()))
}
