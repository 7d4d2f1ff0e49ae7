"""The registered adapter of ``marker.state`` (RULES-MAP N21): the pack's ``states`` entries read
into audits of marker_state.py. A ValueError names the key path (``states[1].reset_at: ...``), which
the engine makes a PackError.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vassal_adj.model.state import GameState
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.implementations import severity_of
from vassal_adj.rules.mechanisms.marker_state import WITHIN, MarkerState, Requirement, check_states, window
from vassal_adj.rules.mechanisms.param_values import names, word
from vassal_adj.rules.param_shape import Each, Table, shaped
from vassal_adj.rules.registry import REQUIRED, Param, register
from vassal_adj.rules.results import Finding
from vassal_adj.rules.select import Selector, selector_at

__all__ = ["STATES", "marker_state", "states_from"]

REQUIRES = Table(
    {"units": "selector", "within": "str", "boxes": "list[str]", "what": "str"}, required=("units", "within")
)
STATES = Each(
    Table(
        {
            "flag": "str",
            "units": "selector",
            "reset_at": "str",
            "set_from": "str",
            "requires": REQUIRES,
            "excludes": REQUIRES,
            "rule_ref": "str",
            "severity": "str",
        }
    )
)


def _entry(data: Mapping[str, Any], at: str, phases: tuple[str, ...], ref: str) -> MarkerState:
    flag = word(data["flag"], f"{at}.flag") if "flag" in data else ""
    units = selector_at(data["units"], f"{at}.units") if "units" in data else Selector()
    if not {"reset_at", "requires", "excludes"} & set(data):
        raise ValueError(f"{at}: expected 'reset_at' (a reset), 'requires' (a requirement), 'excludes' or more")
    allowed, words = None, ""
    if "reset_at" in data:
        if not flag:
            raise ValueError(f"{at}.flag: a reset needs the flag that is reset")
        try:
            allowed, words = window(phases, data["reset_at"], data.get("set_from", ""))
        except ValueError as e:
            raise ValueError(f"{at}.{e}") from None
    elif "set_from" in data:
        raise ValueError(f"{at}.set_from: goes with 'reset_at'")
    requires = None
    if "requires" in data:
        need = data["requires"]
        if need["within"] not in WITHIN:
            raise ValueError(f"{at}.requires.within: expected one of {', '.join(WITHIN)}, got {need['within']!r}")
        boxes = names(need["boxes"], f"{at}.requires.boxes") if "boxes" in need else ()
        what = word(need["what"], f"{at}.requires.what") if "what" in need else ""
        requires = Requirement(selector_at(need["units"], f"{at}.requires.units"), need["within"], boxes, what)
    excludes = None
    if "excludes" in data:
        bar = data["excludes"]
        if bar["within"] != "hex":
            raise ValueError(f"{at}.excludes.within: expected 'hex', got {bar['within']!r}")
        what = word(bar["what"], f"{at}.excludes.what") if "what" in bar else ""
        excludes = Requirement(selector_at(bar["units"], f"{at}.excludes.units"), "hex", (), what)
    return MarkerState(
        units,
        word(data.get("rule_ref", ref), f"{at}.rule_ref"),
        flag,
        phases,
        allowed,
        words,
        requires,
        severity_of(data.get("severity", "error"), f"{at}.severity"),
        excludes,
    )


def states_from(value: object, phases: tuple[str, ...], ref: str, path: str = "states") -> tuple[MarkerState, ...]:
    """The audits of a pack's ``states = [...]`` (`STATES`), each citing its own `rule_ref` or `ref`."""
    if not isinstance(value, (list, tuple)) or not value:
        raise ValueError(f"{path}: expected a non-empty list of state tables, got {value!r}")
    shaped(STATES, value, path)
    return tuple(_entry(data, f"{path}[{i}]", phases, ref) for i, data in enumerate(value))


@register(
    "marker.state",
    params={
        "states": Param(
            REQUIRED,
            "list",
            shape=STATES,
            doc="[{ flag, units = selector, reset_at = 'turn-start' / 'after-phase:<id>', set_from = phase, "
            "requires = { units = selector, within = 'formation' / 'hex', boxes, what }, "
            "excludes = { units = selector, within = 'hex', what }, rule_ref, severity }]",
        ),
        "phases": Param((), "list[str]", "the phase ids of a Game-Turn, in order (needed by reset_at)"),
    },
)
def marker_state(state: GameState, ctx: RuleContext, p: Mapping[str, Any]) -> list[Finding]:
    """Flags that must be gone at a moment of the turn, and units that need another unit of their formation or hex."""
    ref = ctx.rule.rule_ref if ctx.rule is not None else ""
    audits = states_from(p["states"], tuple(p["phases"]), ref)
    return check_states(state, audits, cite=lambda r: f"{ctx.pack_id}:{r}", label=ctx.label)
