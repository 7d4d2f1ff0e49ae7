"""Who moves together in one segment (N23 options `one_contingent` and `single_if`, rules/segment_movers.py).

Seed 004 (Kesselring's War) 13.2: "Units of different contingents may not move in the same Action";
2.5: "Axis: The term "Axis" includes all German and Italian units, each of which is referred to as a
contingent" (the Axis contingent is the unit's nationality); 7.2: "Reinforcements may be any mix of
unit type and size currently in the Reinforcement Display, but must be from the same contingent
(2.5)"; 13.1: "By expending one AP, one mobile ground unit which is Out of Supply or all mobile ground
units of one contingent which can trace a LOC to a Supply Source may move up to the limit of their MF".

The logs are written to VASSAL's format from the example module (tests/kasserine_logs.py), cut into
actions by a chat line as in tests/test_segments.py. The Italian 3-2-11 (31) is put on 3112 for them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kasserine_logs import MODULE, write_log
from test_segments import ACTIONS, AXIS_ACTION, TO_2525, TO_3920, errors, pack_with

import vassal_adj
from vassal_adj.errors import PackError
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.rules.results import Severity
from vassal_adj.rules.segment_movers import field_value, mixed, not_alone
from vassal_adj.rules.select import Selector

ITALIAN = ("move", "Axis", "3-2-11 (31)", "3012")
ONE_CONTINGENT = ACTIONS + 'one_contingent = "nationality"\n'


def verify(tmp_path: Path, rules: str, steps: list[tuple[str, ...]]) -> Verification:
    log = write_log(tmp_path / "log.vlog", steps, moved={"3-2-11 (31)": "3112"})
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(log)
    return verify_turn(module, game, load_pack(pack_with(tmp_path, rules)), replay(game.root, module, game.path))


def test_13_2_units_of_two_contingents_in_one_action_is_a_finding(tmp_path: Path) -> None:
    v = verify(tmp_path, ONE_CONTINGENT, [AXIS_ACTION, TO_2525, ITALIAN])
    assert errors(v) == [
        "Turn 4 axis-movement, segment side='Axis': units of 2 nationality values moved in the segment side='Axis' "
        "(German: 3-2-16 (580); Italian: 3-2-11 (31)): the units that move in a segment are of one nationality [6.1]"
    ]


def test_13_2_each_contingent_in_its_own_action_is_legal(tmp_path: Path) -> None:
    v = verify(tmp_path, ONE_CONTINGENT, [AXIS_ACTION, TO_2525, AXIS_ACTION, ITALIAN])
    assert errors(v) == []
    assert [[m.name for m in p.moves] for p in v.phases] == [["3-2-16 (580)"], ["3-2-11 (31)"]]


def test_13_1_an_out_of_supply_unit_moves_alone_in_its_action(tmp_path: Path) -> None:
    """The example module shows no supply marker: the selector names 580 as the one a pack's marker
    flag (``flags = ["out-of-supply"]``) would pick. Moving with 31 is a finding; alone, in the next
    action, it is not."""
    rules = ACTIONS + 'single_if = { names = ["3-2-16 (580)"] }\n'
    v = verify(tmp_path, rules, [AXIS_ACTION, TO_2525, ITALIAN, AXIS_ACTION, TO_3920])
    assert errors(v) == [
        "Turn 4 axis-movement, segment side='Axis': Axis 3-2-16 (580) moved in the segment side='Axis' with "
        "3-2-11 (31): units named 3-2-16(580) move alone in a segment [6.1]"
    ]


def test_a_single_if_that_is_no_selector_is_a_pack_error(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r"rules.actions: single_if.flags: expected a list of names"):
        verify(tmp_path, ACTIONS + 'single_if = { flags = "out-of-supply" }\n', [AXIS_ACTION, TO_2525])


def _unit(uid: str, name: str, nationality: str, **kw: object) -> Unit:
    return Unit(
        uid,
        name,
        "Axis" if nationality in ("German", "Italian") else "Allied",
        "infantry",
        4,
        nationality=nationality,
        **kw,
    )  # type: ignore[arg-type]


US = _unit("u", "34th Inf", "US", groups={"contingent": "US"})
FRENCH = _unit("f", "3e DIA", "French", groups={"contingent": "US"})  # 2.5: "US: all US and Free French units"
BRITISH = _unit("b", "1st Cdn", "Canadian", groups={"contingent": "British Commonwealth"})


def test_2_5_free_french_and_us_units_are_one_contingent() -> None:
    """2.5: "United States (US): all US and Free French units. British Commonwealth: all British,
    Canadian, ..."; read from the units file's group field, not the nationality."""
    assert mixed([US, FRENCH], "contingent", "c", "the segment", "13.2") == []
    (error,) = mixed([US, FRENCH, BRITISH], "contingent", "c", "the segment", "13.2")
    assert error.severity == Severity.ERROR and error.units == ("u", "f", "b")
    assert "(US: 34th Inf, 3e DIA; British Commonwealth: 1st Cdn)" in error.message


def test_7_2_a_unit_of_no_known_contingent_is_a_warning_never_a_pass() -> None:
    nobody = _unit("n", "Pz 7", "German")
    (warning,) = mixed([US, nobody], "contingent", "c", "the segment", "7.2")
    assert warning.severity == Severity.WARNING and warning.units == ("n",)
    assert warning.message.startswith("Axis Pz 7 moved in the segment with no contingent known")


def test_13_1_a_unit_in_supply_moves_with_others_and_one_out_of_supply_alone() -> None:
    out = Selector.from_mapping({"flags": ["out-of-supply"]})
    cut_off = _unit("o", "2/7", "German", flags=frozenset({"out-of-supply"}))
    supplied = _unit("s", "2/5", "German")
    assert not_alone([supplied, _unit("t", "2/69", "German")], out, {}, "c", "the segment", "13.1") == []
    assert not_alone([cut_off], out, {}, "c", "the segment", "13.1") == []
    (both,) = not_alone([supplied, cut_off, _unit("p", "2/8", "German", flags=out.flags)], out, {}, "c", "it", "13.1")
    assert both.message.startswith("Axis 2/7 moved in it with 2/5, 2/8: ") and both.units == ("s", "o", "p")
    (error,) = not_alone([cut_off, supplied], out, {}, "c", "the segment", "13.1")
    assert error.message == (
        "Axis 2/7 moved in the segment with 2/5: units flagged out-of-supply move alone in a segment [13.1]"
    )


def test_one_contingent_reads_group_fields_attributes_and_unit_fields() -> None:
    unit = _unit("x", "a", "Italian", formation="Ariete", groups={"army": "1st Italian"}, attrs={"size": 2})
    assert [field_value(unit, k) for k in ("army", "size", "formation", "nationality", "division", "color")] == [
        "1st Italian",
        "2",
        "Ariete",
        "Italian",
        "",
        "",
    ]
