"""The Tunisia 1943 example module's parts: its geometry, its counters and their layers, its
buildFile (modules/tunisia-1943/example/Tunisia1943.vmod, written by make_tunisia_example.py).

The counters have one source, modules/tunisia-1943/order-of-battle.csv (every counter by its
printed name, side, division and campaigns); units.toml reads them. Each counter carries the
layers units.toml reads as states: a combat unit OutOfSupply (9.2) and LossOfZoC (7.4 "*"), an
EM OutOfSupply, Flipped (0.1, 4.2, 6.2) and Sustained (10).
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

PACK_DIR = Path(__file__).resolve().parents[1] / "modules" / "tunisia-1943"
MODULE_NAME, MODULE_VERSION, VASSAL_VERSION = "Tunisia 1943", "0.1", "3.6.7"
MAP, BOARD, IMAGE = "Main Map", "Tunisia", "tunisia-map.png"
BOX_MAP, BOX_BOARD, BOX_IMAGE = "Holding Boxes", "Boxes", "holding-boxes.png"
# pack.toml [state]: the tracker, its levels, the ten phases (1: the attacker's five, then the
# defender's; the list starts with the Axis, and a Campaign II save makes "Allied Sustain" the
# first phase of a turn, so that the turn changes as the Allies begin).
TRACKER, TURN_LEVEL, PHASE_LEVEL = "Game Turn", "Turn", "Phase"
STEPS = ["Sustain", "Movement", "Combat", "Exploitation", "Supply"]
PHASES = [f"{side} {step}" for side in ("Axis", "Allied") for step in STEPS]
FIRST_PHASE = {"I": "Axis Sustain", "II": "Allied Sustain"}  # the tracker's configFirst, per campaign
COLUMNS, ROWS = 30, 20  # hexes 0101 to 3020, the grid of terrain.csv and tests/tunisia_board.py
DX, DY, X0, Y0 = 52.0, 60.0, 36, 28
WIDTH, HEIGHT = X0 * 2 + int(DX * (COLUMNS - 1)), Y0 + int(DY * ROWS)
NUMBERING = HexNumbering(
    first="H", sep="", h_type="N", v_type="N", h_leading=1, v_leading=1, h_off=1, v_off=1, stagger=False
)
GRID = HexGridDef(dx=DX, dy=DY, x0=X0, y0=Y0, numbering=NUMBERING)
BOARD_DEF = BoardDef(name=BOARD, image=IMAGE, width=WIDTH, height=HEIGHT, grid=GRID)

# The holding boxes (pack.toml [boxes]): the turn track's boxes, where reinforcements and
# destroyed EMs wait (6.3, 11), then Eliminated and Exited (Campaign I's exit off the west edge).
BOXES = [f"Turn {n}" for n in range(1, 9)] + ["Eliminated", "Exited"]
BOX_COLS, BOX_W, BOX_H, BOX_GAP = 5, 392, 264, 8
BOX_SIZE = (BOX_GAP + BOX_COLS * (BOX_W + BOX_GAP), BOX_GAP + -(-len(BOXES) // BOX_COLS) * (BOX_H + BOX_GAP))
SLOT_COLS, SLOT_ROWS = 8, 4
SIDE_COLOURS = {"Axis": (150, 170, 200), "Allied": (190, 200, 120), None: (235, 235, 235)}

# Layers: name -> (menu text, key, picture's words). The names are the ones units.toml reads
# ("<layer>_Active").
LAYERS = {
    "OutOfSupply": ("Out of supply", "O", ["NO SUPPLY"]),
    "LossOfZoC": ("Loss of ZoC", "Z", ["NO ZOC"]),
    "Flipped": ("Artillery used", "F", ["EM", "ART 0"]),
    "Sustained": ("Sustained", "S", ["SUSTAINED"]),
}
UNIT_LAYERS = ("OutOfSupply", "LossOfZoC")
EM_LAYERS = ("OutOfSupply", "Flipped", "Sustained")
PLAYERS = {"Axis": ("Hans", "axis-player-secret"), "Allied": ("Lloyd", "allied-player-secret")}
DICE = "2d6"  # 0.1: a cohesion test throws two dice (4.3, 7.3); the combat table one roll of them


@dataclass(frozen=True)
class Counter:
    name: str  # as printed (order-of-battle.csv)
    side: str | None  # None for the turn marker
    division: str = ""  # "" for a non-divisional unit (6.1)
    campaigns: str = "both"  # I, II or both
    marker: str = ""  # "Turn" for the turn marker

    @property
    def em(self) -> bool:
        return self.name.startswith("EM ")

    @property
    def layers(self) -> tuple[str, ...]:
        return () if self.marker else EM_LAYERS if self.em else UNIT_LAYERS

    @property
    def image(self) -> str:
        who = (self.side or "marker").lower()
        return f"{who}-" + "".join(c if c.isalnum() else "_" for c in self.name).strip("_") + ".png"

    def serves(self, campaign: str) -> bool:
        return self.campaigns in ("both", campaign)


def counters(path: Path = PACK_DIR / "order-of-battle.csv") -> list[Counter]:
    """Every counter of the order of battle, in file order, then the turn marker."""
    with path.open(encoding="utf-8") as f:
        rows = [r for r in csv.reader(line for line in f if line.strip() and not line.startswith("#"))]
    out = [Counter(name, side, division, campaigns) for name, side, division, campaigns in rows[1:]]
    assert len({c.name for c in out}) == len(out), "two counters share a name"
    return [*out, Counter("Game Turn", None, marker="Turn")]


GPIDS = {c.name: n for n, c in enumerate(counters(), start=1)}  # each counter's piece slot id


def layout() -> HexLayout:
    return board_hex_layouts(BOARD_DEF)[0]


def box_rect(name: str) -> tuple[int, int, int, int]:
    return kit.box_rect(BOXES, name, BOX_COLS, (BOX_W, BOX_H), BOX_GAP)


def box_slot(name: str, k: int) -> tuple[int, int]:
    """The centre of the k-th counter place of a box (rows of eight under the title)."""
    return kit.box_slot(box_rect(name), k, SLOT_COLS, SLOT_ROWS)


def layer_image(layer: str) -> str:
    return f"layer-{layer.lower()}.png"


def layer_type(layer: str) -> str:
    menu, key, _ = LAYERS[layer]
    return kit.layer_trait(layer, menu, key, layer_image(layer))


def _basic(c: Counter) -> str:
    return join(["piece", "", "", c.image, c.name], ";")


def _marks(c: Counter) -> tuple[str, str]:
    return ("mark;Marker", c.marker) if c.marker else ("mark;Side", c.side or "")


def piece_type(c: Counter) -> str:
    return kit.chain([*(layer_type(x) for x in c.layers), _marks(c)[0], _basic(c)])


def piece_state(c: Counter, map_name: str, x: int, y: int, gpid: int, on: frozenset[str]) -> str:
    """The piece's state; its slot id is the module's (`GPIDS`), not `gpid` (the save's order), so that
    Refresh Counters finds each piece's own slot."""
    layers = ["1" if x in on else "-1" for x in c.layers]
    return kit.chain([*layers, _marks(c)[1], join([map_name, str(x), str(y), str(GPIDS[c.name]), "0"], ";")])


def tracker_state(turn: int, phase: str, campaign: str) -> str:
    """The tracker at `phase` of `turn`; a turn starts with the campaign's attacker (1)."""
    return kit.tracker_state(turn, phase, PHASES, PHASES.index(FIRST_PHASE[campaign]))


def _slot_text(c: Counter) -> str:
    return kit.slot_text([layer_type(x) for x in c.layers], _marks(c) if c.marker else None, c.side, _basic(c))


def build_file(all_counters: list[Counter], setups: dict[str, str]) -> bytes:
    gpids = {c: GPIDS[c.name] for c in all_counters}
    lists = kit.side_palettes(all_counters, gpids, _slot_text)
    protos = kit.side_prototypes(("Axis", "Allied"))
    lines = [
        *kit.module_open(
            "Tunisia 1943", MODULE_NAME, len(all_counters), MODULE_VERSION, VASSAL_VERSION, ("Axis", "Allied")
        ),
        # The campaigns' set-ups as File > New Game offers them (pack assumption setup_saves: named as
        # the campaigns), each a save inside the module.
        *(
            f'    <VASSAL.build.module.PredefinedSetup file="{file}" isMenu="false" name="{name}" useFile="true"/>'
            for name, file in setups.items()
        ),
        # Two dice, as a cohesion test throws them (0.1); the attributes of VASSAL 3.6's button.
        kit.dice_button_xml(DICE, 2, "Roll two dice"),
        # Which campaign a save plays (pack.toml [scenarios] match): I or II.
        "    <VASSAL.build.module.properties.GlobalProperties>",
        '        <VASSAL.build.module.properties.GlobalProperty description="Campaign: I or II" initialValue="I" '
        'isNumeric="false" max="null" min="null" name="Campaign" wrap="false"/>',
        "    </VASSAL.build.module.properties.GlobalProperties>",
        *kit.map_xml(MAP, BOARD, IMAGE, kit.hex_grid_xml(GRID)),
        *kit.map_xml(BOX_MAP, BOX_BOARD, BOX_IMAGE, kit.zoned_grid_xml((b, box_rect(b)) for b in BOXES)),
        *kit.module_close(lists, kit.tracker_xml(TRACKER, TURN_LEVEL, PHASE_LEVEL, PHASES, config_first=True), protos),
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")
