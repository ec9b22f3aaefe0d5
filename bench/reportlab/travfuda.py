#!/usr/bin/env python3
"""The TravFuda deck drawn by hand with ReportLab: the baseline deckpress is timed against.

Usage: python travfuda.py OUT.pdf   (needs `pip install 'reportlab[accel]'`; see run.py)
What a designer would write without deckpress: read cards.csv, draw what
templates/face.svg and back.svg draw with canvas calls, 3×3 poker cards on A4 with
3 mm bleed, crop marks, backs on interleaved pages mirrored for a long-edge flip.
Coordinates inside a card are the templates' own (tenths of a mm, y down).
"""
import csv, os, sys, tomllib
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GAME = os.path.join(ROOT, "catalogues", "travfuda")
pdfmetrics.registerFont(TTFont("Noto", os.path.join(ROOT, "fonts", "NotoSans-Regular.ttf")))
pdfmetrics.registerFont(TTFont("Noto-Bold", os.path.join(ROOT, "fonts", "NotoSans-Bold.ttf")))

with open(os.path.join(GAME, "game.toml"), "rb") as f:
    TOML = tomllib.load(f)
STYLE = TOML["style"]
BG, INK = HexColor(STYLE["background"]), HexColor(STYLE["ink"])
GOLD, PURPLE, CREAM = HexColor("#f9c80e"), HexColor("#6a1b9a"), HexColor("#fbf8f0")

W, H, BLEED, GAP = 63 * mm, 88 * mm, 3 * mm, 1 * mm  # GAP: deckpress's space between cards
U = 0.1 * mm  # one template unit
PW, PH = A4
X0, Y0 = (PW - 3 * W - 2 * GAP) / 2, (PH - 3 * H - 2 * GAP) / 2  # grid's bottom-left trim corner


def path(c, d):
    """An SVG path of absolute M/L/Q/Z commands (all the templates use) as a ReportLab path."""
    p, t, cur = c.beginPath(), d.replace(",", " ").split(), (0, 0)
    i, cmd = 0, "M"
    while i < len(t):
        if t[i][0].isalpha():
            cmd, t[i] = t[i][0], t[i][1:]
            if cmd == "Z":
                p.close(); i += 1; continue
            if not t[i]:
                i += 1
        n = [float(v) for v in t[i:i + (4 if cmd == "Q" else 2)]]
        i += len(n)
        if cmd == "M": p.moveTo(*n)
        elif cmd == "L": p.lineTo(*n)
        else:  # quadratic → cubic: control points 2/3 of the way to the quadratic one
            (x0, y0), (qx, qy, x, y) = cur, n
            p.curveTo(x0 + 2 * (qx - x0) / 3, y0 + 2 * (qy - y0) / 3, x + 2 * (qx - x) / 3, y + 2 * (qy - y) / 3, x, y)
        cur = (n[-2], n[-1])
    return p


def text(c, x, y, size, s, fill, bold=False):
    """Centred text at a template baseline; flipped back upright since y runs down."""
    c.saveState()
    c.translate(x, y)
    c.scale(1, -1)
    c.setFillColor(fill)
    c.setFont("Noto-Bold" if bold else "Noto", size)
    c.drawCentredString(0, 0, s)
    c.restoreState()


def image(c, file, x, y, w, h, mask=None):
    c.saveState()
    c.translate(x, y + h)
    c.scale(1, -1)
    c.drawImage(file, 0, 0, w, h, mask=mask)  # a file name: ReportLab embeds each file once
    c.restoreState()


def face(c, card):
    """templates/face.svg, call for call."""
    colour = STYLE["colours"].get(card["colour"])
    accent = HexColor(colour["fill"]) if colour else INK
    index = card["suit"] or "J"
    c.setFillColor(BG)
    c.rect(-50, -50, 730, 980, stroke=0, fill=1)
    c.setStrokeColor(INK)
    c.setLineWidth(5)
    c.roundRect(22, 22, 586, 836, 28, stroke=1, fill=0)
    text(c, 100, 160, 135, index, INK, bold=True)
    c.saveState()
    c.translate(630, 880)  # rotate(180 315 440)
    c.rotate(180)
    text(c, 100, 160, 135, index, INK, bold=True)
    c.restoreState()
    text(c, 385, 100, 50, card["suit_name"], INK, bold=True)
    points = int(card["points"])
    suit = f"suit {card['suit']} · " if card["suit"] else ""
    text(c, 385, 152, 34, f"{suit}{points} {'point' if points == 1 else 'points'}", INK)

    # The type as a symbol: stroked in ink, filled with the card's colour.
    c.saveState()
    c.translate(315, 365)
    c.setStrokeColor(INK)
    c.setLineWidth(7)
    c.setLineJoin(1)
    c.setFillColor(accent)
    kind = card["type"]
    if kind == "Starburst":
        c.drawPath(path(c, STAR), stroke=1, fill=1)
        c.setFillColor(BG)
        c.circle(0, 0, 34, stroke=1, fill=1)
    elif kind == "Cutlass":
        c.rotate(-35)
        c.scale(1.3, 1.3)
        c.drawPath(path(c, BLADE), stroke=1, fill=1)
        c.roundRect(-48, 30, 96, 18, 8, stroke=1, fill=1)
        c.setFillColor(INK)
        c.roundRect(-10, 48, 20, 62, 6, stroke=1, fill=1)
        c.setFillColor(accent)
        c.circle(0, 120, 14, stroke=1, fill=1)
    elif kind == "Flag":
        c.setLineWidth(12)
        c.setLineCap(1)
        c.line(-90, -130, -90, 130)
        c.setLineWidth(7)
        c.drawPath(path(c, FLAG), stroke=1, fill=1)
    elif kind == "Double":
        c.setFillColor(BG)
        c.roundRect(-105, -115, 130, 180, 14, stroke=1, fill=1)
        c.roundRect(-25, -65, 130, 180, 14, stroke=1, fill=1)
        text(c, 40, 45, 90, "×2", INK, bold=True)
    elif kind == "Plain":
        c.setFillColor(BG)
        c.circle(0, 0, 95, stroke=1, fill=1)
        c.setFillColor(INK)
        c.circle(0, 0, 30, stroke=0, fill=1)
    else:  # Joker: a crown
        c.setFillColor(GOLD)
        c.drawPath(path(c, CROWN), stroke=1, fill=1)
        c.setFillColor(accent)
        for x, y in ((-110, -110), (0, -130), (110, -110)):
            c.circle(x, y, 18, stroke=1, fill=1)
        c.setFillColor(PURPLE)
        c.roundRect(-120, 70, 240, 34, 12, stroke=1, fill=1)
    c.restoreState()

    text(c, 315, 565, 58, kind.upper(), INK, bold=True)
    if colour:
        c.setFillColor(accent)
        c.rect(22, 600, 586, 92, stroke=0, fill=1)
        text(c, 315, 664, 56, card["colour"].upper(), HexColor(colour["text"]), bold=True)
    elif kind == "Double":
        text(c, 315, 650, 36, "counts as two Plain", INK)
    elif kind == "Joker":
        text(c, 315, 650, 36, "not a Plain card", INK)
    if card["suit"]:
        image(c, os.path.join(GAME, "art", f"suit-{card['suit']}.png"), 240, 700, 150, 150, mask="auto")


def back(c):
    """templates/back.svg."""
    c.setFillColor(INK)
    c.rect(-50, -50, 730, 980, stroke=0, fill=1)
    w = 940 * 816 / 1111  # preserveAspectRatio slice: fill the 690 × 940 box, keep the ratio
    image(c, os.path.join(GAME, "art", "back-texture.jpg"), 315 - w / 2, -30, w, 940)
    c.setStrokeColor(GOLD)
    c.setLineWidth(6)
    c.roundRect(30, 30, 570, 820, 26, stroke=1, fill=0)
    c.setLineWidth(2)
    c.roundRect(52, 52, 526, 776, 18, stroke=1, fill=0)
    c.setFillColor(CREAM)
    for x, y, r in ((120, 140, 5), (510, 740, 5), (470, 170, 4), (160, 710, 4), (250, 250, 3),
                    (380, 630, 3), (520, 300, 3), (110, 580, 3), (200, 420, 2.5), (430, 460, 2.5)):
        c.circle(x, y, r, stroke=0, fill=1)
    c.setLineWidth(4)
    c.circle(315, 440, 150, stroke=1, fill=0)
    c.saveState()
    c.translate(315, 440)
    c.rotate(-20)
    c.setLineWidth(3)
    c.ellipse(-230, -60, 230, 60, stroke=1, fill=0)
    c.restoreState()
    text(c, 315, 462, 78, TOML["game"]["name"], CREAM, bold=True)


STAR = ("M0.0,-125.0 L15.5,-58.0 L62.5,-108.3 L42.4,-42.4 L108.3,-62.5 L58.0,-15.5 L125.0,0.0 L58.0,15.5 "
        "L108.3,62.5 L42.4,42.4 L62.5,108.3 L15.5,58.0 L0.0,125.0 L-15.5,58.0 L-62.5,108.3 L-42.4,42.4 "
        "L-108.3,62.5 L-58.0,15.5 L-125.0,0.0 L-58.0,-15.5 L-108.3,-62.5 L-42.4,-42.4 L-62.5,-108.3 L-15.5,-58.0 Z")
BLADE = "M-14,30 L-14,-95 Q-10,-135 40,-150 Q14,-110 16,-80 L16,30 Z"
FLAG = "M-84,-125 Q-20,-160 30,-120 Q80,-85 120,-115 L120,5 Q80,35 30,0 Q-20,-40 -84,-5 Z"
CROWN = "M-115,70 Q-70,-10 -110,-110 Q-40,-50 0,-130 Q40,-50 110,-110 Q70,-10 115,70 Z"


def card_at(c, col, row, draw, *args):
    """One card in its grid cell: clipped where its bleed meets the next card's."""
    x, y = X0 + col * (W + GAP), Y0 + (2 - row) * (H + GAP)  # trim's bottom-left; row 0 on top
    c.saveState()
    clip = c.beginPath()
    clip.rect(x - GAP / 2, y - GAP / 2, W + GAP, H + GAP)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(x, y + H)  # the template's origin, its top-left corner, y down
    c.scale(U, -U)
    draw(c, *args)
    c.restoreState()


def marks(c, sheet, sheets, side):
    """Crop marks outside the grid, a 50 mm bar and the two-line slug."""
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.4)
    top, right = Y0 + 3 * H + 2 * GAP, X0 + 3 * W + 2 * GAP
    for i in range(3):
        for x in (X0 + i * (W + GAP), X0 + i * (W + GAP) + W):
            c.line(x, top + 2 * mm, x, top + 7.3 * mm)
            c.line(x, Y0 - 2 * mm, x, Y0 - 7.3 * mm)
        for y in (Y0 + i * (H + GAP), Y0 + i * (H + GAP) + H):
            c.line(X0 - 2 * mm, y, X0 - 4.5 * mm, y)
            c.line(right + 2 * mm, y, right + 4.5 * mm, y)
    c.setLineWidth(0.3 * mm)
    c.line(20 * mm, 5.7 * mm, 70 * mm, 5.7 * mm)
    c.setLineWidth(0.2 * mm)
    for x in range(20, 71, 10):
        c.line(x * mm, 5.7 * mm, x * mm, (7.3 if x in (20, 70) else 6.6) * mm)
    g = TOML["game"]
    c.setFillColorRGB(0, 0, 0)
    c.setFont("Noto", 1.5 * mm)
    c.drawString(73 * mm, 7.025 * mm, f"{g['name']} {g['version']} — TravFuda deck · sheet {sheet} of {sheets}, {side}")
    c.drawString(73 * mm, 5.3 * mm, "duplex, long-edge flip · print at 100 % (actual size), not fit to page · the bar is 50 mm")


def main(out):
    with open(os.path.join(GAME, "cards.csv"), newline="", encoding="utf-8") as f:
        cards = [row for row in csv.DictReader(f) for _ in range(int(row.get("qty") or 1))]
    c = canvas.Canvas(out, pagesize=A4)
    g = TOML["game"]
    c.setTitle(f"{g['name']} — TravFuda deck (a4, duplex, long-edge flip)")
    c.setAuthor(g["author"])
    c.setSubject(g["description"])
    c.setCreator("ReportLab baseline")
    c.setTrimBox((X0, Y0, X0 + 3 * W + 2 * GAP, Y0 + 3 * H + 2 * GAP))
    c.setBleedBox((X0 - GAP / 2, Y0 - GAP / 2, X0 + 3 * W + 2.5 * GAP, Y0 + 3 * H + 2.5 * GAP))

    # Every back is the same: draw it once as a form and place it 62 times (as deckpress does).
    c.beginForm("back", 0, 0, W + 2 * BLEED, H + 2 * BLEED)
    c.translate(BLEED, H + BLEED)
    c.scale(U, -U)
    back(c)
    c.endForm()

    sheets = (len(cards) + 8) // 9
    for s in range(sheets):
        sheet = cards[9 * s:9 * s + 9]
        for i, card in enumerate(sheet):
            card_at(c, i % 3, i // 3, face, card)
        marks(c, s + 1, sheets, "front")
        c.showPage()
        for i in range(len(sheet)):  # long-edge flip: columns mirrored, rows kept
            card_at(c, 2 - i % 3, i // 3, place_back)
        marks(c, s + 1, sheets, "back")
        c.showPage()
    c.save()


def place_back(c):
    # card_at put us in template units at the trim corner; the form is in points from the bleed corner.
    c.scale(1 / U, -1 / U)
    c.translate(-BLEED, -H - BLEED)
    c.doForm("back")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "travfuda-reportlab.pdf")
