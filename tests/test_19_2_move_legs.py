"""Every drop is a waypoint: a unit's drags in a phase are the legs of one move (rules/mechanisms/legs.py,
through rules/turn.py `check_phase`), each case worked by hand from the Kasserine rulebook (seed
000) on the example board with terrain built here: every hex clear (1 MP), no road, trail or
stream, so that only the zones of control, the allowance and the entry hex decide.

19.2: during a Withdrawal "any and all of the Phasing Player's units may exit from Enemy Zones
of Control. In all other respects, the effects of Enemy Zones of Control fully apply." With the
pack's sticky zones of control (assumption zoc_mode) a unit entering an enemy zone stops there,
and may not leave one except in a Withdrawal. 19.21: withdrawing units, "subsequent to exiting
the Enemy-controlled hex, ... may not re-enter an Enemy-controlled hex".

The Allied unit at 1510 controls its six neighbours: 1409 1410 1509 1511 1609 1610.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

import vassal_adj
from vassal_adj.model.geometry.maps import board_hex_layouts
from vassal_adj.model.state import GameState, Position
from vassal_adj.model.terrain import TerrainMap
from vassal_adj.model.units import Unit
from vassal_adj.packs import load_pack
from vassal_adj.rules.engine import RuleContext
from vassal_adj.rules.mechanisms.setup import Entry
from vassal_adj.rules.results import Severity
from vassal_adj.rules.turn import (
    PhaseCheck,
    Reinforcements,
    TurnRules,
    check_phase,
    turn_rules,
)

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "modules" / "kasserine"
ZOC_OF_1510 = {"1409", "1410", "1509", "1511", "1609", "1610"}

GRENADIERS = Unit("g1", "3-4-11 (2/69)", "Axis", "mechanized-infantry", 11, attack=3, defense=4, mechanized=True)
PANZER = Unit("g2", "5-3-12 (2/7)", "Axis", "armor", 12, attack=5, defense=3, mechanized=True)
INFANTRY = Unit("a1", "1-2-7 (1/26)", "Allied", "infantry", 7, attack=1, defense=2)
GUARDS = Unit("a2", "1-2-7 (3/39)", "Allied", "infantry", 7, attack=1, defense=2)


def context(rough: tuple[str, ...] = ()) -> RuleContext:
    module = vassal_adj.load_module(PACK / "example" / "Kasserine.vmod")
    layout = board_hex_layouts(module.maps["Main Map"].boards["Kasserine"])[0]
    terrain = {layout.require(lab): frozenset({"rough" if lab in rough else "clear"}) for lab in layout.labels()}
    return RuleContext(TerrainMap(load_pack(PACK).pack.vocabulary, terrain), layout, "kasserine")


@pytest.fixture(scope="module")
def ctx() -> RuleContext:
    return context()


@pytest.fixture(scope="module")
def rules(ctx: RuleContext) -> TurnRules:
    return turn_rules(load_pack(PACK).pack, ctx)


def at(ctx: RuleContext, label: str) -> Position:
    return Position(box=label[4:]) if label.startswith("box:") else Position(ctx.layout.require(label), label)


def state(
    ctx: RuleContext,
    placed: dict[Unit, str],
    phase: str,
    turn: int = 2,
    weather: str = "good",
    withdrawal: str | None = None,
) -> GameState:
    """Units at labels (or "box:NAME"); `withdrawal`: the side whose marker is in this turn's box (19.0)."""
    markers = {f"{withdrawal} Withdrawal": (Position(box=f"Turn {turn}"),)} if withdrawal else {}
    return GameState(
        {u.id: u for u in placed}, {u.id: at(ctx, w) for u, w in placed.items()}, turn, phase, weather, markers
    )


def run(ctx: RuleContext, rules: TurnRules, st: GameState, unit: Unit, *stops: str) -> PhaseCheck:
    """`unit` dragged from stop to stop, one drag each."""
    drags = [(at(ctx, a), at(ctx, b)) for a, b in pairwise(stops)]
    return check_phase(st, st.phase, {unit.id: drags}, rules, ctx)


def errors(pc: PhaseCheck) -> list:
    return [f for f in pc.findings if f.severity == Severity.ERROR]


def test_19_2_drop_in_zoc_is_a_stop(ctx, rules) -> None:
    # The issue's example: 1513 -> 1508 in one drag has a legal detour round 1510's zone ...
    st = state(ctx, {INFANTRY: "1510", GRENADIERS: "1513"}, "axis-movement")
    (one,) = run(ctx, rules, st, GRENADIERS, "1513", "1508").moves
    assert one.ok and one.cost <= 11 and not ZOC_OF_1510 & set(one.path[1:])
    # ... but dropped at 1511 it stopped in the zone of control, and may not go on to 1508.
    pc = run(ctx, rules, st, GRENADIERS, "1513", "1511", "1508")
    (f,) = errors(pc)
    assert f.rule == "kasserine:19.2" and f.units == ("g1", "a1")  # the mover, then the unit exerting the zone
    assert f.message.startswith(
        "Axis 3-4-11 (2/69) moved 1513 -> 1511 -> 1508: leg 2, 1511 -> 1508: enemy zone "
        "of control at 1511 (of Allied 1-2-7 (1/26) in 1510) stops movement: the unit entered "
        "it this phase and may not move on [19.2]"
    )
    (m,) = pc.moves
    assert (m.ok, m.start, m.end, m.drags, m.path[:3]) == (False, "1513", "1508", 2, ("1513", "1512", "1511"))
    assert f.hexes == m.path  # the chain as tried, for a picture to draw


def test_19_2_the_stop_holds_in_a_withdrawal_too(ctx, rules) -> None:
    # A Withdrawal lets units exit the zones they begin in; one entered this phase still stops ("In all
    # other respects, the effects of Enemy Zones of Control fully apply").
    st = state(ctx, {INFANTRY: "1510", GRENADIERS: "1513"}, "axis-movement", withdrawal="Axis")
    (f,) = errors(run(ctx, rules, st, GRENADIERS, "1513", "1511", "1508"))
    assert (
        f.rule == "kasserine:19.2"
        and "enemy zone of control at 1511 (of Allied 1-2-7 (1/26) in 1510) stops movement" in f.message
    )
    # Leaving and coming back is two legs as well: into the zone at 1511, out again, illegal.
    (f,) = errors(run(ctx, rules, st, GRENADIERS, "1513", "1511", "1513"))
    assert f.rule == "kasserine:19.2" and "leg 2, 1511 -> 1513" in f.message


def test_19_21_a_withdrawing_unit_that_left_may_not_reenter_in_a_later_leg(ctx, rules) -> None:
    # The Allied unit begins in the zone of the Axis panzer at 1510 and withdraws (19.2) to 1512 ...
    st = state(ctx, {PANZER: "1510", INFANTRY: "1511"}, "allied-movement", turn=3, withdrawal="Allied")
    out = run(ctx, rules, st, INFANTRY, "1511", "1512")
    assert out.moves[0].ok and not errors(out)
    # ... and may not come back into the hex it left (19.21), nor into another enemy-controlled hex.
    for back in ("1511", "1610"):
        (f,) = errors(run(ctx, rules, st, INFANTRY, "1511", "1512", back))
        assert f.rule == "kasserine:19.21" and f.units == ("a1", "g2")
        assert (
            f"leg 2, 1512 -> {back}: withdrawing unit left enemy zone of control in leg 1 and may not "
            f"re-enter one at {back} (of Axis 5-3-12 (2/7) in 1510) [19.21]"
        ) in f.message
    on = run(ctx, rules, st, INFANTRY, "1511", "1512", "1513")  # away from the zone: legal, 2 MP
    assert on.moves[0].ok and on.moves[0].cost == 2 and on.moves[0].path == ("1511", "1512", "1513")
    # Without the Withdrawal it may not leave at all (19.2).
    (f,) = errors(run(ctx, rules, replace(st, markers={}), INFANTRY, "1511", "1512"))
    assert f.rule == "kasserine:19.2" and "may not leave it except in a Withdrawal" in f.message


def test_one_allowance_for_all_legs(ctx, rules) -> None:
    # 1-2-7: 7 MP. 1501 -> 1505 is 4 MP and 1505 -> 1501 4 MP: each within the allowance, together 8.
    st = state(ctx, {INFANTRY: "1501", PANZER: "3926"}, "allied-movement")
    pc = run(ctx, rules, st, INFANTRY, "1501", "1505", "1501")
    (f,) = errors(pc)
    assert f.rule == "kasserine:standard-movement"  # the allowance of the standard rules (good weather)
    assert f.message == (
        "Allied 1-2-7 (1/26) moved 1501 -> 1505 -> 1501: leg 2, 1505 -> 1501: needs 4 MP more "
        "after 4 MP spent by the legs before: 8 MP in all, allowance 7 [standard-movement]; "
        "cheapest attempt 1505 1504 1503 1502 1501 (4 MP)"
    )
    assert (pc.moves[0].ok, pc.moves[0].cost, pc.moves[0].allowance) == (False, 8, 7)
    # Poor weather (20.3: "seven or less are reduced by two"): 3 + 3 > 5, cited as 20.3; 3 + 2 is 5 of 5.
    poor = state(ctx, {INFANTRY: "1501", PANZER: "3926"}, "allied-movement", turn=6, weather="poor")
    (f,) = errors(run(ctx, rules, poor, INFANTRY, "1501", "1504", "1507"))
    assert f.rule == "kasserine:20.3" and "6 MP in all, allowance 5 in poor weather [20.3]" in f.message
    assert run(ctx, rules, poor, INFANTRY, "1501", "1504", "1506").moves[0].ok
    # Within it: 3 + 3 of 7, the whole chain's path and cost.
    (m,) = run(ctx, rules, st, INFANTRY, "1501", "1504", "1501").moves
    assert (m.ok, m.cost, m.path) == (True, 6, ("1501", "1502", "1503", "1504", "1503", "1502", "1501"))


def rough_entry(rules: TurnRules, unit: Unit, label: str, ctx: RuleContext) -> TurnRules:
    """`rules` with one reinforcement entry: `unit` on Game-Turn 2 at `label` (23)."""
    entry = Entry((unit.name,), (label,), (ctx.layout.require(label),), turn=2)
    return replace(
        rules,
        reinforcements=(
            Reinforcements(unit.side, (entry,), "allied-movement", ("axis-movement", "allied-movement"), "23"),
        ),
    )


def test_23_entry_hex_costs_its_terrain() -> None:
    # Assumption entry_cost (the SPI standard rules' reading): a reinforcement pays for its entry hex as
    # for any hex entered. 0105 is rough here: 2 MP (assumption terrain_costs), then clear hexes 1 MP each.
    ctx = context(rough=("0105",))
    rules = rough_entry(turn_rules(load_pack(PACK).pack, ctx), GUARDS, "0105", ctx)
    st = state(ctx, {GUARDS: "box:Turn 2", PANZER: "3926"}, "allied-movement")
    (m,) = run(ctx, rules, st, GUARDS, "box:Turn 2", "0105", "0110").moves  # 2 + 5 = 7 of 7
    assert (m.kind, m.ok, m.cost, m.path[0], m.path[-1]) == ("entry", True, 7, "0105", "0110")
    (only,) = run(ctx, rules, st, GUARDS, "box:Turn 2", "0105").moves
    assert (only.ok, only.cost, only.path) == (True, 2, ("0105",))
    pc = run(ctx, rules, st, GUARDS, "box:Turn 2", "0105", "0111")  # 2 + 6 = 8
    (f,) = errors(pc)
    assert f.rule == "kasserine:standard-movement"
    assert (
        "leg 2, 0105 -> 0111: needs 6 MP more after 2 MP to enter at 0105: 8 MP in all, allowance 7 [standard-movement]"
    ) in f.message
    # One drag straight to 0110: it entered at 0105 (the only entry hex) and moved on, paying the same.
    (m,) = run(ctx, rules, st, GUARDS, "box:Turn 2", "0110").moves
    assert (m.ok, m.cost, m.path[0]) == (True, 7, "0105")
    # With entry_cost "free" (a pack that reads the standard rules otherwise) the entry hex costs nothing.
    free = replace(rules, movement=replace(rules.movement, entry_cost="free"))
    assert run(ctx, free, st, GUARDS, "box:Turn 2", "0105", "0111").moves[0].cost == 6


def test_a_drag_that_does_not_move_is_no_leg(ctx, rules) -> None:
    # A drop on the hex it was dragged from moves nothing and costs nothing (not even in the wrong phase).
    st = state(ctx, {INFANTRY: "1501", PANZER: "3926"}, "axis-movement")
    assert run(ctx, rules, st, INFANTRY, "1501", "1501").findings == ()
