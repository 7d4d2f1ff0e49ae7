"""Where every counter of the Tunisia 1943 example stands: the set-up of each campaign and the
positions the fault saves and logs open on.

The seed prints no set-up ("see setup"): these are INVENTED, loosely after the historical
fronts (pack.toml [assumptions.order_of_battle]). Each side keeps to its own part of the map
(`ZONES`), two hexes or more from the enemy, so that no unit starts in an enemy zone of
control; each division is deployed round its anchor hex, one combat unit a hex (Campaign I:
"the Allied stacking is limited to one unit per hex during the first two turns"), its EM with
its first unit. The Tigers: "At least one Tiger counter must begin with a unit of the 10.
Panzer. The other will be stacked with any other unit ... on the West front" (Campaign I, II):
the first with Pz.Rgt 7, the second with the first unit of the Hermann Goering division, on
the West front (pack.toml [assumptions.west_front]). The second counter of a 4-step unit
(0.1: "used alternately (and not simultaneously)") stays off the map, in the palette.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from example_table import Key, Place
from tunisia_module import Counter

from vassal_adj.model.geometry.hexes import distance
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.terrain import TerrainMap


def _cr(label: str) -> tuple[int, int]:
    return int(label[:2]), int(label[2:])


# Each side's part of the map, by campaign: (side, column, row) -> may deploy there.
ZONES: dict[str, Callable[[str, int, int], bool]] = {
    "I": lambda side, c, r: (c >= 11 if r <= 8 else c >= 15) if side == "Axis" else (c <= 8 if r <= 9 else c <= 11),
    "II": lambda side, c, r: (c >= 12 if r <= 8 else c >= 17) if side == "Axis" else (c <= 9 if r <= 9 else c <= 14),
}

# Anchors: a division (its code) or a non-divisional unit (its name) -> the hex it deploys round.
ANCHORS = {
    "I": {
        "10.Pz": "1812",
        "21.Pz": "1716",
        "HG": "1105",
        "334.ID": "1403",
        "Centauro": "1818",
        "Superga": "2008",
        "Spezia": "2119",
        "Trieste": "2220",
        "5-6-5-9 FJR 5": "1602",
        "3-4-6-8 PzJg 90": "2106",
        "2-3-5-5 50 Brig": "2417",
        "1 Armd": "1113",
        "34 ID": "1010",
        "1 ID": "0917",
        "6 Armd": "0709",
        "78 ID": "0705",
        "46 ID": "0503",
        "DMC": "0913",
        "DMM": "1016",
        "3-4-7-7 601 TD": "1114",
        "2-2-8-8 1 Ranger": "0818",
        "2-3-5-6 CFA": "0404",
    },
    "II": {
        "10.Pz": "1810",
        "21.Pz": "1914",
        "15.Pz": "2017",
        "HG": "1205",
        "334.ID": "1403",
        "Centauro": "1816",
        "Superga": "2008",
        "Spezia": "2119",
        "Trieste": "2219",
        "5-6-5-9 FJR 5": "1502",
        "3-4-6-8 PzJg 90": "2106",
        "2-3-5-5 50 Brig": "2412",
        "1 Armd": "1212",
        "34 ID": "0807",
        "1 ID": "1017",
        "9 ID": "0904",
        "6 Armd": "0709",
        "78 ID": "0805",
        "46 ID": "0603",
        "DMC": "1111",
        "DMM": "1313",
        "7 Armd": "1318",
        "50 ID": "1219",
        "51 ID": "1416",
        "2 NZ": "1419",
        "4 Ind": "1315",
        "3-4-7-7 601 TD": "1015",
        "2-2-8-8 1 Ranger": "0917",
        "2-3-5-6 CFA": "0502",
        "2-2-8-7 L Force Col": "1120",
        "2-3-5-7 L Force RMT": "1020",
        "6-5-8-8 8 Armd Bde": "1319",
    },
}
# Reinforcements (11: "the arrival date of some reinforcements", no schedule printed; invented):
# a division or unit -> the turn-track box it waits in. Campaign I: the VIII Army comes up from
# Libya; Campaign II: the 4th Division and 25th Tank Brigade come for the last push.
REINFORCEMENTS = {
    "I": {
        "7 Armd": "Turn 5",
        "51 ID": "Turn 5",
        "2-2-8-7 L Force Col": "Turn 5",
        "2-3-5-7 L Force RMT": "Turn 5",
        "50 ID": "Turn 6",
        "2 NZ": "Turn 6",
        "6-5-8-8 8 Armd Bde": "Turn 6",
    },
    "II": {"4 ID": "Turn 7", "6-6-6-8 25 Tk Bde": "Turn 7"},
}
TIGERS = {"8-7-7-* sPzAbt 501/1": "9-6-8-9 Pz.Rgt 7 (4-3) (10.Pz)", "8-7-7-* sPzAbt 501/2": "5-6-6-8 Jg HG (HG)"}


def in_play(c: Counter, campaign: str) -> bool:
    """A counter of the campaign that starts in play: not the second counter of a 4-step unit."""
    return c.serves(campaign) and not c.marker and "(2-1)" not in c.name


def setup_places(campaign: str, counters: list[Counter], lay: HexLayout, terrain: TerrainMap) -> dict[Key, Place]:
    """(side, name) -> place for every counter in play at the campaign's set-up, and the turn marker."""
    zone, anchors, boxes = ZONES[campaign], ANCHORS[campaign], REINFORCEMENTS[campaign]
    playing = [c for c in counters if in_play(c, campaign) and c.name not in TIGERS]
    groups: dict[str, list[Counter]] = {}
    for c in playing:
        groups.setdefault(c.division or c.name, []).append(c)
    taken: set[str] = set()
    out: dict[Key, Place] = {}
    for key, members in groups.items():
        if key in boxes:
            out.update({(c.side, c.name): ("box", boxes[key]) for c in members})
            continue
        side, at = members[0].side or "", lay.require(anchors[key])
        free = sorted(
            (distance(at, lay.require(lab)), lab)
            for lab in lay.labels()
            if lab not in taken and zone(side, *_cr(lab)) and "impassable" not in terrain.terrain(lay.require(lab))
        )
        units = [c for c in members if not c.em]
        for c, (_, lab) in zip(units, free, strict=False):
            out[(c.side, c.name)] = ("hex", lab)
            taken.add(lab)
        for c in members:
            if c.em:
                out[(c.side, c.name)] = out[(units[0].side, units[0].name)]
    for tiger, host in TIGERS.items():
        out[("Axis", tiger)] = out[("Axis", host)]
    out[(None, "Game Turn")] = ("box", "Turn 1")
    return out


def moved(places: Mapping[Key, Place], turn: int, changes: Mapping[str, str]) -> dict[Key, Place]:
    """`places` on turn `turn` (the marker in its box), the counters of `changes` (name -> hex or
    box) put elsewhere."""
    out = dict(places)
    by_name = {name: side for side, name in places}
    for name, where in changes.items():
        out[(by_name[name], name)] = ("hex", where) if where[:1].isdigit() else ("box", where)
    out[(None, "Game Turn")] = ("box", f"Turn {turn}")
    return out
