"""What the static site relies on, checked in ordinary Python (fast; no browser).

* With NumPy, SciPy, gmpy2 and jsonschema made unimportable (as in the site's Pyodide), every
  Play page's table, the lessons that need none of them, and ``pushluck odds`` still work, the
  exact numbers equal those computed with the packages present, and every notebook runs whole
  or (only the documented ones) stops at an ImportError.
* Where threads are missing, background work runs on the event loop after the click returns.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pushluck_teach.pyodide_site import missing_message
from pushluck_teach.ui.background import EventLoopExecutor, let_the_page_in

ROOT = Path(__file__).resolve().parents[1]

BLOCK = textwrap.dedent("""
    import importlib.abc, sys
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in ("numpy", "scipy", "gmpy2", "jsonschema"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    sys.meta_path.insert(0, Block())
""")


def run_without_numeric(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", BLOCK + textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_play_tables_work_without_numpy_scipy_gmpy2():
    out = run_without_numeric("""
        from pushluck_teach.games import turn_games
        from pushluck_teach.ui import play
        for game in [spec.name for spec in turn_games()]:
            table = play(game, background=False)
            print(game, bool(table.panel.text_next.value))
    """)
    lines = out.strip().splitlines()
    assert all(line.endswith("True") for line in lines), out


#: Pig positions (my score, opponent's, turn total) for the gauge and the coach
PIG_POSITIONS = [(0, 0, 0), (30, 40, 12), (95, 99, 5), (99, 99, 0), (50, 50, 20), (0, 97, 30),
                 (71, 20, 9), (12, 88, 0), (60, 61, 21), (98, 0, 1)]

GAUGE_PATH = """
    from pushluck_teach.games.base import get_game
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game.engine_chances import (action_win_chances_task,
                                                               win_chance_task)
    for target in (100, 50):
        for me, them, total in POSITIONS:
            if max(me, them) >= target:
                continue
            engine = get_game("pig").new_engine(PigVariant(target=target), players=2)
            engine._scores[:] = [me, them]
            engine.turn_total = total
            print(target, me, them, total, repr(win_chance_task(engine)()),
                  action_win_chances_task(engine)())
"""


def test_pig_gauge_and_coach_without_numpy_equal_the_numpy_solver():
    """The table's gauge and win coach for Pig to 100 and to 50 with NumPy unimportable (the
    site: the shipped tables read in plain Python) give the NumPy solver's numbers exactly."""
    code = GAUGE_PATH.replace("POSITIONS", repr(PIG_POSITIONS))
    blocked = run_without_numeric(code)
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game.pig import (
        pig_action_win_probabilities,
        pig_win_probability,
    )

    expected = [f"{target} {me} {them} {total} "
                f"{pig_win_probability(PigVariant(target=target), me, them, total)!r} "
                f"{pig_action_win_probabilities(PigVariant(target=target), me, them, total)}"
                for target in (100, 50) for me, them, total in PIG_POSITIONS
                if max(me, them) < target]
    assert blocked.strip().splitlines() == expected
    assert expected[0].startswith("100 0 0 0 0.5305")  # Neller and Presser: about 0.5306


REVIEWS = """
    import os
    os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
    from pushluck_teach.games.base import get_game
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.sim.record import play_recorded_game
    from pushluck_teach.solve.review import review_game
    for target in (20, 100, 37):
        record = play_recorded_game(get_game("pig"), PigVariant(target=target),
                                    ["threshold:8", "optimal"], 5)
        review = review_game(record)
        print(target, [d.win_values for d in review.decisions], review.notes)
"""


def test_pig_review_chances_to_win_without_numpy():
    """The review's chances to win on the site: the same as with NumPy for Pig to 100 (shipped)
    and to 20 (solved in plain Python); for rules without a table, one line saying where."""
    blocked = run_without_numeric(REVIEWS).strip().splitlines()
    normal = subprocess.run([sys.executable, "-c", textwrap.dedent(REVIEWS)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600,
                            check=True).stdout.strip().splitlines()
    assert blocked[:2] == normal[:2]
    assert "'draw': 0.5305927" in blocked[1]  # 0-0 in Pig to 100: Neller and Presser's 0.5306
    assert "None" not in blocked[0] + blocked[1]
    assert "No chance to win here: computed in the Voilà app" in blocked[2]
    assert "numpy" not in "".join(blocked).lower()


SEVEN_REVIEW = """
    import os
    os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
    from pushluck_teach.games.base import get_game
    from pushluck_teach.games.captain_seven import CaptainSevenVariant
    from pushluck_teach.sim.record import play_recorded_game
    from pushluck_teach.solve.review import review_game
    record = play_recorded_game(get_game("captain-seven"), CaptainSevenVariant(target=75),
                                ["threshold:20", "optimal"], 3)
    review = review_game(record)
    print(len(review.decisions), [d.win_values for d in review.decisions][:12], review.notes)
"""


@pytest.mark.slow
def test_captain_seven_review_chances_to_win_without_numpy():
    """A Captain Seven review on the site gives each decision's chances to win, the NumPy
    app's numbers (slow: each decision within a turn rebuilds that turn's table, in plain
    Python here)."""
    blocked = run_without_numeric(SEVEN_REVIEW)
    normal = subprocess.run([sys.executable, "-c", textwrap.dedent(SEVEN_REVIEW)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600, check=True).stdout
    assert blocked == normal
    assert "'draw': 0." in blocked and "Chance to win: Captain Seven" in blocked
    assert "numpy" not in blocked.lower()


LAB_NUMBERS = """
    import os
    os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
    from pushluck_teach.games.base import get_game
    from pushluck_teach.games.captain_seven import CaptainSevenVariant
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.compare import summarise
    from pushluck_teach.solve.sweep import compute_point
    for game, variant in (("pig", PigVariant()), ("pig", PigVariant(target=12)),
                          ("pig", PigVariant(target=37)), ("captain-seven", CaptainSevenVariant())):
        summary = summarise(get_game(game), variant)
        print(game, summary.turn_value, repr(summary.win_chance), summary.notes)
    for target in (50, 60):
        point = compute_point("pig", PigVariant(), "target", target, whole_game=True)
        print(target, repr(point.win_chance), point.error)
"""


def test_variant_lab_numbers_without_numpy():
    """Compare A/B and a sweep's win chance on the site: Pig's first-player chance where its
    table is shipped or small enough (the NumPy app's numbers), else one line saying where it
    is computed; the turn's numbers are always there."""
    blocked = run_without_numeric(LAB_NUMBERS).strip().splitlines()
    normal = subprocess.run([sys.executable, "-c", textwrap.dedent(LAB_NUMBERS)], cwd=ROOT,
                            capture_output=True, text=True, timeout=600,
                            check=True).stdout.strip().splitlines()
    assert blocked[:2] == normal[:2] and blocked[3:5] == normal[3:5]
    assert "0.530592725273741 ()" in blocked[0]  # `pushluck solve pig`'s p_win_first
    assert blocked[3].startswith("captain-seven") and "None" not in blocked[3]
    for line in (blocked[2], blocked[5]):
        assert "computed in the Voilà app" in line and "numpy" not in line.lower()
    assert blocked[2].split()[1] == normal[2].split()[1]  # the turn's value is unchanged


def test_pig_table_gauge_and_objective_switch_without_numpy():
    out = run_without_numeric("""
        import os
        os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
        from pushluck_teach.ui import play
        table = play("pig", background=False)
        table.gauge.wait()
        print(table.gauge.value)
        print(table.objective_toggle.layout.display, table.objective)
        table = play("pig", background=False, options={"target": 37})
        table.gauge.wait()
        print(table.gauge.value)
        print(table.objective_toggle.layout.display)
        table = play("pig", background=False, options={"target": 12, "die_sides": 4})
        table.gauge.wait()
        print(repr(table.gauge.probability))
        table = play("captain-seven", background=False, options={"target": 120})
        table.gauge.wait()
        print(table.gauge.value)
    """)
    pig, switch, other, other_switch, small, seven = out.strip().splitlines()
    assert "Player 1: chance to win from here: <b>53.1%</b>" in pig  # 0.5306 at 0-0
    assert switch == "flex win"  # the coach aims for the chance to win, and may switch
    assert "computed in the Voilà app" in other and "up to 20" in other
    assert other_switch == "none"  # no chances to aim for: the coach aims for points
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game.pig import pig_win_probability

    # a small target is solved in plain Python: the NumPy solver's number
    assert float(small) == pig_win_probability(PigVariant(target=12, die_sides=4), 0, 0)
    assert "computed in the Voilà app" in seven and "75, 100, 150, 200" in seven
    assert "numpy" not in out.lower()


def random_hands(count: int, seed: int) -> list[str]:
    """``count`` turns' cards so far (one to six cards, not caught), drawn from a shuffled
    Captain Seven deck with a seeded generator."""
    import random

    from pushluck_teach.games.base import PositionError
    from pushluck_teach.games.captain_seven import CaptainSevenVariant, captain_seven_position

    rng, hands = random.Random(seed), []
    deck = [rank + suit for rank in [*"A23456789", "10", *"JQK"] for suit in "shdc"]
    deck += ["JK", "JK"]
    while len(hands) < count:
        cards = rng.sample(deck, rng.randint(1, 6))
        text = " ".join(cards)
        try:
            captain_seven_position(CaptainSevenVariant(), drawn=text)
        except PositionError:  # caught on the way: not a position of the table
            continue
        hands.append(text)
    return hands


#: (target, my stash, opponent's stash): the sheet's four shipped lengths, the final round
#: (the opponent past the target) and a secret-stash game's numbers
SEVEN_STASHES = [(100, 0, 0), (100, 30, 55), (100, 97, 60), (100, 40, 104), (75, 10, 70),
                 (75, 74, 74), (150, 120, 90), (150, 60, 163), (200, 0, 199), (200, 150, 20)]

SEVEN_PATH = """
    import os
    os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
    from pushluck_teach.games.captain_seven import CaptainSevenVariant, captain_seven_position
    from pushluck_teach.solve.whole_game import chances_for
    chances = chances_for("captain-seven")
    for drawn in [None] + HANDS:
        for target, me, them in STASHES:
            variant = CaptainSevenVariant(target=target, secret_stash=target == 150)
            model, state = captain_seven_position(variant, drawn=drawn)
            print(target, me, them, drawn, repr(chances.win_chance(variant, me, them, model,
                                                                   state)()),
                  chances.action_win_chances(variant, me, them, model, state)())
"""


def test_captain_seven_gauge_and_coach_without_numpy_equal_the_numpy_solver():
    """The gauge's and the coach's chances for Captain Seven with NumPy unimportable (the
    site: the shipped solutions and turn table read in plain Python, the turn table from the
    cards drawn computed in plain Python) are the NumPy solver's numbers bit for bit: at turn
    starts, in the final round and after random cards, for the four shipped lengths."""
    import functools

    from pushluck_teach.games.captain_seven import CaptainSevenVariant, captain_seven_position
    from pushluck_teach.solve.whole_game import captain_seven as c7

    hands = ["7h 3c", "JK 5d 10s", "7s", *random_hands(8, seed=7)]  # a first 7, a first joker
    code = SEVEN_PATH.replace("HANDS", repr(hands)).replace("STASHES", repr(SEVEN_STASHES))
    blocked = run_without_numeric(code).strip().splitlines()
    expected = []
    table_from_state = c7.turn_table_from_state
    try:  # the same cards under several stashes: one NumPy turn table each
        c7.turn_table_from_state = functools.lru_cache(maxsize=2)(table_from_state)
        for drawn in [None, *hands]:
            for target, me, them in SEVEN_STASHES:
                variant = CaptainSevenVariant(target=target, secret_stash=target == 150)
                model, state = captain_seven_position(variant, drawn=drawn)
                chance = c7.captain_seven_win_probability(variant, me, them, state=state,
                                                          model=model)
                actions = c7.captain_seven_action_win_chances(variant, me, them, model, state)
                expected.append(f"{target} {me} {them} {drawn} {chance!r} {actions}")
    finally:
        c7.turn_table_from_state = table_from_state
    assert len(blocked) == len(expected) == 120
    assert blocked == expected
    assert expected[0].startswith("100 0 0 None 0.5")  # the first player's edge at 0-0


def test_captain_seven_table_gauge_and_objective_switch_without_numpy():
    """The Captain Seven table on the site: the win gauge shows the first player's chance at
    0-0 (the NumPy solver's), and the coach may aim for the chance to win."""
    out = run_without_numeric("""
        import os
        os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
        from pushluck_teach.ui import play
        table = play("captain-seven", background=False)
        table.gauge.wait()
        print(repr(table.gauge.probability))
        print(table.gauge.value)
        print(table.objective_toggle.layout.display, table.objective)
    """)
    probability, shown, switch = out.strip().splitlines()
    from pushluck_teach.games.captain_seven import CaptainSevenVariant
    from pushluck_teach.solve.whole_game.captain_seven import optimal_solution

    assert float(probability) == optimal_solution(CaptainSevenVariant()).p_win_first
    assert f"<b>{float(probability):.1%}</b>" in shown
    assert switch == "flex win"
    assert "numpy" not in out.lower()


LESSON_6_CAPTAIN_SEVEN = """
    import json, os
    from pathlib import Path
    os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
    cells = [c for c in json.loads(Path("notebooks/Lesson_6_Winning_The_Game.ipynb").read_text())
             ["cells"] if c["cell_type"] == "code"]
    sources = ["".join(c["source"]) for c in cells]
    first = next(i for i, s in enumerate(sources) if "captain_seven_chances as c7" in s)
    last = next(i for i, s in enumerate(sources) if "SoloModelVsGame" in s)
    scope = {}
    for source in sources[first:last]:
        exec(source, scope)
    print(repr(scope["chase"]), repr(scope["pure"]))
"""


def test_lesson_6_captain_seven_part_without_numpy_shows_the_numpy_numbers():
    """Lesson 6's Captain Seven part (the optimised rule, its heatmaps, what fixed rules give
    away, the check-yourself question, the live chance) runs in the site's Python and prints
    what it prints with NumPy."""
    blocked = run_without_numeric(LESSON_6_CAPTAIN_SEVEN)
    normal = subprocess.run([sys.executable, "-c", textwrap.dedent(LESSON_6_CAPTAIN_SEVEN)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            check=True).stdout
    assert blocked == normal
    assert "The first player wins 54.1317% under the optimised rule" in blocked
    assert "after 9h 5c Kd (total 24):       0.4586" in blocked


@pytest.mark.parametrize("game, drawn", [("captain-seven", "5h 9s"), ("pig", "3 5 6"),
                                         ("hit-list", "Ah 4c"), ("incan-gold", "5s Kh")])
def test_exact_odds_unchanged_without_gmpy2(game, drawn):
    args = ["odds", game, "--drawn", drawn, "--json", "--exact"]
    blocked = run_without_numeric(f"""
        import sys
        from pushluck_teach.cli import main
        sys.argv = ["pushluck"] + {args!r}
        main()
    """)
    normal = subprocess.run([sys.executable, "-m", "pushluck_teach.cli", *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=600, check=True).stdout
    assert json.loads(blocked) == json.loads(normal)


def test_lessons_without_numpy_build():
    """Lesson 1's question and Lesson 6's position explorer (Pig's optimal solution from the
    shipped table, in plain Python) build in the site's Python, with the numbers of hand
    counts and of the NumPy solver."""
    out = run_without_numeric("""
        import os
        os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
        from pushluck_teach.ui.lessons import NextCardLesson
        lesson = NextCardLesson(game="lands-uncharted", drawn="5h 9s", seed=1)
        print(lesson.question.answer)
        from pushluck_teach.games.pig import PigVariant
        from pushluck_teach.solve.whole_game import pig_chances
        from pushluck_teach.ui.lessons.winning_the_game import PositionExplorer
        solution = pig_chances.optimal_solution(PigVariant())
        explorer = PositionExplorer(solution.start, solution.roll_values, solution.hold_values,
                                    target=100, min_total=2)
        explorer.mine.value, explorer.theirs.value = 50, 70
        print(explorer.advice.value)
        print(repr(solution.p_win_first), solution.hold_boundary[50, 70])
    """)
    answer, advice, numbers = out.strip().splitlines()
    assert answer == "3/25"  # 3 of the 25 unseen cards bust (the CLI's and the hand count)
    from pushluck_teach.games.pig import PigVariant
    from pushluck_teach.solve.whole_game import pig

    solution = pig.optimal_solution(PigVariant())
    assert numbers == f"{solution.p_win_first!r} {solution.hold_boundary[50, 70]}"
    assert f"from a turn total of <b>{solution.hold_boundary[50, 70]}</b>" in advice


LESSON_3_SUMMARIES = """
    from pushluck_teach.ui.lessons import MarkovChainLesson
    lesson = MarkovChainLesson(game="pig", threshold=20)
    lesson.question.reveal()
    print(lesson.summary.value)
    lesson.game.value = "hit-list"
    print(lesson.summary.value)
"""


def test_lesson_3_without_scipy_shows_the_same_numbers():
    """Lesson 3 (the turn as a Markov chain) in the site's Python: the same table of
    absorption probabilities and expected draws, the float column computed by plain Python."""
    blocked = run_without_numeric(LESSON_3_SUMMARIES)
    normal = subprocess.run([sys.executable, "-c", textwrap.dedent(LESSON_3_SUMMARIES)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            check=True).stdout
    assert "Python floats" in blocked and "SciPy" not in blocked
    assert blocked.replace("Python floats", "SciPy") == normal
    assert "9440899/2519424" in normal  # Pig, hold at 20: expected rolls (hand count)


def test_event_loop_executor_runs_after_the_handler_returns():
    order: list[str] = []

    async def click() -> int:
        future = EventLoopExecutor().submit(lambda: order.append("task") or 7)
        order.append("handler returned")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return future.result(timeout=0)

    assert asyncio.run(click()) == 7
    assert order == ["handler returned", "task"]


def test_event_loop_executor_without_a_loop_runs_at_once_and_keeps_errors():
    future = EventLoopExecutor().submit(lambda: 1 / 0)
    assert isinstance(future.exception(timeout=0), ZeroDivisionError)


def test_missing_message_names_the_module():
    assert missing_message(ModuleNotFoundError("x", name="scipy.sparse")).startswith(
        "This part needs scipy,")


def test_import_error_handler_explains_and_covers_later_cells(capsys):
    from IPython.core.interactiveshell import InteractiveShell

    from pushluck_teach.pyodide_site import explain_import_errors

    shell = InteractiveShell.instance()
    try:
        explain_import_errors(shell)
        shell.run_cell("undefined_before_any_import_error")
        first = capsys.readouterr().out
        assert "NameError" in first  # an ordinary error keeps its traceback
        shell.run_cell("from no_such_module_xyz import thing")
        shell.run_cell("thing(1)")
        shown = capsys.readouterr().out
        assert "Traceback" not in shown
        assert shown.count("HTML object") == 2  # one plain message per failing cell
    finally:
        shell.set_custom_exc((), None)
        InteractiveShell.clear_instance()


def test_let_the_page_in_is_a_no_op_outside_pyodide():
    assert let_the_page_in() is False


def test_variant_lab_sweep_without_threads_runs_after_the_click(monkeypatch):
    """Pyodide has no threads: the sweep runs on the event loop once the click has returned,
    and gives the same points as with a worker thread."""
    from pushluck_teach.ui import variant_lab

    def sweep(threads: bool) -> list:
        monkeypatch.setattr(variant_lab, "threads_available", lambda: threads)
        panel = variant_lab.SweepPanel("pig")
        panel.option.value = "target"
        panel.start.value, panel.stop_at.value, panel.step.value = "20", "40", "10"

        async def click() -> bool:
            panel.run()
            started_later = panel.result is None
            while panel.running:
                await asyncio.sleep(0.01)
            return started_later

        if threads:
            panel.run(wait=True)
        else:
            assert asyncio.run(click())
        assert panel.result is not None and not panel.result.stopped
        return [(p.value, p.turn_value, p.error) for p in panel.result.points]

    assert sweep(False) == sweep(True)


#: pages that need Pyodide's full distribution (README "For a whole class"): none; every page
#: must run whole without NumPy/SciPy/gmpy2/jsonschema
NEED_FULL_DISTRIBUTION: set[str] = set()


@pytest.mark.slow
def test_every_notebook_runs_or_says_what_it_lacks_without_numeric_packages():
    """Each notebook's code cells, in order, as the site runs them: a page either runs whole or
    (only the documented ones) stops at an ImportError that the site turns into one line."""
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    out = run_without_numeric(f"""
        import json
        from pathlib import Path
        for path in {[str(p) for p in notebooks]!r}:
            cells = [c for c in json.loads(Path(path).read_text())["cells"]
                     if c["cell_type"] == "code"]
            scope, missing = {{}}, None
            for cell in cells:
                try:
                    exec("".join(cell["source"]), scope)
                except ImportError as exc:
                    missing = missing or (exc.name or str(exc)).split(".")[0]
                except NameError:
                    if missing is None:
                        raise
            print("PAGE", json.dumps([Path(path).stem, missing]))
    """)
    lacking = dict(json.loads(line.removeprefix("PAGE ")) for line in out.splitlines()
                   if line.startswith("PAGE "))  # not the pages' own prints
    assert set(lacking) == {p.stem for p in notebooks}
    assert {stem for stem, missing in lacking.items() if missing} == NEED_FULL_DISTRIBUTION, lacking


def load_site_prepare():
    """``scripts/site_prepare.py`` as a module (a script, not part of the package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_prepare", ROOT / "scripts" /
                                                  "site_prepare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_site_notebooks_folder_holds_the_guide_documents(tmp_path):
    """The Teachers Guide page reads docs/teaching.md (and what it links) from the folder it
    runs in: the site's copy of the notebooks has them, and the page's Markdown built there is
    the one built from the repository."""
    from pushluck_teach.ui.guide import find_document, page_markdown

    site_prepare = load_site_prepare()
    names = site_prepare.prepare_notebooks(ROOT / "notebooks", tmp_path)
    assert "Teachers_Guide.ipynb" in names
    root, guide = find_document("docs/teaching.md", start=tmp_path)
    assert root == tmp_path
    assert page_markdown(guide, root) == page_markdown(ROOT / "docs" / "teaching.md", ROOT)


def package_files(root: Path) -> set[str]:
    """The files of ``root/pushluck_teach`` a wheel of the package holds (its modules, and
    the package data of pyproject.toml), relative to ``root``."""
    return {path.relative_to(root).as_posix()
            for path in (root / "pushluck_teach").rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
            and (path.suffix == ".py" or path.parent.name in ("data", "static"))}


def test_the_site_wheel_is_built_from_the_package_as_it_is_now(tmp_path):
    """The site's wheel of the package is built from a clean copy of its sources: a module that
    a later checkout moved away, still in setuptools' ``build/`` folder of a working copy, and
    byte code are left behind (a wheel built in the working copy shipped such modules beside
    their replacements, and the site then failed to import the package)."""
    site_prepare = load_site_prepare()
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in ("pyproject.toml", "README.md"):
        (repo / name).write_bytes((ROOT / name).read_bytes())
    shutil.copytree(ROOT / "pushluck_teach", repo / "pushluck_teach")
    stale = repo / "build" / "lib" / "pushluck_teach" / "games" / "moved_away.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("raise ImportError('a module from an old checkout')\n")
    (repo / "pushluck_teach" / "__pycache__").mkdir(exist_ok=True)
    (repo / "pushluck_teach" / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"")
    staged = site_prepare.package_sources(repo, tmp_path / "staging")
    assert sorted(p.name for p in staged.iterdir()) == ["README.md", "pushluck_teach",
                                                        "pyproject.toml"]
    assert not list(staged.rglob("__pycache__")) and not list(staged.rglob("moved_away.py"))
    assert package_files(staged) == package_files(ROOT)


def test_cached_wheels_need_no_package_index(tmp_path, monkeypatch):
    """A rebuild with the wheels cached runs no ``pip download`` (the offline rebuild)."""
    site_prepare = load_site_prepare()
    for wheel in ("jsonschema-4.17.3-py3-none-any.whl", "pyrsistent-0.20.0-py3-none-any.whl"):
        (tmp_path / wheel).write_bytes(b"")
    calls: list[tuple] = []
    monkeypatch.setattr(site_prepare, "run", lambda *command, **_: calls.append(command))
    site_prepare.download(["jsonschema==4.17.3", "pyrsistent==0.20.0"], tmp_path)
    assert calls == []
    site_prepare.download(["jsonschema==4.17.3", "attrs==26.1.0"], tmp_path)
    assert len(calls) == 1 and calls[0][-1] == "attrs==26.1.0"  # only the missing one


def test_sweep_whose_win_chance_is_not_on_the_site_says_so_and_ends():
    """A sweep with the win chance for rules whose table is not on the site (here: Pig to 30
    and 40 without NumPy) ends, its Run button back, each such row saying in one line where
    the chance is computed; never a bar stuck at 0."""
    out = run_without_numeric("""
        import asyncio, os
        os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
        from pushluck_teach.ui import variant_lab
        variant_lab.threads_available = lambda: False
        panel = variant_lab.SweepPanel("pig")
        panel.option.value = "target"
        panel.start.value, panel.stop_at.value, panel.step.value = "20", "30", "10"
        panel.whole_game.value = True

        async def click():
            panel.run()
            while panel.running:
                await asyncio.sleep(0.01)

        asyncio.run(click())
        print(panel.run_button.disabled, panel.status_html.value)
        print(panel.table_html.value)
    """)
    status, table = out.strip().split("\n", 1)
    disabled, message = status.split(" ", 1)
    assert disabled == "False" and "Done: 2 points" in message
    assert table.count("computed in the Voilà app") == 1  # target 30; 20 is solved here
    assert "Traceback" not in out and "numpy" not in out.lower()


def test_a_pig_review_without_numpy_scores_every_decision_with_chances_to_win():
    """The static site's Python has no NumPy: the review still gives each decision's cost in
    points this turn and its chances to win (Pig's shipped table, read in plain Python)."""
    out = run_without_numeric("""
        import os
        os.environ["PUSHLUCK_CACHE"] = "off"  # the shipped tables only, as on the site
        from pushluck_teach.ui.table import GameTable
        table = GameTable("pig", seats=("threshold:20", "threshold:25"), seed=2,
                          background=False)
        table.review.button.click()
        print(table.review.status.value)
        print(table.review.seats_html.value.count('<tr class="pushluck-review-seat"'))
        print(table.review.notes_html.value)
    """)
    status, seats, notes = out.strip().splitlines()[:3]
    assert "Review of the finished game" in status and seats == "2"
    assert "Chance to win: Pig" in notes and "No chance to win" not in notes
