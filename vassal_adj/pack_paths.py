"""Where rule packs are looked for, in order (DESIGN.md: "from the wheel, user folders and --packs-dir").

1. the directories given with ``--packs-dir`` (the command line sets them: `set_packs_dirs`);
2. the directories in ``$VASSAL_ADJ_PACKS`` (separated by ``os.pathsep``: ``:``, or ``;`` on Windows);
3. the user's packs folder (`user_packs_dir`), when it exists;
4. the packs shipped with vassal-adj: inside the installed package (vassal_adj/packs_data, built
   from modules/ by setup.py), or the clone's modules/ when running from a checkout.

Each directory holds one sub-directory per pack (``<dir>/<game>/pack.toml``). When two places
hold a pack with the same id or alias, the place earlier in this order wins: a user's edited
copy of a shipped pack replaces it (packs.load_all). A directory the user named that does not
exist is a usage error; the user folder is only looked in when it exists.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from vassal_adj.pack_place import Place

__all__ = [
    "ENV_PACKS",
    "Place",
    "how_to_add",
    "packs_dirs",
    "search_path",
    "set_packs_dirs",
    "shipped_packs_dir",
    "user_packs_dir",
    "where_looked",
]

ENV_PACKS = "VASSAL_ADJ_PACKS"
APP = "vassal-adj"

# The --packs-dir directories of the running command. The command line sets them for one run
# (cli/root.py RootGroup), so that every command reaching packs.find_pack or pack_for sees them without
# passing them through each command's code.
_packs_dirs: tuple[Path, ...] = ()


def __getattr__(name: str) -> object:
    # `Place` lives in pack_place.py, imported when first asked for (PEP 562): --help needs it not
    if name == "Place":
        from vassal_adj.pack_place import Place

        return Place
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def set_packs_dirs(dirs: Iterable[str | Path]) -> None:
    """The ``--packs-dir`` directories, searched first, in the order given."""
    global _packs_dirs
    dirs = tuple(dirs)
    if not dirs:  # every run starts here: `--help` need not load pathlib (a twentieth of its start)
        _packs_dirs = ()
        return
    from pathlib import Path

    _packs_dirs = tuple(Path(d) for d in dirs)


def packs_dirs() -> tuple[Path, ...]:
    """The ``--packs-dir`` directories set for this run."""
    return _packs_dirs


def user_packs_path(env: Mapping[str, str] | None = None, platform: str | None = None, home: str | None = None) -> str:
    """The per-user packs folder: where each system keeps an application's user data.

    Linux and others: ``$XDG_DATA_HOME/vassal-adj/packs`` (default ``~/.local/share``);
    Windows: ``%APPDATA%\\vassal-adj\\packs``; macOS: ``~/Library/Application Support/vassal-adj/packs``.
    A string, without pathlib: `--help` shows it, and pathlib costs it a twentieth of its start.
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = os.path.expanduser("~") if home is None else os.fspath(home)
    if platform.startswith("win"):
        base = env["APPDATA"] if env.get("APPDATA") else os.path.join(home, "AppData", "Roaming")
    elif platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = env["XDG_DATA_HOME"] if env.get("XDG_DATA_HOME") else os.path.join(home, ".local", "share")
    return os.path.join(base, APP, "packs")


def user_packs_dir(env: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None) -> Path:
    """`user_packs_path` as a Path."""
    from pathlib import Path

    return Path(user_packs_path(env, platform, None if home is None else str(home)))


def shipped_packs_dir() -> Place | None:
    """The packs that come with vassal-adj: in the installed package, else in the clone."""
    from pathlib import Path

    from vassal_adj.pack_place import Place

    # a wheel (setup.py puts them there): beside this file, where importlib.resources.files would
    # find them in an installed package, without importing it (2 ms of `check`, issue 10); a
    # package inside a zip file has no such directory, as files() gives no Path for it
    data = Path(__file__).parent / "packs_data"
    if data.is_dir():
        return Place(data, "shipped with vassal-adj")
    checkout = Path(__file__).resolve().parents[1] / "modules"  # a clone, installed editable or not at all
    return Place(checkout, "the clone's modules/") if checkout.is_dir() else None


def search_path() -> list[Place]:
    """The directories searched for packs, in order; UsageError for a named directory that is missing."""
    from pathlib import Path

    from vassal_adj.errors import UsageError
    from vassal_adj.pack_place import Place

    places = [Place(d, "--packs-dir") for d in _packs_dirs]
    places += [Place(Path(d), f"${ENV_PACKS}") for d in os.environ.get(ENV_PACKS, "").split(os.pathsep) if d]
    for place in places:
        if not place.path.is_dir():
            raise UsageError(f"packs directory {str(place.path)!r} from {place.origin} does not exist")
    user = user_packs_dir()
    if user.is_dir():
        places.append(Place(user, "your packs folder"))
    shipped = shipped_packs_dir()
    if shipped is not None:
        places.append(shipped)
    unique: dict[Path, Place] = {}
    for place in places:  # the same directory twice (e.g. $VASSAL_ADJ_PACKS naming the clone's) counts once
        unique.setdefault(place.path.resolve(), place)
    return list(unique.values())


def where_looked() -> str:
    """Every place searched, for a message saying that no pack was found there."""
    places = search_path()
    user = user_packs_dir()
    looked = [str(p) for p in places]
    if all(p.path != user for p in places):
        looked.append(f"{user} (your packs folder: absent)")
    return "; ".join(looked)


def how_to_add() -> str:
    """How to add a pack, for the same messages."""
    shipped = shipped_packs_dir()
    template = shipped.path / "_template" if shipped is not None else None
    start = f"the template {template}" if template is not None and template.is_dir() else "the template"
    return (
        f"to add a pack, copy a pack folder ({start}) into {user_packs_dir()}, or name the folder "
        f"holding it with --packs-dir DIR or ${ENV_PACKS} (docs/adding-a-rule-pack.md)"
    )
