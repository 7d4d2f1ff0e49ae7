"""Logs of the example module written for a test: the Game-Turn 4 opening of the example logs
(scripts/example_logs.py), then the steps a test gives, in the script's own step language
(("move", side, unit, hex or box), ("turn", side, phase)...). Not a test module: a helper."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from conftest import REPO

from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.commands import Node, encode
from vassal_adj.parse.tokens import join
from vassal_adj.savedgame import SavedGame

sys.path.insert(0, str(REPO / "scripts"))
el = importlib.import_module("example_logs")
et = importlib.import_module("example_table")
em = importlib.import_module("example_module")

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = EXAMPLE / "Kasserine.vmod"


def write_log(
    path: Path,
    steps: list[tuple[str, ...]],
    *,
    turn: int = 4,
    phase: str = "Axis Movement",
    moved: dict[str, str] | None = None,
) -> Path:
    """A .vlog at `path` opening on Game-Turn `turn` in `phase` with the example's turn-4
    position (units of `moved` put on other hexes), then `steps`; ("add", side, unit, hex, id)
    adds a new piece `id` like counter `unit` at `hex` (an AddPiece step), later steps may move
    it as `id`."""
    pack = em.read_pack()
    counters = {c.name: c for c in em.counters(pack)}
    places = el.turn4_places(pack)
    places.update({key: ("hex", moved[key[1]]) for key in places if key[1] in (moved or {})})
    table = et.Table.opening(el.SHEET, list(counters.values()), places, em.layout(), el.FIXED_MS)
    opening = table.save_children(turn, phase)
    played = []
    for step in steps:
        if step[0] == "add":
            _, _, unit, where, pid = step
            spot = (em.MAP, *table.lay.center(where))
            state = em.piece_state(counters[unit], spot[0], spot[1], spot[2], 999)
            played.append(et.logged(Node("+/" + join([pid, em.piece_type(counters[unit]), state], "/"))))
            table.ids[pid] = pid
            table.put(pid, spot, where)
        else:
            nodes, phase = et.play(table, [step], turn, phase)
            played += nodes
    SavedGame.new(encode(Node("begin_save", opening + played)), codec=Codec(obfuscated=False)).write(path)
    return path
