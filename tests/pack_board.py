"""A rule pack of modules/ on its example board, for tests that work its rules from the seed's words
with positions built by hand (tests/tunisia_board.py, tests/kw_board.py). Not a test module: a helper.

`PackBoard` loads the pack and lays out its board (columns then rows, labels column then row from
0101, `stagger`: odd columns half a hex lower); counters are the pack's own, by printed name, mapped
through its units.toml, so a test also proves that the pack reads them as the rule needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

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

DX, DY, X0 = 52.0, 60.0, 36


class PackBoard:
    def __init__(self, pack_dir: Path, board: str, columns: int, rows: int, y0: int, stagger: bool) -> None:
        numbering = HexNumbering(
            first="H", sep="", h_type="N", v_type="N", h_leading=1, v_leading=1, h_off=1, v_off=1, stagger=stagger
        )
        grid = HexGridDef(dx=DX, dy=DY, x0=X0, y0=y0, numbering=numbering)
        size = (X0 * 2 + int(DX * (columns - 1)), y0 + int(DY * rows))
        self.layout = HexLayout(grid, BoardDef(board, None, *size, grid=grid))
        self.loaded = packs.find_pack(str(pack_dir))
        self.pack = self.loaded.pack
        self.terrain = self.loaded.terrain(self.layout)

    def H(self, label: str) -> Hex:
        h = self.layout.hex_of(label)
        assert h is not None, label
        return h

    def unit(self, name: str, side: str, **props: str) -> Unit:
        """The pack's unit for the counter printed `name` (its side as the module's prototype gives it)."""
        units, unmapped = map_units(
            [Piece(name, name, "Main Map", 0, 0, properties={"Side": side, **props})], self.loaded.unitmap
        )
        assert not unmapped, unmapped
        return units[0]

    def state(
        self,
        where: Mapping[Unit, str],
        turn: int | None = None,
        phase: str | None = None,
        left: Mapping[Unit, str] | None = None,
    ) -> GameState:
        """Units at hex labels ("0214") or in off-map boxes (any other name, read as the pack's [boxes]);
        `left`: a unit in a box -> the hex a log shows it leaving the map from."""

        def pos(place: str) -> Position:
            if place.isdigit():
                return Position(self.H(place), place)
            return Position(box=place, named=named_box(place, self.pack.boxes))

        gone = tuple(Departure(u.id, where[u], self.H(x), x, turn, phase) for u, x in (left or {}).items())
        return GameState(
            {u.id: u for u in where}, {u.id: pos(p) for u, p in where.items()}, turn, phase, departures=gone
        )

    def run(self, rule: str, st: GameState, scenario: str | None = None) -> list[Finding]:
        """The findings of the pack's rule `rule` alone on `st`, in `scenario` (a [scenarios] id)."""
        rp = dataclasses.replace(self.pack, rules=(self.pack.rule(rule),))
        sc = self.pack.scenarios[scenario] if scenario else None
        return list(adjudicate(st, rp, RuleContext(self.terrain, self.layout, self.pack.id, scenario=sc)).findings)

    def move(self, rule: str, st: GameState, who: Unit, path: list[str]) -> PathResult:
        """`who`'s move along `path` (the named hexes only, in order) under the pack's movement rule `rule`."""
        hexes = [self.H(x) for x in path]
        rules = movement_rules(self.pack.rule(rule).params)
        return legal_path(
            st, self.terrain, who.id, hexes[0], hexes[-1], rules, area=set(hexes), label=self.layout.label_of
        )

    def controlled(self, st: GameState, label: str, side: str, rule: str = "zoc") -> bool:
        """Whether hex `label` is in a zone of control of `side`'s enemies, as the pack's rule `rule` draws them."""
        return self.H(label) in enemy_zoc(st, self.terrain, side, zoc_rules(self.pack.rule(rule).params))


def errors(found: list[Finding]) -> list[str]:
    return [f.message for f in found if f.severity == "error"]


def outcome(found: list[Finding]) -> str:
    """The last finding of a victory rule: its outcome for the state."""
    return found[-1].message
