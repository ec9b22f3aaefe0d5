//! Colour as a reader sees it: CIELAB and CIEDE2000 differences, WCAG contrast, and the
//! three colour-vision deficiencies simulated (Machado, Oliveira and Fernandes 2009,
//! severity 1), for the legibility checks and `preview --cvd`.

/// A colour-vision deficiency, simulated at full severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Deficiency {
    /// No L cones (red-blind), about 1 % of men.
    Protanopia,
    /// No M cones (green-blind), about 1 % of men; with the milder deuteranomaly, the most
    /// common.
    Deuteranopia,
    /// No S cones (blue-blind), rare.
    Tritanopia,
}

impl Deficiency {
    pub const ALL: [Deficiency; 3] =
        [Deficiency::Protanopia, Deficiency::Deuteranopia, Deficiency::Tritanopia];

    pub fn name(self) -> &'static str {
        match self {
            Deficiency::Protanopia => "protanopia",
            Deficiency::Deuteranopia => "deuteranopia",
            Deficiency::Tritanopia => "tritanopia",
        }
    }

    /// Machado et al. 2009, severity 1.0, on linear RGB.
    fn matrix(self) -> [[f64; 3]; 3] {
        match self {
            Deficiency::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Deficiency::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Deficiency::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }

    /// An sRGB colour as a person with this deficiency sees it.
    pub fn simulate(self, rgb: [u8; 3]) -> [u8; 3] {
        let lin = rgb.map(|c| to_linear(c as f64 / 255.0));
        let m = self.matrix();
        let out: Vec<u8> = m
            .iter()
            .map(|row| {
                let v = row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2];
                (from_linear(v.clamp(0.0, 1.0)) * 255.0).round() as u8
            })
            .collect();
        [out[0], out[1], out[2]]
    }
}

fn to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn from_linear(c: f64) -> f64 {
    if c <= 0.0031308 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// WCAG 2 relative luminance of an sRGB colour.
pub fn luminance(rgb: [u8; 3]) -> f64 {
    let [r, g, b] = rgb.map(|c| to_linear(c as f64 / 255.0));
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// WCAG 2 contrast ratio, 1 to 21.
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// CIELAB (D65) of an sRGB colour.
pub fn lab(rgb: [u8; 3]) -> [f64; 3] {
    let [r, g, b] = rgb.map(|c| to_linear(c as f64 / 255.0));
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIEDE2000 colour difference of two sRGB colours.
pub fn delta_e(a: [u8; 3], b: [u8; 3]) -> f64 {
    delta_e_lab(lab(a), lab(b))
}

pub fn delta_e_lab(l1: [f64; 3], l2: [f64; 3]) -> f64 {
    use std::f64::consts::PI;
    let [lp1, a1, b1] = l1;
    let [lp2, a2, b2] = l2;
    let c1 = (a1 * a1 + b1 * b1).sqrt();
    let c2 = (a2 * a2 + b2 * b2).sqrt();
    let cm = (c1 + c2) / 2.0;
    let g = 0.5 * (1.0 - (cm.powi(7) / (cm.powi(7) + 25f64.powi(7))).sqrt());
    let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1p, c2p) = ((a1p * a1p + b1 * b1).sqrt(), (a2p * a2p + b2 * b2).sqrt());
    let hue = |b: f64, a: f64| {
        if a == 0.0 && b == 0.0 {
            0.0
        } else {
            let h = b.atan2(a);
            if h < 0.0 {
                h + 2.0 * PI
            } else {
                h
            }
        }
    };
    let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
    let dl = lp2 - lp1;
    let dc = c2p - c1p;
    let dh = if c1p * c2p == 0.0 {
        0.0
    } else {
        let d = h2p - h1p;
        if d.abs() <= PI {
            d
        } else if d > PI {
            d - 2.0 * PI
        } else {
            d + 2.0 * PI
        }
    };
    let dhp = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).sin();
    let lm = (lp1 + lp2) / 2.0;
    let cmp = (c1p + c2p) / 2.0;
    let hm = if c1p * c2p == 0.0 {
        h1p + h2p
    } else if (h1p - h2p).abs() <= PI {
        (h1p + h2p) / 2.0
    } else if h1p + h2p < 2.0 * PI {
        (h1p + h2p + 2.0 * PI) / 2.0
    } else {
        (h1p + h2p - 2.0 * PI) / 2.0
    };
    let t = 1.0 - 0.17 * (hm - PI / 6.0).cos()
        + 0.24 * (2.0 * hm).cos()
        + 0.32 * (3.0 * hm + PI / 30.0).cos()
        - 0.20 * (4.0 * hm - 63.0 * PI / 180.0).cos();
    let d_theta = 30.0 * PI / 180.0 * (-((hm * 180.0 / PI - 275.0) / 25.0).powi(2)).exp();
    let rc = 2.0 * (cmp.powi(7) / (cmp.powi(7) + 25f64.powi(7))).sqrt();
    let sl = 1.0 + 0.015 * (lm - 50.0).powi(2) / (20.0 + (lm - 50.0).powi(2)).sqrt();
    let sc = 1.0 + 0.045 * cmp;
    let sh = 1.0 + 0.015 * cmp * t;
    let rt = -(2.0 * d_theta).sin() * rc;
    ((dl / sl).powi(2) + (dc / sc).powi(2) + (dhp / sh).powi(2) + rt * (dc / sc) * (dhp / sh))
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_and_delta_e_match_published_values() {
        // WCAG: black on white is 21:1, #777 on white about 4.48:1.
        assert!((contrast([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
        assert!((contrast([0x77, 0x77, 0x77], [255, 255, 255]) - 4.48).abs() < 0.01);
        // Sharma, Wu and Dalal's CIEDE2000 test data, pair 1: 2.0425.
        let d = delta_e_lab([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485]);
        assert!((d - 2.0425).abs() < 1e-4, "{d}");
        // Pair 17: 27.1492 (a large hue difference).
        let d = delta_e_lab([50.0, 2.5, 0.0], [73.0, 25.0, -18.0]);
        assert!((d - 27.1492).abs() < 1e-4, "{d}");
    }

    #[test]
    fn red_and_green_merge_for_deuteranopia_but_not_black_and_white() {
        let (red, green) = ([0xd0, 0x30, 0x30], [0x30, 0xa0, 0x30]);
        assert!(delta_e(red, green) > 40.0);
        let (r, g) =
            (Deficiency::Deuteranopia.simulate(red), Deficiency::Deuteranopia.simulate(green));
        assert!(delta_e(r, g) < delta_e(red, green) / 2.0, "{r:?} {g:?}");
        assert_eq!(Deficiency::Deuteranopia.simulate([255, 255, 255]), [255, 255, 255]);
        assert_eq!(Deficiency::Protanopia.simulate([0, 0, 0]), [0, 0, 0]);
    }
}
