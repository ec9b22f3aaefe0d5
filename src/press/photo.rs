//! A photo for the press, drawn before it is converted. The PDF draws it as a krilla
//! image that knows only its size; krilla asks for its CMYK JPEG when it writes the image
//! (`CustomImage::jpeg`, patch `krilla/06-custom-jpeg`), on its own threads, which start
//! on it as soon as the image is made. The pages that draw the photo (a card back is the
//! first page of a print service's file) no longer wait for its conversion.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::{jpeg, print_pixels, threads, Transform8};

/// A JPEG's bytes, converted once, by the first thread that asks.
pub(super) struct Photo {
    data: Arc<Vec<u8>>,
    size: (u32, u32),
    transform: Arc<Transform8>,
    made: OnceLock<Made>,
    /// Its most ink, when asked for before (or without) its conversion: `validate` needs
    /// no JPEG.
    ink: OnceLock<f32>,
    /// Its pixels, decoded by its check, until the conversion takes them.
    given: Mutex<Option<Held>>,
}

/// How many bytes of checked photos' pixels a press holds for their conversions. Photos
/// can be checked faster than krilla's threads convert them (a catalogue of large photos):
/// past the budget a conversion decodes its photo again rather than each waiting photo
/// holding its pixels.
pub(super) struct Budget {
    held: AtomicUsize,
    limit: usize,
}

impl Budget {
    pub fn new(limit: usize) -> Arc<Budget> {
        Arc::new(Budget { held: AtomicUsize::new(0), limit })
    }
}

/// Pixels held under a budget, given back to it when dropped.
struct Held {
    rgba: Vec<u8>,
    bytes: usize,
    budget: Arc<Budget>,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.budget.held.fetch_sub(self.bytes, Ordering::SeqCst);
    }
}

enum Made {
    /// A CMYK JPEG (stored as YCCK).
    Jpeg { bytes: Arc<Vec<u8>>, max_ink: f32 },
    /// Too large for a JPEG (65,535 pixels a side): CMYK pixels, deflated by krilla.
    Pixels { cmyk: Vec<u8>, max_ink: f32 },
}

impl Photo {
    /// The photo of JPEG bytes `data` (already checked readable), or `None` when its
    /// header gives no size.
    pub fn new(data: &Arc<Vec<u8>>, transform: &Arc<Transform8>) -> Option<Arc<Photo>> {
        let size = imagesize::blob_size(data).ok()?;
        let size = (u32::try_from(size.width).ok()?, u32::try_from(size.height).ok()?);
        Some(Arc::new(Photo {
            data: data.clone(),
            size,
            transform: transform.clone(),
            made: OnceLock::new(),
            ink: OnceLock::new(),
            given: Mutex::new(None),
        }))
    }

    /// The most ink any pixel takes, in percent: the conversion's, or found without
    /// encoding when the photo has not been converted.
    pub fn max_ink(&self) -> f32 {
        match self.made.get() {
            Some(Made::Jpeg { max_ink, .. } | Made::Pixels { max_ink, .. }) => *max_ink,
            None => *self.ink.get_or_init(|| self.ink_alone()),
        }
    }

    /// The ink `convert` would find, without making the JPEG.
    fn ink_alone(&self) -> f32 {
        let lut = self.transform.lut();
        match self.decoded() {
            Some(rgba) if jpeg::fits(self.size) => pixels::ink_of_total(lut.most_ink(&rgba)),
            Some(rgba) => print_pixels(lut, &rgba).1,
            None => 0.0,
        }
    }

    /// Gives the photo its pixels, decoded elsewhere, for its conversion, if `budget`
    /// has room for them.
    pub fn give(&self, (rgba, w, h): crate::images::Rgba, budget: &Arc<Budget>) {
        if (w, h) != self.size || self.made.get().is_some() {
            return;
        }
        let bytes = rgba.len();
        if budget.held.fetch_add(bytes, Ordering::SeqCst) + bytes > budget.limit {
            budget.held.fetch_sub(bytes, Ordering::SeqCst);
            return;
        }
        let held = Held { rgba, bytes, budget: budget.clone() };
        if let Ok(mut given) = self.given.lock() {
            *given = Some(held);
        }
    }

    /// The photo's straight RGBA pixels, at the size of its header: those given, or
    /// decoded now.
    fn decoded(&self) -> Option<Vec<u8>> {
        if let Some(mut held) = self.given.lock().ok().and_then(|mut g| g.take()) {
            return Some(std::mem::take(&mut held.rgba));
        }
        match crate::images::rgba(&self.data) {
            Ok((rgba, w, h)) if (w, h) == self.size => Some(rgba),
            _ => None,
        }
    }

    fn made(&self) -> &Made {
        self.made.get_or_init(|| self.convert())
    }

    fn convert(&self) -> Made {
        let lut = self.transform.lut();
        let (w, h) = self.size;
        let Some(rgba) = self.decoded() else {
            // Not reached: the photo was decoded when checked, at the size of its header.
            // Printed as white paper rather than stopping the writer's thread.
            return Made::Pixels { cmyk: vec![0; w as usize * h as usize * 4], max_ink: 0.0 };
        };
        if let Some(jpeg::CmykJpeg { bytes, max_ink }) = jpeg::encode(&rgba, w, h, lut, threads()) {
            return Made::Jpeg { bytes: Arc::new(bytes), max_ink };
        }
        let (cmyk, max_ink) = print_pixels(lut, &rgba);
        Made::Pixels { cmyk, max_ink }
    }

    /// The image the PDF draws; krilla starts converting it on its threads at once.
    pub fn image(self: &Arc<Self>) -> Option<krilla::image::Image> {
        krilla::image::Image::from_custom(PhotoImage(self.clone()), true).ok()
    }
}

/// A photo as krilla's custom image.
#[derive(Clone)]
struct PhotoImage(Arc<Photo>);

impl Hash for PhotoImage {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Equal files are one image, as krilla's own JPEGs are.
        "deckpress CMYK photo".hash(state);
        self.0.data.hash(state);
    }
}

impl krilla::image::CustomImage for PhotoImage {
    fn color_channel(&self) -> &[u8] {
        match self.0.made() {
            Made::Pixels { cmyk, .. } => cmyk,
            // Not asked for: `jpeg` gives the image.
            Made::Jpeg { .. } => &[],
        }
    }
    fn alpha_channel(&self) -> Option<&[u8]> {
        None
    }
    fn bits_per_component(&self) -> krilla::image::BitsPerComponent {
        krilla::image::BitsPerComponent::Eight
    }
    fn size(&self) -> (u32, u32) {
        self.0.size
    }
    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }
    fn color_space(&self) -> krilla::image::ImageColorspace {
        krilla::image::ImageColorspace::Cmyk
    }
    fn jpeg(&self) -> Option<krilla::Data> {
        match self.0.made() {
            Made::Jpeg { bytes, .. } => {
                Some(krilla::Data::from(bytes.clone() as Arc<dyn AsRef<[u8]> + Send + Sync>))
            }
            Made::Pixels { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An sRGB JPEG of `w` × `h` with saturated colours (over any ink limit somewhere).
    fn jpeg(w: u16, h: u16) -> Arc<Vec<u8>> {
        let mut rgb = Vec::new();
        for y in 0..h {
            for x in 0..w {
                rgb.extend_from_slice(&[(x * 9) as u8, (y * 5) as u8, 40]);
            }
        }
        let mut bytes = Vec::new();
        jpeg_encoder::Encoder::new(&mut bytes, 90)
            .encode(&rgb, w, h, jpeg_encoder::ColorType::Rgb)
            .unwrap();
        Arc::new(bytes)
    }

    /// The bundled SWOP profile's transform, relative colorimetric.
    fn swop() -> Arc<Transform8> {
        let condition = super::super::Condition::swop();
        super::super::to_cmyk(&condition.profile, super::super::RenderIntent::Relative)
    }

    #[test]
    fn pixels_are_held_within_the_budget_and_given_back_when_taken() {
        let (data, transform) = (jpeg(40, 30), swop());
        let pixels = || crate::images::rgba(&data).unwrap();
        let bytes = 40 * 30 * 4;
        // Room for one photo's pixels, not two.
        let budget = Budget::new(bytes + bytes / 2);
        let (first, second) =
            (Photo::new(&data, &transform).unwrap(), Photo::new(&data, &transform).unwrap());
        first.give(pixels(), &budget);
        second.give(pixels(), &budget);
        assert!(first.given.lock().unwrap().is_some());
        assert!(second.given.lock().unwrap().is_none(), "over the budget");
        assert_eq!(budget.held.load(Ordering::SeqCst), bytes);
        // The conversion takes them: the budget has room again, and the photo converts
        // to what it would have decoded itself.
        let ink = first.max_ink();
        assert_eq!(budget.held.load(Ordering::SeqCst), 0);
        assert_eq!(ink, second.max_ink());
        second.give(pixels(), &budget);
        assert!(second.given.lock().unwrap().is_some());
        drop(second);
        assert_eq!(budget.held.load(Ordering::SeqCst), 0, "a photo dropped gives them back");
    }

    #[test]
    fn the_ink_found_alone_is_the_conversions() {
        let (data, transform) = (jpeg(40, 30), swop());
        let alone = Photo::new(&data, &transform).unwrap();
        let converted = Photo::new(&data, &transform).unwrap();
        let Made::Jpeg { bytes, max_ink } = converted.made() else {
            panic!("a 40 × 30 photo is a JPEG");
        };
        assert!(*max_ink > 100.0, "{max_ink}");
        assert_eq!(alone.max_ink(), *max_ink);
        assert_eq!(converted.max_ink(), *max_ink);
        // krilla is given that JPEG, of the photo's size, as CMYK.
        let image = PhotoImage(converted.clone());
        use krilla::image::CustomImage;
        assert_eq!(image.jpeg().map(|d| d.as_ref().to_vec()), Some(bytes.to_vec()));
        let mut decoder = zune_jpeg::JpegDecoder::new(std::io::Cursor::new(bytes.as_slice()));
        decoder.decode_headers().unwrap();
        assert_eq!(decoder.dimensions(), Some((40, 30)));
        assert_eq!(image.size(), (40, 30));
    }
}
