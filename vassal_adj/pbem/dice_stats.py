"""The dice audit's statistics: each player's dice of each kind tested for fairness, and the
rolls broken down per die button (5.4). The tests are in dice_tests.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from vassal_adj.pbem.dice_tests import LEVEL, MIN_EXPECTED, chi2_sf, exact_p
from vassal_adj.pbem.rolls import Roll
from vassal_adj.rules.results import Finding, Severity

__all__ = ["ButtonTally", "DiceStats", "dice_stats"]

STATS = "audit:dice-stats"


@dataclass(frozen=True)
class DiceStats:
    """One player's dice of one kind over the game (undone rolls left out): the count per
    category and the test against a fair die (p None: not tested, `untested` says why).

    A numbered die has `sides` categories "1".."sides" of one face each (`labels` and
    `weights` empty); a symbol die names its categories in `labels` and how many of its
    `sides` faces show each in `weights`."""

    player: str
    sides: int
    counts: tuple[int, ...]  # per category
    rolls: int
    heuristic: int = 0  # rolls read by the labelled-roll fallback
    chi2: float | None = None
    p: float | None = None
    labels: tuple[str, ...] = ()
    weights: tuple[int, ...] = ()
    name: str = ""  # a symbol die's name (its pack pattern's button)
    test: str = ""  # "chi-square" or "exact"
    untested: str = ""

    @property
    def dice(self) -> int:
        return sum(self.counts)

    @property
    def numbered(self) -> bool:
        return not self.labels

    @property
    def mean(self) -> float:
        return sum(f * c for f, c in enumerate(self.counts, 1)) / self.dice

    @property
    def fair_mean(self) -> float:
        return (self.sides + 1) / 2

    @property
    def expected(self) -> float:
        """Dice expected per face."""
        return self.dice / self.sides

    def label(self, i: int) -> str:
        return self.labels[i] if self.labels else str(i + 1)

    def expected_of(self, i: int) -> float:
        return self.expected * (self.weights[i] if self.weights else 1)

    @property
    def biased(self) -> bool:
        return self.p is not None and self.p < LEVEL

    @property
    def die(self) -> str:
        """The dice in words: "60 d6", "40 battle dice"."""
        return f"{self.dice} d{self.sides}" if self.numbered else f"{self.dice} {self.name} dice"

    def faces(self) -> str:
        counts = ", ".join(map(str, self.counts))
        if self.numbered:
            return f"faces 1-{self.sides}: {counts}; mean {self.mean:.2f} (fair {self.fair_mean:.2f})"
        return "; ".join(
            f"{lab} {c} ({w} of {self.sides} faces)"
            for lab, c, w in zip(self.labels, self.counts, self.weights, strict=True)
        )

    def reading(self) -> str:
        """The test in plain words."""
        if self.p is None:
            return self.untested
        # p underflows to 0 for a very loaded die; say so rather than print "0.0e+00".
        p = f"= {self.p:.2f}" if self.p >= 0.01 else f"= {self.p:.1e}" if self.p > 1e-300 else "< 1e-300"
        how = "exact test, " if self.test == "exact" else ""
        if not self.biased:
            return f"no evidence of bias at the 1% level ({how}p {p}, {self.dice} dice)"
        far = max(range(len(self.counts)), key=lambda i: abs(self.counts[i] - self.expected_of(i)))
        what = f"a fair d{self.sides}" if self.numbered else f"fair {self.name} dice"
        return (
            f"the faces depart from {what} at the 1% level ({how}p {p}, {self.dice} dice): "
            f"{'face' if self.numbered else 'symbol'} {self.label(far)} came up {self.counts[far]} times, "
            f"{self.expected_of(far):.1f} expected"
        )


def _tested(s: DiceStats) -> DiceStats:
    weights = s.weights or (1,) * s.sides
    least = min(s.expected_of(i) for i in range(len(s.counts)))
    if least >= MIN_EXPECTED:
        chi2 = sum((c - s.expected_of(i)) ** 2 / s.expected_of(i) for i, c in enumerate(s.counts))
        return replace(s, chi2=chi2, p=chi2_sf(chi2, len(s.counts) - 1), test="chi-square")
    exact = exact_p(s.counts, weights)
    if exact is None:
        return replace(
            s,
            untested=f"too few dice for the chi-square test ({least:.1f} expected for the rarest "
            f"face, {MIN_EXPECTED} needed) and too many outcomes for the exact test",
        )
    p, floor = exact
    if floor >= LEVEL:
        return replace(s, untested=f"too few dice to test: no outcome of {s.die} is unlikely at the 1% level")
    return replace(s, p=p, test="exact")


@dataclass(frozen=True)
class ButtonTally:
    """The rolls of one die button (the report's button name), undone rolls left out: how many,
    and the count per face (per symbol for symbol dice) when its faces are known."""

    button: str
    rolls: int
    undone: int
    labels: tuple[str, ...] = ()  # the faces counted ("1".."6", or symbols); empty: unknown
    counts: tuple[int, ...] = ()

    @property
    def dice(self) -> int:
        return sum(self.counts)


def _kind(r: Roll) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]] | None:
    """(labels, weights, counts) of a roll's dice, or None when its faces are unknown."""
    if r.faces:
        labels = tuple(lab for lab, _ in r.faces)
        if not r.symbols or any(sym not in labels for sym in r.symbols):
            return None
        return labels, tuple(w for _, w in r.faces), tuple(r.symbols.count(lab) for lab in labels)
    if r.sides and r.dice and all(1 <= d <= r.sides for d in r.dice):
        return tuple(map(str, range(1, r.sides + 1))), (), tuple(r.dice.count(f) for f in range(1, r.sides + 1))
    return None


def _buttons(rolls: Sequence[Roll]) -> list[ButtonTally]:
    tallies: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    undone: dict[str, int] = defaultdict(int)
    rolled: dict[tuple[str, tuple[str, ...]], int] = defaultdict(int)
    for r in rolls:
        if r.undone_in is not None:
            undone[r.button] += 1
            continue
        kind = _kind(r)
        key = (r.button, kind[0] if kind else ())
        rolled[key] += 1
        counts = tallies.setdefault(key, [0] * len(key[1]))
        for i, c in enumerate(kind[2] if kind else ()):
            counts[i] += c
    out = [
        ButtonTally(b, rolled[(b, labels)], undone.pop(b, 0), labels, tuple(tallies[(b, labels)]))
        for b, labels in sorted(rolled)
    ]
    return out + [ButtonTally(b, 0, n) for b, n in sorted(undone.items())]


def dice_stats(rolls: Sequence[Roll]) -> tuple[list[DiceStats], list[Finding], list[ButtonTally]]:
    """Each player's dice tested per die kind (undone rolls left out), the findings saying so,
    and the rolls per button."""
    groups: dict[tuple[str, tuple[str, ...], tuple[int, ...], str], list[tuple[Roll, tuple[int, ...]]]] = defaultdict(
        list
    )
    untested: dict[str, list[Roll]] = defaultdict(list)
    for r in rolls:
        if r.undone_in is not None:
            continue
        kind = _kind(r)
        if kind is None:
            untested[r.player].append(r)
            continue
        labels, weights, counts = kind  # numbered dice: labels "1".."sides", so each size is its own group
        groups[(r.player, labels, weights, r.button if weights else "")].append((r, counts))
    stats, out = [], []
    for (player, labels, weights, name), group in sorted(groups.items()):
        counts = [sum(cs[i] for _, cs in group) for i in range(len(group[0][1]))]
        s = _tested(
            DiceStats(
                player,
                sum(weights) or len(counts),
                tuple(counts),
                len(group),
                sum(r.heuristic for r, _ in group),
                labels=labels if weights else (),
                weights=weights,
                name=name,
            )
        )
        stats.append(s)
        note = f" ({s.heuristic} of the rolls read heuristically from labelled-roll chat lines)" if s.heuristic else ""
        out.append(
            Finding(
                STATS,
                Severity.WARNING if s.biased else Severity.INFO,
                f"{player}: {s.die} in {s.rolls} roll(s), undone rolls left out; {s.faces()}; {s.reading()}{note}",
            )
        )
    for player, left in sorted(untested.items()):
        buttons = ", ".join(sorted({r.button for r in left}))
        out.append(
            Finding(
                STATS,
                Severity.INFO,
                f"{player}: {len(left)} roll(s) not tested, their die size or faces unknown (buttons: {buttons})",
            )
        )
    return stats, out, _buttons(rolls)
