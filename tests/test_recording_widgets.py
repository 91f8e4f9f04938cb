"""The game record at the tables, clicked as a student would: play, Download (the data: link's
JSON), Load it into another table (a file or a pasted link), replay back and forth and see the
positions of the game as it was played; a bad record or link leaves one line and the table as
it was; the review panel of a finished game."""

from __future__ import annotations

import base64
import datetime
import html
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pushluck_teach.ui.table import GameTable, play

DATA_LINK = re.compile(r'href="data:application/json;base64,([^"]+)"')


def downloaded(table: Any) -> str:
    """The JSON text the Download link saves."""
    match = DATA_LINK.search(table.recording.download_html.value)
    assert match, table.recording.download_html.value
    return base64.b64decode(match.group(1)).decode("utf-8")


def position(table: Any) -> tuple[Any, ...]:
    """What the table shows of a position: the engine's view, whose move, the scores."""
    engine = table.engine
    return (engine.view(), engine.is_over, None if engine.is_over else engine.current_player,
            tuple(engine.scores()))


def upload(table: Any, text: str) -> None:
    """Choose a file in the Load button (what the browser sends)."""
    table.recording.upload.value = ({"name": "game.json", "type": "application/json",
                                     "size": len(text),
                                     "last_modified": datetime.datetime(2024, 1, 1),
                                     "content": memoryview(text.encode("utf-8"))},)


def one_line(table: Any) -> str:
    text = html.unescape(re.sub(r"<[^>]+>", "", table.recording.message_html.value)).strip()
    assert text and "\n" not in text and "Traceback" not in text
    return text


def play_pig(seed: int, clicks: int) -> tuple[GameTable, dict[int, tuple[Any, ...]]]:
    """A human against the optimal bot: roll three times, then bank, until the game ends or
    ``clicks`` clicks; the position seen after each click, by the number of moves made."""
    table = GameTable("pig", seats=("human", "optimal"), seed=seed, background=False)
    seen = {0: position(table)}
    rolls = 0
    for _ in range(clicks):
        if table.engine.is_over:
            break
        legal = table.engine.legal_actions()
        action = "stop" if rolls >= 3 and "stop" in legal else "draw"
        rolls = 0 if action == "stop" else rolls + 1
        table.act(action)
        assert not table.message_is_error, table.message
        seen[len(table.recording.current_record().moves)] = position(table)
    return table, seen


@pytest.mark.parametrize("seed", [3])
def test_pig_record_downloaded_loaded_and_replayed_back_and_forth(seed: int) -> None:
    played, seen = play_pig(seed, 400)
    assert played.engine.is_over
    text = downloaded(played)
    data = json.loads(text)
    assert data["game"] == "pig" and data["seed"] == seed
    assert [s["policy"] for s in data["seats"]] == [None, "optimal"]
    fresh = GameTable("pig", seats=("human", "human"), seed=1, background=False)
    upload(fresh, text)
    assert fresh.seed == seed and tuple(fresh.seats) == ("human", "optimal")
    last = len(data["moves"])
    assert position(fresh) == seen[last]
    assert "Replay: move" in fresh.message
    assert fresh.action_buttons == {} or all(b.disabled for b in fresh.action_buttons.values())
    assert fresh.recording.forward_button.disabled
    steps = [last]
    while not fresh.recording.back_button.disabled:  # all the way back...
        fresh.recording.back_button.click()
        steps.append(fresh.recording.step)
        if fresh.recording.step in seen:
            assert position(fresh) == seen[fresh.recording.step]
    assert steps == list(range(last, -1, -1))
    while not fresh.recording.forward_button.disabled:  # ...and forward again
        fresh.recording.forward_button.click()
        if fresh.recording.step in seen:
            assert position(fresh) == seen[fresh.recording.step]
    assert fresh.recording.step == last
    fresh.recording.back_button.click()
    fresh.act("draw")  # a replay is not played on
    assert fresh.message_is_error and "replay" in fresh.message
    fresh.new_game()
    assert not fresh.message_is_error and fresh.engine.legal_actions()


def test_a_link_opens_the_game_and_a_pasted_link_too() -> None:
    played, seen = play_pig(5, 12)
    match = re.search(r'data-token="([^"]+)"', played.recording.download_html.value)
    assert match
    token = match.group(1)
    moves = len(played.recording.current_record().moves)
    other = GameTable("pig", seed=1, background=False)
    assert other.recording.open_query(f"?projector=0&game={token}")
    assert position(other) == seen[moves]
    pasted = GameTable("pig", seed=2, background=False)
    pasted.recording.paste.value = f"http://localhost:8866/voila/render/Play_Pig.ipynb?game={token}"
    pasted.recording.load_button.click()
    assert position(pasted) == seen[moves]
    assert not GameTable("pig", background=False).recording.open_query("?projector")


@pytest.mark.parametrize("bad, words", [
    ("{not json", "not JSON"),
    ('{"format": "pushluck-game-record", "version": 99}', "version"),
    ("?game=AAAA", "damaged"),
    ("", "nothing to load"),
])
def test_a_bad_record_or_link_is_one_line_and_the_game_goes_on(bad: str, words: str) -> None:
    table, _seen = play_pig(4, 5)
    before = position(table)
    table.recording.paste.value = bad
    table.recording.load_button.click()
    assert words in one_line(table)
    assert position(table) == before and not table._replaying
    table.act(table.engine.legal_actions()[0])
    assert not table.message_is_error


def test_a_record_that_no_longer_fits_and_another_games_record_say_so() -> None:
    played, _seen = play_pig(6, 30)
    data = json.loads(downloaded(played))
    data["seed"] = 7  # the same moves on another deal: the dice differ
    table = GameTable("pig", background=False)
    upload(table, json.dumps(data))
    assert "does not fit" in one_line(table)
    cards = play("lost-cities", background=False, seed=2)
    cards.click(cards.engine.legal_actions()[0])
    upload(table, downloaded(cards))
    assert "Lost Cities" in one_line(table) and "Play page" in one_line(table)


def test_lost_cities_record_replays_the_hands_of_the_game() -> None:
    table = play("lost-cities", background=False, seed=3)
    seen = {0: table.engine.view(0)}
    for _ in range(6):
        table.click(table.engine.legal_actions()[-1])
        seen[len(table.recording.current_record().moves)] = table.engine.view(0)
    other = play("lost-cities", background=False, seed=9)
    upload(other, downloaded(table))
    assert other.seed == 3
    while True:
        step = other.recording.step
        if step in seen:
            assert other.engine.view(0) == seen[step]
        if other.recording.back_button.disabled:
            break
        other.recording.back_button.click()
    assert other.recording.step == 0 and other.actions_box.children == ()


def test_review_of_a_bot_game_lists_every_decision_and_the_totals() -> None:
    table = GameTable("pig", seats=("threshold:20", "optimal"), seed=8, background=False)
    assert table.engine.is_over
    table.review.button.click()
    record = table.recording.current_record()
    rows = re.findall(r'<tr class="pushluck-review-decision[^"]*"', table.review.decisions_html
                      .value)
    assert len(rows) == len(record.moves)
    seats = re.findall(r'<tr class="pushluck-review-seat" data-player="(\d)">(.*?)</tr>',
                       table.review.seats_html.value)
    assert [p for p, _ in seats] == ["0", "1"]
    cells = [re.findall(r"<td>(.*?)</td>", row) for _, row in seats]
    # the turn-optimal bot gives nothing away in points this turn; the winner's result is 100
    assert cells[1][5] == "0.00"
    assert cells[0][3] == "100.00" and "won" in cells[0][8] and "lost" in cells[1][8]
    chart = table.review.chart
    assert len(chart.data[0].x) == len(record.moves) + 1
    costly_rows = [int(m) for m in re.findall(
        r'<tr class="pushluck-review-decision pushluck-review-costly"[^>]*><td>(\d+)</td>',
        table.review.decisions_html.value)]
    assert costly_rows and list(chart.data[1].x) == costly_rows  # marked after that move
    assert table.review.chart_box.layout.display != "none"


def test_review_in_the_background_is_cancelled_by_a_new_game() -> None:
    table = GameTable("pig", seats=("threshold:20", "threshold:25"), seed=2, background=True)
    table.wait_for_bots()
    table.review.button.click()
    table.new_game()  # the next click: the review in progress is dropped
    table.review._jobs.wait(120)
    assert table.review.result is None and table.review.decisions_html.value == ""
    table.wait_for_bots()
    table.review.button.click()
    table.review.wait(300)
    assert table.review.result is not None
    assert "Review of the finished game" in table.review.status.value


def test_nothing_to_review_before_the_first_move() -> None:
    table = GameTable("pig", seats=("human", "optimal"), seed=1, background=False)
    table.review.button.click()
    assert "play first" in table.review.status.value


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["pig", "captain-seven", "hit-list"]),
       seed=st.integers(min_value=0, max_value=10_000),
       choices=st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=25))
def test_any_hot_seat_game_round_trips_through_the_tables(game: str, seed: int,
                                                          choices: list[int]) -> None:
    """Two people at one screen click any legal buttons; the downloaded record, loaded into a
    fresh table, replays to every position they saw."""
    table = GameTable(game, seats=("human", "human"), seed=seed, coach="off", background=False)
    seen = {0: position(table)}
    for choice in choices:
        if table.engine.is_over:
            break
        legal = table.engine.legal_actions()
        table.act(legal[choice % len(legal)])
        assert not table.message_is_error, table.message
        seen[len(table.recording.current_record().moves)] = position(table)
    fresh = GameTable(game, seats=("human", "human"), seed=seed + 1, coach="off",
                      background=False)
    upload(fresh, downloaded(table))
    for step in sorted(seen, reverse=True):
        fresh.recording.go(step)
        assert position(fresh) == seen[step], step
