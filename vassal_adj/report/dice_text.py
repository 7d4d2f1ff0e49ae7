"""One die button's rolls in words, for verify's reports (verify_text.dice_lines lists them).
The fairness tests and the count of reports no reader understood are findings
(audit:dice-stats, audit:dice-unread)."""

from __future__ import annotations

from vassal_adj.pbem.dice_stats import ButtonTally

__all__ = ["button_line"]


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def button_line(t: ButtonTally) -> str:
    """One button: "2d6: 12 roll(s), 24 dice; faces 1-6: 5, 3, 4, 4, 6, 2; 1 undone"."""
    if not t.rolls:
        return f"{t.button}: {t.undone} roll(s), all undone"
    text = f"{t.button}: {t.rolls} roll(s)"
    if not t.labels:
        text += ", faces unknown"
    elif t.labels == tuple(map(str, range(1, len(t.labels) + 1))):
        text += f", {_dice(t.dice)}; faces 1-{len(t.labels)}: {', '.join(map(str, t.counts))}"
    else:
        text += f", {_dice(t.dice)}; " + ", ".join(f"{lab} {c}" for lab, c in zip(t.labels, t.counts, strict=True))
    return text + (f"; {t.undone} undone" if t.undone else "")
