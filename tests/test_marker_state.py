"""Marker and flag states (impl marker.state, rules/mechanisms/marker_state.py; RULES-MAP N21) with other
games' parameters, worked by hand from the rules' words.

No Question of Surrender (seed 003) S2.0: "place a Counterbattery Fired marker on the Indirect HE Unit.
These markers are all removed at the end of the turn, when the Barrage markers are removed." The series
sequence of play is not in the seed, which names only the "Special Weather and Airpower Phase" at the
start of a day; the turn is read here as that phase, the activations and the end of the turn (an
assumption of this test): the flag must be gone in the first phase of the next turn.

Kesselring's War (seed 004) 25.4: "A Fortification marker remains on the map until there are no friendly
units in the hex, either due to movement or combat results."
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_segments import pack_with
from test_stacking_pools import CTX

from vassal_adj.errors import PackError
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.rules.mechanisms.marker_state import window
from vassal_adj.rules.mechanisms.marker_state_rules import marker_state
from vassal_adj.rules.packs.pack_rules import RuleConfig
from vassal_adj.rules.registry import Params, load_builtin_rules
from vassal_adj.rules.results import Severity

NQOS_TURN = ["weather-and-airpower", "activations", "end-of-turn"]
S2_0 = {
    "phases": NQOS_TURN,
    "states": [{"flag": "counterbattery-fired", "units": {"kinds": ["indirect-he"]}, "reset_at": "turn-start"}],
}
W25_4 = {
    "states": [
        {
            "units": {"kinds": ["fortification"]},
            "requires": {"units": {"not_flags": ["fortification"]}, "within": "hex", "what": "friendly unit"},
            "rule_ref": "25.4",
        }
    ]
}
CITY, HILL = Hex.from_raw(19, 26), Hex.from_raw(20, 26)


def check(units: dict[Unit, tuple[Hex, str]], phase: str | None, **given: object) -> list:
    p = Params({**load_builtin_rules().lookup("marker.state").defaults(), **given})
    st = GameState({u.id: u for u in units}, {u.id: Position(h, lab) for u, (h, lab) in units.items()}, 3, phase)
    return marker_state(st, replace(CTX, rule=RuleConfig("r", "marker.state", "S2.0", p, frozenset(), {})), p)


def errors(found: list) -> list[str]:
    return [f.message for f in found if f.severity == Severity.ERROR]


def gun(flags: tuple[str, ...] = ()) -> Unit:
    return Unit("g", "Gr.W./I.200", "Axis", "indirect-he", 1, flags=frozenset(flags))


def test_s2_0_counterbattery_fired_marker_left_into_the_next_turn() -> None:
    """S2.0 "These markers are all removed at the end of the turn": a gun still marked in the next turn's
    first phase is an error; marked during the activations (where counterbattery fire happens) it is legal."""
    marked = {gun(("counterbattery-fired",)): (HILL, "21.27")}
    assert errors(check(marked, "weather-and-airpower", **S2_0)) == [
        "Axis Gr.W./I.200 in 21.27 carries counterbattery-fired in phase weather-and-airpower: "
        "it is reset at the start of the turn [S2.0]"
    ]
    assert errors(check(marked, "activations", **S2_0)) == []
    assert errors(check({gun(): (HILL, "21.27")}, "weather-and-airpower", **S2_0)) == []


def test_a_phase_the_turn_does_not_list_is_not_judged() -> None:
    """A state in a phase outside `phases` (or with none) is "not judged": an info, never an error."""
    marked = {gun(("counterbattery-fired",)): (HILL, "21.27")}
    for phase in ("combat", None):
        (found,) = check(marked, phase, **S2_0)
        assert found.severity == Severity.INFO and "not judged" in found.message


def test_25_4_a_fortification_left_without_a_friendly_unit() -> None:
    """25.4: the Allied Fortification in Messina (2027) with an Allied unit stays; alone, or with only an
    Axis unit in the hex, it is an error ("no friendly units in the hex")."""
    fort = Unit("f", "Fortification", "Allied", "fortification", 0, flags=frozenset({"fortification"}))
    allied = Unit("a", "3-4-4 (1 Can)", "Allied", "infantry", 4)
    axis = Unit("x", "4-4-4 (15 Pz)", "Axis", "infantry", 4)
    assert errors(check({fort: (CITY, "2027"), allied: (CITY, "2027")}, None, **W25_4)) == []
    left = errors(check({fort: (CITY, "2027"), allied: (HILL, "2127"), axis: (CITY, "2027")}, None, **W25_4))
    assert left == ["Allied Fortification in 2027 stays on the map with no friendly unit in its hex [25.4]"]


def test_the_window_of_a_reset() -> None:
    """`reset_at` and `set_from` give the phases a flag may stand in: without `set_from` all but the one it
    must be gone in; with it, from `set_from` to the reset, in turn order, across the turn's end."""
    turn = ("a", "b", "c", "d")
    assert window(turn, "turn-start")[0] == {"b", "c", "d"}
    assert window(turn, "after-phase:b")[0] == {"a", "b", "d"}
    assert window(turn, "after-phase:a", "d")[0] == {"d", "a"}
    with pytest.raises(ValueError, match="set_from: 'c' is the phase in which the flag must be gone"):
        window(turn, "after-phase:b", "c")
    with pytest.raises(ValueError, match="reset_at: expected"):
        window(turn, "after-phase:e")


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"flag": "x"}, "states[0]: expected 'reset_at'"),
        ({"reset_at": "turn-start"}, "states[0].flag: a reset needs the flag"),
        ({"flag": "x", "requires": {"units": {}, "within": "hex"}, "set_from": "b"}, "states[0].set_from"),
        ({"requires": {"units": {}, "within": "division"}}, "states[0].requires.within"),
        ({"flag": "x", "reset_at": "after-phase:z"}, "states[0].reset_at"),
    ],
)
def test_entries_that_do_not_fit_name_their_key(entry: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        check({}, "a", phases=["a", "b"], states=[entry])


def test_a_misspelt_key_is_a_pack_error_when_the_pack_is_read(tmp_path: Path) -> None:
    """The shape of `states` is checked as the pack loads (`packs validate`), with the key path."""
    rule = '\n[rules.fort]\nimpl = "marker.state"\nrule_ref = "25.4"\nstates = [{ unit = { kinds = ["x"] } }]\n'
    with pytest.raises(PackError, match=r"rules\.fort\.states\[0\]\.unit"):
        load_pack(pack_with(tmp_path, rule))
