"""Builders from parsed records to model objects: the real pieces of a saved game, the boards
chosen, the die rolls (`dice_rolls`, also re-exported by `commands`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from vassal_adj.errors import Where
from vassal_adj.model.grid import map_location_name, place_boards
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse import records
from vassal_adj.parse.commands import Node, decode_command, iter_texts, log_steps
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


def board_selections(root: Node) -> dict[str, list[tuple[str, bool, int, int]]]:
    """The boards each map uses, from the save's BoardPicker commands (map id -> choices)."""
    found: dict[str, list[tuple[str, bool, int, int]]] = {}
    for index, text in iter_texts(root):
        if "BoardPicker" not in text:  # cheap test first: only candidates are typed
            continue
        cmd = decode_command(text, index, root.where)
        if isinstance(cmd, records.BoardPicker):
            found[cmd.map_id] = [(b.name, b.reversed, b.column, b.row) for b in cmd.boards]
    return found


def _opening_texts(root: Node, select: Callable[[str], object] | None = None
                   ) -> Iterator[tuple[int, str]]:
    """(index, text) of the saved position: everything but a log's LOG steps, which follow
    ``end_save`` among the root's sub-commands; built from strings, not Nodes. `select`:
    only the texts it accepts (see `iter_texts`)."""
    steps = log_steps(root)
    first_step = steps[0] if steps else None
    if select is None or select(root.text):
        yield 0, root.text
    index = 1
    for kid in root.children:
        if kid is first_step:
            return
        index = yield from iter_texts(kid, index, select)


# An AddPiece ``+/id/stack/…`` (6.4): the id ends at the first slash, which a backslash must
# not escape. Anything unusual (an escaped slash, a quoted field) does not match and goes
# through the full decoder. One C-level match per command: a big save is mostly stacks.
_STACK_ADD = re.compile(r"\+/[^/]*[^/\\]/stack/")
# Any other AddPiece: exactly the texts starting with ``+/`` that `_STACK_ADD` rejects.
_OTHER_ADD = re.compile(r"\+/(?![^/]*[^/\\]/stack/)")


def _is_stack(text: str) -> bool:
    """Whether an AddPiece text has the type exactly ``stack``."""
    return _STACK_ADD.match(text) is not None


def game_pieces(root: Node, module: Module | None = None, path: str | None = None) -> list[Piece]:
    """Every real piece (not stacks or decks) of the saved position, in save order.

    With the module: prototype references left in a piece are expanded with the module's
    prototypes (VASSAL normally expands them when a piece is created) and each piece gets the
    location label VASSAL shows for its position.
    """
    prototypes: Mapping[str, str] = {}
    placed: dict[str, object] = {}
    if module is not None:
        prototypes = {name: p.text for name, p in module.prototypes.items()}
        chosen = board_selections(root)
        for m in module.maps.values():
            selection = chosen.get(m.name, chosen.get(m.id))
            placed[m.name] = place_boards(m, selection)
            placed[m.id] = placed[m.name]
    out: list[Piece] = []
    sides: dict[str, str] | None = None  # read once, and only when a piece is concealed
    # Most AddPieces of a big save are stacks (74,301 of Waterloo's 74,634): skip them, and
    # everything else, before any decoding, with one C-level match per command.
    for index, text in _opening_texts(root, _OTHER_ADD.match):
        cmd = decode_command(text, index, root.where)
        assert isinstance(cmd, records.AddPiece)
        where = Where(path=path, entry="savedGame", command=index)
        piece = parse_piece(cmd.type, cmd.state, where)
        if piece.is_stack or piece.is_deck or piece.basic is None:
            continue
        if prototypes:
            piece = expand_prototypes(piece, prototypes, where)
        basic = piece.basic
        location = None
        boards = placed.get(basic.map_id) if basic.map_id else None
        if boards:
            location = map_location_name(boards, basic.x, basic.y)  # type: ignore[arg-type]
        concealed = _concealment(piece)
        if concealed and sides is None:
            sides = roster_sides(root)
        name, properties = name_and_properties(piece)
        out.append(Piece(
            id=cmd.id,
            name=name,
            map=basic.map_id,
            x=basic.x,
            y=basic.y,
            gpid=basic.gpid,
            properties=properties,
            concealed=concealed,
            masked_name=visible_name(piece) if concealed else None,
            seen_by=seen_by(piece, sides or {}) if concealed else (),
            location=location,
            command=index,
        ))
    return out
