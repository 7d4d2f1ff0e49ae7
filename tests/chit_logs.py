"""Logs of the example module with a deck of activation chits: a helper, not a test module.

`deck_module` writes a copy of the example module with a DrawPile "Activation Chits" on its
Holding Boxes map (VASSAL-FORMATS.md 7.7), as a module with a chit mug has it. A log's opening
is the Game-Turn 4 position of tests/kasserine_logs.py with, on the Holding Boxes map, that deck
(spec 6.4: ``deck;`` type, state ``map;x;y;faceDown;id,id``) holding one chit piece per name
given, the first chit drawn on top. A ("draw", side, chit) step drags the top chit off the deck
as VASSAL logs a draw (a MovePiece whose old spot is the deck's and whose old "under" is the chit
below it in the deck, the stack VASSAL makes at the empty spot it lands on, and the move report);
("return", side, chit) drags the chit drawn last back onto the deck; every other step is the
script's own (("move", side, unit, hex), ("chat", ...)).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from kasserine_logs import MODULE, el, em, et

from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.commands import Node, encode
from vassal_adj.parse.tokens import join
from vassal_adj.savedgame import SavedGame

DECK = "Activation Chits"
DECK_ID = "1700000900000"
# A spot of the Holding Boxes map outside every box (row 4 has two boxes of five).
DECK_X, DECK_Y = 1000, 950


def deck_module(folder: Path) -> Path:
    """A copy of the example module in `folder` whose Holding Boxes map has the chit deck's DrawPile."""
    out = folder / "Kasserine-chits.vmod"
    pile = (
        f'<VASSAL.build.module.map.DrawPile allowMultiple="false" allowSelect="false" color="255,255,255" '
        f'draw="true" faceDown="Never" height="60" name="{DECK}" owningBoard="{em.BOX_BOARD}" reportFormat="" '
        f'reshufflable="false" reversible="false" shuffle="Never" width="60" x="{DECK_X}" y="{DECK_Y}"/>'
    )
    with zipfile.ZipFile(MODULE) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "buildFile.xml":
                text = data.decode("utf-8")
                end = text.index("</VASSAL.build.module.Map>", text.index(f'mapName="{em.BOX_MAP}"'))
                data = (text[:end] + pile + text[end:]).encode("utf-8")
            dst.writestr(item, data)
    return out


def _chit_id(n: int) -> str:
    return str(int(DECK_ID) + 2 * n + 1)


def write_chit_log(
    path: Path, chits: list[str], steps: list[tuple[str, ...]], *, moved: dict[str, str] | None = None
) -> Path:
    """A .vlog at `path`: the turn-4 opening (units of `moved` put on other hexes) with the chit
    deck, then `steps`. `chits` are in the order they are drawn (the first on top of the deck)."""
    pack = em.read_pack()
    counters = list(em.counters(pack))
    places = el.turn4_places(pack)
    places.update({key: ("hex", moved[key[1]]) for key in places if key[1] in (moved or {})})
    table = et.Table.opening(el.SHEET, counters, places, em.layout(), el.FIXED_MS)
    opening = table.save_children(4, "Axis Movement")
    ids = {name: _chit_id(n) for n, name in enumerate(chits)}
    bottom_first = [ids[name] for name in reversed(chits)]
    pieces = [
        Node(
            "+/"
            + join(
                [
                    ids[name],
                    join(["piece", "", "", "chit.png", name], ";"),
                    join([em.BOX_MAP, str(DECK_X), str(DECK_Y), "", "0"], ";"),
                ],
                "/",
            )
        )
        for name in chits
    ]
    deck_type = join(
        ["deck", "true", "255,255,255", "60", "60", "Never", "Never", "false", "false", "false", "", "", "", DECK], ";"
    )
    deck_state = join([em.BOX_MAP, str(DECK_X), str(DECK_Y), "false", join(bottom_first, ",")], ";")
    listed = opening[1]
    deck = Node("+/" + join([DECK_ID, deck_type, deck_state], "/"))  # after the pieces it holds (spec 5.2)
    opening[1] = Node(listed.text, [*listed.children, *pieces, deck])
    played, phase, drawn = [], "Axis Movement", 0
    for step in steps:
        if step[0] == "draw":
            _, side, name = step
            pid, left = ids[name], bottom_first[: bottom_first.index(ids[name])]
            bottom_first.remove(pid)
            drawn += 1
            x = DECK_X + 80 * drawn
            fields = [
                pid,
                em.BOX_MAP,
                str(x),
                str(DECK_Y),
                "null",
                em.BOX_MAP,
                str(DECK_X),
                str(DECK_Y),
                left[-1] if left else "null",
                el.PLAYERS[side][1],
            ]
            stack = Node(
                "+/" + join([str(int(pid) + 1), "stack", join([em.BOX_MAP, str(x), str(DECK_Y), pid, "@@0"], ";")], "/")
            )
            report = Node(f"CHAT* {name} moves {DECK} &rarr; offboard *")
            played.append(et.logged(Node("M/" + join(fields, "/"), [stack, report])))
        elif step[0] == "return":  # the chit dragged back onto the deck, on top of its pieces
            _, side, name = step
            pid, top = ids[name], bottom_first[-1:]
            x = DECK_X + 80 * drawn
            fields = [
                pid,
                em.BOX_MAP,
                str(DECK_X),
                str(DECK_Y),
                top[0] if top else "null",
                em.BOX_MAP,
                str(x),
                str(DECK_Y),
                "null",
                el.PLAYERS[side][1],
            ]
            bottom_first.append(pid)
            played.append(
                et.logged(Node("M/" + join(fields, "/"), [Node(f"CHAT* {name} moves offboard &rarr; {DECK} *")]))
            )
        else:
            nodes, phase = et.play(table, [step], 4, phase)
            played += nodes
    SavedGame.new(encode(Node("begin_save", opening + played)), codec=Codec(obfuscated=False)).write(path)
    return path
