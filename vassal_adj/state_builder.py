"""From a module, a save and a rule pack to what the rules read: a `GameState` and a `RuleContext`.

    lp = find_pack("mygame")
    state, context, unmapped = game_state(mod, game, lp)
    report = adjudicate(state, lp, context)      # vassal_adj.rules.engine

This is the I/O side of adjudication (it may read the pack's terrain file); the rules
themselves (vassal_adj/rules/) stay pure. Pieces come from `SavedGame.pieces`, units
from the pack's units.toml (`rules.unitmap.map_units`): a piece the pack cannot map is
returned as unmapped and reported, never guessed.

Positions: the *main* hex grid is the first numbered hex grid of the first map that has one
(the example module: 'Main Map', its one board); the terrain file is read on it. A unit on that
grid gets its hex and label; a unit elsewhere (another map, another board or zone) gets an
off-map box named after the label VASSAL shows there, or the map; a piece on no map gets an
empty position. Turn and phase come from the arguments, else from the turn tracker the pack
names (``[state]``); weather from the arguments, else the pack's weather table for the turn.
The report's notes say where each came from, or that nothing gave it. The scenario
(``[scenarios]``) is the one given, else the one the save's global properties or turn show
(`rules.pack_scenarios.match_scenario`), noted likewise.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from vassal_adj.errors import UsageError, Where
from vassal_adj.model.hexgrid import HexLayout
from vassal_adj.model.maps import PlacedMap, module_map
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.packs import LoadedPack, find_pack
from vassal_adj.parse.places import missing_boards, missing_maps
from vassal_adj.parse.records import GlobalProperty
from vassal_adj.parse.turns import tracker_reading
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.pack_scenarios import match_scenario
from vassal_adj.rules.scope_events import event_reader
from vassal_adj.rules.unitmap import Unmapped
from vassal_adj.savedgame import SavedGame

__all__ = ["PieceStates", "game_state", "main_layout", "position_of"]


def main_layout(module: Module, game: SavedGame) -> tuple[PlacedMap, HexLayout] | None:
    """The map and numbered hex grid the rules play on (see the module doc), as the save
    placed its boards; None when the module has no numbered hex grid."""
    for mdef in module.maps.values():
        placed = module_map(module, mdef.name, save=game)
        for lay in placed.hex_layouts():
            if lay.numbered:
                return placed, lay
    return None


def position_of(piece: Piece, module: Module, game: SavedGame, main: tuple[PlacedMap, HexLayout] | None,
              placed_cache: dict[str, PlacedMap | None]) -> Position:
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
    # "Eliminated"), else by the map. Packs naming their boxes can refine this later.
    return Position(box=piece.location or piece.map)


def _turn_phase_weather(module: Module, game: SavedGame, lp: LoadedPack, turn: int | None,
                        phase: str | None, weather: str | None, notes: list[str]
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
    reading = tracker_reading(module, game.root, src.tracker) if src.tracker else None
    if src.tracker and reading is None:
        notes.append(f"the save has no state of the turn tracker {src.tracker!r}")
    if turn is None and reading is not None:
        value = reading.value(src.turn_level)
        if isinstance(value, int):
            turn = value
            notes.append(f"turn {turn} read from the turn tracker {src.tracker!r}")
    if phase is None and reading is not None and src.phase_level:
        item = reading.value(src.phase_level)
        if isinstance(item, str):
            phase = src.phases.get(item, item)
            notes.append(f"phase {phase} read from the turn tracker ({src.phase_level} {item!r})")
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
        self._placed: dict[str, PlacedMap | None] = {}
        self._spots: dict[tuple[str | None, int, int, str | None], Position] = {}
        self._mapped: dict[tuple[str, str, tuple[tuple[str, str], ...]], Unit | Unmapped | None] = {}

    def position(self, piece: Piece) -> Position:
        key = (piece.map, piece.x, piece.y, piece.location)
        if key not in self._spots:
            self._spots[key] = position_of(piece, self.module, self.game, self.main, self._placed)
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
    instead of the save's opening one (a log's end, log_state.py) and `departures` what its
    history showed leaving the map (GameState.departures). `scenario`: the pack's scenario id
    (``--scenario``). Raises PackError for a bad pack or terrain file, UsageError when the pack
    has no units file or no such scenario.
    """
    lp = loaded_pack if isinstance(loaded_pack, LoadedPack) else find_pack(str(loaded_pack))
    if lp.unitmap is None:
        raise UsageError(f"pack {lp.id!r} has no units file ({lp.pack.units_file}): no piece can become a unit")
    notes: list[str] = []
    turn, phase, weather = _turn_phase_weather(module, game, lp, turn, phase, weather, notes)
    properties = {c.name: c.value for c in game.commands if isinstance(c, GlobalProperty)}
    played = match_scenario(lp.pack.scenarios, scenario, properties, turn, notes)
    if not lp.pack.fits(module.name, module.version):
        notes.append(f"pack {lp.id!r} is written for modules named {lp.pack.module_name!r} "
                     f"(version {lp.pack.module_version!r}); this module is {module.name!r} "
                     f"version {module.version!r}")
    # What the save names that the module lacks: VASSAL loads it without, and so do the rules,
    # unless the board they play on is what is missing.
    lost = missing_boards(game.root, module)
    main = main_layout(module, game)
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
    found = game.pieces(module) if pieces is None else pieces
    notes += lost + missing_maps(found, module)
    state, unmapped = PieceStates(module, game, lp, main).state(found, turn, phase, weather, departures)
    context = RuleContext(terrain_map, main[1] if main is not None else None, lp.id,
                          unmapped=tuple(unmapped), notes=tuple(notes), scenario=played,
                          events=event_reader(lp.pack.rules))
    return state, context, unmapped
