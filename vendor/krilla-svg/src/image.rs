use krilla::geom::{Rect, Size};
use krilla::image::Image;
use krilla::paint::FillRule;
use krilla::surface::Surface;
use usvg::ImageKind;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::util::RectExt;
use crate::{group, ProcessContext};

/// deckpress patch: krilla decodes (and re-compresses) a PNG as soon as an `Image` is made,
/// so an emblem drawn on 60 cards was decoded 60 times. usvg trees that share image bytes
/// share one `Arc`; one krilla `Image` per `Arc` makes each distinct image decoded once per
/// document (see `SvgSettings::images`). The `Arc` is kept beside it so that its address
/// is never reused by other bytes while the cache lives.
#[derive(Default)]
pub struct ImageCache {
    images: Mutex<HashMap<usize, (Arc<Vec<u8>>, Option<Image>)>>,
}

impl std::fmt::Debug for ImageCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.images.lock().map(|images| images.len()).unwrap_or(0);
        f.debug_struct("ImageCache").field("images", &len).finish()
    }
}

impl ImageCache {
    /// The image made from `data`, made by `make` the first time it is asked for.
    fn get(&self, data: &Arc<Vec<u8>>, make: impl FnOnce() -> Option<Image>) -> Option<Image> {
        let key = Arc::as_ptr(data) as usize;
        if let Some((_, image)) = self.images.lock().ok()?.get(&key) {
            return image.clone();
        }
        let image = make();
        self.images.lock().ok()?.insert(key, (data.clone(), image.clone()));
        image
    }
}

fn cached(cache: Option<&ImageCache>, data: &Arc<Vec<u8>>, make: impl FnOnce() -> Option<Image>) -> Option<Image> {
    match cache {
        Some(cache) => cache.get(data, make),
        None => make(),
    }
}

/// Render an image into a surface.
///
/// Returns `None` if the image could not be rendered.
pub(crate) fn render(
    image: &usvg::Image,
    surface: &mut Surface,
    process_context: &mut ProcessContext,
) -> Option<()> {
    if !image.is_visible() {
        return Some(());
    }

    let size = Size::from_wh(image.size().width(), image.size().height()).unwrap();

    // deckpress patch: raster art for a press is converted by the colour map.
    if let (Some(map), false) = (process_context.svg_settings.colour, matches!(image.kind(), ImageKind::SVG(_))) {
        surface.draw_image(map.image(image, process_context.root)?, size);
        return Some(());
    }

    let images = process_context.svg_settings.images;
    match image.kind() {
        ImageKind::JPEG(d) => {
            let image = cached(images, d, || Image::from_jpeg(d.clone().into(), false).ok())?;
            surface.draw_image(image, size);
        }
        ImageKind::PNG(d) => {
            let image = cached(images, d, || Image::from_png(d.clone().into(), false).ok())?;
            surface.draw_image(image, size);
        }
        ImageKind::GIF(d) => {
            let image = cached(images, d, || Image::from_gif(d.clone().into(), false).ok())?;
            surface.draw_image(image, size);
        }
        ImageKind::WEBP(d) => {
            let image = cached(images, d, || Image::from_webp(d.clone().into(), false).ok())?;
            surface.draw_image(image, size);
        }
        ImageKind::SVG(t) => {
            let clip_path =
                Rect::from_xywh(0.0, 0.0, t.size().width(), t.size().height())?.to_clip_path();
            surface.push_clip_path(&clip_path, &FillRule::NonZero);
            group::render(t.root(), surface, process_context);
            surface.pop();
        }
    }

    Some(())
}
