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
    if format == Format::Jpeg {
        turned(data)?;
    }
    let kept = match (format, keep) {
        // Ink is decoded as ink: zune-jpeg's RGBA of a CMYK or YCCK JPEG is garbled.
        (Format::Jpeg, _) if jpeg_ink_kind(data).is_some() => jpeg_ink(data, true).map(|_| None),
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
/// every pixel (CMYK for a press). Embedded colour profiles are not applied here: art in a
/// profile of its own reaches a press already drawn as sRGB (`press::drawable`).
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
        Format::Jpeg if jpeg_ink_kind(data).is_some() => {
            Err("a CMYK JPEG holds ink, which only a profile turns into RGB (jpeg_ink)".to_string())
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

/// How a JPEG of four channels holds its ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JpegInk {
    /// CMYK as stored: inverted (255 is no ink) when the file has Adobe's APP14 marker, as
    /// Photoshop, ImageMagick and Pillow write it; plain ink without one, as libjpeg and
    /// Pillow read such a file.
    Cmyk { adobe: bool },
    /// Adobe's transform 2: C, M and Y as YCbCr, K inverted.
    Ycck,
}

/// The JPEG's markers before its first scan: (marker, the segment's data).
fn jpeg_segments(data: &[u8]) -> impl Iterator<Item = (u8, &[u8])> {
    let mut at = 2; // after SOI
    std::iter::from_fn(move || {
        while data.get(at) == Some(&0xFF) && data.get(at + 1) == Some(&0xFF) {
            at += 1; // fill bytes
        }
        let marker = *data.get(at + 1).filter(|_| data[at] == 0xFF)?;
        if matches!(marker, 0xDA | 0xD9) {
            return None; // the scan, or the end
        }
        let len = u16::from_be_bytes([*data.get(at + 2)?, *data.get(at + 3)?]) as usize;
        let segment = data.get(at + 4..at + 2 + len.max(2))?;
        at += 2 + len;
        Some((marker, segment))
    })
}

/// Whether a JPEG holds four channels of ink, and how; `None` for grey and YCbCr.
pub fn jpeg_ink_kind(data: &[u8]) -> Option<JpegInk> {
    let (mut channels, mut transform) = (None, None);
    for (marker, segment) in jpeg_segments(data) {
        match marker {
            // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): the frame header.
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                channels = segment.get(5).copied()
            }
            0xEE if segment.starts_with(b"Adobe") => transform = segment.get(11).copied(),
            _ => {}
        }
    }
    match (channels?, transform) {
        (4, Some(2)) => Some(JpegInk::Ycck),
        (4, adobe) => Some(JpegInk::Cmyk { adobe: adobe.is_some() }),
        _ => None,
    }
}

/// A JPEG's ink, four bytes a pixel from 0 (none) to 255 (full), width and height.
/// `strict`: a truncated file is an error, not missing rows.
pub fn jpeg_ink(data: &[u8], strict: bool) -> Result<Rgba, String> {
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    let kind = jpeg_ink_kind(data).ok_or("the JPEG holds no ink (it is not CMYK)")?;
    // Asked for as stored, zune-jpeg copies the channels without converting them.
    let stored = if kind == JpegInk::Ycck { ColorSpace::YCCK } else { ColorSpace::CMYK };
    let options = zune_jpeg::zune_core::options::DecoderOptions::default()
        .set_strict_mode(strict)
        .jpeg_set_out_colorspace(stored);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(data), options);
    let mut pixels = decoder.decode().map_err(|e| e.to_string())?;
    let (w, h) = decoder.dimensions().ok_or("the JPEG has no size")?;
    if decoder.output_colorspace() != Some(stored) || pixels.len() != w * h * 4 {
        return Err(format!("its {kind:?} channels could not be read as stored"));
    }
    for p in pixels.chunks_exact_mut(4) {
        match kind {
            JpegInk::Cmyk { adobe: true } => p.iter_mut().for_each(|v| *v = 255 - *v),
            JpegInk::Cmyk { adobe: false } => {}
            JpegInk::Ycck => {
                // JFIF's YCbCr to RGB, whose R, G and B are Adobe's C, M and Y ink.
                let (y, cb, cr) = (p[0] as f32, p[1] as f32 - 128.0, p[2] as f32 - 128.0);
                let channel = |v: f32| v.round().clamp(0.0, 255.0) as u8;
                p[0] = channel(y + 1.402 * cr);
                p[1] = channel(y - 0.344_136 * cb - 0.714_136 * cr);
                p[2] = channel(y + 1.772 * cb);
                p[3] = 255 - p[3];
            }
        }
    }
    Ok((pixels, w as u32, h as u32))
}

/// An error when a JPEG's EXIF orientation asks viewers to turn or mirror it: browsers and
/// photo viewers do, the PDF writer and the renderer draw the pixels as stored, so the
/// card would print the art on its side.
fn turned(data: &[u8]) -> Result<(), String> {
    let Some(tiff) = jpeg_segments(data)
        .find(|(marker, segment)| *marker == 0xE1 && segment.starts_with(b"Exif\0\0"))
        .map(|(_, segment)| &segment[6..])
    else {
        return Ok(());
    };
    let big = tiff.starts_with(b"MM");
    let u16_at = |at: usize| -> Option<usize> {
        let b = [*tiff.get(at)?, *tiff.get(at + 1)?];
        Some(if big { u16::from_be_bytes(b) } else { u16::from_le_bytes(b) } as usize)
    };
    let u32_at = |at: usize| -> Option<usize> {
        let b: [u8; 4] = tiff.get(at..at + 4)?.try_into().ok()?;
        Some(if big { u32::from_be_bytes(b) } else { u32::from_le_bytes(b) } as usize)
    };
    let orientation = (|| {
        let ifd = u32_at(4)?;
        (0..u16_at(ifd)?)
            .map(|i| ifd + 2 + i * 12)
            .find(|&entry| u16_at(entry) == Some(0x0112))
            .and_then(|entry| u16_at(entry + 8))
    })();
    match orientation {
        None | Some(0 | 1) => Ok(()),
        Some(o) => Err(format!(
            "its EXIF orientation ({o}) asks viewers to {}, which deckpress does not do; save it with its pixels turned (e.g. `exiftran -ai FILE` or ImageMagick's `-auto-orient`)",
            match o {
                2 => "mirror it",
                3 => "turn it upside down",
                4 => "flip it upside down",
                5 | 7 => "turn and mirror it",
                6 => "turn it a quarter clockwise",
                8 => "turn it a quarter anticlockwise",
                _ => "turn it",
            }
        )),
    }
}

/// The ICC profile a raster image embeds (a PNG's iCCP, a JPEG's APP2, a WebP's ICCP).
pub fn embedded_profile(data: &[u8]) -> Option<Vec<u8>> {
    match sniff(data)? {
        Format::Png => {
            let reader = png::Decoder::new(Cursor::new(data)).read_info().ok()?;
            reader.info().icc_profile.as_ref().map(|p| p.to_vec())
        }
        Format::Jpeg => {
            let mut decoder = zune_jpeg::JpegDecoder::new(Cursor::new(data));
            decoder.decode_headers().ok()?;
            decoder.icc_profile()
        }
        Format::Webp => image_webp::WebPDecoder::new(Cursor::new(data)).ok()?.icc_profile().ok()?,
        Format::Gif | Format::Svg => None,
    }
}

/// Straight RGBA pixels as a PNG (RGB when every pixel is opaque).
pub fn rgba_png(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let opaque = pixels::is_opaque(rgba);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(if opaque { png::ColorType::Rgb } else { png::ColorType::Rgba });
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    match opaque {
        true => writer.write_image_data(&pixels::rgb(rgba)),
        false => writer.write_image_data(rgba),
    }
    .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// A private PNG chunk (ancillary, not to be copied) that carries a CMYK JPEG inside the
/// RGB picture made of it (`cmyk_art_png`).
const INK_CHUNK: &[u8; 4] = b"dpCk";

/// A CMYK JPEG as art every output can draw: an RGB PNG of its ink converted by `to_rgb`
/// (for the renderer and RGB PDFs, whose JPEG decoders garble CMYK), carrying the JPEG
/// itself in a private chunk that a press takes its ink from (`carried_jpeg`).
pub fn cmyk_art_png(jpeg: &[u8], to_rgb: &dyn Fn(&[u8]) -> Vec<u8>) -> Result<Vec<u8>, String> {
    let (ink, w, h) = jpeg_ink(jpeg, true)?;
    let rgb = to_rgb(&ink);
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_chunk(png::chunk::ChunkType(*INK_CHUNK), jpeg).map_err(|e| e.to_string())?;
    writer.write_image_data(&rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// The CMYK JPEG a PNG made by `cmyk_art_png` carries.
pub fn carried_jpeg(data: &[u8]) -> Option<&[u8]> {
    let mut at = 8;
    if !data.starts_with(b"\x89PNG\r\n\x1a\n") {
        return None;
    }
    while let Some(len) = data.get(at..at + 4) {
        let len = u32::from_be_bytes(len.try_into().ok()?) as usize;
        let kind = data.get(at + 4..at + 8)?;
        match kind {
            k if k == INK_CHUNK => return data.get(at + 8..at + 8 + len),
            b"IDAT" | b"IEND" => return None,
            _ => at += 12 + len,
        }
    }
    None
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
    let info = checked.inspect(&data, world.limits().image_pixels).map_err(|m| ArtError {
        message: format!("image `{path}` cannot be used: {m}"),
        hint: None,
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
    /// What the image is drawn as when its own bytes are not (`Checked::drawn_as`).
    drawn: std::sync::OnceLock<Result<Option<Arc<Vec<u8>>>, String>>,
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
                .filter(|once| jpeg_ink_kind(&once.data).is_none())
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

    /// What checked image `data` is drawn as when not as its own bytes (`None`: as they
    /// are), made by `make` once per run however many cards draw it (`press::drawable`).
    pub fn drawn_as(
        &self,
        data: &Arc<Vec<u8>>,
        make: impl FnOnce(&[u8]) -> Result<Option<Vec<u8>>, String>,
    ) -> Result<Option<Arc<Vec<u8>>>, String> {
        let key = Arc::as_ptr(data) as usize;
        let once = self.results.lock().ok().and_then(|results| results.get(&key).cloned());
        let made = |bytes: &[u8]| make(bytes).map(|d| d.map(Arc::new));
        match once {
            Some(once) => once.drawn.get_or_init(|| made(&once.data)).clone(),
            None => made(data),
        }
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
                    Arc::new(Once {
                        data: data.clone(),
                        result: Default::default(),
                        drawn: Default::default(),
                    })
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
                // A CMYK JPEG is drawn as ink (`drawn_as`), not converted as a photo.
                if let (Some(watch), Ok(Info { format: Format::Jpeg, .. })) = (watch, &result) {
                    if jpeg_ink_kind(&once.data).is_none() {
                        told = Some((watch, kept));
                    }
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
