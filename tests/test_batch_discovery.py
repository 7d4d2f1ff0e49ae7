"""batch discovery and evidence (issue 16): games by folder or name pattern, in savedata's
order; fingerprints of the savedGame text and their chain."""

from __future__ import annotations

import shutil

import pytest
from batch_games import EXAMPLE, redated, tournament

from vassal_adj.batch.discovery import find_games, saved_date
from vassal_adj.batch.evidence import chain, fingerprint, gaps
from vassal_adj.errors import UsageError


def test_a_folder_per_game_ordered_by_saved_date_then_name(tmp_path):
    games = {g.name: g for g in find_games(str(tournament(tmp_path)))}
    assert sorted(games) == ["broken", "clean", "foreign"]
    # a-turn4.vlog sorts first by name but was saved an hour after b-setup.vsav
    assert [p.rsplit("/", 1)[1] for p in games["clean"].files] == ["b-setup.vsav", "a-turn4.vlog"]
    # the cut log has no readable date: after the dated file
    assert games["broken"].files[-1].endswith("turn4.vlog")


def test_loose_files_grouped_by_the_name_pattern(tmp_path):
    redated(EXAMPLE / "setup.vsav", tmp_path / "smith_vs_jones-1.vsav", 2)
    redated(EXAMPLE / "setup.vsav", tmp_path / "smith_vs_jones-0.vsav", 1)
    shutil.copy(EXAMPLE / "setup.vsav", tmp_path / "lee-1.vsav")
    default = {g.name: len(g.files) for g in find_games(str(tmp_path))}
    assert default == {"lee": 1, "smith": 2}
    named = find_games(str(tmp_path), r"(?P<game>.+)-\d+\.")
    assert [g.name for g in named] == ["lee", "smith_vs_jones"]
    assert named[1].files[0].endswith("-0.vsav")


@pytest.mark.parametrize("group", ["(", r"(\w+)-"])
def test_a_bad_pattern_is_a_usage_error(tmp_path, group):
    shutil.copy(EXAMPLE / "setup.vsav", tmp_path / "a-1.vsav")
    with pytest.raises(UsageError):
        find_games(str(tmp_path), group)


def test_an_empty_folder_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match="no saves or logs"):
        find_games(str(tmp_path))


def test_the_fingerprint_is_of_the_game_text_not_the_zip(tmp_path):
    # re-dated: other savedata and zip bytes, the same savedGame text
    copy = redated(EXAMPLE / "setup.vsav", tmp_path / "copy.vsav", 5)
    assert copy.read_bytes() != (EXAMPLE / "setup.vsav").read_bytes()
    a, b = fingerprint(str(EXAMPLE / "setup.vsav")), fingerprint(str(copy))
    assert a.sha256 == b.sha256 and a.of == "savedGame" and len(a.short) == 12
    broken = tmp_path / "cut.vlog"
    broken.write_bytes(b"PK\x03\x04 not really")
    assert fingerprint(str(broken)).of == "bytes"
    assert saved_date(str(copy)) == 5 and saved_date(str(broken)) is None


def test_the_chain_changes_with_order_and_with_any_file():
    s, log = fingerprint(str(EXAMPLE / "setup.vsav")), fingerprint(str(EXAMPLE / "turn4-axis.vlog"))
    other = fingerprint(str(EXAMPLE / "turn4-restart.vlog"))
    assert chain([s, log])[0] == chain([s])[0]
    assert chain([s, log])[-1] != chain([log, s])[-1]
    assert chain([s, log])[-1] != chain([s, other])[-1]


def test_gaps_per_player_in_hours():
    hour = 3_600_000
    assert gaps([0, 2 * hour, None, 5 * hour, 6 * hour], [None, "Erwin", "Lloyd", "Lloyd", None]) == {
        "Erwin": [2.0],
        "unknown": [1.0],
    }
