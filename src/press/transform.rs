//! sRGB → CMYK (and back, for proofs) through a profile with lcms2: the exact pipeline for
//! flat colours, a lookup table for pictures, each made once per profile and intent.

use std::sync::{Arc, Mutex};

use lcms2::{DisallowCache, Flags, Intent, PixelFormat, Profile, ThreadContext, Transform};
use pixels::{Lut, LUT_SIDE};

use super::condition::{FOGRA39, SWOP_TR003};
use super::{threads, RenderIntent};

pub(super) type ToCmyk = Transform<[u8; 3], [u8; 4], ThreadContext, DisallowCache>;

pub(crate) type ToScreen = Transform<[u8; 4], [u8; 3], ThreadContext, DisallowCache>;

/// CMYK ink through `profile` (a CMYK profile, else `None`) to sRGB, relative
/// colorimetric, as `preview --proof` shows a press. `tables`: with lcms2's precomputed
/// tables, slow to make and fast on many pixels; without, for a few colours.
pub(crate) fn cmyk_to_srgb(profile: &[u8], tables: bool) -> Option<ToScreen> {
    let ctx = ThreadContext::new();
    let press = Profile::new_icc_context(&ctx, profile).ok()?;
    if press.color_space() != lcms2::ColorSpaceSignature::CmykData {
        return None;
    }
    let flags = if tables { Flags::NO_CACHE } else { Flags::NO_CACHE | Flags::NO_OPTIMIZE };
    Transform::new_flags_context(
        &ctx,
        &press,
        PixelFormat::CMYK_8,
        &Profile::new_srgb_context(&ctx),
        PixelFormat::RGB_8,
        Intent::RelativeColorimetric,
        flags,
    )
    .ok()
}

pub(super) type ToLab = Transform<[u8; 3], [f64; 3], ThreadContext, DisallowCache>;

/// sRGB → CMYK through a profile, in the two forms a build needs, each made once:
/// - flat colours (fills, strokes, text) go through the profile's exact pipeline, which
///   lcms2 makes in about a millisecond and runs in half a microsecond a colour;
/// - pictures go through a lookup table, a few tens of instructions a pixel where lcms2's
///   general path takes hundreds. For the bundled profiles under the relative intent the
///   table ships in the binary (`profiles/*.lut`); for any other it is sampled from lcms2's
///   precalculated transform, which takes 18 ms and 120 M instructions to make (a fifth
///   of a CMYK deck's time) and is started on another thread when the press is known.
pub(super) struct Transform8 {
    pub(super) profile: Arc<Vec<u8>>,
    pub(super) intent: RenderIntent,
    /// The exact pipeline, for flat colours.
    pub(super) exact: std::sync::OnceLock<Result<ToCmyk, String>>,
    /// lcms2's precalculated transform, to sample the table from when none ships.
    pub(super) precalculated: std::sync::OnceLock<Result<ToCmyk, String>>,
    /// The profile as the PDF embeds it (deflated, which takes a while for a large one).
    pub(super) embedded: std::sync::OnceLock<Option<krilla::icc::ICCProfile<4>>>,
    /// The table, for pictures.
    pub(super) lut: std::sync::OnceLock<Lut>,
}

impl Transform8 {
    /// The exact transform, waiting for it if it is being made.
    pub(super) fn get(&self) -> Result<&ToCmyk, &String> {
        self.exact
            .get_or_init(|| make_transform(&self.profile, self.intent, Precision::Exact))
            .as_ref()
    }

    pub(super) fn embedded(&self) -> Option<&krilla::icc::ICCProfile<4>> {
        self.embedded.get_or_init(|| krilla::icc::ICCProfile::new(&self.profile)).as_ref()
    }

    /// The shipped table for this profile and intent, if there is one (and it is a whole
    /// grid: a file cut short is sampled instead, and the test below fails).
    pub(super) fn shipped(&self) -> Option<&'static [[u8; 4]]> {
        SHIPPED
            .iter()
            .find(|t| t.intent == self.intent && t.profile == self.profile.as_slice())
            .map(|t| t.nodes.as_chunks::<4>().0)
            .filter(|nodes| nodes.len() == LUT_SIDE.pow(3))
    }

    /// Starts what the first colours and pictures will wait for.
    pub(super) fn prepare(&self) {
        let _ = self.get();
        if self.shipped().is_none() {
            let _ = self.precalculated();
        }
    }

    pub(super) fn precalculated(&self) -> Result<&ToCmyk, &String> {
        self.precalculated
            .get_or_init(|| make_transform(&self.profile, self.intent, Precision::Precalculated))
            .as_ref()
    }

    pub(super) fn lut(&self) -> &Lut {
        self.lut.get_or_init(|| {
            if let Some(nodes) = self.shipped() {
                return Lut { nodes: nodes.into() };
            }
            match self.precalculated() {
                Ok(t) => sampled(t),
                Err(_) => Lut { nodes: vec![[0, 0, 0, 255]; LUT_SIDE.pow(3)].into() },
            }
        })
    }
}

/// A lookup table shipped in the binary: `sampled` from lcms2's precalculated transform,
/// byte for byte (a test makes them again and compares; `DECKPRESS_BLESS=1 cargo test
/// --lib shipped` writes them when a profile or lcms2 changes).
pub(super) struct ShippedLut {
    pub(super) profile: &'static [u8],
    pub(super) intent: RenderIntent,
    pub(super) nodes: &'static [u8],
}

pub(super) const SHIPPED: [ShippedLut; 2] = [
    ShippedLut {
        profile: FOGRA39,
        intent: RenderIntent::Relative,
        nodes: include_bytes!("../../profiles/deckpress-fogra39.relative.lut"),
    },
    ShippedLut {
        profile: SWOP_TR003,
        intent: RenderIntent::Relative,
        nodes: include_bytes!("../../profiles/deckpress-cgats-tr003.relative.lut"),
    },
];

/// Transforms by profile and intent: `build --all` makes one, not one per game.
pub(super) type TransformCache = Mutex<Vec<Arc<Transform8>>>;

pub(super) static TRANSFORMS: std::sync::OnceLock<TransformCache> = std::sync::OnceLock::new();

/// The transform for `profile` and `intent`, started on a thread of its own if new.
pub(super) fn to_cmyk(profile: &Arc<Vec<u8>>, intent: RenderIntent) -> Arc<Transform8> {
    let cache = TRANSFORMS.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = cache.iter().find(|t| t.profile == *profile && t.intent == intent) {
        return t.clone();
    }
    let t = Arc::new(Transform8 {
        profile: profile.clone(),
        intent,
        exact: Default::default(),
        precalculated: Default::default(),
        embedded: Default::default(),
        lut: Default::default(),
    });
    cache.push(t.clone());
    // Without threads, the first conversion makes the transform, and the first PDF the
    // embedded profile.
    let background = t.clone();
    let _ = std::thread::Builder::new().spawn(move || background.prepare());
    let background = t.clone();
    let _ = std::thread::Builder::new().spawn(move || {
        let _ = background.embedded();
    });
    t
}

/// Starts making the transform for `profile` and `intent` on a thread of its own, for
/// the press a job will make later.
pub fn start_transform(profile: &Arc<Vec<u8>>, intent: RenderIntent) {
    to_cmyk(profile, intent);
}

/// How lcms2 makes a transform.
#[derive(Clone, Copy)]
pub(super) enum Precision {
    /// Every colour through the profile's own pipeline.
    Exact,
    /// The pipeline evaluated on a 33-node grid first, interpolated between: fast for many
    /// pixels, slow to make, and up to 13 levels of 255 off the exact pipeline (FOGRA39).
    Precalculated,
}

pub(super) fn make_transform(
    profile: &[u8],
    intent: RenderIntent,
    precision: Precision,
) -> Result<ToCmyk, String> {
    let ctx = ThreadContext::new();
    let srgb = Profile::new_srgb_context(&ctx);
    let press = Profile::new_icc_context(&ctx, profile)
        .map_err(|e| format!("the CMYK profile cannot be used: {e}"))?;
    let lcms_intent = match intent {
        RenderIntent::Relative => Intent::RelativeColorimetric,
        RenderIntent::Perceptual => Intent::Perceptual,
    };
    let flags = match precision {
        Precision::Exact => Flags::NO_OPTIMIZE,
        Precision::Precalculated => Flags::default(),
    };
    Transform::new_flags_context(
        &ctx,
        &srgb,
        PixelFormat::RGB_8,
        &press,
        PixelFormat::CMYK_8,
        lcms_intent,
        Flags::NO_CACHE | Flags::BLACKPOINT_COMPENSATION | flags,
    )
    .map_err(|e| format!("the CMYK profile cannot convert from sRGB: {e}"))
}

pub(super) fn sampled(transform: &ToCmyk) -> Lut {
    let grid = Lut::grid();
    let mut nodes = vec![[0u8; 4]; grid.len()];
    // On every core: the first picture of a build waits for it.
    let chunk = grid.len().div_ceil(threads());
    std::thread::scope(|scope| {
        for (colours, out) in grid.chunks(chunk).zip(nodes.chunks_mut(chunk)) {
            scope.spawn(|| transform.transform_pixels(colours, out));
        }
    });
    Lut { nodes: nodes.into() }
}

/// Every colour with each channel at one of `levels`, red slowest.
#[cfg(test)]
pub(super) fn cube(levels: &[u8]) -> Vec<[u8; 3]> {
    let mut colours = Vec::with_capacity(levels.len().pow(3));
    for &r in levels {
        for &g in levels {
            for &b in levels {
                colours.push([r, g, b]);
            }
        }
    }
    colours
}
