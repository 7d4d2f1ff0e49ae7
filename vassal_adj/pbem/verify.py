"""Was it legal: a log's moves, phase by phase, judged by a rule pack.

    rp = replay(game.root, module, game.path)            # vassal_adj.pbem.replay
    result = verify_turn(module, game, "mygame", rp)
    result.findings                                      # Finding records, in log order

The I/O side of `rules/turn.py`, as state_builder.py is of the engine: the opening position
becomes a `GameState` (state_builder), then the replay's steps are walked. Steps an undo took
back, and the undo steps themselves, are skipped: the position after both is the one before.
A turn-tracker change (mapped by the pack's ``[state]`` phases) or the end of the log closes
a phase: its moves (the drags of each unit, the legs of one move) are checked by
`rules.turn.check_phase`, and at the end of a movement phase the pack's stacking, prohibited
terrain, supply and alternate-counter rules run on the position, and at the end of every phase its
marker-state rules and its supply through HQs, each in the phases it is in force
(pbem/phase_checks.py), of which warnings and errors are kept as the rules word them. A unit
whose piece changes (a layer, a flip) is mapped anew, so its flags follow the log.

Every state judged carries what the module shows at its step (moment.py, N18): the composite
turn and night the tracker shows, the globals and tracks, and the weather shown (else the pack's
table; a weather given wins). A phase or segment in which nothing has moved yet takes what its
steps show as they come (a property its opener set, a weather set as it began).

A pack's ``log.segments`` rule (rules/segments.py) cuts phases finer: each chat line or track
change it names opens a segment (an action, an activation), which is closed and checked as a
phase is, so each has its own position, zones of control and allowance, and the side the
opener names is the one that moves in it. The pack's log rules (implementations registered
with ``log=True``, a hooks.py's too) are run on every segment as it closes.

A unit whose piece has a Movement Trail (parse/trail.py) shows the hexes it went through: its
trail as its first drag of the phase left it ends with the place that drag started from, and
every later point is a place the unit left, so the trail from that point on, then the place the
unit stands at the phase's end, is its path, which `check_phase` judges. A trail cleared or
moved to another map since (no longer starting with the same points) does not cover the move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from vassal_adj.errors import PackError, Where
from vassal_adj.model.events import (
    Added,
    Changed,
    DieRolled,
    Moved,
    Place,
    PropertySet,
    Removed,
    Replay,
    Step,
    TurnChanged,
)
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.moment import reading_of, shown_extras, with_moment
from vassal_adj.packs import LoadedPack, find_pack
from vassal_adj.parse.turns import TrackerReading
from vassal_adj.pbem.log_state import Departures, log_opening, turn_and_phase
from vassal_adj.pbem.phase_checks import PhaseEndChecks, changed_unit
from vassal_adj.pbem.replay import STEPS_PER_CALL, StepCallback
from vassal_adj.pbem.trail_watch import TrailWatch
from vassal_adj.position import GamePosition, resolve
from vassal_adj.rules.engine import RuleContext, rule_verdict, situation, unmapped_findings
from vassal_adj.rules.ledger_log import Logged
from vassal_adj.rules.registry import REGISTRY
from vassal_adj.rules.results import Finding
from vassal_adj.rules.segment_rolls import SegmentRoll, segment_roll
from vassal_adj.rules.segments import Opened, Segment, opened_by, segmenting
from vassal_adj.rules.track_openers import merged
from vassal_adj.rules.turn import Drag, MoveCheck, TurnRules, check_phase, turn_rules
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import state_of

__all__ = ["PhaseRecord", "Verification", "verify_turn"]


@dataclass(frozen=True)
class PhaseRecord:
    """One phase of the log, or one segment of a phase where the pack cuts phases (``log.segments``):
    its Game-Turn and phase id (None when unknown), the logged steps it spans (None when no
    step fell in it), each unit's move, the findings and the segment's words ("" for a phase)."""

    turn: int | None
    phase: str | None
    steps: tuple[int, int] | None
    moves: tuple[MoveCheck, ...]
    findings: tuple[Finding, ...]
    segment: str = ""

    @property
    def title(self) -> str:
        return _title(self.turn, self.phase, self.segment)


@dataclass(frozen=True)
class Verification:
    """What `verify_turn` found: every finding in log order (unmapped pieces first), the
    phases with their moves, and what could not be checked (`notes`)."""

    pack: str
    findings: tuple[Finding, ...]
    phases: tuple[PhaseRecord, ...]
    notes: tuple[str, ...] = ()

    @property
    def moves(self) -> tuple[MoveCheck, ...]:
        return tuple(m for p in self.phases for m in p.moves)


def _title(turn: int | None, phase: str | None, segment: str = "") -> str:
    title = f"Turn {turn if turn is not None else '?'} {phase or '(phase unknown)'}"
    return f"{title}, {segment}" if segment else title


class _Walk:
    """The position as the log moves it: units and markers by piece id, the open phase."""

    def __init__(
        self, pos: GamePosition, rp: Replay, state: GameState, ctx: RuleContext, rules: TurnRules, weather: str | None
    ) -> None:
        lp, module, game = pos.pack, pos.module, pos.game
        peers = {r.name: r for r in lp.pack.rules}  # a log rule may read another rule's parameters
        self.lp, self.ctx, self.rules, self.weather = lp, replace(ctx, unmapped=(), peers=peers), rules, weather
        self.end_checks = PhaseEndChecks(lp.pack, self.ctx)
        # The log rules of the pack (its own from hooks.py too), run on each segment as it closes.
        self.log_rules = tuple(
            (r, impl) for r in lp.pack.rules if r.enabled and (impl := r.implementation or REGISTRY.lookup(r.impl)).log
        )
        self.cutting = segmenting(lp.pack)
        self.opened: Opened | None = None  # the open segment, when an opener (not a phase) began it
        self.order: list[str] = []  # the units of the open segment's drags, one entry per drag
        self.pos = pos
        # What the module shows as the log goes (the tracker, the global properties): each state
        # verify judges carries it (moment.py, N18), as the opening state does.
        self.reading, self.props = pos.opening_reading, dict(pos.opening_globals)
        self.shown_changed = False  # whether this step changed what the module shows
        self.position: Callable[[Place], Position] = pos.at
        self.units: dict[str, Unit] = dict(state.units)
        self.positions: dict[str, Position] = dict(state.positions)
        self.markers = {p.id: (p.name, pos.place(p)) for p in rp.opening if pos.unit(p) is None}
        self.rolls: list[tuple[int, int]] = []  # the open segment's die rolls: (drags before it, its step)
        self.dice: list[SegmentRoll] = []  # the open segment's rolls with their values
        self.earlier_dice: list[SegmentRoll] = []  # those of the log's closed segments (once per game: N17)
        self.ledger: list[Logged] = []  # the open segment's rolls and track changes, with their values (N19)
        self.start = state
        self.moves: dict[str, list[Drag]] = {}
        self.span: list[int] = []
        self.phases: list[PhaseRecord] = []
        self.added = 0
        self.departures = Departures(state.departures)  # 17.15 applies from the moment of an exit on
        self.map_name = lambda ident: m.name if (m := module.map_by_id(ident)) else ident
        self.trails = TrailWatch(game.root, game.path, self.map_name)
        self.box_name = lambda place: (p := self.position(place)).box or p.label or ""
        self.earlier: list[tuple[Opened, tuple[Unit, ...]]] = []  # the open phase's segments closed so far

    def marked(self) -> dict[str, tuple[Position, ...]]:
        """Where the markers are now, by name."""
        markers: dict[str, list[Position]] = {}
        for name, pos in self.markers.values():
            markers.setdefault(name, []).append(pos)
        return {k: tuple(v) for k, v in markers.items()}

    def now(self, turn: int | None, phase: str | None) -> GameState:
        return self.shown(
            GameState(self.units, self.positions, turn, phase, None, self.marked(), tuple(self.departures.found))
        )

    def shown(self, state: GameState) -> GameState:
        """`state` with what the module shows now: the composite turn, night, globals, tracks and
        the weather shown (else the pack's table), a weather given winning over both."""
        state = with_moment(state, self.lp, self.props, self.reading)
        return state if self.weather is None else replace(state, weather=self.weather)

    def event(self, e: object, step: int) -> None:
        if isinstance(e, Moved):
            to = self.position(e.to)
            if e.piece in self.units:
                self.trails.dragged(e.piece, e.origin, e.to, first=e.piece not in self.moves)
                self.moves.setdefault(e.piece, []).append((self.position(e.origin), to))
                self.order.append(e.piece)
                self.departures.moved(
                    e.piece, self.positions.get(e.piece, Position()), to, self.start.turn, self.start.phase
                )
                self.positions[e.piece] = to
                self.span.append(step)
            elif e.piece in self.markers:  # a track or the weather may be read from where it is
                self.markers[e.piece] = (self.markers[e.piece][0], to)
                self.shown_changed = True
        elif isinstance(e, PropertySet):
            self.props[e.name] = e.after
            self.shown_changed = True
        elif isinstance(e, Changed) and e.piece in self.units:
            self.units[e.piece] = changed_unit(self.units[e.piece], e, self.pos.unit)
        elif isinstance(e, DieRolled):
            self.rolls.append((len(self.order), step))
            opened = self.opened or Opened("phase")
            shown = self.shown(replace(self.start, markers=self.marked())).tracks
            self.dice.append(segment_roll(e, step, len(self.order), self.start, opened.kind, opened.side, shown))
            self.ledger.append(Logged(step, button=e.button, die=self.dice[-1].value))
        elif isinstance(e, Removed):
            self.units.pop(e.piece, None)
            self.positions.pop(e.piece, None)
            self.markers.pop(e.piece, None)
        elif isinstance(e, Added):
            got = self.pos.unit(Piece(e.piece, e.name, e.at.map, e.at.x, e.at.y, location=e.at.label))
            if isinstance(got, Unit):  # in play from now on; its moves in this phase are not checked
                self.units[got.id], self.positions[got.id] = got, self.position(e.at)
                self.added += 1
            elif got is None:
                self.markers[e.piece] = (e.name, self.position(e.at))

    def step(self, step: Step) -> None:
        """Walk one step of the log: a turn-tracker change closes the open phase, a segment opener
        (the pack's ``log.segments``) the open segment."""
        src = self.lp.pack.state
        opened = opened_by(self.cutting, step.events, self.start.phase, self.box_name)
        more = merged(self.opened.values, opened.values) if opened and self.opened else None
        if more is not None and not self.span and not self.rolls:  # one spending dragged a box at a time
            self.opened = replace(self.opened, values=more)
        elif opened is not None:
            # Every action or pass is a segment of its own, one in which nothing moved too (6.1).
            if self.span or (self.cutting.tracks is not None and self.opened is not None):
                self.close(self.start.turn, self.start.phase)
            self.opened = replace(opened, at=step.number)
        tracked = self.tracks() if self.lp.pack.extras.tracks else {}
        for e in step.events:
            if e.undo:
                continue
            if isinstance(e, TurnChanged) and e.tracker == src.tracker:
                reading = reading_of(self.pos.module, e.tracker, e.values)
                new_turn, new_phase = turn_and_phase(self.lp, reading)
                if (new_turn, new_phase) != (self.start.turn, self.start.phase):
                    self.close(new_turn, new_phase, reading)
                else:  # another level (a track on the tracker): the same phase, shown anew
                    self.reading, self.shown_changed = reading, True
            else:
                self.event(e, step.number)
        if self.shown_changed and not self.span:
            # Nothing moved yet in the open phase or segment: it is judged with what the module
            # shows as its first move is made (a track its opener changed, a weather set as it began).
            self.start = self.shown(replace(self.start, markers=self.marked()))
        if tracked and self.shown_changed:
            now = self.tracks()
            self.ledger += [Logged(step.number, k, v, now[k]) for k, v in tracked.items() if now[k] != v]
        self.shown_changed = False
        self.trails.stepped(step.number)

    def tracks(self) -> dict[str, int | None]:
        """The value of each track of the pack's [state] as the module shows it now."""
        return {k: t.value for k, t in shown_extras(self.lp, self.props, self.reading, self.marked(), [])[1].items()}

    def close(self, turn: int | None, phase: str | None, reading: TrackerReading | None = None) -> None:
        """Check the open phase and open the next one, in `turn` and `phase` (with the tracker
        showing `reading`, when it changed)."""
        start = self.start
        end = self.now(start.turn, start.phase)
        if self.opened is not None and self.cutting.tracks is not None:  # an action known by what it cost and did
            kind = self.cutting.tracks.kind(self.opened.kind, self.opened.values, bool(self.moves), bool(self.dice))
            self.opened, self.dice = replace(self.opened, kind=kind), [replace(r, kind=kind) for r in self.dice]
        words = self.opened.words if self.opened else ""
        title = _title(start.turn, start.phase, words)
        trails = {uid: self.trails.hexes(uid, self.position) for uid in self.moves if uid in self.trails.trails}
        rules = self.rules
        if (
            self.opened is not None
            and self.opened.side
            and start.phase is not None
            and start.phase not in rules.combat_phases
            and start.phase not in rules.displaced
        ):
            # The side the segment names moves in it (an action, an activation), whatever the phase's;
            # in a combat phase units are displaced, not moved, whoever's segment it is.
            rules = replace(rules, movement_phases={**rules.movement_phases, start.phase: self.opened.side})
        order, rolls = tuple(self.order), tuple(self.rolls)
        checked = check_phase(
            start, start.phase, self.moves, rules, self.ctx, end=end, trails=trails, timing=(order, rolls)
        )
        found = [replace(f, message=f"{title}: {f.message}") for f in checked.findings]
        opened, new_phase = self.opened or Opened("phase"), (turn, phase) != (start.turn, start.phase)
        movers = tuple(u for uid in self.moves if (u := start.units.get(uid)) is not None)
        segment = Segment(
            start.turn,
            start.phase,
            opened,
            start,
            end,
            self.moves,
            order,
            rolls,
            earlier=tuple(self.earlier),
            closes_phase=new_phase,
            dice=tuple(self.dice),
            earlier_dice=tuple(self.earlier_dice),
            ledger=tuple(self.ledger),
        )
        found += self.log_findings(segment, title)
        self.earlier = [] if new_phase else [*self.earlier, (opened, movers)]
        self.earlier_dice += self.dice
        # 10 "at the end of each Action Segment": a segment a side moves in ends as a movement phase does.
        found += self.end_checks.findings(end, start.phase in rules.movement_phases, title)
        steps = (min(self.span), max(self.span)) if self.span else None
        self.phases.append(PhaseRecord(start.turn, start.phase, steps, checked.moves, tuple(found), words))
        if (turn, phase) != (start.turn, start.phase):
            self.opened = None
        if reading is not None:
            self.reading = reading
        self.start, self.moves, self.span = self.now(turn, phase), {}, []
        self.trails.new_phase()
        self.order, self.rolls, self.dice, self.ledger = [], [], [], []

    def log_findings(self, segment: Segment, title: str) -> list[Finding]:
        """The findings of the pack's log rules on the closing segment."""
        found, at = [], situation(segment.start, self.lp.pack, self.ctx)
        for rule, impl in self.log_rules:
            # its `when` and the game's options: "unknown" still runs
            if rule_verdict(rule, self.ctx.scenario, at, self.ctx.options).status == "no":
                continue
            try:
                found += impl.func(segment, replace(self.ctx, rule=rule), rule.params)
            except ValueError as e:  # parameters that do not fit this board or each other
                raise PackError(f"rules.{rule.name}: {e}", Where(path=self.lp.pack.source)) from None
        return [replace(f, message=f"{title}: {f.message}") for f in found]


def verify_turn(
    module: Module,
    game: SavedGame,
    loaded_pack: LoadedPack | str,
    replay: Replay,
    *,
    terrain: str | Path | None = None,
    turn: int | None = None,
    phase: str | None = None,
    weather: str | None = None,
    scenario: str | None = None,
    on_step: StepCallback | None = None,
    position: GamePosition | None = None,
) -> Verification:
    """Every move of the log `game` (replayed as `replay`) judged by `loaded_pack` (a
    LoadedPack, or a pack id, alias or directory), with the end-of-phase checks; `terrain`
    replaces the pack's terrain file; `turn` and `phase` are those the log opens in (default:
    the pack's turn tracker), `weather` that of every phase (default: the pack's weather
    table), `scenario` the pack's scenario (`game_state`'s). Raises PackError for a pack that
    does not fit the board, UsageError (from `game_state`) for a pack with no units file, and
    when the tracker the pack names does not tell the opening turn or phase and none is given.
    `on_step(done, total)` is told how far the walk of the steps is (pbem.replay.STEPS_PER_CALL).
    `position`: the game already resolved (position.py) for this module and pack."""
    lp = loaded_pack if isinstance(loaded_pack, LoadedPack) else find_pack(str(loaded_pack))
    if position is not None:
        assert position.fits(module, game, lp), "a position resolved for another module, save or pack"
    pos = position if position is not None else resolve(module, game, lp)
    turn, phase, opened = log_opening(pos, turn, phase)
    if weather is not None:
        opened.append(f"weather {weather}: given, for every phase of the log")
    state, ctx, unmapped = state_of(
        pos, turn=turn, phase=phase, weather=weather, terrain=terrain, scenario=scenario, opening=True
    )
    try:
        rules = turn_rules(lp.pack, ctx)
        segmenting(lp.pack)
    except ValueError as e:
        raise PackError(str(e), Where(path=lp.pack.source)) from None
    walk = _Walk(pos, replay, state, ctx, rules, weather)
    total = len(replay.steps)
    for done, step in enumerate(replay.steps, 1):
        if not step.undo and step.undone_in is None:  # an undone move is no move: never judged
            walk.step(step)
        if on_step is not None and (done % STEPS_PER_CALL == 0 or done == total):
            on_step(done, total)
    if walk.span or not walk.phases:  # a phase the log only opens has not been played: nothing to check
        walk.close(walk.start.turn, walk.start.phase)
    notes = [*opened, *ctx.notes, *replay.problems]
    if walk.added:
        notes.append(
            f"{walk.added} unit(s) added to the game during the log: their moves in the phase they "
            "were added in are not checked"
        )
    findings = [*unmapped_findings(lp.id, unmapped), *(f for p in walk.phases for f in p.findings)]
    return Verification(lp.id, tuple(findings), tuple(walk.phases), tuple(notes))
