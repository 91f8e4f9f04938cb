"""Mutation check: does the test suite notice a small deliberate fault?

Each fault below changes one line of the package (a sign, an off-by-one in a deck or a die, a
bust rule, a swapped action or seat, a tie counted as a win).  For each, the script copies the
repository's files (tracked and new, not ignored) into a temporary directory, applies the fault
there (never in the working tree), and runs the fast part of the test files that should catch it
(``-m "not slow and not browser" -x``).  Tests that already fail without any fault (a first,
clean run of each file set) are deselected, so a fault is "caught" only by a test it breaks.

Usage: ``python scripts/mutation_check.py [--only NAME ...] [--tests FILE ...] [--timeout S]``
(``--tests``: the same test files for every fault, e.g. only the reference tests); prints a
table: fault, where, caught by (the first failing test) or NOT CAUGHT.  Exit status 1 when a
fault is not caught.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Fault:
    name: str
    path: str  # relative to the repository
    old: str  # must occur exactly once in the file
    new: str
    tests: tuple[str, ...]  # test files (or nodes/-k expressions after "::")


FAULTS = (
    Fault("turn solver picks the worse action", "pushluck_teach/solve/turn.py",
          "q > value if exact else q > value + FLOAT_TIE",
          "q < value if exact else q < value - FLOAT_TIE",
          ("tests/test_solver.py", "tests/test_pig_game.py")),
    Fault("Captain Seven deck has one joker (53 cards)",
          "pushluck_teach/games/captain_seven/rules.py",
          "CLASS_CAPS = (4, 4, 4, 4, 4, 4, 4, 4, 16, 4, 2)",
          "CLASS_CAPS = (4, 4, 4, 4, 4, 4, 4, 4, 16, 4, 1)",
          ("tests/test_captain_seven.py", "tests/test_reference_captain_seven.py")),
    Fault("Captain Seven: a 7 no longer catches", "pushluck_teach/games/captain_seven/turn.py",
          "elif cls >= SEVEN or (total + value) % 10 == 7:",
          "elif cls > SEVEN or (total + value) % 10 == 7:",
          ("tests/test_captain_seven.py", "tests/test_reference_engines.py")),
    Fault("Pig die loses its top face", "pushluck_teach/games/pig.py",
          "faces = range(2, self.variant.die_sides + 1)",
          "faces = range(2, self.variant.die_sides)",
          ("tests/test_pig_game.py", "tests/test_solver.py")),
    Fault("Pig engine: roll and hold swapped", "pushluck_teach/games/pig.py",
          "        if action == DRAW:\n            roll = self.rng.randint",
          "        if action == STOP:\n            roll = self.rng.randint",
          ("tests/test_pig_game.py", "tests/test_reference_engines.py")),
    Fault("Hit List botches over 22, not 21", "pushluck_teach/games/hit_list/rules.py",
          "LIMIT = 21", "LIMIT = 22", ("tests/test_hit_list.py",)),
    Fault("Hit List executes from 14", "pushluck_teach/games/hit_list/rules.py",
          "MIN_TO_EXECUTE = 15", "MIN_TO_EXECUTE = 14", ("tests/test_hit_list.py",)),
    Fault("Lands Uncharted: an ally stops a bust without being used",
          "pushluck_teach/games/lands_uncharted/turn.py",
          "                append((n, (rest, mask, threat, allies - 1, nph, declared)))",
          "                append((n, (rest, mask, threat, allies, nph, declared)))",
          ("tests/test_lands_uncharted.py",)),
    Fault("Incan Gold: a trap springs only next to the rank above",
          "pushluck_teach/games/incan_gold/rules.py",
          "    return (rank - 2) % RING + 1, rank % RING + 1",
          "    return rank % RING + 1, rank % RING + 1",
          ("tests/test_incan_gold.py",)),
    Fault("Lost Cities: an expedition costs 19", "pushluck_teach/games/lost_cities/rules.py",
          "EXPEDITION_COST = 20", "EXPEDITION_COST = 19",
          ("tests/test_lost_cities.py", "tests/test_reference_lost_cities.py")),
    Fault("Captain Seven whole game: a tie on the last turn counts as a win",
          "pushluck_teach/solve/whole_game/captain_seven.py",
          "win[:, :d] = greater[:, :d] + 0.5 * rows[:, :d]",
          "win[:, :d] = greater[:, :d] + 1.0 * rows[:, :d]",
          ("tests/test_captain_seven_game.py", "tests/test_reference_captain_seven.py")),
    Fault("Pig whole game: a 1 hands the opponent nothing",
          "pushluck_teach/solve/whole_game/pig.py",
          "    bust = model.p_bust * (1.0 - v_opp.T)", "    bust = model.p_bust * v_opp.T",
          ("tests/test_pig_game.py", "tests/test_lesson_numbers.py")),
    Fault("Lesson 6: the second seat played from the first", "pushluck_teach/ui/lessons/"
          "winning_the_game.py",
          "second = 1 - float(evaluate_match(variant, against, rule).p_win_first)",
          "second = 1 - float(evaluate_match(variant, rule, against).p_win_first)",
          ("tests/test_lessons.py", "tests/test_lesson_numbers.py",
           "tests/test_reference_lessons.py")),
    Fault("Lesson 2: the question asks the chance to survive, not to bust",
          "pushluck_teach/ui/lessons/next_card.py",
          "self.question.set_answer(facts.p_bust)", "self.question.set_answer(1 - facts.p_bust)",
          ("tests/test_lessons.py", "tests/test_lesson_numbers.py",
           "tests/test_reference_lessons.py")),
    Fault("Lesson 3: one draw too many expected", "pushluck_teach/ui/lessons/markov_chain.py",
          "self.question.set_answer(facts.expected_draws)",
          "self.question.set_answer(facts.expected_draws + 1)",
          ("tests/test_lessons.py", "tests/test_lesson_numbers.py",
           "tests/test_reference_lessons.py")),
    Fault("Lesson 4: the answer is stopping's value, not one more draw's",
          "pushluck_teach/ui/lessons/when_to_stop.py",
          "self.question.set_answer(facts.ev_draw_once)",
          "self.question.set_answer(facts.ev_stop)",
          ("tests/test_lessons.py", "tests/test_lesson_numbers.py",
           "tests/test_reference_lessons.py")),
    Fault("Lesson 5: the rule's difference taken the wrong way round",
          "pushluck_teach/ui/lessons/rule_variants.py",
          "self.question.set_answer(sides[1][1].ev_optimal - sides[0][1].ev_optimal)",
          "self.question.set_answer(sides[0][1].ev_optimal - sides[1][1].ev_optimal)",
          ("tests/test_lessons.py", "tests/test_lesson_numbers.py",
           "tests/test_reference_lessons.py")),
    Fault("Lessons: a typed decimal accepted three times too far off",
          "pushluck_teach/ui/lessons/answers.py",
          "        if abs(typed.value - exact) <= self.tolerance:\n            return True",
          "        if abs(typed.value - exact) <= 3 * self.tolerance:\n            return True",
          ("tests/test_lessons.py::test_check_answer",
           "tests/test_lessons.py::test_one_rule_for_a_whole_game_chance",
           "tests/test_lessons.py::test_one_rule_for_an_expected_value",
           "tests/test_lessons.py::test_any_decimal_or_percentage_near_a_probability_is_right")),
)


def copy_repository(target: Path) -> None:
    """The working tree's files (tracked, and new ones not ignored) into ``target``."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            destination = target / name
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)


def run_tests(copy: Path, tests: tuple[str, ...], deselect: list[str],
              timeout: float) -> tuple[str, list[str], float]:
    """``(outcome, failing test ids, seconds)``; outcome is passed/failed/timeout."""
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider",
               "-q", "-x", "-m", "not slow and not browser", "--no-header", "-rfE",
               *[arg for node in deselect for arg in ("--deselect", node)], *tests]
    start = time.monotonic()
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", [], time.monotonic() - start
    failing = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", done.stdout, flags=re.M)
    outcome = "passed" if done.returncode == 0 else "failed"
    if done.returncode not in (0, 1) and not failing:
        failing = [done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "error"]
    return outcome, failing, time.monotonic() - start


def baseline_failures(copy: Path, tests: tuple[str, ...], timeout: float) -> list[str]:
    """Tests that fail with no fault applied (run without -x: every one of them)."""
    env = dict(os.environ, PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider",
               "-q", "-m", "not slow and not browser", "--no-header", "-rfE", *tests]
    try:
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True,
                              timeout=timeout * 2)
    except subprocess.TimeoutExpired:
        print(f"the clean run of {' '.join(tests)} took over {timeout * 2:.0f} s: nothing "
              "deselected", flush=True)
        return []
    return re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", done.stdout, flags=re.M)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="run only faults whose name contains these")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per test run")
    parser.add_argument("--tests", nargs="*", help="run these test files for every fault "
                        "instead of each fault's own (e.g. only the reference tests)")
    args = parser.parse_args()
    faults = [f for f in FAULTS if not args.only or any(o.lower() in f.name.lower()
                                                         for o in args.only)]
    if args.tests:
        faults = [replace(f, tests=tuple(args.tests)) for f in faults]
    rows: list[tuple[str, str, str]] = []
    with tempfile.TemporaryDirectory(prefix="pushluck-mutants-") as tmp:
        copy = Path(tmp)
        copy_repository(copy)
        clean: dict[tuple[str, ...], list[str]] = {}
        for fault in faults:
            target = copy / fault.path
            original = target.read_text(encoding="utf-8")
            if original.count(fault.old) != 1:
                rows.append((fault.name, fault.path, "FAULT NOT APPLIED (text not found once)"))
                print(f"{fault.name}: FAULT NOT APPLIED (text not found once)", flush=True)
                continue
            if fault.tests not in clean:
                clean[fault.tests] = baseline_failures(copy, fault.tests, args.timeout)
                if clean[fault.tests]:
                    print(f"failing without a fault (deselected): {clean[fault.tests]}",
                          flush=True)
            try:
                target.write_text(original.replace(fault.old, fault.new), encoding="utf-8")
                outcome, failing, seconds = run_tests(copy, fault.tests, clean[fault.tests],
                                                      args.timeout)
            finally:
                target.write_text(original, encoding="utf-8")
            if failing:
                verdict = f"{failing[0]} ({seconds:.0f} s)"
            elif outcome == "timeout":
                verdict = f"NOT CAUGHT in {args.timeout:.0f} s (timeout)"
            else:
                verdict = f"NOT CAUGHT ({seconds:.0f} s)"
            rows.append((fault.name, fault.path, verdict))
            print(f"{fault.name}: {verdict}", flush=True)
    changed = subprocess.run(["git", "status", "--porcelain", "--", "pushluck_teach"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    assert not changed.strip(), f"the working tree's package changed: {changed}"
    widths = [max(len(r[i]) for r in rows + [("fault", "where", "caught by")])
              for i in range(3)]
    print()
    for row in [("fault", "where", "caught by"), tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    return 0 if all("NOT" not in r[2] for r in rows) else 1  # NOT CAUGHT, NOT APPLIED


if __name__ == "__main__":
    sys.exit(main())
