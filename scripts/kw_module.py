"""The Kesselring's War example module's parts: its geometry, its counters and markers, its
displays and its buildFile (modules/kesselrings-war/example/KesselringsWar.vmod, written by
make_kw_example.py).

The counters have one source, modules/kesselrings-war/order-of-battle.csv (every counter by its
printed name, side, class and where each scenario sets it up); units.toml reads them. A ground
unit carries the layer Reduced (its back: units.toml reads "Reduced_Active" as the flag reduced;
16.1, 20.2.2, 27.2). The markers are the ones pack.toml reads: the AP markers on the AP tracks
([state] tracks), the Italian Surrender marker on the Axis TRT (assumption surrender_marker), and
an Axis Fortification (27.1, 27.2 set one up; units.toml reads its side from the property Side).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import example_kit as kit

from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.parse.tokens import join

PACK_DIR = Path(__file__).resolve().parents[1] / "modules" / "kesselrings-war"
MODULE_NAME, MODULE_VERSION, VASSAL_VERSION = "Kesselring's War", "0.1", "3.6.7"
MAP, BOARD, IMAGE = "Main Map", "Italy", "italy-map.png"
BOX_MAP, BOX_BOARD, BOX_IMAGE = "Displays", "Displays", "displays.png"
# pack.toml [state]: the tracker, its levels and the phases of 4.1.
TRACKER, TURN_LEVEL, PHASE_LEVEL = "Game Turn", "Turn", "Phase"
PHASES = ["Events", "Action Points", "Withdrawal", "Reinforcement", "Initiative", "Action", "End of Turn"]
# The grid of terrain.csv and tests/kw_board.py: hexes 0101-4034, odd columns half a hex lower.
COLUMNS, ROWS = 40, 34
DX, DY, X0, Y0 = 52.0, 60.0, 36, 58
WIDTH, HEIGHT = X0 * 2 + int(DX * (COLUMNS - 1)), Y0 + int(DY * ROWS)
NUMBERING = HexNumbering(
    first="H", sep="", h_type="N", v_type="N", h_leading=1, v_leading=1, h_off=1, v_off=1, stagger=True
)
GRID = HexGridDef(dx=DX, dy=DY, x0=X0, y0=Y0, numbering=NUMBERING)
BOARD_DEF = BoardDef(name=BOARD, image=IMAGE, width=WIDTH, height=HEIGHT, grid=GRID)

SIDES = ("Axis", "Allied")
TURNS, AP_MAX = 8, 30  # pack.toml [state] turns; the AP track's top box (assumption ap_track_max)
# The displays of 2.9 (pack.toml [boxes]), a side's block: the four holding displays (60 counters
# each), its Turn Record Track (ten a box) and its AP track (one marker a box).
DISPLAYS = ("Staging Area", "Reinforcement Display", "Withdrawn", "Permanently Eliminated")
GAP, BIG, TRT, AP = 8, (604, 320), (250, 150), (60, 96)
SLOTS = {"big": (12, 5), "trt": (5, 2), "ap": (1, 1)}
BLOCK_H = GAP * 4 + BIG[1] + TRT[1] + AP[1]
BOX_SIZE = (GAP + len(DISPLAYS) * (BIG[0] + GAP), GAP + len(SIDES) * BLOCK_H)

SIDE_COLOURS = {"Axis": (150, 160, 170), "Allied": (200, 190, 130), None: (235, 235, 235)}
MARKERS = ["Axis Action Points", "Allied Action Points", "Italian Surrender", "Fortification"]
MARKER_SIDES = {"Fortification": "Axis"}  # a marker units.toml reads as a unit of a side (25.4)
PLAYERS = {"Axis": ("Albert", "axis-player-secret"), "Allied": ("Harold", "allied-player-secret")}
DICE = "1d6"  # 2.0 "Players must provide a six-sided die (1d6)"
GROUND = {"armor", "panzergrenadier", "infantry", "motorized", "mountain", "airborne", "flak", "garrison"}


@dataclass(frozen=True)
class Counter:
    name: str  # the counter's piece name (order-of-battle.csv "counter")
    side: str | None  # None for a marker
    cls: str = ""  # the pack's class (order-of-battle.csv "class")
    sc1: str = ""  # where Scenario I / II sets it up (order-of-battle.csv)
    sc2: str = ""
    arrival: str = ""  # "*", "R" or the GT
    marker: str = ""  # a marker's kind

    @property
    def layers(self) -> tuple[str, ...]:
        return ("Reduced",) if self.cls in GROUND else ()

    @property
    def image(self) -> str:
        who = (self.side or "marker").lower()
        return f"{who}-" + "".join(c if c.isalnum() else "_" for c in self.name).strip("_") + ".png"


def counters(path: Path = PACK_DIR / "order-of-battle.csv") -> list[Counter]:
    """Every counter of the order of battle, in file order, then the markers."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if line.strip() and not line.startswith("#")))
    out = [Counter(r["counter"], r["side"], r["class"], r["sc1"], r["sc2"], r["arrival"]) for r in rows]
    assert len({c.name for c in out}) == len(out), "two counters share a name"
    return [*out, *(Counter(m, None, marker=m.split()[-1]) for m in MARKERS)]


GPIDS = {c.name: n for n, c in enumerate(counters(), start=1)}  # each counter's piece slot id


def layout() -> HexLayout:
    return board_hex_layouts(BOARD_DEF)[0]


def boxes() -> dict[str, tuple[tuple[int, int, int, int], str]]:
    """Every display box: name -> (rectangle, slot kind), a side's block under the other's."""
    out = {}
    for s, side in enumerate(SIDES):
        top = GAP + s * BLOCK_H
        for k, display in enumerate(DISPLAYS):
            x = GAP + k * (BIG[0] + GAP)
            out[f"{side} {display}"] = ((x, top, x + BIG[0], top + BIG[1]), "big")
        y = top + BIG[1] + GAP
        for n in range(1, TURNS + 1):
            x = GAP + (n - 1) * (TRT[0] + GAP)
            out[f"{side} TRT {n}"] = ((x, y, x + TRT[0], y + TRT[1]), "trt")
        y += TRT[1] + GAP
        for n in range(AP_MAX + 1):
            x = GAP + n * (AP[0] + GAP)
            out[f"{side} AP {n}"] = ((x, y, x + AP[0], y + AP[1]), "ap")
    return out


BOXES = boxes()


def box_slot(name: str, k: int) -> tuple[int, int]:
    rect, kind = BOXES[name]
    return kit.box_slot(rect, k, *SLOTS[kind])


def layer_image(layer: str) -> str:
    return f"layer-{layer.lower()}.png"


def _basic(c: Counter) -> str:
    return join(["piece", "", "", c.image, c.name], ";")


def _marks(c: Counter) -> tuple[str, str]:
    if c.marker and c.name not in MARKER_SIDES:
        return "mark;Marker", c.marker
    return "mark;Side", MARKER_SIDES.get(c.name, c.side or "")


def _layer(layer: str) -> str:
    return kit.layer_trait(layer, "Reduced", "R", layer_image(layer))


def piece_type(c: Counter) -> str:
    return kit.chain([*(_layer(x) for x in c.layers), _marks(c)[0], _basic(c)])


def piece_state(c: Counter, map_name: str, x: int, y: int, gpid: int, on: frozenset[str]) -> str:
    """The piece's state; its slot id is the module's (`GPIDS`), not `gpid` (the save's order), so that
    Refresh Counters finds each piece's own slot."""
    layers = ["1" if x in on else "-1" for x in c.layers]
    return kit.chain([*layers, _marks(c)[1], join([map_name, str(x), str(y), str(GPIDS[c.name]), "0"], ";")])


def tracker_state(turn: int, phase: str) -> str:
    return kit.tracker_state(turn, phase, PHASES)


def _slot_text(c: Counter) -> str:
    return kit.slot_text([_layer(x) for x in c.layers], _marks(c) if c.marker else None, c.side, _basic(c))


def build_file(all_counters: list[Counter], setups: dict[str, str]) -> bytes:
    gpids = {c: GPIDS[c.name] for c in all_counters}
    lists = kit.side_palettes(all_counters, gpids, _slot_text)
    lines = [
        *kit.module_open(MODULE_NAME, MODULE_NAME, len(all_counters), MODULE_VERSION, VASSAL_VERSION, SIDES),
        # Each scenario's set-up as File > New Game offers it, a save inside the module.
        *(
            f'    <VASSAL.build.module.PredefinedSetup file="{file}" isMenu="false" name="{name}" useFile="true"/>'
            for name, file in setups.items()
        ),
        # One die (2.0): events (5.1), AP (5.2.1), reinforcements (7.2), combat (15.2).
        kit.dice_button_xml(DICE, 1, "Roll one die"),
        # Which scenario a save plays (pack.toml [scenarios] match): I or II.
        "    <VASSAL.build.module.properties.GlobalProperties>",
        '        <VASSAL.build.module.properties.GlobalProperty description="Scenario: I or II" initialValue="I" '
        'isNumeric="false" max="null" min="null" name="Scenario" wrap="false"/>',
        "    </VASSAL.build.module.properties.GlobalProperties>",
        *kit.map_xml(MAP, BOARD, IMAGE, kit.hex_grid_xml(GRID)),
        *kit.map_xml(BOX_MAP, BOX_BOARD, BOX_IMAGE, kit.zoned_grid_xml((b, r) for b, (r, _) in BOXES.items())),
        *kit.module_close(lists, kit.tracker_xml(TRACKER, TURN_LEVEL, PHASE_LEVEL, PHASES), kit.side_prototypes(SIDES)),
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")
