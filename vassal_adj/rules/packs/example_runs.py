"""Running a pack's worked examples (rules/packs/examples.py) on a terrain map.

Each kind asks the code `check` and `verify` use, with the pack's own parameters: an allowance
is `movement_params.allowance` under `movement_rules(params)`, a move is `movement.legal_path`
(limited to the example's hexes when it names more than two), supply and stacking (and a
`position` example, the rule it names) run the pack's rule itself on the example's position at
its turn, phase and scenario, and read its findings for the unit. A verdict that differs from
the rulebook's is a failed example naming the rule, the hexes and what differed; an example
this board cannot hold (a hex it lacks, a counter units.toml cannot map) is a PackError naming
its key path. Pure: no files.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from vassal_adj.model.geometry.hexes import Hex
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.mechanisms.movement_params import allowance
from vassal_adj.rules.mechanisms.movement_rules import movement_rules, zoc_rules
from vassal_adj.rules.mechanisms.zoc import enemy_zoc
from vassal_adj.rules.packs.examples import Example, ExampleUnit, bad_example
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.packs.unitmap import UnitMap
from vassal_adj.rules.results import Severity

__all__ = ["ExampleResult", "run_example", "run_examples"]


@dataclass(frozen=True)
class ExampleResult:
    """One example run: `ok` when every verdict it expects is the one the rule code gives."""

    example: Example
    ok: bool
    expected: str  # the rulebook's verdicts, in words
    got: str  # what the rule code says, with its reason when it refuses
    hexes: tuple[str, ...]  # the hexes of the example (where to look on the map)

    def __str__(self) -> str:
        e = self.example
        where = f" at {' '.join(self.hexes)}" if self.hexes else ""
        head = f"{e.title}: {e.units[0].name}{where}" + (f" in {e.weather} weather" if e.weather else "")
        if self.ok:
            return f"{head}: {self.got}, as the rulebook says"
        return f"{head}: the rulebook says {self.expected}; the rules on this terrain say {self.got}"


def run_examples(
    examples: tuple[Example, ...],
    pack: RulePack,
    unitmap: UnitMap | None,
    terrain: TerrainMap | None,
    layout: HexLayout | None,
) -> list[ExampleResult]:
    """Every example run in order (PackError on the first that this board or units file cannot hold).

    `terrain` and `layout` may be None when no example is `on_board` (an allowance needs no map)."""
    return [run_example(e, pack, unitmap, terrain, layout) for e in examples]


def run_example(
    e: Example, pack: RulePack, unitmap: UnitMap | None, terrain: TerrainMap | None, layout: HexLayout | None
) -> ExampleResult:
    if e.on_board and (terrain is None or layout is None):
        raise ValueError(f"{e.title} stands on the board: it needs the terrain and the board's layout")
    units = {f"example-{j}": _unit(e, j, u, pack, unitmap) for j, u in enumerate(e.units)}
    positions = {uid: _position(e, j, u, pack, layout) for j, (uid, u) in enumerate(zip(units, e.units, strict=True))}
    subject = "example-0"
    if e.kind == "movement":
        positions[subject] = Position(_hex(e, pack, layout, e.move[0], "move", 0), e.move[0])
    state = GameState(units, positions, turn=e.turn, phase=e.phase, weather=e.weather)
    hexes = e.move or tuple(u.at for u in e.units[:1] if u.at)
    rule = _rule(e, pack, units[subject])
    verdicts, reason = _RUNS[e.kind](e, rule, state, subject, terrain, layout, pack)
    ok = all(_same(verdicts.get(k), v) for k, v in e.expect.items())
    expected = ", ".join(_words(k, v) for k, v in e.expect.items())
    said = ", ".join(_words(k, verdicts.get(k)) for k in e.expect)
    return ExampleResult(e, ok, expected, said + (f" ({reason})" if reason and not ok else ""), hexes)


def _same(got: object, want: object) -> bool:
    if isinstance(want, (bool, str)):
        return got == want
    return got is not None and Fraction(str(got)) == Fraction(str(want))


def _words(key: str, value: object) -> str:
    if value is None:
        return f"no {key}"
    if isinstance(value, bool):
        words = {
            "legal": ("legal", "not legal"),
            "supplied": ("in supply", "out of supply"),
            "controlled": ("in an enemy zone of control", "in no enemy zone of control"),
        }
        return words[key][0 if value else 1] if key in words else f"{key} {value}"
    if key == "cites":
        return f"citing {value}"
    if key == "cost":
        return f"cost {Fraction(str(value))} MP"
    return f"{key} {value}"


def _unit(e: Example, j: int, u: ExampleUnit, pack: RulePack, unitmap: UnitMap | None) -> Unit:
    uid = f"example-{j}"
    if u.movement is not None:
        cls = pack.unit_classes[u.kind]
        return Unit(
            uid,
            u.name,
            u.side,
            u.kind,
            u.movement,
            mechanized=cls.mechanized if u.mechanized is None else u.mechanized,
            flags=cls.flags | frozenset(u.flags),
        )
    if unitmap is None:
        raise bad_example(
            e,
            pack.source,
            "the pack has no units file to map this counter: give side, kind and movement",
            "units",
            j,
            "name",
        )
    got = unitmap.map_piece(Piece(uid, u.name, None, 0, 0))
    if not isinstance(got, Unit):
        why = got.reason if got is not None else "units.toml ignores this name (not a unit)"
        raise bad_example(e, pack.source, f"counter {u.name!r}: {why}", "units", j, "name")
    return replace(got, id=uid)


def _hex(e: Example, pack: RulePack, layout: HexLayout | None, label: str, *key: str | int) -> Hex:
    h = layout.hex_of(label) if layout is not None else None
    if h is None or layout is None or not layout.on_map(h):
        board = layout.where if layout is not None else "no board given"
        raise bad_example(e, pack.source, f"no hex {label!r} on this board ({board})", *key)
    return h


def _position(e: Example, j: int, u: ExampleUnit, pack: RulePack, layout: HexLayout | None) -> Position:
    if u.at is None:
        return Position()
    return Position(_hex(e, pack, layout, u.at, "units", j, "at"), u.at)


def _rule(e: Example, pack: RulePack, unit: Unit) -> RuleConfig:
    """The rule the example runs: the one it names, the pack's only one of its kind, or the one for the unit's side."""
    if len(e.rules) == 1:
        return e.rules[0]
    mine = [r for r in e.rules if r.params.get("side") == unit.side]
    if len(mine) == 1:
        return mine[0]
    names = ", ".join(r.name for r in e.rules)
    raise bad_example(
        e, pack.source, f"the pack has several rules of this kind ({names}): name one with `uses`", "uses"
    )


Verdicts = tuple[dict[str, Any], str]


def _allowance(e: Example, rule: RuleConfig, state: GameState, uid: str, *_: object) -> Verdicts:
    return {"allowance": allowance(state.units[uid], e.weather, movement_rules(rule.params))}, ""


def _movement(
    e: Example, rule: RuleConfig, state: GameState, uid: str, terrain: TerrainMap, layout: HexLayout, pack: RulePack
) -> Verdicts:
    hexes = [_hex(e, pack, layout, label, "move", i) for i, label in enumerate(e.move)]
    area = set(hexes) if len(hexes) > 2 else None  # the named hexes only: the rulebook's path, not a cheaper one
    r = legal_path(
        state,
        terrain,
        uid,
        hexes[0],
        hexes[-1],
        movement_rules(rule.params),
        weather=e.weather,
        area=area,
        label=layout.label_of,
    )
    return {"legal": r.ok, "cost": r.cost, "cites": None if r.ok else r.rule_ref or rule.rule_ref}, r.reason or ""


def _zoc(e: Example, rule: RuleConfig, state: GameState, uid: str, terrain: TerrainMap, *_: object) -> Verdicts:
    h = state.hex_of(uid)
    zone = enemy_zoc(state, terrain, state.units[uid].side, zoc_rules(rule.params), e.weather)
    return {"controlled": h in zone}, ""


def _flagged(
    e: Example, rule: RuleConfig, state: GameState, uid: str, terrain: TerrainMap, layout: HexLayout, pack: RulePack
) -> tuple[bool, str]:
    """Whether the pack's rule, run on the position as `check` runs it, reports the unit (a warning or error)."""
    scenario = pack.scenarios[e.scenario] if e.scenario else None
    ctx = RuleContext(terrain, layout, pack.id, rule=rule, scenario=scenario)
    if rule.implementation is None:
        raise bad_example(e, pack.source, f"rule {rule.name!r} has no implementation loaded", "uses")
    try:
        found = rule.implementation.func(state, ctx, rule.params)
    except ValueError as err:  # parameters that do not fit this board: the pack's fault, as `check` says
        raise bad_example(e, pack.source, f"rules.{rule.name}: {err}") from None
    mine = [f for f in found if uid in f.units]  # what the rule says of the unit: a refusal's reason, or its path
    return any(f.severity != Severity.INFO for f in mine), "; ".join(f.message for f in mine)


def _supply(*args: Any) -> Verdicts:
    flagged, why = _flagged(*args)
    return {"supplied": not flagged}, why


def _legal(*args: Any) -> Verdicts:
    flagged, why = _flagged(*args)
    return {"legal": not flagged}, why


_RUNS = {
    "allowance": _allowance,
    "movement": _movement,
    "supply": _supply,
    "zoc": _zoc,
    "stacking": _legal,
    "position": _legal,
}
