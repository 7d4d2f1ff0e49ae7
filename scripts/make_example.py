#!/usr/bin/env python3
"""Write modules/kasserine/example/: a small Kasserine module and a save of the Allied set-up.

The module is in VASSAL's real format (buildFile.xml, moduledata, images/) with the map of
Kasserine's hexes 0101-3926 numbered as the rulebook prints them. The save places the Allied
initial deployment (seed 000, the set-up lists after rule 22) on its hexes; it is written
through `SavedGame.write`. Everything is deterministic: running it twice gives the same files.

    python scripts/make_example.py [OUT_DIR]
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path
from xml.sax.saxutils import quoteattr

sys.path.insert(0, str(Path(__file__).resolve().parent))

from example_art import board_picture, counter_picture, distance  # noqa: E402

from vassal_adj.codec.obfuscation import Codec  # noqa: E402
from vassal_adj.model.grid import board_hex_center  # noqa: E402
from vassal_adj.model.module import BoardDef, HexGridDef, HexNumbering  # noqa: E402
from vassal_adj.parse.commands import Node, encode  # noqa: E402
from vassal_adj.parse.tokens import join  # noqa: E402
from vassal_adj.savedgame import SavedGame  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "modules" / "kasserine" / "example"
MODULE_NAME, MODULE_VERSION, VASSAL_VERSION = "Kasserine", "0.1", "3.6.7"
MAP, BOARD, IMAGE = "Main Map", "Kasserine", "kasserine-map.png"
COLUMNS, ROWS = 39, 26  # hexes 0101 to 3926
DX, DY, X0, Y0 = 52.0, 60.0, 36, 28
WIDTH = X0 * 2 + int(DX * (COLUMNS - 1))
# Exactly the centres of 0101-3926 lie on the board, as VASSAL decides what is on it: row 00 of
# the lower columns sits above the top edge and row 27 of the upper columns on the bottom edge.
HEIGHT = Y0 + int(DY * ROWS)
# Columns numbered west to east, rows north to south, two digits each; the second column
# starts half a hex lower than the first (no stagger in VASSAL's numbering terms).
NUMBERING = HexNumbering(first="H", sep="", h_type="N", v_type="N", h_leading=1, v_leading=1,
                         h_off=1, v_off=1, stagger=False)
GRID = HexGridDef(dx=DX, dy=DY, x0=X0, y0=Y0, numbering=NUMBERING)
BOARD_DEF = BoardDef(name=BOARD, image=IMAGE, width=WIDTH, height=HEIGHT, grid=GRID)
ALLIED_COLOUR = (170, 190, 120)
FIXED_MS = 1767225600000  # 2026-01-01T00:00:00Z: saves and piece ids do not depend on the clock
KEY = 0x5A

# The Allied initial deployment, seed 000 (rule 23 set-up lists): hex, placement, units.
EXACT, ADJACENT, WITHIN_TWO = "exact", "in or adjacent", "within two hexes"
DEPLOYMENT: list[tuple[str, str, list[str]]] = [
    ("3718", EXACT, ["1-3-7 (2/168)"]),
    ("3922", EXACT, ["1-2-7 (3/168)"]),
    ("3722", EXACT, ["1-2-7 (-/168)"]),
    ("3721", EXACT, ["1-2-3/2-10 (91)"]),
    ("3821", EXACT, ["2-2-4/1-7 (2/17)"]),
    ("3819", EXACT, ["3-2-12 (3/1)"]),
    ("2714", ADJACENT, ["2-1-14 (1/13)", "2-3-11 (1/6)", "1-2-3/2-10 (68)"]),
    ("3911", ADJACENT, ["3-2-12 (3/13)", "2-1-11 (701)", "2-3-11 (3/6)"]),
    ("1703", ADJACENT, ["1-2-7 (1/26)", "1-3-7 (19)"]),
    ("0312", ADJACENT, ["2-3-11 (2/6)"]),
    ("0914", ADJACENT, ["2-1-14 (1/1)"]),
    ("0306", WITHIN_TWO, ["2-1-11 (894)", "2-1-11 (805)", "1-2-3/1-7 (7)", "2-2-4/1-7 (33)"]),
    ("1220", WITHIN_TWO, ["1-2-7 (1/168)"]),
]
# Named places of the seed (rules 19.31, 22.41, 23): marked on the board picture.
PLACES = {"0306": "Tebessa", "0312": "El Ma el Abiod", "1319": "Thelepte", "1704": "Thala",
          "2706": "Sbiba", "2714": "Sbeitla"}


def label(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def all_hexes() -> list[tuple[str, tuple[int, int]]]:
    out = []
    for col in range(1, COLUMNS + 1):
        for row in range(1, ROWS + 1):
            centre = board_hex_center(BOARD_DEF, label(col, row))
            assert centre is not None
            out.append((label(col, row), centre))
    return out


def placements() -> list[tuple[str, str]]:
    """(unit, hex) for every unit: groups spread over their hex and the nearest free hexes.

    Units of a group may not stack (rule 23 set-up lists), so each takes the nearest free
    hex, nearest first, ties broken by label; the distance limits of the list are kept.
    """
    centres = dict(all_hexes())
    taken: set[str] = set()
    out = []
    for hex_label, how, units in DEPLOYMENT:
        reach = {EXACT: 0.5, ADJACENT: 1.2, WITHIN_TWO: 2.2}[how] * DY
        near = sorted((distance(centres[hex_label], c), lab) for lab, c in centres.items())
        free = [lab for d, lab in near if d <= reach and lab not in taken]
        for unit, where in zip(units, free, strict=False):
            out.append((unit, where))
            taken.add(where)
        assert len(free) >= len(units), f"no room for {units} at {hex_label}"
    return out


def image_name(unit: str) -> str:
    return "allied-" + "".join(c if c.isalnum() else "_" for c in unit).strip("_") + ".png"


def piece_type(unit: str) -> str:
    return join(["mark;Side", join(["piece", "", "", image_name(unit), unit], ";")], "\t")


def build_file(units: list[str]) -> bytes:
    slots = []
    for gpid, unit in enumerate(units, start=1):
        text = "+/null/" + join(["prototype;Allied", join(["piece", "", "", image_name(unit), unit], ";")], "\t") + "/" + join(["", "null;0;0;;0"], "\t")
        slots.append(f'            <VASSAL.build.widget.PieceSlot entryName={quoteattr(unit)} gpid="{gpid}" height="44" width="44">{escape(text)}</VASSAL.build.widget.PieceSlot>')
    proto = "+/null/" + join(["mark;Side", "piece;;;;"], "\t") + "/" + join(["Allied", "null;0;0;;0"], "\t")
    n = NUMBERING
    lines = [
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>',
        f'<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="{VASSAL_VERSION}" '
        f'description="Example module of vassal-adj: the Kasserine map and the Allied set-up" '
        f'name="{MODULE_NAME}" nextPieceSlotId="{len(units) + 1}" version="{MODULE_VERSION}">',
        '    <VASSAL.build.module.BasicCommandEncoder/>',
        '    <VASSAL.build.module.Documentation/>',
        '    <VASSAL.build.module.PlayerRoster buttonIcon="" buttonKeyStroke="" buttonText="Retire" buttonToolTip="">',
        '        <entry>Axis</entry>',
        '        <entry>Allied</entry>',
        '    </VASSAL.build.module.PlayerRoster>',
        '    <VASSAL.build.module.GlobalOptions autoReport="Always" chatterHTMLSupport="Never" '
        'hotKeysOnClosedWindows="Never" inventoryForAll="Always" nonOwnerUnmaskable="Never" '
        'playerIdFormat="$PlayerName$" promptString="Opponents can unmask my pieces" sendToLocationMoveTrails="Never"/>',
        '    <VASSAL.build.module.Chatter/>',
        f'    <VASSAL.build.module.Map allowMultiple="false" backgroundcolor="255,255,255" buttonName="Map" '
        f'changeFormat="$message$" color="0,0,0" createFormat="$pieceName$ created in $location$ *" '
        f'edgeHeight="0" edgeWidth="0" hotkey="" icon="/images/map.gif" launch="false" mapName="{MAP}" '
        f'markMoved="Never" moveToFormat="$pieceName$ moves $previousLocation$ &amp;rarr; $location$ *" '
        f'moveWithinFormat="$pieceName$ moves $previousLocation$ &amp;rarr; $location$ *" thickness="3">',
        '        <VASSAL.build.module.map.BoardPicker addColumnText="Add column" addRowText="Add row" '
        'boardPrompt="Select board" slotHeight="125" slotScale="0.2" slotWidth="350" title="Choose Boards">',
        f'            <setup>{MAP}BoardPicker\t{BOARD}\t0\t0</setup>',
        f'            <VASSAL.build.module.map.boardPicker.Board image="{IMAGE}" name="{BOARD}" reversible="false">',
        f'                <VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" '
        f'dotsVisible="false" dx="{DX}" dy="{DY}" edgesLegal="false" sideways="false" snapTo="true" '
        f'visible="false" x0="{X0}" y0="{Y0}">',
        f'                    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" '
        f'first="{n.first}" fontSize="9" hDescend="false" hDrawOff="0" hLeading="{n.h_leading}" hOff="{n.h_off}" '
        f'hType="{n.h_type}" locationFormat="$gridLocation$" rotateText="0" sep="" stagger="false" '
        f'vDescend="false" vDrawOff="0" vLeading="{n.v_leading}" vOff="{n.v_off}" vType="{n.v_type}" visible="false"/>',
        '                </VASSAL.build.module.map.boardPicker.board.HexGrid>',
        '            </VASSAL.build.module.map.boardPicker.Board>',
        '        </VASSAL.build.module.map.BoardPicker>',
        '        <VASSAL.build.module.map.StackMetrics bottom="40,0" disabled="false" down="37,0" exSepX="6" '
        'exSepY="18" top="38,0" unexSepX="3" unexSepY="5" up="39,0"/>',
        '        <VASSAL.build.module.map.ForwardToKeyBuffer/>',
        '        <VASSAL.build.module.map.Scroller/>',
        '        <VASSAL.build.module.map.ForwardToChatter/>',
        '        <VASSAL.build.module.map.MenuDisplayer/>',
        '        <VASSAL.build.module.map.MapCenterer/>',
        '        <VASSAL.build.module.map.StackExpander/>',
        '        <VASSAL.build.module.map.PieceMover/>',
        '        <VASSAL.build.module.map.KeyBufferer/>',
        '        <VASSAL.build.module.map.Zoomer inButtonText="" inIconName="/images/zoomIn.gif" outButtonText="" '
        'outIconName="/images/zoomOut.gif" pickButtonText="" pickIconName="/images/zoom.png" '
        'zoomLevels="0.25,0.5,0.75,1.0" zoomStart="4"/>',
        '    </VASSAL.build.module.Map>',
        '    <VASSAL.build.module.PieceWindow allowMultiple="false" buttonText="Pieces" hidden="false" '
        'hotkey="" icon="" name="Pieces" scale="1.0" text="Pieces" tooltip="Show the counters">',
        '        <VASSAL.build.widget.ListWidget divider="150" entryName="Allied" height="0" scale="1.0" width="0">',
        *slots,
        '        </VASSAL.build.widget.ListWidget>',
        '    </VASSAL.build.module.PieceWindow>',
        '    <VASSAL.build.module.PrototypesContainer>',
        f'        <VASSAL.build.module.PrototypeDefinition description="Allied units" name="Allied">{escape(proto)}</VASSAL.build.module.PrototypeDefinition>',
        '    </VASSAL.build.module.PrototypesContainer>',
        '</VASSAL.build.GameModule>',
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def metadata(extra: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
        f"  <version>{MODULE_VERSION}</version>\n  <extra1/>\n  <extra2/>\n"
        f"  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n  <dateSaved>{FIXED_MS}</dateSaved>\n"
        f"{extra}</data>\n"
    ).encode("utf-8")


MODULEDATA = metadata(f"  <description>Example module of vassal-adj</description>\n  <name>{MODULE_NAME}</name>\n")


def save_text(placed: list[tuple[str, str]], gpids: dict[str, int]) -> str:
    """The command tree VASSAL writes for a save: pieces, then their stacks, then the boards."""
    centres = dict(all_hexes())
    pieces, stacks = [], []
    for n, (unit, hex_label) in enumerate(placed):
        x, y = centres[hex_label]
        pid, sid = str(FIXED_MS + 2 * n + 1), str(FIXED_MS + 2 * n + 2)
        state = join(["Allied", join([MAP, str(x), str(y), str(gpids[unit]), "0"], ";")], "\t")
        pieces.append(Node("+/" + join([pid, piece_type(unit), state], "/")))
        stacks.append(Node("+/" + join([sid, "stack", join([MAP, str(x), str(y), pid, "@@0"], ";")], "/")))
    root = Node("begin_save", [
        Node(""),
        Node("", pieces + stacks),
        Node(join([MAP + "BoardPicker", BOARD, "0", "0"], "\t")),
        Node("end_save"),
    ])
    return encode(root)


def write_module(out: Path, units: list[str]) -> None:
    entries = {
        "buildFile.xml": build_file(units),
        "moduledata": MODULEDATA,
        "images/" + IMAGE: board_picture((WIDTH, HEIGHT), all_hexes(), DX, DY, PLACES),
    }
    for unit in units:
        strength, designation = unit.split(" ", 1)
        entries["images/" + image_name(unit)] = counter_picture(strength, designation.strip("()"), ALLIED_COLOUR)
    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w") as zf:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    tmp.replace(out)


def main(out_dir: Path = OUT) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    units = [u for _, _, group in DEPLOYMENT for u in group]
    write_module(out_dir / "Kasserine.vmod", units)
    gpids = {unit: n for n, unit in enumerate(units, start=1)}
    text = save_text(placements(), gpids)
    savedata = metadata("  <description>Kasserine: the Allied initial deployment (seed 000, rule 23 lists)</description>\n")
    game = SavedGame.new(text, codec=Codec(obfuscated=True, key=KEY), savedata=savedata,
                         moduledata=MODULEDATA)
    target = out_dir / "setup.vsav"
    if target.exists():
        target.unlink()  # the generator owns this file; SavedGame.write never replaces an input
    game.write(target)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
