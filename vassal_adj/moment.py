"""What the module shows at one moment of a game, as the pack's ``[state]`` reads it (N18): the
turn (a composite one, "June 8 1900", by its place in ``turn_sequence``), night, the global
properties and tracks the rules name, and the weather (``weather_from``).

A save's moment is its end (state_builder.py); a log's every step is one (pbem/log_state.py):
the tracker as its last TurnChanged left it, the properties as its PropertySet events left them,
and the markers where the log moved them. Each value the module does not show is a note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from vassal_adj.model.module import Module, TurnLevelDef
from vassal_adj.model.state import GameState, Position, Track
from vassal_adj.packs import LoadedPack
from vassal_adj.parse.tokens import parse_int
from vassal_adj.parse.turns import TrackerReading
from vassal_adj.rules.packs.pack_state import Reading, StateExtras

__all__ = ["composite_turn", "reading_of", "shown_extras", "turn_label", "with_moment"]


def _counters(levels: tuple[TurnLevelDef, ...]) -> set[str]:
    return {n for lv in levels for n in ({lv.name} if lv.kind == "counter" else set()) | _counters(lv.levels)}


def reading_of(module: Module, tracker: str, values: tuple[tuple[str, str], ...]) -> TrackerReading:
    """A log's TurnChanged values as `tracker_reading` gives a save's: a counter level's value is its number."""
    found = next((t for t in module.turn_trackers if t.name == tracker), None)
    counters = _counters(found.levels) if found is not None else set()
    return TrackerReading(
        tracker, {k: n if k in counters and (n := parse_int(v)) is not None else v for k, v in values}
    )


def turn_label(extras: StateExtras, reading: TrackerReading | None) -> str | None:
    """The composite turn the tracker shows: the values of the pack's ``turn_levels``, joined."""
    values = [reading.value(level) for level in extras.turn_levels] if reading is not None else [None]
    return None if any(v is None for v in values) else " ".join(str(v) for v in values)


def composite_turn(extras: StateExtras, reading: TrackerReading, notes: list[str]) -> int | None:
    label = turn_label(extras, reading)
    if label is None:
        notes.append(f"the turn tracker shows no value of {', '.join(extras.turn_levels)}")
        return None
    turn = extras.ordinal(label)
    if turn is None:
        notes.append(f"the turn tracker shows {label!r}, which is not in the pack's turn_sequence")
    else:
        notes.append(f"turn {turn} ({label}) read from the turn tracker")
    return turn


def _shown(
    r: Reading, props: Mapping[str, str], reading: TrackerReading | None, markers: Mapping[str, tuple[Position, ...]]
) -> tuple[str | None, str]:
    """The value the module shows where `r` says, or None and why not."""
    if r.property:
        got = props.get(r.property)
        return (got, "") if got is not None else (None, f"the module has no global property {r.property!r}")
    if r.level:
        level = reading.value(r.level) if reading is not None else None
        return (str(level), "") if level is not None else (None, f"the turn tracker shows no level {r.level!r}")
    places = [p.box or p.label or "" for p in markers.get(r.marker, ())]
    if not places:
        return None, f"the save has no {r.marker!r} marker (or the pack's units file does not ignore it)"
    values = set()
    for place in places:
        m = r.box.fullmatch(place.strip()) if r.box is not None else None
        if r.box is not None and m is None:
            return None, f"a {r.marker!r} marker is in {place or 'no box'!r}, which the pattern does not match"
        values.add(m.group(1) if m is not None and r.box is not None and r.box.groups else place.strip())
    if len(values) > 1:
        return None, f"the {r.marker!r} markers show {', '.join(sorted(values))}: not one value"
    return values.pop(), ""


def shown_extras(
    lp: LoadedPack,
    props: Mapping[str, str],
    reading: TrackerReading | None,
    markers: Mapping[str, tuple[Position, ...]],
    notes: list[str],
) -> tuple[dict[str, str], dict[str, Track], str | None]:
    """Globals, tracks and the weather the module shows (N18), with a note for each one it does not show."""
    ex = lp.pack.extras
    globals_ = {}
    for name, prop in ex.globals.items():
        if prop in props:
            globals_[name] = props[prop]
        else:
            notes.append(f"the module has no global property {prop!r} ([state] globals.{name})")
    tracks = {}
    for name, spec in ex.tracks.items():
        text, why = _shown(spec.reading, props, reading, markers)
        value = parse_int(text.strip()) if text is not None else None
        if value is None:
            notes.append(f"track {name!r}: {why or f'{spec.reading.describe()} shows {text!r}, not a number'}")
        tracks[name] = Track(name, value, spec.min, spec.max, spec.reading.describe())
    weather = None
    if ex.weather_from is not None:
        text, why = _shown(ex.weather_from, props, reading, markers)
        if text is None:
            notes.append(f"weather not shown: {why}")
        weather = ex.weather_word(text) if text is not None else None
    return globals_, tracks, weather


def with_moment(
    state: GameState, lp: LoadedPack, props: Mapping[str, str], reading: TrackerReading | None
) -> GameState:
    """`state` (a log's step, its turn read as `pbem.log_state.turn_and_phase` reads it) with what
    the module shows then: the composite turn's label, night, globals, tracks, and the weather the
    module shows (else the pack's table for the turn)."""
    ex = lp.pack.extras
    label = turn_label(ex, reading) if ex.turn_levels else None
    globals_, tracks, shown_weather = shown_extras(lp, props, reading, state.markers, [])
    weather = shown_weather if shown_weather is not None else lp.pack.state.weather(state.turn)
    night = ex.is_night(label) if label is not None and ex.night else None
    return replace(state, weather=weather, turn_label=label, night=night, globals=globals_, tracks=tracks)
