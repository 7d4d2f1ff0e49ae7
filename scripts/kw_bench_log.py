"""A long Kesselring's War log for scripts/bench_verify.py: Scenario II from GT 4 (the opening of
kw_faults' clean log), each Game-Turn a whole Command phase to the example's protocol (5.1 events
rolls, the first turn's applied on the tracks, 5.2.1 AP rolls and gains, the tracker through every
segment), then an Action phase of
alternating one-AP move actions (6.1: the side's AP marker down by 1, then one unit moves one
hex, forth on one action and back on its next), until the number of actions asked for is made;
both sides pass at the end of each Action phase. Written with the example's own scripts into
`out_dir` (the module too).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import example_kit as kit
import kw_module as km
import make_kw_example as mke
from example_table import Step, Table, logged, play
from kw_faults import TURN4
from kw_places import moved, reduced, setup_places

from vassal_adj.codec.obfuscation import Codec
from vassal_adj.parse.commands import Node, encode

# Each side's movers: (unit, one hex, the next hex): clear or road hexes, out of enemy zones.
MOVERS = {
    "Allied": [
        ("5 [UK infantry XX] 5-5-4 *", "2027", "1927"),
        ("4 Armd [UK armor X] 3-2-6 *", "2027", "1926"),
        ("3 [US infantry XX] 6-5-4 *", "1326", "1327"),
    ],
    "Axis": [
        ("29 PzGr [GE panzergrenadier XX] 6-5-5 *", "2028", "2128"),
        ("15 PzGr [GE panzergrenadier XX] 6-5-5 *", "3321", "3320"),
        ("1 FJ [GE airborne XX] 5-6-4 *", "3112", "3111"),
    ],
}
# 5.2.1: die + Staging Area (Allies 6, Axis 2) + 4 garrisoned Objectives each (kw_faults.CLEAN).
GAIN = {"Allied": ("3", 3 + 6 + 4), "Axis": ("4", 4 + 2 + 4)}
PER_TURN = 20  # actions a Game-Turn, ten a side


def _new_turn(table: Table, turn: int) -> Node:
    """The tracker's Next from End of Turn to the next Game-Turn's Events, with its report."""
    name = table.sheet.players["Allied"][0]
    report = f"* &lt;{name}&gt; Turn Updated from Turn {turn}: End of Turn to Turn {turn + 1}: Events"
    return logged(Node("TURNTurnTracker0\t" + km.tracker_state(turn + 1, "Events"), [Node("CHAT" + report)]))


def write_log(out_dir: Path, actions: int) -> tuple[Path, Path]:
    """The module and a log of `actions` actions in `out_dir`: (module, log)."""
    mke.main(out_dir)
    counters = km.counters()
    places = moved(setup_places("II", counters), TURN4)
    # the clock numbers the stacks the moves make: a day on, clear of the pieces' ids
    table = Table.opening(mke.sheet("II"), counters, places, km.layout(), kit.FIXED_MS + mke.DAY, reduced("II"))
    ap = {"Allied": 4, "Axis": 3}
    at = {unit: a for side in MOVERS for unit, a, _ in MOVERS[side]}
    opening = table.save_children(4, "Events")
    nodes: list[Node] = []
    done, turn = 0, 4
    while done < actions:
        # 5.1: SHAEF Support (+4 AP) and OKW Support (+2 AP), each once a game (28.0): rolled again, ignored
        steps: list[Step] = [("roll", "Allied", "5"), ("roll", "Axis", "6")]
        if turn == 4:
            ap["Allied"], ap["Axis"] = ap["Allied"] + 4, ap["Axis"] + 2
            steps.insert(1, ("move", "Allied", "Allied Action Points", f"Allied AP {ap['Allied']}"))
            steps.append(("move", "Axis", "Axis Action Points", f"Axis AP {ap['Axis']}"))
        steps.append(("turn", "Allied", "Action Points"))
        for side in ("Allied", "Axis"):
            roll, gain = GAIN[side]
            ap[side] = min(km.AP_MAX, ap[side] + gain)
            steps += [("roll", side, roll), ("move", side, f"{side} Action Points", f"{side} AP {ap[side]}")]
        steps += [("turn", "Allied", p) for p in ("Withdrawal", "Reinforcement", "Initiative", "Action")]
        for k in range(min(PER_TURN, actions - done)):
            side = ("Allied", "Axis")[k % 2]
            unit, a, b = MOVERS[side][(k // 2) % len(MOVERS[side])]
            ap[side] -= 1
            at[unit] = b if at[unit] == a else a
            steps += [("move", side, f"{side} Action Points", f"{side} AP {ap[side]}"), ("move", side, unit, at[unit])]
            done += 1
        steps += [
            ("chat", "Allied", "Allied passes"),
            ("chat", "Axis", "Axis passes"),
            ("turn", "Allied", "End of Turn"),
        ]
        played, _ = play(table, steps, turn, "Events")
        nodes += played
        if done < actions:
            nodes.append(_new_turn(table, turn))
            turn += 1
    log = out_dir / "bench-actions.vlog"
    savedata = mke.metadata(f"  <description>bench: {actions} actions</description>\n")
    kit.write_game(log, encode(Node("begin_save", opening + nodes)), Codec(True, mke.KEY), savedata, mke.MODULEDATA)
    return out_dir / "KesselringsWar.vmod", log
