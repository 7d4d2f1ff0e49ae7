"""Reading VASSAL archives safely and writing them back atomically.

Every VASSAL file is a zip (VASSAL-FORMATS.md section 1), except very old or hand-made saves
that are the bare `savedGame` content. Inputs are untrusted: sizes, counts, ratios and entry
names are bounded or checked before anything is kept, and any failure of the zip machinery
becomes a `FormatError` naming the file and the entry.
"""

from __future__ import annotations

import io
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import BinaryIO

from vassal_adj import limits as bounds
from vassal_adj.codec.atomic import StrPath, write_atomic, write_bytes_atomic
from vassal_adj.errors import FormatError, UsageError, Where

_MiB = 1024 * 1024
_CHUNK = _MiB

_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")  # a local file header; an empty zip's end record
_PLAIN_SAVE_STARTS = (b"!VCSK", b"VOBS", b"begin_save")  # the headers of spec 3 and 3.1, or plain text
# java.util.zip, which VASSAL reads with, knows only these two; refusing the others also keeps
# bzip2/lzma out, whose decompressors zipfile runs without an output bound.
_SUPPORTED_COMPRESSION = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
_DRIVE = re.compile(r"^[A-Za-z]:")

# Everything the zip machinery raises on damaged input; caught only around zip calls.
_ZIP_ERRORS: tuple[type[BaseException], ...] = (
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    struct.error,
    ValueError,  # includes UnicodeDecodeError of a utf-8 flagged name
    NotImplementedError,
    RuntimeError,  # encrypted entry
    OSError,
    IndexError,
    KeyError,
    OverflowError,
)


@dataclass(frozen=True)
class Limits:
    """Bounds on what an archive may expand to, against zip bombs and runaway memory.

    The defaults were set from the corpus (36 real modules, saves and logs), whose maxima are:
    50 entries (a module), 27.8 MB for one entry and in total (the largest corpus
    save's `savedGame`), and a compression ratio of 44.5 (a miniatures game's saves; the other
    big saves reach 20-37). The defaults leave a wide margin over all of them:

    - ``max_entries`` 20 000: real modules ship hundreds to thousands of piece images; the
      count is read from the end record before the directory (reading 10^5 entries takes 1.4 s).
    - ``max_entry_size`` 512 MiB: 18x the largest entry seen.
    - ``max_total_size`` 1 GiB: 37x the largest total; also the largest file read at all.
    - ``max_ratio`` 500 for entries over ``ratio_min_size`` (1 MiB): 11x the highest ratio seen,
      and below deflate's ceiling (~1032), so a stream of zeros is refused from its header.
      Small entries are exempt: a tiny file may compress absurdly well and harms nobody.
    """

    max_entries: int = bounds.ZIP_ENTRIES.default
    max_entry_size: int = bounds.ENTRY_BYTES.default
    max_total_size: int = bounds.TOTAL_BYTES.default
    max_ratio: float = float(bounds.ZIP_RATIO.default)
    ratio_min_size: int = 1 * _MiB

    @classmethod
    def current(cls) -> Limits:
        """The limits in force (limits.py: the defaults, or what the environment raises them to)."""
        return cls(
            bounds.ZIP_ENTRIES.value, bounds.ENTRY_BYTES.value, bounds.TOTAL_BYTES.value, float(bounds.ZIP_RATIO.value)
        )


DEFAULT_LIMITS = Limits()


def _raise_with(limit: bounds.Limit) -> str:
    return f"; if the file is trusted, raise the limit with the environment variable {limit.env}"


@dataclass
class Archive:
    """An archive's entries, in file order, and what is needed to write it back the same way.

    ``form`` is ``"zip"`` or ``"plain"`` (an unzipped save: one entry, ``savedGame``);
    ``infos`` holds each zip entry's `zipfile.ZipInfo` (empty for the plain form).
    """

    path: str
    form: str
    entries: dict[str, bytes]
    infos: dict[str, zipfile.ZipInfo] = field(default_factory=dict)
    comment: bytes = b""


def read_archive(path: StrPath, limits: Limits | None = None) -> Archive:
    """Read a .vmod/.vmdx/.vsav/.vlog (or any file holding one) into memory.

    What the file is comes from its content, never its name. Any problem, including a missing
    or unreadable file, is a `VassalAdjError` naming the path.
    """
    name = os.fspath(path)
    limits = limits or Limits.current()
    try:
        with open(name, "rb") as f:
            # One read of the stated size, not of the limit (that would allocate the whole
            # limit up front); the size may be wrong (a growing file, a pipe): keep counting.
            first = min(os.fstat(f.fileno()).st_size, limits.max_total_size) + 1
            parts: list[bytes] = []
            got = 0
            while chunk := f.read(first if not parts else _CHUNK):
                parts.append(chunk)
                got += len(chunk)
                if got > limits.max_total_size:
                    raise FormatError(
                        f"file is larger than the limit of {limits.max_total_size} bytes"
                        + _raise_with(bounds.TOTAL_BYTES),
                        Where(path=name),
                    )
    except OSError as e:
        reason = (e.strerror or str(e)).lower()
        raise UsageError(f"cannot read file: {reason}", Where(path=name)) from None
    return archive_from_bytes(b"".join(parts), name, limits)


def archive_from_bytes(data: bytes, path: str, limits: Limits | None = None) -> Archive:
    """Like `read_archive` for content already in memory; `path` is only used in messages."""
    limits = limits or Limits.current()
    if data.startswith(_ZIP_MAGICS):
        return _read_zip(data, path, limits)
    if data.startswith(_PLAIN_SAVE_STARTS):
        if len(data) > limits.max_entry_size:
            raise FormatError(
                f"entry of {len(data)} bytes is larger than the limit of {limits.max_entry_size}"
                + _raise_with(bounds.ENTRY_BYTES),
                Where(path=path, entry="savedGame"),
            )
        return Archive(path=path, form="plain", entries={"savedGame": data})
    # A zip need not start with its first local header (self-extractors, prepended junk);
    # its end record is what identifies it.
    if zipfile.is_zipfile(io.BytesIO(data)):
        return _read_zip(data, path, limits)
    raise FormatError(
        f"not a VASSAL file (neither a zip archive nor a saved game): starts with {data[:16]!r}",
        Where(path=path),
    )


def _unsafe_name(name: str) -> str | None:
    """Why an entry name could escape an extraction directory, or None if it cannot."""
    if name.startswith(("/", "\\")):
        return "an absolute path"
    if _DRIVE.match(name):
        return "a drive letter"
    if ".." in re.split(r"[/\\]", name):
        return "a '..' component"
    return None


def _declared_entries(data: bytes) -> int | None:
    """The entry count of the zip's end record (None when there is none to read): 0xFFFF says
    "see the zip64 record", which only a count of 65,535 or more needs."""
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 65_557))
    return None if at < 0 or at + 22 > len(data) else struct.unpack_from("<H", data, at + 10)[0]


def _read_zip(data: bytes, path: str, limits: Limits) -> Archive:
    where = Where(path=path)
    declared = _declared_entries(data)
    if declared is not None and declared > limits.max_entries:  # before zipfile reads them all
        raise FormatError(
            f"zip archive declares {declared} entries, more than the limit of {limits.max_entries}"
            + _raise_with(bounds.ZIP_ENTRIES),
            where,
        )
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_ERRORS as e:
        raise FormatError(f"corrupt zip archive: {_reason(e)}", where) from e
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_entries:
            raise FormatError(
                f"zip archive has {len(infos)} entries, more than the limit of {limits.max_entries}"
                + _raise_with(bounds.ZIP_ENTRIES),
                where,
            )
        # Duplicate names: the last copy wins, as in java.util.zip.ZipFile (whose hash chains
        # find the latest entry first) and in zipfile; earlier copies are dropped, not kept,
        # so VASSAL and this tool see the same bytes.
        kept: dict[str, zipfile.ZipInfo] = {}
        total = 0
        for info in infos:
            _check_info(info, limits, where.but(entry=info.filename))
            total += info.file_size
            if total > limits.max_total_size:
                raise FormatError(
                    f"zip archive expands to more than the limit of {limits.max_total_size} bytes (declared sizes)"
                    + _raise_with(bounds.TOTAL_BYTES),
                    where.but(entry=info.filename),
                )
            kept.pop(info.filename, None)
            kept[info.filename] = info
        entries: dict[str, bytes] = {}
        budget = limits.max_total_size
        for name, info in kept.items():
            content = _read_entry(zf, info, limits, budget, where.but(entry=name))
            budget -= len(content)
            entries[name] = content
        return Archive(path=path, form="zip", entries=entries, infos=kept, comment=zf.comment)


def _check_info(info: zipfile.ZipInfo, limits: Limits, where: Where) -> None:
    """Refuse an entry from its central-directory record alone."""
    name = info.filename
    why = _unsafe_name(name)
    if why is not None:
        raise FormatError(f"unsafe entry name {name!r}: {why}", where)
    if info.flag_bits & 0x1:
        raise FormatError(f"entry {name!r} is encrypted", where)
    if info.compress_type not in _SUPPORTED_COMPRESSION:
        raise FormatError(
            f"entry {name!r} uses unsupported compression method {info.compress_type!r} (only stored and deflated)",
            where,
        )
    if info.file_size > limits.max_entry_size:
        raise FormatError(
            f"entry {name!r} declares {info.file_size} bytes, more than the limit of {limits.max_entry_size}"
            + _raise_with(bounds.ENTRY_BYTES),
            where,
        )
    if info.file_size > limits.ratio_min_size:
        ratio = info.file_size / max(info.compress_size, 1)
        if ratio > limits.max_ratio:
            raise FormatError(
                f"entry {name!r} compression ratio {ratio:.0f} exceeds the limit of "
                f"{limits.max_ratio:g} (possible zip bomb)" + _raise_with(bounds.ZIP_RATIO),
                where,
            )


def _read_entry(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limits: Limits, budget: int, where: Where) -> bytes:
    """Read one entry in chunks, stopping as soon as it passes a limit.

    zipfile already stops at the declared sizes (and checks the CRC), so the ratio checked
    from the directory holds; counting here again keeps the bound independent of that.
    """
    cap = min(limits.max_entry_size, budget)
    parts: list[bytes] = []
    got = 0
    try:
        with zf.open(info) as f:
            while chunk := f.read(_CHUNK):
                got += len(chunk)
                if got > cap:
                    raise FormatError(
                        f"entry {info.filename!r} expands past the limit of {cap} bytes",
                        where,
                    )
                parts.append(chunk)
    except _ZIP_ERRORS as e:
        raise FormatError(f"corrupt zip entry {info.filename!r}: {_reason(e)}", where) from e
    if got != info.file_size:
        raise FormatError(f"entry {info.filename!r} holds {got} bytes but declares {info.file_size}", where)
    return b"".join(parts)


def _reason(e: BaseException) -> str:
    text = str(e) or type(e).__name__
    return text[:1].lower() + text[1:]


# --- writing ---------------------------------------------------------------------------


def write_archive(
    path: StrPath,
    archive: Archive,
    entries: dict[str, bytes] | None = None,
    protect: Iterable[StrPath] = (),
) -> None:
    """Write `archive` to `path` atomically, with some entries' contents replaced by `entries`.

    Names, order, compression method, dates, attributes and comments of the entries are kept;
    only the contents given in `entries` change (a name not in the archive is a `UsageError`).
    A plain-form archive is written plain. Writing onto `archive.path` or any path in
    `protect` is a `UsageError`: inputs are never modified.
    """
    replaced = entries or {}
    unknown = [n for n in replaced if n not in archive.entries]
    if unknown:
        raise UsageError(
            f"cannot replace entry {unknown[0]!r}: not in the archive", Where(path=os.fspath(path), entry=unknown[0])
        )
    contents = {n: replaced.get(n, data) for n, data in archive.entries.items()}
    guarded = [archive.path, *protect]
    if archive.form == "plain":
        write_bytes_atomic(path, contents["savedGame"], guarded)
        return
    if archive.form != "zip":
        raise UsageError(f"unknown archive form {archive.form!r}", Where(path=archive.path))

    def fill(f: BinaryIO) -> None:
        with zipfile.ZipFile(f, "w") as zf:
            for name, data in contents.items():
                original = archive.infos[name]
                info = _copy_info(original)
                zf.writestr(info, data)
                # zipfile replaces a zero external_attr (what Java writes) by 0600; put the
                # original back before the central directory is written at close.
                info.external_attr = original.external_attr
            zf.comment = archive.comment

    write_atomic(path, fill, guarded)


def _copy_info(original: zipfile.ZipInfo) -> zipfile.ZipInfo:
    # A fresh ZipInfo: zipfile rewrites sizes, CRC and offsets of the one it is given.
    info = zipfile.ZipInfo(original.filename, original.date_time)
    info.compress_type = original.compress_type
    info.comment = original.comment
    # zipfile adds its own zip64 record when needed; a copied one would be duplicated.
    info.extra = _strip_zip64(original.extra)
    info.create_system = original.create_system
    info.create_version = original.create_version
    info.extract_version = original.extract_version
    info.internal_attr = original.internal_attr
    info.external_attr = original.external_attr
    return info


def _strip_zip64(extra: bytes) -> bytes:
    out = []
    i = 0
    while i + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, i)
        if i + 4 + size > len(extra):
            break  # a malformed tail: keep it as it is
        if tag != 0x0001:
            out.append(extra[i : i + 4 + size])
        i += 4 + size
    out.append(extra[i:])
    return b"".join(out)
