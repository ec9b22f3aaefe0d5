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
        let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
        let (number, unit) = text.split_at(split);
        let value: f32 = number.trim().parse().map_err(|_| {
            format!("`{text}` is not a length; write a number and a unit, like `63mm`")
        })?;
        if !value.is_finite() || value < 0.0 {
            return Err(format!("`{text}` must be a positive length"));
        }
        match unit {
            "mm" => Ok(Self::mm(value)),
            "cm" => Ok(Self::mm(value * 10.0)),
            "in" => Ok(Self::inches(value)),
            "pt" => Ok(Self::pt(value)),
            "" => Err(format!("`{text}` has no unit; write it like `{value}mm`")),
            other => Err(format!("unknown unit `{other}` in `{text}`; use mm, cm, in or pt")),
        }
    }
}

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
    }
}
