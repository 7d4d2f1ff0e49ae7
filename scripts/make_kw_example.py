#!/usr/bin/env python3
"""Write the Kesselring's War example: modules/kesselrings-war/example/.

- KesselringsWar.vmod: a module in VASSAL's real format: the board "Italy" (hexes 0101-4034,
  odd columns half a hex lower, drawn from the pack's terrain.csv, INVENTED and marked so on the
  board), a map of displays (each side's Staging Area, Reinforcement Display, Withdrawn,
  Permanently Eliminated, TRT 1-8 and AP 0-30: pack.toml [boxes]), every counter of
  order-of-battle.csv (ground units with the layer Reduced), the AP markers, the Italian
  Surrender marker and a Fortification, the turn tracker "Game Turn" (Turn, then the phases of
  pack.toml [state]), a one-die button and the global property Scenario;
- scenario-1.vsav, scenario-2.vsav: each scenario's set-up (kw_places.py), also inside the module
  as its predefined set-ups;
- one save or log per deliberate fault and a clean log (kw_faults.GAMES).

Deterministic: running it twice gives the same files.

    python scripts/make_kw_example.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import example_kit as kit
import kw_module as km
from example_art import badge_picture, counter_picture, marker_picture
from example_table import Sheet, Table, game_text
from kw_art import board_picture, displays_picture
from kw_faults import GAMES
from kw_places import moved, reduced, setup_places

from vassal_adj import packs
from vassal_adj.codec.obfuscation import Codec

OUT = km.PACK_DIR / "example"
KEY = 0x4B
DAY = 86_400_000
SETUPS = {"Scenario I": "scenario-1.vsav", "Scenario II": "scenario-2.vsav"}


def metadata(extra: str) -> bytes:
    return kit.metadata(km.MODULE_VERSION, km.VASSAL_VERSION, extra)


MODULEDATA = metadata(f"  <description>Example module of vassal-adj</description>\n  <name>{km.MODULE_NAME}</name>\n")


def write_module(out: Path, counters: list[km.Counter], lay) -> None:
    ground = packs.find_pack(str(km.PACK_DIR)).terrain(lay)
    labels = lay.labels()
    sides = kit.board_sides(ground, lay, ("road", "river", "strait", "all-sea"))
    names = kit.place_names(ground, lay, {"city", "port", "airfield", "landmark"})
    kinds = {lab: sorted(ground.terrain(lay.require(lab))) or ["sea"] for lab in labels}
    entries = {
        "buildFile.xml": km.build_file(counters, SETUPS),
        "moduledata": MODULEDATA,
        "images/" + km.IMAGE: board_picture(
            (km.WIDTH, km.HEIGHT),
            {lab: lay.center(lab) for lab in labels},
            {lab: k[0] for lab, k in kinds.items()},
            sides,
            names,
            km.DX,
            km.DY,
        ),
        "images/" + km.BOX_IMAGE: displays_picture(km.BOX_SIZE, [(b, r) for b, (r, _) in km.BOXES.items()]),
        "images/" + km.layer_image("Reduced"): badge_picture(["REDUCED"], (240, 200, 60)),
    }
    for c in counters:
        if c.marker:
            picture = marker_picture(c.name.upper().split()[:3], km.SIDE_COLOURS[None])
        else:
            designation, strength = c.name.split(" [")[0], c.name.split("] ")[1].split(" ")[0]
            picture = counter_picture(strength, designation, km.SIDE_COLOURS[c.side])
        entries["images/" + c.image] = picture
    for file in SETUPS.values():
        entries[file] = (out.parent / file).read_bytes()
    kit.write_zip(out, entries)


def sheet(scenario: str) -> Sheet:
    return Sheet(
        km.MAP,
        km.BOARD,
        km.BOX_MAP,
        km.BOX_BOARD,
        km.box_slot,
        km.piece_type,
        km.piece_state,
        km.tracker_state,
        km.PHASES,
        km.PLAYERS,
        km.DICE,
        {"Scenario": scenario},
    )


def main(out_dir: Path = OUT) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    lay = km.layout()
    counters = km.counters()
    setups = {s: setup_places(s, counters) for s in ("I", "II")}
    codec = Codec(obfuscated=True, key=KEY)
    for n, (name, (scenario, turn, phase, changes, steps, description)) in enumerate(GAMES.items()):
        places = moved(setups[scenario], changes)
        table = Table.opening(sheet(scenario), counters, places, lay, kit.FIXED_MS + n * DAY, reduced(scenario))
        text = game_text(table, steps, turn, phase, name in SETUPS.values())
        savedata = metadata(f"  <description>{description}</description>\n")
        kit.write_game(out_dir / name, text, codec, savedata, MODULEDATA)
    # Last: the module carries the set-up saves just written.
    write_module(out_dir / "KesselringsWar.vmod", counters, lay)


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:2]))
