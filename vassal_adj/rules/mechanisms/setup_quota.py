"""Set-up constraints beyond named hexes (RULES-MAP N11): units placed `in` an area (hexes of a
region, boxes), quotas (`count`: how many of some units an area holds), `one_each` (one unit
in each of some hexes), `spacing` (no two units nearer than n hexes) and `with` (each unit
within n hexes of a unit of another kind, of its own formation if asked). Pure: a state and
the constraints in, findings out; `check_constraints` judges a set-up state.

>>> from vassal_adj.model.units import Unit
>>> from vassal_adj.rules.select import Selector
>>> a, b = Hex.from_raw(1, 1), Hex.from_raw(2, 1)
>>> s = GameState({u: Unit(u, u, "Free French", "gun", 0) for u in "xy"}, {"x": Position(a, "0101"),
...                                                                      "y": Position(b, "0201")})
>>> [f.message for f in check_constraints(s, (Spacing(Selector(), "S4.3", 2),), cite=str, label=str)]
['x (0101) and y (0201) are 1 hex apart: no two units may be nearer than 2 hexes [S4.3]']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex, distance
from vassal_adj.model.state import GameState, Position
from vassal_adj.rules.mechanisms.setup import Label
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.select import Selector

__all__ = ["Area", "Count", "OneEach", "Placement", "Spacing", "With", "check_constraints"]

Cite = Callable[[str], str]


@dataclass(frozen=True)
class Area:
    """Hexes and boxes (casefolded), and how the pack wrote them."""

    hexes: frozenset[Hex]
    boxes: frozenset[str]
    words: str

    def holds(self, pos: Position) -> bool:
        return pos.hex in self.hexes if pos.hex is not None else (pos.box or "").strip().casefold() in self.boxes


@dataclass(frozen=True)
class Placement:
    """Every unit `units` picks is set up in `area`."""

    units: Selector
    rule_ref: str
    area: Area


@dataclass(frozen=True)
class Count:
    """The units `units` picks that are set up in `area` number at least `least`, at most `most` (-1: any)."""

    units: Selector
    rule_ref: str
    area: Area
    least: int = 0
    most: int = -1


@dataclass(frozen=True)
class OneEach:
    """One unit `units` picks in each of `hexes` (labels as written), and none elsewhere."""

    units: Selector
    rule_ref: str
    hexes: tuple[tuple[str, Hex], ...]


@dataclass(frozen=True)
class Spacing:
    """No two units `units` picks nearer than `min_distance` hexes (2: not in one hex or adjacent)."""

    units: Selector
    rule_ref: str
    min_distance: int


@dataclass(frozen=True)
class With:
    """Each unit `units` picks is within `distance` hexes (0: stacked) of a unit `of` picks, of
    the same side, and of its own formation when `same_formation`; with `at_least` (-1: each),
    that many of them are, the others free (seed 001 Campaign I: "At least one Tiger counter must
    begin with a unit of the 10. Panzer")."""

    units: Selector
    rule_ref: str
    of: Selector
    distance: int = 0
    same_formation: bool = False
    at_least: int = -1

    def words(self) -> str:
        where = "stacked with" if self.distance == 0 else f"within {self.distance} hexes of"
        return f"{where} one of the {self.of.words()}{' of its own formation' if self.same_formation else ''}"


Constraint = Placement | Count | OneEach | Spacing | With


def _where(state: GameState, uid: str, label: Label) -> str:
    pos = state.positions.get(uid, Position())
    return (pos.label or label(pos.hex)) if pos.hex is not None else f"box {pos.box!r}" if pos.box else "nowhere known"


def _who(state: GameState, uid: str, label: Label) -> str:
    u = state.units[uid]
    return f"{u.side} {u.name} ({_where(state, uid, label)})"


def _picked(state: GameState, pick: Selector) -> list[str]:
    return [uid for uid in sorted(state.units) if pick.matches(state.units[uid])]


def _hexes(state: GameState, ids: Iterable[str], label: Label) -> tuple[str, ...]:
    return tuple(dict.fromkeys(_where(state, u, label) for u in ids if state.hex_of(u) is not None))


def check_constraints(
    state: GameState, constraints: Iterable[Constraint], *, cite: Cite, label: Label
) -> list[Finding]:
    """The findings of each constraint on a set-up state, errors where a unit breaks one."""
    out: list[Finding] = []
    for c in constraints:
        ids, rule, ref = _picked(state, c.units), cite(c.rule_ref), f"[{c.rule_ref}]"
        if isinstance(c, Placement):
            out += [
                Finding(
                    rule,
                    Severity.ERROR,
                    f"{_who(state, u, label)} is not set up in {c.area.words} {ref}",
                    (u,),
                    _hexes(state, (u,), label),
                )
                for u in ids
                if not c.area.holds(state.positions.get(u, Position()))
            ]
        elif isinstance(c, Count):
            inside = [u for u in ids if c.area.holds(state.positions.get(u, Position()))]
            n = len(inside)
            bound = f"at least {c.least} must be" if n < c.least else f"at most {c.most} may be"
            if n < c.least or 0 <= c.most < n:
                out.append(
                    Finding(
                        rule,
                        Severity.ERROR,
                        f"{c.units.words()} set up in {c.area.words}: {n}, but {bound} {ref}",
                        tuple(inside),
                        _hexes(state, inside, label),
                    )
                )
        elif isinstance(c, OneEach):
            out += _one_each(state, c, ids, rule, ref, label)
        elif isinstance(c, Spacing):
            placed = [(u, h) for u in ids if (h := state.hex_of(u)) is not None]
            for i, (u, h) in enumerate(placed):
                for v, k in placed[i + 1 :]:
                    if (d := distance(h, k)) < c.min_distance:
                        apart = "in the same hex" if d == 0 else f"{d} hex{'es' if d > 1 else ''} apart"
                        a, b = _where(state, u, label), _where(state, v, label)
                        out.append(
                            Finding(
                                rule,
                                Severity.ERROR,
                                f"{state.units[u].name} ({a}) and "
                                f"{state.units[v].name} ({b}) are {apart}: no two "
                                f"{c.units.words()} may {_apart(c.min_distance)} {ref}",
                                (u, v),
                                tuple(dict.fromkeys((a, b))),
                            )
                        )
        else:
            out += _with(state, c, ids, rule, ref, label)
    return sorted(out, key=Finding.sort_key)


def _apart(n: int) -> str:
    return "share a hex" if n == 1 else f"be nearer than {n} hexes"


def _one_each(state: GameState, c: OneEach, ids: list[str], rule: str, ref: str, label: Label) -> list[Finding]:
    spots = dict(c.hexes)
    where = " and ".join(spots)
    by_hex: dict[str, list[str]] = {}
    out = []
    for u in ids:
        h = state.hex_of(u)
        name = next((lab for lab, x in c.hexes if x == h), None)
        if name is None:
            out.append(
                Finding(
                    rule,
                    Severity.ERROR,
                    f"{_who(state, u, label)} is not in one of {where} {ref}",
                    (u,),
                    _hexes(state, (u,), label),
                )
            )
        else:
            by_hex.setdefault(name, []).append(u)
    for name in spots:
        got = by_hex.get(name, [])
        if len(got) != 1:
            what = "none" if not got else ", ".join(state.units[u].name for u in got)
            out.append(
                Finding(
                    rule,
                    Severity.ERROR,
                    f"{name} holds {what} of the {c.units.words()}: one goes in each of {where} {ref}",
                    tuple(got),
                    (name,),
                )
            )
    return out


def _near(state: GameState, c: With, u: str) -> bool:
    unit, h = state.units[u], state.hex_of(u)
    return h is not None and any(
        v != u
        and state.units[v].side == unit.side
        and (k := state.hex_of(v)) is not None
        and distance(h, k) <= c.distance
        and (not c.same_formation or state.units[v].formation == unit.formation)
        for v in _picked(state, c.of)
    )


def _with(state: GameState, c: With, ids: list[str], rule: str, ref: str, label: Label) -> list[Finding]:
    if c.at_least >= 0:
        near = [u for u in ids if _near(state, c, u)]
        if len(near) >= c.at_least:
            return []
        message = (
            f"{len(near)} of the {len(ids)} {c.units.words()} {'is' if len(near) == 1 else 'are'} set up "
            f"{c.words()}, but at least {c.at_least} must be {ref}"
        )
        return [Finding(rule, Severity.ERROR, message, tuple(ids), _hexes(state, ids, label))]
    out = []
    for u in ids:
        unit, h = state.units[u], state.hex_of(u)
        if h is None:
            out.append(
                Finding(
                    rule,
                    Severity.ERROR,
                    f"{_who(state, u, label)} is not on the map: it is set up {c.words()} {ref}",
                    (u,),
                )
            )
            continue
        if c.same_formation and not unit.formation:
            out.append(
                Finding(
                    rule,
                    Severity.INFO,
                    f"{_who(state, u, label)} has no formation in the pack, so "
                    f"whether it is {c.words()} is not checked {ref}",
                    (u,),
                )
            )
            continue
        if not _near(state, c, u):
            out.append(
                Finding(rule, Severity.ERROR, f"{_who(state, u, label)} is not {c.words()} {ref}", (u,), (label(h),))
            )
    return out
