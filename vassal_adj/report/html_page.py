"""What an HTML page of the report needs from the module and the save, read once: the pieces it
shows, their names, the pictures (`report.figures`), and text escaped and scrubbed of passwords."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence

from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.builder import game_pieces
from vassal_adj.position import GamePosition
from vassal_adj.report.describe import REDACTED
from vassal_adj.report.figures import Figures
from vassal_adj.report.pictures import MOVE_COLOURS, SEVERITY_COLOURS, Arrow, Rgb
from vassal_adj.report.turn_view import Move, TurnView
from vassal_adj.rules.results import SEVERITY_RANK, Finding, Severity
from vassal_adj.savedgame import SavedGame

__all__ = ["Page", "picture_colour", "sev"]


def sev(f: Finding) -> str:
    return Severity(f.severity).value


def _scrubber(secrets: Iterable[str]) -> Callable[[str], str]:
    """Replace every password that stands as a word of its own (not inside a longer word,
    so a short password does not blank ordinary words) by the redaction mark."""
    found = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not found:
        return lambda text: text
    pattern = re.compile(r"(?<![0-9A-Za-z])(?:" + "|".join(map(re.escape, found)) + r")(?![0-9A-Za-z])")
    return lambda text: pattern.sub(REDACTED, text)


def picture_colour(f: Finding) -> Rgb:
    """An error is drawn in the colour of an illegal move: the board's roads are red."""
    return MOVE_COLOURS[False] if sev(f) == "error" else SEVERITY_COLOURS[sev(f)]


class Page:
    """What the page needs from the module and the save, read once."""

    def __init__(
        self,
        module: Module,
        game: SavedGame,
        module_path: str | None,
        names: dict[str, str],
        secrets: Iterable[str] = (),
        turn: TurnView | None = None,
        games: Sequence[SavedGame] = (),
        position: GamePosition | None = None,
    ) -> None:
        self.clean = _scrubber({*game.secrets(), *secrets})
        self.pieces = list(position.pieces) if position is not None else game_pieces(game.root, module, game.path)
        self.names = {**{p.id: p.name for p in self.pieces}, **names}
        self.turn = turn
        if turn is not None:  # the position the turn leaves, not the one the last file opens with
            self.pieces = turn.final()
            self.names.update((p.id, p.name) for _, rp in turn.replays for p in (*rp.opening, *rp.final))
        self.figures = Figures(module, game, module_path, games, turn.masked if turn is not None else (), position)

    def text(self, value: object) -> str:
        """Escaped text, scrubbed of passwords (and of NUL, which marks a picture's place)."""
        return html.escape(self.clean(str(value)).replace("\x00", ""))

    def unit_names(self, f: Finding) -> list[str]:
        return [self.clean(self.names.get(u, u)) for u in f.units]

    def picture(self, f: Finding) -> str:
        fig = self.figures
        if fig.layout is None:
            return '<p class="muted">(no picture: the map has no numbered hex grid, or no module file was given)</p>'
        moments = self.turn.moments(f) if self.turn is not None else None
        before, after = moments if moments is not None else (self.pieces, None)
        colour = picture_colour(f)
        alt = f"{f.rule} at {', '.join(f.hexes)}"

        def name(p: Piece) -> str:
            return self.clean(self.names.get(p.id, p.name) or p.id)

        shots = (
            [(None, fig.crop(before, f.hexes, colour, f.units, name, alt))]
            if after is None
            else [
                ("before the phase's moves", fig.crop(before, f.hexes, colour, f.units, name, alt + " (before)", 400)),
                ("after them", fig.crop(after, f.hexes, colour, f.units, name, alt + " (after)", 400)),
            ]
        )
        if all(pic is None for _, pic in shots):
            return '<p class="muted">(no picture: no hex of this finding is on the map)</p>'
        where = "at the end of the phase" if moments is not None and after is None else ""
        return (
            '<div class="pics">'
            + "".join(
                f'<figure>{pic}<figcaption class="muted">{cap or where}</figcaption></figure>'
                for cap, pic in shots
                if pic is not None
            )
            + "</div>"
        )

    def overview(self, problems: Sequence[Finding], moves: Sequence[Move]) -> tuple[str, int]:
        """The overview picture and how many moves could not be drawn (a place off the grid)."""
        fig = self.figures
        if fig.layout is None:
            return (
                '<p class="muted">(no map picture: the map has no numbered hex grid, or no module file was given)</p>',
                0,
            )
        arrows: list[Arrow] = []
        skipped = 0
        for m in moves:
            a, b = fig.centre(m.start), fig.centre(m.end)
            if a is None or b is None:
                skipped += 1
                continue
            # Through the pack's path when it runs from the origin to the destination (an
            # entry's path starts at its entry hex, off the origin box).
            via = [fig.centre(h) for h in m.path[1:-1]] if m.path[:1] == (m.start,) and m.path[-1:] == (m.end,) else []
            arrows.append(Arrow(a, b, MOVE_COLOURS[m.ok], tuple(c for c in via if c is not None)))
        marked = [
            (h, picture_colour(f)) for f in sorted(problems, key=lambda f: -SEVERITY_RANK[f.severity]) for h in f.hexes
        ]
        return fig.overview(self.pieces, arrows, marked, "the whole map with the units and the moves"), skipped
