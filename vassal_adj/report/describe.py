"""Plain descriptions of modules, pieces and command streams, as text and JSON-ready data.

Used by `inspect`, `pieces` and `decode` (piece changes in words: pbem/changes.py). Nothing here
computes a rule; nothing prints.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from vassal_adj.model.module import (
    GridDef,
    HexGridDef,
    HexNumbering,
    Module,
    RegionGridDef,
    SquareGridDef,
    ZonedGridDef,
)
from vassal_adj.model.pieces import Piece
from vassal_adj.parse.commands import Node

SCHEMA_VERSION = 1
REDACTED = "********"


def _numbering(n: HexNumbering | None) -> dict[str, Any] | None:
    if n is None:
        return None
    return {
        "first": n.first,
        "sep": n.sep,
        "h_type": n.h_type,
        "v_type": n.v_type,
        "h_leading": n.h_leading,
        "v_leading": n.v_leading,
        "h_off": n.h_off,
        "v_off": n.v_off,
        "h_descend": n.h_descend,
        "v_descend": n.v_descend,
        "stagger": n.stagger,
        "location_format": n.location_format,
        "oblique": n.oblique,
    }


def grid_data(grid: GridDef | None) -> dict[str, Any] | None:
    """A grid and its numbering as plain data (zones with their own grids, recursively)."""
    if grid is None:
        return None
    if isinstance(grid, HexGridDef):
        return {
            "kind": "hex",
            "dx": grid.dx,
            "dy": grid.dy,
            "x0": grid.x0,
            "y0": grid.y0,
            "sideways": grid.sideways,
            "snap_to": grid.snap_to,
            "numbering": _numbering(grid.numbering),
        }
    if isinstance(grid, SquareGridDef):
        return {
            "kind": "square",
            "dx": grid.dx,
            "dy": grid.dy,
            "x0": grid.x0,
            "y0": grid.y0,
            "snap_to": grid.snap_to,
            "numbering": _numbering(grid.numbering),
        }
    if isinstance(grid, RegionGridDef):
        return {"kind": "region", "regions": len(grid.regions)}
    assert isinstance(grid, ZonedGridDef)
    return {
        "kind": "zoned",
        "zones": [
            {
                "name": z.name,
                "location_format": z.location_format,
                "points": len(z.path),
                "use_parent_grid": z.use_parent_grid,
                "grid": grid_data(z.grid),
            }
            for z in grid.zones
        ],
        "background": grid_data(grid.background),
    }


def module_data(module: Module) -> dict[str, Any]:
    """What `inspect` shows: identity, maps, boards, grids, counts."""
    return {
        "schema_version": SCHEMA_VERSION,
        "name": module.name,
        "version": module.version,
        "vassal_version": module.vassal_version,
        "build_entry": module.build_entry,
        "maps": [
            {
                "name": m.name,
                "id": m.id,
                "kind": m.kind,
                "edge": [m.edge_width, m.edge_height],
                "boards": [
                    {
                        "name": b.name,
                        "image": b.image,
                        "size": [b.width, b.height],
                        "size_known": b.size_known,
                        "reversible": b.reversible,
                        "grid": grid_data(b.grid),
                    }
                    for b in m.boards.values()
                ],
                "setup_stacks": len(m.setup_stacks),
            }
            for m in module.maps.values()
        ],
        "piece_slots": sum(1 for s in module.piece_slots if not s.card),
        "card_slots": sum(1 for s in module.piece_slots if s.card),
        "prototypes": len(module.prototypes),
        "dice_buttons": [d.name for d in module.dice_buttons],
        "turn_trackers": [t.name for t in module.turn_trackers],
        "sides": list(module.sides),
    }


def _numbering_words(n: dict[str, Any] | None) -> str:
    if n is None:
        return "no numbering (VASSAL shows no hex labels)"
    kinds = {"N": "numbers", "A": "letters"}
    col = f"columns {kinds.get(n['h_type'], n['h_type'])} from {n['h_off']}"
    row = f"rows {kinds.get(n['v_type'], n['v_type'])} from {n['v_off']}"
    if n["h_descend"]:
        col += " descending"
    if n["v_descend"]:
        row += " descending"
    order = f"{col}, {row}" if n["first"] == "H" else f"{row}, {col}"
    extras = [f"sep {n['sep']!r}"] if n["sep"] else []
    extras.append("staggered" if n["stagger"] else "not staggered")
    if n["oblique"]:  # its stagger attribute is what VASSAL 3.8 shows as "slant right"
        extras.append(f"oblique, slant {'right' if n['stagger'] else 'left'} (VASSAL 3.8)")
    if n["location_format"] != "$gridLocation$":
        extras.append(f"format {n['location_format']!r}")
    return f"{order}; " + ", ".join(extras)


def _grid_lines(g: dict[str, Any] | None, indent: str) -> Iterator[str]:
    if g is None:
        yield f"{indent}no grid"
        return
    if g["kind"] in ("hex", "square"):
        shape = "hex grid" + (" (sideways)" if g.get("sideways") else "") if g["kind"] == "hex" else "square grid"
        yield (
            f"{indent}{shape}: dx {g['dx']:g}, dy {g['dy']:g}, origin ({g['x0']}, {g['y0']})"
            f"{'' if g['snap_to'] else ', no snapping'}"
        )
        yield f"{indent}  numbering: {_numbering_words(g['numbering'])}"
    elif g["kind"] == "region":
        yield f"{indent}region grid: {g['regions']} regions"
    else:
        yield f"{indent}zoned grid: {len(g['zones'])} zones"
        for z in g["zones"]:
            own = z["grid"]
            what = own["kind"] + " grid" if own else ("background grid" if z["use_parent_grid"] else "no grid")
            yield f"{indent}  zone {z['name']!r}: {what}, format {z['location_format']!r}"
            if own and own["kind"] in ("hex", "square"):
                yield from _grid_lines(own, indent + "    ")
        if g["background"] is not None:
            yield f"{indent}  background:"
            yield from _grid_lines(g["background"], indent + "    ")


def module_text(data: dict[str, Any]) -> str:
    lines = [f"{data['name']} version {data['version']} (VASSAL {data['vassal_version'] or 'unknown'})"]
    for m in data["maps"]:
        lines.append(
            f"map {m['name']!r} ({m['kind']}, {m['id']}), {len(m['boards'])} board(s)"
            + (f", edge {m['edge'][0]}x{m['edge'][1]}" if any(m["edge"]) else "")
        )
        for b in m["boards"]:
            size = f"{b['size'][0]}x{b['size'][1]}" if b["size_known"] else "size unknown (image missing)"
            lines.append(f"  board {b['name']!r}: {size}" + (f", image {b['image']}" if b["image"] else ""))
            lines.extend(_grid_lines(b["grid"], "    "))
    lines.append(
        f"piece slots: {data['piece_slots']}, card slots: {data['card_slots']}, prototypes: {data['prototypes']}"
    )
    if data["dice_buttons"]:
        lines.append("dice buttons: " + ", ".join(data["dice_buttons"]))
    if data["turn_trackers"]:
        lines.append("turn trackers: " + ", ".join(data["turn_trackers"]))
    if data["sides"]:
        lines.append("sides: " + ", ".join(data["sides"]))
    return "\n".join(lines)


def piece_data(p: Piece, with_properties: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"id": p.id, "name": p.name, "map": p.map, "x": p.x, "y": p.y}
    if p.location is not None:
        row["location"] = p.location
    if p.concealed:
        row["concealed"] = p.concealed
    if with_properties:
        row["properties"] = dict(sorted(p.properties.items()))
    return row


# The narrowest a column of the pieces table gets; wider values wrap within it.
_NARROWEST = 6


def _fit(widths: list[int], width: int) -> list[int]:
    """Column widths whose table (two spaces between columns) fits `width`: the widest column
    gives way first, none below _NARROWEST (or its own width, if narrower)."""
    widths = list(widths)
    while (excess := sum(widths) + 2 * (len(widths) - 1) - width) > 0:
        i = max(range(len(widths)), key=lambda k: widths[k])
        others = sorted(widths, reverse=True)[1] if len(widths) > 1 else 0
        narrower = max(widths[i] - excess, others, _NARROWEST)
        if narrower >= widths[i]:
            narrower = widths[i] - 1  # ties: one column at a time, down to the floor
        if narrower < _NARROWEST:
            break  # every column at the floor: the table cannot fit; wrap as far as it goes
        widths[i] = narrower
    return widths


def _row_lines(cells: Sequence[str], widths: Sequence[int]) -> list[str]:
    import textwrap  # as in pieces_text

    wrapped = [textwrap.wrap(c, w, break_on_hyphens=False) or [""] for c, w in zip(cells, widths, strict=True)]
    return [
        "  ".join(v.ljust(w) for v, w in zip(parts, widths, strict=False)).rstrip()
        for parts in itertools.zip_longest(*wrapped, fillvalue="")
    ]


def pieces_text(rows: Sequence[dict[str, Any]], with_properties: bool, width: int = 80) -> str:
    """The pieces as a table `width` characters wide at most: long values wrap within their
    column; with properties, each piece's are indented ``name=value`` lines under it."""
    import textwrap  # here: only `pieces` wraps, and check imports this module (startup time, issue 10)

    if not rows:
        return "no pieces"
    cols = ["id", "name", "map", "x", "y"] + (["location"] if any("location" in r for r in rows) else [])
    table = [[str(r.get(c) if r.get(c) is not None else "-") for c in cols] for r in rows]
    if any(r.get("concealed") for r in rows):  # a last column, without heading: [masked], [invisible]
        cols.append("")
        for r, t in zip(rows, table, strict=True):
            t.append(f"[{r['concealed']}]" if r.get("concealed") else "")
    widths = _fit([max(len(c), *(len(t[i]) for t in table)) for i, c in enumerate(cols)], width)
    out = _row_lines(cols, widths)
    for r, t in zip(rows, table, strict=True):
        out += _row_lines(t, widths)
        if with_properties:
            for name, value in r["properties"].items():
                out += textwrap.wrap(
                    f"{name}={value}", width, initial_indent="    ", subsequent_indent="      ", break_on_hyphens=False
                ) or [f"    {name}="]
    return "\n".join(out)


_ESCAPED = frozenset("/;,:|\\")  # what SequenceEncoder escapes with a backslash


def redactor(secrets: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern matching any password as a whole field of a command text.

    Fields in commands are delimited by TAB, ``/``, ``;``, ``,``, ``:``, ``|`` or ESC; matching
    whole fields only keeps short passwords from blanking ordinary words.
    """
    found = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not found:
        return None
    bound = r"\t/;,:|\x1b\\"
    body = "|".join(map(_encoded_forms, found))
    return re.compile(rf"(?<![^{bound}])(?:{body})(?![^{bound}])")


def loose_redactor(secrets: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern matching any password between non-word characters, in any encoded form: for
    prose such as an error message, which may quote a field ("not an integer: 'pw'")."""
    found = sorted({s for s in secrets if s}, key=len, reverse=True)
    if not found:
        return None
    return re.compile(rf"(?<!\w)(?:{'|'.join(map(_encoded_forms, found))})(?!\w)")


def _encoded_forms(secret: str) -> str:
    """A pattern for `secret` as VASSAL may store it: each delimiter or backslash in it may be
    escaped by backslashes, one more level for each encoder it is nested in ('pa\\/ss')."""
    return "".join(r"\\*" + re.escape(c) if c in _ESCAPED else re.escape(c) for c in secret)


def decode_lines(nodes: Iterable[tuple[int, int, Node]], secrets: Iterable[str]) -> Iterator[str]:
    """One line per command, indented by nesting depth; ESC and TAB shown as visible marks."""
    pattern = redactor(secrets)
    for _index, depth, node in nodes:
        text = node.text
        if pattern is not None:
            text = pattern.sub(REDACTED, text)
        text = text.replace("\t", "\u21e5").replace("\x1b", "\u241b").replace("\n", "\u21b5")
        yield "  " * depth + (text if text else "(empty)")
