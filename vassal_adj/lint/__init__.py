"""`vassal-adj lint`: what is broken in a module and the set-ups it ships, for module authors.

One file per concern, each a function from a `LintInput` to findings: structure.py (slot ids,
names, traits, element classes, references), images.py, prototypes.py, grids.py, setups.py, and
pack.py (with a rule pack). `lint` runs them all and orders the findings, errors first.
"""

from __future__ import annotations

from collections.abc import Callable

from vassal_adj.lint.findings import LintFinding, LintReport, Severity
from vassal_adj.lint.grids import check_grids
from vassal_adj.lint.images import check_images
from vassal_adj.lint.inputs import LintInput, read_lint_input
from vassal_adj.lint.prototypes import check_prototypes
from vassal_adj.lint.setups import check_setups
from vassal_adj.lint.structure import check_structure
from vassal_adj.pack_files import LoadedPack

__all__ = ["LintFinding", "LintInput", "LintReport", "Severity", "lint", "read_lint_input"]

CHECKS: tuple[tuple[str, Callable[[LintInput], list[LintFinding]]], ...] = (
    ("structure", check_structure),
    ("images", check_images),
    ("prototypes", check_prototypes),
    ("grids", check_grids),
    ("setups", check_setups),
)


def lint(li: LintInput, lp: LoadedPack | None = None) -> LintReport:
    """Every check over the module (and, with `lp`, the pack's), findings errors first."""
    found: list[LintFinding] = []
    checked = []
    for name, check in CHECKS:
        got = check(li)
        checked.append((name, len(got)))
        found += got
    notes = [f"{len(li.setups)} set-up save(s) read: {', '.join(f.where for f in li.setups) or 'none'}"]
    if lp is not None:
        from vassal_adj.lint.pack import check_pack  # the rule engine: only with --pack (startup time)

        got = check_pack(li, lp)
        checked.append((f"pack {lp.id}", len(got)))
        found += got
    else:
        notes.append("no rule pack given (--pack): the order of battle and set-up rules were not checked")
    name = f"{li.module.name} {li.module.version}".strip()
    return LintReport(name, li.path, tuple(sorted(found, key=LintFinding.sort_key)), tuple(checked), tuple(notes))
