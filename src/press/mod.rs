//! Colour for a press: the sRGB art of every piece becomes the CMYK a printing press
//! prints, through an ICC profile with lcms2 (Little CMS, the colour engine of most
//! print software). Used by the PDF writer (`--colour cmyk`, `--for drivethrucards`) and
//! by `preview --proof`, which shows the art after a round trip through the press.
//!
//! Rules, in order: a colour a catalogue declares as a swatch prints as its exact CMYK;
//! pure black text and lines print with black ink alone (four inks would misregister
//! around small letters), black areas with the catalogue's rich black if it has one;
//! every other colour and every image goes through the profile, relative colorimetric
//! with black-point compensation unless `--intent perceptual`.

mod art;
mod condition;
mod inspect;
mod jpeg;
mod photo;
mod transform;

pub use art::drawable;
use condition::FOGRA39;
pub use condition::{proof_condition, Condition, Pdfx, PressSpec, RenderIntent};
pub use inspect::{
    inspect, inspect_ahead, moved_colours, Finding, Inspection, Moved, FINE_TEXT_INK,
};
use inspect::{walk, Met};
pub use transform::start_transform;
pub(crate) use transform::{cmyk_to_srgb, ToScreen};
use transform::{to_cmyk, ToLab, Transform8};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use lcms2::{CIExyY, Flags, Intent, PixelFormat, Profile, ThreadContext, Transform};

/// CMYK as the PDF holds it: each ink 0..=255 for 0..=100 %.
pub type Cmyk = [u8; 4];

/// Total ink of a CMYK colour in percent (400 % is all four inks solid).
pub fn ink(c: Cmyk) -> f32 {
    pixels::ink(c)
}

/// A CMYK colour from percentages, as catalogues write them.
pub fn from_percent(p: [f32; 4]) -> Cmyk {
    p.map(|v| (v.clamp(0.0, 100.0) * 2.55).round() as u8)
}

/// An image converted for the press, once per distinct file.
#[derive(Debug, Clone)]
pub struct PressImage {
    /// What the PDF draws, made when first drawn: a translucent image under PDF/X-1a
    /// never is (it is laid onto what lies under it), and krilla deflates an image as soon
    /// as it is made.
    image: Arc<std::sync::OnceLock<Option<krilla::image::Image>>>,
    /// The converted pixels it is made from, until then.
    pixels: Option<CmykPixels>,
    /// The most ink any pixel takes.
    ink: ImageInk,
    /// Whether some pixel is not fully opaque (transparency, which PDF/X-1a forbids).
    pub translucent: bool,
    /// The decoded pixels of a translucent image, to lay it onto what lies under it.
    pub rgba: Option<Arc<(Vec<u8>, u32, u32)>>,
}

/// The most ink of an image's pixels: known, or known once its photo is converted.
#[derive(Clone)]
enum ImageInk {
    Known(f32),
    Photo(Arc<photo::Photo>),
}

impl std::fmt::Debug for ImageInk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImageInk::Known(ink) => write!(f, "{ink}"),
            ImageInk::Photo(_) => f.write_str("a photo's"),
        }
    }
}

/// A tree and an image of it laid ahead.
type LaidAhead = (Arc<usvg::Tree>, Option<krilla::image::Image>);

/// An image's bytes (kept so that their address is not reused) and what they become,
/// converted by the first thread that asks: another that asks meanwhile waits for it
/// rather than converting the image a second time.
type ConvertedImage = (Arc<Vec<u8>>, std::sync::OnceLock<Option<PressImage>>);

/// The colour conversion of one build: a profile, the catalogue's swatches and the
/// caches that make each distinct colour and image converted once.
pub struct Press {
    pub condition: Condition,
    pub pdfx: Pdfx,
    pub ink_limit: f32,
    /// Text smaller than this (pt) printed in more than one ink is a registration risk
    /// (`[check] fine_text_pt`, 8 by default).
    pub fine_text_pt: f32,
    /// The smallest text and the thinnest line (pt) the job's service prints: what a piece
    /// drawn as a picture is held to, measured before it was.
    pub floor: (f32, f32),
    swatches: HashMap<[u8; 3], Cmyk>,
    rich_black: Option<Cmyk>,
    to_cmyk: Arc<Transform8>,
    /// For the soft proof only: made when first asked for.
    to_screen: std::sync::OnceLock<Option<ToScreen>>,
    to_lab: std::sync::OnceLock<Option<ToLab>>,
    /// The sRGB grey each amount of black ink alone prints as (`k_only`), made once.
    greys_of_k: std::sync::OnceLock<Option<[u8; 256]>>,
    colours: Mutex<HashMap<[u8; 3], Cmyk>>,
    images: Mutex<HashMap<usize, Arc<ConvertedImage>>>,
    /// Translucent images laid onto what lies under them, by image and result.
    laid: Mutex<HashMap<(usize, u64), krilla::image::Image>>,
    /// Translucent images laid onto their backdrops ahead of the drawing (`lay_ahead`), by
    /// tree and image node; the tree is held so that neither address is reused meanwhile.
    laid_ahead: Mutex<HashMap<(usize, usize), LaidAhead>>,
    /// The photos' pixels held between their checks and their conversions.
    held_pixels: Arc<photo::Budget>,
}

/// Bytes of checked photos' pixels held for their conversions (`photo::Budget`).
const HELD_PIXELS: usize = 16 << 20;

// The sRGB → CMYK transform sampled every `pixels::LUT_STEP` levels of each channel,
// interpolated tetrahedrally between (as lcms2 itself does inside): within 3 levels of
// 255 (1.2 % ink), 0.14 on average, of the transform (the test below measures it).
use pixels::Lut;

/// Threads for converting one picture: every core, up to 8.
fn threads() -> usize {
    crate::parallel::cores().min(8)
}

/// The CMYK bytes of a drawn picture's straight RGBA pixels (`Lut::print_rgba`), and the
/// most ink a pixel takes, in percent; on every core for a large picture (the table is
/// shared), a small one (an emblem) here: starting threads for it cost more than they saved.
fn print_pixels(lut: &Lut, rgba: &[u8]) -> (Vec<u8>, f32) {
    let mut cmyk = vec![0u8; rgba.len()];
    let threads = threads();
    let most = if rgba.len() / 4 < 1 << 18 || threads < 2 {
        lut.print_rgba(rgba, &mut cmyk)
    } else {
        let chunk = (rgba.len() / 4).div_ceil(threads) * 4;
        std::thread::scope(|scope| {
            let parts: Vec<_> = rgba
                .chunks(chunk)
                .zip(cmyk.chunks_mut(chunk))
                .map(|(src, dst)| scope.spawn(|| lut.print_rgba(src, dst)))
                .collect();
            parts
                .into_iter()
                .map(|p| p.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .max()
                .unwrap_or(0)
        })
    };
    (cmyk, pixels::ink_of_total(most))
}

impl std::fmt::Debug for Press {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Press({}, {})", self.condition.identifier, self.pdfx.version())
    }
}

impl Press {
    /// The press for a catalogue: its `[colour]` swatches and rich black print as their
    /// own inks.
    pub fn for_catalogue(
        condition: Condition,
        pdfx: Pdfx,
        intent: RenderIntent,
        ink_limit: Option<f32>,
        colours: &crate::model::PressColours,
    ) -> Result<Self, String> {
        let swatches =
            colours.swatches.iter().map(|(rgb, cmyk)| (*rgb, from_percent(*cmyk))).collect();
        Press::new(
            condition,
            pdfx,
            intent,
            ink_limit,
            swatches,
            colours.rich_black.map(from_percent),
        )
    }

    pub fn new(
        condition: Condition,
        pdfx: Pdfx,
        intent: RenderIntent,
        ink_limit: Option<f32>,
        swatches: HashMap<[u8; 3], Cmyk>,
        rich_black: Option<Cmyk>,
    ) -> Result<Self, String> {
        let to_cmyk = to_cmyk(&condition.profile, intent);
        let ink_limit = ink_limit.unwrap_or(condition.ink_limit);
        Ok(Press {
            condition,
            pdfx,
            ink_limit,
            fine_text_pt: crate::model::Legibility::default().fine_text_pt,
            floor: (0.0, 0.0),
            swatches,
            rich_black,
            to_cmyk,
            to_screen: Default::default(),
            to_lab: Default::default(),
            greys_of_k: Default::default(),
            colours: Mutex::default(),
            images: Mutex::default(),
            laid: Mutex::default(),
            laid_ahead: Mutex::default(),
            held_pixels: photo::Budget::new(HELD_PIXELS),
        })
    }

    /// The printing condition's profile as a PDF embeds it in its output intent.
    pub fn embedded_profile(&self) -> Option<krilla::icc::ICCProfile<4>> {
        self.to_cmyk.embedded().cloned()
    }

    /// Waits for the colour transform; its error if it cannot be made. Call before
    /// converting: a conversion without a transform gives black.
    pub fn ready(&self) -> Result<(), String> {
        self.to_cmyk.get().map(|_| ()).map_err(Clone::clone)
    }

    fn to_screen(&self) -> Option<&ToScreen> {
        self.to_screen.get_or_init(|| cmyk_to_srgb(&self.condition.profile, true)).as_ref()
    }

    fn to_lab(&self) -> Option<&ToLab> {
        self.to_lab
            .get_or_init(|| {
                let ctx = ThreadContext::new();
                let lab = Profile::new_lab4_context(&ctx, &CIExyY { x: 0.3457, y: 0.3585, Y: 1.0 })
                    .ok()?;
                Transform::new_flags_context(
                    &ctx,
                    &Profile::new_srgb_context(&ctx),
                    PixelFormat::RGB_8,
                    &lab,
                    PixelFormat::Lab_DBL,
                    Intent::RelativeColorimetric,
                    Flags::NO_CACHE,
                )
                .ok()
            })
            .as_ref()
    }

    /// The CMYK an sRGB colour prints as, for what it paints.
    pub fn cmyk(&self, rgb: [u8; 3], ink: krilla_svg::Ink) -> Cmyk {
        if let Some(&swatch) = self.swatches.get(&rgb) {
            return swatch;
        }
        if rgb == [0, 0, 0] {
            return match (ink, self.rich_black) {
                (krilla_svg::Ink::Area, Some(rich)) => rich,
                _ => [0, 0, 0, 255],
            };
        }
        if ink == krilla_svg::Ink::Text {
            if let Some(k) = self.k_only(rgb) {
                return k;
            }
        }
        let mut colours = self.colours.lock().unwrap_or_else(|e| e.into_inner());
        *colours.entry(rgb).or_insert_with(|| {
            let mut out = [[0u8, 0, 0, 255]];
            if let Ok(t) = self.to_cmyk.get() {
                t.transform_pixels(&[rgb], &mut out);
            }
            out[0]
        })
    }

    /// Near-neutral text in black ink alone: the profile separates a dark grey such as
    /// #141414 into all four inks (191 % for FOGRA39), whose plates never register
    /// exactly, so small text prints with coloured fringes. A grey whose channels lie
    /// within `NEUTRAL` levels of each other prints as the amount of K that looks as light
    /// through the profile (K 100 % for anything darker than K alone prints). A designer
    /// who wants a rich black for a colour names it as a swatch (`[colour.swatches]`).
    fn k_only(&self, rgb: [u8; 3]) -> Option<Cmyk> {
        /// Levels apart a text colour's channels may be and still be grey.
        const NEUTRAL: u8 = 6;
        let (lo, hi) = (rgb.iter().min()?, rgb.iter().max()?);
        if hi - lo > NEUTRAL {
            return None;
        }
        let greys = self.greys_of_k.get_or_init(|| {
            // 256 colours: a transform without lcms2's precomputed tables, which take
            // longer to make (a tenth of a deck's time) than these take to convert.
            let to_screen = cmyk_to_srgb(&self.condition.profile, false)?;
            let inks: Vec<[u8; 4]> = (0..=255u8).map(|k| [0, 0, 0, k]).collect();
            let mut seen = vec![[0u8; 3]; 256];
            to_screen.transform_pixels(&inks, &mut seen);
            let mut greys = [0u8; 256];
            for (g, [r, gr, b]) in greys.iter_mut().zip(seen) {
                *g = ((r as u16 + gr as u16 + b as u16) / 3) as u8;
            }
            Some(greys)
        });
        let greys = greys.as_ref()?;
        let level = (rgb.iter().map(|&v| v as u16).sum::<u16>() / 3) as u8;
        // The least K that prints as dark as the text (K grows darker as it grows).
        let k = greys.iter().position(|&g| g <= level).unwrap_or(255);
        Some([0, 0, 0, k as u8])
    }

    /// What an sRGB colour looks like once printed: through the press and back to screen.
    pub fn proof(&self, rgb: [u8; 3]) -> [u8; 3] {
        let mut out = [rgb];
        if let Some(t) = self.to_screen() {
            t.transform_pixels(&[self.cmyk(rgb, krilla_svg::Ink::Area)], &mut out);
        }
        out[0]
    }

    /// Proofs a whole picture of straight RGBA pixels in place: converted as the PDF
    /// converts pictures (pure black as black ink alone), and back to screen.
    pub fn proof_pixels(&self, rgba: &mut [u8]) {
        let Some(to_screen) = self.to_screen() else { return };
        let (cmyk, _) = print_pixels(self.lut(), rgba);
        let (cmyk, _) = cmyk.as_chunks::<4>();
        let mut back = vec![[0u8; 3]; cmyk.len()];
        to_screen.transform_pixels(cmyk, &mut back);
        for (p, b) in rgba.chunks_exact_mut(4).zip(back) {
            p[..3].copy_from_slice(&b);
        }
    }

    /// How far apart two sRGB colours look (CIEDE2000).
    pub fn delta_e(&self, a: [u8; 3], b: [u8; 3]) -> f64 {
        use lcms2::CIELabExt;
        let mut lab = [[0f64; 3]; 2];
        if let Some(t) = self.to_lab() {
            t.transform_pixels(&[a, b], &mut lab);
        }
        let lab = lab.map(|[l, a, b]| lcms2::CIELab { L: l, a, b });
        lab[0].cie2000_delta_e(&lab[1], 1.0, 1.0, 1.0)
    }

    /// Converts straight RGBA pixels to a CMYK image (alpha kept as a soft mask when some
    /// pixel is not opaque).
    pub fn image_from_rgba(&self, rgba: &[u8], width: u32, height: u32) -> Option<PressImage> {
        let (cmyk, max_ink) = print_pixels(self.lut(), rgba);
        let translucent = !pixels::is_opaque(rgba);
        let alpha = translucent.then(|| pixels::alpha(rgba));
        let pixels =
            CmykPixels { cmyk: Arc::new(cmyk), alpha: alpha.map(Arc::new), size: (width, height) };
        Some(PressImage {
            image: Default::default(),
            pixels: Some(pixels),
            ink: ImageInk::Known(max_ink),
            translucent,
            rgba: None,
        })
    }

    fn lut(&self) -> &Lut {
        self.to_cmyk.lut()
    }

    /// The press image of a raster image's bytes, converted once per distinct `Arc`.
    pub fn image(&self, data: &Arc<Vec<u8>>) -> Option<PressImage> {
        let key = Arc::as_ptr(data) as usize;
        let slot = self
            .images
            .lock()
            .ok()?
            .entry(key)
            .or_insert_with(|| Arc::new((data.clone(), Default::default())))
            .clone();
        slot.1.get_or_init(|| self.convert_image(&slot.0)).clone()
    }

    fn convert_image(&self, data: &Arc<Vec<u8>>) -> Option<PressImage> {
        // CMYK art prints the ink it holds, not its RGB drawing put back through a profile.
        let jpeg = crate::images::carried_jpeg(data).unwrap_or(data);
        if crate::images::jpeg_ink_kind(jpeg).is_some() {
            let (cmyk, w, h) = crate::images::jpeg_ink(jpeg, false).ok()?;
            let most = cmyk.chunks_exact(4).map(|p| p.iter().map(|&v| v as u32).sum()).max();
            let pixels = CmykPixels { cmyk: Arc::new(cmyk), alpha: None, size: (w, h) };
            return Some(PressImage {
                image: Default::default(),
                pixels: Some(pixels),
                ink: ImageInk::Known(pixels::ink_of_total(most.unwrap_or(0))),
                translucent: false,
                rgba: None,
            });
        }
        // A photo (a JPEG, always opaque) prints as a CMYK JPEG, smaller and quicker to
        // write than deflated CMYK pixels, converted when krilla writes it (`photo.rs`).
        if crate::images::sniff(data) == Some(crate::images::Format::Jpeg) {
            if let Some(photo) = photo::Photo::new(data, &self.to_cmyk) {
                return Some(PressImage {
                    image: Default::default(),
                    pixels: None,
                    ink: ImageInk::Photo(photo),
                    translucent: false,
                    rgba: None,
                });
            }
        }
        crate::images::rgba(data).ok().and_then(|(rgba, w, h)| {
            let mut image = self.image_from_rgba(&rgba, w, h)?;
            if image.translucent {
                image.rgba = Some(Arc::new((rgba, w, h)));
            }
            Some(image)
        })
    }

    /// Starts converting `photo` (on krilla's threads, which start on an image as soon as
    /// it is made) while the pieces before the first page that draws it are parsed and
    /// drawn; from `pixels` when its check decoded it.
    pub fn convert_ahead(&self, photo: &Arc<Vec<u8>>, pixels: Option<crate::images::Rgba>) {
        if let Some(image) = self.image(photo) {
            if let (ImageInk::Photo(photo), Some(pixels)) = (&image.ink, pixels) {
                photo.give(pixels, &self.held_pixels);
            }
            image.drawn();
        }
    }

    /// Lays `tree`'s translucent images onto their backdrops for PDF/X-1a, on the thread
    /// that parses the pieces, so that the thread that draws them only takes the results
    /// (`image_on`).
    pub fn lay_ahead(&self, tree: &Arc<usvg::Tree>) {
        if self.pdfx != Pdfx::X1a {
            return;
        }
        let mut translucent = Vec::new();
        walk(tree.root(), false, &mut |met| {
            if let Met::Image { image, data, nested: false } = met {
                // A JPEG has no alpha: it is never laid.
                if matches!(image.kind(), usvg::ImageKind::JPEG(_)) {
                    return;
                }
                if let Some(plain) = self.image(data).filter(|i| i.rgba.is_some()) {
                    translucent.push((image, data, plain));
                }
            }
        });
        for (node, data, plain) in &translucent {
            let laid = self.lay(node, tree, data, plain);
            let key = (Arc::as_ptr(tree) as usize, std::ptr::from_ref(*node) as usize);
            if let Ok(mut ahead) = self.laid_ahead.lock() {
                ahead.insert(key, (tree.clone(), laid));
            }
        }
    }

    /// Forgets what was laid ahead and not drawn (pieces drawn as one picture).
    pub fn forget_laid_ahead(&self) {
        if let Ok(mut ahead) = self.laid_ahead.lock() {
            ahead.clear();
        }
    }

    /// The image a raster image node prints as. PDF/X-1a has no transparency, so a
    /// translucent image is laid onto what the tree draws under it (rendered at the
    /// image's own pixels) and printed opaque: the same on paper, with the rest of the
    /// piece still vector art and text. Equal results are one image.
    pub fn image_on(
        &self,
        node: &usvg::Image,
        tree: Option<&usvg::Tree>,
    ) -> Option<krilla::image::Image> {
        let data = match node.kind() {
            usvg::ImageKind::PNG(d)
            | usvg::ImageKind::JPEG(d)
            | usvg::ImageKind::GIF(d)
            | usvg::ImageKind::WEBP(d) => d,
            usvg::ImageKind::SVG(_) => return None,
        };
        let plain = self.image(data)?;
        let (Some(_), Pdfx::X1a, Some(tree)) = (plain.rgba.as_ref(), self.pdfx, tree) else {
            return plain.drawn();
        };
        let key = (std::ptr::from_ref(tree) as usize, std::ptr::from_ref(node) as usize);
        if let Some((_, laid)) = self.laid_ahead.lock().ok()?.remove(&key) {
            return laid;
        }
        self.lay(node, tree, data, &plain)
    }

    /// Translucent image `node` (`data`, converted as `plain`) laid onto what `tree` draws
    /// under it, once per distinct result.
    fn lay(
        &self,
        node: &usvg::Image,
        tree: &usvg::Tree,
        data: &Arc<Vec<u8>>,
        plain: &PressImage,
    ) -> Option<krilla::image::Image> {
        let (over, w, h) = plain.rgba.as_deref()?;
        let under = backdrop(tree, node, *w, *h)?;
        // The same image on the same backdrop is the same picture: laid once.
        let key = (Arc::as_ptr(data) as usize, pixels::fnv_words(under.data()));
        if let Some(image) = self.laid.lock().ok()?.get(&key) {
            SPARE_BACKDROP.set(under.take());
            return Some(image.clone());
        }
        // Laid without the lock: the thread that draws and the one that lays ahead can
        // lay two different pictures at once.
        let mut under = under.take();
        pixels::lay_over(&mut under, over);
        let image = self.image_from_rgba(&under, *w, *h)?.drawn()?;
        Some(self.laid.lock().ok()?.entry(key).or_insert(image).clone())
    }
}

thread_local! {
    /// The pixels of a backdrop that was let go of, for the next.
    static SPARE_BACKDROP: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// What `tree` draws under image `node`, at the image's own pixels (`w` × `h`), over
/// white paper, as straight RGBA: every node painted before it, whole.
fn backdrop(
    tree: &usvg::Tree,
    node: &usvg::Image,
    w: u32,
    h: u32,
) -> Option<resvg::tiny_skia::Pixmap> {
    use resvg::tiny_skia::{IntSize, Pixmap, Transform};
    // White paper, in the pixels of the last backdrop that was only looked up: most are
    // (the same emblem on the same background), and a new picture each time had the
    // kernel zero its pages.
    let mut paper = SPARE_BACKDROP.take();
    paper.clear();
    paper.resize(w as usize * h as usize * 4, 255);
    let mut pixmap = Pixmap::from_vec(paper, IntSize::from_wh(w, h)?)?;
    let size = node.size();
    // Tree coordinates → the image's pixels.
    let base = Transform::from_scale(w as f32 / size.width(), h as f32 / size.height())
        .pre_concat(node.abs_transform().invert()?);
    let area = node.abs_bounding_box();
    fn overlaps(a: usvg::Rect, b: usvg::Rect) -> bool {
        a.left() < b.right() && b.left() < a.right() && a.top() < b.bottom() && b.top() < a.bottom()
    }
    fn under(
        group: &usvg::Group,
        target: &usvg::Image,
        base: Transform,
        area: usvg::Rect,
        pixmap: &mut Pixmap,
    ) -> bool {
        for child in group.children() {
            match child {
                usvg::Node::Image(image) if std::ptr::eq(image.as_ref(), target) => return true,
                usvg::Node::Group(inner) if contains(inner, target) => {
                    return under(inner, target, base, area, pixmap)
                }
                // Only what overlaps the image shows under it.
                _ if !child
                    .abs_layer_bounding_box()
                    .is_some_and(|b| overlaps(b.to_rect(), area)) => {}
                _ => {
                    // resvg draws a node at its layer box's corner; put it back in place.
                    if let Some(bbox) = child.abs_layer_bounding_box() {
                        let t = base
                            .pre_concat(group.abs_transform())
                            .pre_translate(bbox.x(), bbox.y());
                        resvg::render_node(child, t, &mut pixmap.as_mut());
                    }
                }
            }
        }
        false
    }
    fn contains(group: &usvg::Group, target: &usvg::Image) -> bool {
        group.children().iter().any(|c| match c {
            usvg::Node::Image(image) => std::ptr::eq(image.as_ref(), target),
            usvg::Node::Group(inner) => contains(inner, target),
            _ => false,
        })
    }
    if !under(tree.root(), node, base, area, &mut pixmap) {
        return None;
    }
    // Made straight where it lies: most backdrops are only hashed, to find them laid.
    pixels::make_straight(pixmap.data_mut());
    Some(pixmap)
}

impl krilla_svg::ColourMap for Press {
    fn colour(&self, rgb: [u8; 3], ink: krilla_svg::Ink) -> krilla::color::Color {
        let [c, m, y, k] = self.cmyk(rgb, ink);
        krilla::color::cmyk::Color::new(c, m, y, k).into()
    }

    fn image(
        &self,
        image: &usvg::Image,
        tree: Option<&usvg::Tree>,
    ) -> Option<krilla::image::Image> {
        self.image_on(image, tree)
    }

    fn pixels(&self, rgba: Vec<u8>, width: u32, height: u32) -> Option<krilla::image::Image> {
        self.image_from_rgba(&rgba, width, height)?.drawn()
    }
}

impl PressImage {
    /// The most ink any pixel takes, in percent; for a photo, once it is converted.
    pub fn max_ink(&self) -> f32 {
        match &self.ink {
            ImageInk::Known(ink) => *ink,
            ImageInk::Photo(photo) => photo.max_ink(),
        }
    }

    /// The image as the PDF draws it.
    pub fn drawn(&self) -> Option<krilla::image::Image> {
        let make = || match &self.ink {
            ImageInk::Photo(photo) => photo.image(),
            ImageInk::Known(_) => {
                krilla::image::Image::from_custom(self.pixels.clone()?, true).ok()
            }
        };
        self.image.get_or_init(make).clone()
    }
}

/// CMYK pixels (and alpha) for krilla's custom images.
#[derive(Clone)]
struct CmykPixels {
    cmyk: Arc<Vec<u8>>,
    alpha: Option<Arc<Vec<u8>>>,
    size: (u32, u32),
}

impl std::fmt::Debug for CmykPixels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CmykPixels {:?}", self.size)
    }
}

impl std::hash::Hash for CmykPixels {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // The pixels themselves: equal images are one XObject.
        self.cmyk.hash(state);
        self.alpha.hash(state);
        self.size.hash(state);
    }
}

impl krilla::image::CustomImage for CmykPixels {
    fn color_channel(&self) -> &[u8] {
        &self.cmyk
    }
    fn alpha_channel(&self) -> Option<&[u8]> {
        self.alpha.as_deref().map(|a| a.as_slice())
    }
    fn bits_per_component(&self) -> krilla::image::BitsPerComponent {
        krilla::image::BitsPerComponent::Eight
    }
    fn size(&self) -> (u32, u32) {
        self.size
    }
    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }
    fn color_space(&self) -> krilla::image::ImageColorspace {
        krilla::image::ImageColorspace::Cmyk
    }
}

/// `#rrggbb`.
pub fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

#[cfg(test)]
mod tests {
    use lcms2::DisallowCache;

    use super::transform::{cube, make_transform, sampled, Precision, SHIPPED};
    use super::*;

    /// A press through `condition`, relative colorimetric, with no swatches.
    fn relative_press(condition: Condition) -> Press {
        Press::new(condition, Pdfx::X1a, RenderIntent::Relative, None, HashMap::new(), None)
            .unwrap()
    }

    #[test]
    fn the_lookup_table_stays_within_three_levels_of_the_transform_it_samples() {
        for condition in [Condition::fogra39(), Condition::swop()] {
            let press = relative_press(condition);
            // Every 7th level of each channel: 37³ colours, off the grid's nodes.
            let levels: Vec<u8> = (0..=255u32).step_by(7).map(|v| v as u8).collect();
            let rgb = cube(&levels);
            let mut exact = vec![[0u8; 4]; rgb.len()];
            // Made apart from the press's, which a bundled profile never makes.
            make_transform(
                &press.condition.profile,
                RenderIntent::Relative,
                Precision::Precalculated,
            )
            .unwrap()
            .transform_pixels(&rgb, &mut exact);
            let table: Vec<[u8; 4]> = rgb.iter().map(|&c| press.lut().at(c)).collect();
            let diffs: Vec<i32> = exact
                .iter()
                .zip(&table)
                .flat_map(|(a, b)| (0..4).map(move |k| (a[k] as i32 - b[k] as i32).abs()))
                .collect();
            let worst = diffs.iter().max().copied().unwrap_or(0);
            let mean = diffs.iter().sum::<i32>() as f64 / diffs.len() as f64;
            assert!(
                worst <= 3 && mean < 0.25,
                "{}: worst {worst}, mean {mean:.3} levels",
                press.condition.identifier
            );
        }
    }

    /// The tables shipped for the bundled profiles are what sampling lcms2's transform
    /// makes today, byte for byte: a stale one (a new profile, a new lcms2) fails here.
    /// `DECKPRESS_BLESS=1` writes them instead, deliberately.
    #[test]
    fn shipped_lookup_tables_are_the_sampled_transform() {
        let bless = std::env::var_os("DECKPRESS_BLESS").is_some();
        let mut stale = Vec::new();
        for (shipped, file) in SHIPPED.iter().zip(["fogra39", "cgats-tr003"]) {
            let made =
                make_transform(shipped.profile, shipped.intent, Precision::Precalculated).unwrap();
            let sampled = sampled(&made);
            let path = format!(
                "{}/profiles/deckpress-{file}.{:?}.lut",
                env!("CARGO_MANIFEST_DIR"),
                shipped.intent
            )
            .to_lowercase();
            if bless {
                std::fs::write(&path, sampled.nodes.as_flattened()).unwrap();
            } else if sampled.nodes.as_flattened() != shipped.nodes {
                stale.push(path);
            }
        }
        assert!(
            stale.is_empty(),
            "{stale:?} differ from the sampled transform: DECKPRESS_BLESS=1 cargo test --lib shipped"
        );
    }

    /// A picture printed through a bundled profile reads the shipped table: lcms2's
    /// precalculated transform (18 ms) is never made.
    #[test]
    fn a_bundled_profile_prints_pictures_without_lcms2s_precalculation() {
        let press = relative_press(Condition::swop());
        let rgba = [200, 30, 60, 255].repeat(64);
        assert!(press.image_from_rgba(&rgba, 8, 8).is_some());
        press.ready().unwrap();
        assert!(matches!(press.lut().nodes, std::borrow::Cow::Borrowed(_)));
        assert!(press.to_cmyk.precalculated.get().is_none());
    }

    /// A flat colour prints as the profile converts it: within a level of lcms2's
    /// floating-point conversion, where its precalculated transform was up to 13 levels
    /// off (FOGRA39) in places.
    #[test]
    fn a_flat_colour_prints_as_the_profile_converts_it() {
        for condition in [Condition::fogra39(), Condition::swop()] {
            let ctx = ThreadContext::new();
            let float: Transform<[f64; 3], [f64; 4], ThreadContext, DisallowCache> =
                Transform::new_flags_context(
                    &ctx,
                    &Profile::new_srgb_context(&ctx),
                    PixelFormat::RGB_DBL,
                    &Profile::new_icc_context(&ctx, &condition.profile).unwrap(),
                    PixelFormat::CMYK_DBL,
                    Intent::RelativeColorimetric,
                    Flags::NO_CACHE | Flags::BLACKPOINT_COMPENSATION,
                )
                .unwrap();
            let press = relative_press(condition);
            let levels: Vec<u8> = (1..=255u32).step_by(9).map(|v| v as u8).collect();
            let rgb = cube(&levels);
            let wanted: Vec<[f64; 3]> = rgb.iter().map(|c| c.map(|v| v as f64 / 255.0)).collect();
            let mut percent = vec![[0f64; 4]; rgb.len()];
            float.transform_pixels(&wanted, &mut percent);
            for (c, p) in rgb.iter().zip(&percent) {
                let printed = press.cmyk(*c, krilla_svg::Ink::Area);
                let off =
                    (0..4).map(|k| (printed[k] as f64 - p[k] * 2.55).abs()).fold(0.0, f64::max);
                assert!(
                    off <= 1.0,
                    "{}: {c:?} prints as {printed:?}, the profile says {p:?} %",
                    press.condition.identifier
                );
            }
        }
    }
}
