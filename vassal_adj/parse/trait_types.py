"""One class per VASSAL trait prefix (VASSAL-FORMATS.md 6.2-6.14); `traits.py` chains them.

Every trait keeps its raw own `type` and `state` (one TAB level removed), so writing it back is
byte-identical; subclass fields are read from those texts with VASSAL's lenient readers
(missing trailing fields -> VASSAL's defaults). Traits the spec does not detail are typed by
class only. Build traits with `make_trait`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from vassal_adj.parse.tokens import bool_of, float_or, int_or, parse_int, split

TRAIT_CLASSES: dict[str, type[Trait]] = {}
"""Trait class by registered prefix (the table of section 6.2 plus the basic types)."""

_JAVA_SPACE = "".join(map(chr, range(33)))  # what Java's String.trim removes (pitfall 7)

BASIC_PREFIXES = frozenset({"piece;", "stack", "deck;"})
"""Non-decorator types: VASSAL hands the whole remaining text to them, never TAB-split."""


def trait_prefix(type_text: str) -> str:
    """The registry key of a trait type: up to and including the first ``;`` (or all of it)."""
    i = type_text.find(";")
    return type_text if i < 0 else type_text[: i + 1]


def _after(text: str, prefix: str) -> str:
    return text[len(prefix) :] if text.startswith(prefix) else text


def _field(fields: list[str], i: int, default: str | None = None) -> str | None:
    return fields[i] if i < len(fields) else default


@dataclass(frozen=True)
class Trait:
    """One decorator (or the innermost basic piece): its raw own type and state. Subclasses
    add parsed fields and register with ``class X(Trait, prefix="x;", editor="Name")``."""

    prefix: str
    type: str
    state: str

    TRAIT_NAME: ClassVar[str] = "trait"
    PREFIX: ClassVar[str] = ""

    def __init_subclass__(cls, prefix: str = "", editor: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if editor:
            cls.TRAIT_NAME = editor
        if prefix:
            cls.PREFIX = prefix
            TRAIT_CLASSES[prefix] = cls

    @property
    def trait_name(self) -> str:
        """The editor's name for this kind of trait, e.g. ``"Layer"``."""
        return self.TRAIT_NAME

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        return {}

    def with_state(self, state: str) -> Trait:
        """The same trait with another own state (parsed fields recomputed)."""
        return make_trait(self.type, state)


class UnknownTrait(Trait, editor="unknown trait"):
    """A prefix VASSAL does not register (a module's custom class): kept raw, never dropped."""


# -- decorators with parsed fields -----------------------------------------------------


@dataclass(frozen=True)
class Marker(Trait, prefix="mark;", editor="Marker"):
    """``mark;`` (6.5): static properties; a missing value is empty."""

    keys: tuple[str, ...] = ()
    values: tuple[str, ...] = ()

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        keys = split(_after(type_text, "mark;"), ",")
        values = split(state_text, ",")
        values += [""] * (len(keys) - len(values))
        return {"keys": tuple(keys), "values": tuple(values[: len(keys)])}

    @property
    def properties(self) -> tuple[tuple[str, str], ...]:
        """(key, value) pairs in type order."""
        return tuple(zip(self.keys, self.values, strict=False))


@dataclass(frozen=True)
class Embellishment(Trait, prefix="emb2;", editor="Layer"):
    """``emb2;`` Layer (6.6; field numbers as in the spec). `value` is the signed state
    (> 0 active, |value| the 1-based level), clamped to [-n, n]; -1 if not an int (VASSAL)."""

    name: str = ""
    image_names: tuple[str, ...] = ()
    level_names: tuple[str, ...] = ()
    follow_property: bool = False
    property_name: str = ""
    first_level_value: int = 1
    always_active: bool = True
    value: int = 0

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")  # f[0] is "emb2", f[i] is spec field i
        images = split(_field(f, 16, ""), ",")
        names = split(_field(f, 17, ""), ",")
        names += [""] * (len(images) - len(names))
        n = len(images)
        value = int_or(split(state_text, ";")[0], -1)  # nextInt(-1): inactive at level 1
        return {
            "name": _field(f, 19, ""),
            "image_names": tuple(images),
            "level_names": tuple(names[:n]),
            "follow_property": bool_of(_field(f, 22)),
            "property_name": _field(f, 23, ""),
            "first_level_value": int_or(_field(f, 24), 1),
            "always_active": bool_of(_field(f, 26), True),
            "value": max(-n, min(n, value)),
        }

    @property
    def active(self) -> bool:
        return self.value > 0

    @property
    def level(self) -> int:
        """The 1-based current level (remembered while inactive); 0 if unknown."""
        return abs(self.value)


class LegacyEmbellishment(Trait, prefix="emb;", editor="Layer (legacy format)"):
    """``emb;``: Layer in the legacy type format, kept raw (6.6)."""


@dataclass(frozen=True)
class Labeler(Trait, prefix="label;", editor="Text Label"):
    """``label;`` Text Label (6.7); the label is the state. `property_name` is read like
    ``nextToken("TextLabel")``: missing -> ``TextLabel``, present but empty -> ``""``."""

    name_format: str = "$pieceName$ ($label$)"
    property_name: str = "TextLabel"
    always_use_format: bool = False

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")  # f[0] is "label"
        return {
            "name_format": _field(f, 12, "$pieceName$ ($label$)"),
            "property_name": _field(f, 16, "TextLabel"),
            "always_use_format": bool_of(_field(f, 18), False),
        }

    @property
    def label(self) -> str:
        """The label as VASSAL keeps it (6.7): Java-trimmed, every ``$<property name>$``
        self-reference removed. It is itself a format (see `piece_names.expand_name`)."""
        text = self.state.strip(_JAVA_SPACE)
        ref = f"${self.property_name}$"
        while (i := text.find(ref)) >= 0:
            text = text[:i] + text[i + len(ref) :]
        return text


@dataclass(frozen=True)
class Prototype(Trait, prefix="prototype;", editor="Prototype"):
    """``prototype;`` reference (6.8): the name and the ``k=v`` parameters (file order; a key
    without ``=value`` is skipped and a repeated key keeps its last value, as in VASSAL)."""

    name: str = ""
    params: tuple[tuple[str, str], ...] = ()

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(_after(type_text, "prototype;"), ";")
        params: dict[str, str] = {}
        if len(f) > 1:
            for pair in split(f[1], ","):
                kv = split(pair, "=")
                if len(kv) >= 2:
                    params[kv[0]] = kv[1]
        return {"name": f[0], "params": tuple(params.items())}


def _access(text: str | None) -> tuple[str, tuple[str, ...]]:
    if text and text.startswith("sides:"):
        return "sides", tuple(s for s in split(text[len("sides:") :], ":") if s)
    if text and text.startswith("side:"):
        return "side", ()
    return "player", ()  # "player:" and VASSAL's fallback for anything else


@dataclass(frozen=True)
class Obscurable(Trait, prefix="obs;", editor="Mask"):
    """``obs;`` Mask (6.9). `masked_by` is None when the state's first field is ``null``;
    otherwise the owner: with ``player`` access a PASSWORD, so neither it nor the raw state
    appears in repr. `access` is ``player``, ``side`` or ``sides`` (then `sides` lists them)."""

    state: str = field(repr=False)
    access: str = "player"
    sides: tuple[str, ...] = ()
    masked_name: str = "?"
    display_style: str = ""
    masked_by: str | None = field(default=None, repr=False)

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")  # prefix, key, image, menu, style, name, access, ...
        access, sides = _access(_field(f, 6))
        by = split(state_text, ";")[0]
        return {
            "access": access,
            "sides": sides,
            "masked_name": _field(f, 5, "?"),
            "display_style": _field(f, 4, ""),
            "masked_by": None if by == "null" else by,
        }

    @property
    def masked(self) -> bool:
        return self.masked_by is not None


@dataclass(frozen=True)
class Hideable(Trait, prefix="hide;", editor="Invisible"):
    """``hide;`` Invisible (6.10). `hidden_by` (password or side, None for ``null``) and the
    raw state stay out of repr."""

    state: str = field(repr=False)
    access: str = "player"
    sides: tuple[str, ...] = ()
    hidden_by: str | None = field(default=None, repr=False)

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        access, sides = _access(_field(split(type_text, ";"), 4))
        return {"access": access, "sides": sides, "hidden_by": None if state_text == "null" else state_text}

    @property
    def hidden(self) -> bool:
        return self.hidden_by is not None


@dataclass(frozen=True)
class DynamicProperty(Trait, prefix="PROP;", editor="Dynamic Property"):
    """``PROP;`` (6.11): the property name (default ``name``); the value is the raw state."""

    name: str = "name"

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        return {"name": _field(split(type_text, ";"), 1, "name")}

    @property
    def value(self) -> str:
        return self.state


@dataclass(frozen=True)
class CalculatedProperty(Trait, prefix="calcProp;", editor="Calculated Property"):
    """``calcProp;``: name and expression (the value needs VASSAL's expression engine)."""

    name: str = ""
    expression: str = ""

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")
        return {"name": _field(f, 1, ""), "expression": _field(f, 2, "")}


@dataclass(frozen=True)
class TranslatableMessage(Trait, prefix="locmsg;", editor="Translatable Message"):
    """``locmsg;`` + enc(`;`; property name (``name``), description, message): the piece
    answers the property with the message (VASSAL 3.6's TranslatableMessage; the spec lists
    only the prefix). State: empty."""

    name: str = "name"
    message: str = ""

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        f = split(type_text, ";")
        return {"name": _field(f, 1, "name"), "message": _field(f, 3, "")}


@dataclass(frozen=True)
class PropertySheet(Trait, prefix="propertysheet;", editor="Property Sheet"):
    """``propertysheet;`` (6.12): field kinds (one digit) and names; values from the state,
    raw (newlines still written ``|``, ticks ``value/max``; missing -> empty)."""

    field_kinds: tuple[str, ...] = ()
    field_names: tuple[str, ...] = ()
    values: tuple[str, ...] = ()

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        defs = [d for d in split(_field(split(type_text, ";"), 1, ""), "~") if d]
        values = split(state_text, "~") if state_text else []
        values += [""] * (len(defs) - len(values))
        return {
            "field_kinds": tuple(d[:1] for d in defs),
            "field_names": tuple(d[1:] for d in defs),
            "values": tuple(values[: len(defs)]),
        }

    @property
    def properties(self) -> tuple[tuple[str, str], ...]:
        return tuple(zip(self.field_names, self.values, strict=False))


@dataclass(frozen=True)
class FreeRotator(Trait, prefix="rotate;", editor="Can Rotate"):
    """``rotate;`` (6.14): the state is a facing index (int) or, for free rotation, an angle
    (double). `facing` is set when the state reads as an int, `angle` when it reads as a
    double (so both for an int text); which applies depends on the type."""

    facing: int | None = None
    angle: float | None = None

    @classmethod
    def _extras(cls, type_text: str, state_text: str) -> dict[str, Any]:
        angle = float_or(state_text, float("nan"))
        return {"facing": parse_int(state_text), "angle": None if angle != angle else angle}


class MarkMoved(Trait, prefix="markmoved;", editor="Mark When Moved"):
    """``markmoved;`` Mark When Moved (state ``true``/``false``)."""

    @property
    def moved(self) -> bool:
        return self.state == "true"


@lru_cache(maxsize=16384)  # traits are immutable; pieces of one kind repeat most of them
def make_trait(type_text: str, state_text: str) -> Trait:
    """The typed trait for one own type/state pair (`UnknownTrait` for unknown prefixes).

    A type whose prefix is registered but whose fields are odd still gets its class;
    parsed fields then take VASSAL's defaults. Never raises for bad data.
    """
    prefix = trait_prefix(type_text)
    cls = TRAIT_CLASSES.get(prefix, UnknownTrait)
    return cls(prefix=prefix, type=type_text, state=state_text, **cls._extras(type_text, state_text))


__all__ = [
    "Trait",
    "UnknownTrait",
    "TRAIT_CLASSES",
    "BASIC_PREFIXES",
    "trait_prefix",
    "make_trait",
    *(c.__name__ for c in TRAIT_CLASSES.values() if c.__module__ == __name__),
]
