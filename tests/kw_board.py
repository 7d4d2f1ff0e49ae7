"""The Kesselring's War pack (modules/kesselrings-war) on its example board, for tests that work its
rules from the seed's words (../shared/seeds/004_954644da5565c400.txt) with positions built by hand.

The board is the example's: 40 columns x 34 rows, labels column then row (0101 north-west), odd
columns half a hex lower (the grid terrain.csv is drawn on, on which the Cassino row 2915 ... 3518
of 7.1.1 is one hex row). Counters are the pack's own, by their counter name (order-of-battle.csv),
mapped through its units.toml, so a test also proves that the pack reads them as the rule needs (an
air unit has no zone of control and stacks in the air pool, a Garrison in its own).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from conftest import REPO

from vassal_adj import packs
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.position import named_box
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.mechanisms.movement import PathResult, legal_path
from vassal_adj.rules.mechanisms.movement_rules import movement_rules, zoc_rules
from vassal_adj.rules.mechanisms.zoc import enemy_zoc
from vassal_adj.rules.packs.unitmap import map_units
from vassal_adj.rules.results import Finding

PACK_DIR = REPO / "modules" / "kesselrings-war"
COLUMNS, ROWS = 40, 34
DX, DY, X0, Y0 = 52.0, 60.0, 36, 58
NUMBERING = HexNumbering(
    first="H", sep="", h_type="N", v_type="N", h_leading=1, v_leading=1, h_off=1, v_off=1, stagger=True
)
GRID = HexGridDef(dx=DX, dy=DY, x0=X0, y0=Y0, numbering=NUMBERING)
LAYOUT = HexLayout(GRID, BoardDef("Kesselring", None, X0 * 2 + int(DX * (COLUMNS - 1)), Y0 + int(DY * ROWS), grid=GRID))
LOADED = packs.find_pack(str(PACK_DIR))
PACK = LOADED.pack
TERRAIN = LOADED.terrain(LAYOUT)

# The layer of the example module's counters that shows a reduced unit (units.toml group).
REDUCED = {"Reduced_Active": "true"}


def H(label: str) -> Hex:
    h = LAYOUT.hex_of(label)
    assert h is not None, label
    return h


def unit(name: str, side: str, **props: str) -> Unit:
    """The pack's unit for the counter printed `name` (its side as the module's prototype gives it)."""
    units, unmapped = map_units(
        [Piece(name, name, "Main Map", 0, 0, properties={"Side": side, **props})], LOADED.unitmap
    )
    assert not unmapped, unmapped
    return units[0]


def state(
    where: Mapping[Unit, str],
    turn: int | None = None,
    phase: str | None = None,
    left: Mapping[Unit, str] | None = None,
) -> GameState:
    """Units at hex labels ("0214") or in off-map boxes (any other name, read as the pack's [boxes]);
    `left`: a unit in a box -> the hex a log shows it leaving the map from."""

    def pos(place: str) -> Position:
        return Position(H(place), place) if place.isdigit() else Position(box=place, named=named_box(place, PACK.boxes))

    gone = tuple(Departure(u.id, where[u], H(x), x, turn, phase) for u, x in (left or {}).items())
    return GameState({u.id: u for u in where}, {u.id: pos(p) for u, p in where.items()}, turn, phase, departures=gone)


def run(rule: str, st: GameState, scenario: str | None = None) -> list[Finding]:
    """The findings of the pack's rule `rule` alone on `st`, in `scenario` (a [scenarios] id)."""
    rp = dataclasses.replace(PACK, rules=(PACK.rule(rule),))
    ctx = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=PACK.scenarios[scenario] if scenario else None)
    return list(adjudicate(st, rp, ctx).findings)


def errors(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.severity == "error"]


def outcome(found: list[Finding]) -> str:
    """The last finding of a victory rule: its outcome for the state."""
    return found[-1].message


def move(rule: str, st: GameState, who: Unit, path: list[str]) -> PathResult:
    """`who`'s move along `path` (the named hexes only, in order) under the pack's movement rule `rule`."""
    hexes = [H(x) for x in path]
    return legal_path(
        st,
        TERRAIN,
        who.id,
        hexes[0],
        hexes[-1],
        movement_rules(PACK.rule(rule).params),
        area=set(hexes),
        label=LAYOUT.label_of,
    )


def controlled(st: GameState, label: str, side: str, rule: str = "zoc") -> bool:
    """Whether hex `label` is in a zone of control of `side`'s enemies, as the pack's rule `rule` draws them."""
    return H(label) in enemy_zoc(st, TERRAIN, side, zoc_rules(PACK.rule(rule).params))
