"""Scheduled withdrawals (RULES-MAP N13): units that must leave the game for a box on a turn or after an event.

``[rules.<name>] impl = "withdrawals.schedule"`` checks a save against a list of ``entries``, each
``{ turn = n | after = "event", units = selector | kind = "word", count = n, until = n, before = "event",
rule_ref }``:
once an entry is due, `count` of the selected units (all of them when `count` is left out) must
stand in the withdrawal `box` (a ``[boxes]`` kind, or a box name).

- Due: from the entry's Game-Turn, from `phase` on (the first phase of a turn by which that
  turn's withdrawals have been made; "" from the turn's start), or once the state shows the event
  ``after`` (the events of a ``reinforcements.schedule`` rule, `RuleContext.events`). What the
  state cannot show (its phase, or an event) is said in an INFO: nothing is guessed. An event
  shown is taken as acted on: the withdrawal it calls for is made when it happens.
- `never_return`: withdrawn units never come back, so the entry holds on every later turn; else
  it holds on its own turn only, or up to (not including) Game-Turn `until`, or while the event
  `before` (their return) has not happened. An ``after`` entry whose units come back must name
  that event: an event's turn is not known, so no turn can end it.
  One save cannot tell a unit that came back from one that never left: the finding says both.
- `ignore_if_unavailable`: when fewer selected units are available (anywhere but the
  `unavailable` boxes) than `count`, the withdrawal asks only for those, with an INFO; else
  the shortfall is an ERROR.

Pure: a GameState in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.setup import DEFAULT_PHASES, moment
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["Entry", "parse_entries", "withdrawals_schedule"]

# An entry's keys: checked as the pack is read (the parameter's shape), and by _entry for direct callers.
_ENTRY = Table(
    {
        "turn": "int",
        "after": "str",
        "units": "selector",
        "kind": "str",
        "count": "int",
        "until": "int",
        "before": "str",
        "rule_ref": "str",
    }
)
_KEYS = frozenset(_ENTRY.keys)


@dataclass(frozen=True)
class Entry:
    """One line of a withdrawals chart: `count` of `units` to the box on `turn` or `after` an event."""

    units: Selector
    turn: int | None = None
    after: str = ""
    count: int | None = None
    until: int | None = None
    before: str = ""
    rule_ref: str = ""

    def when(self) -> str:
        return f"on Game-Turn {self.turn}" if self.turn is not None else f"after {self.after}"


def _int(r: Mapping[str, Any], key: str, path: str) -> int | None:
    v = r.get(key)
    if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
        raise ValueError(f"{path}.{key}: expected a whole number >= 0, got {v!r}")
    return v


def _entry(value: Any, path: str, never_return: bool, ref: str) -> Entry:
    if not isinstance(value, Mapping):
        raise ValueError(f"{path}: expected a table, got {value!r}")
    unknown = sorted(set(value) - _KEYS)
    if unknown:
        raise ValueError(f"{path}: unknown keys {unknown} (known: {', '.join(sorted(_KEYS))})")
    if ("turn" in value) == ("after" in value):
        raise ValueError(f"{path}: give exactly one of 'turn' and 'after'")
    if ("units" in value) == ("kind" in value):
        raise ValueError(f"{path}: give exactly one of 'units' (a selector) and 'kind'")
    for key in ("after", "before"):
        if key in value and not isinstance(value[key], str):
            raise ValueError(f"{path}.{key}: expected an event name, got {value[key]!r}")
    for key in ("until", "before"):
        if never_return and key in value:
            raise ValueError(f"{path}.{key}: units that never return (never_return = true) have no {key!r}")
    if "after" in value and "until" in value:
        raise ValueError(f"{path}.until: an event's Game-Turn is not known: end an 'after' withdrawal with 'before'")
    if "after" in value and not never_return and "before" not in value:
        raise ValueError(
            f"{path}: units withdrawn after an event that come back need 'before' (the event of their return)"
        )
    turn, until = _int(value, "turn", path), _int(value, "until", path)
    if turn is not None and until is not None and until <= turn:
        raise ValueError(f"{path}.until: the units return on Game-Turn {until}, not after the withdrawal's {turn}")
    units = (
        selector_at(value["units"], f"{path}.units")
        if "units" in value
        else selector_at({"kinds": [value["kind"]]}, f"{path}.kind")
    )
    return Entry(
        units,
        turn,
        value.get("after", ""),
        _int(value, "count", path),
        until,
        value.get("before", ""),
        str(value.get("rule_ref", ref)),
    )


def parse_entries(p: Mapping[str, Any], ref: str) -> tuple[Entry, ...]:
    """The `entries` parameter, checked; ValueError naming ``entries[i].<key>``."""
    return tuple(_entry(v, f"entries[{i}]", p["never_return"], ref) for i, v in enumerate(p["entries"]))


def _in(pos: Position | None, boxes: tuple[str, ...]) -> bool:
    """Whether `pos` is one of `boxes`: by the pack's box kind or name, or the VASSAL box name (any case)."""
    if pos is None or pos.box is None:
        return False
    names = {pos.box, *((pos.named.kind, pos.named.name) if pos.named is not None else ())}
    return bool({n.casefold() for n in names} & {b.casefold() for b in boxes})


def _event(name: str, state: GameState, ctx: RuleContext) -> tuple[str, str]:
    if ctx.events is None:
        return "unknown", f"the event {name!r} was not read"
    status, why = ctx.events(state, ctx, name)
    return status, f"the event {name!r}: {why}"


def _due(e: Entry, state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> tuple[str, str]:
    """Whether entry `e` holds in `state`: ("yes" | "no" | "unknown", why)."""
    status, why = _event(e.after, state, ctx) if e.after else _turn_due(e, state, p)
    if status != "yes" or not e.before:
        return status, why
    back, why = _event(e.before, state, ctx)
    return {"yes": "no", "no": "yes"}.get(back, "unknown"), why


def _turn_due(e: Entry, state: GameState, p: Mapping[str, Any]) -> tuple[str, str]:
    assert e.turn is not None
    now = moment(state, tuple(p["phases"]))
    if now.turn is None:
        return "unknown", "the save shows no Game-Turn"
    last = None if p["never_return"] else (e.until - 1 if e.until is not None else e.turn)
    if now.turn < e.turn or (last is not None and now.turn > last):
        return "no", f"Game-Turn {now.turn}"
    if now.turn > e.turn or not p["phase"]:
        return "yes", f"Game-Turn {now.turn}"
    if now.phase is None:
        return "unknown", f"Game-Turn {e.turn} in phase {state.phase!r}: not known to be at or after {p['phase']!r}"
    return ("yes" if now.phase >= tuple(p["phases"]).index(p["phase"]) else "no"), f"phase {state.phase!r}"


def _box(pos: Position | None) -> str | None:
    return pos.box if pos is not None else None


def _where(pos: Position | None) -> str:
    if pos is None:
        return "nowhere known"
    return f"at {pos.label}" if pos.on_map else f"in {pos.box!r}"


def _check(e: Entry, state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    cite = f"{ctx.pack_id}:{e.rule_ref}"
    box = p["box"]
    unavailable = tuple(p["unavailable"])
    chosen = sorted(u for u, unit in state.units.items() if e.units.matches(unit, _box(state.positions.get(u))))
    gone = [u for u in chosen if _in(state.positions.get(u), (box,))]
    available = [u for u in chosen if not _in(state.positions.get(u), unavailable)]
    what = f"{e.units.words()} ({e.when()})"
    need = len(chosen) if e.count is None else e.count
    out: list[Finding] = []
    if len(available) < need:
        short = f"{what}: {need} must be withdrawn to {box!r} but only {len(available)} are available"
        if not p["ignore_if_unavailable"]:
            return [Finding(cite, Severity.ERROR, short, tuple(chosen))]
        out.append(Finding(cite, Severity.INFO, f"{short}: the rest of the withdrawal is ignored", tuple(chosen)))
        need = len(available)
    if len(gone) >= need:
        return out
    left = [u for u in available if u not in gone]
    shown = ", ".join(f"{state.units[u].name} {_where(state.positions.get(u))}" for u in left)
    again = " (never withdrawn, or withdrawn and come back: withdrawn units never return)" if p["never_return"] else ""
    hexes = tuple(pos.label for u in left if (pos := state.positions.get(u)) is not None and pos.label)
    out.append(
        Finding(
            cite,
            Severity.ERROR,
            f"{what}: {len(gone)} of {need} in {box!r}; still in play: {shown}{again}",
            tuple(left),
            hexes,
        )
    )
    return out


@register(
    "withdrawals.schedule",
    params={
        "box": Param(REQUIRED, "str", "the withdrawal box: a [boxes] kind, or a VASSAL box name"),
        "entries": Param(
            REQUIRED,
            "list",
            "{ turn = n | after = event, units = selector | kind = word, count = n, until = n, before = event, "
            "rule_ref }",
            shape=Each(_ENTRY),
        ),
        "ignore_if_unavailable": False,
        "never_return": False,
        "unavailable": Param(("eliminated",), "list[str]", "boxes (kinds or names) whose units are not available"),
        "phases": Param(DEFAULT_PHASES, "list[str]", "the phase ids of a Game-Turn, in order"),
        "phase": Param("", "str", "the first phase of a Game-Turn by which its withdrawals are made ('' = its start)"),
    },
)
def withdrawals_schedule(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Units a withdrawals chart or an event sends off: in the withdrawal box, for good if they never return."""
    if p["phase"] and p["phase"] not in p["phases"]:
        raise ValueError(f"phase: {p['phase']!r} is not one of the phases {list(p['phases'])}")
    ref = ctx.rule.rule_ref if ctx.rule is not None else ""
    out: list[Finding] = []
    for e in parse_entries(p, ref):
        status, why = _due(e, state, ctx, p)
        if status == "yes":
            out += _check(e, state, ctx, p)
        elif status == "unknown":
            out.append(
                Finding(
                    f"{ctx.pack_id}:{e.rule_ref}",
                    Severity.INFO,
                    f"{e.units.words()} ({e.when()}): cannot tell whether the withdrawal is due ({why})",
                )
            )
    return out
