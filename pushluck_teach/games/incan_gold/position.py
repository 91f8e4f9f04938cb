r"""Reading an Incan Gold position: the other explorers' thresholds (``--others``), the
round's deck from the cards out of the game, the round the cards allow, and the position
itself, replayed from the cards flipped or taken from the table's state (``--carried``,
``--path``, ``--artifacts``, checked against the flips).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pushluck_teach.cards import Card, Deck, parse_cards
from pushluck_teach.games.base import PositionError, TurnModel, parse_whole_number
from pushluck_teach.games.incan_gold.rules import (
    ARTIFACT_VALUES,
    FULL_RING,
    FULL_TREASURES,
    GEMS,
    OTHERS_MAX,
    RING,
    IncanGoldVariant,
    RoundDeck,
    classify,
    full_deck,
)
from pushluck_teach.games.incan_gold.turn import (
    IGState,
    IncanGoldGroupModel,
    IncanGoldTurnModel,
)
from pushluck_teach.quoting import quoted


def parse_others(text: str | Sequence[int] | None) -> tuple[int, ...]:
    """``"5,10"`` → ``(5, 10)``: each other explorer's leaving threshold."""
    if text is None:
        return ()
    if isinstance(text, str):
        if not text.strip():
            raise PositionError("others is empty: give each other explorer's threshold "
                                "(e.g. others=5,10), or leave others out to play alone")
        tokens: list[Any] = re.split(r"\s*,\s*|\s+", text.strip())
    elif isinstance(text, (list, tuple)):
        tokens = list(text)
    else:
        raise PositionError(f"others {quoted(text)}: give the thresholds as text such as "
                            "'5,10' or a list of whole numbers")
    values = []
    for token in tokens:
        if isinstance(token, str):
            if not token.strip():
                raise PositionError(f"others {quoted(text)} has an empty threshold between "
                                    "commas (e.g. others=5,10)")
            token = parse_whole_number(token, "threshold in others (e.g. others=5,10)",
                                       PositionError)
        if isinstance(token, bool) or not isinstance(token, int) or token < 0:
            raise PositionError(f"bad threshold {quoted(token)} in others: a threshold is a whole "
                                "number of gems, 0 or more")
        values.append(token)
    if len(values) > OTHERS_MAX:
        raise PositionError(f"others gives {len(values)} explorers: the model takes 1-"
                            f"{OTHERS_MAX} other explorers")
    return tuple(values)


def round_deck(variant: IncanGoldVariant, removed: Sequence[Card], round_no: int) -> RoundDeck:
    """The deck of round ``round_no`` after ``removed`` left the game in earlier rounds."""
    if not 1 <= round_no <= variant.rounds:
        raise PositionError(f"round must be 1-{variant.rounds}, not {round_no}")
    Deck(full_deck()).remove(removed, what="Incan Gold deck")
    traps = FULL_RING
    gone_artifacts = set()
    for card in removed:
        kind, index = classify(card)
        if kind == "treasure":
            raise PositionError(f"treasure {card.code} cannot have left the game: only traps "
                                f"that sprang and flipped artifacts leave")
        if kind == "trap":
            traps &= ~(1 << (index - 1))
        else:
            if index + 1 >= round_no:
                raise PositionError(
                    f"artifact {card.code} joins in round {index + 1}: it cannot have left the "
                    f"game before round {round_no}"
                )
            gone_artifacts.add(index)
    traps_gone = RING - bin(traps).count("1")
    if traps_gone and not variant.remove_sprung_trap:
        raise PositionError("with remove_sprung_trap off no trap ever leaves the game")
    if traps_gone > round_no - 1:
        raise PositionError(
            f"{traps_gone} traps removed, but at most one trap leaves per round "
            f"({round_no - 1} before round {round_no})"
        )
    artifacts = tuple(i for i in range(round_no) if i not in gone_artifacts)
    return RoundDeck(traps, FULL_TREASURES, artifacts)


def infer_round(drawn: Sequence[Card], removed: Sequence[Card]) -> int:
    """The earliest round consistent with the cards (the default of ``--round``)."""
    round_no = 1
    traps_gone = 0
    for card in drawn:
        kind, index = classify(card)
        if kind == "artifact":
            round_no = max(round_no, index + 1)
    for card in removed:
        kind, index = classify(card)
        if kind == "artifact":
            round_no = max(round_no, index + 2)
        elif kind == "trap":
            traps_gone += 1
    return max(round_no, traps_gone + 1)


def incan_gold_position(variant: IncanGoldVariant, *, drawn: str | Sequence[Card] | None = None,
                        removed: str | Sequence[Card] | None = None, round: int | None = None,
                        others: str | Sequence[int] | None = None,
                        carried: int | None = None, path: int | None = None,
                        artifacts: int | None = None,
                        ) -> tuple[TurnModel[IGState], IGState]:
    """A solo explorer's position (or, with ``others="5,10"``, explorer 0's among explorers
    who leave once carrying 5 and 10 gems).  ``drawn``: cards flipped this round, in order;
    ``removed``: cards out of the game from earlier rounds; ``round``: 1-5 (default: the
    earliest round the cards allow).

    Without ``carried`` the round is replayed from ``drawn`` (everyone in ``others`` inside
    from the start, leaving at their thresholds).  With ``carried`` (the gems the decider
    carries now), ``path`` (gems left on the path) and ``artifacts`` (the value of the
    artifacts on the path) the position is the table's state as it is, whoever left before:
    ``others`` then lists the explorers still inside."""
    flips = parse_cards(drawn)
    gone = parse_cards(removed)
    for card in (*flips, *gone):
        classify(card)
    Deck(full_deck()).remove(gone, what="Incan Gold deck")  # before the round is inferred
    if isinstance(round, str):
        round = parse_whole_number(round, "round", PositionError)
    round_no = infer_round(flips, gone) if round is None else round
    if isinstance(round_no, bool) or not isinstance(round_no, int) \
            or not 1 <= round_no <= variant.rounds:
        raise PositionError(f"round must be 1-{variant.rounds}, not {round_no!r}")
    for card in flips:
        kind, index = classify(card)
        if kind == "artifact" and index + 1 > round_no:
            raise PositionError(f"artifact {card.code} joins in round {index + 1}, after round "
                                f"{round_no}")
    deck = round_deck(variant, gone, round_no)
    assumed = round_no if round is None else None
    thresholds = parse_others(others)
    model: TurnModel[IGState]
    if carried is not None or path is not None or artifacts is not None:
        return _state_position(variant, deck, flips, thresholds, carried, path, artifacts)
    if thresholds:
        model = IncanGoldGroupModel(variant, thresholds, deck, flips, assumed_round=assumed)
    else:
        model = IncanGoldTurnModel(variant, deck, flips, assumed_round=assumed)
    return model, model.start


def _state_position(variant: IncanGoldVariant, deck: RoundDeck, flips: Sequence[Card],
                    thresholds: tuple[int, ...], carried: int | None, path: int | None,
                    artifacts: int | None) -> tuple[TurnModel[IGState], IGState]:
    """The position from the table's state (see :func:`incan_gold_position`)."""
    counts: dict[str, int] = {}
    for what, value in (("carried", carried), ("path", path), ("artifacts", artifacts)):
        if isinstance(value, str):
            value = parse_whole_number(value, f"--{what}", PositionError)
        value = 0 if value is None else value
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PositionError(f"bad --{what} {quoted(value)}: a whole number of gems, 0 or more")
        counts[what] = value
    if not flips:
        raise PositionError("--carried, --path and --artifacts describe a round in progress: "
                            "give the cards flipped (--drawn)")
    _check_table_state(flips, len(thresholds) + 1 if thresholds else None, counts)
    solo = IncanGoldTurnModel(variant, deck)
    total = counts["carried"] + counts["path"] + counts["artifacts"]
    state = solo.state_for(flips, total)
    if not thresholds or state[0] != "in":
        return solo, state
    group = IncanGoldGroupModel(variant, thresholds, deck)
    full = (1 << len(thresholds)) - 1
    return group, ("in", *state[1:4], counts["carried"], full, counts["path"],
                   counts["artifacts"])


def _table_states(flips: Sequence[Card], inside: int | None) -> set[tuple[int, int, int]]:
    """Every ``(carried, path, artifacts)`` the flips can leave (the decider's gems, the gems
    and artifact value on the path), over every table of 1-8 explorers and every way they can
    have left between flips, with ``inside`` explorers (the decider too) inside now (``None``:
    any number).  Shares follow the engine: a treasure splits evenly among those inside, the
    remainder to the path; leavers split the path, a lone leaver takes its artifacts."""
    least = inside or 1
    states = {(n, 0, 0, 0) for n in range(least, OTHERS_MAX + 2)}
    for step, card in enumerate(flips):
        if step:
            for n, carried, path, arts in list(states):
                for leavers in range(1, n - least + 1):
                    states.add((n - leavers, carried, path % leavers,
                                0 if leavers == 1 else arts))
        kind, index = classify(card)
        if kind == "treasure":
            states = {(n, c + GEMS[index] // n, p + GEMS[index] % n, a)
                      for n, c, p, a in states}
        elif kind == "artifact":
            states = {(n, c, p, a + ARTIFACT_VALUES[index]) for n, c, p, a in states}
    return {(c, p, a) for n, c, p, a in states if inside is None or n == inside}


def _check_table_state(flips: Sequence[Card], inside: int | None,
                       counts: Mapping[str, int]) -> None:
    """A :class:`PositionError` when ``--carried``, ``--path`` and ``--artifacts`` cannot
    follow from the flips (:func:`_table_states`)."""
    states = _table_states(flips, inside)
    given = (counts["carried"], counts["path"], counts["artifacts"])
    if given in states:
        return
    who = "with nobody else inside" if inside == 1 else (
        f"with {inside} explorers inside" if inside else "with any table of 1-8 explorers")
    arts = sorted({a for _, _, a in states})
    if counts["artifacts"] not in arts:
        flipped = [c.code for c in flips if classify(c)[0] == "artifact"]
        raise PositionError(
            f"--artifacts {counts['artifacts']}: the artifacts flipped this round "
            f"({' '.join(flipped) or 'none'}) can leave only {_listed(arts)} on the path")
    carried = sorted({c for c, p, a in states if a == counts["artifacts"]
                      and p == counts["path"]})
    hint = (f"with that path you could carry {_listed(carried)}" if carried
            else f"no split leaves {counts['path']} on the path")
    raise PositionError(f"--carried {counts['carried']} and --path {counts['path']} cannot "
                        f"follow these flips {who} ({hint})")


def _listed(values: Sequence[int]) -> str:
    shown = ", ".join(map(str, values[:8]))
    return shown + (", ..." if len(values) > 8 else "")
