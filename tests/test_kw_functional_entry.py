"""7.3 deployment at functional ports and airfields (seed 004), by `holding` of a
`reinforcements.schedule` entry: an entry hex counts only while a friendly unit the selector picks
stands there when the units enter.

7.3: "Allied mobile ground units may deploy in the Allied Staging Area, any Allied-controlled
functional port, or, for airborne units only, on any Allied-controlled functional airfield.
Important: A functional port or airfield is one which has a friendly Garrison unit of any
strength." 7.5: "To deploy a Garrison unit, one AP is expended and the unit may be placed in any
city, port or airfield hex occupied by a friendly mobile ground unit." Worked on a log's Action
segment as `verify` judges it (rules/turn.py `check_phase`): a US division from the Allied
Reinforcement Display to Palermo (1326, a port) with an Allied Garrison there is legal; with none,
or with only an Axis Garrison, it is not. A second parameter set, not shaped like KW: one entry of
a named unit on a fixed turn into one hex (Napoli 2917), no boxes, held by any friendly ground
unit.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from kw_board import LAYOUT, PACK, TERRAIN
from test_kw_ledger import GARRISON_A, US_3, Logged, segment, unit

from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.registry import Params
from vassal_adj.rules.turn import check_phase, turn_rules

AXIS_GARRISON = unit("Garrison 1 [AX garrison] 0-2 *", "Axis")
US_34 = unit("34 [US infantry XX] 6-5-4 GT3", "Allied")  # a GT 3 reinforcement
DISPLAY = "Allied Reinforcement Display"


def deployed(
    where: dict[Unit, str], to: str, entries: list[dict[str, Any]] | None = None, who: Unit = US_34
) -> list[str]:
    """The errors naming `who` when it is dragged from the Reinforcement Display to `to` on GT 3."""
    seg = segment({who: DISPLAY, **where}, [Logged(1, "allied_ap", 5, 4)], moves={who: [DISPLAY, to]}, turn=3)
    pack = PACK
    if entries is not None:
        rule = PACK.rule("allied_reinforcements")
        rule = dataclasses.replace(rule, params=Params({**rule.params, "entries": entries, "returns": []}))
        pack = dataclasses.replace(PACK, rules=tuple(rule if r.name == rule.name else r for r in PACK.rules))
    scenario = PACK.scenarios["scenario-1"] if entries is None else None  # a scenario has its own copies of the rules
    c = RuleContext(TERRAIN, LAYOUT, PACK.id, scenario=scenario, rule=PACK.rule("movement"))
    rules = turn_rules(pack, c)
    rules = dataclasses.replace(rules, movement_phases={**rules.movement_phases, "action": "Allied"})
    checked = check_phase(seg.start, "action", seg.moves, rules, c)
    return [f.message for f in checked.findings if who.id in f.units and f.severity == "error"]


def test_7_3_a_port_holding_a_friendly_garrison_is_functional() -> None:
    assert deployed({GARRISON_A: "1326"}, "1326") == []


def test_7_3_a_port_without_a_friendly_garrison_is_not_functional() -> None:
    for where in ({}, {AXIS_GARRISON: "1326"}):
        (message,) = deployed(where, "1326")
        assert message.endswith("-> 1326: entered at 1326, which holds no friendly garrison units [7.1]"), message


def test_holding_second_parameter_set_a_named_unit_into_a_hex_held_by_any_friendly_ground_unit() -> None:
    entries = [{"turn": 3, "units": [US_34.name], "at": ["2917"], "holding": {"flags": ["ground"]}}]
    assert deployed({US_3: "2917"}, "2917", entries) == []
    (message,) = deployed({AXIS_GARRISON: "2917"}, "2917", entries)
    assert "entered at 2917, which holds no friendly" in message


def test_7_5_a_garrison_deploys_into_a_city_port_or_airfield_holding_a_friendly_mobile_unit() -> None:
    assert deployed({US_3: "2917"}, "2917", who=GARRISON_A) == []  # Napoli, with the US 3rd Division
    (message,) = deployed({}, "2917", who=GARRISON_A)
    assert message.endswith("entered at 2917, which holds no friendly units flagged mobile [7.1]"), message
    (message,) = deployed({US_3: "2920"}, "2920", who=GARRISON_A)  # a clear hex: no city, port or airfield
    assert "entering at" in message and "2920" in message, message
