"""The boards a save selected (spec 5.5), the label VASSAL shows at a place of a map with them,
and the places a save names that the module lacks."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace

from vassal_adj.errors import Where
from vassal_adj.model.geometry.grid import PlacedBoard, map_location_name, place_boards
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse import records
from vassal_adj.parse.basic_traits import Deck
from vassal_adj.parse.commands import Node, decode_command, iter_texts, log_steps
from vassal_adj.parse.traits import parse_piece

__all__ = ["Labeler", "board_selections", "labeler", "missing_boards", "missing_maps"]

Labeler = Callable[[str | None, int, int], str | None]


def _opening_texts(root: Node, select: Callable[[str], object] | None = None) -> Iterator[tuple[int, str]]:
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


# An AddPiece of a deck (6.4): ``+/id/deck;…``.
_DECK_ADD = re.compile(r"\+/[^/]*/deck;").match


def _decks(root: Node) -> Iterator[tuple[str | None, int, int, str]]:
    """(map, x, y, name) of each deck of the saved position, in save order."""
    for index, text in _opening_texts(root, _DECK_ADD):
        cmd = decode_command(text, index, root.where)
        if isinstance(cmd, records.AddPiece):
            deck = parse_piece(cmd.type, cmd.state, replace(root.where or Where(), command=index)).traits[-1]
            if isinstance(deck, Deck):
                yield deck.map_id, deck.x, deck.y, deck.name


def labeler(root: Node, module: Module | None, boards: Mapping[str, Sequence[PlacedBoard]] | None = None) -> Labeler:
    """The label VASSAL shows at (map, x, y) with the boards the save selected; None off the
    boards, on a map the module lacks, or without a module. `boards`: each map's boards (by
    map name) as the caller already placed them for this save (position.py), else placed here.

    As VASSAL's Map.locationName does (8.1), a spot where a deck of the saved position lies
    (a log's opening) is named by the first such deck.
    """
    placed: dict[str, tuple[str, object]] = {}  # a map's name or id -> (its name, its boards)
    at_deck: dict[tuple[str, int, int], str] = {}
    if module is not None:
        chosen = board_selections(root) if boards is None else {}
        for m in module.maps.values():
            laid = boards[m.name] if boards is not None else place_boards(m, chosen.get(m.name, chosen.get(m.id)))
            placed[m.name] = placed[m.id] = (m.name, laid)
        for map_id, x, y, name in _decks(root):
            if map_id in placed:
                at_deck.setdefault((placed[map_id][0], x, y), name)
    cache: dict[tuple[str | None, int, int], str | None] = {}

    def label(map_id: str | None, x: int, y: int) -> str | None:
        key = (map_id, x, y)
        if key not in cache:
            found = placed.get(map_id) if map_id else None
            if found is None:
                cache[key] = None
            else:
                deck = at_deck.get((found[0], x, y))
                cache[key] = deck if deck is not None else map_location_name(found[1], x, y)  # type: ignore[arg-type]
        return cache[key]

    return label


def missing_boards(root: Node, module: Module) -> list[str]:
    """A warning for each board the save selects that its map in `module` lacks (5.5).

    VASSAL's BoardPicker leaves such a board out and lays the map out with the others
    (`grid.place_boards` does the same): pieces keep their pixels, which then lie on another
    board or on none, and get the names VASSAL gives there.
    """
    out = []
    for map_id, chosen in board_selections(root).items():
        mdef = module.map_by_id(map_id)
        if mdef is None:
            continue  # the map itself is missing: `missing_maps` says so
        for name, _, column, row in chosen:
            if name not in mdef.boards:
                have = ", ".join(repr(b) for b in mdef.boards) or "none"
                out.append(
                    f"the save selects board {name!r} (column {column}, row {row}) for map {mdef.name!r}, "
                    f"which module {module.name!r} version {module.version!r} does not have (boards: {have}): "
                    f"as in VASSAL, the map is laid out without it and its pieces are named by the "
                    f"boards that remain (offboard where none is)"
                )
    return out


def missing_maps(pieces: Sequence[Piece], module: Module, shown: int = 5) -> list[str]:
    """A warning for each map the pieces are on that `module` lacks, naming the map and its
    pieces (the first `shown` of them). VASSAL puts such pieces on no map (spec §10 pitfall 12:
    a map renamed in another version of the module)."""
    on: dict[str, list[str]] = {}
    for p in pieces:
        if p.map is not None and module.map_by_id(p.map) is None:
            on.setdefault(p.map, []).append(p.name or p.id)
    out = []
    for map_id, names in on.items():
        more = f" and {len(names) - shown} more" if len(names) > shown else ""
        out.append(
            f"the save puts {len(names)} piece(s) on map {map_id!r}, which module {module.name!r} version "
            f"{module.version!r} does not have: VASSAL shows them on no map ({', '.join(names[:shown])}{more})"
        )
    return out
