"""A log's end as a save: the position VASSAL shows once a log is stepped through to its end.

    root = end_save(game.root, module, game.path)    # a save's command tree (spec 5.2)

A log is a save of its opening followed by LOG steps (spec 5.6). The save made here is that
saved part with the position the steps leave:

* the piece list (5.2) holds every piece as the replay (replay.py) leaves it: its type as
  added, its last full state (from its AddPiece or last ChangePiece) with the basic piece's
  map and position set to where it ends (6.3), unchanged bytes when it has not moved; then
  every deck and every stack that holds pieces, bottom first (6.4), after the pieces it holds;
* a turn tracker restore (``TURN``, 5.8) takes the tracker's last state in the steps, and a
  global property restore (``GlobalProperty``) its last value (``MutableProperty``), undos
  included: they are the inverse commands VASSAL executed;
* every other restore (boards, roster, notes, ...) is the opening's: the steps of a log change
  them only through commands a save does not restore from (a note's text is the opening's).
"""

from __future__ import annotations

from vassal_adj.model.module import Module
from vassal_adj.parse import records as r
from vassal_adj.parse.commands import Node, iter_nodes, log_steps
from vassal_adj.parse.dice import unwrap
from vassal_adj.parse.places import Labeler, labeler
from vassal_adj.parse.tokens import join, split
from vassal_adj.parse.traits import Stack, parse_piece
from vassal_adj.pbem.containers import _Box, _Live
from vassal_adj.pbem.replay import _Game

__all__ = ["end_save"]


class _Recording(_Game):
    """The replay's game, keeping each piece's and box's last state text: `describe` parses
    every AddPiece and ChangePiece of a piece, stack or deck."""

    def __init__(self, module: Module | None, label: Labeler, path: str | None) -> None:
        super().__init__(module, label, path)
        self.states: dict[str, str] = {}

    def describe(self, ident: str, type_text: str, state: str, index: int) -> _Live | _Box | None:
        self.states[ident] = state
        return super().describe(ident, type_text, state, index)


def _piece_text(game: _Recording, p: _Live) -> str:
    """The AddPiece of a piece where it ends: its last state with its basic piece's map and
    position set (VASSAL writes those from where the piece is, 6.3)."""
    piece = parse_piece(p.type_text, game.states[p.id])
    basic = piece.basic
    if basic is not None and (game.map_of(basic.map_id), basic.x, basic.y) != (p.map, p.x, p.y):
        fields = split(basic.state, ";")
        fields[:3] = [p.map or "null", str(p.x), str(p.y)]
        piece = piece.with_trait_state(-1, join(fields, ";"))
    type_text, state = piece.encode()
    return "+/" + join([p.id, type_text, state], "/")


def _box_text(game: _Recording, ident: str, box: _Box) -> str:
    """The AddPiece of a stack (6.4: ``map;x;y;id…;@@layer``) or a deck (``map;x;y;faceDown;
    id,id…``) holding its pieces where it ends."""
    old = game.states.get(ident, "")
    spot = [box.map or "null", str(box.x), str(box.y)]
    if box.type_text.startswith("deck;"):
        # map;x;y;faceDown, then the ids only when there are some; later fields as they were.
        fields = split(old, ";")
        face, later = fields[3] if len(fields) > 3 else "false", fields[5:]
        ids = [join(box.members, ",")] if box.members else [""] if later else []
        state = join([*spot, face, *ids, *later], ";")
    else:
        layer = next((t.layer for t in parse_piece(box.type_text, old).traits if isinstance(t, Stack)), -1)
        state = join([*spot, *box.members, *([f"@@{layer}"] if layer >= 0 else [])], ";")
    return "+/" + join([ident, box.type_text, state], "/")


def _restored(cmd: r.Record, turns: dict[str, str], properties: dict[str, str]) -> str | None:
    """The text of a restore command as the log leaves it; None when the log did not change it."""
    if isinstance(cmd, r.TurnState) and turns.get(cmd.tracker_id, cmd.raw) != cmd.raw:
        return turns[cmd.tracker_id]
    if isinstance(cmd, r.GlobalProperty) and properties.get(cmd.name, cmd.value) != cmd.value:
        fields = split(cmd.raw, ";")  # "GlobalProperty<TAB>", name, value, container
        fields[2] = properties[cmd.name]
        return join(fields, ";")
    return None


def _restore(node: Node, turns: dict[str, str], properties: dict[str, str]) -> Node:
    """A restore command of the opening, and the parts of a compound one, as the log leaves them."""
    # Only the two kinds a log changes are decoded: any other restore is kept as it is.
    text = _restored(node.command, turns, properties) if node.text.startswith(("TURN", "GlobalProperty\t")) else None
    kids = [_restore(k, turns, properties) for k in node.children]
    if text is None and all(a is b for a, b in zip(kids, node.children, strict=False)):
        return node
    return Node(node.text if text is None else text, kids)


def end_save(root: Node, module: Module | None = None, path: str | None = None) -> Node:
    """The command tree of a save holding the position the log `root` ends on (see the
    module doc). `module` expands prototypes as the replay does."""
    game = _Recording(module, labeler(root, module), path)
    game.opening(root)
    steps = log_steps(root)
    turns: dict[str, str] = {}
    properties: dict[str, str] = {}
    for number, step in enumerate(steps, 1):
        game.run_step(number, step)
        for _, _, node in iter_nodes(step):
            cmd = unwrap(node.command)
            if isinstance(cmd, r.TurnState):
                turns[cmd.tracker_id] = cmd.raw
            elif isinstance(cmd, r.MutableProperty):
                properties[cmd.name] = cmd.new
    texts = [_piece_text(game, p) for p in game.pieces.values()]
    # An empty stack is gone in VASSAL too; an empty deck stays, a place to put cards on.
    texts += [_box_text(game, i, b) for i, b in game.boxes.items() if b.members or b.type_text.startswith("deck;")]
    kids = root.children[: len(root.children) - len(steps)]
    # The opening's piece list: a null command whose sub-commands are AddPieces (5.2).
    lists = [
        k
        for k, node in enumerate(kids)
        if node.text.startswith("+/")
        or (not node.text and node.children and all(p.text.startswith("+/") for p in node.children))
    ]
    at = lists[0] if lists else 1
    rest = [_restore(node, turns, properties) for k, node in enumerate(kids) if k not in lists]
    return Node(root.text, [*rest[:at], Node("", [Node(t) for t in texts]), *rest[at:]])
