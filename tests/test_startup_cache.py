"""The command line's cache (issue 10, startup time): it only saves time. A command gives the same
output with it off, cold and warm; a stale or corrupt entry is ignored and rebuilt; entries are
where user_cache.py says and nowhere else."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

from vassal_adj import held, user_cache
from vassal_adj.layout_cache import with_cached_index
from vassal_adj.load import load_module, load_save
from vassal_adj.model.geometry.layout import HexLayout
from vassal_adj.pack_files import read_toml
from vassal_adj.position import MapPlacer

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")


@pytest.fixture(autouse=True)
def _a_process_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(held, "_HELD", type(held._HELD)())


def _new_run() -> None:
    """What the next run starts with: nothing held in the process (held.py), only the cache's entries."""
    held._HELD.clear()


def _env(cache: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in (user_cache.ENV_CACHE, user_cache.ENV_NO_CACHE)}
    if cache is None:
        env[user_cache.ENV_NO_CACHE] = "1"
    else:
        env[user_cache.ENV_CACHE] = str(cache)
    return env


def _run(argv: list[str], cache: Path | None) -> subprocess.CompletedProcess[str]:
    entry = "import sys; from vassal_adj.cli import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", entry, *argv], capture_output=True, text=True, env=_env(cache), cwd=REPO, check=False
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE],
        ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE, "--format", "json"],
        ["verify", str(EXAMPLE / "turn4-axis.vlog"), "--module", MODULE],
    ],
    ids=["check", "check-json", "verify"],
)
def test_a_command_prints_the_same_with_the_cache_off_cold_and_warm(argv: list[str], tmp_path: Path) -> None:
    off = _run(argv, None)
    assert off.returncode in (0, 1), off.stderr
    assert not list(tmp_path.iterdir())
    cold = _run(argv, tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert any(n.startswith("dataclass-code-") for n in names) and any(n.startswith("hex-index-") for n in names)
    assert any(n.startswith("toml-") for n in names)
    warm = _run(argv, tmp_path)
    for run in (cold, warm):
        assert (run.returncode, run.stdout, run.stderr) == (off.returncode, off.stdout, off.stderr)


def test_with_the_cache_off_nothing_is_written(tmp_path: Path) -> None:
    env = _env(None) | {user_cache.ENV_CACHE: str(tmp_path)}  # a directory named, but caching off
    argv = ["check", str(EXAMPLE / "turn3-faults.vsav"), "--module", MODULE]
    entry = "import sys; from vassal_adj.cli import main; sys.exit(main())"
    subprocess.run([sys.executable, "-c", entry, *argv], capture_output=True, env=env, check=False)
    assert not list(tmp_path.iterdir())


def test_the_cache_directory_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(user_cache.ENV_CACHE, raising=False)
    monkeypatch.delenv(user_cache.ENV_NO_CACHE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if not sys.platform.startswith("win"):
        assert user_cache.cache_dir() == str(tmp_path / "vassal-adj")
        monkeypatch.setenv("XDG_CACHE_HOME", "")
        monkeypatch.setattr(os.path, "expanduser", lambda p: p)  # no home directory known: "~" stays
        assert user_cache.cache_dir() is None  # not a cache in the working directory
    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path / "mine"))
    assert user_cache.cache_dir() == str(tmp_path / "mine")
    monkeypatch.setenv(user_cache.ENV_NO_CACHE, "0")  # "0" is not a request to turn it off
    assert user_cache.cache_dir() == str(tmp_path / "mine")
    monkeypatch.setenv(user_cache.ENV_NO_CACHE, "1")
    assert user_cache.cache_dir() is None


# -- the dataclass code cache (dataclass_code.py) ----------------------------------------------

# Classes of every kind dataclasses writes methods for, described by what a user of them can see.
PROBE = """
import dataclasses, inspect, sys
from dataclasses import InitVar, dataclass, field
if sys.argv[1] == "install":
    from vassal_adj.dataclass_code import install
    install()

@dataclass(frozen=True)
class A:
    x: int
    y: str = "y"
    z: list = field(default_factory=list, compare=False)

@dataclass(order=True, slots=True)
class B:
    p: float
    q: tuple = ()

@dataclass(kw_only=True)
class C:
    n: int = 3
    k: InitVar[int] = 0
    def __post_init__(self, k):
        self.n += k

@dataclass(eq=False)
class D:
    ref: "A"

out = []
for cls in (A, B, C, D):
    out.append((cls.__name__, str(inspect.signature(cls)), repr(cls.__init__.__annotations__),
                [m for m in ("__eq__", "__hash__", "__lt__", "__setattr__", "__repr__") if m in cls.__dict__]))
a = A(1)
out += [repr(a), a == A(1, "y", [2]), hash(a) == hash(A(1)), repr(B(1.5)), B(1.0) < B(2.0)]
out += [repr(C(n=1, k=2)), D(a) == D(a)]
try:
    a.x = 2
except dataclasses.FrozenInstanceError as e:
    out.append(repr(e))
print(out)
"""


def _probe(mode: str, cache: Path | None) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode], capture_output=True, text=True, env=_env(cache), check=True
    )
    return done.stdout


def test_a_dataclass_made_with_the_cache_is_the_dataclass_made_without(tmp_path: Path) -> None:
    plain = _probe("plain", None)
    assert "FrozenInstanceError" in plain and "C(n=3)" in plain
    assert _probe("install", tmp_path) == plain  # cold: compiled, then written at exit
    (entry,) = tmp_path.iterdir()
    codes = marshal.loads(entry.read_bytes())
    assert any("def __init__(self,x:_type_x,y:_type_y=_dflt_y" in text for text in codes)
    stamp = entry.stat().st_mtime_ns
    assert _probe("install", tmp_path) == plain  # warm: every method from the cache
    assert entry.stat().st_mtime_ns == stamp, "a warm run compiled nothing new, so wrote nothing"


def test_a_corrupt_dataclass_code_entry_is_ignored_and_rewritten(tmp_path: Path) -> None:
    plain = _probe("plain", None)
    _probe("install", tmp_path)
    (entry,) = tmp_path.iterdir()
    for bad in (b"\x00garbage", marshal.dumps({"def f(): pass": 42}), marshal.dumps([1, 2])):
        entry.write_bytes(bad)
        assert _probe("install", tmp_path) == plain
        assert isinstance(marshal.loads(entry.read_bytes()), dict) and len(marshal.loads(entry.read_bytes())) > 4


# -- the hex index (layout_cache.py) -----------------------------------------------------------


def _main_layout() -> HexLayout:
    module = load_module(MODULE)
    game = load_save(EXAMPLE / "turn3-faults.vsav")
    # the layout as the module gives it, not asking the cache (main_layout does)
    placed = MapPlacer(module, game)(next(iter(module.maps)))
    assert placed is not None
    return next(lay for lay in placed.hex_layouts() if lay.numbered)


def _index_seen(lay: HexLayout) -> tuple[object, ...]:
    """Everything of a layout's index a caller can see, dictionary order included."""
    i = lay._index
    return (i.hexes, list(i.by_label.items()), list(i.label.items()), list(i.colrow.items()), list(i.at_colrow.items()))


def test_a_cached_hex_index_is_the_index_worked_out(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path))
    fresh = _main_layout()
    cold = with_cached_index(fresh)
    assert cold == fresh and cold.index is not None  # a miss: worked out, and written
    (entry,) = tmp_path.glob("hex-index-*")
    assert with_cached_index(_main_layout()).index is cold.index  # held by the process (held.py)
    _new_run()
    warm = with_cached_index(_main_layout())
    assert warm.index is not None and warm.index is not cold.index and warm == fresh
    assert _index_seen(warm) == _index_seen(fresh)
    assert len(warm.hexes()) > 500 and warm.label_of(warm.hex_of("2615")) == "2615"  # type: ignore[arg-type]
    # the same answers hex by hex, off the map and quirks included
    for h in fresh.hexes()[:50]:
        assert warm.label_of(h) == fresh.label_of(h) and warm.colrow(h) == fresh.colrow(h)
    assert entry.exists()


def test_a_stale_or_corrupt_hex_index_entry_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path))
    fresh = _main_layout()
    with_cached_index(fresh)
    (entry,) = tmp_path.glob("hex-index-*")
    key, rows = marshal.loads(entry.read_bytes())
    wrong = tuple((i, j, c, r, "9999" if n else n) for i, j, c, r, n in rows)
    for bad in (
        marshal.dumps(("another grid\n" + key, wrong)),  # another key (code or grid changed): stale
        marshal.dumps((key, ((1, 2, 3),))),  # rows of the wrong shape
        b"not marshal at all",
    ):
        entry.write_bytes(bad)
        _new_run()
        again = with_cached_index(_main_layout())
        assert _index_seen(again) == _index_seen(fresh)
        assert marshal.loads(entry.read_bytes()) == (key, rows)  # rebuilt


def test_the_hex_index_key_changes_with_the_code(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path))
    code = tmp_path / "code"
    code.mkdir()
    (code / "a.py").write_text("x = 1\n", encoding="utf-8")
    before = user_cache.code_stamp((str(code),))
    (code / "a.py").write_text("x = 22\n", encoding="utf-8")
    assert user_cache.code_stamp((str(code),)) != before


# -- parsed TOML (pack_files.read_toml) ---------------------------------------------------------


def test_parsed_toml_is_kept_by_its_text(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path / "cache"))
    f = tmp_path / "pack.toml"
    f.write_text('[pack]\nid = "a"\nn = [1, 2.5]\n', encoding="utf-8")
    assert read_toml(f) == {"pack": {"id": "a", "n": [1, 2.5]}}
    (entry,) = (tmp_path / "cache").glob("toml-*")
    assert read_toml(f) == {"pack": {"id": "a", "n": [1, 2.5]}}  # warm
    # same size, same modification time, other text: the entry keeps the text, so it is a miss
    stat = f.stat()
    f.write_text('[pack]\nid = "b"\nn = [1, 2.5]\n', encoding="utf-8")
    os.utime(f, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert read_toml(f)["pack"]["id"] == "b"
    entry.write_bytes(b"\x01corrupt")
    assert read_toml(f)["pack"]["id"] == "b"
    # a value marshal cannot hold (a date) is read, not kept
    f.write_text("[pack]\nday = 1943-02-14\n", encoding="utf-8")
    assert str(read_toml(f)["pack"]["day"]) == "1943-02-14"
    assert read_toml(f)["pack"]["day"].year == 1943


# -- the parsed module (module_cache.py) --------------------------------------------------------


def test_a_cached_module_is_the_module_parsed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path / "cache"))
    vmod = tmp_path / "Game.vmod"
    vmod.write_bytes(Path(MODULE).read_bytes())
    monkeypatch.setenv(user_cache.ENV_NO_CACHE, "1")
    fresh = load_module(vmod)
    monkeypatch.delenv(user_cache.ENV_NO_CACHE)
    assert not (tmp_path / "cache").exists()
    _new_run()
    cold = load_module(vmod)
    (entry,) = (tmp_path / "cache").glob("module-*")
    assert load_module(vmod) is cold  # held by the process (held.py)
    _new_run()
    warm = load_module(vmod)
    assert warm is not cold and warm == fresh == cold and repr(warm) == repr(fresh)
    assert warm.maps.keys() == fresh.maps.keys() and warm.maps["Main Map"].boards == fresh.maps["Main Map"].boards


def _stored_zip(path: Path, entries: dict[str, bytes]) -> None:
    """A zip with no compression and fixed dates: the same entry lengths give the same file size."""
    import zipfile

    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in entries.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), data)


def test_a_changed_module_file_is_read_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import zipfile

    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path / "cache"))
    with zipfile.ZipFile(MODULE) as z:
        entries = {i.filename: z.read(i) for i in z.infolist()}
    vmod = tmp_path / "Game.vmod"
    _stored_zip(vmod, entries)
    first = load_module(vmod)
    # a buildFile that names the module otherwise: same size, same modification time, other content
    old, new = f'name="{first.name}"'.encode(), f'name="{first.name.upper()}"'.encode()
    entries["buildFile.xml"] = entries["buildFile.xml"].replace(old, new, 1)
    stat = vmod.stat()
    _stored_zip(vmod, entries)
    os.utime(vmod, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert vmod.stat().st_size == stat.st_size
    assert load_module(vmod).name == first.name.upper()
    (entry,) = (tmp_path / "cache").glob("module-*")
    entry.write_bytes(b"\x80\x04corrupt")
    _new_run()
    assert load_module(vmod).name == first.name.upper()  # a corrupt entry: read again, and kept anew
    assert load_module(vmod).name == first.name.upper()


def test_a_save_given_as_a_module_is_refused_with_the_cache_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from vassal_adj.errors import UsageError

    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path / "cache"))
    for _ in range(2):
        with pytest.raises(UsageError, match="not a module"):
            load_module(EXAMPLE / "turn3-faults.vsav")
    assert not list((tmp_path / "cache").glob("module-*"))


# -- a pack's terrain map on a board (pack_files.LoadedPack.terrain) ----------------------------


def _terrain_seen(tmap: object) -> tuple[object, ...]:
    """What a caller sees of a terrain map, the order of its dictionaries and sets of hexes included."""
    t: Any = tmap
    return (
        list(t.hex_terrain.items()),
        list(t.side_features.items()),
        t.named_places,
        list(t.off_map),
        list(t.board),
        t.vocabulary,
    )


def test_a_cached_terrain_map_is_the_map_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import shutil

    from vassal_adj.packs import load_pack

    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path / "cache"))
    pack_dir = tmp_path / "kasserine"
    shutil.copytree(REPO / "modules" / "kasserine", pack_dir, ignore=shutil.ignore_patterns("example"))
    lp, lay = load_pack(pack_dir), _main_layout()
    monkeypatch.setenv(user_cache.ENV_NO_CACHE, "1")
    fresh = lp.terrain(lay)
    monkeypatch.delenv(user_cache.ENV_NO_CACHE)
    _new_run()
    cold = lp.terrain(lay)
    assert lp.terrain(lay) is cold  # held by the process (held.py)
    _new_run()
    warm = lp.terrain(lay)
    (entry,) = (tmp_path / "cache").glob("terrain-*")
    assert warm is not cold and _terrain_seen(warm) == _terrain_seen(fresh) == _terrain_seen(cold)
    assert len(fresh.hex_terrain) > 10 and fresh.board
    # another text: read again (the first rough hexes made clear)
    assert lp.terrain_path is not None
    text = lp.terrain_path.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("hex,") and ln.endswith(",rough"))
    lp.terrain_path.write_text(text.replace(line, line.removesuffix("rough") + "clear"), encoding="utf-8")

    def rough(tmap: object) -> int:
        return sum("rough" in ts for ts in tmap.hex_terrain.values())  # type: ignore[attr-defined]

    assert rough(lp.terrain(lay)) < rough(fresh)
    entry.write_bytes(b"junk")
    _new_run()
    assert rough(lp.terrain(lay)) < rough(fresh)


def test_a_set_whose_order_a_cache_cannot_give_again_is_not_kept(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import random

    from vassal_adj.pickle_cache import cached_object

    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path))
    # Numbers hash alike in every run, so a set of them walks in one order every run; one built
    # with removals walks in an order that the same items, added again in that order, do not give.
    rng = random.Random(1)
    s: set[int] = set()
    for _ in range(8):
        for _ in range(rng.randint(5, 40)):
            if s and rng.random() < 0.3:
                s.discard(rng.choice(sorted(s)))
            else:
                s.add(rng.randint(0, 200) * 8)
        if list(set(list(s))) != list(s):
            break
    odd = frozenset(s)
    assert list(frozenset(list(odd))) != list(odd), "no such set found: the test would check nothing"
    assert cached_object("probe", "odd", "k", lambda: odd, frozenset) is odd
    assert not list(tmp_path.iterdir())  # not kept: a warm run would walk it in another order
    plain = frozenset(range(0, 40, 8))
    assert cached_object("probe", "plain", "k", lambda: plain, frozenset) == plain
    (entry,) = tmp_path.iterdir()
    _new_run()
    again = cached_object("probe", "plain", "k", lambda: frozenset(), frozenset)
    assert again == plain and list(again) == list(plain)  # from the cache, in its order


def test_hexes_and_hexsides_are_kept_as_their_fields(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # pickle_cache writes them as (q, r) and (a, b): read back, the same values, hashes and order
    from vassal_adj.model.geometry.hexes import Hex, HexSide, hexside
    from vassal_adj.pickle_cache import cached_object

    monkeypatch.setenv(user_cache.ENV_CACHE, str(tmp_path))
    value = (Hex(3, -1), hexside(Hex(0, 0), Hex(1, 0)), {Hex(0, 2): frozenset({hexside(Hex(2, 2), Hex(2, 1))})})
    cached_object("hexes", "h", "k", lambda: value, tuple)
    _new_run()
    kept = cached_object("hexes", "h", "k", lambda: pytest.fail("not read from the cache"), tuple)
    assert kept == value and kept is not value
    assert type(kept[0]) is Hex and type(kept[1]) is HexSide and kept[1].a < kept[1].b
    assert hash(kept[1]) == hash(value[1]) and list(kept[2]) == list(value[2])
