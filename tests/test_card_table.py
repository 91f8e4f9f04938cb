"""The card-play table (ui/card_table.py) with Lost Cities: a whole seeded match by clicks, hot
seat, refused clicks, and the odds panel against the command line."""

from __future__ import annotations

import contextlib
import io
import json
import shlex

import pytest

from pushluck_teach.cli import main
from pushluck_teach.games import lost_cities as lc
from pushluck_teach.games.base import RulesError
from pushluck_teach.games.lost_cities_bots import make_bot
from pushluck_teach.ui import play
from pushluck_teach.ui.card_table import CardTable
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
    assert table.score_figure is scores_fig and table.card_figure is cards_fig   # in place


def test_bots_move_off_the_click_path() -> None:
    """With ``background`` the bot plays in a worker thread: the click returns at once, a click
    meanwhile is refused, and the page catches up when the bot is done."""
    import threading

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
