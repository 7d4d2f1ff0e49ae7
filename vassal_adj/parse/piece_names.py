"""A piece's name and properties as VASSAL computes them from its trait chain (VASSAL-FORMATS.md 6).

VASSAL's ``getName`` runs through the decorator chain: the BasicPiece's name is the answer
the outermost trait gives to the property ``BasicName`` (a Basic Name trait, 3.6, overrides
the piece's own), and each Layer and Text Label outward wraps the name it receives. Name and
label formats are VASSAL format strings: ``$property$`` is looked up in the piece's
properties. A property the piece does not hold (a global or map property, or one VASSAL
derives from the board) is not in the files read here, so its placeholder is left as
``$name$``: the name says what it could not evaluate instead of guessing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import compress
from typing import Protocol

from vassal_adj.parse.basic_traits import BasicPiece
from vassal_adj.parse.later_traits import BasicName
from vassal_adj.parse.tokens import parse_int, split
from vassal_adj.parse.trait_types import (
    DynamicProperty,
    Embellishment,
    Hideable,
    Labeler,
    Marker,
    Obscurable,
    PropertySheet,
    Trait,
    TranslatableMessage,
)

__all__ = ["KindFilter", "expand_name", "name_and_properties", "piece_name", "piece_properties", "visible_name"]


class PieceDef(Protocol):
    """What naming reads of a `traits.PieceDef` (which imports this module)."""

    @property
    def traits(self) -> tuple[Trait, ...]: ...


class KindFilter(dict[type, bool]):
    """Selects the traits that are instances of some of `kinds`, at C speed: a piece has
    ~65 traits and few of them name it or hold properties, and an ``isinstance`` chain on
    each costs more than all the rest. Whether a class qualifies is computed once."""

    def __init__(self, *kinds: type) -> None:
        super().__init__()
        self.kinds = kinds

    def __missing__(self, cls: type) -> bool:
        self[cls] = found = issubclass(cls, self.kinds)
        return found

    def select(self, traits: Sequence[Trait]) -> Iterator[Trait]:
        """The traits of `traits` (in order) that are instances of some kind."""
        return compress(traits, map(self.__getitem__, map(type, traits)))


# The traits `piece_name` and `_properties` look at (a trait of none of these is skipped).
_NAMING = KindFilter(Embellishment, Labeler, Obscurable, Hideable)
_PROPERTIES = KindFilter(
    BasicPiece, BasicName, Marker, PropertySheet, DynamicProperty, TranslatableMessage, Labeler, Embellishment
)


def expand_name(fmt: str, props: Mapping[str, str], local: Mapping[str, str] | None = None) -> str:
    """A format string as VASSAL's FormattedStringExpression fills it: ``$`` splits the text
    (SequenceEncoder rules), every second token is a property name, looked up in `local`
    (the format's own values, e.g. ``pieceName``) and then in `props`; an empty token adds
    nothing and an unclosed last one is literal. A name found in neither stays ``$name$``
    (see the module docstring); a BeanShell ``{...}`` expression is returned as written."""
    if "$" not in fmt or fmt.startswith("{") and fmt.endswith("}"):
        return fmt
    tokens = split(fmt, "$")
    last = len(tokens) - 1
    out = []
    for k, token in enumerate(tokens):
        if not token or k % 2 == 0 or k == last:
            out.append(token)
        elif local is not None and token in local:
            out.append(local[token])
        else:
            value = props.get(token)
            out.append(f"${token}$" if value is None else value)
    return "".join(out)


def _has_access(owner: str, access: str, sides: Collection[str], viewer: str | Collection[str] | None) -> bool:
    ids = {viewer} if isinstance(viewer, str) else set(viewer or ())
    return viewer is None or (bool(ids & set(sides)) if access == "sides" else owner in ids)


def _followed(layer: Embellishment, props: Mapping[str, str]) -> Embellishment:
    """A property-following Layer at the level VASSAL reads from the property (its
    checkPropertyLevel): value - first level value + 1, clamped to the levels, an empty value
    meaning the first level; activity kept. Unchanged when the property is not the piece's
    (its value is not in the files) or not an integer (VASSAL reports it and keeps the level)."""
    if not layer.follow_property or not layer.property_name or layer.property_name not in props:
        return layer
    value = parse_int(props[layer.property_name] or str(layer.first_level_value))
    if value is None:
        return layer
    level = max(1, min(len(layer.image_names), value - layer.first_level_value + 1))
    return replace(layer, value=level if layer.active else -level)


def _layer_name(layer: Embellishment, inner: str) -> str:
    if not layer.active or layer.level > len(layer.level_names):
        return inner
    cname = layer.level_names[layer.level - 1]
    if not cname:
        return inner
    parts = split(cname, "+")
    if len(parts) < 2:
        return parts[0]
    return inner + parts[1] if parts[0] == "" else parts[0] + inner


def piece_name(
    piece: PieceDef, viewer: str | Collection[str] | None = None, props: Mapping[str, str] | None = None
) -> str:
    """The name VASSAL shows, each decorator wrapping the inner name (stacks, decks: ``""``).

    The innermost name is the piece's ``BasicName`` property (a Basic Name trait's name over
    the BasicPiece's). An active Layer level name ``A+`` gives "A" + name, ``+A`` name + "A",
    another non-empty one replaces the name; a Layer following a property takes its level from
    that property when the piece holds it (else its saved level). A Text Label with a label
    (or "always use name format") fills its name format with ``pieceName`` (the inner name),
    ``label`` (the label text, itself a format with ``PieceName``) and the piece's properties.
    `viewer` None is the referee (masks ignored); else the ids the viewer holds (password,
    side): someone else's Mask shows its masked name, someone else's Invisible ``""``.
    `props`: the piece's properties when already computed (`name_and_properties`).
    """
    if props is None:
        props = _properties(piece)
    name = props.get("BasicName", "")
    for trait in _NAMING.select(piece.traits[-2::-1]):  # outward from the innermost decorator
        if isinstance(trait, Embellishment):
            name = _layer_name(_followed(trait, props), name)
        elif isinstance(trait, Labeler) and (trait.label or trait.always_use_format):
            label = expand_name(trait.label, props, {"PieceName": name})
            name = expand_name(trait.name_format, props, {"pieceName": name, "label": label})
        elif isinstance(trait, Obscurable) and trait.masked_by is not None:
            if not _has_access(trait.masked_by, trait.access, trait.sides, viewer):
                name = trait.masked_name
        elif (
            isinstance(trait, Hideable)
            and trait.hidden_by is not None
            and not _has_access(trait.hidden_by, trait.access, trait.sides, viewer)
        ):
            name = ""
    return name


def visible_name(piece: PieceDef) -> str:
    """The name shown to someone who owns no mask: masked names, hidden pieces ``""``."""
    return piece_name(piece, viewer=())


def _properties(piece: PieceDef) -> dict[str, str]:
    """The piece's own properties, without ``PieceName`` (which needs the name)."""
    props: dict[str, str] = {}
    layers: list[Embellishment] = []
    labels: list[Labeler] = []
    for trait in _PROPERTIES.select(piece.traits[::-1]):  # innermost first: outer ones overwrite
        if isinstance(trait, BasicPiece):
            props.update(trait.properties)
            props.pop("PieceName", None)  # VASSAL answers PieceName before persistent properties
            props["BasicName"] = trait.name
        elif isinstance(trait, BasicName):
            props["BasicName"] = trait.name
        elif isinstance(trait, (Marker, PropertySheet)):
            props.update((k, v) for k, v in trait.properties if k)
        elif isinstance(trait, DynamicProperty):
            props[trait.name] = trait.value
        elif isinstance(trait, TranslatableMessage):
            props[trait.name] = trait.message
        elif isinstance(trait, Labeler) and trait.property_name:
            props[trait.property_name] = trait.label
            labels.append(trait)
        elif isinstance(trait, Embellishment):
            layers.append(trait)
            _layer_properties(trait, props)
    # What needs other properties is read once every trait has answered: a followed property,
    # a label's placeholders (unless an outer trait answers for the label's property).
    for layer in layers:
        if layer.follow_property:
            _layer_properties(_followed(layer, props), props)
    for label in labels:
        if props[label.property_name] == label.label:
            props[label.property_name] = expand_name(label.label, props)
    return props


def _layer_properties(layer: Embellishment, props: dict[str, str]) -> None:
    """What VASSAL's Embellishment.getProperty answers: ``_Level`` the signed state,
    ``_Active``, and for an active layer the level's ``_Name`` (one ``+`` stripped) and
    ``_Image`` (both empty when inactive)."""
    on, i = layer.active, layer.level - 1
    props[layer.name + "_Level"] = str(layer.value)
    props[layer.name + "_Active"] = "true" if on else "false"
    props[layer.name + "_Name"] = _strip_plus(layer.level_names[i]) if on else ""
    props[layer.name + "_Image"] = layer.image_names[i] if on else ""


def _strip_plus(name: str) -> str:
    return name[1:] if name.startswith("+") else name.removesuffix("+")


def piece_properties(piece: PieceDef, viewer: str | Collection[str] | None = None) -> dict[str, str]:
    """Every property a VASSAL expression can read from the piece's own traits.

    BasicPiece persistent properties, ``BasicName`` (a Basic Name trait's over the
    BasicPiece's), ``PieceName`` (`piece_name` for `viewer`); Marker keys; Dynamic Property;
    Translatable Message; Property Sheet fields (raw); Text Label property = label (its
    placeholders filled from the other properties); per Layer ``<name>_Level``
    (signed state), ``_Active``, ``_Name`` (level name without ``+``), ``_Image`` (both
    empty when inactive), as VASSAL's Embellishment.getProperty answers. Outer traits shadow
    inner ones. Not included: calculated and map-derived properties (CurrentX, LocationName...).
    """
    return name_and_properties(piece, viewer)[1]


def name_and_properties(piece: PieceDef, viewer: str | Collection[str] | None = None) -> tuple[str, dict[str, str]]:
    """`piece_name` and `piece_properties` together (the properties are computed once)."""
    props = _properties(piece)
    name = piece_name(piece, viewer, props)
    if piece.traits and isinstance(piece.traits[-1], BasicPiece):
        props.setdefault("PieceName", name)
    return name, props
