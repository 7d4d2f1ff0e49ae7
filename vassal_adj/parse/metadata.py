"""The metadata files of a save (`savedata`, `moduledata`) read as VASSAL writes them, without lxml.

Every save and log holds two small XML files of one fixed form (VASSAL-FORMATS.md section 2):
an XML declaration, a ``<data>`` element, and children that hold text or are empty. Reading them
was the only use of lxml in `check` on a save whose module is cached, and importing lxml is
4 ms of its start (issue 10). `parse_metadata` reads a file of exactly that form here, each
child's text as lxml gives it (no entity, no markup, no carriage return, nothing XML forbids
in it), and hands every other file to `buildfile_xml.parse_metadata`, which reads any XML
and reports what is wrong with it: the result is the same either way.
"""

from __future__ import annotations

import re

from vassal_adj.parse.tokens import java_trim

__all__ = ["parse_metadata"]

_NAME = r"[A-Za-z_][A-Za-z0-9_.-]*"
# text and attribute values with none of what XML reads specially: markup, entities, "]]>",
# carriage returns (XML turns them into line feeds), characters XML forbids
_TEXT = r"[^<>&\x00-\x08\x0b-\x1f\ufffe\uffff]*"  # tab and line feed only, of the control characters
_VALUE = r'[ \t\n]*=[ \t\n]*"[^"<>&\x00-\x1f\ufffe\uffff]*"'  # no tab, line feed: XML makes them spaces
_ATTRS = rf"(?:[ \t\n]+{_NAME}{_VALUE})*"
_CHILD = re.compile(rf"[ \t\n]*<({_NAME})({_ATTRS})[ \t\n]*(?:/>|>({_TEXT})</\1[ \t\n]*>)")
_DOCUMENT = re.compile(
    rf'<\?xml version="1\.0" encoding="UTF-8"(?: standalone="(?:no|yes)")?\?>[ \t\n]*'
    rf"<data({_ATTRS})[ \t\n]*>(.*)</data[ \t\n]*>[ \t\n]*",
    re.DOTALL,
)
_SPACE = re.compile(r"[ \t\n]*")
_ATTR_NAME = re.compile(rf"[ \t\n]+({_NAME}){_VALUE}")  # one attribute of _ATTRS, its name a group


def _unique(attrs: str) -> bool:
    names = _ATTR_NAME.findall(attrs)
    return len(set(names)) == len(names)  # an attribute given twice is not XML


def _plain(xml: bytes) -> dict[str, str] | None:
    """The fields of a metadata file of VASSAL's plain form; None for any other file."""
    try:
        text = xml.decode("utf-8")
    except UnicodeDecodeError:
        return None
    document = _DOCUMENT.fullmatch(text)
    if document is None or not _unique(document.group(1)):
        return None
    body, at = document.group(2), 0
    out: dict[str, str] = {}
    while (m := _CHILD.match(body, at)) is not None:
        at = m.end()
        tag, attrs, inner = m.groups()
        if not _unique(attrs):
            return None
        if "lang" in _ATTR_NAME.findall(attrs) or tag in out:
            continue  # a translation, or a field given again: lxml's reader keeps the first plain one
        out[tag] = java_trim(inner or "")
    return out if _SPACE.fullmatch(body, at) else None


def parse_metadata(xml: bytes, *, path: str | None = None, entry: str = "moduledata") -> dict[str, str]:
    """`buildfile_xml.parse_metadata`: the fields of a moduledata/savedata/extensiondata file."""
    plain = _plain(xml)
    if plain is not None:
        return plain
    from vassal_adj.parse.buildfile_xml import parse_metadata as read_xml

    return read_xml(xml, path=path, entry=entry)
