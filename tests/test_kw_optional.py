"""Kesselring's War (seed 004) optional rules 30-37 as a game's choice (``[options.<id>]``,
vassal_adj/rules/packs/pack_options.py): what each chosen option puts in force or out, worked from
the seed's words on the example board; and the switch itself with a second pack (Kasserine)."""

import copy
import dataclasses
import shutil
import tomllib

import pytest
from click.testing import CliRunner
from conftest import REPO
from kw_board import LAYOUT, PACK, TERRAIN, errors, outcome, state, unit

from vassal_adj import cli
from vassal_adj.errors import PackError, UsageError
from vassal_adj.model.state import Position
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.pack_options import OptionChoice, chosen_options
from vassal_adj.rules.scope_events import event_reader


def u(name):
    return unit(name, "")


US3 = u("3 [US infantry XX] 6-5-4 *")
US9 = u("9 [US infantry XX] 6-5-4 *")
ARMD = u("2 Armd [US armor XX] 8-6-6 *")
PZ16 = u("16 Pz [GE armor XX] 7-5-5 *")
OPEN_CITY = unit("Open City", "Axis")
FORT = unit("Fortification", "Axis")
MAINLAND_OBJECTIVES = ["3112", "3714", "2917", "3321"]  # Roma, San Benedetto, Napoli, Foggia


def run(rule, st, scenario="scenario-1", options=()):
    """The pack's rule `rule` alone on `st`, the game playing with `options`."""
    rp = dataclasses.replace(PACK, rules=(PACK.rule(rule),))
    ctx = RuleContext(
        TERRAIN,
        LAYOUT,
        PACK.id,
        scenario=PACK.scenarios[scenario],
        events=event_reader(PACK.rules),
        options=OptionChoice(PACK.options, frozenset(options)),
    )
    return list(adjudicate(st, rp, ctx).findings)


def not_in_force(found):
    (f,) = found
    assert f.severity == "info" and "is not in force" in f.message
    return f.message


def test_an_optional_rule_is_off_unless_the_game_plays_with_it():
    # 34.0 "The Axis may declare Roma and Monte Cassino as Open Cities": an option of the game.
    bad = state({OPEN_CITY: "2917"}, 4, "action")
    msg = not_in_force(run("open_city_places", bad))
    assert "--option open-cities" in msg and "Open Cities = 'on'" in msg
    assert errors(run("open_city_places", bad, options=["open-cities"]))


def test_options_are_chosen_by_option_or_by_the_saves_global_property():
    notes = []
    choice = chosen_options(PACK.options, ["achse"], {"Open Cities": "on", "Victory in the South": "off"}, notes)
    assert choice.chosen == {"achse", "open-cities"}
    assert any("given by --option" in n for n in notes) and any("global property Open Cities" in n for n in notes)
    with pytest.raises(UsageError, match="known: achse, open-cities"):
        chosen_options(PACK.options, ["open-city"], {}, [])


def test_30_achse_replaces_the_mainland_invasion_rule():
    # 30.0 "This rule replaces the Scenario I Italian Surrender & Mainland Invasion special rule";
    # 30.1 "The Allies may invade the Italian mainland regardless of the table results". Without it,
    # 27.1 4a "Prior to Italian Surrender, Allied ground units may not enter mainland Italy".
    st = dataclasses.replace(state({US3: "2917"}, 2, "action"), markers={"Italian Surrender": (Position(),)})
    (msg,) = errors(run("mainland_invasion", st))
    assert "Mainland Italy" in msg and "[27.1]" in msg
    msg = not_in_force(run("mainland_invasion", st, options=["achse"]))
    assert "optional rule achse (30.0 Operation Achse), which replaces it" in msg


def test_34_an_open_city_only_at_roma_or_monte_cassino():
    # 34.1 "Place an Open City marker on either location" (Roma 3112, Monte Cassino 3016).
    on = ["open-cities"]
    assert errors(run("open_city_places", state({OPEN_CITY: "3112", PZ16: "3112"}, 4, "action"), options=on)) == []
    assert errors(run("open_city_places", state({OPEN_CITY: "3016"}, 4, "action"), options=on)) == []
    (msg,) = errors(run("open_city_places", state({OPEN_CITY: "2917"}, 4, "action"), options=on))
    assert "Open City" in msg and "[34.1]" in msg


def test_34_2_an_open_city_ends_when_an_allied_ground_unit_enters_and_takes_no_fortification():
    # 34.2 "The Open City marker remains in effect until an Allied ground unit enters the hex, at
    # which point it is permanently removed"; "A Fortification marker may not be placed on an Open
    # City hex". The Axis need not stay ("There are no LOC or ZOC considerations").
    on = ["open-cities"]
    assert errors(run("open_cities", state({OPEN_CITY: "3112"}, 5, "action"), options=on)) == []
    (msg,) = errors(run("open_cities", state({OPEN_CITY: "3112", US3: "3112"}, 5, "action"), options=on))
    assert msg == (
        "Axis Open City in 3112 stays on the map with a Allied ground unit in its hex "
        "(Allied 3 [US infantry XX] 6-5-4 *) [34.2]"
    )
    (msg,) = errors(run("open_cities", state({OPEN_CITY: "3112", FORT: "3112", PZ16: "3112"}, 5, "action"), options=on))
    assert "with a Fortification in its hex" in msg


def held(side_units, turn=8):
    return state(dict(zip(side_units, MAINLAND_OBJECTIVES, strict=False)), turn, "end")


AXIS_GARRISONS = [u(f"Garrison {i + 1} [AX garrison] 0-2 *") for i in range(4)]
ALLIED_GARRISONS = [u(f"Garrison A{i + 1} [AL garrison] 0-2 *") for i in range(4)]


def test_36_3_the_axis_must_hold_every_mainland_objective():
    # 36.3 "The Axis must occupy, with mobile or static ground units, all Objective hexes on Mainland
    # Italy during the End of Turn phase of GT 8. If the Axis fails to occupy all these hexes, the
    # Allies win a Strategic Victory." Mainland Objectives: Roma, San Benedetto, Napoli, Foggia.
    south = ["victory-in-the-south"]
    assert "36.3 met" in outcome(run("victory_south", held(AXIS_GARRISONS), options=south))
    three = held(AXIS_GARRISONS[:3])
    assert "Allied Strategic Victory (36.3" in outcome(run("victory_south", three, options=south))
    not_in_force(run("victory_south", three))


def test_37_2_the_allies_must_hold_every_mainland_objective_and_both_rules_draw():
    # 37.2 "If the Allies fail to occupy all these hexes, the Axis win a Strategic Victory."
    # "If both Optional Rules 36.0 AND 37.0 are in use, and neither side achieves the specified
    # victory conditions, the game ends in a draw."
    gambit, both = ["mediterranean-gambit"], ["mediterranean-gambit", "victory-in-the-south"]
    assert "37.2 met" in outcome(run("victory_gambit", held(ALLIED_GARRISONS), options=gambit))
    split = state({AXIS_GARRISONS[0]: "3112", ALLIED_GARRISONS[0]: "2917"}, 8, "end")
    assert "Axis Strategic Victory (37.2" in outcome(run("victory_gambit", split, options=gambit))
    assert "this state: Draw (36.0 and 37.0 in use" in outcome(run("victory_south_gambit", split, options=both))
    assert "36.3 met" in outcome(run("victory_south_gambit", held(AXIS_GARRISONS), options=both))
    # With both, neither single rule speaks; with one, the pair's rule does not.
    assert "replaces it" in not_in_force(run("victory_south", split, options=both))
    assert "replaces it" in not_in_force(run("victory_gambit", split, options=both))
    assert "--option victory-in-the-south" in not_in_force(run("victory_south_gambit", split, options=gambit))


def test_37_1_allied_withdrawals_are_ignored():
    # 37.1 "All Allied unit withdrawals, when called for on either the Withdrawals Chart or Events
    # Table, are ignored." 29.0 (as read): US 2nd Armored out on GT 3, German 16th Panzer on GT 5.
    gambit = ["mediterranean-gambit"]
    st = state({ARMD: "2917", PZ16: "3112"}, 5, "action")
    assert any("2 Armd" in m for m in errors(run("withdrawals", st)))
    not_in_force(run("withdrawals", st, options=gambit))
    found = errors(run("withdrawals_gambit", st, options=gambit))
    assert found and all("16 Pz" in m for m in found)
    # "Any Allied units that have been withdrawn at the start of a scenario are instead available"
    # (27.2 "Withdrawn: US 1st Infantry and 2nd Armored Divisions, Patton").
    opening = state({ARMD: "Allied Staging Area"}, 3)
    assert errors(run("setup_2_withdrawn", opening, "scenario-2"))
    not_in_force(run("setup_2_withdrawn", opening, "scenario-2", options=gambit))


# -- the switch with a second pack, not shaped like Kesselring's War --------------------------------
KASSERINE = REPO / "modules" / "kasserine" / "pack.toml"


def kasserine(options):
    data = copy.deepcopy(tomllib.loads(KASSERINE.read_text(encoding="utf-8")))
    data["options"] = options
    return RulePack.from_mapping(data, source=str(KASSERINE))


def test_a_second_pack_an_option_that_adds_a_rule_by_tag_and_one_that_needs_nothing():
    # Kasserine 21.0 "Optional rules": an option naming a rule of the pack by name is read; one that
    # names no rule, or nothing at all, is a pack error naming the key path.
    first = next(iter(kasserine({}).rules)).name
    pack = kasserine({"optional-21": {"name": "21.0 Optional rules", "rules": [first]}})
    assert pack.options["optional-21"].rules == (first,)
    with pytest.raises(PackError, match=r"options\.x\.rules: 'nope' is neither a rule nor a tag"):
        kasserine({"x": {"name": "X", "rules": ["nope"]}})
    with pytest.raises(PackError, match=r"options\.x: an option needs 'rules'"):
        kasserine({"x": {"name": "X"}})
    with pytest.raises(PackError, match=r"options\.x"):
        kasserine({"x": {"name": "X", "rules": [first], "when": 1}})


def with_option(tmp_path, rule):
    """A copy of the Kasserine pack whose rule `rule` is an optional rule (21.0)."""
    pack = tmp_path / "kasserine3"
    shutil.copytree(KASSERINE.parent, pack, ignore=shutil.ignore_patterns("example", "*.md"))
    text = (pack / "pack.toml").read_text(encoding="utf-8").replace('id = "kasserine"', 'id = "kasserine3"')
    text += f'\n[options.optional-21]\nname = "21.0 Optional rules"\nrules = ["{rule}"]\n'
    (pack / "pack.toml").write_text(text, encoding="utf-8")
    return str(pack)


def test_check_and_verify_take_option(tmp_path):
    example = KASSERINE.parent / "example"
    module = str(example / "Kasserine.vmod")
    rule = next(iter(kasserine({}).rules)).name
    pack = with_option(tmp_path, rule)
    args = ["check", str(example / "setup.vsav"), "--module", module, "--pack", pack]
    off = CliRunner().invoke(cli.main, args)
    assert f"rule {rule} " in off.stdout and "is not in force" in off.stdout and "--option optional-21" in off.stdout
    on = CliRunner().invoke(cli.main, [*args, "--option", "optional-21"])
    assert "optional rule optional-21 (21.0 Optional rules): given by --option" in on.stdout, on.output
    assert "--option optional-21" not in on.stdout.replace("given by --option", "")
    bad = CliRunner().invoke(
        cli.main, ["verify", str(example / "turn4-axis.vlog"), "--module", module, "--pack", pack, "--option", "x"]
    )
    assert bad.exit_code == 2 and "--option 'x': the pack has no such optional rule (known: optional-21)" in bad.stderr
