"""Dice tables read from a log (RULES-MAP N20, with N17 "once per game"): the log rule
``dice.table``, run on each segment of a log as it closes (segments.py).

The rule reads the rolls of one die button (`button`, as the log's Dice Button reports name it)
in the segments of the phases (`phases`) and segment kinds (`kinds`) it names, gives each to a
side (`sides`: the n-th roll of a segment is the n-th side's; without it, the side the segment's
opener names), maps it through the pack's `table` (side or "*" -> { roll or range -> outcome
words }) and judges what the log did with it:

- `required`: a segment of those phases and kinds with no roll of the button ("no roll in the
  log"), or with fewer rolls than `sides`; a roll the rule cannot give to a side is not judged,
  and said so;
- `not_in_first_turn`: no roll in the scenario's first Game-Turn (seed 004 4.1 "The Events
  Segment is omitted in the first GT of each scenario");
- `once_per_game`: an outcome a side rolled before in the log has no effect (28.0 "subsequent die
  rolls for the same event are ignored and no additional die roll is conducted"); applied again
  (its `effects` seen a second time) is an error;
- `effects` (side or "*" -> { roll or range -> { track = change } }): what an outcome does to
  the pack's tracks ([state] tracks), checked against the segment's change of those tracks when
  every roll of the segment has its effect given; an outcome without one is named, and its
  effect is "not judged";
- a count bound (`count_units`, `count_from`, `count_becomes`, `count_exact`, `count_same`), a
  threshold (`success_at_most`, `once_per_turn`) and returns to the
  Turn Record Track (`returns_units`, `returns_after`, `returns_box`, `returns_past_end`,
  `returns_severity`):
  dice_judges.py.

Rolls of earlier files of a game are not in the log: "once per game" and "after a success" see
the rolls of this log only, and the findings say so.

Pure: a `segments.Segment` in, findings out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.dice_judges import Say, counted, returned, succeeds
from vassal_adj.rules.mechanisms.dice_rolls import Attributed, attributed, earlier_segments, outcome, picks, table_entry
from vassal_adj.rules.param_shape import Each, Either, Keyed
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segments import Segment

__all__ = ["dice_table"]

_ONLY_LOG = "only this log's rolls are seen"
# A return's turns later (dice_judges._offsets): 0 or more, "roll", or a list of these alternatives.
_LATER = Either("int", "str", Each(Either("int", "str")))
# "roll" or a number for every roll, or { roll or range -> later }, or side -> { roll or range -> later }.
_RETURNS_AFTER = Either("str", "int", Keyed(Either("int", "str", Each(Either("int", "str")), Keyed(_LATER))))


def _first_turn(ctx: RuleContext) -> int | None:
    sc = ctx.scenario
    return sc.turns[0] if sc is not None and sc.turns else None


def _earlier(p: Mapping[str, Any], segment: Segment) -> list[Attributed]:
    """The log's earlier rolls of the button in the segments the rule reads, each with its side."""
    return [a for rolls in earlier_segments(p, segment.earlier_dice) for a in attributed(p, rolls, rolls[0].side)]


def _words(p: Mapping[str, Any], a: Attributed) -> str:
    found = outcome(p, a)
    side = f"{a.side} " if a.side else ""
    return f"{side}roll of {a.roll.result} on {p['button']}" + (f" ({found[1]})" if found else "")


def _before(segment: Segment, rolls: Sequence[Attributed], track: str) -> int | None:
    """The value of `track` before the segment's first roll took effect (as the module showed it
    at that roll, else at the segment's start)."""
    at = rolls[0].roll.track(track) if rolls else None
    if at is None:
        t = segment.start.track(track)
        at = t.value if t is not None else None
    return at


def _effects(
    p: Mapping[str, Any], segment: Segment, live: Sequence[Attributed], dead: Sequence[Attributed], say: Say, ref: str
) -> list[Finding]:
    """The change of each track the effects name, from the segment's first roll to its end, against
    the outcomes' effects: `live` rolls take effect, `dead` ones (rolled before, once per game) none."""
    effects = p["effects"]
    tracks = {t for rows in effects.values() for e in rows.values() for t in e}
    given = [table_entry(effects, a.side, a.roll.value) for a in live]
    if not tracks or not (live or dead) or any(g is None for g in given):  # no roll: the tracks are not its
        return []
    want = dict.fromkeys(sorted(tracks), 0)
    for g in given:
        for t, n in (g[1] if g else {}).items():
            want[t] += n
    out = []
    first = sorted([*live, *dead], key=lambda a: a.roll.step)
    for t, n in want.items():
        a, end = _before(segment, first, t), segment.end.track(t)
        b = end.value if end is not None else None
        if a is None or b is None or b - a == n:
            continue
        again = {x: e[1].get(t, 0) for x in dead if (e := table_entry(effects, x.side, x.roll.value))}
        if any(again.values()) and b - a == n + sum(again.values()):
            what = "; ".join(_words(p, x) for x, k in again.items() if k)
            out.append(
                say(
                    Severity.ERROR,
                    f"{what}: applied again ({t} {a} -> {b}), though each event occurs once per game "
                    f"({_ONLY_LOG}) [{ref}]",
                )
            )
        else:
            out.append(say(Severity.ERROR, f"{t} went {a} -> {b} ({b - a:+d}); the rolls give {n:+d} [{ref}]"))
    return out


def _events(p: Mapping[str, Any], segment: Segment, rolls: list[Attributed], say: Say, ref: str) -> list[Finding]:
    """The outcome of each roll, once per game, and the effects on the tracks."""
    out: list[Finding] = []
    seen = {(a.side, k[0]): a for a in _earlier(p, segment) if (k := outcome(p, a))} if p["once_per_game"] else {}
    live, dead = [], []
    for a in rolls:
        if a.side is None and p["sides"]:
            out.append(
                say(
                    Severity.WARNING,
                    f"roll of {a.roll.result} on {p['button']}: more rolls than sides {p['sides']}, "
                    f"whose it is is not known: not judged [{ref}]",
                )
            )
            continue
        found = outcome(p, a)
        first = seen.get((a.side, found[0])) if found else None
        if first is not None:
            dead.append(a)
            out.append(
                say(
                    Severity.INFO,
                    f"{_words(p, a)}: rolled before on turn {first.roll.turn}, so it has no effect "
                    f"and no roll is made again [{ref}]",
                )
            )
            continue
        live.append(a)
        if found:
            seen[(a.side, found[0])] = a
            shown = table_entry(p["effects"], a.side, a.roll.value)
            tail = "" if shown and shown[1] else ": its effect is not visible in the files, not judged"
            out.append(say(Severity.INFO, f"{_words(p, a)}{tail} [{ref}]"))
    return out + _effects(p, segment, live, dead, say, ref)


def _threshold(p: Mapping[str, Any], segment: Segment, rolls: list[Attributed], say: Say, ref: str) -> list[Finding]:
    """Each attempt's result, at most one a turn, and none needed after a success."""
    out = []
    before = [a.roll for a in _earlier(p, segment)]
    won = next((r for r in before if succeeds(p, r.turn, r.value)), None)
    for n, a in enumerate(rolls):
        ok = succeeds(p, segment.turn, a.roll.value)
        words = _words(p, a)
        if p["once_per_turn"] and (any(r.turn == segment.turn for r in before) or n > 0):
            out.append(say(Severity.ERROR, f"{words}: a second attempt on turn {segment.turn}; one a turn [{ref}]"))
        if won is not None:
            out.append(
                say(Severity.WARNING, f"{words}: it already succeeded on turn {won.turn}, no roll is needed [{ref}]")
            )
        elif ok is None:
            out.append(say(Severity.WARNING, f"{words}: the turn is not known, success not judged [{ref}]"))
        else:
            limit = segment.turn if p["success_at_most"] == "turn" else p["success_at_most"]
            verdict = "succeeds" if ok else "fails"
            out.append(
                say(
                    Severity.INFO,
                    f"{words} on turn {segment.turn}: {verdict} ({a.roll.value} {'<=' if ok else '>'} {limit}) [{ref}]",
                )
            )
    return out


@register(
    "dice.table",
    log=True,
    params={
        "button": Param(REQUIRED, "str", "the die button whose rolls are read, as the log's reports name it"),
        "phases": Param([], "list", "phase ids whose segments hold the roll ([]: any)", shape=Each("str")),
        "kinds": Param([], "list", "segment kinds that hold the roll ([]: any)", shape=Each("str")),
        "sides": Param(
            [], "list", "the sides that roll in a segment, in order ([]: the opener's side)", shape=Each("str")
        ),
        "required": Param(False, "bool", "a segment the rule reads with no roll (or fewer than sides) is an error"),
        "not_in_first_turn": Param(False, "bool", "no roll in the scenario's first Game-Turn"),
        "table": Param({}, "table", "side or '*' -> { roll or 'a-b' -> outcome words }", shape=Each(Each("str"))),
        "once_per_game": Param(False, "bool", "an outcome a side rolled before has no effect"),
        "effects": Param(
            {}, "table", "side or '*' -> { roll or 'a-b' -> { track = change } }", shape=Each(Each(Each("int")))
        ),
        "count_units": Param({}, "selector", "units whose number the roll bounds ({}: no count)"),
        "count_from": Param("", "str", "box kind the counted units are dragged out of ('': any drag)"),
        "count_becomes": Param({}, "selector", "count the units that come to match this instead of drags"),
        "count_exact": Param(False, "bool", "fewer units than the roll is a warning (legal only if no more)"),
        "count_same": Param("", "str", "field the counted units share (contingent, ...; '': any mix)"),
        "success_at_most": Param(
            "", "any", "a roll at most this ('turn': the Game-Turn number) succeeds", shape=Either("str", "int")
        ),
        "once_per_turn": Param(False, "bool", "at most one roll a Game-Turn"),
        "returns_units": Param({}, "selector", "units a roll puts on the turn track ({}: none)"),
        "returns_after": Param(
            "roll",
            "any",
            "'roll': that many turns later; or { roll or 'a-b' -> turns later (0: stays, 'roll', or a list of these) }",
            shape=_RETURNS_AFTER,
        ),
        "returns_box": Param("turn", "str", "box kind of the turn track"),
        "returns_past_end": Param("withdrawn", "str", "box kind for a turn after the scenario's last"),
        "returns_severity": Param("error", "str", "severity of a unit placed on a turn the roll does not give"),
    },
)
def dice_table(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """A die button's rolls through a table: rolls missing or forbidden, once per game, counts, thresholds, returns."""
    if not (p["success_at_most"] in ("", "turn") or type(p["success_at_most"]) is int):
        raise ValueError(f"success_at_most: expected a number or 'turn', got {p['success_at_most']!r}")
    if p["returns_severity"] not in ("error", "warning", "info"):
        raise ValueError(f"returns_severity: expected error, warning or info, got {p['returns_severity']!r}")
    ref = ctx.rule.rule_ref if ctx.rule else ""
    cite = ctx.cite()

    def say(sev: Severity, message: str, units: tuple[str, ...] = ()) -> Finding:
        return Finding(cite, sev, message, units)

    out: list[Finding] = []
    if not picks(p, segment.phase, segment.opened.kind):
        return out
    rolls = attributed(p, [r for r in segment.dice if r.button == p["button"]], segment.opened.side)
    first = _first_turn(ctx)
    if p["not_in_first_turn"] and first is not None and segment.turn == first:
        return out + [
            say(
                Severity.ERROR,
                f"{_words(p, a)} on turn {first}, the scenario's first, in which no roll is made [{ref}]",
            )
            for a in rolls
        ]
    if p["required"] and len(rolls) < max(1, len(p["sides"])):
        sides = p["sides"][len(rolls) :] if p["sides"] else [segment.opened.side] if segment.opened.side else []
        missing = f" for {', '.join(sides)}" if sides else ""
        if p["not_in_first_turn"] and first is None:  # no scenario: this may be its first turn
            out.append(
                say(
                    Severity.WARNING,
                    f"no roll of {p['button']} in the log{missing}: legal only in the scenario's first "
                    f"turn, and the scenario is not known: not judged [{ref}]",
                )
            )
        else:
            out.append(say(Severity.ERROR, f"no roll of {p['button']} in the log{missing} [{ref}]"))
    if p["table"] or p["effects"]:
        out += _events(p, segment, rolls, say, ref)
    if p["count_units"]:
        out += counted(p, segment, rolls, say, cite, ref)
    if p["success_at_most"] != "":
        out += _threshold(p, segment, rolls, say, ref)
    if p["returns_units"]:
        last = ctx.scenario.turns[1] if ctx.scenario and ctx.scenario.turns else None
        out += returned(p, segment, rolls, last, say, ref)
    return out
