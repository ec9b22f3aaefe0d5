#!/usr/bin/env python3
"""Regenerate the TravFuda catalogue art (suit emblems and the card-back texture).

Run from the catalogue folder:  python3 art/make_art.py
Needs Pillow and numpy (Debian/Ubuntu: apt-get install python3-pil python3-numpy).
Deterministic: fixed random seeds, no timestamps or other metadata in the files.
"""

import math
import os

import numpy as np
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))

INK = (0x1D, 0x23, 0x30)      # style.ink
GOLD = (0xF9, 0xC8, 0x0E)     # the back's frame colour
CREAM = (0xFB, 0xF8, 0xF0)    # style.background

# ---------------------------------------------------------------------------
# Suit emblems: 256 x 256 RGBA, ink on transparent. Shapes are described in a
# 256-unit space and drawn into a 4x supersampled coverage mask, which is then
# box-filtered down to 256 px for anti-aliasing.
# ---------------------------------------------------------------------------

SIZE = 256
SS = 4  # supersampling factor


class Emblem:
    def __init__(self):
        self.mask = Image.new("L", (SIZE * SS, SIZE * SS), 0)
        self.draw = ImageDraw.Draw(self.mask)

    @staticmethod
    def _p(pts):
        return [(x * SS, y * SS) for x, y in pts]

    def poly(self, pts, ink=True):
        self.draw.polygon(self._p(pts), fill=255 if ink else 0)

    def ellipse(self, cx, cy, rx, ry, ink=True):
        self.draw.ellipse(
            [(cx - rx) * SS, (cy - ry) * SS, (cx + rx) * SS, (cy + ry) * SS],
            fill=255 if ink else 0,
        )

    def circle(self, cx, cy, r, ink=True):
        self.ellipse(cx, cy, r, r, ink)

    def stroke(self, pts, width, ink=True, closed=False):
        """A polyline with round caps and joins."""
        pts = list(pts)
        if closed:
            pts = pts + [pts[0]]
        value = 255 if ink else 0
        self.draw.line(self._p(pts), fill=value, width=round(width * SS))
        for x, y in pts:
            self.circle(x, y, width / 2, ink)

    def knock(self, pts, gap, closed=True):
        """Erase a polygon grown by `gap`: separates a shape from what is behind it."""
        self.poly(pts, ink=False)
        self.stroke(pts, 2 * gap, ink=False, closed=closed)

    def save(self, path, margin=10):
        # Centre the drawing and scale it so its longer side spans SIZE - 2 * margin:
        # every emblem gets the same margin and a similar visual weight.
        x0, y0, x1, y1 = self.mask.getbbox()
        scale = (SIZE - 2 * margin) * SS / max(x1 - x0, y1 - y0)
        w, h = round((x1 - x0) * scale), round((y1 - y0) * scale)
        fitted = self.mask.crop((x0, y0, x1, y1)).resize((w, h), Image.LANCZOS)
        mask = Image.new("L", self.mask.size, 0)
        mask.paste(fitted, ((SIZE * SS - w) // 2, (SIZE * SS - h) // 2))
        alpha = mask.reduce(SS)  # box filter: exact area coverage
        # Every pixel has the ink colour, even fully transparent ones, so scaling the
        # image in a renderer never bleeds black into the anti-aliased edges.
        img = Image.new("RGBA", (SIZE, SIZE), INK + (0,))
        img.putalpha(alpha)
        img.save(path, optimize=True)


def xf(pts, dx=0.0, dy=0.0, angle=0.0, sx=1.0, sy=None):
    """Scale, then rotate by `angle` degrees (clockwise on screen), then translate."""
    sy = sx if sy is None else sy
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for x, y in pts:
        x, y = x * sx, y * sy
        out.append((x * c - y * s + dx, x * s + y * c + dy))
    return out


def arc(cx, cy, rx, ry, a0, a1, n=96):
    """Points on an ellipse from angle a0 to a1 (degrees, 0 = +x, 90 = down)."""
    return [
        (cx + rx * math.cos(math.radians(a0 + (a1 - a0) * i / n)),
         cy + ry * math.sin(math.radians(a0 + (a1 - a0) * i / n)))
        for i in range(n + 1)
    ]


def star(cx, cy, r_out, r_in, points=5, angle=-90.0):
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(angle + i * 180.0 / points)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def lumpy(cx, cy, r, bumps, n=72, phase=0.0):
    """A rock outline: a circle whose radius wobbles by the (amplitude, frequency, phase) bumps."""
    pts = []
    for i in range(n):
        a = 2 * math.pi * i / n
        rr = r * (1 + sum(amp * math.cos(freq * a + ph) for amp, freq, ph in bumps))
        pts.append((cx + rr * math.cos(a + phase), cy + rr * math.sin(a + phase)))
    return pts


# --- 1 Scoutship: a small delta-wing ship heading up-right on twin jets. ---
def scoutship(e):
    ang, cx, cy = 45, 128, 128
    hull = [(0, -118), (14, -70), (24, -20), (74, 44), (74, 66), (26, 52), (20, 70),
            (-20, 70), (-26, 52), (-74, 66), (-74, 44), (-24, -20), (-14, -70)]
    for fx in (-11, 11):  # twin exhaust flames
        e.poly(xf([(fx - 8, 76), (fx + 8, 76), (fx, 114)], cx, cy, ang))
    e.poly(xf(hull, cx, cy, ang))
    e.poly(xf([(0, -74), (9, -48), (0, -30), (-9, -48)], cx, cy, ang), ink=False)  # canopy
    e.stroke(xf([(-56, 47), (-28, 8)], cx, cy, ang), 6, ink=False)  # wing panel lines
    e.stroke(xf([(56, 47), (28, 8)], cx, cy, ang), 6, ink=False)


# --- 2 Asteroid Belt: lumpy rocks strung along an orbit. ---
def asteroid_belt(e):
    cx, cy, rx, ry, tilt = 128, 128, 98, 46, -28
    orbit = xf(arc(0, 0, rx, ry, 0, 360, 180), cx, cy, tilt)
    e.stroke(orbit, 7, closed=True)
    rocks = [  # (angle on the orbit, radius, bumps)
        (200, 36, [(0.14, 3, 0.4), (0.08, 5, 1.3)]),
        (90, 29, [(0.16, 2, 2.1), (0.07, 5, 0.2)]),
        (320, 25, [(0.15, 3, 1.0), (0.09, 4, 2.5)]),
        (30, 16, [(0.15, 2, 0.7), (0.05, 5, 1.9)]),
        (145, 14, [(0.12, 3, 2.6)]),
        (255, 12, [(0.14, 2, 1.5)]),
        (355, 10, [(0.15, 3, 0.3)]),
    ]
    for a, r, bumps in rocks:
        (px, py), = xf([(rx * math.cos(math.radians(a)), ry * math.sin(math.radians(a)))], cx, cy, tilt)
        outline = lumpy(px, py, r, bumps, phase=a)
        e.knock(outline, 7)
        e.poly(outline)


# --- 3 Free Trader: a streamlined freighter carrying a crate. ---
def free_trader(e):
    hull = [(30, 116), (150, 116), (196, 126), (242, 156), (196, 186), (30, 186)]
    e.poly(hull)
    for y in (128, 160):  # twin engine bells
        e.poly([(8, y - 4), (30, y), (30, y + 22), (8, y + 26)])
    e.poly([(178, 138), (206, 140), (224, 156), (182, 156)], ink=False)  # cockpit
    for x in (60, 96, 132):
        e.circle(x, 158, 9, ink=False)  # portholes
    # cargo crate strapped on the back, with cross bracing
    e.poly([(46, 44), (140, 44), (140, 120), (46, 120)])
    e.poly([(58, 56), (128, 56), (128, 106), (58, 106)], ink=False)
    e.stroke([(58, 56), (128, 106)], 11)
    e.stroke([(128, 56), (58, 106)], 11)
    e.stroke([(34, 116), (160, 116)], 6, ink=False)  # the crate sits on the hull


# --- 4 Comet: a round head and three tapering tail streaks. ---
def comet(e):
    hx, hy, hr = 178, 78, 44
    ang = math.atan2(hy - 230, hx - 26)  # the comet flies up-right, its tail trails down-left
    ux, uy = math.cos(ang), math.sin(ang)  # along the tail, towards the head
    nx, ny = -uy, ux  # across the tail
    for off, length, half in [(0, 190, 30), (-30, 150, 14), (30, 140, 14)]:
        bx, by = hx + nx * off, hy + ny * off
        tip = (bx - ux * length, by - uy * length)
        e.poly([(bx + nx * half, by + ny * half), tip, (bx - nx * half, by - ny * half)])
    e.circle(hx, hy, hr + 8, ink=False)
    e.circle(hx, hy, hr)
    e.circle(hx - 14, hy - 14, 11, ink=False)  # highlight


# --- 5 Fat Trader: a big round-bellied freighter with portholes. ---
def fat_trader(e):
    body = arc(136, 128, 104, 74, 0, 360, 200)
    e.poly([(40, 92), (62, 42), (100, 42), (104, 92)])  # dorsal fin
    e.poly([(40, 164), (62, 214), (100, 214), (104, 164)])  # ventral fin
    e.poly([(2, 112), (22, 120), (22, 136), (2, 144)])  # exhaust
    e.poly([(16, 106), (42, 112), (42, 144), (16, 150)])  # engine bell
    e.knock(body, 7)
    e.poly(body)
    for x in (96, 140, 184):
        e.circle(x, 116, 15, ink=False)
    e.stroke([(62, 160), (212, 160)], 8, ink=False)  # hull seam


# --- 6 Rockball: an airless, cratered lump. ---
def rockball(e):
    e.poly(lumpy(128, 128, 110, [(0.05, 3, 0.5), (0.035, 5, 1.7), (0.02, 7, 2.9)], n=180))
    for x, y, r in [(88, 90, 28), (164, 150, 34), (156, 72, 15), (84, 170, 17), (118, 130, 9), (196, 104, 9)]:
        e.circle(x, y, r, ink=False)
        e.circle(x + r * 0.22, y + r * 0.22, r * 0.62)  # crater floor, shadowed rim at top-left


# --- 7 Patrol Ship: a patrol badge, a shield with a star. ---
def patrol_ship(e):
    right = [(128, 16), (226, 34), (226, 112)]
    right += [((1 - t) ** 2 * 226 + 2 * t * (1 - t) * 222 + t * t * 128,
               (1 - t) ** 2 * 112 + 2 * t * (1 - t) * 206 + t * t * 246) for t in [i / 40 for i in range(1, 41)]]
    left = [(256 - x, y) for x, y in reversed(right[1:-1])]
    e.poly(right + left)
    e.poly(star(128, 116, 66, 27), ink=False)
    e.poly(star(128, 116, 42, 17))


# --- 8 GG (Gas Giant): a banded planet with a ring. ---
def gas_giant(e):
    cx, cy, r, tilt = 128, 128, 78, -20
    ring_o, ring_i = (124, 38), (100, 26)

    def ring_band(a0, a1):
        outer = xf(arc(0, 0, *ring_o, a0, a1), cx, cy, tilt)
        inner = xf(arc(0, 0, *ring_i, a1, a0), cx, cy, tilt)
        return outer + inner

    e.poly(ring_band(180, 360))  # the back half of the ring
    e.circle(cx, cy, r + 8, ink=False)
    planet = Emblem()
    planet.circle(cx, cy, r)
    for y0, h in [(-50, 9), (-26, 7)]:  # cloud bands, tilted with the ring
        xs = [-140 + 280 * i / 60 for i in range(61)]
        sag = [22 * (1 - (x / 140) ** 2) for x in xs]
        band = [(x, y0 - h / 2 + s) for x, s in zip(xs, sag)] + \
               [(x, y0 + h / 2 + s) for x, s in reversed(list(zip(xs, sag)))]
        planet.poly(xf(band, cx, cy, tilt), ink=False)
    e.mask.paste(255, mask=planet.mask)
    front = ring_band(0, 180)
    e.knock(front, 7)
    e.poly(front)


# --- 9 Troopship: a big transport seen from above, with sergeant's chevrons. ---
def troopship(e):
    hull = [(128, 6), (170, 58), (176, 200), (158, 230), (98, 230), (80, 200), (86, 58)]
    e.poly([(86, 120), (30, 196), (30, 222), (84, 206)])  # wings
    e.poly([(170, 120), (226, 196), (226, 222), (172, 206)])
    e.knock(hull, 6)
    e.poly(hull)
    for y in (78, 122, 166):
        e.stroke([(100, y + 26), (128, y), (156, y + 26)], 12, ink=False)


# --- 10 Terran World: a globe with meridians, parallels and continents. ---
def terran_world(e):
    cx, cy, r, rim = 128, 128, 112, 14
    land = Emblem()
    land.poly(lumpy(94, 98, 42, [(0.22, 2, 0.3), (0.12, 3, 1.9), (0.06, 5, 0.8)], n=90))
    land.poly(lumpy(162, 166, 36, [(0.25, 2, 2.0), (0.1, 3, 0.2), (0.07, 5, 1.4)], n=90))
    land.poly(lumpy(170, 80, 17, [(0.2, 2, 1.1), (0.1, 3, 2.2)], n=60))
    grid = Emblem()
    grid.stroke([(cx - r, cy), (cx + r, cy)], 7)  # equator
    grid.stroke([(cx, cy - r), (cx, cy + r)], 7)  # central meridian
    grid.stroke(arc(cx, cy, 54, r, -90, 90), 7)
    grid.stroke(arc(cx, cy, 54, r, 90, 270), 7)
    for yy in (-56, 56):
        half = math.sqrt(r ** 2 - yy ** 2)
        grid.stroke([(cx - half, cy + yy), (cx + half, cy + yy)], 7)
    disc, inner = Emblem(), Emblem()
    disc.circle(cx, cy, r)
    inner.circle(cx, cy, r - rim)
    L, G = np.asarray(land.mask) > 127, np.asarray(grid.mask) > 127
    D, I = np.asarray(disc.mask) > 127, np.asarray(inner.mask) > 127
    # sea: grid lines in ink; land: solid ink with the grid showing through
    out = ((L ^ G) & I) | (D & ~I)
    e.mask = Image.fromarray(np.where(out, 255, 0).astype(np.uint8), mode="L")


SUITS = [
    (1, "Scoutship", scoutship),
    (2, "Asteroid Belt", asteroid_belt),
    (3, "Free Trader", free_trader),
    (4, "Comet", comet),
    (5, "Fat Trader", fat_trader),
    (6, "Rockball", rockball),
    (7, "Patrol Ship", patrol_ship),
    (8, "GG (Gas Giant)", gas_giant),
    (9, "Troopship", troopship),
    (10, "Terran World", terran_world),
]


def make_emblems():
    for number, _name, draw in SUITS:
        e = Emblem()
        draw(e)
        e.save(os.path.join(HERE, f"suit-{number}.png"))


# ---------------------------------------------------------------------------
# Card back texture: 69 x 94 mm (card + 3 mm bleed) at 300 dpi, symmetric under
# a half turn so the back reads the same either way up.
# ---------------------------------------------------------------------------

BACK_W, BACK_H = 816, 1111
BAND_ANGLE = -58  # degrees from the horizontal, rising to the right


def cloud_noise(rng, w, h, beta, cutoff):
    """Isotropic fractal noise by spectral synthesis: white noise shaped to a 1/f**beta
    amplitude spectrum, softened above `cutoff` cycles per image width. Returns values
    scaled to zero mean and unit deviation."""
    white = rng.standard_normal((h, w))
    fy = np.fft.fftfreq(h)[:, None] * h / w
    fx = np.fft.rfftfreq(w)[None, :]
    f = np.hypot(fx, fy) * w  # cycles per image width
    shape = np.where(f > 0, np.maximum(f, 1.0) ** -beta, 0.0) * np.exp(-(f / cutoff) ** 2)
    shape *= 1 - np.exp(-(f / 2.5) ** 2)  # no features larger than the card
    field = np.fft.irfft2(np.fft.rfft2(white) * shape, s=(h, w))
    return ((field - field.mean()) / field.std()).astype(np.float32)


def half_turn(a):
    return a[::-1, ::-1]


def make_back():
    rng = np.random.default_rng(1)
    w, h = BACK_W, BACK_H

    # Nebula: a soft blue-violet band of cloud crossing the card diagonally through its
    # centre (a band through the centre is unchanged by a half turn), breaking up into
    # wisps, with a faint warm glow where it is densest.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(BAND_ANGLE)
    across = (xx - (w - 1) / 2) * math.sin(a) - (yy - (h - 1) / 2) * math.cos(a)
    band = np.exp(-(across / (0.24 * w)) ** 2)

    def symmetric_noise(beta, cutoff):
        n = cloud_noise(rng, w, h, beta, cutoff)
        n = n + half_turn(n)
        return n / n.std()

    cloud = symmetric_noise(1.8, 40)
    cloud = np.clip(0.85 * band + 0.45 * cloud - 0.25, 0, 1) ** 1.5
    warm = symmetric_noise(1.6, 30)
    warm = np.clip((warm - 0.6) / 1.4, 0, 1) * cloud
    dust = symmetric_noise(1.2, 90)  # finer texture inside the clouds

    base = np.array(INK, np.float32)
    violet = np.array((0x3A, 0x3F, 0x66), np.float32)
    amber = np.array((0x5A, 0x4A, 0x2E), np.float32)
    img = np.broadcast_to(base, (h, w, 3)).copy()
    c = (cloud * (1 + 0.12 * dust))[..., None]
    img += (violet - base) * np.clip(c, 0, 1) * 0.75
    img += (amber - base) * warm[..., None] * 0.45

    # Stars, rendered as small gaussian dots; each one also at its half-turn place.
    stars = np.zeros((h, w, 3), np.float32)
    ys, xs = np.mgrid[-4:5, -4:5].astype(np.float32)

    def put(x, y, sigma, colour, strength):
        ix, iy = int(x), int(y)
        fx, fy = x - ix, y - iy
        k = np.exp(-((xs - fx) ** 2 + (ys - fy) ** 2) / (2 * sigma ** 2)) * strength
        y0, y1, x0, x1 = iy - 4, iy + 5, ix - 4, ix + 5
        if y0 < 0 or x0 < 0 or y1 > h or x1 > w:
            return
        stars[y0:y1, x0:x1] += k[..., None] * (np.array(colour, np.float32) - base)

    n_faint, n_mid, n_bright = 900, 110, 14
    for i in range(n_faint + n_mid + n_bright):
        x, y = rng.uniform(5, w - 6), rng.uniform(5, h - 6)
        gold = rng.random() < 0.35
        colour = GOLD if gold else CREAM
        if i < n_faint:
            sigma, strength = 0.55, rng.uniform(0.12, 0.35)
        elif i < n_faint + n_mid:
            sigma, strength = 0.75, rng.uniform(0.3, 0.55)
        else:
            sigma, strength = 1.0, rng.uniform(0.5, 0.75)
        put(x, y, sigma, colour, strength * (1.3 if gold else 1.0))
    # Stars cluster a little where the nebula is: fade those in the empty dark.
    stars *= (0.55 + 0.45 * np.clip(cloud * 2, 0, 1))[..., None]
    stars = np.maximum(stars, half_turn(stars))
    img += stars

    out = Image.fromarray(np.clip(np.rint(img), 0, 255).astype(np.uint8), mode="RGB")
    out.save(os.path.join(HERE, "back-texture.jpg"), quality=85, progressive=False,
             optimize=True, subsampling="4:4:4", dpi=(300, 300))


if __name__ == "__main__":
    make_emblems()
    make_back()
