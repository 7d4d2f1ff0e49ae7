"""The shapes of the victory parameters (param_shape.py): terms, outcomes, levels, control and supply.

The pack loader checks a pack's `victory.conditions`, `victory.tally` and `victory.points`
entries against them, so `packs validate` names a misspelt key; which keys go with which kind
of term, and what the values mean, the readers (victory_conditions.py, victory_rules.py) say.
Pure: no files.
"""

from __future__ import annotations

from vassal_adj.rules.param_shape import Each, Either, Table

__all__ = ["CONTROL", "END", "LEVELS", "SUDDEN_DEATH", "SUPPLY", "TERM"]

CONTROL = Table({"units": "selector", "requires": "list[str]"})
TERM = Table(
    {
        "side": "str",
        "name": "str",
        "rule_ref": "str",
        "points": "int",
        "count": "int",
        "place": Either("str", "list[str]"),
        "at": "str",
        "per": "str",
        "box": "str",
        "units": "selector",
        "control": CONTROL,
        "steps_lost": "selector",
        "exited": Table({"box": "str", "via": "list[str]", "count": "int"}),
        "declared": Table({"marker": "str", "box": "str", "turns": "list[int]"}, required=("marker", "box")),
        "reduced_flag": "str",
        "turns": "list[int]",
        "before_declared": Table({"marker": "str", "box": "str"}, required=("marker", "box")),
        "value": Table({"fields": "list[str]", "by_kind": "table[list[str]]"}, required=("fields",)),
    }
)
_OUTCOME = {"result": "str", "rule_ref": "str", **dict.fromkeys(("all", "any", "none"), "list[str]")}
SUDDEN_DEATH = Table({**_OUTCOME, "at": Either("str", "int")}, required=("result",))
END = Table(_OUTCOME, required=("result",))
# side -> its supply, for control that requires supplied units
SUPPLY = Each(
    Table({"initial": "int", "sources": "list[str]", "networks": "list[list[str]]"}, required=("initial", "sources"))
)
# The levels of victory.points and victory.tally: by the measure, contiguous (victory.check_levels).
LEVELS = Each(Table({"level": "str", "min": "int", "max": "int"}, required=("level",)))
