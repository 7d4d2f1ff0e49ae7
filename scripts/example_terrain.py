"""The invented terrain of the Kasserine example: written to modules/kasserine/terrain.csv.

The seed rulebook has no map. It names six towns, the supply-source hex ranges and the entry
hexes; everything else here (ridges, roads, trails, streams) is made up to be plausible, so
that the example can be played and the rules of 16 and 17 have something to bite on. The
file says so in its header. Geography, loosely: the Western Dorsal runs south-west to
north-east across the map, cut by Kasserine Pass (a rough hex the Tebessa and Thala roads go
through) and the Sbiba gap; Djebel Chambi stands south-west of the pass; an eastern ridge
hides the Faid road; roads tie Tebessa, Thala, Sbiba, Sbeitla and Thelepte to the map edges.
"""

from __future__ import annotations

import math
from collections import deque
from itertools import pairwise

from vassal_adj.model.geometry.hexes import Hex, hexside, line
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.parse.terrain_file import read_terrain_on

COLUMNS, ROWS = 39, 26
TOWNS = {
    "0306": "Tebessa",
    "0312": "El Ma el Abiod",
    "1319": "Thelepte",
    "1704": "Thala",
    "2706": "Sbiba",
    "2714": "Sbeitla",
}
# Names printed on the board that are not towns of the rules: landmarks for the players.
LANDMARKS = {
    "2015": "Kasserine",
    "1813": "Kasserine Pass",
    "1421": "Feriana",
    "3620": "Sidi Bou Zid",
    "3911": "Faid",
    "1117": "Bou Chebka",
}
OBJECTIVES = {"0306", "1319", "2714"}  # 22.41: Victory Points for entering them
AXIS_SOURCES = "0623-1423 2126-3926 3926-3916"  # 17.11
ALLIED_SOURCES = "0107-0101 0101-0901 1301-1901 2401-3001"  # 17.12 ("0101.0901" read as a range)
# Exact set-up hexes and entry hexes (rule 23 lists): never rough, so every unit may stand there.
KEEP_CLEAR = [
    "3718",
    "3922",
    "3722",
    "3721",
    "3821",
    "3819",
    "3918",
    "3919",
    "3920",
    "3726",
    "3225",
    "2526",
    "3911",
    "3910",
    "3909",
    "1023",
    "2701",
    "1601",
    "0105",
    "0104",
]

# Ridges: (from, to, half-width in hexes) between hex centres; the hexes near the segment are rough.
RIDGES = [
    ("0921", "1813", 0.9),  # Western Dorsal, south-west half: Djebel Chambi side
    ("1813", "2508", 0.9),  # Western Dorsal: Djebel Semmama to the Sbiba gap
    ("2904", "3301", 0.8),  # Western Dorsal beyond the gap
    ("1415", "1616", 0.8),  # Djebel Chambi
    ("3402", "3709", 0.7),  # eastern ridge north of the Faid road
    ("3513", "3615", 0.6),  # Djebel Lessouda
    ("0809", "1008", 0.6),  # hills of Kalaat es Senam
    ("2921", "3022", 0.6),  # Djebel Ksaira, south of Sbeitla
    ("0717", "0819", 0.6),
]  # Bou Chebka
# The Sbiba gap: a way through the ridge that stays clear.
GAPS = ["2605", "2606", "2607", "2706", "2707", "2806", "2805", "2705"]

# Roads and trails as waypoints; consecutive waypoints are joined by the hex line between them.
ROADS = {
    "Tebessa - Allied rear (west edge)": ["0104", "0205", "0306"],
    "Tebessa - Kasserine Pass": ["0306", "0707", "1109", "1411", "1612", "1813"],
    "Tebessa - Thelepte": ["0306", "0609", "0913", "1117", "1319"],
    "Tebessa - El Ma el Abiod": ["0306", "0312"],
    "Thala - Allied rear (north edge)": ["1701", "1704"],
    "Thala - Kasserine Pass": ["1704", "1708", "1711", "1813"],
    "Kasserine Pass - Kasserine - Sbeitla": ["1813", "1914", "2015", "2315", "2714"],
    "Thelepte - Kasserine": ["1319", "1617", "2015"],
    "Thelepte - Feriana - Gafsa road (south)": ["1319", "1421", "1423"],
    "Thala - Sbiba": ["1704", "2204", "2706"],
    "Sbiba - Allied rear (north edge)": ["2701", "2706"],
    "Sbiba - Sbeitla": ["2706", "2710", "2714"],
    "Sbeitla - Faid": ["2714", "3113", "3512", "3911"],
    "Sbeitla - Sidi Bou Zid - Faid pass": ["2714", "3217", "3620", "3919"],
    "Sidi Bou Zid - Maknassy (3726)": ["3620", "3723", "3726"],
    "Sbeitla - Gafsa road (3226)": ["2714", "2818", "3022", "3226"],
    "Kasserine - Gafsa road (2526)": ["2818", "2622", "2526"],
}
TRAILS = {
    "Tebessa - Kalaa Djerda - north edge": ["0306", "0804", "1203", "1301"],
    "El Ma el Abiod - Bir el Ater road": ["0312", "0617", "0821", "1023"],
    "Thelepte - south edge": ["1319", "1220", "1123"],
    "Sbiba - Kasserine - south edge": ["2401", "2405", "2408", "2211", "2015", "2322", "2426"],
    "Sbiba - north edge": ["2706", "2903", "3001"],
    "Faid - Sidi Bou Zid - east edge": ["3911", "3815", "3718", "3817", "3916"],
}
# Streams as waypoints; the stream follows the hex edges between them.
STREAMS = {
    "Oued Hatab": ["1709", "1912", "2017", "2419", "2918", "3417", "3816"],
    "Oued Hallouf": ["0410", "0716", "1019", "1225"],
    "Oued Sbiba": ["2003", "2306", "2409", "2512"],
}


def vocabulary() -> TerrainVocabulary:
    return TerrainVocabulary(
        terrain=frozenset({"clear", "rough", "town"}),
        features=frozenset({"road", "trail", "stream", "bridge"}),
        place_kinds=frozenset({"town", "objective", "supply-source", "entry"}),
    )


def chain(layout: HexLayout, waypoints: list[str]) -> list[str]:
    """Every hex from waypoint to waypoint, each next to the one before."""
    out = [waypoints[0]]
    for a, b in pairwise(waypoints):
        for h in line(layout.require(a), layout.require(b))[1:]:
            out.append(layout.label_of(h))
    return out


def _corner_graph(layout: HexLayout) -> tuple[dict, dict]:
    """Hex edges as a graph of corners: corner -> neighbour corners, edge -> the hexside's hexes."""
    dx = layout.grid.dx
    r = dx * 2 / 3
    graph: dict = {}
    sides: dict = {}
    for h in layout.hexes():
        for n in layout.neighbors(h):
            b = layout.require(n)
            (ax, ay), (bx, by) = layout.center(h), layout.center(b)
            mx, my, length = (ax + bx) / 2, (ay + by) / 2, math.hypot(bx - ax, by - ay)
            px, py = -(by - ay) / length * r / 2, (bx - ax) / length * r / 2
            c1, c2 = (round(mx + px), round(my + py)), (round(mx - px), round(my - py))
            graph.setdefault(c1, set()).add(c2)
            graph.setdefault(c2, set()).add(c1)
            sides[frozenset((c1, c2))] = (layout.label_of(h), n)
    return graph, sides


def stream_sides(layout: HexLayout, waypoints: list[str]) -> list[tuple[str, str]]:
    """The hexsides a stream follows: shortest runs of hex edges between the waypoints."""
    graph, sides = _corner_graph(layout)

    def nearest(label: str) -> tuple[int, int]:
        x, y = layout.center(label)
        return min(graph, key=lambda c: (math.hypot(c[0] - x, c[1] - y), c))

    out: list[tuple[str, str]] = []
    for a, b in pairwise(waypoints):
        start, goal = nearest(a), nearest(b)
        parent = {start: start}
        queue = deque([start])
        while queue:
            c = queue.popleft()
            if c == goal:
                break
            for n in sorted(graph[c]):
                if n not in parent:
                    parent[n] = c
                    queue.append(n)
        c = goal
        run = []
        while c != start:
            run.append(tuple(sorted(sides[frozenset((c, parent[c]))])))
            c = parent[c]
        out.extend(reversed(run))
    return out


def rough_hexes(layout: HexLayout) -> set[str]:
    out = set()
    step = layout.grid.dy  # the distance between neighbouring hex centres
    for a, b, width in RIDGES:
        (ax, ay), (bx, by) = layout.center(a), layout.center(b)
        for label in layout.labels():
            x, y = layout.center(label)
            t = max(0.0, min(1.0, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)))
            if math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)) <= width * step:
                out.add(label)
    return out - set(GAPS) - set(KEEP_CLEAR) - set(TOWNS)


def _runs(labels: list[str]) -> str:
    """Labels of one column as ranges: 0101-0105 0108."""
    out, start, prev = [], None, None
    for lab in labels + [None]:
        if prev is not None and (lab is None or lab[:2] != prev[:2] or int(lab[2:]) != int(prev[2:]) + 1):
            out.append(start if start == prev else f"{start}-{prev}")
            start = None
        if start is None:
            start = lab
        prev = lab
    return " ".join(out)


def terrain_csv(layout: HexLayout) -> str:
    """The text of modules/kasserine/terrain.csv (docs/terrain.md)."""
    rough = rough_hexes(layout)
    lines = [
        "# Kasserine: terrain of the example board (modules/kasserine/example/Kasserine.vmod).",
        "#",
        "# INVENTED FOR THE EXAMPLE: NOT THE REAL KASSERINE MAP. The seed rulebook has no map; it",
        "# gives only the towns, the supply sources (17.11, 17.12) and the entry hexes used below.",
        "# Ridges, roads, trails and streams are plausible inventions, drawn on the example board.",
        "# For the real map, write your own file (docs/terrain.md) and give `check --terrain FILE`.",
        "#",
        "# Generated by scripts/make_example.py (scripts/example_terrain.py): edit that, not this.",
        "",
        "# Towns (clear town; 16.1) and their places",
    ]
    for label, name in sorted(TOWNS.items()):
        kinds = "town objective" if label in OBJECTIVES else "town"
        lines.append(f"hex,{label},clear town")
        lines.append(f"place,{name},{kinds},{label}")
    lines += [
        "",
        '# 17.11 and 17.12: supply sources (the seed\'s "0101.0901" read as 0101-0901)',
        f"place,Axis supply,supply-source,{AXIS_SOURCES}",
        f"place,Allied supply,supply-source,{ALLIED_SOURCES}",
        "",
        "# Terrain by column: rough ridges (16.11) and clear ground",
    ]
    for col in range(1, COLUMNS + 1):
        labels = [f"{col:02d}{row:02d}" for row in range(1, ROWS + 1) if f"{col:02d}{row:02d}" not in TOWNS]
        for kind in ("rough", "clear"):
            these = [lab for lab in labels if (lab in rough) == (kind == "rough")]
            if these:
                lines.append(f"hex,{_runs(these)},{kind}")
    road_sides = set()
    for title, feature, table in (
        ("Roads (17.13; 16.12: a road hexside leads into rough)", "road", ROADS),
        ("Trails", "trail", TRAILS),
    ):
        lines += ["", f"# {title}"]
        for name, points in table.items():
            hexes = chain(layout, points)
            lines.append(f"path,{' '.join(hexes)},{feature}  # {name}")
            if feature == "road":
                road_sides |= {tuple(sorted(p)) for p in pairwise(hexes)}
    lines += ["", "# Streams follow hexsides (20.0); bridges where a road crosses one"]
    bridges = []
    for name, points in STREAMS.items():
        sides = stream_sides(layout, points)
        lines.append(f"# {name}")
        lines += [f"hexside,{a}/{b},stream" for a, b in sides]
        bridges += [f"hexside,{a}/{b},bridge  # {name}" for a, b in sides if (a, b) in road_sides]
    lines += ["", "# Bridges", *bridges]
    return "\n".join(lines) + "\n"


def read(layout: HexLayout, text: str, path: str = "terrain.csv") -> TerrainMap:
    return read_terrain_on(layout, text, path=path, vocabulary=vocabulary())


def road_side_into(terrain: TerrainMap, h: Hex, neighbours: list[Hex]) -> bool:
    """16.12: whether a road or trail hexside leads into hex `h`."""
    return any(terrain.features(hexside(h, n)) & {"road", "trail"} for n in neighbours)
