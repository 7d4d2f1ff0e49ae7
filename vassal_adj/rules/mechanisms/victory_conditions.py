"""Victory as conditions and tallies (RULES-MAP N16): ``impl = "victory.conditions"`` and
``impl = "victory.tally"``.

Both read the same terms (victory_terms.py): places controlled at the end, first entered or
last occupied; units in a box; steps lost; exits. `victory.tally` adds up points per side and
names the level by one side's total or by the difference between the sides (seed 004
3.3). `victory.conditions` names conditions and judges outcomes from them: sudden death at any
time or at the end of a given turn (seed 004 3.1), and the end-of-game outcomes in
order, the first that holds deciding (seed 001 Campaign I). A condition the files cannot
settle makes the outcome "cannot be told", never a verdict.

The engine gives a rule one state: an end-of-game outcome is then what the game would give if
it ended with that state. `judge` and `tally_of` take a `History`, so that several states of
one game can be given in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.supply import SupplyRules, obstructed_hexes, supply_status
from vassal_adj.rules.mechanisms.victory import Level, check_levels, victory_level
from vassal_adj.rules.mechanisms.victory_params import read_control, read_term
from vassal_adj.rules.mechanisms.victory_rules import _sub
from vassal_adj.rules.mechanisms.victory_shapes import CONTROL, END, LEVELS, SUDDEN_DEATH, SUPPLY, TERM
from vassal_adj.rules.mechanisms.victory_terms import Result, Supplied, Term, evaluate
from vassal_adj.rules.mechanisms.zoc import ZocRules, enemy_zoc
from vassal_adj.rules.param_shape import Each
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["judge", "tally_of", "victory_conditions", "victory_tally"]

_INT, _STR, _LIST = (int,), (str,), (list, tuple)


def _supplied(ctx: RuleContext, p: Mapping[str, Any]) -> Supplied:
    """Supply by an initial path to a network joined to sources (supply.py), per the pack's
    `supply` table for each side; enemy units and their ZOC obstruct, friendly units negate it."""
    rules = {}
    for side, spec in p["supply"].items():
        s = _sub(spec, f"supply.{side}", {"initial": _INT, "sources": _LIST}, {"networks": _LIST})
        nets = tuple((g,) if isinstance(g, str) else tuple(g) for g in s.get("networks", (("road",), ("trail",))))
        rules[side] = (
            SupplyRules(initial=s["initial"], networks=nets),
            ctx.hexes(s["sources"], f"supply.{side}.sources"),
        )

    def supplied(state: GameState, side: str) -> frozenset[str]:
        if side not in rules:
            raise ValueError(f"supply.{side}: control requires supplied units, but the pack gives no supply for {side}")
        r, sources = rules[side]
        blocked = obstructed_hexes(state, side, r, enemy_zoc(state, ctx.terrain, side, ZocRules()))
        return frozenset(
            uid for uid, st in supply_status(state, ctx.terrain, side, r, sources, blocked).items() if st.supplied
        )

    return supplied


def _levels(p: Mapping[str, Any]) -> tuple[Level, ...]:
    levels = []
    for i, spec in enumerate(p["levels"]):
        lv = _sub(spec, f"levels[{i}]", {"level": _STR}, {"min": _INT, "max": _INT})
        levels.append(Level(lv["level"], lv.get("min"), lv.get("max")))
    check_levels(levels)
    return tuple(levels)


def _result_finding(ctx: RuleContext, r: Result, scored: bool) -> Finding:
    ref = f"[{r.term.rule_ref}] " if r.term.rule_ref else ""
    status = f"{r.points:+d} VP" if scored else "met" if r.met else "not met" if r.met is False else "cannot be told"
    unknown = (
        "" if not r.unknown else f" ({r.unknown})" if status == "cannot be told" else f"; cannot be told: {r.unknown}"
    )
    return Finding(ctx.cite(), Severity.INFO, f"{ref}{r.text}: {status}{unknown}", r.units, r.hexes)


def tally_of(h: History, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Each item, the total per side, the measure (a total or a difference) and its level."""
    control = read_control(p["control"])
    supplied = _supplied(ctx, p)
    items = [read_term(ctx, spec, f"items[{i}]", p["side"], p) for i, spec in enumerate(p["items"])]
    levels = _levels(p)
    if p["levels_by"] not in ("total", "difference"):
        raise ValueError(f"levels_by: expected total or difference, got {p['levels_by']!r}")
    if p["levels_by"] == "difference" and not p["opponent"]:
        raise ValueError("levels_by = 'difference' needs the opponent")
    if bad := [t for t in items if t.side not in (p["side"], p["opponent"])]:
        raise ValueError(
            f"items: side {bad[0].side!r} is neither the side ({p['side']!r}) nor the opponent "
            f"({p['opponent']!r}): its points would count for no one"
        )
    results = [evaluate(h, t, control, supplied, ctx.label) for t in items]
    out = [_result_finding(ctx, r, True) for r in results]
    totals = {
        s: sum(r.points for r in results if r.term.side == s) for s in dict.fromkeys([p["side"], p["opponent"]]) if s
    }
    out += [Finding(ctx.cite(), Severity.INFO, f"{s} victory points: {n}") for s, n in totals.items()]
    if p["levels_by"] == "total":
        measure, words = totals[p["side"]], f"the {p['side']} total"
    else:
        measure = totals[p["side"]] - totals[p["opponent"]]
        words = f"the difference ({p['side']} {totals[p['side']]} - {p['opponent']} {totals[p['opponent']]})"
    if levels:
        ref = f" [{p['levels_ref']}]" if p["levels_ref"] else ""
        out.append(
            Finding(
                ctx.cite(),
                Severity.INFO,
                f"{words} is {measure}, which shows {victory_level(measure, levels) or 'no victory level'}{ref}",
            )
        )
    if unknown := [r for r in results if r.unknown]:
        out.append(
            Finding(
                ctx.cite(),
                Severity.INFO,
                f"cannot be told: {len(unknown)} item(s) may score more than counted (see each item)",
            )
        )
    return out


def _combine(values: list[bool | None], mode: str) -> bool | None:
    """Three-valued all / any / none: None where an unknown condition could change the answer."""
    if mode == "all":
        return False if False in values else None if None in values else True
    if mode == "any":
        return True if True in values else None if None in values else False
    return False if True in values else None if None in values else True


def _outcome(spec: Any, path: str, names: Mapping[str, Term], sudden: bool) -> tuple[str, str, list[str], Any, str]:
    keys = {"result": _STR, "rule_ref": _STR, "all": _LIST, "any": _LIST, "none": _LIST}
    s = _sub(spec, path, {"result": _STR}, {**keys, "at": (str, int)} if sudden else keys)
    modes = [m for m in ("all", "any", "none") if m in s]
    if len(modes) != 1:
        raise ValueError(f"{path}: give exactly one of all, any, none")
    if bad := [n for n in s[modes[0]] if n not in names]:
        raise ValueError(f"{path}.{modes[0]}: {bad[0]!r} is not one of the conditions ({', '.join(names)})")
    at = s.get("at", "any")
    if sudden and not (at == "any" or (isinstance(at, int) and not isinstance(at, bool))):
        raise ValueError(f"{path}.at: expected 'any' or a turn number, got {at!r}")
    return s["result"], modes[0], list(s[modes[0]]), at, s.get("rule_ref", "")


def judge(h: History, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Each condition at the last state, each sudden death, and the end-of-game outcome."""
    control = read_control(p["control"])
    supplied = _supplied(ctx, p)
    terms = {n: read_term(ctx, spec, f"conditions.{n}", None, p) for n, spec in p["conditions"].items()}
    sudden = [_outcome(s, f"sudden_death[{i}]", terms, True) for i, s in enumerate(p["sudden_death"])]
    ends = [_outcome(s, f"end[{i}]", terms, False) for i, s in enumerate(p["end"])]

    def holds(at: int, mode: str, names: list[str]) -> bool | None:
        sub = h.upto(at)
        return _combine([evaluate(sub, terms[n], control, supplied, ctx.label).met for n in names], mode)

    last = len(h.states) - 1
    out = [_result_finding(ctx, evaluate(h, t, control, supplied, ctx.label), False) for t in terms.values()]
    for result, mode, names, at, ref in sudden:
        cite = f"[{ref}] " if ref else ""
        what = f"sudden death, {result} ({mode} of {', '.join(names)})"
        if at == "any":
            seen = [holds(i, mode, names) for i in range(last + 1)]
            verdict, when = (True if True in seen else None if None in seen else False), "in a state given"
        elif (i := h.index_for_turn(at)) is None:
            verdict, when = (
                (False, f"turn {at} is not reached") if h.last_turn is not None else (None, "the turn is unknown")
            )
        else:
            seen = (
                f"state {i + 1}, the last given of turn {at}: if it shows the turn's end"
                if h.turns[i] == at
                else f"judged on state {i + 1}, turn {h.turns[i]}, the first given after turn {at}"
            )
            verdict, when = holds(i, mode, names), f"at the end of turn {at} ({seen})"
        word = {True: "met", False: "not met", None: "cannot be told"}[verdict]
        out.append(Finding(ctx.cite(), Severity.INFO, f"{cite}{what}: {word} {when}"))
    for result, mode, names, _, ref in ends:
        verdict = holds(last, mode, names)
        cite = f"[{ref}] " if ref else ""
        if verdict is None:
            out.append(
                Finding(
                    ctx.cite(),
                    Severity.INFO,
                    f"{cite}cannot be told whether the game would end as {result} "
                    f"({mode} of {', '.join(names)}): see the conditions",
                )
            )
            return out
        if verdict:
            out.append(
                Finding(
                    ctx.cite(),
                    Severity.INFO,
                    f"{cite}if the game ended with this state: {result} ({mode} of {', '.join(names)})",
                )
            )
            return out
    if p["otherwise"]:
        out.append(
            Finding(
                ctx.cite(),
                Severity.INFO,
                f"if the game ended with this state: {p['otherwise']} (no other outcome holds)",
            )
        )
    return out


_SHARED = {
    "control": Param(
        {}, "table", "what controls a place: { units = selector, requires = ['supplied'] }", shape=CONTROL
    ),
    "supply": Param(
        {}, "table", "side -> { initial, sources, networks }: supply for requires = ['supplied']", shape=SUPPLY
    ),
    "eliminated_box": Param("", "str", "the box of eliminated units, for steps_lost items that name no box"),
    "exited_box": Param("", "str", "the box of units exited from the map, for exited items that name no box"),
}


@register(
    "victory.tally",
    params={
        "side": Param(REQUIRED, "str", "the side whose total is measured; items score for it unless they name a side"),
        "opponent": Param("", "str", "the other side (levels_by = 'difference')"),
        "items": Param(
            REQUIRED,
            "list",
            "[{ side, points, rule_ref, and one of place (+ at, per, name, control, turns, "
            "before_declared), box (+ units, value), steps_lost = selector (+ box), "
            "exited = { box, via, count } (+ units, value, before_declared) }]; "
            "value = { fields, by_kind }; before_declared = { marker, box }",
            shape=Each(TERM),
        ),
        "levels": Param((), "list", "[{ level, min, max }] by the measure, contiguous", shape=LEVELS),
        "levels_by": Param("total", "str", "total (the side's) or difference (side minus opponent)"),
        "levels_ref": Param("", "str", "the rule cited with the level"),
        **_SHARED,
    },
)
def victory_tally(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Victory points from terms (places, boxes, steps lost, exits); levels by total or difference."""
    return tally_of(History((state,)), ctx, p)


@register(
    "victory.conditions",
    params={
        "conditions": Param(
            REQUIRED,
            "table",
            "name -> { side, count, and one of place (+ at, per, control, turns, "
            "before_declared), box (+ units), steps_lost, exited (+ before_declared), "
            "declared = { marker, box, turns } }",
            shape=Each(TERM),
        ),
        "sudden_death": Param(
            (),
            "list",
            "[{ result, at = 'any' or a turn, all / any / none = [names], rule_ref }]",
            shape=Each(SUDDEN_DEATH),
        ),
        "end": Param(
            (),
            "list",
            "[{ result, all / any / none = [names], rule_ref }] in order: the first that holds",
            shape=Each(END),
        ),
        "otherwise": Param("", "str", "the result when no end outcome holds"),
        **_SHARED,
    },
)
def victory_conditions(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Victory by conditions: sudden death and end-of-game outcomes (all / any / none of named conditions)."""
    return judge(History((state,)), ctx, p)
