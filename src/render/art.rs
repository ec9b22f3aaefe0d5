//! What a filled template pulls in while usvg parses it: art files (`<image href>`) read
//! through the template's `World` and checked once each, and the problems met on the way,
//! which usvg itself would drop without a word. What the art looks like printed (its
//! resolution, its proportions) is checked in `check::art`.

use std::sync::{Arc, Mutex};

use usvg::ImageKind;

use crate::images::{Checked, Format, Info};
use crate::world::{ReadError, World};

/// An art reference that could not be used: the href as written, and why.
#[derive(Debug, Clone)]
pub struct ArtProblem {
    pub href: String,
    pub message: String,
    pub hint: Option<String>,
}

/// Where art comes from and what it is checked against, shared by every parse of a run.
#[derive(Clone)]
pub struct ArtSource {
    /// The catalogue folder: paths from `file` fields are relative to it.
    pub catalogue: World,
    pub checked: Arc<Checked>,
    pub max_pixels: u64,
}

/// What one parse used and met.
#[derive(Default)]
pub struct ArtLog {
    pub problems: Vec<ArtProblem>,
    /// The raster images drawn: their bytes' address, href and checked size.
    pub used: Vec<(usize, String, Info)>,
}

impl ArtSource {
    /// The `<image>` resolver for one parse of a template read from `folder`.
    pub fn resolver(
        &self,
        folder: &World,
        log: Arc<Mutex<ArtLog>>,
    ) -> usvg::ImageHrefResolver<'static> {
        let (source, folder, data_log) = (self.clone(), folder.clone(), log.clone());
        let resolve_string = move |href: &str, options: &usvg::Options| -> Option<ImageKind> {
            let found =
                source.read(&folder, href).and_then(|data| source.kind(href, data, options));
            let mut log = log.lock().ok()?;
            match found {
                Ok((kind, info)) => {
                    if let Some(info) = info {
                        log.used.push((
                            crate::check::art::data_address(&kind),
                            href.to_string(),
                            info,
                        ));
                    }
                    Some(kind)
                }
                Err(problem) => {
                    log.problems.push(problem);
                    None
                }
            }
        };
        let max_pixels = self.max_pixels;
        let resolve_data =
            move |mime: &str, data: Arc<Vec<u8>>, options: &usvg::Options| -> Option<ImageKind> {
                // An embedded data: URL gets the same checks as a file: a truncated one is an
                // error here, not a failure inside the PDF writer.
                if mime != "image/svg+xml" {
                    if let Err(message) = crate::images::inspect(&data, max_pixels) {
                        let problem = ArtProblem {
                            href: "data: URL".to_string(),
                            message: format!("the embedded image cannot be used: {message}"),
                            hint: None,
                        };
                        data_log.lock().ok()?.problems.push(problem);
                        return None;
                    }
                }
                if let Ok(Some(png)) = crate::press::drawable(&data) {
                    return Some(ImageKind::PNG(Arc::new(png)));
                }
                (usvg::ImageHrefResolver::default_data_resolver())(mime, data, options)
            };
        usvg::ImageHrefResolver {
            resolve_data: Box::new(resolve_data),
            resolve_string: Box::new(resolve_string),
        }
    }

    /// Checks the art files `templates` name with a literal href (`art/back.jpg`, not
    /// `art/suit-{{ card.suit }}.png`), on a thread of its own, once per run: the first
    /// cards parsed would otherwise wait for them (a photo's check decodes it whole), while
    /// the other core is idle. The results wait in `checked` for the parses that use them,
    /// which report any problem where the file is drawn, as before.
    pub fn check_ahead<'t>(&self, templates: impl Iterator<Item = &'t crate::model::Template>) {
        if !self.checked.start_ahead() {
            return;
        }
        let mut named: Vec<(World, String)> = Vec::new();
        for template in templates {
            for href in literal_hrefs(&template.text) {
                if !named.iter().any(|(w, h)| h == href && w.same_as(&template.world)) {
                    named.push((template.world.clone(), href.to_string()));
                }
            }
        }
        if named.is_empty() {
            return;
        }
        let source = self.clone();
        let check = move || {
            for (folder, href) in named {
                if let Ok(data) = source.read(&folder, &href) {
                    if crate::images::sniff(&data).is_some_and(Format::is_raster) {
                        // Kept in `checked`; said by the parse that draws it.
                        let _ = source.checked.inspect(&data, source.max_pixels);
                    }
                }
            }
        };
        // Without a thread, the parses check the files as they always did.
        let _ = std::thread::Builder::new().name("art-ahead".into()).spawn(check);
    }

    /// The bytes behind an href: the template's folder first, then (for paths that came
    /// from a card's `file` field into a shared template) the catalogue's.
    fn read(&self, folder: &World, href: &str) -> Result<Arc<Vec<u8>>, ArtProblem> {
        let result = match folder.read_bytes(href) {
            Err(ReadError::NotFound) if !folder.same_as(&self.catalogue) => {
                self.catalogue.read_bytes(href).map_err(|e| (e, &self.catalogue))
            }
            other => other.map_err(|e| (e, folder)),
        };
        result.map_err(|(e, world)| {
            let why = crate::images::unreadable(world, href, &e);
            ArtProblem { href: href.to_string(), message: why.message, hint: why.hint }
        })
    }

    /// Checked bytes → what usvg draws, with the size of a raster image.
    fn kind(
        &self,
        href: &str,
        data: Arc<Vec<u8>>,
        options: &usvg::Options,
    ) -> Result<(ImageKind, Option<Info>), ArtProblem> {
        let problem = |message: String| ArtProblem {
            href: href.to_string(),
            message: format!("image `{href}` cannot be used: {message}"),
            hint: None,
        };
        let info = self.checked.inspect(&data, self.max_pixels).map_err(problem)?;
        // A CMYK JPEG, or art in an RGB profile of its own, is drawn as sRGB made of it
        // (`press::drawable`): the renderer garbled the one and ignored the other's
        // profile, which the PDF applied. A press still prints a CMYK JPEG's own ink.
        if info.format.is_raster() {
            if let Some(drawn) =
                self.checked.drawn_as(&data, crate::press::drawable).map_err(problem)?
            {
                return Ok((ImageKind::PNG(drawn), Some(info)));
            }
        }
        Ok(match info.format {
            Format::Png => (ImageKind::PNG(data), Some(info)),
            Format::Jpeg => (ImageKind::JPEG(data), Some(info)),
            Format::Gif => (ImageKind::GIF(data), Some(info)),
            Format::Webp => (ImageKind::WEBP(data), Some(info)),
            Format::Svg => {
                let text = crate::world::plain_svg(&data).map_err(problem)?;
                // Art inside art draws no file it links to (an SVG drawn as an image never
                // does, in browsers either): said, not dropped in silence.
                let plain = String::from_utf8_lossy(&text);
                if let Some(linked) = crate::svg::linked_file(&plain) {
                    return Err(ArtProblem {
                        href: href.to_string(),
                        message: format!("image `{href}` links to `{linked}`, which an SVG drawn as art never draws"),
                        hint: Some(format!("embed `{linked}` in `{href}` as a data: URL (most editors can), or draw it from the template with its own <image>")),
                    });
                }
                // Nested art draws no external images of its own (as the SVG spec says).
                let tree = crate::svg::picture(&text, options).map_err(problem)?;
                (ImageKind::SVG(tree), None)
            }
        })
    }
}

/// The `href`s of `svg` written as plain paths: no template expression in them, no
/// fragment (`#id`), `data:` or URL.
fn literal_hrefs(svg: &str) -> impl Iterator<Item = &str> {
    href_values(svg).map(|(_, value)| value).filter(|value| {
        !value.is_empty()
            && !value.contains(['{', '%', '#'])
            && !value.starts_with("data:")
            && !value.contains("://")
    })
}

pub(super) use crate::svg::href_values;

/// The text of `written` between its `{{ … }}` and `{% … %}` tags, in order (the text
/// before the first and after the last included, empty or not); a tag not closed is text.
pub(super) fn outside_tags(written: &str) -> Vec<&str> {
    let tag = |text: &str| {
        [("{{", "}}"), ("{%", "%}")]
            .into_iter()
            .filter_map(|(open, close)| {
                let start = text.find(open)?;
                let end = start + text[start..].find(close)? + close.len();
                Some((start, end))
            })
            .min()
    };
    let mut pieces = vec![];
    let mut rest = written;
    while let Some((start, end)) = tag(rest) {
        pieces.push(&rest[..start]);
        rest = &rest[end..];
    }
    pieces.push(rest);
    pieces
}

/// Whether `written`, an href (or any text) as the template writes it, fills to `href`:
/// its text outside `{{ … }}` is `href`'s, in order, whatever the expressions print.
/// Text between `{% … %}` tags may be left out, so there only the text before the first
/// tag and after the last counts.
pub(super) fn fills_to(written: &str, href: &str) -> bool {
    let mut pieces = outside_tags(written);
    if written.contains("{%") && pieces.len() > 2 {
        pieces = vec![pieces[0], pieces[pieces.len() - 1]];
    }
    let [first, middle @ .., last] = &pieces[..] else { return written == href };
    let Some(mut between) = href.strip_prefix(first).and_then(|h| h.strip_suffix(last)) else {
        return false;
    };
    middle.iter().all(|piece| match between.find(piece) {
        Some(i) => {
            between = &between[i + piece.len()..];
            true
        }
        None => false,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_hrefs_written_as_plain_paths_are_checked_ahead() {
        let svg = r##"<svg><image href="art/back.jpg"/><image xlink:href='art/b c.png'/>
            <image href="art/suit-{{ card.suit }}.png"/><use href="#frame"/>
            <image href="data:image/png;base64,AAAA"/><image href="https://x.org/a.png"/>
            <image href="{% if x %}a.png{% endif %}"/><image href=""/><a href=art/bare.png/>"##;
        assert_eq!(super::literal_hrefs(svg).collect::<Vec<_>>(), ["art/back.jpg", "art/b c.png"]);
    }

    #[test]
    fn a_written_href_fills_to_the_paths_its_tags_can_make() {
        use super::fills_to;
        assert!(fills_to("art/mark-{{ card.colour | lower }}.png", "art/mark-blue.png"));
        assert!(fills_to("{{ card.art }}", "art/anything.jpg"));
        assert!(fills_to("art/{{ a }}/{{ b }}.png", "art/x/y.png"));
        assert!(fills_to("art/{% if x %}a{% else %}b{% endif %}.png", "art/b.png"));
        assert!(!fills_to("art/emblem.png", "art/mark-blue.png"));
        assert!(!fills_to("art/mark-{{ c }}.png", "art/mark-blue.jpg"));
        assert!(!fills_to("art/{{ a }}/{{ b }}.png", "art/xy.png"));
        // The fixed parts may not overlap: "ab" is not "ab{{ x }}b".
        assert!(!fills_to("ab{{ x }}b", "ab"));
    }
}
