"""`verify` as text, Markdown or BBCode: the verdict first, then the story.

In order: the title; the verdict (every error and warning, with its rule, units and hexes);
the victory points at the start and end of the files, when the pack counts them; the dice
(rolls per player, undone rolls and what replaced them, the fairness reading); one line per
unit moved; the findings for information that no line above already tells; the step-by-step
listing (in a BBCode spoiler); the notes. `--summary` keeps the title, the verdict and the
dice, within a post's limits (markup.fit_post: 30 lines, under Discord's 2,000 characters);
`--errors-only` keeps the title and the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from vassal_adj.model.events import Moved
from vassal_adj.pbem.audit import Audit
from vassal_adj.pbem.dice_stats import STATS
from vassal_adj.report.dice_text import button_line
from vassal_adj.report.markup import Style, fit_post
from vassal_adj.report.verify_steps import Section
from vassal_adj.rules.mechanisms.legs import mp
from vassal_adj.rules.results import Finding, Severity
from vassal_adj.rules.turn import MoveCheck

__all__ = ["VerifyView", "dice_lines", "finding_line", "verify_text"]


@dataclass
class VerifyView:
    """What the text formats show of a verification (cli/verify.py gathers it)."""

    title: str
    sections: list[Section]
    findings: list[Finding]
    audit: Audit
    moves: list[MoveCheck]
    vp: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _problems(findings: Sequence[Finding]) -> list[Finding]:
    order = {Severity.ERROR: 0, Severity.WARNING: 1}
    return sorted((f for f in findings if f.severity in order), key=lambda f: order[f.severity])


def finding_line(f: Finding, st: Style) -> str:
    """A finding in one line: severity, rule, message, and the hexes it concerns."""
    # Most messages name their hexes already; when some are missing, all of them in order (a
    # move's are its path, which reads wrong with gaps).
    where = f" (hexes {', '.join(f.hexes)})" if any(h not in f.message for h in f.hexes) else ""
    return f"{st.strong(f.severity.value)} {st.esc(f.rule)}: {st.esc(f.message + where)}"


def _verdict(findings: Sequence[Finding], st: Style) -> list[str]:
    counts = {sev: sum(f.severity == sev for f in findings) for sev in Severity}
    head = (
        f"findings: {len(findings)} ({counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
        f"{counts[Severity.INFO]} info)"
    )
    problems = _problems(findings)
    verdict = "no error or warning" if not problems else ""
    return [st.heading(head + (f": {verdict}" if verdict else ""))] + [st.item(finding_line(f, st)) for f in problems]


def dice_lines(a: Audit, st: Style, short: bool = False) -> list[str]:
    """The dice: per player the rolls kept (a count when `short`), each undone roll with the roll
    that replaced it, the fairness reading of each die size, and (not `short`) the rolls per die
    button (dice_text.button_line)."""
    if not a.rolls:
        return []
    out = [st.heading(f"dice: {len(a.rolls)} roll(s)")]
    for player, rolls in a.by_player().items():
        kept = [r for r in rolls if r.undone_in is None]
        line = (
            f"{player}: {len(kept)} roll(s) kept"
            if short
            else f"{player}: {', '.join(r.shown for r in kept) or 'no roll kept'}"
        )
        for r in rolls:
            if r.undone_in is not None:
                new = next((n for n in a.rolls if n.number == r.replaced_by), None)
                again = (
                    "not rolled again"
                    if new is None
                    else f"rolled again as {new.value} (step {new.step})"
                    + (": the steps after the undo replayed the same actions" if r.replayed else "")
                )
                line += f"; undone: {r.shown} (step {r.step}, undone in step {r.undone_in}), {again}"
        out.append(st.item(st.esc(line)))
    out += [st.item(st.esc(f"{d.player}, d{d.sides}: {d.reading()}")) for d in a.stats]
    if a.buttons and not short:
        out += [
            st.subheading("per die button (undone rolls left out)"),
            *(st.item(st.esc(button_line(t))) for t in a.buttons),
        ]
    return out


def _move_line(m: MoveCheck) -> str:
    # Every drop, as verify judged them (a unit dragged out and back shows both ways).
    places = [m.start, *([m.path[0]] if m.kind == "entry" and m.path else []), *(m.stops or (m.end,))]
    way = " -> ".join(p for i, p in enumerate(places) if i == 0 or p != places[i - 1])
    if m.kind == "transport":
        verdict = "transport (no land path): judged as an action of the pack's transport modes, in the findings"
    elif m.ok is None:
        verdict = f"{m.kind}, no movement to judge"
    else:
        used = f", {mp(m.cost)} of {m.allowance} MP" if m.cost is not None else ""
        # Which path was judged: a Movement Trail's hexes, or the cheapest way (and why not the trail's).
        path = f"; path: {m.judged}" + (f" ({m.path_note})" if m.path_note else "") if m.judged else ""
        verdict = ("legal" if m.ok else f"NOT legal ({m.rule})") + used + path
    return f"{m.side} {m.name}: {way}: {verdict}"


def _unjudged_moves(sections: Sequence[Section]) -> list[str]:
    """Without a pack: each piece moved, from its first place to its last, in the order first moved."""
    first: dict[str, Moved] = {}
    last: dict[str, Moved] = {}
    drags: dict[str, int] = {}
    for s in sections:
        for e in s.replay.kept():
            if isinstance(e, Moved):
                first.setdefault(e.piece, e)
                last[e.piece] = e
                drags[e.piece] = drags.get(e.piece, 0) + 1
    return [
        f"{e.name or '(no name)'}: {e.origin} -> {last[p].to}"
        + (f" ({drags[p]} moves)" if drags[p] > 1 else "")
        + ": not judged"
        for p, e in first.items()
    ]


def _undone_moves(sections: Sequence[Section]) -> list[str]:
    """Each move an undo took back: it happened, but is no move of the turn (never judged)."""
    return [
        f"{e.name or '(no name)'}: {e.origin} -> {e.to}: undone (step {s.number}, undone in step {s.undone_in})"
        for sec in sections
        for s, e in sec.replay.undone()
        if isinstance(e, Moved)
    ]


def _moves(view: VerifyView, st: Style) -> list[str]:
    lines = [_move_line(m) for m in view.moves] if view.moves else _unjudged_moves(view.sections)
    undone = _undone_moves(view.sections)
    if not lines and not undone:
        return []
    what = "units moved" if view.moves else "pieces moved (no rule pack judged them)"
    head = f"{what}: {len(lines)}" + (f" (and {len(undone)} move(s) undone)" if undone else "")
    return [st.heading(head), *st.block([st.item(st.esc(x)) for x in lines + undone])]


def _told_elsewhere(f: Finding, moves: Sequence[MoveCheck]) -> bool:
    """An information finding a line above already tells: a legal move's, or the dice test's."""
    return f.rule == STATS or any(m.ok and f.rule == m.rule and f.units == (m.unit,) for m in moves)


def verify_text(
    view: VerifyView, st: Style, *, verbose: bool = False, errors_only: bool = False, summary: bool = False
) -> str:
    """The verification in the format `st` marks (see the module docstring)."""
    if summary:
        return _summary(view, st, errors_only)
    lines = [st.title(st.esc(view.title)), "", *_verdict(view.findings, st)]
    if errors_only:
        return "\n".join(lines)
    if view.vp:
        lines += ["", st.heading("victory points"), *(st.item(st.esc(v)) for v in view.vp)]
    if dice := dice_lines(view.audit, st):
        lines += ["", *dice]
    if moved := _moves(view, st):
        lines += ["", *moved]
    info = [f for f in view.findings if f.severity == Severity.INFO and not _told_elsewhere(f, view.moves)]
    if info:
        lines += ["", st.heading("for information"), *(st.item(finding_line(f, st)) for f in info)]
    steps, hidden = [], 0
    for s in view.sections:
        part, n = s.lines(st, verbose)
        steps += ["", *part]
        hidden += n
    lines += ["", st.heading("step by step"), *st.fold(steps[1:])]
    notes = [*view.notes]
    if hidden:
        notes.append(
            f"{hidden} internal change(s) and automatic report(s) repeating a listed action are hidden "
            "from the steps: -v shows them"
        )
    lines += [""] * bool(notes) + [st.item("note: " + st.esc(n)) for n in notes]
    return "\n".join(lines)


def _summary(view: VerifyView, st: Style, errors_only: bool) -> str:
    """The title, the verdict, the VP and the dice, within a post's limits (markup.fit_post)."""
    tail: list[str] = []
    if view.vp and not errors_only:
        tail += ["", st.heading("victory points"), st.item(st.esc(view.vp[0]))]  # the change and the totals
    if (dice := dice_lines(view.audit, st, short=True)) and not errors_only:
        tail += ["", *dice]
    return fit_post(
        [st.title(st.esc(view.title)), "", *_verdict(view.findings, st)[:1]],
        [st.item(finding_line(f, st)) for f in _problems(view.findings)],
        tail,
        lambda n: st.item(f"... and {n} more (the full report: without --summary)"),
    )
