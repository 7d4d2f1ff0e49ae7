"""Movement restrictions (RULES-MAP N14, registered as ``movement.restricted``): units that
may not enter, be in, or move at all, in an area (hexes, boxes, or within n hexes of places),
while a window or an event says so, unless an enemy unit is near.

A save shows where units are, not how they got there: a unit in an area it may not *enter*
or *be in* is an error (at set-up only *be-in* is judged: placement is the set-up rules');
*move* cannot be seen in one save, so the save check says so once, and the log check
(`move_findings`, run by verify through rules/turn.py) judges each move and the path's area
(`forbidden`, given to `legal_path` as the hexes it may not use).

In force: inside `when` (Game-Turns `turns = [a, b]`, `phases`), after the event `after`
happened, before the event `until` has. An event is shown as rules/mechanisms/setup.py `observe` shows
it; when it cannot tell, a unit in the area is reported as not judgeable, never as legal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.model.geometry.hexes import Hex, distance, within
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.setup import Event, Label, moment, observe
from vassal_adj.rules.mechanisms.setup_rules import names, parse_event, table, whole
from vassal_adj.rules.mechanisms.setup_shapes import EVENTS
from vassal_adj.rules.param_shape import Each, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector, selector_at

__all__ = [
    "VERBS",
    "Restriction",
    "check_restrictions",
    "forbidden",
    "in_force",
    "move_findings",
    "parse_restrictions",
    "restricted",
]

VERBS = ("enter", "move", "be-in")
Cite = Callable[[str], str]  # a rule number -> the citation of a finding ("pack:Sc.1")


@dataclass(frozen=True)
class Restriction:
    """`units` may not `may_not` ("enter", "be-in": the area of `hexes` and `boxes`, casefolded;
    "move": at all). `turns` (first, last) and `phases` bound it; `after` / `until` are events;
    `unless_enemy_within`: a unit that near an enemy unit is free (-1: never). `area` says the
    area in the pack's words."""

    units: Selector
    may_not: str
    area: str
    rule_ref: str
    hexes: frozenset[Hex] = frozenset()
    boxes: frozenset[str] = frozenset()
    turns: tuple[int, int] | None = None
    phases: frozenset[str] = frozenset()
    after: Event | None = None
    until: Event | None = None
    unless_enemy_within: int = -1

    def holds_at(self, pos: Position) -> bool:
        if pos.hex is not None:
            return pos.hex in self.hexes
        # A box by its name, or every box of a [boxes] entry by the entry's id (seed 004 8.1.3:
        # no Italian unit in any box of the Axis Turn Record Track, "axis-trt").
        named = pos.named.name.casefold() if pos.named is not None else None
        return (pos.box or "").strip().casefold() in self.boxes or named in self.boxes

    def words(self) -> str:
        verb = {"be-in": "be in", "enter": "enter"}.get(self.may_not)
        what = f"{self.units.words()} may not {verb} {self.area}" if verb else f"{self.units.words()} may not move"
        first, last = self.turns or (0, 0)
        window = (
            ([f"on Game-Turn {first}" if first == last else f"on Game-Turns {first}-{last}"] if self.turns else [])
            + ([f"in phase {' or '.join(sorted(self.phases))}"] if self.phases else [])
            + ([f"after {self.after.name!r}"] if self.after else [])
            + ([f"until {self.until.name!r}"] if self.until else [])
        )
        near = (
            f" unless within {self.unless_enemy_within} hexes of an enemy unit" if self.unless_enemy_within >= 0 else ""
        )
        return " ".join((what, *window)) + near


def in_force(r: Restriction, state: GameState, label: Label) -> tuple[bool | None, str]:
    """Whether `r` binds in `state` (None: one state cannot tell), and why, in words."""
    when = moment(state)
    if r.turns is not None:
        if when.turn is None or when.turn == 0:
            return False, "the state is not in a Game-Turn"
        if not r.turns[0] <= when.turn <= r.turns[1]:
            return False, f"Game-Turn {when.turn} is outside it"
    if r.phases and state.phase not in r.phases:
        return False, f"phase {state.phase!r} is not one of {sorted(r.phases)}"
    for event, needed in ((r.after, "yes"), (r.until, "no")):
        if event is None:
            continue
        seen = observe(event, state, when, label)
        if seen.status == "unknown":
            return None, seen.why
        if seen.status != needed:
            return False, seen.why
    return True, ""


def _enemy_near(state: GameState, uid: str, h: Hex | None, n: int) -> tuple[int, str] | None:
    """The nearest enemy unit within `n` hexes of `h`: (distance, its id)."""
    if n < 0 or h is None:
        return None
    side = state.units[uid].side
    near = [
        (distance(h, e), i)
        for e, ids in state.occupied().items()
        for i in ids
        if state.units[i].side != side and distance(h, e) <= n
    ]
    return min(near) if near else None


def _where(state: GameState, uid: str, label: Label) -> str:
    pos = state.positions.get(uid, Position())
    return (pos.label or label(pos.hex)) if pos.hex is not None else f"box {pos.box!r}"


def check_restrictions(
    state: GameState, restrictions: Iterable[Restriction], *, cite: Cite, label: Label
) -> list[Finding]:
    """The save check: units where they may not be (errors), what one save cannot tell (info)."""
    out: list[Finding] = []
    setup = state.turn is None and state.phase is None
    for r in restrictions:
        force, why = in_force(r, state, label)
        ref, rule = f"[{r.rule_ref}]", cite(r.rule_ref)
        if force is False:
            continue
        if r.may_not == "move":
            out.append(
                Finding(
                    rule,
                    Severity.INFO,
                    f"{r.words()} {ref}: one save cannot show a move; the moves "
                    f"of a log are checked{'' if force else f' ({why})'}",
                )
            )
            continue
        if r.may_not == "enter" and setup:
            continue
        for uid in sorted(state.units):
            pos = state.positions.get(uid, Position())
            if not r.units.matches(state.units[uid]) or not r.holds_at(pos):
                continue
            u, where = state.units[uid], _where(state, uid, label)
            hexes = (where,) if pos.hex is not None else ()
            near = _enemy_near(state, uid, pos.hex, r.unless_enemy_within)
            if near is not None:
                e = state.units[near[1]]
                out.append(
                    Finding(
                        rule,
                        Severity.INFO,
                        f"{u.side} {u.name} is in {where} ({r.area}) and may be: "
                        f"{e.side} {e.name} is {near[0]} hexes away {ref}",
                        (uid,),
                        hexes,
                    )
                )
            elif force is None:
                out.append(
                    Finding(
                        rule,
                        Severity.INFO,
                        f"{u.side} {u.name} is in {where}: {r.words()}, and "
                        f"whether that binds now one save cannot tell ({why}) {ref}",
                        (uid,),
                        hexes,
                    )
                )
            else:
                out.append(
                    Finding(rule, Severity.ERROR, f"{u.side} {u.name} is in {where}: {r.words()} {ref}", (uid,), hexes)
                )
    return sorted(out, key=Finding.sort_key)


def forbidden(
    state: GameState, uid: str, start: Hex | None, restrictions: Iterable[Restriction], label: Label
) -> dict[Hex, Restriction]:
    """The hexes a path of `uid` may not use in `state` (the phase's start), each with the first
    restriction barring it: the areas of the "enter" and "be-in" restrictions that bind it,
    never its own starting hex."""
    unit, out = state.units[uid], {}
    for r in restrictions:
        if (
            r.may_not != "move"
            and r.units.matches(unit)
            and in_force(r, state, label)[0]
            and _enemy_near(state, uid, start, r.unless_enemy_within) is None
        ):
            out.update({h: r for h in r.hexes if h not in out and h != start})
    return out


def move_findings(
    state: GameState,
    uid: str,
    start: Position,
    goal: Position,
    restrictions: Iterable[Restriction],
    *,
    what: str,
    hexes: tuple[str, ...],
    cite: Cite,
    label: Label,
) -> list[Finding]:
    """The log check of one unit's move in a phase that began in `state`: a move at all where
    it may not move, an end in an area it may not enter or be in (the path's way through
    one is `legal_path`'s to judge, with `forbidden` as its bounds)."""
    unit, out = state.units[uid], []
    for r in restrictions:
        if not r.units.matches(unit) or (r.may_not != "move" and not r.holds_at(goal)):
            continue
        if r.may_not == "enter" and r.holds_at(start):
            continue  # it began there: a move inside the area is not an entry
        force, why = in_force(r, state, label)
        if force is False or _enemy_near(state, uid, start.hex, r.unless_enemy_within) is not None:
            continue
        if force is None:
            out.append(
                Finding(
                    cite(r.rule_ref),
                    Severity.INFO,
                    f"{what}: {r.words()}, and whether that binds now the files cannot tell ({why}) [{r.rule_ref}]",
                    (uid,),
                    hexes,
                )
            )
        else:
            out.append(Finding(cite(r.rule_ref), Severity.ERROR, f"{what}: {r.words()} [{r.rule_ref}]", (uid,), hexes))
    return out


# -- the pack's parameters --------------------------------------------------------------------------
# A restriction's keys: checked as the pack is read (the parameter's shape), and by _restriction for direct callers.
_RESTRICTION = Table(
    {
        "units": "selector",
        "may_not": "str",
        "hexes": "list[str]",
        "boxes": "list[str]",
        "within": "int",
        "of": "list[str]",
        "until": "str",
        "after": "str",
        "when": Table({"turns": "list[int]", "phases": "list[str]"}),
        "unless_enemy_within": "int",
        "rule_ref": "str",
    },
    required=("units", "may_not"),
)


def _restriction(ctx: RuleContext, value: Any, path: str, events: Mapping[str, Event], ref: str) -> Restriction:
    r = table(value, path, set(_RESTRICTION.keys), set(_RESTRICTION.required))
    verb = r["may_not"]
    if verb not in VERBS:
        raise ValueError(f"{path}.may_not: expected one of {', '.join(VERBS)}, got {verb!r}")
    if ("within" in r) != ("of" in r):
        raise ValueError(f"{path}: 'within' and 'of' go together (within n hexes of places)")
    has_area = any(k in r for k in ("hexes", "boxes", "of"))
    if has_area == (verb == "move"):
        raise ValueError(
            f"{path}: "
            + (
                "'move' takes no area (it forbids any move)"
                if has_area
                else f"'{verb}' needs an area: hexes, boxes, or within n of places"
            )
        )
    specs = names(r["hexes"], f"{path}.hexes") if "hexes" in r else ()
    boxes = names(r["boxes"], f"{path}.boxes") if "boxes" in r else ()
    hexes = set(ctx.hexes(specs, f"{path}.hexes"))
    words = [*specs, *(f"box {b!r}" for b in boxes)]
    if "of" in r:
        n, of = whole(r["within"], f"{path}.within"), names(r["of"], f"{path}.of")
        hexes |= {h for c in ctx.hexes(of, f"{path}.of") for h in within(c, n)}
        words.append(f"within {n} hexes of {' or '.join(of)}")
    w = table(r.get("when", {}), f"{path}.when", {"turns", "phases"})
    turns = w.get("turns")
    if turns is not None and not (
        isinstance(turns, (list, tuple))
        and len(turns) == 2
        and 1 <= whole(turns[0], f"{path}.when.turns[0]") <= whole(turns[1], f"{path}.when.turns[1]")
    ):
        raise ValueError(f"{path}.when.turns: expected [first, last] Game-Turns, got {turns!r}")
    found = {}
    for key in ("after", "until"):
        if key in r:
            if r[key] not in events:
                known = ", ".join(sorted(events)) or "none: add an `events` parameter"
                raise ValueError(f"{path}.{key}: unknown event {r[key]!r} (events defined: {known})")
            found[key] = events[r[key]]
    near = whole(r["unless_enemy_within"], f"{path}.unless_enemy_within") if "unless_enemy_within" in r else -1
    return Restriction(
        selector_at(r["units"], f"{path}.units"),
        verb,
        " or ".join(words),
        r.get("rule_ref", ref),
        frozenset(hexes),
        frozenset(b.strip().casefold() for b in boxes),
        (turns[0], turns[1]) if turns else None,
        frozenset(names(w["phases"], f"{path}.when.phases") if "phases" in w else ()),
        found.get("after"),
        found.get("until"),
        near,
    )


def parse_restrictions(ctx: RuleContext, p: Mapping[str, Any], ref: str) -> tuple[Restriction, ...]:
    """The `restrictions` of a ``movement.restricted`` rule (verify reads them too: rules/mechanisms/turn_rules.py)."""
    turn_box = p["turn_box"]
    # The boxes are the module's: a marker event with no box of its own needs the rule's turn_box.
    if not turn_box and (
        name := next(
            (n for n, v in p["events"].items() if isinstance(v, Mapping) and "marker" in v and "box" not in v), None
        )
    ):
        raise ValueError(
            f"events.{name}: a marker event is read in the module's Game-Turn boxes: give turn_box "
            "(e.g. 'Turn {turn}') or the event's own box"
        )
    events = {name: parse_event(ctx, name, v, turn_box) for name, v in p["events"].items()}
    return tuple(_restriction(ctx, r, f"restrictions[{i}]", events, ref) for i, r in enumerate(p["restrictions"]))


@register(
    "movement.restricted",
    params={
        "restrictions": Param(
            REQUIRED,
            "list",
            "{ units = selector, may_not = 'enter'|'move'|'be-in', hexes = [regions], "
            "boxes = [box names or [boxes] ids], within = n, of = [places], after / until = event, "
            "when = { turns = [a, b], phases }, unless_enemy_within = n, rule_ref }",
            shape=Each(_RESTRICTION),
        ),
        "events": Param(
            {},
            "table",
            "event name -> { marker = name [, box] } | { side, within = n, of = [hexes] } "
            "| { unknown = why }, as reinforcements.schedule reads them",
            shape=EVENTS,
        ),
        "turn_box": Param(
            "", "str", "the module's Game-Turn boxes a marker event is read in, e.g. 'Turn {turn}' ('{turn}' filled in)"
        ),
    },
)
def restricted(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Units where they may not be, or may not go: areas, boxes, zones around places, by turn or event."""
    ref = ctx.rule.rule_ref if ctx.rule is not None else ""
    return check_restrictions(
        state, parse_restrictions(ctx, p, ref), cite=lambda r: f"{ctx.pack_id}:{r}", label=ctx.label
    )
