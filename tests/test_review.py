"""The post-game review against independent references: a small Pig solver written here (it
imports nothing of the package) for the turn's expected points and the two-player chance to
win; the optimal bot's costs are exactly zero; skill and luck add up to the result; the
``pushluck record`` and ``pushluck review`` commands."""

from __future__ import annotations

import json
import threading
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from pushluck_teach.cli import main
from pushluck_teach.games.base import get_game
from pushluck_teach.games.record import GameRecord
from pushluck_teach.sim.record import play_recorded_game
from pushluck_teach.solve.review import ReviewCancelled, review_game

GOLDEN = Path(__file__).parent / "golden" / "record_review.txt"
TARGET = 25
SIDES = 6


# --------------------------------------------------------------------------------------------
# An independent Pig: the turn's expected points (capped at what reaching the target needs) and
# the two-player chance to win, by value iteration.


@cache
def turn_value(total: int, cap: int) -> Fraction:
    """Best expected points of a Pig turn from ``total``, points past ``cap`` worth nothing."""
    if total >= cap:
        return Fraction(cap)
    roll = roll_value(total, cap)
    return max(roll, Fraction(total)) if total > 0 else roll


def roll_value(total: int, cap: int) -> Fraction:
    return sum((turn_value(total + face, cap) for face in range(2, SIDES + 1)),
               Fraction(0)) / SIDES


@cache
def win_table() -> dict[tuple[int, int, int], float]:
    """P(the player to move wins) at (my score, their score, turn total), both optimal."""
    chance = {(i, j, k): 0.5 for i in range(TARGET) for j in range(TARGET)
              for k in range(TARGET - i)}
    while True:
        change = 0.0
        for (i, j, k), old in chance.items():
            new = max(win_roll(chance, i, j, k),
                      win_hold(chance, i, j, k) if k > 0 else 0.0)
            change = max(change, abs(new - old))
            chance[i, j, k] = new
        if change < 1e-14:
            return chance


def win_roll(chance: dict[tuple[int, int, int], float], i: int, j: int, k: int) -> float:
    bust = 1.0 - chance[j, i, 0]
    faces = sum(1.0 if i + k + face >= TARGET else chance[i, j, k + face]
                for face in range(2, SIDES + 1))
    return (bust + faces) / SIDES


def win_hold(chance: dict[tuple[int, int, int], float], i: int, j: int, k: int) -> float:
    return 1.0 if i + k >= TARGET else 1.0 - chance[j, i + k, 0]


def test_the_reference_agrees_with_a_hand_count() -> None:
    """Turn total 0, cap 2: a roll that is not a 1 reaches the cap: 5/6 x 2."""
    assert turn_value(0, 2) == Fraction(5, 3)
    assert turn_value(4, 4) == 4


# --------------------------------------------------------------------------------------------


def pig_record(seats: list[str], seed: int) -> GameRecord:
    spec = get_game("pig")
    return play_recorded_game(spec, spec.variant([f"target={TARGET}"]), seats, seed)


def pig_facts(record: GameRecord) -> list[tuple[int, int, int, int]]:
    """(player, my score, their score, turn total) before each move, read off a replay."""
    facts = []
    for step, move in zip(record.replay().steps, record.moves, strict=False):
        view = step.view
        me = move.player
        facts.append((me, int(view.scores[me]), int(view.scores[1 - me]), int(view.turn_total)))
    return facts


def test_hold_at_20_pays_for_rolling_past_the_target_in_points() -> None:
    """With 22 banked of 25 a turn can use 3 points: rolling at a turn total of 3 or more gives
    up a sixth of them (the 1), which the hold-at-20 player does."""
    for seed in range(40):
        record = pig_record(["threshold:20", "optimal"], seed)
        review = review_game(record)
        facts = pig_facts(record)
        found = [(d, facts[d.move]) for d in review.decisions
                 if d.player == 0 and d.choice == "draw" and
                 facts[d.move][3] >= TARGET - facts[d.move][1] > 0]
        if found:
            break
    else:
        pytest.fail("no seed gave the hold-at-20 player a roll past the target")
    for decision, (_, mine, _theirs, _total) in found:
        cap = TARGET - mine
        assert decision.cost == Fraction(cap, 6) and decision.exact
        assert decision.best == "stop" and decision.costly == (Fraction(cap, 6) >= Fraction(1, 2))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_cost_matches_the_independent_pig(seed: int) -> None:
    record = pig_record(["threshold:20", "optimal"], seed)
    review = review_game(record)
    facts = pig_facts(record)
    chance = win_table()
    assert len(review.decisions) == len(record.moves)
    for decision in review.decisions:
        _, mine, theirs, total = facts[decision.move]
        cap = TARGET - mine
        roll = roll_value(total, cap)
        values = {"draw": roll} | ({"stop": Fraction(min(total, cap))} if total else {})
        assert dict(decision.values) == values
        assert decision.cost == max(values.values()) - values[decision.choice]
        win = {"draw": win_roll(chance, mine, theirs, total)}
        if total:
            win["stop"] = win_hold(chance, mine, theirs, total)
        assert decision.win_values is not None and decision.win_cost is not None
        assert decision.win_values == pytest.approx(win, abs=1e-9)
        assert decision.win_cost == pytest.approx(max(win.values()) - win[decision.choice],
                                                  abs=1e-9)
        best_by_reference = max(win.values()) - win[decision.choice] > 1e-9
        assert (decision.win_cost > 0) == best_by_reference


@pytest.mark.parametrize("seed", [1, 4])
def test_skill_and_luck_add_up_to_the_result(seed: int) -> None:
    record = pig_record(["threshold:20", "optimal"], seed)
    review = review_game(record)
    chance = win_table()
    for seat in review.seats:
        # the result, by hand: every point banked up to the target (past it is worth nothing)
        assert seat.result == min(record.scores[seat.player], TARGET)
        assert seat.result - seat.expected == seat.luck - seat.skill
        assert isinstance(seat.luck, Fraction) and seat.exact
        assert seat.win_result == (1.0 if seat.player in record.winners else 0.0)
        assert seat.win_result - seat.win_start == pytest.approx(
            seat.win_luck - seat.win_skill + seat.win_gifts, abs=1e-9)
    assert review.seats[0].win_start == pytest.approx(chance[0, 0, 0], abs=1e-9)
    assert review.seats[0].win_luck == pytest.approx(-review.seats[1].win_luck, abs=1e-12)
    # each turn's expected points: the reference's value of its start
    firsts = [d for d in review.decisions if d.player == 0]
    starts = [d for d in firsts if d.position.startswith("turn total 0;")]
    assert review.seats[0].expected == sum(
        (turn_value(0, TARGET - int(d.position.split("score ")[1].split(" ")[0]))
         for d in starts), Fraction(0))
    series = review.win_series
    assert series[-1].chance == review.seats[0].win_result
    assert [p.move for p in series] == sorted(p.move for p in series)
    assert {p.costly_player for p in series} <= {None, 0, 1}


@pytest.mark.parametrize(("game", "options", "seats"), [
    ("pig", ["target=30"], 2), ("custom", [], 2), ("hit-list", [], 2),
    pytest.param("captain-seven", ["target=25"], 1, marks=pytest.mark.slow),
    ("lands-uncharted", ["target=30"], 1)])
def test_the_optimal_bots_costs_are_exactly_zero(game: str, options: list[str],
                                                 seats: int) -> None:
    spec = get_game(game)
    record = play_recorded_game(spec, spec.variant(options), ["optimal"] * seats, 7)
    review = review_game(record)
    scored = [d for d in review.decisions if d.scored]
    assert scored and all(d.cost == 0 for d in scored)
    # exact fractions wherever the turn was solved exactly (a large turn: floats, as the page)
    assert all(isinstance(d.cost, Fraction) for d in scored if d.exact)
    assert any(d.exact for d in scored)
    assert all(d.best == d.choice for d in scored)
    assert all(seat.skill == 0 for seat in review.seats)


def test_a_threshold_bot_pays_where_it_differs() -> None:
    spec = get_game("custom")
    record = play_recorded_game(spec, spec.variant(), ["threshold:20", "optimal"], 7)
    review = review_game(record)
    assert review.seats[0].skill > 0 and review.seats[1].skill == 0
    costly = [d for d in review.decisions if d.cost > 0]
    assert costly and all(d.player == 0 and d.best != d.choice for d in costly)


def test_progress_is_reported_and_cancel_stops_between_moves() -> None:
    record = pig_record(["threshold:20", "optimal"], 1)
    seen: list[tuple[int, int]] = []
    review_game(record, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(k, len(record.moves)) for k in range(1, len(record.moves) + 1)]
    stop = threading.Event()

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            stop.set()
    with pytest.raises(ReviewCancelled):
        review_game(record, progress=stop_after_three, cancel=stop)


def test_lost_cities_is_valued_by_its_stated_plan_model_and_says_so() -> None:
    spec = get_game("lost-cities")
    record = play_recorded_game(spec, spec.variant(["matches=1"]), ["odds", "simple"], 2)
    review = review_game(record)
    assert len(review.decisions) == len(record.moves)
    assert all(d.scored and d.approximate and not d.exact for d in review.decisions)
    assert all(set(d.values) == set(engine_legal) for d, engine_legal in
               zip(review.decisions, legal_actions(record), strict=True))
    odds, simple = review.seats
    assert odds.skill < simple.skill and simple.costly > 0
    assert odds.luck is None and odds.expected is None
    assert odds.result == record.scores[0]
    assert any("plan model" in note for note in review.notes)
    # a turn is a play and a draw
    assert [d.turn for d in review.decisions[:4]] == [1, 1, 1, 1]
    assert review.decisions[4].turn == 2


def legal_actions(record: GameRecord) -> list[tuple[str, ...]]:
    engine = record.new_engine()
    seen = []
    for move in record.moves:
        seen.append(engine.legal_actions())
        engine.act(move.action)
    return seen


# --------------------------------------------------------------------------------------------
# The command line


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_record_then_review(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "record", "pig", "--seed", "3", "--seats",
                         "threshold:20,optimal", "--option", f"target={TARGET}")
    assert code == 0 and err == ""
    record = GameRecord.from_json(out)
    assert record == pig_record(["threshold:20", "optimal"], 3)
    path = tmp_path / "game.json"
    path.write_text(out)
    code, text, err = run(capsys, "review", str(path))
    assert code == 0 and err == ""
    review = review_game(record)
    lines = text.splitlines()
    assert lines[1].split() == ["seat", "turn", "position", "choice", "best", "cost", "best",
                                "to", "win", "win", "cost"]
    rows = lines[2:2 + len(review.decisions)]
    for row, decision in zip(rows, review.decisions, strict=True):
        assert f"{float(decision.cost):.2f}" in row and decision.choice_label in row
    code, out, err = run(capsys, "review", str(path), "--json")
    data = json.loads(out)
    assert [d["cost"] for d in data["decisions"]] == [float(d.cost) for d in review.decisions]
    assert Fraction(data["seats"][0]["skill_exact"]) == review.seats[0].skill
    assert data["seats"][0]["win_skill"] == review.seats[0].win_skill


def test_the_review_prints_the_recorded_transcript(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    """tests/golden/record_review.txt: a short Pig game and its review, checked by hand
    (the rolls, each hold-at-20 roll past the target costing a sixth of the points left)."""
    transcript = GOLDEN.read_text()
    record_part, review_part = transcript.split("$ pushluck review game.json\n")
    command, recorded = record_part.split("\n", 1)
    code, out, _ = run(capsys, *command.removeprefix("$ pushluck ").split())
    assert code == 0 and out == recorded
    path = tmp_path / "game.json"
    path.write_text(out)
    code, out, _ = run(capsys, "review", str(path))
    assert code == 0 and out == review_part


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["record", "pig", "--seats", "optimal,wizard"], "unknown bot 'wizard'"),
        (["record", "pig", "--seats", "optimal,"], "name a bot for every seat"),
        (["record", "lost-cities", "--seats", "simple"], "takes 2-2 seats"),
        (["record", "pig", "--seats", "optimal,optimal", "--seed", "-3"], "seed"),
        (["record", "pig", "--seats", "optimal,optimal", "--option", "target=0"], "target"),
        (["record", "pig"], "--seats"),
        (["review", "/nonexistent/game.json"], "cannot read game record '/nonexistent/game.json'"),
        (["review", "/"], "a directory"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                          message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_damaged_record_file_is_one_line(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    data = json.loads(pig_record(["optimal", "optimal"], 1).to_json())
    data["moves"][0]["action"] = "stop"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, "review", str(path))
    assert code == 2 and "move 1" in err and len(err.strip().splitlines()) == 1
    path.write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "review", str(path))
    assert code == 2 and "not UTF-8" in err


def test_incan_gold_in_company_is_marked_approximate_alone_it_is_not() -> None:
    spec = get_game("incan-gold")
    variant = spec.variant(["rounds=1"])
    company = play_recorded_game(spec, variant, ["threshold:5", "threshold:12"], 4)
    review = review_game(company.truncated(3))
    reasons = [d.approximate for d in review.decisions]
    assert reasons and all("stated rule" in r or "as if alone" in r for r in reasons)
    assert any("threshold 12 leaves at 12" in r for r in reasons)
    alone = play_recorded_game(spec, variant, ["optimal"], 4)
    solo = review_game(alone)
    assert all(not d.approximate and d.cost == 0 for d in solo.decisions)
