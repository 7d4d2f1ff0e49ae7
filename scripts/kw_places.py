"""Where every counter of the Kesselring's War example stands at each scenario's set-up (27.1,
27.2), and the positions later in the game that the fault saves and logs open on.

order-of-battle.csv says where each scenario puts a counter: a Staging Area, "TRT" (the box of
its arrival GT on its side's Turn Record Track), "RD" (the Reinforcement Display), "W"
(Withdrawn), or a region; the hex in the region is this file's choice (`SC1`, `SC2`), INVENTED where
the seed names only the region. Every set-up unit on the map stands with a Garrison (12.3 "A unit
in the same hex as a Garrison is always In Supply"), at most three mobile units a hex (10.1).
Garrisons the set-up does not place wait in the Reinforcement Display (27.2 "Undeployed
garrisons are placed in the Reinforcement Display", read for Scenario I too).
"""

from __future__ import annotations

from collections.abc import Mapping

from example_table import Key, Place
from kw_module import Counter

PALERMO, CATANIA, MESSINA, SIRACUSA, GERBINI = "1326", "1929", "2027", "1931", "1829"
CAGLIARI, REGGIO, SALERNO, NAPOLI, ROMA = "1609", "2028", "2919", "2917", "3112"

# 27.1: sixteen Axis Garrisons on cities, ports and airfields of mainland Italy, Sicily and Sardinia
# (and San Benedetto): first the twelve Axis supply sources of the map (12.4: airfields, Roma, San
# Benedetto), then four more (the map has no more sources: these four are out of supply by the
# pack's reading, assumption loc_readings); the Germans (at most four in Sicily and Sardinia) and
# the Italians with them.
SC1 = {
    **{
        f"Garrison {n} [AX garrison] 0-2 *": h
        for n, h in enumerate(
            [PALERMO, CATANIA, "1127", GERBINI, "1630", CAGLIARI, "1508", ROMA, "3714", NAPOLI, "3321", "3007"]
            + [MESSINA, "1303", SIRACUSA, "1531"],
            start=1,
        )
    },
    "15 PzGr [GE panzergrenadier XX] 6-5-5 *": GERBINI,
    "HG [GE armor XX] 7-5-5 *": CATANIA,
    "90 PzGr [GE panzergrenadier XX] 6-5-5 *": CAGLIARI,
    "3 PzGr [GE panzergrenadier XX] 6-5-5 *": ROMA,
    "29 PzGr [GE panzergrenadier XX] 6-5-5 *": "3714",
    "16 Pz [GE armor XX] 7-5-5 *": NAPOLI,
    "A/5 Flak [GE flak X] 2-3-3 *": NAPOLI,
    "26 Pz [GE armor XX] 7-5-5 *": "3321",
    "4 Liv [IT infantry XX] 3-4-4 *": PALERMO,
    "Bers [IT infantry X] 2-2-5 *": PALERMO,
    "26 Ast [IT infantry XX] 2-3-4 *": CATANIA,
    "28 Aos [IT infantry XX] 2-3-4 *": "1630",
    "54 Nap [IT infantry XX] 2-3-4 *": "1630",
    "MG12 [IT armor X] 2-1-6 *": "1127",
    "MG16 [IT armor X] 2-1-6 *": "1531",
    "30 Sab [IT infantry XX] 2-3-4 *": CAGLIARI,
    "31 Cal [IT infantry XX] 2-3-4 *": "1508",
    "47 [IT infantry XX] 2-3-4 *": "1303",
    "Fortification": MESSINA,  # 27.1 "Fortifications: Messina (hex 2027)"
}

# 27.2 (GT 3): ten Axis Garrisons in mainland Italy (the five supply sources there first), the
# Germans with them; five Allied Garrisons on the five Sicilian ports (12.4 "Allies: A Garrison unit
# in any port hex") and one at Cagliari, the Allied units of Sicily with them or a hex from one.
SC2 = {
    **{
        f"Garrison {n} [AX garrison] 0-2 *": h
        for n, h in enumerate([ROMA, "3714", NAPOLI, "3321", "2913", "2916", SALERNO, REGGIO, "3812", "3007"], start=1)
    },
    "29 PzGr [GE panzergrenadier XX] 6-5-5 *": REGGIO,
    "26 Pz [GE armor XX] 7-5-5 *": SALERNO,
    "HG [GE armor XX] 7-5-5 *": SALERNO,
    "16 Pz [GE armor XX] 7-5-5 *": NAPOLI,
    "3 PzGr [GE panzergrenadier XX] 6-5-5 *": NAPOLI,
    "15 PzGr [GE panzergrenadier XX] 6-5-5 *": "3321",
    "1 FJ [GE airborne XX] 5-6-4 *": ROMA,
    "2 FJ [GE airborne XX] 5-6-4 GT2": "2916",
    "A/5 Flak [GE flak X] 2-3-3 *": "2913",
    "B/5 Flak [GE flak X] 2-3-3 GT2": "3007",
    **{
        f"Garrison A{n} [AL garrison] 0-2 *": h
        for n, h in enumerate([MESSINA, CATANIA, PALERMO, SIRACUSA, "1531", CAGLIARI], start=1)
    },
    "5 [UK infantry XX] 5-5-4 *": MESSINA,
    "78 [UK infantry XX] 5-5-4 *": MESSINA,
    "4 Armd [UK armor X] 3-2-6 *": MESSINA,
    "50 [UK infantry XX] 5-5-4 *": CATANIA,
    "51 [UK infantry XX] 5-5-4 *": CATANIA,
    "1 Cdn [CA infantry XX] 5-5-4 *": CATANIA,
    "8 Ind [IN infantry XX] 5-5-4 GT2": SIRACUSA,
    "Gds [UK infantry X] 2-2-4 *": SIRACUSA,
    "23 Armd [UK armor X] 3-2-6 *": SIRACUSA,
    "1 Cdn Armd [CA armor X] 3-2-6 *": GERBINI,
    "1 Abn [UK airborne XX] 4-4-4 *": GERBINI,
    "GTM [FR mountain X] 2-3-4 *": GERBINI,
    "3 [US infantry XX] 6-5-4 *": PALERMO,
    "9 [US infantry XX] 6-5-4 *": PALERMO,
    "45 [US infantry XX] 6-5-4 *": PALERMO,
    "1 AG [US armor X] 3-2-6 *": "1930",
    "82 Abn [US airborne XX] 4-4-4 *": "1930",
    "Fortification": REGGIO,  # 27.2 "Fortifications: Reggio (hex 2028)"
    "Italian Surrender": "Axis TRT 3",  # 27.2 "Italian Surrender has occurred" (September 1943, GT 3)
}
# 27.2 "TRT: select two German air units and recycle them for GT 4"; "Select one British and one US
# air unit and recycle them for GT 4".
SC2_RECYCLED = {"Sg 4 [GE tac] 3-2 r6 *": "Axis TRT 4", "Zg 1 [GE tac] 2-3 r8 GT2": "Axis TRT 4"}
SC2_RECYCLED |= {"III/DAF [UK tac] 3-3 r8 *": "Allied TRT 4", "III/12AF [US tac] 3-3 r8 *": "Allied TRT 4"}
# 27.2 "HG (reduced)", "50th (reduced), 51st (reduced)": the Reduced layer shown.
SC2_REDUCED = ("HG [GE armor XX] 7-5-5 *", "50 [UK infantry XX] 5-5-4 *", "51 [UK infantry XX] 5-5-4 *")
# Starting AP (27.1 "8 plus one die roll", "14 plus one die roll": the rolls 4 and 3; 27.2 "2", "6").
AP = {"I": {"Axis": 12, "Allied": 17}, "II": {"Axis": 2, "Allied": 6}}


def _where(c: Counter, scenario: str, hexes: Mapping[str, str]) -> str | None:
    """A counter's set-up place: a hex label or a box name, None if not in the scenario's play."""
    if c.name in hexes:
        return hexes[c.name]
    given = c.sc1 if scenario == "I" else c.sc2
    side = c.side or ""
    if given in ("Axis Staging Area", "Allied Staging Area"):
        return given
    if given == "TRT":
        return f"{side} TRT {c.arrival}"
    if given == "W":
        return f"{side} Withdrawn"
    if given == "RD" or c.cls == "garrison":
        return f"{side} Reinforcement Display"
    if given in ("", "-"):
        return None
    raise ValueError(f"{c.name}: set up in {given!r}, but SC1/SC2 give it no hex")


def setup_places(scenario: str, counters: list[Counter]) -> dict[Key, Place]:
    """(side, name) -> place for every counter of the scenario's set-up, the markers included."""
    hexes = {"I": SC1, "II": SC2 | SC2_RECYCLED}[scenario]
    out: dict[Key, Place] = {}
    for c in counters:
        where = _where(c, scenario, hexes)
        if where is not None:
            out[(c.side, c.name)] = ("hex", where) if where[:1].isdigit() else ("box", where)
    for side, ap in AP[scenario].items():
        out[(None, f"{side} Action Points")] = ("box", f"{side} AP {ap}")
    return out


def reduced(scenario: str) -> dict[str, frozenset[str]]:
    """The counters set up on their reduced side: name -> the layers shown."""
    return {name: frozenset({"Reduced"}) for name in (SC2_REDUCED if scenario == "II" else ())}


def moved(places: Mapping[Key, Place], changes: Mapping[str, str]) -> dict[Key, Place]:
    """`places` with the counters of `changes` (name -> hex or box) put elsewhere."""
    out = dict(places)
    by_name = {name: side for side, name in places}
    for name, where in changes.items():
        out[(by_name[name], name)] = ("hex", where) if where[:1].isdigit() else ("box", where)
    return out
