"""The ``when`` key of a ``[rules.<name>]`` table (rules/scope.py, RULES-MAP N1): a rule in force
only in some scenarios, Game-Turns, phases, player-turns, weathers, or after/before an event.
Cases worked by hand from Tunisia 1943 (seed 001) and Kesselring's War (seed 004); the pack
is read by the real reader, the rules run by the real engine and implementations."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest
from conftest import REPO

from vassal_adj.errors import PackError
from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.results import Severity
from vassal_adj.rules.scope import Scope, Situation, in_force
from vassal_adj.rules.scope_events import event_reader

# Tunisia 1943, 5: "Two combat units maximum can stacked together on a hex"; Campaign I: "the
# Allied stacking is limited to one unit per hex during the first two turns". (That only Allied
# units count is a unit selector's business, not `when`'s: the stacks here are Allied.)
TUNISIA: dict[str, Any] = {
    "pack": {"id": "tunisia", "name": "Tunisia 1943"},
    "units": {"sides": ["Axis", "Allied"], "classes": ["infantry", "armor"]},
    "state": {
        "phases": {
            "Axis": "axis-movement",
            "Allied": "allied-movement",
            "Axis supply": "axis-supply",
            "Allied supply": "allied-supply",
        }
    },
    "scenarios": {
        "campaign-1": {"name": "Campaign I", "turns": [1, 8], "first_player": "Axis"},
        "campaign-2": {"name": "Campaign II", "turns": [1, 7], "first_player": "Allied"},
    },
    "rules": {
        "stacking": {"impl": "stacking.limit", "rule_ref": "5", "limit": 2},
        "allied_stacking_opening": {
            "impl": "stacking.limit",
            "rule_ref": "Campaign I",
            "limit": 1,
            "when": {"scenario": ["campaign-1"], "turns": [1, 2]},
        },
    },
}
CTX = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), None, "tunisia")
TWO_ALLIED = {i: Unit(i, f"inf {i}", "Allied", "infantry", 6) for i in ("a", "b")}


def pack(**rules: Any) -> RulePack:
    data = copy.deepcopy(TUNISIA)
    data["rules"].update(rules)
    return RulePack.from_mapping(data)


def report(rp: RulePack, turn: int | None, phase: str | None, scenario: str | None = "campaign-1"):
    state = GameState(TWO_ALLIED, {i: Position(Hex.from_raw(3, 3)) for i in TWO_ALLIED}, turn, phase)
    return adjudicate(
        state, rp, RuleContext(CTX.terrain, None, "tunisia", scenario=rp.scenarios[scenario] if scenario else None)
    )


def by_rule(rep) -> dict[str, list[tuple[str, str]]]:
    out: dict[str, list[tuple[str, str]]] = {}
    for f in rep.findings:
        out.setdefault(f.rule, []).append((f.severity, f.message))
    return out


def test_campaign_i_allied_stacking_one_a_hex_on_turns_1_2() -> None:
    """Tunisia Campaign I: "the Allied stacking is limited to one unit per hex during the first two
    turns". Two Allied units in one hex at the end of the Allied movement of turn 2: the Campaign I
    rule is in force and broken; the two-unit limit of 5 holds."""
    rp = pack()
    found = by_rule(report(rp, 2, "allied-movement"))
    assert [s for s, _ in found["tunisia:Campaign I"]] == [Severity.ERROR]
    assert all(s != Severity.ERROR for s, _ in found.get("tunisia:5", []))


def test_campaign_i_allied_stacking_rule_not_in_force_on_turn_3() -> None:
    """The same stack on turn 3: the Campaign I limit is over ("the first two turns"): one INFO
    "not in force", once, and no error."""
    found = by_rule(report(pack(), 3, "allied-movement"))
    assert found["tunisia:Campaign I"] == [
        (
            Severity.INFO,
            (
                "rule allied_stacking_opening (Campaign I) is not in force: it is in force on Game-Turns "
                "1-2, not on Game-Turn 3"
            ),
        )
    ]
    assert all(s != Severity.ERROR for fs in found.values() for s, _ in fs)


def test_campaign_i_rule_not_in_force_in_campaign_ii() -> None:
    """Tunisia: the Allied limit belongs to Campaign I only; Campaign II ("The Allied player is the
    attacker") has no such rule, whatever the turn."""
    found = by_rule(report(pack(), 2, "allied-movement", scenario="campaign-2"))
    assert found["tunisia:Campaign I"] == [
        (
            Severity.INFO,
            (
                "rule allied_stacking_opening (Campaign I) is not in force: it is in force only in scenario "
                "campaign-1, not campaign-2"
            ),
        )
    ]


def test_9_3_supply_only_for_the_player_who_has_just_acted() -> None:
    """Tunisia 9.3: "The supply check ... at the end of the phase for each player, but solely for the
    units of player who has just acted": `sides` is the player whose phase it is (a phase id
    <side>-...). An Allied-only rule at the end of the Axis phase is not in force."""
    rp = pack(allied_only={"impl": "stacking.limit", "rule_ref": "9.3", "limit": 1, "when": {"sides": ["Allied"]}})
    assert [s for s, _ in by_rule(report(rp, 5, "allied-supply"))["tunisia:9.3"]] == [Severity.ERROR]
    assert by_rule(report(rp, 5, "axis-supply"))["tunisia:9.3"] == [
        (
            Severity.INFO,
            ("rule allied_only (9.3) is not in force: it is in force only in side's player-turn Allied, not Axis"),
        )
    ]


def test_a_turn_the_files_do_not_give_is_not_guessed() -> None:
    """A rule in force on turns 1-2 and a save with no turn: not run, and not silenced either:
    one WARNING says it was not checked and why."""
    found = by_rule(report(pack(), None, "allied-movement"))
    assert found["tunisia:Campaign I"] == [
        (
            Severity.WARNING,
            (
                "rule allied_stacking_opening (Campaign I) was not checked: it is in force on Game-Turns "
                "1-2, and the files do not tell the turn"
            ),
        )
    ]


def test_scenario_unknown_is_said() -> None:
    """No scenario known (none given, none matched): a Campaign I rule cannot be told in force."""
    found = by_rule(report(pack(), 2, "allied-movement", scenario=None))
    ((severity, message),) = found["tunisia:Campaign I"]
    assert severity == Severity.WARNING and "the files do not tell the scenario" in message


def test_kesselring_3_1_sudden_death_by_scenario_and_turn() -> None:
    """Kesselring's War 3.1: "Scenario I: Allies control no ports or airfields on the map at the
    conclusion of Game Turn (GT) 2. Scenario II: ... at the conclusion of GT 4." Each check is a
    rule with ``when = { scenario, turns }``."""
    one, two = Scope(("scenario-1",), (2, 2)), Scope(("scenario-2",), (4, 4))
    assert in_force(one, Situation("scenario-1", 2)).status == "yes"
    assert in_force(one, Situation("scenario-1", 4)).status == "no"
    assert in_force(two, Situation("scenario-1", 4)).status == "no"
    assert in_force(two, Situation("scenario-2", 4)).status == "yes"


def test_after_and_before_an_event() -> None:
    """Kesselring's War 27.2 special rule 2: "Italian Surrender has occurred"; rules in force after
    the event (Achse's German take-over, 30.0) or before it. A state that cannot show the event
    leaves the rule unknown."""
    seen = {"surrender": ("yes", "the marker is in the box of Game-Turn 3")}
    at = Situation(turn=4, events=lambda name: seen.get(name, ("unknown", "no marker")))
    assert in_force(Scope(after="surrender"), at).status == "yes"
    no = in_force(Scope(before="surrender"), at)
    assert no == ("no", "it is in force before event 'surrender': the marker is in the box of Game-Turn 3")
    assert in_force(Scope(after="landing"), at).status == "unknown"


def test_weather_is_matched_without_case() -> None:
    """A weather rule (Kesselring's War weather; Kasserine 20.3 "poor") matches the state's weather
    as the pack's table writes it, in any case."""
    assert in_force(Scope(weather=("poor",)), Situation(weather="Poor")).status == "yes"
    assert in_force(Scope(weather=("poor",)), Situation(weather="good")).status == "no"
    assert in_force(Scope(weather=("poor",)), Situation()).status == "unknown"


@pytest.mark.parametrize(
    ("when", "message"),
    [
        ({"turns": [3, 1]}, "rules.x.when.turns: expected [first, last] Game-Turns, 1 <= first <= last, got [3, 1]"),
        (
            {"turn": [1, 2]},
            ("rules.x.when.turn: unknown key (known here: after, before, phases, scenario, sides, turns, weather)"),
        ),
        ({"sides": ["Axsi"]}, "rules.x.when.sides: unknown side 'Axsi' (the pack's: Allied, Axis)"),
        (
            {"phases": ["axis-combat"]},
            (
                "rules.x.when.phases: unknown phase 'axis-combat' (the pack's: allied-movement, "
                "allied-supply, axis-movement, axis-supply)"
            ),
        ),
        (
            {"scenario": ["campaign-3"]},
            ("rules.x.when.scenario: unknown scenario 'campaign-3' (the pack's [scenarios]: campaign-1, campaign-2)"),
        ),
        (
            {"after": "surrender"},
            (
                "rules.x.when.after: unknown event 'surrender' (the events of the pack's "
                "reinforcements.schedule rules: none)"
            ),
        ),
        ("turn 1", "rules.x.when: expected a table, got 'turn 1' (str)"),
    ],
)
def test_bad_when_names_the_key_path(when: object, message: str) -> None:
    with pytest.raises(PackError) as e:
        pack(x={"impl": "stacking.limit", "rule_ref": "5", "when": when})
    assert e.value.message == message


def test_21_after_the_allied_withdrawal_read_from_its_marker() -> None:
    """Kasserine 21.0 (optional): "In all Combat Phases following the completion of the Allied
    Withdrawal Player-Turn ...": ``after`` an event of the pack's reinforcement schedule, here the
    Allied Withdrawal marker in a Game-Turn box (19.0). Its 23 event the save cannot show (exits)
    leaves a rule after it unknown, with the pack's reason."""
    data = tomllib.loads((REPO / "modules" / "kasserine" / "pack.toml").read_text(encoding="utf-8"))
    data["rules"]["allied_reinforcements"]["events"] = {"allied-withdrawal": {"marker": "Allied Withdrawal"}}
    data["rules"]["combat_21"] = {
        "impl": "stacking.limit",
        "rule_ref": "21.0",
        "when": {"after": "allied-withdrawal", "phases": ["axis-combat", "allied-combat"]},
    }
    rp = RulePack.from_mapping(data)
    events = event_reader(rp.rules)
    ctx = RuleContext(TerrainMap(rp.vocabulary), None, "kasserine")

    def verdict(markers: dict, rule: str = "combat_21") -> tuple[str, str]:
        st = GameState({}, {}, 5, "axis-combat", "fair", markers)
        return in_force(
            rp.rule(rule).when, Situation(None, 5, "axis-combat", "Axis", "fair", lambda name: events(st, ctx, name))
        )

    assert verdict({"Allied Withdrawal": (Position(box="Turn 4"),)}).status == "yes"
    assert verdict({"Allied Withdrawal": (Position(box="Allied Withdrawal"),)}) == (
        "no",
        (
            "it is in force after event 'allied-withdrawal': the 'Allied Withdrawal' marker is in no Game-Turn box "
            "(box 'Allied Withdrawal')"
        ),
    )
    assert verdict({}) == (
        "unknown",
        (
            "it is in force after event 'allied-withdrawal', and whether it has happened "
            "cannot be told: the save has no 'Allied Withdrawal' marker"
        ),
    )
    data["rules"]["combat_21"]["when"] = {"after": "axis-5-3-12-and-6-5-10-exited-3911-3909"}
    rp = RulePack.from_mapping(data)
    events = event_reader(rp.rules)
    status, why = verdict({})
    assert status == "unknown" and why.endswith(
        "a save does not record the hexes units exited by, nor when (the "
        "exited units also return when the 1/47 and 2/47 appear)"
    )
