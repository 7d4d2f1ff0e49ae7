"""The Kasserine seed's movement and zone-of-control rules as engine objects, for tests that
exercise the mechanisms with one game's values (the engine itself names no game; the pack gives
these values through pack.toml). Seed: ../shared/seeds/000_b722e3f1059e7821.txt.
"""

from __future__ import annotations

from collections.abc import Mapping

from vassal_adj.rules.mechanisms.movement_params import MovementRules
from vassal_adj.rules.mechanisms.prohibition import Prohibition
from vassal_adj.rules.mechanisms.zoc import ZocRules

# 16.13 "Zones of Control of all unit types extend into Rough terrain"; 20.0 "Zones of Control do not
# extend across unbridged Stream hexsides during any Phase of Poor Weather Game-Turns". Mode
# "sticky" is the standard rules' (and what 19.2 implies).
KASSERINE_ZOC = ZocRules(blocked_in_weather={"poor": frozenset({"stream"})})

# 16.11 rough prohibited to mechanized units but mechanized infantry; 16.12 entry and exit through
# road/trail hexsides; 20.0 poor weather: no crossing unbridged streams, allowances 8+ -5, 7- -2.
ROUGH_16_11 = Prohibition(
    "rough",
    frozenset({"mechanized"}),
    frozenset({"mechanized-infantry"}),
    frozenset({"road", "trail"}),
    "16.11",
    "16.12",
)
POOR_WEATHER_ALLOWANCE: Mapping[str, tuple[tuple[int, int], ...]] = {"poor": ((8, -5), (0, -2))}
KASSERINE_MOVEMENT = MovementRules(
    prohibitions=(ROUGH_16_11,),
    impassable_in_weather={"poor": frozenset({"stream"})},
    weather_allowance=POOR_WEATHER_ALLOWANCE,
    zoc=KASSERINE_ZOC,
)
