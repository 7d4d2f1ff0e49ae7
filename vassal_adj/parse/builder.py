"""Builders from parsed records to model objects: the real pieces of a saved game, where VASSAL
shows them, and who sees the concealed ones."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from vassal_adj.errors import Where
from vassal_adj.model.geometry.grid import PlacedBoard
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse import records
from vassal_adj.parse.commands import Node, decode_command
from vassal_adj.parse.places import Labeler, _opening_texts, labeler
from vassal_adj.parse.trait_types import Hideable, Obscurable
from vassal_adj.parse.traits import (
    KindFilter,
    PieceDef,
    expand_prototypes,
    name_and_properties,
    parse_piece,
    visible_name,
)

_CONCEALING = KindFilter(Obscurable, Hideable)


def seen_by(piece: PieceDef, sides_of: Mapping[str, str]) -> tuple[str, ...]:
    """The sides whose players see a concealed piece as it is (the owner's side, or the sides a
    Mask or Invisible trait with side access names), sorted; () when no side can be told.

    `sides_of` maps a player's password to their side (the save's PLAYER roster): with
    per-player access the trait's state holds the owner's password, which is never returned.
    """
    found: set[str] | None = None
    for t in _CONCEALING.select(piece.traits):
        owner = t.masked_by if isinstance(t, Obscurable) else t.hidden_by  # type: ignore[union-attr]
        if owner is None:
            continue
        if t.access == "sides":  # type: ignore[union-attr]
            these = set(t.sides)  # type: ignore[union-attr]
        elif t.access == "side":  # type: ignore[union-attr]
            these = {owner}
        else:
            these = {sides_of[owner]} if owner in sides_of else set()
        found = these if found is None else found & these
    return tuple(sorted(found or ()))


def roster_sides(root: Node) -> dict[str, str]:
    """Password -> side of the save's PLAYER entries (kept inside: a password is never shown)."""
    out: dict[str, str] = {}
    for index, text in _opening_texts(root, lambda t: t.startswith("PLAYER\t")):
        cmd = decode_command(text, index, root.where)
        if isinstance(cmd, records.Player) and cmd.side:
            out[cmd.password] = cmd.side
    return out


def _concealment(piece: PieceDef) -> str | None:
    concealing = list(_CONCEALING.select(piece.traits))
    masked = any(isinstance(t, Obscurable) and t.masked for t in concealing)
    hidden = any(isinstance(t, Hideable) and t.hidden for t in concealing)
    if masked and hidden:
        return "masked+invisible"
    return "masked" if masked else "invisible" if hidden else None


# An AddPiece of a stack holding no piece (6.4: map, x, y, then the layer since 3.4.8), read with
# one C-level match and skipped: most AddPieces of a big save are such leftovers (74,301 of
# Waterloo's 74,634). Anything unusual (an escaped character) goes through the full decoder.
_EMPTY_STACK = re.compile(r"\+/[^/\\]+/stack/[^;/\\]*;-?\d+;-?\d+(?:;@@-?\d*)?$").match


def _holds_pieces(text: str) -> bool:
    """Whether a text is an AddPiece that is not an empty stack."""
    return text.startswith("+/") and _EMPTY_STACK(text) is None


def game_pieces(
    root: Node,
    module: Module | None = None,
    path: str | None = None,
    boards: Mapping[str, Sequence[PlacedBoard]] | None = None,
    label: Labeler | None = None,
) -> list[Piece]:
    """Every real piece (not stacks or decks) of the saved position, in save order.

    A piece inside a stack or deck is where VASSAL shows it: on the container's map and at its
    position (6.4; VASSAL's BasicPiece asks its parent). Saves of VASSAL 2.9 to 3.2 keep the map
    only on the stack, and every card of a deck has it only on the deck.

    With the module: prototype references left in a piece are expanded with the module's
    prototypes (VASSAL normally expands them when a piece is created), a map referred to by its
    id (``Map0``) gets its name, and each piece gets the location label VASSAL shows for its
    position with the boards the save selected. A map the module lacks keeps the save's id
    (`places.missing_maps` says VASSAL shows its pieces on no map). `boards`: each map's boards
    as the caller placed them for this save (`places.labeler`); `label`: the labeler the caller
    already made of them (position.py), shared with the log's replay.
    """
    prototypes: Mapping[str, str] = {}
    if module is not None:
        prototypes = {name: p.text for name, p in module.prototypes.items()}
        label = label or labeler(root, module, boards)
    names: dict[str, str] = {}  # map reference -> the name of the module's map, once each
    read: list[tuple[int, str, PieceDef]] = []
    # Piece id -> (map, x, y) of the stack or deck holding it. As VASSAL builds them in save
    # order, a container takes only pieces added before it (it finds no other by id), and a
    # later container takes a piece from an earlier one.
    spots: dict[str, tuple[str | None, int | None, int | None]] = {}
    added: set[str] = set()
    for index, text in _opening_texts(root, _holds_pieces):
        cmd = decode_command(text, index, root.where)
        assert isinstance(cmd, records.AddPiece)
        piece = parse_piece(cmd.type, cmd.state, Where(path=path, entry="savedGame", command=index))
        if piece.is_stack or piece.is_deck:
            box = piece.traits[-1]
            for pid in box.piece_ids:  # type: ignore[attr-defined]
                if pid in added:
                    spots[pid] = (box.map_id, box.x, box.y)  # type: ignore[attr-defined]
        elif piece.basic is not None:
            read.append((index, cmd.id, piece))
            added.add(cmd.id)
    out: list[Piece] = []
    sides: dict[str, str] | None = None  # read once, and only when a piece is concealed
    for index, pid, piece in read:
        if prototypes:
            piece = expand_prototypes(piece, prototypes, Where(path=path, entry="savedGame", command=index))
        basic = piece.basic
        assert basic is not None
        map_id, x, y = spots.get(pid, (basic.map_id, basic.x, basic.y))
        x, y = basic.x if x is None else x, basic.y if y is None else y
        map_name = map_id
        if module is not None and map_id is not None:
            if map_id not in names:
                found = module.map_by_id(map_id)
                names[map_id] = found.name if found is not None else map_id
            map_name = names[map_id]
        concealed = _concealment(piece)
        if concealed and sides is None:
            sides = roster_sides(root)
        name, properties = name_and_properties(piece)
        out.append(
            Piece(
                id=pid,
                name=name,
                map=map_name,
                x=x,
                y=y,
                gpid=basic.gpid,
                properties=properties,
                concealed=concealed,
                masked_name=visible_name(piece) if concealed else None,
                seen_by=seen_by(piece, sides or {}) if concealed else (),
                location=label(map_name, x, y) if label is not None else None,
                command=index,
            )
        )
    return out
