//! Printing conditions: the bundled profiles and any other `--profile`, how a PDF/X output
//! intent names them, the PDF/X versions and rendering intents.

use std::sync::Arc;

use lcms2::{Locale, Profile};

/// The profiles deckpress bundles (docs/printing.md says how they were made): both built
/// with ArgyllCMS's colprof from characterisation data published under the zlib licence
/// (Debian's icc-profiles-free), so they may ship inside an MIT/Apache binary.
pub(super) const FOGRA39: &[u8] = include_bytes!("../../profiles/deckpress-fogra39.icc");

pub(super) const SWOP_TR003: &[u8] = include_bytes!("../../profiles/deckpress-cgats-tr003.icc");

/// A printing condition: its profile and how a PDF/X output intent names it.
#[derive(Debug, Clone)]
pub struct Condition {
    pub profile: Arc<Vec<u8>>,
    /// A registered characterisation (`FOGRA39`, `CGATS TR 003`) or `Custom`.
    pub identifier: String,
    pub condition: String,
    pub registry: String,
    /// The profile's own description.
    pub info: String,
    /// The total ink the profile's separation stays under, in percent.
    pub ink_limit: f32,
}

impl Condition {
    /// FOGRA39: offset on coated paper, what European printers ask for.
    pub fn fogra39() -> Self {
        Self::bundled(
            FOGRA39,
            "FOGRA39",
            "Offset commercial printing on coated paper (ISO 12647-2:2004, paper type 1 or 2)",
            300.0,
        )
    }

    /// CGATS TR 003: SWOP on grade 3 coated paper, the condition behind the "U.S. Web
    /// Coated (SWOP)" profile DriveThruCards points designers to.
    pub fn swop() -> Self {
        Self::bundled(
            SWOP_TR003,
            "CGATS TR 003",
            "SWOP, web offset on grade 3 coated paper (CGATS TR 003)",
            240.0,
        )
    }

    fn bundled(bytes: &'static [u8], identifier: &str, condition: &str, ink_limit: f32) -> Self {
        let info = Profile::new_icc(bytes)
            .ok()
            .and_then(|p| description(&p))
            .unwrap_or_else(|| identifier.to_string());
        Condition {
            profile: Arc::new(bytes.to_vec()),
            identifier: identifier.to_string(),
            condition: condition.to_string(),
            registry: "http://www.color.org".to_string(),
            info,
            ink_limit,
        }
    }

    /// A printer's own profile (`--icc FILE`): it must be a CMYK output profile.
    pub fn from_file(path: &std::path::Path) -> Result<Self, String> {
        // Printers' CMYK profiles are a few MB; a larger file is not one.
        let bytes = crate::world::read_regular(path, 32 << 20)
            .map_err(|e| format!("cannot read the ICC profile {}: {e}", path.display()))?;
        let profile = Profile::new_icc(&bytes)
            .map_err(|_| format!("{} is not an ICC profile", path.display()))?;
        if profile.color_space() != lcms2::ColorSpaceSignature::CmykData
            || profile.device_class() != lcms2::ProfileClassSignature::OutputClass
        {
            return Err(format!("{} is not a CMYK printer profile (it is {:?} {:?}); ask the printer for their CMYK output profile", path.display(), profile.device_class(), profile.color_space()));
        }
        let info = description(&profile).unwrap_or_else(|| path.display().to_string());
        Ok(Condition {
            profile: Arc::new(bytes),
            identifier: "Custom".to_string(),
            condition: info.clone(),
            registry: String::new(),
            info,
            ink_limit: 300.0,
        })
    }
}

pub(super) fn description(profile: &Profile) -> Option<String> {
    profile.info(lcms2::InfoType::Description, Locale::none()).filter(|d| !d.trim().is_empty())
}

/// Which PDF/X a CMYK PDF claims.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Pdfx {
    /// PDF/X-1a:2003: CMYK only, no transparency (what DriveThruCards asks for).
    #[value(name = "1a")]
    X1a,
    /// PDF/X-4: transparency kept, for printers that take it.
    #[value(name = "4")]
    X4,
}

impl Pdfx {
    pub fn version(self) -> &'static str {
        match self {
            Pdfx::X1a => "PDF/X-1a:2003",
            Pdfx::X4 => "PDF/X-4",
        }
    }
}

/// How colours outside the press's gamut are brought in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RenderIntent {
    /// Colours in gamut stay exact, others clip to the nearest (with black-point
    /// compensation): right for flat art and text.
    #[default]
    Relative,
    /// The whole gamut is compressed: smoother for photos.
    Perceptual,
}

/// The profile `--proof` names: `fogra39` (the default), `swop`, or an ICC file.
pub fn proof_condition(name: &str) -> Result<Condition, String> {
    match name {
        "fogra39" => Ok(Condition::fogra39()),
        "swop" => Ok(Condition::swop()),
        path => Condition::from_file(std::path::Path::new(path)),
    }
}

/// A press's colour conversion, before the catalogue's swatches are known.
#[derive(Clone)]
pub struct PressSpec {
    pub condition: Condition,
    pub pdfx: Pdfx,
    pub intent: RenderIntent,
    /// Total ink in percent; `None`: the profile's.
    pub ink_limit: Option<f32>,
}
