"""The saves and logs of the Kesselring's War example: each scenario's set-up, one deliberate fault
a file (the issue's list), and one clean log with a whole Command phase and several actions, all
to the example's log protocol (pack README "Example"): an action opens when a side drags its own
AP marker down by the action's cost; a pass is the chat line "<Side> passes".

Scenario II, Game-Turn 4 opens on the set-up with what GT 3 changed (`TURN4`): the GT 3
reinforcements (24 Pz, the CVE) moved to the Reinforcement Displays (7.2), and the AP tracks at 3
(Axis) and 4 (Allies) after the turn's actions. `TURN4_ACTION` is the same position once the
Withdrawal (29.0: 9th US, 50th and 51st UK, 2 FJ, Hube) and Reinforcement Segments of GT 4 are
done (the air units recycled to GT 4 in the Reinforcement Displays).
"""

from __future__ import annotations

from example_table import Step

# Counters by the names the steps use.
A_US_45, A_US_3, A_AG1 = "45 [US infantry XX] 6-5-4 *", "3 [US infantry XX] 6-5-4 *", "1 AG [US armor X] 3-2-6 *"
AMPHIB_3 = "Amphib 3 [US amphibious] 0-0 *"
UK_5, UK_78, UK_46, UK_56 = (
    f"{n} [UK infantry XX] 5-5-4 {c}" for n, c in (("5", "*"), ("78", "*"), ("46", "GT3"), ("56", "GT3"))
)
UK_7ARMD, US_9, GTM = "7 Armd [UK armor XX] 7-5-6 GT3", "9 [US infantry XX] 6-5-4 *", "GTM [FR mountain X] 2-3-4 *"
PZ_24, SG_4, PZGR_29 = (
    "24 Pz [GE armor XX] 7-5-5 GT3",
    "Sg 4 [GE tac] 3-2 r6 *",
    "29 PzGr [GE panzergrenadier XX] 6-5-5 *",
)
AIR_3 = ("Jg 53 [GE tac] 3-3 r8 *", "Kg 26 [GE saf] 4-2 r12 *", SG_4)
IND_8, GARRISON_A6 = "8 Ind [IN infantry XX] 5-5-4 GT2", "Garrison A6 [AL garrison] 0-2 *"
AXIS_AP, ALLIED_AP = "Axis Action Points", "Allied Action Points"
GT4_OUT = {  # 29.0 on GT 4 (assumption withdrawals_chart)
    US_9: "Allied Withdrawn",
    "50 [UK infantry XX] 5-5-4 *": "Allied Withdrawn",
    "51 [UK infantry XX] 5-5-4 *": "Allied Withdrawn",
    "2 FJ [GE airborne XX] 5-6-4 GT2": "Axis Withdrawn",
    "Hube [GE ssu] 1-1 *": "Axis Withdrawn",
}
GT4_IN = {  # the air units 27.2 recycles to GT 4 (kw_places.SC2_RECYCLED)
    SG_4: "Axis Reinforcement Display",
    "Zg 1 [GE tac] 2-3 r8 GT2": "Axis Reinforcement Display",
    "III/DAF [UK tac] 3-3 r8 *": "Allied Reinforcement Display",
    "III/12AF [US tac] 3-3 r8 *": "Allied Reinforcement Display",
}
TURN4 = {
    PZ_24: "Axis Reinforcement Display",
    "CVE [UK cve] 2-2 rU GT3": "Allied Reinforcement Display",
    AXIS_AP: "Axis AP 3",
    ALLIED_AP: "Allied AP 4",
}
TURN4_ACTION = TURN4 | GT4_OUT | GT4_IN | {AXIS_AP: "Axis AP 13", ALLIED_AP: "Allied AP 22"}
# Scenario II, GT 3, after its AP Segment (27.2 "Starting AP ... plus a normal AP check", the
# Staging Area not counted): Axis 2 + 2 (die) + 4 garrisoned Objectives (Roma, San Benedetto, Napoli,
# Foggia) = 8; Allies 6 + 3 (die) + 4 (Messina, Catania, Palermo, Cagliari) = 13.
TURN3_ACTION = {AXIS_AP: "Axis AP 8", ALLIED_AP: "Allied AP 13"}


def moves(side: str, units: list[str], dest: str) -> list[Step]:
    return [("move", side, unit, dest) for unit in units]


def _turn(side: str, phase: str) -> Step:
    return ("turn", side, phase)


# The clean log: Scenario II, GT 4, the whole Command phase, then actions until both sides pass.
# 5.1: Allies roll 5 (SHAEF Support: +4 AP), Axis 6 (OKW Support: +2 AP). 5.2.1: Allies roll 4: 4 + 6
# (Staging Area) + 4 garrisoned Objectives = 14; Axis roll 2: 2 + 2 + 4 = 8. Then 29.0's withdrawals,
# the units of the GT 4 box to the Reinforcement Displays (7.2), and the Action phase: an Allied
# move (13.1, 1 AP), an Axis reinforcement action (7.2: 1 AP, a 2 rolled, two German units), an Axis
# move, an Allied naval transfer to Catania (14.1, 1 AP: Allied Garrison A2 there), then both pass.
CLEAN: list[Step] = [
    ("roll", "Allied", "5"),
    ("move", "Allied", ALLIED_AP, "Allied AP 8"),
    ("roll", "Axis", "6"),
    ("move", "Axis", AXIS_AP, "Axis AP 5"),
    _turn("Allied", "Action Points"),
    ("roll", "Allied", "4"),
    ("move", "Allied", ALLIED_AP, "Allied AP 22"),
    ("roll", "Axis", "2"),
    ("move", "Axis", AXIS_AP, "Axis AP 13"),
    _turn("Allied", "Withdrawal"),
    *(("move", "Allied" if box.startswith("Allied") else "Axis", unit, box) for unit, box in GT4_OUT.items()),
    _turn("Allied", "Reinforcement"),
    *(("move", "Allied" if box.startswith("Allied") else "Axis", unit, box) for unit, box in GT4_IN.items()),
    _turn("Allied", "Initiative"),
    _turn("Allied", "Action"),
    ("move", "Allied", ALLIED_AP, "Allied AP 21"),
    ("move", "Allied", UK_5, "1927"),
    ("move", "Allied", UK_78, "1928"),
    ("move", "Axis", AXIS_AP, "Axis AP 12"),
    ("roll", "Axis", "2"),
    *moves("Axis", [PZ_24, SG_4], "Axis Staging Area"),
    ("move", "Allied", ALLIED_AP, "Allied AP 20"),
    *moves("Allied", [UK_46, UK_56], "1929"),
    ("move", "Axis", AXIS_AP, "Axis AP 11"),
    ("move", "Axis", PZGR_29, "2128"),
    ("chat", "Allied", "Allied passes"),
    ("chat", "Axis", "Axis passes"),
    _turn("Allied", "End of Turn"),
]

# file -> (scenario, turn, phase, changes to the set-up (name -> hex or box), steps, description)
GAMES: dict[str, tuple[str, int, str, dict[str, str], list[Step], str]] = {
    "scenario-1.vsav": ("I", 1, "Action", {}, [], "Kesselring's War: Scenario I set-up (27.1)"),
    "scenario-2.vsav": ("II", 3, "Action Points", {}, [], "Kesselring's War: Scenario II set-up on GT 3 (27.2)"),
    "sc1-gt1-air-overstack.vsav": (
        "I",
        1,
        "Action",
        dict.fromkeys(AIR_3, "1326"),
        [],
        "Kesselring's War: Scenario I, GT 1, Action: three air units at Palermo's airfield (deliberate fault)",
    ),
    "sc2-gt4-port-lost-garrison.vsav": (
        "II",
        4,
        "Action",
        TURN4_ACTION | {GTM: "1508", GARRISON_A6: "Allied Reinforcement Display"},
        [],
        "Kesselring's War: Scenario II, GT 4, Action: a unit on Sardinia out of supply, Cagliari's Allied "
        "Garrison gone (deliberate fault)",
    ),
    "sc2-gt4-withdrawal-missed.vsav": (
        "II",
        4,
        "Action",
        {k: v for k, v in TURN4_ACTION.items() if k != US_9},
        [],
        "Kesselring's War: Scenario II, GT 4, Action: the US 9th Infantry Division not withdrawn (deliberate fault)",
    ),
    "sc1-gt1-early-reinforcement.vsav": (
        "I",
        1,
        "Action",
        {IND_8: "Allied Staging Area"},
        [],
        "Kesselring's War: Scenario I, GT 1, Action: the 8th Indian Division (GT 2) in play on GT 1 (deliberate fault)",
    ),
    "sc1-gt1-invasion-short-of-ap.vlog": (
        "I",
        1,
        "Action",
        {ALLIED_AP: "Allied AP 1"},
        [
            ("move", "Allied", ALLIED_AP, "Allied AP 0"),
            ("move", "Allied", AMPHIB_3, "1732"),
            *moves("Allied", [A_US_45, A_US_3, A_AG1], "1731"),
        ],
        "Kesselring's War: Scenario I, GT 1, Action: an invasion (2 AP) with 1 AP on the Allied track "
        "(deliberate fault)",
    ),
    "sc2-gt3-unit-moves-twice.vlog": (
        "II",
        3,
        "Action",
        TURN3_ACTION,
        [
            ("move", "Allied", ALLIED_AP, "Allied AP 12"),
            ("move", "Allied", UK_5, "1927"),
            ("move", "Allied", UK_78, "1928"),
            ("move", "Allied", UK_5, "1827"),
        ],
        "Kesselring's War: Scenario II, GT 3, Action: one unit moves twice in one move action (deliberate fault)",
    ),
    "sc2-gt3-transfer-to-enemy-port.vlog": (
        "II",
        3,
        "Action",
        TURN3_ACTION,
        [("move", "Allied", ALLIED_AP, "Allied AP 12"), *moves("Allied", [UK_46, UK_56, UK_7ARMD], "1502")],
        "Kesselring's War: Scenario II, GT 3, Action: a naval transfer to Olbia, a port with no Allied "
        "Garrison (deliberate fault)",
    ),
    "sc2-gt4-clean.vlog": (
        "II",
        4,
        "Events",
        TURN4,
        CLEAN,
        "Kesselring's War: Scenario II, GT 4: the Command phase, four actions, both sides pass, no fault",
    ),
}

# The deliberate faults, one a file. `steps` counts a log's LOG steps from 1 (as vassal_adj's replay
# does); `rule` is what check (a save) or verify (a log) cites.
FAULTS: list[dict[str, object]] = [
    {
        "fault": "a",
        "file": "sc1-gt1-air-overstack.vsav",
        "units": AIR_3,
        "hexes": ("1326",),
        "rule": "kesselrings-war:10.1",
        "detail": "Jg 53, Kg 26 and Sg 4 based at Palermo (1326), a functional airfield (Axis Garrison 1 there): "
        "10.1 'Two air units of any type may stack in a hex ... when based at a functional airfield'",
    },
    {
        "fault": "b",
        "file": "sc2-gt4-port-lost-garrison.vsav",
        "units": (GTM,),
        "hexes": ("1508",),
        "rule": "kesselrings-war:12.2",
        "detail": "GTM at Decimomannu (1508) on Sardinia; Cagliari (1609), Sardinia's one Allied port, lost its "
        "Garrison A6 (in the Allied Reinforcement Display): 12.4 'Allies: A Garrison unit in any port hex'",
    },
    {
        "fault": "c",
        "file": "sc2-gt4-withdrawal-missed.vsav",
        "units": (US_9,),
        "hexes": ("1326",),
        "rule": "kesselrings-war:29.0",
        "detail": "the US 9th Infantry Division still at Palermo in GT 4's Action phase: 29.0 withdraws it on GT 4 "
        "(9.1 'During the Withdrawal Segment, units to be withdrawn are removed')",
    },
    {
        "fault": "d",
        "file": "sc1-gt1-early-reinforcement.vsav",
        "units": (IND_8,),
        "hexes": (),
        "rule": "kesselrings-war:7.1",
        "detail": "the 8th Indian Division, 'GT2' on its counter, in the Allied Staging Area on GT 1 (7.1 "
        "'Reinforcement units have either a GT number')",
    },
    {
        "fault": "e",
        "file": "sc1-gt1-invasion-short-of-ap.vlog",
        "steps": (1, 2, 3, 4, 5),
        "units": (AMPHIB_3, A_US_45, A_US_3, A_AG1),
        "hexes": ("1732", "1731"),
        "rule": "kesselrings-war:6.1",
        "detail": "the Allied AP marker goes from 'Allied AP 1' to 'Allied AP 0' (step 1), then Amphib 3 goes from "
        "the Allied Staging Area to the sea hex 1732 (step 2) and 45th, 3rd US and 1 AG to the coastal hex 1731 "
        "(steps 3-5): an invasion, 18.3 'expending two AP', with 1 AP on the track (5.2 'never ... less than "
        "zero')",
    },
    {
        "fault": "f",
        "file": "sc2-gt3-unit-moves-twice.vlog",
        "steps": (2, 3, 4),
        "units": (UK_5, UK_78),
        "hexes": ("2027", "1927", "1928", "1827"),
        "rule": "kesselrings-war:13.2",
        "detail": "one move action (Allied AP 13 -> 12, step 1): 5th UK 2027 -> 1927 (step 2), 78th UK 2027 -> "
        "1928 (step 3), 5th UK again 1927 -> 1827 (step 4): 13.2 'A unit may move more than once in an Action "
        "Phase, if each move is made in different Action Segments'",
    },
    {
        "fault": "g",
        "file": "sc2-gt3-transfer-to-enemy-port.vlog",
        "steps": (2, 3, 4),
        "units": (UK_46, UK_56, UK_7ARMD),
        "hexes": ("1502",),
        "rule": "kesselrings-war:14.1.2",
        "detail": "a naval transfer (Allied AP 13 -> 12, step 1): 46th, 56th UK and 7th Armoured from the Allied "
        "Staging Area to Olbia (1502) on Sardinia, a port with no Garrison (steps 2-4): 14.1.2 'Allies: Staging Area "
        "and all friendly functional ports'; 12.1 'A port or airfield is only considered to be functional if it "
        "contains a Garrison'",
    },
]
