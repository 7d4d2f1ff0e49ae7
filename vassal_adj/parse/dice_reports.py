"""Die rolls read from chat reports, by the report formats of the module's dice buttons (5.4).

A Dice Button writes its report with its buildFile ``reportFormat`` (default
``** $name$ = $result$ *** &lt;$PlayerName$&gt;``). Some modules write their rolls only as
chat reports, without the ``<button>_result`` properties the replay counts as die rolls;
turning each format into a regex reads those rolls back. Labelled-roll lines such as
``*** (IFT DR) 6,6 ***   <Alice> …``, written by a module of the corpus whose buildFile format
is not at hand, match no module format here and are read by a fallback marked `heuristic`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from vassal_adj.model.module import DiceButtonDef, Module
from vassal_adj.parse.tokens import parse_int

__all__ = ["DEFAULT_FORMAT", "ReportReader", "ReportRoll", "format_regex", "report_reader"]

DEFAULT_FORMAT = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
_TOKEN = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)\$")
# VASSAL 3.4+ writes the angle brackets of a report HTML-escaped, 3.2/3.3 wrote them raw; a
# buildFile may hold either form, so each matches both.
_ENTITIES = {
    "&lt;": "(?:&lt;|<)",
    "<": "(?:&lt;|<)",
    "&gt;": "(?:&gt;|>)",
    ">": "(?:&gt;|>)",
    "&amp;": "(?:&amp;|&)",
    "&": "(?:&amp;|&)",
}
_LITERAL = re.compile(r"(&lt;|&gt;|&amp;|[<>&]|\s+)")
_NUMBER = r"-?\d+"
# Property -> (group name or None, pattern). Other properties (PlayerSide, global
# properties) match any text.
_GROUPS: dict[str, tuple[str | None, str]] = {
    "result": ("result", rf"{_NUMBER}(?:,\s*{_NUMBER})*"),
    "total": ("total", _NUMBER), "numericalTotal": ("total", _NUMBER),
    "PlayerName": ("player", ".*?"), "name": ("name", ".+?"),
    "nDice": (None, _NUMBER), "nSides": (None, _NUMBER), "plus": (None, _NUMBER), "addToTotal": (None, _NUMBER),
}  # fmt: skip
_SPECIAL_RESULT = re.compile(r"result(\d+)").fullmatch
_SIZE_IN_NAME = re.compile(r"\d*d(\d+)", re.IGNORECASE).fullmatch
# A labelled roll: "** (Label) 3,5 ***   <Player>   [stats]", each number one d6.
_LABELLED_ROLL = re.compile(
    r"\*{1,3} \((?P<name>[^()]+)\) (?P<result>\d(?:,\d)*) \*\*\*\s+"
    r"(?:<|&lt;)(?P<player>[^<>&]*)(?:>|&gt;)"
).match


@dataclass(frozen=True)
class ReportRoll:
    """A die roll read from a report. `dice` are face numbers 1..`sides` (empty when the
    report gives only a total, or face texts that name no single face); `heuristic` marks
    a roll read by the labelled-roll fallback, not by a module format."""

    button: str
    result: str
    dice: tuple[int, ...]
    sides: int | None
    total: int | None
    player: str | None
    heuristic: bool = False


def _literal(text: str) -> str:
    out = []
    for part in _LITERAL.split(text):
        if part in _ENTITIES:
            out.append(_ENTITIES[part])
        elif part.isspace():
            out.append(r"\s+")
        elif part:
            out.append(re.escape(part))
    return "".join(out)


def _group(prop: str, name: str | None, seen: set[str]) -> str:
    """The regex for one ``$prop$``; a property met again must repeat its first value."""
    special = _SPECIAL_RESULT(prop)
    if prop == "name" and name is not None:
        return re.escape(name)
    if special:
        key, body = f"result_{special.group(1)}", ".+?"  # a Special Dice Button's face text
    elif prop in _GROUPS:
        key, body = _GROUPS[prop]  # type: ignore[assignment]
    else:
        return ".*?"
    if key is None:
        return body
    if key in seen:
        return f"(?P={key})"
    seen.add(key)
    return f"(?P<{key}>{body})"


def format_regex(fmt: str, name: str | None = None) -> re.Pattern[str] | None:
    """The regex a report written with `fmt` fully matches; ``$name$`` is `name` when given,
    else a group. None for a BeanShell expression format (``{…}``), which no regex mirrors.

    >>> bool(format_regex(DEFAULT_FORMAT, "2d6").fullmatch("** 2d6 = 3,5 *** <Alice>"))
    True
    """
    if fmt.lstrip().startswith("{"):
        return None
    seen: set[str] = set()
    parts, pos = [], 0
    for m in _TOKEN.finditer(fmt):
        parts += [_literal(fmt[pos : m.start()]), _group(m.group(1), name, seen)]
        pos = m.end()
    parts.append(_literal(fmt[pos:]))
    return re.compile("".join(parts) + r"\s*", re.DOTALL)


def _size_from_name(name: str) -> int | None:
    found = _SIZE_IN_NAME(name.strip())
    return parse_int(found.group(1)) if found else None


def _numbers(text: str) -> tuple[int, ...]:
    """The comma-separated numbers of a report; none when one is past Java's int range."""
    values = tuple(parse_int(v) for v in text.replace(" ", "").split(","))
    return () if None in values else values  # type: ignore[return-value]


def _faces(button: DiceButtonDef, texts: list[str]) -> tuple[tuple[int, ...], int | None]:
    """A special roll's face numbers, where each face text names one face of its die."""
    dice = []
    for faces, text in zip(button.special_faces, texts, strict=False):
        if faces.count(text) != 1:
            return (), None
        dice.append(faces.index(text) + 1)
    sizes = {len(f) for f in button.special_faces}
    return tuple(dice), sizes.pop() if len(sizes) == 1 else None


def _reading(m: re.Match[str], button: DiceButtonDef | None) -> ReportRoll:
    name = button.name if button else m.group("name")
    found = m.groupdict()
    total = parse_int(found["total"]) if found.get("total") else None
    specials = sorted((k for k in found if k.startswith("result_")), key=lambda k: int(k[7:]))
    if specials:
        texts = [found[k] for k in specials]
        dice, sides = _faces(button, texts) if button else ((), None)
        return ReportRoll(name, ",".join(texts), dice, sides, total, found.get("player"))
    result = found.get("result") or ""
    values = _numbers(result) if result else ()
    sides = button.n_sides if button and button.kind == "DiceButton" else _size_from_name(name)
    if button and button.report_total:  # $result$ is then the total, not the dice
        return ReportRoll(name, result, (), sides, total or (values[0] if values else None), found.get("player"))
    plus, extra = (button.plus, button.add_to_total) if button else (0, 0)
    dice = tuple(v - plus for v in values)  # VASSAL adds `plus` to every die it reports
    if total is None and values:
        total = sum(values) + extra
    return ReportRoll(name, result, dice, sides, total, found.get("player"))


def _bodies(text: str) -> list[str]:
    """The formatted report a chat text may be: VASSAL writes ``*`` + a report that starts
    with ``*``, else ``* `` + the report; a replay's chat line already has it stripped."""
    if text.startswith("**"):
        return [text[1:], text]
    if text.startswith("* "):
        return [text[2:], text]
    return [text]


class ReportReader:
    """Reads die rolls from report texts with the formats of `buttons`, then VASSAL's
    default format for any button, then the labelled-roll fallback (marked heuristic)."""

    def __init__(self, buttons: Iterable[DiceButtonDef] = ()) -> None:
        self.formats: list[tuple[re.Pattern[str], DiceButtonDef | None]] = []
        for b in buttons:
            pattern = format_regex(b.report_format, b.name)
            if pattern is not None:
                self.formats.append((pattern, b))
        self.formats.append((format_regex(DEFAULT_FORMAT), None))  # type: ignore[arg-type]

    def __call__(self, text: str) -> ReportRoll | None:
        """The roll `text` reports (a chat message ``* …`` or its body), or None."""
        bodies = _bodies(text)
        for pattern, button in self.formats:
            for body in bodies:
                m = pattern.fullmatch(body)
                if m is not None:
                    return _reading(m, button)
        for body in bodies:
            v = _LABELLED_ROLL(body)
            if v is not None:
                dice = _numbers(v.group("result"))
                return ReportRoll(
                    v.group("name"), v.group("result"), dice, 6, sum(dice), v.group("player"), heuristic=True
                )
        return None


def report_reader(module: Module | None) -> ReportReader:
    """A reader for the module's dice buttons (VASSAL's default format alone without one)."""
    return ReportReader(module.dice_buttons if module else ())
