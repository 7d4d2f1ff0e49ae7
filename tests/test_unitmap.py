"""units.toml (rules/packs/unitmap.py): pieces become units, on the Kasserine set-up designations."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from vassal_adj.errors import PackError
from vassal_adj.model.pieces import Piece
from vassal_adj.rules.packs.pack import UnitClass
from vassal_adj.rules.packs.unitmap import UnitMap, Unmapped, map_units, printed_units

CLASSES = {
    "armor": UnitClass("armor", mechanized=True),
    "infantry": UnitClass("infantry"),
    "recon": UnitClass("recon", mechanized=True),
    "artillery": UnitClass("artillery", flags=frozenset({"artillery"})),
}
SIDES = ("Axis", "Allied")

UNITS = r"""
ignore = ['Turn', 'Withdrawal( Marker)?']

[[pattern]]
name = "artillery"
regex = '(?P<barrage>\d+)-(?P<fpf>\d+)-(?P<range>\d+)/(?P<defense>\d+)-(?P<movement>\d+)\s*\((?P<designation>[^)]*)\)'
kind = "artillery"

[[pattern]]
name = "combat"
regex = '(?P<attack>\d+)-(?P<defense>\d+)-(?P<movement>\d+)\s*\((?P<designation>[^)]*)\)'

[properties]
side = "Side"

[[group]]
match = { Side = "Axis" }
nationality = "German"

[[group]]
match = { pattern = "artillery", Side = "Allied" }
nationality = "US"
flags = ["us-artillery"]

[[unit]]
designation = "2/7"
kind = "armor"
formation = "10th Panzer Division"
flags = ["panzer"]

[[unit]]
designation = "1/1"
match = { movement = 14 }     # the Allied 2-1-14(1/1): the Axis 2-1-7 (1/1) shares the designation
side = "Allied"
kind = "recon"
formation = "US 1st Armored Division"

[[unit]]
designation = "1/1"
match = { movement = 7 }
side = "Axis"
kind = "infantry"

[[unit]]
designation = "580"
side = "Axis"
kind = "recon"

[[unit]]
designation = "31"
side = "Axis"
kind = "infantry"
mechanized = true
"""


def unitmap(text: str = UNITS, **kw: Any) -> UnitMap:
    return UnitMap.from_mapping(tomllib.loads(text), classes=kw.get("classes", CLASSES), sides=kw.get("sides", SIDES))


def piece(name: str, pid: str = "p1", **props: str) -> Piece:
    return Piece(id=pid, name=name, map="Main Map", x=0, y=0, properties=props)


def one(name: str, m: UnitMap | None = None, **props: str) -> Any:
    return (m or unitmap()).map_piece(piece(name, **props))


def test_5_3_12_attack_defense_movement_as_printed() -> None:
    u = one("5-3-12 (2/7)", Side="Axis")
    assert (u.attack, u.defense, u.movement, u.designation) == (5, 3, 12, "2/7")
    assert (u.barrage, u.fpf, u.range) == (None, None, None)
    assert (u.side, u.kind, u.nationality, u.formation) == ("Axis", "armor", "German", "10th Panzer Division")
    assert u.mechanized and u.has("panzer") and u.id == "p1" and u.name == "5-3-12 (2/7)"
    assert u.attack + u.defense == 8  # 22.11: "a 5-3-12 armored battalion is worth 8 Victory Points"


def test_no_space_before_the_designation_is_tolerated() -> None:
    u = one("2-1-14(1/1)")
    assert (u.attack, u.defense, u.movement, u.designation, u.side, u.kind) == (2, 1, 14, "1/1", "Allied", "recon")
    assert u.formation == "US 1st Armored Division"


def test_a_shared_designation_is_told_apart_by_match() -> None:
    axis = one("2-1-7 (1/1)")
    assert (axis.side, axis.kind, axis.movement) == ("Axis", "infantry", 7)


def test_3_2_16_580() -> None:
    u = one("3-2-16(580)")
    assert (u.attack, u.defense, u.movement, u.designation, u.kind, u.mechanized) == (3, 2, 16, "580", "recon", True)


def test_spaces_collapse_and_overrides_win_over_the_class() -> None:
    u = one("3-2-11    (31)")  # printed so in the Game-Turn Four list
    assert (u.attack, u.defense, u.movement, u.designation, u.mechanized) == (3, 2, 11, "31", True)


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        # barrage-FPF-range/defense-movement: 20.x "1-2-3/1-7 becomes 1-2-3/1-5" (movement is last)
        ("1-2-3/2-10 (91)", (1, 2, 3, 2, 10, "91")),
        ("2-2-4/1-7 (2/17)", (2, 2, 4, 1, 7, "2/17")),
        ("1-2-3/2-10 (68)", (1, 2, 3, 2, 10, "68")),
        ("2-1-2/1-9(lt/90)", (2, 1, 2, 1, 9, "lt/90")),
    ],
)
def test_artillery_fields(name: str, fields: tuple[object, ...]) -> None:
    u = one(name, Side="Allied")
    assert (u.barrage, u.fpf, u.range, u.defense, u.movement, u.designation) == fields
    assert u.attack is None and u.kind == "artillery" and u.has("artillery") and u.has("us-artillery")
    assert u.nationality == "US" and not u.mechanized


def test_artillery_point_value_22_11() -> None:
    u = one("1-2-3/2-10 (91)", Side="Allied")
    assert u.barrage + u.fpf + u.defense == 5  # 22.11: Barrage, FPF and Defense Strengths


def test_a_multi_unit_name_is_still_one_piece_one_unit() -> None:
    m = UnitMap.from_mapping(tomllib.loads(UNITS + '\n[defaults]\nkind = "infantry"\n'), classes=CLASSES, sides=SIDES)
    u = one("2-1-11 (894 and 805)", m, Side="Allied")
    assert u.designation == "894 and 805" and (u.attack, u.defense, u.movement) == (2, 1, 11)


def test_unmapped_pieces_are_reported_with_the_reason_never_guessed() -> None:
    pieces = [
        piece("5-3-12 (2/7)", "a", Side="Axis"),
        piece("Withdrawal Marker", "b"),
        piece("Sbeitla", "c"),
        piece("3-4-11 (2/69)", "d"),
        piece("3-4-11 (2/69)", "e", Side="Axis"),
        piece("Turn", "f"),
    ]
    units, unmapped = map_units(pieces, unitmap())
    assert [u.id for u in units] == ["a"]
    assert [(x.piece.id, x.reason) for x in unmapped] == [
        ("c", "name 'Sbeitla' matches no pattern of units.toml"),
        ("d", "no side for '3-4-11 (2/69)': neither its name, its properties nor an entry of units.toml gives one"),
        ("e", "no kind for '3-4-11 (2/69)': neither its name, its properties nor an entry of units.toml gives one"),
    ]


def test_two_unit_entries_for_one_piece_is_unmapped() -> None:
    text = UNITS + '\n[[unit]]\ndesignation = "2/7"\nkind = "infantry"\n'
    got = one("5-3-12 (2/7)", unitmap(text), Side="Axis")
    assert isinstance(got, Unmapped) and "fits 2 unit entries of units.toml: unit[0], unit[5]" in got.reason


def test_values_from_properties_are_checked_against_the_pack() -> None:
    got = one("5-3-12 (2/7)", Side="Italian")
    assert isinstance(got, Unmapped) and got.reason.startswith("side 'Italian' of '5-3-12 (2/7)' is not a side")
    m = unitmap(UNITS.replace('side = "Side"', 'side = "Side"\nkind = "Type"'))
    got = one("3-4-11 (2/69)", m, Side="Axis", Type="cavalry")
    assert isinstance(got, Unmapped) and "class 'cavalry'" in got.reason
    got = one("3-4-11 (2/69)", m, Side="Axis", Type="infantry")
    assert got.kind == "infantry" and not got.mechanized


def test_a_non_number_group_is_unmapped() -> None:
    text = '[[pattern]]\nregex = \'(?P<movement>\\w+) (?P<designation>.*)\'\nside = "Axis"\nkind = "armor"\n'
    got = one("x 1/1", unitmap(text))
    assert isinstance(got, Unmapped) and got.reason == "movement 'x' of 'x 1/1' is not a whole number"
    assert one("7 1/1", unitmap(text)).movement == 7


def test_without_pack_classes_any_kind_is_taken() -> None:
    m = UnitMap.from_mapping(tomllib.loads(UNITS))
    assert one("5-3-12 (2/7)", m, Side="Whoever").side == "Whoever"


PATTERN = "[[pattern]]\nregex = '(?P<movement>\\d+)'\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "units.toml: pattern: missing required key"),
        ("[[pattern]]\nregex = '(?P<movement>\\d+'", "units.toml: pattern[0].regex: bad regular expression"),
        (
            "[[pattern]]\nregex = '(?P<attack>\\d+)'",
            "units.toml: pattern[0].regex: '(?P<attack>\\\\d+)' has no (?P<movement>",
        ),
        ("[[pattern]]\nregexp = 'x'", "units.toml: pattern[0].regexp: unknown key"),
        ("patterns = []", "units.toml: patterns: unknown key"),
        ('ignore = ["("]\n' + PATTERN, "units.toml: ignore[0]: bad regular expression"),
        ("unit = 3\n" + PATTERN, "units.toml: unit: expected an array of tables ([[unit]]), got 3"),
        (PATTERN + '[[unit]]\nkind = "armor"', "units.toml: unit[0].designation: missing required key"),
        (PATTERN + '[[unit]]\ndesignation = "2/7"\nsidee = "Axis"', "units.toml: unit[0].sidee: unknown key"),
        (
            PATTERN + '[[unit]]\ndesignation = "2/7"\nside = "Italian"',
            "units.toml: unit[0].side: unknown side 'Italian'",
        ),
        (
            PATTERN + '[[unit]]\ndesignation = "2/7"\nkind = "tank"',
            "units.toml: unit[0].kind: unknown unit class 'tank'",
        ),
        (
            PATTERN + '[[unit]]\ndesignation = "2/7"\nattack = "5"',
            "units.toml: unit[0].attack: expected int, got '5' (str)",
        ),
        (
            PATTERN + '[[unit]]\ndesignation = "2/7"\nmechanized = 1',
            "units.toml: unit[0].mechanized: expected bool, got 1 (int)",
        ),
        (PATTERN + '[[unit]]\ndesignation = "2/7"\nflags = [1]', "units.toml: unit[0].flags: expected list of str"),
        (PATTERN + '[[group]]\nkind = "armor"', "units.toml: group[0].match: missing required key"),
        (PATTERN + '[[group]]\nmatch = { Side = ["Axis"] }', "units.toml: group[0].match.Side: expected str or int"),
        (PATTERN + '[properties]\nsides = "Side"', "units.toml: properties.sides: unknown key"),
        (PATTERN + '[defaults]\nside = "Italian"', "units.toml: defaults.side: unknown side 'Italian'"),
    ],
)
def test_bad_units_toml_names_the_key_path(text: str, message: str) -> None:
    with pytest.raises(PackError) as e:
        unitmap(text)
    assert str(e.value).startswith(message)


# The Kasserine set-up and reinforcement lists after rule 22 (seed 000), as printed.
KASSERINE_LISTS = [
    ("3718", "1-3-7 (2/168)"),
    ("3922", "1-2-7 (3/168)"),
    ("3722", "1-2-7 (-/168)"),
    ("3721", "1-2-3/2-10 (91)"),
    ("3821", "2-2-4/1-7 (2/17)"),
    ("3819", "3-2-12 (3/1)"),
    ("2714", "2-1-14 (1/13), 2-3-11 (1/6), 1-2-3/2-10 (68)"),
    ("3911", "3-2-12 (3/13), 2-1-11 (701), 2-3-11 (3/6)"),
    ("1703", "1-2-7 (1/26), 1-3-7 (19)"),
    ("0312", "2-3-11 (2/6)"),
    ("0914", "2-1-14(1/1)"),
    ("0306", "2-1-11 (894 and 805), 1-2-3/1-7 (7), 2-2-4/1-7 (33)"),
    ("1220", "1-2-7 (1/168)."),
    (
        "3918-3920",
        "5-3-12 (2/7), 3-4-11 (2/69 and 2/86), 2-2-9(3/90 and 1/90), 2-1-2/1-9(lt/90), 2-1-3/2-11 (1/90), 6-5-10(501)",
    ),
    ("3726", "5-3-12 (1/5), 2-2-9 (609), 3-1-3/1-7(1/155)"),
    ("3225", "5-3-12 (2/5), 3-4-11 (1/104 and 2/104), 2-2-9(Trupn), 3-1-3/1-7(2/155)"),
    ("2526", "3-2-16(580)."),
    ("3920", "2-2-11 (10), 1-2-9 (Lang)"),
    (
        "0623-1423",
        "3-2-16 (33), 4-3-12 (1/8), 4-4-11 (1/Afr and 2/Afr), 2-2-9 (Afr), 3-1-3/1-7 (1/190 and 1/Air), 4-3-9 (LW).",
    ),
    (
        "0623-1423",
        "5-1-2/1-7 (171), 3-2-11    (31), 3-3-11 (5 Bers), 2-1-7 (1/1 and 2/1), 1-1-2/2-10 (553), "
        "1-1-2/1-7 (75/27), 2-1-3/1-7 (105/28)",
    ),
    ("3911", "3-4-11 (1/47 and 2/47)."),
    ("1023", "1-3-7(3/26), 2-2-9(1), 1-2-3/1-7 (175), 2-1-16 (1 DY). 3911: 3-3-12(2/1)"),
    ("3911", "1-2-3/2-10 (27), 2-1-11 (601)"),
    ("2701", "3-2-12 (2/13)"),
    ("1601", "1-4-6 (Welvrt), 1-1-2/2-5 (1/67 and 2/67)"),
    ("0105", "1-2-7(3/39)"),
    ("3909", "1-2-7 (1/133), 2-3-7 (135), 2-2-4/1-7 (185), 1-2-3/1-7 (125 and 151), 1-1-6 (Guinet), 2-1-10 (FLA)"),
    ("2701", "2-5-7 (18), 2-3-7 (1 Gd), 3-2-4/1-7 (152),. 2-2-3/1-7 (12), 1-1-7 (72 and 93)"),
    ("0105", "1-2-7(2/16)"),
    ("0105", "2-3-7 (16)"),
    ("0105", "1-1-2/1-7 (47 and 60), 1-2-3/1-7 (60 and 84), 2-2-4/1-7 (34)"),
    ("1601", "2-2-12 (16/5), 2-1-12 (17/21 and 2 Lth), 2-2-11 (10/R), 1-2-7 (2/5L)"),
    ("0104", "3-2-12 (Shrmn)."),
]


def test_printed_units_split_multi_unit_entries() -> None:
    assert printed_units("2-1-11 (894 and 805)") == ["2-1-11 (894)", "2-1-11 (805)"]
    assert printed_units("3-4-11 (2/69 and 2/86), 2-2-9(3/90 and 1/90)") == [
        "3-4-11 (2/69)",
        "3-4-11 (2/86)",
        "2-2-9 (3/90)",
        "2-2-9 (1/90)",
    ]
    assert printed_units("2-1-12 (17/21 and 2 Lth)") == ["2-1-12 (17/21)", "2-1-12 (2 Lth)"]
    assert printed_units("1023     1-3-7(3/26), 2-1-16 (1 DY). 3911: 3-3-12(2/1)") == [
        "1-3-7 (3/26)",
        "2-1-16 (1 DY)",
        "3-3-12 (2/1)",
    ]
    assert printed_units("3911 or 3910") == []


def test_every_kasserine_counter_maps_with_its_printed_numbers() -> None:
    m = UnitMap.from_mapping(
        tomllib.loads(UNITS.split("[[unit]]")[0] + '[defaults]\nside = "Allied"\nkind = "infantry"\n'),
        classes=CLASSES,
        sides=SIDES,
    )
    names = [u for _, entry in KASSERINE_LISTS for u in printed_units(entry)]
    assert len(names) == 96  # 21 Allied set-up, 37 Axis, 38 Allied reinforcements
    units, unmapped = map_units([piece(n, str(i)) for i, n in enumerate(names)], m)
    assert unmapped == [] and len(units) == len(names)
    for u in units:
        numbers = u.name.split(" (")[0]
        if u.kind == "artillery":  # barrage-FPF-range/defense-movement
            assert numbers == f"{u.barrage}-{u.fpf}-{u.range}/{u.defense}-{u.movement}"
        else:  # attack-defense-movement
            assert numbers == f"{u.attack}-{u.defense}-{u.movement}"
    assert sum(u.kind == "artillery" for u in units) == 29
    assert {u.designation for u in units} >= {"-/168", "lt/90", "5 Bers", "1 DY", "Shrmn", "2 Lth"}


def test_the_entries_a_piece_fits_are_listed_in_file_order_whatever_their_match_keys() -> None:
    # map_piece looks the entries up by their match keys (unitmap._units_by_match): entries
    # matching on other keys, or on more of them, are still found, and named in file order
    text = (
        UNITS
        + '\n[[unit]]\ndesignation = "2/7"\nmatch = { movement = 12 }\nkind = "infantry"\n'
        + '\n[[unit]]\ndesignation = "2/7"\nmatch = { movement = 11 }\nkind = "infantry"\n'
        + '\n[[unit]]\ndesignation = "2/7"\nmatch = { Side = "Axis", movement = 12 }\nkind = "infantry"\n'
    )
    got = one("5-3-12 (2/7)", unitmap(text), Side="Axis")
    assert isinstance(got, Unmapped) and "fits 3 unit entries of units.toml: unit[0], unit[5], unit[7]" in got.reason
