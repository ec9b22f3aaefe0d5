//! Designers' art files: which formats deckpress takes, and the checks every image gets
//! before it reaches a card: a known format, a bounded pixel count (no decompression
//! bombs), and a full decode with the same decoders the PDF writer and the previews use,
//! so a truncated file is an error at `validate`, not a failure deep in the PDF writer.

use std::collections::HashMap;
use std::io::Cursor;
use std::sync::{Arc, Mutex};

use crate::world::{ReadError, World};

/// The default cap on an image's pixel count: 100 megapixels is a 33 × 33 cm card at
/// 762 dpi, far beyond print; a 50000 × 50000 "bomb" is 25 times more.
pub const MAX_PIXELS: u64 = 100_000_000;

/// Raster images print sharp from 300 dpi; below 150 they look blurred on a card.
pub const GOOD_DPI: f32 = 300.0;
pub const POOR_DPI: f32 = 150.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Jpeg,
    Gif,
    Webp,
    Svg,
}

impl Format {
    pub fn is_raster(self) -> bool {
        self != Format::Svg
    }
}

/// What the checks learnt about an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Info {
    pub format: Format,
    /// Pixels across and down (for SVG art: 0 × 0, it has no pixels).
    pub width: u32,
    pub height: u32,
}

/// The format from the file's first bytes (the name may lie); SVG by its text.
pub fn sniff(data: &[u8]) -> Option<Format> {
    if data.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(Format::Png)
    } else if data.starts_with(&[0xff, 0xd8, 0xff]) {
        Some(Format::Jpeg)
    } else if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
        Some(Format::Gif)
    } else if data.len() >= 12 && &data[0..4] == b"RIFF" && &data[8..12] == b"WEBP" {
        Some(Format::Webp)
    } else if data.starts_with(&[0x1f, 0x8b]) {
        Some(Format::Svg) // gzip: an .svgz
    } else {
        let head = String::from_utf8_lossy(&data[..data.len().min(4096)]);
        head.contains("<svg").then_some(Format::Svg)
    }
}

/// Checks one image's bytes: format, pixel count, full decode. The message says what is
/// wrong in a designer's words.
pub fn inspect(data: &[u8], max_pixels: u64) -> Result<Info, String> {
    check(data, max_pixels, false).map(|(info, _)| info)
}

/// Straight RGBA pixels, width and height.
pub type Rgba = (Vec<u8>, u32, u32);

/// `inspect`, and with `keep` a JPEG's pixels as `rgba` decodes them (decoded once for the
/// check and for a press that converts the photo, instead of twice).
fn check(data: &[u8], max_pixels: u64, keep: bool) -> Result<(Info, Option<Rgba>), String> {
    let format = sniff(data).ok_or("it is not a PNG, JPEG, GIF, WebP or SVG image")?;
    if format == Format::Svg {
        return Ok((Info { format, width: 0, height: 0 }, None));
    }
    let size =
        imagesize::blob_size(data).map_err(|e| format!("its header cannot be read ({e})"))?;
    let (width, height) = (size.width as u64, size.height as u64);
    if width == 0 || height == 0 {
        return Err("it has no pixels".to_string());
    }
    if width * height > max_pixels {
        return Err(format!(
            "it is {width} × {height} pixels ({:.0} megapixels), more than the {:.0} megapixels deckpress decodes (--limit image-pixels=N)",
            (width * height) as f64 / 1e6,
            max_pixels as f64 / 1e6
        ));
    }
    let kept = match (format, keep) {
        (Format::Jpeg, true) => jpeg_rgba(data, true).map(Some),
        _ => decode(format, data).map(|()| None),
    }
    .map_err(|e| format!("it cannot be decoded: {e}; is the file complete?"))?;
    Ok((Info { format, width: width as u32, height: height as u32 }, kept))
}

/// A full decode, thrown away: the proof that the PDF writer and resvg can read it.
fn decode(format: Format, data: &[u8]) -> Result<(), String> {
    match format {
        Format::Png => {
            // Row by row: every row is inflated and unfiltered, with no buffer for the
            // whole picture (a fresh one for each image was a third of a build's page faults).
            let mut reader =
                png::Decoder::new(Cursor::new(data)).read_info().map_err(|e| e.to_string())?;
            while reader.next_row().map_err(|e| e.to_string())?.is_some() {}
            reader.finish().map_err(|e| e.to_string())?;
        }
        Format::Jpeg => {
            // Strict: a truncated JPEG is otherwise decoded with its missing rows grey,
            // as the PDF writer and resvg would print it.
            let strict =
                zune_jpeg::zune_core::options::DecoderOptions::default().set_strict_mode(true);
            let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(data), strict);
            decoder.decode_headers().map_err(|e| e.to_string())?;
            // Decoded to grey: every block of the compressed data is still read (the
            // proof), but the colour is neither transformed nor converted to RGB.
            if decoder.input_colorspace()
                == Some(zune_jpeg::zune_core::colorspace::ColorSpace::YCbCr)
            {
                let grey = zune_jpeg::zune_core::colorspace::ColorSpace::Luma;
                decoder.set_options(decoder.options().jpeg_set_out_colorspace(grey));
            }
            decoder.decode().map_err(|e| e.to_string())?;
        }
        Format::Gif => {
            let mut options = gif::DecodeOptions::new();
            options.set_color_output(gif::ColorOutput::RGBA);
            let mut decoder = options.read_info(data).map_err(|e| e.to_string())?;
            decoder.read_next_frame().map_err(|e| e.to_string())?.ok_or("the GIF has no frame")?;
        }
        Format::Webp => {
            let mut decoder =
                image_webp::WebPDecoder::new(Cursor::new(data)).map_err(|e| e.to_string())?;
            let mut buf = vec![0; decoder.output_buffer_size().ok_or("the image is too large")?];
            decoder.read_image(&mut buf).map_err(|e| e.to_string())?;
        }
        Format::Svg => {}
    }
    Ok(())
}

/// Straight (not premultiplied) RGBA pixels of a raster image, for conversions that need
/// every pixel (CMYK for a press). Embedded colour profiles are not applied: art is taken
/// as sRGB, as browsers and resvg take it.
pub fn rgba(data: &[u8]) -> Result<(Vec<u8>, u32, u32), String> {
    let format = sniff(data).ok_or("not a raster image")?;
    match format {
        Format::Png => {
            let mut decoder = png::Decoder::new(Cursor::new(data));
            decoder.set_transformations(png::Transformations::normalize_to_color8());
            let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
            let mut buf = vec![0; reader.output_buffer_size().ok_or("the image is too large")?];
            let frame = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
            let pixels = &buf[..frame.buffer_size()];
            let rgba = match frame.color_type {
                png::ColorType::Rgba => pixels.to_vec(),
                png::ColorType::Rgb => pixels::rgba_from_rgb(pixels),
                png::ColorType::GrayscaleAlpha => pixels::rgba_from_grey_alpha(pixels),
                png::ColorType::Grayscale => pixels::rgba_from_grey(pixels),
                png::ColorType::Indexed => {
                    return Err("an indexed PNG was not expanded".to_string())
                }
            };
            Ok((rgba, frame.width, frame.height))
        }
        Format::Jpeg => jpeg_rgba(data, false),
        Format::Gif => {
            let mut options = gif::DecodeOptions::new();
            options.set_color_output(gif::ColorOutput::RGBA);
            let mut decoder = options.read_info(data).map_err(|e| e.to_string())?;
            let (w, h) = (decoder.width() as u32, decoder.height() as u32);
            let frame = decoder
                .read_next_frame()
                .map_err(|e| e.to_string())?
                .ok_or("the GIF has no frame")?;
            // The first frame on a canvas of the GIF's size.
            let mut canvas = vec![0u8; (w * h * 4) as usize];
            for y in 0..frame.height as u32 {
                for x in 0..frame.width as u32 {
                    let (cx, cy) = (x + frame.left as u32, y + frame.top as u32);
                    if cx < w && cy < h {
                        let s = ((y * frame.width as u32 + x) * 4) as usize;
                        let d = ((cy * w + cx) * 4) as usize;
                        canvas[d..d + 4].copy_from_slice(&frame.buffer[s..s + 4]);
                    }
                }
            }
            Ok((canvas, w, h))
        }
        Format::Webp => {
            let mut decoder =
                image_webp::WebPDecoder::new(Cursor::new(data)).map_err(|e| e.to_string())?;
            let (w, h) = decoder.dimensions();
            let mut buf = vec![0; decoder.output_buffer_size().ok_or("the image is too large")?];
            decoder.read_image(&mut buf).map_err(|e| e.to_string())?;
            let rgba = if decoder.has_alpha() { buf } else { pixels::rgba_from_rgb(&buf) };
            Ok((rgba, w, h))
        }
        Format::Svg => Err("not a raster image".to_string()),
    }
}

/// A JPEG's RGBA pixels; `strict`: a truncated file is an error, not missing rows in grey.
fn jpeg_rgba(data: &[u8], strict: bool) -> Result<Rgba, String> {
    let options = zune_jpeg::zune_core::options::DecoderOptions::default()
        .set_strict_mode(strict)
        .jpeg_set_out_colorspace(zune_jpeg::zune_core::colorspace::ColorSpace::RGBA);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(data), options);
    let pixels = decoder.decode().map_err(|e| e.to_string())?;
    let (w, h) = decoder.dimensions().ok_or("the JPEG has no size")?;
    Ok((pixels, w as u32, h as u32))
}

/// A picture's pixels as straight (not premultiplied) RGBA bytes.
pub fn straight_rgba(pixmap: &resvg::tiny_skia::Pixmap) -> Vec<u8> {
    pixels::straight_rgba(pixmap.data())
}

/// Why an art file cannot be used, in a designer's words, and what would be right.
#[derive(Debug, Clone)]
pub struct ArtError {
    pub message: String,
    pub hint: Option<String>,
}

/// Reads an art file through `world` and checks it: its bytes and what they are, or why
/// it cannot be used. One wording for template hrefs, `file` fields and icons.
pub fn load(
    world: &World,
    path: &str,
    checked: &Checked,
) -> Result<(Arc<Vec<u8>>, Info), ArtError> {
    let data = world.read_bytes(path).map_err(|e| unreadable(world, path, &e))?;
    let info = checked.inspect(&data, world.limits().get("image-pixels")).map_err(|m| {
        ArtError { message: format!("image `{path}` cannot be used: {m}"), hint: None }
    })?;
    Ok((data, info))
}

/// Why `world` could not read art file `path`.
pub fn unreadable(world: &World, path: &str, error: &ReadError) -> ArtError {
    let (message, hint) = match error {
        ReadError::Escapes if path.contains("://") || path.starts_with("file:") => (
            format!("image `{path}` is a URL; deckpress reads art only from files inside the catalogue folder"),
            "copy the image into the catalogue (e.g. art/) and write its relative path".to_string(),
        ),
        ReadError::Escapes => (
            format!("image `{path}` is outside the catalogue folder"),
            "art paths are relative to the catalogue folder, like `art/emblem.png`, without `..`".to_string(),
        ),
        ReadError::NotFound => (
            format!("image `{path}` does not exist"),
            match world.closest_file(path) {
                Some(f) => format!("did you mean `{f}`?"),
                None => format!("paths are relative to {}", world.root().display()),
            },
        ),
        e => (format!("cannot read image `{path}`: {e}"), format!("paths are relative to {}", world.root().display())),
    };
    ArtError { message, hint: Some(hint) }
}

/// Each distinct image checked once per run, however many cards draw it: keyed by the
/// address of the bytes `World` shares between all its readers. Cards are parsed on every
/// core: a thread that asks for an image another is checking waits for that result
/// instead of decoding the image a second time.
#[derive(Default)]
pub struct Checked {
    results: Mutex<HashMap<usize, Arc<Once>>>,
    photo_watch: Mutex<Option<PhotoWatch>>,
    /// Whether the art the templates name has been sent to be checked ahead.
    ahead: std::sync::atomic::AtomicBool,
}

/// One image's check, made by the first thread that asks; the Arc is kept so that its
/// address is never reused by other bytes.
struct Once {
    data: Arc<Vec<u8>>,
    result: std::sync::OnceLock<Result<Info, String>>,
}

impl std::fmt::Debug for Checked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checked { .. }")
    }
}

impl Checked {
    /// Calls `watch` with every JPEG photo, those checked already and each one checked
    /// from now on, until the guard returned is dropped: a press converts them for print
    /// ahead of the pages that draw them.
    pub fn watch_photos(&self, watch: PhotoWatch) -> PhotoWatchGuard<'_> {
        let checked: Vec<Arc<Vec<u8>>> = match self.results.lock() {
            Ok(results) => results
                .values()
                .filter(|once| matches!(once.result.get(), Some(Ok(i)) if i.format == Format::Jpeg))
                .map(|once| once.data.clone())
                .collect(),
            Err(_) => Vec::new(),
        };
        for photo in &checked {
            watch(photo, None);
        }
        if let Ok(mut slot) = self.photo_watch.lock() {
            *slot = Some(watch);
        }
        PhotoWatchGuard(self)
    }

    /// True the first time only: the run's art is checked ahead once.
    pub fn start_ahead(&self) -> bool {
        !self.ahead.swap(true, std::sync::atomic::Ordering::Relaxed)
    }

    pub fn inspect(&self, data: &Arc<Vec<u8>>, max_pixels: u64) -> Result<Info, String> {
        let key = Arc::as_ptr(data) as usize;
        let once = match self.results.lock() {
            Ok(mut results) => results
                .entry(key)
                .or_insert_with(|| {
                    Arc::new(Once { data: data.clone(), result: Default::default() })
                })
                .clone(),
            Err(_) => return inspect(data, max_pixels),
        };
        // The thread that checks the image first tells the watch, if there is one, once
        // the check is done.
        let mut told = None;
        let result = once
            .result
            .get_or_init(|| {
                let watch = self.photo_watch.lock().ok().and_then(|w| w.clone());
                let (result, kept) = match check(&once.data, max_pixels, watch.is_some()) {
                    Ok((info, kept)) => (Ok(info), kept),
                    Err(e) => (Err(e), None),
                };
                if let (Some(watch), Ok(Info { format: Format::Jpeg, .. })) = (watch, &result) {
                    told = Some((watch, kept));
                }
                result
            })
            .clone();
        if let Some((watch, pixels)) = told {
            watch(&once.data, pixels);
        }
        result
    }
}

/// What is told of each photo checked (`Checked::watch_photos`): its bytes, and its
/// pixels when the check decoded them.
pub type PhotoWatch = Arc<dyn Fn(&Arc<Vec<u8>>, Option<Rgba>) + Send + Sync>;

/// Stops the watch when dropped.
pub struct PhotoWatchGuard<'a>(&'a Checked);

impl Drop for PhotoWatchGuard<'_> {
    fn drop(&mut self) {
        if let Ok(mut slot) = self.0.photo_watch.lock() {
            *slot = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pixel crate's straight colours are tiny-skia's, for every value under every alpha.
    #[test]
    fn straight_pixels_are_tiny_skias_demultiplied_ones() {
        use resvg::tiny_skia::PremultipliedColorU8;
        let mut premultiplied = Vec::new();
        let mut expected = Vec::new();
        for a in 0..=255u8 {
            for v in 0..=a {
                let p = PremultipliedColorU8::from_rgba(v, a - v, v / 2, a).unwrap();
                premultiplied.extend_from_slice(&[p.red(), p.green(), p.blue(), p.alpha()]);
                let c = p.demultiply();
                expected.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
        }
        assert_eq!(pixels::straight_rgba(&premultiplied), expected);
    }

    #[test]
    fn a_photo_checked_for_a_press_keeps_the_pixels_a_press_decodes() {
        let photo = include_bytes!("../tests/fixtures/photo.jpg");
        let (info, kept) = check(photo, u64::MAX, true).unwrap();
        assert_eq!(info.format, Format::Jpeg);
        assert_eq!(kept.unwrap(), rgba(photo).unwrap());
        // Kept or not, a truncated photo fails its check.
        let truncated = &photo[..photo.len() * 2 / 3];
        for keep in [false, true] {
            let checked = check(truncated, u64::MAX, keep);
            assert!(checked.unwrap_err().contains("cannot be decoded"));
        }
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgb);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&vec![128; (width * height * 3) as usize]).unwrap();
        writer.finish().unwrap();
        out
    }

    #[test]
    fn a_whole_png_passes_and_a_truncated_one_does_not() {
        let data = png(40, 30);
        assert_eq!(
            inspect(&data, MAX_PIXELS).unwrap(),
            Info { format: Format::Png, width: 40, height: 30 }
        );
        // Cut in its pixels, and cut only before its end (the pixels all there).
        for cut in [&data[..data.len() / 2], &data[..data.len() - 12]] {
            assert!(inspect(cut, MAX_PIXELS).unwrap_err().contains("cannot be decoded"));
        }
    }

    #[test]
    fn pixel_bombs_are_refused_before_decoding() {
        let data = png(400, 300);
        let err = inspect(&data, 100_000).unwrap_err();
        assert!(err.contains("400 × 300"), "{err}");
    }

    #[test]
    fn text_that_is_no_image_is_named() {
        assert!(inspect(b"hello", MAX_PIXELS).unwrap_err().contains("not a PNG"));
        assert_eq!(
            sniff(b"<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'/>"),
            Some(Format::Svg)
        );
    }
}
