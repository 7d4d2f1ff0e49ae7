"""Where every counter stands in the example saves, and the command text of a save.

`setup_places`: the Allied initial deployment on the map per the set-up groups of pack.toml,
every reinforcement in its turn box. `turn3_places`: Game-Turn 3, Allied Movement phase,
a plausible position with exactly the deliberate faults listed in FAULTS.
"""

from __future__ import annotations

from example_kit import FIXED_MS
from example_module import (
    BOARD,
    BOX_BOARD,
    BOX_MAP,
    MAP,
    Counter,
    box_slot,
    piece_state,
    piece_type,
    tracker_state,
)

from vassal_adj.model.geometry.hexes import distance
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.parse.commands import Node, encode
from vassal_adj.parse.tokens import join

# The deliberate faults of turn3-faults.vsav: (kind, hexes, units, rule). Everything else in
# that save is legal (scripts/example_check.py says so, and tests/test_example.py checks it).
FAULTS = [
    (
        "overstack",
        ("2615",),
        ("3-4-11 (2/69)", "3-4-11 (2/86)"),
        "kasserine:assumption stacking_limit (no stacking; standard rules)",
    ),
    ("unsupplied", ("3308",), ("3-2-16 (580)",), "kasserine:17.11"),
    ("mechanized in rough", ("2309",), ("5-3-12 (1/5)",), "kasserine:16.11"),
]

# Game-Turn 3, Allied Movement phase (the Axis has played three turns; 23.71). The Axis
# broke through at Faid and Sidi Bou Zid, took Sbeitla and pushes on Kasserine and Sbiba; the
# Allies hold the Western Dorsal from Thelepte to Sbiba.
TURN3_AXIS = {
    "5-3-12 (2/7)": "2714",  # in Sbeitla (22.41: 30 VP on or before Game-Turn Three)
    "6-5-10 (501)": "2613",
    "3-4-11 (2/69)": "2615",
    "3-4-11 (2/86)": "2615",  # fault: overstack
    "2-2-9 (3/90)": "2816",
    "2-2-9 (1/90)": "2912",
    "2-1-2/1-9 (lt/90)": "3015",
    "2-1-3/2-11 (1/90)": "3117",
    "5-3-12 (1/5)": "2309",  # fault: a panzer in rough with no road or trail into the hex
    "3-1-3/1-7 (1/155)": "2917",
    "5-3-12 (2/5)": "2711",
    "3-4-11 (1/104)": "2516",
    "3-4-11 (2/104)": "2418",
    "2-2-9 (Trupn)": "2720",
    "3-1-3/1-7 (2/155)": "2819",
    "3-2-16 (580)": "3308",  # fault: out of supply in the hills north of the Faid road
}
TURN3_ALLIED = {
    "2-1-14 (1/13)": "2113",
    "2-3-11 (1/6)": "2015",
    "1-2-3/2-10 (68)": "1914",
    "3-2-12 (3/13)": "2608",
    "2-1-11 (701)": "2706",
    "2-3-11 (3/6)": "2807",
    "1-2-7 (1/26)": "1813",
    "1-3-7 (19)": "1704",
    "2-3-11 (2/6)": "0312",
    "2-1-14 (1/1)": "0914",
    "2-1-11 (894)": "0306",
    "2-1-11 (805)": "0407",
    "1-2-3/1-7 (7)": "0206",
    "2-2-4/1-7 (33)": "0405",
    "1-2-7 (1/168)": "1220",
    "1-2-7 (-/168)": "2212",
    "1-2-3/2-10 (91)": "1712",
    "2-2-4/1-7 (2/17)": "1811",
    "1-3-7 (3/26)": "1319",
    "2-2-9 (1)": "1421",
    "1-2-3/1-7 (175)": "1218",
    "2-1-16 (1 DY)": "1617",
    "3-3-12 (2/1)": "2505",
    "1-2-3/2-10 (27)": "2604",
    "2-1-11 (601)": "2806",
    "3-2-12 (2/13)": "2705",
    "1-4-6 (Welvrt)": "1708",
    "1-1-2/2-5 (1/67)": "1603",
    "1-1-2/2-5 (2/67)": "1805",
    "1-2-7 (3/39)": "0105",
}
TURN3_ELIMINATED = ["2-2-9 (609)", "1-3-7 (2/168)", "1-2-7 (3/168)", "3-2-12 (3/1)"]


def reinforcement_boxes(pack: dict, side: str) -> dict[str, str]:
    """unit -> the box it waits in: "Turn N", or the side's conditional box."""
    key = "axis_reinforcements" if side == "Axis" else "allied_reinforcements"
    out = {}
    for entry in pack["rules"][key]["entries"]:
        # The turn-4-or-5 group waits in "Turn 4": it comes then if an Allied unit is near 1023.
        box = f"Turn {entry['turn']}" if "turn" in entry else f"{side} Conditional"
        out.update(dict.fromkeys(entry["units"], box))
    return out


def setup_hexes(pack: dict, lay: HexLayout, rough: set[str]) -> dict[str, str]:
    """unit -> hex of the Allied initial deployment (rule 23 lists, kept to the letter).

    Units of a group may not stack, so each takes the nearest free hex within the group's
    reach (exact 0, adjacent 1, within N), nearest first, ties broken by label, avoiding rough.
    """
    taken: set[str] = set()
    out = {}
    for group in pack["rules"]["allied_setup"]["groups"]:
        reach = {"exact": 0, "adjacent": 1, "within": group.get("distance", 0)}[group["placement"]]
        at = lay.require(group["at"])
        near = sorted((distance(at, lay.require(lab)), lab) for lab in lay.labels())
        free = [lab for d, lab in near if d <= reach and lab not in taken and (lab not in rough or d == 0)]
        assert len(free) >= len(group["units"]), f"no room for {group['units']} at {group['at']}"
        for unit, where in zip(group["units"], free, strict=False):
            out[unit] = where
            taken.add(where)
    return out


Place = tuple[str, str]  # ("hex", label) or ("box", box name)


def setup_places(pack: dict, lay: HexLayout, rough: set[str]) -> dict[tuple[str | None, str], Place]:
    """(side, name) -> place for every counter at set-up."""
    out: dict[tuple[str | None, str], Place] = {}
    for unit, where in setup_hexes(pack, lay, rough).items():
        out[("Allied", unit)] = ("hex", where)
    for side in ("Axis", "Allied"):
        for unit, box in reinforcement_boxes(pack, side).items():
            out[(side, unit)] = ("box", box)
    out[("Axis", "Axis Withdrawal")] = ("box", "Withdrawal Markers")
    out[("Allied", "Allied Withdrawal")] = ("box", "Withdrawal Markers")
    out[(None, "Game Turn")] = ("box", "Turn 1")
    return out


def turn3_places(pack: dict) -> dict[tuple[str | None, str], Place]:
    """(side, name) -> place for every counter in turn3-faults.vsav."""
    out: dict[tuple[str | None, str], Place] = {}
    for side, placed in (("Axis", TURN3_AXIS), ("Allied", TURN3_ALLIED)):
        for unit, box in reinforcement_boxes(pack, side).items():
            out[(side, unit)] = ("box", box)
        out.update({(side, u): ("hex", h) for u, h in placed.items()})
    axis_names = {u for e in pack["rules"]["axis_reinforcements"]["entries"] for u in e["units"]}
    for unit in TURN3_ELIMINATED:
        out[("Axis" if unit in axis_names else "Allied", unit)] = ("box", "Eliminated")
    out[("Axis", "Axis Withdrawal")] = ("box", "Withdrawal Markers")
    out[("Allied", "Allied Withdrawal")] = ("box", "Withdrawal Markers")
    out[(None, "Game Turn")] = ("box", "Turn 3")
    return out


def save_text(
    counters: list[Counter], places: dict[tuple[str | None, str], Place], lay: HexLayout, turn: int, phase: str
) -> str:
    """The command tree VASSAL writes for a save: pieces, their stacks, the boards, the tracker."""
    pieces = []
    stacks: dict[tuple[str, int, int], tuple[str, list[str]]] = {}  # one stack a position
    filled: dict[str, int] = {}
    for n, c in enumerate(counters):
        kind, where = places[(c.side, c.name)]
        if kind == "hex":
            map_name, (x, y) = MAP, lay.center(where)
        else:
            map_name, (x, y) = BOX_MAP, box_slot(where, filled.get(where, 0))
            filled[where] = filled.get(where, 0) + 1
        pid, sid = str(FIXED_MS + 2 * n + 1), str(FIXED_MS + 2 * n + 2)
        pieces.append(Node("+/" + join([pid, piece_type(c), piece_state(c, map_name, x, y, n + 1)], "/")))
        stacks.setdefault((map_name, x, y), (sid, []))[1].append(pid)
    root = Node(
        "begin_save",
        [
            Node(""),
            Node(
                "",
                pieces
                + [
                    Node("+/" + join([sid, "stack", join([m, str(x), str(y), *ids, "@@0"], ";")], "/"))
                    for (m, x, y), (sid, ids) in stacks.items()
                ],
            ),
            Node(join([MAP + "BoardPicker", BOARD, "0", "0"], "\t")),
            Node(join([BOX_MAP + "BoardPicker", BOX_BOARD, "0", "0"], "\t")),
            Node("TURNTurnTracker0\t" + tracker_state(turn, phase)),
            Node("end_save"),
        ],
    )
    return encode(root)
