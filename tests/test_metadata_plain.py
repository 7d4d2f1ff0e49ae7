"""parse/metadata.py reads VASSAL's metadata files (savedata, moduledata: VASSAL-FORMATS.md
section 2) without lxml, and gives what the lxml reader (buildfile_xml.parse_metadata) gives for
every file, its own form or not: each case here is read both ways and the results compared."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest
from conftest import REPO

from vassal_adj.errors import FormatError
from vassal_adj.parse import buildfile_xml, metadata

EXAMPLES = sorted((REPO / "modules").glob("*/example/*.v*"))
HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
VASSAL = (
    HEAD + '<data version="1">\n  <version>0.2</version>\n  <extra1/>\n  <extra2/>\n  <VassalVersion>3.6.7'
    "</VassalVersion>\n  <dateSaved>1767225600000</dateSaved>\n  <description>Turn 3 &gt; 2</description>\n"
    '  <description lang="de">Zug 3</description>\n  <name>  Kasserine \u00e9 </name>\n</data>\n'
)
CASES = [
    # VASSAL's plain form, read without lxml
    (HEAD + '<data version="1">\n  <version>0.2</version>\n  <extra1/>\n  <name> A b </name>\n</data>\n', True),
    (HEAD + '<data>\n  <description lang="fr">x</description>\n  <description>y</description>\n</data>', True),
    (HEAD + "<data>\n  <name>first</name>\n  <name>second</name>\n  <empty></empty>\n</data>", True),
    (HEAD + '<data version="1">\n  <name foo="lang=">kept: its attribute is foo</name>\n</data>', True),
    # anything else goes to lxml, which reads it the same or refuses it with its message
    (VASSAL, False),  # an entity
    (HEAD + "<data>\n  <name>a<b/>c</name>\n</data>", False),  # markup inside a field
    (HEAD + "<data>\n  <name>a\r\nb</name>\n</data>", False),  # a carriage return, a line feed to XML
    (HEAD + "<data>\n  <!-- note -->\n  <name>a</name>\n</data>", False),
    (HEAD + '<data>\n  <name a="1" a="2">x</name>\n</data>', False),  # not XML: lxml refuses it
    (HEAD + "<data>\n  <name>x</nam>\n</data>", False),  # not XML
    (HEAD + "<other>\n  <name>x</name>\n</other>", False),  # not metadata: lxml's reader refuses it
    (HEAD + "<data>\n  <name>x]]>y</name>\n</data>", False),
    (HEAD + "<data>\n  <x:name xmlns:x='u'>x</x:name>\n</data>", False),
    ("\ufeff" + HEAD + "<data>\n  <name>x</name>\n</data>", False),
    (HEAD + "<data>\n  <name>\x01</name>\n</data>", False),  # a character XML forbids
    (HEAD + '<data>\n  <name a="x\ty">v</name>\n</data>', False),  # XML makes the tab a space
]


def _both(xml: bytes) -> tuple[object, object]:
    def read(parse: object) -> object:
        try:
            return parse(xml, path="g.vsav", entry="savedata")  # type: ignore[operator]
        except FormatError as e:
            return ("FormatError", str(e))

    return read(metadata.parse_metadata), read(buildfile_xml.parse_metadata)


@pytest.mark.parametrize(("text", "plain"), CASES)
def test_the_metadata_read_without_lxml_are_what_lxml_reads(text: str, plain: bool) -> None:
    xml = text.encode("utf-8")
    assert (metadata._plain(xml) is not None) == plain
    ours, lxmls = _both(xml)
    assert ours == lxmls


def test_the_name_and_description_as_written_by_vassal() -> None:
    fields = metadata._plain(VASSAL.replace("&gt;", ">").encode())
    assert fields is None  # ">" in text is left to lxml too ("]]>" would be an error)
    text = VASSAL.replace(" &gt; 2", "").encode()
    assert metadata.parse_metadata(text) == {
        "version": "0.2",
        "extra1": "",
        "extra2": "",
        "VassalVersion": "3.6.7",
        "dateSaved": "1767225600000",
        "description": "Turn 3",
        "name": "Kasserine \u00e9",
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_save_is_read_without_lxml_as_lxml_reads_it(path: object) -> None:
    with zipfile.ZipFile(path) as z:  # type: ignore[arg-type]
        for entry in ("savedata", "moduledata"):
            if entry in z.namelist():
                xml = z.read(entry)
                assert metadata._plain(xml) is not None
                assert _both(xml)[0] == _both(xml)[1]


def test_reading_a_save_loads_no_lxml() -> None:
    save = REPO / "modules" / "kasserine" / "example" / "turn3-faults.vsav"
    code = f"import sys\nfrom vassal_adj.load import load_save\nload_save({str(save)!r})\nprint('lxml' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
