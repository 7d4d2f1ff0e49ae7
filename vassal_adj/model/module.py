"""What a VASSAL module defines: maps, boards, grids, pieces, dice and turn trackers.

Pure frozen records built by `parse.buildfile` from buildFile XML. Attribute names follow
VASSAL's (VASSAL-FORMATS.md section 7); values are already converted with VASSAL's defaults.
Geometry (pixel <-> label, boards placed on a map) lives in `model.grid` and `model.maps`,
which read these records; this module imports neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class HexNumbering:
    """A HexGridNumbering (or SquareGridNumbering: then `stagger` is False)."""

    first: str = "H"  # "H": column then row; "V": row then column
    sep: str = ""
    h_type: str = "N"  # "N" numeric, "A" alphabetic
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 1
    v_off: int = 1
    h_descend: bool = False
    v_descend: bool = False
    stagger: bool = True
    location_format: str = "$gridLocation$"
    oblique: bool = False  # ObliqueHexGridNumbering (VASSAL 3.8)


@dataclass(frozen=True)
class HexGridDef:
    """A HexGrid: VASSAL's hex size (`dx`, `dy`), origin, orientation, snapping and numbering."""

    dx: float
    dy: float
    x0: int = 0
    y0: int = 32
    sideways: bool = False
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    snapscale: int = 0
    numbering: HexNumbering | None = None
    kind: str = field(default="hex", init=False)


@dataclass(frozen=True)
class SquareGridDef:
    """A SquareGrid: cell size, origin, snapping, how distances count (`range`) and numbering."""

    dx: float = 48.0
    dy: float = 48.0
    x0: int = 24
    y0: int = 24
    snap_to: bool = True
    edges_legal: bool = False
    corners_legal: bool = False
    range: str = "Metric"
    numbering: HexNumbering | None = None  # stagger is always False here
    kind: str = field(default="square", init=False)


@dataclass(frozen=True)
class Region:
    """A named point of a RegionGrid (an irregular grid), in board pixels."""

    name: str
    x: int
    y: int


@dataclass(frozen=True)
class RegionGridDef:
    """A RegionGrid: the named points pieces snap to."""

    regions: tuple[Region, ...] = ()
    snap_to: bool = True
    kind: str = field(default="region", init=False)


@dataclass(frozen=True)
class ZoneDef:
    """A Zone of a ZonedGrid: its polygon, how its locations are named and its own grid, if any."""

    name: str
    path: tuple[tuple[int, int], ...]  # board-local polygon vertices
    location_format: str = "$name$"
    use_parent_grid: bool = False
    grid: GridDef | None = None
    use_highlight: bool = False
    highlight_property: str = ""


@dataclass(frozen=True)
class ZonedGridDef:
    """A ZonedGrid: its zones and the grid of the board outside them (`background`)."""

    zones: tuple[ZoneDef, ...] = ()
    background: GridDef | None = None
    kind: str = field(default="zoned", init=False)


GridDef = HexGridDef | SquareGridDef | RegionGridDef | ZonedGridDef


@dataclass(frozen=True)
class BoardDef:
    """A Board: its image, pixel size and grid (`line`: its line in the buildFile)."""

    name: str
    image: str | None  # entry name under images/, None when the board is a plain colour
    width: int  # pixel size: the image's when there is one, else the attributes (500x500)
    height: int
    reversible: bool = False
    grid: GridDef | None = None
    size_known: bool = True  # False when the image is named but missing from the module
    line: int | None = field(default=None, compare=False)  # buildFile line of the Board element


@dataclass(frozen=True)
class SetupStackDef:
    """A SetupStack (an at-start stack): where it lies and the pieces it starts with."""

    name: str
    owning_board: str | None
    x: int
    y: int
    use_grid_location: bool
    location: str
    piece_slots: tuple[PieceSlot, ...] = ()
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class DeckDef:
    """A DrawPile (deck) on a map: where it lies and the CardSlots/PieceSlots it starts with."""

    name: str
    owning_board: str | None
    x: int
    y: int
    width: int
    height: int
    piece_slots: tuple[PieceSlot, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=dict)
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class MapDef:
    """A Map, PrivateMap or PlayerHand: its boards, at-start stacks, decks and attributes."""

    name: str  # mapName; the identifier saves use
    id: str  # internal id Map0, Map1, ... in build-file order
    kind: str  # "Map", "PrivateMap" or "PlayerHand"
    edge_width: int = 0
    edge_height: int = 0
    boards: Mapping[str, BoardDef] = field(default_factory=dict)  # by name, in file order
    default_setup: str | None = None  # BoardPicker <setup> text, when present
    setup_stacks: tuple[SetupStackDef, ...] = ()
    decks: tuple[DeckDef, ...] = ()  # DrawPiles, in file order
    attributes: Mapping[str, str] = field(default_factory=dict)  # raw Map attributes
    line: int | None = field(default=None, compare=False)

    def board(self, name: str) -> BoardDef:
        """The board called `name`; UsageError listing the map's boards."""
        found = self.boards.get(name)
        if found is None:
            from vassal_adj.errors import UsageError

            have = ", ".join(repr(n) for n in self.boards) or "none"
            raise UsageError(f"map {self.name!r} has no board {name!r} (boards: {have})")
        return found


@dataclass(frozen=True)
class PieceSlot:
    """A PieceSlot or CardSlot of the piece palette: the piece definition it adds."""

    entry_name: str
    gpid: str
    text: str  # the AddPiece command text (id "null"), trimmed as VASSAL trims it
    folder: tuple[str, ...] = ()  # names of the enclosing widgets/folders, outermost first
    card: bool = False  # a CardSlot
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class PrototypeDef:
    """A PrototypeDefinition: the traits pieces name as a prototype."""

    name: str
    text: str  # the AddPiece command text of the definition
    description: str = ""


@dataclass(frozen=True)
class DiceButtonDef:
    """A DiceButton or SpecialDiceButton: the dice it rolls and how it reports them."""

    name: str
    n_dice: int = 2
    n_sides: int = 6
    plus: int = 0
    add_to_total: int = 0
    report_total: bool = False
    report_format: str = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
    kind: str = "DiceButton"  # or "SpecialDiceButton"
    attributes: Mapping[str, str] = field(default_factory=dict)
    special_faces: tuple[tuple[str, ...], ...] = ()  # SpecialDiceButton: face texts of each die


@dataclass(frozen=True)
class TurnLevelDef:
    """A level of a TurnTracker (a counter or a list), with the levels nested in it."""

    kind: str  # "counter" or "list"
    name: str
    property: str = ""
    start: int = 1
    incr: int = 1
    loop: bool = False
    loop_limit: int = -1
    items: tuple[str, ...] = ()  # list levels
    levels: tuple[TurnLevelDef, ...] = ()
    turn_format: str = "$value$"


@dataclass(frozen=True)
class TurnTrackerDef:
    """A TurnTracker: its levels, outermost first."""

    id: str  # TurnTracker0, TurnTracker1, ... in document order
    name: str
    levels: tuple[TurnLevelDef, ...] = ()
    attributes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GlobalPropertyDef:
    """A GlobalProperty: its initial value and where it is defined (`container`)."""

    name: str
    initial_value: str = ""
    container: str = "Module"  # "Module", a map name, or "map:zone"
    attributes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class PredefinedSetupDef:
    """A PredefinedSetup of the File > New Game menu: a scenario start the module ships as a save
    (`file`, an entry of the module archive) when `use_file`, or a blank start; `is_menu`: a
    submenu only, `menu` the submenus it sits in."""

    name: str
    file: str = ""
    use_file: bool = True
    is_menu: bool = False
    menu: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class ElementInfo:
    """A buildFile element kept for lint: its tag, attributes and source line."""

    tag: str
    attributes: Mapping[str, str]
    line: int | None = None


@dataclass(frozen=True)
class Module:
    """What a module defines (its buildFile and moduledata), the maps and prototypes by name."""

    name: str
    version: str
    vassal_version: str = ""
    description: str = ""
    root_tag: str = "VASSAL.build.GameModule"
    build_entry: str = "buildFile.xml"  # or the pre-3.5 "buildFile"
    maps: Mapping[str, MapDef] = field(default_factory=dict)  # by name, in file order
    prototypes: Mapping[str, PrototypeDef] = field(default_factory=dict)  # later duplicate wins
    piece_slots: tuple[PieceSlot, ...] = ()
    dice_buttons: tuple[DiceButtonDef, ...] = ()
    turn_trackers: tuple[TurnTrackerDef, ...] = ()
    global_properties: tuple[GlobalPropertyDef, ...] = ()
    sides: tuple[str, ...] = ()  # PlayerRoster entries
    other_elements: tuple[ElementInfo, ...] = ()
    metadata: Mapping[str, str] = field(default_factory=dict)  # moduledata fields
    root_attributes: Mapping[str, str] = field(default_factory=dict)  # e.g. ModuleOther1, nextPieceSlotId
    duplicate_prototypes: tuple[str, ...] = ()  # names defined more than once (the later one wins)
    shadowed_maps: tuple[MapDef, ...] = ()  # maps whose name an earlier map already uses
    predefined_setups: tuple[PredefinedSetupDef, ...] = ()  # in buildFile order, menus included
    # The bytes of each predefined set-up's save the archive holds, by file name, and the archive's
    # path for messages about them (load_module fills both).
    setup_files: Mapping[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    source: str = field(default="", compare=False)

    def map_by_id(self, ident: str) -> MapDef | None:
        """Resolve a map reference from a save: its name or its internal id (``Map0``)."""
        found = self.maps.get(ident)
        if found is not None:
            return found
        every = (*self.maps.values(), *self.shadowed_maps)
        return next((m for m in every if m.id == ident), None)
