"""The game tables driven by programmatic button clicks (no browser).

Every registered game is built and played through its buttons; the charts are checked against
the solver for the positions reached; illegal clicks, bad seeds and bad options must leave a
message and an unchanged game, never an exception.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from html import unescape

import pytest

from pushluck_teach import cli
from pushluck_teach.games import turn_games
from pushluck_teach.games.base import DRAW, STOP, PositionError
from pushluck_teach.sim.bots import make_bot
from pushluck_teach.solve.turn import TooManyStates, cached_solver
from pushluck_teach.ui import GameTable, play
from pushluck_teach.ui.analysis import DISTRIBUTION_ESTIMATE_LIMIT
from pushluck_teach.ui.figures import LiveFigureWidget, fraction_text
from pushluck_teach.ui.table import action_class

GAMES = [spec.name for spec in turn_games()]
# Their first decisions need solves and distributions of seconds (a full 54-card deck, a whole
# temple round, a 52-card turn with a discard pile); their quick tests are the hot-seat ones.
HEAVY = {"captain-seven", "incan-gold", "lands-uncharted"}
OPTIMAL = make_bot("optimal")


def light(name: str):
    return pytest.param(name, marks=pytest.mark.slow) if name in HEAVY else name


def snapshot(table: GameTable):
    engine = table.engine
    return (id(engine), len(engine.log), engine.view(), engine.legal_actions(), engine.is_over)


def span_fraction(table: GameTable) -> str:
    match = re.search(r'class="pushluck-p-bust" data-exact="([^"]+)"', table.panel.headline.value)
    assert match is not None
    return match.group(1)


def cli_hook(table: GameTable) -> tuple[str, dict[str, str]]:
    match = re.search(r'<code class="pushluck-cli" data-game="([^"]*)" data-flags="([^"]*)"',
                      table.cli_html.value)
    assert match is not None
    return unescape(match.group(1)), json.loads(unescape(match.group(2)))


def cli_p_bust(game: str, flags: dict[str, str]) -> str | None:
    argv = ["odds", game, "--json", "--exact"]
    for key, value in flags.items():
        argv += [f"--{key.replace('_', '-')}", str(value)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(argv) == 0
    return json.loads(out.getvalue())["p_bust_next_exact"]


def check_charts_match_solver(table: GameTable) -> None:
    """The four charts and the DOM hooks show the solver's numbers for the position to move,
    as the page's own command states it (with other explorers inside, Incan Gold's page
    analyses the explorers-with-thresholds model of that command, not the decider alone)."""
    engine = table.engine
    _game, flags = cli_hook(table)
    model, state = table.spec.position_from_flags(table.variant, flags)
    exact = cached_solver(model, True)
    floats = cached_solver(model, False)
    p_bust = exact.p_bust_next(state)
    panel = table.panel
    assert span_fraction(table) == fraction_text(p_bust)
    assert panel.p_bust_exact == fraction_text(p_bust)
    if p_bust is not None:
        assert panel.fig_bust.data[0].y[-1] == float(p_bust)
        # 0 and 1 are written "0 (impossible)" and "1 (certain)", others as p/q
        shown = {0: "0 (impossible)", 1: "1 (certain)"}.get(p_bust, fraction_text(p_bust))
        assert shown in panel.text_bust.value
    outcomes = exact.next_outcomes(state)
    bust, gain = panel.fig_next.data
    assert sorted(bust.y + gain.y) == sorted(float(o.probability) for o in outcomes)
    assert len(bust.y) == sum(o.busted for o in outcomes)
    for outcome in outcomes:
        assert {1: "1 (certain)"}.get(outcome.probability,
                                      fraction_text(outcome.probability)) in panel.text_next.value
    try:
        analysis = floats.analyse(state)
    except TooManyStates as refusal:  # too large to solve: the page says so, with the numbers
        assert "solver states" in str(refusal) and "solver states" in panel.headline.value
        return                        # of the next draw checked above
    choice = panel.fig_choice.data[0]
    values = dict(zip(choice.x, choice.y, strict=True))
    assert values["optimal play"] == pytest.approx(float(analysis.ev_optimal), rel=1e-12)
    if analysis.ev_stop is not None:
        stop_bar = next(x for x in choice.x if x.startswith("stop now"))
        assert stop_bar == f"stop now<br>({engine.action_label(STOP)})"
        assert values[stop_bar] == pytest.approx(float(analysis.ev_stop), rel=1e-12)
    best = engine.action_label(analysis.best_action)
    assert f"Recommended: <strong>{best}</strong>" in panel.headline.value
    limit = panel.distribution_state_limit
    # a turn estimated over the chart's limit is refused up front, in plain words
    estimate = floats.estimated_states(state)
    refused = estimate is not None and estimate > DISTRIBUTION_ESTIMATE_LIMIT
    if not refused:
        try:
            dist = floats.distribution(state, max_states=limit)
            by_t = floats.distribution(state, floats.threshold_policy(panel.threshold),
                                       max_states=limit)
        except PositionError:  # too many states for a live chart: skipped with a note
            refused = True
    if refused:
        text = panel.text_dist.value
        assert panel.fig_dist.data[0].x == () and panel.fig_dist.data[1].x == ()
        assert "not drawn here" in text and "too many ways" in text
        assert "states" not in text and "computing" not in text.lower()
        return
    # (to 1e-12: pushed forward on arrays or walked, as the solver's tables stand, the chances
    # are added in another order)
    assert panel.fig_dist.data[0].x == tuple(float(k) for k in dist)
    assert panel.fig_dist.data[0].y == pytest.approx(tuple(float(v) for v in dist.values()),
                                                     abs=1e-12)
    assert panel.fig_dist.data[1].y == pytest.approx(tuple(float(v) for v in by_t.values()),
                                                     abs=1e-12)


def play_checked(name: str, *, max_clicks: int, cli_checks: int = 2) -> GameTable:
    """One human seat choosing the solver's best action against an optimal bot; checks the
    charts after every click."""
    # The turn's numbers: the coach aims for points (the win objective is checked in
    # tests/test_classroom_table.py).
    table = GameTable(name, seats=("human", "optimal"), seed=11, background=False,
                      objective="points")
    figures = [id(f) for f in table.panel.figures]
    traces = [id(t) for f in table.panel.figures for t in f.data]
    clicks = 0
    while not table.engine.is_over and clicks < max_clicks:
        check_charts_match_solver(table)
        if cli_checks > 0 and (clicks < 2 or clicks % 7 == 0):
            game, flags = cli_hook(table)
            # the engine's flags, plus (with other explorers inside) the table's stated
            # assumption about them, "others" (tests/test_classroom_table.py checks its values)
            stated = dict(table.engine.position_flags())
            if table.engine.others_in_turn() and "others" in flags:
                stated["others"] = flags["others"]
            assert game == name and flags == stated
            if "solver states" in table.panel.headline.value:
                # too large to solve (the page says so): the command refuses it in one line
                err = io.StringIO()
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    code = cli.main(["odds", game, *[a for k, v in flags.items()
                                                     for a in (f"--{k.replace('_', '-')}", v)]])
                assert code == 2 and "solver states" in err.getvalue()
            else:
                assert (cli_p_bust(game, flags) or "n/a") == span_fraction(table)
            cli_checks -= 1
        table.action_buttons[OPTIMAL.choose(table.engine)].click()
        assert not table.message_is_error, table.message
        clicks += 1
    assert [id(f) for f in table.panel.figures] == figures
    assert [id(t) for f in table.panel.figures for t in f.data] == traces
    return table


# ---- building and playing every game --------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_hot_seat_buttons_drive_the_engine(name: str) -> None:
    table = GameTable(name, seats=("human", "human"), seed=3, coach="off")
    assert "pushluck-table" in table._dom_classes
    assert "pushluck-analysis" in table.panel._dom_classes
    assert table.panel.layout.display == "none"
    for _ in range(25):
        engine = table.engine
        if engine.is_over:
            break
        legal = engine.legal_actions()
        buttons = table.action_buttons
        assert {DRAW, STOP} <= set(buttons) and set(legal) <= set(buttons)
        for action, button in buttons.items():
            assert button.disabled == (action not in legal)
            assert button.description == engine.action_label(action)
            assert {"pushluck-action", action_class(action)} <= set(button._dom_classes)
        before = len(engine.log)
        buttons[DRAW if DRAW in legal else legal[0]].click()
        assert not table.message_is_error, table.message
        assert len(engine.log) > before
        assert engine.log[-1] in table.log_html.value.replace("&#x27;", "'")


@pytest.mark.parametrize("name", GAMES)
def test_illegal_clicks_leave_a_message_and_the_game_unchanged(name: str) -> None:
    table = GameTable(name, seats=("human",), seed=5, coach="off")
    engine = table.engine
    # a turn starts with a draw: banking before a card is illegal in every game
    assert STOP not in engine.legal_actions()
    before = snapshot(table)
    table.action_buttons[STOP].click()
    assert table.message_is_error and "not possible" in table.message
    assert snapshot(table) == before
    # double click: the second bank arrives when the next turn has started
    for _ in range(40):
        if STOP in table.engine.legal_actions():
            break
        legal = table.engine.legal_actions()
        table.action_buttons[DRAW if DRAW in legal else legal[0]].click()
    if STOP in table.engine.legal_actions() and not table.engine.is_over:
        table.action_buttons[STOP].click()
        assert not table.message_is_error
        if STOP not in table.engine.legal_actions():
            before = snapshot(table)
            table.action_buttons[STOP].click()
            assert table.message_is_error and snapshot(table) == before
    # a bad seed string: a message, same game, same seed
    before, seed = snapshot(table), table.seed
    table.seed_text.value = "twelve"
    assert table.message_is_error and "bad seed" in table.message
    table.new_game_button.click()
    assert table.message_is_error and "bad seed" in table.message
    assert snapshot(table) == before and table.seed == seed
    # an unknown action (a forged click) is refused too
    table.act("teleport")
    assert table.message_is_error and snapshot(table) == before


@pytest.mark.parametrize("name", GAMES)
def test_bad_options_leave_a_message_and_the_rules_unchanged(name: str) -> None:
    table = GameTable(name, seats=("human",), seed=2, coach="off")
    variant, engine = table.variant, table.engine
    table.options = {**table.options, "no_such_rule": 1}
    assert table.message_is_error and "no_such_rule" in table.message
    assert table.variant == variant and table.engine is engine
    assert table.options == variant.options()
    ints = [k for k in table._option_widgets if type(getattr(variant, k)) is int]
    for key in ints:
        for typed in ("-5", "1e9", "twelve"):  # a number box would have read 1e9 as 19
            table._option_widgets[key].value = typed
            assert table.message_is_error and key in table.message, (key, typed)
            assert table.variant == variant and table.engine is engine
            assert table._option_widgets[key].value == str(getattr(variant, key))
    first = variant.option_names()[0]
    table.options = {**variant.options(), first: "maybe??"}
    assert table.message_is_error and first in table.message
    assert table.variant == variant and table.engine is engine


@pytest.mark.parametrize("name", GAMES)
def test_changing_an_option_starts_a_new_game(name: str) -> None:
    """Every option widget with a number or a yes/no, set to another allowed value: a new game
    starts under the new rules (a refusal fails the test: the value is allowed)."""
    table = GameTable(name, seats=("human",), seed=2, coach="off")
    changed = 0
    for key, widget in table._option_widgets.items():
        value = getattr(table.variant, key)
        info = table.variant.option_info(key)
        if isinstance(value, bool):
            new: object = not value
        elif isinstance(value, int):
            new = value + 1 if info.high is None or value < info.high else value - 1
        else:
            continue
        old_engine = table.engine
        widget.value = new if isinstance(new, bool) else str(new)
        assert not table.message_is_error, (key, new, table.message)
        assert table.engine is not old_engine
        assert getattr(table.variant, key) == new
        assert table._option_widgets[key].value == (new if isinstance(new, bool) else str(new))
        assert table.options[key] == new
        assert "new game" in table.message
        changed += 1
    assert changed >= 1


@pytest.mark.parametrize("name", [light(n) for n in GAMES])
def test_first_decisions_charts_match_the_solver(name: str) -> None:
    play_checked(name, max_clicks=2, cli_checks=1)


def test_pig_whole_game_charts_match_the_solver() -> None:
    table = play_checked("pig", max_clicks=400, cli_checks=3)
    assert table.engine.is_over
    assert table.finished_html.value and "wins" in table.finished_html.value
    assert table.panel.p_bust_exact == "n/a" and span_fraction(table) == "n/a"


@pytest.mark.slow
# Incan Gold is left out here: the page answers every position of the walk in float mode
# (level by level with NumPy) and `pushluck odds` now answers a position too large for exact
# fractions in decimals with the bust chance still exact (tests/test_cli.py), but the walk with
# Incan Gold's round solves at every click is left to its own tests (tests/test_incan_gold.py).
@pytest.mark.parametrize("name", [n for n in GAMES if n not in ("pig", "incan-gold")])
def test_whole_game_charts_match_the_solver(name: str) -> None:
    table = play_checked(name, max_clicks=150, cli_checks=3)
    assert table.engine.is_over or len(table.engine.log) > 50


# ---- game over, coach modes, seats, background ----------------------------------------------


def test_bots_only_game_plays_out_and_clicks_after_the_end_are_refused() -> None:
    table = GameTable("pig", seats=("cautious", "greedy"), seed=8, options={"target": 40})
    table.wait_for_bots()  # the bots move in the worker (background mode)
    engine = table.engine
    assert engine.is_over and engine.winners()
    assert any("wins" in line for line in engine.log)
    before = snapshot(table)
    for action in (DRAW, STOP):
        table.action_buttons[action].click()
        assert table.message_is_error and "game is over" in table.message
        assert snapshot(table) == before
    assert all(b.disabled for b in table.action_buttons.values())


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_game_ends_with_a_winner_shown(name: str) -> None:
    table = GameTable(name, seats=("optimal", "optimal"), seed=4, coach="off")
    table.wait_for_bots(600)
    assert table.engine.is_over
    assert table.engine.view().finished_text in unescape(table.finished_html.value)
    table.action_buttons[DRAW].click()
    assert table.message_is_error


def test_coach_after_shows_the_decision_just_made() -> None:
    table = GameTable("pig", seats=("human",), seed=1, coach="after", background=False)
    assert "decide first" in table.panel.headline.value
    assert span_fraction(table) == "n/a"
    table.action_buttons[DRAW].click()  # decided at turn total 0: bust risk 1/6
    assert "chose <strong>Roll</strong>" in table.panel.headline.value
    assert span_fraction(table) == "1/6"
    game, flags = cli_hook(table)
    assert flags == {}  # the command checks the decided position (before the roll)
    table.coach = "off"
    assert table.panel.layout.display == "none"
    assert table.coach_toggle.value == "off"
    table.coach_toggle.value = "always"
    assert table.coach == "always" and table.panel.layout.display == "flex"
    check_charts_match_solver(table)


def test_bust_line_follows_the_turn_and_figures_persist() -> None:
    table = GameTable("pig", seats=("human",), seed=3, background=False)
    panel = table.panel
    figures = panel.figures
    for _ in range(3):
        if table.engine.view().turn_total == 0 and len(panel.fig_bust.data[0].y) > 1:
            break
        table.action_buttons[DRAW].click()
    assert panel.figures == figures
    assert all(y == 1 / 6 for y in panel.fig_bust.data[0].y)
    assert panel.fig_bust.data[0].x[0] == "1. start"


def test_browser_state_follows_every_click_and_the_bundle_is_sent_once() -> None:
    """The synced state a browser view draws from equals each figure's data after every click;
    the loader ``_esm`` is small (anywidget's 2 s import deadline) and one figure per panel
    carries plotly's bundle."""
    table = GameTable("pig", seats=("human",), seed=3, background=False)
    panel = table.panel
    figures = panel.figures
    for _ in range(3):
        table.action_buttons[DRAW].click()
        for fig in figures:
            assert fig._widget_data == fig._data
            assert fig._widget_layout == fig._layout_obj._props
    assert panel.figures == figures
    assert all(isinstance(fig, LiveFigureWidget) for fig in figures)
    # the loader (with projector mode's label sizing) stays a few kB beside the 1.8 MB bundle
    assert all(len(fig._esm) < 20_000 for fig in figures)
    carriers = [fig for fig in figures if fig._plotly_esm]
    assert carriers == [panel.fig_next]
    assert len(carriers[0]._plotly_esm) > 1_000_000


def test_background_distribution_matches_the_solver() -> None:
    table = GameTable("pig", seats=("human", "optimal"), seed=6, objective="points")
    assert table.panel.background
    table.action_buttons[DRAW].click()
    table.panel.wait()
    check_charts_match_solver(table)
    table.panel.threshold = 12
    table.panel.wait()
    model, state = table.engine.turn_position()
    solver = cached_solver(model, False)
    expected = solver.distribution(state, solver.threshold_policy(12))
    assert table.panel.fig_dist.data[1].y == tuple(float(v) for v in expected.values())
    assert table.panel.fig_dist.data[1].name == "stop at 12"


def test_seats_traits_and_buttons() -> None:
    table = play("pig", seed=2)
    assert table.seats == ("human", "optimal")
    table.add_seat_button.click()
    assert table.seats == ("human", "optimal", "optimal") and table.engine.players == 3
    table.seat_box.children[2].children[0].value = "threshold"
    table.seat_box.children[2].children[1].value = "15"
    assert table.seats[2] == "threshold:15"
    table.seat_box.children[2].children[1].value = "1e9"  # not read as 19
    assert table.message_is_error and table.seats[2] == "threshold:15"
    table.remove_seat_button.click()
    table.remove_seat_button.click()
    assert table.seats == ("human",)
    table.remove_seat_button.click()  # below the minimum: a message
    assert table.message_is_error and table.seats == ("human",)
    table.seats = ("human", "wizard")
    assert table.message_is_error and "wizard" in table.message and table.seats == ("human",)


def test_seats_the_rules_cannot_seat_are_refused_and_the_game_stays() -> None:
    """Hit List's Lone Gunman rules are for one player: asking for two seats then is refused
    with the rules' one-line reason, and the seats, their widgets and the game in progress
    (a card drawn) stay as they were (found by the table fuzz: the game was lost)."""
    table = GameTable("hit-list", seats=("human",), seed=115, coach="off", background=False)
    table.options = dict(table.spec.presets["lone-gunman"].options())
    table.act(DRAW)
    engine, log = table.engine, len(table.engine.log)
    table.seats = ("human", "human")
    assert table.message_is_error and "one player" in table.message
    assert table.seats == ("human",) and len(table.seat_box.children) == 1
    assert table.engine is engine and len(engine.log) == log
    assert not table.action_buttons[DRAW].disabled or engine.is_over


def test_game_trait_switches_games_and_rejects_unknown_names() -> None:
    table = GameTable("pig", seats=("human",), coach="off")
    table.game = "hit-list"
    assert table.spec.name == "hit-list" and table.engine.game == "hit-list"
    assert set(table._option_widgets) == set(table.variant.option_names())
    table.game = "chess"
    assert table.message_is_error and "chess" in table.message and table.game == "hit-list"


def test_seed_replays_the_same_deal() -> None:
    table = GameTable("pig", seats=("human",), seed=21, coach="off")
    for _ in range(4):
        table.action_buttons[DRAW].click()
    log = list(table.engine.log)
    table.new_game_button.click()
    for _ in range(4):
        table.action_buttons[DRAW].click()
    assert table.engine.log == log
    table.next_seed_button.click()
    assert table.seed == 22 and table.seed_text.value == "22"


def test_distribution_too_big_for_a_live_chart_is_skipped_with_a_note() -> None:
    table = GameTable("pig", seats=("human",), seed=6, background=False)
    table.panel.distribution_state_limit = 3
    table.action_buttons[DRAW].click()
    assert table.panel.fig_dist.data[0].x == ()
    text = table.panel.text_dist.value
    assert "not drawn here" in text and "after a card or two" in text
    assert "states" not in text and "3" not in text  # plain words: no state counts
    assert not table.message_is_error


def test_win_chance_gauge_follows_the_exact_whole_game_solution() -> None:
    from pushluck_teach.solve.whole_game.captain_seven import captain_seven_win_probability
    from pushluck_teach.solve.whole_game.pig import pig_win_probability
    from pushluck_teach.ui import GameTable

    pig = GameTable("pig", seats=("human", "optimal"), seed=4)
    pig.act("draw")
    pig.gauge.wait()
    engine = pig.engine
    if not engine.is_over and engine.current_player == 0:
        scores = engine.scores()
        expected = pig_win_probability(engine.variant, scores[0], scores[1], engine.turn_total)
        assert pig.gauge.probability == pytest.approx(expected, abs=1e-12)
        assert f"{100 * expected:.1f}%" in pig.gauge.value

    seven = GameTable("captain-seven", seats=("human", "optimal"), seed=2)
    seven.gauge.wait()
    expected = captain_seven_win_probability(seven.engine.variant, 0, 0)
    assert seven.gauge.probability == pytest.approx(expected, abs=1e-12)
    assert "chance to win from here" in seven.gauge.value
    # while it is worked out the gauge says so, marked as not final (readers and page checks
    # wait for the mark to go); the number comes without it
    shown: list[str] = []
    seven.gauge.observe(lambda change: shown.append(change["new"]), "value")
    seven.act("draw")
    seven.gauge.wait()
    working = [value for value in shown if "computing…" in value]
    assert working and all("pushluck-pending" in value for value in working), shown
    assert "%" in shown[-1] and "pushluck-pending" not in shown[-1], shown[-1]

    lands = GameTable("lands-uncharted", seats=("human", "optimal"), seed=1)
    lands.gauge.wait()
    assert lands.gauge.value == "" and lands.gauge.probability is None
    seven.coach = "off"
    assert seven.gauge.value == ""
