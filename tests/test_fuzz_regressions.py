"""The failures the fuzzing found (issue 17; tests/test_fuzz_readers.py, scripts/fuzz.py), each
reduced to its input, read by the reader the fuzzing drives (scripts/fuzz_readers.py): a clear
`VassalAdjError` naming the file and the place, never an internal error."""

from __future__ import annotations

import sys

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "scripts"))
from fuzz_readers import READERS  # noqa: E402

from vassal_adj.errors import PackError  # noqa: E402


def test_terrain_line_with_a_carriage_return_inside_is_a_malformed_line() -> None:
    # found by the suite's first run: csv.Error "new-line character seen in unquoted field"
    text = "hex,0306,clear town\nhex,0312,clear\rtown\n"
    with pytest.raises(PackError, match=r"malformed line: new-line character") as e:
        READERS["terrain"].run("kasserine", text)
    assert e.value.where is not None and (e.value.where.path, e.value.where.line) == ("terrain.csv", 2)


def test_terrain_line_of_commas_alone_is_a_blank_row() -> None:
    # found by scripts/fuzz.py (terrain, --seed 7 case 948): IndexError on the line ","
    READERS["terrain"].run("kasserine", "hex,0306,clear town\n,\n , ,\nhex,0312,clear\n")
    with pytest.raises(PackError, match=r"unknown record 'x'") as e:
        READERS["terrain"].run("kasserine", ",\nx,\n")
    assert e.value.where is not None and e.value.where.line == 2
