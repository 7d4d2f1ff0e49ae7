"""Grid geometry as VASSAL computes it, one way: `hexes` (cube coordinates) -> `numbering`,
`square_numbering` (labels) -> `snapping`, `zones` -> `grid` -> `layout` (the hex layout of a
board), `hex_index`, `edge_hexes` -> `maps` (boards placed on a map); `regions` and `batch` index
and name many points at once.
"""
