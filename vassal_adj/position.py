"""A module, a save and a rule pack resolved once into a position: the maps placed as the save
laid them out, the pieces with their map, label and name, the units the pack makes of them, and
what the module shows (global properties, the turn tracker), and the labeler of its places, which
a log's replay (pbem/replay.py `replay(..., label=pos.label)`) shares.

    pos = resolve(module, game, lp)          # once per (module, save, pack)
    pos.pieces                               # the save's pieces (a log: where it opens), labelled
    pos.place(piece), pos.unit(piece)        # where a piece is for the rules, the unit it is
    state, unmapped = pos.state(pieces, turn, phase, weather)

State building (state_builder.py), `verify` (pbem/verify.py), a log's history (pbem/log_state.py)
and the HTML report (report/figures.py) share it, so a verification places each map, labels the
pieces and reads the module's properties once, not once per layer that needs them.

Positions: the *main* hex grid is the first numbered hex grid of the map (and board) the pack
names (``[state] map``, ``board``), else of the first map that has one. A unit on that grid gets
its hex and label; a unit elsewhere (another map, another board or zone) gets an off-map box named
after the label VASSAL shows there, or the map; a piece on no map gets an empty position; a box
the pack's ``[boxes]`` name gets its kind, side and number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vassal_adj.errors import UsageError
from vassal_adj.layout_cache import with_cached_index
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.model.geometry.maps import PlacedMap, place_map
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.model.state import Box, Departure, GameState, Position
from vassal_adj.model.units import Unit
from vassal_adj.packs import LoadedPack
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import Node, log_steps
from vassal_adj.parse.global_props import global_values
from vassal_adj.parse.places import Labeler, board_selections, labeler
from vassal_adj.parse.turns import TrackerReading, tracker_reading
from vassal_adj.rules.packs.pack_state import BoxSpec, StateExtras
from vassal_adj.rules.packs.unitmap import UnitMap, Unmapped
from vassal_adj.savedgame import SavedGame

if TYPE_CHECKING:  # a log's places; a save's check needs no log events (startup time, issue 10)
    from vassal_adj.model.events import Place

__all__ = ["GamePosition", "MapPlacer", "main_layout", "named_box", "opening_root", "resolve"]

Main = tuple[PlacedMap, HexLayout]


class MapPlacer:
    """The module's maps with the boards the save selected, each placed once, by name or id.
    The save's board choices are read once (`SavedGame.board_selection` reads the whole save)."""

    def __init__(self, module: Module, game: SavedGame) -> None:
        self.module = module
        self._chosen = board_selections(game.root)
        self._placed: dict[str, PlacedMap | None] = {}

    def __call__(self, ref: str) -> PlacedMap | None:
        """The map `ref` (a name or a save's map id) placed; None when the module lacks it."""
        if ref not in self._placed:
            mdef = self.module.map_by_id(ref)
            if mdef is None:
                self._placed[ref] = None
            else:
                self._placed[ref] = place_map(mdef, self._chosen.get(mdef.name, self._chosen.get(mdef.id)))
        return self._placed[ref]


def main_layout(
    module: Module, game: SavedGame, extras: StateExtras | None = None, placer: MapPlacer | None = None
) -> Main | None:
    """The map and numbered hex grid the rules play on (see the module doc), as the save
    placed its boards; None when the module has no numbered hex grid. A map or board the
    pack names (`extras`) that the module lacks, or that has no numbered hex grid, is a
    UsageError naming the ones it has. `placer`: the maps already placed for this save."""
    place = placer or MapPlacer(module, game)
    if extras is None or not extras.map:
        for mdef in module.maps.values():
            placed = place(mdef.name)
            assert placed is not None
            for lay in placed.hex_layouts():
                if lay.numbered:
                    return placed, with_cached_index(lay)
        return None
    if extras.map not in module.maps:
        raise UsageError(
            f"the pack plays on map {extras.map!r} ([state] map), which module {module.name!r} "
            f"lacks (its maps: {', '.join(module.maps) or 'none'})"
        )
    placed = place(extras.map)
    assert placed is not None
    grids = [lay for lay in placed.hex_layouts() if lay.numbered]
    boards = sorted({lay.board.name for lay in grids})
    found = next((lay for lay in grids if not extras.board or lay.board.name == extras.board), None)
    if found is None:
        on = f"board {extras.board!r} of map {extras.map!r}" if extras.board else f"map {extras.map!r}"
        raise UsageError(
            f"the pack plays on {on} ([state]), which has no numbered hex grid as this save lays it out "
            f"(boards with one: {', '.join(boards) or 'none'})"
        )
    return placed, with_cached_index(found)


def named_box(box: str, specs: Sequence[BoxSpec]) -> Box | None:
    """What the pack's first ``[boxes]`` entry matching `box` makes of it."""
    for spec in specs:
        hit, number = spec.number(box)
        if hit:
            return Box(spec.name, spec.kind, spec.side, number)
    return None


def opening_root(root: Node) -> Node:
    """The saved part of a game: a log's root without its LOG steps (a save's root as it is)."""
    steps = log_steps(root)
    return Node(root.text, root.children[: len(root.children) - len(steps)]) if steps else root


@dataclass(frozen=True, eq=False)
class GamePosition:
    """A save resolved for a pack (see the module doc). `pieces` are the save's (a log's opening);
    `globals` and `reading` what the module shows as the save leaves it (a log: at its end),
    `opening_globals` and `opening_reading` as a log opens (a save: the same)."""

    module: Module
    game: SavedGame
    pack: LoadedPack
    maps: MapPlacer
    main: Main | None
    pieces: tuple[Piece, ...]
    globals: Mapping[str, str]
    opening_globals: Mapping[str, str]
    reading: TrackerReading | None
    opening_reading: TrackerReading | None
    label: Labeler  # the label VASSAL shows at (map, x, y) with the maps as placed: a log's replay shares it
    _spots: dict[tuple[str | None, int, int, str | None], Position] = field(default_factory=dict, repr=False)
    _units: dict[tuple[str, str, tuple[tuple[str, str], ...]], Unit | Unmapped | None] = field(
        default_factory=dict, repr=False
    )

    def fits(self, module: Module, game: SavedGame, pack: LoadedPack) -> bool:
        """Whether this is the position of `module`, `game` and `pack` (a caller's own, passed on)."""
        return self.module is module and self.game is game and self.pack is pack

    def place(self, piece: Piece) -> Position:
        """Where `piece` is for the rules (see the module doc), worked out once per spot."""
        key = (piece.map, piece.x, piece.y, piece.location)
        if key not in self._spots:
            self._spots[key] = self._position(piece.map, piece.x, piece.y, piece.location)
        return self._spots[key]

    def at(self, p: Place) -> Position:
        """Where a log's `Place` is for the rules."""
        key = (p.map, p.x, p.y, p.label)
        if key not in self._spots:
            self._spots[key] = self._position(p.map, p.x, p.y, p.label)
        return self._spots[key]

    def _position(self, map_ref: str | None, x: int, y: int, label: str | None) -> Position:
        if map_ref is None:
            return Position()
        placed, main = self.maps(map_ref), self.main
        if (
            main is not None
            and placed is not None
            and placed.name == main[0].name
            and placed.layout_at(x, y) == main[1]
        ):
            lay = main[1]  # the one instance whose label index is built once, not once per piece
            h = lay.hex_at(x, y)
            if h is not None:
                return Position(h, lay.label_of(h))
        # Not on the main grid: an off-map box, named as VASSAL names the spot (a turn-track box,
        # "Eliminated"), else by the map; the pack's [boxes] say what kind of box it is.
        box = label or map_ref
        return Position(box=box, named=named_box(box, self.pack.pack.boxes))

    def unit(self, piece: Piece) -> Unit | Unmapped | None:
        """The unit the pack makes of `piece`, why none, or None for a marker (unitmap.map_piece).
        UsageError when the pack has no units file."""
        key = (piece.id, piece.name, tuple(sorted(piece.properties.items())))
        if key not in self._units:
            self._units[key] = self._unitmap().map_piece(piece)
        return self._units[key]

    def _unitmap(self) -> UnitMap:
        lp = self.pack
        if lp.unitmap is None:
            raise UsageError(f"pack {lp.id!r} has no units file ({lp.pack.units_file}): no piece can become a unit")
        return lp.unitmap

    def state(
        self,
        pieces: Sequence[Piece],
        turn: int | None,
        phase: str | None,
        weather: str | None,
        departures: tuple[Departure, ...] = (),
    ) -> tuple[GameState, list[Unmapped]]:
        """The bare position of `pieces` (no globals or tracks: state_builder.py and
        pbem/log_state.py add what the moment shows), and the pieces the pack cannot map.
        UsageError when the pack has no units file."""
        self._unitmap()
        units: list[Unit] = []
        unmapped: list[Unmapped] = []
        markers: dict[str, list[Position]] = {}
        positions: dict[str, Position] = {}
        for piece in pieces:
            got = self.unit(piece)
            if isinstance(got, Unit):
                units.append(got)
                positions[got.id] = self.place(piece)
            elif got is None:  # ignored by the pack: a marker some rules read by name
                markers.setdefault(piece.name, []).append(self.place(piece))
            else:
                unmapped.append(got)
        state = GameState(
            {u.id: u for u in units},
            positions,
            turn,
            phase,
            weather,
            {k: tuple(v) for k, v in markers.items()},
            departures,
        )
        return state, unmapped


def resolve(module: Module, game: SavedGame, lp: LoadedPack) -> GamePosition:
    """`game` on `module` as `lp` sees it, resolved once (see the module doc). UsageError when
    the pack plays on a map or board the module or save lacks (a pack with no units file can
    place and label pieces, but not make a state: `GamePosition.state`)."""
    placer = MapPlacer(module, game)
    main = main_layout(module, game, lp.pack.extras, placer)
    src = lp.pack.state
    opening = opening_root(game.root)
    end_globals = global_values(module, game.root)
    reading = tracker_reading(module, game.root, src.tracker) if src.tracker else None
    if opening is game.root:
        opening_globals, opening_reading = end_globals, reading
    else:
        opening_globals = global_values(module, opening)
        opening_reading = tracker_reading(module, opening, src.tracker) if src.tracker else None
    boards = {}
    for m in module.maps.values():
        placed = placer(m.name)
        assert placed is not None
        boards[m.name] = placed.placed
    label = labeler(game.root, module, boards)
    pieces = tuple(game_pieces(game.root, module, game.path, boards, label))
    return GamePosition(
        module, game, lp, placer, main, pieces, end_globals, opening_globals, reading, opening_reading, label
    )
