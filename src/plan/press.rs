//! The press a game's PDFs are made for (`--colour cmyk`, a CMYK service), and what the PDF
//! writer found for it, said as warnings on each piece's template.

use std::sync::Arc;

use crate::diag::{Diagnostic, Failure};
use crate::job::Job;
use crate::layout::ArtRef;
use crate::model::Catalogue;
use crate::press::Press;

/// The colour conversion for a press, when the job's PDFs are CMYK: the job's printing
/// condition with the catalogue's swatches. Shared by the PDF writer's threads.
pub fn press(job: &Job, cat: &Catalogue) -> Result<Option<Arc<Press>>, Failure> {
    let Some(spec) = &job.print.press else { return Ok(None) };
    let mut press = Press::for_catalogue(
        spec.condition.clone(),
        spec.pdfx,
        spec.intent,
        spec.ink_limit,
        &cat.colour,
    )
    .map_err(Failure::Io)?;
    press.fine_text_pt = cat.legibility.fine_text_pt;
    let floor = &job.print.service.floor;
    press.floor = (floor.text_pt, floor.line_pt);
    Ok(Some(Arc::new(press)))
}

/// What the PDF writer found for the press, as warnings on each piece's template: colours
/// and images over the ink limit, and art flattened for PDF/X-1a.
pub(super) fn press_warnings(
    cat: &Catalogue,
    press: Option<&Press>,
    findings: Vec<(ArtRef, crate::press::Finding)>,
) -> Vec<Diagnostic> {
    use crate::press::Finding;
    let Some(press) = press else { return Vec::new() };
    let mut seen = std::collections::HashSet::new();
    let mut diags = Vec::new();
    for (art, finding) in findings {
        if matches!(finding, Finding::Ink { .. }) && crate::check::off("total-ink") {
            continue;
        }
        // What the file's readers can no longer see, held to the service's floor.
        let finding = match finding {
            Finding::Flattened { text, line } => {
                let (text_pt, line_pt) = press.floor;
                let text = text
                    .filter(|(_, pt)| *pt < text_pt - 0.005 && !crate::check::off("small-text"));
                let line =
                    line.filter(|pt| *pt < line_pt - 0.005 && !crate::check::off("hairline"));
                if text.is_none() && line.is_none() {
                    continue;
                }
                Finding::Flattened { text, line }
            }
            other => other,
        };
        if matches!(finding, Finding::FineText { .. }) && crate::check::off("fine-text-inks") {
            continue;
        }
        if !seen.insert((art, format!("{finding:?}"))) {
            continue;
        }
        let (template, what) = match art {
            ArtRef::Face { deck, row } => (
                &cat.decks[deck].face,
                format!("card `{}` of deck `{}`", cat.decks[deck].rows[row].id, cat.decks[deck].id),
            ),
            ArtRef::Back { deck, row } if cat.decks[deck].back_per_card => (
                &cat.decks[deck].back,
                format!("the back of card `{}`", cat.decks[deck].rows[row].id),
            ),
            ArtRef::Back { deck, .. } => {
                (&cat.decks[deck].back, format!("the back of deck `{}`", cat.decks[deck].id))
            }
            ArtRef::Sheet { sheet } => {
                (&cat.sheets[sheet].template, format!("sheet `{}`", cat.sheets[sheet].id))
            }
            ArtRef::BoxFace { b, face } => {
                let def = &cat.boxes[b];
                let face = &def.faces[face];
                (&face.template, format!("the {} of box `{}`", face.kind.name(), def.id))
            }
        };
        let (file, span) = (&template.file, finding_span(&template.text, &finding));
        diags.push(match finding {
            Finding::Ink { what: element, ink } => Diagnostic::warning(file, span, format!("{element} takes {ink:.0}% ink, over the {:.0}% limit of {}", press.ink_limit, press.condition.identifier))
                .about(crate::diag::Topic::Ink)
                .with_note(format!("in {what}; too much ink smears and dries badly: use a lighter or less saturated colour, or give it a swatch with less ink ([colour.swatches] in game.toml)")),
            Finding::FineText { what: element, pt, cmyk } => {
                let percent = |v: u8| (f32::from(v) / 2.55).round() as u32;
                let inks: Vec<String> = ["C", "M", "Y", "K"]
                    .iter()
                    .zip(cmyk)
                    .filter(|(_, v)| *v >= crate::press::FINE_TEXT_INK)
                    .map(|(name, v)| format!("{name}{}", percent(v)))
                    .collect();
                Diagnostic::warning(file, span, format!("{element} at {pt:.1} pt prints in {} inks ({}) of {}: a registration risk", inks.len(), inks.join(" "), press.condition.identifier))
                    .about(crate::diag::Topic::FineText)
                    .with_note(format!("in {what}; the plates of a press never register exactly, and text under {} pt in several inks prints with coloured fringes: print it in black ink alone (a grey or black text colour is, #000000), or give its colour a swatch of one ink ([colour.swatches] in game.toml); [check] fine_text_pt sets the size", press.fine_text_pt))
            }
            Finding::Flattened { text, line } => {
                let (text_pt, line_pt) = press.floor;
                let mut said = Vec::new();
                if let Some((words, pt)) = &text {
                    said.push(Diagnostic::warning(file, None, format!("text \"{words}\" prints at {pt:.1} pt in a piece drawn as a picture for PDF/X-1a: under the {text_pt} pt floor"))
                        .about(crate::diag::Topic::FlattenedText));
                }
                if let Some(pt) = line {
                    said.push(Diagnostic::warning(file, None, format!("a line {pt:.2} pt ({:.2} mm) wide in a piece drawn as a picture for PDF/X-1a: under the {line_pt} pt floor", pt / 72.0 * 25.4))
                        .about(crate::diag::Topic::FlattenedLine));
                }
                for d in said {
                    diags.push(d.with_note(format!("in {what}; measured before flattening: in the file it is pixels, which no reader of the file can measure (its transparency: see the warning beside it)")));
                }
                continue;
            }
            Finding::Hairline { .. } if crate::check::off("hairline") => continue,
            Finding::Hairline { pt } => Diagnostic::warning(file, span, format!("a line {pt:.2} pt ({:.2} mm) wide: under the {} pt a press holds lines to", pt / 72.0 * 25.4, press.floor.1))
                .about(crate::diag::Topic::Hairline)
                .with_note(format!("in {what}; a thinner line breaks up or vanishes on a press: make it at least {:.2} mm wide", press.floor.1 / 72.0 * 25.4)),
            Finding::Transparency(element) => Diagnostic::warning(file, span, format!("{element} needs transparency, which PDF/X-1a cannot hold: the piece prints as a 600 dpi picture"))
                .about(crate::diag::Topic::Transparency)
                .with_note(format!("in {what}; its text is no longer text; draw it without opacity, masks or semi-transparent images, or use --pdfx 4 if the printer takes PDF/X-4")),
        });
    }
    diags
}

/// Where in its template a press finding was written, when the template spells it out:
/// the colour (`#202020`), or the attribute that makes the transparency (`opacity="0.8"`,
/// `mask=`, `filter=`, `mix-blend-mode`). A colour filled from data or `style` is not in
/// the template: no span then.
fn finding_span(text: &str, finding: &crate::press::Finding) -> Option<std::ops::Range<usize>> {
    use crate::press::Finding;
    let needles: Vec<String> = match finding {
        Finding::Ink { what, .. } | Finding::FineText { what, .. } => what
            .rsplit_once("#")
            .map(|(_, hex)| format!("#{}", hex.trim_end_matches(')')))
            .into_iter()
            .collect(),
        Finding::Flattened { .. } | Finding::Hairline { .. } => Vec::new(),
        Finding::Transparency(what) => match what.rsplit_once("opacity ") {
            Some((_, value)) => vec![
                format!("opacity=\"{value}\""),
                format!("opacity: {value}"),
                format!("opacity:{value}"),
            ],
            None if what.starts_with("a mask") => vec!["mask=".to_string()],
            None if what.starts_with("a filter") => vec!["filter=".to_string()],
            None if what.starts_with("a blend mode") => vec!["mix-blend-mode".to_string()],
            None => Vec::new(),
        },
    };
    let lower = text.to_ascii_lowercase();
    needles.iter().find_map(|n| lower.find(&n.to_ascii_lowercase()).map(|i| i..i + n.len()))
}
