"""The level-by-level NumPy solver (``solve/levels.py``) against the pure recursion
(``TurnSolver(levels=False)``, the path the in-browser build uses without NumPy), on many Captain
Seven positions with every relic: values within 1e-9 relative (in fact bit for bit: the slots
are summed in the recursion's order) and identical best actions; its budget, cancellation and
the fallback without NumPy."""

from __future__ import annotations

import builtins
import random
import time
from typing import Any

import pytest

from pushluck_teach.cards import standard_cards
from pushluck_teach.games import get_game
from pushluck_teach.games.captain_seven import CaptainSevenTurnModel, CaptainSevenVariant
from pushluck_teach.solve import levels
from pushluck_teach.solve.turn import Cancelled, TooManyStates, TurnSolver, watching

SPEC = get_game("captain-seven")
RELICS = (None, "A", "J", "Q", "K")


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def _random_positions(seed: int, count: int, max_estimate: int) -> list[tuple[Any, Any, str]]:
    """Legal positions of every relic (random cards drawn, some relics of others removed),
    kept where the model estimates at most ``max_estimate`` states (the recursion compares)."""
    rng = random.Random(seed)
    variant = CaptainSevenVariant(relics=True)
    safe = [c for c in standard_cards(jokers=2) if c.rank != "7" and not c.is_joker]
    found: list[tuple[Any, Any, str]] = []
    while len(found) < count:
        relic = rng.choice(RELICS)
        cards = rng.sample(safe, rng.randint(1, 14))
        first = rng.choice([None, "7h", "JK"]) if rng.random() < 0.2 else None
        drawn = ([first] if first else []) + [c.code for c in cards[:-2]]
        removed = [c.code for c in cards[-2:]] if rng.random() < 0.3 else []
        total = sum(min(10, c.rank_index) for c in cards[:-2])
        if (total + (7 if first == "7h" else 0)) % 10 == 7 or not drawn:
            continue
        position: dict[str, Any] = {"drawn": " ".join(drawn)}
        if relic is not None:
            position["relic"] = relic
        if removed:
            position["removed"] = " ".join(removed)
        try:
            model, state = SPEC.position(variant, **position)
        except Exception:  # noqa: BLE001 - an illegal random position (caught already): skip
            continue
        estimate = model.estimated_states(state)
        if estimate is None or estimate > max_estimate or not model.actions(state):
            continue
        found.append((model, state, repr(position)))
    return found


def _compare_all_states(model: Any, state: Any) -> int:
    """Solve ``state`` both ways; every state the recursion solved that the level table holds
    has the same value (1e-9 relative; bit for bit in practice) and the same best action; a
    state it does not hold is a proved stop, or an inline choice (a queen's, a jack's) whose
    value, which the table's memo computes from the table, is the recursion's.  The table's
    other states (the draw-or-stash states an unspent jack's choices read) have the values the
    recursion gives them.  Returns the number of states compared."""
    graph = model.level_graph()
    table = levels.solve_levels(graph, state)
    memo = levels.LevelMemo(graph)
    memo.add(table)
    plain = TurnSolver(model, levels=False, shipped=False, max_states=None)
    plain.value(state)
    seeded = TurnSolver(model, levels=False, shipped=False, max_states=None,
                        seed=memo)  # the table as the memo, as the solver holds it
    compared = 0
    inline_states = []
    for solved, value in list(plain.solved_values().items()):  # the recursion's memo
        if not model.actions(solved):
            continue
        found = memo.find(solved)
        if found is None and levels.is_inline(graph, solved):
            inline_states.append((solved, value))
            continue
        if found is None:  # a proved stop: never stored, valued at its stop payoff
            assert model.stop_is_optimal(solved) and value == float(model.stop_payoff(solved))
            continue
        assert _close(found[0], value), (model, solved)
        assert found[0] == value  # the recursion's summation order: bit for bit
        assert found[1] == plain.best_action(solved), (model, solved)
        compared += 1
    # Inline choices: about 3,000 of them, evenly spread (each is a slow look-up alone).
    for solved, value in inline_states[::max(1, len(inline_states) // 3000)]:
        assert memo.find_value(solved) == value, (model, solved)
        assert seeded.best_action(solved) == plain.best_action(solved), (model, solved)
    # nothing was solved again (the inline values came from the table): the recursion added
    # only turn ends and proved stops, which no table holds
    assert all(not model.actions(added) or model.stop_is_optimal(added) for added in memo.base)
    held = [int(code) for codes, _, _ in table.levels.values() for code in codes]
    extra = [code for code in held if code not in plain.solved_values()]
    for code in extra:  # a jack's draw-or-stash state, which the model's turn never enters
        assert model.actions(code) == ("draw", "stop")
        assert memo.find(code) == (plain.value(code), plain.best_action(code)), (model, code)
    assert table.size == compared + len(extra)  # and the recursion's expanded states
    return compared + len(inline_states)


@pytest.mark.parametrize("seed", range(4))
def test_level_tables_equal_the_recursion_on_random_positions(seed: int) -> None:
    compared = 0
    for model, state, _ in _random_positions(seed, 12, max_estimate=40_000):
        compared += _compare_all_states(model, state)
    assert compared > 1000


@pytest.mark.parametrize(("relic", "drawn"), [
    (None, "5h 9s"), pytest.param("A", "Kh Qd 6c", marks=pytest.mark.slow), ("K", "9h 9d"),
    ("Q", "Kh Kd Ks Kc Jh Jd"),
    pytest.param("J", "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd Qs 9h", marks=pytest.mark.slow),
    pytest.param("Q", "7h 2h Kh Kd Ks Kc", marks=pytest.mark.slow),
    ("A", "JK 9h 9d"), ("J", "Kh Kd Ks Kc 7c"),
])
def test_level_tables_equal_the_recursion_at_known_positions(relic: str | None,
                                                              drawn: str) -> None:
    """Every kind of state: first cards (a 7 or a joker first), a pending jack choice after a
    catching card, queen choices, an ace's merged caught terminals, removed cards."""
    position: dict[str, Any] = {"drawn": drawn}
    if relic is not None:
        position["relic"] = relic
    if drawn.endswith("7c"):  # a jack rescue pending: the position after the catching 7
        model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="J",
                                     drawn=drawn.removesuffix(" 7c"))
        state = next(nxt for _, nxt in model.transitions(state, "draw")
                     if nxt >= 0 and model.actions(nxt) == ("caught", "relic:jack"))
    else:
        model, state = SPEC.position(CaptainSevenVariant(relics=True), **position)
    assert _compare_all_states(model, state) > 10


@pytest.mark.parametrize(("relic", "drawn"), [
    ("K", "9h 9d"), ("Q", "Kh Kd Ks Kc Jh Jd"), ("A", "JK 9h 9d"),
    ("J", "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd Qs 9h"),
])
def test_the_optimal_result_distribution_on_arrays_is_the_walks(relic: str | None,
                                                                drawn: str) -> None:
    """The turn's result distribution under optimal play pushed forward on the level table
    (queen and jack choices inline, a relic's actions, proved stops) has the results of the
    recursion's walk of the optimal policy, each with its chance to 1e-12."""
    position: dict[str, Any] = {"drawn": drawn}
    if relic is not None:
        position["relic"] = relic
    model, state = SPEC.position(CaptainSevenVariant(relics=True), **position)
    graph = model.level_graph()
    code = graph.code(state)
    solver = TurnSolver(model, max_states=None)
    assert solver._solve_levels(state)  # noqa: SLF001 - on arrays whatever its size
    arrays = levels.level_distribution(
        graph, code, table=solver._level_table_holding(code))  # noqa: SLF001
    walk = solver.distribution(state, solver.best_action)  # a plain policy: the walk
    assert list(arrays) == list(walk)
    assert all(arrays[r] == pytest.approx(walk[r], abs=1e-12) for r in walk)
    assert sum(r * p for r, p in arrays.items()) == pytest.approx(solver.value(state),
                                                                 rel=1e-12)


@pytest.mark.parametrize("chunk", [3, 40])
def test_any_chunk_size_gives_the_recursions_values(monkeypatch: pytest.MonkeyPatch,
                                                    chunk: int) -> None:
    """Levels are expanded ``CHUNK`` states at a time (a memory bound): a level split into many
    chunks, filling its successors' levels in many parts, still gives every value and best
    action bit for bit."""
    monkeypatch.setattr(levels, "CHUNK", chunk)
    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="K", drawn="9h 9d")
    assert _compare_all_states(model, state) > 3000  # levels of a few hundred states each


@pytest.mark.parametrize("relic", RELICS)
def test_the_solver_answers_equal_the_recursion_for_every_relic(relic: str | None) -> None:
    """The whole analysis (values, best action, bust chance, draw-once value) as the app asks
    for it, with the array path chosen by the solver itself, against the recursion."""
    drawn = {"J": "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd Qs", "Q": "Kh Kd Ks Kc 5h",
             "A": "Kh 2c 3d", None: "2h", "K": "3h"}[relic]
    position: dict[str, Any] = {"drawn": drawn}
    if relic is not None:
        position["relic"] = relic
    model, state = SPEC.position(CaptainSevenVariant(relics=True), **position)
    assert model.estimated_states(state) >= levels.LEVEL_MIN_STATES  # the array path is used
    fast = TurnSolver(model, shipped=False)
    plain = TurnSolver(model, shipped=False, levels=False, max_states=None)
    answer, expected = fast.analyse(state), plain.analyse(state)
    assert isinstance(fast.solved_values(), levels.LevelMemo)
    assert answer == expected
    for _, nxt in model.transitions(state, "draw"):  # the next clicks: answered from the table
        if model.actions(nxt):
            assert fast.analyse(nxt) == plain.analyse(nxt)


@pytest.mark.slow
def test_the_queen_after_a_first_seven_is_answered_in_float_mode() -> None:
    """Too large for the recursion's budget (its memo would hold about 2 GB), answered level
    by level.  Doubling the 7 (total 14) is best; V is the Bellman equation of the doubled
    state over the next draw, each next state's value read from the table or solved again."""
    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="Q", drawn="7h")
    solver = TurnSolver(model)
    analysis = solver.analyse(state)
    assert analysis.best_action == "relic:queen" and analysis.ev_stop is None
    ((_, doubled),) = model.transitions(state, "relic:queen")
    assert model.turn_total(doubled) == 14
    pairs = model.transitions(doubled, "draw")
    mean = sum(w * solver.value(nxt) for w, nxt in pairs) / sum(w for w, _ in pairs)
    assert _close(max(14.0, mean), analysis.ev_optimal) and mean > 14


@pytest.mark.slow
@pytest.mark.parametrize(("relic", "drawn"), [("Q", ""), ("J", "5h")])
def test_relic_turns_refused_before_inline_choices_are_answered(relic: str, drawn: str) -> None:
    """The queen relic from the turn start (stopped at 5 million stored states before) and a
    jack relic after a first card (estimated at 3.5 million, more than 5 million stored): now
    about 2-3 million stored.  V is the Bellman equation of the position over its next draw,
    the next states (inline choices) read from the solved table, and the next click is
    answered from the table without another solve.  (The queen's turn start ships its value
    now: solved here without it.)"""
    position: dict[str, Any] = {"relic": relic} | ({"drawn": drawn} if drawn else {})
    model, state = SPEC.position(CaptainSevenVariant(relics=True), **position)
    solver = TurnSolver(model, shipped=False)
    analysis = solver.analyse(state)
    assert analysis.best_action == "draw" and analysis.ev_optimal > 20
    assert isinstance(solver.solved_values(), levels.LevelMemo)
    table_states = solver.states_solved()
    assert 1_000_000 < table_states < levels.LEVEL_MAX_STATES
    pairs = model.transitions(state, "draw")
    assert any(levels.is_inline(solver._graph, nxt) for _, nxt in pairs)  # noqa: SLF001
    mean = sum(w * solver.value(nxt) for w, nxt in pairs) / sum(w for w, _ in pairs)
    assert _close(mean, analysis.ev_optimal)
    nxt = next(n for _, n in pairs if n >= 0 and model.actions(n) and model.turn_total(n) < 20)
    begin = time.process_time()
    solver.analyse(nxt)
    assert time.process_time() - begin < 0.5
    assert solver.states_solved() < table_states + 1_000  # no second level solve


def test_the_queen_after_a_first_joker_is_not_refused_for_its_choices() -> None:
    """The recursion's estimate counts the queen choices (5.4 million states); a level solve
    stores 0.9 million, so the level budget is compared with the stored estimate."""
    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="Q", drawn="JK")
    assert model.estimated_states(state) > levels.LEVEL_MAX_STATES
    assert model.estimated_states(state, stored=True) < levels.LEVEL_MAX_STATES
    graph = model.level_graph()
    assert graph.estimated_states(state) == model.estimated_states(state, stored=True)
    analysis = TurnSolver(model).analyse(state)
    assert analysis.best_action == "draw" and analysis.ev_optimal > 19  # a joker: no choice


def test_the_jack_start_is_refused_up_front_unless_its_value_ships() -> None:
    """Solved at a click the jack relic's turn start (12.4 million stored states) is refused
    at once with its estimate; the shipped start values answer it (``solve.turn_tables``),
    with its only action, its bust chance and the draw-then-stop value, and no solve."""
    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="J")
    solver = TurnSolver(model, shipped=False)
    begin = time.process_time()
    with pytest.raises(TooManyStates, match="solver states"):
        solver.analyse(state)
    assert time.process_time() - begin < 0.5
    assert solver.states_solved() == 0
    shipped = TurnSolver(model)
    begin = time.process_time()
    analysis = shipped.analyse(state)
    assert time.process_time() - begin < 2  # the table's check solves 37,000 states
    assert analysis.best_action == "draw" and analysis.action_values == {
        "draw": analysis.ev_optimal}
    assert analysis.p_bust_next == 0 and 30 < analysis.ev_optimal < 40
    assert shipped.states_solved() < 50_000  # the start values, the draw-then-stop chain
    with pytest.raises(TooManyStates):  # the optimal policy would need the whole turn
        shipped.distribution(state, max_states=30_000)


def _jack_start() -> tuple[CaptainSevenTurnModel, Any, list[tuple[int, Any]]]:
    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="J")
    return model, state, list(model.transitions(state, "draw"))


def _within(model: CaptainSevenTurnModel, state: Any, steps: int) -> set[Any]:
    """The decision states within ``steps`` actions of ``state`` (itself included)."""
    found, frontier = {state}, [state]
    for _ in range(steps):
        frontier = [after for here in frontier for action in model.actions(here)
                    for _, after in model.transitions(here, action) if model.actions(after)]
        found.update(frontier)
    return found


@pytest.mark.slow
def test_the_jack_start_value_is_the_bellman_mean_of_its_first_cards_shipped_values() -> None:
    """The shipped value of the jack relic's turn start is the mean of the values shipped for
    its first cards, bit for bit (the table is consistent with the turn's first draw)."""
    from pushluck_teach.solve import turn_tables

    model, state, first_cards = _jack_start()
    table = turn_tables.shipped_start_values(model)
    assert table is not None and len(first_cards) == 11
    acc, total = 0.0, 0
    for weight, nxt in first_cards:
        acc += weight * table.find_value(nxt)
        total += weight
    assert acc / total == TurnSolver(model).value(state) == table.find_value(state)


# A first card solved again every run: a seven and a joker (the cards with rules of their
# own); every first card in the soak run.
JACK_FIRST_CARDS = [pytest.param(index, marks=() if index in (9, 10) else pytest.mark.soak)
                    for index in range(11)]


@pytest.mark.slow
@pytest.mark.parametrize("first_card", JACK_FIRST_CARDS)
def test_the_jack_start_values_shipped_for_a_first_card_are_a_fresh_solve(first_card) -> None:
    """A first card of the jack relic's turn solved now level by level (2.7-2.8 million stored
    states): its value and every value shipped for what its analysis reads (the second cards,
    the jack's redraws) are the solve's, bit for bit."""
    from pushluck_teach.solve import turn_tables

    model, _, first_cards = _jack_start()
    nxt = first_cards[first_card][1]
    table = turn_tables.shipped_start_values(model)
    assert table is not None
    solver = TurnSolver(model, shipped=False)
    assert solver.value(nxt) == table.find_value(nxt)
    shipped = [known for known in turn_tables.opening_states(model)
               if known in _within(model, nxt, 2) and known != nxt]
    assert len(shipped) >= 8
    for known in shipped:
        assert solver.value(known) == table.find_value(known), known


def _queen_members() -> list[CaptainSevenTurnModel]:
    model, _ = SPEC.position(CaptainSevenVariant(relics=True), relic="Q")
    return list(model.start_value_models())


# The first and last of the queen's ten turn starts every run; all of them in the soak run.
QUEEN_STARTS = [pytest.param(index, marks=() if index in (0, 9) else pytest.mark.soak)
                for index in range(10)]


@pytest.mark.slow
@pytest.mark.parametrize("member", QUEEN_STARTS)
def test_the_queen_start_values_are_a_fresh_solve_of_a_start(member: int) -> None:
    """Every value the queen's start-values table ships for one of its ten turn starts (to
    its fourth card: the choices to double a card or not and their outcomes) is what a solve
    from scratch gives now, level by level from that start (2.06 million stored states each),
    bit for bit."""
    from pushluck_teach.solve import turn_tables

    members = _queen_members()
    assert len(members) == 10
    table = turn_tables.shipped_start_values(members[0])
    assert table is not None
    solver = TurnSolver(members[member], shipped=False)
    states = turn_tables.opening_states(members[member])
    assert len(states) > 5_000
    for state in states:
        assert solver.value(state) == table.find_value(state), (members[member].out, state)


def test_the_queen_table_ships_each_start_to_its_fourth_card() -> None:
    """The queen's table holds exactly what its ten starts' analyses read, and no more."""
    from pushluck_teach.solve import turn_tables

    members = _queen_members()
    table = turn_tables.shipped_start_values(members[0])
    assert table is not None
    assert len(table.states) == sum(len(turn_tables.opening_states(m)) for m in members) > 60_000


def test_the_queen_start_and_its_first_three_cards_answer_from_shipped_values() -> None:
    """The queen's turn start, and after each of its first three cards (aces) the choice to
    double it and the position after keeping it, are answered from the shipped start values
    without a solve; so is the choice after a fourth ace.  The position after keeping the
    fourth card needs its successors, which are solved from there level by level, not under
    the recursion.  Every answer is a solve from scratch's."""
    model, start = SPEC.position(CaptainSevenVariant(relics=True), relic="Q")
    solver = TurnSolver(model)
    assert solver.analyse(start).best_action == "draw"  # its value: the slow test above

    def next_choice(kept: int) -> int:
        return next(nxt for _, nxt in model.transitions(kept, "draw")
                    if model.actions(nxt) == ("no-queen", "relic:queen"))

    shipped: list[int] = []
    kept = start
    for aces in (1, 2, 3, 4):
        choice = next_choice(kept)
        assert model.turn_total(choice) == aces  # another ace
        ((_, kept),) = model.transitions(choice, "no-queen")
        shipped += [choice, kept]
    for position in shipped[:-1]:
        analysis = solver.analyse(position)
        assert solver.states_solved() - solver.states_seeded() < 10, position  # nothing solved
        assert analysis == TurnSolver(model, shipped=False).analyse(position)
    analysis = solver.analyse(kept)  # four aces kept
    assert isinstance(solver.solved_values(), levels.LevelMemo)  # a level solve
    assert 20_000 < solver.states_solved() - solver.states_seeded() < 400_000
    assert analysis == TurnSolver(model, shipped=False).analyse(kept)


def test_a_newer_click_cancels_a_level_solve_between_levels() -> None:
    # Five cards: past the queen's shipped start values (to the fourth card), so it is solved
    # level by level (63,000 stored states, about 60 checkpoints).
    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="Q",
                                 drawn="Ah Ad As Ac 2h")
    solver = TurnSolver(model)
    seen: list[int] = []

    def check(states: int) -> None:
        seen.append(states)
        if len(seen) == 3:
            raise Cancelled

    with watching(check), pytest.raises(Cancelled):
        solver.analyse(state)
    assert solver.states_solved() == solver.states_seeded()  # nothing half-solved was stored
    assert TurnSolver(model, levels=False).analyse(state) == solver.analyse(state)


def test_without_numpy_the_model_offers_no_graph_and_the_recursion_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_numpy(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "numpy" or name.startswith("numpy."):
            raise ImportError("no numpy here")
        return real_import(name, *args, **kwargs)

    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="Q",
                                 drawn="Kh Kd Ks Kc 5h")
    expected = TurnSolver(model, levels=False).analyse(state)
    monkeypatch.setattr(builtins, "__import__", no_numpy)
    assert CaptainSevenTurnModel(CaptainSevenVariant(relics=True), "Q").level_graph() is None
    assert levels.level_graph(model) is None
    solver = TurnSolver(model, shipped=False)  # the queen's start values need NumPy too
    assert solver.analyse(state) == expected
    assert isinstance(solver.solved_values(), dict)  # the recursion's own memo


def _states_near(model: Any, state: Any, steps: int, rng: random.Random) -> list[Any]:
    """``state`` and states a few random moves on (every action), for the transition check."""
    found = [state]
    frontier = [state]
    for _ in range(steps):
        nxt = []
        for at in frontier:
            for action in model.actions(at):
                pairs = model.transitions(at, action)
                nxt.extend(s for _, s in pairs if s >= 0 and model.actions(s))
        frontier = rng.sample(nxt, min(len(nxt), 40))
        found.extend(frontier)
    return found


@pytest.mark.parametrize("relic", RELICS)
def test_the_vectorised_transitions_are_the_models_slot_for_slot(relic: str | None) -> None:
    """The protocol's contract, checked directly (no solve): for states from the turn start on
    (first cards, a jack's first-card discard, pending jack choices, queen choices, spent
    relics), the legal actions in the graph's order are the solver's order, and the slots of
    positive weight are exactly ``model.transitions``; stop values, proved stops and levels."""
    import numpy as np

    rng = random.Random(9)
    variant = CaptainSevenVariant(relics=True)
    states: list[Any] = []
    for drawn in (None, "7h", "JK", "Kh 5d", "2h 3h 4h 5h 6h"):
        position: dict[str, Any] = {} if relic is None else {"relic": relic}
        if drawn:
            position["drawn"] = drawn
        model, state = SPEC.position(variant, **position)
        states.extend(_states_near(model, state, 4, rng))
    graph = model.level_graph()
    codes = np.array(states, dtype=np.int64)
    stop = graph.stop_value(codes)
    proved = graph.stop_is_optimal(codes)
    moves = {a: graph.transitions(codes, a) for a in graph.actions if a != "stop"}
    assert {"relic:jack", "relic:queen", "caught"} <= set(graph.actions)
    for i, state in enumerate(states):
        actions = model.actions(state)
        ordered = (("stop",) if "stop" in actions else ()) + tuple(a for a in actions
                                                                 if a != "stop")
        legal = tuple(a for a in graph.actions
                      if (a == "stop" and not np.isnan(stop[i]))
                      or (a != "stop" and moves[a][0][i]))
        assert legal == ordered, model.describe(state)
        if "stop" in actions:
            assert stop[i] == float(model.stop_payoff(state))
            assert bool(proved[i]) == model.stop_is_optimal(state)
        for action in actions:
            if action == "stop":
                continue
            _, weights, successors = moves[action]
            slots = [(int(w), int(s)) for w, s in zip(weights[i], successors[i], strict=True)
                     if w > 0]
            pairs = list(model.transitions(state, action))
            assert slots == pairs, (model.describe(state), action)
            for _, nxt in pairs:
                if nxt >= 0:
                    assert graph.level(nxt) > graph.level(state)
        assert int(graph.level(np.array([state]))[0]) == graph.level(state)


def test_the_jack_is_never_worth_using_on_a_safe_card_where_its_redraw_base_is_a_stop() -> None:
    """The pruning the level solver relies on (captain_seven.turn's docstring, "Jack on a
    safe card"): at every jack choice after a safe card that was not the first, where the
    redraw's base satisfies ``pool ≤ c·t``, the recursion's value of ``relic:jack`` is below
    stashing (the other choices are compared with the recursion by ``_compare_all_states``)."""
    import numpy as np

    from pushluck_teach.games.captain_seven import JACK, LAST_FIRST

    model, state = SPEC.position(CaptainSevenVariant(relics=True), relic="J",
                                 drawn="Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd Qs 9h")
    graph = model.level_graph()
    plain = TurnSolver(model, levels=False, shipped=False, max_states=None)
    plain.value(state)
    checked = 0
    for solved in list(plain.solved_values()):  # the recursion's memo
        if model.actions(solved) != ("draw", "stop", JACK) or solved & LAST_FIRST:
            continue
        base = graph._jack_bases(np.array([solved], dtype=np.int64))  # noqa: SLF001
        if not graph._redraw_stops(base)[0]:  # noqa: SLF001
            continue
        outcomes = model.transitions(solved, JACK)
        redraw = sum(w * plain.value(nxt) for w, nxt in outcomes) / sum(w for w, _ in outcomes)
        assert redraw < model.stop_payoff(solved), (solved, redraw)
        checked += 1
    assert checked > 10_000
