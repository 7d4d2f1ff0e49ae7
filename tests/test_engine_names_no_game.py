"""The engine knows no game (issue 12): no file under vassal_adj/ names one.

A game's names, numbers and examples live in its pack (modules/<game>/); the engine cites a
mechanism's source by RULES-MAP id or seed number ("RULES-MAP E4, seed 000's 17.15"), and its
help and docstrings use generic files (`vassal-adj check turn3.vsav --module game.vmod`).
The games are those of the seeds and the corpus, and every pack's id, title and aliases.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "vassal_adj"

# Titles, matched however written: any case, with or without spaces, CamelCase, '&' or 'and'.
# "Fields of Fire" (corpus) is left out: as words it is a plain phrase of line-of-sight rules.
TITLES = (
    "Kasserine", "Baptism of Fire", "Tunisia", "Kesselring", "No Question of Surrender", "Bir Hacheim",
    "Commands & Colors", "Commands and Colors", "Napoleonics", "Squad Leader", "Capture of the Territory",
    "Dreadball", "South China Sea", "Kassala", "Nevsky", "Paths of Glory", "Ragnarok", "Vive l'Empereur",
    "Warhammer", "Underworlds",
)  # fmt: skip
# Short names, matched as whole words only (as substrings they are parts of ordinary words).
ABBREVIATIONS = ("VASL", "ASL", "CCN", "NQoS")


def _squeezed(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _pack_titles() -> set[str]:
    """Each pack's id, title (before its edition in brackets) and aliases."""
    names = set()
    for path in (REPO / "modules").glob("*/pack.toml"):
        if path.parent.name.startswith("_"):  # the template names no game
            continue
        pack = tomllib.loads(path.read_text(encoding="utf-8"))["pack"]
        names |= {pack["id"], pack["name"].split(" (")[0], *pack.get("aliases", [])}
    return names


def game_names_in(text: str, titles: set[str]) -> list[str]:
    """The games `text` names, each once, sorted."""
    squeezed = _squeezed(text)
    found = {t for t in titles if _squeezed(t) in squeezed}
    return sorted(found | {a for a in ABBREVIATIONS if re.search(rf"\b{a}\b", text, re.IGNORECASE)})


def _files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def test_the_check_reads_the_package_and_every_pack() -> None:
    assert len(_files()) > 100 and PACKAGE / "cli" / "__init__.py" in _files()
    assert {"kasserine", "Kasserine", "Baptism of Fire"} <= _pack_titles()


@pytest.mark.parametrize(
    "text, names",
    [
        ("supply sources (Kasserine 17.15: east of that hex)", ["Kasserine"]),
        ("vassal-adj inspect modules/kasserine/example/Kasserine.vmod", ["Kasserine"]),
        ("a log of 'Commands & Colors: Napoleonics' 4.1.2", ["Commands & Colors", "Napoleonics"]),
        ("CommandsAndColorsNapoleonics/tutorial.vsav", ["Commands and Colors", "Napoleonics"]),
        ("NO QUESTION OF SURRENDER S5.1", ["No Question of Surrender"]),
        ("read from a VASL-style chat line", ["VASL"]),
        ("the PathsOfGlory save's savedGame", ["Paths of Glory"]),
        ("a classless, unbasic rule: supply paths and fields of fire", []),
    ],
)
def test_the_check_finds_a_game_however_written(text: str, names: list[str]) -> None:
    assert game_names_in(text, set(TITLES)) == sorted(names)


def test_no_file_under_vassal_adj_names_a_game() -> None:
    titles = set(TITLES) | _pack_titles()
    named = {}
    for path in _files():
        where = str(path.relative_to(REPO))
        hits = game_names_in(where + "\n" + path.read_text(encoding="utf-8", errors="replace"), titles)
        if hits:
            named[where] = hits
    assert not named, f"the engine names games (move them to the pack, or cite RULES-MAP / seed numbers): {named}"


# The example module's off-map boxes and markers (modules/kasserine/example): a pack names them
# ([boxes], a rule's box parameters), never an engine default.
MODULE_BOX_NAMES = ("Eliminated", "Exited")


def module_box_names_in(source: str) -> list[str]:
    """The string literals of `source` (not docstrings; f-string parts too) that are a module's
    box name or a '<side> Withdrawal' marker name."""
    tree = ast.parse(source)
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            text = n.value.strip()
            if text in MODULE_BOX_NAMES or re.fullmatch(r"(\w+ )?Withdrawal", text):
                found.append(text)
    return found


@pytest.mark.parametrize(
    "source, names",
    [
        ('BOX = "Eliminated"', ["Eliminated"]),
        ('markers = {s: f"{s} Withdrawal" for s in sides}', ["Withdrawal"]),
        ('p = {"Axis": "Axis Withdrawal"}', ["Axis Withdrawal"]),
        ('msg = f"the {side} withdrawal is declared twice"', []),
        ('def f():\n    """Units in the Eliminated box."""', []),
    ],
)
def test_the_box_check_finds_a_module_box_name(source: str, names: list[str]) -> None:
    assert module_box_names_in(source) == names


def test_no_engine_default_names_a_module_box() -> None:
    named = {}
    for path in _files():
        if path.suffix == ".py" and (hits := module_box_names_in(path.read_text(encoding="utf-8"))):
            named[str(path.relative_to(REPO))] = hits
    assert not named, f"the engine names a module's boxes (the pack names them: [boxes] or a box parameter): {named}"
