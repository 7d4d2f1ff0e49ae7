"""The states `verify` judges within a log carry what the module shows at that step (N18): the
weather a global property shows, globals, tracks and the composite turn (vassal_adj/moment.py,
pbem/verify.py). Before, only the opening state had them: a property set mid-log was not seen.

Kasserine 20.3: "In poor weather ... units with a movement allowance of 8 or more have it reduced
by 5" (the pack's `weather_allowance = { poor = [[8, -5], ...] }`); No Question of Surrender
3.0: "a roll is made on the weather table. The result determines the weather type for the day",
which the module keeps in a global property (`[state] weather_from`, "Mist" being the pack's
"poor"). The logs are written to VASSAL's format from the example module, the 3-2-16 (580) (16 MP)
standing at 2525: 2525 -> 3920 costs 12 MP, within 16, beyond 11.
"""

from __future__ import annotations

import importlib
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from test_position import log_of
from test_state_tracks import DAY_TIME, day_time, day_time_module, loaded, pack_with, save_with
from test_vassal_accepts import oracle_pieces

import vassal_adj
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.commands import Node, encode, iter_nodes, log_steps
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import Verification, verify_turn
from vassal_adj.rules.results import Severity
from vassal_adj.savedgame import SavedGame

sys.path.insert(0, str(REPO / "scripts"))
el = importlib.import_module("example_logs")
em = importlib.import_module("example_module")
et = importlib.import_module("example_table")

MODULE = REPO / "modules" / "kasserine" / "example" / "Kasserine.vmod"
UNIT = "3-2-16 (580)"
WEATHER = {"weather_from": {"property": "Weather", "values": {"Mist": "poor", "Clear": "good"}}}


def log(path: Path, opening_props: dict[str, str], steps: list[Node | tuple[str, ...]]) -> Path:
    """A log opening on Game-Turn 4, Axis Movement, with the example's turn-4 position (the
    3-2-16 (580) at 2525) and these global properties, then `steps`: a Node is a command logged
    as it is, a tuple a step of scripts/example_logs.py."""
    pack = em.read_pack()
    counters = {c.name: c for c in em.counters(pack)}
    places = el.turn4_places(pack)
    places.update({k: ("hex", "2525") for k in places if k[1] == UNIT})
    table = et.Table.opening(el.SHEET, list(counters.values()), places, em.layout(), el.FIXED_MS)
    opening = table.save_children(4, "Axis Movement")
    props = [Node(f"GlobalProperty\t;{k};{v};Module") for k, v in opening_props.items()]
    opening = [*opening[:-1], *props, opening[-1]]  # before end_save
    played: list[Node] = []
    for s in steps:
        played += [et.logged(s)] if isinstance(s, Node) else et.play(table, [s], 4, "Axis Movement")[0]
    SavedGame.new(encode(Node("begin_save", opening + played)), codec=Codec(obfuscated=False)).write(path)
    return path


def verify(path: Path, lp: Any) -> Verification:
    module, game = vassal_adj.load_module(MODULE), vassal_adj.load_save(path)
    return verify_turn(module, game, lp, replay(game.root, module, game.path))


def set_weather(before: str, after: str) -> Node:
    return Node(f"MutableProperty\tWeather\t{before}\t{after}\tModule")


def errors(v: Verification) -> list[str]:
    return [f.message for f in v.findings if f.severity == Severity.ERROR]


def test_20_3_weather_set_to_mist_before_the_move_is_judged_in_poor_weather(tmp_path: Path) -> None:
    """The log opens in Clear weather (good: 16 MP), and its first step sets the Weather property
    to Mist (poor: 16 - 5 = 11 MP); the 3-2-16 (580) then moves 2525 -> 3920 (12 MP). Judged
    right after the change: beyond its 11 MP, an error citing 20.3. The same move with the
    weather left Clear is legal."""
    lp = loaded(pack_with(WEATHER))
    misty = verify(
        log(
            tmp_path / "mist.vlog", {"Weather": "Clear"}, [set_weather("Clear", "Mist"), ("move", "Axis", UNIT, "3920")]
        ),
        lp,
    )
    (move,) = misty.moves
    assert (move.start, move.end, move.ok, move.allowance) == ("2525", "3920", False, 11)
    assert [f.rule for f in misty.findings if f.severity == Severity.ERROR] == ["kasserine:20.3"]
    assert "needs 12 MP, allowance 11 in poor weather [20.3]" in errors(misty)[0]
    clear = verify(log(tmp_path / "clear.vlog", {"Weather": "Clear"}, [("move", "Axis", UNIT, "3920")]), lp)
    (move,) = clear.moves
    assert (move.ok, move.allowance, move.cost) == (True, 16, 12)
    assert errors(clear) == []


def with_rules(state: dict[str, Any], **rules: dict[str, Any]) -> Any:
    data = pack_with(state)
    return loaded({**data, "rules": {**data["rules"], **rules}})


def test_20_3_a_segment_a_weather_change_opens_is_judged_in_the_new_weather(tmp_path: Path) -> None:
    """A pack that cuts the log at each change of the Weather property (`log.segments` by track,
    N23): the 3-2-16 (580) moves 2525 -> 3113 in Clear weather (legal), the Weather turns to Mist,
    which opens a segment, and it moves 3113 -> 2525 (8.5 MP, within 11: legal) then on to 3920
    (12 MP more: beyond 11 MP in poor weather). The segment the change opened is judged in
    poor weather, the one before in good."""
    lp = with_rules(WEATHER, weather_segments={"impl": "log.segments", "rule_ref": "20.3", "by": {"track": "Weather"}})
    v = verify(
        log(
            tmp_path / "seg.vlog",
            {"Weather": "Clear"},
            [
                ("move", "Axis", UNIT, "3113"),
                set_weather("Clear", "Mist"),
                ("move", "Axis", UNIT, "2525"),
                ("move", "Axis", UNIT, "3920"),
            ],
        ),
        lp,
    )
    moves = [(p.segment, m.start, m.end, m.ok, m.allowance) for p in v.phases for m in p.moves]
    assert moves == [("", "2525", "3113", True, 16), ("segment value='Mist'", "3113", "3920", False, 11)]
    assert [f.rule for f in v.findings if f.severity == Severity.ERROR] == ["kasserine:20.3"]


@pytest.fixture
def ap_rule() -> Any:
    """A log rule that reports the moment each segment starts with (its turn, label and night) and
    the Allied AP it starts and ends with (KW 5.2's AP Track)."""
    from vassal_adj.rules.registry import REGISTRY, register
    from vassal_adj.rules.results import Finding

    @register("test.ap_shown", log=True)
    def ap_shown(segment: Any, ctx: Any, params: Any) -> list[Finding]:
        s = segment.start
        start, end = ({k: t.value for k, t in st.tracks.items()} for st in (s, segment.end))
        words = f"turn {s.turn} {s.turn_label} night {s.night}, tracks {start} -> {end}"
        return [Finding(ctx.cite(), Severity.INFO, f"{words}, globals {dict(s.globals)}")]

    yield
    REGISTRY._impls.pop("test.ap_shown", None)


def test_kw_5_2_each_segment_starts_with_the_ap_the_track_shows(tmp_path: Path, ap_rule: Any) -> None:
    """KW 5.2: "A side can never have more AP than the maximum indicated on the AP Track"; 5.2.1:
    the Allies reach 11 AP. A log that opens with 6 Allied AP, cut at each change of the AP
    property (an action spends or gains AP): the first segment starts and ends with 6 AP; the
    one the change to 11 opens starts with 11, as the module shows it right after the change, and
    so do its globals (before, the states within a log carried no track and no global)."""
    ap = {"tracks": {"allied_ap": {"property": "Allied AP", "min": 0, "max": 20}}, "globals": {"ap": "Allied AP"}}
    lp = with_rules(
        {**WEATHER, **ap},
        actions={"impl": "log.segments", "rule_ref": "6.1", "by": {"track": "Allied AP"}},
        shown={"impl": "test.ap_shown", "rule_ref": "5.2"},
    )
    v = verify(
        log(
            tmp_path / "ap.vlog",
            {"Weather": "Clear", "Allied AP": "6"},
            [
                ("move", "Axis", UNIT, "3113"),
                Node("MutableProperty\tAllied AP\t6\t11\tModule"),
                ("move", "Axis", UNIT, "2525"),
            ],
        ),
        lp,
    )
    shown = [f.message for f in v.findings if f.rule == "kasserine:5.2"]
    assert shown == [
        "Turn 4 axis-movement: turn 4 None night None, tracks {'allied_ap': 6} -> {'allied_ap': 6}, "
        "globals {'ap': '6'}",
        "Turn 4 axis-movement, segment value='11': turn 4 None night None, tracks {'allied_ap': 11} -> "
        "{'allied_ap': 11}, globals {'ap': '11'}",
    ]


def test_nqos_2_0_the_phases_of_a_log_carry_the_composite_turn_and_night(ap_rule: Any) -> None:
    """NQoS 2.0: "The Night turn begins the turn after the 1900 turn." A log on a Day / Time
    tracker opening on June 8 1700 that moves it to 1900, Night, then June 9 0500: verify judges
    the 7th turn, the 8th, then the 9th, a night turn, each with its label (before, a tracker
    change gave no turn at all: the composite turn was read only as the log opened)."""
    lp = with_rules(DAY_TIME, shown={"impl": "test.ap_shown", "rule_ref": "5.2"})
    game = log_of(
        save_with(turn_state=day_time("June 8", "1700")),
        *(
            f"TURNTurnTracker0\t{day_time(d, t)}"
            for d, t in (("June 8", "1900"), ("June 8", "Night"), ("June 9", "0500"))
        ),
    )
    module = day_time_module()
    v = verify_turn(module, game, lp, replay(game.root, module, game.path), phase="axis-movement")
    assert [(p.turn, p.phase) for p in v.phases] == [(7, "axis-movement"), (8, None), (9, None)]
    assert [f.message.split(": ", 1)[1].split(",")[0] for f in v.findings if f.rule == "kasserine:5.2"] == [
        "turn 7 June 8 1700 night False",
        "turn 8 June 8 1900 night False",
        "turn 9 June 8 Night night True",
    ]


def test_kw_5_2_a_track_read_from_a_marker_follows_the_marker_through_the_log(tmp_path: Path, ap_rule: Any) -> None:
    """KW 5.2: AP are marked on the AP Track, a marker in a numbered box; here the example's Game
    Turn marker in its "Turn n" boxes stands in for it (`tracks = { marker, box = "Turn (\\d+)" }`).
    Actions are opened by a chat line. The first action moves a unit, then the marker to Turn 5: it
    starts with 4 and ends with 5. The second moves the marker to Turn 6 before any unit moves:
    it is judged with 6 from its start, as the module shows it when its first move is made."""
    marker = {"tracks": {"turn_box": {"marker": "Game Turn", "box": "Turn (\\d+)", "min": 1, "max": 12}}}
    lp = with_rules(
        marker,
        actions={"impl": "log.segments", "rule_ref": "6.1", "by": {"chat": "(?P<side>Axis|Allied) action"}},
        shown={"impl": "test.ap_shown", "rule_ref": "5.2"},
    )
    action = ("chat", "Axis", "Axis action")
    steps = [
        action,
        ("move", "Axis", UNIT, "3113"),
        ("move", "Axis", "Game Turn", "Turn 5"),
        action,
        ("move", "Axis", "Game Turn", "Turn 6"),
        ("move", "Axis", UNIT, "2525"),
    ]
    v = verify(log(tmp_path / "marker.vlog", {}, steps), lp)
    shown = [f.message.split(": ", 1)[1].split(", globals")[0] for f in v.findings if f.rule == "kasserine:5.2"]
    assert shown == [
        "turn 4 None night None, tracks {'turn_box': 4} -> {'turn_box': 5}",
        "turn 4 None night None, tracks {'turn_box': 6} -> {'turn_box': 6}",
    ]


def weather_module(tmp_path: Path) -> Path:
    """The example module with a module-level Global Property "Weather" (initially "Clear"), as
    VASSAL's editor writes one (spec 11: GlobalProperties -> GlobalProperty)."""
    out = tmp_path / "Weather.vmod"
    prop = (
        "<VASSAL.build.module.properties.GlobalProperties>"
        '<VASSAL.build.module.properties.GlobalProperty description="" initialValue="Clear" isNumeric="false" '
        'max="" min="" name="Weather" wrap="false"/></VASSAL.build.module.properties.GlobalProperties>'
    )
    with zipfile.ZipFile(MODULE) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "buildFile.xml":
                data = data.replace(
                    b"<VASSAL.build.module.Chatter/>", b"<VASSAL.build.module.Chatter/>" + prop.encode()
                )
            dst.writestr(item, data)
    return out


def test_vassal_reads_every_logged_command_of_the_weather_log(tmp_path: Path) -> None:
    """The log of the first test is one VASSAL (3.6) reads, on a module that has the Weather
    property: each logged command, the property change among them, a LOG command it decodes; and
    verify judges it on that module as on the example's (the move beyond 11 MP in poor weather)."""
    module = weather_module(tmp_path)
    steps: list[Node | tuple[str, ...]] = [set_weather("Clear", "Mist"), ("move", "Axis", UNIT, "3920")]
    path = log(tmp_path / "mist.vlog", {"Weather": "Clear"}, steps)
    m, game = vassal_adj.load_module(module), vassal_adj.load_save(path)
    (move,) = verify_turn(m, game, loaded(pack_with(WEATHER)), replay(game.root, m, game.path)).moves
    assert (move.ok, move.allowance) == (False, 11)
    result = oracle_pieces(module, path)
    logged = [n for step in log_steps(game.root) for _, _, n in iter_nodes(step)]
    assert len(logged) > 2  # the move is logged with its new stack and its report
    assert result["load"]["decoded_commands"]["BasicLogger$LogCommand"] == len(logged)
