"""Read a module's buildFile XML (and its moduledata) into a `model.module.Module`.

Section 7 of VASSAL-FORMATS.md: each element is a Java component named by its class;
maps, boards, grids, at-start stacks, decks, piece slots, prototypes, dice, turn trackers,
global properties and sides are turned into records; every other element is kept as a
lightweight `ElementInfo` for lint. The XML is read by `buildfile_xml.safe_xml_root`, which
never loads a DTD or resolves an entity; grids and boards are read by `buildfile_grids`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from vassal_adj.errors import FormatError, Where
from vassal_adj.model.module import (
    BoardDef,
    DeckDef,
    DiceButtonDef,
    ElementInfo,
    GlobalPropertyDef,
    MapDef,
    Module,
    PieceSlot,
    PredefinedSetupDef,
    PrototypeDef,
    SetupStackDef,
    TurnTrackerDef,
)
from vassal_adj.parse.buildfile_components import (
    COUNTER_LEVEL,
    LIST_LEVEL,
    SPECIAL_DICE_BUTTON,
    SPECIAL_DIE,
    SPECIAL_DIE_FACE,
    parse_dice_button,
    parse_turn_levels,
)
from vassal_adj.parse.buildfile_grids import (
    GRID_PART_TAGS,
    GRID_TAGS,
    ZONE,
    Values,
    java_bool,
    java_int,
    java_trim,
    parse_board,
    short,
)
from vassal_adj.parse.buildfile_xml import element_text, make_safe_parser, parse_metadata, safe_xml_root

__all__ = ["parse_buildfile", "parse_metadata", "safe_xml_root", "make_safe_parser", "ROOT_TAGS"]

_M = "VASSAL.build.module."
ROOT_TAGS = frozenset({"VASSAL.build.GameModule", "VASSAL.launch.BasicModule", _M + "ModuleExtension"})
MAP_TAGS = frozenset({_M + "Map", _M + "PrivateMap", _M + "PlayerHand"})
BOARD_PICKER = _M + "map.BoardPicker"
BOARD = _M + "map.boardPicker.Board"
SETUP_STACK = _M + "map.SetupStack"
DRAW_PILE = _M + "map.DrawPile"
PIECE_SLOT = "VASSAL.build.widget.PieceSlot"
CARD_SLOT = "VASSAL.build.widget.CardSlot"
PROTOTYPE = _M + "PrototypeDefinition"
DICE_BUTTON = _M + "DiceButton"
TURN_TRACKER = _M + "turn.TurnTracker"
GLOBAL_PROPERTY = _M + "properties.GlobalProperty"
ZONE_PROPERTY = _M + "properties.ZoneProperty"
PLAYER_ROSTER = _M + "PlayerRoster"
PREDEFINED_SETUP = _M + "PredefinedSetup"

# Elements that become (part of) a record; every other element is kept as ElementInfo.
MODELED = (
    ROOT_TAGS
    | MAP_TAGS
    | GRID_TAGS
    | GRID_PART_TAGS
    | {BOARD_PICKER, BOARD, SETUP_STACK, DRAW_PILE, PIECE_SLOT, CARD_SLOT, PROTOTYPE}
    | {_M + "PrototypesContainer", _M + "folder.PrototypeFolder", _M + "properties.GlobalProperties"}
    | {DICE_BUTTON, SPECIAL_DICE_BUTTON, SPECIAL_DIE, SPECIAL_DIE_FACE, TURN_TRACKER}
    | {COUNTER_LEVEL, LIST_LEVEL, GLOBAL_PROPERTY, ZONE_PROPERTY, PLAYER_ROSTER}
)
# Text-only children of modeled elements: (parent, child).
_TEXT_CHILDREN = {(PLAYER_ROSTER, "entry"), (BOARD_PICKER, "setup")}
# Containers whose name becomes part of a PieceSlot's folder path, and the attribute naming them.
_WIDGETS = {"VASSAL.build.widget." + w for w in ("ListWidget", "TabWidget", "PanelWidget", "BoxWidget")}

ImageSize = Callable[[str], "tuple[int, int] | None"]


@dataclass
class _MapBuilder:
    name: str
    id: str
    kind: str
    edge_width: int
    edge_height: int
    attributes: dict[str, str]
    line: int | None
    boards: dict[str, BoardDef] = field(default_factory=dict)
    default_setup: str | None = None
    setup_stacks: list[SetupStackDef] = field(default_factory=list)
    decks: list[DeckDef] = field(default_factory=list)

    def build(self) -> MapDef:
        return MapDef(
            name=self.name,
            id=self.id,
            kind=self.kind,
            edge_width=self.edge_width,
            edge_height=self.edge_height,
            boards=self.boards,
            default_setup=self.default_setup,
            setup_stacks=tuple(self.setup_stacks),
            decks=tuple(self.decks),
            attributes=self.attributes,
            line=self.line,
        )


class _Reader:
    """One pass over the element tree, collecting records in document order."""

    def __init__(self, values: Values, image_size: ImageSize) -> None:
        self.values = values
        self.image_size = image_size
        self.maps: dict[str, MapDef] = {}
        self.shadowed: list[MapDef] = []
        self.map_count = 0
        self.prototypes: dict[str, PrototypeDef] = {}
        self.duplicates: list[str] = []
        self.slots: list[PieceSlot] = []
        self.dice: list[DiceButtonDef] = []
        self.trackers: list[TurnTrackerDef] = []
        self.properties: list[GlobalPropertyDef] = []
        self.sides: list[str] = []
        self.setups: list[PredefinedSetupDef] = []

    # -- walking ---------------------------------------------------------------------
    def visit(
        self, el: etree._Element, folder: tuple[str, ...], mapb: _MapBuilder | None, sink: list[PieceSlot] | None
    ) -> None:
        for child in el:
            if not isinstance(child.tag, str):
                continue  # comments and processing instructions
            tag = child.tag
            if tag in MAP_TAGS or (child.get("mapName") is not None and _has_child(child, "BoardPicker")):
                self.read_map(child, folder)
            elif tag in (PIECE_SLOT, CARD_SLOT):
                self.read_slot(child, folder, sink)
            elif tag == PROTOTYPE:
                self.read_prototype(child)
            elif tag in (DICE_BUTTON, SPECIAL_DICE_BUTTON):
                self.read_dice(child)
            elif tag == TURN_TRACKER:
                self.read_tracker(child)
            elif tag == GLOBAL_PROPERTY:
                self.read_property(child, mapb.name if mapb else "Module")
            elif tag == PREDEFINED_SETUP:
                self.read_predefined_setup(child, ())
            elif tag == PLAYER_ROSTER:
                self.sides.extend(java_trim(element_text(e)) for e in child if e.tag == "entry")
            elif mapb is not None and short(tag).endswith("BoardPicker"):
                self.read_board_picker(child, mapb)
            elif mapb is not None and tag == SETUP_STACK:
                self.read_setup_stack(child, folder, mapb)
            elif tag == DRAW_PILE:
                self.read_deck(child, folder, mapb)
            else:
                label = _folder_label(child)
                self.visit(child, folder + (label,) if label else folder, mapb, sink)

    def read_map(self, el: etree._Element, folder: tuple[str, ...]) -> None:
        ident = f"Map{self.map_count}"  # Map, PrivateMap and PlayerHand share one counter
        self.map_count += 1
        edge_w = edge_h = 0
        legacy = el.get("edge", "")  # "edge" sorts before edgeHeight/edgeWidth, which win
        comma = legacy.find(",")
        if comma > 0:
            w, h = java_int(legacy[:comma]), java_int(legacy[comma + 1 :])
            if w is not None and h is not None:
                edge_w, edge_h = w, h
        mapb = _MapBuilder(
            name=el.get("mapName") or ident,
            id=ident,
            kind=short(str(el.tag)),
            edge_width=self.values.lenient_int(el, "edgeWidth", edge_w),
            edge_height=self.values.lenient_int(el, "edgeHeight", edge_h),
            attributes=self.values.attributes(el),
            line=el.sourceline,
        )
        self.visit(el, folder + (mapb.name,), mapb, None)
        built = mapb.build()
        if built.name in self.maps:
            self.shadowed.append(built)  # VASSAL finds the first map of a name
        else:
            self.maps[built.name] = built

    def read_board_picker(self, el: etree._Element, mapb: _MapBuilder) -> None:
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "setup":
                if mapb.default_setup is None:
                    mapb.default_setup = java_trim(element_text(child))
            elif child.tag == BOARD or short(child.tag).endswith("Board"):
                board = parse_board(child, self.values, self.image_size)
                mapb.boards.setdefault(board.name, board)  # BoardPicker finds the first of a name
                for zone in child.iter(ZONE):
                    for prop in zone.iter(ZONE_PROPERTY):
                        self.read_property(prop, f"{mapb.name}:{zone.get('name', '')}")

    def read_setup_stack(self, el: etree._Element, folder: tuple[str, ...], mapb: _MapBuilder) -> None:
        name = el.get("name", "")
        slots: list[PieceSlot] = []
        self.visit(el, folder + (name,), mapb, slots)
        mapb.setup_stacks.append(
            SetupStackDef(
                name=name,
                owning_board=el.get("owningBoard") or None,
                x=self.values.lenient_int(el, "x", 0),
                y=self.values.lenient_int(el, "y", 0),
                use_grid_location=java_bool(el.get("useGridLocation")),
                location=el.get("location", ""),
                piece_slots=tuple(slots),
                line=el.sourceline,
            )
        )

    def read_deck(self, el: etree._Element, folder: tuple[str, ...], mapb: _MapBuilder | None) -> None:
        name = el.get("name", "")
        slots: list[PieceSlot] = []
        self.visit(el, folder + (name,), mapb, slots)
        if mapb is None:
            return
        mapb.decks.append(
            DeckDef(
                name=name,
                owning_board=el.get("owningBoard") or None,
                x=self.values.lenient_int(el, "x", 0),
                y=self.values.lenient_int(el, "y", 0),
                width=self.values.lenient_int(el, "width", 40),
                height=self.values.lenient_int(el, "height", 40),
                piece_slots=tuple(slots),
                attributes=self.values.attributes(el),
                line=el.sourceline,
            )
        )

    # -- leaves ----------------------------------------------------------------------
    def read_slot(self, el: etree._Element, folder: tuple[str, ...], sink: list[PieceSlot] | None) -> None:
        slot = PieceSlot(
            entry_name=el.get("entryName", ""),
            gpid=el.get("gpid", ""),
            text=java_trim(element_text(el)),
            folder=folder,
            card=el.tag == CARD_SLOT,
            line=el.sourceline,
        )
        self.slots.append(slot)
        if sink is not None:
            sink.append(slot)

    def read_prototype(self, el: etree._Element) -> None:
        name = el.get("name", "")
        if name in self.prototypes:
            self.duplicates.append(name)
        self.prototypes[name] = PrototypeDef(
            name=name, text=java_trim(element_text(el)), description=el.get("description", "")
        )

    def read_dice(self, el: etree._Element) -> None:
        self.dice.append(parse_dice_button(el, self.values))

    def read_tracker(self, el: etree._Element) -> None:
        ident = f"TurnTracker{len(self.trackers)}"
        self.trackers.append(
            TurnTrackerDef(
                id=ident,
                name=el.get("name", ""),
                levels=parse_turn_levels(el, self.values),
                attributes=self.values.attributes(el),
            )
        )

    def read_predefined_setup(self, el: etree._Element, menu: tuple[str, ...]) -> None:
        # VASSAL: a menu holds further set-ups (nested elements); its own file is never opened.
        name = el.get("name", "")
        self.setups.append(
            PredefinedSetupDef(
                name,
                el.get("file", ""),
                java_bool(el.get("useFile"), True),
                java_bool(el.get("isMenu"), False),
                menu,
                el.get("description", ""),
            )
        )
        for child in el:
            if child.tag == PREDEFINED_SETUP:
                self.read_predefined_setup(child, (*menu, name))

    def read_property(self, el: etree._Element, container: str) -> None:
        self.properties.append(
            GlobalPropertyDef(
                name=el.get("name", ""),
                initial_value=el.get("initialValue", ""),
                container=container,
                attributes=self.values.attributes(el),
            )
        )


def _has_child(el: etree._Element, short_name: str) -> bool:
    return any(isinstance(c.tag, str) and short(c.tag).endswith(short_name) for c in el)


def _folder_label(el: etree._Element) -> str | None:
    """The name a container adds to a PieceSlot's folder path (None: not a container)."""
    tag = str(el.tag)
    if tag in _WIDGETS:
        return el.get("entryName", "")
    if tag == _M + "PieceWindow":
        return el.get("name") or el.get("text", "")
    if tag.startswith(_M + "folder.") or tag == _M + "ToolbarMenu":
        return el.get("name", "")
    return None


def _other_elements(root: etree._Element, values: Values) -> tuple[ElementInfo, ...]:
    out = []
    for el in root.iter(etree.Element):
        if el is root or el.tag in MODELED:
            continue
        parent = el.getparent()
        if parent is not None and (parent.tag, el.tag) in _TEXT_CHILDREN:
            continue
        out.append(ElementInfo(tag=el.tag, attributes=values.attributes(el), line=el.sourceline))
    return tuple(out)


def parse_buildfile(
    xml: bytes,
    *,
    path: str | None = None,
    entry: str = "buildFile.xml",
    image_size: ImageSize = lambda name: None,
    metadata: bytes | None = None,
) -> Module:
    """A `Module` from buildFile bytes; `image_size(name)` gives a board image's pixel size.

    `metadata` is the module's `moduledata` entry, when there is one. Raises FormatError
    (with path, entry and line) for malformed XML, entity declarations, an unknown root
    element, or values VASSAL itself refuses (e.g. a decimal HexGrid `x0`).
    """
    where = Where(path=path, entry=entry)
    root = safe_xml_root(xml, where)
    if root.tag not in ROOT_TAGS:
        raise FormatError(
            f'root element is not a VASSAL module or extension: "{root.tag}"', where.but(line=root.sourceline)
        )
    reader = _Reader(Values(path, entry), image_size)
    reader.visit(root, (), None, None)
    meta = parse_metadata(metadata, path=path) if metadata is not None else {}
    return Module(
        name=root.get("name", ""),
        version=root.get("version", ""),
        vassal_version=root.get("VassalVersion", ""),
        description=root.get("description", ""),
        root_tag=root.tag,
        build_entry=entry,
        maps=reader.maps,
        prototypes=reader.prototypes,
        piece_slots=tuple(reader.slots),
        dice_buttons=tuple(reader.dice),
        turn_trackers=tuple(reader.trackers),
        global_properties=tuple(reader.properties),
        sides=tuple(reader.sides),
        other_elements=_other_elements(root, reader.values),
        metadata=meta,
        root_attributes=reader.values.attributes(root),
        duplicate_prototypes=tuple(reader.duplicates),
        shadowed_maps=tuple(reader.shadowed),
        predefined_setups=tuple(reader.setups),
    )
