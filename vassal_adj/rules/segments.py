"""A log cut into the segments a game is played in, and the log rules that judge each (N23).

A pack's rule of implementation ``log.segments`` says what opens a segment besides a phase
change: ``by = "phase"`` (the default: one segment per phase), ``{ track = name }`` (each
change of that turn tracker or global property, e.g. an Action Points marker), ``{ chat =
regex }`` (each chat line the regex finds, e.g. "Axis action: 21st Panzer"), ``{ draw = "Deck",
name = regex }`` (each piece drawn from that deck, the deck's name as its DrawPile gives it: a
chit pulled from the mug, a card from a draw pile; the replay marks a piece leaving a deck,
`Moved.deck`). Each segment has its own position and zones of control (those at its start)
and its own movement allowance: the drags of a unit within it are the legs of one move. A chat
regex's named groups are the segment's values: ``kind`` names the segment kind, ``side`` the
side that moves in it; the others (``formation``, ...) can be used by the movers selector as
``"$name"``. A drawn piece gives ``chit`` (its name) and the named groups of the `name` regex searched in that name
(``kind``, ``side`` and the others as for chat); a name the regex does not find still opens a
segment, with ``chit`` only (a Random Event chit: who may move in it is then not known).
``{ tracks = { name = side, ... }, pass = regex, phases = [...] }``: each spending of points on a
side's track (the pack's [state] tracks) opens an ``action`` segment of that side, each chat line
`pass` finds a ``pass`` segment, in `phases` only (track_openers.py: seed 004 6.1 action segments).

`movers` maps a segment kind, or a phase id, ("*": any) to a unit selector (select.py) of the
units that may move in it; a value ``"$name"`` anywhere in it is the opener's value of that name,
put in before the selector is built (`movers_in`); it may ask the position (``formation_has``:
seed 001 10, the units of a sustained EM). `moves_not_interleaved`: a unit's move is finished
before another unit of its side moves in the segment (seed 001 4.1); `joint_with`: except two units that
began the segment in one hex, one of them picked by this selector, which may move together
(seed 001 4.1 "except joint movement in one armor breakthrough", 4.3 "the two units must be on
the same hex at the beginning of their movement phase"). `one_contingent` and
`single_if` say which units may move together in a segment (segment_movers.py).

Log rules (`register(..., log=True)`, also from a pack's hooks.py) are called with the
`Segment` as `verify` closes it: `func(segment, ctx, params) -> list[Finding]`.

Pure: events and states in, segments and findings out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vassal_adj.model.state import GameState
from vassal_adj.model.units import Unit
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.ledger_log import Logged
from vassal_adj.rules.packs.pack import RulePack
from vassal_adj.rules.packs.pack_state import TrackSpec
from vassal_adj.rules.param_shape import Each, Either, Table, selector_keys
from vassal_adj.rules.registry import Param, register
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.segment_movers import interleaved, mixed, not_alone
from vassal_adj.rules.segment_rolls import SegmentRoll
from vassal_adj.rules.select import Selector, SelectorError, selector_at
from vassal_adj.rules.track_openers import TrackOpeners, track_openers

if TYPE_CHECKING:  # annotations only (startup: check registers this log rule but never runs it)
    from vassal_adj.rules.turn import Drag

__all__ = ["Opened", "Segment", "Segmenting", "log_segments", "movers_in", "opened_by", "segmenting"]


@dataclass(frozen=True)
class Segmenting:
    """How the pack cuts a log (`segmenting`): `by` "phase", "track", "chat" or "draw", with the
    tracker or property name (`track`), the chat pattern (`chat`), or the deck (`deck`) and the
    pattern searched in a drawn piece's name (`chat`, None: the name gives no more values)."""

    by: str = "phase"
    track: str = ""
    chat: re.Pattern[str] | None = None
    deck: str = ""
    tracks: TrackOpeners | None = None


@dataclass(frozen=True)
class Opened:
    """A segment a step opened: its kind and the values its opener gave (a chat regex's named groups)."""

    kind: str
    values: Mapping[str, str] = field(default_factory=dict)
    at: int | None = None  # the log step that opened it

    @property
    def side(self) -> str | None:
        """The side that moves in the segment, when its opener names one."""
        return self.values.get("side") or None

    @property
    def words(self) -> str:
        """The segment as a report names it: its kind and its opener's values, e.g. "segment side='Axis'"."""
        v = self.values
        if {"side", "track", "before", "after"} <= v.keys():  # a spending on a track (track_openers.py)
            return f"{v['side']} {self.kind} ({v['track']} {v['before']} -> {v['after']})"
        return self.kind + "".join(f" {k}={x!r}" for k, x in v.items() if k != "kind")


@dataclass(frozen=True)
class Segment:
    """A closed segment of a log, as log rules see it: the turn and phase, its kind and values
    (`Opened`), the position at its start and end, each unit's drags in it (in order), the
    units in the order their drags came (one entry per drag) and its die rolls (each the number
    of drags before it, and its step); `earlier`: the segments of its phase closed before it, as
    (opener, units that moved), oldest first; `closes_phase`: the tracker moved on to another
    phase after it (False at the end of the log); `dice`: its rolls with their values,
    `earlier_dice`: those of the log's earlier segments (segment_rolls.py); `ledger`: its rolls
    and track changes with their values, in step order (ledger_log.py)."""

    turn: int | None
    phase: str | None
    opened: Opened
    start: GameState
    end: GameState
    moves: Mapping[str, Sequence[Drag]]
    order: tuple[str, ...] = ()
    rolls: tuple[tuple[int, int], ...] = ()
    earlier: tuple[tuple[Opened, tuple[Unit, ...]], ...] = ()
    closes_phase: bool = False
    dice: tuple[SegmentRoll, ...] = ()
    earlier_dice: tuple[SegmentRoll, ...] = ()
    ledger: tuple[Logged, ...] = ()


def _pattern(value: Any, key: str) -> re.Pattern[str]:
    try:
        return re.compile(value)
    except (re.error, TypeError) as e:
        raise ValueError(f"by.{key}: not a regular expression ({e}): {value!r}") from None


def _by(value: Any, specs: Mapping[str, TrackSpec]) -> Segmenting:
    if value == "phase":
        return Segmenting()
    if isinstance(value, Mapping) and "tracks" in value and set(value) <= {"tracks", "pass", "phases", "actions"}:
        return Segmenting("tracks", tracks=track_openers(value, specs))
    if (
        isinstance(value, Mapping)
        and set(value) in ({"draw"}, {"draw", "name"})
        and isinstance(value["draw"], str)
        and value["draw"]
    ):
        return Segmenting("draw", deck=value["draw"], chat=_pattern(value["name"], "name") if "name" in value else None)
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, v),) = value.items()
        if key == "track" and isinstance(v, str) and v:
            return Segmenting("track", track=v)
        if key == "chat" and isinstance(v, str):
            return Segmenting("chat", chat=_pattern(v, "chat"))
    raise ValueError(
        f'by: expected "phase", {{ track = name }}, {{ chat = regex }}, '
        f"{{ draw = deck, name = regex }} or {{ tracks = {{ name = side }}, pass = regex, phases = [...] }}, "
        f"got {value!r}"
    )


def segmenting(pack: RulePack) -> Segmenting:
    """How the pack's ``log.segments`` rule cuts a log (one segment per phase without one).
    ValueError names a `by` that is none of the forms."""
    rules = pack.rules_using("log.segments")
    if not rules:
        return Segmenting()
    try:
        return _by(rules[0].params["by"], pack.extras.tracks)
    except ValueError as e:
        raise ValueError(f"rules.{rules[0].name}: {e}") from None


def opened_by(
    seg: Segmenting, events: Iterable[object], phase: str | None = None, place: Callable[[Any], str] = str
) -> Opened | None:
    """The segment the events of one step open (the last opener wins), or None; `phase`: the phase
    they fall in, `place`: the box name of a Place (the ``tracks`` opener reads both)."""
    # here: only verify walks events; `check` loads this module to register the rule (startup time)
    from vassal_adj.model.events import ChatLine, Moved, PropertySet, TurnChanged

    if seg.tracks is not None:
        got = seg.tracks.opened(events, phase, place)
        return Opened(got[0], got[1]) if got is not None else None
    found = None
    for e in events:
        if getattr(e, "undo", False):
            continue
        if seg.by == "track" and isinstance(e, (TurnChanged, PropertySet)):
            name = e.tracker if isinstance(e, TurnChanged) else e.name
            if name == seg.track:
                found = Opened("segment", {"value": e.state if isinstance(e, TurnChanged) else e.after})
        elif seg.by == "chat" and seg.chat is not None and isinstance(e, ChatLine) and not e.report:
            m = seg.chat.search(e.text)
            if m is not None:
                values = {k: v for k, v in m.groupdict().items() if v is not None}
                found = Opened(values.get("kind", "segment"), values)
        elif seg.by == "draw" and isinstance(e, Moved) and e.deck == seg.deck:
            found = _drawn(seg, e.name)
    return found


def _drawn(seg: Segmenting, name: str) -> Opened:
    """The segment a piece named `name` drawn from the deck opens: its name as ``chit``, and the
    named groups the `name` regex finds in it."""
    m = seg.chat.search(name) if seg.chat is not None else None
    values = {"chit": name, **{k: v for k, v in (m.groupdict() if m else {}).items() if v is not None}}
    return Opened(values.get("kind", "segment"), values)


def _named(value: Any) -> set[str]:
    """The "$name" values a selector (or a part of it) asks of the segment's opener."""
    if isinstance(value, str):
        return {value[1:]} if value.startswith("$") else set()
    if isinstance(value, Mapping):
        value = list(value.values())
    return set().union(*map(_named, value)) if isinstance(value, (list, tuple)) else set()


def _resolved(value: Any, values: Mapping[str, str]) -> Any:
    """The selector with each "$name" replaced by the opener's value of that name."""
    if isinstance(value, str):
        return values.get(value[1:], value) if value.startswith("$") else value
    if isinstance(value, Mapping):
        return {k: _resolved(v, values) for k, v in value.items()}
    return [_resolved(v, values) for v in value] if isinstance(value, (list, tuple)) else value


def movers_in(selector: Mapping[str, Any], opened: Opened, kind: str) -> Selector:
    """The `movers` selector of `kind` for the segment `opened`, its "$name" values resolved first;
    ValueError names the key path of a selector that does not fit."""
    try:
        return Selector.from_mapping(_resolved(selector, opened.values), position=True)
    except SelectorError as e:
        at = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in e.at)
        raise ValueError(f"movers: {e} (at movers.{kind}{at})") from None


def _described(selector: Mapping[str, Any]) -> str:
    """The units a movers selector picks, in words ("units of a formation with units flagged sustained")."""
    try:
        return Selector.from_mapping(selector, position=True).words()
    except SelectorError:  # a key the words do not know: the selector as written
        return "units with " + " and ".join(
            f"{key} {', '.join(sorted(map(str, v))) if isinstance(v, (list, tuple)) else v}"
            for key, v in selector.items()
        )


def _joint(segment: Segment, value: Mapping[str, Any]) -> Callable[[str, str], bool]:
    """Whether two units may move together: they began the segment in one hex, and `value`
    (the `joint_with` selector; {}: none may) picks one of them."""
    pick = selector_at(value, "joint_with") if value else None
    units, start = segment.start.units, segment.start

    def together(a: str, b: str) -> bool:
        ha = start.hex_of(a)
        return (
            pick is not None
            and ha is not None
            and ha == start.hex_of(b)
            and any(u in units and pick.matches(units[u]) for u in (a, b))
        )

    return together


@register(
    "log.segments",
    log=True,
    params={
        "by": Param(
            "phase",
            "any",
            'what opens a segment: "phase", { track = name }, { chat = regex }, { draw = deck, name = regex } '
            "or { tracks = { name = side }, pass = regex, phases = [phase ids], actions = [{ kind, side, paid, "
            "moved, rolled }] }",
            shape=Either(
                "str",
                Table(
                    {
                        "track": "str",
                        "chat": "str",
                        "draw": "str",
                        "name": "str",
                        "tracks": "table",
                        "pass": "str",
                        "phases": "list[str]",
                        "actions": "list",
                    }
                ),
            ),
        ),
        "movers": Param(
            {},
            "table",
            "segment kind or phase id ('*': any) -> unit selector of the units that may "
            "move in it ('$group': the opener's value)",
            shape=Each(Table(selector_keys())),
        ),
        "moves_not_interleaved": Param(
            False,
            "any",
            'a unit\'s move is finished before another unit moves ("until_roll": among the drags before '
            "the segment's first die roll, those after it being combat's retreats and advances)",
            shape=Either("bool", "str"),
        ),
        "joint_with": Param(
            {},
            "selector",
            "units that began the segment in one hex with a unit it picks may move together "
            "(their moves are one, not interleaved; {}: none)",
        ),
        "one_contingent": Param(
            "",
            "str",
            "the units that move in a segment share this field: a group field "
            "(contingent, army, division), an attribute, or side, formation, nationality, "
            "kind ('': any mix)",
        ),
        "single_if": Param(
            {},
            "table",
            "unit selector: a unit it picks moves alone in its segment ({}: none does)",
            shape=Table(selector_keys()),
        ),
    },
)
def log_segments(segment: Segment, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Who may move in each segment of a log, which units may move in one, and whether moves were interleaved."""
    movers = p["movers"]
    kind = next((k for k in (segment.opened.kind, segment.phase or "", "*") if k in movers), "")
    sel = movers.get(kind)
    ref, out = ctx.rule.rule_ref if ctx.rule else "", []
    what = f"the {segment.opened.words}"
    missing = sorted(_named(sel or {}) - set(segment.opened.values))
    if segment.moves and missing:
        out.append(
            Finding(
                ctx.cite(),
                Severity.WARNING,
                f"units moved in {what}, which no opener gave a "
                f"{', '.join(missing)}: who may move in it is not checked "
                f"[{ref}]",
                tuple(segment.moves),
            )
        )
        sel = None
    pick = movers_in(sel, segment.opened, kind) if sel is not None and segment.moves else None
    allowed = _described(_resolved(sel or {}, segment.opened.values))
    for uid in segment.moves:
        unit = segment.start.units.get(uid)
        if unit is None or pick is None or pick.matches(unit, units=segment.start.units):
            continue
        out.append(
            Finding(
                ctx.cite(),
                Severity.ERROR,
                f"{unit.side} {unit.name} moved in {what}, in which only {allowed} may move [{ref}]",
                (uid,),
            )
        )
    moved = [u for uid in segment.moves if (u := segment.start.units.get(uid)) is not None]
    if p["one_contingent"]:
        out += mixed(moved, p["one_contingent"], ctx.cite(), what, ref)
    if p["single_if"]:
        boxes = {u.id: segment.start.positions[u.id].box if u.id in segment.start.positions else None for u in moved}
        out += not_alone(moved, selector_at(p["single_if"], "single_if"), boxes, ctx.cite(), what, ref)
    if p["moves_not_interleaved"] not in (False, True, "until_roll"):
        raise ValueError(
            f'moves_not_interleaved: expected true, false or "until_roll", got {p["moves_not_interleaved"]!r}'
        )
    if p["moves_not_interleaved"]:
        units = segment.start.units
        order = segment.order
        if p["moves_not_interleaved"] == "until_roll" and segment.rolls:
            order = order[: segment.rolls[0][0]]  # seed 004 13.1: moves, then combat (17 retreat, pursuit)
        sides = {u.side for uid in order if (u := units.get(uid)) is not None}
        # Per side: an enemy unit pushed back between two drags (seed 001 4.2) is no other unit's move.
        mine = [[uid for uid in order if uid in units and units[uid].side == side] for side in sorted(sides)]
        found = {k: v for order in mine for k, v in interleaved(order, _joint(segment, p["joint_with"])).items()}
        for uid, other in found.items():
            unit, by = segment.start.units.get(uid), segment.start.units.get(other)
            if unit is None or by is None:
                continue
            out.append(
                Finding(
                    ctx.cite(),
                    Severity.ERROR,
                    f"{unit.side} {unit.name} moved again in {what} after "
                    f"{by.name} moved: a unit's move is finished before "
                    f"another unit moves [{ref}]",
                    (uid, other),
                    tuple(dict.fromkeys(p.label for d in segment.moves.get(uid, ()) for p in d if p.label)),
                )
            )
    return out
