"""The game record: JSON round trips, replay step by step, ``?game=`` links, and one clear line
for every record or link that cannot be used."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.games.base import all_games, get_game
from pushluck_teach.games.record import (
    GameRecord,
    Move,
    RecordBuilder,
    RecordError,
    record_from_token,
    record_to_token,
    schema_text,
)
from pushluck_teach.sim.record import play_recorded_game

DOCS = Path(__file__).resolve().parent.parent / "docs"

#: Quick bot games of every game (threshold bots need no solving for their draw/stop choices).
QUICK_GAMES: dict[str, tuple[list[str], list[str]]] = {
    "pig": (["threshold:15", "threshold:25"], ["target=40"]),
    "captain-seven": (["threshold:15", "threshold:25"], ["target=40"]),
    "hit-list": (["threshold:15", "threshold:20"], []),
    "incan-gold": (["threshold:5", "threshold:15"], ["rounds=2"]),
    "lands-uncharted": (["threshold:12", "threshold:20"], []),
    "custom": (["threshold:12", "threshold:18"], []),
    "lost-cities": (["simple", "simple"], ["matches=1"]),
}


def quick_record(game: str, seed: int) -> GameRecord:
    seats, options = QUICK_GAMES[game]
    spec = get_game(game)
    return play_recorded_game(spec, spec.variant(options), seats, seed)


def data_of(record: GameRecord) -> dict[str, Any]:
    return json.loads(record.to_json())


def refusal(data: dict[str, Any] | str) -> str:
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(RecordError) as caught:
        GameRecord.from_json(text)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("game record: ")
    return message


def test_every_game_is_covered() -> None:
    assert set(QUICK_GAMES) == {spec.name for spec in all_games()}


def test_the_published_schema_is_the_one_the_loader_uses() -> None:
    assert (DOCS / "game-record.schema.json").read_text() == schema_text()


@pytest.mark.parametrize("game", sorted(QUICK_GAMES))
def test_a_record_round_trips_through_json_and_a_link(game: str) -> None:
    record = quick_record(game, 11)
    assert record.finished and record.moves
    assert GameRecord.from_json(record.to_json()) == record
    assert record_from_token(record_to_token(record)) == record


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(sorted(QUICK_GAMES)), seed=st.integers(0, 2 ** 40))
def test_a_loaded_record_replays_to_the_same_positions(game: str, seed: int) -> None:
    """record -> JSON -> record -> the same table views at every step."""
    record = quick_record(game, seed)
    again = GameRecord.from_json(record.to_json(indent=None))
    first, second = record.replay(), again.replay()
    assert len(first) == len(record.moves) + 1 == len(second)
    assert [s.view for s in first.steps] == [s.view for s in second.steps]
    assert [s.lines for s in first.steps] == [s.lines for s in second.steps]
    assert second.steps[-1].view.scores == tuple(record.scores)


def test_the_builder_writes_down_each_roll_a_person_sees() -> None:
    """Pig, seed 4, by hand: the log says what each roll was; the record holds the same."""
    builder = RecordBuilder.start(get_game("pig"), seats=["Ann", "Bo"], seed=4)
    lines = builder.act("draw") + builder.act("draw")
    rolled = [line.split("rolls ")[1].split(":")[0].split(" ")[0] for line in lines]
    record = builder.to_record()
    assert [m.drawn for m in record.moves] == [(rolled[0],), (rolled[1],)]
    assert [m.player for m in record.moves] == [0, 0]
    assert not record.finished and record.seats[0].name == "Ann" and record.seats[0].policy is None


def test_lost_cities_records_the_dealt_hands() -> None:
    record = quick_record("lost-cities", 3)
    engine = record.new_engine()
    hands = [zone.cards for zone in engine.view(viewer=None).zones if zone.key.startswith("hand")]
    assert len(record.setup) == 16
    assert sorted(record.setup) == sorted(code for hand in (engine.hand(0), engine.hand(1))
                                          for code in (card.code for card in hand))
    assert hands  # the table has hands to show


def test_replay_goes_forwards_and_backwards() -> None:
    record = quick_record("pig", 5)
    replay = record.replay()
    middle = len(replay) // 2
    engine = replay.engine_at(middle)
    assert engine.view() == replay.steps[middle].view
    assert replay.engine_at(0).view() == replay.steps[0].view
    assert replay.steps[middle].move == record.moves[middle - 1]
    with pytest.raises(RecordError):
        replay.engine_at(len(replay))


def test_truncated_is_the_game_so_far() -> None:
    record = quick_record("custom", 2)
    cut = record.truncated(5)
    assert cut.moves == record.moves[:5] and not cut.finished
    assert GameRecord.from_json(cut.to_json()) == cut


# --------------------------------------------------------------------------------------------
# One clear line for what cannot be used


def test_wrong_version_unknown_game_and_not_json() -> None:
    data = data_of(quick_record("pig", 1))
    assert "version 7" in refusal({**data, "version": 7})
    assert "unknown game 'poker'" in refusal({**data, "game": "poker"})
    assert "not JSON" in refusal("{\"format\": ")
    assert "not a game record" in refusal({"format": "pushluck-rules/1"})
    assert "expected a JSON object" in refusal("[1, 2]")


def test_rules_that_no_longer_fit_say_so() -> None:
    data = data_of(quick_record("pig", 1))
    data["rules"]["options"]["jokers"] = 2
    message = refusal(data)
    assert "no longer fit" in message and "jokers" in message


def test_a_card_that_cannot_be_in_the_deck() -> None:
    data = data_of(quick_record("custom", 1))   # one standard deck, no jokers
    move = next(m for m in data["moves"] if m["drawn"])
    move["drawn"][0] = "JK"
    message = refusal(data)
    assert "'JK'" in message and "cannot be in this game's deck" in message


def test_a_card_other_than_the_deal_turns_up() -> None:
    data = data_of(quick_record("pig", 1))
    move = next(m for m in data["moves"] if m["drawn"])
    move["drawn"][0] = "6" if move["drawn"][0] != "6" else "5"
    assert "does not fit these rules" in refusal(data)


def test_a_decision_that_is_not_legal_there() -> None:
    data = data_of(quick_record("pig", 1))
    data["moves"][0]["action"] = "stop"   # Pig: a turn starts with a roll
    message = refusal(data)
    assert "move 1" in message and "not legal" in message and "draw" in message


def test_a_move_by_the_wrong_player_and_a_wrong_result() -> None:
    data = data_of(quick_record("pig", 1))
    data["moves"][0]["player"] = 1
    assert "Player 1 is to move" in refusal(data)
    data = data_of(quick_record("pig", 1))
    data["scores"] = [1, 2]
    assert "scores" in refusal(data)


def test_schema_breaks_name_the_field() -> None:
    data = data_of(quick_record("pig", 1))
    del data["seed"]
    assert "'seed' is missing" in refusal(data)
    data = data_of(quick_record("pig", 1))
    data["moves"][0]["colour"] = "red"
    assert "unknown field 'colour'" in refusal(data)
    data = data_of(quick_record("pig", 1))
    data["seed"] = -1
    assert "seed" in refusal(data)


def test_a_damaged_link_gets_one_line() -> None:
    token = record_to_token(quick_record("pig", 1))
    for damaged in (token[:-7], token[:10] + "!!" + token[12:], "", "abc"):
        with pytest.raises(RecordError) as caught:
            record_from_token(damaged)
        assert str(caught.value).startswith("game link: ") and "\n" not in str(caught.value)
    bad_inside = base64.urlsafe_b64encode(zlib.compress(b'{"format": 1}')).decode()
    with pytest.raises(RecordError, match="^game link: not a game record"):
        record_from_token(bad_inside)


def test_a_move_list_cannot_claim_a_move_after_the_end() -> None:
    record = quick_record("pig", 1)
    data = data_of(record)
    data["moves"].append({"player": 0, "action": "draw", "drawn": []})
    assert "after the game is over" in refusal(data)
    assert Move(0, "draw") == Move(0, "draw", ())
