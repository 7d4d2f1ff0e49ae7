"""The real VASSAL (the oracle) makes each palette piece of the example modules with its full name.

A PieceSlot's text is an AddPiece command ("+/null/<type>/<state>") that VASSAL decodes when a
piece is dragged from the palette; an unescaped '/' inside a name ends the type there, so the
piece would be called "5-3-12 (2" instead of "5-3-12 (2/7)" (the Kasserine and Tunisia 1943
generators once wrote it so; lint's traits.bad_fields found it). Each slot whose name holds '/'
is put, text verbatim, into a save, and VASSAL must load it and name every piece as the slot does.

Skipped when the oracle is not set up, unless REQUIRE_ORACLE=1 (as in CI).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from conftest import REPO
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.codec.obfuscation import Codec, encode_saved_game

MODULES = {
    "Kasserine.vmod": (REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod", 67),
    "Tunisia1943.vmod": (REPO / "modules" / "tunisia-1943" / "example" / "Tunisia1943.vmod", 2),
    "KesselringsWar.vmod": (REPO / "modules" / "kesselrings-war" / "example" / "KesselringsWar.vmod", None),
}


def _slots_save(module: Path, out: Path) -> dict[str, str]:
    """A save of one piece per slot whose name holds '/', each the slot's own text with an id;
    returns id -> the slot's name."""
    slots = [s for s in vassal_adj.load_module(module).piece_slots if "/" in s.entry_name]
    names, parts = {}, ["begin_save", ""]
    for n, slot in enumerate(slots, start=1):
        assert slot.text.startswith("+/null/"), slot.text[:20]
        parts.append(f"+/{n}/" + slot.text.removeprefix("+/null/"))
        names[str(n)] = slot.entry_name
    parts.append("end_save")
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("savedGame", encode_saved_game("\x1b".join(parts), Codec(obfuscated=True, key=0x2A)))
    return names


@pytest.mark.parametrize("name", MODULES)
def test_vassal_names_each_palette_piece_with_a_slash_as_its_slot(name: str, tmp_path: Path) -> None:
    module, count = MODULES[name]
    names = _slots_save(module, tmp_path / "slots.vsav")
    assert names and (count is None or len(names) == count)
    vassal = {p["id"]: p["name"] for p in oracle_pieces(module, tmp_path / "slots.vsav")["result"]["pieces"]}
    assert vassal == names
