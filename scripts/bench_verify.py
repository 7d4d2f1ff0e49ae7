"""Time `verify_turn` on a generated 500-move log of the Kasserine example (target: under 1 s), or
with `--game kw` on a 100-action log of the Kesselring's War example (target: under 1 s), or with
`--game kasserine-example` on the Kasserine example's own turn-4 logs (issue 16: `batch` should
judge 20 games of that size a second on two cores, so 100 ms of CPU a game, all of it included).

The log opens on the example set-up and walks Game-Turns 2 to 12 (then again): in each
Allied Movement phase every Allied unit on the map moves two hexes in one drag, and in the
next one moves back, each move legal in any weather and onto an empty hex (one path search
per move); the tracker steps through all four phases of every turn. Printed: moves, phases,
the time of the replay alone (the floor: decode and replay) and of replay + verify_turn,
moves per second, and the ratio to the 1 s target.

The Kesselring's War log (scripts/kw_bench_log.py, written with the example's scripts into a
temporary folder) plays Scenario II from GT 4: each Game-Turn a whole Command phase (event and AP
rolls, AP gains on the track), then one-AP move actions, the sides alternating, each the AP
marker dragged down and one unit moved one hex (`--actions`, 100 by default).

The example's logs (turn4-axis.vlog, turn4-restart.vlog, turn4-wrong-start.vlog) are judged as
they are, faults and all (turn4-axis.vlog has a move whose legal way is longer than the allowance:
its diagnosis runs seven path searches); printed: each log's replay + verify_turn, best of the runs,
and the share of the 100 ms a game may cost in all.

    python scripts/bench_verify.py [--runs 5] [--moves 500] [--game kasserine|kw|kasserine-example] [--actions 100]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from benchkit import best

import vassal_adj
from vassal_adj.codec.obfuscation import Codec
from vassal_adj.model.geometry.hexes import Hex, neighbors
from vassal_adj.model.geometry.maps import module_map
from vassal_adj.model.module import Module
from vassal_adj.pack_files import LoadedPack
from vassal_adj.packs import load_pack
from vassal_adj.parse.commands import Node, encode
from vassal_adj.pbem.replay import replay
from vassal_adj.pbem.verify import verify_turn
from vassal_adj.rules.mechanisms.movement import legal_path
from vassal_adj.rules.turn import turn_rules
from vassal_adj.savedgame import SavedGame
from vassal_adj.state_builder import game_state

EXAMPLE = Path(__file__).resolve().parents[1] / "modules" / "kasserine" / "example"
PHASES = ("axis-movement", "axis-combat", "allied-movement", "allied-combat")
TARGET = 1.0  # seconds for a 500-move log, path searches included
GAME_BUDGET = 0.1  # seconds of CPU a game of the example's size (issue 16: 20 games a second on two cores)
EXAMPLE_LOGS = ("turn4-axis.vlog", "turn4-restart.vlog", "turn4-wrong-start.vlog")


def _turn(n: int, phase: int) -> Node:
    return Node(f"LOG\tTURNTurnTracker0\t0|{n};0;false;-1;{phase}\\;0\\;0\\;true,true,true,true")


def make_log(moves: int) -> tuple[Module, SavedGame]:
    """The example set-up followed by `moves` drags of Allied units, as described above."""
    module = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod")
    setup = vassal_adj.load_save(EXAMPLE / "setup.vsav")
    lp = load_pack(EXAMPLE.parent)
    state, ctx, _ = game_state(module, setup, lp, turn=6, weather="poor")
    rules = turn_rules(lp.pack, ctx).movement
    board = module_map(module, "Main Map", save=setup)
    taken = set(state.occupied())
    legs: dict[str, tuple[Hex, Hex, Hex]] = {}
    for uid, unit in sorted(state.units.items()):
        a = state.hex_of(uid)
        if unit.side != "Allied" or a is None:
            continue
        for b in neighbors(a):  # a two-hex move legal even in poor weather, onto hexes nobody uses
            c = next(
                (
                    c
                    for c in neighbors(b)
                    if c != a and c not in taken and c not in neighbors(a) and c in ctx.terrain.hex_terrain
                ),
                None,
            )
            if b in taken or c is None or b not in ctx.terrain.hex_terrain:
                continue
            if all(legal_path(state, ctx.terrain, uid, s, g, rules).ok for s, g in ((a, c), (c, a))):
                legs[uid] = (a, b, c)
                taken |= {b, c}
                break

    def drag(uid: str, to: Hex, frm: Hex) -> Node:
        (x, y), (fx, fy) = (board.hex_center(ctx.label(h)) for h in (to, frm))
        return Node(f"LOG\tM/{uid}/Main Map/{x}/{y}/null/Main Map/{fx}/{fy}/null/pw")

    steps: list[Node] = []
    done, n, forth = 0, 2, True
    while done < moves:
        for p in range(4):
            steps.append(_turn(n, p))
            if PHASES[p] != "allied-movement":
                continue
            for uid, (a, _, c) in legs.items():
                if done < moves:
                    steps.append(drag(uid, c, a) if forth else drag(uid, a, c))
                    done += 1
            forth = not forth
        n = n + 1 if n < 12 else 2  # the weather table (20.4) covers turns 1-12
    root = setup.root
    return module, SavedGame.new(encode(Node(root.text, [*root.children, *steps])), codec=Codec(True, 7))


def kw_log(actions: int, out_dir: Path) -> tuple[Module, SavedGame, LoadedPack]:
    """The Kesselring's War example's module and a log of `actions` actions, written in `out_dir`."""
    from kw_bench_log import write_log
    from kw_module import PACK_DIR

    module_path, log = write_log(out_dir, actions)
    return vassal_adj.load_module(module_path), vassal_adj.load_save(log), load_pack(PACK_DIR)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--moves", type=int, default=500)
    ap.add_argument("--game", choices=["kasserine", "kw", "kasserine-example"], default="kasserine")
    ap.add_argument("--actions", type=int, default=100)
    args = ap.parse_args()
    if args.game == "kw":
        with tempfile.TemporaryDirectory() as tmp:
            module, game, lp = kw_log(args.actions, Path(tmp))
            print(f"Kesselring's War log: {args.actions} actions")
            time_verify(module, game, lp, args.runs)
        return
    if args.game == "kasserine-example":
        time_examples(args.runs)
        return
    module, game = make_log(args.moves)
    time_verify(module, game, load_pack(EXAMPLE.parent), args.runs)


def time_verify(module: Module, game: SavedGame, lp: LoadedPack, runs: int) -> None:
    """Replay and verify `game` (best of `runs`) and print the figures."""
    rp = replay(game.root, module, game.path)
    result = verify_turn(module, game, lp, rp)
    bad = [f for f in result.findings if f.severity.value == "error"]
    floor = best(lambda: replay(game.root, module, game.path), runs)
    total = best(lambda: verify_turn(module, game, lp, replay(game.root, module, game.path)), runs)
    drags = sum(m.drags for m in result.moves)
    print(
        f"log: {drags} drags, {len(result.moves)} moves, {len(result.phases)} phases, "
        f"{len(bad)} error findings (expected 0)"
    )
    for f in bad[:5]:
        print(f"  {f.severity.value} {f.rule}: {f.message}")
    print(f"replay alone (floor): {floor * 1000:.1f} ms")
    print(
        f"replay + verify_turn: {total * 1000:.1f} ms = {len(result.moves) / total:,.0f} moves/s; "
        f"{total / TARGET:.2f} x the {TARGET:g} s target ({total / floor:.1f} x the floor)"
    )


def time_examples(runs: int) -> None:
    """Replay and verify each of the example's turn-4 logs (best of `runs`) and print the figures."""
    module, lp = vassal_adj.load_module(EXAMPLE / "Kasserine.vmod"), load_pack(EXAMPLE.parent)
    for name in EXAMPLE_LOGS:
        game = vassal_adj.load_save(EXAMPLE / name)
        result = verify_turn(module, game, lp, replay(game.root, module, game.path))
        total = best(lambda game=game: verify_turn(module, game, lp, replay(game.root, module, game.path)), runs)
        print(
            f"{name}: {len(result.moves)} moves, {len(result.findings)} findings; replay + verify_turn "
            f"{total * 1000:.1f} ms = {total / GAME_BUDGET:.2f} x the {GAME_BUDGET * 1000:g} ms a game may cost"
        )


if __name__ == "__main__":
    main()
