"""Helpers for gen.py: write small deckpress catalogues, pictures and case folders.

Nothing here is copied from deckpress's tests/known-bad/: every catalogue is written
from scratch for issue 49's classes.
"""
import os
import random
import shutil
import stat
import subprocess
import textwrap

ROOT = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BIN = "/work/bin/deckpress-e8ce935"
CASES = []  # (path, expected, check, pattern, figure)

PT = 3.5278  # one point in tenths of a millimetre (the templates' unit)


def pt(p):
    """font-size / stroke in tenths of a mm for p points"""
    return round(p * PT, 2)


POKER = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
         'width="63.5mm" height="88.9mm" viewBox="0 0 635 889" font-family="Noto Sans">')
BG = '<rect x="-50" y="-50" width="735" height="989" fill="{}"/>'
BACK = POKER + '\n' + BG.format("#203040") + '\n<rect x="60" y="60" width="515" height="769" rx="20" fill="none" stroke="#8090a0" stroke-width="12"/>\n</svg>\n'


def write(path, text, mode=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    with open(path, "wb") as f:
        f.write(data)
    if mode:
        os.chmod(path, mode)


def game(path, gid, face, back=BACK, cards=None, fields=None, extra="", card='size = "poker"',
         deck_extra="", art=None, templates=None, csvs=None, deck=True):
    """A catalogue folder at path/ with one deck `cards` (unless deck=False)."""
    if os.path.exists(path):
        shutil.rmtree(path)
    fields = fields if fields is not None else (
        '[fields.suit]\nvalues = ["Sun", "Moon"]\n[fields.title]\nkind = "text"\n')
    toml = f'[game]\nid = "{gid}"\nname = "{gid}"\ndescription = "issue 49 case {gid}"\n\n[card]\n{card}\n\n{fields}\n'
    if deck:
        toml += ('[[deck]]\nid = "cards"\nname = "Cards"\nrows = "cards.csv"\n'
                 'face = "templates/face.svg"\nback = "templates/back.svg"\n' + deck_extra + '\n')
        write(f"{path}/templates/face.svg", face)
        write(f"{path}/templates/back.svg", back)
        write(f"{path}/cards.csv", cards or "id,suit,title\nsun,Sun,Dawn\nmoon,Moon,Dusk\n")
    toml += extra
    write(f"{path}/game.toml", toml)
    for name, img in (art or {}).items():
        os.makedirs(os.path.dirname(f"{path}/{name}"), exist_ok=True)
        if isinstance(img, bytes):
            write(f"{path}/{name}", img)
        else:
            img.save(f"{path}/{name}", optimize=True)
    for name, text in (templates or {}).items():
        write(f"{path}/{name}", text)
    for name, text in (csvs or {}).items():
        write(f"{path}/{name}", text)


def texture(n, seed=1, base=(214, 196, 160), amp=30):
    """an n × n paper-like texture (PIL image), deterministic"""
    from PIL import Image
    r = random.Random(seed)
    im = Image.new("RGB", (n, n))
    px = im.load()
    for y in range(n):
        for x in range(n):
            d = r.randint(-amp, amp)
            px[x, y] = tuple(max(0, min(255, c + d)) for c in base)
    return im


def flat(w, h, rgb, noise=3, seed=2):
    from PIL import Image
    r = random.Random(seed)
    im = Image.new("RGB", (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            d = r.randint(-noise, noise) if noise else 0
            px[x, y] = tuple(max(0, min(255, c + d)) for c in rgb)
    return im


def case(rel, expected, check, pattern, readme, commands, figure="", files=None):
    """Write README.md and run.sh of a case folder; register it for run-all.sh.

    commands: shell lines; `$B` is the binary, `$OUT` a scratch output folder.
    The exit code of run.sh is the last command's.
    """
    d = os.path.join(ROOT, rel)
    os.makedirs(d, exist_ok=True)
    write(f"{d}/README.md", f"# {rel}\n\nExpected: **{expected}** ({check}).\n\n" +
          textwrap.fill(" ".join(readme.split()), 92, break_on_hyphens=False, break_long_words=False) + "\n")
    body = "\n".join(commands)
    write(f"{d}/run.sh", f"""#!/bin/sh
# {rel}: expected {expected} ({check}). Usage: sh run.sh [path/to/deckpress]
B="${{1:-${{DECKPRESS:-{DEFAULT_BIN}}}}}"
cd "$(dirname "$0")" || exit 2
OUT="${{TMPDIR:-/tmp}}/indep49-out/{rel.replace('/', '-')}"
rm -rf "$OUT"; mkdir -p "$OUT"
{body}
""", 0o755)
    CASES.append((rel, expected, check, pattern, figure))


def deckpress(*args, cwd=None, binary=DEFAULT_BIN):
    r = subprocess.run([binary, *args], cwd=cwd, capture_output=True, text=True)
    return r
