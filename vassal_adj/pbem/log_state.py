"""A game's history from a log: the position after every step, and what left the map from where.

    hist = log_history(module, game, "mygame")         # game: a .vlog (a save gives its one position)
    hist.end                                           # the position, turn and phase at the log's end
    hist.end.departures                                # units moved off the map, the hex each left from
    hist.states                                        # the opening, then after every step, the end last

The I/O side of the rules that need more than one moment (17.15's lost sources, 19.3 and 22's
exits and entries), as state_builder.py is of a single position. The log's steps are walked as
`vassal-adj verify` walks them (pbem/verify.py): steps an undo took back, and the undo steps,
are skipped. A move of a unit into an off-map box records a `Departure` with the unit's last
hex on the map before the box (the origin of its move, or the hex it last stood in when it
went from box to box) and the turn and phase the tracker showed then. A unit already in a box
when the log opens left no trace here: where it left from is unknown, and the rules say so.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from vassal_adj.errors import UsageError, Where
from vassal_adj.model.events import Added, Changed, Moved, PropertySet, Removed, Replay, TurnChanged
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.moment import reading_of, turn_label, with_moment
from vassal_adj.packs import LoadedPack, find_pack
from vassal_adj.parse.turns import TrackerReading, tracker_reading
from vassal_adj.pbem.replay import replay
from vassal_adj.position import GamePosition, opening_root, resolve
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.packs.pack_state import Reading
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import state_of

__all__ = ["Departures", "LogHistory", "changed", "log_history", "log_opening", "opening_turn", "turn_and_phase"]


def changed(piece: Piece, e: Changed) -> Piece:
    """`piece` as the ChangePiece `e` leaves it: its name and properties (layers, markers)."""
    props = dict(piece.properties)
    for c in e.properties:
        if c.after is None:
            props.pop(c.name, None)
        else:
            props[c.name] = c.after
    return replace(piece, name=e.name, properties=props)


@dataclass(frozen=True)
class LogHistory:
    """The states of one log, oldest first: the opening, the position after every step that
    changed a piece or the turn, and last the end (with the turn, phase and weather `check`
    judges it in). Every state carries the departures recorded up to it."""

    states: tuple[GameState, ...]
    context: RuleContext  # of the end; its notes include what the replay could not apply

    @property
    def end(self) -> GameState:
        return self.states[-1]


def opening_turn(module: Module, game: SavedGame, lp: LoadedPack) -> tuple[int | None, str | None]:
    """The turn and phase a log opens in: the tracker as the saved part leaves it (its LOG
    steps move the tracker on; `game_state` reads the tracker's last state)."""
    src = lp.pack.state
    return turn_and_phase(lp, tracker_reading(module, opening_root(game.root), src.tracker) if src.tracker else None)


def turn_and_phase(lp: LoadedPack, reading: TrackerReading | None) -> tuple[int | None, str | None]:
    """The Game-Turn and phase the pack's tracker levels show in `reading` (None: not shown); a
    composite turn (``turn_levels``) is its label's place in ``turn_sequence``."""
    src, ex = lp.pack.state, lp.pack.extras
    if reading is None:
        return None, None
    turn, item = reading.value(src.turn_level), reading.value(src.phase_level) if src.phase_level else None
    if ex.turn_levels:
        label = turn_label(ex, reading)
        turn = ex.ordinal(label) if label is not None else None
    return (turn if isinstance(turn, int) else None, src.phases.get(item, item) if isinstance(item, str) else None)


class Departures:
    """The departures of a walk through a log: `moved` with each unit move, in log order."""

    def __init__(self, known: tuple[Departure, ...] = ()) -> None:
        self.found: list[Departure] = list(known)
        self._last: dict[str, Position] = {}  # unit -> its last position on the map

    def moved(self, unit: str, before: Position, after: Position, turn: int | None, phase: str | None) -> None:
        if before.hex is not None:
            self._last[unit] = before
        left = self._last.get(unit)
        if after.hex is None and after.box is not None and after.box != before.box and left is not None:
            assert left.hex is not None
            self.found.append(Departure(unit, after.box, left.hex, left.label, turn, phase))


class _Walk:
    """The pieces as the log moves them, the open turn and phase, what the module shows (the
    tracker, the global properties), the departures so far."""

    def __init__(self, rp: Replay, pos: GamePosition) -> None:
        self.pos, self.lp = pos, pos.pack
        self.reading, self.props = pos.opening_reading, dict(pos.opening_globals)
        self.turn, self.phase = turn_and_phase(self.lp, self.reading)
        self.pieces: dict[str, Piece] = {p.id: p for p in rp.opening}
        self.final: dict[str, Piece] = {p.id: p for p in rp.final}  # the traits of pieces added later
        self.departures = Departures()
        ex = self.lp.pack.extras
        # The properties a state shows: a changed one makes a new state.
        self.read_props = {*ex.globals.values(), *(r.property for r in self._readings() if r.property)}

    def _readings(self) -> list[Reading]:
        ex = self.lp.pack.extras
        return [*(t.reading for t in ex.tracks.values()), *([ex.weather_from] if ex.weather_from else [])]

    def state(self) -> GameState:
        """The position now, with the turn, globals and tracks the module shows (moment.py), as a save's has."""
        bare = self.pos.state(tuple(self.pieces.values()), self.turn, self.phase, None, tuple(self.departures.found))[0]
        return with_moment(bare, self.lp, self.props, self.reading)

    def turn_changed(self, e: TurnChanged) -> bool:
        if e.tracker != self.lp.pack.state.tracker:
            return False
        before = self._shown_turn()
        self.reading = reading_of(self.pos.module, e.tracker, e.values)
        self.turn, self.phase = turn_and_phase(self.lp, self.reading)
        return self._shown_turn() != before

    def _shown_turn(self) -> tuple[object, ...]:
        """What a state reads of the tracker: the turn and phase, the composite turn, the tracks' levels."""
        levels = [*self.lp.pack.extras.turn_levels, *(r.level for r in self._readings() if r.level)]
        return self.turn, self.phase, *(self.reading.value(k) if self.reading else None for k in levels)

    def moved(self, e: Moved) -> bool:
        piece = self.pieces.get(e.piece)
        if piece is None:  # replay lists it among its problems
            return False
        now = replace(piece, map=e.to.map, x=e.to.x, y=e.to.y, location=e.to.label)
        before, after = self.pos.place(piece), self.pos.place(now)
        self.pieces[e.piece] = now
        if isinstance(self.pos.unit(now), Unit):
            self.departures.moved(e.piece, before, after, self.turn, self.phase)
        return True

    def event(self, e: object) -> bool:
        """Apply one event; whether the position (or the turn) changed."""
        if isinstance(e, TurnChanged):
            return self.turn_changed(e)
        if isinstance(e, Moved):
            return self.moved(e)
        if isinstance(e, Added):
            full = self.final.get(e.piece)  # its traits and properties; its place is where it was added
            self.pieces[e.piece] = (
                Piece(e.piece, e.name, e.at.map, e.at.x, e.at.y, location=e.at.label)
                if full is None
                else replace(full, name=e.name, map=e.at.map, x=e.at.x, y=e.at.y, location=e.at.label)
            )
            return True
        if isinstance(e, Removed):
            return self.pieces.pop(e.piece, None) is not None
        if isinstance(e, PropertySet):
            self.props[e.name] = e.after
            return e.name in self.read_props
        if isinstance(e, Changed) and e.piece in self.pieces:
            self.pieces[e.piece] = changed(self.pieces[e.piece], e)
            return True
        return False


def log_history(
    module: Module,
    game: SavedGame,
    loaded_pack: LoadedPack | str,
    *,
    turn: int | None = None,
    phase: str | None = None,
    weather: str | None = None,
    terrain: str | Path | None = None,
    after_step: int = 0,
    scenario: str | None = None,
    position: GamePosition | None = None,
    replayed: Replay | None = None,
) -> LogHistory:
    """The history of the log `game` as `loaded_pack` sees it (see the module doc); a save
    gives one state, its own. `turn`, `phase`, `weather`, `terrain` and `scenario` are `game_state`'s, and
    apply to the end. With `after_step`, the history starts after that step (a log that
    repeats an earlier log's steps: those positions are the earlier log's). `position`: the
    game already resolved (position.py) for this module and pack; `replayed`: the game as
    pbem.replay already replayed it. Raises as `game_state` does."""
    lp = loaded_pack if isinstance(loaded_pack, LoadedPack) else find_pack(str(loaded_pack))
    if position is not None:
        assert position.fits(module, game, lp), "a position resolved for another module, save or pack"
    pos = position if position is not None else resolve(module, game, lp)
    rp = replayed if replayed is not None else replay(game.root, module, game.path, label=pos.label)
    if not rp.steps:  # a save
        state, ctx, _ = state_of(pos, turn=turn, phase=phase, weather=weather, terrain=terrain, scenario=scenario)
        return LogHistory((state,), replace(ctx, notes=(*ctx.notes, *rp.problems)))
    walk = _Walk(rp, pos)
    states = [] if after_step else [walk.state()]
    undone = {s.undoes for s in rp.steps if s.undo}
    for step in rp.steps:
        skipped = step.undo or step.number in undone
        changed = [] if skipped else [walk.event(e) for e in step.events if not e.undo]  # all applied, then asked
        if step.number == after_step or (step.number > after_step and any(changed)):
            states.append(walk.state())
    # The end comes with the context: the unmapped pieces and the notes on turn and phase.
    end, ctx, _ = state_of(
        pos,
        turn=turn,
        phase=phase,
        weather=weather,
        terrain=terrain,
        scenario=scenario,
        pieces=tuple(walk.pieces.values()),
        departures=tuple(walk.departures.found),
    )
    return LogHistory((*states[:-1], end), replace(ctx, notes=(*ctx.notes, *rp.problems)))


def log_opening(pos: GamePosition, turn: int | None, phase: str | None) -> tuple[int | None, str | None, list[str]]:
    """The Game-Turn and phase the log opens in (`turn`/`phase` given win over the tracker's),
    and where they come from. UsageError when the pack's tracker does not tell them: every
    verdict hangs on them (who may move, the weather of table 20.4 and so the allowances)."""
    lp, game = pos.pack, pos.game
    src = lp.pack.state
    read_turn, read_phase = turn_and_phase(lp, pos.opening_reading)
    tracker = f"the turn tracker {src.tracker!r} as the log opens"
    notes = [
        f"{what} {value}: {'given' if given is not None else 'read from ' + tracker}"
        for what, value, given in (
            ("turn", turn if turn is not None else read_turn, turn),
            ("phase", phase or read_phase, phase),
        )
        if value is not None
    ]
    turn, phase = turn if turn is not None else read_turn, phase or read_phase
    known = sorted(set(src.phases.values()))
    if phase is not None and phase == read_phase and known and phase not in known:
        raise UsageError(
            f"{tracker} shows phase {phase!r}, which is none of pack {lp.id!r}'s phases "
            f"({', '.join(known)}): give --phase",
            Where(path=game.path),
        )
    missing = [w for w, v in (("turn", turn), ("phase", phase)) if v is None and (w == "turn" or src.phases)]
    if src.tracker and missing:
        raise UsageError(
            f"the {' and '.join(missing)} could not be read from {tracker}, and the moves cannot be "
            f"judged without: give {' and '.join('--' + w for w in missing)}, or --no-rules to only "
            "list what happened",
            Where(path=game.path),
        )
    return turn, phase, notes
