"""Per game: the worst float and exact analysis time over its hardest positions, the states
solved, the peak memory, and the speed-up over today's plain memoised recursion.

How the positions are chosen. A turn's positions form an acyclic graph and every position is
reachable from the turn's start, so the start of a turn reaches the most states: the hardest
position of a game and option set is its turn start (for Incan Gold: a round's start), made harder
by whatever enlarges the state: the rule options that add state (Captain Seven's relics, Hit List's
long haul, soft aces and high stakes, every Lands Uncharted option, more Pig die sides), the
fullest decks (no card removed; Incan Gold rounds 1-5 with every artifact still in), and the group
model of Incan Gold with other explorers (``--others``: the model the app's table uses while other
explorers are inside, each leaving at its bot's threshold or the assumed 10), taken at the first
decision of a round (one card flipped: the largest group position a page meets), with the most
states: one other explorer at 10 (a shared threshold adds fewer states than distinct ones), 2-8
explorers, seven distinct thresholds, and the largest deck (round 5 with four traps out and all
five artifacts still in: 114 trap structures x 6,561 treasure sets x 32 artifact sets). The option
combinations listed are the worst of a survey of all of them (Hit List: all 128 combinations of its
seven turn options from the start; Lands Uncharted: the 16 sets of cursed queens × double or
nothing × allies 0-2, from the start and from a score of 90, timed in float mode; state counts with
no cursed queen, each queen alone, Q♠+Q♦, Q♥+Q♦+Q♣ and all four, allies 0, 2 and 4, and scores 90,
95 and 99: Q♠ multiplies the states most, allies held and higher scores shrink them). Lands
Uncharted's worst are turn starts where double or nothing may be declared: the turn holds both
kinds of turn (score 90: 276,000 states, against 162,000 from the plain start; the command line's
``--score`` is a turn already declared, so such a start is built here as the engine builds it),
with a full draw pile (after a reshuffle the pile can hold almost the whole deck); allies held and
a one-card pile (the turn reshuffles at once) are listed for comparison. Pig: every die the variant
allows (2-20 sides; 2, 6, 12 and 20 listed). The variant lab's built games: its four presets (the
lab refuses larger rule mixes up front with their estimate,
:data:`pushluck_teach.games.custom.rules.MAX_STATES`). Captain Seven with an unspent jack or queen
relic is the one family where even mid-turn positions are huge; there the list holds the shallowest
positions that are solved: the jack after two cards (5 9 and A 2: the heaviest first cards),
the queen after four cards it did not double ("kept": 7 A 2 3 and 7 A A 2, the heaviest of
all four-card positions by the model's own state estimate), and the shallower positions whose
values ship (``solve.turn_tables``: the jack's to its first card, the queen's to its third;
the time is the load and its check solve). The last
field of a case marks positions the baseline is not run on (minutes and gigabytes for the
plain recursion).
Incan Gold's group positions with distinct thresholds (threshold bots' own T) come from a
survey of round 1-3 positions (one card flipped, or a round's start) with 2-8 explorers: the
lower and the more distinct the thresholds, the more states (1-7 and 5,10,15 stored the most;
3-21 a third of 1-7, 6-18 almost none); beside them the table's four-explorer game (bots
optimal, cautious, greedy: 10, 10, 30) at a round's first decision as the page builds it, and
in round 5 with the largest deck, the largest position the group's budget answers (14.5
million stored). ``--only expl`` runs every group position.

Each (position, solver, mode) runs in a fresh subprocess: a cold solver, and its peak resident
memory measured alone (``ru_maxrss``, minus the process's size before the solve).  The baseline
(``benchmarks/baseline_turn_solver.py``, today's solver) runs side by side on
every position it can do; the positions over its budget are skipped for it (Captain Seven's
queen after a first 7 would hold about 2 GB).

The new solver is timed as the app meets it: Captain Seven without a relic starts from its
shipped float table (``solve.turn_tables``; exact mode always solves); in float mode a model
with a level graph (Captain Seven) solves large positions level by level with NumPy
(``solve.levels``).
Times are process CPU seconds (the machine is shared: wall time under load measures the
neighbours); the wall time of the new solver is printed beside them.
The next-draw column times what the page shows first: the next draw's outcomes and bust chance
from a cold exact-mode solver of their own (exact fractions, as the page computes them), before
and apart from the analysis (it included loading the shipped table before: about 100 ms).
``--before REV`` adds the same solver as it was at git revision ``REV`` (the package exported
from the repository into a temporary folder, each case in its own process as the new one):
the columns "before s" and "x before" print the speed-up of the working tree's solver over it,
and a case whose answers differ stops the run.
Targets (2-core machine): float <= 1 s, exact <= 10 s, next-draw outcomes <= 100 ms.
Run:  .venv/bin/python benchmarks/bench_worst_positions.py [--quick] [--no-baseline]
[--before REV] [--only TEXT] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

HIGH_STAKES = {"silent_assassin": True, "ghost": True, "rival_interference": True,
               "one_last_job": True, "bad_life": True}
ALL_LANDS = {"buried_treasure": True, "double_or_nothing": True, "cursed_idol": "all"}
# (game, label, variant options, position keywords, no baseline: refused, or minutes and GBs)
CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], bool]] = [
    ("pig", "start, d2", {"die_sides": 2}, {}, False),
    ("pig", "start, d6", {}, {}, False),
    ("pig", "start, d12", {"die_sides": 12}, {}, False),
    ("pig", "start, d20", {"die_sides": 20}, {}, False),
    ("captain-seven", "start, no relic", {}, {}, False),
    ("captain-seven", "start, king relic", {"relics": True}, {"relic": "K"}, False),
    ("captain-seven", "start, ace relic", {"relics": True}, {"relic": "A"}, False),
    ("captain-seven", "queen relic, KKKK (40)", {"relics": True},
     {"relic": "Q", "drawn": "Kh Kd Ks Kc"}, False),
    ("captain-seven", "jack relic, total 120", {"relics": True},
     {"relic": "J", "drawn": "Kh Kd Ks Kc Jh Jd 10h 10d 10s 10c Qh Qd"}, False),
    ("captain-seven", "jack relic, total 80", {"relics": True},
     {"relic": "J", "drawn": "Kh Kd Ks Kc Jh Jd 10h 10d"}, True),
    ("captain-seven", "queen after 7h Ah 2h 3h, kept", {"relics": True},
     {"relic": "Q", "drawn": "7h Ah 2h 3h", "then": "no-queen"}, True),
    ("captain-seven", "queen after 7h Ah Ad 2h, kept", {"relics": True},
     {"relic": "Q", "drawn": "7h Ah Ad 2h", "then": "no-queen"}, True),
    ("captain-seven", "jack relic after 5h 9h", {"relics": True},
     {"relic": "J", "drawn": "5h 9h"}, True),
    ("captain-seven", "jack relic after Ah 2h", {"relics": True},
     {"relic": "J", "drawn": "Ah 2h"}, True),
    ("captain-seven", "start, queen relic (shipped)", {"relics": True}, {"relic": "Q"}, True),
    ("captain-seven", "queen relic after 7h (shipped)", {"relics": True},
     {"relic": "Q", "drawn": "7h"}, True),
    ("captain-seven", "queen relic after 7h, kept (shipped)", {"relics": True},
     {"relic": "Q", "drawn": "7h", "then": "no-queen"}, True),
    ("captain-seven", "queen after 7h Ah, kept (shipped)", {"relics": True},
     {"relic": "Q", "drawn": "7h Ah", "then": "no-queen"}, True),
    ("captain-seven", "queen after 7h Ah 2h, kept (shipped)", {"relics": True},
     {"relic": "Q", "drawn": "7h Ah 2h", "then": "no-queen"}, True),
    ("captain-seven", "start, jack relic (shipped)", {"relics": True}, {"relic": "J"}, True),
    ("captain-seven", "jack relic after 5h (shipped)", {"relics": True},
     {"relic": "J", "drawn": "5h"}, True),
    ("captain-seven", "jack relic after Ah (shipped)", {"relics": True},
     {"relic": "J", "drawn": "Ah"}, True),
    ("incan-gold", "round 1 start", {}, {"round": 1}, False),
    ("incan-gold", "round 2 start", {}, {"round": 2}, False),
    ("incan-gold", "round 3 start", {}, {"round": 3}, False),
    ("incan-gold", "round 4 start", {}, {"round": 4}, False),
    ("incan-gold", "round 5 start", {}, {"round": 5}, False),
    ("incan-gold", "r5, 4 traps out, 5 artifacts", {},
     {"round": 5, "removed": "5s 9s Ks 2s"}, False),
    ("incan-gold", "round 1, after 9d, 3 explorers", {}, {"drawn": "9d", "others": "5,10"},
     False),
    ("incan-gold", "round 1, after Ad, 2 explorers", {}, {"drawn": "Ad", "others": "10"},
     False),
    ("incan-gold", "round 3, after Ad, 2 explorers", {},
     {"round": 3, "drawn": "Ad", "others": "10"}, False),
    ("incan-gold", "round 1, after Ad, 4 explorers", {}, {"drawn": "Ad", "others": "10,10,10"},
     False),
    ("incan-gold", "round 1, after Ad, 8 explorers", {},
     {"drawn": "Ad", "others": "10,10,10,10,10,10,10"}, False),
    ("incan-gold", "r1 after Ad, 8 explorers, T 3-21", {},
     {"drawn": "Ad", "others": "3,6,9,12,15,18,21"}, False),
    ("incan-gold", "r5, 4 traps out, 5 art., 3 expl.", {},
     {"round": 5, "removed": "5s 9s Ks 2s", "drawn": "Ad", "others": "10,10"}, False),
    # Distinct thresholds (each a threshold bot's own T): the lower and the more distinct,
    # the more states (a survey of round 1-3 positions: 5,10,15 and 1-7 were the largest).
    ("incan-gold", "r2 start, 4 expl., T 5,10,15", {}, {"round": 2, "others": "5,10,15"}, True),
    ("incan-gold", "r3 after Ad, 3 expl., T 5,10", {},
     {"round": 3, "drawn": "Ad", "others": "5,10"}, True),
    ("incan-gold", "r1 after Ad, 8 expl., T 1-7", {},
     {"drawn": "Ad", "others": "1,2,3,4,5,6,7"}, True),
    # The table's 4-explorer game with bots optimal (assumed 10), cautious (10), greedy (30):
    # a round's first decision as the page builds it (carried, path, artifacts), and round 5
    # with four traps out and every artifact still in (the largest deck).
    ("incan-gold", "table r2 after JK, 4 expl. 10,10,30", {},
     {"round": 2, "drawn": "JK", "others": "10,10,30", "carried": 3, "path": 3,
      "artifacts": 0}, False),
    ("incan-gold", "table r3 after 7s, 4 expl. 10,10,30", {},
     {"round": 3, "drawn": "7s", "others": "10,10,30", "carried": 0, "path": 0,
      "artifacts": 0}, False),
    ("incan-gold", "r5, 4 out, 5 art., 4 expl. 10,10,30", {},
     {"round": 5, "removed": "5s 9s Ks 2s", "drawn": "Ad", "others": "10,10,30"}, True),
    ("hit-list", "start, standard", {}, {}, False),
    ("hit-list", "start, high stakes", {"silent_assassin": True, "ghost": True,
                                        "rival_interference": True, "one_last_job": True,
                                        "bad_life": True}, {}, False),
    ("hit-list", "start, long haul", {"long_haul": True}, {}, False),
    ("hit-list", "start, long haul + soft aces", {"long_haul": True, "soft_aces": True}, {},
     False),
    ("hit-list", "start, every option", {"long_haul": True, "soft_aces": True, **HIGH_STAKES},
     {}, False),
    ("hit-list", "start, soft aces + ghost", {"soft_aces": True, "ghost": True}, {}, False),
    ("lands-uncharted", "start, standard", {}, {}, False),
    ("lands-uncharted", "start, all options", ALL_LANDS, {}, False),
    ("lands-uncharted", "start, all options, allies 1", ALL_LANDS, {"allies": 1}, False),
    ("lands-uncharted", "start, all options, allies 2", ALL_LANDS, {"allies": 2}, False),
    ("lands-uncharted", "start, all, score 90 may declare", ALL_LANDS,
     {"may_declare": 90}, False),
    ("lands-uncharted", "start, all, score 90, allies 2", ALL_LANDS,
     {"may_declare": 90, "allies": 2}, False),
    ("lands-uncharted", "start, all, score 95 declared", ALL_LANDS, {"score": 95}, False),
    ("lands-uncharted", "Q♠ Q♦ + d-or-n, score 90", {"cursed_idol": ("spades", "diamonds"),
                                                      "double_or_nothing": True},
     {"may_declare": 90}, False),
    ("lands-uncharted", "all, 1 card left, score 90", ALL_LANDS,
     {"may_declare": 90, "pile": "2h"}, False),
    ("lands-uncharted", "start, solo", {"solo": True}, {}, False),
    ("lands-uncharted", "start, solo, all options", {**ALL_LANDS, "solo": True}, {}, False),
    ("custom", "preset captain-seven", {"preset": "captain-seven"}, {}, False),
    ("custom", "preset lands-uncharted", {"preset": "lands-uncharted"}, {}, False),
    ("custom", "preset hit-list", {"preset": "hit-list"}, {}, False),
    ("custom", "preset pig", {"preset": "pig"}, {}, False),
]
QUICK = {"start, d6", "start, no relic", "round 3 start", "start, high stakes",
         "start, all options", "queen after 7h Ah 2h 3h, kept"}


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _lands_turn_start(variant: Any, may_declare: int | None = None, allies: int = 0,
                      pile: str | None = None) -> tuple[Any, Any]:
    """A Lands Uncharted turn start as the engine builds it: a player whose score
    ``may_declare`` lies in the double-or-nothing window is offered ``declare`` (the command
    line's ``--score`` is a turn already declared); ``pile``: only these cards in the draw
    pile, every other card in the discard pile (the turn reshuffles at once)."""
    from pushluck_teach.cards import parse_cards, standard_cards
    from pushluck_teach.games.lands_uncharted import START, LandsUnchartedTurnModel, pack_counts

    suits = variant.cursed_suits
    cards = parse_cards(pile) if pile else standard_cards()
    counts = pack_counts(cards, suits) - (0 if pile else allies)
    return LandsUnchartedTurnModel.build(variant, (counts, 0, 0, allies, START, 0),
                                         score=may_declare)


def measure_one(game_label: str, solver_kind: str, exact: bool) -> dict[str, Any]:
    """One cold analysis (in this process) of the case ``game/label``: seconds, states, peak
    memory, the answer."""
    sys.path.insert(0, str(HERE))
    from pushluck_teach.games import get_game
    from pushluck_teach.games.base import PositionError

    (game, _, options, position, _), = (case for case in CASES
                                        if f"{case[0]}/{case[1]}" == game_label)
    spec = get_game(game)
    if options.get("cursed_idol") == "all":
        from pushluck_teach.games.lands_uncharted import CURSED_NAMES
        options = {**options, "cursed_idol": CURSED_NAMES}
    if game == "custom":
        options = spec.presets[options["preset"]].changed_options()
    then = position.get("then")  # an action with one outcome taken from the position
    position = {k: v for k, v in position.items() if k != "then"}
    if "may_declare" in position or "pile" in position:
        model, state = _lands_turn_start(spec.variant_cls(**options), **position)
    else:
        model, state = spec.position(spec.variant_cls(**options), **position)
    if then is not None:
        ((_, state),) = model.transitions(state, then)
    if solver_kind == "baseline":
        from baseline_turn_solver import TurnSolver as Solver
    else:
        from pushluck_teach.solve.turn import TurnSolver as Solver
    try:  # loaded in the app's kernel before any click: not part of a position's time
        import numpy  # noqa: F401

        import pushluck_teach.solve.levels  # noqa: F401
    except ImportError:
        pass
    before = _rss_mb()
    result: dict[str, Any] = {}
    try:
        if solver_kind == "new":
            # The page's next-draw numbers: exact probabilities from an exact-mode solver of
            # their own (``ui.analysis.analyse_position``), before and whatever the rest costs.
            start, cpu = time.perf_counter(), time.process_time()
            cheap = Solver(model, exact=True)
            outcomes = cheap.next_outcomes(state)
            cheap.p_bust_next(state)
            result["next_s"] = time.perf_counter() - start
            result["next_cpu"] = time.process_time() - cpu
            result["outcomes"] = len(outcomes)
            del cheap
    except PositionError as error:
        result["refused"] = str(error)
    start, cpu = time.perf_counter(), time.process_time()
    solver = Solver(model, exact=exact)  # timed: a shipped table is loaded here
    try:
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


def export_package(revision: str, into: Path) -> Path:
    """The package as it was at git ``revision``, exported under ``into`` (for ``--before``)."""
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", revision,
                              "pushluck_teach"], capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"--before {revision}: {archive.stderr.decode().strip()}")
    with tempfile.TemporaryFile() as handle:
        handle.write(archive.stdout)
        handle.seek(0)
        with tarfile.open(fileobj=handle) as tar:
            tar.extractall(into, filter="data")
    return into


def run_isolated(game_label: str, solver_kind: str, exact: bool, timeout: float,
                 package_root: Path | None = None) -> dict[str, Any]:
    """One case in a fresh process; ``package_root``: import the package from there (the
    solver as it was at ``--before``)."""
    command = [sys.executable, __file__, "--one", game_label, solver_kind, str(int(exact))]
    env = dict(os.environ)
    if package_root is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(package_root), *filter(None, [env.get("PYTHONPATH")])])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              check=False, env=env)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    if done.returncode != 0:
        return {"failed": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout)


def main(argv: list[str]) -> None:
    if argv[:1] == ["--one"]:
        print(json.dumps(measure_one(argv[1], argv[2], argv[3] == "1")))
        return
    parser = argparse.ArgumentParser(
        description="Worst float and exact analysis time per game over its hardest positions, "
                    "beside the baseline recursion.")
    known = sorted({case[0] for case in CASES})
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"only these games (default: every game): {', '.join(known)}")
    parser.add_argument("--quick", action="store_true", help="one position per game")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the baseline recursion (its figures print as nan)")
    parser.add_argument("--only", metavar="TEXT", default="",
                        help="only the positions whose label contains TEXT (e.g. 'expl.')")
    parser.add_argument("--before", metavar="REV", default=None,
                        help="also time the solver as it was at git revision REV, side by side")
    args = parser.parse_args(argv)
    unknown = [game for game in args.games if game not in known]
    if unknown:  # (argparse's choices refuse an empty list of positional arguments)
        parser.error(f"unknown game {unknown[0]!r}; choose from {', '.join(known)}")
    with tempfile.TemporaryDirectory() as folder:
        before_root = export_package(args.before, Path(folder)) if args.before else None
        run_cases(args, before_root)


def run_cases(args: argparse.Namespace, before_root: Path | None) -> None:
    """Every selected case, printed as it finishes, then the worst per game."""
    quick, baseline, games = args.quick, not args.no_baseline, args.games
    rows = []
    before_head = f"{'before s':>9}{'x before':>9}" if before_root else ""
    print(f"{'game':<16}{'position':<38}{'mode':<6}{'states':>9}{'new s':>8}{'wall s':>8}"
          f"{'next ms':>8}{'MB':>6}{'base s':>8}{'base MB':>8}{'speed-up':>9}{before_head}")
    for game, label, _, _, refused in CASES:
        if (games and game not in games) or (quick and label not in QUICK) \
                or args.only not in label:
            continue
        for exact in (False, True):
            new = run_isolated(f"{game}/{label}", "new", exact, timeout=300)
            base = (run_isolated(f"{game}/{label}", "baseline", exact, timeout=300)
                    if baseline and not refused else {})
            before = (run_isolated(f"{game}/{label}", "new", exact, timeout=300,
                                   package_root=before_root) if before_root else {})
            for other in (base, before):
                if "answer" in new and "answer" in other and new["answer"] != other["answer"]:
                    raise SystemExit(f"{game} {label}: the solvers disagree")
            row = {"game": game, "position": label, "exact": exact, "new": new, "base": base,
                   "before": before}
            rows.append(row)
            mode = "exact" if exact else "float"
            new_s = new.get("seconds", float("nan"))
            base_s = base.get("seconds", float("nan"))
            note = " refused" if "refused" in new else ""
            print(f"{game:<16}{label:<38}{mode:<6}{new.get('states', 0):>9}{new_s:>8.3f}"
                  f"{new.get('wall', float('nan')):>8.3f}"
                  f"{1000 * new.get('next_cpu', float('nan')):>8.1f}{new.get('peak_mb', 0):>6.0f}"
                  f"{base_s:>8.3f}{base.get('peak_mb', float('nan')):>8.0f}"
                  f"{base_s / new_s if base and new_s and not note else float('nan'):>9.2f}"
                  f"{_before_columns(before, new) if before_root else ''}{note}", flush=True)
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
            base = worst["base"]
            base_s = base.get("seconds", float("nan"))
            base_text = (f"baseline {base_s:7.3f} s {base.get('peak_mb', 0):5.0f} MB "
                         f"(x{base_s / worst['new']['seconds']:.1f})" if "seconds" in base
                         else "baseline -")
            before = worst["before"]
            before_text = (f"  before {before['seconds']:7.3f} s {before['states']:>9} states"
                           if "seconds" in before else "")
            print(f"  {game:<16}{mode:<6} {worst['new']['seconds']:7.3f} s  "
                  f"{worst['new']['states']:>9} states  {worst['new']['peak_mb']:6.0f} MB  "
                  f"next draw {1000 * max(r['new']['next_cpu'] for r in answered):6.1f} ms cpu  "
                  f"{base_text}{before_text}  ({worst['position']})")
    print(f"load average {os.getloadavg()[0]:.1f} (CPU seconds above; wall seconds per row)")
    print("targets: float <= 1 s, exact <= 10 s, next-draw outcomes <= 100 ms")


def _before_columns(before: dict[str, Any], new: dict[str, Any]) -> str:
    """The "before s" and "x before" columns: the solver at ``--before`` and the speed-up."""
    before_s = before.get("seconds", float("nan"))
    new_s = new.get("seconds", float("nan"))
    ratio = before_s / new_s if new_s and "refused" not in before else float("nan")
    refused = " (before refused)" if "refused" in before else ""
    return f"{before_s:>9.3f}{ratio:>9.2f}{refused}"


if __name__ == "__main__":
    main(sys.argv[1:])
