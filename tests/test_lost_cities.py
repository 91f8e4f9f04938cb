"""Lost Cities: scoring (rule-sheet examples, hypothesis), the engine's rules, hot-seat hiding,
and the exact expedition odds against hand counts and against simulated deals."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.games import lost_cities as lc
from pushluck_teach.games.base import IllegalActionError, OptionError, PositionError, RulesError

# --------------------------------------------------------------------------------------------
# Scoring


@pytest.mark.parametrize(("cards", "score"), [
    ("2 3 7 8 10", 10),            # rule sheet, example 1
    ("H H 4 5 6 7 8 10", 80),      # example 2
    ("H 4 6 7", -6),               # example 3
    ("", 0),
    ("RH", -40),                   # one handshake, no numbers: (0 - 20) x 2
    ("G2 G3 G4 G5 G6 G7 G8 G9", 44 - 20 + 20),
])
def test_rule_sheet_scores(cards: str, score: int) -> None:
    assert lc.score_expedition(cards).total == score


def test_breakdown_of_example_two() -> None:
    result = lc.score_expedition("H H 4 5 6 7 8 10")
    assert (result.handshakes, result.numbers_sum, result.multiplier) == (2, 40, 3)
    assert (result.base, result.multiplied, result.bonus, result.card_count) == (20, 60, 20, 8)
    assert result.as_json()["score"] == 80


@pytest.mark.parametrize(("cards", "words"), [
    ("5 3", "must rise"),
    ("4 H", "handshake"),
    ("R4 R4", "twice"),
    ("R4 B5", "mix"),
    ("H H H H", "only 3"),
    ("R11", "rank"),
    ("X4", "bad card"),
])
def test_bad_expeditions_name_the_problem(cards: str, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        lc.score_expedition(cards)


@st.composite
def legal_expeditions(draw: st.DrawFn) -> tuple[int, list[int]]:
    handshakes = draw(st.integers(0, 3))
    numbers = sorted(draw(st.sets(st.integers(2, 10))))
    return handshakes, numbers


def _recompute(handshakes: int, numbers: list[int]) -> int:
    """Score as a player does at the table: count -20, add each number, multiply, then bonus."""
    if handshakes == 0 and not numbers:
        return 0
    value = -20
    for number in numbers:
        value += number
    value *= handshakes + 1
    if handshakes + len(numbers) >= 8:
        value += 20
    return value


@settings(deadline=None)   # the machine is shared: no per-example time limit
@given(legal_expeditions(), st.sampled_from(lc.COLOURS))
def test_any_legal_expedition_matches_recomputation(exp: tuple[int, list[int]],
                                                    colour: str) -> None:
    handshakes, numbers = exp
    cards = [lc.LCCard.of(colour, 0)] * handshakes + [lc.LCCard.of(colour, n) for n in numbers]
    assert lc.score_expedition(cards).total == _recompute(handshakes, numbers)
    text = " ".join(["H"] * handshakes + [str(n) for n in numbers])
    assert lc.score_expedition(text, colour).total == _recompute(handshakes, numbers)


@settings(deadline=None)
@given(legal_expeditions())
def test_bonus_is_not_multiplied(exp: tuple[int, list[int]]) -> None:
    handshakes, numbers = exp
    result = lc.score_expedition(" ".join(["H"] * handshakes + [str(n) for n in numbers]))
    if handshakes + len(numbers) == 0:
        assert result.total == 0 and result.bonus == 0   # an empty expedition scores 0
        return
    expected_bonus = 20 if handshakes + len(numbers) >= 8 else 0
    assert result.total - (sum(numbers) - 20) * (handshakes + 1) == expected_bonus
    assert result.bonus == expected_bonus


@settings(deadline=None)
@given(legal_expeditions())
def test_descending_numbers_are_refused(exp: tuple[int, list[int]]) -> None:
    handshakes, numbers = exp
    if len(numbers) < 2:
        return
    text = " ".join(["H"] * handshakes + [str(n) for n in reversed(numbers)])
    with pytest.raises(PositionError, match="must rise"):
        lc.score_expedition(text)


# --------------------------------------------------------------------------------------------
# Engine


def _new(seed: int = 3, matches: int = 3) -> lc.LostCitiesEngine:
    return lc.LostCitiesEngine(lc.LostCitiesVariant(matches=matches), 2, seed)


def _all_cards(engine: lc.LostCitiesEngine) -> Counter[lc.LCCard]:
    cards = Counter(engine.hand(0) + engine.hand(1) + engine.public_cards())
    cards.update(engine._deck)
    return cards


def test_deal_is_seeded_and_complete() -> None:
    a, b = _new(7), _new(7)
    assert a.hand(0) == b.hand(0) and a.hand(1) == b.hand(1)
    assert a.hand(0) != _new(8).hand(0)
    assert len(a.hand(0)) == len(a.hand(1)) == 8 and a.deck_left == 44
    assert _all_cards(a) == Counter(lc.full_deck())
    assert len(lc.full_deck()) == 60
    assert Counter(c.colour for c in lc.full_deck()) == {c: 12 for c in lc.COLOURS}


@pytest.mark.parametrize("matches", [0, 10, "x"])
def test_matches_option_range(matches: object) -> None:
    with pytest.raises(OptionError, match="matches"):
        lc.LostCitiesVariant(matches=matches)  # type: ignore[arg-type]


def test_two_players_only() -> None:
    with pytest.raises(RulesError, match="2 players"):
        lc.LostCitiesEngine(lc.LostCitiesVariant(), 3, 0)


def _rig(engine: lc.LostCitiesEngine, hand: str, deck_top: str = "") -> None:
    """Put a chosen hand in the mover's seat (swapping cards with the deck), the test's setup."""
    me = engine.current_player
    wanted = list(lc.parse_cards(hand))
    pool = engine._deck + engine._hands[me]
    for card in wanted:
        pool.remove(card)
    engine._hands[me] = sorted(wanted)
    tops = list(lc.parse_cards(deck_top))
    for card in tops:
        pool.remove(card)
    engine._deck = pool + tops[::-1]


def test_illegal_moves_are_refused_with_reasons() -> None:
    engine = _new(1)
    _rig(engine, "R5 R7 RH R3 B4 B6 G2 G9", deck_top="Y2")
    with pytest.raises(IllegalActionError, match="play or discard"):
        engine.act("draw:deck")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        engine.act("play:Y10")
    with pytest.raises(IllegalActionError, match="unknown action"):
        engine.act("fly:R5")
    engine.act("play:R5")
    with pytest.raises(IllegalActionError, match="draw a card now"):
        engine.act("play:R7")
    with pytest.raises(IllegalActionError, match="empty"):
        engine.act("draw:G")
    engine.act("draw:deck")
    assert engine.current_player == 1
    # player 2 discards; player 1 may then take it, but player 2 may not take it back
    other = engine.hand(1)[0]
    engine.act(f"discard:{other.code}")
    with pytest.raises(IllegalActionError, match="just discarded"):
        engine.act(f"draw:{other.colour}")
    assert f"draw:{other.colour}" not in engine.legal_actions()
    engine.act("draw:deck")
    with pytest.raises(IllegalActionError, match="numbers rise"):
        engine.act("play:R3")
    with pytest.raises(IllegalActionError, match="handshake cannot follow"):
        engine.act("play:RH")
    assert "play:R7" in engine.legal_actions() and "play:R3" not in engine.legal_actions()
    engine.act(f"discard:{other.code}" if other in engine.hand(0) else "discard:R3")
    assert engine.hand(0).count(lc.LCCard.of("Y", 2)) == 1  # drew the rigged Y2 earlier


def test_drawing_a_discard_takes_the_top() -> None:
    engine = _new(2)
    first = engine.hand(0)[0]
    engine.act(f"discard:{first.code}")
    engine.act("draw:deck")
    engine.act(f"discard:{engine.hand(1)[-1].code}")
    engine.act("draw:deck")
    assert f"draw:{first.colour}" in engine.legal_actions() or engine.phase == "play"
    engine.act(engine.legal_actions()[-1])          # player 1 discards a card
    if f"draw:{first.colour}" in engine.legal_actions():
        pile_before = engine.discard_pile(first.colour)
        engine.act(f"draw:{first.colour}")
        assert engine.discard_pile(first.colour) == pile_before[:-1]
        assert pile_before[-1] in engine.hand(0)


def _score_by_hand(engine: lc.LostCitiesEngine, player: int) -> int:
    total = 0
    for colour in lc.COLOURS:
        pile = engine.expedition(player, colour)
        if pile:
            hs = sum(c.is_handshake for c in pile)
            total += _recompute(hs, [c.rank for c in pile if not c.is_handshake])
    return total


def test_a_random_game_keeps_the_rules_and_scores_each_match() -> None:
    engine = _new(11)
    rng = random.Random(5)
    starters = [engine.current_player]
    while not engine.is_over:
        match = engine.match_number
        assert _all_cards(engine) == Counter(lc.full_deck())
        if engine.phase == "play":
            assert len(engine.hand(engine.current_player)) == 8
        # prefer deck draws so that the game finishes quickly
        legal = engine.legal_actions()
        action = "draw:deck" if engine.phase == "draw" and rng.random() < 0.8 else \
            rng.choice(legal)
        if engine.deck_left == 1 and engine.phase == "draw" and action == "draw:deck":
            expected = (_score_by_hand(engine, 0), _score_by_hand(engine, 1))
            engine.act(action)
            assert engine.match_results[-1].totals == expected
            if not engine.is_over:
                assert engine.match_number == match + 1 and engine.deck_left == 44
                starters.append(engine.current_player)
            continue
        engine.act(action)
    assert len(engine.match_results) == 3 and starters == [0, 1, 0]
    assert engine.scores() == tuple(sum(m.totals[p] for m in engine.match_results)
                                    for p in range(2))
    assert engine.legal_actions() == () and engine.winners()
    with pytest.raises(IllegalActionError, match="over"):
        engine.act("draw:deck")


def test_view_hides_the_other_hand() -> None:
    engine = _new(4)
    view = engine.view()
    hands = {z.key: z for z in view.zones if z.key.startswith("hand")}
    assert hands["hand:0"].cards == tuple(c.code for c in engine.hand(0))
    assert hands["hand:1"].hidden and hands["hand:1"].cards == () and hands["hand:1"].count == 8
    assert len([z for z in view.zones if z.key.startswith("discard")]) == 5
    assert len([z for z in view.zones if z.key.startswith("expedition")]) == 10
    assert all(z.hidden for z in engine.view(None).zones if z.key.startswith("hand"))


# --------------------------------------------------------------------------------------------
# Exact odds: hand-computed cases


def test_turn_clock() -> None:
    assert lc.turns_left(44) == (22, 21, 22)
    assert lc.turns_left(3) == (2, 1, 1)
    assert lc.turns_left(1) == (1, 0, 0)
    assert lc.turns_left(3, "draw") == (1, 1, 1)
    assert lc.turns_left(2, "draw") == (0, 0, 1)


def test_last_turn_plays_one_card() -> None:
    odds = lc.expedition_odds("R", hand="R5 R6 R7 R8", deck_left=1)
    assert odds.plan.probabilities == ((-15, 1),)
    assert all(m.p_drawn_in_time == 0 and m.p_opponent_holds == Fraction(8, 9)
               for m in odds.missing)
    # one more handshake takes the only turn: (0 - 20) x 2
    assert odds.extra_handshake is not None
    assert odds.extra_handshake.probabilities == ((-40, 1),)


def test_one_draw_in_time_by_hand() -> None:
    # R2-R5 on the expedition (14), R6 in hand; deck 3: play R6 (20), draw one of 11 unseen,
    # play it if it is R7-R10 (the handshakes are dead).  Score r with 1/11 each, else 0.
    odds = lc.expedition_odds("R", hand="R6", expedition="2 3 4 5", deck_left=3)
    assert odds.unseen == 11 and (odds.my_turns, odds.draws_in_time) == (2, 1)
    assert dict(odds.plan.probabilities) == {0: Fraction(7, 11), 7: Fraction(1, 11),
                                             8: Fraction(1, 11), 9: Fraction(1, 11),
                                             10: Fraction(1, 11)}
    assert odds.plan.mean == Fraction(34, 11)
    by_card = {m.card.code: m for m in odds.missing}
    assert by_card["R9"].p_played == Fraction(1, 11) and by_card["RH"].p_played == 0
    assert by_card["R9"].p_opponent_holds == Fraction(8, 11)
    assert odds.extra_handshake is None and "number" in odds.extra_handshake_note
    assert odds.points_needed == 0 and odds.points_so_far == 14 and odds.points_in_hand == 6


def test_bad_positions() -> None:
    with pytest.raises(PositionError, match="named 2 times"):
        lc.expedition_odds("R", hand="R4", seen="R4", deck_left=10)
    with pytest.raises(PositionError, match="deck count"):
        lc.expedition_odds("R", hand="R4", deck_left=0)
    with pytest.raises(PositionError, match="colour"):
        lc.expedition_odds("Q", hand="R4", deck_left=5)
    with pytest.raises(PositionError, match="rise"):
        lc.expedition_odds("R", expedition="5 4", deck_left=5)
    with pytest.raises(PositionError, match="must be red"):
        lc.expedition_odds("R", expedition="B4", deck_left=5)


# --------------------------------------------------------------------------------------------
# Exact odds against simulated deals


def _simulate(colour: str, hand: str, expedition: str, seen: str, deck_left: int,
              trials: int, seed: int) -> dict[str, list[float]]:
    """Deal the unseen cards at random (opponent's 8, then the deck, top first), let both players
    draw from the deck in turn, and play the plan card by card with real rule checks."""
    rng = random.Random(seed)
    known = Counter(lc.parse_cards(hand) + lc.parse_cards(expedition, colour)
                    + lc.parse_cards(seen))
    unseen_c = [c for c in lc.full_deck() if c.colour == colour]
    for card, n in known.items():
        for _ in range(n):
            if card in unseen_c:
                unseen_c.remove(card)
    pool_size = deck_left + 8
    my_turns = (deck_left + 1) // 2
    out: dict[str, list[float]] = {"score": [], "positive": []}
    for card in sorted(set(unseen_c)):
        for key in ("played", "drawn", "opponent"):
            out[f"{key}:{card.code}"] = []
    for _ in range(trials):
        pool: list[lc.LCCard | None] = list(unseen_c) + [None] * (pool_size - len(unseen_c))
        rng.shuffle(pool)
        opponent, deck = pool[:8], pool[8:]
        mine_in_time = [deck[2 * i] for i in range(my_turns - 1)]
        table = list(lc.parse_cards(expedition, colour))
        held = [c for c in lc.parse_cards(hand) if c.colour == colour]
        played_now: list[lc.LCCard] = []
        for turn in range(my_turns):
            playable = [c for c in held if lc.expedition_problem(table + [c]) is None]
            if playable:
                card = min(playable)
                held.remove(card)
                table.append(card)
                played_now.append(card)
            if turn < my_turns - 1:
                drawn = mine_in_time[turn]
                if drawn is not None:
                    held.append(drawn)
        score = lc.score_expedition(table).total
        out["score"].append(score)
        out["positive"].append(float(score > 0))
        for card in sorted(set(unseen_c)):
            copies = unseen_c.count(card)
            from_unseen = sum(1 for c in mine_in_time if c == card)
            from_hand = sum(1 for c in lc.parse_cards(hand) if c == card)
            played_from_unseen = min(from_unseen, played_now.count(card) - from_hand)
            out[f"played:{card.code}"].append(max(played_from_unseen, 0) / copies)
            out[f"drawn:{card.code}"].append(from_unseen / copies)
            out[f"opponent:{card.code}"].append(opponent.count(card) / copies)
    return out


def _within_4_se(samples: list[float], exact: Fraction) -> bool:
    n = len(samples)
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    se = math.sqrt(var / n)
    return abs(mean - float(exact)) <= 4 * se + 1e-12


@pytest.mark.parametrize(("colour", "hand", "expedition", "seen", "deck"), [
    ("R", "R3 R5 RH B4 B6 G2 Y7 W9", "", "R7 B3", 20),
    ("G", "G8 G9 B4 B6 Y2 Y7 W9 W10", "GH 4 6", "G5 G2", 12),
    ("B", "B2 B10 G4 G6 Y2 Y7 W9 W10", "", "", 9),
])
def test_exact_odds_agree_with_simulated_deals(colour: str, hand: str, expedition: str,
                                               seen: str, deck: int) -> None:
    odds = lc.expedition_odds(colour, hand=hand, expedition=expedition, seen=seen,
                              deck_left=deck)
    sim = _simulate(colour, hand, expedition, seen, deck, trials=3000, seed=deck)
    assert _within_4_se(sim["score"], odds.plan.mean)
    assert _within_4_se(sim["positive"], odds.plan.p_positive)
    for m in odds.missing:
        code = m.card.code
        assert _within_4_se(sim[f"played:{code}"], m.p_played), code
        assert _within_4_se(sim[f"drawn:{code}"], m.p_drawn_in_time), code
        assert _within_4_se(sim[f"opponent:{code}"], m.p_opponent_holds), code
    assert sum(p for _, p in odds.plan.probabilities) == 1


def test_one_more_handshake_is_holding_an_unseen_one() -> None:
    """"With one more handshake" = the plan when an unseen handshake is in your hand (whose
    plan the simulation above checks)."""
    odds = lc.expedition_odds("Y", hand="Y4 Y6 Y9 B2 B3 G7 G8 W10", deck_left=20)
    holding = lc.expedition_odds("Y", hand="YH Y4 Y6 Y9 B2 B3 G7 G8", deck_left=20)
    assert odds.extra_handshake is not None
    assert odds.extra_handshake.probabilities == holding.plan.probabilities
    none_left = lc.expedition_odds("Y", hand="YH Y4", seen="YH YH", deck_left=20)
    assert none_left.extra_handshake is None and "accounted" in none_left.extra_handshake_note


def test_command_line_answers() -> None:
    variant = lc.LostCitiesVariant()
    score = lc.score_from_flags(variant, {"expedition": "H H 4 5 6 7 8 10"})
    assert score.text_lines()[0] == "80" and score.as_json()["bonus"] == 20
    odds = lc.odds_from_flags(variant, {"colour": "r", "hand": "R6", "expedition": "2 3 4 5",
                                        "deck_left": "3"})
    assert odds.as_json(exact=True)["plan"]["mean"] == "34/11"
    assert odds.as_json()["turns"] == {"yours": 2, "your_draws_in_time": 1, "opponent": 1}
    with pytest.raises(PositionError, match="--colour"):
        lc.odds_from_flags(variant, {"deck_left": 3})
    with pytest.raises(PositionError, match="--deck-left"):
        lc.odds_from_flags(variant, {"colour": "R"})


# --------------------------------------------------------------------------------------------
# Registration and the command line


def _cli(*argv: str) -> tuple[int, str, str]:
    import contextlib
    import io

    from pushluck_teach.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_registered_without_a_turn_model() -> None:
    from pushluck_teach.games import all_games, get_game, turn_games

    spec = get_game("lost-cities")
    assert spec in all_games() and spec not in turn_games() and not spec.has_turn_model
    assert set(spec.bots) == {"simple", "odds", "search"}
    engine = spec.new_engine(seed=1)
    for name in spec.bots:
        assert spec.bots[name]().choose(engine) in engine.legal_actions()
    report = spec.odds(spec.variant_cls(), spec.example)
    assert report.text_lines() and report.as_json()["colour"] == "R"
    with pytest.raises(PositionError, match="no draw/stop turn"):
        engine.turn_position()


def test_cli_score() -> None:
    import json

    assert _cli("score", "lost-cities", "H H 4 5 6 7 8 10")[1].splitlines()[0] == "80"
    code, out, err = _cli("score", "lost-cities", "2 3 7 8 10", "--json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"cards": ["R2", "R3", "R7", "R8", "R10"], "handshakes": 0,
                               "numbers_sum": 30, "card_count": 5, "multiplier": 1,
                               "base": 10, "multiplied": 10, "bonus": 0, "score": 10}
    assert _cli("score", "lost-cities", "H 4 6 7")[1].splitlines()[0] == "-6"
    for bad, words in [("5 4", "must rise"), ("4 H", "handshake"), ("R4 R4", "twice"),
                       ("R4 B5", "mix"), ("R²", "bad card"), ("Q7", "bad card")]:
        code, out, err = _cli("score", "lost-cities", bad)
        assert code == 2 and out == "" and words in err and len(err.splitlines()) == 1, bad


def test_cli_odds_agrees_with_the_engine_position() -> None:
    import json

    engine = lc.LostCitiesEngine(lc.LostCitiesVariant(), 2, 8)
    for action in ("discard:" + engine.hand(0)[0].code, "draw:deck",
                   "discard:" + engine.hand(1)[0].code, "draw:deck"):
        engine.act(action)
    for colour in lc.COLOURS:
        flags = engine.position_flags(colour)
        argv = ["odds", "lost-cities", "--json", "--exact"]
        for name, value in flags.items():
            argv += ["--" + name.replace("_", "-"), value]
        code, out, err = _cli(*argv)
        assert code == 0 and err == "", err
        assert json.loads(out) == engine.analysis(colour).as_json(exact=True)
    code, _, err = _cli("odds", "lost-cities", "--colour", "R", "--deck-left", "x")
    assert code == 2 and "deck count" in err
    code, _, err = _cli("odds", "lost-cities", "--hand", "R4", "--deck-left", "20")
    assert code == 2 and "--colour" in err
    code, _, err = _cli("odds", "pig", "--colour", "R")
    assert code == 2 and "does not apply to pig" in err
