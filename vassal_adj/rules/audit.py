"""Dice and undo audit of a game's logs: the rolls per player in order, undone rolls and what
came next, logs restarted from an earlier log's opening position, and a fairness test.

Facts, not accusations: every finding says what the files show ("roll 3 (2d6 = 7) was undone
in step 6; the next roll of that button was 11"), never what a player meant. Undos are known
by the replay's undo steps (VASSAL 3.6.7+ brackets them ``UNDO true``/``UNDO false``) and, in
older logs that hold only the inverse commands, by what they take back: the inverse of a roll
repeats its report after ``* UNDO: ``.

Rolls come from the replay's Dice Button rolls and, through a `Reader` (the parse layer's
`dice_reports.ReportReader`), from chat reports written with a dice button's report format;
the reader also gives a roll's player and die size.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from vassal_adj.model.events import ChatLine, DieRolled, Event, Moved, Replay, Step
from vassal_adj.model.pieces import Piece

from .results import Finding, Severity

__all__ = ["Audit", "DiceStats", "Reader", "Reading", "Roll", "audit", "chi2_sf", "upper_gamma_q"]

UNDO_REROLL, UNDO, RESTART, STATS = "audit:undo-reroll", "audit:undo", "audit:restart", "audit:dice-stats"
LEVEL = 0.01  # significance level of the fairness test
MIN_EXPECTED = 5  # the chi-square approximation needs about 5 expected per face
HEURISTIC = " [heuristic: read from a VASL-style chat line]"
_SHOWN = 12  # rolls listed in a restart finding


def upper_gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), a > 0.

    A series for P = 1 - Q where it converges fast (x < a + 1), else a continued fraction
    (modified Lentz), as in Numerical Recipes §6.2.

    >>> round(upper_gamma_q(1.0, 1.0), 6)  # Q(1, x) = exp(-x)
    0.367879
    """
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        n, term, total = a, 1.0 / a, 1.0 / a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d, h = 1 / tiny, 1 / b, 1 / b
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom.

    >>> round(chi2_sf(3.84, 1), 3)
    0.05
    """
    return upper_gamma_q(df / 2, x / 2)


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
class Roll:
    """One die roll: `number` counts the game's rolls from 1 in file and step order; `dice`
    are face numbers 1..`sides` (empty when only a total is known); `undone_in` is the step
    of the undo that took it back, if any."""

    number: int
    file: str
    step: int
    command: int
    button: str
    result: str
    total: int | None
    player: str
    dice: tuple[int, ...] = ()
    sides: int | None = None
    report: str | None = None
    heuristic: bool = False
    undone_in: int | None = None

    @property
    def value(self) -> str:
        """The roll as a player reads it: the total, with the dice when there are several."""
        if self.total is None or self.result == str(self.total):
            return self.result
        return f"{self.total} [{self.result}]"

    @property
    def shown(self) -> str:
        return f"{self.button} = {self.value}"


@dataclass(frozen=True)
class DiceStats:
    """One player's dice of one size over the game (undone rolls left out): faces counted,
    and the chi-square test against a fair die (None when a face expects under 5)."""

    player: str
    sides: int
    counts: tuple[int, ...]  # per face 1..sides
    rolls: int
    heuristic: int = 0  # rolls read by the VASL fallback
    chi2: float | None = None
    p: float | None = None

    @property
    def dice(self) -> int:
        return sum(self.counts)

    @property
    def mean(self) -> float:
        return sum(f * c for f, c in enumerate(self.counts, 1)) / self.dice

    @property
    def fair_mean(self) -> float:
        return (self.sides + 1) / 2

    @property
    def expected(self) -> float:
        return self.dice / self.sides

    @property
    def biased(self) -> bool:
        return self.p is not None and self.p < LEVEL

    def reading(self) -> str:
        """The test in plain words."""
        if self.p is None:
            return (f"too few dice to test: {self.dice} d{self.sides} give {self.expected:.1f} expected "
                    f"per face ({MIN_EXPECTED} needed)")
        # p underflows to 0 for a very loaded die; say so rather than print "0.0e+00".
        p = f"= {self.p:.2f}" if self.p >= 0.01 else f"= {self.p:.1e}" if self.p > 1e-300 else "< 1e-300"
        if not self.biased:
            return f"no evidence of bias at the 1% level (p {p}, {self.dice} dice)"
        face = max(range(self.sides), key=lambda f: abs(self.counts[f] - self.expected))
        return (f"the faces depart from a fair d{self.sides} at the 1% level (p {p}, {self.dice} dice): "
                f"face {face + 1} came up {self.counts[face]} times, {self.expected:.1f} expected")


@dataclass(frozen=True)
class Audit:
    """What `audit` finds: every roll in game order, the findings, the per-player statistics."""

    rolls: tuple[Roll, ...]
    findings: tuple[Finding, ...]
    stats: tuple[DiceStats, ...]

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
        return True, _key(report[len("* UNDO: "):]) if report.startswith("* UNDO: ") else None
    if isinstance(e, ChatLine) and e.report and e.text.startswith("UNDO: "):
        return True, _key(e.text[len("UNDO: "):])
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


def _roll(e: Event, reader: Reader | None, who: str | None, path: str) -> Roll | None:
    if isinstance(e, DieRolled):
        reading = reader(e.report) if reader and e.report else None
        if e.special:  # SHOW_RESULTS holds each die's face index from 0
            dice, sides = tuple(v + 1 for v in _ints(e.result)), reading.sides if reading else None
        elif reading is not None:
            dice, sides = reading.dice, reading.sides
        else:
            dice, sides = _ints(e.result), None
        total = int(e.total) if e.total and e.total.lstrip("-").isdigit() else (
            reading.total if reading else sum(dice) if dice and not e.special else None)
        player = (reading.player if reading else None) or who or "unknown"
        return Roll(0, path, e.step, e.command, e.button, e.result, total, player, dice, sides, e.report,
                    bool(reading and reading.heuristic))
    if isinstance(e, ChatLine) and e.report and reader is not None:
        got = reader(e.text)
        if got is not None:
            return Roll(0, path, e.step, e.command, got.button, got.result, got.total,
                        got.player or who or "unknown", got.dice, got.sides, e.text, got.heuristic)
    return None


def _file_rolls(path: str, rp: Replay, reader: Reader | None) -> tuple[list[Roll], list[tuple[Step, list[int]]]]:
    """A log's rolls (numbered 0, `undone_in` set) and its undo steps with the rolls each took back."""
    rolls: list[Roll] = []
    undos: list[tuple[Step, list[int]]] = []

    def take(k: int, step: Step, taken: list[int]) -> None:
        rolls[k] = replace(rolls[k], undone_in=step.number)
        taken.append(k)

    for step in rp.steps:
        who, taken = _actor(step), []
        for e in step.events:
            inverse, key = _inverse(e)
            if inverse:
                k = next((k for k in range(len(rolls) - 1, -1, -1) if rolls[k].undone_in is None
                          and key is not None and _key(rolls[k].report or "") == key), None)
                if k is not None:
                    take(k, step, taken)
            elif not e.undo:  # other commands inside an undo are inverses, not new rolls
                roll = _roll(e, reader, who, path)
                rolls += [roll] if roll else []
        if step.undo and step.undoes is not None and not taken:  # no inverse report told which roll
            for k, r in enumerate(rolls):
                if r.step == step.undoes and r.undone_in is None:
                    take(k, step, taken)
        if step.undo or taken:
            undos.append((step, taken))
    return rolls, undos


def _undo_findings(path: str, rolls: list[Roll], undos: list[tuple[Step, list[int]]]) -> list[Finding]:
    out = []
    for step, taken in undos:
        if not taken:
            what = f"undoes step {step.undoes}, which rolled no dice" if step.undoes else "is an undo of no die roll"
            out.append(Finding(UNDO, Severity.INFO, f"{path}: step {step.number} {what}"))
            continue
        for k in sorted(taken):
            r = rolls[k]
            head = (f"{path}: roll {r.number} ({r.shown}) by {r.player} in step {r.step} "
                    f"was undone in step {step.number}")
            nxt = next((n for n in rolls[k + 1:] if n.button == r.button and n.step > step.number), None)
            note = HEURISTIC if r.heuristic or (nxt and nxt.heuristic) else ""
            if nxt is None:
                out.append(Finding(UNDO, Severity.INFO, f"{head}; that button was not rolled again in this file{note}"))
                continue
            out.append(Finding(UNDO_REROLL, Severity.WARNING, f"{head}; the next roll of that button, roll "
                               f"{nxt.number} by {nxt.player} in step {nxt.step}, was {nxt.value}{note}"))
    return out


def _fingerprint(opening: Sequence[Piece]) -> frozenset[tuple[object, ...]]:
    return frozenset((p.id, p.map, p.x, p.y, p.name, tuple(sorted(p.properties.items())), p.concealed)
                     for p in opening)


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
        msg = (f"files {j + 1} ({files[j][0]}) and {i + 1} ({path}) start from the same position "
               f"({len(rp.opening)} piece(s)); ")
        msg += (f"both rolled {_listed(now)}" if same else
                f"file {j + 1} rolled {_listed(before)}; file {i + 1} rolled {_listed(now)}")
        msg += HEURISTIC if any(r.heuristic for r in (*before, *now)) else ""
        severity = Severity.WARNING if before and not same else Severity.INFO
        out.append(Finding(RESTART, severity, msg))
    return out


def _usable(r: Roll) -> bool:
    return bool(r.sides and r.dice and all(1 <= d <= r.sides for d in r.dice))


def _stats(rolls: Sequence[Roll]) -> tuple[list[DiceStats], list[Finding]]:
    groups: dict[tuple[str, int], list[Roll]] = defaultdict(list)
    untested: dict[str, list[Roll]] = defaultdict(list)
    for r in rolls:
        if r.undone_in is not None:
            continue
        if _usable(r):
            groups[(r.player, r.sides)].append(r)  # type: ignore[index]
        else:
            untested[r.player].append(r)
    stats, out = [], []
    for (player, sides), group in sorted(groups.items()):
        counts = [0] * sides
        for r in group:
            for d in r.dice:
                counts[d - 1] += 1
        s = DiceStats(player, sides, tuple(counts), len(group), sum(r.heuristic for r in group))
        if s.expected >= MIN_EXPECTED:
            chi2 = sum((c - s.expected) ** 2 / s.expected for c in counts)
            s = replace(s, chi2=chi2, p=chi2_sf(chi2, sides - 1))
        stats.append(s)
        faces = ", ".join(map(str, counts))
        note = f" ({s.heuristic} of the rolls read heuristically from VASL-style chat lines)" if s.heuristic else ""
        out.append(Finding(STATS, Severity.WARNING if s.biased else Severity.INFO,
                           f"{player}: {s.dice} d{sides} in {s.rolls} roll(s), undone rolls left out; "
                           f"faces 1-{sides}: {faces}; mean {s.mean:.2f} (fair {s.fair_mean:.2f}); "
                           f"{s.reading()}{note}"))
    for player, group in sorted(untested.items()):
        buttons = ", ".join(sorted({r.button for r in group}))
        out.append(Finding(STATS, Severity.INFO, f"{player}: {len(group)} roll(s) not tested, their die "
                                                 f"size or faces unknown (buttons: {buttons})"))
    return stats, out


def audit(files: Sequence[tuple[str, Replay]], reader: Reader | None = None) -> Audit:
    """Audit a game's files in game order (name, replay); saves give replays without steps.

    `reader` reads rolls from chat reports and a roll's player and die size from its report
    (`parse.dice_reports.report_reader(module)`); without it only Dice Button rolls count,
    their players come from the step (a chat speaker, a mover) and die sizes are unknown.
    """
    rolls: list[Roll] = []
    per_file: list[list[Roll]] = []
    findings: list[Finding] = []
    for path, rp in files:
        found, undos = _file_rolls(path, rp, reader)
        found = [replace(r, number=len(rolls) + n) for n, r in enumerate(found, 1)]
        rolls += found
        per_file.append(found)
        findings += _undo_findings(path, found, undos)
    findings += _restart_findings(files, per_file)
    stats, stat_findings = _stats(rolls)
    return Audit(tuple(rolls), tuple(findings + stat_findings), tuple(stats))
