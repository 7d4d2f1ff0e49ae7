"""A die roll as the dice audit reads it from a game's logs: audit.py builds them, dice_stats.py
tests them for fairness and the reports list them."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Roll"]


@dataclass(frozen=True)
class Roll:
    """One die roll: `number` counts the game's rolls from 1 in file and step order; `dice`
    are face numbers 1..`sides` (empty when only a total is known); `undone_in` is the step
    of the undo that took it back, if any; `replaced_by` the number of the roll that took an
    undone roll's place (the next of its button by its player after the undo), and `replayed`
    whether that was the same roll made again in a replay of the same actions."""

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
    symbols: tuple[str, ...] = ()  # a symbol die's faces, one per die (pack chat patterns)
    faces: tuple[tuple[str, int], ...] = ()  # that die's symbols and how many faces show each
    replaced_by: int | None = None
    replayed: bool = False

    @property
    def value(self) -> str:
        """The roll as a player reads it: the total, with the dice when there are several."""
        if self.total is None or self.result == str(self.total):
            return self.result
        return f"{self.total} [{self.result}]"

    @property
    def shown(self) -> str:
        return f"{self.button} = {self.value}"
