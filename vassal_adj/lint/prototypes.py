"""Prototypes (6.8 of VASSAL-FORMATS.md): used but not defined (``prototypes.undefined``), defined
and never used (``prototypes.unused``), defined twice (``prototypes.duplicate``), including
themselves (``prototypes.cycle``).

A piece that names a prototype the module does not define simply lacks that prototype's traits in
VASSAL (its menu, layers and properties), with a bad-data warning when the piece is made: the usual
result of renaming a prototype and missing some of its users. One finding per missing name, with
its users counted and the nearest defined names offered.
"""

from __future__ import annotations

import difflib

from vassal_adj.errors import VassalAdjError
from vassal_adj.lint.findings import LintFinding, Severity
from vassal_adj.lint.inputs import LintInput
from vassal_adj.parse.traits import Prototype, expand_prototypes

__all__ = ["check_prototypes"]

_SHOWN = 3


def _is_note(name: str) -> bool:
    """A reference used as a comment, an idiom of modules older than the Comment trait: empty, or
    starting as notes do ("# ...", "*** ... ***")."""
    return not name.strip() or name.lstrip().startswith(("#", "*", "//", "--"))


def check_prototypes(li: LintInput) -> list[LintFinding]:
    defined = li.module.prototypes
    users: dict[str, list[str]] = {}
    used: set[str] = set()
    for d in li.definitions:
        for trait in d.piece.traits if d.piece is not None else ():
            if isinstance(trait, Prototype):
                used.add(trait.name)
                if trait.name not in defined:
                    users.setdefault(trait.name, []).append(d.where)
    out = []
    for name, who in sorted(users.items(), key=lambda kv: -len(kv[1])):
        if _is_note(name):
            out.append(
                LintFinding(
                    "prototypes.note",
                    Severity.INFO,
                    who[0],
                    f"prototype reference {name!r} names no prototype and reads as a note to the author "
                    f"({len(who)} time(s)); VASSAL skips it",
                    "use a Comment trait for notes (VASSAL 3.6 and later)",
                )
            )
            continue
        near = difflib.get_close_matches(name, list(defined), n=2, cutoff=0.6)
        more = f" and {len(who) - _SHOWN} more" if len(who) > _SHOWN else ""
        also = f"; also near: {near[1]!r}" if len(near) > 1 else ""
        fix = (
            f"rename the references to {near[0]!r} (the nearest defined name{also}) or define {name!r}"
            if near
            else f"define a prototype named {name!r} or remove the references"
        )
        out.append(
            LintFinding(
                "prototypes.undefined",
                Severity.ERROR,
                who[0],
                f"prototype {name!r} is used {len(who)} time(s) but not defined: those pieces lack its traits; "
                f"used by {'; '.join(who[:_SHOWN])}{more}",
                fix,
            )
        )
    for name in defined:
        if name not in used:
            out.append(
                LintFinding(
                    "prototypes.unused",
                    Severity.INFO,
                    f"{li.module.build_entry}: PrototypeDefinition {name!r}",
                    f"prototype {name!r} is defined but no piece slot or prototype uses it",
                    "remove it, or add it to the pieces it was meant for",
                )
            )
    for name in dict.fromkeys(li.module.duplicate_prototypes):
        out.append(
            LintFinding(
                "prototypes.duplicate",
                Severity.WARNING,
                f"{li.module.build_entry}: PrototypeDefinition {name!r}",
                f"prototype {name!r} is defined more than once; VASSAL uses the last definition",
                "delete or rename the definitions that are not meant",
            )
        )
    texts = {name: p.text for name, p in defined.items()}
    for d in li.definitions:
        if d.prototype and d.piece is not None:
            try:
                expand_prototypes(d.piece, texts)
            except VassalAdjError as e:
                out.append(
                    LintFinding(
                        "prototypes.cycle",
                        Severity.ERROR,
                        d.where,
                        f"{e.message}: VASSAL cannot build a piece that uses it",
                        "remove the prototype trait that closes the loop",
                    )
                )
    return out
