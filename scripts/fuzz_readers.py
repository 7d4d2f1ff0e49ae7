"""The readers fuzzed (issue 17), each with its seeds (real files), its mutation and its run.

A reader's `run(value)` reads a value as the tool does and goes as deep as the format allows
(a save's pieces are built, a piece's prototypes expanded, a pack validated, a terrain file
placed on its board); only `VassalAdjError` may escape it. Values are bytes or text, so that
a failure is saved as the input itself (`to_bytes`). Seeds come from the shipped examples
(modules/*/example) and the corpus (../shared/corpus); `small=True` keeps the files that read
in a few milliseconds, for the test suite.
"""

from __future__ import annotations

import functools
import io
import os
import random
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fuzz_mutate import ESC, NUMBERS, mutate_bytes, mutate_commands, mutate_text, mutate_xml, mutate_zip

from vassal_adj.codec.archive import Archive, archive_from_bytes
from vassal_adj.codec.obfuscation import VCSK, VOBS, Codec, decode_saved_game, encode_saved_game
from vassal_adj.codec.sniff import Kind, build_file_entry, sniff
from vassal_adj.errors import VassalAdjError
from vassal_adj.parse.images import image_size_from_bytes

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
PACKS = ("kasserine", "tunisia-1943", "kesselrings-war")
SMALL = 400_000  # bytes: files the suite mutates


@dataclass(frozen=True)
class Reader:
    name: str
    seeds: Callable[[bool], list[tuple[str, object]]]
    mutate: Callable[[random.Random, object], object]
    run: Callable[[str, object], None]  # (seed's name, value)


def to_bytes(value: object) -> bytes:
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value  # type: ignore[return-value]


def _files(small: bool, *suffixes: str) -> list[Path]:
    found = sorted(p for pack in PACKS for p in (REPO / "modules" / pack / "example").glob("*") if p.suffix in suffixes)
    if CORPUS.is_dir():
        found += sorted(p for p in CORPUS.rglob("*") if p.suffix in suffixes)
    return [p for p in found if not small or p.stat().st_size <= SMALL]


def _name(p: Path) -> str:
    """The corpus game's folder and the file, or the pack and the file of a shipped example."""
    pack = p.parent.parent.name if p.parent.name == "example" else ""
    return f"{pack or p.parent.name}/{p.name}"


# -- archives and saves ------------------------------------------------------------------------
def _module_of(archive: Archive):  # noqa: ANN202 - Module, imported lazily with lxml
    from vassal_adj.load import module_from_archive

    return module_from_archive(archive)


def _pieces(text_or_game: object, module: object = None) -> None:
    """What the commands read from a save: every command decoded, the pieces built (with the
    module: prototypes expanded, positions labelled), the dice rolled, boards chosen, the
    secrets found (for redaction), the module's properties and tracker."""
    from vassal_adj.parse.builder import game_pieces
    from vassal_adj.parse.commands import iter_nodes, log_steps, parse_stream
    from vassal_adj.parse.dice import dice_rolls
    from vassal_adj.parse.global_props import global_values
    from vassal_adj.parse.places import board_selections
    from vassal_adj.parse.secrets import all_secrets

    root = parse_stream(text_or_game) if isinstance(text_or_game, str) else text_or_game
    for _, _, node in iter_nodes(root):
        node.command  # noqa: B018 - decoding every command is the point
    game_pieces(root, module)  # type: ignore[arg-type]
    dice_rolls(root)
    board_selections(root)
    all_secrets(root)
    log_steps(root)
    if module is not None:
        global_values(module, root)  # type: ignore[arg-type]


def run_archive(data: object) -> None:
    from vassal_adj.savedgame import saved_game_from_archive

    archive = archive_from_bytes(data, "fuzz")  # type: ignore[arg-type]
    if sniff(archive) is Kind.SAVE:
        _pieces(saved_game_from_archive(archive).root)
    else:
        _module_of(archive)


def _archive_seeds(small: bool) -> list[tuple[str, object]]:
    return [(_name(p), p.read_bytes()) for p in _files(small, ".vsav", ".vlog", ".vmod", ".vmdx")]


def _small(seeds: list[tuple[str, object]], small: bool) -> list[tuple[str, object]]:
    return [(n, v) for n, v in seeds if not small or len(v) <= SMALL // 2]  # type: ignore[arg-type]


def _mutate_archive(rng: random.Random, data: object) -> object:
    return mutate_zip(rng, data) if rng.random() < 0.7 else mutate_bytes(rng, data)  # type: ignore[arg-type]


def _payload(data: bytes) -> bytes | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return z.read("savedGame")
    except (zipfile.BadZipFile, KeyError):
        return None


def _payload_seeds(small: bool) -> list[tuple[str, object]]:
    found = ((_name(p), _payload(p.read_bytes())) for p in _files(small, ".vsav", ".vlog"))
    return _small([(n, b) for n, b in found if b is not None], small)


def _encode_any(rng: random.Random, text: str) -> bytes:
    form = rng.randrange(4)
    if form == 3:
        return text.encode("utf-8", "surrogatepass")
    key = rng.randrange(1, 256) if form == 2 else rng.randrange(256)
    return encode_saved_game(text, Codec(obfuscated=True, key=key, upper=form == 1, form=VOBS if form == 2 else VCSK))


def _mutate_payload(rng: random.Random, data: object) -> object:
    """Raw edits of the stored bytes, or edits of the commands re-obfuscated in any of the three
    forms (hex `!VCSK`, 3.8's binary `VOBS`, plain), so that they reach the parsers."""
    if rng.random() < 0.3:
        return mutate_bytes(rng, data)  # type: ignore[arg-type]
    try:
        text, _ = decode_saved_game(data)  # type: ignore[arg-type]
    except VassalAdjError:
        return mutate_bytes(rng, data)  # type: ignore[arg-type]
    return _encode_any(rng, mutate_commands(rng, text, ESC))


def run_payload(data: object) -> None:
    from vassal_adj.savedgame import saved_game_from_archive

    archive = Archive(path="fuzz.vsav", form="zip", entries={"savedGame": data})  # type: ignore[dict-item]
    _pieces(saved_game_from_archive(archive).root)


# -- the command stream, traits ----------------------------------------------------------------
@functools.lru_cache(maxsize=8)
def _example_module(pack: str) -> object:
    from vassal_adj.load import module_from_archive

    vmod = next(p for p in sorted((REPO / "modules" / pack / "example").glob("*.vmod")) if "terrain" not in p.name)
    return module_from_archive(archive_from_bytes(vmod.read_bytes(), str(vmod)))


def _texts(small: bool) -> list[tuple[str, str]]:
    out = []
    for name, payload in _payload_seeds(small):
        try:
            out.append((name, decode_saved_game(payload)[0]))  # type: ignore[arg-type]
        except VassalAdjError:
            continue  # a corpus file kept for being broken
    return out


def _command_seeds(small: bool) -> list[tuple[str, object]]:
    return _small(list(_texts(small)), small)


def _mutate_command_text(rng: random.Random, text: object) -> object:
    return mutate_commands(rng, text, ESC) if rng.random() < 0.6 else mutate_text(rng, text)  # type: ignore[arg-type]


def run_commands(seed: str, text: object) -> None:
    pack = seed.split("/")[0]
    _pieces(text, _example_module(pack) if pack in PACKS else None)


_ADD = re.compile(r"\+/[^/]*/([^\t]*)\t([^\x1b]*)")


def _trait_seeds(small: bool) -> list[tuple[str, object]]:
    out = []
    for name, text in _texts(True):
        pieces = [m for m in _ADD.finditer(text) if not m.group(1).startswith(("stack", "deck"))]
        out += [
            (f"{name}#{i}", f"{m.group(1)}\n{m.group(2)}") for i, m in enumerate(pieces[:: max(1, len(pieces) // 6)])
        ]
    return out if not small else out[:60]


def _mutate_trait(rng: random.Random, value: object) -> object:
    kind, _, state = value.partition("\n")  # type: ignore[union-attr]
    if rng.random() < 0.5:
        return f"{mutate_commands(rng, kind, chr(9))}\n{state}"
    return f"{kind}\n{mutate_commands(rng, state, chr(9))}"


def run_trait(value: object) -> None:
    from vassal_adj.parse.traits import encode_piece, expand_prototypes, parse_piece

    kind, _, state = value.partition("\n")  # type: ignore[union-attr]
    piece = parse_piece(kind, state)
    encode_piece(piece)
    prototypes = {name: p.text for pack in PACKS for name, p in _example_module(pack).prototypes.items()}  # type: ignore[attr-defined]
    expand_prototypes(piece, prototypes)
    piece.name  # noqa: B018 - reading the name parses the basic piece's fields


# -- buildFile XML -----------------------------------------------------------------------------
def _buildfile_seeds(small: bool) -> list[tuple[str, object]]:
    out = []
    for p in _files(False, ".vmod", ".vmdx"):
        archive = archive_from_bytes(p.read_bytes(), str(p))
        xml = archive.entries[build_file_entry(archive)]
        if not small or len(xml) <= SMALL // 2:
            out.append((_name(p), xml))
    return out


def run_buildfile(xml: object) -> None:
    from vassal_adj.parse.buildfile import parse_buildfile

    parse_buildfile(xml, path="fuzz", image_size=lambda name: image_size_from_bytes(b""))  # type: ignore[arg-type]


# -- pack TOML and terrain files ---------------------------------------------------------------
_RHS = re.compile(r"(?m)^(\s*[\w.\"-]+\s*=\s*)(.*)$")
_TOML_VALUES = ('""', '"x"', "[]", '[1, "a"]', "{}", "true", "nan", "inf", "1e400", *NUMBERS[:9])


def _pack_file_seeds(small: bool) -> list[tuple[str, object]]:
    return [
        (f"{pack}/{f}", (REPO / "modules" / pack / f).read_text(encoding="utf-8"))
        for pack in PACKS
        for f in ("pack.toml", "units.toml", "palette.toml")
        if (REPO / "modules" / pack / f).is_file()
    ]


def _mutate_toml(rng: random.Random, text: object) -> object:
    op = rng.randrange(3)
    values = list(_RHS.finditer(text))  # type: ignore[arg-type]
    if op == 0 and values:
        m = rng.choice(values)
        return text[: m.start(2)] + rng.choice(_TOML_VALUES) + text[m.end(2) :]  # type: ignore[index]
    if op == 1:
        return mutate_commands(rng, text, "\n")  # type: ignore[arg-type]
    return mutate_text(rng, text)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=8)
def _pack(pack: str):  # noqa: ANN202 - LoadedPack, imported lazily
    from vassal_adj.pack_files import load_pack

    return load_pack(REPO / "modules" / pack)  # registers the pack's hooks, which its rules name


def _scratch(name: str, text: str) -> Path:
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"vassal-adj-fuzz-{os.getpid()}"  # campaigns run side by side
    folder.mkdir(exist_ok=True)
    file = folder / name
    file.write_bytes(text.encode("utf-8", "surrogatepass"))
    return file


def run_pack_file(seed: str, text: object) -> None:
    from vassal_adj.pack_files import read_toml
    from vassal_adj.rules.packs.pack import RulePack
    from vassal_adj.rules.packs.unitmap import UnitMap
    from vassal_adj.terrain_sample import read_palette

    pack, file = seed.split("/")
    path = _scratch(file, text)  # type: ignore[arg-type]
    if file == "palette.toml":
        read_palette(path)
        return
    data = read_toml(path)
    lp = _pack(pack)
    if file == "pack.toml":
        RulePack.from_mapping(data, source=file)
    else:
        UnitMap.from_mapping(data, source=file, classes=lp.pack.unit_classes, sides=lp.pack.sides)


def _terrain_seeds(small: bool) -> list[tuple[str, object]]:
    return [(pack, (REPO / "modules" / pack / "terrain.csv").read_text(encoding="utf-8")) for pack in PACKS]


def _mutate_terrain(rng: random.Random, text: object) -> object:
    lines = text.split("\n")  # type: ignore[union-attr]
    if rng.random() < 0.5 and lines:
        k = rng.randrange(len(lines))
        fields = lines[k].split(",")
        other = rng.choice(lines).split(",")
        fields[rng.randrange(len(fields))] = rng.choice(other) if rng.random() < 0.5 else rng.choice(NUMBERS)
        lines[k] = ",".join(fields)
        return "\n".join(lines)
    return mutate_commands(rng, text, "\n") if rng.random() < 0.5 else mutate_text(rng, text)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=8)
def _layout(pack: str):  # noqa: ANN202 - HexLayout
    from vassal_adj.codec.obfuscation import PLAIN
    from vassal_adj.position import main_layout
    from vassal_adj.savedgame import SavedGame

    blank = SavedGame.new("begin_save\x1bend_save", codec=PLAIN)
    main = main_layout(_example_module(pack), blank, _pack(pack).pack.extras)  # type: ignore[arg-type]
    assert main is not None
    return main[1]


def run_terrain(seed: str, text: object) -> None:
    from vassal_adj.parse.terrain_file import read_terrain_on

    read_terrain_on(_layout(seed), text, path="terrain.csv", vocabulary=_pack(seed).pack.vocabulary)  # type: ignore[arg-type]


# -- a whole command over a save: state, rules, report ---------------------------------------------
class InternalError(Exception):
    """The command line's exit 3 (an internal error), with the place its traceback ends at."""


def _example_saves(small: bool) -> list[tuple[str, object]]:
    return [(_name(p), p.read_bytes()) for p in _files(True, ".vsav", ".vlog") if p.parent.name == "example"]


def _mutate_save(rng: random.Random, data: object) -> object:
    """The save with its savedGame entry mutated as the `savedgame` reader mutates it."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:  # type: ignore[arg-type]
        entries = {i.filename: z.read(i) for i in z.infolist()}
    entries["savedGame"] = _mutate_payload(rng, entries["savedGame"])  # type: ignore[assignment]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, body in entries.items():
            z.writestr(name, body)
    return buf.getvalue()


def run_command(seed: str, data: object) -> None:
    """`check` (a save) or `verify` (a log) with the example's module and pack, as a user runs it."""
    from click.testing import CliRunner

    from vassal_adj import cli

    pack, file = seed.split("/")
    vmod = next(p for p in sorted((REPO / "modules" / pack / "example").glob("*.vmod")) if "terrain" not in p.name)
    save = _scratch("fuzz" + Path(file).suffix, "")
    save.write_bytes(data)  # type: ignore[arg-type]
    command = "verify" if file.endswith(".vlog") else "check"
    result = CliRunner().invoke(cli.main, ["--debug", command, str(save), "--module", str(vmod)])
    if result.exit_code == 3:
        frames = re.findall(r'File "([^"]+)", line (\d+)', result.stderr)
        at = f"{Path(frames[-1][0]).name}:{frames[-1][1]}" if frames else "?"
        last = result.stderr.strip().splitlines()[-1:] or ["?"]
        raise InternalError(f"{command} exit 3 at {at}: {last[0]}")
    if result.exit_code not in (0, 1, 2):
        raise InternalError(f"{command} exit {result.exit_code}: {result.exception!r}")


READERS = {
    r.name: r
    for r in (
        Reader("archive", _archive_seeds, _mutate_archive, lambda s, v: run_archive(v)),
        Reader("savedgame", _payload_seeds, _mutate_payload, lambda s, v: run_payload(v)),
        Reader("commands", _command_seeds, _mutate_command_text, run_commands),
        Reader("traits", _trait_seeds, _mutate_trait, lambda s, v: run_trait(v)),
        Reader("buildfile", _buildfile_seeds, lambda rng, v: mutate_xml(rng, v), lambda s, v: run_buildfile(v)),
        Reader("pack", _pack_file_seeds, _mutate_toml, run_pack_file),
        Reader("terrain", _terrain_seeds, _mutate_terrain, run_terrain),
        Reader("command", _example_saves, _mutate_save, run_command),
    )
}
