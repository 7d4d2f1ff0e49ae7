"""The exception tree, and `Where`: the place in a file an error or record comes from.

Exceptions mean the tool cannot go on (bad input, a bad pack, a bad command line). Rule
violations are never exceptions; they are findings.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Where:
    """A place in an input: file, zip entry, command index, line, offset (any may be unknown)."""

    path: str | None = None
    entry: str | None = None
    command: int | None = None
    line: int | None = None
    offset: int | None = None

    def __str__(self) -> str:
        head = self.path or "<input>"
        if self.entry is not None:
            head += f"!{self.entry}"
        parts = []
        if self.command is not None:
            parts.append(f"command {self.command}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.offset is not None:
            parts.append(f"offset {self.offset}")
        return head + (": " + ", ".join(parts) if parts else "")

    def but(self, **changes: object) -> Where:
        """A copy with some fields changed, e.g. ``where.but(command=12)``."""
        return replace(self, **changes)  # type: ignore[arg-type]


class VassalAdjError(Exception):
    """Root of every error the tool reports to the user (exit status 2 on the command line)."""

    def __init__(self, message: str, where: Where | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        if self.where is None:
            return self.message
        return f"{self.where}: {self.message}"

    def located(self, **fields: object) -> VassalAdjError:
        """The same error with unknown parts of its place filled in (known parts are kept).

        Lower layers know the offset, upper layers the file name: each adds what it knows.
        """
        current = self.where or Where()
        filled = {k: v for k, v in fields.items() if getattr(current, k) is None}
        err = type(self)(self.message, current.but(**filled))
        err.__cause__ = self.__cause__
        return err


class FormatError(VassalAdjError):
    """An input file is not what it claims: bad zip, bad obfuscation, bad command, bad XML."""


class PackError(VassalAdjError):
    """A rule pack is invalid (the message names the file and the key path)."""


class UsageError(VassalAdjError):
    """The command line or API was used wrongly (unknown map, missing module, ...)."""
