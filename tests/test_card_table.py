"""The card-play table (ui/card_table.py) with Lost Cities: a whole seeded match by clicks, hot
seat, refused clicks, the odds panel against the command line, the opponent menu (each bot, a
classmate, a change mid-game), the draw buttons' labels, the log's order and the charts' axes."""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import re
import shlex
import threading
from fractions import Fraction
from html import unescape
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pushluck_teach.cli import main
from pushluck_teach.games import lost_cities as lc
from pushluck_teach.games.base import RulesError
from pushluck_teach.games.lost_cities.bots import make_bot
from pushluck_teach.ui import play
from pushluck_teach.ui.card_table import CardTable, number_axis
from pushluck_teach.ui.table import action_class


def buttons(table: CardTable) -> dict[str, object]:
    found = {}
    for row in table.actions_box.children:
        for button in row.children:
            name = next(c for c in button._dom_classes if c.startswith("pushluck-action-"))
            found[name] = button
    return found


def click(table: CardTable, action: str) -> None:
    shown = buttons(table)
    assert action_class(action) in shown, (action, sorted(shown))
    shown[action_class(action)].click()


def hidden_hands(table: CardTable) -> set[int]:
    """The players whose hand the page shows face down."""
    html = table.table_html.value
    hidden = set()
    for player in range(2):
        zone = html.split(f'data-zone="hand:{player}"')[1].split("data-zone=")[0]
        if "face down" in zone:
            hidden.add(player)
    return hidden


def recount(engine: lc.LostCitiesEngine, player: int) -> int:
    """Each expedition scored by hand: (numbers - 20) x (1 + handshakes), +20 from 8 cards."""
    total = 0
    for colour in lc.COLOURS:
        pile = engine.expedition(player, colour)
        if pile:
            hs = sum(c.is_handshake for c in pile)
            total += (sum(c.rank for c in pile) - 20) * (1 + hs) + (20 if len(pile) >= 8 else 0)
    return total


def test_a_whole_seeded_match_by_clicks() -> None:
    table = play("lost-cities", seats=("human", "simple"), seed=4, options={"matches": 1},
                 background=False)
    assert isinstance(table, CardTable)
    me = make_bot("odds", 1)
    clicks = 0
    while not table.engine.is_over:
        assert table.engine.current_player == 0
        visible = set(buttons(table))
        assert visible == {action_class(a) for a in table.engine.legal_actions()}
        click(table, me.choose(table.engine))
        clicks += 1
        assert clicks < 400
    engine = table.engine
    assert engine.scores() == (recount(engine, 0), recount(engine, 1))
    assert "Game over" in table.message and buttons(table) == {}
    assert str(engine.scores()[0]) in table.status.value
    assert table.headline.value.count("over") == 1


def test_the_same_seed_replays_the_same_deal() -> None:
    a = CardTable("lost-cities", seed=9, background=False)
    b = CardTable("lost-cities", seed=9, background=False)
    assert a.engine.hand(0) == b.engine.hand(0)
    hand = next(z for z in a.engine.view(0).zones if z.key == "hand:0")
    for face in hand.faces:
        assert f'aria-label="{face.label}"' in a.table_html.value
    assert hidden_hands(a) == {1}                                    # the bot's hand


def test_bad_clicks_leave_the_game_unchanged() -> None:
    table = CardTable("lost-cities", seed=2, background=False)
    before = (table.engine.hand(0), len(table.engine.log))
    table.click("play:R99")
    assert "bad card" in table.message and "pushluck-message-error" in table.message_html.value
    table.click("draw:deck")
    assert "play or discard" in table.message
    assert (table.engine.hand(0), len(table.engine.log)) == before
    with pytest.raises(RulesError, match="unknown seat"):
        CardTable("lost-cities", seats=("human", "oracle"))
    with pytest.raises(RulesError, match="GameTable"):
        CardTable("pig")


def test_hot_seat_hides_each_hand_until_its_player_shows_it() -> None:
    table = CardTable("lost-cities", seats=("human", "human"), seed=3, background=False)
    assert table.show_hand.layout.display == ""
    assert hidden_hands(table) == {0, 1} and buttons(table) == {}
    assert "show your hand" in table.headline.value
    table.click("discard:" + table.engine.hand(0)[0].code)
    assert "show your hand first" in table.message and len(table.engine.log) == 0
    table.show_hand.click()
    assert hidden_hands(table) == {1} and buttons(table)
    click(table, "discard:" + table.engine.hand(0)[0].code)
    click(table, "draw:deck")
    assert table.engine.current_player == 1
    assert hidden_hands(table) == {0, 1} and buttons(table) == {}


def _cli_json(flags: dict[str, str]) -> dict:
    argv = ["odds", "lost-cities", "--json", "--exact"]
    for name, value in flags.items():
        argv += ["--" + name.replace("_", "-"), value]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("background", [False, True])
def test_the_odds_panel_shows_the_command_lines_numbers(background: bool) -> None:
    table = CardTable("lost-cities", seats=("human", "odds"), seed=6, background=background)
    scores_fig, cards_fig = table.score_figure, table.card_figure
    headlines: list[str] = []
    table.headline.observe(lambda change: headlines.append(change["new"]), "value")
    for colour in ("R", "G", "Y"):
        table.subject_buttons.value = colour
        table.wait()
        expected = _cli_json(table.engine.position_flags(colour))
        assert [float(eval(p)) for _, p in expected["plan"]["distribution"]] == \
            pytest.approx(list(scores_fig.data[0].y), abs=1e-12)
        assert [s for s, _ in expected["plan"]["distribution"]] == \
            list(scores_fig.data[0].x)                               # scores on a number axis
        assert [m["card"] for m in expected["missing"]] == list(cards_fig.data[0].x)
        assert [float(eval(m["p_played"])) for m in expected["missing"]] == \
            pytest.approx(list(cards_fig.data[0].y), abs=1e-12)
        assert expected["verdict"][1:] in table.headline.value
        command = table.cli_html.value.split("<code")[1].split(">", 1)[1].split("</code>")[0]
        argv = shlex.split(command.replace("&quot;", '"').replace("&#x27;", "'"))
        assert argv[:3] == ["pushluck", "odds", "lost-cities"] and "--colour" in argv
        assert "pushluck-pending" not in table.headline.value
    assert table.score_figure is scores_fig and table.card_figure is cards_fig   # in place
    # off the click path, "Computing the exact odds…" is marked as work in progress
    working = [line for line in headlines if "Computing" in line]
    assert bool(working) == background and all("pushluck-pending" in line for line in working)


def test_bots_move_off_the_click_path() -> None:
    """With ``background`` the bot plays in a worker thread: the click returns at once, a click
    meanwhile is refused, and the page catches up when the bot is done."""
    table = CardTable("lost-cities", seats=("human", "search"), seed=5)
    table.wait()
    release = threading.Event()
    bot = table.bots[1]
    real_choose = bot.choose

    def slow_choose(engine):  # the bot waits until the test lets it move
        release.wait(timeout=60)
        return real_choose(engine)

    bot.choose = slow_choose
    click(table, "discard:" + table.engine.hand(0)[0].code)
    click(table, "draw:deck")
    assert table.thinking and "is playing" in table.message and buttons(table) == {}
    log_length = len(table.engine.log)
    table.click("draw:deck")
    assert table.message == "wait: the bot is playing"
    release.set()
    table.wait()
    assert not table.thinking and table.engine.current_player == 0
    assert len(table.engine.log) == log_length + 2 and buttons(table)
    assert "Computing" not in table.headline.value and table.score_figure.data[0].x


# -- the opponent menu ---------------------------------------------------------------------------

#: what the page must offer (the brief: the game's three bots and a classmate at the screen)
OPPONENTS = ("simple", "odds", "search", "human")


def play_turn(table: CardTable) -> None:
    """One turn by clicks: discard the first card of the hand, then draw from the deck."""
    hand = table.engine.hand(table.engine.current_player)
    click(table, "discard:" + hand[0].code)
    click(table, "draw:deck")


def test_the_menu_offers_the_three_bots_and_a_classmate() -> None:
    table = CardTable("lost-cities", seed=1, background=False)
    values = [value for _, value in table.opponent_menu.options]
    assert tuple(values) == OPPONENTS and table.opponent_menu.value == "odds"
    labels = dict((value, label) for label, value in table.opponent_menu.options)
    for bot in ("simple", "odds", "search"):
        assert labels[bot].startswith(f"{bot} bot (") and labels[bot].endswith(")")
    assert "classmate" in labels["human"] and "hot seat" in labels["human"]


@pytest.mark.parametrize("opponent", ["simple", "odds", "search"])
def test_each_bot_chosen_on_the_page_plays_against_you(opponent: str) -> None:
    before = "simple" if opponent != "simple" else "odds"
    table = CardTable("lost-cities", seats=("human", before), seed=11, background=False)
    table.opponent_menu.value = opponent                 # before any move: at once
    assert table.seats == ("human", opponent) and table.confirm_box.layout.display == "none"
    assert f"Player 2 ({opponent} bot)" in table.status.value
    assert f"the {opponent} bot" in table.message
    for _turn in range(3):
        play_turn(table)
        assert table.engine.current_player == 0          # the bot has replied
        assert "pushluck-message-error" not in table.message_html.value
    bot_moves = [line for line in table.engine.log if line.startswith("Player 2")]
    assert len(bot_moves) == 6                           # a play or discard and a draw a turn


def test_a_classmate_from_the_menu_shares_the_screen() -> None:
    table = CardTable("lost-cities", seed=12, background=False)
    table.opponent_menu.value = "human"
    assert table.seats == ("human", "human") and table.show_hand.layout.display == ""
    assert hidden_hands(table) == {0, 1} and buttons(table) == {}
    for player in (0, 1, 0):
        assert table.engine.current_player == player
        table.show_hand.click()
        assert hidden_hands(table) == {1 - player}
        play_turn(table)
        assert hidden_hands(table) == {0, 1}


def test_changing_the_opponent_mid_game_asks_first() -> None:
    table = CardTable("lost-cities", seed=13, background=False)
    play_turn(table)
    engine, log = table.engine, list(table.engine.log)
    table.opponent_menu.value = "search"
    assert table.confirm_box.layout.display == "flex"
    assert "the search bot" in table.confirm_text.value and "ends" in table.confirm_text.value
    assert table.engine is engine and table.seats == ("human", "odds")
    table.confirm_keep.click()                           # keep playing: nothing changed
    assert table.confirm_box.layout.display == "none"
    assert table.opponent_menu.value == "odds" and table.seats == ("human", "odds")
    assert table.engine is engine and table.engine.log == log
    play_turn(table)                                     # the game goes on
    table.opponent_menu.value = "simple"
    table.confirm_new.click()                            # a new game against the simple bot
    assert table.seats == ("human", "simple") and table.engine is not engine
    assert table.confirm_box.layout.display == "none" and table.engine.log == []
    assert table.engine.hand(0) == CardTable("lost-cities", seed=13).engine.hand(0)
    play_turn(table)
    assert table.engine.current_player == 0 and len(table.engine.log) == 4


def test_choosing_an_opponent_after_the_game_starts_a_new_one_at_once() -> None:
    table = CardTable("lost-cities", seats=("human", "simple"), seed=4,
                      options={"matches": 1}, background=False)
    me = make_bot("odds", 1)
    while not table.engine.is_over:
        click(table, me.choose(table.engine))
    table.opponent_menu.value = "search"
    assert table.confirm_box.layout.display == "none"
    assert table.seats == ("human", "search") and not table.engine.is_over and buttons(table)


def test_a_new_opponent_while_the_bot_thinks_leaves_a_clean_game() -> None:
    """The old game's bot finishes choosing in its thread after the switch: its choice is
    dropped, on the old game as on the new table."""
    table = CardTable("lost-cities", seats=("human", "search"), seed=5)
    table.wait()
    release = threading.Event()
    old_bot, old_engine = table.bots[1], table.engine
    real_choose = old_bot.choose

    def slow_choose(engine):
        release.wait(timeout=60)
        return real_choose(engine)

    old_bot.choose = slow_choose
    play_turn(table)
    assert table.thinking
    table.opponent_menu.value = "simple"
    table.confirm_new.click()
    release.set()
    table.wait()
    assert table.engine is not old_engine and table.seats == ("human", "simple")
    assert table.engine.log == [] and table.engine.current_player == 0
    assert not table.thinking and buttons(table) and "playing" not in table.message
    play_turn(table)
    table.wait()             # the new bot's job ran after the old choice, in the same worker
    assert table.engine.current_player == 0 and len(table.engine.log) == 4
    assert len(old_engine.log) == 2                      # the human's discard and draw only


def test_a_bad_seat_from_code_is_one_line_and_the_menu_cannot_offer_one() -> None:
    table = CardTable("lost-cities", seed=3, background=False)
    with pytest.raises(Exception, match="Invalid selection"):
        table.opponent_menu.value = "oracle"
    assert table.seats == ("human", "odds") and table.opponent_menu.value == "odds"


# -- buttons, log --------------------------------------------------------------------------------

def test_draw_buttons_name_each_piles_colour_and_top_card() -> None:
    table = CardTable("lost-cities", seats=("human", "simple"), seed=21, background=False)
    names = {"Y": "yellow", "B": "blue", "W": "white", "G": "green", "R": "red"}
    for _ in range(8):                                   # piles fill up
        play_turn(table)
    click(table, "discard:" + table.engine.hand(0)[0].code)
    shown = buttons(table)
    labels = [button.description for button in shown.values()]
    assert len(set(labels)) == len(labels)               # distinguishable
    assert shown["pushluck-action-draw-deck"].description == "Draw from the deck"
    piles = 0
    for colour, name in names.items():
        pile = table.engine.discard_pile(colour)
        key = f"pushluck-action-draw-{colour}"
        if key in shown:
            piles += 1
            assert shown[key].description == f"Take {pile[-1].code} from the {name} pile"
    assert piles >= 2
    for button in shown.values():
        assert button.layout.width == "auto"             # the label is never cut to a width


def test_the_log_shows_the_newest_move_first() -> None:
    table = CardTable("lost-cities", seats=("human", "simple"), seed=22, background=False)
    for _ in range(3):
        play_turn(table)
    html = table.log_html.value
    lines = [unescape(line) for line in
             re.findall(r'<div class="pl-log-(?:newest|line)">(.*?)</div>', html)]
    assert lines[0] == table.engine.log[-1] and "pl-log-newest" in html
    assert lines == list(reversed(table.engine.log))[:len(lines)]
    assert len(lines) == len(table.engine.log)           # 12 moves, all kept


# -- the charts ----------------------------------------------------------------------------------

def ticks(axis) -> list[float]:
    """The tick values a linear Plotly axis shows: tick0 + k * dtick inside the range."""
    low, high = axis.range
    first = math.ceil((low - axis.tick0) / axis.dtick)
    last = math.floor((high - axis.tick0) / axis.dtick)
    return [axis.tick0 + k * axis.dtick for k in range(first, last + 1)]


def test_chance_axes_run_from_0_to_1_even_when_every_value_is_0() -> None:
    table = CardTable("lost-cities", seed=6, background=False)
    assert tuple(table.card_figure.layout.yaxis.range) == (0, 1)
    for fig in (table.score_figure, table.card_figure):
        low, top = fig.layout.yaxis.range
        assert low == 0 and top <= 1 and fig.layout.yaxis.autorange is False
    zeros = lc.ChartBars("Chance each missing red card ends on your expedition", "card",
                         "probability", ("R2", "R3", "R9"), (Fraction(0),) * 3, ("0.0%",) * 3)
    table._draw_chart(table.card_figure, zeros)
    assert tuple(table.card_figure.layout.yaxis.range) == (0, 1)
    assert list(table.card_figure.data[0].y) == [0, 0, 0]
    assert list(table.card_figure.data[0].text) == ["0.0%"] * 3       # few bars: their values


def test_the_score_axis_has_even_ticks_at_the_scores_values() -> None:
    table = CardTable("lost-cities", seed=6, background=False)
    scores = (-80, -56, -45, -20, 0, 14, 37)
    chart = lc.ChartBars("Final red score", "final score", "probability",
                         tuple(str(s) for s in scores), (Fraction(1, 7),) * 7, ("14.3%",) * 7,
                         numeric_labels=True)
    table._draw_chart(table.score_figure, chart)
    axis, bar = table.score_figure.layout.xaxis, table.score_figure.data[0]
    assert axis.type == "linear" and axis.tickmode == "linear"
    assert list(bar.x) == list(scores)                   # each bar at its score
    shown = ticks(axis)
    assert axis.dtick == 25 and 0 in shown               # -75 -50 ... 25: even, through 0
    assert {round(b - a, 9) for a, b in zip(shown, shown[1:], strict=False)} == {25}
    assert axis.range[0] < -80 and axis.range[1] > 37
    assert bar.width < 11                                # the closest scores' bars apart
    assert tuple(table.score_figure.layout.yaxis.range) == (0, 0.25)   # bars of 1/7 each
    assert table.score_figure.layout.yaxis.dtick == 0.05


def test_a_spread_out_distribution_is_not_drawn_flat() -> None:
    """An opening with a handshake spreads the final score over dozens of values (each under
    a tenth): its axis is 0 to 0.1, not 0 to 1; one sure score keeps 0 to 1."""
    table = CardTable("lost-cities", seed=6, background=False)
    spread = [-40 + 2 * k for k in range(60)]
    chart = lc.ChartBars("Final yellow score", "final score", "probability",
                         tuple(str(s) for s in spread), (Fraction(1, 60),) * 60, ("1.7%",) * 60,
                         numeric_labels=True)
    table._draw_chart(table.score_figure, chart)
    assert tuple(table.score_figure.layout.yaxis.range) == (0, 0.05)
    sure = lc.ChartBars("Final yellow score", "final score", "probability", ("-20",),
                        (Fraction(1),), ("100.0%",), numeric_labels=True)
    table._draw_chart(table.score_figure, sure)
    assert tuple(table.score_figure.layout.yaxis.range) == (0, 1)


@pytest.mark.parametrize("colour", ["Y", "B", "W", "G", "R"])
def test_the_panels_score_chart_from_a_real_position(colour: str) -> None:
    table = CardTable("lost-cities", seats=("human", "simple"), seed=8, background=False)
    for _ in range(6):
        play_turn(table)
    table.subject_buttons.value = colour
    report = table.engine.analysis(colour)
    axis, bar = table.score_figure.layout.xaxis, table.score_figure.data[0]
    expected = [score for score, _ in report.plan.probabilities]   # the exact distribution
    assert list(bar.x) == expected
    shown = ticks(axis)
    steps = {round(b - a, 9) for a, b in zip(shown, shown[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() in (1, 2, 5, 10, 20, 25, 50, 100)
    assert 2 <= len(shown) <= 6
    assert all(axis.range[0] < x < axis.range[1] for x in bar.x)
    low, top = table.score_figure.layout.yaxis.range
    tallest = float(max(p for _, p in report.plan.probabilities))
    assert low == 0 and tallest < top <= 1                # never above 1, every bar whole
    assert top == min(t for t in (0.05, 0.1, 0.25, 0.5, 1) if t >= tallest * 1.05)
    assert tuple(table.card_figure.layout.yaxis.range) == (0, 1)   # chances: 0 to 1


@given(st.lists(st.integers(-200, 200), min_size=1, max_size=40))
@settings(max_examples=200, deadline=None)
def test_a_number_axis_holds_every_bar_with_at_most_six_even_ticks(scores) -> None:
    axis, width = number_axis([float(s) for s in scores])
    low, high = axis["range"]
    assert low < min(scores) and high > max(scores) and width > 0
    shown = ticks(SimpleNamespace(**axis))
    assert axis["tick0"] == 0 and 1 <= len(shown) <= 6
    assert all(tick % axis["dtick"] == 0 for tick in shown)
    if len(set(scores)) > 1:
        ordered = sorted(set(scores))
        assert width < min(b - a for a, b in zip(ordered, ordered[1:], strict=False))


def test_random_clicks_never_break_the_game(caplog) -> None:
    """Every control of the page clicked in a seeded random order (moves, the opponent menu,
    its confirm buttons, New game, the odds colours, the hot seat's button): no callback
    raises, and whenever a human is to move the buttons are exactly the legal moves."""
    rng = random.Random(7)
    table = CardTable("lost-cities", seed=31, options={"matches": 1}, background=False)
    caplog.set_level("WARNING")
    for _ in range(200):
        controls = [lambda b=b: b.click() for b in buttons(table).values()] * 6
        controls += [lambda v=v: setattr(table.opponent_menu, "value", v) for v in OPPONENTS]
        controls += [table.confirm_new.click, table.confirm_keep.click, table.show_hand.click,
                     table.new_game_button.click,
                     lambda: setattr(table.subject_buttons, "value", rng.choice("YBWGR")),
                     lambda: table.click("draw:deck")]
        rng.choice(controls)()
        engine = table.engine
        assert table.seats[1] == table.opponent_menu.value or table.pending_opponent
        if not engine.is_over and engine.current_player in table.humans and table.revealed:
            assert set(buttons(table)) == {action_class(a) for a in engine.legal_actions()}
        else:
            assert buttons(table) == {}
    assert not [r for r in caplog.records if "Exception" in r.getMessage()]


def test_the_board_sets_each_colour_in_its_column_and_marks_each_piles_top() -> None:
    table = CardTable("lost-cities", seats=("human", "simple"), seed=23, background=False)
    me = make_bot("odds", 3)
    for _ in range(24):                                  # twelve turns of real play
        click(table, me.choose(table.engine))
    html = table.table_html.value
    heads = re.findall(r'<div class="pl-board-head"[^>]*>(\w+)</div>', html)
    assert heads == ["yellow", "blue", "white", "green", "red"]
    names = dict(zip("YBWGR", heads, strict=True))

    def cell(key: str) -> str:
        return html.split(f'data-zone="{key}">')[1].split("</div>")[0]

    def shown(key: str) -> list[str]:
        return re.findall(r'<span class="pl-chip[^"]*"[^>]*>([^<]+)</span>', cell(key))

    placed = 0
    for colour in "YBWGR":
        for player in (0, 1):
            cards = table.engine.expedition(player, colour)
            ranks = ["H" if c.is_handshake else str(c.rank) for c in cards]
            assert shown(f"expedition:{player}:{colour}") == ranks
            placed += len(cards)
        pile = table.engine.discard_pile(colour)
        assert len(shown(f"discard:{colour}")) == len(pile)
        if pile:
            top = pile[-1]
            said = f"{names[colour]} {'handshake' if top.is_handshake else top.rank} (top)"
            assert cell(f"discard:{colour}").count("pl-chip-top") == 1
            assert f'aria-label="{said}"' in cell(f"discard:{colour}")
    assert placed >= 6
