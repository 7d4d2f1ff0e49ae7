"""Unit attributes and group fields from units.toml (rules/packs/unitmap.py, RULES-MAP N4).

The piece names are made up in the shape of the games' counters (no module of these games is in the
corpus): Kesselring's War prints a unit's size and arrival Game-Turn on the counter (3.3, 7.1).
"""

from __future__ import annotations

import tomllib

import pytest

from vassal_adj.errors import PackError
from vassal_adj.model.pieces import Piece
from vassal_adj.rules.packs.unitmap import UnitMap

UNITS = r"""
[[pattern]]
name = "ground"
regex = '(?P<size>X+|III) (?P<designation>\S+) (?P<attack>\d+)-(?P<movement>\d+) GT(?P<arrival>\d+)'
kind = "mobile"

[properties]
side = "Side"

[[group]]
match = { Side = "Allied" }
groups = { contingent = "Commonwealth" }
attrs = { supply = "normal" }

[[unit]]
designation = "2NZ"
groups = { division = "2 NZ", army = "VIII Army" }

[[unit]]
designation = "36US"
groups = { contingent = "US" }
attrs = { supply = "amphibious", arrival = 9 }
"""


def mapped(name: str, side: str = "Allied", text: str = UNITS, **props: str):
    um = UnitMap.from_mapping(tomllib.loads(text))
    return um.map_piece(Piece(id=name, name=name, map="Main Map", x=0, y=0, properties={"Side": side, **props}))


def test_7_1_arrival_turn_and_size_from_the_counter() -> None:
    """Kesselring's War 7.1: 'Reinforcement arrives on the GT printed on the counter'; 3.3 unit size.
    Any named group of the pattern that is not a printed strength is an attribute, an int when all digits."""
    u = mapped("XX 2NZ 6-5 GT3")
    assert u.attrs == {"size": "XX", "arrival": 3, "supply": "normal"}
    assert u.attack == 6 and u.designation == "2NZ"


def test_2_5_contingent_and_9_1b_army_groups_merge_by_layer() -> None:
    """Kesselring's War 2.5: contingents ('US incl. French; Commonwealth'); Tunisia 1943 9.1b 'of its army'.
    A [[group]] gives every Allied unit the Commonwealth contingent; a [[unit]] adds its division and army,
    or overrides the contingent and an attribute, key by key."""
    nz = mapped("XX 2NZ 6-5 GT3")
    assert nz.groups == {"contingent": "Commonwealth", "division": "2 NZ", "army": "VIII Army"}
    us = mapped("XX 36US 5-4 GT7")
    assert us.groups == {"contingent": "US"}
    assert us.attrs == {"size": "XX", "arrival": 9, "supply": "amphibious"}


def test_a_unit_without_group_fields_has_none() -> None:
    u = mapped("III 15Pz 4-6 GT1", side="Axis")
    assert u.groups == {} and u.attrs == {"size": "III", "arrival": 1}


READ = UNITS.replace(
    '[properties]\nside = "Side"\n',
    """[properties]
side = "Side"
attrs = { strength = "Step_Level" }
groups = { army = "Army" }
""",
)


def test_20_2_2_reduced_garrison_and_9_1b_army_read_from_piece_properties() -> None:
    """Kesselring's War 20.2.2 ('Airfield with a reduced garrison unit: one air unit'): a flipped counter is a
    layer whose level VASSAL keeps as a piece property; Tunisia 1943 9.1b's army may be a prototype property.
    [properties] attrs and groups read them, after the pattern and before [[group]] and [[unit]]."""
    gar = mapped("III Foggia 1-0 GT1", text=READ, Step_Level="2", Army="VIII Army")
    assert gar.attrs["strength"] == 2
    assert gar.groups == {"contingent": "Commonwealth", "army": "VIII Army"}
    nz = mapped("XX 2NZ 6-5 GT3", text=READ, Army="Eighth")
    assert nz.groups["army"] == "VIII Army"  # the [[unit]] entry overrides the property
    assert "strength" not in mapped("XX 2NZ 6-5 GT3", text=READ, Step_Level="").attrs


def test_bad_property_reads_name_the_key_path() -> None:
    bad = UNITS.replace('side = "Side"\n', 'side = "Side"\ngroups = { corps = "Corps" }\n', 1)
    with pytest.raises(PackError, match=r"properties\.groups\.corps: unknown group field"):
        UnitMap.from_mapping(tomllib.loads(bad))
    bad = UNITS.replace('side = "Side"\n', 'side = "Side"\nattrs = { size = 3 }\n', 1)
    with pytest.raises(PackError, match=r"properties\.attrs\.size: expected str"):
        UnitMap.from_mapping(tomllib.loads(bad))


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ('[[unit]]\ndesignation = "x"\ngroups = { corps = "XXX" }\n', "unit[2].groups.corps"),
        ('[[unit]]\ndesignation = "x"\nattrs = { size = true }\n', "unit[2].attrs.size"),
        ('[[group]]\nmatch = { Side = "Axis" }\ngroups = "Afrika Korps"\n', "group[1].groups"),
    ],
)
def test_bad_attrs_or_groups_name_the_key_path(extra: str, where: str) -> None:
    with pytest.raises(PackError) as e:
        UnitMap.from_mapping(tomllib.loads(UNITS + extra))
    assert where in str(e.value)
