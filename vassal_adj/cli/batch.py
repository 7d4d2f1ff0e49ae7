"""`vassal-adj batch DIR --module M.vmod [-o report/]`: a referee's run over a folder of games (issue 16).

The work is vassal_adj/batch/'s: discovery, the worker pool, evidence, the summary writers.
This command writes summary.html, summary.md, summary.csv and summary.json to the output
folder, each game's report under games/, and the state file that lets an interrupted batch
resume. Exit status: 1 when a game has an error finding (a broken or foreign file is one),
2 for bad usage (no games, no module), 0 otherwise.
"""

from __future__ import annotations

import os

import click

from vassal_adj.cli import _guarded, main
from vassal_adj.cli.options import pack_option
from vassal_adj.cli.output import working


@main.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option(
    "--module",
    "module_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="The module (.vmod) the games are played with.",
)
@pack_option
@click.option(
    "--jobs", "-j", type=click.IntRange(1, 64), default=None, help="Worker processes (default: the number of CPUs)."
)
@click.option(
    "-o",
    "--output",
    "out_dir",
    type=click.Path(file_okay=False),
    default="batch-report",
    show_default=True,
    help="The folder the summary and the games' reports are written to (made if missing).",
)
@click.option(
    "--group",
    metavar="REGEX",
    help="For files loose in FOLDER: a pattern whose (?P<game>...) group names a file's game "
    "(default: the name up to the first - _ space or dot).",
)
@_guarded
def batch(
    folder: str, module_path: str, pack_name: str | None, jobs: int | None, out_dir: str, group: str | None
) -> None:
    """Judge every game of a tournament folder and write a summary table with evidence.

    A sub-folder per game (its saves and logs), or files in FOLDER grouped by --group. Each
    game's files go in the order VASSAL saved them (savedata's date, then name); verify runs
    over them, check on the last, vp over all. The summary (HTML, Markdown, CSV, JSON) has per
    game the last turn, findings by severity, VP and level, dice per player with the fairness
    test, undone rolls, continuity breaks, and the SHA-256 fingerprints of the files with their
    chain; each game's name links to its own report. A broken or foreign file is a finding of
    its game. Interrupted, the same command resumes: finished games are not redone.

    \b
    Example:
      vassal-adj batch tournament/ --module game.vmod -o report/ --jobs 2
    """
    from vassal_adj.batch.discovery import find_games
    from vassal_adj.batch.run import run_batch
    from vassal_adj.batch.summary_html import summary_html
    from vassal_adj.batch.summary_text import summary_csv, summary_json, summary_markdown
    from vassal_adj.errors import UsageError, Where

    games = find_games(folder, group)
    if not os.path.isfile(module_path):
        raise UsageError("no such module file", Where(path=module_path))
    os.makedirs(out_dir, exist_ok=True)
    run = {
        "folder": os.path.abspath(folder),
        "module": os.path.abspath(module_path),
        "pack": pack_name,
        "games": {g.name: [[f, os.path.getsize(f), os.stat(f).st_mtime_ns] for f in g.files] for g in games},
    }
    with working("batch", after=0.0) as say:
        rows = run_batch(games, out_dir, module_path, pack_name, jobs or os.cpu_count() or 1, run, say)
    title = f"Batch: {os.path.basename(os.path.abspath(folder))} ({len(rows)} games)"
    for name, text in (
        ("summary.html", summary_html(rows, title)),
        ("summary.md", summary_markdown(rows, title)),
        ("summary.csv", summary_csv(rows)),
        ("summary.json", summary_json(rows, title)),
    ):
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)
    errors = sum(1 for r in rows if r["severity"]["error"])
    click.echo(f"{len(rows)} games, {errors} with errors: {os.path.join(out_dir, 'summary.html')}")
    if errors:
        raise click.exceptions.Exit(1)
