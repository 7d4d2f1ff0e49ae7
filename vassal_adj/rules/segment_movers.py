"""Who moves together in one segment of a log: the `one_contingent`, `single_if` and `moves_not_interleaved` options of
``log.segments`` (N23; rules/segments.py cuts the log and calls these on each segment).

- `one_contingent = "<field>"`: every unit that moves in a segment has the same value of that
  field: a group field (``contingent``, ``army``, ``division``: units.toml ``groups``), a unit
  attribute (a named group of a units.toml pattern), or ``side``, ``formation``, ``nationality``
  or ``kind``. seed 004 13.2: "Units of different contingents may not move in the same Action"
  (``one_contingent = "contingent"``; the Axis contingents, "all German and Italian units, each
  of which is referred to as a contingent" (2.5), are ``"nationality"``). A mover without the
  field is a warning: which contingent it belongs to is not known, and nothing is passed.
- `single_if = <unit selector>`: a unit the selector picks (as the segment begins) moves alone
  in its segment. seed 004 13.1: "By expending one AP, one mobile ground unit which is Out of
  Supply or all mobile ground units of one contingent which can trace a LOC to a Supply Source
  may move"; with supply shown by a marker the units file reads as a flag, ``single_if = {
  flags = ["out-of-supply"] }``.
- `interleaved`: for `moves_not_interleaved`, each unit dragged again after another unit's drag.

Pure: a segment's start position and moves in, findings out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from vassal_adj.model.units import GROUP_FIELDS, Unit
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector

__all__ = ["UNIT_FIELDS", "field_value", "interleaved", "mixed", "not_alone"]

# The unit fields `one_contingent` may name besides the group fields and attributes.
UNIT_FIELDS = ("side", "formation", "nationality", "kind")


def field_value(unit: Unit, name: str) -> str:
    """The unit's value of the field `name` ("" when it has none)."""
    if name in GROUP_FIELDS and unit.groups.get(name):
        return unit.groups[name]
    if name in unit.attrs:
        return str(unit.attrs[name])
    return str(getattr(unit, name)) if name in UNIT_FIELDS else ""


def mixed(movers: Sequence[Unit], name: str, cite: str, what: str, ref: str) -> list[Finding]:
    """Findings when the units that moved in a segment (`what`, in words) are not all of one
    value of field `name`: an error naming each value's units, or a warning for units without it."""
    unknown = [u for u in movers if not field_value(u, name)]
    if unknown:
        names = ", ".join(f"{u.side} {u.name}" for u in unknown)
        return [
            Finding(
                cite,
                Severity.WARNING,
                f"{names} moved in {what} with no {name} known: whether the units "
                f"that moved are of one {name} is not checked [{ref}]",
                tuple(u.id for u in unknown),
            )
        ]
    by_value: dict[str, list[Unit]] = {}
    for u in movers:
        by_value.setdefault(field_value(u, name), []).append(u)
    if len(by_value) < 2:
        return []
    groups = "; ".join(f"{value}: {', '.join(u.name for u in units)}" for value, units in by_value.items())
    return [
        Finding(
            cite,
            Severity.ERROR,
            f"units of {len(by_value)} {name} values moved in {what} ({groups}): "
            f"the units that move in a segment are of one {name} [{ref}]",
            tuple(u.id for u in movers),
        )
    ]


def not_alone(
    movers: Sequence[Unit], pick: Selector, boxes: Mapping[str, str | None], cite: str, what: str, ref: str
) -> list[Finding]:
    """An error when a unit `pick` selects moved in a segment with other units (one finding a
    segment, naming the first such unit); `boxes` are the off-map boxes the units stood in as
    the segment began."""
    alone = next((u for u in movers if pick.matches(u, boxes.get(u.id))), None)
    if alone is None or len(movers) < 2:
        return []
    others = ", ".join(o.name for o in movers if o is not alone)
    message = f"{alone.side} {alone.name} moved in {what} with {others}: {pick.words()} move alone in a segment [{ref}]"
    return [Finding(cite, Severity.ERROR, message, tuple(u.id for u in movers))]


def interleaved(order: Sequence[str], together: Callable[[str, str], bool]) -> dict[str, str]:
    """Each unit that moved again after another unit's move, and that other unit (the first such);
    units that may move `together` are one move."""
    done: set[str] = set()
    out: dict[str, str] = {}
    for prev, uid in zip(("", *order), order, strict=False):
        if uid != prev and uid in done and uid not in out and not (prev and together(uid, prev)):
            out[uid] = prev
        done.add(uid)
    return out
