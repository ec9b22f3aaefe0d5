//! Art in a colour space of its own, brought to sRGB for everything that draws in RGB (the
//! renderer, RGB PDFs): CMYK JPEGs through their embedded profile or FOGRA39, and RGB art
//! that embeds a profile other than sRGB through that profile. Input: an art file's
//! bytes; output: the RGB picture it is drawn as, or nothing when its bytes draw as they
//! are. A press prints a CMYK JPEG's own ink, whatever it is drawn as (`Press::image`).

use lcms2::{Flags, Intent, PixelFormat, Profile, ThreadContext, Transform};

use crate::images::{self, Format};

/// What art file `data` is drawn as when its own bytes would draw it wrong, as PNG bytes;
/// `None` when they draw it right. `data` has been checked (`images::inspect`).
pub fn drawable(data: &[u8]) -> Result<Option<Vec<u8>>, String> {
    let profile = images::embedded_profile(data);
    if images::jpeg_ink_kind(data).is_some() {
        // zune-jpeg (the renderer's and krilla's decoder) garbles CMYK decoded to RGB.
        let to_rgb = |ink: &[u8]| cmyk_to_screen(profile.as_deref(), ink);
        return images::cmyk_art_png(data, &to_rgb).map(Some);
    }
    if images::sniff(data) == Some(Format::Gif) {
        return Ok(None);
    }
    // The PDF applied an embedded profile, the renderer and the press did not: the same
    // Adobe RGB picture was three different colours.
    match profile.as_deref().and_then(rgb_to_srgb) {
        Some(transform) => {
            let (mut rgba, w, h) = images::rgba(data)?;
            let (pixels, _) = rgba.as_chunks_mut::<4>();
            transform.transform_in_place(pixels);
            images::rgba_png(&rgba, w, h).map(Some)
        }
        None => Ok(None),
    }
}

use super::ToScreen;

fn screen_transform(profile: &[u8]) -> Option<ToScreen> {
    super::cmyk_to_srgb(profile, true)
}

/// CMYK art's ink (`images::jpeg_ink`) as sRGB, relative colorimetric as `preview --proof`
/// shows a press: through the file's own CMYK `profile` when it embeds one, else the
/// bundled FOGRA39, what `--colour cmyk` prints with.
fn cmyk_to_screen(profile: Option<&[u8]>, ink: &[u8]) -> Vec<u8> {
    static FOGRA39: std::sync::OnceLock<Option<ToScreen>> = std::sync::OnceLock::new();
    let own = profile.and_then(screen_transform);
    let transform =
        own.as_ref().or_else(|| FOGRA39.get_or_init(|| screen_transform(super::FOGRA39)).as_ref());
    let (cmyk, _) = ink.as_chunks::<4>();
    let mut rgb = vec![[0u8; 3]; cmyk.len()];
    match transform {
        Some(t) => t.transform_pixels(cmyk, &mut rgb),
        // Not reached: the bundled profile is tested to make a transform.
        None => {
            for (out, [c, m, y, k]) in rgb.iter_mut().zip(cmyk) {
                let white = |v: u8| ((255 - v as u32) * (255 - *k as u32) / 255) as u8;
                *out = [white(*c), white(*m), white(*y)];
            }
        }
    }
    rgb.concat()
}

/// RGBA pixels from RGB profile `icc` to sRGB (relative colorimetric, alpha kept); `None`
/// when the profile is sRGB (its description says so), not RGB, or unreadable: the
/// pixels are then taken as sRGB, as browsers take untagged art.
fn rgb_to_srgb(
    icc: &[u8],
) -> Option<Transform<[u8; 4], [u8; 4], ThreadContext, lcms2::DisallowCache>> {
    let ctx = ThreadContext::new();
    let own = Profile::new_icc_context(&ctx, icc).ok()?;
    if own.color_space() != lcms2::ColorSpaceSignature::RgbData {
        return None;
    }
    let name = own.info(lcms2::InfoType::Description, lcms2::Locale::none()).unwrap_or_default();
    if name.contains("sRGB") {
        return None;
    }
    Transform::new_flags_context(
        &ctx,
        &own,
        PixelFormat::RGBA_8,
        &Profile::new_srgb_context(&ctx),
        PixelFormat::RGBA_8,
        Intent::RelativeColorimetric,
        Flags::NO_CACHE | Flags::COPY_ALPHA,
    )
    .ok()
}
