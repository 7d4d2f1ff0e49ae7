"""The parts of an example module and its saves that do not depend on the game: the buildFile
elements of a map (a hex board, or a board of named zones for holding boxes) and of a turn
tracker, the tracker's save state, the `moduledata`/`savedata` entries, writing the module's
zip and a save; a board's hexside features and place names read from the pack's terrain. The
Kasserine, Tunisia 1943 and Kesselring's War examples (make_*example.py) build their modules
from them.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.module import HexGridDef
from vassal_adj.parse.tokens import join
from vassal_adj.savedgame import SavedGame

FIXED_MS = 1767225600000  # 2026-01-01T00:00:00Z: saves and piece ids do not depend on the clock
ZIP_TIME = (2026, 1, 1, 0, 0, 0)


def metadata(module_version: str, vassal_version: str, extra: str) -> bytes:
    """A `moduledata` or `savedata` entry, as VASSAL writes it (`extra`: its own elements)."""
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
        f"  <version>{module_version}</version>\n  <extra1/>\n  <extra2/>\n"
        f"  <VassalVersion>{vassal_version}</VassalVersion>\n  <dateSaved>{FIXED_MS}</dateSaved>\n"
        f"{extra}</data>\n"
    ).encode()


def write_zip(out: Path, entries: dict[str, bytes]) -> None:
    """A module file with `entries` in order, dated ZIP_TIME (so that it does not depend on the
    clock), written beside `out` and moved over it."""
    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w") as zf:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    tmp.replace(out)


def write_game(target: Path, text: str, codec: Codec, savedata: bytes, moduledata: bytes) -> None:
    """A save or log of command text `text`; the generator owns `target` (SavedGame.write never
    replaces an input, so an old copy is removed first)."""
    game = SavedGame.new(text, codec=codec, savedata=savedata, moduledata=moduledata)
    if target.exists():
        target.unlink()
    game.write(target)


def escape(text: str) -> str:
    """Text as the content of a buildFile element."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def box_rect(boxes: list[str], name: str, cols: int, size: tuple[int, int], gap: int) -> tuple[int, int, int, int]:
    """The rectangle of box `name` on a board of `boxes` laid out `cols` a row, each `size`,
    `gap` pixels apart."""
    i = boxes.index(name)
    x = gap + (i % cols) * (size[0] + gap)
    y = gap + (i // cols) * (size[1] + gap)
    return x, y, x + size[0], y + size[1]


def box_slot(rect: tuple[int, int, int, int], k: int, cols: int = 8, rows: int = 4) -> tuple[int, int]:
    """The centre of the k-th counter place of a box (rows of `cols` under the title, 48 x 50
    pixels apart)."""
    assert k < cols * rows, f"box at {rect[:2]} is full"
    return rect[0] + 28 + 48 * (k % cols), rect[1] + 62 + 50 * (k // cols)


def map_xml(name: str, board: str, image: str, grid: list[str]) -> list[str]:
    """A Map with one board (`grid`: the board's grid elements), its pickers and mouse handlers."""
    return [
        f'    <VASSAL.build.module.Map allowMultiple="false" backgroundcolor="255,255,255" buttonName="{name}" '
        f'changeFormat="$message$" color="0,0,0" createFormat="$pieceName$ created in $location$ *" '
        f'edgeHeight="0" edgeWidth="0" hotkey="" icon="/images/map.gif" launch="false" mapName="{name}" '
        f'markMoved="Never" moveToFormat="$pieceName$ moves $previousLocation$ &amp;rarr; $location$ *" '
        f'moveWithinFormat="$pieceName$ moves $previousLocation$ &amp;rarr; $location$ *" thickness="3">',
        '        <VASSAL.build.module.map.BoardPicker addColumnText="Add column" addRowText="Add row" '
        'boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">',
        f"            <setup>{name}BoardPicker\t{board}\t0\t0</setup>",
        f'            <VASSAL.build.module.map.boardPicker.Board image="{image}" name="{board}" reversible="false">',
        *grid,
        "            </VASSAL.build.module.map.boardPicker.Board>",
        "        </VASSAL.build.module.map.BoardPicker>",
        '        <VASSAL.build.module.map.StackMetrics bottom="40,0" disabled="false" down="37,0" exSepX="6" '
        'exSepY="18" top="38,0" unexSepX="3" unexSepY="5" up="39,0"/>',
        *(
            f"        <VASSAL.build.module.map.{c}/>"
            for c in (
                "ForwardToKeyBuffer",
                "Scroller",
                "ForwardToChatter",
                "MenuDisplayer",
                "MapCenterer",
                "StackExpander",
                "PieceMover",
                "KeyBufferer",
            )
        ),
        '        <VASSAL.build.module.map.Zoomer inButtonText="" inIconName="/images/zoomIn.gif" outButtonText="" '
        'outIconName="/images/zoomOut.gif" pickButtonText="" pickIconName="/images/zoom.png" '
        'zoomLevels="0.25,0.5,0.75,1.0" zoomStart="4"/>',
        "    </VASSAL.build.module.Map>",
    ]


def hex_grid_xml(grid: HexGridDef) -> list[str]:
    """A HexGrid and its numbering (labels "CCRR" as `grid.numbering` sets them), not drawn."""
    n = grid.numbering
    return [
        f'                <VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" '
        f'dotsVisible="false" dx="{grid.dx}" dy="{grid.dy}" edgesLegal="false" sideways="false" snapTo="true" '
        f'visible="false" x0="{grid.x0}" y0="{grid.y0}">',
        f'                    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" '
        f'first="{n.first}" fontSize="9" hDescend="false" hDrawOff="0" hLeading="{n.h_leading}" hOff="{n.h_off}" '
        f'hType="{n.h_type}" locationFormat="$gridLocation$" rotateText="0" sep="" stagger="{str(n.stagger).lower()}" '
        f'vDescend="false" vDrawOff="0" vLeading="{n.v_leading}" vOff="{n.v_off}" vType="{n.v_type}" visible="false"/>',
        "                </VASSAL.build.module.map.boardPicker.board.HexGrid>",
    ]


def zoned_grid_xml(boxes: Iterable[tuple[str, tuple[int, int, int, int]]]) -> list[str]:
    """A ZonedGrid of rectangular zones, each named as VASSAL reports a piece there ($name$)."""
    zones = [
        f'                    <VASSAL.build.module.map.boardPicker.board.mapgrid.Zone highlightProperty="" '
        f'locationFormat="$name$" name="{name}" path="{x0},{y0};{x1},{y0};{x1},{y1};{x0},{y1}" '
        f'useHighlight="false" useParentGrid="false"/>'
        for name, (x0, y0, x1, y1) in boxes
    ]
    return [
        "                <VASSAL.build.module.map.boardPicker.board.ZonedGrid>",
        *zones,
        "                    <VASSAL.build.module.map.boardPicker.board.mapgrid.ZonedGridHighlighter/>",
        "                </VASSAL.build.module.map.boardPicker.board.ZonedGrid>",
    ]


def chain(parts: list[str]) -> str:
    """A decorator chain's type or state (spec 6.1): enc(TAB; outermost, chain(the rest)),
    each inner part nested (its tabs escaped) in the one outside it."""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = join([part, out], "\t")
    return out


def layer_trait(layer: str, menu: str, key: str, image: str) -> str:
    """An `emb2;` Layer (spec 6.6) named `layer`, of one level (picture `image`), off until its key
    (Ctrl+`key`) turns it on: a module's property "<layer>_Active" then reads true."""
    code = str(ord(key))
    fields = [menu, "130", key, "", "128", "", "", "128", "", "", "", "1", "false", "0", "0", image]
    fields += [
        "",
        "true",
        layer,
        "",
        "",
        "false",
        "",
        "1",
        "1",
        "false",
        f"{code},130",
        "",
        "",
        layer,
        "1.0",
        "",
        "true",
    ]
    return "emb2;" + join(fields, ";")


def tracker_xml(
    name: str, turn_level: str, phase_level: str, phases: list[str], config_first: bool = False
) -> list[str]:
    """A TurnTracker counting turns from 1, with the list of `phases` below the turn;
    `config_first`: the players may choose the phase a turn starts with."""
    return [
        f'    <VASSAL.build.module.turn.TurnTracker buttonText="Turn" fwdOnly="false" hotkey="" icon="" length="-1" '
        f'lengthStyle="Maximum" name="{name}" nexthotkey="" plusButtonSize="22" prevhotkey="" '
        'reportFormat="* &lt;$PlayerId$&gt; Turn Updated from $oldTurn$ to $newTurn$" tooltip="Game-Turn and phase" '
        'turnButtonHeight="22" turnFormat="Turn $level1$: $level2$">',
        f'        <VASSAL.build.module.turn.CounterTurnLevel incr="1" loop="false" loopLimit="-1" name="{turn_level}" '
        f'property="{turn_level}" start="1" turnFormat="$value$">',
        f'            <VASSAL.build.module.turn.ListTurnLevel configFirst="{str(config_first).lower()}" '
        'configList="false" '
        f'list="{",".join(phases)}" name="{phase_level}" property="{phase_level}" prompt="" turnFormat="$value$"/>',
        "        </VASSAL.build.module.turn.CounterTurnLevel>",
        "    </VASSAL.build.module.turn.TurnTracker>",
    ]


def tracker_state(turn: int, phase: str, phases: list[str], first: int = 0) -> str:
    """The tracker's save state (spec 5.8): counter level, then its phase list level, whose
    turn starts with phase `first` (an index)."""
    phase_state = join([str(phases.index(phase)), "0", str(first), ",".join(["true"] * len(phases))], ";")
    return join(["0", join([str(turn), "0", "false", "-1", phase_state], ";")], "|")


def palette_lists(tabs: Iterable[tuple[str, Sequence[tuple[str, int, str]]]]) -> list[str]:
    """The piece palette's lists: one ListWidget a tab title, of PieceSlots (printed name, gpid,
    piece text), as the examples' buildFiles hold them inside their TabWidget."""
    lines = []
    for title, slots in tabs:
        lines.append(
            f'        <VASSAL.build.widget.ListWidget divider="150" entryName="{title}" height="0" scale="1.0" '
            'width="0">'
        )
        lines += [
            f'            <VASSAL.build.widget.PieceSlot entryName={quoteattr(name)} gpid="{gpid}" '
            f'height="44" width="44">{escape(text)}</VASSAL.build.widget.PieceSlot>'
            for name, gpid, text in slots
        ]
        lines.append("        </VASSAL.build.widget.ListWidget>")
    return lines


def side_prototypes(sides: Iterable[str]) -> list[str]:
    """A PrototypeDefinition a side, marking its units with the property Side (units.toml reads it)."""
    return [
        f'        <VASSAL.build.module.PrototypeDefinition description="{side} units" name="{side}">'
        + escape("+/null/" + join(["mark;Side", "piece;;;;"], "\t") + "/" + join([side, "null;0;0;;0"], "\t"))
        + "</VASSAL.build.module.PrototypeDefinition>"
        for side in sides
    ]


def board_sides(ground, lay, features: Sequence[str]) -> dict[tuple[str, str], set[str]]:
    """(label, label) -> the features of each hexside of the pack's terrain that has one of `features`."""
    sides = {}
    for side in ground.sides_with(*features):
        a, b = side.hexes()
        sides[tuple(sorted((lay.label_of(a), lay.label_of(b))))] = set(ground.features(side))
    return sides


def place_names(ground, lay, kinds: set[str]) -> dict[str, str]:
    """Label -> the name of each one-hex place of the pack's terrain of one of `kinds`."""
    return {lay.label_of(h): p.name for p in ground.places() if p.kinds & kinds and len(p.hexes) == 1 for h in p.hexes}


def module_open(
    title: str, name: str, slots: int, version: str, vassal_version: str, sides: Sequence[str]
) -> list[str]:
    """The buildFile's first lines: the GameModule element (`title` in its description, the next
    piece slot id after `slots`), the command encoder, the player roster of `sides`, the global
    options and the chat."""
    return [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        f'<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="{vassal_version}" '
        f'description="Example module of vassal-adj: {title} on an invented map" '
        f'name="{name}" nextPieceSlotId="{slots + 1}" version="{version}">',
        "    <VASSAL.build.module.BasicCommandEncoder/>",
        "    <VASSAL.build.module.Documentation/>",
        '    <VASSAL.build.module.PlayerRoster buttonIcon="" buttonKeyStroke="" buttonText="Retire" buttonToolTip="">',
        *(f"        <entry>{side}</entry>" for side in sides),
        "    </VASSAL.build.module.PlayerRoster>",
        '    <VASSAL.build.module.GlobalOptions autoReport="Always" chatterHTMLSupport="Never" '
        'hotKeysOnClosedWindows="Never" inventoryForAll="Always" nonOwnerUnmaskable="Never" '
        'playerIdFormat="$PlayerName$" promptString="Opponents can unmask my pieces" '
        'sendToLocationMoveTrails="Never"/>',
        "    <VASSAL.build.module.Chatter/>",
    ]


def dice_button_xml(name: str, n_dice: int, tooltip: str) -> str:
    """A Dice Button of `n_dice` six-sided dice with the attributes of VASSAL 3.6's default "1d6"
    button (its report reads "*** 1d6 = 5 *** <player>", spec 5.4)."""
    return (
        '    <VASSAL.build.module.DiceButton addToTotal="0" canDisable="false" disabledIcon="" hotkey="" '
        'icon="/images/die.gif" keepCount="1" keepDice="false" keepOption="&gt;" lockAdd="false" lockDice="false" '
        f'lockPlus="false" lockSides="false" nDice="{n_dice}" nSides="6" name="{name}" plus="0" prompt="false" '
        'propertyGate="" reportFormat="** $name$ = $result$ *** &amp;lt;$PlayerName$&amp;gt;" reportTotal="false" '
        f'sortDice="false" text="{name}" tooltip="{tooltip}"/>'
    )


def module_close(lists: list[str], tracker: list[str], prototypes: list[str]) -> list[str]:
    """The buildFile's last lines: the piece window of the palette `lists`, the `tracker`, the
    `prototypes` and the GameModule's end."""
    return [
        '    <VASSAL.build.module.PieceWindow allowMultiple="false" buttonText="Pieces" hidden="false" '
        'hotkey="" icon="" name="Pieces" scale="1.0" text="Pieces" tooltip="Show the counters">',
        '        <VASSAL.build.widget.TabWidget entryName="Counters">',
        *("    " + line for line in lists),
        "        </VASSAL.build.widget.TabWidget>",
        "    </VASSAL.build.module.PieceWindow>",
        *tracker,
        "    <VASSAL.build.module.PrototypesContainer>",
        *prototypes,
        "    </VASSAL.build.module.PrototypesContainer>",
        "</VASSAL.build.GameModule>",
    ]


def slot_text(layers: list[str], marks: tuple[str, str] | None, side: str | None, basic: str) -> str:
    """A piece slot's AddPiece text, its '/' fields escaped as a save's ("A/5 Flak"): the `layers`'
    traits, then a marker's own `marks` (trait, value) or a unit's `side` prototype, then `basic`."""
    if marks is not None:
        traits, states = [*layers, marks[0]], [marks[1]]
    else:
        traits, states = [*layers, f"prototype;{side}"], [*(["-1"] * len(layers)), ""]
    return "+/" + join(["null", chain([*traits, basic]), chain([*states, "null;0;0;;0"])], "/")


def side_palettes(counters, gpids, slot) -> list[str]:
    """The piece palette's lists Axis, Allied and Markers of `counters` (a unit has a `side`, a
    marker is `marker`), each entry with its slot id from `gpids` and its `slot` text."""
    return palette_lists(
        (title, [(c.name, gpids[c], slot(c)) for c in members])
        for title, members in (
            ("Axis", [c for c in counters if c.side == "Axis"]),
            ("Allied", [c for c in counters if c.side == "Allied"]),
            ("Markers", [c for c in counters if c.marker]),
        )
    )
