"""Error messages never show a password (issue 17): a message may quote a field of the file it
names, and a malformed command can put a password in any field (a MovePiece whose fields are
shifted quotes its mover's password as a coordinate)."""

from __future__ import annotations

import os

from vassal_adj.errors import VassalAdjError

__all__ = ["safe_message"]


def safe_message(error: VassalAdjError) -> str:
    """`str(error)` with the passwords of the save or log it names blanked; as it is when the
    file names none or cannot be read far enough to find them."""
    message = str(error)
    path = error.where.path if error.where is not None else None
    if not path or not os.path.isfile(path):
        return message
    # here: only an error pays for reading the file again (startup time, issue 10)
    from vassal_adj.load import load_save
    from vassal_adj.report.describe import REDACTED, loose_redactor

    try:
        pattern = loose_redactor(load_save(path).secrets())
    except VassalAdjError:
        return message  # not a save, or unreadable before its commands: no password was read
    return message if pattern is None else pattern.sub(REDACTED, message)
