"""What `vassal-adj verify` finds in a game's files, worked out once and shown in any format.

cli/verify.py checks the options and prints one format; a batch (batch/worker.py) shows one
verification as JSON for its summary and as Markdown for the game's own report, and takes its
victory points, without judging the files twice. See cli/verify.py for what is judged.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from re import Pattern
from typing import Any

from vassal_adj import packs as packs_io
from vassal_adj.cli.hiding import disguised, scrub, unit_of, view_notes
from vassal_adj.cli.verify_vp import VpChange, vp_change
from vassal_adj.errors import UsageError, Where
from vassal_adj.load import load_module, load_save, same_module
from vassal_adj.model.events import Replay, diff_pieces
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.viewpoint import view_replay, visibility
from vassal_adj.parse.dice_reports import report_reader
from vassal_adj.parse.log_contains import contained, continuation
from vassal_adj.pbem.audit import Audit, audit
from vassal_adj.pbem.continuity import contains_finding, continuity_finding, judged_once
from vassal_adj.pbem.log_state import LogHistory, log_history
from vassal_adj.pbem.replay import opening_differences, replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.position import GamePosition, resolve
from vassal_adj.report.describe import REDACTED, SCHEMA_VERSION, redactor
from vassal_adj.report.markup import STYLES
from vassal_adj.report.verify_steps import Section
from vassal_adj.report.verify_text import VerifyView, verify_text
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.turn import MoveCheck
from vassal_adj.savedgame import SavedGame

__all__ = ["Judged", "Verified", "judge_files", "prepare"]


@dataclass(frozen=True)
class Judged:
    """How the files are judged: the options of `verify` that change what is found."""

    module: Module | None
    module_path: str | None
    lp: packs_io.LoadedPack | None
    scenario: str | None = None
    terrain: str | None = None
    turn: int | None = None
    phase: str | None = None
    weather: str | None = None
    side: str | None = None  # --as SIDE: what a player of that side sees; None: the referee's view


@dataclass
class Verified:
    """One verification of `files` (their games, in order), ready to be shown in any format."""

    files: tuple[str, ...]
    games: list[SavedGame]
    how: Judged
    notes: list[str]
    sections: list[Section]
    findings: list[Finding]  # the verdict: the moves' findings, then continuity, then the dice's
    checked: Audit
    moves: list[MoveCheck]
    verdicts: dict[str, Verification]  # file -> the pack's checks of its moves
    hidden: dict[str, str]  # piece id -> how --as SIDE sees it, when not in full
    positions: list[GamePosition | None]
    replays: list[Replay]
    repeated: list[int]  # per file, the steps it repeats of a log it contains
    left_out: int  # findings about pieces the side may not see
    pattern: Pattern[str] | None = field(repr=False)  # the games' passwords, to mask

    @property
    def concealed(self) -> int:
        return sum(s.concealed() for s in self.sections) if self.how.side is None else 0

    def verdict(self, errors_only: bool) -> list[Finding]:
        return [f for f in self.findings if f.severity != Severity.INFO] if errors_only else self.findings

    @cached_property
    def histories(self) -> list[LogHistory]:
        """Every position each file passes through, as `vp` counts them (pbem/log_state.py): a log
        that contains an earlier one from where that one ends. Only with a pack."""
        how = self.how
        assert how.module is not None and how.lp is not None
        return [
            log_history(
                how.module,
                game,
                how.lp,
                turn=how.turn,
                phase=how.phase,
                weather=how.weather,
                terrain=how.terrain,
                after_step=after,
                scenario=how.scenario,
                position=pos,
                replayed=rp,
            )
            for game, after, pos, rp in zip(self.games, self.repeated, self.positions, self.replays, strict=True)
        ]

    @cached_property
    def vp(self) -> VpChange | None:
        """The VP at the start of the first file and the end of the last (None: the pack counts none,
        or --as: the VP tell where every unit is, not for a side that may not see them all)."""
        how = self.how
        if how.lp is None or how.module is None or how.side is not None:
            return None
        return vp_change(how.lp, self.histories)

    def data(self, errors_only: bool = False) -> Any:
        """The JSON report (plain data), passwords masked."""
        how = self.how
        return scrub(
            {
                "schema_version": SCHEMA_VERSION,
                "module": how.module.name if how.module else None,
                "pack": how.lp.id if how.lp else None,
                "referee_view": how.side is None,
                "as_side": how.side,
                "hidden_pieces_shown": self.concealed,
                "findings_left_out": self.left_out,
                "notes": self.notes,
                "files": [s.data() for s in self.sections],
                "rolls": [{**asdict(r), "shown": r.shown} for r in self.checked.rolls],
                "dice_stats": [{**asdict(d), "reading": d.reading()} for d in self.checked.stats],
                "findings": [
                    {
                        "rule": f.rule,
                        "severity": f.severity.value,
                        "message": f.message,
                        "units": list(f.units),
                        "hexes": list(f.hexes),
                    }
                    for f in self.verdict(errors_only)
                ],
            },
            self.pattern,
        )

    def text(self, fmt: str, *, verbose: bool = False, errors_only: bool = False, summary: bool = False) -> str:
        """The report in a text format (report/markup.py STYLES: text, markdown, bbcode), the verdict first."""
        how = self.how
        what = f"module {how.module.name!r}" if how.module else "no module: places are map pixels"
        title = f"verify ({what})" + (f", pack {how.lp.id!r}" if how.lp else "")
        title += f", as {how.side} sees it" if how.side else ""
        vp = self.vp.lines if self.vp is not None and not errors_only else []
        notes = [*self.notes, *view_notes(how.side, self.concealed, self.left_out)]
        view = VerifyView(title, self.sections, self.verdict(errors_only), self.checked, self.moves, vp, notes=notes)
        style = STYLES[fmt]
        if self.pattern is not None:  # before escaping, which could split a secret
            style = replace(style, esc=lambda t, esc=style.esc: esc(self.pattern.sub(REDACTED, t)))  # type: ignore[union-attr]
        return scrub(verify_text(view, style, verbose=verbose, errors_only=errors_only, summary=summary), self.pattern)


def prepare(
    files: tuple[str, ...],
    module_path: str | None,
    pack_name: str | None,
    no_rules: bool = False,
    options: tuple[str, ...] = (),
    scenario: str | None = None,
    terrain: str | None = None,
    turn: int | None = None,
    phase: str | None = None,
    weather: str | None = None,
    side: str | None = None,
    games: list[SavedGame] | None = None,
) -> tuple[Judged, list[SavedGame], list[str]]:
    """The module, the pack that judges (--pack, else the one that fits the module) and the games,
    read and checked to belong together; with what the reader should know of them. `games`: the
    files already read (a batch reads each once)."""
    module = load_module(module_path) if module_path else None
    given = {"--terrain": terrain, "--turn": turn, "--phase": phase, "--weather": weather}
    lp, notes = _judge(module, pack_name, no_rules, [k for k, v in given.items() if v is not None])
    if lp is not None:
        lp = replace(lp, options_given=options)
    games = games if games is not None else [load_save(f) for f in files]
    if module is not None and module_path is not None:
        notes += [n for g in games for n in same_module(g, module, module_path)]
    if len(games) == 1 and not games[0].is_log:
        raise UsageError(
            "a saved game holds no moves: give its log (.vlog), or two saves in game order", Where(path=files[0])
        )
    if side is not None:
        known = set(module.sides) if module else set()
        if known and side not in known:
            raise UsageError(f"--as {side!r}: the module's sides are {', '.join(sorted(known))}")
    return Judged(module, module_path, lp, scenario, terrain, turn, phase, weather, side), games, notes


def _judge(
    module: Module | None, pack_name: str | None, no_rules: bool, given: list[str]
) -> tuple[packs_io.LoadedPack | None, list[str]]:
    """The pack that judges the moves (--pack, else the one that fits the module) and what the
    reader should know about it; None with --no-rules, without a module, or when none fits."""
    if no_rules and (pack_name or given):
        raise UsageError(
            f"--no-rules judges no move: {', '.join([*(['--pack'] if pack_name else []), *given])} "
            "would have nothing to do"
        )
    if module is None:
        if pack_name or given:
            raise UsageError(
                "--pack, --terrain, --turn, --phase and --weather need --module: moves are judged on its map"
            )
        return None, []
    if no_rules:
        return None, []
    lp = (
        packs_io.pack_for(pack_name, module.name, module.version)
        if pack_name
        else packs_io.find_pack_for_module(module.name, module.version)
    )
    if lp is None:
        if given:
            raise UsageError(f"{', '.join(given)}: no rule pack fits module {module.name!r}; name one with --pack")
        why = f"no rule pack fits module {module.name!r} version {module.version!r}"
        return None, [f"{why}: the moves are listed, not judged (name a pack with --pack)"]
    return lp, []


def judge_files(files: tuple[str, ...], games: list[SavedGame], how: Judged, notes: list[str], say: Any) -> Verified:
    """Replay every file in order, judge each log's moves with the pack, and audit the dice.
    `say`: where progress goes (cli/output.working)."""
    module, lp, side = how.module, how.lp, how.side
    sections: list[Section] = []
    findings: list[Finding] = []
    previous: tuple[str, tuple[Piece, ...]] | None = None
    hidden: dict[str, str] = {}
    moves_checked: list[Finding] = []
    verdicts: dict[str, Verification] = {}
    moves: list[MoveCheck] = []
    logs: list[tuple[str, Replay]] = []  # the logs so far, as replayed, for what a later log contains
    repeated: list[int] = []
    superseded: list[Replay] = []  # the logs a later log contains, as replayed (a file may be given twice)
    dice: list[tuple[str, Replay, Replay]] = []  # each file, what the dice audit reads of it, its replay
    # Each file resolved once for the pack (maps placed, pieces labelled): its moves, VP and page share it.
    positions = [resolve(module, g, lp) if lp is not None and module is not None else None for g in games]
    for number, (path, game) in enumerate(zip(files, games, strict=True), 1):
        at = f"verify: {'log' if game.is_log else 'save'} {number}/{len(files)}"
        say(at)
        pos = positions[number - 1]
        rp = replay(
            game.root,
            module,
            game.path,
            label=pos.label if pos is not None else None,
            on_step=lambda done, total, at=at: say(f"{at}, step {done}/{total} replayed"),
        )
        found = contained(rp, logs) if game.is_log else None
        logs.append((path, rp))
        repeated.append(found[2] if found else 0)
        if lp is not None and module is not None and game.is_log:
            v = verify_turn(
                module,
                game,
                lp,
                rp,
                terrain=how.terrain,
                turn=how.turn,
                phase=how.phase,
                weather=how.weather,
                scenario=how.scenario,
                position=pos,
                on_step=lambda done, total, at=at: say(f"{at}, step {done}/{total} judged"),
            )
            if found is not None:
                v = judged_once(v, found[2], verdicts[found[0]].findings, verdicts[found[0]].moves)
            verdicts[path] = v
            moves_checked += v.findings
            moves += v.moves
            notes += [f"{path}: {n}" for n in v.notes if n not in rp.problems]  # the problems are in its section
        whole = read = rp
        if found is not None:
            findings.append(contains_finding(path, found, len(rp.steps)))
            superseded.append(found[1])
            rp = continuation(rp, found)
        if side is not None:
            units = pos.unit if pos is not None and unit_of(lp) is not None else unit_of(lp)  # mapped once
            masked = disguised((*rp.opening, *rp.final), units, side)
            hidden.update(
                (p.id, v) for p in (*rp.opening, *rp.final) if (v := visibility(p.concealed, p.seen_by, side)) != "full"
            )
            hidden.update(dict.fromkeys(masked, "masked"))
            rp = view_replay(rp, side, masked)
            whole = view_replay(whole, side, masked) if found is not None else rp
        # The dice audit reads a log that contains another whole (an undo may take back a
        # repeated roll), and the log it contains not at all: each roll counts once.
        dice.append((path, whole, read))
        changes = None
        if previous is not None and game.is_log:
            if differ := opening_differences(previous[1], rp.opening):
                findings.append(continuity_finding(differ, previous[0], path))
        elif previous is not None:
            changes = diff_pieces(previous[1], rp.final)
        sections.append(Section(path, game.is_log, rp, changes))
        previous = (path, rp.final)
    checked = audit(
        [(path, rp) for path, rp, read in dice if not any(read is s for s in superseded)],
        reader=report_reader(module),
        chat_dice=lp.pack.dice if lp else (),
    )
    for sec in sections:  # the step listing shows each roll with its roller, as the audit read it
        sec.rolls = [r for r in checked.rolls if r.file == sec.path]
    # A finding about a piece the side may not see would tell them what it is or where it went.
    kept = [f for f in moves_checked if not hidden.keys() & set(f.units)]
    return Verified(
        files=files,
        games=games,
        how=how,
        notes=notes,
        sections=sections,
        findings=kept + findings + list(checked.findings),
        checked=checked,
        moves=[m for m in moves if m.unit not in hidden],
        verdicts=verdicts,
        hidden=hidden,
        positions=positions,
        replays=[rp for _, rp in logs],
        repeated=repeated,
        left_out=len(moves_checked) - len(kept),
        pattern=redactor(set().union(*(g.secrets() for g in games))),
    )
