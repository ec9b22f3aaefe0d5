#!/usr/bin/env python3
"""Makes the large catalogues of bench/hostile/README.md from `deckpress new`:
   make.py BIN DIR N looks [queries]
looks: 'few' = 200 designs (2 suits x 100 values, the title follows the value),
       'distinct' = every card its own title. queries: each face prints count() and sum()."""
import pathlib, re, subprocess, sys

binary, folder, n, looks = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
queries = len(sys.argv) > 5 and sys.argv[5] == "queries"
folder.parent.mkdir(parents=True, exist_ok=True)
subprocess.run([binary, "new", folder.name], cwd=folder.parent, check=True, capture_output=True)
rows = ["id,qty,suit,value,title"]
for i in range(n):
    suit = "Sun" if i % 2 else "Moon"
    value = (i // 2) % 100 + 1
    title = f"Title {value}" if looks == "few" else f"Dusk {i}"
    rows.append(f"c{i},1,{suit},{value},{title}")
(folder / "cards.csv").write_text("\n".join(rows) + "\n")
toml = (folder / "game.toml").read_text()
toml = toml[: toml.index("# The deck's composition")]
(folder / "game.toml").write_text(toml)
face = folder / "templates/face.svg"
svg = face.read_text()
if queries:
    svg = svg.replace(
        "{{ card.suit }}</text>",
        '{{ card.suit }} · {{ count(where={"suit": card.suit}) }} cards, '
        '{{ sum(field="value", where={"suit": card.suit}) }} points</text>',
    )
face.write_text(svg)
