#!/usr/bin/env python3
"""deckpress against a hand-written ReportLab script, both drawing the 62-card TravFuda deck.

Install ReportLab for this only, in a venv outside the project (with its C accelerator,
rl_accel, as anyone who cares about speed would; without it ReportLab is ~20 ms slower here):
    /usr/bin/python3 -m venv /tmp/rl-venv && /tmp/rl-venv/bin/pip install 'reportlab[accel]'
Run (N runs each, default 20; on a shared machine under nice):
    nice python3 bench/reportlab/run.py [N]
DECKPRESS_BIN picks the binary (default target/release/deckpress), RL_PYTHON the python
that has ReportLab (default /tmp/rl-venv/bin/python). The two commands alternate, so a
busy spell on the machine hits both alike. Times are whole processes, start-up included;
python's start-up and `import reportlab` are timed alone too, to show how much is fixed cost.
deckpress uses a second core when one is free and python does not: `taskset -c 0` before
the command puts everything on one core.
"""
import os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.environ.get("DECKPRESS_BIN") or os.path.join(ROOT, "target", "release", "deckpress")
PY = os.environ.get("RL_PYTHON") or "/tmp/rl-venv/bin/python"
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 20


def run(cmd):
    """Wall time and user+sys CPU time of one whole process, in ms."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status:
        sys.exit(f"{cmd[0]} failed: {proc.stderr.read().decode()}")
    return wall * 1000, (usage.ru_utime + usage.ru_stime) * 1000


with tempfile.TemporaryDirectory() as tmp:
    rl_pdf = os.path.join(tmp, "reportlab.pdf")
    dp_pdf = os.path.join(tmp, "travfuda", "travfuda-cards-a4.pdf")
    cases = {
        "deckpress build travfuda --only cards": [BIN, "build", "travfuda", "--only", "cards", "--out", tmp],
        "python travfuda.py (ReportLab)": [PY, os.path.join(HERE, "travfuda.py"), rl_pdf],
        "  of which: python -c 'import reportlab…canvas'": [PY, "-c", "import reportlab.pdfgen.canvas"],
        "  of which: python -c pass": [PY, "-c", "pass"],
    }
    for cmd in cases.values():  # warm the file cache and python's .pyc files; not timed
        run(cmd)
    results = {name: [] for name in cases}
    for _ in range(RUNS):
        for name, cmd in cases.items():
            results[name].append(run(cmd))
    sizes = os.path.getsize(dp_pdf), os.path.getsize(rl_pdf)

print(f"{RUNS} runs each, alternating; ms")
print(f"{'command':<48} {'median wall':>11} {'min wall':>9} {'median cpu':>11}")
med, cpu = {}, {}
for name, rows in results.items():
    walls, cpus = [w for w, _ in rows], [c for _, c in rows]
    med[name], cpu[name] = statistics.median(walls), statistics.median(cpus)
    print(f"{name:<48} {med[name]:>11.1f} {min(walls):>9.1f} {statistics.median(cpus):>11.1f}")
dp, rl = list(med.values())[:2]
print(f"deckpress / ReportLab (median wall): {dp / rl:.3f}  (ReportLab takes {rl / dp:.1f} × deckpress's time)")
# A round's two runs follow each other: the median of each round's ratio follows the
# machine's changing speed (it moved by half within minutes here) less than the ratio of
# the two medians does.
rounds = zip(*list(results.values())[:2])
paired = statistics.median(d[0] / r[0] for d, r in rounds)
print(f"deckpress / ReportLab (median of each round's wall ratio): {paired:.3f}")
mins = [min(w for w, _ in rows) for rows in list(results.values())[:2]]
print(f"deckpress / ReportLab (min wall): {mins[0] / mins[1]:.3f}")
dc, rc = list(cpu.values())[:2]  # steadier than wall time when others load the machine
print(f"deckpress / ReportLab (median user+sys CPU): {dc / rc:.3f}")
print(f"PDF sizes: deckpress {sizes[0] / 1024:.1f} KiB, ReportLab {sizes[1] / 1024:.1f} KiB")
