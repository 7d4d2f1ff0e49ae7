"""Typed records for single command texts of the command stream (spec 5.3-5.6).

Every record is a frozen dataclass that keeps ``raw``, its own command text, verbatim.
Passwords (VASSAL's per-user "secret", spec 5.7) and the raw texts that may contain them
are declared ``repr=False``, so ``str()``/``repr()`` of a record never shows one. Piece
type and state strings stay raw here; `vassal_adj.parse.traits` decodes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _raw() -> str:
    return field(default="", repr=False)  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Record:
    """Base of all command records."""


@dataclass(frozen=True, slots=True)
class Empty(Record):
    """The null command (empty text): the version check, or the head of a compound."""

    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class BeginSave(Record):
    """``begin_save``: the root of every save."""

    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class EndSave(Record):
    """``end_save``: the game starts; in a log the LOG steps follow it."""

    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class SetupStack(Record):
    """``SETUP_STACK<TAB>``: the module's at-start stacks are already placed."""

    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class AddPiece(Record):
    """``+/id/type/state``: create a piece (`id` may be the word ``null``)."""

    id: str
    type: str = field(repr=False)
    state: str = field(repr=False)
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class RemovePiece(Record):
    """``-/id``: delete a piece."""

    id: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class ChangePiece(Record):
    """``D/id/newState[/oldState]``: replace a piece's whole state."""

    id: str
    new_state: str = field(repr=False)
    old_state: str | None = field(default=None, repr=False)
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class MovePiece(Record):
    """``M/…``: move a piece; map/under ids are None where VASSAL writes ``null``."""

    id: str
    new_map: str | None
    new_x: int
    new_y: int
    new_under: str | None
    old_map: str | None
    old_x: int
    old_y: int
    old_under: str | None
    player: str | None = field(default=None, repr=False)  # the mover's password
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class BoardChoice:
    """One board of a map's board selection (spec 5.5)."""

    name: str
    reversed: bool
    column: int
    row: int


@dataclass(frozen=True, slots=True)
class BoardPicker(Record):
    """``<map>BoardPicker<TAB>…``: the boards selected for one map."""

    map_id: str
    boards: tuple[BoardChoice, ...]
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Player(Record):
    """``PLAYER<TAB>password<TAB>name<TAB>side``: a roster entry."""

    password: str = field(repr=False)
    name: str
    side: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class PlayerRemove(Record):
    """``PYREMOVE<TAB>password``: a player left."""

    password: str = field(repr=False)
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Chat(Record):
    """``CHAT`` + message: a chat line or an automatic report (``* …``)."""

    message: str
    raw: str = _raw()

    @property
    def is_report(self) -> bool:
        """Whether this is an automatic report (moves, dice, turn changes: ``* …``)."""
        return self.message.startswith("*")

    @property
    def speaker(self) -> str | None:
        """The player name of a ``<name> - text`` line (HTML-escaped since 3.4), else None."""
        return _chat_parts(self.message)[0]

    @property
    def body(self) -> str:
        """The text without the speaker prefix, or without the report marker ``*``/``* ``."""
        return _chat_parts(self.message)[1]


def _chat_parts(message: str) -> tuple[str | None, str]:
    for open_, close in (("&lt;", "&gt; - "), ("<", "> - ")):
        if message.startswith(open_):
            end = message.find(close, len(open_))
            if end >= 0:
                return message[len(open_) : end], message[end + len(close) :]
    # Reports: VASSAL prepends "* ", or a single "*" when the text itself starts with "*".
    if message.startswith("* "):
        return None, message[2:]
    if message.startswith("*"):
        return None, message[1:]
    return None, message


@dataclass(frozen=True, slots=True)
class Notes(Record):
    """``NOTES<TAB>``: scenario notes, lines decoded into one ``\\n``-separated text."""

    text: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class PublicNotes(Record):
    """``PNOTES<TAB>``: public notes, lines decoded into one text."""

    text: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class PrivateNote(Record):
    """``PNOTE<TAB>owner<TAB>text``: a player's private note (owner = password)."""

    owner: str = field(repr=False)
    text: str = field(repr=False)
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class SecretNote(Record):
    """``SNOTE<TAB>…``: a secret note (owner = password)."""

    name: str
    owner: str = field(repr=False)
    hidden: bool
    text: str = field(repr=False)
    date: str
    handle: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class MutableProperty(Record):
    """``MutableProperty<TAB>name<TAB>old<TAB>new[<TAB>container]``: a property changed."""

    name: str
    old: str
    new: str
    container: str | None = None
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class GlobalProperty(Record):
    """``GlobalProperty<TAB>;name;value;container``: a global property restored by a save."""

    name: str
    value: str
    container: str | None = None
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class TurnState(Record):
    """``TURN<trackerId><TAB>state``; `levels` are the ``|``-separated top-level states."""

    tracker_id: str
    state: str
    current: int
    levels: tuple[str, ...]
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class ShowResults(Record):
    """``SHOW_RESULTS<TAB>button<TAB>roll…``: a Special Dice Button roll."""

    button: str
    rolls: tuple[int, ...]
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Log(Record):
    """``LOG<TAB>`` + text: one logged command; `inner` is the typed wrapped command."""

    inner: Record
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class LogNull(Record):
    """``LOG<TAB>null``: a logged command that had no encoder; VASSAL skips it on replay."""

    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Undo(Record):
    """``UNDO<TAB>true`` (start of an undo) / ``UNDO<TAB>false`` (its end)."""

    start: bool
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Unmask(Record):
    """``UNMASK<TAB>id…``: the players (passwords) allowed to unmask pieces."""

    ids: tuple[str, ...] = field(repr=False)
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Extension(Record):
    """``EXT<TAB>name<TAB>version``: a loaded module extension."""

    name: str
    version: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Plugin(Record):
    """``PLUGIN<TAB>name<TAB>version``: a loaded plugin."""

    name: str
    version: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class LockScenarioTab(Record):
    """``LOCKSPOTAB<TAB>tab<TAB>user<TAB>password<TAB>date``: a scenario-option tab lock."""

    tab: str
    user: str
    password: str = field(repr=False)
    date: str
    raw: str = _raw()


@dataclass(frozen=True, slots=True)
class Unknown(Record):
    """Any other command, kept byte for byte (its repr shows only the leading word)."""

    raw: str = field(repr=False)

    def __repr__(self) -> str:
        head = self.raw.split("\t", 1)[0].split("/", 1)[0]
        return f"Unknown(head={head[:40]!r}, length={len(self.raw)})"
