#!/usr/bin/env python3
"""Benchmark: huge synthetic catalogues (1k, 10k, 100k cards) through `build` and `preview`.

Usage: cargo build --release && python3 bench/big/run.py
           [--sizes 1000,10000,100000] [--skip-preview-above N] [--timeout S] [--bin PATH]

The requirement (issue "Hostile and huge catalogues"): "bench/ measures 1k, 10k and 100k
synthetic cards (build and preview: wall and peak memory) ... with cost linear in cards
and memory flat"; targets: 100,000 cards build in <= 30 s at <= 400 MB, preview of 10,000
cards <= 400 MB, parallel on every core.

For each size N it makes a catalogue with `deckpress new` in a temporary folder, rewrites
its cards.csv to N distinct rows (qty 1, suits alternating Sun/Moon, values cycling 1..9,
distinct titles such as "Dusk 12345"), its rules to ones that hold for N cards (the deck
has N cards, each suit N/2, every title once) and its backgrounds to reach past the 3 mm
bleed (the starter's warn once per template), then runs
`deckpress build DIR --out OUT` and `deckpress preview DIR --out OUT -q` once each and
measures wall time, peak RSS (os.wait4: the child's own rusage), CPU time / wall (cores
used) and the size of what was written. A run over --timeout seconds (default 600) is
killed and reported as TIMEOUT. Preview is skipped above --skip-preview-above cards
(default 10000: a 100k preview writes 100k PNGs). Sizes over 100000 pass
`--limit cards=...` to build (preview has no --limit and will fail there).
Prints a markdown table and a verdict on linearity and flatness; exits 1 when a run
failed or timed out or a target is missed, 2 on bad arguments.
KB and MB are 2^10 and 2^20 bytes, as in bench/bench.py.
"""
import os, re, shutil, signal, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_BIN = os.path.join(ROOT, "target", "release", "deckpress")
DEFAULT_LIMIT = 100000  # deckpress's default `cards` limit
BUILD_MAX_S, BUILD_MAX_MB, BUILD_AT = 30.0, 400.0, 100000
PREVIEW_MAX_MB, PREVIEW_AT = 400.0, 10000
MB = 1024 * 1024
WORDS = ["Dawn", "Noon", "Dusk", "Tide", "Ember", "Frost", "Gale", "Harbour", "Lantern", "Quill", "Wren"]


def usage(problem):
    print(f"{problem}\nusage: python3 bench/big/run.py [--sizes 1000,10000,100000] "
          f"[--skip-preview-above N] [--timeout S] [--bin PATH]", file=sys.stderr)
    sys.exit(2)


def parse(argv):
    opts = {"sizes": [1000, 10000, 100000], "skip": 10000, "timeout": 600.0, "bin": DEFAULT_BIN}
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            print(__doc__)
            sys.exit(0)
        name, _, value = a.partition("=")
        if name not in ("--sizes", "--skip-preview-above", "--timeout", "--bin"):
            usage(f"unexpected argument `{a}`")
        if not value:
            if not args:
                usage(f"{name} needs a value")
            value = args.pop(0)
        try:
            if name == "--sizes":
                opts["sizes"] = [int(s.replace("_", "")) for s in value.split(",") if s.strip()]
                if not opts["sizes"] or any(n < 8 for n in opts["sizes"]):
                    raise ValueError
            elif name == "--skip-preview-above":
                opts["skip"] = int(value)
            elif name == "--timeout":
                opts["timeout"] = float(value)
                if opts["timeout"] <= 0:
                    raise ValueError
            else:
                opts["bin"] = value
        except ValueError:
            usage(f"bad value for {name}: `{value}` (sizes are whole numbers of at least 8 cards)")
    return opts


def make_catalogue(binary, parent, n):
    """`deckpress new` a starter game in parent, then give it n distinct cards and rules
    that hold for them. Returns the catalogue folder."""
    name = f"big{n}"
    done = subprocess.run([binary, "new", name], cwd=parent, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"deckpress new failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    folder = os.path.join(parent, name)
    toml_path = os.path.join(folder, "game.toml")
    with open(toml_path, encoding="utf-8") as f:
        toml = f.read()
    # The starter's one rule ("each suit has four cards") is the last table: replace it.
    at = toml.find("[[rule]]")
    if at < 0 or "[[rule]]" in toml[at + 1:] or "each suit has four cards" not in toml[at:]:
        sys.exit(f"{toml_path}: not the starter game this script expects (one [[rule]], the last table)")
    half, odd = n // 2, n % 2
    rules = [f'[[rule]]\nname = "the deck has {n} cards"\ncount = {n}\n']
    if odd:  # Sun has one card more
        rules.append(f'[[rule]]\nname = "Sun has {half + 1} cards"\nwhere = {{ suit = "Sun" }}\ncount = {half + 1}\n')
        rules.append(f'[[rule]]\nname = "Moon has {half} cards"\nwhere = {{ suit = "Moon" }}\ncount = {half}\n')
    else:
        rules.append(f'[[rule]]\nname = "each suit has {half} cards"\neach = "suit"\ncount = {half}\n')
    rules.append('[[rule]]\nname = "every title once"\nunique = ["title"]\n')
    toml = toml[:at] + "\n".join(rules)
    toml = re.sub(r'(?m)^description = .*$', f'description = "{n} synthetic cards (bench/big/run.py)"', toml, count=1)
    with open(toml_path, "w", encoding="utf-8") as f:
        f.write(toml)
    with open(os.path.join(folder, "cards.csv"), "w", encoding="utf-8", newline="") as f:
        f.write("id,qty,suit,value,title\n")
        width = len(str(n))
        for i in range(n):
            suit = "Sun" if i % 2 == 0 else "Moon"
            f.write(f"card-{i + 1:0{width}d},1,{suit},{i % 9 + 1},{WORDS[i % len(WORDS)]} {i + 1}\n")
    # The starter's backgrounds stop at the cut, which warns once per template ("draws
    # nothing in the 3mm bleed"): draw them past it so that any warning is news.
    for t in ("face.svg", "back.svg"):
        path = os.path.join(folder, "templates", t)
        with open(path, encoding="utf-8") as f:
            svg = f.read()
        edge = '<rect x="0" y="0" width="630" height="880"'
        if edge in svg:
            svg = svg.replace(edge, '<rect x="-30" y="-30" width="690" height="940"', 1)
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        elif 'x="-50" y="-50"' not in svg:  # today's starter draws past the bleed already
            print(f"note: {t} has no full-card background rect to extend; expect a bleed warning", file=sys.stderr)
    return folder


def run_once(cmd, log, timeout):
    """One whole deckpress run, killed after timeout seconds. Returns a dict: wall (s),
    rss (KiB, this process alone), cpu (s, user + system), code (exit code or None on
    timeout)."""
    with open(log, "wb") as err:  # a file, not a pipe: a chatty run cannot block
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        state = {"killed": False, "reaped": False}
        lock = threading.Lock()

        def kill():
            with lock:  # never signal a pid that wait4 has already given back
                if not state["reaped"]:
                    state["killed"] = True
                    os.kill(proc.pid, signal.SIGKILL)

        timer = threading.Timer(timeout, kill)
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        with lock:
            state["reaped"] = True
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4; keep Popen from waiting again
    return {
        "wall": wall,
        "rss": usage.ru_maxrss,  # KiB on Linux
        "cpu": usage.ru_utime + usage.ru_stime,
        "code": None if state["killed"] else proc.returncode,
    }


def written(out):
    """(total bytes, {extension: count}, [pdf paths]) of everything under out."""
    total, kinds, pdfs = 0, {}, []
    for folder, _, files in os.walk(out):
        for f in files:
            p = os.path.join(folder, f)
            total += os.path.getsize(p)
            ext = os.path.splitext(f)[1].lower() or "(none)"
            kinds[ext] = kinds.get(ext, 0) + 1
            if ext == ".pdf":
                pdfs.append(p)
    return total, kinds, sorted(pdfs)


def pdf_pages(pdf):
    if not shutil.which("pdfinfo"):
        return None
    done = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
    m = re.search(r"(?m)^Pages:\s+(\d+)", done.stdout)
    return int(m.group(1)) if m else None


def stderr_summary(log):
    with open(log, encoding="utf-8", errors="replace") as f:
        lines = [l.rstrip() for l in f if l.strip()]
    return lines


def measure(label, cmd, out, log, timeout, n):
    shutil.rmtree(out, ignore_errors=True)
    print(f"  {label:<8} {n:>7} cards … ", end="", file=sys.stderr, flush=True)
    r = run_once(cmd, log, timeout)
    r["bytes"], r["kinds"], pdfs = written(out)
    r["pages"] = [pdf_pages(p) for p in pdfs]
    r["stderr"] = stderr_summary(log)
    status = "TIMEOUT" if r["code"] is None else ("ok" if r["code"] == 0 else f"exit {r['code']}")
    kinds = ", ".join(f"{c} {e}" for e, c in sorted(r["kinds"].items()))
    pages = f", {sum(p or 0 for p in r['pages'])} PDF pages" if r["pages"] and None not in r["pages"] else ""
    print(f"{status}: {r['wall']:.2f} s, {r['rss'] / 1024:.1f} MB, CPU/wall {r['cpu'] / r['wall']:.2f}, "
          f"wrote {r['bytes'] / MB:.1f} MB ({kinds or 'nothing'}{pages})", file=sys.stderr, flush=True)
    for line in r["stderr"][:5]:
        print(f"           stderr: {line}", file=sys.stderr)
    if len(r["stderr"]) > 5:
        print(f"           stderr: … {len(r['stderr']) - 5} more lines", file=sys.stderr)
    shutil.rmtree(out, ignore_errors=True)  # a 100k preview is gigabytes: do not keep it
    return r


def cell_time(r):
    if r is None:
        return "—"
    if r["code"] is None:
        return f"TIMEOUT (> {r['wall']:.1f} s)"
    text = f"{r['wall']:.2f} s"
    return text if r["code"] == 0 else f"{text} (exit {r['code']})"


def cell_rss(r):
    return "—" if r is None else f"{r['rss'] / 1024:.1f} MB"


def ok(r):
    return r is not None and r["code"] == 0


def main():
    opts = parse(sys.argv[1:])
    binary = opts["bin"]
    if not os.access(binary, os.X_OK):
        sys.exit(f"no deckpress binary at {binary}: build it first with `cargo build --release` (or pass --bin)")
    sizes = sorted(set(opts["sizes"]))
    print(f"deckpress: {binary}; {os.cpu_count()} cores; sizes {', '.join(map(str, sizes))}; "
          f"preview up to {opts['skip']} cards; timeout {opts['timeout']:g} s per run; "
          f"load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    results = {}
    with tempfile.TemporaryDirectory(prefix="deckpress-big-") as tmp:
        for n in sizes:
            t0 = time.perf_counter()
            catalogue = make_catalogue(binary, tmp, n)
            print(f"catalogue {os.path.basename(catalogue)}: {n} rows in {time.perf_counter() - t0:.2f} s", file=sys.stderr)
            out, log = os.path.join(tmp, "out"), os.path.join(tmp, "stderr.txt")
            build_cmd = [binary, "build", catalogue, "--out", out]
            if n > DEFAULT_LIMIT:
                build_cmd += ["--limit", f"cards={n}"]
            build = measure("build", build_cmd, out, log, opts["timeout"], n)
            preview = None
            if n <= opts["skip"]:
                preview = measure("preview", [binary, "preview", catalogue, "--out", out, "-q"], out, log, opts["timeout"], n)
            results[n] = (build, preview)
            shutil.rmtree(catalogue, ignore_errors=True)

    # The table.
    print()
    load = os.getloadavg()
    print(f"Load average after the runs: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min) on {os.cpu_count()} cores; "
          f"other work on the machine inflates wall times and deflates CPU/wall.")
    print()
    print("| cards | build wall | build peak RSS | build per 1000 cards | build CPU per card | build CPU/wall | PDF | "
          "preview wall | preview peak RSS | preview output |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        b, p = results[n]
        per = f"{b['wall'] / n * 1000 * 1000:.0f} ms" if ok(b) else "—"
        # CPU time (user + system) per card: what a card costs, whatever else the machine runs.
        cpu_per = f"{b['cpu'] / n * 1e6:.0f} µs" if ok(b) else "—"
        cores = f"{b['cpu'] / b['wall']:.2f}" if b["wall"] > 0 else "—"
        pdf = f"{b['bytes'] / MB:.1f} MB" if ok(b) else "—"
        pout = "—" if p is None else f"{p['bytes'] / MB:.1f} MB, {p['kinds'].get('.png', 0)} PNG"
        print(f"| {n:,} | {cell_time(b)} | {cell_rss(b)} | {per} | {cpu_per} | {cores} | {pdf} | "
              f"{cell_time(p)} | {cell_rss(p)} | {pout} |")
    print()

    # Verdicts: linearity of time, flatness of memory, from the smallest to the largest
    # size that built.
    built = [n for n in sizes if ok(results[n][0])]
    if len(built) >= 2:
        lo, hi = built[0], built[-1]
        blo, bhi = results[lo][0], results[hi][0]
        per_lo, per_hi = blo["wall"] / lo, bhi["wall"] / hi
        marginal = " ".join(
            f"{a:,}→{b:,}: {(results[b][0]['wall'] - results[a][0]['wall']) / (b - a) * 1e6:.0f} µs/card;"
            for a, b in zip(built, built[1:]))
        ratio = per_hi / per_lo
        cpu_lo, cpu_hi = blo["cpu"] / lo, bhi["cpu"] / hi
        print(f"CPU time per card (robust to other work on the machine): {cpu_lo * 1e6:.0f} µs at {lo:,} → "
              f"{cpu_hi * 1e6:.0f} µs at {hi:,} ({cpu_hi / cpu_lo:.2f}×).")
        linear = "linear" if 0.67 <= ratio <= 1.5 else ("worse than linear" if ratio > 1.5 else "sub-linear (fixed start-up cost dominates the small sizes)")
        print(f"Linearity: build time per card {per_lo * 1e6:.0f} µs at {lo:,} → {per_hi * 1e6:.0f} µs at {hi:,} "
              f"({ratio:.2f}×): {linear}. Marginal cost {marginal.rstrip(';')}")
        grow = (bhi["rss"] - blo["rss"]) / 1024
        per_card_kb = grow * 1024 / (hi - lo)
        flat = "flat" if bhi["rss"] <= 1.25 * blo["rss"] else "NOT flat"
        print(f"Memory: build peak RSS {blo['rss'] / 1024:.1f} MB at {lo:,} → {bhi['rss'] / 1024:.1f} MB at {hi:,} "
              f"(+{grow:.1f} MB, {bhi['rss'] / blo['rss']:.2f}×, ≈{per_card_kb:.1f} KB per extra card): {flat}.")
        previewed = [n for n in sizes if ok(results[n][1])]
        if len(previewed) >= 2:
            plo, phi = results[previewed[0]][1], results[previewed[-1]][1]
            ptlo, pthi = plo["wall"] / previewed[0], phi["wall"] / previewed[-1]
            print(f"Linearity: preview time per card {ptlo * 1e3:.2f} ms at {previewed[0]:,} → {pthi * 1e3:.2f} ms "
                  f"at {previewed[-1]:,} ({pthi / ptlo:.2f}×).")
            pgrow = (phi["rss"] - plo["rss"]) / 1024
            pflat = "flat" if phi["rss"] <= 1.25 * plo["rss"] else "NOT flat"
            print(f"Memory: preview peak RSS {plo['rss'] / 1024:.1f} MB at {previewed[0]:,} → {phi['rss'] / 1024:.1f} MB "
                  f"at {previewed[-1]:,} (+{pgrow:.1f} MB, {phi['rss'] / plo['rss']:.2f}×, "
                  f"≈{pgrow * 1024 / (previewed[-1] - previewed[0]):.1f} KB per extra card): {pflat}.")
    else:
        print("Linearity and memory: need two sizes that built to compare.")

    # The targets, where this run measured them.
    targets = []
    if BUILD_AT in results:
        b = results[BUILD_AT][0]
        targets.append((f"build of {BUILD_AT:,} cards <= {BUILD_MAX_S:g} s", ok(b) and b["wall"] <= BUILD_MAX_S, cell_time(b)))
        targets.append((f"build of {BUILD_AT:,} cards <= {BUILD_MAX_MB:g} MB", ok(b) and b["rss"] / 1024 <= BUILD_MAX_MB, cell_rss(b)))
    if PREVIEW_AT in results and results[PREVIEW_AT][1] is not None:
        p = results[PREVIEW_AT][1]
        targets.append((f"preview of {PREVIEW_AT:,} cards <= {PREVIEW_MAX_MB:g} MB", ok(p) and p["rss"] / 1024 <= PREVIEW_MAX_MB, cell_rss(p)))
    if built:
        b = results[built[-1]][0]
        cores = os.cpu_count() or 1
        targets.append((f"build of {built[-1]:,} cards uses every core ({cores})", b["cpu"] / b["wall"] >= 0.8 * cores,
                        f"CPU/wall {b['cpu'] / b['wall']:.2f}"))
    if targets:
        print()
        for name, met, value in targets:
            print(f"{'met   ' if met else 'MISSED'} {name:<40} {value}")
    failed = any(not ok(r) for b, p in results.values() for r in (b, p) if r is not None)
    sys.exit(1 if failed or not all(m for _, m, _ in targets) else 0)


if __name__ == "__main__":
    main()
