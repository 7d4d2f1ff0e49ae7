"""The piece definitions of a module's buildFile, each parsed once with the place it is written:
every PieceSlot and CardSlot (palettes, at-start stacks, decks) and every PrototypeDefinition.

structure.py, images.py and prototypes.py read these; a definition whose text cannot be parsed at
all is kept with its error, for structure.py to report.
"""

from __future__ import annotations

from dataclasses import dataclass

from vassal_adj.errors import VassalAdjError
from vassal_adj.model.module import Module, PieceSlot
from vassal_adj.parse.traits import PieceDef, parse_add_piece_text, parse_piece

__all__ = ["Definition", "definitions"]


@dataclass(frozen=True)
class Definition:
    """A slot (`slot` set) or a prototype (`prototype` its name) as written in the buildFile."""

    where: str
    piece: PieceDef | None
    slot: PieceSlot | None = None
    prototype: str = ""
    error: str = ""

    @property
    def label(self) -> str:
        return f"prototype {self.prototype!r}" if self.slot is None else f"piece slot {self.slot.entry_name!r}"


def _slot_where(module: Module, slot: PieceSlot) -> str:
    kind = "CardSlot" if slot.card else "PieceSlot"
    line = f" line {slot.line}" if slot.line else ""
    folder = f" in {' / '.join(slot.folder)}" if slot.folder else ""
    return f"{module.build_entry}{line}: {kind} {slot.entry_name!r} (id {slot.gpid or 'none'}){folder}"


def _parse(text: str) -> tuple[PieceDef | None, str]:
    try:
        piece = parse_add_piece_text(text)[1] if text.startswith("+/") else parse_piece(text)
    except VassalAdjError as e:
        return None, e.message
    return piece, ""


def definitions(module: Module) -> tuple[Definition, ...]:
    """Every slot, then every prototype, parsed."""
    out = []
    for slot in module.piece_slots:
        piece, error = _parse(slot.text)
        out.append(Definition(_slot_where(module, slot), piece, slot=slot, error=error))
    for name, proto in module.prototypes.items():
        piece, error = _parse(proto.text)
        out.append(
            Definition(f"{module.build_entry}: PrototypeDefinition {name!r}", piece, prototype=name, error=error)
        )
    return tuple(out)
