"""The saves and logs of the Tunisia 1943 example, each with one deliberate fault (the issue's
list): what position each opens on, what is played in it, and where the fault is (`FAULTS`,
which the tests and the pack's README read).

Campaign I, Game-Turn 3 opens on the set-up with three changes made in turns 1-2 (`TURN3`):
CC B of the US 1st Armored has pushed east to Faid (1413), Pz.Rgt 5 of the 21. Panzer has come
up to 1512, two hexes from it, and the EMs of the Hermann Goering and Centauro divisions are
sustained (10; the Axis may sustain three in Campaign I). Everything else is as set up.
"""

from __future__ import annotations

from example_table import Step

CC_B, PZ_RGT_5 = "6-4-9-7 CC B (1 Armd)", "8-6-8-9 Pz.Rgt 5 (4-3) (21.Pz)"
TIGER_1, TIGER_2, EM_334 = "8-7-7-* sPzAbt 501/1", "8-7-7-* sPzAbt 501/2", "EM 2-5 (334.ID)"
GREN_754, PZGR_69, PZJG_90 = "4-5-5-7 Gren 754 (334.ID)", "5-5-8-8 PzGr 69 (10.Pz)", "3-4-6-8 PzJg 90"
TURN3 = {CC_B: "1413", PZ_RGT_5: "1512"}
SUSTAINED = {"EM 2-6 (HG)": frozenset({"Sustained"}), "EM 2-7 (Centauro)": frozenset({"Sustained"})}


def phase_steps(side: str, moves: list[tuple[str, str]]) -> list[Step]:
    return [("move", side, unit, where) for unit, where in moves]


# file -> (campaign, turn, phase, changes to the set-up (name -> hex or box), layers on, steps, description)
GAMES: dict[str, tuple[str, int, str, dict[str, str], dict[str, frozenset[str]], list[Step], str]] = {
    "campaign-1.vsav": ("I", 1, "Axis Sustain", {}, {}, [], "Tunisia 1943: Campaign I set-up (the Axis attacks)"),
    "campaign-2.vsav": ("II", 1, "Allied Sustain", {}, {}, [], "Tunisia 1943: Campaign II set-up (the Allies attack)"),
    "c1-turn2-two-tigers.vsav": (
        "I",
        2,
        "Axis Combat",
        {TIGER_1: "1105"},
        {},
        [],
        "Tunisia 1943: Campaign I, Game-Turn 2, Axis Combat: two Tigers in one hex (deliberate fault)",
    ),
    "c1-turn3-em-destroyed.vsav": (
        "I",
        3,
        "Axis Supply",
        {**TURN3, EM_334: "Turn 4"},
        SUSTAINED,
        [],
        "Tunisia 1943: Campaign I, Game-Turn 3, Axis Supply: the 334. ID's EM destroyed, its units not marked "
        "out of supply (deliberate fault)",
    ),
    "c1-turn3-exploit-unsustained.vlog": (
        "I",
        3,
        "Axis Exploitation",
        TURN3,
        SUSTAINED,
        phase_steps("Axis", [(GREN_754, "1404"), (GREN_754, "1405")]),
        "Tunisia 1943: Campaign I, Game-Turn 3, Axis Exploitation: a unit of an unsustained division moves "
        "(deliberate fault)",
    ),
    "c1-turn3-exploit-into-zoc.vlog": (
        "I",
        3,
        "Axis Exploitation",
        TURN3,
        SUSTAINED,
        phase_steps("Axis", [(PZGR_69, "1613"), (PZGR_69, "1514")]),
        "Tunisia 1943: Campaign I, Game-Turn 3, Axis Exploitation: a move into an enemy zone of control "
        "(deliberate fault)",
    ),
    "c1-turn3-breakthrough-no-roll.vlog": (
        "I",
        3,
        "Axis Movement",
        TURN3,
        SUSTAINED,
        phase_steps("Axis", [(PZ_RGT_5, "1412"), (PZ_RGT_5, "1312")]),
        "Tunisia 1943: Campaign I, Game-Turn 3, Axis Movement: armour crosses a zone of control with no "
        "cohesion roll (deliberate fault)",
    ),
    "c2-turn6-fuel-shortage.vlog": (
        "II",
        6,
        "Axis Movement",
        {},
        {},
        phase_steps("Axis", [(PZJG_90, "2506")]),
        "Tunisia 1943: Campaign II, Game-Turn 6, Axis Movement: an Axis unit moves four MP (deliberate fault)",
    ),
}

# The deliberate faults, one a file. `step` counts a log's LOG steps from 1 (as vassal_adj's
# replay does); `rule` is what a check cites.
FAULTS: list[dict[str, object]] = [
    {
        "fault": "a",
        "file": "c1-turn3-em-destroyed.vsav",
        "phase": "Axis Supply",
        "units": ("4-5-5-7 Gren 754 (334.ID)", "4-5-5-7 Gren 755 (334.ID)", "4-5-5-7 Gren 756 (334.ID)"),
        "hexes": ("1403", "1303", "1304"),
        "rule": "tunisia-1943:6.3",
        "detail": f"{EM_334} waits in the Turn 4 box (destroyed on turn 2: 6.3 'placed on the turn track, two "
        "turns after'); its three regiments stand on the map with no OutOfSupply layer at the Axis supply "
        "check (6.3 'The units of a destroyed EM are automatically and immediately not in supply'; 9.2, 9.3)",
    },
    {
        "fault": "b",
        "file": "c1-turn2-two-tigers.vsav",
        "phase": "Axis Combat",
        "units": (TIGER_1, TIGER_2),
        "hexes": ("1105",),
        "rule": "tunisia-1943:5.1",
        "detail": "both Tigers with 5-6-6-8 Jg HG (HG) and its EM in 1105: 12 'A Tiger counter (and one only) "
        "can stack in addition of the limit of two units per hex' (the stacking rule 5.1, its Tiger pool)",
    },
    {
        "fault": "c",
        "file": "c1-turn3-exploit-unsustained.vlog",
        "phase": "Axis Exploitation",
        "steps": (1, 2),
        "units": (GREN_754,),
        "hexes": ("1403", "1404", "1405"),
        "rule": "tunisia-1943:10",
        "detail": "the 334. Infanterie-Division's EM is not sustained (no Sustained layer; HG and Centauro are) "
        "and it is no Panzerdivision: 10 'These EM and all their units can then, during the exploitation "
        "phase, move'",
    },
    {
        "fault": "d",
        "file": "c1-turn3-exploit-into-zoc.vlog",
        "phase": "Axis Exploitation",
        "steps": (2,),
        "units": (PZGR_69,),
        "hexes": ("1613", "1514"),
        "rule": "tunisia-1943:10",
        "detail": f"a 10. Panzer unit (always sustained) enters 1514, next to {CC_B} in 1413: 10 'No unit can "
        "enter the ZoC of an enemy unit during this phase' (step 1, 1712 -> 1613, is legal)",
    },
    {
        "fault": "e",
        "file": "c1-turn3-breakthrough-no-roll.vlog",
        "phase": "Axis Movement",
        "steps": (2,),
        "units": (PZ_RGT_5,),
        "hexes": ("1412", "1312"),
        "rule": "tunisia-1943:4.3",
        "detail": f"armour enters the zone of control of {CC_B} (1413) at 1412 (step 1, from 1512) and goes on "
        "through it to 1312 (step 2) with no dice roll in between: 4.3 'the inactive player makes a cohesion "
        "test' (only armour crosses a zone, by a breakthrough: 3; legal only if the roll failed or the Allied "
        "player let it pass)",
    },
    {
        "fault": "f",
        "file": "c2-turn6-fuel-shortage.vlog",
        "phase": "Axis Movement",
        "steps": (1,),
        "units": (PZJG_90,),
        "hexes": ("2106", "2506"),
        "rule": "tunisia-1943:Campaign II",
        "detail": "four clear hexes (4 MP) on Game-Turn 6 of Campaign II: 'To the turns 6 and 7, all the units "
        "of player Italio-German are reduced to 3 movement points'",
    },
]
