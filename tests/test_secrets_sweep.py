"""Every command, every output format: no password and, in a side's view, nothing hidden leaks
(issue 17, "Secrets and hidden information").

The inputs (a save, also in VASSAL 3.8's form, the log of a turn from it, the save after it, a
module whose set-up is that save) hold three passwords with '/' and ';' (VASSAL writes them
escaped, once per level of nesting: r12), one of them only as a Restricted Access owner; pieces
hidden by Mask (owned by a side, by a player) and Invisible traits (one per side), property
values behind them, and a unit a pack flags hidden. Each output (stdout, the -o file, the
commands an annotated copy adds, with its markers' hexes) is searched:

- for any part of a password, in every view;
- in the other side's view (--as SIDE), for the hidden pieces' names and property values, the
  hexes of the invisible ones, and the pack-hidden unit's name;
- in an annotated copy, which every player opens, for the hidden pieces of either side.

Each secret is shown in the referee's view of some output, so a sweep that checks nothing fails.
A side's view must also not change when the other side's invisible piece is elsewhere.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from lint_modules import M, build_file, png, slot, write_module

import vassal_adj
from vassal_adj.cli import main
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.maps import place_map
from vassal_adj.parse.commands import Node, encode, parse_stream
from vassal_adj.parse.tokens import join
from vassal_adj.savedgame import SavedGame

EXAMPLE = REPO / "modules" / "kasserine" / "example"
MODULE = str(EXAMPLE / "Kasserine.vmod")
AXIS_PW = "Xylofon/Quarzit;Vermilion"
ALLIED_PW = "Zinnober;Basalt/Obsidian"
# The password of a player who has left (in no PLAYER entry), found only as the owner of a
# Restricted Access trait: VASSAL stores GameModule.getActiveUserId() as its state.
GONE_PW = "Ausgetreten/Malachit;Ocker"
PW_PARTS = tuple(part for pw in (AXIS_PW, ALLIED_PW, GONE_PW) for part in re.split(r"[/;]", pw))
MASK = "obs;77,130;mask.gif;Mask;G;{side} unit;{access}"
INVISIBLE = "hide;73,130;Hide;;{access}"
# Names, a property value and hexes that appear nowhere else in the inputs or the pack.
AXIS_SECRETS = ("Tiger Ambush", "Decoy Column", "Secret Minefield", "Kobaltwert", "0520", "0521")
ALLIED_SECRETS = ("Phantom Battery", "Nebelwert", "0722", "0723")
PACK_HIDDEN = "Lang"  # the 1-2-9 (Lang) of the Kasserine example, flagged hidden by a copy of the pack


def hex_xy(label: str) -> tuple[int, int]:
    x, y = place_map(vassal_adj.load_module(MODULE).maps["Main Map"]).hex_center(label)
    return int(x), int(y)


def piece(ident: str, traits: list[tuple[str, str]], at: tuple[int, int], name: str) -> str:
    type_text, state_text = f"piece;;;u.png;{name}", f"Main Map;{at[0]};{at[1]};0;0"
    for t, s in reversed(traits):
        # A decorator chain nests: each trait holds the rest, TAB-encoded (spec 6.1).
        type_text, state_text = join([t, type_text], "\t"), join([s, state_text], "\t")
    return join(["+", ident, type_text, state_text], "/")


def pieces(where: dict[str, tuple[int, int]], strength: str) -> list[str]:
    axis_mask = MASK.format(side="Axis", access="side:")
    return [
        piece("901", [(axis_mask, "Axis;|0"), ("PROP;Strength;;;", strength)], where["901"], "Tiger Ambush"),
        piece(
            "902",
            [(MASK.format(side="Axis", access="player:"), join([AXIS_PW, "|0"], ";"))],
            where["902"],
            "Decoy Column",
        ),
        piece("903", [(INVISIBLE.format(access="player:"), AXIS_PW)], where["903"], "Secret Minefield"),
        piece(
            "904",
            [(INVISIBLE.format(access="player:"), ALLIED_PW), ("PROP;Ammo;;;", "Nebelwert")],
            where["904"],
            "Phantom Battery",
        ),
        piece("905", [("restrict;Axis;true;true;Owner only", GONE_PW)], where["905"], "Kampfgruppe Rest"),
    ]


ROSTER = [Node(f"PLAYER\t{AXIS_PW}\tAlice\tAxis"), Node(f"PLAYER\t{ALLIED_PW}\tBob\tAllied")]


def write(root: Node, path: Path) -> Path:
    SavedGame.new(encode(parse_stream(encode(root))), codec=Codec(obfuscated=True, key=0x2A)).write(path)
    return path


def move(ident: str, frm: tuple[int, int], to: tuple[int, int], pw: str) -> Node:
    fields = ["M", ident, "Main Map", str(to[0]), str(to[1]), "null", "Main Map", str(frm[0]), str(frm[1]), "null", pw]
    return Node("LOG\t" + join(fields, "/"))


@dataclass(frozen=True)
class Inputs:
    save: Path
    log: Path
    pack: Path
    lint_module: Path
    after: Path
    save38: Path  # the same save in VASSAL 3.8's binary form


START = {"901": "3010", "902": "3212", "903": "0520", "904": "0722", "905": "2010"}
END = {"901": "3011", "902": "3213", "903": "0521", "904": "0723", "905": "2010"}
# The other side's invisible piece somewhere else: a side's view must not change at all.
ELSEWHERE = {"Allied": {"903": ("0820", "0821")}, "Axis": {"904": ("0922", "0923")}}


def write_game(d: Path, moved: dict[str, tuple[str, str]]) -> tuple[Path, Path, Path]:
    """A save, the log of one turn from it, and the save after it, in folder `d`."""
    d.mkdir(exist_ok=True)
    start = {i: hex_xy(moved.get(i, (h, ""))[0]) for i, h in START.items()}
    end = {i: hex_xy(moved.get(i, ("", h))[1]) for i, h in END.items()}
    opening = [Node(""), Node("", [Node(p) for p in pieces(start, "Kobaltwert")]), *ROSTER, Node("end_save")]
    save = write(Node("begin_save", opening), d / "hidden.vsav")
    pws = {"901": AXIS_PW, "902": AXIS_PW, "903": AXIS_PW, "904": ALLIED_PW, "905": AXIS_PW}
    steps = [move(i, start[i], end[i], pws[i]) for i in start]
    changed = pieces(end, "Kobaltwert2")[0]
    steps.append(Node("LOG\t" + join(["D", "901", changed.split("/", 3)[3]], "/")))
    log = write(Node("begin_save", [*opening, *steps]), d / "hidden.vlog")
    closing = [Node(""), Node("", [Node(p) for p in pieces(end, "Kobaltwert2")]), *ROSTER, Node("end_save")]
    return save, log, write(Node("begin_save", closing), d / "after.vsav")


FIELDS = ("save", "log", "pack", "lint_module", "after", "save38")


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Inputs:
    d = tmp_path_factory.mktemp("secrets")
    save, log, after = write_game(d, {})
    pack = d / "pack"
    shutil.copytree(REPO / "modules" / "kasserine", pack, ignore=shutil.ignore_patterns("example"))
    with (pack / "units.toml").open("a", encoding="utf-8") as f:
        f.write(f'\n[[group]]\nmatch = {{ designation = "{PACK_HIDDEN}" }}\nflags = ["hidden"]\n')
    tank = slot("Tank", "7", "piece;;;tank.png;Tank")
    setups = f'<{M}PredefinedSetup name="Scenario 1" file="s1.vsav" useFile="true"/>'
    files = {"images/tank.png": png(40, 40), "s1.vsav": save.read_bytes()}
    lint_module = write_module(d / "lint.vmod", build_file(slots=tank, setups=setups), files)
    save38 = d / "hidden38.vsav"
    vassal_adj.load_save(save).write(save38, form="vobs")
    return Inputs(save, log, pack, lint_module, after, save38)


@dataclass(frozen=True)
class Run:
    """One command line of the sweep; `view` is the side of --as, None for the referee's view."""

    name: str
    args: tuple[str, ...]
    view: str | None = None
    annotate: bool = False


def runs(i: Inputs) -> list[Run]:
    save, log, pack, lm, after, save38 = (str(getattr(i, k)) for k in FIELDS)
    ex_save, ex_log = str(EXAMPLE / "turn3-faults.vsav"), str(EXAMPLE / "turn4-axis.vlog")
    out: list[Run] = []
    five = ("text", "markdown", "bbcode", "json", "html")
    for view in (None, "Axis", "Allied"):
        side = ("--as", view) if view else ()
        for fmt in five:
            f = ("--format", fmt)
            out.append(
                Run(f"check save {fmt}", ("check", save, "--module", MODULE, "--pack", "kasserine", *f, *side), view)
            )
            if fmt != "html":  # check's HTML page is of a save: a log's is verify's
                out.append(
                    Run(f"check log {fmt}", ("check", log, "--module", MODULE, "--pack", "kasserine", *f, *side), view)
                )
            out.append(
                Run(f"check pack-hidden {fmt}", ("check", ex_save, "--module", MODULE, "--pack", pack, *f, *side), view)
            )
            out.append(Run(f"verify log {fmt}", ("verify", log, "--module", MODULE, "--no-rules", *f, *side), view))
            out.append(
                Run(f"verify save {fmt}", ("verify", save, after, "--module", MODULE, "--no-rules", *f, *side), view)
            )
            out.append(
                Run(
                    f"verify pack-hidden {fmt}", ("verify", ex_log, "--module", MODULE, "--pack", pack, *f, *side), view
                )
            )
        for short in (("--summary",), ("--errors-only",)):
            out.append(
                Run(
                    f"check {short[0]}", ("check", save, "--module", MODULE, "--pack", "kasserine", *short, *side), view
                )
            )
            out.append(
                Run(f"verify {short[0]}", ("verify", log, "--module", MODULE, "--no-rules", *short, *side), view)
            )
        out.append(Run("verify -v", ("verify", log, "--module", MODULE, "--no-rules", "-v", *side), view))
        ann = ("--module", MODULE, "--pack", "kasserine", *side)
        out.append(Run("check --annotate", ("check", save, *ann), view, annotate=True))
        out.append(Run("check 3.8 save", ("check", save38, *ann), view))
        out.append(Run("check 3.8 --annotate", ("check", save38, *ann, "--format-version", "3.8"), view, annotate=True))
        out.append(
            Run("verify --annotate", ("verify", log, "--module", MODULE, "--no-rules", *side), view, annotate=True)
        )
        out.append(
            Run(
                "check pack-hidden --annotate",
                ("check", ex_save, "--module", MODULE, "--pack", pack, *side),
                view,
                annotate=True,
            )
        )
    for src in (save, log, save38):
        out.append(Run("decode", ("decode", src)))
        for fmt in ("text", "json"):
            out.append(Run(f"pieces {fmt}", ("pieces", src, "--module", MODULE, "--properties", "--format", fmt)))
            out.append(Run(f"pieces bare {fmt}", ("pieces", src, "--format", fmt)))
        for fmt in ("text", "markdown", "bbcode", "json"):
            out.append(Run(f"vp {fmt}", ("vp", src, "--module", MODULE, "--pack", "kasserine", "--format", fmt)))
    for fmt in ("text", "json"):
        out.append(Run(f"inspect {fmt}", ("inspect", lm, "--format", fmt)))
    for fmt in five:
        out.append(Run(f"lint {fmt}", ("lint", lm, "--format", fmt)))
        out.append(Run(f"lint --setup {fmt}", ("lint", MODULE, "--setup", save, "--format", fmt)))
    return out


PLACEHOLDER = Inputs(*(Path(f"@{k}@") for k in FIELDS))
RUNS = runs(PLACEHOLDER)
RUN_IDS = [f"{n}-{r.name}-as-{r.view}" for n, r in enumerate(RUNS)]
IMAGE = re.compile(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+")


def found(secret: str, text: str) -> bool:
    # hex labels are digits: 0520 inside a longer number (a coordinate, a key) is no leak
    return re.search(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])", text) is not None


def invoke(args: tuple[str, ...]) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), (args, result.output)
    return result.output


def added_text(original: Path, annotated: Path) -> str:
    """The commands the annotated copy adds to the original's: markers and chat. (Of a log the
    copy is a save of its end, which holds the original's pieces where they ended, as VASSAL
    saves them: those are the original's, not added.)"""
    before = vassal_adj.load_save(original).text.split("\x1b")
    pieces = {c.split("/")[1] for c in before if c.startswith("+/")}
    left = Counter(before)
    added = []
    for command in vassal_adj.load_save(annotated).text.split("\x1b"):
        if left[command]:
            left[command] -= 1
        elif not (command.startswith("+/") and command.split("/")[1] in pieces):
            added.append(command)
    # a marker gives a hex away by its pixels too: name the hex of every position added
    main = place_map(vassal_adj.load_module(MODULE).maps["Main Map"])
    places = [main.location_name(int(x), int(y)) for x, y in re.findall(r"Main Map;(\d+);(\d+)", "\x1b".join(added))]
    return "\x1b".join(added + [p for p in places if p])


def outputs(run: Run, tmp_path: Path) -> dict[str, str]:
    """Every text the run writes: stdout, the same report written with -o, the annotated copy's additions."""
    tmp_path = Path(tempfile.mkdtemp(dir=tmp_path))  # outputs go to new files only
    if run.annotate:
        copy = tmp_path / "annotated"
        invoke((*run.args, "--annotate", str(copy)))
        return {"annotated copy": added_text(Path(run.args[1]), copy)}
    target = tmp_path / "report.out"
    stdout = invoke(run.args)
    invoke((*run.args, "-o", str(target)))
    return {"stdout": stdout, "-o file": target.read_text(encoding="utf-8", errors="replace")}


def forbidden(run: Run) -> tuple[str, ...]:
    pack = (PACK_HIDDEN,) if "pack-hidden" in run.name else ()  # the shipped pack hides no unit
    if run.annotate:  # every player opens it
        return (*AXIS_SECRETS, *ALLIED_SECRETS, *pack)
    return {None: (), "Allied": (*AXIS_SECRETS, *pack), "Axis": ALLIED_SECRETS}[run.view]


# The example log's own report of the hidden unit's move: VASSAL showed it to every player as
# chat, so a report quoting it gives nothing away (the module's report format names the unit).
VASSAL_CHAT = re.compile(r"1-2-9 \(Lang\) moves Turn 4 \S+ 3920")


def public(text: str, where: str) -> str:
    """`text` without what every player may read anyway: images (base64 could hold a label by
    chance), the log's chat, and the pack's parameters in JSON (the pack is public; its
    reinforcement schedule names the units)."""
    text = VASSAL_CHAT.sub("", IMAGE.sub("", text))
    if text.lstrip().startswith("{") and where != "annotated copy":
        data = json.loads(text)
        data.pop("parameters", None)
        text = json.dumps(data, ensure_ascii=False)
    return text


def real(run: Run, i: Inputs) -> Run:
    paths = {str(getattr(PLACEHOLDER, k)): str(getattr(i, k)) for k in FIELDS}
    return Run(run.name, tuple(paths.get(a, a) for a in run.args), run.view, run.annotate)


@pytest.mark.parametrize("n", range(len(RUNS)), ids=RUN_IDS)
def test_no_output_leaks_a_password_or_what_the_view_hides(inputs: Inputs, tmp_path: Path, n: int) -> None:
    run = real(RUNS[n], inputs)
    for where, text in outputs(run, tmp_path).items():
        text = public(text, where)
        leaked = [s for s in (*PW_PARTS, *forbidden(run)) if found(s, text)]
        assert not leaked, f"{' '.join(run.args)} ({where}) leaks {leaked}"


def test_the_referee_sees_every_secret_but_the_passwords(inputs: Inputs, tmp_path: Path) -> None:
    # The sweep's inputs do put each secret where an output could show it.
    seen = ""
    for run in RUNS:
        if run.view is None and not run.annotate and run.name.endswith("json"):
            seen += "".join(outputs(real(run, inputs), tmp_path).values())
    for secret in (*AXIS_SECRETS, *ALLIED_SECRETS, PACK_HIDDEN):
        assert found(secret, seen), secret
    assert not any(found(p, seen) for p in PW_PARTS)


VIEWS = [
    ("verify", "{log}", "--no-rules"),
    ("verify", "{save}", "{after}", "--no-rules"),
    ("check", "{save}", "--pack", "kasserine"),
]


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
@pytest.mark.parametrize("side", sorted(ELSEWHERE))
@pytest.mark.parametrize("command", VIEWS, ids=["verify-log", "verify-saves", "check"])
def test_a_view_is_the_same_wherever_the_other_side_hid_its_piece(
    inputs: Inputs, tmp_path: Path, command: tuple[str, ...], side: str, fmt: str
) -> None:
    # Names and labels are not the only give-aways: a board picture with the hidden piece's
    # move drawn, a count, a coordinate. The side's view of a game where the other side's
    # invisible piece is elsewhere must be the same, byte for byte (the folders aside).
    save, log, after = write_game(tmp_path / "elsewhere", ELSEWHERE[side])

    def view(files: dict[str, Path]) -> str:
        args = [a.format(**{k: str(v) for k, v in files.items()}) for a in command]
        out = invoke((*args, "--module", MODULE, "--format", fmt, "--as", side))
        return out.replace(str(files["save"].parent), "FOLDER")

    here = view({"save": inputs.save, "log": inputs.log, "after": inputs.after})
    assert here == view({"save": save, "log": log, "after": after})


@pytest.mark.parametrize("side", sorted(ELSEWHERE))
def test_the_referee_view_does_show_where_the_piece_was(inputs: Inputs, tmp_path: Path, side: str) -> None:
    # the control of the test above: moving the invisible piece does change what the referee sees
    _, log, _ = write_game(tmp_path / "elsewhere", ELSEWHERE[side])
    views = [
        invoke(("verify", str(f), "--no-rules", "--module", MODULE, "--format", "html")) for f in (inputs.log, log)
    ]
    here, there = (IMAGE.search(v) for v in views)
    assert here and there and here.group() != there.group()


@pytest.mark.parametrize("command", ["verify", "check", "vp"])
def test_an_error_message_never_quotes_a_password(inputs: Inputs, tmp_path: Path, command: str) -> None:
    # A MovePiece with its fields shifted (old y missing): the error quotes the field it could not
    # read, which is the mover's password.
    text = vassal_adj.load_save(inputs.log).text
    shifted = join(["M", "903", "Main Map", "1", "2", "null", "Main Map", "1", AXIS_PW, "null", AXIS_PW], "/")
    bad = tmp_path / "shifted.vlog"
    SavedGame.new(f"{text}\x1bLOG\t{shifted}", codec=Codec(obfuscated=True, key=0x2A)).write(bad)
    extra = ["--no-rules"] if command == "verify" else ["--pack", "kasserine"]
    result = CliRunner().invoke(main, [command, str(bad), "--module", MODULE, *extra])
    assert result.exit_code == 2 and "old y is not an integer: '********'" in result.output, result.output
    assert not [p for p in PW_PARTS if found(p, result.output)]
