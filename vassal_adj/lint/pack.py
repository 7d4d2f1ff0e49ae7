"""With a rule pack (``--pack``): the module's set-ups as the pack sees them.

- ``pack.labels``: the pack's terrain file names labels the module's grid never produces;
- ``pack.unmapped``: pieces of a set-up the pack's units.toml cannot make units of;
- ``pack.too_many``: more units of a name than the pack's ``setup.deployment`` groups list;
- the pack's own set-up and stacking rules (``setup.*``, ``stacking.*``: every unit of the order of
  battle on its hex or within its area, stacking at set-up), run on each set-up's position, their
  findings kept as the rules word and cite them (``pack:<rule>``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from vassal_adj.codec.obfuscation import Codec
from vassal_adj.errors import VassalAdjError
from vassal_adj.lint.findings import LintFinding, Severity
from vassal_adj.lint.inputs import LintInput, SetupFile
from vassal_adj.pack_files import LoadedPack
from vassal_adj.position import main_layout
from vassal_adj.rules.engine import adjudicate
from vassal_adj.rules.mechanisms.setup import printed_key
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import game_state

__all__ = ["check_pack"]

_SET_UP_FAMILIES = ("setup.", "stacking.")
_SHOWN = 3


def _labels(li: LintInput, lp: LoadedPack) -> Iterable[LintFinding]:
    game = next((f.game for f in li.setups if f.game is not None), None)
    blank = game or SavedGame.new("begin_save\x1bend_save", codec=Codec(obfuscated=False))
    try:
        main = main_layout(li.module, blank, lp.pack.extras)
        if main is None or lp.terrain_path is None:
            return
        lp.terrain(main[1])
    except VassalAdjError as e:
        yield LintFinding(
            "pack.labels",
            Severity.ERROR,
            str(e.where) if e.where else str(lp.directory),
            f"pack {lp.id!r} does not fit the module's grid: {e.message}",
            "correct the pack's labels (vassal-adj grid MODULE shows the module's), or the module's numbering",
        )


def _listed(lp: LoadedPack) -> Counter[str]:
    """How many units of each printed name the pack's deployment groups place."""
    out: Counter[str] = Counter()
    for rule in lp.pack.rules_using("setup.deployment"):
        for g in rule.params.get("groups", ()):
            out.update(printed_key(n) for n in g.get("units", ()))
    return out


def _setup(li: LintInput, lp: LoadedPack, f: SetupFile, listed: Counter[str]) -> Iterable[LintFinding]:
    assert f.game is not None
    state, context, unmapped = game_state(li.module, f.game, lp)
    if unmapped:
        names = [f"{u.piece.name!r} ({u.reason})" for u in unmapped[:_SHOWN]]
        more = f" and {len(unmapped) - _SHOWN} more" if len(unmapped) > _SHOWN else ""
        yield LintFinding(
            "pack.unmapped",
            Severity.WARNING,
            f"{f.where}: piece {unmapped[0].piece.id}",
            f"{len(unmapped)} piece(s) the pack {lp.id!r} cannot make units of: {'; '.join(names)}{more}",
            "name the pieces as the pack's units.toml reads them, or extend units.toml",
        )
    have = Counter(printed_key(u.name) for u in state.units.values())
    for key, n in listed.items():
        if have[key] > n:
            yield LintFinding(
                "pack.too_many",
                Severity.ERROR,
                f.where,
                f"{have[key]} units named {key!r} are in the set-up; the pack's order of battle places {n}",
                "remove the extra counters from the set-up",
            )
    report = adjudicate(state, lp, context)
    cites = {
        f"{lp.id}:{p.get('rule_ref', '')}"
        for p in report.parameters.values()
        if str(p.get("impl", "")).startswith(_SET_UP_FAMILIES)
    }
    for finding in report.findings:
        if finding.rule in cites and finding.severity != Severity.INFO:
            hexes = f" [{', '.join(finding.hexes)}]" if finding.hexes else ""
            yield LintFinding(
                finding.rule,
                finding.severity,
                f.where,
                finding.message + hexes,
                "move the units in the set-up as the rule says and save it again",
            )


def check_pack(li: LintInput, lp: LoadedPack) -> list[LintFinding]:
    out = list(_labels(li, lp))
    listed = _listed(lp)
    for f in li.setups:
        if f.game is not None:
            try:
                out += list(_setup(li, lp, f, listed))
            except VassalAdjError as e:
                out.append(
                    LintFinding(
                        "pack.not_judged",
                        Severity.INFO,
                        f.where,
                        f"the set-up cannot be read with pack {lp.id!r}: {e.message}",
                        "",
                    )
                )
    return out
