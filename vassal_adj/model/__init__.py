"""Pure, frozen data: module definitions, pieces, grids. No I/O, no lxml, no click."""
