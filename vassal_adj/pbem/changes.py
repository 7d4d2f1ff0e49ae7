"""Piece property changes in a player's words: a Layer by the name of its new level, other
properties as ``name 'before' -> 'after'``.

`verify`'s continuity findings (pbem/continuity.py) and its step lines (report/verify_steps.py)
word the same changes the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: a check of a save needs no log events (startup time)
    from vassal_adj.model.events import PropertyChange

__all__ = ["change_text", "layer_changes"]

# What a Layer answers besides its level (VASSAL's Embellishment.getProperty, spec 6.6).
_LAYER_PARTS = ("_Level", "_Active", "_Name", "_Image")


def layer_changes(changes: Sequence[PropertyChange]) -> dict[str, dict[str, PropertyChange]]:
    """The changes that belong to a Layer, by layer name: a layer whose level or activity
    changes always changes its ``<layer>_Level`` (the signed state), which marks the group;
    its ``_Active``, ``_Name`` and ``_Image`` join it."""
    by_name = {c.name: c for c in changes}
    layers = {
        c.name[: -len("_Level")]
        for c in changes
        if c.name.endswith("_Level") and c.before is not None and c.after is not None
    }
    return {
        layer: {part: by_name[layer + part] for part in _LAYER_PARTS if layer + part in by_name}
        for layer in sorted(layers)
    }


def _level_words(layer: str, parts: dict[str, PropertyChange]) -> str:
    """ "Step: reduced" (the level's name, less the ``+`` and the brackets that make it a
    suffix or prefix), "Step: level 2" (no name, or one the changes do not repeat because it
    did not change), "Step: off" (the layer no longer shown)."""
    label = layer or "layer"
    level = parts["_Level"].after or ""
    active = parts["_Active"].after == "true" if "_Active" in parts else level[:1] not in ("-", "0", "")
    if not active:
        return f"{label}: off"
    words = ((parts["_Name"].after or "") if "_Name" in parts else "").strip(" +")
    if words[:1] + words[-1:] in ("()", "[]"):
        words = words[1:-1].strip()
    return f"{label}: {words}" if words else f"{label}: level {level.lstrip('-')}"


def change_text(changes: Sequence[PropertyChange], renamed: bool = False) -> str:
    """Property changes in a player's words: each Layer by its name and its new level's name
    (not the raw ``_Level``/``_Active``/``_Name``/``_Image`` values), the other properties as
    ``name 'before' -> 'after'``. With `renamed` (the line already shows the new name),
    ``PieceName``, which only repeats it, is left out."""
    layers = layer_changes(changes)
    grouped = {layer + part for layer, parts in layers.items() for part in parts}
    words = [_level_words(layer, parts) for layer, parts in layers.items()]

    def show(v: str | None) -> str:
        return "(none)" if v is None else repr(v)

    words += [
        f"{c.name} {show(c.before)} -> {show(c.after)}"
        for c in changes
        if c.name not in grouped and not (renamed and c.name == "PieceName")
    ]
    return ", ".join(words)
