"""The example logs of Game-Turn 4, written as VASSAL 3.6.7 writes them, with deliberate faults.

- turn4-axis.vlog: the Axis Player-Turn. It opens on Game-Turn 4, Axis Movement (turn 3 with
  its faults put right and the Allied turn-3 moves made); the Axis player brings on a
  reinforcement, moves, passes to Axis Combat, rolls, undoes the roll, rolls again and passes
  the turn to the Allies.
- turn4-restart.vlog: the same opening and moves, then one roll: the log the Axis player
  recorded first and threw away for the one above.
- turn4-wrong-start.vlog: the Allied Player-Turn, opened on a position that differs from the
  end of turn4-axis.vlog in one unit.

The faults are LOG_FAULTS (other tests and checks import it); every other move is legal
(tests/test_example_logs.py says so with vassal_adj's own rules). A log is a save of the
opening position followed by one `LOG` step per player action (spec 5.6): moves with their
report and the mover's password, a new stack when a piece lands on an empty spot, Dice
Button rolls (5.4), an undo bracket (`UNDO<TAB>true` ... `UNDO<TAB>false`), turn tracker
changes with their report (5.8). Deterministic: fixed ids and clocks, no randomness.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import example_kit as kit
from example_module import (
    BOARD,
    BOX_BOARD,
    BOX_MAP,
    MAP,
    PHASES,
    Counter,
    box_slot,
    piece_state,
    piece_type,
    tracker_state,
)
from example_saves import FIXED_MS, TURN3_ALLIED, TURN3_AXIS, Place, turn3_places
from example_table import Sheet, Step, Table, log_text

from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.layout import HexLayout

Key = tuple[str | None, str]  # (side, name) of a counter

DAY = 86_400_000
# Player names as VASSAL shows them, and the passwords it writes in PLAYER entries and moves
# (spec 5.7): fake ones, so that tests can check no output ever shows them.
PLAYERS = {"Axis": ("Erwin", "axis-player-secret"), "Allied": ("Lloyd", "allied-player-secret")}
DICE = "1d6"  # the module's Dice Button (example_module.py)
SHEET = Sheet(
    MAP,
    BOARD,
    BOX_MAP,
    BOX_BOARD,
    box_slot,
    piece_type,
    lambda c, m, x, y, gpid, _layers: piece_state(c, m, x, y, gpid),  # no layers on these counters
    tracker_state,
    PHASES,
    PLAYERS,
    DICE,
)

# Game-Turn 4 opens on turn 3's position with its faults put right and the Allied turn-3
# moves made: 1/13 closed up on the panzers at 2514, where 501 and 2/86 are in its zone.
TURN4_AXIS = {**TURN3_AXIS, "3-4-11 (2/86)": "2614", "3-2-16 (580)": "3113", "5-3-12 (1/5)": "2411"}
TURN4_ALLIED = {**TURN3_ALLIED, "2-1-14 (1/13)": "2514"}

AXIS_MOVES: list[Step] = [
    ("move", "Axis", "2-2-11 (10)", "3920"),  # 23: a Game-Turn 4 reinforcement enters at 3920
    ("move", "Axis", "2-2-11 (10)", "3718"),
    ("move", "Axis", "1-2-9 (Lang)", "3920"),
    ("move", "Axis", "5-3-12 (2/7)", "2515"),  # by road, into 1/13's zone, where it stops
    ("move", "Axis", "5-3-12 (2/5)", "2010"),  # fault: across the ridge, off the roads
    ("move", "Axis", "6-5-10 (501)", "2513"),  # fault: out of 1/13's zone into it again
    ("move", "Axis", "3-4-11 (2/104)", "2516"),  # fault: onto 1/104, and it stays there
    ("move", "Axis", "3-2-16 (580)", "2916"),
    ("move", "Axis", "3-4-11 (2/69)", "2213"),  # into the zone of -/168 at 2212: a drop there is a stop
    ("move", "Axis", "3-4-11 (2/69)", "2314"),  # fault: dragged on out of it (2615 -> 2314 alone is legal)
]
ATTACK = "501, 2/7 and 2/86 attack 1/13 in 2514: 14 to 1"
AXIS_STEPS: list[Step] = [
    *AXIS_MOVES,
    ("turn", "Axis", "Axis Combat"),
    ("chat", "Axis", ATTACK),
    ("roll", "Axis", "2"),
    ("undo", "Axis"),  # fault: the roll is taken back ...
    ("roll", "Axis", "6"),  # ... and rolled again
    ("chat", "Axis", "6: 1/13 is eliminated"),
    ("move", "Axis", "2-1-14 (1/13)", "Eliminated"),  # the attacker applies the result
    ("turn", "Axis", "Allied Movement"),
]
RESTART_STEPS: list[Step] = [
    *AXIS_MOVES,
    ("turn", "Axis", "Axis Combat"),
    ("chat", "Axis", ATTACK),
    ("roll", "Axis", "1"),
]
# turn4-wrong-start.vlog opens with 2/7 back where it stood before turn4-axis.vlog moved it.
WRONG_START_UNIT = ("Axis", "5-3-12 (2/7)", "2714")
ALLIED_STEPS: list[Step] = [
    ("move", "Allied", "2-3-11 (1/6)", "2115"),
    ("move", "Allied", "1-2-7 (-/168)", "2211"),
    ("turn", "Allied", "Allied Combat"),
]

AXIS_LOG, RESTART_LOG, WRONG_START_LOG = "turn4-axis.vlog", "turn4-restart.vlog", "turn4-wrong-start.vlog"

# The deliberate faults. `step` counts the log's LOG steps from 1 (as vassal_adj's replay
# does); `hexes` are (from, to) for a move; `rule` is what a check should cite.
LOG_FAULTS: list[dict[str, object]] = [
    {
        "kind": "illegal path",
        "file": AXIS_LOG,
        "step": 5,
        "side": "Axis",
        "unit": "5-3-12 (2/5)",
        "hexes": ("2711", "2010"),
        "rule": "kasserine:19.2",
        "detail": "armor: the legal way round the ridge needs 14 MP; every path within its 12 MP crosses rough hexes "
        "off the roads (16.11) or goes on from an enemy zone of control (19.2). The cheapest (2711 2611 2512 "
        "2411 2311 2211 2111 2010, 8 MP) does both: it goes on from 2211, in the zone of control of 1-2-7 "
        "(-/168) at 2212, into rough 2111 off the trail; 19.2 comes first on it and is cited. The next "
        "(2711 2611 2512 2411 2311 2210 2110 2010, 9 MP) only crosses rough",
    },
    {
        "kind": "zoc to zoc",
        "file": AXIS_LOG,
        "step": 6,
        "side": "Axis",
        "unit": "6-5-10 (501)",
        "hexes": ("2613", "2513"),
        "rule": "kasserine:19.2",
        "detail": "starts in the zone of control of 2-1-14 (1/13) at 2514 and moves into it again; "
        "no Withdrawal was declared",
    },
    {
        "kind": "stop in zoc",
        "file": AXIS_LOG,
        "step": 10,
        "side": "Axis",
        "unit": "3-4-11 (2/69)",
        "hexes": ("2213", "2314"),
        "rule": "kasserine:19.2",
        "detail": "dropped at 2213 in the zone of control of 1-2-7 (-/168) at 2212, where it stopped (19.2), then "
        "dragged on to 2314; one drag 2615 -> 2314 would have been legal (4 MP round the zone)",
    },
    {
        "kind": "overstack",
        "file": AXIS_LOG,
        "step": 7,
        "side": "Axis",
        "unit": "3-4-11 (2/104)",
        "hexes": ("2418", "2516"),
        "units": ("3-4-11 (1/104)", "3-4-11 (2/104)"),
        "rule": "kasserine:assumption stacking_limit",
        "detail": "moves onto 3-4-11 (1/104); both end the Axis Movement Phase in 2516",
    },
    {
        "kind": "reroll",
        "file": AXIS_LOG,
        "step": 14,
        "side": "Axis",
        "button": DICE,
        "undoes": 13,
        "results": ("2", "6"),
        "rule": "audit:undo-reroll",
        "detail": "the 1d6 roll of step 13 (2) is undone in step 14 and rolled again in step 15 (6)",
    },
    {
        "kind": "restart",
        "file": RESTART_LOG,
        "same_opening_as": AXIS_LOG,
        "side": "Axis",
        "button": DICE,
        "results": ("1",),
        "other_results": ("2", "6"),
        "rule": "audit:restart",
        "detail": "the same opening as turn4-axis.vlog and the same moves, with another roll (1)",
    },
    {
        "kind": "wrong start",
        "file": WRONG_START_LOG,
        "after": AXIS_LOG,
        "side": "Axis",
        "unit": "5-3-12 (2/7)",
        "hexes": ("2515", "2714"),
        "rule": "verify:continuity",
        "detail": "turn4-axis.vlog ends with 2/7 at 2515; turn4-wrong-start.vlog opens with it at 2714",
    },
]


def turn4_places(pack: dict) -> dict[Key, Place]:
    """(side, name) -> place at the opening of Game-Turn 4 (the Turn 4 box still full)."""
    out = turn3_places(pack)
    out.update({("Axis", u): ("hex", h) for u, h in TURN4_AXIS.items()})
    out.update({("Allied", u): ("hex", h) for u, h in TURN4_ALLIED.items()})
    out[(None, "Game Turn")] = ("box", "Turn 4")
    return out


def write_logs(
    out_dir: Path,
    counters: list[Counter],
    pack: dict,
    lay: HexLayout,
    codec: Codec,
    savedata: Callable[[str], bytes],
    moduledata: bytes,
) -> list[str]:
    """Write the three logs into `out_dir`; returns their file names."""
    places = turn4_places(pack)
    axis = Table.opening(SHEET, counters, places, lay, FIXED_MS + 3 * DAY)
    restart = Table.opening(SHEET, counters, places, lay, FIXED_MS + 3 * DAY - 3_600_000)  # recorded first
    texts = {RESTART_LOG: log_text(restart, RESTART_STEPS, 4, "Axis Movement")[0]}
    texts[AXIS_LOG], phase = log_text(axis, AXIS_STEPS, 4, "Axis Movement")
    _, unit, where = WRONG_START_UNIT
    allied = axis.copy(FIXED_MS + 4 * DAY, {unit: where})  # the one unit out of place
    texts[WRONG_START_LOG] = log_text(allied, ALLIED_STEPS, 4, phase)[0]
    descriptions = {
        AXIS_LOG: "Kasserine: Game-Turn 4, the Axis Player-Turn (with deliberate faults)",
        RESTART_LOG: "Kasserine: Game-Turn 4, the Axis Player-Turn recorded first and thrown away",
        WRONG_START_LOG: "Kasserine: Game-Turn 4, the Allied Player-Turn from a position one unit off",
    }
    for name, text in texts.items():
        kit.write_game(out_dir / name, text, codec, savedata(descriptions[name]), moduledata)
    return list(texts)
