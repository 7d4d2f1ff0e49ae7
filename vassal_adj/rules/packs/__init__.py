"""The rule pack format as the rules read it: the validated `RulePack` (`pack`), its context and
parameter readers (`pack_ctx`, `pack_rules`, `pack_dice`), scenarios and state tables
(`pack_scenarios`, `pack_state`), and the mapping of pieces to units (`unitmap`). Reading packs from
disk is `vassal_adj.packs` (I/O stays out of `rules/`).
"""
