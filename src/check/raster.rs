//! Pictures of pieces for the checks that look at them (contrast, colour alone): resvg,
//! but each PNG decoded once a run instead of once a picture. A deck's emblem drawn on
//! 60 cards was decoded 60 times, most of the time `validate` spent on pictures.

use std::sync::{Arc, Mutex};

use resvg::tiny_skia::{self, Pixmap, PixmapMut, Transform};

/// Decoded PNGs kept for a run, up to this many bytes of pixels: a designer's photos
/// past it are decoded each time, as resvg would.
const KEEP_BYTES: usize = 64 << 20;

#[derive(Default)]
pub struct Rasteriser {
    /// By the address of the image's bytes, which the parse shares between every piece
    /// that draws the file; the bytes are held so that the address is not reused.
    decoded: Mutex<Decoded>,
}

/// An image's bytes (held) and its pixels, `None` when they do not decode.
type Image = (Arc<Vec<u8>>, Option<Arc<Pixmap>>);

#[derive(Default)]
struct Decoded {
    images: rustc_hash::FxHashMap<usize, Image>,
    bytes: usize,
}

impl Rasteriser {
    /// `tree` drawn onto `pixmap` with `transform`, as `resvg::render` draws it.
    pub fn render(&self, tree: &usvg::Tree, transform: Transform, pixmap: &mut PixmapMut) {
        if !has_png(tree.root()) {
            resvg::render(tree, transform, pixmap);
            return;
        }
        self.nodes(tree.root(), transform, pixmap);
    }

    /// A group's children, as resvg draws a group that needs no layer of its own; each
    /// PNG from the decoded ones, everything else by resvg.
    fn nodes(&self, group: &usvg::Group, transform: Transform, pixmap: &mut PixmapMut) {
        for node in group.children() {
            match node {
                usvg::Node::Group(g) if !g.should_isolate() && has_png(g) => {
                    self.nodes(g, transform.pre_concat(g.transform()), pixmap)
                }
                usvg::Node::Image(image) => match image.kind() {
                    usvg::ImageKind::PNG(data) => self.png(image, data, transform, pixmap),
                    _ => resvg_node(node, transform, pixmap),
                },
                _ => resvg_node(node, transform, pixmap),
            }
        }
    }

    /// As resvg's `render_raster`, from the decoded pixels.
    fn png(
        &self,
        image: &usvg::Image,
        data: &Arc<Vec<u8>>,
        transform: Transform,
        pixmap: &mut PixmapMut,
    ) {
        if !image.is_visible() {
            return;
        }
        let Some(raster) = self.decoded(data) else { return };
        let Some(rect) = tiny_skia::Size::from_wh(raster.width() as f32, raster.height() as f32)
            .and_then(|s| s.to_rect(0.0, 0.0))
        else {
            return;
        };
        use usvg::ImageRendering as R;
        let quality = match image.rendering_mode() {
            R::OptimizeQuality | R::HighQuality => tiny_skia::FilterQuality::Bicubic,
            R::Smooth => tiny_skia::FilterQuality::Bilinear,
            R::OptimizeSpeed | R::CrispEdges | R::Pixelated => tiny_skia::FilterQuality::Nearest,
        };
        let pattern = tiny_skia::Pattern::new(
            (*raster).as_ref(),
            tiny_skia::SpreadMode::Pad,
            quality,
            1.0,
            Transform::default(),
        );
        let paint = tiny_skia::Paint { shader: pattern, ..Default::default() };
        pixmap.fill_rect(rect, &paint, transform, None);
    }

    fn decoded(&self, data: &Arc<Vec<u8>>) -> Option<Arc<Pixmap>> {
        let address = Arc::as_ptr(data) as usize;
        if let Some((_, raster)) = self.lock().images.get(&address) {
            return raster.clone();
        }
        // Decoded outside the lock: the other core may be decoding another image.
        let raster = Pixmap::decode_png(data).ok().map(Arc::new);
        let size = raster.as_ref().map_or(0, |r| r.data().len());
        let mut decoded = self.lock();
        if decoded.bytes + size <= KEEP_BYTES {
            decoded.bytes += size;
            decoded.images.insert(address, (data.clone(), raster.clone()));
        }
        raster
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Decoded> {
        self.decoded.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One node drawn by resvg where `resvg::render` would draw it: `render_node` puts the
/// node's layer box at the origin, so the transform is moved back by as much.
fn resvg_node(node: &usvg::Node, transform: Transform, pixmap: &mut PixmapMut) {
    let Some(bbox) = node.abs_layer_bounding_box() else { return };
    resvg::render_node(node, transform.pre_translate(bbox.x(), bbox.y()), pixmap);
}

/// Whether a PNG is drawn somewhere in `group`.
fn has_png(group: &usvg::Group) -> bool {
    group.children().iter().any(|node| match node {
        usvg::Node::Group(g) => has_png(g),
        usvg::Node::Image(i) => matches!(i.kind(), usvg::ImageKind::PNG(_)),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 × 2 PNG: red, green, blue and half-transparent white.
    fn png() -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, 2, 2);
        encoder.set_color(png::ColorType::Rgba);
        let mut writer = encoder.write_header().unwrap();
        let pixels = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128];
        writer.write_image_data(&pixels).unwrap();
        writer.finish().unwrap();
        out
    }

    fn base64(bytes: &[u8]) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n =
                chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
            for i in 0..4 {
                let c = if i <= chunk.len() { A[(n >> (18 - 6 * i) & 63) as usize] } else { b'=' };
                out.push(c as char);
            }
        }
        out
    }

    /// Pictures drawn from the decoded PNGs are resvg's, pixel for pixel (within a level of
    /// rounding), in a rotated group and scaled, and again from the images kept.
    #[test]
    fn a_piece_with_a_png_is_drawn_as_resvg_draws_it() {
        let data = base64(&png());
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">
            <rect width="40" height="30" fill="#f0e0c0"/>
            <g transform="translate(3 2) rotate(10)">
              <image x="4" y="3" width="20" height="16" href="data:image/png;base64,{data}"/>
              <text x="5" y="25" font-size="6" fill="#203060">x</text>
            </g>
            <image x="28" y="4" width="8" height="8" image-rendering="pixelated" href="data:image/png;base64,{data}"/>
        </svg>"##
        );
        let tree = usvg::Tree::from_str(&svg, &crate::svg::sealed(Default::default())).unwrap();
        let at = Transform::from_scale(2.5, 2.5);
        let mut by_resvg = Pixmap::new(100, 75).unwrap();
        resvg::render(&tree, at, &mut by_resvg.as_mut());
        let pictures = Rasteriser::default();
        for _ in 0..2 {
            let mut ours = Pixmap::new(100, 75).unwrap();
            pictures.render(&tree, at, &mut ours.as_mut());
            for (a, b) in ours.data().iter().zip(by_resvg.data()) {
                assert!(a.abs_diff(*b) <= 1, "{a} against resvg's {b}");
            }
        }
        // Each data: URL is bytes of its own: two images decoded, once each.
        assert_eq!(pictures.lock().images.len(), 2);
    }
}
