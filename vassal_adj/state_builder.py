"""From a module, a save and a rule pack to what the rules read: a `GameState` and a `RuleContext`.

    lp = find_pack("mygame")
    state, context, unmapped = game_state(mod, game, lp)
    report = adjudicate(state, lp, context)      # vassal_adj.rules.engine

This is the I/O side of adjudication (it may read the pack's terrain file); the rules
themselves (vassal_adj/rules/) stay pure. The module and save are resolved once into a
position (position.py: the maps placed, the pieces labelled, the units the pack's units.toml
makes of them; a piece the pack cannot map is returned as unmapped and reported, never
guessed), which a caller that needs it again passes on (``position=``, or `state_of`).

Positions (position.py): the *main* hex grid is the first numbered hex grid of the map the pack
names (``[state] map``, ``board``), else of the first map that has one; the terrain file is read
on it. Turn and phase come from the arguments, else from the turn tracker the pack names
(``[state]``; a composite turn, "June 8 1900", by its place in ``turn_sequence``); weather from
the arguments, else where the module shows it (``weather_from``), else the pack's weather table
for the turn. Global properties and tracks are read as the pack's ``[state]`` says
(rules/packs/pack_state.py; moment.py reads them off the module). The report's notes say where
each came from, or that nothing gave it. The scenario (``[scenarios]``) is the one given, else
the one the save's global properties or turn show (`rules.pack_scenarios.match_scenario`),
noted likewise. The module's predefined set-ups the pack's ``setup.reference`` rules name are
read as states into the context (setup_reference.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from vassal_adj.errors import UsageError, Where
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Departure, GameState
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.moment import composite_turn, shown_extras, turn_label
from vassal_adj.packs import LoadedPack, find_pack
from vassal_adj.parse.places import missing_boards, missing_maps
from vassal_adj.parse.records import GlobalProperty
from vassal_adj.parse.turns import TrackerReading
from vassal_adj.position import GamePosition, main_layout, named_box, resolve
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.packs.pack_options import chosen_options
from vassal_adj.rules.packs.pack_scenarios import match_scenario
from vassal_adj.rules.packs.unitmap import Unmapped
from vassal_adj.rules.scope_events import event_reader
from vassal_adj.savedgame import SavedGame
from vassal_adj.setup_reference import setup_references, wanted_setups

# main_layout and named_box are position.py's, named here for the callers that build states.
__all__ = ["game_state", "main_layout", "named_box", "state_of"]


def _turn_phase_weather(
    lp: LoadedPack,
    reading: TrackerReading | None,
    shown_weather: str | None,
    turn: int | None,
    phase: str | None,
    weather: str | None,
    notes: list[str],
) -> tuple[int | None, str | None, str | None]:
    src = lp.pack.state
    # A misspelt --phase or --weather would silently switch rules off: only the pack's own words.
    for what, given, known in (
        ("phase", phase, set(src.phases.values())),
        ("weather", weather, set(src.weather_by_turn)),
    ):
        if given is not None and known and given.lower() not in known:
            raise UsageError(f"--{what} {given!r}: pack {lp.id!r} knows {', '.join(sorted(known))}")
    # A turn past the game's end would read no weather and date every rule wrongly.
    if turn is not None and (turn < 1 or (src.game_turns is not None and turn > src.game_turns)):
        span = f"1 to {src.game_turns}" if src.game_turns is not None else "1 or more"
        raise UsageError(f"--turn {turn}: the Game-Turns of pack {lp.id!r} are {span}")
    if src.tracker and reading is None:
        notes.append(f"the save has no state of the turn tracker {src.tracker!r}")
    if turn is None and reading is not None and lp.pack.extras.turn_levels:
        turn = composite_turn(lp.pack.extras, reading, notes)
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


def game_state(
    module: Module,
    game: SavedGame,
    loaded_pack: LoadedPack | str,
    *,
    turn: int | None = None,
    phase: str | None = None,
    weather: str | None = None,
    terrain: str | Path | None = None,
    pieces: Sequence[Piece] | None = None,
    departures: tuple[Departure, ...] = (),
    scenario: str | None = None,
    position: GamePosition | None = None,
) -> tuple[GameState, RuleContext, list[Unmapped]]:
    """The state of `game` as `loaded_pack` sees it, the context its rules need, and the
    pieces the pack cannot map.

    `loaded_pack`: a LoadedPack, or a pack id, alias or directory (`packs.find_pack`).
    `terrain` replaces the pack's terrain file (``--terrain``). `pieces`: the position to read
    instead of the save's opening one (a log's end, pbem/log_state.py) and `departures` what its
    history showed leaving the map (GameState.departures). `scenario`: the pack's scenario id
    (``--scenario``). `position`: the game already resolved (position.py) for this module, save
    and pack. Raises PackError for a bad pack or terrain file, UsageError when the pack
    has no units file or no such scenario.
    """
    lp = loaded_pack if isinstance(loaded_pack, LoadedPack) else find_pack(str(loaded_pack))
    if position is not None:
        assert position.fits(module, game, lp), "a position resolved for another module, save or pack"
    pos = position if position is not None else resolve(module, game, lp)
    return state_of(
        pos,
        turn=turn,
        phase=phase,
        weather=weather,
        terrain=terrain,
        pieces=pieces,
        departures=departures,
        scenario=scenario,
    )


def state_of(
    pos: GamePosition,
    *,
    turn: int | None = None,
    phase: str | None = None,
    weather: str | None = None,
    terrain: str | Path | None = None,
    pieces: Sequence[Piece] | None = None,
    departures: tuple[Departure, ...] = (),
    scenario: str | None = None,
    opening: bool = False,
) -> tuple[GameState, RuleContext, list[Unmapped]]:
    """`game_state` of a resolved position (position.py): the state of `pieces` (else of the save's
    own) with the tracker and properties as the save leaves them, or with `opening`, as a log's
    saved part leaves them (the position `verify` walks the log from)."""
    module, game, lp, main = pos.module, pos.game, pos.pack, pos.main
    notes: list[str] = []
    found = pos.pieces if pieces is None else pieces
    state, unmapped = pos.state(found, turn, phase, weather, departures)
    reading, props = (pos.opening_reading, pos.opening_globals) if opening else (pos.reading, pos.globals)
    shown_notes: list[str] = []
    globals_, tracks, shown_weather = shown_extras(lp, props, reading, state.markers, shown_notes)
    turn, phase, weather = _turn_phase_weather(lp, reading, shown_weather, turn, phase, weather, notes)
    ex = lp.pack.extras
    label = turn_label(ex, reading) if ex.turn_levels else None
    if turn is not None and ex.turn_sequence and (label is None or ex.ordinal(label) != turn):
        label = ex.turn_sequence[turn - 1] if turn <= len(ex.turn_sequence) else None  # --turn: its own label
    night = ex.is_night(label) if label is not None and ex.night else None
    state = replace(
        state, turn=turn, phase=phase, weather=weather, turn_label=label, night=night, globals=globals_, tracks=tracks
    )
    notes += shown_notes
    properties = {c.name: c.value for c in game.commands if isinstance(c, GlobalProperty)}
    played = match_scenario(lp.pack.scenarios, scenario, properties, turn, notes)
    options = chosen_options(lp.pack.options, lp.options_given, properties, notes)
    if not lp.pack.fits(module.name, module.version):
        notes.append(
            f"pack {lp.id!r} is written for modules named {lp.pack.module_name!r} "
            f"(version {lp.pack.module_version!r}); this module is {module.name!r} "
            f"version {module.version!r}"
        )
    # What the save names that the module lacks: VASSAL loads it without, and so do the rules,
    # unless the board they play on is what is missing.
    lost = missing_boards(game.root, module)
    if main is None and lost:
        raise UsageError(
            f"no numbered hex grid for the rules to play on, as the save lays the maps out: {'; '.join(lost)}",
            Where(path=game.path),
        )
    terrain_map: TerrainMap
    if main is not None and (terrain is not None or lp.terrain_path is not None):
        terrain_map = lp.terrain(main[1], path=Path(terrain) if terrain is not None else None)
    else:  # no terrain file, but the board still bounds every search
        terrain_map = TerrainMap(lp.pack.vocabulary, board=main[1].hexes() if main is not None else None)
        notes.append(
            "no terrain: every hex is treated as having no terrain and no hexside features"
            if main is not None
            else "the module has no numbered hex grid: no unit has a hex"
        )
    notes += lost + missing_maps(found, module)
    context = RuleContext(
        terrain_map,
        main[1] if main is not None else None,
        lp.id,
        unmapped=tuple(unmapped),
        notes=tuple(notes),
        scenario=played,
        options=options,
        events=event_reader(lp.pack.rules),
        turn_sequence=lp.pack.extras.turn_sequence,
        setups=setup_references(module, lp, wanted_setups(lp.pack)),
    )
    return state, context, unmapped
