"""A game's history from its logs: replay into events (`replay`), the position where a log ends
(`log_end`), positions after every step (`log_state`), moves judged phase by phase and segment by
segment (`verify`), continuity between files (`continuity`), and the dice and undo audit (`audit`,
`dice_stats`, `dice_tests`, `rolls`, `undo_pairs`).
"""
