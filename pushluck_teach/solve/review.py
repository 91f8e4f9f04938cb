r"""The post-game review: what each decision cost, and how much of the result was luck.

For every move of a :class:`~pushluck_teach.games.record.GameRecord` the review replays the
game and asks the exact turn solver about the mover's position ``s`` (the turn model the table's
coach uses): the value ``Q(s, a)`` of each legal action this turn, the best value
``V^*(s) = max_a Q(s, a)``, and the **skill cost** of the choice ``a``

.. math::  c(s, a) = V^*(s) - Q(s, a) \ \ge 0

in expected points this turn (an exact :class:`~fractions.Fraction` where the turn is solved
exactly).  Between two decisions of the same turn chance (and the other players) moves the
position from ``s`` to ``s'``; the **luck** of that step is ``V^*(s') - Q(s, a)``, what the
position is worth afterwards minus what it was expected to be worth (its mean over the draws
is zero).  At the turn's end ``V^*(s')`` is the turn's result.  Summing over a turn, everything
in between cancels:

.. math::  \text{result} - V^*(s_0) = \sum \text{luck} - \sum \text{skill cost}

exactly, where ``s_0`` is the turn's first decision.  A seat's totals add this up over its
turns.  A turn still unfinished when the record ends counts at the value of its last choice.

Where the whole game is solved (two players, a game whose spec names a whole-game solver) the
same telescoping runs in the chance to win: ``W`` is the mover's chance to win under the
solver's policy, the cost of a choice is ``W^*(s) - W(s, a)``, and every step between two moves
is luck.  In a two-player game the other player's costly choices raise your chance, so a seat's
identity reads ``result - W(start) = luck - own skill cost + the other's skill cost`` (the
result is 1 for a win, 0 for a loss, 1/2 for a shared win).

Approximate decisions are flagged, not hidden: where other players share the turn (Incan Gold's
explorers) the values come from the table's stated model of the others (each leaves at a
threshold: a threshold bot its own, anyone else an assumed one); a game without a turn model
is valued by its stated decision model where its spec gives one (``GameSpec.decision_values``:
Lost Cities' plan model; costs only, luck is not measured); decisions no model covers (a king
relic played in another's turn) are listed unscored, with the reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from pushluck_teach.games.base import Engine, GameSpec, RulesError, TurnModel
from pushluck_teach.games.policies import THRESHOLD, parse_policy
from pushluck_teach.games.record import GameRecord
from pushluck_teach.numbers import fraction_text
from pushluck_teach.pyodide_site import elsewhere_message
from pushluck_teach.solve import speedups
from pushluck_teach.solve.turn import TooManyStates, TurnSolver, cached_solver

Number = int | float | Fraction
#: A decision costing at least this many expected points this turn is marked costly.
COSTLY_POINTS = Fraction(1, 2)
#: A decision costing at least this chance to win (one percentage point) is marked costly.
COSTLY_WIN = 0.01
#: The leave threshold assumed for another explorer who is a person or a turn-optimal bot (the
#: Play page's assumption, docs/rules.md "Incan Gold with other explorers").
ASSUMED_THRESHOLD = 10
#: The most states a turn is solved in exact fractions for the review (more: in floats, as the
#: Play page does, with its level-by-level solver and shipped tables).
EXACT_MAX_STATES = 400_000
#: The largest turn (estimated solver states) the review solves with the others' stated model;
#: a larger one is valued as if the mover were alone (the turn-optimal bot's own model), said
#: in the decision's note (a larger solve would hold a review up far too long).
GROUP_MAX_STATES = 1_000_000
#: Exact solvers a review keeps (the turns in progress; a turn's memo can hold 100 MB).
KEPT_SOLVERS = 2
#: Float tolerance when deciding whether a chosen action ties the best one.
_TIE = 1e-12


class ReviewCancelled(Exception):  # noqa: N818 - reads as "the review was cancelled"
    """The review was cancelled between two moves (the page asked for it)."""


@dataclass(frozen=True)
class DecisionReview:
    """One move of one seat, reviewed."""

    move: int
    player: int
    seat: str
    turn: int
    position: str
    choice: str
    choice_label: str
    best: str
    best_label: str
    values: Mapping[str, Number]
    cost: Number
    exact: bool
    win_values: Mapping[str, float] | None = None
    win_cost: float | None = None
    approximate: str = ""
    costly: bool = False
    win_best: str | None = None
    win_best_label: str = ""

    @property
    def scored(self) -> bool:
        """Whether the move has a cost in points (a decision the turn model covers)."""
        return bool(self.values)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "move": self.move, "player": self.player, "seat": self.seat, "turn": self.turn,
            "position": self.position, "choice": self.choice, "best": self.best,
            "values": {k: float(v) for k, v in self.values.items()},
            "cost": float(self.cost) if self.scored else None,
            "exact": self.exact,
            "win_values": dict(self.win_values) if self.win_values is not None else None,
            "win_cost": self.win_cost,
            "win_best": self.win_best,
            "choice_label": self.choice_label, "best_label": self.best_label,
            "win_best_label": self.win_best_label,
            "approximate": self.approximate,
            "costly": self.costly,
        }
        if self.exact and self.scored:
            data["cost_exact"] = fraction_text(Fraction(self.cost))
        return data


@dataclass(frozen=True)
class SeatReview:
    """One seat's totals: ``result - expected = luck - skill`` (points, exact), and in chance
    to win (where solved) ``win_result - win_start = win_luck - win_skill + win_gifts``."""

    player: int
    seat: str
    decisions: int
    costly: int
    skill: Number
    result: Number
    expected: Number | None
    luck: Number | None
    exact: bool
    unscored: int = 0
    win_start: float | None = None
    win_result: float | None = None
    win_skill: float | None = None
    win_luck: float | None = None
    win_gifts: float | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player, "seat": self.seat, "decisions": self.decisions,
            "costly": self.costly, "unscored": self.unscored,
            "skill": float(self.skill), "result": float(self.result),
            "expected": None if self.expected is None else float(self.expected),
            "luck": None if self.luck is None else float(self.luck), "exact": self.exact,
            "win_start": self.win_start, "win_result": self.win_result,
            "win_skill": self.win_skill, "win_luck": self.win_luck, "win_gifts": self.win_gifts,
        }
        if self.exact:
            for name in ("skill", "result", "expected", "luck"):
                data[f"{name}_exact"] = fraction_text(Fraction(getattr(self, name)))
        return data


@dataclass(frozen=True)
class WinPoint:
    """Seat 1's (player 0's) chance to win before move ``move`` (the last point: the result);
    ``costly_player`` is the player whose costly decision that move was, if any."""

    move: int
    chance: float
    costly_player: int | None = None


@dataclass(frozen=True)
class GameReview:
    """The review of a whole record (:func:`review_game`)."""

    record: GameRecord
    decisions: tuple[DecisionReview, ...]
    seats: tuple[SeatReview, ...]
    win_series: tuple[WinPoint, ...] = ()
    notes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """What ``pushluck review --json`` prints."""
        return {
            "game": self.record.game,
            "seed": self.record.seed,
            "moves": len(self.record.moves),
            "finished": self.record.finished,
            "decisions": [d.as_json() for d in self.decisions],
            "seats": [s.as_json() for s in self.seats],
            "win_series": [{"move": p.move, "chance": p.chance,
                            "costly_player": p.costly_player} for p in self.win_series],
            "notes": list(self.notes),
        }

    def text_lines(self) -> list[str]:
        """What ``pushluck review`` prints: a plain table, then each seat's totals."""
        spec = self.record.spec
        win = bool(self.win_series)
        lines = [f"{spec.title}, seed {self.record.seed}: review of {len(self.record.moves)} "
                 f"moves" + ("" if self.record.finished else " (game not finished)")]
        header = f"{'seat':<14} {'turn':>4}  {'position':<34} {'choice':<18} {'best':<18} " \
                 f"{'cost':>6}"
        if win:
            header += f"  {'best to win':<11} {'win cost':>8}"
        lines.append(header)
        for d in self.decisions:
            cost = points_text(d.cost) if d.scored else "-"
            best = d.best_label if d.scored else "-"
            row = (f"{d.seat[:14]:<14} {d.turn:>4}  {d.position[:34]:<34} "
                   f"{d.choice_label[:18]:<18} {best[:18]:<18} {cost:>6}")
            if win:
                win_best = d.win_best_label or "-"
                win_cost = "-" if d.win_cost is None else percent_text(d.win_cost)
                row += f"  {win_best[:11]:<11} {win_cost:>8}"
            marks = ("!" if d.costly else "") + ("~" if d.approximate else "")
            lines.append(row + (f" {marks}" if marks else ""))
        lines.append("")
        for s in self.seats:
            split = (f"expected {points_text(s.expected)}, skill cost {points_text(s.skill)}, "
                     f"luck {signed_points(s.luck)}"
                     if s.expected is not None and s.luck is not None else
                     f"skill cost {points_text(s.skill)} (model values; luck not measured)")
            lines.append(
                f"{s.seat}: result {points_text(s.result)}, {split} "
                f"({s.decisions} decisions, {s.costly} costly"
                + (f", {s.unscored} unscored" if s.unscored else "") + ")")
            if s.win_start is not None and s.win_result is not None:
                lines.append(
                    f"{'':<4}chance to win: start {percent_text(s.win_start)}, result "
                    f"{percent_text(s.win_result)}, skill cost "
                    f"{percent_text(s.win_skill or 0.0)}, others' costs "
                    f"{percent_text(s.win_gifts or 0.0)}, luck "
                    f"{signed_percent(s.win_luck or 0.0)}")
        legend = [text for mark, text in (
            (any(d.costly for d in self.decisions), "! costly decision"),
            (any(d.approximate for d in self.decisions), "~ approximate or unscored (notes)"))
            if mark]
        if legend:
            lines.append("")
            lines.append("   ".join(legend))
        for note in self.notes:
            lines.append(f"Note: {note}")
        return lines


def points_text(value: Number) -> str:
    """Expected points as the review shows them (2 decimals)."""
    return f"{float(value):.2f}"


def signed_points(value: Number) -> str:
    return f"{float(value):+.2f}"


def percent_text(value: float) -> str:
    """A chance as the review shows it (percent, 1 decimal)."""
    return f"{100 * value:.1f}%"


def signed_percent(value: float) -> str:
    return f"{100 * value:+.1f}%"


# --------------------------------------------------------------------------------------------
# The computation


@dataclass
class _OpenTurn:
    """A seat's turn in progress: its first decision's value and its last choice."""

    model: TurnModel[Any]
    state: Any
    action: str
    q: Number


@dataclass
class _SeatBooks:
    decisions: int = 0
    costly: int = 0
    unscored: int = 0
    skill: Number = 0
    result: Number = 0
    expected: Number = 0
    luck: Number = 0
    exact: bool = True
    turns: int = 0
    open: _OpenTurn | None = None
    win_skill: float = 0.0
    win_luck: float = 0.0


@dataclass
class _WinBooks:
    solver: Any
    series: list[WinPoint] = field(default_factory=list)
    start: float | None = None
    pending: tuple[int, float] | None = None   # (player, W(s, a) in that player's terms)
    luck: list[float] = field(default_factory=lambda: [0.0, 0.0])


def _cancelled(cancel: Callable[[], bool] | threading.Event | None) -> bool:
    if cancel is None:
        return False
    if isinstance(cancel, threading.Event):
        return cancel.is_set()
    return bool(cancel())


def _threshold_of(record: GameRecord, player: int) -> int:
    policy_text = record.seats[player].policy if player < len(record.seats) else None
    if policy_text:
        try:
            policy = parse_policy(policy_text)
        except RulesError:
            return ASSUMED_THRESHOLD
        if policy.kind == THRESHOLD and policy.number is not None:
            return policy.number
    return ASSUMED_THRESHOLD


def _position(spec: GameSpec, record: GameRecord, engine: Engine
              ) -> tuple[TurnModel[Any], Any, str]:
    """The mover's turn position as the Play page's coach analyses it, and why it is only
    approximate ("" where it is exact)."""
    others = engine.others_in_turn()
    takes = {flag.name for flag in spec.position_flags}
    if not others:
        model, state = engine.turn_position()
        return model, state, ""
    if "others" not in takes:
        model, state = engine.turn_position()
        return model, state, "other players share this turn; valued as if alone"
    flags = dict(engine.position_flags())
    thresholds = [_threshold_of(record, p) for p in others]
    flags["others"] = ",".join(map(str, thresholds))
    words = ", ".join(f"{record.seats[p].name} leaves at {t}" for p, t in
                      zip(others, thresholds, strict=True))
    try:
        model, state = spec.position_from_flags(record.variant, flags)
    except RulesError:
        model, state = engine.turn_position()
        return model, state, "too many others for the model; valued as if alone"
    estimate = speedups.estimated_states(model, state)
    if estimate is not None and estimate > GROUP_MAX_STATES:
        model, state = engine.turn_position()
        return model, state, ("valued as if alone: the model with the others is too large to "
                              "solve in a review")
    return model, state, f"the others follow a stated rule ({words})"


@dataclass
class _Solvers:
    """The review's exact solvers (one per turn model, within :data:`EXACT_MAX_STATES`); a
    model too large for fractions is solved in floats, as the Play page does."""

    exact: bool
    solvers: dict[Any, TurnSolver[Any]] = field(default_factory=dict)
    too_large: set[Any] = field(default_factory=set)

    def get(self, model: TurnModel[Any], state: Any) -> tuple[Any, bool]:
        if self.exact and model not in self.too_large:
            solver = self.solvers.get(model)
            if solver is None:
                solver = TurnSolver(model, exact=True, max_states=EXACT_MAX_STATES)
            try:
                solver.value(state)
                self.solvers.pop(model, None)
                self.solvers[model] = solver
                while len(self.solvers) > KEPT_SOLVERS:  # the oldest turns' memos go
                    self.solvers.pop(next(iter(self.solvers)))
                return solver, True
            except TooManyStates:
                self.too_large.add(model)
                self.solvers.pop(model, None)
        solver = cached_solver(model)
        solver.value(state)  # solves the whole turn from here (level by level where it can)
        return solver, False


def _terminal_value(model: TurnModel[Any], state: Any, action: str, busted: bool,
                    recorded: Number) -> Number:
    """The turn objective the model gives the way the turn ended (a capped Pig hold, say), or
    the engine's recorded result where the model's terminal cannot be told apart."""
    payoffs = {model.payoff(s) for _, s in model.transitions(state, action)
               if not model.actions(s) and model.is_bust(s) == busted}
    if len(payoffs) == 1:
        return payoffs.pop()
    return recorded


def _win_chances(books: _WinBooks, record: GameRecord, engine: Engine, model: TurnModel[Any],
                 state: Any) -> dict[str, float] | None:
    scores = engine.scores()
    me = engine.current_player
    task = books.solver.action_win_chances(record.variant, int(scores[me]),
                                           int(scores[1 - me]), model, state)
    if task is None:
        return None
    return {k: float(v) for k, v in task().items() if v is not None}


def review_game(record: GameRecord, *,
                progress: Callable[[int, int], None] | None = None,
                cancel: Callable[[], bool] | threading.Event | None = None,
                exact: bool = True) -> GameReview:
    """Review every move of ``record`` (module docstring).  ``progress(done, total)`` is called
    after each move; ``cancel`` (a callable or an event) is checked before each move and raises
    :class:`ReviewCancelled`.  ``exact=False`` solves in floats only."""
    spec = record.spec
    engine = record.new_engine()
    total = len(record.moves)
    books = [_SeatBooks() for _ in range(record.players)]
    decisions: list[DecisionReview] = []
    notes: list[str] = []
    no_win = "The whole-game solution does not cover these rules: no chance to win."
    try:
        win = _win_books(spec, record, engine)
    except ImportError as missing:  # the static site: no NumPy for this game's solver, or
        win = None                  # no table shipped for these rules
        no_win = "No chance to win here: " + elsewhere_message(missing)
    if not spec.has_turn_model and spec.decision_values is None:
        notes.append(f"{spec.title} has no draw/stop turn model: its moves are listed, not "
                     "scored.")
    elif not spec.has_turn_model:
        notes.append(f"{spec.title}: each move is valued by {spec.decision_model}; the costs "
                     "are in that model's expected points, and luck is not measured (the model "
                     "gives no value of the whole position).")
    approximate_reasons: set[str] = set()
    solvers = _Solvers(exact)
    for index, move in enumerate(record.moves):
        if _cancelled(cancel):
            raise ReviewCancelled("review cancelled")
        player = engine.current_player
        seat = record.seats[player].name
        book = books[player]
        review: DecisionReview | str = _unscored_reason(spec, engine)
        if spec.has_turn_model and not engine.is_over:
            review = _review_move(spec, record, engine, move.action, index, book, win,
                                  solvers)
        elif spec.decision_values is not None and not engine.is_over:
            review = _review_by_model(spec, record, engine, move.action, index, book)
        if isinstance(review, str):
            book.unscored += 1
            review = DecisionReview(index, player, seat, max(book.turns, 1),
                                    _words(engine, None, None), move.action,
                                    engine.action_label(move.action), move.action,
                                    engine.action_label(move.action), {}, 0, False,
                                    approximate=review)
        if review.approximate:
            approximate_reasons.add(review.approximate)
        decisions.append(review)
        turns_before = len(engine.turn_records)
        engine.act(move.action)
        for turn in engine.turn_records[turns_before:]:
            _close_turn(books[turn.player], turn.result, turn.busted)
        if progress is not None:
            progress(index + 1, total)
    for book in books:
        if book.open is not None:  # unfinished: counts at the value of its last choice
            book.result += book.open.q
            book.open = None
    seats = _seat_reviews(record, books, win, engine)
    series: tuple[WinPoint, ...] = ()
    if win is not None and win.start is not None:
        final = _final_chance(engine, 0, win)
        win.series.append(WinPoint(total, final))
        series = tuple(win.series)
        notes.append(_win_note(spec))
    elif win is None and spec.whole_game and record.players == 2 and spec.has_turn_model:
        notes.append(no_win)
    for reason in sorted(approximate_reasons):
        notes.append(f"~ {reason}.")
    return GameReview(record, tuple(decisions), seats, series, tuple(notes))


def _win_books(spec: GameSpec, record: GameRecord, engine: Engine) -> _WinBooks | None:
    """The chances to win of the game's whole-game solution (the Play table's gauge's:
    :func:`~pushluck_teach.solve.whole_game.chances_for`); an ImportError where this Python
    cannot compute them for these rules (the static site), asked at the opening position."""
    if not spec.whole_game or record.players != 2 or not spec.has_turn_model:
        return None
    from pushluck_teach.solve.whole_game import chances_for

    chances = chances_for(spec.name)
    chances.win_chance(record.variant, 0, 0, *engine.turn_position())
    return _WinBooks(chances)


def _win_note(spec: GameSpec) -> str:
    from pushluck_teach.solve.whole_game import chances_for

    return f"Chance to win: {chances_for(spec.name).description}."


def _unscored_reason(spec: GameSpec, engine: Engine) -> str:
    if not spec.has_turn_model:
        return "no turn model for this game"
    return "the game is over"


def _words(engine: Engine, model: TurnModel[Any] | None, state: Any) -> str:
    scores = engine.scores()
    me = engine.current_player
    others = [str(s) for p, s in enumerate(scores) if p != me]
    where = f"score {scores[me]}" + (f" vs {', '.join(others)}" if others else "")
    if model is None:
        said = engine.view().turn_lines
        return f"{said[0]}; {where}" if said else where
    return f"{model.describe(state)}; {where}"


def _review_move(spec: GameSpec, record: GameRecord, engine: Engine, action: str, index: int,
                 book: _SeatBooks, win: _WinBooks | None, solvers: _Solvers
                 ) -> DecisionReview | str:
    """The move's review, or why it is not scored."""
    if not engine.decision_in_turn_model():
        return "a choice outside the turn model (it changes another player's turn)"
    model, state, approximate = _position(spec, record, engine)
    legal = set(engine.legal_actions())
    actions = [a for a in model.actions(state) if a in legal]
    if action not in actions:
        return f"the turn model does not cover the action {action!r}"
    try:
        solver, is_exact = solvers.get(model, state)
        values = {a: solver.action_value(state, a) for a in actions}
    except TooManyStates:
        return "too large to solve at this point of the turn"
    best_value = max(values.values())
    chosen = values[action]
    cost = best_value - chosen
    if not is_exact and abs(cost) <= _TIE * max(1.0, abs(float(best_value))):
        cost = 0.0
    best = action if cost == 0 else max(actions, key=lambda a: values[a])
    player = engine.current_player
    # points: open or continue this seat's turn
    if book.open is None:
        book.turns += 1
        book.expected += best_value
    else:
        book.luck += best_value - book.open.q
    book.open = _OpenTurn(model, state, action, chosen)
    book.skill += cost
    book.exact = book.exact and is_exact
    book.decisions += 1
    win_values = None
    win_cost = None
    win_best = None
    if win is not None:
        win_values = _win_chances(win, record, engine, model, state)
        if win_values is None or action not in win_values:
            win.solver = _NoSolution()
            win_values = None
        else:
            w_best = max(win_values.values())
            w_chosen = win_values[action]
            win_cost = max(0.0, w_best - w_chosen)
            if win_cost <= _TIE:
                win_cost = 0.0
            win_best = action if win_cost == 0 else max(win_values, key=win_values.__getitem__)
            w_seat0 = w_best if player == 0 else 1.0 - w_best
            if win.start is None:
                win.start = w_seat0
            if win.pending is not None:
                _win_luck(win, player, w_best)
            win.pending = (player, w_chosen)
            book.win_skill += win_cost
    costly = cost >= COSTLY_POINTS or (win_cost is not None and win_cost >= COSTLY_WIN)
    if win is not None and win_values is not None:
        w_seat0 = max(win_values.values())
        w_seat0 = w_seat0 if player == 0 else 1.0 - w_seat0
        win.series.append(WinPoint(index, w_seat0, player if costly else None))
    if costly:
        book.costly += 1
    return DecisionReview(
        index, player, record.seats[player].name, book.turns, _words(engine, model, state),
        action, engine.action_label(action), best, engine.action_label(best), values, cost,
        is_exact, win_values, win_cost, approximate, costly, win_best,
        engine.action_label(win_best) if win_best is not None else "")


def _review_by_model(spec: GameSpec, record: GameRecord, engine: Engine, action: str,
                     index: int, book: _SeatBooks) -> DecisionReview | str:
    """A move valued by the game's stated decision model (``GameSpec.decision_values``)."""
    assert spec.decision_values is not None
    values = dict(spec.decision_values(engine))
    if action not in values:
        return f"the game's model does not value the action {action!r}"
    best_value = max(values.values())
    cost = best_value - values[action]
    if cost <= _TIE * max(1.0, abs(best_value)):
        cost = 0.0
    best = action if cost == 0 else max(values, key=values.__getitem__)
    player = engine.current_player
    if index == 0 or record.moves[index - 1].player != player:
        book.turns += 1  # a turn: a seat's moves in a row (Lost Cities: a play, then a draw)
    book.skill += cost
    book.exact = False
    book.decisions += 1
    costly = cost >= COSTLY_POINTS
    book.costly += costly
    return DecisionReview(
        index, player, record.seats[player].name, max(book.turns, 1), _words(engine, None, None),
        action, engine.action_label(action), best, engine.action_label(best), values, cost,
        False, approximate="valued by the game's stated model", costly=costly)


class _NoSolution:
    """Stands in for a whole-game solver that does not cover a position: answers nothing."""

    def action_win_chances(self, *args: Any) -> None:
        return None


def _win_luck(win: _WinBooks, mover_now: int, w_now: float) -> None:
    """Luck of the steps since the last scored move, for its mover (and the opposite for the
    other player): what the position is worth now minus what that choice expected."""
    assert win.pending is not None
    player, expected = win.pending
    now = w_now if mover_now == player else 1.0 - w_now
    win.luck[player] += now - expected
    win.luck[1 - player] -= now - expected


def _final_chance(engine: Engine, seat: int, win: _WinBooks) -> float:
    if engine.is_over:
        winners = engine.winners()
        return (1.0 / len(winners)) if seat in winners else 0.0
    if win.pending is None:
        return win.start if win.start is not None else 0.5
    player, expected = win.pending
    return expected if player == seat else 1.0 - expected


def _close_turn(book: _SeatBooks, recorded: Number, busted: bool) -> None:
    if book.open is None:  # a turn without a scored decision: its result, no luck or skill
        book.result += recorded
        book.expected += recorded
        return
    opened = book.open
    value = _terminal_value(opened.model, opened.state, opened.action, busted, recorded)
    book.luck += value - opened.q
    book.result += value
    book.open = None


def _seat_reviews(record: GameRecord, books: list[_SeatBooks], win: _WinBooks | None,
                  engine: Engine) -> tuple[SeatReview, ...]:
    seats = []
    solved = win is not None and win.start is not None and not isinstance(win.solver,
                                                                          _NoSolution)
    for player, book in enumerate(books):
        win_fields: dict[str, Any] = {}
        if solved and win is not None:
            result = _final_chance(engine, player, win)
            final_luck = 0.0  # from the last choice to the result (0 while unfinished)
            if win.pending is not None:
                last_mover, expected = win.pending
                final_luck = result - (expected if last_mover == player else 1.0 - expected)
            luck_total = win.luck[player] + final_luck
            start = win.start if player == 0 else 1.0 - (win.start or 0.0)
            other = books[1 - player]
            win_fields = {"win_start": start, "win_result": result,
                          "win_skill": book.win_skill, "win_luck": luck_total,
                          "win_gifts": other.win_skill}
        valued_by_model = not record.spec.has_turn_model
        result = engine.scores()[player] if valued_by_model else book.result
        seats.append(SeatReview(
            player, record.seats[player].name, book.decisions, book.costly, book.skill,
            result, None if valued_by_model else book.expected,
            None if valued_by_model else book.luck, book.exact, book.unscored, **win_fields))
    return tuple(seats)


__all__ = [
    "COSTLY_POINTS", "COSTLY_WIN", "DecisionReview", "GameReview", "ReviewCancelled",
    "SeatReview", "WinPoint", "percent_text", "points_text", "review_game",
]
