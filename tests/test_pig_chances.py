"""Pig's chances to win in plain Python (the static site's gauge and win coach): the reader of
the stored tables and the one-position sweep give the NumPy solver's numbers, bit for bit, and
the published answer."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from pushluck_teach.games.pig import PigVariant
from pushluck_teach.solve import cache
from pushluck_teach.solve.plain_arrays import PlainArray, PlainArrayError, read_npy, read_npz
from pushluck_teach.solve.whole_game import chances_for
from pushluck_teach.solve.whole_game import pig as numpy_pig
from pushluck_teach.solve.whole_game.pig_chances import (
    CHANCES,
    PigModel,
    PigPolicy,
    TableNotShipped,
    action_chances,
    evaluate_match,
    match_key,
    optimal_key,
    optimal_positions,
    plain_start,
    shipped_start,
    solve_start_plain,
    turn_column,
    win_chance,
)

SHIPPED_FILES = sorted(cache.DATA_DIR.glob("*.npz"))


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: p.name)
def test_reader_gives_every_shipped_array_as_numpy_loads_it(path: Path) -> None:
    plain = read_npz(path)
    with np.load(path, allow_pickle=False) as data:
        assert sorted(plain) == sorted(data.files)
        for name in data.files:
            expected = data[name]
            if expected.dtype.kind == "U":
                assert plain[name] == str(expected)
                continue
            got = plain[name]
            assert isinstance(got, PlainArray) and got.shape == expected.shape
            assert got.tolist() == expected.tolist()  # the same float64 numbers, bit for bit


def test_reader_takes_format_versions_and_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    values = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 7
    for version in ((1, 0), (2, 0), (3, 0)):
        path = tmp_path / f"v{version[0]}.npy"
        with path.open("wb") as out:
            np.lib.format.write_array(out, values, version=version)
        got = read_npy(path.read_bytes())
        assert got.tolist() == values.tolist() and got[1, 2, 3] == values[1, 2, 3]
    np.save(tmp_path / "n.npy", np.int64(163))
    assert int(read_npy((tmp_path / "n.npy").read_bytes())) == 163
    np.save(tmp_path / "f4.npy", np.ones(3, dtype=np.float32))
    with pytest.raises(PlainArrayError, match="float32|<f4"):
        read_npy((tmp_path / "f4.npy").read_bytes())
    with pytest.raises(PlainArrayError, match="not an .npy"):
        read_npy(b"PK\x03\x04 a zip, not an array")
    with pytest.raises(IndexError):
        got[2, 0, 0]


def test_plain_load_checks_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path))
    key = optimal_key(PigModel(7))
    other = optimal_key(PigModel(8))
    assert cache.load_plain(key) is None
    cache.save(other, {"start": np.zeros((8, 8))})
    (tmp_path / key.filename).write_bytes((tmp_path / other.filename).read_bytes())
    assert cache.load_plain(key) is None  # a file whose stored key is another's is not used
    cache.save(key, {"start": np.full((7, 7), 0.25)})
    assert cache.load_plain(key)["start"][6, 6] == 0.25


def test_first_player_chance_at_0_0_is_neller_and_pressers() -> None:
    """Neller and Presser (2004): under optimal play the first player wins Pig to 100 with
    probability about 0.5306; here read from the shipped file without NumPy."""
    start = shipped_start(PigModel(100))
    assert isinstance(start, PlainArray)
    assert win_chance(PigModel(100), start, 0, 0) == pytest.approx(0.5306, abs=5e-5)


def test_piglet_by_hand() -> None:
    """Piglet (a coin, heads scores 1, goal 2; Neller and Presser): solving its four
    equations by hand gives V(0,0) = 4/7, V(0,1) = 2/5, V(1,0) = 4/5, V(1,1) = 2/3; sweeping
    the turn from that table gives it back."""
    exact = {(0, 0): 4 / 7, (0, 1): 2 / 5, (1, 0): 4 / 5, (1, 1): 2 / 3}
    start = np.array([[exact[0, 0], exact[0, 1]], [exact[1, 0], exact[1, 1]]])
    model = PigModel.piglet(2)
    for (i, j), value in exact.items():
        assert win_chance(model, start, i, j) == pytest.approx(value, abs=1e-15)
    assert win_chance(model, start, 1, 0, 1) == 1.0  # holding reaches the goal


@pytest.mark.parametrize("variant", [PigVariant(), PigVariant(target=50),
                                     PigVariant(target=17, die_sides=4)], ids=str)
def test_every_column_equals_the_numpy_table(variant: PigVariant) -> None:
    model = PigModel.from_variant(variant)
    solution = numpy_pig.optimal_solution(variant)
    stored = numpy_pig.stored_start(model)
    for i in range(model.target):
        for j in range(model.target):
            assert turn_column(model, stored, i, j) == solution.table[:, i, j].tolist()


@pytest.mark.parametrize("variant", [PigVariant(), PigVariant(target=50)], ids=str)
def test_shipped_positions_equal_the_numpy_solver(variant: PigVariant) -> None:
    """The site's path (the shipped file read without NumPy) against the Voilà app's
    functions, on 3,000 random positions: the same numbers, bit for bit."""
    model = PigModel.from_variant(variant)
    plain = shipped_start(model)
    rng = random.Random(7)
    for _ in range(3000):
        i, j = rng.randrange(model.target), rng.randrange(model.target)
        k = rng.randrange(model.target - i + 6)
        assert win_chance(model, plain, i, j, k) == numpy_pig.pig_win_probability(
            variant, i, j, k)
        assert action_chances(model, plain, i, j, k) == (
            numpy_pig.pig_action_win_probabilities(variant, i, j, k))


def test_the_gauge_goes_through_the_plain_chances() -> None:
    assert chances_for("pig") is CHANCES
    task = CHANCES.win_chance(PigVariant(), 30, 40, None, ("turn", 12))
    assert task() == numpy_pig.pig_win_probability(PigVariant(), 30, 40, 12)


def test_unshipped_rules_without_numpy_say_where_they_are_computed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, "off")
    assert shipped_start(PigModel(37)) is None
    with pytest.raises(TableNotShipped, match="Voilà app.*up to 20"):
        plain_start(PigModel(37))


def test_plain_value_iteration_solves_piglet_as_by_hand() -> None:
    start = solve_start_plain(PigModel.piglet(2))
    assert [start[i, j] for i in range(2) for j in range(2)] == pytest.approx(
        [4 / 7, 2 / 5, 4 / 5, 2 / 3], abs=1e-12)


@pytest.mark.parametrize("model", [PigModel(20), PigModel(20, 2, (2,)), PigModel(13, 4, (2, 3, 4)),
                                   PigModel(9, 20, tuple(range(2, 21)))], ids=repr)
def test_plain_value_iteration_equals_the_numpy_solver(model: PigModel) -> None:
    """The site's small targets: the same sweeps as NumPy's value iteration, the same bits."""
    plain = solve_start_plain(model)
    numpy_start = numpy_pig.solve_optimal(model).start
    g = model.target
    assert [[plain[i, j] for j in range(g)] for i in range(g)] == numpy_start.tolist()


@pytest.mark.parametrize("variant", [PigVariant(), PigVariant(target=17, die_sides=4)], ids=str)
def test_positions_equal_the_numpy_roll_and_hold_arrays(variant: PigVariant) -> None:
    """What Lesson 8 reads (``roll_values[k, i, j]``, ``hold_values[k, i, j]``), at single
    positions without NumPy: the NumPy solution's arrays, bit for bit."""
    solution = numpy_pig.optimal_solution(variant)
    positions = optimal_positions(variant)
    rng = random.Random(3)
    g = variant.target
    for _ in range(2000):
        k, i, j = rng.randrange(g), rng.randrange(g), rng.randrange(g)
        assert positions.roll_values[k, i, j] == solution.roll_values[k, i, j]
        assert positions.hold_values[k, i, j] == solution.hold_values[k, i, j]


def test_stored_matches_read_without_numpy_equal_the_numpy_evaluation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, "off")
    for first, second in numpy_pig.SHIPPED_MATCHES:
        stored = cache.load_plain(match_key(PigModel(100), PigPolicy.parse(first),
                                            PigPolicy.parse(second)))
        numpy_match = evaluate_match(PigVariant(), first, second)  # with NumPy: the solver's
        assert stored["first_start"][0, 0] == numpy_match.p_win_first
