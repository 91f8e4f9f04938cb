"""The ``pushluck`` command line.

``pushluck odds GAME [--drawn CARDS] [--removed CARDS] [--allies N] [--ace-values 11,1]
[--round K] [--option KEY=VALUE ...] [--exact] [--json]`` prints the exact analysis of one
position.  ``pushluck solve GAME [--target N] [--players N] [--policy NAME[:ARG] ...]
[--option KEY=VALUE ...] [--exact] [--json]`` prints the exact whole-game answer (the first
player's chance to win, or the turns to reach the target alone).  Bad input exits with status 2
and one line on stderr.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NoReturn

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import GameSpec, RulesError, all_games, get_game
from pushluck_teach.solve.turn import TurnSolver

ODDS_FIELDS = ("p_bust_next", "ev_stop", "ev_draw_once", "ev_optimal")
EXIT_BAD_INPUT = 2


class CliError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(message)


def fraction_text(value: Fraction | None) -> str | None:
    return None if value is None else f"{value.numerator}/{value.denominator}"


POSITION_FLAGS = {
    "drawn": "--drawn", "removed": "--removed", "allies": "--allies",
    "ace_values": "--ace-values", "round": "--round", "relic": "--relic",
    "hits": "--hits", "score": "--score", "others": "--others",
}


def position_arguments(spec: GameSpec, args: argparse.Namespace) -> dict[str, Any]:
    """The position flags given, checked against what the game's position factory takes."""
    accepted = inspect.signature(spec.position).parameters
    kwargs: dict[str, Any] = {}
    for name, flag in POSITION_FLAGS.items():
        value = getattr(args, name, None)
        if value is None:
            continue
        if name not in accepted:
            raise CliError(f"{flag} does not apply to {spec.name}")
        kwargs[name] = value
    return kwargs


def odds_command(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    variant = spec.variant(args.option or [])
    model, state = spec.position(variant, **position_arguments(spec, args))
    analysis = TurnSolver(model, exact=True).analyse(state)
    exact = {name: getattr(analysis, name) for name in ODDS_FIELDS}
    if args.json:
        payload: dict[str, Any] = {"game": spec.name}
        payload.update({k: None if v is None else float(v) for k, v in exact.items()})
        payload["best_action"] = analysis.best_action
        payload["turn_total"] = float(analysis.turn_total)
        if args.exact:
            payload.update({f"{k}_exact": fraction_text(v) for k, v in exact.items()})
        print(json.dumps(payload))
        return 0
    print(f"{spec.title}: {model.describe(state)}")
    labels = {
        "p_bust_next": "P(next draw busts)",
        "ev_stop": "EV if you stop now",
        "ev_draw_once": "EV of one more draw, then stop",
        "ev_optimal": "EV under optimal play",
    }
    for name in ODDS_FIELDS:
        value = exact[name]
        shown = "n/a (not allowed)" if value is None else (
            f"{float(value):.6f}   = {fraction_text(value)}"
        )
        print(f"  {labels[name]:<32} {shown}")
    print(f"  {'Best action':<32} {analysis.best_action}")
    return 0


def solve_command(args: argparse.Namespace) -> int:
    """``pushluck solve GAME``: the whole game (win probabilities, or turns to the goal)."""
    from pushluck_teach.solve.whole_game import solver_for

    spec = get_game(args.game)
    solver = solver_for(spec.name)
    options = list(args.option or [])
    if args.target is not None:
        for item in options:
            key, _, value = item.partition("=")
            if key.strip() == "target" and value.strip() != str(args.target):
                raise CliError(f"--target {args.target} contradicts --option {item}")
        options.append(f"target={args.target}")
    variant = spec.variant(options)
    if not spec.min_players <= args.players <= spec.max_players:
        raise CliError(f"{spec.name} takes {spec.min_players}-{spec.max_players} players, "
                       f"not {args.players}")
    report = solver.report(variant, args.players, list(args.policy or []), exact=args.exact)
    if args.json:
        print(json.dumps(report))
        return 0
    rules = ", ".join(f"{k}={v}" for k, v in variant.options().items())
    print(f"{spec.title}, whole game: {rules}")
    for key, value in report.items():
        if key in ("game", "variant") or isinstance(value, dict):
            continue
        shown = f"{value:.6f}" if isinstance(value, float) and abs(value) >= 1e-3 else value
        if isinstance(value, list):
            shown = " vs ".join(map(str, value))
        print(f"  {key:<20} {shown}")
    return 0


def games_command(args: argparse.Namespace) -> int:
    for spec in all_games():
        print(f"{spec.name:<16} {spec.title}: {spec.blurb}")
        print(f"{'':<16} options: {', '.join(spec.variant_cls.option_names())}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pushluck", description="Exact odds for push-your-luck games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    odds = sub.add_parser("odds", help="exact analysis of one position of a turn")
    odds.add_argument("game", help="lands-uncharted, hit-list, captain-seven, incan-gold, pig")
    odds.add_argument("--drawn", help="this turn's cards, in order (Pig: the rolls)")
    odds.add_argument("--removed", help="cards out of the draw pile for other reasons")
    odds.add_argument("--allies", type=int, help="Lands Uncharted: allies held from earlier turns")
    odds.add_argument("--ace-values", help="Hit List: value chosen for each ace drawn (11,1)")
    odds.add_argument("--round", type=int, help="Incan Gold: the round, 1-5")
    odds.add_argument("--hits", type=int,
                      help="Hit List: hits completed before this job (for one_last_job)")
    odds.add_argument("--score", type=int,
                      help="Lands Uncharted: the score on a declared double-or-nothing turn")
    odds.add_argument("--others", help="Incan Gold: other explorers' leave thresholds, e.g. 5,10")
    odds.add_argument("--relic", help="Captain Seven with relics: the relic held (A, J, Q or K)")
    odds.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option")
    odds.add_argument("--exact", action="store_true", help="add exact fractions to --json")
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    odds.set_defaults(handler=odds_command)

    solve = sub.add_parser("solve", help="the whole game: chance to win, or turns to the goal")
    solve.add_argument("game", help="a game with a whole-game solver (pig, captain-seven)")
    solve.add_argument("--target", type=int, help="the score to reach (the target option)")
    solve.add_argument("--players", type=int, default=2, help="number of players (default 2)")
    solve.add_argument("--policy", action="append", metavar="NAME[:ARG]",
                       help="one per player, in seat order: optimal, hold:20, keep-pace, ...")
    solve.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option")
    solve.add_argument("--exact", action="store_true",
                       help="add exact fractions (small targets only)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(handler=solve_command)

    games = sub.add_parser("games", help="list the games and their options")
    games.set_defaults(handler=games_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return int(args.handler(args))
    except (CliError, RulesError, CardError) as exc:
        print(f"pushluck: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # pragma: no cover
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
