"""The saves a module ships as predefined set-ups (and ``--setup`` files): files missing or
unreadable (``setups.missing_file``, ``setups.unreadable``), pieces whose traits differ from their
slot's (``setups.refresh``: what VASSAL's Refresh Counters would change), pieces of no slot
(``setups.no_slot``), boards and maps the module no longer has (``setups.missing_board``,
``setups.missing_map``), and a seat taken or a password carried (``setups.seat_taken``).

A set-up's piece is compared with its slot (found by the Basic Piece's slot id, as Refresh Counters
finds it) trait by trait, prototypes expanded as VASSAL expands them when a piece is made: a type
that differs is a piece that Refresh Counters would rebuild. A password is never printed.
"""

from __future__ import annotations

from collections.abc import Iterable

from vassal_adj.lint.findings import LintFinding, Severity
from vassal_adj.lint.inputs import LintInput, SetupFile
from vassal_adj.parse.places import missing_boards, missing_maps
from vassal_adj.parse.records import AddPiece, Player, Record
from vassal_adj.parse.traits import parse_piece

__all__ = ["check_setups"]

_SHOWN = 3


def _files(li: LintInput) -> Iterable[LintFinding]:
    m = li.module
    for s in m.predefined_setups:
        if s.is_menu or not s.use_file or not s.file or s.file in li.entries:
            continue
        yield LintFinding(
            "setups.missing_file",
            Severity.ERROR,
            f"{m.build_entry}: PredefinedSetup {s.name!r}",
            f"the set-up opens file {s.file!r}, which is not in the archive: choosing it in File > New Game fails",
            f"add {s.file!r} to the module, or remove the set-up",
        )
    for f in li.setups:
        if f.game is None:
            yield LintFinding(
                "setups.unreadable",
                Severity.ERROR,
                f.where,
                f"the set-up save cannot be read: {f.error}",
                "save the set-up again with VASSAL and put the new file in the module",
            )


def _slot_types(li: LintInput) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Slot id -> (slot name, its expanded trait types): what Refresh Counters builds."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for d, piece in zip(li.definitions, li.expanded, strict=True):
        if d.slot is not None and piece is not None and d.slot.gpid:
            out.setdefault(d.slot.gpid, (d.slot.entry_name, tuple(t.type for t in piece.traits)))
    return out


def _difference(have: tuple[str, ...], want: tuple[str, ...]) -> str:
    extra = [t for t in have if t not in want]
    lacking = [t for t in want if t not in have]
    parts = []
    if lacking:
        parts.append(f"{len(lacking)} trait(s) of the slot missing (first {lacking[0][:60]!r})")
    if extra:
        parts.append(f"{len(extra)} trait(s) the slot no longer has (first {extra[0][:60]!r})")
    return "; ".join(parts) or "the same traits in another order"


def _pieces(
    f: SetupFile, records: list[Record], slots: dict[str, tuple[str, tuple[str, ...]]]
) -> Iterable[LintFinding]:
    stale: dict[str, list[str]] = {}
    orphans: list[str] = []
    how: dict[str, str] = {}
    for rec in records:
        if not isinstance(rec, AddPiece) or rec.type.startswith(("stack", "deck;")):
            continue
        piece = parse_piece(rec.type, rec.state)
        basic = piece.basic
        if basic is None:
            continue
        label = f"{piece.name or basic.name!r} (piece {rec.id})"
        found = slots.get(basic.gpid)
        if found is None:
            orphans.append(label)
            continue
        have = tuple(t.type for t in piece.traits)
        if have != found[1]:
            stale.setdefault(found[0], []).append(label)
            how.setdefault(found[0], _difference(have, found[1]))
    for slot, who in stale.items():
        more = f" and {len(who) - _SHOWN} more" if len(who) > _SHOWN else ""
        yield LintFinding(
            "setups.refresh",
            Severity.WARNING,
            f"{f.where}: {who[0]}",
            f"{len(who)} piece(s) differ from the module's piece slot {slot!r} ({how[slot]}): "
            f"{', '.join(who[:_SHOWN])}{more}; a game started from this set-up plays with the old pieces",
            "load the set-up in VASSAL, run Tools > Refresh Counters, and save it back into the module",
        )
    if orphans:
        more = f" and {len(orphans) - _SHOWN} more" if len(orphans) > _SHOWN else ""
        yield LintFinding(
            "setups.no_slot",
            Severity.WARNING,
            f"{f.where}: {orphans[0]}",
            f"{len(orphans)} piece(s) have a slot id that no piece slot of the module has: "
            f"{', '.join(orphans[:_SHOWN])}{more}; Refresh Counters cannot update them",
            "replace them with pieces from the module's palette, or restore their slots",
        )


def _places(li: LintInput, f: SetupFile) -> Iterable[LintFinding]:
    assert f.game is not None
    for text in missing_boards(f.game.root, li.module):
        yield LintFinding(
            "setups.missing_board", Severity.ERROR, f.where, text, "select the module's boards and save it again"
        )
    for text in missing_maps(f.game.pieces(li.module), li.module):
        yield LintFinding(
            "setups.missing_map", Severity.ERROR, f.where, text, "move the pieces to the module's maps and save again"
        )


def _seats(f: SetupFile, records: list[Record]) -> Iterable[LintFinding]:
    assert f.game is not None
    players = [r for r in records if isinstance(r, Player)]
    for name, side in dict.fromkeys((p.name, p.side) for p in players):
        observer = not side or side.startswith("<")  # "<observer>", "<moderator>": no seat, a password all the same
        taken = f"keeps observer {name!r}" if observer else f"gives side {side!r} to player {name!r}"
        yield LintFinding(
            "setups.seat_taken",
            Severity.ERROR,
            f"{f.where}: roster entry (PLAYER) of {name!r}",
            f"the set-up {taken} with that player's password (not shown here): whoever opens it can read "
            + ("the password" if observer else "the password and takes that seat"),
            "start the set-up, retire from the side (or start it as an observer), and save it again",
        )
    secrets = f.game.secrets() - {p.password for p in players}
    if secrets:
        yield LintFinding(
            "setups.seat_taken",
            Severity.ERROR,
            f.where,
            f"{len(secrets)} player password(s) (not shown here) are in pieces or commands of the set-up "
            "(a piece masked or hidden by a player): whoever opens it can read them",
            "unmask the pieces (or use side-based access) and save the set-up again",
        )


def check_setups(li: LintInput) -> list[LintFinding]:
    out = list(_files(li))
    slots = _slot_types(li) if li.setups else {}
    for f in li.setups:
        if f.game is not None:
            records = f.game.commands
            out += [*_pieces(f, records, slots), *_places(li, f), *_seats(f, records)]
    return out
