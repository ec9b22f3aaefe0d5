#!/usr/bin/env python3
"""Writes every case folder of /work/indep49 (catalogues, pictures, PDFs, README.md,
run.sh) and cases.tsv, which run-all.sh reads. Needs Pillow and pikepdf (pip), and a
deckpress binary for the PDFs edited after a build ($1, default the e8ce935 build).

    python3 gen.py [path/to/deckpress]
"""
import os
import re
import sys
import zlib

import lib
from lib import BG, POKER, case, game, pt

BIN = sys.argv[1] if len(sys.argv) > 1 else lib.DEFAULT_BIN
R = lib.ROOT


def face(body, bg="#ffffff"):
    return POKER + "\n" + BG.format(bg) + "\n" + body + "\n</svg>\n"


TITLE = '<text x="317" y="170" font-size="60" text-anchor="middle" fill="#000000">{{ card.title }}</text>'


# --------------------------------------------------------------------------- helpers for
# PDFs edited after a deckpress build (the way a designer touches up a file in another
# program, or a second tool writes it)

def built_pdf(catdir, service, extra=()):
    """build the catalogue for a service into a scratch folder; the PDF's path"""
    out = f"/tmp/indep49-gen/{os.path.basename(os.path.dirname(catdir))}"
    r = lib.deckpress("build", catdir, "--for", service, "--out", out, *extra, binary=BIN)
    if r.returncode != 0:
        raise SystemExit(f"build of {catdir} failed:\n{r.stdout}\n{r.stderr}")
    gid = open(f"{catdir}/game.toml").read().split('id = "')[1].split('"')[0]
    return f"{out}/{gid}/{gid}-cards-{service}.pdf"


def fronts(pdf, service):
    """indices of the front pages: pdf-cards front,back…; drivethrucards back,front…"""
    n = len(pdf.pages)
    return list(range(0, n, 2)) if service == "pdf-cards" else list(range(1, n, 2))


# =========================================================================== (a) patterns

def class_a():
    # a1: a low-ppi paper texture tiled by an SVG <pattern>, DriveThruCards preflight
    for name, px, exp in (("a1-pattern-texture-76ppi-dtc-bad", 30, "FAIL"),
                          ("a1-pattern-texture-406ppi-dtc-good", 160, "PASS")):
        d = f"{R}/a-pattern/{name}"
        dpi = px / (10 / 25.4)
        game(d + "/game", "pattern-tex", face(
            '<defs><pattern id="paper" patternUnits="userSpaceOnUse" width="100" height="100">'
            '<image href="art/paper.png" x="0" y="0" width="100" height="100"/></pattern></defs>\n'
            '<rect x="-50" y="-50" width="735" height="989" fill="url(#paper)"/>\n' + TITLE),
            art={"art/paper.png": lib.texture(px, seed=7)})
        case(f"a-pattern/{name}", exp, "image-dpi", "image-dpi", f"""
            A paper texture of {px} × {px} px is the one cell of an SVG `<pattern>` 10 mm
            square, tiled over the whole card (bleed included) of a poker deck sent to
            DriveThruCards. Every tile prints the picture at {dpi:.0f} ppi: {'far under the 300 dpi DriveThruCards and every offset printer ask for, so the texture prints soft and blocky and a printer’s preflight (image resolution) rejects it' if exp == 'FAIL' else 'above the 300 dpi printers ask for, so nothing is wrong and preflight must pass'}.
            The twin {'(…406ppi…-good)' if exp == 'FAIL' else '(…76ppi…-bad)'} differs only in the texture's pixel count.""",
             ['"$B" preflight game --for drivethrucards --out "$OUT"'],
             figure=f"{dpi:.0f} dpi" if exp == "FAIL" else "")

    # a2: a patternTransform enlarges a 305 ppi cell four times: 76 ppi; validate --strict
    for name, scale, exp in (("a2-pattern-transform-x4-validate-bad", 4, "FAIL"),
                             ("a2-pattern-transform-x0.8-validate-good", 0.8, "PASS")):
        d = f"{R}/a-pattern/{name}"
        dpi = 120 / (10 * scale / 25.4)
        game(d + "/game", "pattern-scale", face(
            f'<defs><pattern id="weave" patternUnits="userSpaceOnUse" width="100" height="100" '
            f'patternTransform="scale({scale})"><image href="art/weave.png" x="0" y="0" width="100" height="100"/></pattern></defs>\n'
            '<rect x="-50" y="-50" width="735" height="989" fill="url(#weave)"/>\n' + TITLE),
            art={"art/weave.png": lib.texture(120, seed=11, base=(200, 210, 225))})
        case(f"a-pattern/{name}", exp, "dpi", "dpi", f"""
            A 120 × 120 px weave drawn in a 10 mm pattern cell would print at 305 ppi, but the
            pattern's `patternTransform="scale({scale})"` makes every tile {10*scale:g} mm, so the
            picture prints at {dpi:.0f} ppi. {'A printer (or a player looking at the card) sees a blurred texture: under 300 dpi, and under 150 dpi deckpress itself calls it blurred; `validate --strict` must fail on the image' if exp == 'FAIL' else 'That is above 300 ppi: `validate --strict` must pass'}. Only the scale differs from the twin.""",
             ['"$B" validate game --strict'], figure=f"{dpi:.0f} dpi" if exp == "FAIL" else "")

    # a3: text inside a pattern cell (a repeating 'FOE' motif), DriveThruCards
    for name, size, exp in (("a3-pattern-text-4.5pt-dtc-bad", 4.5, "FAIL"),
                            ("a3-pattern-text-9pt-dtc-good", 9, "PASS")):
        d = f"{R}/a-pattern/{name}"
        game(d + "/game", "pattern-text", face(
            f'<defs><pattern id="foe" patternUnits="userSpaceOnUse" width="200" height="100">'
            f'<text x="100" y="60" font-size="{pt(size)}" text-anchor="middle" fill="#222222">Foe</text></pattern></defs>\n'
            '<rect x="117" y="300" width="400" height="300" fill="url(#foe)"/>\n' + TITLE))
        case(f"a-pattern/{name}", exp, "small-text", "small-text", f"""
            The card's middle panel is filled with an SVG `<pattern>` whose 20 × 10 mm cell
            holds the word "Foe" as real text at {size:g} pt, so the panel shows a grid of
            "Foe" words. {'4.5 pt is under DriveThruCards’ 6 pt minimum for legible text (and deckpress’ own 6 pt): a printer rejects it as too small to print cleanly; a file reader has to find the text inside the pattern’s cell to see it' if exp == 'FAIL' else '9 pt is well above the 6 pt minimum: a text inside a tiling pattern is fine and must not be flagged (safe zone: the panel is 11 mm inside the cut)'}.""",
             ['"$B" preflight game --for drivethrucards --out "$OUT"'],
             figure="4.5 pt" if exp == "FAIL" else "")

    # a4: a PDF edited after the build: a PDF tiling pattern (PatternType 1) whose cell,
    # 1 unit square, holds an image and whose /Matrix makes the cell 10 mm
    import pikepdf
    for name, px, exp in (("a4-pdf-tiling-pattern-76ppi-file-bad", 30, "FAIL"),
                          ("a4-pdf-tiling-pattern-406ppi-file-good", 160, "PASS")):
        d = f"{R}/a-pattern/{name}"
        game(d + "/game", "pdfpattern", face(TITLE))
        src = built_pdf(d + "/game", "pdf-cards")
        pdf = pikepdf.open(src)
        im = lib.texture(px, seed=3, base=(180, 200, 170))
        img = pikepdf.Stream(pdf, zlib.compress(im.tobytes()))
        img.Type, img.Subtype, img.Width, img.Height = pikepdf.Name.XObject, pikepdf.Name.Image, px, px
        img.ColorSpace, img.BitsPerComponent, img.Filter = pikepdf.Name.DeviceRGB, 8, pikepdf.Name.FlateDecode
        s = 72 / 25.4 * 10  # 10 mm
        pat = pikepdf.Stream(pdf, b"q 1 0 0 1 0 0 cm /Im0 Do Q")
        pat.Type, pat.PatternType, pat.PaintType, pat.TilingType = pikepdf.Name.Pattern, 1, 1, 1
        pat.BBox, pat.XStep, pat.YStep = [0, 0, 1, 1], 1, 1
        pat.Matrix = [s, 0, 0, s, 0, 0]
        pat.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=img))
        for i in fronts(pdf, "pdf-cards"):
            page = pdf.pages[i]
            res = page.Resources
            res.Pattern = pikepdf.Dictionary(P0=pat)
            page.contents_add(pikepdf.Stream(pdf, b"q /Pattern cs /P0 scn 40 60 117 80 re f Q"), prepend=False)
        pdf.save(f"{d}/pdfpattern-cards-pdf-cards.pdf", deterministic_id=True)
        dpi = px / (10 / 25.4)
        case(f"a-pattern/{name}", exp, "image-dpi", "image-dpi", f"""
            `pdfpattern-cards-pdf-cards.pdf` is deckpress' own pdf-cards file edited after the
            build (as a designer adds a texture in another program; made by gen.py with pikepdf):
            each front gets a 41 × 28 mm panel painted with a PDF tiling pattern (PatternType 1)
            whose cell is 1 × 1 unit holding a {px} × {px} px image, and whose /Matrix scales
            the cell to 10 mm. The image therefore prints at {dpi:.0f} ppi. {'A print shop’s preflight (PitStop, Acrobat) reports an image under 300 ppi and rejects it; deckpress must read the pattern through its own matrix' if exp == 'FAIL' else 'That is above 300 ppi and must pass'}.""",
             ['"$B" preflight game --for pdf-cards --file pdfpattern-cards-pdf-cards.pdf --out "$OUT"'],
             figure=f"{dpi:.0f} dpi" if exp == "FAIL" else "")


# =========================================================================== (b) flattened

def class_b():
    rules_y = 700
    # b1: a blurred (feGaussianBlur) sun makes PDF/X-1a draw the card as a picture
    for name, size, exp in (("b1-blur-text-4.5pt-dtc-bad", 4.5, "FAIL"),
                            ("b1-blur-text-9pt-dtc-good", 9, "PASS")):
        d = f"{R}/b-flattened/{name}"
        game(d + "/game", "blurred", face(
            '<defs><filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="12"/></filter></defs>\n'
            '<circle cx="317" cy="420" r="140" fill="#e8a030" filter="url(#soft)"/>\n' + TITLE +
            f'\n<text x="317" y="{rules_y}" font-size="{pt(size)}" text-anchor="middle" fill="#000000">Draw a card, then discard two</text>'))
        case(f"b-flattened/{name}", exp, "small-text", "small-text", f"""
            A soft, blurred sun (`feGaussianBlur`) needs transparency, which PDF/X-1a cannot
            hold, so deckpress draws the whole card as a 600 dpi CMYK picture for DriveThruCards.
            The rules line "Draw a card, then discard two" is {size:g} pt. {'A printer rejects 4.5 pt text (DriveThruCards asks for 6 pt at least); in the file it is pixels, so a reader of the file alone cannot measure it: deckpress must measure it before flattening and FAIL small-text' if exp == 'FAIL' else 'At 9 pt it is readable even as 600 dpi pixels; the flattened card must pass (the transparency line should only name it)'}.""",
             ['"$B" preflight game --for drivethrucards --out "$OUT"'],
             figure="4.5 pt" if exp == "FAIL" else "")

    # b2: mix-blend-mode multiply + a 0.05 mm rule, pdf-cards in CMYK (PDF/X-1a, FOGRA39)
    for name, w, exp in (("b2-blend-rule-0.05mm-pdfcards-cmyk-bad", 0.5, "FAIL"),
                         ("b2-blend-rule-0.3mm-pdfcards-cmyk-good", 3, "PASS")):
        d = f"{R}/b-flattened/{name}"
        game(d + "/game", "blended", face(
            '<rect x="-50" y="250" width="735" height="300" fill="#f0c8a0"/>\n'
            '<circle cx="317" cy="400" r="120" fill="#6090d0" style="mix-blend-mode:multiply"/>\n' + TITLE +
            f'\n<line x1="80" y1="640" x2="555" y2="640" stroke="#000000" stroke-width="{w}"/>'))
        case(f"b-flattened/{name}", exp, "hairline", "hairline", f"""
            A blue disc multiplied onto a peach band (`mix-blend-mode: multiply`) is a blend
            mode, which PDF/X-1a forbids: the card is drawn as a picture in a `--for pdf-cards
            --colour cmyk` file (FOGRA39, European printers). Under it a divider rule is
            {w/10:g} mm ({w/10*72/25.4:.2f} pt) wide. {'Printers flag lines under 0.25 pt as hairlines that may vanish on the press; as pixels in the file no reader can measure it, so deckpress must measure it before flattening and FAIL hairline' if exp == 'FAIL' else 'That is above the 0.25 pt floor, and must pass'}.""",
             ['"$B" preflight game --for pdf-cards --colour cmyk --out "$OUT"'],
             figure="0.14 pt" if exp == "FAIL" else "")

    # b3: a 30 % opaque SAMPLE watermark + 0.05 mm rule on a home sheet in CMYK
    for name, w, exp in (("b3-watermark-rule-0.05mm-build-cmyk-bad", 0.5, "FAIL"),
                         ("b3-watermark-rule-0.3mm-build-cmyk-good", 3, "PASS")):
        d = f"{R}/b-flattened/{name}"
        game(d + "/game", "watermark", face(
            TITLE + f'\n<rect x="80" y="300" width="475" height="300" fill="none" stroke="#000000" stroke-width="{w}"/>'
            '\n<g id="decor-watermark" opacity="0.3"><text x="317" y="480" font-size="110" font-weight="bold" text-anchor="middle" fill="#c00000" transform="rotate(-30 317 450)">SAMPLE</text></g>'))
        case(f"b-flattened/{name}", exp, "hairline", "0.25 pt|hairline", f"""
            A playtest card with a 30 % opaque red "SAMPLE" watermark (an id starting with
            `decor`, so the legibility checks skip the watermark itself) and a frame
            {w/10:g} mm ({w/10*72/25.4:.2f} pt) wide, built as CMYK PDF/X-1a sheets for a press with
            `build --colour cmyk --strict`. The opacity flattens the card to a 600 dpi picture.
            {'A frame under 0.25 pt is a hairline printers refuse; --strict must turn the build’s warning about it into a failure' if exp == 'FAIL' else 'The 0.85 pt frame is fine; the build (with --strict) must succeed: the flattening itself is only reported'}.""",
             ['"$B" build game --colour cmyk --strict --out "$OUT"'],
             figure="0.14 pt" if exp == "FAIL" else "")


# =========================================================================== (c) boards

SHEET_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             'width="{{ sheet.width }}mm" height="{{ sheet.height }}mm" '
             'viewBox="0 0 {{ sheet.width }} {{ sheet.height }}" font-family="Noto Sans">\n'
             '<rect x="-5" y="-5" width="{{ sheet.width + 10 }}" height="{{ sheet.height + 10 }}" fill="#ffffff"/>\n')


def mmpt(p):
    """font-size in mm for p points"""
    return round(p * 25.4 / 72, 3)


def class_c():
    # c1: a 300 × 400 mm board (A2 sheet, and tiled) for a press, grid of 0.05 mm lines
    for name, w, exp in (("c1-a2-board-grid-0.05mm-cmyk-bad", 0.05, "FAIL"),
                         ("c1-a2-board-grid-0.3mm-cmyk-good", 0.3, "PASS")):
        d = f"{R}/c-board/{name}"
        grid = "".join(f'<line x1="{20 + 26*i}" y1="20" x2="{20 + 26*i}" y2="380" stroke="#000000" stroke-width="{w}"/>' for i in range(11))
        grid += "".join(f'<line x1="20" y1="{20 + 36*i}" x2="280" y2="{20 + 36*i}" stroke="#000000" stroke-width="{w}"/>' for i in range(11))
        board = SHEET_SVG + grid + '\n<text x="150" y="12" font-size="8" text-anchor="middle" fill="#000000">Harbour map</text>\n</svg>\n'
        game(d + "/game", "gridboard", face(TITLE), templates={"templates/board.svg": board},
             extra='[[sheet]]\nid = "board"\nname = "Map"\ntemplate = "templates/board.svg"\nwidth = "300mm"\nheight = "400mm"\n')
        case(f"c-board/{name}", exp, "hairline", "hairline|0.25 pt|0.14 pt", f"""
            A 300 × 400 mm map board (one A2 sheet, and tiled on A4) whose 10 × 10 grid is drawn
            in lines {w:g} mm ({w*72/25.4:.2f} pt) wide, built for a press with `build --colour
            cmyk --strict` (PDF/X-1a, FOGRA39). {'Every printer’s preflight flags lines under 0.25 pt as hairlines that break up or vanish on the plate; a board printed by a press is rejected for them. deckpress checks 0.25 pt lines in decks (preflight hairline) and in flattened pieces; a board drawn as vectors should not slip through' if exp == 'FAIL' else 'A 0.85 pt grid prints cleanly: the build must succeed'}.""",
             ['"$B" build game --colour cmyk --strict --out "$OUT"'], figure="0.14 pt" if exp == "FAIL" else "")

    # c2: a 235 × 361 mm track board, tiled across A4, with 4.5 pt space numbers
    for name, size, exp in (("c2-tiled-board-labels-4.5pt-bad", 4.5, "FAIL"),
                            ("c2-tiled-board-labels-9pt-good", 9, "PASS")):
        d = f"{R}/c-board/{name}"
        spaces = "".join(
            f'<rect x="{15 + 40*(i % 5)}" y="{20 + 48*(i // 5)}" width="34" height="34" rx="3" fill="#f3e7c9" stroke="#000000" stroke-width="0.4"/>'
            f'<text x="{32 + 40*(i % 5)}" y="{41 + 48*(i // 5)}" font-size="{mmpt(size)}" text-anchor="middle" fill="#000000">Space {i+1}</text>'
            for i in range(35))
        board = SHEET_SVG + spaces + '\n</svg>\n'
        game(d + "/game", "trackboard", face(TITLE), templates={"templates/board.svg": board},
             extra='[[sheet]]\nid = "track"\nname = "Track"\ntemplate = "templates/board.svg"\nwidth = "235mm"\nheight = "361mm"\n')
        case(f"c-board/{name}", exp, "text-size", "prints at", f"""
            A 235 × 361 mm track board of 35 spaces, printed on one A3 sheet and tiled across
            A4 pages for home printing (`build --strict`). Each space is named "Space N" in
            {size:g} pt. {'Players read the board from across the table: 4.5 pt is under deckpress’ own 6 pt floor and under any printer’s 6 pt minimum, so the board must fail' if exp == 'FAIL' else '9 pt is readable; the build must pass'}.""",
             ['"$B" build game --strict --out "$OUT"'], figure="4.5 pt" if exp == "FAIL" else "")

    # c3: a board's sea picture at 76 dpi, A2 board for a press
    for name, px, exp in (("c3-board-sea-art-76dpi-cmyk-bad", 300, "FAIL"),
                          ("c3-board-sea-art-320dpi-cmyk-good", 1260, "PASS")):
        d = f"{R}/c-board/{name}"
        board = SHEET_SVG + ('<image href="art/sea.png" x="100" y="150" width="100" height="100"/>\n'
                             '<text x="150" y="140" font-size="8" text-anchor="middle" fill="#000000">The Sea</text>\n</svg>\n')
        game(d + "/game", "seaboard", face(TITLE), templates={"templates/board.svg": board},
             art={"art/sea.png": lib.texture(px, seed=5, base=(70, 120, 170), amp=6)},
             extra='[[sheet]]\nid = "board"\nname = "Sea board"\ntemplate = "templates/board.svg"\nwidth = "300mm"\nheight = "400mm"\n')
        dpi = px / (100 / 25.4)
        case(f"c-board/{name}", exp, "dpi", "dpi", f"""
            A 300 × 400 mm board printed on A2 for a press (`build --colour cmyk --board-paper a2
            --strict`), with a {px} × {px} px sea picture placed 100 × 100 mm: {dpi:.0f} ppi.
            {'A printer asks 300 ppi; at 76 the sea prints blurred and blocky: the build must fail on the image' if exp == 'FAIL' else 'Above 300 ppi: the build must pass'}.""",
             ['"$B" build game --colour cmyk --board-paper a2 --strict --out "$OUT"'],
             figure=f"{dpi:.0f} dpi" if exp == "FAIL" else "")


# =========================================================================== (d) boxes

BOX_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="{{ box.width }}mm" height="{{ box.height }}mm" '
           'viewBox="0 0 {{ box.width }} {{ box.height }}" font-family="Noto Sans">\n'
           '<rect x="-3" y="-3" width="{{ box.width + 6 }}" height="{{ box.height + 6 }}" fill="#f4efe2"/>\n')
BOX_TOML = ('[[box]]\nid = "box"\ndeck = "cards"\ncards = 54\nfront = "templates/box.svg"\nback = "templates/box.svg"\n'
            'side = "templates/box.svg"\ntop = "templates/box.svg"\n')


def class_d():
    # d1: 4.5 pt text on a tuck box's back
    for name, size, exp in (("d1-box-back-text-4.5pt-bad", 4.5, "FAIL"),
                            ("d1-box-back-text-9pt-good", 9, "PASS")):
        d = f"{R}/d-box/{name}"
        box = BOX_SVG + ('{% if box.face == "front" %}<text x="{{ box.width / 2 }}" y="{{ box.height / 2 }}" font-size="8" '
                         'text-anchor="middle" fill="#000000">Harbour</text>{% endif %}\n'
                         '{% if box.face == "back" %}<text x="{{ box.width / 2 }}" y="{{ box.height / 2 }}" font-size="' + str(mmpt(size)) +
                         '" text-anchor="middle" fill="#000000">2–4 players · 54 cards</text>{% endif %}\n</svg>\n')
        game(d + "/game", "tuckbox", face(TITLE), templates={"templates/box.svg": box}, extra=BOX_TOML)
        case(f"d-box/{name}", exp, "text-size", "prints at", f"""
            A tuck box sized from its poker deck; its back panel says "2–4 players · 54
            cards" in {size:g} pt. {'On a box that is the line a buyer reads; 4.5 pt is under the 6 pt floor (deckpress’ and printers’): `validate --strict` must fail on it' if exp == 'FAIL' else '9 pt is readable: `validate --strict` must pass'}.""",
             ['"$B" validate game --strict'], figure="4.5 pt" if exp == "FAIL" else "")

    # d2: navy 6.5 pt text on the box's sides, CMYK build
    for name, colour, exp in (("d2-box-side-navy-6.5pt-cmyk-bad", "#1f2a5c", "FAIL"),
                              ("d2-box-side-black-6.5pt-cmyk-good", "#000000", "PASS")):
        d = f"{R}/d-box/{name}"
        box = BOX_SVG + ('{% if box.face == "side" %}<text x="{{ box.width / 2 }}" y="{{ box.height / 2 }}" font-size="' + str(mmpt(6.5)) +
                         f'" text-anchor="middle" fill="{colour}" transform="rotate(-90 {{{{ box.width / 2 }}}} {{{{ box.height / 2 }}}})">Made in Harbour</text>{{% endif %}}\n'
                         '{% if box.face == "front" %}<text x="{{ box.width / 2 }}" y="{{ box.height / 2 }}" font-size="8" '
                         'text-anchor="middle" fill="#000000">Harbour</text>{% endif %}\n</svg>\n')
        game(d + "/game", "navybox", face(TITLE), templates={"templates/box.svg": box}, extra=BOX_TOML)
        case(f"d-box/{name}", exp, "fine-text-inks", "ink", f"""
            The tuck box's two sides print "Made in Harbour" at 6.5 pt in {colour}, built for a
            press with `build --colour cmyk --strict` (FOGRA39). {'Navy #1f2a5c separates into about C90 M73 K52: three plates that never register exactly, so 6.5 pt letters get coloured fringes; printers flag small text in several inks. The build must fail' if exp == 'FAIL' else 'Black text prints in black ink alone: no registration risk, the build must pass'}.""",
             ['"$B" build game --colour cmyk --strict --out "$OUT"'], figure="6.5 pt" if exp == "FAIL" else "")

    # d3: a 0.05 mm frame on the box's front, CMYK build
    for name, w, exp in (("d3-box-frame-0.05mm-cmyk-bad", 0.05, "FAIL"),
                         ("d3-box-frame-0.3mm-cmyk-good", 0.3, "PASS")):
        d = f"{R}/d-box/{name}"
        box = BOX_SVG + ('{% if box.face == "front" %}<rect x="5" y="5" width="{{ box.width - 10 }}" height="{{ box.height - 10 }}" '
                         f'fill="none" stroke="#000000" stroke-width="{w}"/>'
                         '<text x="{{ box.width / 2 }}" y="{{ box.height / 2 }}" font-size="8" text-anchor="middle" fill="#000000">Harbour</text>{% endif %}\n</svg>\n')
        game(d + "/game", "framebox", face(TITLE), templates={"templates/box.svg": box}, extra=BOX_TOML)
        case(f"d-box/{name}", exp, "hairline", "hairline|0.25 pt|0.14 pt", f"""
            The box's front has a decorative frame {w:g} mm ({w*72/25.4:.2f} pt) wide, built for a
            press with `build --colour cmyk --strict`. {'A printer flags a line under 0.25 pt as a hairline that may not print; the box file should be refused, as a deck’s is by preflight' if exp == 'FAIL' else 'A 0.85 pt frame prints; the build must pass'}.""",
             ['"$B" build game --colour cmyk --strict --out "$OUT"'], figure="0.14 pt" if exp == "FAIL" else "")


# =========================================================================== (e) labels

LABEL_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{{ deck.width }}mm" height="{{ deck.height }}mm" '
             'viewBox="0 0 {{ deck.width }} {{ deck.height }}" font-family="Noto Sans">\n')


def labels_toml(product):
    return (f'[[sheet]]\nid = "stickers"\nname = "Stickers"\nlabels = "{product}"\nrows = "stickers.csv"\n'
            'face = "templates/sticker.svg"\nfields = ["suit", "title"]\n')


STICKERS = "id,qty,suit,title\nsun-s,3,Sun,Dawn\nmoon-s,3,Moon,Dusk\n"


def class_e():
    # e1: 4.5 pt text on Avery L7160 address-size stickers
    for name, size, exp in (("e1-l7160-sticker-text-4.5pt-bad", 4.5, "FAIL"),
                            ("e1-l7160-sticker-text-9pt-good", 9, "PASS")):
        d = f"{R}/e-labels/{name}"
        st = LABEL_SVG + ('<rect x="-2" y="-2" width="{{ deck.width + 4 }}" height="{{ deck.height + 4 }}" fill="#ffffff"/>\n'
                          '<text x="{{ deck.width / 2 }}" y="15" font-size="6" text-anchor="middle" fill="#000000">{{ card.title }}</text>\n'
                          f'<text x="{{{{ deck.width / 2 }}}}" y="26" font-size="{mmpt(size)}" text-anchor="middle" fill="#000000">Stick on the pawn’s base</text>\n</svg>\n')
        game(d + "/game", "stickers", face(TITLE), templates={"templates/sticker.svg": st},
             csvs={"stickers.csv": STICKERS}, extra=labels_toml("avery-l7160"))
        case(f"e-labels/{name}", exp, "text-size", "prints at", f"""
            A sheet of Avery L7160 stickers (63.5 × 38.1 mm, 3 × 7 on A4), each with a title and
            the line "Stick on the pawn’s base" in {size:g} pt, built for home with `build
            --strict`. {'4.5 pt is under the 6 pt floor: a player squints, a printer refuses; the build must fail' if exp == 'FAIL' else '9 pt is readable: the build must pass'}.""",
             ['"$B" build game --strict --out "$OUT"'], figure="4.5 pt" if exp == "FAIL" else "")

    # e2: round Avery 5193 stickers with a portrait at 100 dpi
    for name, px, exp in (("e2-round-5193-art-100dpi-bad", 118, "FAIL"),
                          ("e2-round-5193-art-322dpi-good", 380, "PASS")):
        d = f"{R}/e-labels/{name}"
        st = LABEL_SVG + ('<rect x="-2" y="-2" width="{{ deck.width + 4 }}" height="{{ deck.height + 4 }}" fill="#ffffff"/>\n'
                          '<image href="art/face.png" x="{{ deck.width / 2 - 15 }}" y="4" width="30" height="30"/>\n'
                          '<text x="{{ deck.width / 2 }}" y="38" font-size="3" text-anchor="middle" fill="#000000">{{ card.title }}</text>\n</svg>\n')
        game(d + "/game", "roundstickers", face(TITLE), templates={"templates/sticker.svg": st},
             csvs={"stickers.csv": STICKERS}, extra=labels_toml("avery-5193"),
             art={"art/face.png": lib.texture(px, seed=9, base=(190, 150, 120), amp=25)})
        dpi = px / (30 / 25.4)
        case(f"e-labels/{name}", exp, "dpi", "dpi", f"""
            Round Avery 5193 stickers (1 5/8 in, on Letter), each with a {px} × {px} px portrait
            placed 30 × 30 mm: {dpi:.0f} ppi. {'Under 150 ppi a picture prints visibly blurred on any printer: `validate --strict` must fail on the image' if exp == 'FAIL' else 'Above 300 ppi: `validate --strict` must pass'}.""",
             ['"$B" validate game --strict'], figure=f"{dpi:.0f} dpi" if exp == "FAIL" else "")

    # e3: navy 6.5 pt text on stickers printed by a press (CMYK)
    for name, colour, exp in (("e3-sticker-navy-6.5pt-cmyk-bad", "#1f2a5c", "FAIL"),
                              ("e3-sticker-black-6.5pt-cmyk-good", "#000000", "PASS")):
        d = f"{R}/e-labels/{name}"
        st = LABEL_SVG + ('<rect x="-2" y="-2" width="{{ deck.width + 4 }}" height="{{ deck.height + 4 }}" fill="#ffffff"/>\n'
                          '<text x="{{ deck.width / 2 }}" y="15" font-size="6" text-anchor="middle" fill="#000000">{{ card.title }}</text>\n'
                          f'<text x="{{{{ deck.width / 2 }}}}" y="26" font-size="{mmpt(6.5)}" text-anchor="middle" fill="{colour}">Stick on the pawn’s base</text>\n</svg>\n')
        game(d + "/game", "inkstickers", face(TITLE), templates={"templates/sticker.svg": st},
             csvs={"stickers.csv": STICKERS}, extra=labels_toml("avery-l7163"))
        case(f"e-labels/{name}", exp, "fine-text-inks", "ink", f"""
            Avery L7163 stickers printed by a press (`build --colour cmyk --strict`), with the
            line "Stick on the pawn’s base" at 6.5 pt in {colour}. {'Navy separates into three or four inks; text under 8 pt in several inks prints with coloured fringes: the build must fail' if exp == 'FAIL' else 'Black text prints in black ink alone: the build must pass'}.""",
             ['"$B" build game --colour cmyk --strict --out "$OUT"'], figure="6.5 pt" if exp == "FAIL" else "")


# =========================================================================== (f) score pads

PAD_FIELDS = ('[fields.suit]\nvalues = ["Sun", "Moon"]\n[fields.title]\nkind = "text"\n'
              '[fields.kind]\nvalues = ["line", "heading", "total", "blank", "fact"]\noptional = true\n'
              '[fields.label]\nkind = "text"\noptional = true\n[fields.info]\nkind = "text"\noptional = true\n')
PAD_CSV = "id,kind,label,info\nh,heading,Harbour,\nr1,line,Ships sold,2\nr2,line,Crates landed,1\nr3,line,Storms weathered,3\nt,total,Total,\n"


def class_f():
    # f1: the shared score pad with font_size = 1.5 mm (4.3 pt)
    for name, fs, exp in (("f1-score-pad-font-1.5mm-bad", 1.5, "FAIL"),
                          ("f1-score-pad-font-3.2mm-good", 3.2, "PASS")):
        d = f"{R}/f-pad/{name}"
        game(d + "/game", "harbourpad", face(TITLE), fields=PAD_FIELDS, deck_extra='fields = ["suit", "title"]\n',
             card='size = "poker"\n', csvs={"pad.csv": PAD_CSV},
             extra=('[game.players]\n' if False else '') +
             f'[[sheet]]\nid = "pad"\nname = "Score pad"\nfrom = "score-pad"\npage = "portrait"\nrows = "pad.csv"\n'
             f'fields = ["kind", "label", "info"]\ndata = {{ title = "Harbour score pad", label = "Round", info = "Points", font_size = {fs} }}\n')
        case(f"f-pad/{name}", exp, "text-size", "prints at", f"""
            deckpress' own score pad (`from = "score-pad"`) with `font_size = {fs}` (mm): the
            labels print at {fs*72/25.4:.1f} pt. {'Players write on a pad in dim light at the table; 4.3 pt is under the 6 pt floor: `build --strict` must fail' if exp == 'FAIL' else '9.1 pt (the default 3.2 mm) is readable: `build --strict` must pass'}.""",
             ['"$B" build game --strict --players 4 --out "$OUT"'], figure="4.3 pt" if exp == "FAIL" else "")

    # f2: a score sheet of the designer's own: pale grey column names
    for name, colour, ratio, exp in (("f2-own-score-sheet-grey-2.2to1-bad", "#b0b0b0", "2.2", "FAIL"),
                                     ("f2-own-score-sheet-grey-7to1-good", "#595959", "7.0", "PASS")):
        d = f"{R}/f-pad/{name}"
        rows = "".join(f'<line x1="20" y1="{60 + 12*i}" x2="190" y2="{60 + 12*i}" stroke="#000000" stroke-width="0.3"/>' for i in range(15))
        cols = "".join(f'<text x="{70 + 30*i}" y="52" font-size="4" text-anchor="middle" fill="{colour}">Player {i+1}</text>' for i in range(4))
        sheet = SHEET_SVG + '<text x="105" y="30" font-size="8" text-anchor="middle" fill="#000000">Harbour scores</text>\n' + cols + rows + '\n</svg>\n'
        game(d + "/game", "ownsheet", face(TITLE), templates={"templates/scores.svg": sheet},
             extra='[[sheet]]\nid = "scores"\nname = "Scores"\ntemplate = "templates/scores.svg"\npage = "portrait"\n')
        case(f"f-pad/{name}", exp, "contrast", "contrast", f"""
            A score sheet drawn by the designer (an A4 `[[sheet]]` with its own template): the
            column names "Player 1" … "Player 4" (11 pt) are {colour} on white, {ratio}:1.
            {'Under the 4.5:1 small text needs (WCAG, deckpress’ own floor), pale grey on a photocopied pad all but disappears: `validate --strict` must fail' if exp == 'FAIL' else '7:1 is well above 4.5:1: `validate --strict` must pass'}.""",
             ['"$B" validate game --strict'], figure=f"{ratio}:1" if exp == "FAIL" else "")

    # f3: the designer's own score sheet for a press, writing lines 0.05 mm
    for name, w, exp in (("f3-own-score-sheet-lines-0.05mm-cmyk-bad", 0.05, "FAIL"),
                         ("f3-own-score-sheet-lines-0.3mm-cmyk-good", 0.3, "PASS")):
        d = f"{R}/f-pad/{name}"
        rows = "".join(f'<line x1="20" y1="{60 + 12*i}" x2="190" y2="{60 + 12*i}" stroke="#000000" stroke-width="{w}"/>' for i in range(15))
        sheet = SHEET_SVG + '<text x="105" y="30" font-size="8" text-anchor="middle" fill="#000000">Harbour scores</text>\n' + rows + '\n</svg>\n'
        game(d + "/game", "padlines", face(TITLE), templates={"templates/scores.svg": sheet},
             extra='[[sheet]]\nid = "scores"\nname = "Scores"\ntemplate = "templates/scores.svg"\npage = "portrait"\n')
        case(f"f-pad/{name}", exp, "hairline", "hairline|0.25 pt|0.14 pt", f"""
            The designer's own score sheet, sent to a press as pads (`build --colour cmyk
            --strict`), has its 15 writing lines {w:g} mm ({w*72/25.4:.2f} pt) wide.
            {'Lines under 0.25 pt are hairlines a printer flags (they break up on the plate, and a player cannot see where to write): the build should fail' if exp == 'FAIL' else '0.85 pt lines print: the build must pass'}.""",
             ['"$B" build game --colour cmyk --strict --out "$OUT"'], figure="0.14 pt" if exp == "FAIL" else "")


# =========================================================================== (g) fine text in four inks

RULES = '<text x="317" y="{y}" font-size="{s}" text-anchor="middle" fill="{c}">Draw two cards, then discard one</text>'


def class_g():
    # g1: a navy swatch of three inks (C80 M67 K66), DriveThruCards --strict
    for name, sw, exp in (("g1-swatch-navy-C80M67K66-6.5pt-dtc-bad", "[80, 67, 0, 66]", "FAIL"),
                          ("g1-swatch-navy-K100-6.5pt-dtc-good", "[0, 0, 0, 100]", "PASS")):
        d = f"{R}/g-fine-inks/{name}"
        game(d + "/game", "swatchnavy", face(TITLE + "\n" + RULES.format(y=700, s=pt(6.5), c="#1f2a5c")),
             extra=f'[colour.swatches]\n"#1f2a5c" = {sw}\n')
        case(f"g-fine-inks/{name}", exp, "fine-text-inks", "fine-text-inks", f"""
            The rules line is 6.5 pt in navy #1f2a5c, which the catalogue gives the swatch
            {sw} (C, M, Y, K) for the press; DriveThruCards file checked with `preflight
            --strict`. {'Three plates (C80 M67 K66) must register for 6.5 pt letters: they never do exactly, and the text prints with cyan and magenta fringes; printers flag it. Must FAIL fine-text-inks' if exp == 'FAIL' else 'The swatch puts the navy text in black ink alone (K100): nothing can misregister, so it must pass'}.""",
             ['"$B" preflight game --for drivethrucards --strict --out "$OUT"'], figure="6.5 pt" if exp == "FAIL" else "")

    # g2: dark red 6 pt text, pdf-cards for a European printer (FOGRA39)
    for name, colour, exp in (("g2-dark-red-6pt-pdfcards-cmyk-bad", "#8b1a1a", "FAIL"),
                              ("g2-dark-grey-6pt-pdfcards-cmyk-good", "#333333", "PASS")):
        d = f"{R}/g-fine-inks/{name}"
        game(d + "/game", "redrules", face(TITLE + "\n" + RULES.format(y=700, s=pt(6), c=colour)))
        case(f"g-fine-inks/{name}", exp, "fine-text-inks", "ink", f"""
            6 pt rules text in {colour}, built as `--for pdf-cards --colour cmyk --strict` (FOGRA39,
            PDF/X-1a). {'Dark red separates into magenta, yellow and black (and some cyan): small text in several inks misregisters; the build must fail' if exp == 'FAIL' else '#333333 is a neutral grey, printed in black ink alone: the build must pass'}.""",
             ['"$B" build game --for pdf-cards --colour cmyk --strict --out "$OUT"'], figure=r"6(\.0)? pt" if exp == "FAIL" else "")

    # g3: the DriveThruCards file edited after the build: the 6.5 pt text set in rich black
    import pikepdf
    for name, op, exp in (("g3-file-rich-black-6.5pt-text-bad", b"0.6 0.4 0.4 1 k", "FAIL"),
                          ("g3-file-grey-K85-6.5pt-text-good", b"0 0 0 0.85 k", "PASS")):
        d = f"{R}/g-fine-inks/{name}"
        game(d + "/game", "richblack", face(TITLE + "\n" + RULES.format(y=700, s=pt(6.5), c="#000000")))
        src_pdf = built_pdf(d + "/game", "drivethrucards")
        pdf = pikepdf.open(src_pdf)
        n = 0
        for i in fronts(pdf, "drivethrucards"):
            page = pdf.pages[i]
            data = page.Contents.read_bytes()
            new, k = re.subn(rb"0 0 0 1 k(\s*BT)", op + rb"\1", data)
            n += k
            page.Contents = pikepdf.Stream(pdf, new)
        assert n, "no black text found to edit"
        pdf.save(f"{d}/richblack-cards-drivethrucards.pdf", deterministic_id=True)
        case(f"g-fine-inks/{name}", exp, "fine-text-inks", "fine-text-inks", f"""
            `richblack-cards-drivethrucards.pdf` is deckpress' DriveThruCards file edited after
            the build (gen.py, pikepdf: as a designer "enriches" the black in another program):
            every text on the fronts, among them the 6.5 pt rules line, is painted
            `{op.decode()}` instead of `0 0 0 1 k`. {'That is rich black, four inks, on 6.5 pt letters: the classic misregistration reject of every prepress check. The file, not the catalogue, must be read: FAIL fine-text-inks' if exp == 'FAIL' else 'That is a grey in black ink alone: one plate, no registration risk: must pass'}.""",
             ['"$B" preflight game --for drivethrucards --strict --file richblack-cards-drivethrucards.pdf --out "$OUT"'],
             figure="6.5 pt" if exp == "FAIL" else "")


# =========================================================================== (h) colour alone

SUITS = '[fields.suit]\nvalues = ["Rose", "Leaf"]\n[fields.title]\nkind = "text"\n'
SUIT_CARDS = "id,suit,title\nrose-1,Rose,Dawn\nleaf-1,Leaf,Dawn\nrose-2,Rose,Dusk\nleaf-2,Leaf,Dusk\n"
DISC = '<circle cx="317" cy="400" r="150" fill="{% if card.suit == "Rose" %}#c94a3b{% else %}#5e9a3a{% endif %}"/>'
GLYPH = '{% if card.suit == "Rose" %}♥{% else %}♣{% endif %}'


def hcase(name, exp, body, readme, cmd='"$B" validate game --strict', extra=""):
    d = f"{R}/h-colour-alone/{name}"
    game(d + "/game", "suits", face(TITLE + "\n" + DISC + "\n" + body, bg="#f4f4f4"), fields=SUITS,
         cards=SUIT_CARDS, extra=extra)
    case(f"h-colour-alone/{name}", exp, "colour-alone", "colour alone|colour-alone|by colour", readme, [cmd])


def class_h():
    hcase("h1-red-green-disc-only-bad", "FAIL", "", """
        Two suits, Rose and Leaf, told apart only by the colour of a big disc (#c94a3b red,
        #5e9a3a green; the titles Dawn/Dusk run across both suits). For a deuteranope or
        protanope (about 1 man in 12) the two discs are the same brown-olive: a player
        cannot sort the cards. `validate --strict` must fail colour-alone.""")
    hcase("h2-glyph-5mm-own-text-good", "PASS",
          f'<text x="317" y="450" font-size="90" text-anchor="middle" fill="#ffffff">{GLYPH}</text>', """
        The same red/green discs, each with its suit's glyph (♥ or ♣) in white at a 9 mm font
        size (the glyph ≈ 6 mm tall) in a `<text>` of its own. The shape tells the suits apart
        at a glance for every player: it must pass.""")
    hcase("h3-glyph-in-name-text-good", "PASS",
          f'<text x="317" y="720" font-size="80" text-anchor="middle" fill="#000000">{GLYPH} {{{{ card.suit }}}}</text>', """
        The same discs; under them one `<text>` at an 8 mm font size holds the suit's glyph
        and its name ("♥ Rose", "♣ Leaf"): the glyph is ≈ 5.5 mm tall, above the 4 mm deckpress
        counts as a symbol seen, not read. The glyph differs by suit, so it must pass.""")
    hcase("h4-glyph-2mm-too-small-bad", "FAIL",
          f'<text x="317" y="720" font-size="30" text-anchor="middle" fill="#000000">{GLYPH}</text>', """
        The same discs with the suit glyph at a 3 mm font size (≈ 2 mm tall): under 4 mm a
        symbol has to be read, like a word, not seen at a glance. For a colour-blind player
        the suits differ only by a tiny mark: deckpress' own rule says this is colour and words
        alone, so `validate --strict` must fail.""")
    hcase("h5-names-in-letters-accepted-good", "PASS",
          '<text x="317" y="720" font-size="70" font-weight="bold" text-anchor="middle" fill="#000000">{{ card.suit | upper }}</text>', """
        The same discs with the suit's name in 7 mm capitals (ROSE, LEAF), and game.toml says
        players read the suit: `[check] accept_colour_alone = ["suit"]`. The decision is
        written down and the name is large: must pass.""", extra='[check]\naccept_colour_alone = ["suit"]\n')
    hcase("h6-names-in-letters-not-accepted", "PASS",
          '<text x="317" y="720" font-size="70" font-weight="bold" text-anchor="middle" fill="#000000">{{ card.suit | upper }}</text>', """
        As h5, without `accept_colour_alone`: the suit's name in 7 mm bold capitals. Issue 49
        lists "names in letters" as acceptable (a colour-blind player reads ROSE/LEAF); deckpress'
        docs (catalogue.md, Legibility) deliberately warn unless the field is accepted. Expected
        PASS per the brief; a FAIL here is the documented policy, not a bug (see RESULTS.md).""")
    hcase("h7-red-green-disc-only-dtc-bad", "FAIL", "", """
        h1's colour-only suits checked the way a designer checks before ordering, `preflight
        --for drivethrucards --strict`: the colour-alone line must FAIL there too.""",
          cmd='"$B" preflight game --for drivethrucards --strict --out "$OUT"')
    hcase("h8-glyph-own-text-dtc-good", "PASS",
          f'<text x="317" y="450" font-size="90" text-anchor="middle" fill="#ffffff">{GLYPH}</text>', """
        h2's glyph-marked suits checked with `preflight --for drivethrucards --strict`: must
        pass.""", cmd='"$B" preflight game --for drivethrucards --strict --out "$OUT"')


# =========================================================================== (i) soft masks

def class_i():
    import pikepdf
    # i1: a live luminosity soft mask over the front's content in the PDF/X-1a file
    for name, live, exp in (("i1-file-live-smask-dtc-bad", True, "FAIL"),
                            ("i1-file-smask-none-dtc-good", False, "PASS")):
        d = f"{R}/i-smask/{name}"
        game(d + "/game", "smask", face(TITLE + "\n" + RULES.format(y=700, s=pt(9), c="#000000")))
        pdf = pikepdf.open(built_pdf(d + "/game", "drivethrucards"))
        if live:
            g = pikepdf.Stream(pdf, b"0.85 g 0 0 198 270 re f")
            g.Type, g.Subtype, g.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 198, 270]
            g.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceGray)
            gs = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState,
                                    SMask=pikepdf.Dictionary(Type=pikepdf.Name.Mask, S=pikepdf.Name.Luminosity, G=g))
        else:
            gs = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, SMask=pikepdf.Name("/None"))
        for i in fronts(pdf, "drivethrucards"):
            page = pdf.pages[i]
            page.Resources.ExtGState = pikepdf.Dictionary(GSm=gs)
            page.Contents = pikepdf.Stream(pdf, b"q /GSm gs\n" + page.Contents.read_bytes() + b"\nQ")
        pdf.save(f"{d}/smask-cards-drivethrucards.pdf", deterministic_id=True)
        case(f"i-smask/{name}", exp, "transparency", "transparency", f"""
            `smask-cards-drivethrucards.pdf` is deckpress' DriveThruCards file edited after the
            build (gen.py, pikepdf): every front is drawn under a graphics state whose /SMask is
            {'a luminosity soft mask (a transparency group filled 85 % grey): the text and art are 85 % opaque. PDF/X-1a:2003 forbids soft masks; DriveThruCards’ and every RIP’s PDF/X-1a check rejects the file. Must FAIL transparency' if live else '/None, which PDF/X-1a:2003 explicitly allows (it means no mask): the file is as opaque as the original. Acrobat’s and PitStop’s PDF/X-1a checks pass it; so must deckpress'}.""",
             ['"$B" preflight game --for drivethrucards --file smask-cards-drivethrucards.pdf --out "$OUT"'],
             figure="" if not live else "SMask|soft mask|mask")

    # i2: an SVG <mask> (a luminance gradient) over 4.5 pt text: flattened for PDF/X-1a
    for name, size, exp in (("i2-svg-mask-text-4.5pt-pdfcards-cmyk-bad", 4.5, "FAIL"),
                            ("i2-svg-mask-text-9pt-pdfcards-cmyk-good", 9, "PASS")):
        d = f"{R}/i-smask/{name}"
        game(d + "/game", "svgmask", face(
            '<defs><linearGradient id="fade" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ffffff"/>'
            '<stop offset="1" stop-color="#909090"/></linearGradient>'
            '<mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="635" height="889"><rect x="0" y="0" width="635" height="889" fill="url(#fade)"/></mask></defs>\n'
            + TITLE + f'\n<g mask="url(#m)">' + RULES.format(y=700, s=pt(size), c="#000000") + '</g>'))
        case(f"i-smask/{name}", exp, "small-text", "small-text", f"""
            The rules line ({size:g} pt, black) sits in a group under an SVG luminance `<mask>` (a
            white-to-grey gradient: the text fades to the right). For `--for pdf-cards --colour
            cmyk` (PDF/X-1a) the mask is transparency, so the card is drawn as a picture.
            {'4.5 pt is under the 6 pt floor, and fading makes it worse; in the file it is pixels. Must FAIL small-text, measured before flattening' if exp == 'FAIL' else '9 pt is readable, and even its most faded letters render about #606060 on white, 6.6:1 (measured on deckpress’ 300 dpi preview); must pass'}.""",
             ['"$B" preflight game --for pdf-cards --colour cmyk --out "$OUT"'], figure="4.5 pt" if exp == "FAIL" else "")

    # i3: RGB pdf-cards file edited after the build: the 9 pt rules text drawn at half size
    # inside a soft-masked graphics state (RGB files may hold transparency)
    for name, scale, exp in (("i3-file-smask-text-4.5pt-pdfcards-bad", 0.5, "FAIL"),
                             ("i3-file-smask-text-9pt-pdfcards-good", 1.0, "PASS")):
        d = f"{R}/i-smask/{name}"
        game(d + "/game", "smasktext", face(TITLE + "\n" + RULES.format(y=600, s=pt(9), c="#000000")))
        pdf = pikepdf.open(built_pdf(d + "/game", "pdf-cards"))
        W, H = [float(x) for x in pdf.pages[0].MediaBox[2:]]
        g = pikepdf.Stream(pdf, b"0.9 g 0 0 %d %d re f" % (int(W) + 1, int(H) + 1))
        g.Type, g.Subtype, g.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, W, H]
        g.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceGray)
        gs = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState,
                                SMask=pikepdf.Dictionary(Type=pikepdf.Name.Mask, S=pikepdf.Name.Luminosity, G=g))
        tf = str(pt(9)).encode()
        n = 0
        for i in fronts(pdf, "pdf-cards"):
            page = pdf.pages[i]
            page.Resources.ExtGState = pikepdf.Dictionary(GSm=gs)
            data = page.Contents.read_bytes()
            cm = b"%g 0 0 %g %g %g cm " % (scale, scale, W * (1 - scale) / 2, H * (1 - scale) / 2)
            new, k = re.subn(rb"q ((?:(?!q ).)*? " + re.escape(tf) + rb" Tf.*?ET\s*Q)",
                             lambda m: b"q /GSm gs " + cm + b"q " + m.group(1) + b" Q", data, flags=re.S)
            n += k
            page.Contents = pikepdf.Stream(pdf, new)
        assert n, "rules text not found"
        pdf.save(f"{d}/smasktext-cards-pdf-cards.pdf", deterministic_id=True)
        case(f"i-smask/{name}", exp, "small-text", "small-text", f"""
            `smasktext-cards-pdf-cards.pdf` is deckpress' RGB pdf-cards file edited after the
            build (gen.py, pikepdf): the rules line, 9 pt in the catalogue, is drawn under a
            graphics state with a luminosity soft mask (90 % grey: 90 % opaque) {'and scaled by 0.5 about the page centre: 4.5 pt in the file. RGB print-shop files may keep transparency, so the text is still text, under an SMask; a printer rejects 4.5 pt. The reader must see text under a soft mask: FAIL small-text' if scale != 1 else 'at its own size, 9 pt: text under a soft mask that is large enough must pass'}.""",
             ['"$B" preflight game --for pdf-cards --file smasktext-cards-pdf-cards.pdf --out "$OUT"'],
             figure="4.5 pt" if exp == "FAIL" else "")


# =========================================================================== (j) contrast

def class_j():
    # j1: grey text on white
    for name, colour, ratio, exp in (("j1-grey-text-2.5to1-validate-bad", "#a3a3a3", "2.5", "FAIL"),
                                     ("j1-grey-text-7to1-validate-good", "#595959", "7.0", "PASS")):
        d = f"{R}/j-contrast/{name}"
        game(d + "/game", "greytext", face(TITLE + "\n" + RULES.format(y=700, s=pt(10), c=colour)))
        case(f"j-contrast/{name}", exp, "contrast", "contrast", f"""
            10 pt rules text in {colour} on a white card: {ratio}:1 (WCAG). {'Under the 4.5:1 that text under 14 pt needs: players with low vision, or anyone under a dim lamp, cannot read it. `validate --strict` must fail' if exp == 'FAIL' else 'Well above 4.5:1: must pass'}.""",
             ['"$B" validate game --strict'], figure=f"{ratio}:1" if exp == "FAIL" else "")

    # j2: white text over a grey picture band (contrast must be read from the pixels)
    for name, grey, ratio, exp in (("j2-white-on-picture-2.5to1-dtc-bad", 163, "2.5", "FAIL"),
                                   ("j2-white-on-picture-7to1-dtc-good", 89, "7.0", "PASS")):
        d = f"{R}/j-contrast/{name}"
        game(d + "/game", "onpicture", face(TITLE + '\n<image href="art/band.png" x="17" y="620" width="600" height="200"/>\n'
                                         + RULES.format(y=735, s=pt(10), c="#ffffff")),
             art={"art/band.png": lib.flat(720, 240, (grey, grey, grey), noise=2)})
        case(f"j-contrast/{name}", exp, "contrast", "contrast", f"""
            10 pt white rules text over a photo-like grey band (a 720 × 240 px PNG, {grey}/255
            with slight noise, 305 ppi): {ratio}:1, readable only from the picture's pixels, not
            from any colour in the template. DriveThruCards file checked with `preflight --strict`.
            {'Under 4.5:1: must FAIL contrast' if exp == 'FAIL' else 'Above 4.5:1: must pass'}.""",
             ['"$B" preflight game --for drivethrucards --strict --out "$OUT"'], figure=r"2\.[56]:1" if exp == "FAIL" else "")

    # j3: black text under a translucent white veil
    for name, op, ratio, exp in (("j3-black-text-under-veil-2.5to1-build-bad", 0.64, "2.5", "FAIL"),
                                 ("j3-black-text-under-veil-7to1-build-good", 0.35, "7.0", "PASS")):
        d = f"{R}/j-contrast/{name}"
        game(d + "/game", "veil", face(TITLE + "\n" + RULES.format(y=700, s=pt(10), c="#000000") +
                                      f'\n<rect id="veil" x="40" y="640" width="555" height="100" fill="#ffffff" opacity="{op}"/>'))
        case(f"j-contrast/{name}", exp, "contrast", "contrast", f"""
            10 pt black rules text with a white rectangle at opacity {op} laid over it (a "frosted"
            effect): the text shows as a grey of about {round(255*op)}/255, {ratio}:1 on white.
            Every colour in the template is black or white, so only the text as drawn tells.
            Home sheets, `build --strict`. {'Under 4.5:1: must fail' if exp == 'FAIL' else 'Above 4.5:1: must pass'}.""",
             ['"$B" build game --strict --out "$OUT"'], figure=f"{ratio}:1" if exp == "FAIL" else "")

    # j4: large (18 pt) text: 3:1 is enough, 2.5:1 is not
    for name, colour, ratio, exp in (("j4-large-18pt-2.5to1-validate-bad", "#a3a3a3", "2.5", "FAIL"),
                                     ("j4-large-18pt-3.5to1-validate-good", "#8a8a8a", "3.5", "PASS")):
        d = f"{R}/j-contrast/{name}"
        game(d + "/game", "largetext", face(
            f'<text x="317" y="170" font-size="{pt(18)}" text-anchor="middle" fill="{colour}">{{{{ card.title }}}}</text>'))
        case(f"j-contrast/{name}", exp, "contrast", "contrast", f"""
            The card's title, 18 pt, in {colour} on white: {ratio}:1. Large text (14 pt and more)
            needs 3:1 (WCAG 1.4.3). {'2.5:1 is under it: must fail' if exp == 'FAIL' else '3.5:1 meets it, though it would fail the 4.5:1 of small text: must pass (a check that ignored size would FAIL it falsely)'}.""",
             ['"$B" validate game --strict'], figure=f"{ratio}:1" if exp == "FAIL" else "")


# =========================================================================== more angles

def class_k():
    """extra cases, each filed under its class"""
    # a5: 9 pt text in a pattern cell shrunk by patternTransform to 4.5 pt
    for name, scale, exp in (("a5-pattern-text-9pt-scaled-0.5-dtc-bad", 0.5, "FAIL"),
                             ("a5-pattern-text-9pt-scaled-1-dtc-good", 1, "PASS")):
        d = f"{R}/a-pattern/{name}"
        game(d + "/game", "pattern-text-scaled", face(
            f'<defs><pattern id="foe" patternUnits="userSpaceOnUse" width="200" height="100" patternTransform="scale({scale})">'
            f'<text x="100" y="60" font-size="{pt(9)}" text-anchor="middle" fill="#222222">Foe</text></pattern></defs>\n'
            '<rect x="117" y="300" width="400" height="300" fill="url(#foe)"/>\n' + TITLE))
        case(f"a-pattern/{name}", exp, "small-text", "small-text|prints at", f"""
            As a3, the panel is tiled with the word "Foe" written at 9 pt inside the pattern's
            cell, but the `<pattern>` has `patternTransform="scale({scale})"`: every tile, and its
            text, prints at {9*scale:g} pt. {'A printer measures what prints, 4.5 pt: under 6 pt, FAIL small-text' if exp == 'FAIL' else 'Unscaled, 9 pt: must pass'}.""",
             ['"$B" preflight game --for drivethrucards --out "$OUT"'], figure="4.5 pt" if exp == "FAIL" else "")

    # a6: 12 pt text in a pattern cell scaled by 0.75: 9 pt, well inside the card
    for name, scale, exp in (("a6-pattern-text-12pt-scaled-0.75-dtc-good", 0.75, "PASS"),):
        d = f"{R}/a-pattern/{name}"
        game(d + "/game", "pattern-text-scaled2", face(
            f'<defs><pattern id="foe" patternUnits="userSpaceOnUse" width="200" height="100" patternTransform="scale({scale})">'
            f'<text x="100" y="60" font-size="{pt(12)}" text-anchor="middle" fill="#222222">Foe</text></pattern></defs>\n'
            '<rect x="117" y="300" width="400" height="300" fill="url(#foe)"/>\n' + TITLE))
        case(f"a-pattern/{name}", exp, "small-text, safe-zone", "small-text|safe-zone", f"""
            The twin of a5 that isolates a second question: the pattern's cell holds "Foe" at 12 pt
            and `patternTransform="scale(0.75)"` prints it at 9 pt, tiled only inside the middle
            panel (11.7–51.7 mm across, 30–60 mm down: at least 11 mm from every cut; a render of
            the file at 150 dpi shows no ink of it outside the panel). Nothing is small and
            nothing is near the cut: must pass (a safe-zone FAIL would come from tiles counted
            outside the shape the pattern paints).""",
             ['"$B" preflight game --for drivethrucards --out "$OUT"'])

    # b4: a flattened card (30 % watermark) holding a 76 ppi picture: in the file the
    # picture is part of a 600 dpi image
    for name, px, exp in (("b4-watermark-photo-76ppi-dtc-bad", 60, "FAIL"),
                          ("b4-watermark-photo-330ppi-dtc-good", 260, "PASS")):
        d = f"{R}/b-flattened/{name}"
        game(d + "/game", "flatphoto", face(
            TITLE + '\n<image href="art/portrait.png" x="217" y="300" width="200" height="200"/>'
            '\n<g id="decor-draft" opacity="0.3"><text x="317" y="700" font-size="90" font-weight="bold" text-anchor="middle" fill="#c00000">DRAFT</text></g>'),
            art={"art/portrait.png": lib.texture(px, seed=21, base=(170, 130, 110), amp=40)})
        dpi = px / (20 / 25.4)
        case(f"b-flattened/{name}", exp, "image-dpi", r"image-dpi|image .* dpi", f"""
            A card with a {px} × {px} px portrait placed 20 × 20 mm ({dpi:.0f} ppi) and a 30 %
            opaque "DRAFT" watermark, for DriveThruCards: the watermark makes the whole card one
            600 dpi picture, so in the file the portrait is part of a 600 dpi image. {'A printer sees a blocky portrait on the proof: 76 ppi upsampled is still 76 ppi of detail. deckpress must measure it before flattening and FAIL image-dpi' if exp == 'FAIL' else '330 ppi is fine: must pass'}.""",
             ['"$B" preflight game --for drivethrucards --out "$OUT"'], figure=f"{dpi:.0f} dpi" if exp == "FAIL" else "")

    # g4: 6.5 pt navy text in a flattened card: CMYK pixels in three inks
    for name, colour, exp in (("g4-flattened-navy-6.5pt-dtc-bad", "#1f2a5c", "FAIL"),
                              ("g4-flattened-black-6.5pt-dtc-good", "#000000", "PASS")):
        d = f"{R}/g-fine-inks/{name}"
        game(d + "/game", "flatnavy", face(
            TITLE + "\n" + RULES.format(y=600, s=pt(6.5), c=colour) +
            '\n<g id="decor-draft" opacity="0.3"><text x="317" y="420" font-size="90" font-weight="bold" text-anchor="middle" fill="#c00000">DRAFT</text></g>'))
        case(f"g-fine-inks/{name}", exp, "fine-text-inks", "fine-text-inks|inks", f"""
            6.5 pt rules text in {colour} on a card that a 30 % "DRAFT" watermark flattens to a
            600 dpi CMYK picture (DriveThruCards, `preflight --strict`). {'The navy letters become pixels of C, M and K: they misregister on the press exactly as text would. Must FAIL fine-text-inks, measured before flattening' if exp == 'FAIL' else 'Black letters: deckpress keeps black text in K alone, so the pixels should be too; the flattening alone is no reason to fail. Must pass'}.""",
             ['"$B" preflight game --for drivethrucards --strict --out "$OUT"'], figure="6.5 pt" if exp == "FAIL" else "")

    # e4: stickers whose two kinds differ by colour alone
    for name, glyph, exp in (("e4-stickers-colour-only-bad", False, "FAIL"),
                             ("e4-stickers-glyph-6mm-good", True, "PASS")):
        d = f"{R}/e-labels/{name}"
        st = LABEL_SVG + ('<rect x="-2" y="-2" width="{{ deck.width + 4 }}" height="{{ deck.height + 4 }}" fill="#f4f4f4"/>\n'
                          '<circle cx="20" cy="19" r="12" fill="{% if card.suit == "Rose" %}#c94a3b{% else %}#5e9a3a{% endif %}"/>\n'
                          + ('<text x="20" y="22.5" font-size="9" text-anchor="middle" fill="#ffffff">' + GLYPH + '</text>\n' if glyph else '')
                          + '<text x="45" y="22" font-size="5" fill="#000000">Pawn</text>\n</svg>\n')
        game(d + "/game", "suitstickers", face(TITLE), fields=SUITS,
             cards="id,suit,title\nrose-c,Rose,Dawn\nleaf-c,Leaf,Dawn\n", templates={"templates/sticker.svg": st},
             csvs={"stickers.csv": "id,qty,suit,title\nrose-s,4,Rose,Pawn\nleaf-s,4,Leaf,Pawn\n"},
             extra=labels_toml("avery-l7160"))
        case(f"e-labels/{name}", exp, "colour-alone", "colour alone|by colour", f"""
            Pawn stickers (Avery L7160) for two teams, Rose and Leaf: a red or green disc and the
            word "Pawn". {'Nothing but the disc’s colour tells the teams apart: for a deuteranope the stickers are the same. `validate --strict` must fail colour-alone (the deck’s cards are identical in colour, so only the sticker sheet can trip it)' if exp == 'FAIL' else 'Each disc carries its team’s glyph (♥ / ♣, ≈ 6 mm): must pass'}.""",
             ['"$B" validate game --strict'])

def class_l():
    """cases on files edited after the build: does preflight --file read the file?"""
    import pikepdf

    def edit_text_colour(d, gid, op, service="drivethrucards"):
        pdf = pikepdf.open(built_pdf(d + "/game", service))
        n = 0
        for i in fronts(pdf, service):
            page = pdf.pages[i]
            new, k = re.subn(rb"[0-9. ]+ k(\s*BT)", op + rb"\1", page.Contents.read_bytes())
            n += k
            page.Contents = pikepdf.Stream(pdf, new)
        assert n
        pdf.save(f"{d}/{gid}-cards-{service}.pdf", deterministic_id=True)

    # g5: the catalogue's 6.5 pt text is navy (three inks), but the file sent is edited to
    # black ink alone; and its twin, the file as built
    for name, op, exp in (("g5-file-navy-catalogue-text-made-K100-good", b" 0 0 0 1 k", "PASS"),
                          ("g5-file-navy-catalogue-as-built-bad", None, "FAIL")):
        d = f"{R}/g-fine-inks/{name}"
        game(d + "/game", "navyfile", face(TITLE.replace("#000000", "#1f2a5c") + "\n" + RULES.format(y=700, s=pt(6.5), c="#1f2a5c")))
        if op:
            edit_text_colour(d, "navyfile", op)
        else:
            import shutil
            shutil.copy(built_pdf(d + "/game", "drivethrucards"), f"{d}/navyfile-cards-drivethrucards.pdf")
        case(f"g-fine-inks/{name}", exp, "fine-text-inks", "fine-text-inks", f"""
            The catalogue prints its 6.5 pt rules line (and title) in navy #1f2a5c, which SWOP
            separates into three inks. {'The file checked, `navyfile-cards-drivethrucards.pdf`, was edited after the build (gen.py, pikepdf) to paint every text in black ink alone (`0 0 0 1 k`): that is the file the printer gets, and it has no multi-ink small text. Judged on the file, as `--file` promises, it must pass; a FAIL means the verdict comes from the catalogue, not the file' if exp == 'PASS' else 'The file checked is the file deckpress built, unedited: three inks on 6.5 pt text, must FAIL fine-text-inks (the twin of the edited good file)'}.""",
             ['"$B" preflight game --for drivethrucards --strict --file navyfile-cards-drivethrucards.pdf --out "$OUT"'],
             figure="6.5 pt" if exp == "FAIL" else "")

    # j5: the file edited so that the 10 pt rules text is a light grey (K30) on white
    for name, op, exp in (("j5-file-text-K45-2.5to1-dtc-bad", b" 0 0 0 0.45 k", "FAIL"),
                          ("j5-file-text-K85-dtc-good", b" 0 0 0 0.85 k", "PASS")):
        d = f"{R}/j-contrast/{name}"
        game(d + "/game", "greyfile", face(TITLE + "\n" + RULES.format(y=700, s=pt(10), c="#000000")))
        edit_text_colour(d, "greyfile", op)
        case(f"j-contrast/{name}", exp, "contrast", "contrast", f"""
            `greyfile-cards-drivethrucards.pdf` is deckpress' DriveThruCards file edited after
            the build (gen.py, pikepdf): every front's text, the 10 pt rules line among it, is
            painted `{op.decode().strip()}` instead of black. {'K45 on white renders as about #9ea1a6 (Ghostscript through the file’s SWOP output intent): 2.6:1, under the 4.5:1 small text needs. deckpress says contrast is judged "on the pieces as the files draw them": --strict must FAIL contrast on this file' if exp == 'FAIL' else 'K85 renders as about #46484a, 9.5:1: must pass'}.""",
             ['"$B" preflight game --for drivethrucards --strict --file greyfile-cards-drivethrucards.pdf --out "$OUT"'])

    # i4: the soft mask inside a form XObject's own resources (not the page's)
    for name, live, exp in (("i4-file-smask-inside-form-dtc-bad", True, "FAIL"),
                            ("i4-file-smask-none-inside-form-dtc-good", False, "PASS")):
        d = f"{R}/i-smask/{name}"
        game(d + "/game", "formmask", face(TITLE + "\n" + RULES.format(y=700, s=pt(9), c="#000000")))
        pdf = pikepdf.open(built_pdf(d + "/game", "drivethrucards"))
        if live:
            g = pikepdf.Stream(pdf, b"0.85 g 0 0 198 270 re f")
            g.Type, g.Subtype, g.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 198, 270]
            g.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency, CS=pikepdf.Name.DeviceGray)
            gs = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState,
                                    SMask=pikepdf.Dictionary(Type=pikepdf.Name.Mask, S=pikepdf.Name.Luminosity, G=g))
        else:
            gs = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, SMask=pikepdf.Name("/None"))
        for i in fronts(pdf, "drivethrucards"):
            page = pdf.pages[i]
            form = pikepdf.Stream(pdf, b"q /GSm gs\n" + page.Contents.read_bytes() + b"\nQ")
            form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 198, 270]
            res = pikepdf.Dictionary(page.Resources)
            res.ExtGState = pikepdf.Dictionary(GSm=gs)
            form.Resources = res
            page.Resources.XObject = pikepdf.Dictionary(Card=form)
            page.Contents = pikepdf.Stream(pdf, b"q /Card Do Q")
        pdf.save(f"{d}/formmask-cards-drivethrucards.pdf", deterministic_id=True)
        case(f"i-smask/{name}", exp, "transparency", "transparency", f"""
            Like i1, but the edit (gen.py, pikepdf) moves each front's drawing into a form XObject
            ("/Card Do"), and the graphics state with {'the luminosity soft mask' if live else '/SMask /None'} lives in the
            form's own /Resources, not the page's, as layout programs write placed art.
            {'PDF/X-1a forbids it wherever it is: must FAIL transparency' if live else '/None is no mask: must pass'}.""",
             ['"$B" preflight game --for drivethrucards --file formmask-cards-drivethrucards.pdf --out "$OUT"'])

    # i5: an image with its own /SMask (a PNG's alpha) in the PDF/X-1a file
    for name, live, exp in (("i5-file-image-with-smask-dtc-bad", True, "FAIL"),
                            ("i5-file-image-without-smask-dtc-good", False, "PASS")):
        d = f"{R}/i-smask/{name}"
        game(d + "/game", "imgmask", face(TITLE + '\n<image href="art/badge.png" x="167" y="300" width="300" height="300"/>'),
             art={"art/badge.png": lib.texture(400, seed=31, base=(90, 140, 200), amp=10)})
        pdf = pikepdf.open(built_pdf(d + "/game", "drivethrucards"))
        n = 0
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image" and live:
                w, h = int(obj.Width), int(obj.Height)
                alpha = bytes((255 if (x - w / 2) ** 2 + (y - h / 2) ** 2 < (w / 2) ** 2 else 0) for y in range(h) for x in range(w))
                sm = pikepdf.Stream(pdf, zlib.compress(alpha))
                sm.Type, sm.Subtype, sm.Width, sm.Height = pikepdf.Name.XObject, pikepdf.Name.Image, w, h
                sm.ColorSpace, sm.BitsPerComponent, sm.Filter = pikepdf.Name.DeviceGray, 8, pikepdf.Name.FlateDecode
                obj.SMask = sm
                n += 1
        assert n or not live
        pdf.save(f"{d}/imgmask-cards-drivethrucards.pdf", deterministic_id=True)
        case(f"i-smask/{name}", exp, "transparency", "transparency", f"""
            {'deckpress’ DriveThruCards file edited after the build (gen.py, pikepdf): the blue badge image gets an /SMask of its own (a round alpha channel, as a placed PNG with transparency carries). An image soft mask is live transparency that PDF/X-1a:2003 forbids: must FAIL transparency' if live else 'The same file as built, with the badge image opaque (no /SMask): must pass (the twin of the edited file)'}.""",
             ['"$B" preflight game --for drivethrucards --file imgmask-cards-drivethrucards.pdf --out "$OUT"'])


if __name__ == "__main__":
    os.makedirs("/tmp/indep49-gen", exist_ok=True)
    only = os.environ.get("ONLY", "abcdefghijkl")
    for c in only:
        globals()[f"class_{c}"]()
    if only == "abcdefghijkl":
        with open(f"{R}/cases.tsv", "w") as f:
            f.write("# case\texpected\tcheck\tpattern (grep -E, the relevant line)\tfigure (must be on that line)\n")
            for row in sorted(lib.CASES):
                f.write("\t".join(row) + "\n")
    print(f"{len(lib.CASES)} cases written")
