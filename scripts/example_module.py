"""The example module's parts: its geometry, its counters (from pack.toml) and its buildFile.

The order of battle has one source, modules/kasserine/pack.toml: every counter of the
Allied set-up groups and of both reinforcement schedules becomes a piece, named as printed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import example_kit as kit

from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.parse.tokens import join

PACK = Path(__file__).resolve().parents[1] / "modules" / "kasserine" / "pack.toml"
MODULE_NAME, MODULE_VERSION, VASSAL_VERSION = "Kasserine", "0.2", "3.6.7"
MAP, BOARD, IMAGE = "Main Map", "Kasserine", "kasserine-map.png"
BOX_MAP, BOX_BOARD, BOX_IMAGE = "Holding Boxes", "Boxes", "holding-boxes.png"
TRACKER, TURN_LEVEL, PHASE_LEVEL = "Game Turn", "Turn", "Phase"
PHASES = ["Axis Movement", "Axis Combat", "Allied Movement", "Allied Combat"]  # 23.71: Axis first
COLUMNS, ROWS = 39, 26  # hexes 0101 to 3926
DX, DY, X0, Y0 = 52.0, 60.0, 36, 28
WIDTH = X0 * 2 + int(DX * (COLUMNS - 1))
# Exactly the centres of 0101-3926 lie on the board, as VASSAL decides what is on it: row 00 of
# the lower columns sits above the top edge and row 27 of the upper columns on the bottom edge.
HEIGHT = Y0 + int(DY * ROWS)
# Columns numbered west to east, rows north to south, two digits each; the second column
# starts half a hex lower than the first (no stagger in VASSAL's numbering terms).
NUMBERING = HexNumbering(
    first="H", sep="", h_type="N", v_type="N", h_leading=1, v_leading=1, h_off=1, v_off=1, stagger=False
)
GRID = HexGridDef(dx=DX, dy=DY, x0=X0, y0=Y0, numbering=NUMBERING)
BOARD_DEF = BoardDef(name=BOARD, image=IMAGE, width=WIDTH, height=HEIGHT, grid=GRID)

# The holding boxes: one zone each, named as VASSAL reports a piece there ($name$).
BOXES = [f"Turn {n}" for n in range(1, 13)] + [
    "Axis Conditional",
    "Allied Conditional",
    "Eliminated",
    "Exited",
    "Withdrawal Markers",
]
BOX_COLS, BOX_W, BOX_H, BOX_GAP = 5, 392, 264, 8
BOX_SIZE = (BOX_GAP + BOX_COLS * (BOX_W + BOX_GAP), BOX_GAP + -(-len(BOXES) // BOX_COLS) * (BOX_H + BOX_GAP))
SLOT_COLS, SLOT_ROWS = 8, 4  # counters laid out in a box, 48 x 50 pixels apart

MARKERS = ["Axis Withdrawal", "Allied Withdrawal", "Game Turn"]  # 19.0: one withdrawal marker a player
SIDE_COLOURS = {"Axis": (150, 170, 200), "Allied": (190, 200, 120), None: (235, 235, 235)}


@dataclass(frozen=True)
class Counter:
    name: str  # as printed in pack.toml
    side: str | None  # None for the turn marker
    marker: str = ""  # "Withdrawal", "Turn" for markers; "" for units

    @property
    def image(self) -> str:
        who = (self.side or "marker").lower()
        return f"{who}-" + "".join(c if c.isalnum() else "_" for c in self.name).strip("_") + ".png"


def read_pack(path: Path = PACK) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def counters(pack: dict) -> list[Counter]:
    """Every unit of the order of battle (Axis first, in pack order), then the three markers."""
    rules = pack["rules"]
    axis = [u for e in rules["axis_reinforcements"]["entries"] for u in e["units"]]
    allied = [u for g in rules["allied_setup"]["groups"] for u in g["units"]]
    allied += [u for e in rules["allied_reinforcements"]["entries"] for u in e["units"]]
    out = [Counter(u, "Axis") for u in axis] + [Counter(u, "Allied") for u in allied]
    assert len({(c.side, c.name) for c in out}) == len(out), "two counters share a name"
    return out + [
        Counter("Axis Withdrawal", "Axis", "Withdrawal"),
        Counter("Allied Withdrawal", "Allied", "Withdrawal"),
        Counter("Game Turn", None, "Turn"),
    ]


def layout() -> HexLayout:
    """The main board's hex grid: labels <-> hexes <-> pixels, as VASSAL numbers them."""
    return board_hex_layouts(BOARD_DEF)[0]


def box_rect(name: str) -> tuple[int, int, int, int]:
    return kit.box_rect(BOXES, name, BOX_COLS, (BOX_W, BOX_H), BOX_GAP)


def box_slot(name: str, k: int) -> tuple[int, int]:
    """The centre of the k-th counter place of a box (rows of eight under the title)."""
    return kit.box_slot(box_rect(name), k, SLOT_COLS, SLOT_ROWS)


def _traits(c: Counter) -> tuple[list[str], list[str]]:
    """Trait types and states a piece carries beyond its BasicPiece (prototypes expanded)."""
    keys = {"Marker": c.marker, "Side": c.side}
    keys = {k: v for k, v in keys.items() if v}
    if not keys:
        return [], []
    # One Marker trait with several properties (keys and values comma-separated).
    return ["mark;" + join(list(keys), ",")], [join(list(keys.values()), ",")]


def piece_type(c: Counter) -> str:
    types, _ = _traits(c)
    return join([*types, join(["piece", "", "", c.image, c.name], ";")], "\t")


def piece_state(c: Counter, map_name: str, x: int, y: int, gpid: int) -> str:
    _, states = _traits(c)
    return join([*states, join([map_name, str(x), str(y), str(gpid), "0"], ";")], "\t")


def _slot_text(c: Counter) -> str:
    """The slot's AddPiece text, its '/' fields escaped as a save's ("1-1-2/1-7 (47)"): VASSAL's
    PieceSlot cuts an unescaped '/' as the end of the type."""
    basic = join(["piece", "", "", c.image, c.name], ";")
    if c.marker:
        types, states = _traits(c)
        traits, state = join([*types, basic], "\t"), join([*states, "null;0;0;;0"], "\t")
    else:
        traits, state = join([f"prototype;{c.side}", basic], "\t"), join(["", "null;0;0;;0"], "\t")
    return "+/" + join(["null", traits, state], "/")


def tracker_state(turn: int, phase: str) -> str:
    return kit.tracker_state(turn, phase, PHASES)


def build_file(all_counters: list[Counter], gpids: dict[Counter, int]) -> bytes:
    lists = kit.palette_lists(
        (title, [(c.name, gpids[c], _slot_text(c)) for c in members])
        for title, members in (
            ("Axis", [c for c in all_counters if c.side == "Axis" and not c.marker]),
            ("Allied", [c for c in all_counters if c.side == "Allied" and not c.marker]),
            ("Markers", [c for c in all_counters if c.marker]),
        )
    )
    protos = kit.side_prototypes(("Axis", "Allied"))
    lines = [
        *kit.module_open(
            "Kasserine", MODULE_NAME, len(all_counters), MODULE_VERSION, VASSAL_VERSION, ("Axis", "Allied")
        ),
        # One die for the combat results table.
        kit.dice_button_xml("1d6", 1, "Roll one die"),
        *kit.map_xml(MAP, BOARD, IMAGE, kit.hex_grid_xml(GRID)),
        *kit.map_xml(BOX_MAP, BOX_BOARD, BOX_IMAGE, kit.zoned_grid_xml((b, box_rect(b)) for b in BOXES)),
        *kit.module_close(lists, kit.tracker_xml(TRACKER, TURN_LEVEL, PHASE_LEVEL, PHASES), protos),
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")
