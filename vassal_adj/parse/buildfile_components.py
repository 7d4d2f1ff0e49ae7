"""buildFile components that are not maps or pieces: dice buttons and turn trackers (7.7)."""

from __future__ import annotations

from lxml import etree

from vassal_adj.model.module import DiceButtonDef, TurnLevelDef
from vassal_adj.parse.buildfile_grids import Values, java_bool
from vassal_adj.parse.tokens import split

_M = "VASSAL.build.module."
SPECIAL_DICE_BUTTON = _M + "SpecialDiceButton"
SPECIAL_DIE = _M + "SpecialDie"
SPECIAL_DIE_FACE = _M + "SpecialDieFace"
COUNTER_LEVEL = _M + "turn.CounterTurnLevel"
LIST_LEVEL = _M + "turn.ListTurnLevel"
# VASSAL's default report formats, used when the attribute is absent.
_DICE_REPORT = "** $name$ = $result$ *** &lt;$PlayerName$&gt;"
_SPECIAL_DICE_REPORT = "** $name$ = [$result1$] *** &lt;$PlayerName$&gt;"


def parse_dice_button(el: etree._Element, values: Values) -> DiceButtonDef:
    """A DiceButton, or a SpecialDiceButton with the faces of each of its dice."""
    attrs = values.attributes(el)
    name = el.get("name") or el.get("label") or ""
    if el.tag == SPECIAL_DICE_BUTTON:
        dice = [d for d in el if d.tag == SPECIAL_DIE]
        faces = tuple(tuple(f.get("text", "") for f in d if f.tag == SPECIAL_DIE_FACE) for d in dice)
        return DiceButtonDef(
            name=name,
            n_dice=len(dice),
            n_sides=max((len(f) for f in faces), default=0),
            plus=0,
            add_to_total=0,
            report_total=False,
            report_format=el.get("format", _SPECIAL_DICE_REPORT),
            kind="SpecialDiceButton",
            attributes=attrs,
            special_faces=faces,
        )
    lenient = values.lenient_int
    return DiceButtonDef(
        name=name,
        n_dice=lenient(el, "nDice", 2),
        n_sides=lenient(el, "nSides", 6),
        plus=lenient(el, "plus", 0),
        add_to_total=lenient(el, "addToTotal", 0),
        report_total=java_bool(el.get("reportTotal")),
        report_format=el.get("reportFormat", _DICE_REPORT),
        kind="DiceButton",
        attributes=attrs,
    )


def parse_turn_levels(el: etree._Element, values: Values) -> tuple[TurnLevelDef, ...]:
    """The counter and list levels under a TurnTracker or a level, nested to any depth."""
    levels = []
    lenient = values.lenient_int
    for child in el:
        if child.tag not in (COUNTER_LEVEL, LIST_LEVEL):
            continue
        items = split(child.get("list"), ",") if child.get("list") else []
        levels.append(
            TurnLevelDef(
                kind="counter" if child.tag == COUNTER_LEVEL else "list",
                name=child.get("name", ""),
                property=child.get("property", ""),
                start=lenient(child, "start", 1),
                incr=lenient(child, "incr", 1),
                loop=java_bool(child.get("loop")),
                loop_limit=lenient(child, "loopLimit", -1),
                items=tuple(items),
                levels=parse_turn_levels(child, values),
                turn_format=child.get("turnFormat", "$value$"),
            )
        )
    return tuple(levels)
