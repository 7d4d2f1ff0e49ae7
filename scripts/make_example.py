#!/usr/bin/env python3
"""Write the Kasserine example: modules/kasserine/example/ and modules/kasserine/terrain.csv.

- terrain.csv: terrain INVENTED for the example (the seed has no map), see example_terrain.py;
- Kasserine.vmod: a module in VASSAL's real format with the board "Kasserine" (hexes
  0101-3926 numbered as the rulebook prints them, drawn with that terrain), a map of holding
  boxes (turn boxes, conditional reinforcements, eliminated, exited, withdrawal markers), all
  96 counters of pack.toml's order of battle plus three markers, and the turn tracker;
- Kasserine-terrain.vmod and terrain-names.toml: the same module carrying terrain.csv as the
  Terrain extension stores it, and the names table for `terrain import` (example_terrain_module.py);
- setup.vsav: the Allied initial deployment, every reinforcement in its box, Turn 1;
- turn3-faults.vsav: Game-Turn 3, Allied Movement, with the deliberate faults of
  example_saves.FAULTS and nothing else wrong;
- turn4-axis.vlog, turn4-restart.vlog, turn4-wrong-start.vlog: logs of Game-Turn 4 with the
  deliberate faults of example_logs.LOG_FAULTS (see example_logs.py).

Saves are written through `SavedGame.write`. Everything is deterministic: running it twice
gives the same files.

    python scripts/make_example.py [OUT_DIR [TERRAIN_CSV]]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import example_kit as kit
import example_logs as el
import example_module as em
import example_saves as es
import example_terrain as et
import example_terrain_module as etm
from example_art import board_picture, boxes_picture, counter_picture, marker_picture
from example_check import faults

from vassal_adj.codec.obfuscation import Codec

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "modules" / "kasserine" / "example"
TERRAIN = ROOT / "modules" / "kasserine" / "terrain.csv"
KEY = 0x5A
SAVES = {
    "setup.vsav": (1, "Axis Movement", "Kasserine: the Allied initial deployment and every reinforcement in its box"),
    "turn3-faults.vsav": (
        3,
        "Allied Movement",
        "Kasserine: Game-Turn 3 with deliberate faults (overstack, unsupplied unit, panzer in rough)",
    ),
}


def metadata(extra: str) -> bytes:
    return kit.metadata(em.MODULE_VERSION, em.VASSAL_VERSION, extra)


MODULEDATA = metadata(f"  <description>Example module of vassal-adj</description>\n  <name>{em.MODULE_NAME}</name>\n")


def write_module(out: Path, counters: list[em.Counter], terrain, lay) -> None:
    gpids = {c: n for n, c in enumerate(counters, start=1)}
    labels = lay.labels()
    entries = {
        "buildFile.xml": em.build_file(counters, gpids),
        "moduledata": MODULEDATA,
        "images/" + em.IMAGE: board_picture(
            (em.WIDTH, em.HEIGHT),
            {lab: lay.center(lab) for lab in labels},
            {lab: set(terrain.terrain(lay.require(lab))) for lab in labels},
            kit.board_sides(terrain, lay, ("road", "trail", "stream", "bridge")),
            et.TOWNS,
            et.LANDMARKS,
            em.DX,
            em.DY,
        ),
        "images/" + em.BOX_IMAGE: boxes_picture(em.BOX_SIZE, [(b, em.box_rect(b)) for b in em.BOXES]),
    }
    for c in counters:
        if c.marker == "Withdrawal":
            picture = marker_picture([c.side, "WITH-", "DRAWAL"], em.SIDE_COLOURS[c.side])
        elif c.marker:
            picture = marker_picture(["GAME", "TURN"], em.SIDE_COLOURS[None])
        else:
            strength, designation = c.name.split("(", 1)
            picture = counter_picture(strength.strip(), designation.strip(")"), em.SIDE_COLOURS[c.side])
        entries["images/" + c.image] = picture
    kit.write_zip(out, entries)


def _units_on_map(places: dict) -> dict[tuple[str, str], str]:
    return {key: where for key, (kind, where) in places.items() if kind == "hex"}


def main(out_dir: Path = OUT, terrain_path: Path = TERRAIN) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    lay = em.layout()
    text = et.terrain_csv(lay)
    terrain_path.write_text(text, encoding="utf-8")
    terrain = et.read(lay, text, str(terrain_path))
    pack = em.read_pack()
    counters = em.counters(pack)
    write_module(out_dir / "Kasserine.vmod", counters, terrain, lay)
    etm.write(
        out_dir / "Kasserine.vmod",
        out_dir / "Kasserine-terrain.vmod",
        out_dir / "terrain-names.toml",
        em.BOARD,
        terrain,
        lay,
    )
    rough = {lab for lab in lay.labels() if "rough" in terrain.terrain(lay.require(lab))}
    places = {"setup.vsav": es.setup_places(pack, lay, rough), "turn3-faults.vsav": es.turn3_places(pack)}
    # The saves are what they claim: the set-up breaks no rule checked here, the turn-3
    # position breaks exactly the rules FAULTS lists.
    assert faults(_units_on_map(places["setup.vsav"]), terrain, lay) == []
    found = faults(_units_on_map(places["turn3-faults.vsav"]), terrain, lay)
    assert found == [f[:3] for f in es.FAULTS], found
    for name, (turn, phase, description) in SAVES.items():
        assert set(places[name]) == {(c.side, c.name) for c in counters}, name
        text = es.save_text(counters, places[name], lay, turn, phase)
        savedata = metadata(f"  <description>{description}</description>\n")
        kit.write_game(out_dir / name, text, Codec(obfuscated=True, key=KEY), savedata, MODULEDATA)
    el.write_logs(
        out_dir,
        counters,
        pack,
        lay,
        Codec(obfuscated=True, key=KEY),
        lambda description: metadata(f"  <description>{description}</description>\n"),
        MODULEDATA,
    )


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:3]]
    main(*args)
