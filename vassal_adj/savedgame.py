"""A saved game or log as read from disk, and written back losslessly."""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from vassal_adj.codec.archive import Archive, StrPath, write_archive
from vassal_adj.codec.obfuscation import Codec, decode_saved_game, encode_saved_game
from vassal_adj.errors import FormatError, UsageError, Where
from vassal_adj.model.module import Module
from vassal_adj.model.pieces import Piece
from vassal_adj.parse import records
from vassal_adj.parse.commands import Node, encode, iter_nodes, log_steps, parse_stream
from vassal_adj.parse.secrets import all_secrets

# Every saved game and log is one command tree whose root is this command (spec 5.2, 5.6).
_ROOT_COMMAND = "begin_save"
# Zip timestamps of saves this tool creates: fixed, so that generated files are reproducible.
_FIXED_DATE = (2026, 1, 1, 0, 0, 0)


@dataclass(eq=False)
class SavedGame:
    """A `.vsav` or `.vlog` (or an old unzipped save): its archive, codec and command tree.

    `root` is the command tree; `text` the decoded `savedGame` text it came from. Editing the
    tree and calling `write` re-encodes only what changed; an unchanged game is written back
    with the original `savedGame` bytes.
    """

    path: str
    archive: Archive
    codec: Codec
    text: str
    root: Node
    metadata: dict[str, str]
    module_metadata: dict[str, str]

    @property
    def is_log(self) -> bool:
        """True when the stream has logged steps after ``end_save`` (a `.vlog`)."""
        return bool(log_steps(self.root))

    @property
    def commands(self) -> list[records.Record]:
        """Every command record, depth first in execution order (the root's own first)."""
        return [node.command for _, _, node in iter_nodes(self.root)]

    def nodes(self) -> Iterator[tuple[int, int, Node]]:
        """(index, depth, node) for every node of the command tree, depth first."""
        return iter_nodes(self.root)

    def board_selection(self, map_name_or_id: str) -> list[tuple[str, bool, int, int]] | None:
        """The (board, reversed, column, row) choices the save's BoardPicker made for a map,
        or None when it made none (then the map's default layout applies)."""
        from vassal_adj.parse.places import board_selections

        return board_selections(self.root).get(map_name_or_id)

    def pieces(self, module: Module | None = None) -> list[Piece]:
        """Every real piece of the position (stacks and decks are not pieces), in save order, on
        the map and at the position VASSAL shows it, with its name; for a log, the position it
        starts from.

        With the `module`, each piece also gets the label VASSAL shows where it is and its map's
        name (a save may refer to a map by id); `parse.places.missing_maps` and `missing_boards`
        say what the module lacks.
        """
        from vassal_adj.parse.builder import game_pieces

        return game_pieces(self.root, module, self.path)

    def secrets(self) -> set[str]:
        """Player passwords found in the stream; they must never reach any output."""
        return all_secrets(self.root)

    def encoded_text(self) -> str:
        return encode(self.root)

    def write(
        self, path: StrPath, *, codec: Codec | None = None, form: str | None = None, protect: Iterable[StrPath] = ()
    ) -> None:
        """Write the game to a new file, atomically, in the form it was read.

        The same form, key and hex case are used unless `codec` is given; `form` (``"vcsk"``,
        the hex form VASSAL 3.0-3.7 write and read, or ``"vobs"``, the binary form of VASSAL
        3.8, which older versions cannot open) converts to that form (`Codec.converted`). The
        other entries are copied unchanged. The input file is never overwritten.
        """
        use = codec or self.codec
        if form is not None:
            use = use.converted(form)
        text = encode(self.root)
        if text == self.text and use == self.codec and self.archive.entries.get("savedGame") is not None:
            payload = self.archive.entries["savedGame"]
        else:
            payload = encode_saved_game(text, use)
        write_archive(path, self.archive, {"savedGame": payload}, protect=[self.path, *protect])

    @classmethod
    def new(
        cls,
        text: str,
        *,
        codec: Codec,
        savedata: bytes | None = None,
        moduledata: bytes | None = None,
        path: str = "<new>",
    ) -> SavedGame:
        """A game made from command text, ready to `write` as a zip VASSAL opens."""
        entries = {"savedGame": encode_saved_game(text, codec)}
        if savedata is not None:
            entries["savedata"] = savedata
        if moduledata is not None:
            entries["moduledata"] = moduledata
        infos = {}
        for name in entries:
            info = zipfile.ZipInfo(name, date_time=_FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            infos[name] = info
        archive = Archive(path=path, form="zip", entries=entries, infos=infos)
        root = parse_stream(text, Where(path=path, entry="savedGame"))
        return cls(path, archive, codec, text, root, {}, {})


def saved_game_from_archive(archive: Archive) -> SavedGame:
    """Decode and parse the `savedGame` entry of an archive already read."""
    # VASSAL's own metadata files read without lxml, any other with it (parse/metadata.py)
    from vassal_adj.parse.metadata import parse_metadata

    payload = archive.entries.get("savedGame")
    if payload is None:
        raise UsageError("not a saved game or log: no savedGame entry", Where(path=archive.path))
    where = Where(path=archive.path, entry=None if archive.form == "plain" else "savedGame")
    text, codec = decode_saved_game(payload, where)
    _require_game_text(text, codec, where)
    root = parse_stream(text, where)
    meta = {}
    module_meta = {}
    if "savedata" in archive.entries:
        meta = parse_metadata(archive.entries["savedata"], path=archive.path, entry="savedata")
    if "moduledata" in archive.entries:
        module_meta = parse_metadata(archive.entries["moduledata"], path=archive.path, entry="moduledata")
    return SavedGame(archive.path, archive, codec, text, root, meta, module_meta)


def _require_game_text(text: str, codec: Codec, where: Where) -> None:
    """Refuse a `savedGame` that decodes to no game, rather than read it as an empty one.

    Such text has no ``begin_save`` root, or holds a NUL, which no command VASSAL writes
    does: binary data read as text, e.g. a 3.8 (``VOBS``) entry by a reader that knows only
    ``!VCSK``, an unknown later form, or garbage.
    """
    if codec.obfuscated:
        what = f"the savedGame, de-obfuscated ({codec.form} form), is not a saved game's command text"
    else:
        what = (
            "the savedGame is neither obfuscated (no '!VCSK' header of VASSAL 3.0-3.7, no 'VOBS' "
            "header of VASSAL 3.8) nor a saved game's command text"
        )
    if not (text == _ROOT_COMMAND or text.startswith(_ROOT_COMMAND + "\x1b")):
        raise FormatError(f"{what}: it starts with {text[:16]!r}, not {_ROOT_COMMAND!r}", where)
    nul = text.find("\0")
    if nul >= 0:
        raise FormatError(
            f"{what}: binary data, a NUL at character {nul} (after {text[max(0, nul - 16) : nul]!r})", where
        )
