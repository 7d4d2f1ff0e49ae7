"""Terrain some units may never enter (16.11), and the hexsides that still let them in (16.12).

Kept apart from movement.py for size; movement.py re-exports `Prohibition`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Prohibition"]


@dataclass(frozen=True)
class Prohibition:
    """Terrain units of `classes` (not of `except_classes`) may never enter (16.11), except
    across a hexside carrying one of `through`, which is also the only way out (16.12)."""

    terrain: str
    classes: frozenset[str] = frozenset({"mechanized"})
    except_classes: frozenset[str] = frozenset()
    through: frozenset[str] = frozenset()
    rule_ref: str = ""
    through_ref: str = ""

    def __post_init__(self) -> None:
        for name in ("classes", "except_classes", "through"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))

    def applies(self, classes: tuple[str, ...]) -> str | None:
        """The class by which a unit with these classes is barred ("mechanized"), or None."""
        return (
            None if self.except_classes.intersection(classes) else next((c for c in classes if c in self.classes), None)
        )
