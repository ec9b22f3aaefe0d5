#!/usr/bin/env python3
"""Benchmark: a deck whose cards draw image files (TravFuda's 62 cards with photos).

Usage: cargo build --release && python3 bench/art/run.py [runs] [--keep DIR]

The requirement: "the 62 TravFuda cards each drawing one of 5 distinct 1.5 MB
photographic PNGs and one of 5 JPEGs: build <= 1 s and <= 200 MB on a 2-core machine,
PDF <= 1.2 x the total size of the distinct source images."

Makes the catalogue with make_catalogue.py in a temporary folder, runs
`deckpress build DIR --only cards --out OUT` `runs` times (default 5) on the release binary
and prints the median wall time, the highest peak RSS of a run (os.wait4: each run's own
rusage), the PDF's size against the distinct source images, the image XObjects in the
PDF (pdfimages -list, when installed), whether each target is met, and a row for the
README's Speed table. --keep DIR also copies the catalogue and the PDF to DIR.
KB and MB are 2^10 and 2^20 bytes, as in bench/bench.py (the PNGs' 1.4–1.6 MB range in
make_catalogue.py is in 10^6 bytes). Exits 1 when a target is missed, 2 on bad arguments.
"""
import csv, os, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.join(ROOT, "target", "release", "deckpress")
MAKE = os.path.join(HERE, "make_catalogue.py")
DECK = "cards"
FILE_FIELDS = ["photo", "emblem"]
MAX_SECONDS, MAX_MB, MAX_RATIO = 1.0, 200.0, 1.2
MB = 1024 * 1024


def usage(problem):
    print(f"{problem}\nusage: python3 bench/art/run.py [runs] [--keep DIR]", file=sys.stderr)
    sys.exit(2)


def parse(argv):
    runs, keep, args = None, None, list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        elif a == "--keep":
            if not args:
                usage("--keep needs a folder")
            keep = args.pop(0)
        elif a.startswith("--keep="):
            keep = a.split("=", 1)[1]
        elif a.isdigit() and int(a) > 0 and runs is None:
            runs = int(a)
        else:
            usage(f"unexpected argument `{a}`: runs is one whole number above 0")
    return runs or 5, keep


def make_catalogue(folder):
    # A subprocess, not an import: make_catalogue.py finds an interpreter with Pillow itself.
    done = subprocess.run([sys.executable, MAKE, folder], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"make_catalogue.py failed:\n{done.stdout}{done.stderr}")
    print("\n".join(line for line in done.stdout.splitlines() if line.startswith("TravFuda from")), flush=True)
    # The distinct images the cards use, from the rows file, with their sizes.
    with open(os.path.join(folder, "cards.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    cards = sum(int(r.get("qty") or 1) for r in rows)
    used = sorted({r[field] for r in rows for field in FILE_FIELDS})
    sources = {path: os.path.getsize(os.path.join(folder, path)) for path in used}
    dims = sorted(image_size(os.path.join(folder, path)) for path in used)
    return cards, sources, dims


def image_size(path):
    """(width, height) from a PNG's IHDR or a JPEG's SOF marker."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    i = 2
    while data[:2] == b"\xff\xd8" and i + 9 < len(data):
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + length
    sys.exit(f"{path}: not a PNG or JPEG with a size")


def build_once(catalogue, out, log):
    """One whole `deckpress build`: (wall seconds, peak RSS in KiB of this process alone)."""
    with open(log, "wb") as err:  # a file, not a pipe: a chatty failure cannot block the child
        start = time.perf_counter()
        proc = subprocess.Popen([BIN, "build", catalogue, "--only", DECK, "--out", out], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4; keep Popen from waiting again
    if proc.returncode != 0:
        with open(log, encoding="utf-8", errors="replace") as f:
            sys.exit(f"deckpress build failed (exit {proc.returncode}):\n{f.read()}")
    return wall, usage.ru_maxrss  # ru_maxrss is in KiB on Linux


def pdf_images(pdf):
    """The image XObjects of the PDF per pdfimages -list: {(object, generation): (w, h, enc, size)}
    for images and soft masks, and how many times images are drawn; None without pdfimages."""
    if not shutil.which("pdfimages"):
        return None
    done = subprocess.run(["pdfimages", "-list", pdf], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"pdfimages -list failed: {done.stderr.strip()}")
        return None
    images, masks, uses = {}, {}, 0
    # page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    for line in done.stdout.splitlines()[2:]:
        cols = line.split()
        if len(cols) < 16:
            continue
        kind, obj = cols[2], (int(cols[10]), int(cols[11]))
        entry = (int(cols[3]), int(cols[4]), cols[8], cols[14])
        if kind == "image":
            uses += 1
            images[obj] = entry
        else:  # smask, mask, stencil
            masks[obj] = entry
    return images, masks, uses


def main():
    runs, keep = parse(sys.argv[1:])
    if not os.access(BIN, os.X_OK):
        sys.exit(f"no release binary at {BIN}: build it first with `cargo build --release`")
    with tempfile.TemporaryDirectory(prefix="deckpress-art-") as tmp:
        catalogue, out = os.path.join(tmp, "travfuda-art"), os.path.join(tmp, "out")
        print("making the catalogue (10 images from fixed seeds)…", flush=True)
        cards, sources, source_dims = make_catalogue(catalogue)
        source_bytes = sum(sources.values())
        pngs = sum(1 for p in sources if p.endswith(".png"))
        jpegs = sum(1 for p in sources if p.endswith((".jpg", ".jpeg")))

        times, peaks = [], []
        for i in range(runs):
            wall, peak = build_once(catalogue, out, os.path.join(tmp, "stderr.txt"))
            times.append(wall)
            peaks.append(peak)
            print(f"  run {i + 1}/{runs}: {wall * 1000:8.1f} ms {peak / 1024:7.1f} MB", flush=True)
        pdfs = sorted(os.path.join(d, f) for d, _, files in os.walk(out) for f in files if f.endswith(".pdf"))
        if not pdfs:
            sys.exit(f"deckpress build wrote no PDF under {out}")
        pdf_bytes = sum(os.path.getsize(p) for p in pdfs)
        listing = pdf_images(pdfs[0]) if len(pdfs) == 1 else None

        median_s, worst_mb = statistics.median(times), max(peaks) / 1024
        ratio = pdf_bytes / source_bytes
        print()
        print(f"catalogue : {cards} cards, {len(sources)} distinct images ({pngs} PNG, {jpegs} JPEG), {source_bytes / MB:.2f} MB of sources")
        for path, size in sources.items():
            print(f"            {path:<20} {size:>11,} bytes")
        print(f"wall time : median {median_s * 1000:.1f} ms of {runs} runs (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")
        print(f"peak RSS  : {worst_mb:.1f} MB (worst run)")
        for p in pdfs:
            print(f"PDF       : {os.path.relpath(p, out)} {os.path.getsize(p) / MB:.2f} MB")
        print(f"ratio     : PDF / sources = {ratio:.3f}")
        if len(pdfs) != 1:
            print(f"pdfimages : skipped: expected one PDF, found {len(pdfs)}")
        elif listing is None:
            print("pdfimages : not run (install poppler-utils for the image count)")
        else:
            images, masks, uses = listing
            if sorted((w, h) for w, h, _, _ in images.values()) == source_dims:
                verdict = "as expected: each source once, at its own size"
            else:
                verdict = (f"WARNING: expected {len(sources)}, each source once at its own size "
                           f"({', '.join(f'{w}×{h}' for w, h in source_dims)}); the size ratio may not mean what it should")
            print(f"pdfimages : {len(images)} distinct image XObjects, drawn {uses} times; {len(masks)} masks — {verdict}")
            for (num, gen), (w, h, enc, size) in sorted(images.items()):
                print(f"            object {num:>4} {gen}  {w:>5}×{h:<5} {enc:<6} {size:>8}")
            for (num, gen), (w, h, enc, size) in sorted(masks.items()):
                print(f"            mask   {num:>4} {gen}  {w:>5}×{h:<5} {enc:<6} {size:>8}")

        targets = [
            (f"build <= {MAX_SECONDS:g} s", median_s <= MAX_SECONDS, f"{median_s:.3f} s"),
            (f"peak RSS <= {MAX_MB:g} MB", worst_mb <= MAX_MB, f"{worst_mb:.1f} MB"),
            (f"PDF <= {MAX_RATIO:g} x sources", ratio <= MAX_RATIO, f"{ratio:.3f} x"),
        ]
        print()
        for name, ok, value in targets:
            print(f"{'met   ' if ok else 'MISSED'} {name:<24} {value}")
        print()
        print("README row:")
        print(f"| `deckpress build travfuda-art --only cards` ({cards} cards drawing {pngs} PNG + {jpegs} JPEG photos, "
              f"{source_bytes / MB:.1f} MB of images; `bench/art/run.py`) | {median_s * 1000:.1f} ms | {worst_mb:.1f} MB | "
              f"{pdf_bytes / MB:.1f} MB ({ratio:.2f}× the images) |")

        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copytree(catalogue, os.path.join(keep, "travfuda-art"), dirs_exist_ok=True)
            for p in pdfs:
                shutil.copy2(p, keep)
            print(f"\nkept the catalogue and the PDF in {keep}")
    sys.exit(0 if all(ok for _, ok, _ in targets) else 1)


if __name__ == "__main__":
    main()
