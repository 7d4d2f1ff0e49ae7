"""pack.toml validation (rules/packs/pack.py): key paths, required parameters, types, assumptions."""

from __future__ import annotations

import copy
import tomllib
from typing import Any

import pytest

from vassal_adj.errors import PackError
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.registry import REQUIRED, Param, Registry

PACK = """
[pack]
id = "kasserine"
name = "Kasserine"
aliases = ["Baptism of Fire"]
rulebook = "Kasserine, Decision Games/HexWar edition"
[pack.module]
name = "Kasserine.*"
version = "1\\\\..*"

[terrain]
types = ["clear", "rough", "town"]
features = ["road", "trail", "stream", "bridge"]

[units]
sides = ["Axis", "Allied"]
[units.classes.armor]
mechanized = true
[units.classes.infantry]

[assumptions.stacking_limit]
value = 1
source = "1976 SPI quadrigame rules, as publicly described"
rule = "23"

[rules.axis_supply]
impl = "supply.trace_to_network"
rule_ref = "17.11"
max_path = 4
sources = ["0623-1423", "2126-3926", "3926-3916"]

[rules.stacking]
impl = "stacking.max_units"
rule_ref = "23"
max_units = { assumption = "stacking_limit" }
"""


@pytest.fixture
def registry() -> Registry:
    r = Registry()

    @r.register(
        "supply.trace_to_network",
        params={"max_path": 4, "network": ("road", "trail"), "sources": Param(REQUIRED, "list[str]")},
    )
    def trace() -> None:
        """Supply trace."""

    @r.register("stacking.max_units", params={"max_units": 1, "exempt": Param((), "list[str]")})
    def stack() -> None:
        """Stacking."""

    return r


def data() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(PACK))


def load(d: dict[str, Any], registry: Registry) -> RulePack:
    return RulePack.from_mapping(d, registry=registry)


def error(d: dict[str, Any], registry: Registry) -> str:
    with pytest.raises(PackError) as e:
        load(d, registry)
    assert e.value.where is not None and e.value.where.path == "pack.toml"
    return str(e.value)


def test_a_valid_pack(registry: Registry) -> None:
    p = load(data(), registry)
    assert p.id == "kasserine" and p.names == ("kasserine", "Baptism of Fire")
    assert p.fits("Kasserine", "1.2") and not p.fits("Kasserine", "2.0") and not p.fits("Crusader", "1.0")
    assert p.vocabulary.terrain == {"clear", "rough", "town"}
    assert p.unit_classes["armor"].mechanized and not p.unit_classes["infantry"].mechanized
    supply = p.rule("axis_supply")
    assert supply.params.max_path == 4 and supply.params.network == ("road", "trail")  # a default
    assert supply.params.sources == ("0623-1423", "2126-3926", "3926-3916")
    assert supply.given == {"max_path", "sources"}
    assert p.cite("axis_supply") == "kasserine:17.11"
    assert [r.name for r in p.rules] == ["axis_supply", "stacking"]  # declared order
    assert p.rules_using("stacking.max_units") == (p.rule("stacking"),)
    assert p.effective_parameters()["stacking"] == {
        "impl": "stacking.max_units",
        "rule_ref": "23",
        "max_units": 1,
        "exempt": (),
    }
    with pytest.raises(KeyError, match="no rule 'supply'"):
        p.rule("supply")


def test_assumption_reference_gives_value_and_is_recorded(registry: Registry) -> None:
    d = data()
    d["assumptions"]["stacking_limit"]["value"] = 2
    p = load(d, registry)
    assert p.rule("stacking").params.max_units == 2
    assert dict(p.rule("stacking").assumed) == {"max_units": "stacking_limit"}
    a = p.assumptions["stacking_limit"]
    assert a.source.startswith("1976 SPI") and a.rule == "23"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["rules"]["axis_supply"].update(max_pathh=4),
            "pack.toml: rules.axis_supply.max_pathh: unknown key: 'supply.trace_to_network' takes no parameter "
            "'max_pathh' (its parameters: max_path, network, sources)",
        ),
        (
            lambda d: d.update(rule={}),
            "pack.toml: rule: unknown key (known here: assumptions, boxes, dice, examples, options, pack, rules, "
            "scenarios, state, terrain, units)",
        ),
        (lambda d: d["pack"].update(alias=["x"]), "pack.toml: pack.alias: unknown key"),
        (lambda d: d["pack"]["module"].update(versoin="1"), "pack.toml: pack.module.versoin: unknown key"),
        (lambda d: d["terrain"].update(hexsides=[]), "pack.toml: terrain.hexsides: unknown key"),
        (
            lambda d: d["units"]["classes"]["armor"].update(mech=True),
            "pack.toml: units.classes.armor.mech: unknown key",
        ),
        (
            lambda d: d["assumptions"]["stacking_limit"].update(sauce="x"),
            "pack.toml: assumptions.stacking_limit.sauce: unknown key",
        ),
        (lambda d: d.update(state={"trackr": "Game Turn"}), "pack.toml: state.trackr: unknown key"),
        (
            lambda d: d.update(state={"phases": {"Axis Movement": 3}}),
            'pack.toml: state.phases."Axis Movement": expected a phase id (str), got 3',
        ),
        (lambda d: d.update(state={"weather_by_turn": ["good", ""]}), "pack.toml: state.weather_by_turn: empty name"),
    ],
)
def test_unknown_keys_name_the_key_path(registry: Registry, edit: Any, message: str) -> None:
    d = data()
    edit(d)
    assert error(d, registry).startswith(message)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["rules"]["axis_supply"].pop("sources"),
            "pack.toml: rules.axis_supply.sources: missing required parameter of 'supply.trace_to_network'",
        ),
        (lambda d: d["rules"]["axis_supply"].pop("impl"), "pack.toml: rules.axis_supply.impl: missing required key"),
        (
            lambda d: d["rules"]["axis_supply"].pop("rule_ref"),
            "pack.toml: rules.axis_supply.rule_ref: missing required key",
        ),
        (lambda d: d["pack"].pop("id"), "pack.toml: pack.id: missing required key"),
        (lambda d: d.pop("pack"), "pack.toml: pack: missing required key"),
        (lambda d: d["pack"]["module"].pop("name"), "pack.toml: pack.module.name: missing required key"),
        (
            lambda d: d["assumptions"]["stacking_limit"].pop("source"),
            "pack.toml: assumptions.stacking_limit.source: missing required key",
        ),
        (lambda d: d["units"].pop("sides"), "pack.toml: units.sides: missing required key"),
    ],
)
def test_missing_required(registry: Registry, edit: Any, message: str) -> None:
    d = data()
    edit(d)
    assert error(d, registry) == message


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["rules"]["axis_supply"].update(max_path="four"),
            "rules.axis_supply.max_path: expected int, got 'four' (str)",
        ),
        (
            lambda d: d["rules"]["axis_supply"].update(max_path=True),
            "rules.axis_supply.max_path: expected int, got True (bool)",
        ),
        (
            lambda d: d["rules"]["axis_supply"].update(sources=["0623-1423", 2126]),
            "rules.axis_supply.sources: expected list[str], got ['0623-1423', 2126] (item 1 is 2126, a int)",
        ),
        (
            lambda d: d["rules"]["axis_supply"].update(rule_ref=17.11),
            "rules.axis_supply.rule_ref: expected str (the rule number as printed, quoted), got 17.11 (float)",
        ),
        (
            lambda d: d["rules"]["axis_supply"].update(enabled="no"),
            "rules.axis_supply.enabled: expected bool, got 'no' (str)",
        ),
        (
            lambda d: d["pack"].update(aliases="Baptism of Fire"),
            "pack.aliases: expected list[str], got 'Baptism of Fire' (str)",
        ),
        (lambda d: d["pack"].update(name=3), "pack.name: expected str, got 3 (int)"),
        (
            lambda d: d["units"]["classes"]["armor"].update(mechanized="yes"),
            "units.classes.armor.mechanized: expected bool, got 'yes' (str)",
        ),
        (lambda d: d["rules"].update(axis_supply=4), "rules.axis_supply: expected a table, got 4 (int)"),
        (
            lambda d: d["assumptions"]["stacking_limit"].update(value="one"),
            "rules.stacking.max_units: expected int, got 'one' (str) (from assumptions.stacking_limit)",
        ),
    ],
)
def test_wrong_types_quote_value_and_expected_type(registry: Registry, edit: Any, message: str) -> None:
    d = data()
    edit(d)
    assert error(d, registry) == f"pack.toml: {message}"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda d: d["rules"]["axis_supply"].update(impl="supply.trace"),
            "rules.axis_supply.impl: unknown implementation 'supply.trace' "
            "(known: stacking.max_units, supply.trace_to_network)",
        ),
        (
            lambda d: d["rules"]["stacking"].update(max_units={"assumption": "stack_limit"}),
            "rules.stacking.max_units: unknown assumption 'stack_limit' (known: stacking_limit)",
        ),
        (
            lambda d: d["assumptions"]["stacking_limit"].update(source="  "),
            "assumptions.stacking_limit.source: empty source: say where the value comes from",
        ),
        (lambda d: d["pack"].update(id="Kasserine"), "pack.id: bad pack id 'Kasserine'"),
        (lambda d: d["pack"].update(aliases=["KASSERINE"]), "pack.aliases: alias 'KASSERINE' repeats the id"),
        (lambda d: d["pack"].update(aliases=["a", "a"]), "pack.aliases: 'a' given twice"),
        (
            lambda d: d["pack"]["module"].update(name="Kass(erine"),
            "pack.module.name: bad regular expression 'Kass(erine'",
        ),
        (lambda d: d["pack"].update(format=2), "pack.format: unsupported pack format 2"),
        (lambda d: d["terrain"].update(types=["clear", "open ground"]), "terrain.types: bad name 'open ground'"),
        (
            lambda d: d["rules"]["axis_supply"].update(rule_ref=" 17.11"),
            "rules.axis_supply.rule_ref: bad rule number ' 17.11'",
        ),
        (lambda d: d["units"]["classes"].update({"mech inf": {}, "x": {"y": 1}}), "units.classes.x.y: unknown key"),
    ],
)
def test_bad_values(registry: Registry, edit: Any, message: str) -> None:
    d = data()
    edit(d)
    assert error(d, registry).startswith(f"pack.toml: {message}")


def test_quoted_keys_in_paths(registry: Registry) -> None:
    d = data()
    d["units"]["classes"]["mech inf"] = {"fast": True}
    assert error(d, registry).startswith('pack.toml: units.classes."mech inf".fast: unknown key')


def test_source_names_the_file(registry: Registry) -> None:
    d = data()
    d["rules"]["axis_supply"]["max_pathh"] = 4
    with pytest.raises(PackError) as e:
        RulePack.from_mapping(d, source="modules/kasserine/pack.toml", registry=registry)
    assert str(e.value).startswith("modules/kasserine/pack.toml: rules.axis_supply.max_pathh: unknown key")


def test_short_forms_and_defaults(registry: Registry) -> None:
    d = {"pack": {"id": "tiny", "name": "Tiny"}, "units": {"sides": ["A", "B"], "classes": ["infantry"]}}
    p = load(d, registry)
    assert p.module_name == ".*" and p.fits("Anything", "9")
    assert list(p.unit_classes) == ["infantry"] and p.rules == () and p.terrain_file == "terrain.csv"
    assert "supply-source" in p.vocabulary.place_kinds


def test_disabled_rule_is_kept_but_not_used(registry: Registry) -> None:
    d = data()
    d["rules"]["stacking"]["enabled"] = False
    p = load(d, registry)
    assert not p.rule("stacking").enabled and p.rules_using("stacking.max_units") == ()


def test_state_weather_table_by_turn(registry: Registry) -> None:
    d = data()
    d["state"] = {
        "tracker": "Game Turn",
        "phase_level": "Phase",
        "phases": {"Axis Movement": "axis-movement"},
        "weather_rule": "20.4",
        "weather_by_turn": ["good", "good", "fair", "poor"],
    }
    st = load(d, registry).state
    assert (st.tracker, st.turn_level, st.phase_level) == ("Game Turn", "Turn", "Phase")
    assert [st.weather(t) for t in (0, 1, 3, 4, 5, None)] == [None, "good", "fair", "poor", None, None]
    assert dict(st.phases) == {"Axis Movement": "axis-movement"}
