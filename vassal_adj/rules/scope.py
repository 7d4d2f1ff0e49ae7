"""When a rule is in force: the ``when`` key of a ``[rules.<name>]`` table, and the scenario.

``when = { scenario = [...], turns = [a, b], phases = [...], sides = [...], weather = [...],
after = "event", before = "event" }``: every key given must hold (and within a key, any of
its values). `read_when` validates it (PackError naming ``rules.<name>.when.<key>``);
`in_force` judges it against a `Situation` and says "yes", "no" or "unknown" with the reason.

- ``sides``: the side whose phase it is (the player-turn), read from the pack's phase -> side
  tables (``movement_phases``/``combat_phases`` of any rule) or a phase id ``<side>-...``; it
  does not pick units.
- ``after``/``before``: an event named in the ``events`` table of a ``reinforcements.schedule``
  rule (a marker in a Game-Turn box, a side within n hexes of a place): in force once a state
  shows it has happened / while it shows it has not. An event the state cannot show is
  "unknown", and so is the rule: a rule is never run, nor silenced, on a guess.

A scenario (``[scenarios.<id>]``, pack_scenarios.py) restricts rules too: `scenario_verdict`.
Pure: no files.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from vassal_adj.rules.packs.pack_ctx import PackContext, join

__all__ = ["WHEN_KEYS", "Scope", "Situation", "Verdict", "in_force", "phase_side", "read_when"]

WHEN_KEYS = frozenset({"scenario", "turns", "phases", "sides", "weather", "after", "before"})


@dataclass(frozen=True)
class Scope:
    """A rule's ``when``: empty tuples and None mean "any"."""

    scenarios: tuple[str, ...] = ()
    turns: tuple[int, int] | None = None
    phases: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    weather: tuple[str, ...] = ()  # lower case
    after: str = ""
    before: str = ""

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(e for e in (self.after, self.before) if e)

    def __bool__(self) -> bool:
        return self != Scope()

    def describe(self) -> str:
        """In words, for `packs list`: "turns 1-2, sides Allied"."""
        parts = [
            f"{k} {', '.join(v)}"
            for k, v in (
                ("scenario", self.scenarios),
                ("phases", self.phases),
                ("sides", self.sides),
                ("weather", self.weather),
            )
            if v
        ]
        if self.turns:
            parts.insert(1, f"turns {self.turns[0]}-{self.turns[1]}")
        parts += [f"{k} {e}" for k, e in (("after", self.after), ("before", self.before)) if e]
        return ", ".join(parts)


class Verdict(NamedTuple):
    """Whether a rule is in force: "yes", "no" or "unknown", and why (empty for "yes")."""

    status: str
    why: str = ""


@dataclass(frozen=True)
class Situation:
    """Where the game stands, as far as the files tell (None: they do not). `events` gives an
    event's status in the state ("yes", "no" or "unknown") and why."""

    scenario: str | None = None
    turn: int | None = None
    phase: str | None = None
    side: str | None = None
    weather: str | None = None
    events: Callable[[str], tuple[str, str]] | None = None


def read_when(
    ctx: PackContext, value: object, path: str, sides: tuple[str, ...], phases: frozenset[str], weathers: frozenset[str]
) -> Scope:
    """The ``when`` table at `path`. `phases` and `weathers`: the pack's names to check against
    (empty: the pack lists none, so any name is taken). Scenario ids and event names are
    checked once the whole pack is read (pack_scenarios.check_references)."""
    t = ctx.table(value, path)
    ctx.keys(t, path, (set(), set(WHEN_KEYS)))
    turns = ctx.turn_range(t, path)
    words = {k: ctx.words(t, path, k) for k in ("scenario", "phases", "sides", "weather")}
    for key, known in (("sides", frozenset(sides)), ("phases", phases), ("weather", weathers)):
        for w in words[key]:
            name = w.strip().lower() if key == "weather" else w
            if known and name not in known:
                raise ctx.error(
                    join(path, key), f"unknown {key.rstrip('s')} {w!r} (the pack's: {', '.join(sorted(known))})"
                )
    return Scope(
        words["scenario"],
        turns,
        words["phases"],
        words["sides"],
        tuple(w.strip().lower() for w in words["weather"]),
        ctx.typed(t, path, "after", "str", ""),
        ctx.typed(t, path, "before", "str", ""),
    )


def phase_side(rules: Iterable[Any], sides: tuple[str, ...], phase: str | None) -> str | None:
    """The side whose phase `phase` is: from any rule's ``movement_phases``/``combat_phases``
    (phase -> side), else a phase id ``<side>-...``; None when nothing says."""
    if phase is None:
        return None
    for r in rules:
        for key in ("movement_phases", "combat_phases"):
            table = r.params.get(key)
            if isinstance(table, Mapping) and phase in table:
                return str(table[phase])
    return next((s for s in sides if phase.lower().startswith(f"{s.lower()}-")), None)


def in_force(scope: Scope, at: Situation) -> Verdict:
    """Whether a rule with `scope` is in force at `at`: "no" as soon as one key fails, else
    "unknown" when one cannot be told, else "yes"."""
    unknown: list[str] = []

    def among(what: str, value: str | None, allowed: tuple[str, ...], fold: bool = False) -> str | None:
        if not allowed:
            return None
        if value is None:
            unknown.append(f"it is in force only in {what} {', '.join(allowed)}, and the files do not tell the {what}")
            return None
        v = value.strip().lower() if fold else value
        return None if v in allowed else f"it is in force only in {what} {', '.join(allowed)}, not {value}"

    no = (
        among("scenario", at.scenario, scope.scenarios)
        or among("phase", at.phase, scope.phases)
        or among("side's player-turn", at.side, scope.sides)
        or among("weather", at.weather, scope.weather, True)
    )
    if no is None and scope.turns is not None:
        a, b = scope.turns
        if at.turn is None:
            unknown.append(f"it is in force on Game-Turns {a}-{b}, and the files do not tell the turn")
        elif not a <= at.turn <= b:
            no = f"it is in force on Game-Turns {a}-{b}, not on Game-Turn {at.turn}"
    for event, wanted, word in ((scope.after, "yes", "after"), (scope.before, "no", "before")):
        if no is not None or not event:
            continue
        status, why = at.events(event) if at.events is not None else ("unknown", "no state to look at")
        if status == "unknown":
            unknown.append(f"it is in force {word} event {event!r}, and whether it has happened cannot be told: {why}")
        elif status != wanted:
            no = f"it is in force {word} event {event!r}: {why}"
    if no is not None:
        return Verdict("no", no)
    return Verdict("unknown", "; ".join(unknown)) if unknown else Verdict("yes")
