"""Replay a log's steps from its opening position into events (`vassal_adj.model.events`).

The replay keeps, per piece, its map, x, y, name, properties and concealment, and the stacks
and decks pieces sit in: a MovePiece may name a stack or deck, whose members then move with
it. Every command is applied, undos included (they are real inverse commands), so the final
position is the one VASSAL reaches; events inside an undo carry ``undo=True``.

Stacking follows spec 5.3: a MovePiece with an "under" piece joins that piece's stack, else a
non-empty stack or deck exactly at its new spot. A piece that leaves a deck (dragged off it,
or put elsewhere by a ChangePiece) is drawn: its `Moved` names the deck (`Moved.deck`, the
DrawPile's name); one moved with its whole deck, or put back on it, is not. Commands naming
pieces the game lacks are not applied but listed in `Replay.problems`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from vassal_adj.errors import Where
from vassal_adj.model.events import (
    Added,
    Changed,
    ChatLine,
    DieRolled,
    Event,
    Moved,
    PieceDiff,
    Place,
    PropertySet,
    Removed,
    Replay,
    Step,
    TurnChanged,
    diff_pieces,
    property_changes,
)  # fmt: skip
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse import records as r
from vassal_adj.parse.builder import _concealment, _opening_texts, seen_by
from vassal_adj.parse.commands import Node, decode_command, iter_nodes, log_steps, parse_stream, unlogged
from vassal_adj.parse.dice import dice_rolls, unwrap
from vassal_adj.parse.places import Labeler, labeler
from vassal_adj.parse.tokens import parse_int
from vassal_adj.parse.traits import Deck, expand_prototypes, name_and_properties, parse_piece, visible_name
from vassal_adj.parse.turns import tracker_reading
from vassal_adj.parse.undo import Done, unbracketed_undo, undone_step
from vassal_adj.pbem.containers import Table, _Box, _Live

__all__ = ["STEPS_PER_CALL", "StepCallback", "diff_saves", "end_pieces", "opening_differences", "replay"]

# How a long log tells how far it is (the CLI's progress line): called with (steps done, all
# steps) every STEPS_PER_CALL steps and at the last, so that it costs nothing next to the steps.
StepCallback = Callable[[int, int], None]
STEPS_PER_CALL = 50

_ADD = re.compile(r"\+/").match
# Most AddPieces of a big save are empty stacks (42,006 of 42,421 in a corpus tutorial save): they
# are read with one match, without parsing a piece.
_EMPTY_STACK = re.compile(r"\+/([^/\\]+)/stack/([^;/\\]*);(-?\d+);(-?\d+);@@-?\d*$").match


class _Game(Table):
    def __init__(self, module: Module | None, label: Labeler, path: str | None) -> None:
        super().__init__()
        self.prototypes = {n: p.text for n, p in module.prototypes.items()} if module else {}
        self.module, self.label, self.path = module, label, path
        self.roster: dict[str, str] = {}  # password -> player name; never shown itself
        self.sides: dict[str, str] = {}  # password -> side, for who sees a concealed piece
        self.problems: list[str] = []
        self.maps: dict[str | None, str | None] = {None: None}

    def map_of(self, ident: str | None) -> str | None:
        """The map's name: VASSAL refers to a map by its name or its id (``Map0``)."""
        if ident not in self.maps:
            found = self.module.map_by_id(ident) if self.module else None  # type: ignore[arg-type]
            self.maps[ident] = found.name if found else ident
        return self.maps[ident]

    def place(self, p: _Live) -> Place:
        return Place(p.map, p.x, p.y, self.label(p.map, p.x, p.y))

    def snapshot(self) -> tuple[Piece, ...]:
        return tuple(
            Piece(
                id=p.id,
                name=p.name,
                map=p.map,
                x=p.x,
                y=p.y,
                gpid=p.gpid,
                properties=dict(p.properties),
                concealed=p.concealed,
                masked_name=p.masked_name,
                seen_by=p.seen_by,
                location=self.label(p.map, p.x, p.y),
                command=p.command,
            )
            for p in self.pieces.values()
        )

    def describe(self, ident: str, type_text: str, state: str, index: int) -> _Live | _Box | None:
        """A parsed AddPiece/ChangePiece: a piece, a stack or deck, or None (no basic piece)."""
        where = Where(path=self.path, entry="savedGame", command=index)
        piece = parse_piece(type_text, state, where)
        inner = piece.traits[-1] if piece.traits else None
        if piece.is_stack or piece.is_deck:
            return _Box(
                type_text,
                self.map_of(inner.map_id),
                inner.x or 0,
                inner.y or 0,  # type: ignore[union-attr]
                list(inner.piece_ids),
                inner.name if isinstance(inner, Deck) else None,
            )  # type: ignore[union-attr]
        if piece.basic is None:
            return None
        if self.prototypes:
            piece = expand_prototypes(piece, self.prototypes, where)
        b = piece.basic
        concealed = _concealment(piece)
        name, props = name_and_properties(piece)
        return _Live(
            ident,
            type_text,
            name,
            props,
            concealed,
            visible_name(piece) if concealed else None,
            seen_by(piece, self.sides) if concealed else (),
            self.map_of(b.map_id),
            b.x,
            b.y,  # type: ignore[union-attr]
            b.gpid,
            index,
        )  # type: ignore[union-attr]

    def opening(self, root: Node) -> None:
        # The roster first: who owns a concealed piece is known only through it.
        for index, text in _opening_texts(root, lambda t: t.startswith("PLAYER\t")):
            self.player(decode_command(text, index, root.where))
        for index, text in _opening_texts(root, _ADD):
            empty = _EMPTY_STACK(text)
            if empty is not None:
                # Not indexed by spot: `box_at` looks for stacks with pieces, and a stack
                # gets pieces only through `put_box`, which indexes it.
                ident, map_id, x, y = empty.groups()
                on = map_id != "null"
                self.boxes[ident] = _Box(
                    "stack",
                    self.map_of(map_id) if on else None,
                    (parse_int(x) or 0) if on else 0,
                    (parse_int(y) or 0) if on else 0,
                )
                continue
            cmd = decode_command(text, index, root.where)
            if isinstance(cmd, r.AddPiece):
                self.add(cmd, index)

    def player(self, cmd: r.Record) -> None:
        if isinstance(cmd, r.Player):
            self.roster[cmd.password] = cmd.name
            if cmd.side:
                self.sides[cmd.password] = cmd.side

    def add(self, cmd: r.AddPiece, index: int) -> _Live | None:
        found = self.describe(cmd.id, cmd.type, cmd.state, index)
        if isinstance(found, _Box):
            self.put_box(cmd.id, found)
            return None
        if found is not None:
            self.pieces[cmd.id] = found
        return found

    def run_step(self, number: int, step: Node) -> tuple[list[Event], bool, list[str]]:
        """The step's events, whether it is an undo, and its chat messages."""
        rolls = {step.index + d.index: d for d in dice_rolls(step)}  # type: ignore[operator]
        parts = {step.index + i for d in rolls.values() for i in d.parts}  # type: ignore[operator]
        undo = seen_undo = unbracketed_undo(step)
        out: list[Event] = []
        said: list[str] = []
        for local, _depth, node in iter_nodes(step):
            index = step.index + local  # type: ignore[operator]
            cmd = unwrap(node.command)
            if isinstance(cmd, r.Undo):
                undo, seen_undo = cmd.start, True
                continue
            ctx = {"command": index, "step": number, "undo": undo}
            if index in rolls:
                d = rolls[index]
                out.append(
                    DieRolled(
                        button=d.button, report=d.report, result=d.result, total=d.total, special=d.special, **ctx
                    )
                )
                said += [d.report] if d.report and not d.special else []
            elif index in parts:  # the echo or a property record of a roll listed above
                continue
            elif isinstance(cmd, r.Chat):
                said.append(cmd.message)
                if not any(unlogged(k.text).startswith("SHOW_RESULTS\t") for k in node.children):
                    out.append(ChatLine(text=cmd.body, speaker=cmd.speaker, report=cmd.is_report, **ctx))
            else:
                out.extend(self.apply(cmd, index, ctx))
        return out, seen_undo, said

    def apply(self, cmd: r.Record, index: int, ctx: dict) -> Iterator[Event]:
        if isinstance(cmd, r.MovePiece):
            yield from self.move(cmd, index, ctx)
        elif isinstance(cmd, r.AddPiece):
            p = self.add(cmd, index)
            if p is not None:
                yield Added(piece=p.id, name=p.name, at=self.place(p), **_seen(p), **ctx)
        elif isinstance(cmd, r.RemovePiece):
            yield from self.remove(cmd.id, index, ctx)
        elif isinstance(cmd, r.ChangePiece):
            yield from self.change(cmd, index, ctx)
        elif isinstance(cmd, r.TurnState):
            yield TurnChanged(
                tracker=self.tracker_name(cmd.tracker_id), state=cmd.state, values=self.turn_values(cmd), **ctx
            )
        elif isinstance(cmd, r.MutableProperty) and cmd.old != cmd.new:
            yield PropertySet(name=cmd.name, before=cmd.old, after=cmd.new, container=cmd.container, **ctx)
        elif isinstance(cmd, r.Player):
            self.player(cmd)

    def move(self, cmd: r.MovePiece, index: int, ctx: dict) -> Iterator[Event]:
        player = self.roster.get(cmd.player or "")
        to = self.map_of(cmd.new_map)
        if cmd.id in self.boxes:
            box = self.move_box(cmd.id, to, cmd.new_x, cmd.new_y)
            for pid in box.members:
                p = self.pieces.get(pid)
                if p is not None:
                    yield self.relocate(p, to, cmd.new_x, cmd.new_y, ctx, via=cmd.id, player=player)
            return
        p = self.pieces.get(cmd.id)
        if p is None:
            self.problems.append(f"command {index}: move of piece {cmd.id!r}, which is not in the game")
            return
        deck = self.deck_of(p.id)
        under = self.parent.get(cmd.new_under or "")
        if under is not None:
            self.attach(p.id, under, cmd.new_under)
        else:
            self.detach(p.id)
            spot = None if cmd.new_under else self.box_at(to, cmd.new_x, cmd.new_y)
            if spot is not None:
                self.attach(p.id, spot)
        left = deck if deck is not None and self.deck_of(p.id) != deck else None  # put back on its deck: no draw
        yield self.relocate(p, to, cmd.new_x, cmd.new_y, ctx, player=player, deck=left)

    def relocate(self, p: _Live, map_id: str | None, x: int, y: int, ctx: dict, **how: object) -> Moved:
        origin = self.place(p)
        p.map, p.x, p.y = map_id, x, y
        return Moved(piece=p.id, name=p.name, origin=origin, to=self.place(p), **how, **_seen(p), **ctx)

    def remove(self, ident: str, index: int, ctx: dict) -> Iterator[Event]:
        if self.drop_box(ident) is not None:
            return
        p = self.pieces.pop(ident, None)
        if p is None:
            self.problems.append(f"command {index}: removal of piece {ident!r}, which is not in the game")
            return
        self.detach(ident)
        yield Removed(piece=p.id, name=p.name, at=self.place(p), **_seen(p), **ctx)

    def change(self, cmd: r.ChangePiece, index: int, ctx: dict) -> Iterator[Event]:
        box = self.boxes.get(cmd.id)
        if box is not None:
            found = self.describe(cmd.id, box.type_text, cmd.new_state, index)
            if isinstance(found, _Box):
                self.put_box(cmd.id, found)
            return
        p = self.pieces.get(cmd.id)
        if p is None:
            self.problems.append(f"command {index}: change of piece {cmd.id!r}, which is not in the game")
            return
        new = self.describe(p.id, p.type_text, cmd.new_state, index)
        if not isinstance(new, _Live):
            return
        props = property_changes(p.properties, new.properties)
        if props or new.name != p.name or new.concealed != p.concealed:
            yield Changed(
                piece=p.id,
                name=new.name,
                name_before=p.name,
                at=self.place(p),
                properties=props,
                concealed_before=p.concealed,
                **_seen(new),
                **ctx,
            )
        p.name, p.properties, p.gpid = new.name, new.properties, new.gpid
        p.concealed, p.masked_name, p.seen_by = new.concealed, new.masked_name, new.seen_by
        if self.repositions(p, cmd, new, index):
            deck = self.deck_of(p.id)
            self.detach(p.id)
            yield self.relocate(p, new.map, new.x, new.y, ctx, by_change=True, deck=deck)

    def repositions(self, p: _Live, cmd: r.ChangePiece, new: _Live, index: int) -> bool:
        """Whether a ChangePiece puts the piece elsewhere. VASSAL merges a state given with
        its old one trait by trait, so an unchanged basic piece keeps its place; and the map
        a basic piece writes is stale while it sits in a stack or deck."""
        if (new.map, new.x, new.y) == (p.map, p.x, p.y):
            return False
        if cmd.old_state is None:
            return p.id not in self.parent
        old = parse_piece(p.type_text, cmd.old_state, Where(path=self.path, command=index)).basic
        return old is not None and (self.map_of(old.map_id), old.x, old.y) != (new.map, new.x, new.y)

    def tracker_name(self, tracker_id: str) -> str:
        found = self.module and next((t for t in self.module.turn_trackers if t.id == tracker_id), None)
        return found.name if found else tracker_id

    def turn_values(self, cmd: r.TurnState) -> tuple[tuple[str, str], ...]:
        if self.module is None:
            return ()
        reading = tracker_reading(self.module, parse_stream(cmd.raw), self.tracker_name(cmd.tracker_id))
        return tuple((k, str(v)) for k, v in reading.values.items()) if reading else ()


def _seen(p: _Live) -> dict[str, object]:
    return {"concealed": p.concealed, "masked_name": p.masked_name, "seen_by": p.seen_by}


def replay(
    root: Node,
    module: Module | None = None,
    path: str | None = None,
    *,
    on_step: StepCallback | None = None,
    label: Labeler | None = None,
) -> Replay:
    """Replay the LOG steps of `root` (a .vlog's command tree) from its opening position.

    With the module, prototypes are expanded and every place gets the label VASSAL shows. A
    save (no steps) gives a replay with no steps whose final position is its opening.
    `on_step(done, total)` is told how far the replay is (see STEPS_PER_CALL). `label`: the
    labeler of this file's places with the module's maps already placed (a position's,
    position.py), else one is made here.
    """
    game = _Game(module, label or labeler(root, module), path)
    game.opening(root)
    opening = game.snapshot()
    steps: list[Step] = []
    done: list[Done] = []  # steps an undo could still take back, latest last
    nodes = log_steps(root)
    for number, node in enumerate(nodes, 1):
        events, undo, said = game.run_step(number, node)
        undoes = done.pop(undone_step(done, said, events))[0] if undo and done else None
        if not undo:
            done.append((number, said, events))
        steps.append(Step(number, node.index or 0, tuple(events), undo, undoes))
        if on_step is not None and (number % STEPS_PER_CALL == 0 or number == len(nodes)):
            on_step(number, len(nodes))
    undone_in = {s.undoes: s.number for s in steps if s.undoes is not None}
    steps = [replace(s, undone_in=undone_in[s.number]) if s.number in undone_in else s for s in steps]
    return Replay(tuple(steps), opening, game.snapshot(), tuple(game.problems))


def end_pieces(root: Node, module: Module | None = None, path: str | None = None) -> tuple[Piece, ...]:
    """The position a file leaves: a log's replayed end, a save's pieces."""
    return replay(root, module, path).final  # for a save too: places read as in a log


def diff_saves(before: Node, after: Node, module: Module | None = None) -> list[PieceDiff]:
    """Per piece, where it stood at the end of `before` and at the end of `after`, and how
    its name and properties changed (only the pieces that differ)."""
    return diff_pieces(end_pieces(before, module), end_pieces(after, module))


def opening_differences(previous_end: Sequence[Piece], log_opening: Sequence[Piece]) -> list[PieceDiff]:
    """The pieces whose place or state differ between where the previous file ended and
    where a log starts: the opponent may have started from another position."""
    return diff_pieces(previous_end, log_opening)
