//! Parsing filled templates: each filled SVG parsed by usvg against the fonts, once per
//! design, on every core, with the problems a parse meets (entities, huge texts, a canvas
//! without room for the bleed, art that cannot be read) and the checks of `findings`.

use std::sync::{Arc, Mutex};

use super::context::{Context, Design, Spec, MAX_DESIGNS};
use super::findings::{check_art, proportions};
use super::written::{
    call_site, find_outside_comments, href_span, printed_text_span, strongly_written,
    written_strength, Written,
};
use super::{art, canvas};
use crate::check::Outline;
use crate::diag::Diagnostic;
use crate::length::Length;
use crate::model::{Catalogue, Row, Template};

impl Context {
    pub(super) fn new(cat: &Catalogue) -> Self {
        let fonts: Vec<Arc<Vec<u8>>> = cat.fonts.iter().map(|f| f.data.clone()).collect();
        let art = art::ArtSource {
            catalogue: cat.world.clone(),
            checked: cat.checked.clone(),
            max_pixels: cat.world.limits().image_pixels,
        };
        art.check_ahead(cat.templates());
        // The bundled fonts are loaded once per run; a catalogue's own make a database of its own.
        let fontdb =
            if fonts.is_empty() { crate::fonts::bundled() } else { crate::fonts::database(&fonts) };
        Self {
            fontdb,
            icons: cat.icons.clone(),
            art,
            text_chars: cat.world.limits().text_chars,
            legibility: cat.legibility.clone(),
            thorough: false,
            pictures: Default::default(),
            game_toml: (
                cat.game_toml.clone(),
                cat.sources.get(&cat.game_toml).unwrap_or_default().into(),
            ),
            designs: Default::default(),
            includes: cat.includes.clone(),
        }
    }

    /// Where a diagnostic about printed `text` points: where `template` writes it, else
    /// the words in game.toml (a sheet's `data` that a shared template prints), else the
    /// template alone.
    pub(super) fn text_place(
        &self,
        template: &Template,
        row: Option<&Row>,
        text: &str,
    ) -> (std::path::PathBuf, Option<std::ops::Range<usize>>, Written) {
        let written = printed_text_span(&template.text, row, text);
        if let Some((file, through)) = self.written_by_included(template, row, text, &written) {
            let span = through.span();
            return (file, span, through);
        }
        if written == Written::Unknown {
            let start: String = text.trim().trim_end_matches('…').chars().take(24).collect();
            if start.chars().count() >= 8 {
                if let Some(at) = find_outside_comments(&self.game_toml.1, &start) {
                    return (self.game_toml.0.clone(), Some(at), written);
                }
            }
        }
        let span = written.span();
        (template.file.clone(), span, written)
    }

    /// Where a template that `template` includes or imports writes `text`, when it writes
    /// it more surely than `template` itself (a frame's `credits()` macro, whose words
    /// are its own, against card text elements that print any value): that file and span,
    /// with the line of `template` that calls it.
    pub(super) fn written_by_included(
        &self,
        template: &Template,
        row: Option<&Row>,
        text: &str,
        own: &Written,
    ) -> Option<(std::path::PathBuf, Written)> {
        let own_strength = match own {
            Written::At(_) if strongly_written(&template.text, row, text).is_some() => return None,
            Written::At(span) => written_strength(&template.text, span),
            _ => 0,
        };
        let mut best: Option<(usize, &Template, std::ops::Range<usize>)> = None;
        for inc in self.includes.iter().filter(|t| template.text.contains(t.name.as_str())) {
            let (strength, span) = match strongly_written(&inc.text, row, text) {
                Some(span) => (usize::MAX, span),
                None => match printed_text_span(&inc.text, row, text) {
                    Written::At(span) => (written_strength(&inc.text, &span), span),
                    _ => continue,
                },
            };
            if strength > own_strength && best.as_ref().is_none_or(|(b, _, _)| strength > *b) {
                best = Some((strength, inc, span));
            }
        }
        let (_, inc, span) = best?;
        let call = self.call_note(template, inc, span.start);
        Some((inc.file.clone(), Written::Through(span, call)))
    }

    /// "called from templates/face.svg line 16": where `template` calls what `inc`
    /// defines around `at`.
    pub(super) fn call_note(
        &self,
        template: &Template,
        inc: &Template,
        at: usize,
    ) -> Option<String> {
        call_site(&template.text, &inc.text, &inc.name, at).map(|call| {
            format!(
                "called from {} line {}",
                template.file.display(),
                crate::diag::line_col(&template.text, call).0
            )
        })
    }

    /// Where a template `template` includes or imports writes `words` (a font family
    /// its macro asks for): that file, the span and the call.
    pub(super) fn written_in_included(
        &self,
        template: &Template,
        words: &str,
    ) -> Option<(std::path::PathBuf, std::ops::Range<usize>, Option<String>)> {
        self.includes.iter().filter(|t| template.text.contains(t.name.as_str())).find_map(|inc| {
            let span = find_outside_comments(&inc.text, words)?;
            Some((inc.file.clone(), span.clone(), self.call_note(template, inc, span.start)))
        })
    }

    /// Parsing options for a template read from `folder`, logging the art it pulls in.
    pub(super) fn options(
        &self,
        folder: &crate::world::World,
        log: Arc<Mutex<art::ArtLog>>,
    ) -> usvg::Options<'static> {
        crate::svg::with_resolver(self.fontdb.clone(), self.art.resolver(folder, log))
    }
}

/// A card template filled for one row, waiting to be parsed.
pub(super) struct Filled<'a> {
    pub(super) svg: Option<String>,
    pub(super) template: &'a Template,
    /// The card, for finding which field a misplaced text came from.
    pub(super) row: Option<&'a Row>,
    pub(super) what: String,
    pub(super) fill_diags: Vec<Diagnostic>,
    /// Drawn from this very SVG before (in another language): not parsed again.
    pub(super) again: bool,
}

/// What a piece was filled as, to tell whether another language fills it the same.
pub fn filled_fingerprint(svg: &str) -> u64 {
    crate::output::fingerprint([svg])
}

/// A piece to fill: its art, template, card and name in messages.
pub(super) struct ToFill<'a> {
    pub(super) art: crate::model::ArtRef,
    pub(super) template: &'a Template,
    pub(super) row: Option<&'a Row>,
    pub(super) what: String,
}

/// Fills pieces with `fill`, one after another, and parses them on every core meanwhile:
/// usvg's text layout is most of a build's time, and filling waits for no parse. Each
/// piece comes back with its filled SVG and tree, in order, and `diags` gets each card's
/// filling problems, then its parsing problems, card after card: exactly what filling
/// and parsing them one by one gives.
pub(super) fn fill_and_parse<'a>(
    pieces: Vec<ToFill<'a>>,
    mut fill: impl FnMut(ToFill<'a>) -> Filled<'a> + Send,
    outline: Option<Outline>,
    bleed: Length,
    ctx: &Context,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(Option<String>, Option<Arc<usvg::Tree>>)> {
    // What each piece was filled as, with what it is drawn from and at: the same text
    // from the same template at the same size is the same design.
    let size = outline.map(|o| {
        let (w, h) = o.size;
        (w.to_pt().to_bits(), h.to_pt().to_bits(), o.shape, o.corner.to_pt().to_bits())
    });
    let key_of = |f: &Filled| {
        let svg = f.svg.as_deref().filter(|_| !f.again)?;
        // The text hashed a word at a time (optimised in dev builds too), then with where
        // it is drawn from and at.
        let text = pixels::fnv_words(svg.as_bytes());
        let at = format!("{size:?} {} {text}", bleed.to_pt().to_bits());
        Some(crate::output::fingerprint([f.template.file.to_string_lossy().as_ref(), &at]))
    };
    let count = pieces.len();
    let mut pieces = pieces.into_iter();
    // Filled in order; a design not met before (in an earlier batch, or earlier in this
    // one) goes to be parsed, the others wait here with their design's key.
    let mut waiting: Vec<Option<Filled>> = Vec::with_capacity(count);
    let mut keys: Vec<Option<u64>> = Vec::with_capacity(count);
    let mut known: Vec<Option<Arc<Design>>> = Vec::with_capacity(count);
    let mut first: rustc_hash::FxHashMap<u64, usize> = Default::default();
    let serial = |i: usize| {
        let f = fill(pieces.next()?);
        let key = key_of(&f);
        let met = key
            .and_then(|k| ctx.designs.lock().unwrap_or_else(|e| e.into_inner()).get(&k).cloned());
        let new = met.is_none() && key.is_none_or(|k| *first.entry(k).or_insert(i) == i);
        keys.push(key);
        known.push(met);
        if new {
            waiting.push(None);
            return Some(f);
        }
        waiting.push(Some(f));
        None
    };
    let parsed = crate::parallel::pipeline(count, serial, |f: Filled<'a>| {
        let mut parse_diags = Vec::new();
        let tree = f.svg.as_ref().filter(|_| !f.again).and_then(|svg| {
            let spec = Spec { template: f.template, row: f.row, what: &f.what, outline, bleed };
            parse(svg, &spec, ctx, &mut parse_diags)
        });
        let design = Design { tree: tree.map(Arc::new), what: f.what.clone(), diags: parse_diags };
        (f, design)
    });
    let mut designs_made = Vec::new();
    for (i, parsed) in parsed.into_iter().enumerate() {
        if let Some((f, design)) = parsed {
            waiting[i] = Some(f);
            designs_made.push((i, Arc::new(design)));
        }
    }
    // Collected at once, as before the pipeline: which designs the cache keeps when it
    // fills up follows this map's order.
    let made: rustc_hash::FxHashMap<usize, Arc<Design>> = designs_made.into_iter().collect();
    {
        let mut designs = ctx.designs.lock().unwrap_or_else(|e| e.into_inner());
        for (&i, design) in &made {
            if let Some(k) = keys[i].filter(|_| designs.len() < MAX_DESIGNS) {
                designs.insert(k, Arc::clone(design));
            }
        }
    }
    waiting
        .into_iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let f = f?;
            diags.extend(f.fill_diags);
            // Parsed for this piece, met before, or parsed for an earlier piece of the batch.
            let first_of_batch = keys[i].and_then(|k| first.get(&k)).and_then(|j| made.get(j));
            let tree = made.get(&i).or(known[i].as_ref()).or(first_of_batch).and_then(|design| {
                diags.extend(design.said_for(&f.what));
                design.tree.clone()
            });
            Some((f.svg, tree))
        })
        .collect()
}

/// Filled SVG → checked tree, or the problems pushed to `diags`. `what` names the piece
/// in messages; `outline` is the piece as cut; the tree's canvas is its size plus
/// `bleed` on every side.
pub(super) fn parse(
    svg: &str,
    spec: &Spec,
    ctx: &Context,
    diags: &mut Vec<Diagnostic>,
) -> Option<usvg::Tree> {
    let Spec { template, what, outline, bleed, .. } = *spec;
    let expected = outline.map(|o| o.size);
    if crate::world::declares_entities(svg) {
        // usvg expands entities; a few nested ones make gigabytes ("billion laughs").
        let span = template.text.find("<!").map(|i| i..i + 9);
        diags.push(
            Diagnostic::new(
                &template.file,
                span,
                "templates may not declare a DOCTYPE or entities",
            )
            .with_note(format!(
                "in {what}; entity expansion can exhaust memory, so deckpress refuses it"
            )),
        );
        return None;
    }
    let longest = svg
        .split('<')
        .map(|part| part.split_once('>').map_or(0, |(_, text)| text.len()))
        .max()
        .unwrap_or(0);
    if longest as u64 > ctx.text_chars {
        // Laying out a megabyte of text on a card takes minutes and draws nothing legible.
        diags.push(
            Diagnostic::new(&template.file, None, format!("the filled template has a text of {longest} characters, more than a card can show"))
                .with_note(format!("in {what}; the limit is {} characters (--limit text-chars=N)", ctx.text_chars)),
        );
        return None;
    }
    if let Some(card) = expected {
        if let Some(d) = proportions(svg, template, card, what) {
            diags.push(d);
            return None;
        }
    }
    let widened;
    let svg = match expected {
        Some(card) if bleed > Length::ZERO => match canvas::with_bleed(svg, card, bleed) {
            Some(s) => {
                widened = s;
                widened.as_str()
            }
            None => {
                let span = template.text.find("<svg").map(|i| i..i + 4);
                diags.push(
                    Diagnostic::new(&template.file, span, "the template has no viewBox, so deckpress cannot add the bleed around it")
                        .with_note(format!("in {what}; give the root <svg> a viewBox (e.g. viewBox=\"0 0 630 880\" for 63 × 88 mm in tenths of a millimetre), or set `bleed = \"0mm\"` on the deck")),
                );
                return None;
            }
        },
        // Without bleed (labels, `bleed = "0mm"`) the root still gets the piece's size, so
        // that the tree's pixels are the paper's for every check: a label template with a
        // viewBox alone was measured in the viewBox's units as pixels (6 mm text as 4.5 pt).
        // A template without a viewBox keeps its own width and height.
        Some(card) => match canvas::with_bleed(svg, card, Length::ZERO) {
            Some(s) => {
                widened = s;
                widened.as_str()
            }
            None => svg,
        },
        None => svg,
    };
    if let Some(d) = super::findings::dropped_by_parser(svg, template, what) {
        diags.push(d);
        return None;
    }
    let log = Arc::new(Mutex::new(art::ArtLog::default()));
    let parsed = usvg::Tree::from_str(svg, &ctx.options(&template.world, log.clone()));
    let log = std::mem::take(&mut *log.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    for problem in &log.problems {
        let mut d = Diagnostic::new(
            &template.file,
            href_span(&template.text, &problem.href),
            &problem.message,
        )
        .with_note(format!("in {what}"));
        if let Some(hint) = &problem.hint {
            d = d.with_note(hint);
        }
        diags.push(d);
    }
    let tree = match parsed {
        Ok(tree) => tree,
        Err(e) => {
            let mut d = Diagnostic::new(
                &template.file,
                None,
                format!("the filled template is not valid SVG: {e}"),
            );
            if let usvg::Error::ParsingFailed(xml) = &e {
                d = d.with_note(format!("at line {} of the filled SVG", xml.pos().row));
            }
            diags.push(d.with_note(format!("while filling {what}")));
            return None;
        }
    };
    if let Some(card) = expected.filter(|_| bleed > Length::ZERO) {
        // The art must reach the canvas's edge: a hundredth of a millimetre short is fine.
        let drawn = canvas::bleed_drawn(&tree, card, bleed);
        if drawn < bleed.to_mm() - 0.01 {
            let span = template.text.find("<svg").map(|i| i..i + 4);
            let what_drawn =
                if drawn < 0.05 { "nothing".to_string() } else { format!("only {drawn:.2} mm") };
            diags.push(
                Diagnostic::warning(&template.file, span, format!("the template draws {what_drawn} of the {:.2} mm bleed past the cut: a slightly-off cut shows a white edge", bleed.to_mm()))
                    .about(crate::diag::Topic::Bleed)
                    .with_note(format!("in {what}; draw the background well past the card's edge (in a 630 × 880 viewBox for 63 × 88 mm, 5 mm is x=-50 y=-50 width=730 height=980; what lies beyond the bleed is cut off); print services need the bleed, and only a piece that is never cut (a label) may set `bleed = \"0mm\"`")),
            );
        }
    }
    let fine = check_art(&tree, spec, ctx, &log, diags);
    (fine && log.problems.is_empty()).then_some(tree)
}
