#!/usr/bin/env python3
"""Write the Tunisia 1943 example: modules/tunisia-1943/example/.

- Tunisia1943.vmod: a module in VASSAL's real format: the board "Tunisia" (hexes 0101-3020,
  drawn from the pack's terrain.csv, INVENTED and marked so on the board), a map of holding
  boxes (the turn track's "Turn 1"-"Turn 8", Eliminated, Exited), every counter of
  order-of-battle.csv with the layers units.toml reads (OutOfSupply, LossOfZoC, Flipped,
  Sustained), the turn tracker "Game Turn" (Turn, then the ten phases of pack.toml [state]),
  a two-dice button and the global property Campaign;
- campaign-1.vsav, campaign-2.vsav: the set-up of each campaign (tunisia_places.py), the
  module's predefined set-ups, so with no player roster (no seat or password to take);
- one save or log per deliberate fault (tunisia_faults.FAULTS).

Deterministic: running it twice gives the same files.

    python scripts/make_tunisia_example.py [OUT_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import example_kit as kit
import tunisia_module as tm
from example_art import badge_picture, boxes_picture, counter_picture, marker_picture
from example_table import Sheet, Table, game_text
from tunisia_art import board_picture
from tunisia_faults import GAMES
from tunisia_places import moved, setup_places

from vassal_adj import packs
from vassal_adj.codec.obfuscation import Codec

OUT = tm.PACK_DIR / "example"
KEY = 0x3C
DAY = 86_400_000


def metadata(extra: str) -> bytes:
    return kit.metadata(tm.MODULE_VERSION, tm.VASSAL_VERSION, extra)


MODULEDATA = metadata(f"  <description>Example module of vassal-adj</description>\n  <name>{tm.MODULE_NAME}</name>\n")


def terrain(lay):
    return packs.find_pack(str(tm.PACK_DIR)).terrain(lay)


# The set-up saves the module carries as its predefined set-ups (pack assumption setup_saves).
SETUPS = {"Campaign I": "campaign-1.vsav", "Campaign II": "campaign-2.vsav"}


def write_module(out: Path, counters: list[tm.Counter], ground, lay) -> None:
    labels = lay.labels()
    sides = kit.board_sides(ground, lay, ("road", "main-road", "river", "wadi", "crest"))
    names = kit.place_names(ground, lay, {"city", "landmark"})
    kinds = {lab: sorted(ground.terrain(lay.require(lab))) or ["clear"] for lab in labels}
    entries = {
        "buildFile.xml": tm.build_file(counters, SETUPS),
        "moduledata": MODULEDATA,
        "images/" + tm.IMAGE: board_picture(
            (tm.WIDTH, tm.HEIGHT),
            {lab: lay.center(lab) for lab in labels},
            {lab: k[0] for lab, k in kinds.items()},
            sides,
            names,
            tm.DX,
            tm.DY,
        ),
        "images/" + tm.BOX_IMAGE: boxes_picture(tm.BOX_SIZE, [(b, tm.box_rect(b)) for b in tm.BOXES]),
    }
    for layer, (_, _, words) in tm.LAYERS.items():
        entries["images/" + tm.layer_image(layer)] = badge_picture(words, (240, 200, 60))
    for c in counters:
        if c.marker:
            picture = marker_picture(["GAME", "TURN"], tm.SIDE_COLOURS[None])
        else:
            strength, designation = c.name.split(" ", 1)
            if c.em:
                strength, designation = designation.split(" ", 1)[0], "EM " + designation.split("(")[-1].strip(")")
            picture = counter_picture(strength, designation, tm.SIDE_COLOURS[c.side])
        entries["images/" + c.image] = picture
    for file in SETUPS.values():
        entries[file] = (out.parent / file).read_bytes()
    kit.write_zip(out, entries)


def sheet(campaign: str) -> Sheet:
    return Sheet(
        tm.MAP,
        tm.BOARD,
        tm.BOX_MAP,
        tm.BOX_BOARD,
        tm.box_slot,
        tm.piece_type,
        tm.piece_state,
        lambda turn, phase: tm.tracker_state(turn, phase, campaign),
        tm.PHASES,
        tm.PLAYERS,
        tm.DICE,
        {"Campaign": campaign},
    )


def main(out_dir: Path = OUT) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    lay = tm.layout()
    ground = terrain(lay)
    counters = tm.counters()
    setups = {c: setup_places(c, counters, lay, ground) for c in ("I", "II")}
    codec = Codec(obfuscated=True, key=KEY)
    for n, (name, (campaign, turn, phase, changes, layers, steps, description)) in enumerate(GAMES.items()):
        places = moved(setups[campaign], turn, changes)
        table = Table.opening(sheet(campaign), counters, places, lay, kit.FIXED_MS + n * DAY, layers)
        text = game_text(table, steps, turn, phase, name in SETUPS.values())
        savedata = metadata(f"  <description>{description}</description>\n")
        kit.write_game(out_dir / name, text, codec, savedata, MODULEDATA)
    # Last: the module carries the set-up saves just written.
    write_module(out_dir / "Tunisia1943.vmod", counters, ground, lay)


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:2]))
