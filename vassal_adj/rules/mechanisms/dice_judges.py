"""What a log did with a roll (RULES-MAP N20), judged by ``dice.table`` (dice_table.py): the units
it let come (a count bound), whether it succeeded (a threshold), and where the unit it was for
was put on the Turn Record Track (a return).

- count: seed 004 7.2 "rolls 1d6, with the result determining how many reinforcement units are
  received" (at most the roll, from the Reinforcement Display, of one contingent); 27.1 "the
  Allies roll 1d6 and reduce that number of Axis Garrisons by one step each" (units that become
  reduced, exactly the roll unless fewer were there);
- threshold: 14.2.1 "If the result is less than or equal to the current turn number, the
  Interdiction succeeds";
- returns: 8.1.1 "The unit is then placed on the friendly TRT that number of turns later" (after
  the end of the scenario: Withdrawn), 20.6 "5-6: the air unit is placed on the next GT on the
  friendly TRT", 23.4 SSU on 4-6.

Pure: a segment and its attributed rolls in, findings out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from vassal_adj.model.state import Position
from vassal_adj.rules.mechanisms.dice_rolls import Attributed, table_entry
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segment_movers import mixed
from vassal_adj.rules.segments import Segment
from vassal_adj.rules.select import selector_at

__all__ = ["Say", "counted", "returned", "succeeds"]

Say = Callable[[Severity, str, tuple[str, ...]], Finding]


def _drags(segment: Segment) -> list[tuple[str, Position, Position]]:
    """The segment's drags in log order: the unit, where it was taken from and where dropped."""
    seen: dict[str, int] = {}
    out = []
    for uid in segment.order:
        i = seen.get(uid, 0)
        seen[uid] = i + 1
        legs = segment.moves.get(uid, ())
        if i < len(legs):
            out.append((uid, legs[i][0], legs[i][1]))
    return out


def _names(segment: Segment, ids: Sequence[str]) -> str:
    units = {**segment.end.units, **segment.start.units}
    return ", ".join(f"{units[u].side} {units[u].name}" if u in units else u for u in ids)


def counted(
    p: Mapping[str, Any], segment: Segment, rolls: Sequence[Attributed], say: Say, cite: str, ref: str
) -> list[Finding]:
    """The units the roll bounds (`count_units` dragged out of a `count_from` box, or becoming
    `count_becomes`) against the roll: more is an error, fewer with `count_exact` a warning."""
    pick = selector_at(p["count_units"], "count_units")
    start, end = segment.start, segment.end
    if p["count_becomes"]:
        now = selector_at(p["count_becomes"], "count_becomes")
        ids = [
            uid
            for uid, u in end.units.items()
            if uid in start.units
            and pick.matches(start.units[uid])
            and now.matches(u)
            and not now.matches(start.units[uid])
        ]
    else:
        frm = p["count_from"]
        ids = list(
            dict.fromkeys(
                uid
                for uid, origin, _ in _drags(segment)
                if uid in start.units
                and pick.matches(start.units[uid])
                and (not frm or (origin.named is not None and origin.named.kind == frm))
            )
        )
    if not ids:
        return []
    what = f"{len(ids)} unit(s) ({_names(segment, ids)})"
    if not rolls:
        return [
            say(Severity.ERROR, f"{what} in this segment with no roll of {p['button']} in the log [{ref}]", tuple(ids))
        ]
    if len(rolls) > 1 or rolls[0].roll.value is None:
        shown = ", ".join(a.roll.result for a in rolls)
        return [
            say(
                Severity.WARNING,
                f"{what}; rolls {shown}: which roll bounds them is not known, not judged [{ref}]",
                tuple(ids),
            )
        ]
    n = rolls[0].roll.value
    out = []
    if len(ids) > n:
        out.append(say(Severity.ERROR, f"{what}, more than the roll of {n} [{ref}]", tuple(ids)))
    elif p["count_exact"] and len(ids) < n:
        out.append(
            say(
                Severity.WARNING,
                f"{what}, fewer than the roll of {n}: legal only if no more could be [{ref}]",
                tuple(ids),
            )
        )
    if p["count_same"]:
        units = [start.units[u] for u in ids if u in start.units]
        out += mixed(units, p["count_same"], cite, "this segment", ref)
    return out


def succeeds(p: Mapping[str, Any], turn: int | None, value: int | None) -> bool | None:
    """Whether a roll of `value` on `turn` succeeds: at most `success_at_most` (a number, or
    "turn": the Game-Turn's number); None when the turn or the roll is not known."""
    bound = p["success_at_most"]
    limit = turn if bound == "turn" else bound
    if not isinstance(limit, int) or value is None:
        return None
    return value <= limit


def _offsets(p: Mapping[str, Any], a: Attributed) -> set[int] | None:
    """How many turns later the roll may put its unit on the track (0: it stays in play); several
    when the table gives alternatives; None: not known."""
    after = p["returns_after"]
    if not isinstance(after, Mapping):
        after = {"1-99": after}
    found = table_entry(after, a.side, a.roll.value) or table_entry({"*": after}, "*", a.roll.value)
    if found is None or a.roll.value is None:
        return None
    values = found[1] if isinstance(found[1], (list, tuple)) else (found[1],)
    if not all(v == "roll" or (isinstance(v, int) and not isinstance(v, bool) and v >= 0) for v in values):
        raise ValueError(f"returns_after: expected 'roll', turns later (0 or more) or a list of them, got {found[1]!r}")
    return {a.roll.value if v == "roll" else int(v) for v in values}


def _placed_wrong(to: Position, wants: set[int], box: str, past: str, last: int | None) -> bool:
    """Whether a unit dropped in `to` is in none of the boxes the turns `wants` give (a turn after
    the `last` one: the `past` box)."""
    if to.named is not None and to.named.kind == past:
        return not any(last is not None and w > last for w in wants)
    return to.numbered(box) not in wants


def returned(
    p: Mapping[str, Any], segment: Segment, rolls: Sequence[Attributed], last: int | None, say: Say, ref: str
) -> list[Finding]:
    """Each roll against the unit of `returns_units` dragged into a `returns_box` box after it
    (before the next roll): the box's turn must be one the roll gives (after the last turn `last`:
    a `returns_past_end` box). A roll with no such drag after it is not taken for a return: the
    same button may serve other rolls (combat), so nothing is said of it."""
    pick = selector_at(p["returns_units"], "returns_units")
    box, past = p["returns_box"], p["returns_past_end"]
    severity = Severity(p["returns_severity"])
    drags = [
        (i, uid, to)
        for i, (uid, _, to) in enumerate(_drags(segment))
        if uid in segment.start.units
        and pick.matches(segment.start.units[uid])
        and to.named is not None
        and to.named.kind in (box, past)
    ]
    out = []
    for n, a in enumerate(rolls):
        upto = rolls[n + 1].roll.drags if n + 1 < len(rolls) else len(segment.order)
        placed = [(uid, to) for i, uid, to in drags if a.roll.drags <= i < upto]
        offsets, turn = _offsets(p, a), segment.turn
        roll = f"roll of {a.roll.result} on {p['button']}"
        if offsets is None or turn is None:
            if placed:
                out.append(
                    say(Severity.WARNING, f"{roll}: where it puts the unit is not known, not judged [{ref}]", ())
                )
            continue
        wants = {turn + k for k in offsets if k > 0}
        shown = " or ".join(f"turn {w}" if last is None or w <= last else past for w in sorted(wants)) or "no turn"
        for uid, to in placed[:1]:
            if _placed_wrong(to, wants, box, past, last):
                stays = " (or stays in play)" if 0 in offsets else ""
                out.append(
                    say(
                        severity,
                        f"{_names(segment, [uid])} placed in {to.box} after a {roll} on turn {turn}, "
                        f"which puts it on {shown}{stays} [{ref}]",
                        (uid,),
                    )
                )
    return out
