"""From a module, a save and a rule pack to what the rules read: a `GameState` and a `RuleContext`.

    lp = find_pack("mygame")
    state, context, unmapped = game_state(mod, game, lp)
    report = adjudicate(state, lp, context)      # vassal_adj.rules.engine

This is the I/O side of adjudication (it may read the pack's terrain file); the rules
themselves (vassal_adj/rules/) stay pure. Pieces come from `SavedGame.pieces`, units
from the pack's units.toml (`rules.unitmap.map_units`): a piece the pack cannot map is
returned as unmapped and reported, never guessed.

Positions: the *main* hex grid is the first numbered hex grid of the map (and board) the pack
names (``[state] map``, ``board``), else of the first map that has one (the example module: 'Main Map',
its one board); the terrain file is read on it. A unit on that
grid gets its hex and label; a unit elsewhere (another map, another board or zone) gets an
off-map box named after the label VASSAL shows there, or the map; a piece on no map gets an
empty position; a box the pack's ``[boxes]`` name gets its kind, side and number. Turn and
phase come from the arguments, else from the turn tracker the pack names (``[state]``; a
composite turn, "June 8 1900", by its place in ``turn_sequence``); weather from the
arguments, else where the module shows it (``weather_from``), else the pack's weather table
for the turn. Global properties and tracks are read as the pack's ``[state]`` says
(rules/packs/pack_state.py). The report's notes say where each came from, or that nothing gave it. The scenario
(``[scenarios]``) is the one given, else the one the save's global properties or turn show
(`rules.pack_scenarios.match_scenario`), noted likewise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from vassal_adj.errors import UsageError, Where
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import PlacedMap, module_map
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Box, Departure, GameState, Position, Track
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.packs import LoadedPack, find_pack
from vassal_adj.parse.global_props import global_values
from vassal_adj.parse.places import missing_boards, missing_maps
from vassal_adj.parse.records import GlobalProperty
from vassal_adj.parse.turns import TrackerReading, tracker_reading
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.packs.pack_scenarios import match_scenario
from vassal_adj.rules.packs.pack_state import BoxSpec, Reading, StateExtras
from vassal_adj.rules.packs.unitmap import Unmapped
from vassal_adj.rules.scope_events import event_reader
from vassal_adj.savedgame import SavedGame

__all__ = ["PieceStates", "game_state", "main_layout", "named_box", "position_of"]


def main_layout(module: Module, game: SavedGame, extras: StateExtras | None = None
                ) -> tuple[PlacedMap, HexLayout] | None:
    """The map and numbered hex grid the rules play on (see the module doc), as the save
    placed its boards; None when the module has no numbered hex grid. A map or board the
    pack names (`extras`) that the module lacks, or that has no numbered hex grid, is a
    UsageError naming the ones it has."""
    if extras is None or not extras.map:
        for mdef in module.maps.values():
            placed = module_map(module, mdef.name, save=game)
            for lay in placed.hex_layouts():
                if lay.numbered:
                    return placed, lay
        return None
    if extras.map not in module.maps:
        raise UsageError(f"the pack plays on map {extras.map!r} ([state] map), which module {module.name!r} "
                         f"lacks (its maps: {', '.join(module.maps) or 'none'})")
    placed = module_map(module, extras.map, save=game)
    grids = [lay for lay in placed.hex_layouts() if lay.numbered]
    boards = sorted({lay.board.name for lay in grids})
    found = next((lay for lay in grids if not extras.board or lay.board.name == extras.board), None)
    if found is None:
        on = f"board {extras.board!r} of map {extras.map!r}" if extras.board else f"map {extras.map!r}"
        raise UsageError(f"the pack plays on {on} ([state]), which has no numbered hex grid as this save lays it out "
                         f"(boards with one: {', '.join(boards) or 'none'})")
    return placed, found


def named_box(box: str, specs: Sequence[BoxSpec]) -> Box | None:
    """What the pack's first ``[boxes]`` entry matching `box` makes of it."""
    for spec in specs:
        hit, number = spec.number(box)
        if hit:
            return Box(spec.name, spec.kind, spec.side, number)
    return None


def position_of(piece: Piece, module: Module, game: SavedGame, main: tuple[PlacedMap, HexLayout] | None,
                placed_cache: dict[str, PlacedMap | None], boxes: Sequence[BoxSpec] = ()) -> Position:
    """Where `piece` is (see the module doc); a box `boxes` name (the pack's [boxes]) gets its kind."""
    if piece.map is None:
        return Position()
    if piece.map not in placed_cache:
        mdef = module.map_by_id(piece.map)
        placed_cache[piece.map] = None if mdef is None else module_map(module, mdef.name, save=game)
    placed = placed_cache[piece.map]
    if main is not None and placed is not None and placed.name == main[0].name:
        if placed.layout_at(piece.x, piece.y) == main[1]:
            lay = main[1]  # the one instance whose label index is built once, not once per piece
            h = lay.hex_at(piece.x, piece.y)
            if h is not None:
                return Position(h, lay.label_of(h))
    # Not on the main grid: an off-map box, named as VASSAL names the spot (a turn-track box,
    # "Eliminated"), else by the map; the pack's [boxes] say what kind of box it is.
    box = piece.location or piece.map
    return Position(box=box, named=named_box(box, boxes))


def _composite_turn(extras: StateExtras, reading: TrackerReading, notes: list[str]) -> int | None:
    label = _turn_label(extras, reading)
    if label is None:
        notes.append(f"the turn tracker shows no value of {', '.join(extras.turn_levels)}")
        return None
    turn = extras.ordinal(label)
    if turn is None:
        notes.append(f"the turn tracker shows {label!r}, which is not in the pack's turn_sequence")
    else:
        notes.append(f"turn {turn} ({label}) read from the turn tracker")
    return turn


def _turn_label(extras: StateExtras, reading: TrackerReading | None) -> str | None:
    values = [reading.value(level) for level in extras.turn_levels] if reading is not None else [None]
    return None if any(v is None for v in values) else " ".join(str(v) for v in values)


def _shown(r: Reading, props: Mapping[str, str], reading: TrackerReading | None,
           markers: Mapping[str, tuple[Position, ...]]) -> tuple[str | None, str]:
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


def _extras(lp: LoadedPack, props: Mapping[str, str], reading: TrackerReading | None,
            markers: Mapping[str, tuple[Position, ...]], notes: list[str]
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
        value = int(text) if text is not None and text.strip().lstrip("-").isdigit() else None
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


def _turn_phase_weather(lp: LoadedPack, reading: TrackerReading | None, shown_weather: str | None,
                        turn: int | None, phase: str | None, weather: str | None, notes: list[str]
                        ) -> tuple[int | None, str | None, str | None]:
    src = lp.pack.state
    # A misspelt --phase or --weather would silently switch rules off: only the pack's own words.
    for what, given, known in (("phase", phase, set(src.phases.values())), ("weather", weather,
                                                                            set(src.weather_by_turn))):
        if given is not None and known and given.lower() not in known:
            raise UsageError(f"--{what} {given!r}: pack {lp.id!r} knows {', '.join(sorted(known))}")
    # A turn past the game's end would read no weather and date every rule wrongly.
    if turn is not None and (turn < 1 or (src.game_turns is not None and turn > src.game_turns)):
        span = f"1 to {src.game_turns}" if src.game_turns is not None else "1 or more"
        raise UsageError(f"--turn {turn}: the Game-Turns of pack {lp.id!r} are {span}")
    if src.tracker and reading is None:
        notes.append(f"the save has no state of the turn tracker {src.tracker!r}")
    if turn is None and reading is not None and lp.pack.extras.turn_levels:
        turn = _composite_turn(lp.pack.extras, reading, notes)
    elif turn is None and reading is not None:
        value = reading.value(src.turn_level)
        if isinstance(value, int):
            turn = value
            notes.append(f"turn {turn} read from the turn tracker {src.tracker!r}")
    if phase is None and reading is not None and src.phase_level:
        item = reading.value(src.phase_level)
        if isinstance(item, str):
            phase = src.phases.get(item, item)
            notes.append(f"phase {phase} read from the turn tracker ({src.phase_level} {item!r})")
    if weather is None and shown_weather is not None:
        weather = shown_weather
        notes.append(f"weather {weather}: as the module shows it ([state] weather_from)")
    if weather is None and src.weather(turn) is not None:
        weather = src.weather(turn)
        ref = f" ({src.weather_rule})" if src.weather_rule else ""
        notes.append(f"weather {weather}: the weather table{ref} for turn {turn}")
    for what, value in (("turn", turn), ("phase", phase), ("weather", weather)):
        if value is None:
            notes.append(f"no {what}: give --{what} (rules that depend on it say what they could not check)")
    return turn, phase, weather


class PieceStates:
    """Pieces to a `GameState`, for one module, game and pack: a position is worked out once
    per spot and a unit once per piece, so a log's every step can become a state cheaply."""

    def __init__(self, module: Module, game: SavedGame, lp: LoadedPack,
                 main: tuple[PlacedMap, HexLayout] | None) -> None:
        assert lp.unitmap is not None  # game_state raises UsageError first
        self.module, self.game, self.unitmap, self.main = module, game, lp.unitmap, main
        self.boxes = lp.pack.boxes
        self._placed: dict[str, PlacedMap | None] = {}
        self._spots: dict[tuple[str | None, int, int, str | None], Position] = {}
        self._mapped: dict[tuple[str, str, tuple[tuple[str, str], ...]], Unit | Unmapped | None] = {}

    def position(self, piece: Piece) -> Position:
        key = (piece.map, piece.x, piece.y, piece.location)
        if key not in self._spots:
            self._spots[key] = position_of(piece, self.module, self.game, self.main, self._placed, self.boxes)
        return self._spots[key]

    def mapped(self, piece: Piece) -> Unit | Unmapped | None:
        """The unit the pack makes of `piece`, why none, or None for a marker (unitmap.map_piece)."""
        key = (piece.id, piece.name, tuple(sorted(piece.properties.items())))
        if key not in self._mapped:
            self._mapped[key] = self.unitmap.map_piece(piece)
        return self._mapped[key]

    def state(self, pieces: Sequence[Piece], turn: int | None, phase: str | None, weather: str | None,
              departures: tuple[Departure, ...] = ()) -> tuple[GameState, list[Unmapped]]:
        units: list[Unit] = []
        unmapped: list[Unmapped] = []
        markers: dict[str, list[Position]] = {}
        positions: dict[str, Position] = {}
        for piece in pieces:
            got = self.mapped(piece)
            if isinstance(got, Unit):
                units.append(got)
                positions[got.id] = self.position(piece)
            elif got is None:  # ignored by the pack: a marker some rules read by name
                markers.setdefault(piece.name, []).append(self.position(piece))
            else:
                unmapped.append(got)
        state = GameState({u.id: u for u in units}, positions, turn, phase, weather,
                          {k: tuple(v) for k, v in markers.items()}, departures)
        return state, unmapped


def game_state(module: Module, game: SavedGame, loaded_pack: LoadedPack | str, *,
               turn: int | None = None, phase: str | None = None, weather: str | None = None,
               terrain: str | Path | None = None, pieces: Sequence[Piece] | None = None,
               departures: tuple[Departure, ...] = (), scenario: str | None = None
               ) -> tuple[GameState, RuleContext, list[Unmapped]]:
    """The state of `game` as `loaded_pack` sees it, the context its rules need, and the
    pieces the pack cannot map.

    `loaded_pack`: a LoadedPack, or a pack id, alias or directory (`packs.find_pack`).
    `terrain` replaces the pack's terrain file (``--terrain``). `pieces`: the position to read
    instead of the save's opening one (a log's end, pbem/log_state.py) and `departures` what its
    history showed leaving the map (GameState.departures). `scenario`: the pack's scenario id
    (``--scenario``). Raises PackError for a bad pack or terrain file, UsageError when the pack
    has no units file or no such scenario.
    """
    lp = loaded_pack if isinstance(loaded_pack, LoadedPack) else find_pack(str(loaded_pack))
    if lp.unitmap is None:
        raise UsageError(f"pack {lp.id!r} has no units file ({lp.pack.units_file}): no piece can become a unit")
    notes: list[str] = []
    main = main_layout(module, game, lp.pack.extras)
    found = game.pieces(module) if pieces is None else pieces
    ps = PieceStates(module, game, lp, main)
    state, unmapped = ps.state(found, turn, phase, weather, departures)
    src = lp.pack.state
    reading = tracker_reading(module, game.root, src.tracker) if src.tracker else None
    shown_notes: list[str] = []
    globals_, tracks, shown_weather = _extras(lp, global_values(module, game.root), reading, state.markers,
                                              shown_notes)
    turn, phase, weather = _turn_phase_weather(lp, reading, shown_weather, turn, phase, weather, notes)
    ex = lp.pack.extras
    label = _turn_label(ex, reading) if ex.turn_levels else None
    if turn is not None and ex.turn_sequence and (label is None or ex.ordinal(label) != turn):
        label = ex.turn_sequence[turn - 1] if turn <= len(ex.turn_sequence) else None  # --turn: its own label
    night = ex.is_night(label) if label is not None and ex.night else None
    state = replace(state, turn=turn, phase=phase, weather=weather, turn_label=label, night=night,
                    globals=globals_, tracks=tracks)
    notes += shown_notes
    properties = {c.name: c.value for c in game.commands if isinstance(c, GlobalProperty)}
    played = match_scenario(lp.pack.scenarios, scenario, properties, turn, notes)
    if not lp.pack.fits(module.name, module.version):
        notes.append(f"pack {lp.id!r} is written for modules named {lp.pack.module_name!r} "
                     f"(version {lp.pack.module_version!r}); this module is {module.name!r} "
                     f"version {module.version!r}")
    # What the save names that the module lacks: VASSAL loads it without, and so do the rules,
    # unless the board they play on is what is missing.
    lost = missing_boards(game.root, module)
    if main is None and lost:
        raise UsageError(f"no numbered hex grid for the rules to play on, as the save lays the maps out: "
                         f"{'; '.join(lost)}", Where(path=game.path))
    terrain_map: TerrainMap
    if main is not None and (terrain is not None or lp.terrain_path is not None):
        terrain_map = lp.terrain(main[1], path=Path(terrain) if terrain is not None else None)
    else:  # no terrain file, but the board still bounds every search
        terrain_map = TerrainMap(lp.pack.vocabulary, board=main[1].hexes() if main is not None else None)
        notes.append("no terrain: every hex is treated as having no terrain and no hexside features"
                     if main is not None else "the module has no numbered hex grid: no unit has a hex")
    notes += lost + missing_maps(found, module)
    context = RuleContext(terrain_map, main[1] if main is not None else None, lp.id,
                          unmapped=tuple(unmapped), notes=tuple(notes), scenario=played,
                          events=event_reader(lp.pack.rules), turn_sequence=lp.pack.extras.turn_sequence)
    return state, context, unmapped
