"""Dice and undo audit of a game's logs: the rolls per player in order, undone rolls and what
came next, logs restarted from an earlier log's opening position, and a fairness test.

Facts, not accusations: every finding says what the files show ("roll 3 (2d6 = 7) was undone
in step 6; the next roll of that button was 11"), never what a player meant; the next roll is
that of the same button by the same player after the undo, and when the steps after the undo
repeat the undone ones exactly it is a replay, not a reroll (undo_pairs.py). Undos are known
by the replay's undo steps (VASSAL 3.6.7+ brackets them ``UNDO true``/``UNDO false``) and, in
older logs that hold only the inverse commands, by what they take back: the inverse of a roll
repeats its report after ``* UNDO: ``.

Rolls come from the replay's Dice Button rolls and, through a `Reader` (the parse layer's
`dice_reports.ReportReader`), from chat reports written with a dice button's report format;
the reader also gives a roll's player and die size. A pack's chat dice patterns (`pack_dice`)
read the reports no dice button's format describes, symbol dice among them; report lines that
still look like dice reports (`looks_like_dice`) are counted, so a reader's blind spot shows.
The statistics and fairness tests are in dice_stats.py and dice_tests.py.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from vassal_adj.model.events import ChatLine, DieRolled, Event, Moved, Replay, Step
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.tokens import parse_int
from vassal_adj.pbem.dice_stats import ButtonTally, DiceStats, dice_stats
from vassal_adj.pbem.dice_tests import chi2_sf, upper_gamma_q
from vassal_adj.pbem.rolls import Roll
from vassal_adj.pbem.undo_pairs import pair_undone, replayed_steps
from vassal_adj.rules.packs.pack_dice import ChatDice
from vassal_adj.rules.results import Finding, Severity

__all__ = ["Audit", "DiceStats", "Reader", "Reading", "Roll", "audit", "chi2_sf", "looks_like_dice", "upper_gamma_q"]

UNDO_REROLL, UNDO, RESTART, UNREAD = "audit:undo-reroll", "audit:undo", "audit:restart", "audit:dice-unread"
HEURISTIC = " [heuristic: read from a labelled-roll chat line '*** (Label) 6,6 ***']"
_SHOWN = 12  # rolls listed in a restart finding
_TAG = re.compile(r"<[^>]*>")
_NOTATION = re.compile(r"\b\d*d\d+\b", re.IGNORECASE)  # 2d6, d10
_DIE_WORD = re.compile(r"\b(?:roll|rolls|rolled|dice|die)\b", re.IGNORECASE)


def looks_like_dice(text: str) -> bool:
    """Whether a report line (written by the module, not typed by a player) looks like a die
    roll: with HTML tags removed, it holds dice notation (``2d6``, ``d10``), or a die word
    (roll, rolls, rolled, dice, die) and a digit. Conservative: a line that names a die
    without a number, or a player's own chat, is not counted.

    >>> looks_like_dice("<img src=inf.png width=30> [ Bob rolls 1 die: INFx1 ] *"), looks_like_dice("Bob ends turn")
    (True, False)
    """
    plain = _TAG.sub("", text)
    return bool(_NOTATION.search(plain) or (_DIE_WORD.search(plain) and re.search(r"\d", plain)))


class Reading(Protocol):
    """What a reader gets from a report (`parse.dice_reports.ReportRoll` is one)."""

    @property
    def button(self) -> str: ...
    @property
    def result(self) -> str: ...
    @property
    def dice(self) -> tuple[int, ...]: ...
    @property
    def sides(self) -> int | None: ...
    @property
    def total(self) -> int | None: ...
    @property
    def player(self) -> str | None: ...
    @property
    def heuristic(self) -> bool: ...


Reader = Callable[[str], Reading | None]


@dataclass(frozen=True)
class Audit:
    """What `audit` finds: every roll in game order, the findings, the per-player statistics,
    the rolls per button, and per file the report lines that look like dice but were not read
    (file, how many, the first)."""

    rolls: tuple[Roll, ...]
    findings: tuple[Finding, ...]
    stats: tuple[DiceStats, ...]
    buttons: tuple[ButtonTally, ...] = ()
    unread: tuple[tuple[str, int, str], ...] = ()

    def by_player(self) -> dict[str, tuple[Roll, ...]]:
        """Each player's rolls in game order ("unknown" for rolls no player is known for)."""
        out: dict[str, list[Roll]] = defaultdict(list)
        for r in self.rolls:
            out[r.player].append(r)
        return {k: tuple(v) for k, v in out.items()}


def _key(report: str) -> str:
    # A roll's message keeps the "*" marker its chat body drops; an undo repeats the message.
    return report.lstrip("* ").strip()


def _inverse(e: Event) -> tuple[bool, str | None]:
    """Whether `e` takes back a roll or a report, and the report it repeats (None: unknown)."""
    if isinstance(e, DieRolled) and (e.undo or (e.report or "").startswith("* UNDO: ")):
        report = e.report or ""
        return True, _key(report[len("* UNDO: ") :]) if report.startswith("* UNDO: ") else None
    if isinstance(e, ChatLine) and e.report and e.text.startswith("UNDO: "):
        return True, _key(e.text[len("UNDO: ") :])
    return False, None


def _actor(step: Step) -> str | None:
    """The player a step shows: a chat line's speaker or a mover."""
    for e in step.events:
        if isinstance(e, ChatLine) and e.speaker:
            return e.speaker
        if isinstance(e, Moved) and e.player:
            return e.player
    return None


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in text.replace(" ", "").split(","))
    except ValueError:  # face texts of special dice, or no dice at all
        return ()


def _roll(e: Event, reader: Reader | None, who: str | None, path: str, chat_dice: Sequence[ChatDice]) -> Roll | None:
    if isinstance(e, DieRolled):
        reading = reader(e.report) if reader and e.report else None
        if e.special:  # SHOW_RESULTS holds each die's face index from 0
            dice, sides = tuple(v + 1 for v in _ints(e.result)), reading.sides if reading else None
        elif reading is not None:
            dice, sides = reading.dice, reading.sides
        else:
            dice, sides = _ints(e.result), None
        total = (
            n
            if e.total and (n := parse_int(e.total)) is not None
            else (reading.total if reading else sum(dice) if dice and not e.special else None)
        )
        player = (reading.player if reading else None) or who or "unknown"
        return Roll(
            0,
            path,
            e.step,
            e.command,
            e.button,
            e.result,
            total,
            player,
            dice,
            sides,
            e.report,
            bool(reading and reading.heuristic),
        )
    if isinstance(e, ChatLine) and e.report:
        for pattern in chat_dice:
            c = pattern.read(e.text)
            if c is not None:
                return Roll(
                    0,
                    path,
                    e.step,
                    e.command,
                    c.button,
                    c.result,
                    c.total,
                    c.player or who or "unknown",
                    c.dice,
                    c.sides,
                    e.text,
                    symbols=c.symbols,
                    faces=c.faces,
                )
    if isinstance(e, ChatLine) and e.report and reader is not None:
        got = reader(e.text)
        if got is not None:
            return Roll(
                0,
                path,
                e.step,
                e.command,
                got.button,
                got.result,
                got.total,
                got.player or who or "unknown",
                got.dice,
                got.sides,
                e.text,
                got.heuristic,
            )
    return None


def _file_rolls(
    path: str, rp: Replay, reader: Reader | None, chat_dice: Sequence[ChatDice]
) -> tuple[list[Roll], list[tuple[Step, list[int]]], list[str]]:
    """A log's rolls (numbered 0, `undone_in` set), its undo steps with the rolls each took back,
    and its report lines (HTML tags removed) that look like dice but were read as no roll."""
    rolls: list[Roll] = []
    undos: list[tuple[Step, list[int]]] = []
    unread: list[str] = []

    def take(k: int, step: Step, taken: list[int]) -> None:
        rolls[k] = replace(rolls[k], undone_in=step.number)
        taken.append(k)

    for step in rp.steps:
        who, taken = _actor(step), []
        for e in step.events:
            inverse, key = _inverse(e)
            if inverse:
                k = next(
                    (
                        k
                        for k in range(len(rolls) - 1, -1, -1)
                        if rolls[k].undone_in is None and key is not None and _key(rolls[k].report or "") == key
                    ),
                    None,
                )
                if k is not None:
                    take(k, step, taken)
            elif not e.undo:  # other commands inside an undo are inverses, not new rolls
                roll = _roll(e, reader, who, path, chat_dice)
                rolls += [roll] if roll else []
                if roll is None and isinstance(e, ChatLine) and e.report and looks_like_dice(e.text):
                    unread.append(_TAG.sub("", e.text).strip())
        if step.undo and step.undoes is not None and not taken:  # no inverse report told which roll
            for k, r in enumerate(rolls):
                if r.step == step.undoes and r.undone_in is None:
                    take(k, step, taken)
        if step.undo or taken:
            undos.append((step, taken))
    return rolls, undos, unread


def _undo_findings(path: str, rolls: list[Roll], undos: list[tuple[Step, list[int]]]) -> list[Finding]:
    out = []
    for step, taken in undos:
        if not taken:
            what = f"undoes step {step.undoes}, which rolled no dice" if step.undoes else "is an undo of no die roll"
            out.append(Finding(UNDO, Severity.INFO, f"{path}: step {step.number} {what}"))
            continue
        for k in sorted(taken):
            r = rolls[k]
            head = (
                f"{path}: roll {r.number} ({r.shown}) by {r.player} in step {r.step} was undone in step {step.number}"
            )
            nxt = next((n for n in rolls if n.number == r.replaced_by), None)
            note = HEURISTIC if r.heuristic or (nxt and nxt.heuristic) else ""
            if nxt is None:
                out.append(Finding(UNDO, Severity.INFO, f"{head}; that button was not rolled again in this file{note}"))
                continue
            if r.replayed:
                out.append(
                    Finding(
                        UNDO,
                        Severity.INFO,
                        f"{head}; the steps after the undo replayed the same actions: "
                        f"roll {nxt.number} in step {nxt.step} was {nxt.value} again{note}",
                    )
                )
                continue
            out.append(
                Finding(
                    UNDO_REROLL,
                    Severity.WARNING,
                    f"{head}; the next roll of that button, roll "
                    f"{nxt.number} by {nxt.player} in step {nxt.step}, was {nxt.value}{note}",
                )
            )
    return out


def _fingerprint(opening: Sequence[Piece]) -> frozenset[tuple[object, ...]]:
    return frozenset((p.id, p.map, p.x, p.y, p.name, tuple(sorted(p.properties.items())), p.concealed) for p in opening)


def _listed(rolls: Sequence[Roll]) -> str:
    if not rolls:
        return "no dice"
    more = f" and {len(rolls) - _SHOWN} more" if len(rolls) > _SHOWN else ""
    return ", ".join(r.value for r in rolls[:_SHOWN]) + more


def _restart_findings(files: Sequence[tuple[str, Replay]], per_file: list[list[Roll]]) -> list[Finding]:
    """Logs that start from the same position as an earlier log of the game."""
    out = []
    first: dict[frozenset[tuple[object, ...]], int] = {}
    for i, (path, rp) in enumerate(files):
        if not rp.steps or not rp.opening:  # a save, or a log of nothing: nothing was replayed
            continue
        j = first.setdefault(_fingerprint(rp.opening), i)
        if j == i:
            continue
        before, now = per_file[j], per_file[i]
        same = [r.value for r in before] == [r.value for r in now]
        msg = (
            f"files {j + 1} ({files[j][0]}) and {i + 1} ({path}) start from the same position "
            f"({len(rp.opening)} piece(s)); "
        )
        msg += (
            f"both rolled {_listed(now)}"
            if same
            else f"file {j + 1} rolled {_listed(before)}; file {i + 1} rolled {_listed(now)}"
        )
        msg += HEURISTIC if any(r.heuristic for r in (*before, *now)) else ""
        severity = Severity.WARNING if before and not same else Severity.INFO
        out.append(Finding(RESTART, severity, msg))
    return out


def audit(
    files: Sequence[tuple[str, Replay]], reader: Reader | None = None, chat_dice: Sequence[ChatDice] = ()
) -> Audit:
    """Audit a game's files in game order (name, replay); saves give replays without steps.

    `reader` reads rolls from chat reports and a roll's player and die size from its report
    (`parse.dice_reports.report_reader(module)`); without it only Dice Button rolls count,
    their players come from the step (a chat speaker, a mover) and die sizes are unknown.
    `chat_dice` are the pack's patterns (`RulePack.dice`), tried on report lines first.
    """
    rolls: list[Roll] = []
    per_file: list[list[Roll]] = []
    findings: list[Finding] = []
    unread: list[tuple[str, int, str]] = []
    for path, rp in files:
        found, undos, missed = _file_rolls(path, rp, reader, chat_dice)
        found = [replace(r, number=len(rolls) + n) for n, r in enumerate(found, 1)]
        found = pair_undone(found, replayed_steps(rp, found))
        rolls += found
        per_file.append(found)
        findings += _undo_findings(path, found, undos)
        if missed:
            unread.append((path, len(missed), missed[0]))
            findings.append(
                Finding(
                    UNREAD,
                    Severity.INFO,
                    f"{path}: {len(missed)} chat line(s) look like dice reports "
                    f"and were not read, e.g. {missed[0]!r} (not counted in the dice statistics; "
                    f"a pack can declare their pattern, [[dice.chat]])",
                )
            )
    findings += _restart_findings(files, per_file)
    stats, stat_findings, buttons = dice_stats(rolls)
    return Audit(tuple(rolls), tuple(findings + stat_findings), tuple(stats), tuple(buttons), tuple(unread))
