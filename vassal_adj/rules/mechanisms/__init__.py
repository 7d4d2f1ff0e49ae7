"""The rule mechanisms, one module per family (movement, zoc, stacking, supply, setup, reinforcements,
withdrawals, victory, displacement, ...): general, parameterised by a pack, naming no game.
"""
