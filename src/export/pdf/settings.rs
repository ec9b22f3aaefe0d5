//! PDF settings and metadata: what the document says about itself and, for a press, the
//! PDF/X version and output intent it is written to.

use krilla::metadata::Metadata;
use krilla::SerializeSettings;

use super::DocInfo;
use crate::press::{Pdfx, Press};

/// The writer's settings: for a press, its output intent and the PDF version its PDF/X
/// needs; otherwise krilla's defaults.
pub(super) fn serialize_settings(press: Option<&Press>) -> Result<SerializeSettings, String> {
    let mut settings = SerializeSettings::default();
    if let Some(press) = press {
        let profile = press.embedded_profile().ok_or("the CMYK profile cannot be embedded")?;
        let c = &press.condition;
        settings.press = Some(krilla::PressIntent {
            profile,
            identifier: c.identifier.clone(),
            condition: c.condition.clone(),
            info: c.info.clone(),
            registry: c.registry.clone(),
            version: press.pdfx.version().to_string(),
        });
        // PDF/X-1a:2003 is PDF 1.4; PDF/X-4 is PDF 1.6.
        let version = if press.pdfx == Pdfx::X1a {
            krilla::configure::PdfVersion::Pdf14
        } else {
            krilla::configure::PdfVersion::Pdf16
        };
        settings.configuration = krilla::configure::ConfigurationBuilder::new()
            .with_version(version)
            .finish()
            .map_err(|e| format!("{e:?}"))?;
    }
    Ok(settings)
}

/// The document's Title, Author and Subject. No dates and a document id derived from the
/// content: the same input gives the same bytes. PDF/X needs dates: SOURCE_DATE_EPOCH
/// (reproducible builds) or now.
pub(super) fn metadata(info: &DocInfo, press: Option<&Press>) -> Metadata {
    let mut metadata =
        Metadata::new().title(info.title.to_string()).creator("deckpress".to_string());
    if press.is_some() {
        metadata = metadata.creation_date(build_date());
    }
    if let Some(author) = info.author {
        metadata = metadata.authors(vec![author.to_string()]);
    }
    if let Some(subject) = info.subject {
        metadata = metadata.description(subject.to_string());
    }
    metadata
}

fn build_date() -> krilla::metadata::DateTime {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0)
        });
    // Days since 1970 to a civil date (Howard Hinnant's algorithm), UTC.
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    krilla::metadata::DateTime::new(year.clamp(0, 9999) as u16)
        .month(month as u8)
        .day(day as u8)
        .hour((rem / 3600) as u8)
        .minute((rem % 3600 / 60) as u8)
        .second((rem % 60) as u8)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
}
