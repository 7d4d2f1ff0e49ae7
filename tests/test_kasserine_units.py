"""modules/kasserine/units.toml against the order of battle of pack.toml (Kasserine 23).

Every counter of the set-up and reinforcement lists is a unit of the right side with a class
of the pack; classes follow the designations' historical identity (pack.toml
[assumptions.unit_classes]); 16.11 asks which of them are mechanized.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from vassal_adj.model.pieces import Piece
from vassal_adj.model.units import Unit
from vassal_adj.rules.packs.pack import UnitClass
from vassal_adj.rules.packs.unitmap import UnitMap, map_units

PACK_DIR = Path(__file__).resolve().parents[1] / "modules" / "kasserine"
PACK = tomllib.loads((PACK_DIR / "pack.toml").read_text(encoding="utf-8"))


def order_of_battle() -> list[tuple[str, str]]:
    """(side, printed name) of every counter the pack's set-up and reinforcement lists name."""
    rules = PACK["rules"]
    out = [(rules["allied_setup"]["side"], u) for g in rules["allied_setup"]["groups"] for u in g["units"]]
    for name in ("axis_reinforcements", "allied_reinforcements"):
        out += [(rules[name]["side"], u) for e in rules[name]["entries"] for u in e["units"]]
    return out


@cache
def unitmap() -> UnitMap:
    classes = {
        k: UnitClass(k, mechanized=v.get("mechanized", False), flags=frozenset(v.get("flags", ())))
        for k, v in PACK["units"]["classes"].items()
    }
    data = tomllib.loads((PACK_DIR / "units.toml").read_text(encoding="utf-8"))
    return UnitMap.from_mapping(data, classes=classes, sides=PACK["units"]["sides"])


def unit(name: str, side: str | None = None) -> Unit:
    props = {"Side": side} if side else {}
    got = unitmap().map_piece(Piece(id=name, name=name, map="Main Map", x=0, y=0, properties=props))
    assert isinstance(got, Unit), got
    return got


def test_the_order_of_battle_has_96_counters() -> None:
    oob = order_of_battle()
    assert len(oob) == 96 and len(set(oob)) == 96
    assert Counter(side for side, _ in oob) == {"Allied": 59, "Axis": 37}


@pytest.mark.parametrize(("side", "name"), order_of_battle(), ids=lambda x: x)
def test_every_counter_maps_to_one_unit_with_a_class(side: str, name: str) -> None:
    # With the prototype's Side property and without it: the entry alone gives side and class.
    for props_side in (side, None):
        u = unit(name, props_side)
        assert u.side == side and u.kind in PACK["units"]["classes"]
        assert u.formation and u.nationality


def test_every_unit_entry_is_used_by_exactly_one_counter() -> None:
    pieces = [
        Piece(id=f"p{i}", name=n, map="Main Map", x=0, y=0, properties={"Side": s})
        for i, (s, n) in enumerate(order_of_battle())
    ]
    units, unmapped = map_units(pieces, unitmap())
    assert unmapped == [] and len(units) == 96
    used = Counter((u.designation, u.side, u.movement, u.range) for u in units)
    assert len(unitmap().units) == 96 and max(used.values()) == 1


def test_5_3_12_2_7_is_armor_and_mechanized_16_11() -> None:
    u = unit("5-3-12 (2/7)")
    assert (u.side, u.kind, u.mechanized, u.formation) == ("Axis", "armor", True, "10. Panzer-Division")
    assert (u.attack, u.defense, u.movement) == (5, 3, 12)


@pytest.mark.parametrize(
    ("name", "kind", "mechanized"),
    [
        ("6-5-10 (501)", "armor", True),  # schwere Panzer-Abteilung 501 (Tigers)
        ("3-2-16 (580)", "reconnaissance", True),  # Aufklärungs-Abteilung 580
        ("2-3-11 (1/6)", "mechanized-infantry", True),  # 16.11: may enter rough terrain all the same
        ("3-4-11 (2/69)", "mechanized-infantry", True),
        ("2-1-11 (701)", "anti-tank", True),  # US 701st Tank Destroyer Bn
        ("1-2-7 (3/168)", "infantry", False),  # 3rd Bn, US 168th Infantry
        ("1-3-7 (19)", "engineer", False),
        ("2-2-4/1-7 (185)", "artillery", False),  # towed 155 mm
        ("1-2-3/2-10 (68)", "artillery", True),  # armored field artillery (M7)
        ("1-1-7 (72)", "anti-tank", False),  # towed guns, movement 7
    ],
)
def test_classes_and_16_11_mechanized(name: str, kind: str, mechanized: bool) -> None:
    u = unit(name)
    assert (u.kind, u.mechanized) == (kind, mechanized)


def test_artillery_is_flagged_for_22_11() -> None:
    u = unit("1-2-3/2-10 (91)")
    assert u.has("artillery") and u.attack is None and u.barrage + u.fpf + u.defense == 5


@pytest.mark.parametrize(
    ("name", "side", "kind"),
    [
        # designations printed twice: each counter still maps to its own entry
        ("2-1-14(1/1)", "Allied", "armor"),
        ("2-1-7 (1/1)", "Axis", "infantry"),
        ("3-3-12(2/1)", "Allied", "armor"),
        ("2-1-7 (2/1)", "Axis", "infantry"),
        ("2-2-4/1-7 (33)", "Allied", "artillery"),
        ("3-2-16 (33)", "Axis", "reconnaissance"),
        ("2-2-9(1/90)", "Axis", "anti-tank"),
        ("2-1-3/2-11 (1/90)", "Axis", "artillery"),
        ("1-1-2/1-7 (60)", "Allied", "artillery"),
        ("1-2-3/1-7 (60)", "Allied", "artillery"),
    ],
)
def test_shared_designations_are_told_apart(name: str, side: str, kind: str) -> None:
    u = unit(name)
    assert (u.side, u.kind) == (side, kind)


def test_formations_19_31_us_1st_armored_division() -> None:
    # 19.31 names "All units of the U.S. 1st Armored Division"; attached units keep their own division.
    first_ad = {n for s, n in order_of_battle() if unit(n, s).formation == "US 1st Armored Division"}
    assert {"3-2-12 (3/1)", "2-3-11 (2/6)", "1-2-3/2-10 (27)", "3-3-12 (2/1)", "2-1-14 (1/1)"} <= first_ad
    assert "1-3-7 (2/168)" not in first_ad and "2-1-11 (701)" not in first_ad


def test_markers_are_ignored_not_unmapped() -> None:
    pieces = [
        Piece(id=n, name=n, map="Main Map", x=0, y=0, properties={})
        for n in ("Axis Withdrawal", "Allied Withdrawal", "Game Turn")
    ]
    assert map_units(pieces, unitmap()) == ([], [])
    units, unmapped = map_units(
        [Piece(id="x", name="9-9-9 (nobody)", map="Main Map", x=0, y=0, properties={})], unitmap()
    )
    assert units == [] and "no side" in unmapped[0].reason
