"""What the static site relies on, checked in ordinary Python (fast; no browser).

* With NumPy, SciPy and gmpy2 made unimportable (as in the site's Pyodide), every Play page's
  table, the lessons that need none of them, and ``pushluck odds`` still work, and the exact
  numbers equal those computed with the packages present.
* Where threads are missing, background work runs on the event loop after the click returns.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pushluck_teach.ui.background import EventLoopExecutor
from pushluck_teach.ui.pyodide_site import missing_message

ROOT = Path(__file__).resolve().parents[1]

BLOCK = textwrap.dedent("""
    import importlib.abc, sys
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in ("numpy", "scipy", "gmpy2"):
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
        table = play("pig", background=False)
        table.gauge.wait()
        print("GAUGE", table.gauge.value)
    """)
    lines = out.strip().splitlines()
    assert all(line.endswith("True") for line in lines[:-1]), out
    assert "numpy" in lines[-1] and "Voilà app" in lines[-1], lines[-1]


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


def test_lessons_without_numpy_build_or_explain():
    out = run_without_numeric("""
        from pushluck_teach.ui.lessons import NextCardLesson
        lesson = NextCardLesson(game="lands-uncharted", drawn="5h 9s", seed=1)
        print(lesson.question.answer)
        from pushluck_teach.ui.pyodide_site import missing_message
        try:
            import numpy  # noqa: F401
        except ImportError as exc:
            print(missing_message(exc))
    """)
    answer, message = out.strip().splitlines()
    assert answer == "3/25"  # 3 of the 25 unseen cards bust (the CLI's and the hand count)
    assert message.startswith("This part needs numpy,")


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

    from pushluck_teach.ui.pyodide_site import explain_import_errors

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
