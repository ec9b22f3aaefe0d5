//! Typed lengths. Strings such as `"63mm"` are parsed only while loading; every later
//! stage works in `Length`, and pixels exist only in raster export.

use std::fmt;

/// A physical length, stored in PDF points (1/72 inch).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct Length {
    pt: f32,
}

pub const PT_PER_MM: f32 = 72.0 / 25.4;

impl Length {
    pub const ZERO: Length = Length { pt: 0.0 };

    pub const fn mm(mm: f32) -> Self {
        Self { pt: mm * PT_PER_MM }
    }

    pub const fn pt(pt: f32) -> Self {
        Self { pt }
    }

    pub const fn inches(inches: f32) -> Self {
        Self { pt: inches * 72.0 }
    }

    pub fn to_pt(self) -> f32 {
        self.pt
    }

    pub fn to_mm(self) -> f32 {
        self.pt / PT_PER_MM
    }

    /// Parses `"63mm"`, `"2.5in"`, `"12pt"` or `"1cm"`. The unit is required: a bare
    /// number is ambiguous on paper.
    pub fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        // The unit is the letters at the end: `1e3mm` is a number with an exponent.
        let number = text.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let unit = &text[number.len()..];
        let value: f32 = number.trim().parse().map_err(|_| {
            format!("`{text}` is not a length; write a number and a unit, like `63mm`")
        })?;
        if value.is_nan() || value < 0.0 {
            return Err(format!("`{text}` must be a positive length"));
        }
        let length = match unit {
            "mm" => Self::mm(value),
            "cm" => Self::mm(value * 10.0),
            "in" => Self::inches(value),
            "pt" => Self::pt(value),
            "" => return Err(format!("`{text}` has no unit; write it like `{value}mm`")),
            other => {
                return Err(format!("unknown unit `{other}` in `{text}`; use mm, cm, in or pt"))
            }
        };
        if length.to_pt() > MAX_PT {
            return Err(format!(
                "`{text}` is a length too large: the largest page a PDF holds is {:.0} mm ({MAX_PT} pt) a side",
                Self::pt(MAX_PT).to_mm()
            ));
        }
        Ok(length)
    }
}

/// The largest length any piece or paper can have: a PDF page's side (ISO 32000, 14,400
/// user units of 1/72 in, about 5 m).
const MAX_PT: f32 = 14_400.0;

impl std::ops::Add for Length {
    type Output = Length;
    fn add(self, other: Length) -> Length {
        Length::pt(self.pt + other.pt)
    }
}

impl std::ops::Sub for Length {
    type Output = Length;
    fn sub(self, other: Length) -> Length {
        Length::pt(self.pt - other.pt)
    }
}

impl std::ops::Mul<f32> for Length {
    type Output = Length;
    fn mul(self, k: f32) -> Length {
        Length::pt(self.pt * k)
    }
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}mm", (self.to_mm() * 10.0).round() / 10.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units() {
        assert!((Length::parse("63mm").unwrap().to_pt() - 178.583).abs() < 0.01);
        assert_eq!(Length::parse("1in").unwrap().to_pt(), 72.0);
        assert!((Length::parse("8.8cm").unwrap().to_mm() - 88.0).abs() < 1e-3);
        assert!(Length::parse("63").unwrap_err().contains("no unit"));
        assert!(Length::parse("63furlongs").unwrap_err().contains("unknown unit"));
        assert!(Length::parse("-3mm").is_err());
        assert_eq!(Length::parse("1e1mm").unwrap(), Length::mm(10.0));
        for huge in ["1e308mm", "1e39mm", "6m", "6000mm", "inf mm"] {
            let err = Length::parse(huge).unwrap_err();
            assert!(
                err.contains("too large")
                    || err.contains("unknown unit")
                    || err.contains("not a length"),
                "{huge}: {err}"
            );
        }
        assert!(Length::parse("1e308mm").unwrap_err().contains("a length too large"));
    }
}
