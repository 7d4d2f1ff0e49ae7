"""`vassal-adj vp GAME-FILES... --module M.vmod --pack PACK`: the victory points of a game.

One command of the cli/ package; the same rules hold (exit 2 for bad input or pack, 3 for
a bug). The files are a game's saves or logs, oldest first; the pack's ``victory.points`` rule
(vassal_adj/rules/mechanisms/victory_rules.py) counts what they show together: an objective is dated by
the first position that shows it taken, an elimination by the first that shows the unit in the
box. A save is one position; a log is every position its steps pass through (pbem/log_state.py),
with the hex each unit left the map from, so its own eliminations, exits and entries count.
A log that contains an earlier log given (its opening and all its steps, then more:
parse/log_contains.py, as `verify` tells) adds only the positions of its continuation: the
repeated steps are the earlier log's, so what they show is dated to that log, once.
"""

from __future__ import annotations

from typing import Any

import click

from vassal_adj import packs as packs_io
from vassal_adj.cli import _emit_json, _guarded, main
from vassal_adj.cli.options import FORMATS, game_options, scenario_option
from vassal_adj.cli.output import output_option
from vassal_adj.cli.vp_conditions import condition_rules, emit_conditions
from vassal_adj.cli.vp_count import IMPL, count_files, tally, victory_rule
from vassal_adj.load import load_module, load_save
from vassal_adj.report.describe import SCHEMA_VERSION
from vassal_adj.report.markup import bb, md
from vassal_adj.rules.mechanisms.victory import Item, Tally


def _signed(n: int) -> str:
    return f"{n:+d}"


def _rows(t: Tally) -> list[tuple[Item, int]]:
    total, out = 0, []
    for i in t.items:
        total += i.points
        out.append((i, total))
    return out


def _level(t: Tally, total: int) -> str:
    return t.level(total) or "no victory level"


def _projection_words(t: Tally, side: str) -> str:
    best = t.best_option
    assert best is not None
    return (
        f"projection if the game ended now and the {side} player took the larger end-of-play award "
        f"([{best.rule_ref}] {_signed(best.points)}): {t.projection} VP, {_level(t, t.projection)}"
    )


def _text(t: Tally, files: list[str], turns: list[int], own: list[bool], notes: list[str], cite: str, side: str) -> str:
    lines = [f"victory points by {cite}, {len(files)} file(s):"]
    lines += [
        f"  {n}. {f}: turn {tn}{'' if o else ' (from the order given)'}"
        for n, (f, tn, o) in enumerate(zip(files, turns, own, strict=True), 1)
    ]
    lines += ["", f"{'rule':<22} {'points':>6} {'turn':>4} {'total':>5}  item"]
    for i, total in _rows(t):
        turn = "" if i.turn is None else str(i.turn)
        lines.append(f"{i.rule_ref:<22} {_signed(i.points):>6} {turn:>4} {total:>5}  {i.text}")
    lines += ["", f"total: {t.total} VP, {_level(t, t.total)}"]
    if t.options:
        lines += ["", f"end of play: the {side} player takes one of these awards, not both (the tool cannot choose):"]
        lines += [f"  {i.rule_ref:<20} {_signed(i.points):>6}  {i.text}" for i in t.options]
        lines.append(_projection_words(t, side))
    if t.faults:
        lines += ["", "errors:"] + [f"  - {f}" for f in t.faults]
    if t.unknowns:
        lines += ["", "what the file(s) cannot tell, and readings used:"] + [f"  - {u}" for u in t.unknowns]
    if notes:
        lines += [""] + [f"note: {n}" for n in notes]
    return "\n".join(lines)


_md = md  # free text (unit names from the files) safe in a Markdown table cell or list item


def _bbcode(
    t: Tally, files: list[str], turns: list[int], own: list[bool], notes: list[str], cite: str, side: str
) -> str:
    """For BoardGameGeek, which has no tables: the text report's columns in a fixed-width [c]
    block, under a [b] heading and the total; file text neutralised (markup.bb)."""

    def safe(line: str) -> str:  # bb() trims a line: its indent, which aligns the columns, is kept
        return line[: len(line) - len(line.lstrip())] + bb(line)

    body = _text(t, files, turns, own, notes, cite, side).splitlines()
    return "\n".join(
        [
            f"[b]Victory points ({bb(cite)})[/b]",
            f"[b]Total: {t.total} VP, {bb(_level(t, t.total))}[/b]",
            "[c]",
            *map(safe, body),
            "[/c]",
        ]
    )


def _markdown(
    t: Tally, files: list[str], turns: list[int], own: list[bool], notes: list[str], cite: str, side: str
) -> str:
    lines = [f"## Victory points ({cite})", ""]
    lines += [
        f"{n}. `{f}`: turn {tn}{'' if o else ' (from the order given)'}"
        for n, (f, tn, o) in enumerate(zip(files, turns, own, strict=True), 1)
    ]
    lines += ["", "| Item | Rule | Points | Turn | Total |", "|---|---|---:|---:|---:|"]
    for i, total in _rows(t):
        lines.append(
            f"| {_md(i.text)} | {i.rule_ref} | {_signed(i.points)} | {'' if i.turn is None else i.turn} | {total} |"
        )
    lines += ["", f"**Total: {t.total} VP, {_level(t, t.total)}.**"]
    if t.options:
        lines += [
            "",
            f"End of play: the {side} player takes one of these awards, not both.",
            "",
            "| Award | Rule | Points |",
            "|---|---|---:|",
        ]
        lines += [f"| {_md(i.text)} | {i.rule_ref} | {_signed(i.points)} |" for i in t.options]
        lines += ["", f"*{_md(_projection_words(t, side))}.*"]
    if t.faults:
        lines += ["", "### Errors", ""] + [f"- {_md(f)}" for f in t.faults]
    if t.unknowns:
        lines += ["", "### What the files cannot tell", ""] + [f"- {_md(u)}" for u in t.unknowns]
    if notes:
        lines += ["", "### Notes", ""] + [f"- {_md(n)}" for n in notes]
    return "\n".join(lines)


def _data(
    t: Tally,
    files: list[str],
    turns: list[int],
    own: list[bool],
    notes: list[str],
    cite: str,
    names: dict[str, str],
    final: bool,
    file_of: list[int],
) -> dict[str, Any]:
    def item(i: Item, total: int | None = None) -> dict[str, Any]:
        d = {
            "rule": i.rule_ref,
            "text": i.text,
            "points": i.points,
            "turn": i.turn,
            "file": file_of[i.index] + 1,
            "units": list(i.units),
            "unit_names": [names.get(u, u) for u in i.units],
            "hexes": list(i.hexes),
        }
        return d if total is None else {**d, "total": total}

    best = t.best_option
    return {
        "schema_version": SCHEMA_VERSION,
        "rule": cite,
        "final": final,
        "files": [
            {"path": f, "turn": tn, "turn_from": "save" if o else "order"}
            for f, tn, o in zip(files, turns, own, strict=True)
        ],
        "items": [item(i, total) for i, total in _rows(t)],
        "total": t.total,
        "level": t.level(t.total),
        "options": [item(i) for i in t.options],
        "projection": None
        if best is None
        else {"points": t.projection, "level": t.level(t.projection), "assumes": best.rule_ref},
        "unknowns": list(t.unknowns),
        "errors": list(t.faults),
        "notes": notes,
    }


@main.command()
@click.argument("games", nargs=-1, required=True, type=click.Path(dir_okay=False))
@game_options
@scenario_option
@click.option(
    "--terrain",
    type=click.Path(dir_okay=False, exists=True),
    help="A terrain file to use instead of the pack's (22.43.1 traces roads and trails).",
)
@click.option(
    "--first-turn",
    type=int,
    default=1,
    show_default=True,
    help="The turn of the first file when the files carry no turn; later files count up.",
)
@click.option("--final", is_flag=True, help="The last file is the end of the game: its turn is complete.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice([*FORMATS, "json"]),
    default="text",
    show_default=True,
    help="Output format (bbcode: a BoardGameGeek post).",
)
@_guarded
@output_option
def vp(
    games: tuple[str, ...],
    module_path: str,
    pack_name: str | None,
    scenario: str | None,
    terrain: str | None,
    first_turn: int,
    final: bool,
    fmt: str,
) -> None:
    """Count the victory points of a game from its saves or logs, given oldest first.

    Prints each item with its rule, points, turn and the running total, then the victory
    level; the end-of-play awards the player chooses between are shown apart, with the
    larger as a labelled projection. Given one save, it counts what that save shows and
    lists what one save cannot tell. A log counts its own events: every position its steps
    pass through, and the hex each unit left the map from. A log that contains an earlier
    log given (replayed and played on) counts only its steps after that log's. A side's withdrawal declared
    twice is an error (exit status 1). A pack that scores no points but names conditions of
    victory (victory.conditions) gets each condition and the outcome at the last position.

    \b
    Example:
      vassal-adj vp turn1.vsav turn2.vsav turn3.vsav \\
          --module game.vmod --pack mygame --format markdown
    """
    module = load_module(module_path)
    lp = packs_io.pack_for(pack_name, module.name, module.version)
    if not condition_rules(lp.pack.rules):
        victory_rule(lp, lp.pack.rules)  # neither points nor conditions: a usage error
    paths = list(games)
    c = count_files(
        module,
        module_path,
        lp,
        paths,
        [load_save(p) for p in paths],
        terrain=terrain,
        scenario=scenario,
        first_turn=first_turn,
    )
    if not any(r.impl == IMPL and r.enabled for r in c.rules) and (conditions := condition_rules(c.rules)):
        emit_conditions(c.states[-1], lp.pack, conditions, c.context, paths, c.notes, fmt)
        return
    t, rctx = tally(c, lp, final)
    rule = rctx.rule
    assert rule is not None
    states, file_of, turns, own, notes = c.states, c.file_of, c.file_turns, c.own, c.notes
    side, cite, files = str(rule.params["side"]), rctx.cite(), paths
    if fmt == "json":
        names = {uid: u.name for s in states for uid, u in s.units.items()}
        _emit_json(_data(t, files, turns, own, notes, cite, names, final, file_of))
    elif fmt == "markdown":
        click.echo(_markdown(t, files, turns, own, notes, cite, side))
    elif fmt == "bbcode":
        click.echo(_bbcode(t, files, turns, own, notes, cite, side))
    else:
        click.echo(_text(t, files, turns, own, notes, cite, side))
    if t.faults:
        raise click.exceptions.Exit(1)
