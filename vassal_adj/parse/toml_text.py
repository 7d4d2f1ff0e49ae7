"""TOML text read with every failure a `TOMLDecodeError` (pack files, palettes, name tables).

tomllib hands an integer's digits to `int()`, which refuses more than 4,300 of them with a
bare ValueError (Python's guard against quadratic conversion): a crafted pack or palette would
end in an internal error. Here that is a decode error like any other, which the callers
already turn into a PackError naming the file.
"""

from __future__ import annotations

import tomllib
from typing import Any

__all__ = ["loads"]


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads`, raising only `tomllib.TOMLDecodeError` for text it cannot read."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except ValueError:
        raise tomllib.TOMLDecodeError("a number has more than 4,300 digits") from None
