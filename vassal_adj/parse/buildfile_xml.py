"""Safe XML reading for VASSAL's XML files, and the metadata files (`moduledata`, `savedata`).

The parser never loads a DTD, never resolves an entity and never touches the network; a
document that declares entities (XML bombs, external entities) is refused before lxml reads
it, and any entity reference left in the tree is refused after. Section 2 of
VASSAL-FORMATS.md describes the metadata files.
"""

from __future__ import annotations

from lxml import etree

from vassal_adj import limits
from vassal_adj.errors import FormatError, Where
from vassal_adj.parse.tokens import java_trim

__all__ = ["make_safe_parser", "safe_xml_root", "parse_metadata", "element_text"]


def make_safe_parser() -> etree.XMLParser:
    """An lxml parser that loads no DTD, resolves no entity and never touches the network."""
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, remove_comments=False
    )


_ENTITY_PROBES = tuple(("<!ENTITY".encode(enc), enc) for enc in ("utf-8", "utf-16-le", "utf-16-be"))


def _reject_entities(data: bytes, where: Where) -> None:
    """Refuse a DOCTYPE that declares entities before lxml sees it (bombs, XXE)."""
    for probe, enc in _ENTITY_PROBES:
        at = data.find(probe)
        if at >= 0 and "<!DOCTYPE".encode(enc) in data:
            line = data[:at].count("\n".encode(enc)) + 1
            raise FormatError(
                'the document declares entities ("<!ENTITY"); entity declarations are refused '
                "(possible xml bomb or external entity)",
                where.but(line=line),
            )


def safe_xml_root(data: bytes, where: Where) -> etree._Element:
    """Parse XML bytes safely; FormatError with the line for bad XML or any entity use."""
    limits.XML_BYTES.check(len(data), f"the XML document is {len(data):,} bytes", where)
    _reject_entities(data, where)
    try:
        root = etree.fromstring(data, make_safe_parser())
    except etree.XMLSyntaxError as err:
        line = err.lineno if err.lineno else None
        if "Excessive depth" in (err.msg or ""):  # libxml2's own bound; its advice is not the user's
            raise FormatError(
                f"XML elements nested deeper than {limits.XML_DEPTH} levels: over libxml2's fixed limit "
                "(a hostile or broken file?); it cannot be raised",
                where.but(line=line),
            ) from None
        raise FormatError(f"malformed xml: {err.msg}", where.but(line=line)) from None
    if root is None:  # pragma: no cover - lxml raises for empty documents
        raise FormatError("malformed xml: no root element", where)
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None:
        names = [e.name for e in dtd.iterentities()]
        if names:
            raise FormatError(
                f'the document declares entities ("{names[0]}"); entity declarations are refused', where.but(line=1)
            )
    for ent in root.iter(etree.Entity):
        raise FormatError(f'entity reference "{ent.text}" is refused (no DTD is read)', where.but(line=ent.sourceline))
    return root


def parse_metadata(xml: bytes, *, path: str | None = None, entry: str = "moduledata") -> dict[str, str]:
    """The fields of a moduledata/savedata/extensiondata file (section 2), texts trimmed.

    `description` and `name` are the first occurrence without a `lang` attribute (the
    untranslated text); other children are taken the first time they appear.
    """
    where = Where(path=path, entry=entry)
    root = safe_xml_root(xml, where)
    if root.tag != "data":
        raise FormatError(f'metadata root element is not "data": "{root.tag}"', where.but(line=root.sourceline))
    out: dict[str, str] = {}
    for child in root:
        if not isinstance(child.tag, str) or child.get("lang") is not None or child.tag in out:
            continue
        out[child.tag] = java_trim(element_text(child))
    return out


def element_text(el: etree._Element) -> str:
    """The element's own text nodes joined (VASSAL's Builder.getText), before trimming."""
    parts = [el.text or ""]
    parts.extend(child.tail or "" for child in el)
    return "".join(parts)
