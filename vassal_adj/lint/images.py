"""Images the module refers to that its archive does not hold (check ``images.missing``).

VASSAL reads an image named ``N`` from the archive entry ``images/N``; failing that, from its own
jar (``/images/N``: the toolbar pictures every module may use, listed in `BUILT_IN`). A board whose
image is missing is drawn blank, a piece or layer without its image is invisible, a button without
its icon shows only its text. The references: board images, the Basic Piece image, every image of
a Layer (``emb2;``) and the Mask's own image (``obs;``) of each piece slot and prototype, and the
icon attributes of the other buildFile components. One finding per missing image, naming its users.
"""

from __future__ import annotations

from collections.abc import Iterator

from vassal_adj.lint.findings import LintFinding, Severity
from vassal_adj.lint.inputs import LintInput
from vassal_adj.parse.tokens import split
from vassal_adj.parse.traits import BasicPiece, Embellishment, Obscurable

__all__ = ["BUILT_IN", "check_images"]

# The images in VASSAL 3.6's Vengine.jar (images/), which a module may name without holding them.
_JAR_IMAGES = """globe_selected.gif mm-gamefolder-closed.png zoomOut.gif playerAway.gif Undo16.gif Save16.gif
    Splash.gif recenter.gif status.gif disconnect.gif black.jpg connect.gif mm-extension-active.png
    getMessages.gif die.gif overview.gif mm-file.png zoomOut.png map.gif lockedRoom.gif StepForward16.gif
    counter.gif camera.gif moved.gif Edit16.gif keyCommand.gif chess_clock.png chart.gif VASSAL-256x256.png
    mm-module.png playerLooking.gif zoomIn.png inventory.gif globe_unselected.gif postMessage.gif notes.gif
    unmoved.gif Splash.png mm-gamefolder-open.png Help16.gif SaveAs16.gif thread.gif zoom.png
    mm-extension-inactive.png zoomIn.gif"""
BUILT_IN = frozenset(_JAR_IMAGES.split())
_SHOWN = 3  # users named in a finding; the rest are counted


def _references(li: LintInput) -> Iterator[tuple[str, str, bool]]:
    """(image name, who uses it, whether it draws a board or piece) for every image the buildFile names."""
    m = li.module
    for mdef in m.maps.values():
        for board in mdef.boards.values():
            if board.image:
                line = f" line {board.line}" if board.line else ""
                yield board.image, f"{m.build_entry}{line}: board {board.name!r} of map {mdef.name!r}", True
    for d in li.definitions:
        if d.piece is None:
            continue
        for trait in d.piece.traits:
            if isinstance(trait, BasicPiece):
                names: tuple[str, ...] = (trait.image,)
            elif isinstance(trait, Embellishment):
                names = trait.image_names
            elif isinstance(trait, Obscurable):
                names = tuple(split(trait.type, ";")[2:3])
            else:
                continue
            for name in names:
                if name:
                    yield name, f"{d.where} ({trait.trait_name})", True
    for el in m.other_elements:
        for key, value in el.attributes.items():
            if value and key.lower().endswith("icon"):
                yield value, f"{m.build_entry} line {el.line}: {el.tag.rpartition('.')[2]} attribute {key}", False


def _present(li: LintInput, name: str) -> bool:
    if name.startswith("/"):  # a resource of VASSAL's jar, e.g. /images/camera.gif
        return name.rpartition("/")[2] in BUILT_IN
    return "images/" + name in li.entries or name in BUILT_IN


def check_images(li: LintInput) -> list[LintFinding]:
    users: dict[str, list[str]] = {}
    drawn: set[str] = set()
    for name, who, draws in _references(li):
        if not _present(li, name):
            users.setdefault(name, []).append(who)
            if draws:
                drawn.add(name)
    lower = {e.lower(): e for e in li.entries if e.startswith("images/")}
    out = []
    for name, who in users.items():
        more = f" and {len(who) - _SHOWN} more" if len(who) > _SHOWN else ""
        near = lower.get(("images/" + name).lower())
        fix = (
            f"the archive has {near!r}: entry names are case-sensitive, rename one to match"
            if near
            else f"add the image as images/{name} to the module, or correct the name where it is used"
        )
        out.append(
            LintFinding(
                "images.missing",
                # a blank board or an invisible piece is a broken module; a button showing its text is not
                Severity.ERROR if name in drawn else Severity.WARNING,
                who[0],
                f"image {name!r} is not in the archive (no entry images/{name}); used by {len(who)} "
                f"place(s): {'; '.join(who[:_SHOWN])}{more}",
                fix,
            )
        )
    return out
