#!/usr/bin/env python3
"""Benchmark: wall time, peak memory and PDF size of whole `deckpress build` runs.

Usage: cargo build --release && python3 bench/bench.py [runs] [press]
`press` measures the TravFuda deck for DriveThruCards in RGB and as CMYK PDF/X instead.
(DECKPRESS_BIN=path runs another binary, e.g. one built with CARGO_TARGET_DIR elsewhere.)
Runs each command `runs` times (default 20) on the release binary and prints the median
wall time, the highest peak RSS of a run and the size of what it wrote.
"""
import os, resource, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DECKPRESS_BIN") or os.path.join(ROOT, "target", "release", "deckpress")
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 20

def measure(args):
    times, peaks, size = [], [], 0
    with tempfile.TemporaryDirectory() as out:
        for _ in range(RUNS):
            start = time.perf_counter()
            proc = subprocess.Popen([BIN, "build", *args, "--out", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, _, usage = os.wait4(proc.pid, 0)
            times.append(time.perf_counter() - start)
            peaks.append(usage.ru_maxrss)  # KiB on Linux
        for folder, _, files in os.walk(out):
            size += sum(os.path.getsize(os.path.join(folder, f)) for f in files if f.endswith(".pdf"))
    return statistics.median(times) * 1000, max(peaks) / 1024, size / 1024

if not os.path.exists(BIN):
    sys.exit("build the release binary first: cargo build --release")
print(f"{'command':<48} {'median wall':>12} {'peak RSS':>10} {'PDFs':>10}")
CASES = [
    ("build travfuda --only cards", ["travfuda", "--only", "cards"]),
    ("build travfuda", ["travfuda"]),
    ("build --all", ["--all"]),
]
DTC = ["travfuda", "--only", "cards", "--fit", "scale", "--for", "drivethrucards"]
PRESS = [
    ("… --for drivethrucards --colour rgb", DTC + ["--colour", "rgb"]),
    ("… --for drivethrucards (CMYK PDF/X-1a)", DTC),
    ("… --for drivethrucards --pdfx 4", DTC + ["--pdfx", "4"]),
]
for label, args in PRESS if "press" in sys.argv[2:] else CASES:
    ms, mb, kb = measure(args)
    print(f"{'deckpress ' + label:<48} {ms:>9.1f} ms {mb:>7.1f} MB {kb:>7.1f} KB")
