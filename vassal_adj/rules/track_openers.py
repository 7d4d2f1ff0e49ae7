"""Action segments opened by spending points on a side's track, and passes (N23, the ``tracks``
form of ``log.segments`` `by`; rules/segments.py).

``by = { tracks = { axis_ap = "Axis", allied_ap = "Allied" }, pass = '(?P<side>Axis|Allied)
passes', phases = ["action"] }``: each named track of the pack's ``[state] tracks`` belongs to a
side; a step that lowers one (its marker dragged to a box of a lower number, or its global
property set lower) opens an ``action`` segment of that side, with the values ``side``,
``track``, ``before`` and ``after`` (the track's numbers). A chat line `pass` finds opens a
``pass`` segment of the side its ``side`` group names. Only in `phases` (phase ids; none given:
every phase): seed 004 6.1 "the appropriate number of AP are expended" in the Action phase, while
the Command phase's AP Segment raises the track (5.2.1) and opens nothing. A track raised never
opens a segment. Two lowerings of one track with no drag and no die roll between are one
spending (an action of 2 AP dragged a box at a time), `merged`.

``actions = [{ kind, side, paid, moved, rolled }, ...]`` names an action the log shows only by
what it cost and did: when an ``action`` segment closes, the first entry whose given keys all fit
(the spending side, the points paid, whether a unit moved in it, whether a die was rolled in it)
renames its kind, so that the log rules reading that kind see it (seed 004 14.2.1: "The Allies
declare an Interdiction attempt and pay two AP, Roll one 1d6": an Allied spending of 2 with a
roll and no move; every other Allied action of 2 AP moves units, 14.1.3, 18.3).

Pure: a step's events and the track specs in, an `Opened` or None out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.rules.packs.pack_state import TrackSpec

__all__ = ["ActionKind", "TrackOpeners", "merged", "track_openers"]


@dataclass(frozen=True)
class ActionKind:
    """An action known by what it cost and did: its `kind`, and the side, points paid, and whether
    a unit moved or a die was rolled, each None when the entry does not ask."""

    kind: str
    side: str | None = None
    paid: int | None = None
    moved: bool | None = None
    rolled: bool | None = None

    def fits(self, values: Mapping[str, str], moved: bool, rolled: bool) -> bool:
        before, after = _int(values.get("before", "")), _int(values.get("after", ""))
        paid = before - after if before is not None and after is not None else None
        return (
            (self.side is None or values.get("side") == self.side)
            and (self.paid is None or paid == self.paid)
            and (self.moved is None or moved == self.moved)
            and (self.rolled is None or rolled == self.rolled)
        )


@dataclass(frozen=True)
class TrackOpeners:
    """The tracks that open action segments (track name -> (its side, how it is read)), the pass
    pattern, and the phases in which they open (empty: every phase)."""

    tracks: Mapping[str, tuple[str, TrackSpec]]
    passes: re.Pattern[str] | None = None
    phases: frozenset[str] = frozenset()
    actions: tuple[ActionKind, ...] = ()

    def kind(self, kind: str, values: Mapping[str, str], moved: bool, rolled: bool) -> str:
        """The kind of a closing segment: an ``action`` that fits one of `actions` takes its kind."""
        if kind == "action":
            for a in self.actions:
                if a.fits(values, moved, rolled):
                    return a.kind
        return kind

    def opened(
        self, events: Iterable[object], phase: str | None, place: Callable[[Any], str]
    ) -> tuple[str, dict[str, str]] | None:
        """The segment (kind, values) the events of one step open in `phase`, or None; `place`
        names the box a marker's Place is (the walk's position of it)."""
        from vassal_adj.model.events import ChatLine, Moved, PropertySet

        if self.phases and phase not in self.phases:
            return None
        found = None
        for e in events:
            if getattr(e, "undo", False):
                continue
            if isinstance(e, ChatLine) and not e.report and self.passes is not None:
                m = self.passes.search(e.text)
                if m is not None and m.groupdict().get("side"):
                    found = ("pass", {"side": m.group("side")})
            for name, (side, spec) in self.tracks.items():
                r = spec.reading
                if isinstance(e, Moved) and r.marker and e.name == r.marker:
                    before, after = _number(r.box, place(e.origin)), _number(r.box, place(e.to))
                elif isinstance(e, PropertySet) and r.property and e.name == r.property:
                    before, after = _int(e.before), _int(e.after)
                else:
                    continue
                if before is not None and after is not None and after < before:
                    found = ("action", {"side": side, "track": name, "before": str(before), "after": str(after)})
        return found


def _int(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() else None


def _number(box: re.Pattern[str] | None, name: str) -> int | None:
    m = box.fullmatch(name.strip()) if box is not None else None
    return _int(m.group(1)) if m is not None and m.groups else None


def merged(open_values: Mapping[str, str], new_values: Mapping[str, str]) -> dict[str, str] | None:
    """The values of one spending when a lowering (`new_values`) continues the open segment's
    (`open_values`) on the same track with nothing between; None when it is a spending of its own."""
    same = open_values.get("track") and open_values.get("track") == new_values.get("track")
    if same and open_values.get("after") == new_values.get("before"):
        return {**open_values, "after": new_values["after"]}
    return None


def track_openers(value: Mapping[str, Any], specs: Mapping[str, TrackSpec]) -> TrackOpeners:
    """The `by = { tracks = ..., pass = ..., phases = [...] }` table read against the pack's
    [state] tracks `specs`; ValueError names what does not fit."""
    tracks = value["tracks"]
    if not isinstance(tracks, Mapping) or not tracks:
        raise ValueError(f"by.tracks: expected a table of track name -> side, got {tracks!r}")
    out = {}
    for name, side in tracks.items():
        if name not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise ValueError(f"by.tracks.{name}: not a track of the pack's [state] tracks (known: {known})")
        if not isinstance(side, str) or not side:
            raise ValueError(f"by.tracks.{name}: expected the side whose track it is, got {side!r}")
        out[name] = (side, specs[name])
    passes = None
    if "pass" in value:
        try:
            passes = re.compile(value["pass"])
        except (re.error, TypeError) as e:
            raise ValueError(f"by.pass: not a regular expression ({e}): {value['pass']!r}") from None
        if "side" not in passes.groupindex:
            raise ValueError(f"by.pass: the pattern needs a (?P<side>...) group, got {value['pass']!r}")
    phases = value.get("phases", [])
    if not isinstance(phases, (list, tuple)) or not all(isinstance(p, str) for p in phases):
        raise ValueError(f"by.phases: expected a list of phase ids, got {phases!r}")
    return TrackOpeners(out, passes, frozenset(phases), _actions(value.get("actions", [])))


_ACTION_KEYS = {"kind": str, "side": str, "paid": int, "moved": bool, "rolled": bool}


def _actions(value: Any) -> tuple[ActionKind, ...]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"by.actions: expected a list of {{ kind, side, paid, moved, rolled }}, got {value!r}")
    out = []
    for i, entry in enumerate(value):
        if not isinstance(entry, Mapping) or "kind" not in entry:
            raise ValueError(f"by.actions[{i}]: expected a table with a kind, got {entry!r}")
        for key, v in entry.items():
            want = _ACTION_KEYS.get(key)
            if want is None:
                raise ValueError(f"by.actions[{i}].{key}: unknown key (known: {', '.join(_ACTION_KEYS)})")
            if type(v) is not want:
                raise ValueError(f"by.actions[{i}].{key}: expected {want.__name__}, got {v!r}")
        out.append(ActionKind(**entry))
    return tuple(out)
