"""Adding a game is one file: a tiny game defined here (five cards, one bust rule), registered
for the test only, works in the CLI, the table widget, the conformance test, the solo-mode
solver and the variant lab without any other file knowing it.

"King's Pair": the deck is 2♥ 3♥ 4♥ K♥ K♠; a turn draws cards one at a time and may stop after
the first; the numbers count their rank, a king counts ``king_value``; the second king busts
(the turn scores nothing).  First to ``target`` banked wins.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
from dataclasses import dataclass

import pytest
import test_conformance as conformance
from test_ui_widgets import play_checked

from pushluck_teach.cards import Card, parse_cards
from pushluck_teach.cli import main
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    Engine,
    Flag,
    GameCommand,
    GameSpec,
    IllegalActionError,
    PositionError,
    RulesError,
    SoloMode,
    TableView,
    TurnModel,
    TurnRecord,
    Variant,
    all_games,
    get_game,
    lab_game,
    registered,
    turn_games,
)
from pushluck_teach.sim.bots import ModelEngineMismatch, OptimalTurnBot
from pushluck_teach.sim.solo_checks import model_monte_carlo
from pushluck_teach.solve.whole_game.solo import solo_result
from pushluck_teach.ui import GameTable
from pushluck_teach.ui.variant_lab import SideBySide, SweepPanel

NAME = "kings-pair"
DECK = parse_cards("2h 3h 4h Kh Ks")

# A state: (cards left as sorted codes, turn total, kings drawn, drew yet, ended: "" / "stop" /
# "bust").
State = tuple[tuple[str, ...], int, int, bool, str]


@dataclass(frozen=True, kw_only=True)
class KingsPairVariant(Variant):
    king_value: int = 5
    target: int = 12

    def __post_init__(self) -> None:
        if self.king_value < 1 or self.target < 1:
            raise RulesError("king_value and target must be at least 1")


@dataclass(frozen=True)
class KingsPairTurn(TurnModel[State]):
    variant: KingsPairVariant
    start_state: State

    @property
    def start(self) -> State:
        return self.start_state

    def actions(self, state: State) -> tuple[str, ...]:
        left, _, _, drew, ended = state
        if ended:
            return ()
        if not left:
            return (STOP,)
        return (DRAW, STOP) if drew else (DRAW,)

    def transitions(self, state: State, action: str) -> list[tuple[int, State]]:
        left, total, kings, _, _ = state
        if action == STOP:
            return [(1, (left, total, kings, True, "stop"))]
        out = []
        for code in sorted(set(left)):
            rest = list(left)
            rest.remove(code)
            card = Card(code[:-1], code[-1])
            if card.rank == "K":
                ended = "bust" if kings == 1 else ""
                nxt = (tuple(rest), total + self.variant.king_value, kings + 1, True, ended)
            else:
                nxt = (tuple(rest), total + int(card.rank), kings, True, "")
            out.append((left.count(code), nxt))
        return out

    def payoff(self, terminal: State) -> int:
        return 0 if terminal[4] == "bust" else terminal[1]

    def is_bust(self, terminal: State) -> bool:
        return terminal[4] == "bust"

    def turn_total(self, state: State) -> int:
        return state[1]


def start_state(variant: KingsPairVariant, drawn: tuple[Card, ...],
                removed: tuple[Card, ...] = ()) -> State:
    left = [card.code for card in DECK]
    for card in drawn + removed:
        if card.code not in left:
            raise PositionError(f"{card.code} is not in the deck twice")
        left.remove(card.code)
    kings = sum(card.rank == "K" for card in drawn)
    if kings > 1:
        raise PositionError("two kings: that turn is already bust")
    total = sum(variant.king_value if c.rank == "K" else int(c.rank) for c in drawn)
    return tuple(sorted(left)), total, kings, bool(drawn), ""


def kings_pair_position(variant: KingsPairVariant, *, drawn: str | None = None,
                        removed: str | None = None) -> tuple[KingsPairTurn, State]:
    state = start_state(variant, parse_cards(drawn), parse_cards(removed))
    return KingsPairTurn(variant, state), state


class KingsPairEngine(Engine):
    game = NAME

    def __init__(self, variant: KingsPairVariant, players: int,
                 rng: random.Random | int | None) -> None:
        super().__init__(variant, players, rng)
        self.variant: KingsPairVariant = variant
        self._new_turn()

    def _new_turn(self) -> None:
        self.pile = list(DECK)
        self.rng.shuffle(self.pile)
        self.drawn: list[Card] = []

    def legal_actions(self) -> tuple[str, ...]:
        if self.is_over:
            return ()
        return KingsPairTurn(self.variant, self._state()).actions(self._state())

    def _state(self) -> State:
        return start_state(self.variant, tuple(self.drawn))

    def act(self, action: str) -> list[str]:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal now")
        out: list[str] = []
        who = self._player
        if action == DRAW:
            card = self.pile.pop()
            self.drawn.append(card)
            self._say(f"Player {who + 1} draws {card.code}.", out)
            if sum(c.rank == "K" for c in self.drawn) == 2:
                self._say(f"Player {who + 1} busts.", out)
                self._end_turn(0, busted=True)
            return out
        banked = self._state()[1]
        self._scores[who] += banked
        self._say(f"Player {who + 1} banks {banked}.", out)
        self._end_turn(banked, busted=False)
        if self._scores[who] >= self.variant.target:
            self._over = True
        return out

    def _end_turn(self, result: int, *, busted: bool) -> None:
        self.turn_records.append(TurnRecord(self._player, result, busted, tuple(self.drawn)))
        if not self._over:
            self._player = (self._player + 1) % self.players
        self._new_turn()

    def turn_position(self) -> tuple[KingsPairTurn, State]:
        state = self._state()
        return KingsPairTurn(self.variant, start_state(self.variant, ())), state

    def view(self) -> TableView:
        return TableView(scores=self.scores(), current_player=self._player,
                         turn_cards=tuple(self.drawn), turn_total=self._state()[1],
                         draw_pile=len(self.pile))


@dataclass(frozen=True)
class HandScore:
    """A game's own report: the points of a hand of King's Pair cards."""

    cards: tuple[Card, ...]
    points: int

    def as_json(self, exact: bool = False) -> dict[str, object]:
        return {"cards": [card.code for card in self.cards], "points": self.points}

    def text_lines(self) -> list[str]:
        return [f"{' '.join(card.code for card in self.cards)}: {self.points} points"]


def score_hand(variant: KingsPairVariant, values: dict[str, object]) -> HandScore:
    cards = parse_cards(str(values["hand"]))
    state = start_state(variant, cards)
    return HandScore(cards, state[1])


SPEC = GameSpec(
    name=NAME, title="King's Pair", variant_cls=KingsPairVariant, engine_cls=KingsPairEngine,
    position=kings_pair_position, min_players=1, max_players=3,
    presets={"standard": KingsPairVariant(), "royal": KingsPairVariant(king_value=9)},
    blurb="Five cards; the second king busts.", deck=lambda variant: DECK,
    commands=(GameCommand("score", "the points of a hand", (Flag("hand", "the cards", str,
                                                                 positional=True),),
                          score_hand),),
)


@pytest.fixture
def kings_pair():
    with registered(SPEC) as spec:
        yield spec
    with pytest.raises(RulesError, match="unknown game"):
        get_game(NAME)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_the_cli_analyses_the_new_game(kings_pair: GameSpec) -> None:
    # After 2h and Kh: 3h, 4h, Ks are left. By hand: the king busts 1/3; stopping banks 7;
    # one more draw then stop: (10 + 11 + 0) / 3 = 7; from there the best play stops (7) or
    # draws: 3h -> 10 (then 4h: 14, Ks: bust; stop 10 > (14 + 0)/2), 4h -> 11 (stop 11 >
    # (14 + 0)/2 = 7) so drawing is worth (10 + 11 + 0)/3 = 7, equal to stopping.
    code, out, err = run_cli("odds", NAME, "--drawn", "2h Kh", "--json", "--exact")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == NAME
    assert data["p_bust_next_exact"] == "1/3"
    assert data["ev_stop_exact"] == "7/1"
    assert data["ev_draw_once_exact"] == "7/1"
    assert data["ev_optimal_exact"] == "7/1"
    code, out, _ = run_cli("odds", NAME, "--drawn", "2h", "--option", "king_value=9")
    assert code == 0 and out.startswith("King's Pair:")
    # 3h 4h Kh Ks left after 2h: bust impossible on the next draw (one king drawn so far: none)
    assert "P(next draw busts)               0.000000   = 0/1" in out
    code, out, _ = run_cli("games")
    assert code == 0 and NAME in out and "king_value, target" in out
    code, _, err = run_cli("odds", NAME, "--allies", "1")
    assert code == 2 and err.strip() == f"pushluck: error: --allies does not apply to {NAME}"
    code, _, err = run_cli("odds", NAME, "--drawn", "Kh Ks")
    assert code == 2 and "already bust" in err
    code, _, err = run_cli("solve", NAME)
    assert code == 2 and err.strip() == f"pushluck: error: no whole-game solver for {NAME} yet"


def test_a_game_adds_its_own_commands_and_odds_report(kings_pair: GameSpec) -> None:
    # 2h + Kh + 4h = 2 + 5 + 4 by the rules above; with king_value=9: 15.
    code, out, err = run_cli("score", NAME, "2h Kh 4h")
    assert (code, out, err) == (0, "2h Kh 4h: 11 points\n", "")
    code, out, _ = run_cli("score", NAME, "2h Kh 4h", "--option", "king_value=9", "--json")
    assert code == 0 and json.loads(out) == {"cards": ["2h", "Kh", "4h"], "points": 15}
    code, _, err = run_cli("score", "pig", "3 5")
    assert code == 2
    scorers = ", ".join(s.name for s in all_games() if any(c.name == "score" for c in s.commands))
    assert NAME in scorers
    assert err.strip() == f"pushluck: error: score does not apply to pig (games: {scorers})"
    # A game whose analysis is its own report instead of the draw/stop turn solver.
    own = dataclasses.replace(SPEC, name="kings-pair-hand", commands=(),
                              odds=lambda variant, flags: score_hand(
                                  variant, {"hand": flags.get("drawn", "")}))
    with registered(own):
        code, out, _ = run_cli("odds", own.name, "--drawn", "3h Ks")
    assert (code, out) == (0, "3h Ks: 8 points\n")


def rules_from_text(text: str) -> KingsPairVariant:
    """The tiny game's rule files: JSON ``{"king_value": 9}``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError(f"the rule file is not JSON: {exc.msg}") from None
    return KingsPairVariant(**data)


def test_a_game_reads_rule_files(tmp_path) -> None:
    spec = dataclasses.replace(SPEC, variant_from_text=rules_from_text)
    rules = tmp_path / "royal.json"
    rules.write_text('{"king_value": 9, "target": 30}')
    with registered(spec):
        # 3h 4h Kh Ks left after 2h; one more draw then stop: (5 + 6 + 11 + 11) / 4 = 33/4.
        code, out, _ = run_cli("odds", NAME, "--rules", str(rules), "--drawn", "2h", "--json",
                               "--exact")
        assert code == 0 and json.loads(out)["ev_draw_once_exact"] == "33/4"
        # --option on top of the file: king_value 5 -> (5 + 6 + 7 + 7) / 4 = 25/4.
        code, out, _ = run_cli("odds", NAME, "--rules", str(rules), "--option", "king_value=5",
                               "--drawn", "2h", "--json", "--exact")
        assert code == 0 and json.loads(out)["ev_draw_once_exact"] == "25/4"
        assert spec.variant(["king_value=5"], rules=rules.read_text()) == KingsPairVariant(
            king_value=5, target=30)
        code, _, err = run_cli("odds", NAME, "--rules", str(tmp_path / "missing.json"))
        assert code == 2 and err.startswith("pushluck: error: cannot read rule file ")
        assert err.count("\n") == 1
        rules.write_text("{not json")
        code, _, err = run_cli("odds", NAME, "--rules", str(rules))
        assert code == 2 and "the rule file is not JSON" in err
        code, _, err = run_cli("odds", "pig", "--rules", str(rules))
        assert code == 2 and err.strip() == "pushluck: error: --rules does not apply to pig"


def test_a_game_without_a_turn_model_says_so() -> None:
    class NoTurnEngine(KingsPairEngine):
        turn_position = Engine.turn_position

    own = dataclasses.replace(SPEC, name="kings-pair-hand", engine_cls=NoTurnEngine,
                              odds=lambda variant, flags: score_hand(variant, {"hand": ""}))
    with registered(own):
        assert not own.has_turn_model and SPEC.has_turn_model
        assert own not in turn_games() and own in all_games()
        engine = own.new_engine(players=2, seed=1)
        with pytest.raises(PositionError, match="kings-pair has no draw/stop turn"):
            engine.turn_position()


def with_cards(engine: KingsPairEngine, drawn: str, pile: str) -> KingsPairEngine:
    engine.drawn = list(parse_cards(drawn))
    engine.pile = list(parse_cards(pile))
    return engine


def test_a_bot_never_hides_a_model_engine_disagreement() -> None:
    class NoStopEngine(KingsPairEngine):
        """A buggy engine: it never lets a player stop."""

        def legal_actions(self) -> tuple[str, ...]:
            return () if self.is_over else (DRAW,)

    # After 3h 4h Kh, stopping banks 12 and drawing gets (14 + 0) / 2 = 7: the model stops.
    sound = with_cards(KingsPairEngine(KingsPairVariant(), 2, 3), "3h 4h Kh", "2h Ks")
    assert OptimalTurnBot().choose(sound) == STOP
    buggy = with_cards(NoStopEngine(KingsPairVariant(), 2, 3), "3h 4h Kh", "2h Ks")
    with pytest.raises(ModelEngineMismatch,
                       match=r"kings-pair: the turn model and the engine disagree: the model "
                             r"chooses 'stop' .* \(legal: draw\)"):
        OptimalTurnBot().choose(buggy)


def test_the_table_plays_the_new_game(kings_pair: GameSpec) -> None:
    table = play_checked(NAME, max_clicks=40)
    assert "pushluck-table" in table._dom_classes
    table = GameTable(NAME, seats=("human", "cautious"), seed=5, background=False)
    assert "No cards yet this turn." in table.cards_html.value
    table.act(DRAW)  # the first card never busts: still player 1's turn, one card shown
    assert not table.message_is_error, table.message
    assert len(table.engine.view().turn_cards) == 1 and table.engine.current_player == 0
    assert "No cards yet this turn." not in table.cards_html.value


def test_the_new_game_conforms(kings_pair: GameSpec) -> None:
    for preset in SPEC.presets.values():
        model, state = SPEC.position(preset)
        conformance.check_position(model, state)
    model, state = SPEC.position(KingsPairVariant(), drawn="2h Kh")
    conformance.check_position(model, state)
    assert model.transitions(state, DRAW) == [
        (1, (("4h", "Ks"), 10, 1, True, "")),
        (1, (("3h", "Ks"), 11, 1, True, "")),
        (1, (("3h", "4h"), 12, 2, True, "bust")),
    ]
    conformance.test_random_positions_conform(spec=SPEC)  # the hypothesis walk, this game


def test_registration_is_scoped() -> None:
    with registered(SPEC):
        assert get_game(NAME) is SPEC
        with pytest.raises(RulesError, match="already registered"), registered(SPEC):
            pass
    with pytest.raises(RulesError, match="unknown game"):
        get_game(NAME)


# A solo mode: three turns, each from a fresh five-card deck; the carry is the turns played.
SOLO = SoloMode(
    title="Three turns alone",
    model="fresh five-card deck each turn; Markov chain over (turn, score)",
    start=0,
    prepare=lambda variant: variant or KingsPairVariant(),
    turn_position=lambda variant, turns: {},
    turn_outcome=lambda variant, model, last, terminal, action: int(model.payoff(terminal)),
    advance=lambda variant, turns, points: (points, turns + 1),
    finished=lambda variant, turns: turns >= 3,
)


def test_the_solo_solver_chains_the_new_games_turns() -> None:
    # threshold:1 stops after the first card: 2, 3 or 4 with 1/5 each, a king (5) with 2/5.
    # Three turns: all three 2s (total 6) 1/125, three kings (15) 8/125, mean 3 * 19/5.
    with registered(dataclasses.replace(SPEC, solo=SOLO)):
        result = solo_result(NAME, None, "threshold:1")
        assert result.probability(6) == pytest.approx(1 / 125, abs=1e-15)
        assert result.probability(15) == pytest.approx(8 / 125, abs=1e-15)
        assert result.mean == pytest.approx(57 / 5, abs=1e-12)
        assert result.p_out is None and result.model == SOLO.model
        one = solo_result(NAME, None, "threshold:1", turns=1)
        assert one.distribution() == pytest.approx({2: 0.2, 3: 0.2, 4: 0.2, 5: 0.4}, abs=1e-15)
        sampled = model_monte_carlo(NAME, None, "threshold:1", n=400, seed=2)
        assert sampled.within(57 / 5, 4.0)
    with registered(SPEC), pytest.raises(RulesError, match="no solo model for 'kings-pair'"):
        solo_result(NAME)


def test_the_variant_lab_takes_the_new_game() -> None:
    with registered(dataclasses.replace(SPEC, lab=("kings-tab",))):
        assert lab_game("kings-tab") == NAME
        # Kings worth 9 instead of 5: every turn that ends on a king is worth more.
        panel = SideBySide(NAME, variants=("standard", "royal"), background=False)
        assert (SPEC.title, NAME) in panel.game.options
        standard, royal = panel.summaries
        assert royal.turn_value > standard.turn_value
        sweep = SweepPanel(NAME)
        assert sweep.game.value == NAME and set(sweep.option.options) == {"king_value", "target"}
    assert lab_game("kings-tab") == turn_games()[0].name
