"""What a pack says about reading the game's state beyond turn and phase (pure: no files).

``[boxes.<name>]`` names the off-map boxes rules talk about: ``{ regex, kind, side }``, the
number from the regex's group 1, so that a rule says "the turn box of Game-Turn 4" or "the
Withdrawn display", not a VASSAL label. The ``[state]`` keys read here (RULES-MAP N18):

- ``turn_levels = ["Day", "Time"]`` with ``turn_sequence``: the tracker levels whose values,
  joined by a space, label a turn ("June 8 1900"); its place in `turn_sequence` is the ordinal
  Game-Turn the rules use. ``night``: the labels, or level values ("Night"), of night turns.
- ``weather_from``: where the module shows the weather (a global property, a marker's box or a
  tracker level), with ``values`` turning the module's words into the pack's weather names.
- ``globals``: global properties the rules read, by the name the rules use.
- ``tracks``: ``{ <name> = { marker, box = regex } | { property } | { level }, min, max }``,
  a number the module shows (an AP track, a morale track).
- ``map`` and ``board``: the map (and board) the game is played on.

Every problem is a PackError naming the key path, as in pack.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from vassal_adj.parse.tokens import whole_number
from vassal_adj.rules.packs.pack_ctx import PackContext, join

__all__ = ["STATE_KEYS", "BoxSpec", "Reading", "StateExtras", "TrackSpec", "read_boxes", "read_state_extras"]

# The [state] keys this module reads (pack.py reads the others).
STATE_KEYS = {"turn_levels", "turn_sequence", "night", "weather_from", "globals", "tracks", "map", "board"}
_BOX_KEYS = ({"regex", "kind"}, {"side"})
_READING_KEYS = {"property", "marker", "box", "level"}


@dataclass(frozen=True)
class BoxSpec:
    """A kind of off-map box: a VASSAL location name `regex` fully matches is a box of this
    `kind` (and `side`, "" for both), numbered by the regex's group 1 when it has one."""

    name: str
    regex: re.Pattern[str]
    kind: str
    side: str = ""

    def number(self, box: str) -> tuple[bool, int | None]:
        """Whether `box` is one of these, and its number (None without a numeric group 1)."""
        m = self.regex.fullmatch(box.strip())
        if m is None:
            return False, None
        got = m.group(1) if self.regex.groups else None
        return True, whole_number(got) if got is not None else None


@dataclass(frozen=True)
class Reading:
    """Where the module shows one value: a global `property`, the box a `marker` piece is in
    (`box`'s group 1, else the whole box name), or a turn tracker `level`."""

    property: str = ""
    marker: str = ""
    box: re.Pattern[str] | None = None
    level: str = ""

    def describe(self) -> str:
        if self.property:
            return f"global property {self.property!r}"
        if self.marker:
            return f"the box of the {self.marker!r} marker"
        return f"tracker level {self.level!r}"


@dataclass(frozen=True)
class TrackSpec:
    """A track read as a number, with its printed bounds (None: the track does not bound it)."""

    name: str
    reading: Reading
    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class StateExtras:
    """The [state] keys of N18 (see the module doc). Empty defaults read nothing."""

    turn_levels: tuple[str, ...] = ()
    turn_sequence: tuple[str, ...] = ()
    night: frozenset[str] = frozenset()
    weather_from: Reading | None = None
    weather_values: Mapping[str, str] = field(default_factory=dict)
    globals: Mapping[str, str] = field(default_factory=dict)  # rules' name -> module property
    tracks: Mapping[str, TrackSpec] = field(default_factory=dict)
    map: str = ""
    board: str = ""

    def ordinal(self, label: str) -> int | None:
        """The Game-Turn of a turn label: its place in `turn_sequence`, from 1 (None: not listed)."""
        folded = [t.casefold() for t in self.turn_sequence]
        key = label.casefold()
        return folded.index(key) + 1 if key in folded else None

    def is_night(self, label: str) -> bool:
        """Whether the turn `label` is a night turn: a `night` entry is the label or one of its
        level values ("Night" in "June 8 Night"), matched as whole words, case ignored."""
        words = f" {label.casefold()} "
        return any(f" {n.casefold()} " in words for n in self.night)

    def weather_word(self, shown: str) -> str:
        """The pack's weather name for what the module shows (`weather_from.values`, else lowercase)."""
        for k, v in self.weather_values.items():
            if k.casefold() == shown.strip().casefold():
                return v.strip().lower()
        return shown.strip().lower()


def _regex(ctx: PackContext, data: Mapping[str, Any], path: str, key: str) -> re.Pattern[str]:
    text: str = ctx.typed(data, path, key, "str")
    try:
        return re.compile(text, re.IGNORECASE)
    except re.error as e:
        raise ctx.error(join(path, key), f"bad regular expression {text!r}: {e}") from None


def read_boxes(ctx: PackContext, data: object) -> tuple[BoxSpec, ...]:
    out = []
    for name, spec in ctx.table(data, "boxes").items():
        path = join("boxes", name)
        spec = ctx.table(spec, path)
        ctx.keys(spec, path, _BOX_KEYS)
        out.append(
            BoxSpec(
                name,
                _regex(ctx, spec, path, "regex"),
                ctx.typed(spec, path, "kind", "str"),
                ctx.typed(spec, path, "side", "str", ""),
            )
        )
    return tuple(out)


def _reading(ctx: PackContext, spec: Mapping[str, Any], path: str) -> Reading:
    given = [k for k in ("property", "marker", "level") if k in spec]
    if len(given) != 1:
        raise ctx.error(path, f"expected exactly one of 'property', 'marker' or 'level', got {given or 'none'}")
    if "box" in spec and "marker" not in spec:
        raise ctx.error(join(path, "box"), "only a 'marker' reading takes a box pattern")
    value = ctx.typed(spec, path, given[0], "str")
    if not value.strip():
        raise ctx.error(join(path, given[0]), "expected a non-empty name")
    box = _regex(ctx, spec, path, "box") if "box" in spec else None
    return Reading(**{given[0]: value}, box=box)


def _globals(ctx: PackContext, data: object) -> dict[str, str]:
    if isinstance(data, list):  # the short form: the rules use the module's own names
        return {n: n for n in ctx.words({"globals": data}, "state", "globals")}
    table = ctx.table(data, "state.globals")
    for k, v in table.items():
        if not isinstance(v, str) or not v.strip():
            raise ctx.error(join("state.globals", k), f"expected a global property name (str), got {v!r}")
    return dict(table)


def _track(ctx: PackContext, name: str, data: object) -> TrackSpec:
    path = join("state.tracks", name)
    spec = ctx.table(data, path)
    ctx.keys(spec, path, (set(), _READING_KEYS | {"min", "max"}))
    reading = _reading(ctx, spec, path)
    if reading.marker and (reading.box is None or reading.box.groups < 1):
        raise ctx.error(join(path, "box"), "a track read from a marker needs a box pattern whose group 1 is the number")
    low, high = ctx.typed(spec, path, "min", "int"), ctx.typed(spec, path, "max", "int")
    if low is not None and high is not None and low > high:
        raise ctx.error(path, f"min {low} is above max {high}")
    return TrackSpec(name, reading, low, high)


def read_state_extras(ctx: PackContext, t: Mapping[str, Any], turns: int) -> StateExtras:
    """The N18 keys of the [state] table `t`; `turns` is its Game-Turn count (0: not given)."""
    levels, sequence = ctx.words(t, "state", "turn_levels"), ctx.words(t, "state", "turn_sequence")
    if bool(levels) != bool(sequence):
        raise ctx.error(
            "state.turn_sequence" if levels else "state.turn_levels",
            "turn_levels and turn_sequence go together: the labels the levels show, in game order",
        )
    if turns and sequence and len(sequence) != turns:
        raise ctx.error("state.turn_sequence", f"{len(sequence)} turns, but state.turns says {turns}")
    weather, values = None, {}
    if "weather_from" in t:
        spec = ctx.table(t["weather_from"], "state.weather_from")
        ctx.keys(spec, "state.weather_from", (set(), _READING_KEYS | {"values"}))
        weather = _reading(ctx, spec, "state.weather_from")
        values = dict(ctx.table(spec.get("values", {}), "state.weather_from.values"))
        for k, v in values.items():
            if not isinstance(v, str) or not v.strip():
                raise ctx.error(join("state.weather_from.values", k), f"expected a weather name (str), got {v!r}")
    tracks = {name: _track(ctx, name, spec) for name, spec in ctx.table(t.get("tracks", {}), "state.tracks").items()}
    board = ctx.typed(t, "state", "board", "str", "")
    if board and "map" not in t:
        raise ctx.error("state.board", "a board is named within a map: give state.map too")
    return StateExtras(
        levels,
        sequence,
        frozenset(ctx.words(t, "state", "night")),
        weather,
        MappingProxyType(values),
        MappingProxyType(_globals(ctx, t.get("globals", {}))),
        MappingProxyType(tracks),
        ctx.typed(t, "state", "map", "str", ""),
        board,
    )
