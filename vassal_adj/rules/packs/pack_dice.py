"""A pack's chat dice patterns (``[[dice.chat]]``): die rolls that modules report in chat in
their own words, not with a Dice Button's report format (5.4).

Some modules roll dice with pieces and triggers and write the result as a chat line, e.g.
one of the corpus's symbol-dice modules: ``[ Alice rolls 2 dice: CAVx1 XSWx1 ] *``. No buildFile
format describes those lines, so the pack declares a regular expression for them, with named
groups (docs/adding-a-rule-pack.md, "Chat dice"):

* ``player`` (optional): who rolled;
* ``result``: a numbered die's faces, numbers separated by commas or spaces (needs ``sides``);
* ``symbols``: a symbol die's faces, symbols separated by spaces or commas, each either once
  or as ``SYMxN`` for N of them (needs ``faces``: each symbol and how many faces show it).

A pattern is searched in the chat line as the log holds it (HTML tags included).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vassal_adj.rules.packs.pack_ctx import PackContext, join

__all__ = ["ChatDice", "ChatRoll", "read_dice"]

_KEYS = ({"button", "pattern"}, {"sides", "faces", "note"})
_GROUPS = {"player", "result", "symbols"}
_SYMBOL = re.compile(r"(.+?)(?:x(\d+))?")


@dataclass(frozen=True)
class ChatRoll:
    """A roll a pattern read: numbered `dice` (faces 1..sides) or `symbols` (one per die)."""

    button: str
    result: str
    player: str | None
    dice: tuple[int, ...] = ()
    sides: int | None = None
    symbols: tuple[str, ...] = ()
    faces: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int | None:
        return sum(self.dice) if self.dice else None


@dataclass(frozen=True)
class ChatDice:
    """One ``[[dice.chat]]`` entry: the button name its rolls count under, the pattern, and
    the die: `sides` of a numbered die, or the `faces` of a symbol die (symbol, faces showing it)."""

    button: str
    pattern: re.Pattern[str]
    sides: int = 0
    faces: tuple[tuple[str, int], ...] = ()

    def read(self, text: str) -> ChatRoll | None:
        """The roll `text` reports, or None when the pattern does not match or a face is not
        one of the die's (a line read wrong is worse than a line not read)."""
        m = self.pattern.search(text)
        if m is None:
            return None
        found = m.groupdict()
        player = (found.get("player") or "").strip() or None
        if self.faces:
            symbols: list[str] = []
            for item in re.split(r"[\s,]+", found["symbols"].strip()):
                parts = _SYMBOL.fullmatch(item) if item else None
                if parts is None or parts.group(1) not in dict(self.faces):
                    return None
                symbols += [parts.group(1)] * int(parts.group(2) or 1)
            return ChatRoll(self.button, found["symbols"].strip(), player, symbols=tuple(symbols), faces=self.faces)
        values = [v for v in re.split(r"[\s,]+", found["result"].strip()) if v]
        if not values or not all(v.isdigit() and 1 <= int(v) <= self.sides for v in values):
            return None
        return ChatRoll(self.button, ",".join(values), player, tuple(map(int, values)), self.sides)


def _entry(ctx: PackContext, spec: object, path: str) -> ChatDice:
    t = ctx.table(spec, path)
    ctx.keys(t, path, _KEYS)
    text = ctx.typed(t, path, "pattern", "str")
    try:
        pattern = re.compile(text)
    except re.error as e:
        raise ctx.error(join(path, "pattern"), f"bad regular expression {text!r}: {e}") from None
    groups = set(pattern.groupindex)
    if groups - _GROUPS:
        raise ctx.error(
            join(path, "pattern"),
            f"unknown named group(s) {', '.join(sorted(groups - _GROUPS))}: the groups are player, result, symbols",
        )
    if len(groups & {"result", "symbols"}) != 1:
        raise ctx.error(
            join(path, "pattern"), "needs exactly one of the groups 'result' (numbered dice) or 'symbols' (symbol dice)"
        )
    if "symbols" in groups:
        faces = ctx.table(t.get("faces"), join(path, "faces")) if "faces" in t else {}
        if not faces:
            raise ctx.error(join(path, "faces"), "a 'symbols' pattern needs faces = { SYMBOL = faces showing it, ... }")
        for sym, n in faces.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                raise ctx.error(
                    join(path, "faces", sym), f"expected the number of faces showing {sym!r} (1 or more), got {n!r}"
                )
        return ChatDice(ctx.typed(t, path, "button", "str"), pattern, faces=tuple(faces.items()))
    sides = ctx.typed(t, path, "sides", "int", 0)
    if sides < 2:
        raise ctx.error(join(path, "sides"), f"a 'result' pattern needs the die size, sides = 2 or more (got {sides})")
    return ChatDice(ctx.typed(t, path, "button", "str"), pattern, sides=sides)


def read_dice(ctx: PackContext, data: object) -> tuple[ChatDice, ...]:
    """The ``[dice]`` table: ``chat``, a list of patterns (none when the table is absent)."""
    if data is None:
        return ()
    t: Mapping[str, Any] = ctx.table(data, "dice")
    ctx.keys(t, "dice", (set(), {"chat"}))
    entries = t.get("chat", [])
    if not isinstance(entries, list):
        raise ctx.error("dice.chat", "expected a list of tables ([[dice.chat]])")
    return tuple(_entry(ctx, spec, join("dice.chat", i)) for i, spec in enumerate(entries))
