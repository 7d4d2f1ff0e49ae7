"""Free text from a file (chat, piece names, VASSAL's report HTML) made safe for each output format.

VASSAL shows chat and reports as HTML: a module's report may hold ``<b>``, ``<img>`` or
``<span style=...>``, and entities such as ``&lt;``. Every text format shows that text reduced
to its words (`plain`): the tags of HTML elements are dropped (an image by its ``alt`` text, if
any) and entities decoded. Only tags that name an HTML element go, so a player's ``<Erwin>``
or ``<observer>`` stays.

Then each format escapes what its renderer would read as markup:

- text: nothing more.
- markdown (`md`): every character CommonMark (and GitHub's tables and strike-through) gives
  a meaning to inside a line is backslash-escaped (``\\ ` * _ [ ] < | ~ &``); GitHub and
  Discourse, the VASSAL forum, both render ``\\<`` as ``<``, so ``<Erwin>`` no longer vanishes
  as an unknown HTML tag. ``>``, ``#`` and ``!`` mean something only at a line's start or
  before ``[``: free text never starts a line (it follows a list marker or a label).
- bbcode (`bb`): BoardGameGeek's markup has no documented escape for ``[`` (its tags are
  parsed even inside ``[c]``), and it drops everything after a ``<`` followed by a letter.
  So ``[`` and ``]`` become ``(`` and ``)``, and ``<`` becomes ``‹`` (U+2039): the text stays
  readable, though not character for character (``[b]x[/b]`` in a chat shows as ``(b)x(/b)``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["STYLES", "SUMMARY_CHARS", "SUMMARY_LINES", "Style", "bb", "fit_post", "md", "plain"]

# A --summary post: Discord takes 2,000 characters; 1,900 leaves room for a line of the poster's own.
SUMMARY_LINES, SUMMARY_CHARS = 30, 1900
_LINE = 200  # the longest line of a summary

# HTML elements a VASSAL report or chat line may carry (Java's HTML 3.2 renderer knows no more).
_ELEMENTS = (
    "a|b|big|blockquote|body|br|center|code|dd|div|dl|dt|em|font|h[1-6]|head|hr|html|i|img|li|ol|p|pre|"
    "s|small|span|strike|strong|sub|sup|table|td|th|tr|tt|u|ul"
)
_BREAKS = re.compile(r"\s*[\r\n\t]\s*")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<|~&])")


@functools.cache
def _tags() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The patterns of an element tag and of an image's alt text, compiled when a text holds a
    "<": most hold none, and compiling them is 0.6 ms of `check` (issue 10)."""
    return (
        re.compile(rf"<(/?)({_ELEMENTS})(\s[^<>]*)?/?>", re.IGNORECASE),
        re.compile(r"""\balt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.IGNORECASE),
    )


def _tag_text(m: re.Match[str]) -> str:
    if m.group(2).lower() == "img" and (alt := _tags()[1].search(m.group(3) or "")):
        return next(g for g in alt.groups() if g is not None)
    return " " if m.group(2).lower() in ("br", "p", "div", "li", "tr", "td", "th", "hr") else ""


def plain(text: str) -> str:
    """`text` without VASSAL's HTML: element tags dropped (an image by its alt text), entities
    decoded, on one line (spaces within it kept: the text report aligns its columns)."""
    if "<" in text:  # no tag without one
        text = _tags()[0].sub(_tag_text, text)
    return _BREAKS.sub(" ", _unescape(text)).strip()


def _unescape(text: str) -> str:
    """html.unescape, which returns a text without "&" as it is: html and its table of entities
    are imported only for a text that may hold one (1 ms of `check`, issue 10)."""
    if "&" not in text:
        return text
    import html

    return html.unescape(text)


def md(text: str) -> str:
    """`text` as plain Markdown text: reduced by `plain`, every markup character escaped."""
    return _MD_SPECIAL.sub(r"\\\1", plain(text))


def bb(text: str) -> str:
    """`text` as plain BBCode text for BoardGameGeek: reduced by `plain`, ``[``/``]`` shown
    as ``(``/``)`` and ``<`` as ``‹`` (see the module's docstring)."""
    return plain(text).replace("[", "(").replace("]", ")").replace("<", "\u2039")


@dataclass(frozen=True)
class Style:
    """How one text format marks a report's parts. `esc` makes free text safe (above); the
    other methods take text already escaped. `block` is BBCode's fixed-width ``[c]`` (a move
    list), `fold` its spoiler ``[o]`` (the long part); the other formats show both as they are."""

    name: str
    esc: Callable[[str], str]

    def title(self, text: str) -> str:
        return {"markdown": f"# {text}", "bbcode": f"[b]{text}[/b]"}.get(self.name, text)

    def heading(self, text: str) -> str:
        return {"markdown": f"## {text}", "bbcode": f"[b]{text}[/b]"}.get(self.name, text)

    def subheading(self, text: str) -> str:
        return {"markdown": f"### {text}", "bbcode": f"[i]{text}[/i]"}.get(self.name, f"{text}:")

    def item(self, text: str) -> str:
        return {"markdown": f"- {text}", "bbcode": text}.get(self.name, f"  {text}")

    def strong(self, text: str) -> str:
        return {"markdown": f"**{text}**", "bbcode": f"[b]{text}[/b]"}.get(self.name, text)

    def block(self, lines: list[str]) -> list[str]:
        return ["[c]", *lines, "[/c]"] if self.name == "bbcode" else lines

    def fold(self, lines: list[str]) -> list[str]:
        return ["[o]", *lines, "[/o]"] if self.name == "bbcode" else lines


STYLES = {"text": Style("text", plain), "markdown": Style("markdown", md), "bbcode": Style("bbcode", bb)}


def _cut(line: str) -> str:
    return line if len(line) <= _LINE else line[: _LINE - 1] + "…"


def fit_post(head: list[str], items: list[str], tail: list[str], rest: Callable[[int], str]) -> str:
    """A --summary post: `head`, as many of `items` as fit, `rest(n)` for the n left out, then
    `tail`, each line cut at 200 characters; at most SUMMARY_LINES lines and SUMMARY_CHARS
    characters (a tail too long for them loses its last lines)."""
    tail = [_cut(x) for x in tail]
    shown: list[str] = []
    for item in map(_cut, items):
        if (
            len(head) + len(shown) + len(tail) + 2 > SUMMARY_LINES
            or len("\n".join([*head, *shown, item, *tail])) > SUMMARY_CHARS - 80
        ):
            break
        shown.append(item)
    if len(shown) < len(items):
        shown.append(rest(len(items) - len(shown)))
    lines = [*head, *shown, *tail]
    while len("\n".join(lines)) > SUMMARY_CHARS or len(lines) > SUMMARY_LINES:
        lines.pop()
    return "\n".join(lines)
