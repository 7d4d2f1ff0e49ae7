"""The buildFile's own consistency: duplicate piece-slot ids (``slots.duplicate_id``), pieces
without a name (``pieces.unnamed``), traits VASSAL cannot read (``traits.unknown``,
``traits.bad_fields``), elements of classes VASSAL does not have (``buildfile.unknown_class``),
boards and maps referred to but missing (``refs.owning_board``, ``maps.duplicate_name``).
"""

from __future__ import annotations

from collections.abc import Iterable

from vassal_adj.lint.findings import LintFinding, Severity
from vassal_adj.lint.inputs import LintInput
from vassal_adj.lint.vassal_classes import ENGINE_VERSION, is_vassal_class
from vassal_adj.parse.tokens import split
from vassal_adj.parse.traits import UnknownTrait

__all__ = ["check_structure"]

_SHOWN = 3


def _users(who: list[str]) -> str:
    more = f" and {len(who) - _SHOWN} more" if len(who) > _SHOWN else ""
    return "; ".join(who[:_SHOWN]) + more


def _duplicate_ids(li: LintInput) -> Iterable[LintFinding]:
    by_id: dict[str, list[str]] = {}
    for d in li.definitions:
        if d.slot is not None and d.slot.gpid:
            by_id.setdefault(d.slot.gpid, []).append(d.where)
    for gpid, who in by_id.items():
        if len(who) > 1:
            yield LintFinding(
                "slots.duplicate_id",
                Severity.ERROR,
                who[0],
                f"piece-slot id {gpid!r} is used by {len(who)} slots: {_users(who)}; Refresh Counters and "
                f"saves find a slot by this id, so pieces of one slot would become the other's",
                "give each slot its own id (the module editor's 'Fix duplicate ids', or a new gpid "
                "below the root's nextPieceSlotId)",
            )


def _unnamed(li: LintInput) -> Iterable[LintFinding]:
    for d, piece in zip(li.definitions, li.expanded, strict=True):
        if d.slot is None or piece is None or piece.basic is None:
            continue
        name = piece.name
        if not name.strip():
            yield LintFinding(
                "pieces.unnamed",
                # a card is often meant to be told by its picture; a counter, never
                Severity.INFO if d.slot.card else Severity.WARNING,
                d.where,
                "the piece has no name (its Basic Piece name is empty and no trait names it): the chat "
                "reports its moves as '' and a rule pack cannot tell what it is",
                "name it in its Basic Piece trait",
            )


def _traits(li: LintInput) -> Iterable[LintFinding]:
    has_code = any(e.endswith(".class") for e in li.entries)
    unknown: dict[str, list[str]] = {}
    for d in li.definitions:
        if d.piece is None:
            yield LintFinding(
                "traits.bad_fields",
                Severity.ERROR,
                d.where,
                f"the piece definition cannot be read: {d.error}",
                "recreate the piece in the module editor",
            )
            continue
        for trait in d.piece.traits:
            if isinstance(trait, UnknownTrait):
                unknown.setdefault(trait.prefix, []).append(d.where)
        fields = split(d.slot.text[2:], "/") if d.slot is not None and d.slot.text.startswith("+/") else []
        if len(fields) > 3:
            yield LintFinding(
                "traits.bad_fields",
                Severity.ERROR,
                d.where,
                f"the slot's AddPiece text splits into {len(fields) + 1} '/' fields, not 4: a '/' in a name or "
                f"trait is not escaped, so VASSAL reads a type ending {fields[1][-40:]!r} and a state "
                f"starting {fields[2][:40]!r}",
                "escape every '/' inside the type and state as '\\/' (VASSAL's editor writes it so), or re-save "
                "the slot in the module editor",
            )
        basic = d.piece.basic
        if basic is not None and basic.bad_fields and d.slot is not None:
            yield LintFinding(
                "traits.bad_fields",
                Severity.WARNING,
                d.where,
                f"the Basic Piece state has unreadable field(s) {', '.join(basic.bad_fields)} "
                f"(not whole numbers); VASSAL reads them as 0 or drops the properties",
                "open the slot in the module editor and save it again",
            )
    for prefix, who in unknown.items():
        yield LintFinding(
            "traits.unknown",
            Severity.WARNING if has_code else Severity.ERROR,
            who[0],
            f"trait type {prefix!r} is not one of VASSAL's (used {len(who)} time(s): {_users(who)}); "
            + (
                "the archive holds Java classes, which may define it"
                if has_code
                else "VASSAL reports bad data and the piece loses the trait"
            ),
            "ship the custom trait's classes with the module, or replace the trait by a standard one",
        )


def _classes(li: LintInput) -> Iterable[LintFinding]:
    m = li.module
    seen: dict[str, list[int | None]] = {}
    for el in m.other_elements:
        # an element without a package is a component's own data (GlobalOptions' <option>), not a class
        if "." in el.tag and not is_vassal_class(el.tag):
            seen.setdefault(el.tag, []).append(el.line)
    for tag, lines in seen.items():
        where = f"{m.build_entry} line {lines[0]}: <{tag}>"
        count = f"{len(lines)} element(s)"
        if tag.startswith("VASSAL."):
            yield LintFinding(
                "buildfile.unknown_class",
                Severity.INFO,
                where,
                f"{count} of class {tag!r}, which VASSAL {ENGINE_VERSION} does not have; the module was "
                f"written with VASSAL {m.vassal_version or 'of unknown version'}: a later class, or a misspelt one",
                "check that the players' VASSAL has it (or correct the class name)",
            )
        elif tag.replace(".", "/") + ".class" in li.entries:
            continue  # the module ships the class itself
        else:
            yield LintFinding(
                "buildfile.unknown_class",
                Severity.ERROR,
                where,
                f"{count} of class {tag!r}, which is not VASSAL's and whose class file "
                f"{tag.replace('.', '/')}.class is not in the archive: VASSAL cannot load the module",
                "ship the custom classes in the module (or its jar), or remove the elements",
            )


def _references(li: LintInput) -> Iterable[LintFinding]:
    m = li.module
    for mdef in m.maps.values():
        # VASSAL never places a SetupStack whose board the map lacks; a DrawPile it places at its
        # pixel on the map, as if it had no owning board.
        for kind, items, severity, result in (
            ("SetupStack", mdef.setup_stacks, Severity.ERROR, "VASSAL never places it"),
            ("DrawPile", mdef.decks, Severity.WARNING, "VASSAL places it at its x, y on the whole map instead"),
        ):
            for item in items:
                if item.owning_board and item.owning_board not in mdef.boards:
                    have = ", ".join(repr(b) for b in mdef.boards) or "none"
                    line = f" line {item.line}" if item.line else ""
                    yield LintFinding(
                        "refs.owning_board",
                        severity,
                        f"{m.build_entry}{line}: {kind} {item.name!r} of map {mdef.name!r}",
                        f"owning board {item.owning_board!r} is not a board of map {mdef.name!r} (boards: {have}): "
                        f"{result}",
                        "choose one of the map's boards as its owning board",
                    )
    for shadowed in m.shadowed_maps:
        line = f" line {shadowed.line}" if shadowed.line else ""
        yield LintFinding(
            "maps.duplicate_name",
            Severity.WARNING,
            f"{m.build_entry}{line}: map {shadowed.name!r} ({shadowed.id})",
            f"an earlier map is also called {shadowed.name!r}: saves name maps by name, so pieces meant for "
            "this one go to the first",
            "give every map its own name",
        )


def check_structure(li: LintInput) -> list[LintFinding]:
    return [*_duplicate_ids(li), *_unnamed(li), *_traits(li), *_classes(li), *_references(li)]
