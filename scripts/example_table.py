"""A game table while an example save or log is written, for any example module: where each
piece is, its stacks, the Dice Button's properties, and the LOG steps of player actions as
VASSAL 3.6.7 writes them (spec 5.2-5.8). What is the game's own (maps, boxes, pieces' traits,
tracker, players, die) comes in a `Sheet`.

A log is a save of the opening position followed by one `LOG` step per player action: moves
with their report and the mover's password, a new stack when a piece lands on an empty spot,
Dice Button rolls (5.4), an undo bracket (`UNDO<TAB>true` ... `UNDO<TAB>false`), turn tracker
changes with their report (5.8). Deterministic: fixed ids and clocks, no randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from example_kit import FIXED_MS

from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.parse.commands import Node, encode
from vassal_adj.parse.tokens import join

Key = tuple[str | None, str]  # (side, name) of a counter
Spot = tuple[str, int, int]  # (map, x, y)
Place = tuple[str, str]  # ("hex", label) or ("box", box name)
Step = tuple[str, ...]  # ("move", side, unit, hex or box) | ("turn", side, phase) | ("chat", side, text)
#                         | ("roll", side, result) | ("undo", side): undo the latest roll


@dataclass(frozen=True)
class Sheet:
    """What the table needs of a module: its maps and boards, where a box's k-th counter
    goes, a piece's type and state (`state(counter, map, x, y, gpid, layers on)`), the tracker's
    state for (turn, phase) and its phases, the players (side -> name, password) and die."""

    map: str
    board: str
    box_map: str
    box_board: str
    box_slot: Callable[[str, int], tuple[int, int]]
    piece_type: Callable[[Any], str]
    piece_state: Callable[[Any, str, int, int, int, frozenset[str]], str]
    tracker_state: Callable[[int, str], str]
    phases: list[str]
    players: Mapping[str, tuple[str, str]]
    dice: str
    globals: Mapping[str, str] = field(default_factory=dict)  # global properties a save restores


class Table:
    """The game while a log is written. Pieces have ids by counter order; a stack of an opening
    has the id after its bottom piece's, a stack made while logging one from `clock`."""

    def __init__(
        self, sheet: Sheet, counters: list, lay: HexLayout, clock: int, layers: Mapping[str, frozenset[str]]
    ) -> None:
        self.sheet, self.counters, self.lay, self.clock, self.layers = sheet, counters, lay, clock, layers
        self.ids = {c.name: str(FIXED_MS + 2 * n + 1) for n, c in enumerate(counters)}  # names are unique
        self.spot: dict[str, Spot] = {}
        self.names: dict[Spot, str] = {}  # what VASSAL reports there: hex label or box name
        self.stacks: dict[Spot, list[str]] = {}  # piece ids, bottom first
        self.stack_id: dict[Spot, str] = {}
        self.dice: list[dict[str, str]] = [dict.fromkeys(("result", "total", "keep", "summary"), "")]

    @classmethod
    def opening(
        cls,
        sheet: Sheet,
        counters: list,
        places: Mapping[Key, Place],
        lay: HexLayout,
        clock: int,
        layers: Mapping[str, frozenset[str]] | None = None,
    ) -> Table:
        """The table of a save written from `places` (counters not in it are not in play),
        boxes filled in counter order; `layers`: name -> the layers shown on that counter."""
        counters = [c for c in counters if (c.side, c.name) in places]
        t, filled = cls(sheet, counters, lay, clock, layers or {}), {}
        for c in counters:
            kind, where = places[(c.side, c.name)]
            if kind == "hex":
                spot = (sheet.map, *lay.center(where))
            else:
                spot = (sheet.box_map, *sheet.box_slot(where, filled.get(where, 0)))
                filled[where] = filled.get(where, 0) + 1
            t.put(t.ids[c.name], spot, where)
        t.settle()
        return t

    def copy(self, clock: int, changes: dict[str, str]) -> Table:
        """This position as the next save holds it, with the units of `changes` put on other
        hexes: one stack per spot, ids as at an opening."""
        t = Table(self.sheet, self.counters, self.lay, clock, self.layers)
        for pid, spot in self.spot.items():
            t.put(pid, spot, self.names[spot])
        for unit, label in changes.items():
            t.put(t.ids[unit], (self.sheet.map, *self.lay.center(label)), label)
        t.settle()
        return t

    def settle(self) -> None:
        self.stack_id = {s: str(int(ids[0]) + 1) for s, ids in self.stacks.items() if ids}

    def put(self, pid: str, spot: Spot, name: str) -> None:
        old = self.spot.get(pid)
        if old is not None:
            self.stacks[old].remove(pid)
        self.spot[pid], self.names[spot] = spot, name
        self.stacks.setdefault(spot, []).append(pid)

    def save_children(self, turn: int, phase: str) -> list[Node]:
        """The save of this position (spec 5.2): pieces, their stacks, roster, boards, global
        properties, tracker."""
        sheet, pieces = self.sheet, []
        for n, c in enumerate(self.counters):
            pid = self.ids[c.name]
            m, x, y = self.spot[pid]
            on = self.layers.get(c.name, frozenset())
            pieces.append(Node("+/" + join([pid, sheet.piece_type(c), sheet.piece_state(c, m, x, y, n + 1, on)], "/")))
        stacks = [
            Node("+/" + join([self.stack_id[s], "stack", join([s[0], str(s[1]), str(s[2]), *ids, "@@0"], ";")], "/"))
            for s, ids in self.stacks.items()
            if ids
        ]
        roster = [Node(join(["PLAYER", pw, name, side], "\t")) for side, (name, pw) in sheet.players.items()]
        props = [Node(join(["GlobalProperty\t", k, v, "Module"], ";")) for k, v in sheet.globals.items()]
        return [
            Node(""),
            Node("", pieces + stacks),
            *roster,
            Node(join([sheet.map + "BoardPicker", sheet.board, "0", "0"], "\t")),
            Node(join([sheet.box_map + "BoardPicker", sheet.box_board, "0", "0"], "\t")),
            *props,
            Node("TURNTurnTracker0\t" + sheet.tracker_state(turn, phase)),
            Node("end_save"),
        ]

    def move(self, side: str, unit: str, dest: str) -> Node:
        """A drag of one piece to a hex or a box, as PieceMover logs it: the MovePiece, the
        stack VASSAL makes when no piece stands there, the move report (the Map's moveToFormat)."""
        sheet, pid = self.sheet, self.ids[unit]
        old = self.spot[pid]
        below = self.stacks[old][: self.stacks[old].index(pid)]
        if dest[:1].isdigit():
            spot = (sheet.map, *self.lay.center(dest))
        else:  # the box's next free place
            taken = sum(1 for s, ids in self.stacks.items() if ids and self.names[s] == dest)
            spot = (sheet.box_map, *sheet.box_slot(dest, taken))
        under = self.stacks.get(spot, [])[-1:]  # lands on the top piece of a stack there
        fields = [
            pid,
            spot[0],
            str(spot[1]),
            str(spot[2]),
            under[0] if under else "null",
            old[0],
            str(old[1]),
            str(old[2]),
            below[-1] if below else "null",
            sheet.players[side][1],
        ]
        report = f"* {unit} moves {self.names[old]} &rarr; {dest} *"
        self.put(pid, spot, dest)
        kids = []
        if not under:
            self.clock += 1
            self.stack_id[spot] = str(self.clock)
            kids.append(
                Node(
                    "+/"
                    + join(
                        [str(self.clock), "stack", join([spot[0], str(spot[1]), str(spot[2]), pid, "@@0"], ";")], "/"
                    )
                )
            )
        return Node("M/" + join(fields, "/"), [*kids, Node("CHAT" + report)])

    def roll(self, side: str, result: str) -> Node:
        """A Dice Button roll (spec 5.4): its report, then the four properties it sets."""
        dice = self.sheet.dice
        new = {"result": result, "total": result, "keep": result, "summary": f"{result} x1"}
        old = self.dice[-1]
        self.dice.append(new)
        props = [Node(join(["MutableProperty", f"{dice}_{k}", old[k], new[k], "Module"], "\t")) for k in new]
        return Node(f"CHAT*** {dice} = {result} *** &lt;{self.sheet.players[side][0]}&gt;", props)

    def undo_roll(self, roll: Node) -> Node:
        """Undo of the latest roll as VASSAL 3.6.7 logs it: UNDO true, the inverse, UNDO false."""
        self.dice.pop()
        return Node("UNDO\ttrue", [inverse(roll), Node("UNDO\tfalse")])


def inverse(node: Node) -> Node:
    """VASSAL's Command.getUndoCommand: the sub-commands' inverses in reverse order, then the
    node's own; the first becomes the root (Command.append on a null command)."""
    parts = [inverse(k) for k in reversed(node.children)] + [Node(_inverse_text(node.text))]
    return Node(parts[0].text, [*parts[0].children, *parts[1:]])


def _inverse_text(text: str) -> str:
    if text.startswith("CHAT"):
        return "CHAT* UNDO: " + text[4:]  # Chatter.DisplayText: "* UNDO: " + the message
    if text.startswith("MutableProperty\t"):
        _, name, old, new, container = text.split("\t")
        return join(["MutableProperty", name, new, old, container], "\t")
    raise ValueError(f"no inverse written for {text[:20]!r}")


def turn_change(sheet: Sheet, side: str, turn: int, old: str, new: str) -> Node:
    """A press of the turn tracker's Next: its new state and its report (TurnTracker reportFormat)."""
    report = f"* &lt;{sheet.players[side][0]}&gt; Turn Updated from Turn {turn}: {old} to Turn {turn}: {new}"
    return Node("TURNTurnTracker0\t" + sheet.tracker_state(turn, new), [Node("CHAT" + report)])


def logged(node: Node) -> Node:
    """A step as the logger writes it: every command of the action wrapped in LOG (5.6)."""
    return Node("LOG\t" + node.text, [logged(k) for k in node.children])


def play(table: Table, steps: list[Step], turn: int, phase: str) -> tuple[list[Node], str]:
    """The LOG steps of `steps` played on `table` (which they change), and the final phase."""
    out, rolls = [], []
    for kind, side, *args in steps:
        if kind == "move":
            node = table.move(side, *args)
        elif kind == "turn":
            node, phase = turn_change(table.sheet, side, turn, phase, args[0]), args[0]
        elif kind == "chat":
            node = Node(f"CHAT&lt;{table.sheet.players[side][0]}&gt; - {args[0]}")
        elif kind == "roll":
            node = table.roll(side, args[0])
            rolls.append(node)
        else:
            node = table.undo_roll(rolls.pop())
        out.append(logged(node))
    assert phase in table.sheet.phases, phase
    return out, phase


def log_text(table: Table, steps: list[Step], turn: int, phase: str) -> tuple[str, str]:
    """The savedGame text of a log opening on `table`'s position, and the phase it ends in."""
    opening = table.save_children(turn, phase)
    played, end_phase = play(table, steps, turn, phase)
    return encode(Node("begin_save", opening + played)), end_phase


def game_text(table: Table, steps: list[Step], turn: int, phase: str, shipped: bool) -> str:
    """A log of `steps` when there are some, else a save of the table; a set-up the module ships
    (`shipped`) gives no player's seat and password."""
    if steps:
        return log_text(table, steps, turn, phase)[0]
    children = table.save_children(turn, phase)
    if shipped:
        children = [k for k in children if not k.text.startswith("PLAYER\t")]
    return encode(Node("begin_save", children))
