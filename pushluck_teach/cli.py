"""The ``pushluck`` command line.

``pushluck odds GAME [--drawn CARDS] [--removed CARDS] [--allies N] [--ace-values 11,1]
[--round K] [--option KEY=VALUE ...] [--exact] [--json]`` prints the exact analysis of one
position.  ``pushluck solve GAME [--target N] [--players N] [--policy NAME[:ARG] ...]
[--option KEY=VALUE ...] [--exact] [--json]`` prints the exact whole-game answer (the first
player's chance to win, or the turns to reach the target alone).  ``pushluck record GAME --seed S
--seats BOT,BOT [--option KEY=VALUE ...]`` plays a bot game and prints its record (JSON,
docs/game-record.md); ``pushluck review RECORD.json [--json]`` prints the review of a recorded
game (each decision's cost, each seat's skill and luck).  Bad input exits with status 2 and one
line on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, NoReturn

from pushluck_teach.cards import CardError
from pushluck_teach.games.base import (
    DRAW,
    STOP,
    Flag,
    GameSpec,
    Report,
    RulesError,
    Variant,
    all_games,
    get_game,
    whole_number,
)
from pushluck_teach.games.rules_format import read_rules_file
from pushluck_teach.numbers import fraction_text
from pushluck_teach.quoting import one_line, quoted
from pushluck_teach.solve.turn import Cancelled, TooManyStates, TurnSolver, watching

ODDS_FIELDS = ("p_bust_next", "ev_stop", "ev_draw_once", "ev_optimal")
#: ``pushluck odds`` adds exact fractions by itself while they need at most this many newly
#: solved states (under half a second); beyond, decimals at once, fractions with ``--exact``.
CHEAP_EXACT_STATES = 60_000
EXIT_BAD_INPUT = 2
#: Local processes a sweep may start (each a Python with the solver: about 150 MB).
MAX_WORKERS = 64
#: 128 + SIGPIPE: what a shell reports for a command whose reader closed the pipe.
EXIT_BROKEN_PIPE = 141


class CliError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(message)


class _Once(argparse.Action):
    """A flag that holds one value: given twice it is refused (argparse would keep the last)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given: dict[str, Any] = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in given:
            raise CliError(f"{option_string} given twice ({quoted(given[self.dest])} and "
                           f"{quoted(values)}): give it once")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


def position_flags() -> dict[str, str]:
    """Every registered game's position flags: ``{"ace_values": "--ace-values", ...}``."""
    return {flag.name: flag.flag for spec in all_games() for flag in spec.position_flags}


#: The position flags of the games in ``games/`` (registered when this module loads).
POSITION_FLAGS = position_flags()


def game_flags(specs: Sequence[GameSpec], pick: Callable[[GameSpec], Sequence[Flag]]
               ) -> dict[str, tuple[Flag, str]]:
    """Every flag the games take (by name), with a help text naming the games that take it
    when not all of them do: ``{"allies": (Flag, "allies held ... (lands-uncharted)")}``."""
    takers: dict[str, list[tuple[GameSpec, Flag]]] = {}
    for spec in specs:
        for flag in pick(spec):
            takers.setdefault(flag.name, []).append((spec, flag))
    merged: dict[str, tuple[Flag, str]] = {}
    for name, pairs in takers.items():
        first = pairs[0][1]
        if any(flag.type is not first.type or flag.positional != first.positional
               for _, flag in pairs):
            raise RulesError(f"games disagree on the type of {first.flag}")
        helps: dict[str, list[str]] = {}
        for spec, flag in pairs:
            helps.setdefault(flag.help, []).append(spec.name)
        everyone = len(pairs) == len(specs)
        parts = [text if everyone and len(helps) == 1 else f"{text} ({', '.join(games)})"
                 for text, games in helps.items()]
        merged[name] = (first, "; ".join(parts))
    return merged


def add_flags(parser: argparse.ArgumentParser, flags: dict[str, tuple[Flag, str]]) -> None:
    for flag, help_text in flags.values():
        if flag.positional:
            parser.add_argument(flag.name, type=flag.type, metavar=flag.metavar,
                                help=help_text.replace("%", "%%"))
        else:
            parser.add_argument(flag.flag, dest=flag.name, type=flag.type, metavar=flag.metavar,
                                action=_Once, help=help_text.replace("%", "%%"))


def flag_values(spec_flags: Sequence[Flag], all_flags: Iterable[str], spec: GameSpec,
                args: argparse.Namespace) -> dict[str, Any]:
    """The flags given, each checked against what ``spec`` takes."""
    taken = {flag.name for flag in spec_flags}
    values: dict[str, Any] = {}
    for name in all_flags:
        value = getattr(args, name, None)
        if value is None:
            continue
        if name not in taken:
            raise CliError(f"--{name.replace('_', '-')} does not apply to {spec.name}")
        values[name] = value
    return values


def variant_from_args(spec: GameSpec, options: Sequence[str],
                      args: argparse.Namespace) -> Variant:
    """The variant the command line describes: ``--rules FILE`` (a rule file, for games that
    read them) with the ``--option``s on top."""
    path = getattr(args, "rules", None)
    if path is None:
        return spec.variant(options)
    if spec.variant_from_text is None:
        raise CliError(f"--rules does not apply to {spec.name}")
    return spec.variant(options, rules=read_rules_file(path))


def add_rules_flag(parser: argparse.ArgumentParser, specs: Sequence[GameSpec]) -> None:
    """``--rules FILE`` where some game reads rule files."""
    readers = [spec.name for spec in specs if spec.variant_from_text is not None]
    if readers:
        parser.add_argument("--rules", metavar="FILE", action=_Once,
                            help=f"a rule file (JSON) defining the variant ({', '.join(readers)})")


def _fractions_budget(solver: TurnSolver[Any], budget: int | None) -> Callable[[int], None]:
    """A solve checkpoint that stops ``solver`` (:class:`Cancelled`) once it has solved more
    than ``budget`` new states (states seeded from a shipped table are free)."""
    seeded = solver.states_solved()

    def check(solved: int) -> None:
        if budget is not None and solved - seeded > budget:
            raise Cancelled

    return check


def odds_command(args: argparse.Namespace) -> int:
    spec = get_game(args.game)
    variant = variant_from_args(spec, args.option or [], args)
    position = flag_values(spec.position_flags, args.flag_names, spec, args)
    if args.objective == "win":
        return win_odds(spec, variant, position, args)
    if spec.odds is not None:
        return print_report(spec.odds(variant, position), args)
    model, state = spec.position(variant, **position)
    decimals_only = ""
    exact_solver = TurnSolver(model, exact=True)
    try:
        with watching(_fractions_budget(exact_solver, None if args.exact else CHEAP_EXACT_STATES)):
            analysis = exact_solver.analyse(state)
    except TooManyStates as refused:
        # Too large for fractions: the same model solved in floats (as the app's page does),
        # said on the first line; a position too large for that too is refused.
        analysis = TurnSolver(model).analyse(state)
        decimals_only = ("fractions would need "
                         + str(refused).split(":")[0].replace("this position needs ", ""))
    except Cancelled:
        # Fractions here take seconds: decimals at once, as the page shows them.
        analysis = TurnSolver(model).analyse(state)
        decimals_only = (f"fractions need over {CHEAP_EXACT_STATES:,} solver states here; "
                         "add --exact for them")
    exact = {name: getattr(analysis, name) for name in ODDS_FIELDS}
    if decimals_only:
        # The next draw's bust chance is one step ahead: still exact.
        with contextlib.suppress(TooManyStates):
            exact["p_bust_next"] = TurnSolver(model, exact=True).p_bust_next(state)
    fraction_fields = {name for name, value in exact.items()
                       if not decimals_only or isinstance(value, Fraction)}
    if args.json:
        payload: dict[str, Any] = {"game": spec.name}
        if decimals_only:
            payload["exact_refused"] = f"exact {decimals_only}"
        payload.update({k: None if v is None else float(v) for k, v in exact.items()})
        payload["best_action"] = analysis.best_action
        payload["turn_total"] = float(analysis.turn_total)
        if model.assumed():
            payload["assumed"] = model.assumed()
        payload.update({f"{k}_exact": fraction_text(v) for k, v in exact.items()
                        if k in fraction_fields})
        print(json.dumps(payload))
        return 0
    print(f"{spec.title}: {model.describe(state)}")
    if decimals_only:
        print(f"  Decimals only: exact {decimals_only} (solved in floating point, as the "
              "app's page does)")
    for name, value in model.assumed().items():
        flag = "--" + name.replace("_", "-")
        print(f"  Assumed {name.replace('_', ' ')} {value} (the earliest the cards allow; "
              f"give {flag} to choose)")
    labels = {
        "p_bust_next": "P(next draw busts)",
        "ev_stop": "EV if you stop now",
        "ev_draw_once": "EV of one more draw, then stop",
        "ev_optimal": "EV under optimal play",
    }
    for name in ODDS_FIELDS:
        value = exact[name]
        shown = "n/a (not allowed)" if value is None else (
            f"{float(value):.6f}" if name not in fraction_fields
            else f"{float(value):.6f}   = {fraction_text(value)}"
        )
        print(f"  {labels[name]:<32} {shown}")
    print(f"  {'Best action':<32} {analysis.best_action}")
    return 0


def win_odds(spec: GameSpec, variant: Any, position: dict[str, Any],
             args: argparse.Namespace) -> int:
    """``pushluck odds GAME --objective win``: the chance to win after each action now (two
    players, both playing the whole-game optimum afterwards), from ``--score``/``--opponent``."""
    from pushluck_teach.solve.whole_game import solver_for

    if spec.whole_game is None:
        raise CliError(f"--objective win needs a whole-game solution; {spec.name} has none "
                       "(games: " + ", ".join(s.name for s in all_games() if s.whole_game) + ")")
    taken = {flag.name for flag in spec.position_flags}
    if not {"score", "opponent"} <= taken:
        raise CliError(f"--objective win is not available for {spec.name} yet (it needs "
                       "--score and --opponent)")
    model, state = spec.position(variant, **position)
    if not model.actions(state):
        raise CliError("the turn is over: nothing to decide")
    task = solver_for(spec.name).action_win_chances(
        variant, int(position.get("score") or 0), int(position.get("opponent") or 0),
        model, state)
    if task is None:
        raise CliError(f"the whole-game solution of {spec.name} does not cover these options")
    chances = task()
    draw, stop = chances.get(DRAW), chances.get(STOP)
    best = STOP if stop is not None and (draw is None or stop >= draw) else DRAW
    if args.json:
        print(json.dumps({"game": spec.name, "objective": "win", "p_win_draw": draw,
                          "p_win_stop": stop, "best_action": best}))
        return 0
    print(f"{spec.title}: {model.describe(state)}; the chance to win (both playing for the win)")
    for name, value in (("if you draw now", draw), ("if you stop now", stop)):
        shown = "n/a (not allowed)" if value is None else f"{value:.6f}"
        print(f"  {name:<32} {shown}")
    print(f"  {'Best action':<32} {best}")
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
    variant = variant_from_args(spec, options, args)
    if not spec.min_players <= args.players <= spec.max_players:
        raise CliError(f"{spec.name} takes {spec.min_players}-{spec.max_players} players, "
                       f"not {args.players}")
    report = solver.report(variant, args.players, list(args.policy or []), exact=args.exact)
    if args.json:
        print(json.dumps(report.as_json()))
        return 0
    rules = ", ".join(f"{k}={v}" for k, v in variant.options().items())
    print(f"{spec.title}, whole game: {rules}")
    for key, value in report.items:
        if isinstance(value, dict):
            continue
        shown = f"{value:.6f}" if isinstance(value, float) and abs(value) >= 1e-3 else value
        if isinstance(value, list):
            shown = " vs ".join(map(str, value))
        print(f"  {key:<20} {shown}")
    return 0


def sweep_command(args: argparse.Namespace) -> int:
    """``pushluck sweep GAME --option KEY=A..B[:STEP]``: solve every point; progress on stderr;
    Ctrl-C stops after the point running and prints the points done."""
    import signal
    import threading

    from pushluck_teach.solve.sweep import parse_sweep_option, run_sweep

    spec = get_game(args.game)
    if not spec.has_turn_model:
        raise CliError(f"sweep covers games with a draw/stop turn; {spec.name} has none")
    ranged = [item for item in args.option or [] if ".." in item.partition("=")[2]]
    if len(ranged) != 1:
        raise CliError("give exactly one --option KEY=A..B[:STEP] to sweep "
                       f"({len(ranged)} given)")
    key, values = parse_sweep_option(ranged[0])
    fixed = [item for item in args.option or [] if item is not ranged[0]]
    for item in fixed:
        if item.partition("=")[0].strip() == key:
            raise CliError(f"--option {quoted(item)} contradicts the sweep {quoted(ranged[0])}: "
                           "give the swept option once")
    variant = variant_from_args(spec, fixed, args)
    if key not in variant.options():
        raise CliError(f"unknown option {quoted(key)} for {spec.name} "
                       f"(options: {', '.join(variant.options())})")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise CliError(f"--workers must be 1-{MAX_WORKERS} (local processes), not "
                       f"{args.workers}")
    stop = threading.Event()

    def interrupted(signum: int, frame: object) -> None:
        print("pushluck: stopping: keeping the points done", file=sys.stderr)
        stop.set()
        signal.signal(signal.SIGINT, previous)

    def progress(done: int, total: int, point: Any) -> None:
        what = point.error or f"{point.seconds:.2f} s"
        print(f"[{done}/{total}] {key}={point.value}: {what}", file=sys.stderr, flush=True)

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        result = run_sweep(spec, variant, key, values, turn=not args.skip_turn,
                           whole_game=args.whole_game, workers=args.workers,
                           scheduler=args.scheduler, progress=progress, stop=stop)
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    print(f"{spec.title}: {key} over {len(values)} points"
          + (f" (stopped after {len(result.points)})" if result.stopped else ""))
    for point in result.points:
        if point.error:
            print(f"  {key}={point.value}: {point.error}")
            continue
        parts = []
        if point.turn_value is not None:
            parts.append(f"turn value {point.turn_value:.4f}, bust risk {point.bust_risk:.4f}, "
                         f"threshold {point.threshold if point.threshold is not None else '-'}")
        if point.win_chance is not None:
            parts.append(f"first player wins {point.win_chance:.4f}")
        print(f"  {key}={point.value}: " + "; ".join(parts or ["(nothing asked)"]))
    return 0


def record_command(args: argparse.Namespace) -> int:
    """``pushluck record GAME --seed S --seats A,B``: play a bot game and print its record."""
    from pushluck_teach.sim.record import play_recorded_game

    spec = get_game(args.game)
    variant = variant_from_args(spec, args.option or [], args)
    seats = [text.strip() for text in args.seats.split(",")]
    if any(not text for text in seats):
        raise CliError(f"--seats {quoted(args.seats)}: name a bot for every seat, separated by "
                       "commas (optimal,threshold:20)")
    record = play_recorded_game(spec, variant, seats, args.seed)
    sys.stdout.write(record.to_json())
    return 0


#: The most bytes ``pushluck review`` reads (a record is far smaller).
MAX_RECORD_BYTES = 4_000_000


def read_record_text(path: str) -> str:
    """A record file's text (``-``: standard input), read safely: a regular file of at most
    :data:`MAX_RECORD_BYTES` (:func:`~pushluck_teach.games.rules_format.read_regular_file`),
    UTF-8; every refusal one line naming the path."""
    from pushluck_teach.games.rules_format import read_regular_file

    limit = f"{MAX_RECORD_BYTES:,} bytes"
    if path == "-":
        raw = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        shown = "standard input"
        if len(raw) > MAX_RECORD_BYTES:
            raise CliError(f"game record {shown}: longer than a game record can be ({limit})")
    else:
        shown = quoted(path, tail=True)
        raw = read_regular_file(path, what="game record", max_bytes=MAX_RECORD_BYTES,
                                limit=limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CliError(f"game record {shown} is not UTF-8 text") from None


def review_command(args: argparse.Namespace) -> int:
    """``pushluck review RECORD.json``: every decision's cost, each seat's skill and luck."""
    from pushluck_teach.games.record import GameRecord
    from pushluck_teach.solve.review import review_game

    record = GameRecord.from_json(read_record_text(args.record))
    progress = None
    if sys.stderr.isatty():
        def progress(done: int, total: int) -> None:
            print(f"\rreviewing: move {done} of {total}", end="", file=sys.stderr, flush=True)
    review = review_game(record, progress=progress)
    if progress is not None:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(review.as_json()))
        return 0
    for line in review.text_lines():
        print(line)
    return 0


def print_report(report: Report, args: argparse.Namespace) -> int:
    """Print a game's own report (its odds, a score...)."""
    if getattr(args, "json", False):
        print(json.dumps(report.as_json(exact=getattr(args, "exact", False))))
    else:
        for line in report.text_lines():
            print(line)
    return 0


def add_positionals(parser: argparse.ArgumentParser, name: str,
                    offering: Sequence[GameSpec]) -> None:
    """A game command's positional arguments, shared by place (not by name) among the games
    offering it: ``pushluck score GAME EXPEDITION`` and ``pushluck score GAME HAND`` are one
    parser."""
    by_place: list[list[tuple[GameSpec, Flag]]] = []
    for spec in offering:
        command = next(c for c in spec.commands if c.name == name)
        for place, flag in enumerate(f for f in command.flags if f.positional):
            if place == len(by_place):
                by_place.append([])
            by_place[place].append((spec, flag))
    for place, pairs in enumerate(by_place):
        metavar = "|".join(dict.fromkeys(flag.metavar or flag.name.upper() for _, flag in pairs))
        help_text = "; ".join(f"{flag.help} ({spec.name})" for spec, flag in pairs)
        parser.add_argument(f"_arg{place}", metavar=metavar, help=help_text.replace("%", "%%"))


def game_command(args: argparse.Namespace) -> int:
    """An extra subcommand a game offers (``pushluck score GAME ...``)."""
    spec = get_game(args.game)
    command = next((c for c in spec.commands if c.name == args.command), None)
    if command is None:
        offering = [s.name for s in all_games() if any(c.name == args.command
                                                        for c in s.commands)]
        raise CliError(f"{args.command} does not apply to {spec.name} "
                       f"(games: {', '.join(offering)})")
    variant = variant_from_args(spec, args.option or [], args)
    values = flag_values(command.flags, args.flag_names, spec, args)
    for place, flag in enumerate(f for f in command.flags if f.positional):
        values[flag.name] = flag.type(getattr(args, f"_arg{place}"))
    return print_report(command.run(variant, values), args)


def games_command(args: argparse.Namespace) -> int:
    for spec in all_games():
        print(f"{spec.name:<16} {spec.title}: {spec.blurb}")
        print(f"{'':<16} options: {', '.join(spec.variant_cls.option_names())}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pushluck", description="Exact odds for push-your-luck games.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    specs = all_games()
    names = ", ".join(spec.name for spec in specs)
    odds = sub.add_parser("odds", help="exact analysis of one position of a turn")
    odds.add_argument("game", help=names)
    position = game_flags(specs, lambda spec: spec.position_flags)
    add_flags(odds, position)
    odds.set_defaults(flag_names=tuple(position))
    add_rules_flag(odds, specs)
    odds.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option")
    odds.add_argument("--objective", choices=("points", "win"), default="points", action=_Once,
                      help="points: this turn's points (default); win: the chance to win the "
                           "game after each action (games with a whole-game solution)")
    odds.add_argument("--exact", action="store_true",
                      help="exact fractions even where they take seconds")
    odds.add_argument("--json", action="store_true", help="print one JSON object")
    odds.set_defaults(handler=odds_command)

    solve = sub.add_parser("solve", help="the whole game: chance to win, or turns to the goal")
    solvable = ", ".join(spec.name for spec in specs if spec.whole_game)
    solve.add_argument("game", help=f"a game with a whole-game solver ({solvable})")
    solve.add_argument("--target", type=whole_number, action=_Once,
                       help="the score to reach (the target option)")
    solve.add_argument("--players", type=whole_number, default=2, action=_Once,
                       help="number of players (default 2)")
    solve.add_argument("--policy", action="append", metavar="NAME[:ARG]",
                       help="one per player, in seat order: win-optimal (or optimal), "
                            "hold:20, threshold:30, keep-pace, turn-optimal, ...")
    add_rules_flag(solve, specs)
    solve.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option")
    solve.add_argument("--exact", action="store_true",
                       help="add exact fractions (small targets only)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(handler=solve_command)

    sweep = sub.add_parser("sweep", help="vary one option over a range and solve every point")
    sweep.add_argument("game", help=names)
    add_rules_flag(sweep, specs)
    sweep.add_argument("--option", action="append", metavar="KEY=VALUE",
                       help="a rule option; exactly one as KEY=A..B[:STEP] is swept")
    sweep.add_argument("--whole-game", action="store_true",
                       help="add the first player's win chance (games with a whole-game solver)")
    sweep.add_argument("--skip-turn", action="store_true",
                       help="skip the turn analysis (turn value, stop rule, bust risk)")
    sweep.add_argument("--workers", type=whole_number, default=1, action=_Once,
                       help="local processes solving points in parallel (default 1)")
    sweep.add_argument("--scheduler", metavar="ADDR", action=_Once,
                       help="a dask.distributed scheduler, e.g. tcp://host:8786")
    sweep.add_argument("--json", action="store_true", help="print one JSON object")
    sweep.set_defaults(handler=sweep_command)

    record = sub.add_parser("record", help="play a game between bots and print its record "
                                           "(JSON, docs/game-record.md)")
    record.add_argument("game", help=names)
    record.add_argument("--seed", type=whole_number, default=1, action=_Once,
                        help="the deal (default 1): the same seed deals the same game")
    record.add_argument("--seats", required=True, action=_Once, metavar="BOT,BOT",
                        help="one bot per seat, separated by commas: optimal, threshold:20, "
                             "cautious, greedy, or a game's own bots (Lost Cities: simple, "
                             "odds, search)")
    add_rules_flag(record, specs)
    record.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option")
    record.set_defaults(handler=record_command)

    review = sub.add_parser("review", help="review a recorded game: each decision's cost, "
                                           "each seat's skill and luck")
    review.add_argument("record", metavar="RECORD.json",
                        help="a game record (from pushluck record or a Play page; - reads "
                             "standard input)")
    review.add_argument("--json", action="store_true", help="print one JSON object")
    review.set_defaults(handler=review_command)

    extra: dict[str, list[GameSpec]] = {}
    for spec in specs:
        for command in spec.commands:
            extra.setdefault(command.name, []).append(spec)
    for name, offering in extra.items():
        first = next(c for c in offering[0].commands if c.name == name)
        sub_parser = sub.add_parser(name, help=first.help)
        sub_parser.add_argument("game", help=", ".join(spec.name for spec in offering))
        flags = game_flags(offering, lambda spec, name=name: tuple(
            f for f in next(c.flags for c in spec.commands if c.name == name)
            if not f.positional))
        add_positionals(sub_parser, name, offering)
        add_flags(sub_parser, flags)
        add_rules_flag(sub_parser, offering)
        sub_parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                                help="a rule option")
        sub_parser.add_argument("--exact", action="store_true", help="add exact fractions")
        sub_parser.add_argument("--json", action="store_true", help="print one JSON object")
        sub_parser.set_defaults(handler=game_command, flag_names=tuple(flags))

    games = sub.add_parser("games", help="list the games and their options")
    games.set_defaults(handler=games_command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        status = int(args.handler(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the handler below
        return status
    except (CliError, RulesError, CardError) as exc:
        print(f"pushluck: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    except BrokenPipeError:
        # The reader went away (`pushluck ... | head`): stop quietly, as `cat` does, with the
        # status a shell reports for SIGPIPE; later flushes go to /dev/null, not to a traceback.
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        # Output that cannot be written (`pushluck games > /dev/full`): one line, and the
        # buffered rest goes to /dev/null at exit instead of a second error.
        what = (f"cannot write the output: {exc.strerror or exc}" if exc.filename is None
                else f"{quoted(exc.filename, tail=True)}: {exc.strerror or exc}")
        _drop_stdout()
        print(f"pushluck: error: {what}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _drop_stdout() -> None:
    """Send whatever is still buffered for stdout to /dev/null (the real stdout failed)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):  # stdout is not a real file
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
