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

from vassal_adj.model.events import Added, Changed, Moved, Removed, Replay, TurnChanged
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Departure, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import LoadedPack, find_pack
from vassal_adj.parse.commands import Node, log_steps
from vassal_adj.parse.turns import tracker_reading
from vassal_adj.pbem.replay import replay
from vassal_adj.rules.engine import RuleContext
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import PieceStates, game_state, main_layout

__all__ = ["Departures", "LogHistory", "log_history", "opening_turn"]


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
    src, root = lp.pack.state, game.root
    if not src.tracker:
        return None, None
    kids = root.children[:len(root.children) - len(log_steps(root))]
    reading = tracker_reading(module, Node(root.text, kids), src.tracker)
    if reading is None:
        return None, None
    turn, item = reading.value(src.turn_level), reading.value(src.phase_level) if src.phase_level else None
    return (turn if isinstance(turn, int) else None,
            src.phases.get(item, item) if isinstance(item, str) else None)


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
    """The pieces as the log moves them, the open turn and phase, the departures so far."""

    def __init__(self, rp: Replay, maker: PieceStates, lp: LoadedPack, turn: int | None, phase: str | None) -> None:
        self.maker, self.lp, self.turn, self.phase = maker, lp, turn, phase
        self.pieces: dict[str, Piece] = {p.id: p for p in rp.opening}
        self.final: dict[str, Piece] = {p.id: p for p in rp.final}  # the traits of pieces added later
        self.departures = Departures()

    def state(self) -> GameState:
        return self.maker.state(tuple(self.pieces.values()), self.turn, self.phase,
                                self.lp.pack.state.weather(self.turn), tuple(self.departures.found))[0]

    def turn_changed(self, e: TurnChanged) -> bool:
        src = self.lp.pack.state
        if e.tracker != src.tracker:
            return False
        values = dict(e.values)
        turn = int(values[src.turn_level]) if values.get(src.turn_level, "").isdigit() else None
        item = values.get(src.phase_level) if src.phase_level else None
        phase = src.phases.get(item, item) if item is not None else None
        changed = (turn, phase) != (self.turn, self.phase)
        self.turn, self.phase = turn, phase
        return changed

    def moved(self, e: Moved) -> bool:
        piece = self.pieces.get(e.piece)
        if piece is None:  # replay lists it among its problems
            return False
        now = replace(piece, map=e.to.map, x=e.to.x, y=e.to.y, location=e.to.label)
        before, after = self.maker.position(piece), self.maker.position(now)
        self.pieces[e.piece] = now
        if isinstance(self.maker.mapped(now), Unit):
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
            self.pieces[e.piece] = (Piece(e.piece, e.name, e.at.map, e.at.x, e.at.y, location=e.at.label)
                                    if full is None else replace(full, name=e.name, map=e.at.map, x=e.at.x, y=e.at.y,
                                                                 location=e.at.label))
            return True
        if isinstance(e, Removed):
            return self.pieces.pop(e.piece, None) is not None
        if isinstance(e, Changed) and e.piece in self.pieces:
            p = self.pieces[e.piece]
            props = dict(p.properties)
            for c in e.properties:
                if c.after is None:
                    props.pop(c.name, None)
                else:
                    props[c.name] = c.after
            self.pieces[e.piece] = replace(p, name=e.name, properties=props)
            return True
        return False


def log_history(module: Module, game: SavedGame, loaded_pack: LoadedPack | str, *, turn: int | None = None,
                phase: str | None = None, weather: str | None = None,
                terrain: str | Path | None = None, after_step: int = 0, scenario: str | None = None) -> LogHistory:
    """The history of the log `game` as `loaded_pack` sees it (see the module doc); a save
    gives one state, its own. `turn`, `phase`, `weather`, `terrain` and `scenario` are `game_state`'s, and
    apply to the end. With `after_step`, the history starts after that step (a log that
    repeats an earlier log's steps: those positions are the earlier log's). Raises as
    `game_state` does."""
    lp = loaded_pack if isinstance(loaded_pack, LoadedPack) else find_pack(str(loaded_pack))
    rp = replay(game.root, module, game.path)
    if not rp.steps or lp.unitmap is None:  # a save; or a pack with no units file, which game_state refuses
        state, ctx, _ = game_state(module, game, lp, turn=turn, phase=phase, weather=weather, terrain=terrain,
                                   scenario=scenario)
        return LogHistory((state,), replace(ctx, notes=(*ctx.notes, *rp.problems)))
    walk = _Walk(rp, PieceStates(module, game, lp, main_layout(module, game, lp.pack.extras)), lp, *opening_turn(module, game, lp))
    states = [] if after_step else [walk.state()]
    undone = {s.undoes for s in rp.steps if s.undo}
    for step in rp.steps:
        skipped = step.undo or step.number in undone
        changed = [] if skipped else [walk.event(e) for e in step.events if not e.undo]  # all applied, then asked
        if step.number == after_step or (step.number > after_step and any(changed)):
            states.append(walk.state())
    # The end comes with the context: the unmapped pieces and the notes on turn and phase.
    end, ctx, _ = game_state(module, game, lp, turn=turn, phase=phase, weather=weather, terrain=terrain,
                             scenario=scenario, pieces=tuple(walk.pieces.values()), departures=tuple(walk.departures.found))
    return LogHistory((*states[:-1], end), replace(ctx, notes=(*ctx.notes, *rp.problems)))
