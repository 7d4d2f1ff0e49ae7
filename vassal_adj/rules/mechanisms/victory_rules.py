"""The victory-point rule a pack names with ``impl = "victory.points"`` (RULES-MAP E8).

A thin adapter, like implementations.py: it reads the parameters into a `VictoryRules`
(victory.py), runs the tally over a `History` (history.py) and turns it into INFO findings:
every item with its sub-rule number, the total and the level it shows, the end-of-play awards
of which the side takes one, the projection with the larger, and what the state(s) cannot tell.

The engine gives the rule one state; `vassal-adj vp` gives it a game's saves in order
(`vp_tally`). From one state, everything it shows is dated to its own turn (history.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.history import History
from vassal_adj.rules.mechanisms.victory import (
    EnemySourceExit,
    ExitCondition,
    HoldCondition,
    Item,
    LatePenalty,
    Level,
    Objective,
    OwnSourceExit,
    Tally,
    VictoryRules,
    tally,
)
from vassal_adj.rules.mechanisms.victory_shapes import LEVELS
from vassal_adj.rules.param_shape import Each, Shape, Table
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity

__all__ = ["PARAMS", "tally_findings", "victory_points", "victory_rules", "vp_tally"]

_INT, _STR, _BOOL, _LIST = (int,), (str,), (bool,), (list, tuple)


def _sub(
    value: Any,
    path: str,
    required: Mapping[str, tuple[type, ...]],
    optional: Mapping[str, tuple[type, ...]] = MappingProxyType({}),
) -> dict[str, Any]:
    """A parameter sub-table checked for unknown, missing and mistyped keys."""
    if not isinstance(value, Mapping):
        # ValueError, as for every bad parameter: the engine makes it a PackError
        raise ValueError(f"{path}: expected a table, got {value!r}")  # noqa: TRY004
    known = {**required, **optional}
    for k, v in value.items():
        if k not in known:
            raise ValueError(f"{path}.{k}: unknown key (known: {', '.join(sorted(known))})")
        # A bool is never a number: TOML's `true` must not pass for a count of points.
        if not isinstance(v, known[k]) or (isinstance(v, bool) and bool not in known[k]):
            raise ValueError(f"{path}.{k}: expected {known[k][0].__name__}, got {v!r}")
    if missing := [k for k in required if k not in value]:
        raise ValueError(f"{path}: missing {', '.join(missing)}")
    return dict(value)


def _one_hex(ctx: RuleContext, spec: str, path: str) -> Hex:
    hexes = ctx.hexes([spec], path)
    if len(hexes) != 1:
        raise ValueError(f"{path}: {spec!r} names {len(hexes)} hexes, expected one")
    return hexes[0]


def victory_rules(ctx: RuleContext, p: Mapping[str, Any]) -> VictoryRules:
    """The parameters as a `VictoryRules`; ValueError naming the key for a bad one."""
    eliminated = {}
    for side, spec in p["eliminated"].items():
        e = _sub(spec, f"eliminated.{side}", {"factor": _INT}, {"rule_ref": _STR})
        eliminated[side] = (e["factor"], e.get("rule_ref", ""))
    objectives = []
    for i, spec in enumerate(p["objectives"]):
        o = _sub(
            spec,
            f"objectives[{i}]",
            {"name": _STR, "hex": _STR, "points": _INT},
            {"first_turn": _INT, "last_turn": _INT, "before_withdrawal": _BOOL, "rule_ref": _STR},
        )
        objectives.append(
            Objective(
                o["name"],
                ctx.hexes([o["hex"]], f"objectives[{i}].hex"),
                o["points"],
                o.get("first_turn"),
                o.get("last_turn"),
                o.get("before_withdrawal", False),
                o.get("rule_ref", ""),
            )
        )
    levels = []
    for i, spec in enumerate(p["levels"]):
        lv = _sub(spec, f"levels[{i}]", {"level": _STR}, {"min": _INT, "max": _INT})
        levels.append(Level(lv["level"], lv.get("min"), lv.get("max")))
    sources = frozenset(ctx.hexes(p["sources"], "sources"))
    late = hold = exit_ = enemy = own = None
    if p["late_penalty"]:
        lp = _sub(p["late_penalty"], "late_penalty", {"points": _INT, "after_turn": _INT}, {"rule_ref": _STR})
        late = LatePenalty(lp["points"], lp["after_turn"], lp.get("rule_ref", ""))
    if p["withdrawal_hold"]:
        c = _sub(
            p["withdrawal_hold"],
            "withdrawal_hold",
            {"side": _STR, "formation": _STR, "hex": _STR, "within": _INT, "turns_after": _INT, "factor": _INT},
            {"rule_ref": _STR},
        )
        hold = HoldCondition(
            c["side"],
            c["formation"],
            _one_hex(ctx, c["hex"], "withdrawal_hold.hex"),
            c["within"],
            c["turns_after"],
            c["factor"],
            c.get("rule_ref", ""),
        )
    if p["withdrawal_exit"]:
        c = _sub(
            p["withdrawal_exit"],
            "withdrawal_exit",
            {"side": _STR, "turns_after": _INT, "factor": _INT},
            {"hexes": _LIST, "rule_ref": _STR},
        )
        hexes = frozenset(ctx.hexes(c["hexes"], "withdrawal_exit.hexes")) if "hexes" in c else sources
        exit_ = ExitCondition(c["side"], hexes, c["turns_after"], c["factor"], c.get("rule_ref", ""))
    if p["end_enemy_source_exit"]:
        c = _sub(
            p["end_enemy_source_exit"], "end_enemy_source_exit", {"factor": _INT}, {"networks": _LIST, "rule_ref": _STR}
        )
        nets = tuple(
            ctx.terrain.network(*((g,) if isinstance(g, str) else g)) for g in c.get("networks", (("road", "trail"),))
        )
        enemy = EnemySourceExit(
            c["factor"],
            frozenset(ctx.hexes(p["opponent_sources"], "opponent_sources")),
            sources,
            nets,
            c.get("rule_ref", ""),
        )
    if p["end_own_source_exit"]:
        c = _sub(
            p["end_own_source_exit"], "end_own_source_exit", {"per_point": _INT, "kinds": _LIST}, {"rule_ref": _STR}
        )
        own = OwnSourceExit(c["per_point"], frozenset(c["kinds"]), sources, c.get("rule_ref", ""))
    # The engine knows no module's box names: the pack gives those the rules read.
    if not p["eliminated_box"]:
        raise ValueError("eliminated_box: name the off-map box of eliminated units (eliminations are counted)")
    if p["withdrawal_markers"] and not (p["turn_box"] or p["turn_box_kind"]):
        raise ValueError(
            "turn_box: withdrawal_markers are read from the turn boxes; give turn_box (a regular "
            "expression of their names) or turn_box_kind"
        )
    if not p["exited_box"] and (exit_ or enemy or own):
        raise ValueError(
            "exited_box: withdrawal_exit and the end_*_exit awards read the off-map box of exited units; name it"
        )
    return VictoryRules(
        p["side"],
        p["opponent"],
        eliminated,
        tuple(objectives),
        tuple(levels),
        frozenset(p["artillery_kinds"]),
        late,
        dict(p["withdrawal_markers"]),
        p["turn_box"],
        p["eliminated_box"],
        p["exited_box"],
        hold,
        exit_,
        enemy,
        own,
        p["withdrawal_rule"],
        p["turn_box_kind"],
    )


def vp_tally(
    states: Sequence[GameState],
    ctx: RuleContext,
    p: Mapping[str, Any],
    *,
    turns: Sequence[int | None] | None = None,
    final: bool = False,
) -> Tally:
    """The tally of a game's states in order (one state: what it shows), with the pack's
    `remarks` added to what cannot be told."""
    t = tally(History(states, turns), victory_rules(ctx, p), label=ctx.label, final=final)
    return Tally(t.items, t.options, t.unknowns + tuple(p["remarks"]), t.levels, t.faults)


def points(n: int) -> str:
    return f"{n:+d} VP"


def _level(t: Tally, total: int, ref: str) -> str:
    name = t.level(total)
    return f"{name or 'no victory level'}{f' [{ref}]' if ref else ''}"


def tally_findings(t: Tally, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """INFO findings: each item, each end-of-play option, the totals and levels, the unknowns;
    an ERROR for each fault (a second withdrawal declaration)."""
    cite = ctx.cite()

    def item(i: Item, prefix: str = "") -> Finding:
        turn = f" (turn {i.turn})" if i.turn is not None and not prefix else ""
        return Finding(
            cite, Severity.INFO, f"{prefix}[{i.rule_ref}] {i.text}: {points(i.points)}{turn}", i.units, i.hexes
        )

    out = [item(i) for i in t.items]
    out += [item(i, f"end-of-play award, if the {p['side']} player takes this one: ") for i in t.options]
    out.append(
        Finding(
            cite, Severity.INFO, f"victory points so far: {t.total}, which shows {_level(t, t.total, p['levels_ref'])}"
        )
    )
    best = t.best_option
    if best is not None:
        out.append(
            Finding(
                cite,
                Severity.INFO,
                f"projection (not a result: the {p['side']} player takes one end-of-play award, not "
                f"both; the larger is assumed, [{best.rule_ref}] {points(best.points)}): {t.projection}, "
                f"which shows {_level(t, t.projection, p['levels_ref'])}",
            )
        )
    out += [Finding(cite, Severity.INFO, f"cannot be told: {u}") for u in t.unknowns]
    out += [Finding(cite, Severity.ERROR, f) for f in t.faults]
    return out


def _optional(required: tuple[str, ...], **keys: Shape) -> Table:
    """A table parameter whose ``{}`` default leaves its condition out; given, it cites its `rule_ref`."""
    return Table({**keys, "rule_ref": "str"}, required=required, or_empty=True)


PARAMS = {
    "side": Param("Axis", "str", "the side whose running total it is (objectives, its withdrawal)"),
    "opponent": Param("Allied", "str", "the other side (whose units block the 22.43.1 route)"),
    "artillery_kinds": Param(("artillery",), "list[str]", "unit classes valued barrage + FPF + defense (22.11)"),
    "eliminated": Param(
        REQUIRED,
        "table",
        "side -> { factor, rule_ref } per eliminated unit (22.41.5, 22.42.1)",
        shape=Each(Table({"factor": "int", "rule_ref": "str"}, required=("factor",))),
    ),
    "objectives": Param(
        REQUIRED,
        "list",
        "[{ name, hex, points, first_turn, last_turn, before_withdrawal, rule_ref }] (22.41.1-4, 7)",
        shape=Each(
            Table(
                {
                    "name": "str",
                    "hex": "str",
                    "points": "int",
                    "first_turn": "int",
                    "last_turn": "int",
                    "before_withdrawal": "bool",
                    "rule_ref": "str",
                },
                required=("name", "hex", "points"),
            )
        ),
    ),
    "levels": Param(REQUIRED, "list", "[{ level, min, max }] victory levels by total, contiguous", shape=LEVELS),
    "levels_ref": Param("", "str", "the rule number cited with the level"),
    "late_penalty": Param(
        {},
        "table",
        "{ points, after_turn, rule_ref } each turn with no withdrawal (22.42.3)",
        shape=_optional(("points", "after_turn"), points="int", after_turn="int"),
    ),
    "withdrawal_markers": Param(
        {},
        "table",
        "side -> the marker piece whose turn box says the withdrawal was declared (none: no withdrawal is read)",
        shape=Each("str"),
    ),
    "withdrawal_rule": Param("", "str", "the rule cited when a side declares its withdrawal twice (19.0)"),
    "turn_box": Param(
        "",
        "str",
        "regular expression of the module's turn boxes; group 1 is the turn (with "
        "withdrawal_markers, this or turn_box_kind is needed)",
    ),
    "turn_box_kind": Param(
        "", "str", "the [boxes] kind of the turn boxes (their number is the turn); replaces turn_box when given"
    ),
    "eliminated_box": Param("", "str", "the off-map box of eliminated units (the module's name; needed)"),
    "exited_box": Param(
        "",
        "str",
        "the off-map box of units exited from the map (needed with withdrawal_exit and the end_*_exit awards)",
    ),
    "sources": Param((), "list[str]", "the side's supply source hexes (19.3, 22.43)"),
    "opponent_sources": Param((), "list[str]", "the opponent's supply source hexes (22.43.1)"),
    "withdrawal_hold": Param(
        {},
        "table",
        "{ side, formation, hex, within, turns_after, factor, rule_ref } (19.3, 22.21)",
        shape=_optional(
            ("side", "formation", "hex", "within", "turns_after", "factor"),
            side="str",
            formation="str",
            hex="str",
            within="int",
            turns_after="int",
            factor="int",
        ),
    ),
    "withdrawal_exit": Param(
        {},
        "table",
        "{ side, turns_after, factor, hexes, rule_ref } (19.3, 22.22)",
        shape=_optional(
            ("side", "turns_after", "factor"), side="str", turns_after="int", factor="int", hexes="list[str]"
        ),
    ),
    "end_enemy_source_exit": Param(
        {},
        "table",
        "{ factor, networks, rule_ref } (22.43.1)",
        shape=_optional(("factor",), factor="int", networks="list[list[str]]"),
    ),
    "end_own_source_exit": Param(
        {},
        "table",
        "{ per_point, kinds, rule_ref } (22.43.2)",
        shape=_optional(("per_point", "kinds"), per_point="int", kinds="list[str]"),
    ),
    "remarks": Param((), "list[str]", "what the rule leaves uncounted, shown with what cannot be told"),
}


@register("victory.points", params=PARAMS)
def victory_points(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Victory points a save shows (22.4), the level (22 table), and what one save cannot tell."""
    return tally_findings(vp_tally((state,), ctx, p), ctx, p)
