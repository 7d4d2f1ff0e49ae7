"""The shapes of the order-of-battle parameters (param_shape.py): set-up groups and constraints,
reinforcement entries and events.

The pack loader checks a pack's entries against them, so `packs validate` names a misspelt key;
the readers of setup_rules.py and restricted.py take their key sets from them and check what
the entries mean (which keys go together, hexes on the board). Pure: no files.
"""

from __future__ import annotations

from vassal_adj.rules.param_shape import Each, Either, Shape, Table

__all__ = ["CONSTRAINTS", "ENTRY", "EVENTS", "GROUP"]

# `events` (reinforcements.schedule, movement.restricted): which keys go together is parse_event's to say.
EVENTS = Each(
    Table(
        {
            "marker": "str",
            "box": "str",
            "within": "int",
            "side": "str",
            "of": "list[str]",
            "units": "selector",
            "unknown": "str",
        }
    )
)

GROUP = Table(
    {"at": "str", "placement": "str", "distance": "int", "units": "list[str]"}, required=("at", "placement", "units")
)

_TURN = Either("int", "str")  # a Game-Turn, or a label of the pack's [state] turn_sequence
ENTRY = Table(
    {
        "turn": _TURN,
        "turns": "list",
        "otherwise_turn": _TURN,
        "if_side_within": Table({"side": "str", "hex": "str", "distance": "int"}, required=("side", "hex", "distance")),
        "after": "str",
        "turns_after": "int",
        "turn_from": "str",
        "repeatable": "bool",
        "at": "list[str]",
        "holding": "selector",
        "units": Either("list[str]", "selector"),
    },
    required=("at", "units"),
)


def _constraint(required: tuple[str, ...] = (), **keys: Shape) -> Table:
    """One kind of set-up constraint: its own keys, beside `units` (a selector) and `rule_ref`."""
    return Table({"units": "selector", "rule_ref": "str", **keys}, required=("units", *required))


_AREA: dict[str, Shape] = {"in": "list[str]", "boxes": "list[str]"}
# setup.constraints: kind -> the shape of each of its entries
CONSTRAINTS = {
    "in": _constraint(**_AREA),
    "count": _constraint(**_AREA, min="int", max="int"),
    "one_each": _constraint(("hexes",), hexes="list[str]"),
    "spacing": _constraint(("min_distance",), min_distance="int"),
    "with": _constraint(("of",), of="selector", distance="int", same="str", at_least="int"),
}
