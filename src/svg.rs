//! Every usvg parse is set up here: the one place an SVG is given a way to open files.
//! usvg's own default opens any path an `<image>` names (absolute, climbing, relative to
//! the working directory, a FIFO, `/dev/zero`), so no parse in deckpress uses it: an SVG
//! deckpress wrote itself links to nothing (`sealed`), a rulebook page reads its images
//! through the catalogue's `World` (`through`), and card art its own resolver
//! (`render::art`, also built on a `World`) handed to `with_resolver`.
//! `tests::no_usvg_options_are_made_elsewhere` keeps it so.

use std::sync::Arc;

use usvg::fontdb::Database;

use crate::world::World;

/// Options for an SVG whose links open nothing: deckpress's own pages and marks, and a
/// picture's own links (an SVG drawn as an image never draws the files it links to, as
/// the SVG spec says and browsers do).
pub fn sealed(fontdb: Arc<Database>) -> usvg::Options<'static> {
    with_resolver(fontdb, closed())
}

/// Options for a page whose `<image>`s are files of the catalogue `world` (a rulebook's
/// pictures): read through it, checked like art, an SVG among them opening nothing.
pub fn through(fontdb: Arc<Database>, world: &World) -> usvg::Options<'static> {
    with_resolver(fontdb, catalogue_images(world.clone()))
}

/// Options with deckpress's font and the given resolver, which must read through a
/// `World` (card art's logs what it draws, so it is made in `render::art`).
pub fn with_resolver(
    fontdb: Arc<Database>,
    image_href_resolver: usvg::ImageHrefResolver<'static>,
) -> usvg::Options<'static> {
    usvg::Options {
        font_family: crate::fonts::DEFAULT_FAMILY.to_string(),
        fontdb,
        image_href_resolver,
        resources_dir: None,
        ..usvg::Options::default()
    }
}

/// A resolver that opens no file: only pictures embedded as `data:` URLs are drawn, each
/// under the default pixel limit before it is decoded.
fn closed() -> usvg::ImageHrefResolver<'static> {
    let max_pixels = crate::limits::Limits::default().image_pixels;
    usvg::ImageHrefResolver {
        resolve_data: Box::new(move |mime, data, options| {
            if mime != "image/svg+xml" {
                crate::images::inspect(&data, max_pixels).ok()?;
            }
            (usvg::ImageHrefResolver::default_data_resolver())(mime, data, options)
        }),
        resolve_string: Box::new(|_, _| None),
    }
}

/// An SVG read as a picture (a rulebook's image, card art, an icon): its plain text
/// parsed with `options`, or why it cannot be drawn. One that links to a file is refused
/// rather than drawn without it; embedded `data:` pictures are drawn.
pub fn picture(data: &[u8], options: &usvg::Options) -> Result<usvg::Tree, String> {
    let text = crate::world::plain_svg(data)?;
    if let Some(linked) = linked_file(&String::from_utf8_lossy(&text)) {
        return Err(format!(
            "it links to `{linked}`, and an SVG drawn as a picture never draws the files it links to"
        ));
    }
    usvg::Tree::from_data_nested(&text, options).map_err(|e| format!("it is not valid SVG: {e}"))
}

/// The first `href` of an SVG that names a file: not a fragment (`#id`) nor a `data:` URL.
pub fn linked_file(svg: &str) -> Option<&str> {
    href_values(svg)
        .map(|(_, h)| h)
        .find(|h| !h.is_empty() && !h.starts_with('#') && !h.starts_with("data:"))
}

/// Every quoted `href` value of an SVG as written, with its offset in the text.
pub fn href_values(svg: &str) -> impl Iterator<Item = (usize, &str)> {
    svg.match_indices("href=").filter_map(|(i, _)| {
        let start = i + "href=".len();
        let quote = svg[start..].chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let rest = &svg[start + 1..];
        Some((start + 1, &rest[..rest.find(quote)?]))
    })
}

/// Images of a page, read from the catalogue folder only, under its pixel limit.
fn catalogue_images(world: World) -> usvg::ImageHrefResolver<'static> {
    let max_pixels = world.limits().image_pixels;
    usvg::ImageHrefResolver {
        resolve_data: closed().resolve_data,
        resolve_string: Box::new(move |href, options| {
            let data = world.read_bytes(href).ok()?;
            let info = crate::images::inspect(&data, max_pixels).ok()?;
            use crate::images::Format;
            match info.format {
                Format::Png => Some(usvg::ImageKind::PNG(data)),
                Format::Jpeg => Some(usvg::ImageKind::JPEG(data)),
                Format::Gif => Some(usvg::ImageKind::GIF(data)),
                Format::Webp => Some(usvg::ImageKind::WEBP(data)),
                Format::Svg => {
                    let inner = sealed(options.fontdb.clone());
                    picture(&data, &inner).ok().map(usvg::ImageKind::SVG)
                }
            }
        }),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// Every `.rs` file under `dir`, with its text.
    fn sources(dir: &Path, found: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }

    /// usvg's entry points (a parse, its options, a resolver) used anywhere in `src/`,
    /// each as `file:line: text`.
    fn uses_of(words: &[&str]) -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        sources(&root.join("src"), &mut files);
        sources(&root.join("crates"), &mut files);
        let mut found = Vec::new();
        for (file, text) in files {
            for (n, line) in text.lines().enumerate() {
                if words.iter().any(|w| line.contains(w)) && !line.trim_start().starts_with("//") {
                    let file = file.strip_prefix(root.to_str().unwrap()).unwrap_or(&file);
                    found.push(format!("{file}:{}: {}", n + 1, line.trim()));
                }
            }
        }
        found
    }

    #[test]
    fn no_usvg_options_are_made_elsewhere() {
        // A parse given usvg's default options would open any file an <image> names.
        let made = uses_of(&["usvg::Options::default", "usvg::Options {", "use usvg::"])
            .into_iter()
            .filter(|l| !l.contains("use usvg::") || l.contains("Options"))
            .filter(|l| !l.starts_with("/src/svg.rs:"))
            .collect::<Vec<_>>();
        assert!(made.is_empty(), "usvg options made outside src/svg.rs: {made:#?}");
        let resolvers = uses_of(&["ImageHrefResolver {", "default_string_resolver"])
            .into_iter()
            .filter(|l| !l.starts_with("/src/svg.rs:") && !l.starts_with("/src/render/art.rs:"))
            .collect::<Vec<_>>();
        assert!(
            resolvers.is_empty(),
            "resolvers that may not read through a World: {resolvers:#?}"
        );
    }

    #[test]
    fn every_parse_takes_options_made_here() {
        // Each parse's options come from this module (sealed, through, with_resolver),
        // directly or through a function of the caller that returns them.
        let parses = uses_of(&[
            "Tree::from_str(",
            "Tree::from_data(",
            "Tree::from_data_nested(",
            "Tree::from_xmltree(",
        ]);
        assert!(parses.len() >= 8, "the parses were not found: {parses:#?}");
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for parse in &parses {
            let file = parse.split(':').next().unwrap();
            let text = std::fs::read_to_string(root.join(file.trim_start_matches('/'))).unwrap();
            assert!(
                file == "/src/svg.rs"
                    || text.contains("svg::sealed(")
                    || text.contains("svg::through(")
                    || text.contains("svg::with_resolver("),
                "{parse}: its file never makes options with crate::svg"
            );
        }
    }

    #[test]
    fn a_picture_linking_a_file_is_refused_and_a_data_url_is_not() {
        let db = std::sync::Arc::new(usvg::fontdb::Database::new());
        let linked = br#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><image href="/etc/passwd" width="4" height="4"/></svg>"#;
        let why = super::picture(linked, &super::sealed(db.clone())).unwrap_err();
        assert!(why.contains("/etc/passwd"), "{why}");
        let own = br##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect id="r" width="4" height="4"/><use href="#r"/></svg>"##;
        assert!(super::picture(own, &super::sealed(db)).is_ok());
    }
}
