"""Rules: pure functions from a game state (and a pack's parameters) to findings.

They never raise for a violation and never print; see DESIGN.md.
"""
