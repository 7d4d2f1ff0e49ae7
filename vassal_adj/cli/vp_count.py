"""What `vassal-adj vp` counts over a game's files: every position they pass through, and the
tally of the pack's victory rule over them (cli/vp.py shows it; a batch, batch/worker.py, takes
the total from the files `verify` has already read and replayed).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import pairwise

from vassal_adj import packs as packs_io
from vassal_adj.errors import PackError, UsageError, Where
from vassal_adj.load import same_module
from vassal_adj.model.events import Replay
from vassal_adj.model.module import Module
from vassal_adj.model.state import GameState
from vassal_adj.parse.log_contains import contained
from vassal_adj.pbem.log_state import LogHistory, log_history
from vassal_adj.pbem.replay import replay
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.victory import Tally
from vassal_adj.rules.mechanisms.victory_rules import vp_tally
from vassal_adj.rules.packs.pack import RuleConfig
from vassal_adj.savedgame import SavedGame

__all__ = ["IMPL", "Count", "count_files", "tally", "victory_rule"]

IMPL = "victory.points"


def victory_rule(lp: packs_io.LoadedPack, rules: tuple[RuleConfig, ...]) -> RuleConfig:
    """The victory rule among `rules` (the pack's, or its scenario's with the scenario's assumptions)."""
    found = [r for r in rules if r.impl == IMPL and r.enabled]
    if not found:
        raise UsageError(
            f"pack {lp.id!r} has no enabled rule with impl = {IMPL!r}: it counts no victory points",
            Where(path=lp.pack.source),
        )
    return found[0]


@dataclass(frozen=True)
class Count:
    """Every position the files pass through, in order, and what the reader should know."""

    states: list[GameState]
    file_of: list[int]  # the file of each state
    context: RuleContext
    notes: list[str]
    rules: tuple[RuleConfig, ...]  # the scenario's rules when it has its own, else the pack's
    turns: list[int]  # each state's turn
    file_turns: list[int]  # each file's turn (its last state's)
    own: list[bool]  # whether each file's turn was its own


def _turns(
    states: list[GameState], file_of: list[int], files: int, first_turn: int
) -> tuple[list[int], list[int], list[bool], list[str]]:
    """Each state's turn (its own, else its file's place in the order given), each file's turn
    (its last state's), whether each file's turn was its own, and what the reader should know."""
    turns = [s.turn if s.turn is not None else first_turn + f for s, f in zip(states, file_of, strict=True)]
    last = {f: i for i, f in enumerate(file_of)}
    file_turns = [turns[last[f]] for f in range(files)]
    own = [states[last[f]].turn is not None for f in range(files)]
    notes = []
    if not all(own):
        notes.append(
            f"{own.count(False)} file(s) carry no turn: each is taken as turn {first_turn} plus its place "
            "in the order given (--first-turn sets the start), so give them oldest first, one per turn"
        )
    if any(b < a for a, b in pairwise(turns)):
        notes.append("the files are not in turn order: events are dated by the order given")
    return turns, file_turns, own, notes


def count_files(
    module: Module,
    module_path: str,
    lp: packs_io.LoadedPack,
    paths: list[str],
    games: list[SavedGame],
    *,
    terrain: str | None = None,
    scenario: str | None = None,
    first_turn: int = 1,
    replays: list[Replay] | None = None,
    histories: list[LogHistory] | None = None,
) -> Count:
    """The positions of `games` (read from `paths`, oldest first). A log that contains an earlier
    log given (replayed and played on) adds only its steps after that log's. `replays` and
    `histories`: per file, as `verify` already replayed them and, given no turn, phase or weather,
    worked out their positions (cli/verify_run.py)."""
    states: list[GameState] = []
    file_of: list[int] = []
    context: RuleContext | None = None
    saved_with: list[str] = []  # notes on the module each file was saved with
    logs: list[tuple[str, Replay]] = []  # the logs so far, as replayed, for what a later log contains
    continued: list[str] = []  # the logs that contain an earlier one, in words
    for n, (path, game) in enumerate(zip(paths, games, strict=True)):
        saved_with += same_module(game, module, module_path)
        found = None
        if game.is_log:
            rp = replays[n] if replays is not None else replay(game.root, module, game.path)
            found = contained(rp, logs)
            logs.append((path, rp))
        if found is not None:
            continued.append(
                f"{path} contains {found[0]} (the same opening and its {found[2]} step(s)) and continues: "
                f"only its steps after those count, from where {found[0]} ends"
            )
        after = found[2] if found is not None else 0
        history = (
            histories[n]
            if histories is not None
            else log_history(module, game, lp, terrain=terrain, scenario=scenario, after_step=after)
        )
        states += history.states
        file_of += [n] * len(history.states)
        context = context or history.context
    assert context is not None
    in_use = context.scenario.rule_configs if context.scenario is not None and context.scenario.rule_configs else None
    turns, file_turns, own, notes = _turns(states, file_of, len(games), first_turn)
    # vp takes its turns from the files and their order: notes asking for --turn and the like
    # (the state builder's, written for `check`) do not apply here.
    asks = ("--turn", "--phase", "--weather")
    told = [n for n in context.notes if not any(a in n for a in asks)]
    notes = list(dict.fromkeys([*saved_with, *continued, *told, *notes]))
    return Count(states, file_of, context, notes, in_use or lp.pack.rules, turns, file_turns, own)


def tally(count: Count, lp: packs_io.LoadedPack, final: bool = False) -> tuple[Tally, RuleContext]:
    """The victory rule's tally over every position counted, and its context (for its citation)."""
    rule = victory_rule(lp, count.rules)
    rctx = replace(count.context, rule=rule)
    try:
        return vp_tally(count.states, rctx, rule.params, turns=count.turns, final=final), rctx
    except ValueError as e:  # parameters that do not fit this board, as the engine reports them
        raise PackError(f"rules.{rule.name}: {e}", Where(path=lp.pack.source)) from None
