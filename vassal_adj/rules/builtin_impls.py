"""Which rule module of `vassal_adj.rules` registers each built-in implementation.

The package registry (registry.REGISTRY) imports a rule module when a pack first names one of
its implementations, so `check` on a pack of ten rules imports the modules of those rules, not
all of RULE_MODULES (issue 10, startup time: about 10 ms). A name missing here is still found:
the registry then imports every rule module (load_builtin_rules), as it did before this table.
tests/test_registry.py checks that the table is the registry's own, name for name.
"""

from __future__ import annotations

__all__ = ["BUILTIN_IMPLS"]

# implementation name -> its module, relative to vassal_adj.rules
BUILTIN_IMPLS: dict[str, str] = {
    "air.range": "mechanisms.air_range",
    "combat.displacement": "mechanisms.displacement",
    "dice.table": "mechanisms.dice_table",
    "log.action_turns": "mechanisms.action_turns",
    "log.one_source": "mechanisms.action_loc",
    "log.segments": "segments",
    "marker.state": "mechanisms.marker_state_rules",
    "movement.allowance": "mechanisms.movement_rules",
    "movement.restricted": "mechanisms.restricted",
    "placement.near": "mechanisms.placement",
    "reinforcements.schedule": "mechanisms.setup_rules",
    "setup.constraints": "mechanisms.setup_constraints",
    "setup.deployment": "mechanisms.setup_deploy_rules",
    "setup.reference": "mechanisms.setup_reference",
    "stacking.limit": "mechanisms.stacking_rules",
    "stacking.pools": "mechanisms.stacking_rules",
    "supply.hq_chain": "mechanisms.supply_chain_rules",
    "supply.loc": "mechanisms.supply_loc_rules",
    "supply.trace": "mechanisms.implementations",
    "terrain.prohibited": "mechanisms.implementations",
    "track.bounds": "mechanisms.track_bounds",
    "track.ledger": "mechanisms.ap_ledger",
    "transport.modes": "mechanisms.transport_rules",
    "units.alternates": "mechanisms.alternates",
    "units.quota": "mechanisms.quota",
    "victory.conditions": "mechanisms.victory_conditions",
    "victory.points": "mechanisms.victory_rules",
    "victory.tally": "mechanisms.victory_conditions",
    "weather.effects": "mechanisms.movement_rules",
    "withdrawals.schedule": "mechanisms.withdrawals",
    "zoc.engaged": "mechanisms.movement_rules",
}
