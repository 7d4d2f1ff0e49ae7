"""Quick to start (issue 10): the command line imports a command's code, and numpy, shapely,
Pillow or lxml, only when it runs something that uses them. Behaviour, not timing: what a
fresh interpreter has in sys.modules (scripts/bench_startup.py measures the times)."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO

from vassal_adj.cli.lazy import LAZY_COMMANDS

EXAMPLE = REPO / "modules" / "kasserine" / "example"
HEAVY = ("numpy", "shapely", "PIL", "lxml")


def _fresh(code: str) -> str:
    """Run `code` in a new interpreter (nothing imported yet) and return its standard output."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout


def _loaded_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint(__import__('json').dumps(sorted(sys.modules)))"
    return set(json.loads(_fresh(probe).splitlines()[-1]))


def test_importing_the_command_line_loads_no_heavy_library_and_no_command() -> None:
    loaded = _loaded_after("import vassal_adj.cli")
    assert not loaded & set(HEAVY)
    group = {"vassal_adj.cli.lazy", "vassal_adj.cli.root"}  # the group itself, no command
    assert not {m for m in loaded if m.startswith(("vassal_adj.cli.", "vassal_adj.rules"))} - group


def test_help_lists_every_command_without_importing_them() -> None:
    run_help = "from vassal_adj.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass"
    loaded = _loaded_after(run_help)
    assert not loaded & set(HEAVY) and not {m for m in loaded if m.startswith("vassal_adj.rules")}
    # nor dataclasses (errors.Where and pack_place.Place come with a command) nor shutil (the
    # terminal's width is read without it: cli/root.py), a tenth of what --help adds to Python's start
    assert not loaded & {"dataclasses", "shutil", "vassal_adj.errors", "vassal_adj.pack_place"}
    lazy_help = _fresh(run_help)
    # The same listing once every command is imported (click then reads each command's own help):
    # the table's summaries are the commands' own first sentences, and the table misses none.
    imports = "".join(f"import {module}\n" for module in sorted({m for m, _ in LAZY_COMMANDS.values()}))
    every = f"from vassal_adj.cli import main\n{imports}assert sorted(main.commands) == {sorted(LAZY_COMMANDS)!r}\n"
    loaded_help = _fresh(every + run_help)
    assert lazy_help == loaded_help
    assert all(f"  {name} " in lazy_help for name in LAZY_COMMANDS)


def test_check_and_verify_on_the_example_load_neither_numpy_shapely_nor_pillow() -> None:
    # They read the module (lxml) but never sample pictures or zones; the board sizes come from
    # the PNG/JPEG headers, read without Pillow.
    module = str(EXAMPLE / "Kasserine.vmod")
    for argv in (
        ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", module],
        ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", module],
    ):
        run = f"from vassal_adj.cli import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass"
        loaded = _loaded_after(run)
        assert f"vassal_adj.cli.{argv[0]}" in loaded  # the command did run
        assert not loaded & {"numpy", "shapely", "PIL"}, argv[0]


def test_a_command_imported_on_demand_still_takes_packs_dir() -> None:
    # The root group gives --packs-dir to the commands that look packs up; a lazily imported one too.
    out = _fresh("from vassal_adj.cli import main\ntry:\n    main(['check', '--help'])\nexcept SystemExit:\n    pass")
    assert "--packs-dir DIR" in out


def test_check_on_a_save_loads_no_log_replay_and_on_a_log_does() -> None:
    # A save is one position: the replay of a log's steps (pbem.log_state, pbem.replay) is a .vlog's
    # alone. On a log, check judges the end the replay reaches (17.15's exits come from it).
    module = str(EXAMPLE / "Kasserine.vmod")
    replay = {"vassal_adj.pbem.log_state", "vassal_adj.pbem.replay"}
    for name, loads in (("turn3-faults.vsav", False), ("turn4-axis.vlog", True)):
        run = (
            f"from vassal_adj.cli import main\ntry:\n    main({['check', str(EXAMPLE / name), '--module', module]!r})\n"
            "except SystemExit:\n    pass"
        )
        loaded = _loaded_after(run)
        assert "vassal_adj.cli.check" in loaded
        assert (replay <= loaded) is loads and (not replay & loaded) is not loads, name


def test_importing_a_command_pauses_the_collector_and_leaves_it_as_it_was() -> None:
    # The collector pauses while a command's modules are imported (cli/lazy.py), then collects
    # again, or stays off for a caller that had turned it off; what was imported is frozen.
    code = (
        "import gc\nfrom vassal_adj.cli import main\n"
        "{before}\nmain.get_command(None, 'grid')\n"
        "print(gc.isenabled(), gc.get_freeze_count() > 0)"
    )
    assert _fresh(code.format(before="")).split() == ["True", "True"]
    assert _fresh(code.format(before="gc.disable()")).split() == ["False", "True"]


def test_the_command_line_sets_its_objects_apart_before_python_collects_at_exit() -> None:
    # cli/__init__.py: gc.freeze as an exit handler; one registered before it runs after it.
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print(gc.get_freeze_count() > 0))\n"
        "import vassal_adj.cli\n"
        "print(gc.get_freeze_count() > 0)"
    )
    assert _fresh(code).split() == ["False", "True"]
