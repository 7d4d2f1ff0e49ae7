"""What a save's global properties hold: each property's value as the save leaves it.

    global_values(module, game.root)       # {"French Morale": "4", "Weather": "Mist", ...}

A property starts at the module's initial value; a save restores it (``GlobalProperty``) and a
log's steps change it (``MutableProperty``), the last command winning, as VASSAL replays them.
Properties of a map or zone are keyed by name as well: a pack names the ones it reads.
"""

from __future__ import annotations

from vassal_adj.model.module import Module
from vassal_adj.parse import records as r
from vassal_adj.parse.command_decoders import decode_command
from vassal_adj.parse.commands import Node, iter_texts, unlogged

__all__ = ["global_values"]

_PREFIXES = ("GlobalProperty\t", "MutableProperty\t")


def global_values(module: Module, root: Node) -> dict[str, str]:
    values = {p.name: p.initial_value for p in module.global_properties}
    for _, text in iter_texts(root, select=lambda t: "Property\t" in t):
        text = unlogged(text)
        if not text.startswith(_PREFIXES):
            continue
        rec = decode_command(text)
        if isinstance(rec, r.GlobalProperty):
            values[rec.name] = rec.value
        elif isinstance(rec, r.MutableProperty):
            values[rec.name] = rec.new
    return values
