"""The variant lab on the command line: ``pushluck odds custom --rules`` and ``pushluck sweep``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pushluck_teach.cli import main
from pushluck_teach.games.custom import CAPTAIN_SEVEN_RULES, custom_position
from pushluck_teach.games.rules_format import rules_to_json
from pushluck_teach.solve.turn import TurnSolver


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_of_a_built_game_from_a_rule_file(tmp_path: Path, capsys) -> None:
    rules = CAPTAIN_SEVEN_RULES.replace(bust_ending=3)
    path = tmp_path / "threes.json"
    path.write_text(rules_to_json(rules), encoding="utf-8")
    code, out, _ = _run(capsys, "odds", "custom", "--rules", str(path), "--drawn", "Kh 5d",
                        "--json", "--exact")
    assert code == 0
    data = json.loads(out)
    model, state = custom_position(rules, drawn="Kh 5d")
    expected = TurnSolver(model, exact=True).analyse(state)
    assert Fraction(data["ev_optimal_exact"]) == expected.ev_optimal
    assert Fraction(data["p_bust_next_exact"]) == expected.p_bust_next


def test_options_apply_on_top_of_the_rule_file(tmp_path: Path, capsys) -> None:
    path = tmp_path / "sevens.json"
    path.write_text(rules_to_json(CAPTAIN_SEVEN_RULES), encoding="utf-8")
    code, out, _ = _run(capsys, "odds", "custom", "--rules", str(path), "--drawn", "Kh 5d",
                        "--option", "bank_minimum=40", "--json")
    assert code == 0
    assert json.loads(out)["ev_stop"] is None  # 15 may not be banked under a minimum of 40


@pytest.mark.parametrize(("text", "field"), [
    ('{"format": "pushluck-rules/1", "decks": 9}', "'decks'"),
    ('{"format": "pushluck-rules/1", "bust_counts": [{"n": 2}]}', "'bust_counts[0].kind'"),
    ("{not json", "not JSON"),
    ('{"format": "pushluck-rules/1", "game": "pig"}', "variant of pig"),
])
def test_a_bad_rule_file_is_one_line_naming_the_field(tmp_path: Path, capsys, text: str,
                                                      field: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = _run(capsys, "odds", "custom", "--rules", str(path))
    assert code == 2 and not out
    assert err.count("\n") == 1 and field in err


def test_a_missing_rule_file_and_a_game_without_rule_files(tmp_path: Path, capsys) -> None:
    code, _, err = _run(capsys, "odds", "custom", "--rules", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read rule file" in err and "none.json'" in err
    path = tmp_path / "r.json"
    path.write_text(rules_to_json(CAPTAIN_SEVEN_RULES), encoding="utf-8")
    code, _, err = _run(capsys, "odds", "hit-list", "--rules", str(path))
    assert code == 2 and "--rules does not apply to hit-list" in err


def test_sweep_json_and_progress(capsys) -> None:
    code, out, err = _run(capsys, "sweep", "pig", "--option", "target=10..20:10",
                          "--whole-game", "--skip-turn", "--json")
    assert code == 0
    data = json.loads(out)
    assert [p["value"] for p in data["points"]] == [10, 20]
    assert all(0.5 < p["win_chance"] < 1 for p in data["points"])
    assert "[1/2] target=10" in err and "[2/2] target=20" in err


def test_sweep_turn_analysis_of_a_built_game(tmp_path: Path, capsys) -> None:
    rules = CAPTAIN_SEVEN_RULES.replace(bank_minimum=0, remove_ranks=("2", "3", "4", "5", "6"))
    path = tmp_path / "short.json"
    path.write_text(rules_to_json(rules), encoding="utf-8")
    code, out, _ = _run(capsys, "sweep", "custom", "--rules", str(path), "--option",
                        "bank_minimum=30..40:10", "--json")
    assert code == 0
    points = json.loads(out)["points"]
    for point in points:
        model, state = custom_position(rules.replace(bank_minimum=point["value"]))
        assert point["turn_value"] == pytest.approx(float(TurnSolver(model).value(state)))
        assert point["stop_rule"].startswith(("Stop", "Keep"))


@pytest.mark.parametrize(("argv", "message"), [
    (["sweep", "pig", "--option", "target=5"], "exactly one --option KEY=A..B"),
    (["sweep", "pig", "--option", "target=9..3"], "need A <= B"),
    (["sweep", "pig", "--option", "colour=1..3"], "unknown option 'colour'"),
    (["sweep", "pig", "--option", "target=1..3", "--workers", "0"], "--workers"),
])
def test_bad_sweeps_are_one_line_errors(capsys, argv: list[str], message: str) -> None:
    code, out, err = _run(capsys, *argv)
    assert code == 2 and not out
    assert message in err and err.count("\n") == 1
