"""Per game: the worst float and exact analysis time over its hardest positions, the states
solved, the peak memory, and the speed-up over today's plain memoised recursion (issue 9).

How the positions are chosen.  A turn's positions form an acyclic graph and every position is
reachable from the turn's start, so the start of a turn reaches the most states: the hardest
position of a game and option set is its turn start (for Incan Gold: a round's start), made
harder by whatever enlarges the state: the rule options that add state (Captain Seven's relics,
Hit List's long haul and high stakes, every Lands Uncharted option, more Pig die sides), the
fullest decks (no card removed; Incan Gold rounds 1-5 with every artifact still in), and the
group model of Incan Gold with other explorers (``--others``, a command-line model: the app's
table uses the solo model whatever the number of explorers).  Captain Seven with an unspent
jack or queen relic is the one family where even mid-turn positions are huge; there the list
holds the shallowest position the solver accepts and the positions it refuses (the refusal's time is
measured: it must be immediate).  Incan Gold's group model with three others in round 5 has no
estimate yet: it is stopped at the state budget (listed as refused, with the time it took).

Each (position, solver, mode) runs in a fresh subprocess: a cold solver, and its peak resident
memory measured alone (``ru_maxrss``, minus the process's size before the solve).  The baseline
(``benchmarks/baseline_turn_solver.py``, today's solver before issue 9) runs side by side on
every position it can do; the refused positions are skipped for it (the issue measured 164 s
and 2 GB for Captain Seven's queen after a first 7).

The new solver is timed as the app meets it: Captain Seven without a relic starts from its
shipped float table (``solve.turn_tables``; exact mode always solves).
Times are process CPU seconds (the machine is shared: wall time under load measures the
neighbours); the wall time of the new solver is printed beside them.
Targets (2-core machine): float <= 1 s, exact <= 10 s, next-draw outcomes <= 100 ms.
Run:  .venv/bin/python benchmarks/bench_worst_positions.py [--quick] [--no-baseline] [GAME ...]
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

# (game, label, variant options, position keywords, refused by design)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], bool]] = [
    ("pig", "start, d6", {}, {}, False),
    ("pig", "start, d20", {"die_sides": 20}, {}, False),
    ("captain-seven", "start, no relic", {}, {}, False),
    ("captain-seven", "start, king relic", {"relics": True}, {"relic": "K"}, False),
    ("captain-seven", "start, ace relic", {"relics": True}, {"relic": "A"}, False),
    ("captain-seven", "queen relic, KKKK (40)", {"relics": True},
     {"relic": "Q", "drawn": "Kh Kd Ks Kc"}, False),
    ("captain-seven", "jack relic, total 120", {"relics": True},
     {"relic": "J", "drawn": "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd"}, False),
    ("captain-seven", "queen relic after 7h (refused)", {"relics": True},
     {"relic": "Q", "drawn": "7h"}, True),
    ("captain-seven", "start, jack relic (refused)", {"relics": True}, {"relic": "J"}, True),
    ("incan-gold", "round 1 start", {}, {"round": 1}, False),
    ("incan-gold", "round 2 start", {}, {"round": 2}, False),
    ("incan-gold", "round 3 start", {}, {"round": 3}, False),
    ("incan-gold", "round 4 start", {}, {"round": 4}, False),
    ("incan-gold", "round 5 start", {}, {"round": 5}, False),
    ("incan-gold", "round 1, after 9d, 3 explorers", {}, {"drawn": "9d", "others": "5,10"},
     False),
    ("incan-gold", "round 5 start, 4 explorers", {}, {"round": 5, "others": "5,10,15"}, True),
    ("hit-list", "start, standard", {}, {}, False),
    ("hit-list", "start, high stakes", {"silent_assassin": True, "ghost": True,
                                        "rival_interference": True, "one_last_job": True,
                                        "bad_life": True}, {}, False),
    ("hit-list", "start, long haul", {"long_haul": True}, {}, False),
    ("hit-list", "start, soft aces + ghost", {"soft_aces": True, "ghost": True}, {}, False),
    ("lands-uncharted", "start, standard", {}, {}, False),
    ("lands-uncharted", "start, all options", {"buried_treasure": True,
                                               "double_or_nothing": True,
                                               "cursed_idol": "all"}, {}, False),
    ("lands-uncharted", "start, all options, allies 2", {"buried_treasure": True,
                                                         "double_or_nothing": True,
                                                         "cursed_idol": "all"},
     {"allies": 2}, False),
    ("lands-uncharted", "start, solo", {"solo": True}, {}, False),
]
QUICK = {"start, d6", "start, no relic", "round 3 start", "start, high stakes",
         "start, all options", "queen relic after 7h (refused)"}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_one(index: int, solver_kind: str, exact: bool) -> dict[str, Any]:
    """One cold analysis (in this process): seconds, states, peak memory, the answer."""
    sys.path.insert(0, str(HERE))
    from pushluck_teach.games import get_game
    from pushluck_teach.games.base import PositionError

    game, _, options, position, _ = CASES[index]
    spec = get_game(game)
    if options.get("cursed_idol") == "all":
        from pushluck_teach.games.lands_uncharted import CURSED_NAMES
        options = {**options, "cursed_idol": CURSED_NAMES}
    model, state = spec.position(spec.variant_cls(**options), **position)
    if solver_kind == "baseline":
        from baseline_turn_solver import TurnSolver as Solver
    else:
        from pushluck_teach.solve.turn import TurnSolver as Solver
    before = _rss_mb()
    result: dict[str, Any] = {}
    start, cpu = time.perf_counter(), time.process_time()
    solver = Solver(model, exact=exact)  # timed: a shipped table is loaded here
    try:
        if solver_kind == "new":
            outcomes = solver.next_outcomes(state)
            solver.p_bust_next(state)
            result["next_s"] = time.perf_counter() - start
            result["outcomes"] = len(outcomes)
        analysis = solver.analyse(state)
        result["ev"] = float(analysis.ev_optimal)
        result["answer"] = repr((analysis.as_dict(), dict(analysis.action_values)))
    except PositionError as error:
        result["refused"] = str(error)
    except RecursionError:
        result["refused"] = "RecursionError"
    result["wall"] = time.perf_counter() - start
    result["seconds"] = time.process_time() - cpu
    result["states"] = solver.states_solved()
    result["peak_mb"] = _rss_mb() - before
    return result


def run_isolated(index: int, solver_kind: str, exact: bool, timeout: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", str(index), solver_kind, str(int(exact))]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if done.returncode != 0:
        return {"failed": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--one"]:
        print(json.dumps(measure_one(int(argv[1]), argv[2], argv[3] == "1")))
        return
    quick = "--quick" in argv
    baseline = "--no-baseline" not in argv
    games = [a for a in argv if not a.startswith("--")]
    rows = []
    print(f"{'game':<16}{'position':<34}{'mode':<6}{'states':>9}{'new s':>8}{'wall s':>8}"
          f"{'next ms':>8}{'MB':>6}{'base s':>8}{'base MB':>8}{'speed-up':>9}")
    for index, (game, label, _, _, refused) in enumerate(CASES):
        if (games and game not in games) or (quick and label not in QUICK):
            continue
        for exact in (False, True):
            new = run_isolated(index, "new", exact, timeout=300)
            base = (run_isolated(index, "baseline", exact, timeout=300)
                    if baseline and not refused else {})
            if "answer" in new and "answer" in base and new["answer"] != base["answer"]:
                raise SystemExit(f"{game} {label}: the solvers disagree")
            row = {"game": game, "position": label, "exact": exact, "new": new, "base": base}
            rows.append(row)
            mode = "exact" if exact else "float"
            new_s = new.get("seconds", float("nan"))
            base_s = base.get("seconds", float("nan"))
            note = " refused" if "refused" in new else ""
            print(f"{game:<16}{label:<34}{mode:<6}{new.get('states', 0):>9}{new_s:>8.3f}"
                  f"{new.get('wall', float('nan')):>8.3f}"
                  f"{1000 * new.get('next_s', float('nan')):>8.1f}{new.get('peak_mb', 0):>6.0f}"
                  f"{base_s:>8.3f}{base.get('peak_mb', float('nan')):>8.0f}"
                  f"{base_s / new_s if base and new_s else float('nan'):>9.2f}{note}",
                  flush=True)
            if "refused" in new:
                print(f"{'':<16}  -> {new['refused']}")
    print("\nworst per game (answered positions; refused ones are refused in "
          f"{max((r['new']['seconds'] for r in rows if 'refused' in r['new']), default=0):.3f}"
          " s or less)")
    for game in dict.fromkeys(r["game"] for r in rows):
        for exact in (False, True):
            answered = [r for r in rows if r["game"] == game and r["exact"] == exact
                        and "ev" in r["new"]]
            if not answered:
                continue
            worst = max(answered, key=lambda r: r["new"]["seconds"])
            mode = "exact" if exact else "float"
            print(f"  {game:<16}{mode:<6} {worst['new']['seconds']:7.3f} s  "
                  f"{worst['new']['states']:>9} states  {worst['new']['peak_mb']:6.0f} MB  "
                  f"next draw {1000 * max(r['new']['next_s'] for r in answered):6.1f} ms  "
                  f"({worst['position']})")
    print("targets: float <= 1 s, exact <= 10 s, next-draw outcomes <= 100 ms")


if __name__ == "__main__":
    main(sys.argv[1:])
