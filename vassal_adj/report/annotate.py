"""A copy of a save with the findings where a player sees them when VASSAL opens it.

A log gives a save of the position its steps end on (pbem/log_end.py), annotated the same way:
a game exchanged only as logs is marked where the pieces stand after the last move.

Added, just before ``end_save`` (which must stay last, spec 5.2), so that every original
command keeps its bytes and its place: the decoded text of the original, less its final
``<ESC>end_save``, is a prefix of the new one.

* One marker piece per spot (map and pixel) holding a unit cited by an error or warning:
  an AddPiece (5.3) of a BasicPiece without image, a Marker (6.5) keeping the findings in
  full, and a Text Label (6.7) showing e.g. "16.11 error" in the severity colour. Only
  traits VASSAL's own piece factory knows (6.2), so any VASSAL builds it. The piece sits a
  little below the unit's centre, inside the same hex, so the label does not hide the
  counter and VASSAL names its location like the unit's. Information findings (supply
  traces, VP tallies) concern every unit and would bury the markers: they are counted only.
* Chat lines (``CHAT* …``, VASSAL's automatic-report form): a save's commands are executed
  when it is opened, so they appear in the chat window then.
* When the save has public notes (a ``PNOTES`` restore, i.e. the module has a Notes window),
  a later ``PNOTES`` with the original notes followed by the findings. Without one, the
  module has no Notes window that could show it, so none is added.

Everything else in the file (other entries, the codec unless a form is asked for, player
passwords) is unchanged: it is the player's own file. The input is never written to (`SavedGame.write`).
"""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from vassal_adj.codec.archive import StrPath
from vassal_adj.errors import UsageError, VassalAdjError, Where
from vassal_adj.model.geometry.layout import hex_radii
from vassal_adj.model.geometry.maps import module_map
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.builder import game_pieces
from vassal_adj.parse.commands import Node
from vassal_adj.parse.records import PublicNotes
from vassal_adj.parse.tokens import join
from vassal_adj.pbem.log_end import end_save
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.savedgame import SavedGame

__all__ = ["Marker", "annotate"]

TAB = "\t"
# VASSAL's "r,g,b" colours for the label text, as in the HTML report.
_COLOURS = {"error": "213,0,0", "warning": "200,110,0"}
_NAME = "vassal-adj"
_PIECE_ID = re.compile(r"\+/(\d+)/")


@dataclass(frozen=True)
class Marker:
    """A marker piece added to the save: its id, where it is, what it shows, whom it marks."""

    id: str
    map: str
    x: int
    y: int
    label: str
    units: tuple[str, ...]


def _sev(f: Finding) -> str:
    return Severity(f.severity).value


def _short(rule: str) -> str:
    """The rule number as the rulebook prints it, without the pack id ("mygame:16.11" -> "16.11")."""
    return rule.split(":", 1)[1] if ":" in rule else rule


def _marker_text(marker: Marker, findings: Sequence[Finding]) -> str:
    """The AddPiece text of a marker: Text Label outermost, then Marker, then BasicPiece."""
    worst = "error" if any(_sev(f) == "error" for f in findings) else "warning"
    label_type = "label;" + join(
        [
            "",
            "",
            "12",
            "255,255,255",
            _COLOURS[worst],  # key, menu (none: fixed), size, bg, fg
            "c",
            "0",
            "c",
            "0",
            "c",
            "c",  # centred on the piece, no offsets
            "$pieceName$ ($label$)",
            "Dialog",
            "1",
            "0",
            "TextLabel",
            "vassal-adj finding",
            "false",
        ],
        ";",
    )
    details = " | ".join(f"{f.rule} {_sev(f)}: {f.message}" for f in findings)
    piece_type = "piece;" + join(["", "", "", f"{_NAME}: " + ", ".join(marker.units)], ";")
    type_text = join([label_type, join(["mark;vassal-adj findings", piece_type], TAB)], TAB)
    basic_state = join([marker.map, str(marker.x), str(marker.y), "", "0"], ";")
    state_text = join([marker.label, join([join([details], ","), basic_state], TAB)], TAB)
    return "+/" + join([marker.id, type_text, state_text], "/")


def _below_centre(module: Module, game: SavedGame, map_name: str, x: int, y: int) -> int:
    """How far below a unit's point its marker goes: half the hex's inner radius, so the
    marker stays in the unit's hex; a fixed 12 pixels where no hex grid names the spot."""
    try:
        lay = module_map(module, map_name, save=game).layout_at(x, y)
    except VassalAdjError:
        lay = None
    return 12 if lay is None else round(hex_radii(lay)[0] * 0.5)


def _notes_lines(findings: Sequence[Finding], counts: dict[str, int], names: dict[str, str]) -> list[str]:
    head = (
        f"{_NAME} referee check: {counts['error']} error(s), {counts['warning']} warning(s), "
        f"{counts['info']} information finding(s); units cited by an error or warning carry a label."
    )
    lines = [head]
    for f in findings:
        if _sev(f) == "info":
            continue
        where = f" [hexes {', '.join(f.hexes)}]" if f.hexes else ""
        units = f" [units {', '.join(names.get(u, u) for u in f.units)}]" if f.units else ""
        lines.append(f"{_sev(f)} {f.rule}: {f.message}{where}{units}")
    return lines


def _public_notes(root: Node) -> str | None:
    """The public notes of the save's last PNOTES restore, or None when it has none."""
    found = None
    for child in root.children:
        # The Notes window restores as NOTES with PNOTES and the private notes inside it;
        # other root commands (the piece list above all) are not opened.
        inner = child.children if child.text.startswith("NOTES\t") else ()
        for node in (child, *inner):
            record = node.command if node.text.startswith("PNOTES\t") else None
            found = record.text if isinstance(record, PublicNotes) else found
    return found


def annotate(
    game: SavedGame,
    findings: Sequence[Finding],
    out_path: StrPath,
    *,
    module: Module,
    form: str | None = None,
    withhold: Callable[[Sequence[Piece]], Collection[str]] | None = None,
) -> list[Marker]:
    """Write to `out_path` a copy of `game` with the findings added (see the module doc);
    return the markers added. `game` itself is not changed. A log gives a save of its end
    (pbem/log_end.py), the markers on the units where its steps leave them. `form` converts
    the savedGame to that form (`SavedGame.write`); None keeps the game's. `withhold` gives,
    of the pieces the annotated position holds, the ids no finding written may cite: a finding
    about a hidden piece would name it and mark its hex for every player (only counted)."""
    next_id = max((int(i) for i in _PIECE_ID.findall(game.text)), default=0) + 1  # a log's added pieces too
    if game.is_log:
        game = dataclasses.replace(game, root=end_save(game.root, module, game.path))
    kids = game.root.children
    if not kids or kids[-1].text != "end_save":
        raise UsageError(
            "the save does not end with end_save: VASSAL would not start the game from an annotated copy",
            Where(path=game.path, entry="savedGame"),
        )
    pieces = {p.id: p for p in game_pieces(game.root, module, game.path)}
    hidden = set(withhold(list(pieces.values()))) if withhold is not None else set()
    left_out = sum(1 for f in findings if hidden & set(f.units))
    findings = [f for f in findings if not hidden & set(f.units)]
    names = {i: p.name for i, p in pieces.items()}
    cited: dict[tuple[str, int, int], tuple[list[str], list[Finding]]] = {}
    for f in findings:
        if _sev(f) == "info":
            continue
        for u in f.units:
            p = pieces.get(u)
            if p is None or p.map is None:
                continue  # not on a map: the chat lines and notes still list it
            units, found = cited.setdefault((p.map, p.x, p.y), ([], []))
            if u not in units:
                units.append(u)
            if f not in found:
                found.append(f)
    markers: list[Marker] = []
    added: list[Node] = []
    for k, ((map_name, x, y), (units, found)) in enumerate(cited.items()):
        texts = list(dict.fromkeys(f"{_short(f.rule)} {_sev(f)}" for f in found))
        marker = Marker(
            str(next_id + k),
            map_name,
            x,
            y + _below_centre(module, game, map_name, x, y),
            ", ".join(texts),
            tuple(names.get(u, u) for u in units),
        )
        markers.append(marker)
        added.append(Node(_marker_text(marker, found)))
    counts = {s.value: sum(1 for f in findings if _sev(f) == s.value) for s in Severity}
    lines = _notes_lines(findings, counts, names)
    if left_out:
        lines.insert(1, f"{left_out} finding(s) about pieces hidden from a player are left out.")
    # VASSAL shows chat as HTML: the findings' text is escaped, never markup.
    new = [Node("", added)] if added else []
    new += [Node("CHAT* " + html.escape(line, quote=False)) for line in lines]
    notes = _public_notes(game.root)
    if notes is not None:
        text = (notes + "\n\n" if notes else "") + "\n".join(lines)
        new.append(Node("PNOTES\t" + join(text.split("\n"), "|")))
    root = Node(game.root.text, [*kids[:-1], *new, kids[-1]])
    dataclasses.replace(game, root=root).write(out_path, form=form)
    return markers
