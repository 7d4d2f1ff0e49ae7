"""Bad movement and ZOC parameters (RULES-MAP N5, N7 and section 9) are PackErrors naming the pack
file and the rule, never a rule silently switched off.

Each case adds a line to a copy of the Kasserine pack's [rules.movement] table, as a pack author
might get it wrong: a hexside feature or a misspelt terrain ("mountian") where terrain is meant
(RULES-MAP 9: such a name prohibited or modified nothing), a factor that is not whole, a cost
modifier with two operations, a purpose zones of control do not have. Names the loader can check
are refused by `packs validate` too, as are unknown keys and wrong types inside the lists of tables
(their shape); what an entry means (one operation, a whole factor, names in cost_modifiers) is
checked when `check` runs the rule (exit 2 either way).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_pack_errors import MODULE, SAVE, broken_pack, run

ANCHOR = 'through_rule = "16.12"\n'

# what the author added to [rules.movement], the key path of the error, what the message says
AT_LOAD = {
    "prohibited_hexside_feature": (
        'prohibited = { stream = ["mechanized"] }',
        "rules.movement.prohibited.stream",
        "unknown terrain type 'stream'",
    ),
    "zoc_blocked_features_unknown": (
        'zoc_blocked_features = ["crest"]',
        "rules.movement.zoc_blocked_features[0]",
        "unknown hexside feature 'crest'",
    ),
    "zoc_blocked_terrain_misspelt": (
        'zoc_blocked_terrain = ["mountian"]',
        "rules.movement.zoc_blocked_terrain[0]",
        "unknown terrain type 'mountian'",
    ),
    "impassable_sides_unknown": (
        'impassable_sides = ["all-sea"]',
        "rules.movement.impassable_sides[0]",
        "unknown hexside feature 'all-sea'",
    ),
    "exit_multiplier_misspelt": (
        "exit_multiplier = { mountian = 2 }",
        "rules.movement.exit_multiplier.mountian",
        "unknown terrain type 'mountian'",
    ),
    # the keys and types inside a list of tables: the parameter's shape (param_shape.py)
    "cost_modifier_unknown_key": (
        "cost_modifiers = [{ wether = ['poor'], add = 1 }]",
        "rules.movement.cost_modifiers[0].wether",
        "unknown key (known here:",
    ),
    "allowance_modifier_text": (
        'allowance_modifiers = [{ flags = ["out-of-supply"], cap = "1" }]',
        "rules.movement.allowance_modifiers[0].cap",
        "expected float, got '1' (str)",
    ),
}
AT_CHECK = {
    "cost_modifier_misspelt_terrain": (
        'cost_modifiers = [{ weather = ["poor"], terrain = ["mountian"], multiply = 2 }]',
        "cost_modifiers[0].terrain: unknown terrain 'mountian'",
    ),
    "cost_modifier_feature_as_terrain": (
        'cost_modifiers = [{ terrain = ["stream"], add = 1 }]',
        "cost_modifiers[0].terrain: unknown terrain 'stream'",
    ),
    "cost_modifier_two_operations": (
        "cost_modifiers = [{ add = 1, multiply = 2 }]",
        "cost_modifiers[0]: expected exactly one of add, multiply, set",
    ),
    "cost_modifier_half_factor": (
        "cost_modifiers = [{ multiply = 1.5 }]",
        "cost_modifiers[0].multiply: expected a whole factor > 0, got 1.5",
    ),
    "exit_multiplier_zero": ("exit_multiplier = { rough = 0 }", "exit_multiplier.rough: expected a whole factor > 0"),
    "enterable_enemy_picks_nothing": (
        "enterable_enemy = { extra_cost = 2 }",
        "enterable_enemy: give the kinds or flags",
    ),
    "zoc_negated_for_unknown": ('zoc_negated_for = ["combat"]', "zoc_negated_for: unknown purpose 'combat'"),
    "zoc_mode_unknown": ('zoc_mode = "frozen"', "zoc_mode: expected one of"),
}


def _pack(tmp_path: Path, line: str) -> Path:
    if line.startswith("zoc_mode"):  # the pack gives zoc_mode already: replace it
        return broken_pack(
            tmp_path,
            'zoc_mode = { assumption = "zoc_mode" }\nzoc_blocked_in_weather',
            line + "\nzoc_blocked_in_weather",
            1,
        )
    if line.startswith("prohibited"):
        return broken_pack(tmp_path, 'prohibited = { rough = ["mechanized"] }\nexcept', line + "\nexcept", 2)
    return broken_pack(tmp_path, ANCHOR, ANCHOR + line + "\n", 1)


@pytest.mark.parametrize("case", sorted(AT_LOAD))
def test_unknown_names_are_refused_at_load(tmp_path: Path, case: str) -> None:
    line, path, message = AT_LOAD[case]
    pack = _pack(tmp_path, line)
    code, out = run("packs", "validate", str(pack), "--module", MODULE)
    assert code == 1 and f"{pack / 'pack.toml'}: error: {path}: " in out and message in out, out
    code, out = run("check", SAVE, "--module", MODULE, "--pack", str(pack))
    assert code == 2 and message in out and "internal error" not in out, out


@pytest.mark.parametrize("case", sorted(AT_CHECK))
def test_bad_shapes_are_refused_when_the_rule_runs(tmp_path: Path, case: str) -> None:
    line, message = AT_CHECK[case]
    pack = _pack(tmp_path, line)
    code, out = run("check", SAVE, "--module", MODULE, "--pack", str(pack))
    assert code == 2 and str(pack / "pack.toml") in out and f"rules.movement: {message}" in out, out
    assert "internal error" not in out and "Traceback" not in out


def test_zoc_mode_no_entry_is_accepted(tmp_path: Path) -> None:
    """Tunisia 1943, 10 (no unit may enter an enemy ZoC in exploitation) is a mode a pack may give."""
    pack = _pack(tmp_path, 'zoc_mode = "no-entry"')
    code, out = run("packs", "validate", str(pack), "--module", MODULE)
    assert code == 0 and ": valid" in out.strip().splitlines()[-1] and ": error:" not in out, out
    code, out = run("check", SAVE, "--module", MODULE, "--pack", str(pack))
    assert code in (0, 1) and "rules.movement" not in out, out
