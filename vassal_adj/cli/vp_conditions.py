"""`vp` for a pack that scores no points but names the conditions of victory
(``victory.conditions``, e.g. seed 001's campaigns: "The Axis wins if he controls Tébessa ...
and three units exit"): each condition and the outcome at the last position the files show,
as the rule's findings word them ("if the game ended with this state"). Exit 1 when one of
those findings is an error.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import click

from vassal_adj.cli import _emit_json
from vassal_adj.model.state import GameState
from vassal_adj.report.describe import SCHEMA_VERSION
from vassal_adj.report.markup import bb, md
from vassal_adj.rules.engine import RuleContext, adjudicate
from vassal_adj.rules.packs.pack import RuleConfig, RulePack
from vassal_adj.rules.results import Finding, Severity

IMPL = "victory.conditions"


def condition_rules(rules: tuple[RuleConfig, ...]) -> tuple[RuleConfig, ...]:
    return tuple(r for r in rules if r.impl == IMPL and r.enabled)


def _findings(state: GameState, pack: RulePack, rules: tuple[RuleConfig, ...], ctx: RuleContext) -> list[Finding]:
    """The conditions rules' findings on `state`, those of rules not in force left out."""
    report = adjudicate(state, replace(pack, rules=rules), ctx)
    return [f for f in report.findings if "is not in force" not in f.message]


def emit_conditions(
    state: GameState,
    pack: RulePack,
    rules: tuple[RuleConfig, ...],
    ctx: RuleContext,
    files: list[str],
    notes: list[str],
    fmt: str,
) -> None:
    """Print the conditions at `state` (the last position of `files`) in `fmt`."""
    found = _findings(state, pack, rules, ctx)
    turn = "" if state.turn is None else f"turn {state.turn}"
    where = ", ".join(x for x in (turn, state.phase or "") if x) or "turn unknown"
    head = f"victory conditions at the last position ({where}), {len(files)} file(s): {', '.join(files)}"
    if fmt == "json":
        data: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "files": files,
            "turn": state.turn,
            "phase": state.phase,
            "findings": [
                {"rule": f.rule, "severity": f.severity.value, "message": f.message, "hexes": list(f.hexes)}
                for f in found
            ],
            "notes": notes,
        }
        _emit_json(data)
    elif fmt == "markdown":
        lines = [f"## {md(head)}", ""] + [f"- `{f.rule}` {f.severity.value}: {md(f.message)}" for f in found]
        click.echo("\n".join(lines + ([""] + [f"- note: {md(n)}" for n in notes] if notes else [])))
    else:
        lines = [head, ""] + [f"  {f.severity.value:<7} {f.rule}: {f.message}" for f in found]
        lines += [""] + [f"note: {n}" for n in notes] if notes else []
        text = "\n".join(lines)
        click.echo("[c]" + bb(text) + "[/c]" if fmt == "bbcode" else text)
    if any(f.severity is Severity.ERROR for f in found):
        raise click.exceptions.Exit(1)
