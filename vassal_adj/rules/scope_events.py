"""What a state shows of the events a rule's ``when`` names (``after``/``before``, scope.py).

The events are those of the ``events`` tables of the pack's ``reinforcements.schedule`` rules
(a marker in a Game-Turn box, a side within n hexes of a place), read and observed as that
rule reads them (setup_rules.parse_event, setup.observe). Pure.
"""

from __future__ import annotations

from collections.abc import Callable

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.packs.pack_rules import RuleConfig

__all__ = ["event_reader"]


def event_reader(rules: tuple[RuleConfig, ...]) -> Callable[[GameState, RuleContext, str], tuple[str, str]]:
    """A reader for `RuleContext.events`: event name -> ("yes" | "no" | "unknown", why) in a state."""

    def event(state: GameState, ctx: RuleContext, name: str) -> tuple[str, str]:
        # here: only a rule scoped by an event needs the reinforcement machinery (startup time)
        from vassal_adj.rules.mechanisms.setup import moment, observe
        from vassal_adj.rules.mechanisms.setup_rules import parse_boxes, parse_event

        for r in rules:
            if r.impl == "reinforcements.schedule" and name in r.params["events"]:
                turn_box = parse_boxes(r.params["boxes"], r.params["side"], r.params["turn_box_kind"])["turn"]
                seen = observe(
                    parse_event(ctx, name, r.params["events"][name], turn_box),
                    state,
                    moment(state, tuple(r.params["phases"])),
                    ctx.label,
                )
                return seen.status, seen.why
        return "unknown", f"no reinforcements.schedule rule defines event {name!r}"

    return event
