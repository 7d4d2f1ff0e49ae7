"""The inside of a list or table parameter is checked as the pack is read (param_shape.py).

A pack author who writes ``unit`` for ``units`` in the second of Tunisia's stacking pools (seed
001 12: "A Tiger counter (and one only) can stack in addition of the limit") would otherwise get
a pool that picks nothing, or an exception when `check` runs. Each case below writes one bad
entry into one list or table parameter of a built-in implementation, in a ``[rules.probe]`` table
added to the Kasserine pack, and asserts the PackError's key path and words: `packs validate`
reports it before any save is read. A list or table parameter that declares no shape fails
`test_every_list_or_table_parameter_declares_its_shape`, so a new one cannot go unchecked.
"""

from __future__ import annotations

import copy
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO

from vassal_adj import cli
from vassal_adj.errors import PackError
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.registry import load_builtin_rules

KASSERINE = REPO / "modules" / "kasserine"
KASSERINE_DATA = tomllib.loads((KASSERINE / "pack.toml").read_text(encoding="utf-8"))

# The parameters each implementation requires, valid, so that only the parameter under test is wrong.
BASE = {
    "air.range": 'side = "Axis"\nunits = {}\nbases = [{ place_kind = "airfield" }]',
    "dice.table": 'button = "1d6"',
    "log.one_source": 'supply = { Axis = "supply" }',
    "track.ledger": 'tracks = { axis_ap = "Axis" }\ncosts = { move = 1 }',
    "transport.modes": 'modes = [{ name = "sea", from = [{ box = "staging" }], to = [{ place_kind = "port" }] }]',
    "combat.displacement": 'phases = { axis-combat = "Axis" }\nretreat_max = 2\nadvance_max = 1',
    "marker.state": 'states = [{ units = {}, requires = { units = {}, within = "hex" } }]',
    "units.quota": 'units = {}\nlimits = { "*" = { Axis = 1 } }',
    "movement.restricted": 'restrictions = [{ units = {}, may_not = "move" }]',
    "reinforcements.schedule": 'side = "Allied"\nentries = [{ turn = 2, at = ["0101"], units = ["x"] }]\n'
    'boxes = { turn = "Turn {turn}" }',
    "setup.reference": 'setup = "Historical"',
    "setup.deployment": 'side = "Axis"\ngroups = [{ at = "0101", placement = "exact", units = ["x"] }]',
    "stacking.pools": 'pools = [{ name = "all", units = {}, limit = 2 }]',
    "supply.trace": 'side = "Axis"\ninitial = 4\nsources = ["0101"]',
    "supply.hq_chain": 'side = "Axis"\nhq = { kinds = ["hq"] }\nsources_by = { Axis = ["0101"] }',
    "supply.loc": 'side = "Axis"\nsources = [{ places = ["0101"] }]',
    "victory.conditions": 'conditions = { hold = { side = "Axis", place = "0101" } }',
    "victory.points": "eliminated = { Axis = { factor = 1 } }\n"
    'objectives = [{ name = "x", hex = "0101", points = 1 }]\n'
    'levels = [{ level = "win", min = 0 }]',
    "victory.tally": 'side = "Axis"\nitems = [{ place = "0101", points = 1 }]',
    "withdrawals.schedule": 'box = "Withdrawn"\nentries = [{ turn = 2, units = {} }]',
}
SUPPLY = '{ Axis = { initial = 4, source = ["0101"] } }'
UNKNOWN = "unknown key (known here:"

# (implementation, parameter): (the value written, the key path after rules.probe., the message's start)
CASES = {
    ("air.range", "bases"): ('[{ place_kind = "airfield" }, { place = "0101" }]', "bases[1].place", UNKNOWN),
    ("air.range", "over"): ('[{ units = {}, hex = ["0101"] }]', "over[0].hex", UNKNOWN),
    ("dice.table", "effects"): ('{ "*" = { "1-3" = { axis_ap = "1" } } }', 'effects."*"."1-3".axis_ap', "expected int"),
    ("dice.table", "kinds"): ('["action", 1]', "kinds[1]", "expected str"),
    ("dice.table", "phases"): ('[["action"]]', "phases[0]", "expected str"),
    ("dice.table", "sides"): ('[{ side = "Axis" }]', "sides[0]", "expected str"),
    ("dice.table", "success_at_most"): ("[3]", "success_at_most", "expected str or int"),
    ("dice.table", "returns_after"): ('{ "1-3" = 0, "4-6" = true }', 'returns_after."4-6"', "expected int or str"),
    ("dice.table", "table"): ('{ "*" = { "1-3" = 1 } }', 'table."*"."1-3"', "expected str"),
    ("log.action_turns", "tracks"): ('{ axis_ap = ["Axis"] }', "tracks.axis_ap", "expected str"),
    ("log.one_source", "supply"): ('{ Axis = ["supply"] }', "supply.Axis", "expected str"),
    ("log.segments", "moves_not_interleaved"): ("1", "moves_not_interleaved", "expected bool or str"),
    ("reinforcements.schedule", "at_start"): (
        '{ scenario-2 = { flag = ["x"] } }',
        "at_start.scenario-2.flag",
        "unknown key 'flag'",
    ),
    ("track.bounds", "bounds"): ('{ axis_ap = [0, "14"] }', "bounds.axis_ap", "expected list[int]"),
    ("track.ledger", "costs"): ('{ move = "1" }', "costs.move", "expected int"),
    ("track.ledger", "entry_kinds"): ('[{ kind = "garrison", unit = {} }]', "entry_kinds[0].unit", UNKNOWN),
    ("track.ledger", "gain_constant"): ('{ Axis = "2" }', "gain_constant.Axis", "expected int"),
    ("track.ledger", "gain_events"): ('{ Axis = [2, "-1"] }', "gain_events.Axis[1]", "expected int"),
    ("track.ledger", "no_constant"): ('[{ scenario = "s2", turns = 3 }]', "no_constant[0].turns", UNKNOWN),
    ("track.ledger", "tracks"): ("{ axis_ap = 1 }", "tracks.axis_ap", "expected str"),
    ("transport.modes", "modes"): (
        '[{ name = "sea", from = [{ box = "staging" }], to = [{ place_knd = "port" }] }]',
        "modes[0].to[0].place_knd",
        UNKNOWN,
    ),
    ("transport.modes", "tracks"): ("{ axis_ap = 1 }", "tracks.axis_ap", "expected str"),
    ("combat.displacement", "phases"): ("{ axis-combat = 1 }", "phases.axis-combat", "expected str"),
    ("combat.displacement", "overrides"): ("[{ unit = {}, retreat_max = 1 }]", "overrides[0].unit", UNKNOWN),
    ("log.segments", "by"): ('{ trak = "Action" }', "by.trak", UNKNOWN),
    ("log.segments", "single_if"): ('{ flag = ["out-of-supply"] }', "single_if.flag", UNKNOWN),
    ("log.segments", "movers"): (
        '{ axis-movement = { formation = ["$f"] } }',
        "movers.axis-movement.formation",
        UNKNOWN,
    ),
    ("movement.allowance", "weather_allowance"): (
        '{ poor = [[8, "x"]] }',
        "weather_allowance.poor[0]",
        "expected list[int]",
    ),
    ("units.quota", "limits"): ('{ campaign-1 = { Axis = "3" } }', "limits.campaign-1.Axis", "expected int"),
    ("movement.allowance", "zoc_exceptions"): (
        "[{ units = {}, not_passed = {} }]",
        "zoc_exceptions[0].not_passed",
        UNKNOWN,
    ),
    ("movement.allowance", "cost_modifiers"): ('[{ wether = "poor", add = 1 }]', "cost_modifiers[0].wether", UNKNOWN),
    ("movement.allowance", "exit_multiplier"): ('{ rough = "2" }', "exit_multiplier.rough", "expected int"),
    ("movement.allowance", "allowance_modifiers"): (
        '[{ kind = ["armor"], cap = 1 }]',
        "allowance_modifiers[0].kind",
        UNKNOWN,
    ),
    ("movement.allowance", "enterable_enemy"): (
        '{ kinds = ["hq"], extra_mp = 2 }',
        "enterable_enemy.extra_mp",
        UNKNOWN,
    ),
    ("movement.restricted", "restrictions"): (
        '[{ units = {}, may_not = "move", untill = "x" }]',
        "restrictions[0].untill",
        UNKNOWN,
    ),
    ("movement.restricted", "events"): ('{ arrival = { marker = "M", turn = 2 } }', "events.arrival.turn", UNKNOWN),
    ("reinforcements.schedule", "entries"): ('[{ turn = 2, at = ["0101"], unit = ["x"] }]', "entries[0].unit", UNKNOWN),
    ("reinforcements.schedule", "events"): (
        '{ arrival = { side = "Axis", within = 2, off = ["0101"] } }',
        "events.arrival.off",
        UNKNOWN,
    ),
    ("reinforcements.schedule", "boxes"): ('{ turns = "Turn {turn}" }', "boxes.turns", UNKNOWN),
    ("reinforcements.schedule", "returns"): (
        '[{ units = {}, after = 2, too = "Turn {turn}" }]',
        "returns[0].too",
        UNKNOWN,
    ),
    ("setup.reference", "setup"): ("1", "setup", "expected str or table"),
    ("setup.constraints", "in"): ('[{ units = {}, hexs = ["0101"] }]', "in[0].hexs", UNKNOWN),
    ("setup.constraints", "count"): ('[{ units = {}, in = ["0101"], minimum = 1 }]', "count[0].minimum", UNKNOWN),
    ("setup.constraints", "one_each"): ('[{ units = {}, hex = ["0101"] }]', "one_each[0].hex", UNKNOWN),
    ("setup.constraints", "spacing"): ("[{ units = {}, distance = 2 }]", "spacing[0].distance", UNKNOWN),
    ("setup.constraints", "with"): ("[{ units = {}, of = {}, range = 1 }]", "with[0].range", UNKNOWN),
    ("setup.deployment", "groups"): ('[{ at = "0101", placement = "exact", unit = ["x"] }]', "groups[0].unit", UNKNOWN),
    ("stacking.limit", "per_kind"): ('{ artillery = "1" }', "per_kind.artillery", "expected int"),
    ("marker.state", "states"): (
        '[{ flag = "em-flipped", reset_at = "turn-start", requires = { unit = {}, within = "hex" } }]',
        "states[0].requires.unit",
        UNKNOWN,
    ),
    ("stacking.pools", "pools"): (
        '[{ name = "a", units = {}, limit = 2 }, { name = "b", unit = {}, limit = 1 }]',
        "pools[1].unit",
        UNKNOWN,
    ),
    ("supply.trace", "obstruction"): ("{ enemy_zone = false }", "obstruction.enemy_zone", UNKNOWN),
    ("supply.hq_chain", "obstruction"): ("{ friendly_negates = true }", "obstruction.friendly_negates", UNKNOWN),
    ("supply.loc", "sources"): ('[{ place_knd = "port" }]', "sources[0].place_knd", UNKNOWN),
    ("supply.loc", "always_supplied"): ('{ box = ["Axis Staging Area"] }', "always_supplied.box", UNKNOWN),
    ("supply.loc", "obstruction"): ("{ enemy_zone = false }", "obstruction.enemy_zone", UNKNOWN),
    ("victory.conditions", "conditions"): (
        '{ hold = { side = "Axis", places = "0101" } }',
        "conditions.hold.places",
        UNKNOWN,
    ),
    ("victory.conditions", "sudden_death"): (
        '[{ result = "win", all = ["hold"], when = 3 }]',
        "sudden_death[0].when",
        UNKNOWN,
    ),
    ("victory.conditions", "end"): ('[{ result = "win", al = ["hold"] }]', "end[0].al", UNKNOWN),
    ("victory.conditions", "control"): ("{ unit = {} }", "control.unit", UNKNOWN),
    ("victory.conditions", "supply"): (SUPPLY, "supply.Axis.source", UNKNOWN),
    ("victory.points", "eliminated"): ("{ Axis = { factr = 1 } }", "eliminated.Axis.factr", UNKNOWN),
    ("victory.points", "objectives"): ('[{ name = "x", hex = "0101", point = 1 }]', "objectives[0].point", UNKNOWN),
    ("victory.points", "levels"): ('[{ level = "win", minimum = 0 }]', "levels[0].minimum", UNKNOWN),
    ("victory.points", "late_penalty"): ("{ points = 1, after = 3 }", "late_penalty.after", UNKNOWN),
    ("victory.points", "withdrawal_markers"): ("{ Axis = 1 }", "withdrawal_markers.Axis", "expected str"),
    ("victory.points", "withdrawal_hold"): (
        '{ side = "Axis", formation = "x", hex = "0101", within = 2, turns_after = 1, factors = 1 }',
        "withdrawal_hold.factors",
        UNKNOWN,
    ),
    ("victory.points", "withdrawal_exit"): (
        '{ side = "Axis", turns_after = 1, factor = 1, hex = ["0101"] }',
        "withdrawal_exit.hex",
        UNKNOWN,
    ),
    ("victory.points", "end_enemy_source_exit"): (
        '{ factor = 1, network = [["road"]] }',
        "end_enemy_source_exit.network",
        UNKNOWN,
    ),
    ("victory.points", "end_own_source_exit"): ('{ per_point = 1, kind = ["x"] }', "end_own_source_exit.kind", UNKNOWN),
    ("victory.tally", "items"): ('[{ place = "0101", points = 1, pre = "hex" }]', "items[0].pre", UNKNOWN),
    ("victory.tally", "levels"): ('[{ level = "win", mx = 3 }]', "levels[0].mx", UNKNOWN),
    ("victory.tally", "control"): ('{ requires = ["supplied"], unit = {} }', "control.unit", UNKNOWN),
    ("victory.tally", "supply"): (SUPPLY, "supply.Axis.source", UNKNOWN),
    ("weather.effects", "ground_support"): ('{ poor = "none" }', "ground_support.poor", "expected int"),
    ("withdrawals.schedule", "entries"): ("[{ turn = 2, units = {}, untill = 3 }]", "entries[0].untill", UNKNOWN),
    ("zoc.engaged", "combat_phases"): ('{ axis-combat = ["Axis"] }', "combat_phases.axis-combat", "expected str"),
    ("zoc.engaged", "movement_phases"): (
        '{ axis-movement = ["Axis"] }',
        "movement_phases.axis-movement",
        "expected str",
    ),
}


def probe_text(impl: str, param: str, value: str) -> str:
    """The ``[rules.probe]`` table: the implementation's required parameters, `param` = `value`."""
    lines = [line for line in BASE.get(impl, "").splitlines() if line.split(" = ")[0] != param]
    return "\n".join([f'impl = "{impl}"', 'rule_ref = "1.0"', *lines, f"{param} = {value}"])


def read_with_probe(text: str) -> RulePack:
    data = copy.deepcopy(KASSERINE_DATA)
    data["rules"]["probe"] = tomllib.loads(text)
    return RulePack.from_mapping(data, source="pack.toml")


def shaped_params() -> set[tuple[str, str]]:
    return {
        (impl.name, k)
        for impl in load_builtin_rules().catalog()
        for k, t in impl.types.items()
        if t in ("list", "table", "any")
    }


def test_every_list_or_table_parameter_declares_its_shape() -> None:
    """A "list", "table" or "any" parameter names the keys of its entries, so validate can check them."""
    missing = sorted(
        f"{impl.name}.{k}"
        for impl in load_builtin_rules().catalog()
        for k, t in impl.types.items()
        if t in ("list", "table", "any") and impl.params[k].shape is None
    )
    assert not missing, f"parameters with no shape (Param(..., shape=...), param_shape.py): {missing}"


def test_every_shaped_parameter_has_a_bad_entry_case() -> None:
    assert shaped_params() == set(CASES), sorted(shaped_params() ^ set(CASES))


@pytest.mark.parametrize(("impl", "param"), sorted(CASES))
def test_a_bad_entry_names_its_key_path(impl: str, param: str) -> None:
    value, path, message = CASES[(impl, param)]
    with pytest.raises(PackError) as e:
        read_with_probe(probe_text(impl, param, value))
    assert e.value.message.startswith(f"rules.probe.{path}: {message}"), e.value.message


@pytest.mark.parametrize("impl", sorted({impl for impl, _ in CASES}))
def test_the_base_of_each_case_is_valid(impl: str) -> None:
    """The cases fail for their bad entry alone: the required parameters around it are valid."""
    assert read_with_probe(probe_text(impl, "note", '"base"')).rule("probe").impl == impl


def test_a_misspelt_selector_key_inside_a_pool() -> None:
    """seed 001 12: the Tiger pool picks ``{ flags = ["tiger"] }``; ``flag`` would pick every unit."""
    with pytest.raises(PackError) as e:
        read_with_probe(
            probe_text("stacking.pools", "pools", '[{ name = "tiger", units = { flag = ["tiger"] }, limit = 1 }]')
        )
    assert e.value.message.startswith("rules.probe.pools[0].units.flag: unknown key 'flag'"), e.value.message


def test_a_missing_required_key_of_an_entry() -> None:
    """A set-up group (23) without its placement: named at validate time, not when a save is checked."""
    with pytest.raises(PackError) as e:
        read_with_probe(probe_text("setup.deployment", "groups", '[{ at = "0101", units = ["x"] }]'))
    assert e.value.message == "rules.probe.groups[0].placement: missing required key"


def test_an_empty_optional_table_is_not_given() -> None:
    """``late_penalty = {}`` (the default) leaves the rule out; given, its points and turn are required."""
    assert read_with_probe(probe_text("victory.points", "late_penalty", "{}")).rule("probe")
    with pytest.raises(PackError) as e:
        read_with_probe(probe_text("victory.points", "late_penalty", "{ points = 1 }"))
    assert e.value.message == "rules.probe.late_penalty.after_turn: missing required key"


def test_packs_validate_reports_the_key_path(tmp_path: Path) -> None:
    pack = tmp_path / "kasserine-copy"
    shutil.copytree(KASSERINE, pack, ignore=shutil.ignore_patterns("example"))
    toml = pack / "pack.toml"
    value = '[{ name = "a", units = {}, limit = 2 }, { name = "b", unit = {}, limit = 1 }]'
    toml.write_text(
        toml.read_text(encoding="utf-8") + "\n[rules.probe]\n" + probe_text("stacking.pools", "pools", value) + "\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli.main, ["packs", "validate", str(pack)])
    assert result.exit_code == 1, result.output
    assert f"{toml}: error: rules.probe.pools[1].unit: unknown key" in result.output


@pytest.mark.parametrize(
    "value", ['"roll"', "0", '{ "1-4" = [0, "roll"], "5-6" = [1, "roll"] }', '{ Axis = { "1-6" = "roll" } }']
)
def test_returns_after_loads_in_each_of_its_forms(value: str) -> None:
    """8.1.1 / 20.6 returns: "roll" turns later, a number, a table by roll, or one by side (param_shape.Keyed)."""
    assert read_with_probe(probe_text("dice.table", "returns_after", value)).rule("probe").impl == "dice.table"


def test_a_bad_return_by_side_names_its_key_path() -> None:
    with pytest.raises(PackError) as e:
        read_with_probe(probe_text("dice.table", "returns_after", '{ Axis = { "1-6" = [0, 1.5] } }'))
    assert e.value.message.startswith('rules.probe.returns_after.Axis."1-6"[1]: expected int or str'), e.value.message
