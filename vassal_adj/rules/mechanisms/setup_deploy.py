"""The initial deployment (RULES-MAP E6): where the set-up puts each unit (`check_deployment`),
no stacking at set-up, and units frozen on a turn (23.72). Pure: states and hexes in.

>>> from vassal_adj.model.state import Position
>>> from vassal_adj.model.units import Unit
>>> g = Group("2714", Hex.from_raw(26, 13), "adjacent", 1, ("2-1-14 (1/13)",))
>>> s = GameState({"a": Unit("a", "2-1-14(1/13)", "Allied", "armor", 14)},
...               {"a": Position(Hex.from_raw(26, 16), "2717")})
>>> [f.message for f in check_deployment(s, Deployment("Allied", (g,), rule_ref="23"), rule="k:23")]
['Allied 2-1-14 (1/13) in 2717 is not in or adjacent to 2714 [23 set-up]']
"""

from __future__ import annotations

from dataclasses import dataclass

from vassal_adj.model.geometry.hexes import Hex, within
from vassal_adj.model.state import GameState
from vassal_adj.rules.mechanisms.setup import Label, by_name, nearest, place_words, printed_key, unit_names
from vassal_adj.rules.results import Finding, Severity

__all__ = ["PLACEMENTS", "Deployment", "Group", "check_deployment"]

PLACEMENTS = ("exact", "adjacent", "within")


# -- the set-up --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """Units the set-up places `at` a hex: exactly, "in or adjacent", or within `distance`."""

    at: str
    center: Hex
    placement: str
    distance: int
    units: tuple[str, ...]

    def hexes(self) -> frozenset[Hex]:
        radius = {"exact": 0, "adjacent": 1}.get(self.placement, self.distance)
        return frozenset(within(self.center, radius))

    def words(self) -> str:
        return {"exact": f"at {self.at}", "adjacent": f"in or adjacent to {self.at}"}.get(
            self.placement, f"on or within {self.distance} hexes of {self.at}"
        )


@dataclass(frozen=True)
class Deployment:
    """A side's set-up. `frozen_turn` (23.72: 1; 0 for none) is the Game-Turn on which listed
    units may not move unless within `exempt_range` hexes of an enemy unit."""

    side: str
    groups: tuple[Group, ...]
    no_stacking: bool = True
    frozen_turn: int = 0
    exempt_range: int = 10
    frozen_rule: str = ""
    rule_ref: str = ""


def check_deployment(
    state: GameState, dep: Deployment, *, rule: str, label: Label = lambda h: str(h.raw())
) -> list[Finding]:
    """Findings on a set-up state (no turn, no phase) and on the frozen turn; none otherwise.

    At set-up each listed unit must be on the map at its placement and no two may stack (23).
    On the frozen turn a unit away from its placement or off the map is an error of 23.72
    unless an enemy unit is within `exempt_range` of it or of its set-up area (where exactly
    it stood a state cannot show, so the area is given the benefit). A unit at a legal
    placement may still have moved within it: no state can tell.
    """
    setup, frozen = state.turn is None, dep.frozen_turn > 0 and state.turn == dep.frozen_turn
    if setup and state.phase is not None:
        return [
            Finding(
                rule,
                Severity.INFO,
                f"the state has phase {state.phase!r} but no Game-Turn: the "
                f"{dep.side} set-up [{dep.rule_ref}] is not checked",
            )
        ]
    if not (setup or frozen):
        return []
    frule, cite = dep.frozen_rule or dep.rule_ref, f"[{dep.rule_ref} set-up]"
    areas: dict[str, list[Group]] = {}
    for g in dep.groups:
        for name in g.units:
            areas.setdefault(printed_key(name), []).append(g)
    found = by_name(state, dep.side)
    out: list[Finding] = []
    free: set[str] = set()  # may move on the frozen turn: an enemy is near
    for key, groups in areas.items():
        name, words = next(n for n in groups[0].units if printed_key(n) == key), " or ".join(g.words() for g in groups)
        area = frozenset().union(*(g.hexes() for g in groups))
        ids = found.get(key, [])
        if not ids:
            out.append(
                Finding(
                    rule,
                    Severity.WARNING,
                    f"{dep.side} {name}, which the set-up places {words}, is not in the save {cite}",
                    (),
                    tuple(g.at for g in groups),
                )
            )
        elif len(ids) > len(groups):
            out.append(
                Finding(
                    rule,
                    Severity.WARNING,
                    f"{len(ids)} {dep.side} pieces are named {name}; the set-up lists {len(groups)} {cite}",
                    tuple(ids),
                )
            )
        for uid in ids:
            h, where = state.hex_of(uid), place_words(state, uid, label)
            hexes = (where,) if h is not None else ()
            near = nearest(state, area | ({h} if h is not None else set()), dep.side) if frozen else None
            if near is not None and near[0] <= dep.exempt_range:
                free.add(uid)
            if h in area:
                continue
            if setup:
                what = f"in {where} is not" if h is not None else f"is not on the map ({where}) but should be"
                out.append(Finding(rule, Severity.ERROR, f"{dep.side} {name} {what} {words} {cite}", (uid,), hexes))
            elif uid in free:
                assert near is not None
                enemy = state.units[near[1]]
                out.append(
                    Finding(
                        rule,
                        Severity.INFO,
                        f"{dep.side} {name} ({where}) is not {words} on Game-Turn "
                        f"{state.turn}, and may move: {enemy.side} {enemy.name} in "
                        f"{label(near[2])} is within {dep.exempt_range} hexes of it or "
                        f"of its set-up area [{frule}]",
                        (uid,),
                        hexes,
                    )
                )
            else:
                out.append(
                    Finding(
                        rule,
                        Severity.ERROR,
                        f"{dep.side} {name} ({where}) is not {words} on Game-Turn "
                        f"{state.turn}: units of the initial deployment may not be "
                        f"moved unless within {dep.exempt_range} hexes of an enemy "
                        f"unit, and none is [{frule}]",
                        (uid,),
                        hexes,
                    )
                )
    if dep.no_stacking:
        ours = {uid for key in areas for uid in found.get(key, [])}
        out += _stacks(state, dep.side, ours, free, frozen, rule, cite, label)
    return sorted(out, key=Finding.sort_key)


def _stacks(
    state: GameState, side: str, ours: set[str], free: set[str], frozen: bool, rule: str, cite: str, label: Label
) -> list[Finding]:
    """Stacks holding a set-up unit ("Units may not be stacked", 23). On the frozen turn only
    stacks of set-up units none of which may have moved: any other stack may have formed in play."""
    out = []
    for h, ids in state.occupied().items():
        mine = [u for u in ids if state.units[u].side == side]
        if len(mine) < 2 or not ours.intersection(mine):
            continue
        if frozen and (not ours.issuperset(mine) or free.intersection(mine)):
            continue
        out.append(
            Finding(
                rule,
                Severity.ERROR,
                f"{side} {unit_names(state, mine)} are stacked in {label(h)}: units may not be stacked {cite}",
                tuple(mine),
                (label(h),),
            )
        )
    return out
