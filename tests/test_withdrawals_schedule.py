"""`withdrawals.schedule` (rules/mechanisms/withdrawals.py, RULES-MAP N13), worked by hand from the seeds' words.

Kesselring's War (seed 004) 9, 29 and 27.1, and No Question of Surrender (seed 003) S5.3 and S3.0.
The states are built by hand; boxes carry the kind a pack's ``[boxes]`` gives them ("withdrawn",
"eliminated", "staging"). Events are read through `RuleContext.events`, as scope_events.py reads the
events of a ``reinforcements.schedule`` rule: here a table of what the state shows.
"""

from __future__ import annotations

from typing import Any

import pytest
from example_board import layout

from vassal_adj.errors import PackError
from vassal_adj.model.state import Box, GameState, Position
from vassal_adj.model.terrain import TerrainMap, TerrainVocabulary
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.registry import Params, check_value, load_builtin_rules, lookup
from vassal_adj.rules.results import Finding, Severity

# Kesselring's War 4.0 sequence: 1) Events 2) Action Points 3) Withdrawal 4) Reinforcement, then the Action Phase.
KW_PHASES = ["events", "ap", "withdrawal", "reinforcement", "action"]
# 29.0 as the pack reads the flattened chart: US 2nd Armor Div on GT 2; 1st Inf Div and Patton on GT 3;
# 9th Inf Div and 82nd Abn Div on GT 4 (a reading of the chart, stated by the pack).
KW_CHART = [
    {"turn": 2, "units": {"names": ["US 2 Armor"]}},
    {"turn": 3, "units": {"names": ["US 1 Inf", "Patton"]}},
    {"turn": 4, "units": {"names": ["US 9 Inf", "US 82 Abn"]}},
]
KW = {
    "box": "withdrawn",
    "never_return": True,
    "ignore_if_unavailable": True,
    "phases": KW_PHASES,
    "phase": "reinforcement",
    "entries": KW_CHART,
    "rule_ref": "9.1",
}


def run(state: GameState, events: dict[str, str] | None = None, **given: Any) -> list[Finding]:
    load_builtin_rules()
    im = lookup("withdrawals.schedule")
    ref = given.pop("rule_ref", "9.1")
    params = Params({**im.defaults(), **{k: check_value(im.types[k], v) for k, v in given.items()}})
    rule = RuleConfig("w", "withdrawals.schedule", ref, params, frozenset(given), {})
    terrain = TerrainMap(TerrainVocabulary(frozenset(), frozenset(), frozenset())).with_board(layout().hexes())
    seen = events or {}
    ctx = RuleContext(
        terrain,
        layout(),
        "g",
        rule=rule,
        events=lambda s, c, name: (seen.get(name, "unknown"), "as the test's state shows it"),
    )
    return im.func(state, ctx, params)


def box(kind: str) -> Position:
    return Position(box=f"{kind} box", named=Box(kind, kind))


def at(label: str) -> Position:
    return Position(layout().hex_of(label), label)


def state(where: dict[Unit, Position], turn: int | None, phase: str | None) -> GameState:
    return GameState({u.id: u for u in where}, {u.id: p for u, p in where.items()}, turn, phase)


def unit(name: str, side: str = "Allied", nationality: str = "US", formation: str = "", kind: str = "mobile") -> Unit:
    return Unit(name.replace(" ", "_"), name, side, kind, 4, formation=formation, nationality=nationality)


ARMOR, INF1, PATTON = unit("US 2 Armor"), unit("US 1 Inf"), unit("Patton", kind="leader")
INF9, ABN82 = unit("US 9 Inf"), unit("US 82 Abn")


def severities(found: list[Finding]) -> list[Severity]:
    return [f.severity for f in found]


def test_9_1_chart_units_are_in_the_withdrawn_display_after_the_withdrawal_segment() -> None:
    """KW 9.1: "On certain GT as specified on the Withdrawals Chart ... During the Withdrawal Segment,
    units to be withdrawn are removed and placed in that side's Withdrawn Units display." GT 2, in the
    Reinforcement Segment (after the Withdrawal Segment): the 2nd Armor is withdrawn, nothing else is due."""
    s = state({ARMOR: box("withdrawn"), INF1: at("1010"), PATTON: at("1010")}, 2, "reinforcement")
    assert run(s, **KW) == []
    plain = state({ARMOR: Position(box="US Withdrawn Units"), INF1: at("1010")}, 2, "reinforcement")
    assert run(plain, **{**KW, "box": "us withdrawn units"}) == []  # a VASSAL box name, in any case


def test_9_1_a_chart_unit_still_on_the_map_after_its_segment_is_an_error() -> None:
    """KW 9.1 / 29.0: GT 3's 1st Inf Div and Patton must be gone by the Reinforcement Segment (step 4);
    Patton still at 1010 in the Action Phase: one ERROR naming him and his hex, citing 9.1."""
    s = state({ARMOR: box("withdrawn"), INF1: box("withdrawn"), PATTON: at("1010")}, 3, "action")
    [f] = run(s, **KW)
    assert (f.severity, f.rule, f.units, f.hexes) == (Severity.ERROR, "g:9.1", ("Patton",), ("1010",))
    assert "1 of 2" in f.message


def test_9_1_during_the_withdrawal_segment_itself_nothing_is_due_yet() -> None:
    """KW 4.0 step 3, "Withdrawal Segment: Both sides withdraw units": a save made in that segment may
    be half done, so GT 3's units still on the map there are no fault (the due phase is step 4)."""
    s = state({ARMOR: box("withdrawn"), INF1: at("1010"), PATTON: at("1010")}, 3, "withdrawal")
    assert run(s, **KW) == []


def test_9_1_withdrawn_units_may_not_return_to_the_game() -> None:
    """KW 9.1: "These units may not return to the game": on GT 5 the 2nd Armor (withdrawn on GT 2) on the
    map is an ERROR that says one save cannot tell whether it never left or came back."""
    s = state(
        {
            ARMOR: at("1212"),
            INF1: box("withdrawn"),
            PATTON: box("withdrawn"),
            INF9: box("withdrawn"),
            ABN82: box("withdrawn"),
        },
        5,
        "action",
    )
    [f] = run(s, **KW)
    assert f.severity == Severity.ERROR and f.units == ("US_2_Armor",) and "never return" in f.message


def test_9_2_an_unavailable_chart_unit_is_ignored_with_an_info() -> None:
    """KW 9.2: "If the unit specified on the Withdrawal Chart is not available ... the withdrawal is
    ignored and no further action is taken." GT 4: the 82nd Abn is eliminated, the 9th Inf withdrawn:
    no error, one INFO for the 82nd."""
    s = state(
        {
            ARMOR: box("withdrawn"),
            INF1: box("withdrawn"),
            PATTON: box("withdrawn"),
            INF9: box("withdrawn"),
            ABN82: box("eliminated"),
        },
        4,
        "action",
    )
    found = run(s, **KW)
    assert severities(found) == [Severity.INFO] and "only 1 are available" in found[0].message


def test_9_2_without_ignore_if_unavailable_a_missing_unit_is_an_error() -> None:
    """The same GT 4 when the pack does not say 9.2's "the withdrawal is ignored": the shortfall is an ERROR."""
    s = state({INF9: box("withdrawn"), ABN82: box("eliminated")}, 4, "action")
    found = run(s, **{**KW, "ignore_if_unavailable": False, "entries": KW_CHART[2:]})
    assert severities(found) == [Severity.ERROR]


def test_9_1_a_save_whose_phase_is_not_known_cannot_tell_on_the_chart_turn() -> None:
    """KW 9.1: the withdrawal is made in the Withdrawal Segment; a GT 3 save in a phase the pack does not
    list cannot show whether that segment is over: an INFO, never a guessed fault."""
    s = state({ARMOR: box("withdrawn"), INF1: at("1010"), PATTON: at("1010")}, 3, "some-phase")
    found = run(s, **KW)
    assert severities(found) == [Severity.INFO] and "cannot tell" in found[0].message


ITALIANS = [
    unit("Livorno", "Axis", "Italian"),
    unit("Napoli", "Axis", "Italian"),
    unit("Italian TAC", "Axis", "Italian", kind="air"),
]
GARRISON = unit("Palermo garrison", "Axis", "Italian", kind="garrison")
SURRENDER = {
    "box": "withdrawn",
    "never_return": True,
    "rule_ref": "27.1",
    "entries": [{"after": "italian_surrender", "units": {"nationalities": ["Italian"], "kinds": ["mobile", "air"]}}],
}


def test_27_1_italian_surrender_withdraws_all_italian_mobile_and_air_units() -> None:
    """KW 27.1 (Events 3a): "Italian Surrender ... a) Withdraw all Italian mobile ground and air units."
    Once the surrender is shown, an Italian division left on the map is an ERROR; the garrison
    ("garrisons remain") is not selected."""
    where = {
        ITALIANS[0]: box("withdrawn"),
        ITALIANS[1]: at("0505"),
        ITALIANS[2]: box("withdrawn"),
        GARRISON: at("0606"),
    }
    [f] = run(state(where, 3, "action"), {"italian_surrender": "yes"}, **SURRENDER)
    assert (f.severity, f.rule, f.units) == (Severity.ERROR, "g:27.1", ("Napoli",)) and "2 of 3" in f.message


def test_27_1_before_the_surrender_or_when_it_cannot_be_seen() -> None:
    """KW 27.1: before the surrender nothing is withdrawn (no finding); when the save cannot show whether
    it happened, the finding says so (INFO) instead of guessing either way."""
    where = {ITALIANS[0]: at("0505"), ITALIANS[1]: at("0606")}
    assert run(state(where, 3, "action"), {"italian_surrender": "no"}, **SURRENDER) == []
    [f] = run(state(where, 3, "action"), {}, **SURRENDER)
    assert f.severity == Severity.INFO and "italian_surrender" in f.message


WOLZ = [unit("KG Wolz 1", "Axis", "German", "KG Wolz"), unit("KG Wolz 2", "Axis", "German", "KG Wolz")]
RELIEF = {
    "box": "withdrawn",
    "ignore_if_unavailable": True,
    "rule_ref": "S3.0",
    "entries": [{"after": "relief_2", "before": "next_0700", "units": {"formations": ["KG Wolz"]}}],
}


def test_s3_0_kg_wolz_withdraws_until_the_next_day_0700() -> None:
    """NQoS S3.0 event 3: "The German player must withdraw the KG Wolz Formation ... These Units return
    the next day at 0700." After the event and before 0700: a KG Wolz unit on the map is an ERROR;
    from 0700 on they are back, and nothing is due."""
    where = {WOLZ[0]: box("withdrawn"), WOLZ[1]: at("0808")}
    [f] = run(state(where, 5, None), {"relief_2": "yes", "next_0700": "no"}, **RELIEF)
    assert (f.severity, f.rule, f.units) == (Severity.ERROR, "g:S3.0", ("KG_Wolz_2",))
    assert (
        run(
            state({WOLZ[0]: at("0808"), WOLZ[1]: at("0808")}, 7, None),
            {"relief_2": "yes", "next_0700": "yes"},
            **RELIEF,
        )
        == []
    )


def test_s3_0_kg_wolz_not_on_the_map_is_no_event() -> None:
    """NQoS S3.0 event 3: "If KG Wolz is not on the map, treat this as no event": both units eliminated,
    the withdrawal asks for none: an INFO, no ERROR."""
    where = {WOLZ[0]: box("eliminated"), WOLZ[1]: box("eliminated")}
    found = run(state(where, 5, None), {"relief_2": "yes", "next_0700": "no"}, **RELIEF)
    assert severities(found) == [Severity.INFO]


def test_s5_3_a_withdrawal_roll_no_save_shows_is_said_not_guessed() -> None:
    """NQoS S5.3: "If the result is 0 or 1, all Units of that Formation ... withdraw for the remainder of
    the day. These Units return at the 0700 turn of the next day." The roll is not in a save: the event
    is unknown, and the finding is an INFO naming it, whatever the units' places."""
    rule = {
        **RELIEF,
        "rule_ref": "S5.3",
        "entries": [{"after": "s5_3_roll", "before": "next_0700", "units": {"formations": ["KG Wolz"]}}],
    }
    [f] = run(state({WOLZ[0]: at("0808"), WOLZ[1]: at("0808")}, 5, None), {}, **rule)
    assert (f.severity, f.rule) == (Severity.INFO, "g:S5.3") and "s5_3_roll" in f.message


def test_s5_3_a_count_of_units_from_a_selector() -> None:
    """NQoS S3.0 event 2: "withdraw enough Formations to give at least this many steps" picks among units;
    an entry's `count` asks for that many of the selected: 1 of the 2 KG Wolz units withdrawn meets count 1."""
    rule = {
        **RELIEF,
        "entries": [{"after": "relief_2", "before": "next_0700", "count": 1, "units": {"formations": ["KG Wolz"]}}],
    }
    assert (
        run(
            state({WOLZ[0]: box("withdrawn"), WOLZ[1]: at("0808")}, 5, None),
            {"relief_2": "yes", "next_0700": "no"},
            **rule,
        )
        == []
    )


def test_a_turn_withdrawal_that_returns_holds_only_until_its_return_turn() -> None:
    """A withdrawal with `until` (units back on that Game-Turn, as S5.3's "return at the 0700 turn of the
    next day" when its turn is known): due on turns 5-6, not on 7."""
    rule = {"box": "withdrawn", "entries": [{"turn": 5, "until": 7, "units": {"formations": ["KG Wolz"]}}]}
    where = {WOLZ[0]: at("0808"), WOLZ[1]: box("withdrawn")}
    assert severities(run(state(where, 6, None), **rule)) == [Severity.ERROR]
    assert run(state(where, 7, None), **rule) == []
    assert run(state(where, 4, None), **rule) == []


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"turn": 2, "after": "e", "kind": "mobile"}, "exactly one of 'turn' and 'after'"),
        ({"turn": 2}, "exactly one of 'units'"),
        ({"after": "e", "kind": "mobile"}, "need 'before'"),
        ({"turn": 3, "until": 3, "kind": "mobile"}, "entries[0].until"),
        ({"turn": 2, "kind": "mobile", "size": 3}, "unknown keys ['size']"),
    ],
)
def test_entries_that_do_not_fit_are_named(entry: dict[str, Any], words: str) -> None:
    """A malformed entry is a ValueError naming ``entries[i]`` (the engine makes it a PackError)."""
    with pytest.raises(ValueError) as e:
        run(state({}, 2, None), box="withdrawn", entries=[entry])
    assert words in str(e.value)


def test_never_return_takes_no_until() -> None:
    """Units that never return (KW 9.1) have no return turn: `until` with `never_return` is refused."""
    with pytest.raises(ValueError, match="never_return"):
        run(state({}, 2, None), box="withdrawn", never_return=True, entries=[{"turn": 2, "until": 4, "kind": "m"}])


def test_kind_selects_units_of_a_class() -> None:
    """KW 28 (Events, "2 Defense of the Reich: withdraw two TAC air units") read as `kind` with `count`:
    `kind = "air"` is `units = { kinds = ["air"] }`; one of the two air units withdrawn is an ERROR."""
    tac = [unit("TAC 1", "Axis", "German", kind="air"), unit("TAC 2", "Axis", "German", kind="air")]
    rule = {"box": "withdrawn", "never_return": True, "entries": [{"after": "reich", "kind": "air", "count": 2}]}
    found = run(
        state({tac[0]: box("withdrawn"), tac[1]: at("0303"), ARMOR: at("0404")}, 3, None), {"reich": "yes"}, **rule
    )
    assert severities(found) == [Severity.ERROR] and found[0].units == ("TAC_2",)


def pack(entries: list[dict[str, Any]]) -> RulePack:
    """A minimal pack naming the rule as a pack.toml would, validated by the pack loader."""
    return RulePack.from_mapping(
        {
            "pack": {"format": 1, "id": "kw", "name": "KW", "rulebook": "r", "module": {"name": "KW.*"}},
            "units": {"sides": ["Axis", "Allied"], "classes": ["mobile", "leader", "air"]},
            "rules": {
                "withdrawals": {
                    "impl": "withdrawals.schedule",
                    "rule_ref": "9.1",
                    "box": "withdrawn",
                    "never_return": True,
                    "entries": entries,
                }
            },
        }
    )


def test_9_1_through_the_pack_and_the_engine() -> None:
    """KW 9.1 as a pack states it: the engine runs the rule and cites the pack's id; a malformed entry is a
    PackError naming the rule and the entry."""
    ctx = RuleContext(TerrainMap(TerrainVocabulary(frozenset(), frozenset())), layout(), "kw")
    s = state({ARMOR: at("1212")}, 3, None)
    report = adjudicate(s, pack([{"turn": 2, "units": {"names": ["US 2 Armor"]}}]), ctx)
    assert [(f.rule, f.severity) for f in report.findings if f.rule.startswith("kw:9")] == [("kw:9.1", Severity.ERROR)]
    with pytest.raises(PackError, match=r"rules\.withdrawals: entries\[0\]: give exactly one of 'turn'"):
        adjudicate(s, pack([{"units": {"names": ["US 2 Armor"]}}]), ctx)
